//! [`JsonlBlockReader`]: reads an input (plain, `.gz`, `.zst`, stdin, all
//! through `source::open_text`) and cuts it into [`RawLines`] blocks that
//! [`super::parse_block`] parses independently, in parallel.
//!
//! - JSON Lines: a block ends at a `\n` found with `memchr` (a JSON string
//!   cannot hold a raw line break, so every `\n` ends a record). Only the
//!   current block and the rest of the last read are in memory. Blank
//!   lines (white space only) are no records; a UTF-8 BOM at the start is
//!   dropped; a line longer than `max_line` is an error naming its line.
//! - With `records` (JSON documents, `{"items": [...]}`): the documents
//!   stream through [`super::document::Walk`], which finds each element of
//!   the array at the path; elements are handed out in blocks of whole
//!   elements, each with the line it starts on. Memory is a block and the
//!   element being read, whatever the document's size; an element (or a
//!   value off the path) longer than `max_line` is an error naming its
//!   line. A document that is not valid JSON, or not an object, is one
//!   error naming its line (and byte): there is no line to skip to.

use super::document::{Event, Held, Walk};
use super::path::{JsonPath, Step};
use super::options::JsonlOptions;
use crate::io::error::{ErrorKind, Position, PositionedError};
use crate::io::source::{self, InputSpec};
use std::io::Read;
use std::sync::Arc;

/// A block of whole records, as raw bytes.
#[derive(Clone, Debug)]
pub struct RawLines {
    /// The input's name, for error messages.
    pub file: Arc<str>,
    /// Whole lines (the last one may lack its `\n` at end of input), or
    /// with `records` the elements' bytes one after another.
    pub data: Vec<u8>,
    /// 1-based line of `data[0]` (JSON Lines).
    pub first_line: u64,
    /// 1-based number of the first record in `data`.
    pub first_record: u64,
    /// Records in `data`: non-blank lines (each becomes a record or, with
    /// `skip_bad_lines`, a skipped line), or elements.
    pub nrecords: u64,
    /// Offset of `data[0]` in the decompressed input (JSON Lines; with
    /// `records`, of the first element).
    pub byte_offset: u64,
    /// With `records`: where each element is in `data`, and its line.
    pub elements: Option<Vec<Element>>,
}

/// One array element of a `records` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub start: u32,
    pub end: u32,
    /// 1-based line where the element starts in the input.
    pub line: u64,
}

/// Reads an input and cuts it into [`RawLines`] blocks.
pub struct JsonlBlockReader {
    name: Arc<str>,
    src: Box<dyn Read + Send>,
    opts: JsonlOptions,
    buf: Vec<u8>,
    /// Stream offset of `buf[0]`.
    offset: u64,
    /// Lines and records before `buf[0]` (JSON Lines; with `records`,
    /// records handed out).
    lines: u64,
    records: u64,
    started: bool,
    eof: bool,
    /// Bytes asked of the source at a time.
    read_size: usize,
    doc: Option<Document>,
}

/// With `records`: the walk, and the line count it needs for positions.
struct Document {
    walk: Walk,
    /// Line at `buf[counted]`, and the stream offset where that line
    /// starts (errors give a byte of their line).
    line: u64,
    line_start: u64,
    counted: usize,
}

const READ_SIZE: usize = 1 << 20;

/// White space only (a blank line).
pub(super) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

impl JsonlBlockReader {
    /// Open `spec` (see `source::open_text`: decompression by name or by
    /// sniffing; Parquet and Arrow refused).
    pub fn open(spec: &InputSpec, opts: JsonlOptions) -> Result<Self, PositionedError> {
        let src = source::open_text(spec)?;
        Self::from_reader(spec.display_name(), src, opts)
    }

