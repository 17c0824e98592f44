//! Temporary files: hashing canonicals into partitions, writing partition
//! files, and reading frames back from files or memory.
//!
//! Files are anonymous (`tempfile::tempfile`, `O_TMPFILE` on Linux): they
//! have no name, so they vanish when closed or when the process dies, and
//! an interrupted run leaves nothing behind. Every I/O error becomes the
//! same clear message, naming the OS reason ("no space left on device").

use super::record::{get_frame, get_varint, put_varint, varint_len};
use crate::io::atomic::os_reason;
use anyhow::{Result, anyhow};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The seed of the canonical hash (the hash-only counter this engine
/// replaced had it too), so the same canonical lands in the same
/// partition run after run.
const SEED: u64 = 0x0068_646c_7363_616e;

/// The hash of a canonical at the first level: its partition, and its
/// slot in a partition's table.
#[inline]
pub(super) fn canonical_hash(canonical: &[u8]) -> u64 {
    level_hash(0, canonical)
}

/// The hash that splits a partition at `level` (0 for the first split).
/// Each level has its own seed, so a partition split again spreads over
/// all its sub-partitions rather than one.
#[inline]
pub(super) fn level_hash(level: u32, canonical: &[u8]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let seed = SEED.wrapping_add(u64::from(level).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut h = foldhash::quality::FixedState::with_seed(seed).build_hasher();
    h.write(canonical);
    h.finish()
}

/// The partition of hash `h` among `n`: its top bits, scaled (so any `n`
/// works). The table inside a partition uses other bits (see
/// `group::Table`), so canonicals of one partition do not crowd its slots.
#[inline]
pub(super) fn bucket(h: u64, n: usize) -> usize {
    ((u128::from(h) * n as u128) >> 64) as usize
}

pub(super) fn write_error(e: &io::Error) -> anyhow::Error {
    anyhow!("grouping duplicates: writing temporary files failed: {}", os_reason(e))
}

pub(super) fn read_error(e: &io::Error) -> anyhow::Error {
    anyhow!("grouping duplicates: reading temporary files failed: {}", os_reason(e))
}

pub(super) fn corrupt() -> anyhow::Error {
    anyhow!("grouping duplicates: reading temporary files failed: a record is cut short")
}

/// A new anonymous temporary file, in `dir` or the system's.
pub(super) fn temp_file(dir: Option<&Path>) -> Result<File> {
    match dir {
        Some(d) => tempfile::tempfile_in(d),
        None => tempfile::tempfile(),
    }
    .map_err(|e| write_error(&e))
}

/// One partition being written: records in sequence order, each a frame of
/// its sequence number's distance from the previous one's, then its body.
pub(super) struct PartWriter {
    w: BufWriter<File>,
    last_seq: u64,
    bytes: u64,
    records: u64,
    head: Vec<u8>,
}

impl PartWriter {
    pub fn new(dir: Option<&Path>, buffer: usize) -> Result<PartWriter> {
        Ok(PartWriter {
            w: BufWriter::with_capacity(buffer, temp_file(dir)?),
            last_seq: 0,
            bytes: 0,
            records: 0,
            head: Vec::with_capacity(20),
        })
    }

    /// Appends a record; `seq` must not be below the last one's.
    #[inline]
    pub fn push(&mut self, seq: u64, body: &[u8]) -> Result<()> {
        debug_assert!(seq >= self.last_seq);
        let delta = seq - self.last_seq;
        self.last_seq = seq;
        self.head.clear();
        put_varint(&mut self.head, (varint_len(delta) + body.len()) as u64);
        put_varint(&mut self.head, delta);
        self.w.write_all(&self.head).map_err(|e| write_error(&e))?;
        self.w.write_all(body).map_err(|e| write_error(&e))?;
        self.bytes += (self.head.len() + body.len()) as u64;
        self.records += 1;
        Ok(())
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The written file, flushed.
    pub fn finish(self) -> Result<PartFile> {
        let file = self.w.into_inner().map_err(|e| write_error(e.error()))?;
        Ok(PartFile {
            file,
            bytes: self.bytes,
            records: self.records,
        })
    }
}

/// A partition written in full.
pub(super) struct PartFile {
    pub file: File,
    pub bytes: u64,
    pub records: u64,
}

/// Where a stream of frames is read from: a range of a file (read with
/// `pread`, so one file serves many streams), or memory.
pub(super) enum Src<'a> {
    File { file: &'a File, pos: u64, end: u64 },
    Mem(&'a [u8]),
}

/// Frames read one at a time through a buffer of about `cap` bytes (grown
/// for a frame that is longer). The current frame stays readable until
/// [`advance`](Self::advance) is called again.
pub(super) struct Frames<'a> {
    src: Src<'a>,
    buf: Vec<u8>,
    /// Unread bytes of `buf` (file) or of the slice (memory) start here.
    lo: usize,
    hi: usize,
    cur: (usize, usize),
}

impl<'a> Frames<'a> {
    pub fn new(src: Src<'a>, cap: usize) -> Frames<'a> {
        let (buf, hi) = match &src {
            Src::File { .. } => (Vec::with_capacity(cap.max(64)), 0),
            Src::Mem(m) => (Vec::new(), m.len()),
        };
        Frames {
            src,
            buf,
            lo: 0,
            hi,
            cur: (0, 0),
        }
    }

    /// Moves to the next frame; false at the end.
    pub fn advance(&mut self) -> Result<bool> {
        if let Src::Mem(m) = self.src {
            if self.lo == self.hi {
                return Ok(false);
            }
            let mut pos = self.lo;
            let f = get_frame(m, &mut pos).ok_or_else(corrupt)?;
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
                return if self.lo == self.hi { Ok(false) } else { Err(corrupt()) };
            }
        }
    }

    /// Reads more of the file after the unread bytes; false when nothing
    /// is left to read.
    fn fill(&mut self, need: Option<usize>) -> Result<bool> {
        let Src::File { file, pos, end } = &mut self.src else {
            return Ok(false);
        };
        if *pos >= *end {
            return Ok(false);
        }
        // A length past what is left cannot be ours: bad bytes, not a
        // reason to allocate.
        if need.is_some_and(|n| (n - (self.hi - self.lo)) as u64 > *end - *pos) {
            return Err(corrupt());
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
            .map_err(|e| read_error(&e))?;
        if got == 0 {
            return Err(corrupt());
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

/// Splits a partition frame into its sequence number (from the previous
/// one, `last`) and its body.
#[inline]
pub(super) fn part_record<'a>(frame: &'a [u8], last: &mut u64) -> Result<(u64, &'a [u8])> {
    let mut pos = 0;
    let delta = get_varint(frame, &mut pos).ok_or_else(corrupt)?;
    *last = last.checked_add(delta).ok_or_else(corrupt)?;
    Ok((*last, &frame[pos..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dups::record::put_frame;

    #[test]
    fn buckets_cover_every_partition_evenly() {
        for n in [2, 3, 4, 256] {
            let mut counts = vec![0u32; n];
            for i in 0..100_000u32 {
                counts[bucket(canonical_hash(format!("10.1000/{i}").as_bytes()), n)] += 1;
            }
            let expected = 100_000 / n as u32;
            for c in counts {
                assert!(c.abs_diff(expected) < expected / 5, "{n}: {c} against {expected}");
            }
        }
        assert_eq!(bucket(u64::MAX, 256), 255);
        assert_eq!(bucket(0, 256), 0);
    }

    #[test]
    fn levels_hash_apart() {
        let c = b"10.1000/abc";
        assert_ne!(level_hash(0, c), level_hash(1, c));
        assert_eq!(canonical_hash(c), level_hash(0, c));
    }

    #[test]
    fn frames_read_back_whatever_the_buffer() {
        let mut bytes = Vec::new();
        let bodies: Vec<Vec<u8>> = (0..200).map(|i| vec![i as u8; i * 7 % 500]).collect();
        for b in &bodies {
            put_frame(&mut bytes, &[], b);
        }
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        for cap in [1, 16, 100, 4096] {
            let srcs = [
                Src::Mem(&bytes),
                Src::File {
                    file: &file,
                    pos: 0,
                    end: bytes.len() as u64,
                },
            ];
            for src in srcs {
                let mut frames = Frames::new(src, cap);
                let mut got = Vec::new();
                while frames.advance().unwrap() {
                    got.push(frames.frame().to_vec());
                }
                assert_eq!(got, bodies, "{cap}");
            }
        }
        // A file cut inside a frame is an error, not an end.
        let cut = Src::File {
            file: &file,
            pos: 0,
            end: bytes.len() as u64 - 1,
        };
        let mut frames = Frames::new(cut, 64);
        let err = loop {
            match frames.advance() {
                Ok(true) => continue,
                Ok(false) => panic!("a cut file read as whole"),
                Err(e) => break e.to_string(),
            }
        };
        assert_eq!(
            err,
            "grouping duplicates: reading temporary files failed: a record is cut short"
        );

        // A length no file holds is refused before anything is allocated.
        let mut bad = Vec::new();
        put_varint(&mut bad, 1 << 60);
        bad.extend_from_slice(b"xyz");
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bad).unwrap();
        let src = Src::File {
            file: &file,
            pos: 0,
            end: bad.len() as u64,
        };
        assert!(Frames::new(src, 64).advance().is_err());
        assert!(Frames::new(Src::Mem(&bad), 64).advance().is_err());
    }
}
