//! [`parse_block`] and what it makes, [`JsonRecords`]: per record its line
//! and record number, and per path a list of values, all values of a block
//! in one byte buffer (no allocation per value).

use super::options::JsonlOptions;
use super::path::PathSet;
use super::reach::{Reach, SAMPLED};
use super::reader::RawLines;
use super::scan::{self, Bad, DEAD, Out};
use crate::io::error::{ErrorKind, Position, PositionedError};

/// How many skipped lines a block keeps the details of (all are counted).
pub const BAD_LINES_KEPT: usize = 10;

/// A line skipped under `skip_bad_lines`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub record: u64,
    /// Why, as the error would have said it ("not valid JSON: expected …").
    pub reason: String,
}

/// The records of one block.
#[derive(Clone, Debug)]
pub struct JsonRecords {
    npaths: usize,
    bytes: Vec<u8>,
    /// Every value's range in `bytes`, record by record, path by path.
    spans: Vec<[usize; 2]>,
    /// Record `r`'s values for path `p` are
    /// `spans[cells[r * npaths + p]..cells[r * npaths + p + 1]]`.
    cells: Vec<u32>,
    lines: Vec<u64>,
    records: Vec<u64>,
    skipped: u64,
    bad_lines: Vec<BadLine>,
    reach: Reach,
}

impl JsonRecords {
    /// Number of records (skipped lines not counted).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// 1-based line where record `r` starts.
    pub fn line(&self, r: usize) -> u64 {
        self.lines[r]
    }

    /// 1-based record number of record `r`: the ordinal of its non-blank
    /// line (or array element) in the input. A skipped line keeps its
    /// number, so numbers have gaps where lines were skipped.
    pub fn record(&self, r: usize) -> u64 {
        self.records[r]
    }

    /// The values of path `path` in record `r`, in document order; a
    /// dead end on the way (`null`, a missing key) is one empty value,
    /// and an empty list none (the caller makes a cell without any one
    /// empty value). A path without `[]` gives at most one (a repeated
    /// key: the last), so it can fill one cell of a column.
    pub fn values(&self, r: usize, path: usize) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.spans(r, path).iter().map(|&[s, e]| &self.bytes[s.min(e)..e])
    }

    /// The one value of a path without `[]` in record `r`, `None` where
    /// the path met a dead end or nothing: what a kept column writes
    /// null.
    pub fn kept(&self, r: usize, path: usize) -> Option<&[u8]> {
        let &[s, e] = self.spans(r, path).first()?;
        (s <= e).then(|| &self.bytes[s..e])
    }

    #[inline]
    fn spans(&self, r: usize, path: usize) -> &[[usize; 2]] {
        let c = r * self.npaths + path;
        assert!(path < self.npaths, "path {path} out of range");
        &self.spans[self.cells[c] as usize..self.cells[c + 1] as usize]
    }

    /// Number of values of path `path` in record `r`.
    pub fn value_count(&self, r: usize, path: usize) -> usize {
        self.spans(r, path).len()
    }

    /// Lines skipped as bad (with `skip_bad_lines`).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The first [`BAD_LINES_KEPT`] skipped lines.
    pub fn bad_lines(&self) -> &[BadLine] {
        &self.bad_lines
    }

    /// The places of the paths this block's records reached, and the keys
    /// its first records had beside them.
    pub fn take_reach(&mut self) -> Reach {
        std::mem::take(&mut self.reach)
    }
}

/// Parses a block: each record checked as JSON, the values of `paths`
/// taken out. Pure and thread-safe: blocks can be parsed in parallel, in
/// any order. Of `opts`, only `skip_bad_lines` matters here.
pub fn parse_block(raw: &RawLines, paths: &PathSet, opts: &JsonlOptions) -> Result<JsonRecords, PositionedError> {
    let npaths = paths.len();
    let n = raw.nrecords as usize;
    let mut rs = JsonRecords {
        npaths,
        bytes: Vec::new(),
        spans: Vec::with_capacity(n * npaths),
        cells: Vec::with_capacity(n * npaths + 1),
        lines: Vec::with_capacity(n),
        records: Vec::with_capacity(n),
        skipped: 0,
        bad_lines: Vec::new(),
        reach: Reach::default(),
    };
    rs.cells.push(0);
    let mut out = Out::default();
    out.reach = Reach::new(paths.nodes.len());
    let mut record = raw.first_record;
    // `ends_input`: the input's last line, without its line break (blocks
    // hold whole lines but for that one).
    let mut one = |text: &[u8], line: u64, ends_input: bool, rs: &mut JsonRecords, out: &mut Out| -> Result<(), PositionedError> {
        out.entries.clear();
        out.sampling = record - raw.first_record < SAMPLED as u64;
        let mark = out.bytes.len();
        match scan::record(text, paths, out) {
            Ok(()) => {
                // Document order to path order; a stable sort keeps each
                // path's values in document order.
                out.entries.sort_by_key(|e| e.path);
                let mut at = 0;
                for p in 0..npaths as u32 {
                    while at < out.entries.len() && out.entries[at].path == p {
                        rs.spans.push([out.entries[at].start, out.entries[at].end]);
                        at += 1;
                    }
                    rs.cells.push(rs.spans.len() as u32);
                }
                debug_assert!(out.entries[at..].iter().all(|e| e.path == DEAD));
                rs.lines.push(line);
                rs.records.push(record);
            }
            Err(bad) => {
                let mut pos = Position::line(Some(line), Some(record));
                // A JSON Lines file opening with an array: an array of
                // records, on one line or spread over many (an array line
                // among objects is one bad line).
                let array = raw.elements.is_none() && record == 1 && text.trim_ascii_start().first() == Some(&b'[');
                let kind = match bad {
                    _ if array => ErrorKind::ArrayOfRecords { lines: true },
                    Bad::Syntax(s) => {
                        pos.column = Some(s.at as u64 + 1);
                        // What was read ran out before the record closed.
                        let cut = ends_input && s.at >= text.trim_ascii_end().len();
                        ErrorKind::Syntax { what: s.what, cut }
                    }
                    Bad::NotObject(found) => ErrorKind::NotObject { found },
                };
                let e = PositionedError::new(&raw.file, pos, kind);
                if !opts.skip_bad_lines {
                    return Err(e);
                }
                out.bytes.truncate(mark);
                rs.skipped += 1;
                if rs.bad_lines.len() < BAD_LINES_KEPT {
                    let text = e.to_string();
                    let prefix = format!("{}: record {record} (line {line}): ", raw.file);
                    rs.bad_lines.push(BadLine {
                        line,
                        record,
                        reason: text.strip_prefix(&prefix).unwrap_or(&text).to_string(),
                    });
                }
            }
        }
        record += 1;
        Ok(())
    };
    let data = &raw.data[..];
    match &raw.elements {
        Some(elements) => {
            for el in elements {
                one(&data[el.start as usize..el.end as usize], el.line, false, &mut rs, &mut out)?;
            }
        }
        None => {
            let (mut line, mut pos) = (raw.first_line, 0);
            while pos < data.len() {
                let end = memchr::memchr(b'\n', &data[pos..]).map_or(data.len(), |k| pos + k);
                let text = &data[pos..end];
                // Blank lines are no records.
                if !super::reader::is_blank(text) {
                    one(text, line, end == data.len() && data.last() != Some(&b'\n'), &mut rs, &mut out)?;
                }
                line += 1;
                pos = end + 1;
            }
        }
    }
    rs.bytes = out.bytes;
    rs.reach = out.reach;
    debug_assert_eq!(rs.len() as u64 + rs.skipped, raw.nrecords);
    Ok(rs)
}