    /// Read from an already opened (decompressed) stream; `name` is used in
    /// errors.
    pub fn from_reader(
        name: impl Into<String>,
        src: impl Read + Send + 'static,
        opts: JsonlOptions,
    ) -> Result<Self, PositionedError> {
        let name: Arc<str> = name.into().into();
        opts.check()
            .map_err(|m| PositionedError::new(&name, Position::default(), ErrorKind::BadOption(m)))?;
        Ok(JsonlBlockReader {
            name,
            src: Box::new(src),
            buf: Vec::with_capacity(opts.block_size + READ_SIZE),
            opts,
            offset: 0,
            lines: 0,
            records: 0,
            started: false,
            eof: false,
            read_size: READ_SIZE,
            doc: None,
        })
    }

    /// Reads `bytes` at a time from the source, so tests can cut the input
    /// anywhere.
    #[cfg(test)]
    pub(super) fn with_read_size(mut self, bytes: usize) -> Self {
        self.read_size = bytes.max(1);
        self
    }

    #[cfg(test)]
    /// The options the reader was opened with.
    pub fn options(&self) -> &JsonlOptions {
        &self.opts
    }

    #[cfg(test)]
    /// Records handed out so far (skipped lines included).
    pub fn records(&self) -> u64 {
        self.records
    }

    fn err(&self, line: Option<u64>, kind: ErrorKind) -> PositionedError {
        PositionedError::new(&self.name, Position::line(line, None), kind)
    }

    /// Appends up to `want` bytes to `buf`; false at end of input.
    fn fill(&mut self, want: usize) -> Result<bool, PositionedError> {
        match (&mut self.src).take(want as u64).read_to_end(&mut self.buf) {
            Ok(n) => {
                self.eof |= n == 0;
                Ok(n > 0)
            }
            Err(e) => {
                let line = self.lines + 1 + memchr::memchr_iter(b'\n', &self.buf).count() as u64;
                Err(self.err(Some(line), ErrorKind::Read(e)))
            }
        }
    }

    /// Drops a UTF-8 BOM at the very start.
    fn start(&mut self) -> Result<(), PositionedError> {
        self.started = true;
        while self.buf.len() < 3 && self.fill(self.read_size)? {}
        if self.buf.starts_with(b"\xef\xbb\xbf") {
            self.buf.drain(..3);
            self.offset = 3;
        }
        Ok(())
    }

    /// The next block, `None` at end of input.
    pub fn next_block(&mut self) -> Result<Option<RawLines>, PositionedError> {
        if !self.started {
            self.start()?;
            if let Some(path) = &self.opts.records {
                let keys = path.keys().expect("checked").into_iter().map(|k| k.as_bytes().to_vec());
                self.doc = Some(Document {
                    walk: Walk::new(keys.collect()),
                    line: 1,
                    line_start: self.offset,
                    counted: 0,
                });
            }
        }
        if self.doc.is_some() {
            return self.next_elements();
        }
        loop {
            let tail_start = memchr::memrchr(b'\n', &self.buf).map_or(0, |nl| nl + 1);
            if self.eof || self.buf.len() >= self.opts.block_size {
                let cut = if self.eof { self.buf.len() } else { tail_start };
                if cut > 0 {
                    return self.emit(cut).map(Some);
                }
                if self.eof {
                    return Ok(None);
                }
            }
            // The unfinished last line must not grow past the limit.
            if self.buf.len() - tail_start > self.opts.max_line {
                let line = self.lines + 1 + memchr::memchr_iter(b'\n', &self.buf[..tail_start]).count() as u64;
                let limit = self.opts.max_line;
                return Err(self.err(Some(line), ErrorKind::LineTooLong { limit }));
            }
            self.fill(self.read_size)?;
        }
    }

