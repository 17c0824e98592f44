//! Sorted runs of duplicates-file rows, and their k-way merge: the external
//! sort that puts clusters in global order (largest first, then first
//! seen) whatever their number.
//!
//! Each partition sorts the rows of its own clusters in memory, a run at a
//! time (several when they outgrow its budget). Clusters never span
//! partitions, so merging the runs by their sort key yields the whole file
//! in order; no list of cluster headers is ever held. Runs share one
//! anonymous file, each written at an offset reserved atomically, so
//! partitions grouped in parallel need no lock. More runs than one merge
//! can read at once are merged in passes.

use super::record::{RowKey, put_varint, row_key};
use super::spill::{Frames, Src, corrupt, temp_file, write_error};
use anyhow::Result;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// One sorted run of row frames.
#[derive(Debug)]
pub(super) enum Run {
    /// Kept in memory: the only run of a collection never spilled.
    Mem(Vec<u8>),
    /// A range of the runs file.
    File { off: u64, len: u64 },
}

impl Run {
    pub fn len(&self) -> u64 {
        match self {
            Run::Mem(v) => v.len() as u64,
            Run::File { len, .. } => *len,
        }
    }
}

/// The runs file, created on first use.
pub(super) struct RunStore {
    dir: Option<PathBuf>,
    file: OnceLock<File>,
    next: AtomicU64,
}

/// Bytes gathered before a `pwrite` of a run.
const WRITE_CHUNK: usize = 256 * 1024;

impl RunStore {
    pub fn new(dir: Option<PathBuf>) -> RunStore {
        RunStore {
            dir,
            file: OnceLock::new(),
            next: AtomicU64::new(0),
        }
    }

    fn file(&self) -> Result<&File> {
        if let Some(f) = self.file.get() {
            return Ok(f);
        }
        let f = temp_file(self.dir.as_deref())?;
        // Two threads may both create one; the loser's vanishes on drop.
        Ok(self.file.get_or_init(|| f))
    }

    /// Bytes written to the runs file so far.
    pub fn bytes(&self) -> u64 {
        self.next.load(Ordering::Relaxed)
    }

    /// A writer of exactly `len` bytes at a range reserved for it.
    pub fn writer(&self, len: u64) -> Result<RunWriter<'_>> {
        let file = self.file()?;
        let off = self.next.fetch_add(len, Ordering::Relaxed);
        Ok(RunWriter {
            file,
            off,
            len,
            written: 0,
            buf: Vec::with_capacity(WRITE_CHUNK.min(len as usize)),
        })
    }

    /// Frames of `run`, read through a buffer of about `cap` bytes.
    pub fn frames<'a>(&'a self, run: &'a Run, cap: usize) -> Result<Frames<'a>> {
        Ok(match run {
            Run::Mem(v) => Frames::new(Src::Mem(v), cap),
            Run::File { off, len } => Frames::new(
                Src::File {
                    file: self.file.get().ok_or_else(corrupt)?,
                    pos: *off,
                    end: off + len,
                },
                cap,
            ),
        })
    }
}

/// Writes one run's frames at its reserved range.
pub(super) struct RunWriter<'a> {
    file: &'a File,
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
        self.file
            .write_all_at(&self.buf, self.off + self.written)
            .map_err(|e| write_error(&e))?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    pub fn finish(mut self) -> Result<Run> {
        self.flush()?;
        // The range was reserved for exactly these bytes.
        anyhow::ensure!(
            self.written == self.len,
            "grouping duplicates: a run of {} bytes was written as {}",
            self.len,
            self.written
        );
        Ok(Run::File {
            off: self.off,
            len: self.len,
        })
    }
}

/// Rows of one partition waiting to be sorted into a run.
#[derive(Default)]
pub(super) struct RunBuf {
    rows: Vec<u8>,
    /// Each row's key and its frame's range in `rows`.
    keys: Vec<(RowKey, usize, usize)>,
}

impl RunBuf {
    /// Memory held.
    pub fn bytes(&self) -> usize {
        self.rows.capacity() + self.keys.capacity() * std::mem::size_of::<(RowKey, usize, usize)>()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Adds a row encoded by `put` (as a frame) with its key.
    pub fn push(&mut self, key: RowKey, put: impl FnOnce(&mut Vec<u8>)) {
        let start = self.rows.len();
        put(&mut self.rows);
        self.keys.push((key, start, self.rows.len()));
    }

    fn sort(&mut self) {
        // Keys are unique (they hold the member's sequence number).
        self.keys.sort_unstable_by_key(|k| k.0);
    }

    /// Sorts the rows and writes them as a run of the store; empties self.
    pub fn write(&mut self, store: &RunStore) -> Result<Run> {
        self.sort();
        let mut w = store.writer(self.rows.len() as u64)?;
        for &(_, a, b) in &self.keys {
            w.push(&self.rows[a..b])?;
        }
        let run = w.finish()?;
        self.rows = Vec::new();
        self.keys = Vec::new();
        Ok(run)
    }

    /// Sorts the rows into a run kept in memory.
    pub fn into_mem(mut self) -> Run {
        self.sort();
        let mut out = Vec::with_capacity(self.rows.len());
        for &(_, a, b) in &self.keys {
            out.extend_from_slice(&self.rows[a..b]);
        }
        Run::Mem(out)
    }
}

/// Merges sorted runs by row key.
pub(super) struct Merge<'a> {
    frames: Vec<Frames<'a>>,
    heap: BinaryHeap<Reverse<(RowKey, usize)>>,
    /// The stream whose frame was handed out last, to advance first.
    pending: Option<usize>,
}

