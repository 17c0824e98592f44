//! Temporary files of a partitioned diff: anonymous files
//! (`tempfile::tempfile`, `O_TMPFILE` on Linux) that vanish when closed
//! or when the process dies, written and read back as length-prefixed
//! frames, and the byte form of the frames (rows and changes).
//!
//! `dups::spill` has the same kind of files, but its framing is private to
//! that engine, tied to its member records and names its errors "grouping
//! duplicates"; a diff needs sequential frames only, so it keeps these few
//! lines rather than widening that engine's interface.

use super::change::Change;
use super::join::ChangeRow;
use super::row::Side;
use crate::io::atomic::os_reason;
use anyhow::{Result, anyhow};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// Buffer of each file being written or read.
const BUFFER: usize = 64 * 1024;

pub fn write_error(e: &io::Error) -> anyhow::Error {
    anyhow!("diff: writing temporary files failed: {}", os_reason(e))
}

fn read_error(e: &io::Error) -> anyhow::Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        return corrupt();
    }
    anyhow!("diff: reading temporary files failed: {}", os_reason(e))
}

fn corrupt() -> anyhow::Error {
    anyhow!("diff: reading temporary files failed: a record is cut short")
}

/// Frames appended to a new anonymous file, in `dir` or the system's.
pub struct FrameWriter {
    w: BufWriter<File>,
}

impl FrameWriter {
    pub fn new(dir: Option<&Path>) -> Result<FrameWriter> {
        let file = match dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        }
        .map_err(|e| write_error(&e))?;
        Ok(FrameWriter {
            w: BufWriter::with_capacity(BUFFER, file),
        })
    }

    pub fn push(&mut self, frame: &[u8]) -> Result<()> {
        let len = u32::try_from(frame.len()).map_err(|_| anyhow!("diff: a row of over 4 GiB"))?;
        self.w.write_all(&len.to_le_bytes()).map_err(|e| write_error(&e))?;
        self.w.write_all(frame).map_err(|e| write_error(&e))
    }

    /// The file, flushed and rewound for reading (its buffer freed).
    pub fn finish(self) -> Result<File> {
        let mut file = self.w.into_inner().map_err(|e| write_error(e.error()))?;
        file.seek(SeekFrom::Start(0)).map_err(|e| write_error(&e))?;
        Ok(file)
    }
}

/// The frames of a finished file, one at a time.
pub struct FrameReader {
    r: BufReader<File>,
    frame: Vec<u8>,
}

impl FrameReader {
    pub fn new(file: File) -> FrameReader {
        FrameReader {
            r: BufReader::with_capacity(BUFFER, file),
            frame: Vec::new(),
        }
    }

    /// Moves to the next frame; false at the end.
    pub fn advance(&mut self) -> Result<bool> {
        if self.r.fill_buf().map_err(|e| read_error(&e))?.is_empty() {
            return Ok(false);
        }
        let mut len = [0; 4];
        self.r.read_exact(&mut len).map_err(|e| read_error(&e))?;
        self.frame.resize(u32::from_le_bytes(len) as usize, 0);
        self.r.read_exact(&mut self.frame).map_err(|e| read_error(&e))?;
        Ok(true)
    }

    pub fn frame(&self) -> &[u8] {
        &self.frame
    }
}

/// Appends to a frame.
#[derive(Default)]
pub struct Enc(pub Vec<u8>);

impl Enc {
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub fn record(&mut self, r: Option<u64>) {
        self.0.push(r.is_some() as u8);
        self.u64(r.unwrap_or(0));
    }

    pub fn bytes(&mut self, b: &[u8]) {
        // A frame is under 4 GiB (`FrameWriter::push`), so is a field.
        self.0.extend_from_slice(&(b.len() as u32).to_le_bytes());
        self.0.extend_from_slice(b);
    }

    pub fn side(&mut self, s: &Side<'_>) {
        self.record(s.record);
        for t in [s.kind, s.canonical, s.error, s.warnings] {
            self.bytes(t.as_bytes());
        }
    }
}

/// Reads a frame back.
pub struct Dec<'a> {
    buf: &'a [u8],
}

impl<'a> Dec<'a> {
    pub fn new(buf: &'a [u8]) -> Dec<'a> {
        Dec { buf }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.buf.len() < n {
            return Err(corrupt());
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap_or_default()))
    }

    fn record(&mut self) -> Result<Option<u64>> {
        let known = self.u8()? == 1;
        let r = self.u64()?;
        Ok(known.then_some(r))
    }

