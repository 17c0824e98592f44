//! Temporary files: partitions written a frame at a time, and frames read
//! back from files or memory.
//!
//! Files are anonymous (`tempfile::tempfile`, `O_TMPFILE` on Linux): they
//! have no name, so they vanish when closed or when the process dies, and
//! an interrupted run leaves nothing behind. The partitions of one spill
//! share one file, each a list of the extents its buffer wrote: making a
//! file is the costly step on ext4 (its inode search), and hundreds a run
//! cost more than the writes themselves. Every I/O error becomes the same
//! clear message, naming the task and the OS reason ("no space left on
//! device").

use super::frame::{get_frame, get_varint, put_varint, varint_len};
use crate::io::atomic::os_reason;
use anyhow::{Result, anyhow};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a spill is for, as its errors name it ("grouping duplicates").
#[derive(Debug, Clone, Copy)]
pub(crate) struct Task(pub &'static str);

impl Task {
    /// Writing in `dir` failed: the message names the directory, and a
    /// full disk the way to another one (the command's `--temp-dir`, or
    /// `TMPDIR`, which also moves the system's default).
    pub fn write_error(self, dir: &Path, e: &io::Error) -> anyhow::Error {
        let hint = if e.kind() == io::ErrorKind::StorageFull {
            " (--temp-dir DIR, or TMPDIR, puts them on another disk)"
        } else {
            ""
        };
        anyhow!(
            "{}: writing temporary files in {} failed: {}{hint}",
            self.0,
            dir.display(),
            os_reason(e)
        )
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

    /// `n` partitions being written into one new file, each through
    /// `buffer` bytes; `give_back`: see [`Spill::new`].
    pub fn writers(self, dir: Option<&Path>, n: usize, buffer: usize, give_back: bool) -> Result<Vec<Writer>> {
        let spill = Spill::new(self, dir, give_back)?;
        Ok((0..n).map(|_| spill.writer(buffer)).collect())
    }
}

/// A file the partitions of one spill (or the runs of a sort) share: each
/// writer appends its buffer at the end, which it reserves first, so
/// writers on several threads never overlap.
#[derive(Clone)]
pub(crate) struct Spill {
    pub task: Task,
    shared: Arc<Shared>,
}

struct Shared {
    file: File,
    /// Where the file is, for errors.
    dir: PathBuf,
    end: AtomicU64,
    give_back: bool,
    /// Whether the file's disk is short enough to give back, asked of the
    /// file system once, when the first partition is dropped.
    tight: std::sync::OnceLock<bool>,
}

impl Spill {
    /// A new anonymous file, in `dir` or the system's. With `give_back`, a
    /// large spill's partitions give their disk back as they are dropped
    /// ([`Part`]'s `Drop`), for a user that writes another file while it
    /// reads them (runs, a diff's changes); without, the disk goes when the
    /// file closes.
    pub fn new(task: Task, dir: Option<&Path>, give_back: bool) -> Result<Spill> {
        let dir = dir.map_or_else(tempfile::env::temp_dir, Path::to_path_buf);
        let shared = Shared {
            file: tempfile::tempfile_in(&dir).map_err(|e| task.write_error(&dir, &e))?,
            dir,
            end: AtomicU64::new(0),
            give_back,
            tight: std::sync::OnceLock::new(),
        };
        Ok(Spill {
            task,
            shared: Arc::new(shared),
        })
    }

    /// Reserves `len` bytes at the file's end: where they go.
    pub fn reserve(&self, len: u64) -> u64 {
        self.shared.end.fetch_add(len, Ordering::Relaxed)
    }

    /// Bytes reserved so far.
    pub fn bytes(&self) -> u64 {
        self.shared.end.load(Ordering::Relaxed)
    }

    /// Writes `buf` at `off`, in a range [`reserve`](Self::reserve) gave.
    pub fn write_at(&self, buf: &[u8], off: u64) -> Result<()> {
        self.shared.file.write_all_at(buf, off).map_err(|e| self.task.write_error(&self.shared.dir, &e))
    }

    /// Fills `buf` from `off`, in a range written before.
    pub fn read_at(&self, buf: &mut [u8], off: u64) -> Result<()> {
        self.shared.file.read_exact_at(buf, off).map_err(|e| self.task.read_error(&e))
    }

    /// The frames of `extents` of the file, in order, read through `cap`
    /// bytes.
    pub fn frames<'a>(&'a self, extents: &'a [Extent], cap: usize) -> Frames<'a> {
        let src = Src::Extents {
            file: &self.shared.file,
            extents,
            skip: 0,
            left: extents.iter().map(|e| e.len).sum(),
        };
        Frames::new(self.task, src, cap)
    }

    /// A new partition in the file, written through `buffer` bytes.
    pub fn writer(&self, buffer: usize) -> Writer {
        Writer {
            spill: self.clone(),
            buf: Vec::with_capacity(buffer),
            extents: Vec::new(),
            last_seq: 0,
            bytes: 0,
            records: 0,
        }
    }
}

/// A partition being written, a frame at a time, into a buffer that goes
/// to its file when full. Frames written with [`push_seq`](Self::push_seq)
/// carry a sequence number as its distance from the previous one's (they
/// only grow within a partition).
pub(crate) struct Writer {
    spill: Spill,
    buf: Vec<u8>,
    /// Where the buffer's earlier fillings went, in order.
    extents: Vec<Extent>,
    last_seq: u64,
    bytes: u64,
    records: u64,
}

impl Writer {
    /// Appends a frame of `body`.
    #[inline]
    pub fn push(&mut self, body: &[u8]) -> Result<()> {
        let len = body.len() as u64;
        self.write(varint_len(len), body, |buf| put_varint(buf, len))
    }

    /// Appends a frame of `seq` and `body`; `seq` must not be below the
    /// last one's (see [`seq_frame`]).
    #[inline(always)]
    pub fn push_seq(&mut self, seq: u64, body: &[u8]) -> Result<()> {
        debug_assert!(seq >= self.last_seq);
        let delta = seq - self.last_seq;
        self.last_seq = seq;
        let len = (varint_len(delta) + body.len()) as u64;
        self.write(varint_len(len) + varint_len(delta), body, |buf| {
            put_varint(buf, len);
            put_varint(buf, delta);
        })
    }

    /// Appends a frame: its `head` bytes, written by `put_head` straight
    /// into the buffer (a vector of their own would be one more copy a
    /// value), then `body`.
    ///
    /// Always inlined: a frame a value, on every scan's path, and left out
    /// of line where the codegen units happen to put it apart.
    #[inline(always)]
    fn write(&mut self, head: usize, body: &[u8], put_head: impl FnOnce(&mut Vec<u8>)) -> Result<()> {
        // A frame longer than the buffer grows it for once; the next
        // flush takes it whole.
        if self.buf.len() + head + body.len() > self.buf.capacity() && !self.buf.is_empty() {
            self.flush()?;
        }
        put_head(&mut self.buf);
        self.buf.extend_from_slice(body);
        self.bytes += (head + body.len()) as u64;
        self.records += 1;
        Ok(())
    }

    /// Writes the buffer at the file's end, which it reserves.
    fn flush(&mut self) -> Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let len = self.buf.len() as u64;
        let off = self.spill.reserve(len);
        self.spill.write_at(&self.buf, off)?;
        match self.extents.last_mut() {
            Some(last) if last.off + last.len == off => last.len += len,
            _ => self.extents.push(Extent { off, len }),
        }
        self.buf.clear();
        Ok(())
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The written partition, flushed.
    pub fn finish(mut self) -> Result<Part> {
        self.flush()?;
        Ok(Part {
            spill: self.spill,
            extents: self.extents,
            bytes: self.bytes,
            records: self.records,
        })
    }
}

/// A range of a file: one a partition's buffer wrote, or a run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Extent {
    pub off: u64,
    pub len: u64,
}

/// The spill size from which a dropped partition punches its extents out
/// of the file: a spill smaller than this is held on disk whole until it
/// closes.
const PUNCH_FROM: u64 = 1 << 30;

/// A partition written in full: its extents of a file, in order.
pub(crate) struct Part {
    spill: Spill,
    extents: Vec<Extent>,
    pub bytes: u64,
    pub records: u64,
}

impl Part {
    /// Its frames, read through a buffer of about `cap` bytes.
    pub fn frames(&self, cap: usize) -> Frames<'_> {
        self.spill.frames(&self.extents, cap)
    }

    /// The file its extents are in.
    pub fn file(&self) -> &File {
        &self.spill.shared.file
    }

    /// Its bytes, read whole.
    pub fn read(&self) -> Result<Vec<u8>> {
        let mut bytes = vec![0u8; self.bytes as usize];
        let mut at = 0;
        for e in &self.extents {
            let len = e.len as usize;
            self.file()
                .read_exact_at(&mut bytes[at..at + len], e.off)
                .map_err(|e| self.spill.task.read_error(&e))?;
            at += len;
        }
        Ok(bytes)
    }
}

