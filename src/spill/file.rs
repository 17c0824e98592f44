//! Temporary files: partition files written a frame at a time, and frames
//! read back from files or memory.
//!
//! Files are anonymous (`tempfile::tempfile`, `O_TMPFILE` on Linux): they
//! have no name, so they vanish when closed or when the process dies, and
//! an interrupted run leaves nothing behind. Every I/O error becomes the
//! same clear message, naming the task and the OS reason ("no space left
//! on device").

use super::frame::{get_frame, get_varint, put_varint, varint_len};
use crate::io::atomic::os_reason;
use anyhow::{Result, anyhow};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// What a spill is for, as its errors name it ("grouping duplicates").
#[derive(Debug, Clone, Copy)]
pub(crate) struct Task(pub &'static str);

impl Task {
    pub fn write_error(self, e: &io::Error) -> anyhow::Error {
        anyhow!("{}: writing temporary files failed: {}", self.0, os_reason(e))
    }

    pub fn read_error(self, e: &io::Error) -> anyhow::Error {
        anyhow!("{}: reading temporary files failed: {}", self.0, os_reason(e))
    }

    /// A table asked for a key past its limit, however the user split.
    pub fn full(self) -> anyhow::Error {
        anyhow!(
            "{}: more distinct keys in one partition than a table holds (4 GiB of them)",
            self.0
        )
    }

    pub fn corrupt(self) -> anyhow::Error {
        anyhow!("{}: reading temporary files failed: a record is cut short", self.0)
    }

    /// A new anonymous temporary file, in `dir` or the system's.
    pub fn temp_file(self, dir: Option<&Path>) -> Result<File> {
        match dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        }
        .map_err(|e| self.write_error(&e))
    }
}

/// A partition file being written, a frame at a time. Frames written with
/// [`push_seq`](Self::push_seq) carry a sequence number as its distance
/// from the previous one's (they only grow within a file).
pub(crate) struct Writer {
    task: Task,
    w: BufWriter<File>,
    last_seq: u64,
    bytes: u64,
    records: u64,
    head: Vec<u8>,
}

impl Writer {
    pub fn new(task: Task, dir: Option<&Path>, buffer: usize) -> Result<Writer> {
        Ok(Writer {
            task,
            w: BufWriter::with_capacity(buffer, task.temp_file(dir)?),
            last_seq: 0,
            bytes: 0,
            records: 0,
            head: Vec::with_capacity(20),
        })
    }

    /// Appends a frame of `body`.
    #[inline]
    pub fn push(&mut self, body: &[u8]) -> Result<()> {
        self.head.clear();
        put_varint(&mut self.head, body.len() as u64);
        self.write(body)
    }

    /// Appends a frame of `seq` and `body`; `seq` must not be below the
    /// last one's (see [`seq_frame`]).
    #[inline(always)]
    pub fn push_seq(&mut self, seq: u64, body: &[u8]) -> Result<()> {
        debug_assert!(seq >= self.last_seq);
        let delta = seq - self.last_seq;
        self.last_seq = seq;
        self.head.clear();
        put_varint(&mut self.head, (varint_len(delta) + body.len()) as u64);
        put_varint(&mut self.head, delta);
        self.write(body)
    }

    #[inline]
    fn write(&mut self, body: &[u8]) -> Result<()> {
        let task = self.task;
        self.w.write_all(&self.head).map_err(|e| task.write_error(&e))?;
        self.w.write_all(body).map_err(|e| task.write_error(&e))?;
        self.bytes += (self.head.len() + body.len()) as u64;
        self.records += 1;
        Ok(())
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The written file, flushed.
    pub fn finish(self) -> Result<Part> {
        let task = self.task;
        let file = self.w.into_inner().map_err(|e| task.write_error(e.error()))?;
        Ok(Part {
            task,
            file,
            bytes: self.bytes,
            records: self.records,
        })
    }
}

/// A partition file written in full.
pub(crate) struct Part {
    pub task: Task,
    pub file: File,
    pub bytes: u64,
    pub records: u64,
}

impl Part {
    /// Its frames, read through a buffer of about `cap` bytes.
    pub fn frames(&self, cap: usize) -> Frames<'_> {
        let src = Src::File {
            file: &self.file,
            pos: 0,
            end: self.bytes,
        };
        Frames::new(self.task, src, cap)
    }

    /// Its bytes, read whole.
    pub fn read(&self) -> Result<Vec<u8>> {
        let mut bytes = vec![0u8; self.bytes as usize];
        self.file
            .read_exact_at(&mut bytes, 0)
            .map_err(|e| self.task.read_error(&e))?;
        Ok(bytes)
    }
}