impl<'a> Merge<'a> {
    /// `cap`: each run's read buffer.
    pub fn new(store: &'a RunStore, runs: &'a [Run], cap: usize) -> Result<Merge<'a>> {
        let mut m = Merge {
            frames: Vec::with_capacity(runs.len()),
            heap: BinaryHeap::with_capacity(runs.len()),
            pending: None,
        };
        for run in runs {
            let i = m.frames.len();
            m.frames.push(store.frames(run, cap)?);
            m.advance(i)?;
        }
        Ok(m)
    }

    fn advance(&mut self, i: usize) -> Result<()> {
        let f = &mut self.frames[i];
        if f.advance()? {
            let key = row_key(f.frame()).ok_or_else(corrupt)?;
            self.heap.push(Reverse((key, i)));
        }
        Ok(())
    }

    /// The next row frame in key order (without its length).
    pub fn next(&mut self) -> Result<Option<&[u8]>> {
        if let Some(i) = self.pending.take() {
            self.advance(i)?;
        }
        let Some(Reverse((_, i))) = self.heap.pop() else {
            return Ok(None);
        };
        self.pending = Some(i);
        Ok(Some(self.frames[i].frame()))
    }
}

/// Merges `runs` into at most `fan_in` runs, `fan_in` at a time, so the
/// final merge reads no more runs than its memory allows. Returns the
/// number of merges done.
pub(super) fn reduce(store: &RunStore, runs: &mut Vec<Run>, fan_in: usize, cap: usize) -> Result<u64> {
    let fan_in = fan_in.max(2);
    let mut merges = 0;
    while runs.len() > fan_in {
        let mut next = Vec::with_capacity(runs.len().div_ceil(fan_in));
        for group in runs.chunks(fan_in) {
            if group.len() == 1 {
                // Nothing to merge; its bytes can stay where they are. A
                // run held in memory stays there too.
                next.push(match &group[0] {
                    Run::Mem(v) => Run::Mem(v.clone()),
                    Run::File { off, len } => Run::File { off: *off, len: *len },
                });
                continue;
            }
            let total = group.iter().map(Run::len).sum();
            let mut w = store.writer(total)?;
            let mut m = Merge::new(store, group, cap)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dups::At;
    use crate::dups::record::{Row, get_row, put_row};
    use crate::dups::variant::Variant;

    fn row_bytes(count: u64, first_seq: u64, seq: u64) -> Vec<u8> {
        let mut out = Vec::new();
        put_row(
            &mut out,
            &Row {
                count,
                first_seq,
                seq,
                first_record: first_seq,
                variant: Variant::Same,
                at: At {
                    input: 0,
                    record: seq,
                    line: None,
                    column: 0,
                    value_index: 0,
                },
                canonical: b"10.1/x",
                value: b"10.1/x",
            },
        );
        out
    }

    #[test]
    fn runs_merge_in_passes_into_one_order() {
        let store = RunStore::new(None);
        // 13 runs of 3 rows each, keys interleaved across runs.
        let mut runs = Vec::new();
        let mut all = Vec::new();
        for r in 0..13u64 {
            let mut buf = RunBuf::default();
            for j in 0..3u64 {
                let (count, first, seq) = (2 + (r + j) % 3, j * 13 + r, 1000 + j * 13 + r);
                all.push(RowKey::new(count, first, seq));
                buf.push(RowKey::new(count, first, seq), |out| {
                    out.extend(row_bytes(count, first, seq))
                });
            }
            runs.push(if r == 0 {
                buf.into_mem()
            } else {
                buf.write(&store).unwrap()
            });
        }
        all.sort();
        let merges = reduce(&store, &mut runs, 3, 16).unwrap();
        assert!(runs.len() <= 3 && merges >= 5, "{} runs, {merges} merges", runs.len());
        let mut m = Merge::new(&store, &runs, 16).unwrap();
        let mut got = Vec::new();
        while let Some(f) = m.next().unwrap() {
            got.push(get_row(f).unwrap().key());
        }
        assert_eq!(got, all);
    }
}