impl Drop for Part {
    /// Gives the partition's disk back now, not when the spill's last
    /// partition goes, where its user writes another file while reading
    /// the partitions (runs, a diff's changes): the temporary disk would
    /// otherwise hold both. Only then, only for a large spill, and only
    /// when the file system has less room left than twice the spill: a
    /// hole is a system call a buffer's extent, which holds the file's
    /// lock against the other threads' reads, and the page cache drops the
    /// pages at close anyway.
    fn drop(&mut self) {
        let (shared, spill) = (&self.spill.shared, self.spill.bytes());
        if !shared.give_back || Arc::strong_count(shared) == 1 || spill < PUNCH_FROM {
            return;
        }
        if !*shared.tight.get_or_init(|| free_disk(&shared.file).is_none_or(|free| free < 2 * spill)) {
            return;
        }
        #[cfg(target_os = "linux")]
        for e in &self.extents {
            use std::os::fd::AsRawFd;
            let (Ok(off), Ok(len)) = (i64::try_from(e.off), i64::try_from(e.len)) else {
                continue;
            };
            // SAFETY: a plain system call on a descriptor this file owns;
            // a file system without holes says so and keeps the bytes.
            unsafe {
                libc::fallocate(
                    self.file().as_raw_fd(),
                    libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                    off,
                    len,
                );
            }
        }
    }
}

