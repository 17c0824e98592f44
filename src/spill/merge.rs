//! Sorted runs of frames and their k-way merge: the external sort that puts
//! whatever the users spilled back in one order, by a key each frame holds.
//!
//! A user sorts frames in memory into a run at a time ([`RunBuf`]); runs
//! share one anonymous file, each written at an offset reserved
//! atomically, so runs made in parallel need no lock. [`Merge`] hands on
//! the frames of several streams in key order (ties in stream order, so a
//! stream's equal keys leave it in its own order); more runs than one
//! merge can read at once are merged in passes ([`reduce`]).

use super::file::{Extent, Frames, Spill, Src, Task};
use super::frame::put_varint;
use anyhow::Result;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One sorted run of frames.
#[derive(Debug, Clone)]
pub(crate) enum Run {
    /// Kept in memory.
    Mem(Vec<u8>),
    /// A range of the runs file.
    File(Extent),
}

impl Run {
    pub fn len(&self) -> u64 {
        match self {
            Run::Mem(v) => v.len() as u64,
            Run::File(e) => e.len,
        }
    }
}

/// The runs file, a [`Spill`] created on first use.
pub(crate) struct RunStore {
    task: Task,
    dir: Option<PathBuf>,
    spill: OnceLock<Spill>,
}

/// Bytes gathered before a `pwrite` of a run.
const WRITE_CHUNK: usize = 256 * 1024;

impl RunStore {
    pub fn new(task: Task, dir: Option<PathBuf>) -> RunStore {
        RunStore {
            task,
            dir,
            spill: OnceLock::new(),
        }
    }

    fn spill(&self) -> Result<&Spill> {
        if let Some(s) = self.spill.get() {
            return Ok(s);
        }
        let s = Spill::new(self.task, self.dir.as_deref(), true)?;
        // Two threads may both create one; the loser's vanishes on drop.
        Ok(self.spill.get_or_init(|| s))
    }

    /// Bytes written to the runs file so far.
    pub fn bytes(&self) -> u64 {
        self.spill.get().map_or(0, Spill::bytes)
    }

    /// A writer of exactly `len` bytes at a range reserved for it.
    pub fn writer(&self, len: u64) -> Result<RunWriter<'_>> {
        let spill = self.spill()?;
        Ok(RunWriter {
            spill,
            off: spill.reserve(len),
            len,
            written: 0,
            buf: Vec::with_capacity(WRITE_CHUNK.min(len as usize)),
        })
    }

    /// The merge of `runs` by `key`, each read through `cap` bytes.
    pub fn merge<'a, K: Ord, F: Fn(&[u8]) -> Option<K>>(
        &'a self,
        runs: &'a [Run],
        cap: usize,
        key: F,
    ) -> Result<Merge<'a, K, F>> {
        let mut frames = Vec::with_capacity(runs.len());
        for run in runs {
            frames.push(match run {
                Run::Mem(v) => Frames::new(self.task, Src::Mem(v), cap),
                Run::File(e) => {
                    let spill = self.spill.get().ok_or_else(|| self.task.corrupt())?;
                    spill.frames(std::slice::from_ref(e), cap)
                }
            });
        }
        Merge::new(frames, key)
    }
}

/// Writes one run's frames at its reserved range.
pub(crate) struct RunWriter<'a> {
    spill: &'a Spill,
    off: u64,
    len: u64,
    written: u64,
    buf: Vec<u8>,
}