    /// Hands out `buf[..cut]`, which ends at a line end (or the input's).
    fn emit(&mut self, cut: usize) -> Result<RawLines, PositionedError> {
        let (mut lines, mut records, mut pos) = (0u64, 0u64, 0usize);
        let data = &self.buf[..cut];
        while pos < cut {
            let end = memchr::memchr(b'\n', &data[pos..]).map_or(cut, |k| pos + k);
            let line = &data[pos..end];
            if line.len() > self.opts.max_line {
                let limit = self.opts.max_line;
                return Err(self.err(Some(self.lines + lines + 1), ErrorKind::LineTooLong { limit }));
            }
            // Nearly every line starts with `{`: one byte decides.
            if line.first().is_some_and(|&b| b == b'{') || !is_blank(line) {
                records += 1;
            }
            lines += 1;
            pos = end + 1;
        }
        let mut next = Vec::with_capacity(self.opts.block_size + READ_SIZE);
        next.extend_from_slice(&self.buf[cut..]);
        self.buf.truncate(cut);
        let data = std::mem::replace(&mut self.buf, next);
        let raw = RawLines {
            file: self.name.clone(),
            first_line: self.lines + 1,
            first_record: self.records + 1,
            nrecords: records,
            byte_offset: self.offset,
            data,
            elements: None,
        };
        self.lines += lines;
        self.records += records;
        self.offset += cut as u64;
        Ok(raw)
    }

    /// `records`: the next block of whole elements, `None` after the last.
    fn next_elements(&mut self) -> Result<Option<RawLines>, PositionedError> {
        let mut data = Vec::new();
        let mut elements = Vec::new();
        let mut first_offset = 0;
        while data.is_empty() || data.len() < self.opts.block_size {
            let doc = self.doc.as_mut().expect("records mode");
            match doc.walk.next(&self.buf, self.eof) {
                Ok(Event::Element { start, end }) => {
                    if end - start > self.opts.max_line {
                        let record = self.records + elements.len() as u64 + 1;
                        return Err(self.too_long(start, Some(record)));
                    }
                    let line = self.line_at(start);
                    if elements.is_empty() {
                        first_offset = self.offset + start as u64;
                    }
                    let at = data.len() as u32;
                    data.extend_from_slice(&self.buf[start..end]);
                    elements.push(Element {
                        start: at,
                        end: data.len() as u32,
                        line,
                    });
                }
                Ok(Event::More { from }) => {
                    if self.buf.len() - from > self.opts.max_line {
                        let in_element = self.doc.as_ref().is_some_and(|d| d.walk.in_element());
                        let record = in_element.then(|| self.records + elements.len() as u64 + 1);
                        return Err(self.too_long(from, record));
                    }
                    // Drop what the walk passed, then read at least as much
                    // as is held of the value being read, so that a long
                    // one is walked again only a few times.
                    self.line_at(from);
                    self.buf.drain(..from);
                    self.offset += from as u64;
                    let doc = self.doc.as_mut().expect("records mode");
                    doc.counted = doc.counted.saturating_sub(from);
                    doc.walk.shift(from);
                    let want = self.read_size.max(self.buf.len());
                    self.fill(want)?;
                }
                Ok(Event::End) => {
                    if doc.walk.arrays() == 0 {
                        let (path, detail) = match &self.opts.records {
                            Some(p) => match doc.walk.held() {
                                Some(held) => (p.to_string(), held_instead(p, held)),
                                None => (p.to_string(), off_path(p, doc.walk.off_path())),
                            },
                            None => Default::default(),
                        };
                        return Err(self.err(None, ErrorKind::NoRecords { path, detail }));
                    }
                    break;
                }
                Ok(Event::NotAnObject { at, found }) => {
                    let line = self.line_at(at);
                    let root = self.opts.records.as_ref().and_then(|p| p.keys()).is_some_and(|k| k.is_empty());
                    let kind = match (root, found) {
                        (true, _) => ErrorKind::NotArray { found },
                        (false, "an array") => ErrorKind::ArrayOfRecords { lines: false },
                        (false, _) => ErrorKind::NotObject { found },
                    };
                    return Err(self.err(Some(line), kind));
                }
                Err(s) => {
                    let line = self.line_at(s.at);
                    let doc = self.doc.as_ref().expect("records mode");
                    let column = self.offset + s.at as u64 - doc.line_start + 1;
                    let pos = Position {
                        column: Some(column),
                        ..Position::line(Some(line), None)
                    };
                    return Err(PositionedError::new(
                        &self.name,
                        pos,
                        ErrorKind::Syntax { what: s.what, cut: false },
                    ));
                }
            }
        }
        if elements.is_empty() {
            return Ok(None);
        }
        let raw = RawLines {
            file: self.name.clone(),
            first_line: elements[0].line,
            first_record: self.records + 1,
            nrecords: elements.len() as u64,
            byte_offset: first_offset,
            data,
            elements: Some(elements),
        };
        self.records += raw.nrecords;
        Ok(Some(raw))
    }