/// The bytes free for an unprivileged user on `file`'s file system;
/// `None` where that cannot be asked.
fn free_disk(file: &File) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
        // SAFETY: a plain system call on a descriptor this file owns,
        // filling the buffer it is given; read only when it succeeded.
        let st = unsafe {
            if libc::fstatvfs(file.as_raw_fd(), st.as_mut_ptr()) != 0 {
                return None;
            }
            st.assume_init()
        };
        Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        None
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

/// Where a stream of frames is read from: extents of a file (read with
/// `pread`, so one file serves many streams), or memory.
pub(crate) enum Src<'a> {
    /// `left` bytes still to read, from `skip` bytes into `extents[0]`.
    Extents {
        file: &'a File,
        extents: &'a [Extent],
        skip: u64,
        left: u64,
    },
    Mem(&'a [u8]),
}

impl Src<'_> {
    /// The file, where the next read starts, how much of it is one range,
    /// and how much is left in all.
    fn next_range(&self) -> Option<(&File, u64, u64, u64)> {
        match *self {
            Src::Extents {
                file,
                extents,
                skip,
                left,
            } => {
                let e = extents.first()?;
                Some((file, e.off + skip, (e.len - skip).min(left), left))
            }
            Src::Mem(_) => None,
        }
    }

    /// `n` bytes were read at the start of the range.
    fn consume(&mut self, n: u64) {
        match self {
            Src::Extents {
                extents, skip, left, ..
            } => {
                *left -= n;
                *skip += n;
                if *skip == extents[0].len {
                    *extents = &extents[1..];
                    *skip = 0;
                }
            }
            Src::Mem(_) => {}
        }
    }
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
            Src::Mem(m) => (Vec::new(), m.len()),
            _ => (Vec::with_capacity(cap.max(64)), 0),
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
        let Some((file, at, range, left)) = self.src.next_range() else {
            return Ok(false);
        };
        if left == 0 {
            return Ok(false);
        }
        // A length past what is left cannot be ours: bad bytes, not a
        // reason to allocate.
        if need.is_some_and(|n| (n - (self.hi - self.lo)) as u64 > left) {
            return Err(task.corrupt());
        }
        // Keep the unread tail at the front, and room for the frame.
        self.buf.copy_within(self.lo..self.hi, 0);
        self.hi -= self.lo;
        self.lo = 0;
        let cap = self.buf.capacity().max(need.unwrap_or(0));
        self.buf.resize(cap.max(self.hi + 64), 0);
        let want = ((self.buf.len() - self.hi) as u64).min(range) as usize;
        let got = file
            .read_at(&mut self.buf[self.hi..self.hi + want], at)
            .map_err(|e| task.read_error(&e))?;
        if got == 0 {
            return Err(task.corrupt());
        }
        self.src.consume(got as u64);
        self.hi += got;
        Ok(true)
    }

    /// The current frame's bytes.
    #[inline]
    pub fn frame(&self) -> &[u8] {
        match self.src {
            Src::Mem(m) => &m[self.cur.0..self.cur.1],
            _ => &self.buf[self.cur.0..self.cur.1],
        }
    }
}

#[cfg(test)]
mod tests {
    /// The file system is asked for the room left beside a spill, which
    /// decides whether a large spill punches its partitions out.
    #[test]
    fn free_disk_is_read_where_the_spill_is() {
        let file = tempfile::tempfile().unwrap();
        let free = super::free_disk(&file);
        #[cfg(unix)]
        assert!(free.is_some_and(|b| b > 0), "{free:?}");
        #[cfg(not(unix))]
        assert_eq!(free, None);
    }
}