/// Splits a frame written by [`Writer::push_seq`] into its sequence number
/// (from the previous one, `last`) and its body.
#[inline]
pub(crate) fn seq_frame<'a>(task: Task, frame: &'a [u8], last: &mut u64) -> Result<(u64, &'a [u8])> {
    let mut pos = 0;
    let delta = get_varint(frame, &mut pos).ok_or_else(|| task.corrupt())?;
    *last = last.checked_add(delta).ok_or_else(|| task.corrupt())?;
    Ok((*last, &frame[pos..]))
}

/// Where a stream of frames is read from: a range of a file (read with
/// `pread`, so one file serves many streams), or memory.
pub(crate) enum Src<'a> {
    File { file: &'a File, pos: u64, end: u64 },
    Mem(&'a [u8]),
}

/// Frames read one at a time through a buffer of about `cap` bytes (grown
/// for a frame that is longer). The current frame stays readable until
/// [`advance`](Self::advance) is called again.
pub(crate) struct Frames<'a> {
    task: Task,
    src: Src<'a>,
    buf: Vec<u8>,
    /// Unread bytes of `buf` (file) or of the slice (memory) start here.
    lo: usize,
    hi: usize,
    cur: (usize, usize),
}

impl<'a> Frames<'a> {
    pub fn new(task: Task, src: Src<'a>, cap: usize) -> Frames<'a> {
        let (buf, hi) = match &src {
            Src::File { .. } => (Vec::with_capacity(cap.max(64)), 0),
            Src::Mem(m) => (Vec::new(), m.len()),
        };
        Frames {
            task,
            src,
            buf,
            lo: 0,
            hi,
            cur: (0, 0),
        }
    }

    pub fn task(&self) -> Task {
        self.task
    }

    /// Moves to the next frame; false at the end.
    pub fn advance(&mut self) -> Result<bool> {
        if let Src::Mem(m) = self.src {
            if self.lo == self.hi {
                return Ok(false);
            }
            let mut pos = self.lo;
            let f = get_frame(m, &mut pos).ok_or_else(|| self.task.corrupt())?;
            self.cur = (pos - f.len(), pos);
            self.lo = pos;
            return Ok(true);
        }
        loop {
            let avail = &self.buf[self.lo..self.hi];
            let mut pos = 0;
            if let Some(f) = get_frame(avail, &mut pos) {
                let end = self.lo + pos;
                self.cur = (end - f.len(), end);
                self.lo = end;
                return Ok(true);
            }
            // How much the frame needs, when its length is readable.
            let mut p = 0;
            let need = get_varint(avail, &mut p).map(|n| p.saturating_add(n as usize));
            if !self.fill(need)? {
                return if self.lo == self.hi {
                    Ok(false)
                } else {
                    Err(self.task.corrupt())
                };
            }
        }
    }

    /// Reads more of the file after the unread bytes; false when nothing
    /// is left to read.
    fn fill(&mut self, need: Option<usize>) -> Result<bool> {
        let task = self.task;
        let Src::File { file, pos, end } = &mut self.src else {
            return Ok(false);
        };
        if *pos >= *end {
            return Ok(false);
        }
        // A length past what is left cannot be ours: bad bytes, not a
        // reason to allocate.
        if need.is_some_and(|n| (n - (self.hi - self.lo)) as u64 > *end - *pos) {
            return Err(task.corrupt());
        }
        // Keep the unread tail at the front, and room for the frame.
        self.buf.copy_within(self.lo..self.hi, 0);
        self.hi -= self.lo;
        self.lo = 0;
        let cap = self.buf.capacity().max(need.unwrap_or(0));
        self.buf.resize(cap.max(self.hi + 64), 0);
        let want = ((self.buf.len() - self.hi) as u64).min(*end - *pos) as usize;
        let got = file
            .read_at(&mut self.buf[self.hi..self.hi + want], *pos)
            .map_err(|e| task.read_error(&e))?;
        if got == 0 {
            return Err(task.corrupt());
        }
        *pos += got as u64;
        self.hi += got;
        Ok(true)
    }

    /// The current frame's bytes.
    #[inline]
    pub fn frame(&self) -> &[u8] {
        match self.src {
            Src::Mem(m) => &m[self.cur.0..self.cur.1],
            Src::File { .. } => &self.buf[self.cur.0..self.cur.1],
        }
    }
}