    fn bytes(&mut self) -> Result<&'a [u8]> {
        let len = u32::from_le_bytes(self.take(4)?.try_into().unwrap_or_default());
        self.take(len as usize)
    }

    fn str(&mut self) -> Result<&'a str> {
        std::str::from_utf8(self.bytes()?).map_err(|_| corrupt())
    }

    fn side(&mut self) -> Result<Side<'a>> {
        Ok(Side {
            record: self.record()?,
            kind: self.str()?,
            canonical: self.str()?,
            error: self.str()?,
            warnings: self.str()?,
        })
    }
}

/// What earlier NEW rows did to a key, for an OLD row partitioned after
/// the in-memory join had begun reading NEW (see `join::Join::compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    None,
    /// An OLD row a NEW row (`row`, `scan`'s `record` or 0) matched.
    Matched {
        row: u64,
        record: u64,
    },
    /// Not an OLD row: a key a NEW row added.
    Added {
        row: u64,
        record: u64,
    },
}

/// A row of OLD or NEW in a partition file.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The file's data row (its sequence number).
    pub row: u64,
    pub key: &'a [u8],
    pub side: Side<'a>,
    pub prior: Prior,
}

pub fn put_row(out: &mut Enc, row: u64, key: &[u8], side: &Side<'_>, prior: Prior) {
    out.0.clear();
    out.u64(row);
    out.bytes(key);
    out.side(side);
    let (tag, matched, record) = match prior {
        Prior::None => (0, 0, 0),
        Prior::Matched { row, record } => (1, row, record),
        Prior::Added { row, record } => (2, row, record),
    };
    out.0.push(tag);
    if tag > 0 {
        out.u64(matched);
        out.u64(record);
    }
}

pub fn get_row(frame: &[u8]) -> Result<Row<'_>> {
    let mut d = Dec::new(frame);
    let (row, key, side) = (d.u64()?, d.bytes()?, d.side()?);
    let prior = match d.u8()? {
        0 => Prior::None,
        1 => Prior::Matched {
            row: d.u64()?,
            record: d.u64()?,
        },
        2 => Prior::Added {
            row: d.u64()?,
            record: d.u64()?,
        },
        _ => return Err(corrupt()),
    };
    Ok(Row { row, key, side, prior })
}

/// A change with the sequence number it is written in order of (NEW's
/// row, or OLD's for `removed`).
pub fn put_change(out: &mut Enc, seq: u64, c: &ChangeRow<'_>) {
    out.0.clear();
    out.u64(seq);
    out.0.push(c.change as u8);
    out.bytes(c.key);
    for s in [&c.old, &c.new] {
        out.0.push(s.is_some() as u8);
        if let Some(s) = s {
            out.side(s);
        }
    }
}

/// The sequence number of a change's frame.
pub fn change_seq(frame: &[u8]) -> Result<u64> {
    Dec::new(frame).u64()
}

pub fn get_change(frame: &[u8]) -> Result<ChangeRow<'_>> {
    let mut d = Dec::new(frame);
    d.u64()?;
    let change = *Change::ALL.get(d.u8()? as usize).ok_or_else(corrupt)?;
    let key = d.bytes()?;
    let mut side = || -> Result<Option<Side<'_>>> { if d.u8()? == 1 { Ok(Some(d.side()?)) } else { Ok(None) } };
    let (old, new) = (side()?, side()?);
    Ok(ChangeRow { change, key, old, new })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_through_a_file() {
        let side = Side {
            record: Some(0),
            kind: "doi",
            canonical: "10.1/é",
            error: "",
            warnings: "a;b",
        };
        let mut w = FrameWriter::new(None).unwrap();
        let mut e = Enc::default();
        let prior = |i: u64| match i % 3 {
            0 => Prior::None,
            1 => Prior::Matched { row: i, record: 0 },
            _ => Prior::Added { row: i, record: 9 },
        };
        for i in 0..1000u64 {
            put_row(&mut e, i, format!("k{i}").as_bytes(), &side, prior(i));
            w.push(&e.0).unwrap();
        }
        let c = ChangeRow {
            change: Change::CodesChanged,
            key: b"key",
            old: Some(Side { record: None, ..side }),
            new: None,
        };
        put_change(&mut e, 7, &c);
        w.push(&e.0).unwrap();
        let mut r = FrameReader::new(w.finish().unwrap());
        for i in 0..1000u64 {
            assert!(r.advance().unwrap());
            let row = get_row(r.frame()).unwrap();
            assert_eq!(
                (row.row, row.key, row.side, row.prior),
                (i, format!("k{i}").as_bytes(), side, prior(i))
            );
        }
        assert!(r.advance().unwrap());
        assert_eq!(change_seq(r.frame()).unwrap(), 7);
        let back = get_change(r.frame()).unwrap();
        assert_eq!(
            (back.change, back.key, back.old, back.new),
            (c.change, c.key, c.old, c.new)
        );
        assert!(!r.advance().unwrap());
        assert!(get_row(&[1, 2, 3]).is_err());
    }
}