impl RunWriter<'_> {
    /// Appends a whole frame (length included).
    #[inline]
    pub fn push(&mut self, frame_with_len: &[u8]) -> Result<()> {
        self.buf.extend_from_slice(frame_with_len);
        if self.buf.len() >= WRITE_CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends a frame's bytes, its length put before them.
    #[inline]
    pub fn push_frame(&mut self, frame: &[u8]) -> Result<()> {
        put_varint(&mut self.buf, frame.len() as u64);
        self.push(frame)
    }

    fn flush(&mut self) -> Result<()> {
        self.spill.write_at(&self.buf, self.off + self.written)?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    pub fn finish(mut self) -> Result<Run> {
        self.flush()?;
        // The range was reserved for exactly these bytes.
        anyhow::ensure!(
            self.written == self.len,
            "{}: a run of {} bytes was written as {}",
            self.spill.task.0,
            self.len,
            self.written
        );
        Ok(Run::File(Extent {
            off: self.off,
            len: self.len,
        }))
    }
}

/// Frames waiting to be sorted into a run.
pub(crate) struct RunBuf<K> {
    frames: Vec<u8>,
    /// Each frame's key and its range in `frames`.
    keys: Vec<(K, usize, usize)>,
}

impl<K> Default for RunBuf<K> {
    fn default() -> Self {
        RunBuf {
            frames: Vec::new(),
            keys: Vec::new(),
        }
    }
}

impl<K: Ord + Copy> RunBuf<K> {
    /// Room for `frames` frames of about `bytes` bytes each.
    pub fn with_capacity(frames: usize, bytes: usize) -> Self {
        RunBuf {
            frames: Vec::with_capacity(frames * bytes),
            keys: Vec::with_capacity(frames),
        }
    }

    /// Memory held.
    pub fn bytes(&self) -> usize {
        self.frames.capacity() + self.keys.capacity() * std::mem::size_of::<(K, usize, usize)>()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Adds a frame (length included) written by `put`, with its key.
    pub fn push(&mut self, key: K, put: impl FnOnce(&mut Vec<u8>)) {
        let start = self.frames.len();
        put(&mut self.frames);
        self.keys.push((key, start, self.frames.len()));
    }

    fn sort(&mut self) {
        // Unstable: frames of equal keys would leave in any order, but
        // the users' keys are unique.
        self.keys.sort_unstable_by_key(|k| k.0);
    }

    /// Sorts the frames and writes them as a run of the store; empties self.
    pub fn write(&mut self, store: &RunStore) -> Result<Run> {
        self.sort();
        let mut w = store.writer(self.frames.len() as u64)?;
        for &(_, a, b) in &self.keys {
            w.push(&self.frames[a..b])?;
        }
        let run = w.finish()?;
        self.frames = Vec::new();
        self.keys = Vec::new();
        Ok(run)
    }

    /// Sorts the frames into a run kept in memory.
    pub fn into_mem(mut self) -> Run {
        self.sort();
        let mut out = Vec::with_capacity(self.frames.len());
        for &(_, a, b) in &self.keys {
            out.extend_from_slice(&self.frames[a..b]);
        }
        Run::Mem(out)
    }
}

/// Merges streams of frames, each sorted by `key` (which reads a frame's
/// key; `None` for bytes that hold none), into one order.
pub(crate) struct Merge<'a, K, F> {
    frames: Vec<Frames<'a>>,
    key: F,
    heap: BinaryHeap<Reverse<(K, usize)>>,
    /// The stream whose frame was handed out last, to advance first.
    pending: Option<usize>,
}

impl<'a, K: Ord, F: Fn(&[u8]) -> Option<K>> Merge<'a, K, F> {
    pub fn new(frames: Vec<Frames<'a>>, key: F) -> Result<Merge<'a, K, F>> {
        let mut m = Merge {
            heap: BinaryHeap::with_capacity(frames.len()),
            frames,
            key,
            pending: None,
        };
        for i in 0..m.frames.len() {
            m.advance(i)?;
        }
        Ok(m)
    }

    fn advance(&mut self, i: usize) -> Result<()> {
        if let Some(key) = self.next_key(i)? {
            self.heap.push(Reverse((key, i)));
        }
        Ok(())
    }

    /// Moves stream `i` to its next frame, and reads that frame's key.
    fn next_key(&mut self, i: usize) -> Result<Option<K>> {
        let f = &mut self.frames[i];
        if !f.advance()? {
            return Ok(None);
        }
        (self.key)(f.frame()).map(Some).ok_or_else(|| f.task().corrupt())
    }

    /// The next frame in key order (without its length).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<&[u8]>> {
        let next = match self.pending.take() {
            Some(i) => self.after(i)?,
            None => self.heap.pop().map(|Reverse((_, i))| i),
        };
        let Some(i) = next else {
            return Ok(None);
        };
        self.pending = Some(i);
        Ok(Some(self.frames[i].frame()))
    }

    /// The stream whose frame comes after the one `i` handed out: `i`
    /// again, the heap untouched, while its next key still comes first
    /// (a run's frames often do: the members of one duplicate cluster);
    /// else the heap's first, `i` taking its place.
    fn after(&mut self, i: usize) -> Result<Option<usize>> {
        let Some(key) = self.next_key(i)? else {
            return Ok(self.heap.pop().map(|Reverse((_, j))| j));
        };
        match self.heap.peek_mut() {
            Some(mut first) if (&first.0.0, first.0.1) < (&key, i) => {
                let Reverse((_, j)) = std::mem::replace(&mut *first, Reverse((key, i)));
                Ok(Some(j))
            }
            _ => Ok(Some(i)),
        }
    }
}

/// Merges `runs` into at most `fan_in` runs, `fan_in` at a time, so the
/// final merge reads no more runs than its memory allows. Returns the
/// number of merges done.
pub(crate) fn reduce<K: Ord>(
    store: &RunStore,
    runs: &mut Vec<Run>,
    fan_in: usize,
    cap: usize,
    key: impl Fn(&[u8]) -> Option<K> + Copy,
) -> Result<u64> {
    let fan_in = fan_in.max(2);
    let mut merges = 0;
    while runs.len() > fan_in {
        let mut next = Vec::with_capacity(runs.len().div_ceil(fan_in));
        for group in runs.chunks(fan_in) {
            if group.len() == 1 {
                // Nothing to merge; its bytes can stay where they are. A
                // run held in memory stays there too.
                next.push(group[0].clone());
                continue;
            }
            let total = group.iter().map(Run::len).sum();
            let mut w = store.writer(total)?;
            let mut m = store.merge(group, cap, key)?;
            while let Some(frame) = m.next()? {
                w.push_frame(frame)?;
            }
            next.push(w.finish()?);
            merges += 1;
        }
        *runs = next;
    }
    Ok(merges)
}