    /// `records`: the line `buf[pos]` is on (`pos` never goes back).
    fn line_at(&mut self, pos: usize) -> u64 {
        let doc = self.doc.as_mut().expect("records mode");
        // Within what was counted and what is held, so never a panic: the
        // walk only goes forward.
        let from = doc.counted.min(self.buf.len());
        let pos = pos.clamp(from, self.buf.len());
        let passed = &self.buf[from..pos];
        if let Some(last) = memchr::memrchr(b'\n', passed) {
            doc.line += memchr::memchr_iter(b'\n', passed).count() as u64;
            doc.line_start = self.offset + (from + last + 1) as u64;
        }
        doc.counted = pos;
        doc.line
    }

    /// `records`: the value at `buf[pos]` (an element: `record`) is longer
    /// than `max_line`.
    fn too_long(&mut self, pos: usize, record: Option<u64>) -> PositionedError {
        let line = self.line_at(pos);
        let limit = self.opts.max_line;
        PositionedError::new(
            &self.name,
            Position::line(Some(line), record),
            ErrorKind::ValueTooLong { limit },
        )
    }
}

/// What the `--records` path reached instead of its array (or, before
/// its end, of an object), and the path to a list held there.
fn held_instead(path: &JsonPath, held: &Held) -> String {
    let steps = path.steps();
    let reached = JsonPath::from_steps(steps[..held.keys].to_vec()).map_or_else(|_| path.to_string(), |p| p.to_string());
    let wanted = if held.keys == steps.len() { "an array" } else { "an object" };
    let mut detail = format!(": {reached} holds {}, not {wanted}", held.found);
    if let Some(first) = held.lists.first() {
        let mut to_list = steps[..held.keys].to_vec();
        to_list.push(Step::Key(first.as_str().into()));
        let hint = JsonPath::from_steps(to_list).map_or(String::new(), |p| crate::select::suggestion(&p.to_string()));
        let lists = crate::io::describe_columns(held.lists.iter().map(String::as_str));
        detail += &format!("; its keys holding a list: {lists}{hint}");
    }
    detail
}

/// What `--records PATH` found instead of its array: the keys of the
/// deepest object on the path the walk entered (`keys`, under the path's
/// first `depth` keys), and the nearest of them to the key it missed.
fn off_path(path: &JsonPath, (depth, keys, below): (usize, Vec<String>, Vec<[String; 2]>)) -> String {
    if keys.is_empty() {
        return String::new();
    }
    let steps = path.steps();
    let under = match JsonPath::from_steps(steps[..depth].to_vec()) {
        Ok(p) => format!("under {p}"),
        Err(_) => "of the document".to_owned(),
    };
    // The nearest key there, else a list one object down named as the
    // missed key was (`--records items` for `message.items`).
    let fixed = |near: &[&str]| {
        let mut fixed = steps[..depth].to_vec();
        fixed.extend(near.iter().map(|&k| Step::Key(k.into())));
        fixed.extend_from_slice(&steps[depth + 1..]);
        JsonPath::from_steps(fixed).map_or(String::new(), |p| crate::select::suggestion(&p.to_string()))
    };
    let hint = match steps.get(depth) {
        Some(Step::Key(missed)) => match crate::select::nearest(&keys, missed) {
            Some(near) => fixed(&[near]),
            None => below
                .iter()
                .find(|[_, list]| crate::select::nearest(std::slice::from_ref(list), missed).is_some())
                .map_or(String::new(), |[parent, list]| fixed(&[parent, list])),
        },
        _ => String::new(),
    };
    format!("; keys {under}: {}{hint}", crate::io::describe_columns(keys.iter().map(String::as_str)))
}
