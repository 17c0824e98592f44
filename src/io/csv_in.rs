//! CSV/TSV input: open (with transparent decompression), read the header,
//! cut the stream into blocks of whole records, parse blocks into columnar
//! [`RowBlock`]s.
//!
//! ```no_run
//! use hdlscan::io::csv_in::{parse_block, CsvBlockReader, CsvOptions, InputSpec};
//! use rayon::prelude::*;
//!
//! let mut rdr = CsvBlockReader::open(&InputSpec::parse("data.csv.gz"), CsvOptions::default())?;
//! let (ncols, popts) = (rdr.ncols(), rdr.parse_options());
//! let mut raws = Vec::new();
//! while let Some(raw) = rdr.next_block()? {
//!     raws.push(raw);
//!     if raws.len() == 4 {
//!         // parsed in parallel, collected in input order; a RowBlock
//!         // borrows its raw block
//!         let rows: Vec<_> = raws.par_iter().map(|r| parse_block(r, ncols, popts)).collect();
//!         for block in rows { let block = block?; /* ... */ }
//!         raws.clear();
//!     }
//! }
//! # Ok::<(), hdlscan::io::csv_in::PositionedError>(())
//! ```
//!
//! Decisions:
//! - Header names are decoded lossily (invalid UTF-8 becomes U+FFFD); the
//!   exact bytes stay available through [`CsvBlockReader::header_bytes`].
//! - A UTF-8 BOM at the very start of the stream is dropped (byte offsets
//!   still count it).
//! - Records with a different number of fields than the header are errors;
//!   with [`CsvOptions::allow_short_rows`], short records are padded with
//!   empty fields and counted, long records are always errors.
//! - Line numbers count `\n` like `csv::Position` (a lone `\r` ends a record
//!   but starts no new line).

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::magic::{self, is_gzip, is_zstd};
use super::record;
use super::split::{Boundary, Splitter, UnclosedQuote};

/// Where the input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSpec {
    /// Standard input (`-`).
    Stdin,
    /// A file; `.gz` and `.zst` are decompressed.
    Path(PathBuf),
}

impl InputSpec {
    /// `-` is stdin, anything else a path.
    pub fn parse(s: &str) -> Self {
        if s == "-" {
            InputSpec::Stdin
        } else {
            InputSpec::Path(PathBuf::from(s))
        }
    }

    /// The name used in error messages.
    pub fn display_name(&self) -> String {
        match self {
            InputSpec::Stdin => "<stdin>".to_string(),
            InputSpec::Path(p) => p.display().to_string(),
        }
    }

    /// Compression named by the extension; inputs without one are sniffed
    /// when opened (`open_input`).
    pub fn compression(&self) -> Compression {
        match self {
            InputSpec::Stdin => Compression::None,
            InputSpec::Path(p) => Compression::from_path(p),
        }
    }
}

/// Supported stream compressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// By extension: `.gz` → gzip, `.zst` → zstd, otherwise none.
    pub fn from_path(p: &Path) -> Self {
        match p.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("gz") => Compression::Gzip,
            Some(e) if e.eq_ignore_ascii_case("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }

    fn sniff(head: &[u8]) -> Self {
        if is_gzip(head) {
            Compression::Gzip
        } else if is_zstd(head) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// Options of the block reader.
#[derive(Clone, Copy, Debug)]
pub struct CsvOptions {
    /// Field delimiter: `,` (default) or `\t` for TSV; not `"`, `\r`, `\n`.
    pub delimiter: u8,
    /// The first record is a header (default true).
    pub has_headers: bool,
    /// Pad records with too few fields instead of failing (default false).
    pub allow_short_rows: bool,
    /// Target block size in bytes (default 8 MiB).
    pub block_size: usize,
    /// Hard cap on a block (so on one record) in bytes (default 256 MiB,
    /// at most `u32::MAX`); a longer record is an error.
    pub max_block_size: usize,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            delimiter: b',',
            has_headers: true,
            allow_short_rows: false,
            block_size: 8 << 20,
            max_block_size: 256 << 20,
        }
    }
}

/// Options [`parse_block`] needs.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    pub delimiter: u8,
    pub allow_short_rows: bool,
}

/// Where an error happened. Any part may be unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// 1-based data record number (the header is not counted).
    pub record: Option<u64>,
    /// 1-based line number (counting `\n`).
    pub line: Option<u64>,
    /// Byte offset in the decompressed stream.
    pub byte: Option<u64>,
}

/// What went wrong.
#[derive(Debug)]
pub enum ErrorKind {
    /// The file cannot be opened.
    Open(io::Error),
    /// Reading or decompressing failed.
    Read(io::Error),
    /// A `.gz` file that does not start like gzip.
    NotGzip,
    /// A `.zst` file that does not start like zstd (or is empty).
    NotZstd,
    /// A file read as CSV that starts like Parquet (`PAR1`); the hint
    /// depends on why it was read as CSV.
    LooksParquet(ReadAsCsv),
    /// A file read as CSV that starts like Arrow IPC, which hdlscan does
    /// not read at all.
    LooksArrow,
    /// A compressed file (the compression is "gzip" or "zstd") that holds
    /// Parquet, which is read only as a file as written.
    CompressedParquet(&'static str),
    /// A compressed file that holds Arrow IPC.
    CompressedArrow(&'static str),
    /// `has_headers` but the input holds no record.
    NoHeader,
    /// A record has the wrong number of fields.
    FieldCount { expected: usize, found: usize },
    /// A quoted field was still open at end of input.
    UnclosedQuote,
    /// A single record is larger than `max_block_size`.
    RecordTooLarge { limit: usize },
    /// Invalid [`CsvOptions`].
    BadOption(String),
    /// The `csv` crate rejected a block (not expected to happen).
    Csv(String),
}

/// Why a Parquet file was read as CSV, for the hint that gets it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadAsCsv {
    /// Bytes on stdin, which is always CSV: Parquet needs a file (its
    /// footer is read first), so `--input-format parquet` would not help.
    Stdin,
    /// Named `.parquet` or `.pq` already: only `--input-format csv` (or
    /// `tsv`) can have made it CSV.
    NamedParquet,
    /// Any other name.
    OtherName,
}

/// An error naming the file and the position reached.
#[derive(Debug)]
pub struct PositionedError {
    pub file: Arc<str>,
    pub pos: Position,
    pub kind: ErrorKind,
}

impl PositionedError {
    fn new(file: &Arc<str>, pos: Position, kind: ErrorKind) -> Self {
        PositionedError {
            file: file.clone(),
            pos,
            kind,
        }
    }
}

impl fmt::Display for PositionedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file)?;
        let p = &self.pos;
        match (&self.kind, p.record, p.line) {
            (ErrorKind::Read(_), _, _) => {}
            (_, Some(r), Some(l)) => write!(f, "record {r} (line {l}): ")?,
            (_, Some(r), None) => write!(f, "record {r}: ")?,
            (_, None, Some(l)) => write!(f, "line {l}: ")?,
            _ => {}
        }
        match &self.kind {
            ErrorKind::Open(e) => write!(f, "cannot open: {e}"),
            ErrorKind::Read(e) => {
                write!(f, "read error")?;
                match (p.record, p.byte) {
                    (Some(r), Some(b)) => write!(f, " in record {r} (byte {b})")?,
                    (None, Some(b)) => write!(f, " at byte {b}")?,
                    _ => {}
                }
                write!(f, ": {e}")
            }
            ErrorKind::NotGzip => write!(f, "not a gzip file (bad magic bytes)"),
            ErrorKind::NotZstd => write!(f, "not a zstd file (empty or bad magic bytes)"),
            ErrorKind::LooksParquet(ReadAsCsv::Stdin) => write!(
                f,
                "this is a Parquet file, not CSV, and Parquet cannot be read from stdin; give the file's path instead of -"
            ),
            ErrorKind::LooksParquet(ReadAsCsv::NamedParquet) => write!(
                f,
                "this is a Parquet file, read as CSV because of --input-format; drop that option"
            ),
            ErrorKind::LooksParquet(ReadAsCsv::OtherName) => write!(
                f,
                "this is a Parquet file, not CSV; name it .parquet or pass --input-format parquet"
            ),
            ErrorKind::LooksArrow => f.write_str(magic::ARROW_IPC),
            ErrorKind::CompressedParquet(c) => write!(
                f,
                "a {c}-compressed Parquet file; decompress it first and give hdlscan the .parquet file"
            ),
            ErrorKind::CompressedArrow(c) => {
                write!(f, "a {c}-compressed {}", magic::ARROW_IPC.trim_start_matches("an "))
            }
            ErrorKind::NoHeader => write!(f, "no header: the input holds no record"),
            ErrorKind::FieldCount { expected, found } => {
                write!(f, "expected {expected} fields, found {found}")
            }
            ErrorKind::UnclosedQuote => write!(f, "quote opened here never closes"),
            ErrorKind::RecordTooLarge { limit } => {
                write!(
                    f,
                    "record longer than the {limit}-byte limit (raise it with --max-record-mib)"
                )
            }
            ErrorKind::BadOption(m) => write!(f, "invalid option: {m}"),
            ErrorKind::Csv(m) => write!(f, "CSV error: {m}"),
        }
    }
}

impl std::error::Error for PositionedError {
    // The message already ends with the I/O error's own text; a `source`
    // would make `{:#}` print it twice.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}

/// Open `spec` as a decompressed byte stream. A `.gz` or `.zst` name must
/// hold what it says (a mislabelled file gives a clear error); any other
/// input, stdin included, is sniffed for gzip and zstd magic bytes, so a
/// compressed export saved as `.csv` is read, not taken for garbage text.
/// Parquet or Arrow IPC read as CSV, plain or compressed, is refused with a
/// hint (see [`magic`]).
pub fn open_input(spec: &InputSpec) -> Result<Box<dyn Read + Send>, PositionedError> {
    let name: Arc<str> = spec.display_name().into();
    let err = |kind| PositionedError::new(&name, Position::default(), kind);
    let mut src: BufReader<Box<dyn Read + Send>> = match spec {
        InputSpec::Stdin => BufReader::with_capacity(256 << 10, Box::new(io::stdin())),
        InputSpec::Path(p) => {
            let f = File::open(p).map_err(|e| err(ErrorKind::Open(e)))?;
            BufReader::with_capacity(256 << 10, Box::new(f))
        }
    };
    let head = loop {
        match src.fill_buf() {
            Ok(h) => break h,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(err(ErrorKind::Read(e))),
        }
    };
    let comp = match spec.compression() {
        Compression::None => Compression::sniff(head),
        named => named,
    };
    if comp == Compression::None {
        if magic::is_parquet(head) {
            let why = match spec {
                InputSpec::Stdin => ReadAsCsv::Stdin,
                InputSpec::Path(p) if named_parquet(p) => ReadAsCsv::NamedParquet,
                InputSpec::Path(_) => ReadAsCsv::OtherName,
            };
            return Err(err(ErrorKind::LooksParquet(why)));
        }
        if magic::is_arrow_ipc(head) {
            return Err(err(ErrorKind::LooksArrow));
        }
    }
    let (mut decoded, compression): (Box<dyn Read + Send>, _) = match comp {
        Compression::None => return Ok(Box::new(src)),
        Compression::Gzip => {
            if !is_gzip(head) {
                return Err(err(ErrorKind::NotGzip));
            }
            (Box::new(flate2::bufread::MultiGzDecoder::new(src)), "gzip")
        }
        Compression::Zstd => {
            if !is_zstd(head) {
                return Err(err(ErrorKind::NotZstd));
            }
            let d = zstd::Decoder::with_buffer(src).map_err(|e| err(ErrorKind::Read(e)))?;
            (Box::new(d), "zstd")
        }
    };
    // A Parquet or Arrow file compressed whole decompresses to no CSV
    // either: its first bytes are looked at, then given back in front.
    let mut inner = Vec::with_capacity(magic::HEAD_LEN);
    (&mut decoded)
        .take(magic::HEAD_LEN as u64)
        .read_to_end(&mut inner)
        .map_err(|e| err(ErrorKind::Read(e)))?;
    if magic::is_parquet(&inner) {
        return Err(err(ErrorKind::CompressedParquet(compression)));
    }
    if magic::is_arrow_ipc(&inner) {
        return Err(err(ErrorKind::CompressedArrow(compression)));
    }
    Ok(Box::new(io::Cursor::new(inner).chain(decoded)))
}

/// True when `p`'s name ends in `.parquet` or `.pq` (any case), as
/// `pipeline::InputFormat::detect` reads names.
fn named_parquet(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".parquet") || name.ends_with(".pq")
}

/// A block of whole records, as raw bytes.
#[derive(Clone, Debug)]
pub struct RawBlock {
    /// The input's name, for error messages.
    pub file: Arc<str>,
    /// Whole records (possibly preceded by blank lines; the last one may
    /// lack its terminator at end of input).
    pub data: Vec<u8>,
    /// 1-based number of the first data record (header not counted).
    pub first_record: u64,
    /// 1-based line of the first record.
    pub first_line: u64,
    /// Offset of `data[0]` in the decompressed stream.
    pub byte_offset: u64,
    /// Number of records in `data`.
    pub nrecords: u64,
}

/// Reads an input and cuts it into [`RawBlock`]s at record boundaries.
/// Only the current block and the leftover of the last read are in memory.
pub struct CsvBlockReader {
    name: Arc<str>,
    src: Box<dyn Read + Send>,
    opts: CsvOptions,
    split: Splitter,
    buf: Vec<u8>,
    /// `buf[..scanned]` went through the splitter.
    scanned: usize,
    /// Splitter offset / record count / line count at `buf[0]`.
    buf_start: Boundary,
    /// Last boundary in `buf`.
    cut: Option<Boundary>,
    /// Length of a dropped BOM (splitter offsets + origin = stream offsets).
    origin: u64,
    /// Records counted by the splitter that are not data (the header).
    record_base: u64,
    eof: bool,
    finished: bool,
    header_bytes: Vec<Vec<u8>>,
    headers: Vec<String>,
    ncols: usize,
}

const READ_SIZE: usize = 1 << 20;

impl CsvBlockReader {
    /// Open `spec` (see [`open_input`]) and read its header.
    pub fn open(spec: &InputSpec, opts: CsvOptions) -> Result<Self, PositionedError> {
        let src = open_input(spec)?;
        Self::from_reader(spec.display_name(), src, opts)
    }

    /// Read from an already opened (decompressed) stream; `name` is used in
    /// error messages. Reads the header (or the first record's width).
    pub fn from_reader(
        name: impl Into<String>,
        src: impl Read + Send + 'static,
        opts: CsvOptions,
    ) -> Result<Self, PositionedError> {
        let name: Arc<str> = name.into().into();
        let bad = |m: String| {
            Err(PositionedError::new(
                &name,
                Position::default(),
                ErrorKind::BadOption(m),
            ))
        };
        if matches!(opts.delimiter, b'"' | b'\r' | b'\n') {
            return bad(format!("delimiter {:?}", opts.delimiter as char));
        }
        if opts.block_size == 0 || opts.max_block_size < opts.block_size {
            return bad("need 0 < block_size <= max_block_size".into());
        }
        if opts.max_block_size > u32::MAX as usize {
            return bad("max_block_size must be < 4 GiB".into());
        }
        let mut r = CsvBlockReader {
            name,
            src: Box::new(src),
            opts,
            split: Splitter::new(opts.delimiter),
            buf: Vec::with_capacity(opts.block_size + READ_SIZE),
            scanned: 0,
            buf_start: Boundary {
                offset: 0,
                records: 0,
                lines: 0,
            },
            cut: None,
            origin: 0,
            record_base: opts.has_headers as u64,
            eof: false,
            finished: false,
            header_bytes: Vec::new(),
            headers: Vec::new(),
            ncols: 0,
        };
        r.start()?;
        Ok(r)
    }

    /// Column names (lossy UTF-8), or `column_1..column_N` without headers.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// Exact header bytes (empty without headers, or once taken).
    pub fn header_bytes(&self) -> &[Vec<u8>] {
        &self.header_bytes
    }

    /// Takes the exact header bytes out of the reader (a header can be
    /// as long as a record: one copy is enough).
    pub fn take_header_bytes(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.header_bytes)
    }

    /// Number of columns every record must have.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Changes the block size for the blocks still to come (at least one
    /// byte, at most `max_block_size`): a caller that learns from the
    /// header how much work a byte holds.
    pub fn set_block_size(&mut self, bytes: usize) {
        self.opts.block_size = bytes.clamp(1, self.opts.max_block_size);
    }

    /// The input's name as used in errors.
    pub fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// What [`parse_block`] needs from the reader's options.
    pub fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            delimiter: self.opts.delimiter,
            allow_short_rows: self.opts.allow_short_rows,
        }
    }

    fn err(&self, pos: Position, kind: ErrorKind) -> PositionedError {
        PositionedError::new(&self.name, pos, kind)
    }

    /// Error position "in the record being read, at the byte reached".
    fn here(&self) -> Position {
        let rec = (self.split.records() + 1).saturating_sub(self.record_base);
        Position {
            record: (rec > 0).then_some(rec),
            line: None,
            byte: Some(self.origin + self.buf_start.offset + self.buf.len() as u64),
        }
    }

    /// Append up to `want` bytes from the source to `buf` (not scanned).
    /// Returns false at end of input. (`read_to_end` on a `Take` fills the
    /// whole chunk even from decoders that return short reads, retries
    /// `Interrupted`, and does not re-zero the spare capacity.)
    fn fill(&mut self, want: usize) -> Result<bool, PositionedError> {
        match (&mut self.src).take(want as u64).read_to_end(&mut self.buf) {
            Ok(n) => {
                self.eof |= n == 0;
                Ok(n > 0)
            }
            Err(e) => {
                // Count what did arrive so the position is the one reached.
                self.split.scan(&self.buf[self.scanned..]);
                self.scanned = self.buf.len();
                Err(self.err(self.here(), ErrorKind::Read(e)))
            }
        }
    }

    fn unclosed(&self, u: UnclosedQuote) -> PositionedError {
        let rec = u.record.record.saturating_sub(self.record_base);
        self.err(
            Position {
                record: (rec > 0).then_some(rec),
                line: Some(u.quote.line),
                byte: Some(self.origin + u.quote.offset),
            },
            ErrorKind::UnclosedQuote,
        )
    }

    /// Drop a BOM, then find the first record: the header, or (without
    /// headers) the record that gives the width.
    fn start(&mut self) -> Result<(), PositionedError> {
        let chunk = READ_SIZE.min(self.opts.max_block_size);
        while self.buf.len() < 3 && self.fill(chunk)? {}
        if self.buf.starts_with(b"\xef\xbb\xbf") {
            self.buf.drain(..3);
            self.origin = 3;
        }
        let first = loop {
            let (used, b) = self.split.next_boundary(&self.buf[self.scanned..]);
            self.scanned += used;
            if b.is_some() {
                break b;
            }
            if self.buf.len() >= self.opts.max_block_size {
                let rec = (!self.opts.has_headers).then_some(1);
                let pos = Position {
                    record: rec,
                    line: Some(1 + leading_newlines(&self.buf)),
                    byte: Some(self.origin),
                };
                let limit = self.opts.max_block_size;
                return Err(self.err(pos, ErrorKind::RecordTooLarge { limit }));
            }
            if !self.fill(chunk.min(self.opts.max_block_size - self.buf.len()))? {
                self.finished = true;
                break self.split.finish().map_err(|u| self.unclosed(u))?;
            }
        };
        let Some(first) = first else {
            if self.opts.has_headers {
                return Err(self.err(Position::default(), ErrorKind::NoHeader));
            }
            return Ok(());
        };
        let end = first.offset as usize;
        let fields = first_record_fields(&self.buf[..end], self.opts.delimiter)
            .map_err(|e| self.err(Position::default(), ErrorKind::Csv(e.to_string())))?;
        self.ncols = fields.len();
        if self.opts.has_headers {
            self.headers = fields.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
            self.header_bytes = fields;
            self.buf.drain(..end);
            self.scanned -= end;
            self.buf_start = first;
        } else {
            self.headers = (1..=self.ncols).map(|i| format!("column_{i}")).collect();
            self.cut = Some(first);
        }
        // Scan what was read beyond the first record.
        if let Some(b) = self.split.scan(&self.buf[self.scanned..]) {
            self.cut = Some(b);
        }
        self.scanned = self.buf.len();
        Ok(())
    }

    /// The next block of whole records, `None` at end of input.
    pub fn next_block(&mut self) -> Result<Option<RawBlock>, PositionedError> {
        loop {
            if let Some(c) = self.cut
                && (self.eof || self.buf.len() >= self.opts.block_size)
            {
                return Ok(Some(self.emit(c)));
            }
            if self.eof {
                if self.finished {
                    // Whatever is left holds blank lines only.
                    return Ok(None);
                }
                self.finished = true;
                match self.split.finish() {
                    Ok(Some(b)) => {
                        self.cut = Some(b);
                        continue;
                    }
                    Ok(None) => return Ok(None),
                    Err(u) => return Err(self.unclosed(u)),
                }
            }
            let limit = self.opts.max_block_size;
            if self.buf.len() >= limit {
                let line = self.buf_start.lines + 1 + leading_newlines(&self.buf);
                let mut pos = self.here();
                pos.line = Some(line);
                pos.byte = Some(self.origin + self.buf_start.offset);
                return Err(self.err(pos, ErrorKind::RecordTooLarge { limit }));
            }
            if self.fill(READ_SIZE.min(limit - self.buf.len()))? {
                if let Some(b) = self.split.scan(&self.buf[self.scanned..]) {
                    self.cut = Some(b);
                }
                self.scanned = self.buf.len();
            }
        }
    }

    fn emit(&mut self, c: Boundary) -> RawBlock {
        let end = (c.offset - self.buf_start.offset) as usize;
        let mut next = Vec::with_capacity(self.opts.block_size + READ_SIZE);
        next.extend_from_slice(&self.buf[end..]);
        self.buf.truncate(end);
        let data = std::mem::replace(&mut self.buf, next);
        self.scanned -= end;
        let start = self.buf_start;
        self.buf_start = c;
        self.cut = None;
        RawBlock {
            file: self.name.clone(),
            first_record: start.records + 1 - self.record_base,
            first_line: start.lines + 1 + leading_newlines(&data),
            byte_offset: self.origin + start.offset,
            nrecords: c.records - start.records,
            data,
        }
    }
}

/// `\n` count in the blank lines at the start of `data`.
fn leading_newlines(data: &[u8]) -> u64 {
    data.iter()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count() as u64
}

fn first_record_fields(data: &[u8], delim: u8) -> Result<Vec<Vec<u8>>, csv::Error> {
    let mut rdr = csv_reader(data, delim);
    let mut rec = csv::ByteRecord::new();
    rdr.read_byte_record(&mut rec)?;
    Ok(rec.iter().map(|f| f.to_vec()).collect())
}

fn csv_reader(data: &[u8], delim: u8) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .buffer_capacity(64 << 10)
        .from_reader(data)
}

/// A parsed block, without per-record allocation: `ncols` field spans per
/// row, into the raw block it borrows (most fields are read in place) or
/// into a buffer of the few fields unescaping changed.
#[derive(Clone, Debug)]
pub struct RowBlock<'a> {
    file: Arc<str>,
    ncols: usize,
    raw: &'a [u8],
    copies: Vec<u8>,
    spans: Vec<record::Span>,
    first_record: u64,
    first_line: u64,
    byte_offset: u64,
    /// Per row: line minus `first_line`.
    line_delta: Vec<u32>,
    /// Per row: start offset in the raw block.
    row_byte: Vec<u32>,
    padded_rows: u64,
}

impl<'a> RowBlock<'a> {
    /// Number of records.
    pub fn nrows(&self) -> usize {
        self.line_delta.len()
    }

    /// Number of fields per row.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// The unescaped bytes of one field.
    #[inline]
    pub fn field(&self, row: usize, col: usize) -> &[u8] {
        assert!(col < self.ncols, "column {col} out of range");
        let [start, end] = self.spans[row * self.ncols + col];
        if start & record::COPIED == 0 {
            &self.raw[start as usize..end as usize]
        } else {
            &self.copies[(start & !record::COPIED) as usize..end as usize]
        }
    }

    /// Iterate one column's values in row order.
    pub fn column(&self, col: usize) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.nrows()).map(move |r| self.field(r, col))
    }

    /// 1-based data record number of `row`.
    pub fn record_number(&self, row: usize) -> u64 {
        assert!(row < self.nrows());
        self.first_record + row as u64
    }

    /// 1-based line where `row` starts.
    pub fn line(&self, row: usize) -> u64 {
        self.first_line + self.line_delta[row] as u64
    }

    /// Byte offset of `row` in the decompressed stream.
    pub fn byte(&self, row: usize) -> u64 {
        self.byte_offset + self.row_byte[row] as u64
    }

    /// Full position of `row`.
    pub fn position(&self, row: usize) -> Position {
        Position {
            record: Some(self.record_number(row)),
            line: Some(self.line(row)),
            byte: Some(self.byte(row)),
        }
    }

    /// Number of short rows that were padded with empty fields.
    pub fn padded_rows(&self) -> u64 {
        self.padded_rows
    }

    /// The input's name.
    pub fn file(&self) -> &Arc<str> {
        &self.file
    }
}

/// Parse a block into a [`RowBlock`] of `ncols` fields per row. Pure and
/// thread-safe: blocks can be parsed in parallel, in any order.
pub fn parse_block(raw: &RawBlock, ncols: usize, opts: ParseOptions) -> Result<RowBlock<'_>, PositionedError> {
    let data = &raw.data;
    assert!(data.len() < record::COPIED as usize, "block of 2 GiB or more");
    let mut out = RowBlock {
        file: raw.file.clone(),
        ncols,
        raw: data,
        copies: Vec::new(),
        spans: Vec::with_capacity(raw.nrecords as usize * ncols),
        first_record: raw.first_record,
        first_line: raw.first_line,
        byte_offset: raw.byte_offset,
        line_delta: Vec::with_capacity(raw.nrecords as usize),
        row_byte: Vec::with_capacity(raw.nrecords as usize),
        padded_rows: 0,
    };
    // Line of the current position, relative to `first_line` (which is
    // the line of the first record, after any blank lines).
    let mut line = -(leading_newlines(data) as i64);
    let mut pos = 0;
    loop {
        // Blank lines between records are skipped, as csv-core does.
        while pos < data.len() && (data[pos] == b'\n' || data[pos] == b'\r') {
            line += (data[pos] == b'\n') as i64;
            pos += 1;
        }
        if pos == data.len() {
            break;
        }
        let start = pos;
        let row = out.line_delta.len();
        let line_delta = line as u32;
        let rec = record::read(data, start, opts.delimiter, &mut out.copies, &mut out.spans);
        let found = rec.fields;
        if found != ncols && !(found < ncols && opts.allow_short_rows) {
            return Err(PositionedError::new(
                &raw.file,
                Position {
                    record: Some(raw.first_record + row as u64),
                    line: Some(raw.first_line + line_delta as u64),
                    byte: Some(raw.byte_offset + start as u64),
                },
                ErrorKind::FieldCount { expected: ncols, found },
            ));
        }
        if found < ncols {
            out.spans.extend(std::iter::repeat_n([0, 0], ncols - found));
            out.padded_rows += 1;
        }
        out.line_delta.push(line_delta);
        out.row_byte.push(start as u32);
        line += rec.newlines as i64;
        pos = rec.end;
    }
    debug_assert_eq!(out.nrows() as u64, raw.nrecords);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Write;

    fn opts() -> CsvOptions {
        CsvOptions::default()
    }

    fn small(block: usize) -> CsvOptions {
        CsvOptions {
            block_size: block,
            ..opts()
        }
    }

    fn reader(data: &[u8], o: CsvOptions) -> Result<CsvBlockReader, PositionedError> {
        CsvBlockReader::from_reader("data.csv", io::Cursor::new(data.to_vec()), o)
    }

    /// All rows as (record, line, byte, fields), plus padded count.
    #[allow(clippy::type_complexity)]
    fn read_all(rdr: &mut CsvBlockReader) -> Result<(Vec<(u64, u64, u64, Vec<Vec<u8>>)>, u64), PositionedError> {
        let (mut rows, mut padded) = (Vec::new(), 0);
        let mut next_record = 1;
        while let Some(raw) = rdr.next_block()? {
            assert_eq!(raw.first_record, next_record);
            next_record += raw.nrecords;
            let b = parse_block(&raw, rdr.ncols(), rdr.parse_options())?;
            assert_eq!(b.nrows() as u64, raw.nrecords);
            padded += b.padded_rows();
            for r in 0..b.nrows() {
                let fields = (0..b.ncols()).map(|c| b.field(r, c).to_vec()).collect();
                rows.push((b.record_number(r), b.line(r), b.byte(r), fields));
            }
        }
        Ok((rows, padded))
    }

    fn fields(rows: &[(u64, u64, u64, Vec<Vec<u8>>)]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.3.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect())
            .collect()
    }

    #[test]
    fn header_rows_positions() {
        let data = b"id,doi\n1,10.1000/a\r\n\n2,\"10.1000/b,\"\"x\"\"\ny\"\n3,";
        for block in [1, 5, 1 << 20] {
            let mut rdr = reader(data, small(block)).unwrap();
            assert_eq!(rdr.headers(), ["id", "doi"]);
            assert_eq!(rdr.ncols(), 2);
            let (rows, padded) = read_all(&mut rdr).unwrap();
            assert_eq!(padded, 0);
            assert_eq!(
                fields(&rows),
                [vec!["1", "10.1000/a"], vec!["2", "10.1000/b,\"x\"\ny"], vec!["3", ""]]
            );
            let pos: Vec<_> = rows.iter().map(|r| (r.0, r.1, r.2)).collect();
            assert_eq!(pos, [(1, 2, 7), (2, 4, 21), (3, 6, 43)], "block {block}");
        }
    }

    #[test]
    fn bom_dropped_and_counted_in_offsets() {
        let data = b"\xef\xbb\xbfa,b\n1,2\n";
        let mut rdr = reader(data, opts()).unwrap();
        assert_eq!(rdr.headers(), ["a", "b"]);
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!((rows[0].0, rows[0].1, rows[0].2), (1, 2, 7));
        // Without headers, the BOM is not part of the first field either.
        let mut rdr = reader(
            data,
            CsvOptions {
                has_headers: false,
                ..opts()
            },
        )
        .unwrap();
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!(fields(&rows)[0], ["a", "b"]);
    }

    #[test]
    fn tsv_and_no_headers() {
        let data = b"x\t\"y\tz\"\t\nq\tr\ts\n";
        let o = CsvOptions {
            delimiter: b'\t',
            has_headers: false,
            ..opts()
        };
        let mut rdr = reader(data, o).unwrap();
        assert_eq!(rdr.headers(), ["column_1", "column_2", "column_3"]);
        assert!(rdr.header_bytes().is_empty());
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!(fields(&rows), [vec!["x", "y\tz", ""], vec!["q", "r", "s"]]);
        assert_eq!((rows[0].0, rows[0].1), (1, 1));
    }

    #[test]
    fn ragged_rows() {
        let data = b"a,b\n1,2\n3,4,5\n";
        let mut rdr = reader(data, opts()).unwrap();
        let e = read_all(&mut rdr).unwrap_err();
        assert_eq!(e.to_string(), "data.csv: record 2 (line 3): expected 2 fields, found 3");
        assert_eq!(e.pos.byte, Some(8));

        let data = b"a,b,c\n1,2,3\n4\n\n5,6\n";
        let e = read_all(&mut reader(data, opts()).unwrap()).unwrap_err();
        assert_eq!(e.to_string(), "data.csv: record 2 (line 3): expected 3 fields, found 1");
        let o = CsvOptions {
            allow_short_rows: true,
            ..opts()
        };
        let (rows, padded) = read_all(&mut reader(data, o).unwrap()).unwrap();
        assert_eq!(padded, 2);
        assert_eq!(
            fields(&rows),
            [vec!["1", "2", "3"], vec!["4", "", ""], vec!["5", "6", ""]]
        );
        assert_eq!(rows[2].1, 5);
        // Long rows stay errors even then.
        let e = read_all(&mut reader(b"a\n1,2\n", o).unwrap()).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::FieldCount { expected: 1, found: 2 }));
    }

    #[test]
    fn empty_and_header_only() {
        let e = reader(b"", opts()).err().unwrap();
        assert!(matches!(e.kind, ErrorKind::NoHeader));
        assert_eq!(e.to_string(), "data.csv: no header: the input holds no record");
        assert!(matches!(
            reader(b"\r\n\n", opts()).err().unwrap().kind,
            ErrorKind::NoHeader
        ));

        let mut rdr = reader(
            b"",
            CsvOptions {
                has_headers: false,
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(rdr.ncols(), 0);
        assert!(rdr.next_block().unwrap().is_none());

        for data in [&b"a,b"[..], b"a,b\n", b"a,b\r", b"a,b\r\n\n\n"] {
            let mut rdr = reader(data, opts()).unwrap();
            assert_eq!(rdr.headers(), ["a", "b"]);
            assert!(rdr.next_block().unwrap().is_none(), "{data:?}");
            assert!(rdr.next_block().unwrap().is_none());
        }
    }

    #[test]
    fn header_invalid_utf8_is_lossy() {
        let mut rdr = reader(b"id,na\xffme\n1,2\n", opts()).unwrap();
        assert_eq!(rdr.headers(), ["id", "na\u{fffd}me"]);
        assert_eq!(rdr.header_bytes()[1], b"na\xffme");
        assert_eq!(read_all(&mut rdr).unwrap().0.len(), 1);
    }

    #[test]
    fn unclosed_quote() {
        let data = b"a,b\n1,2\n3,\"oops\n4,5\n";
        for block in [1, 1 << 20] {
            let e = read_all(&mut reader(data, small(block)).unwrap()).unwrap_err();
            assert_eq!(
                e.to_string(),
                "data.csv: record 2 (line 3): quote opened here never closes"
            );
        }
        let e = reader(b"\"a,b\n1,2\n", opts()).err().unwrap();
        assert!(matches!(e.kind, ErrorKind::UnclosedQuote));
        assert_eq!(e.pos.line, Some(1));
    }

    #[test]
    fn big_record_grows_block_then_hits_cap() {
        let big = "x".repeat(5000);
        let data = format!("h\n1\n\"{big}\"\n2\n");
        let mut rdr = reader(data.as_bytes(), small(16)).unwrap();
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert!(fields(&rows) == [vec!["1"], vec![big.as_str()], vec!["2"]]);

        let o = CsvOptions {
            block_size: 16,
            max_block_size: 1000,
            ..opts()
        };
        let mut rdr = reader(data.as_bytes(), o).unwrap();
        let e = read_all(&mut rdr).map(|_| ()).expect_err("record over the cap");
        assert!(matches!(e.kind, ErrorKind::RecordTooLarge { limit: 1000 }), "{e}");
        assert_eq!(
            e.to_string(),
            "data.csv: record 2 (line 3): record longer than the 1000-byte limit (raise it with --max-record-mib)"
        );
        // The header too.
        let data = format!("{big}\n1\n");
        let e = reader(data.as_bytes(), o).err().unwrap();
        assert!(matches!(e.kind, ErrorKind::RecordTooLarge { .. }));
    }

    #[test]
    fn bad_options() {
        for o in [
            CsvOptions {
                delimiter: b'"',
                ..opts()
            },
            CsvOptions {
                block_size: 0,
                ..opts()
            },
            CsvOptions {
                block_size: 10,
                max_block_size: 5,
                ..opts()
            },
        ] {
            assert!(matches!(reader(b"a\n", o).err().unwrap().kind, ErrorKind::BadOption(_)));
        }
    }

    /// Errors after `ok` bytes.
    struct Failing {
        data: io::Cursor<Vec<u8>>,
        ok: u64,
    }
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.data.position() >= self.ok {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min((self.ok - self.data.position()) as usize);
            self.data.read(&mut buf[..n])
        }
    }

    #[test]
    fn io_error_midway_names_file_and_position() {
        // The first read already fails, after 7 bytes: records 1 and 2 are
        // complete, record 3 is being read.
        let data = b"a\n1\n2\n3\n4\n".to_vec();
        let src = Failing {
            data: io::Cursor::new(data),
            ok: 7,
        };
        let e = match CsvBlockReader::from_reader("in.csv", src, small(2)) {
            Err(e) => e,
            Ok(mut r) => read_all(&mut r).unwrap_err(),
        };
        assert!(matches!(e.kind, ErrorKind::Read(_)));
        assert_eq!(e.to_string(), "in.csv: read error in record 3 (byte 7): disk on fire");
        // The OS reason is in the message once, not repeated by a source.
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "in.csv: read error in record 3 (byte 7): disk on fire"
        );
    }

    fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> InputSpec {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        InputSpec::Path(p)
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn compressed_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let mut data = b"id,v\n".to_vec();
        for i in 0..20_000 {
            writeln!(data, "{i},\"x{i}\ny\"").unwrap();
        }
        let plain = write_file(dir.path(), "d.csv", &data);
        // Two gzip members: MultiGzDecoder reads both.
        let (a, b) = data.split_at(data.len() / 2);
        let gzf = write_file(dir.path(), "d.csv.gz", &[gz(a), gz(b)].concat());
        let zst = write_file(dir.path(), "d.csv.zst", &zstd::encode_all(&data[..], 3).unwrap());
        let mut expect = None;
        for spec in [plain, gzf, zst] {
            let mut rdr = CsvBlockReader::open(&spec, small(50_000)).unwrap();
            let (rows, _) = read_all(&mut rdr).unwrap();
            assert_eq!(rows.len(), 20_000);
            assert_eq!(rows[19_999].1, 1 + 2 * 19_999 + 1);
            match &expect {
                None => expect = Some(rows),
                Some(e) => assert_eq!(&rows, e),
            }
        }
    }

    #[test]
    fn corrupt_compressed_inputs_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let check = |spec: InputSpec, want: &str| {
            let msg = match CsvBlockReader::open(&spec, opts()) {
                Err(e) => e.to_string(),
                Ok(mut r) => read_all(&mut r).unwrap_err().to_string(),
            };
            let name = spec.display_name();
            assert!(msg.starts_with(&format!("{name}: ")), "{msg}");
            assert!(msg.contains(want), "{msg}");
        };
        check(write_file(d, "plain.csv.gz", b"a,b\n1,2\n"), "not a gzip file");
        check(write_file(d, "empty.csv.gz", b""), "not a gzip file");
        check(write_file(d, "empty.csv.zst", b""), "not a zstd file");
        check(write_file(d, "plain.csv.zst", b"a,b\n1,2\n"), "not a zstd file");
        check(
            InputSpec::parse(&d.join("missing.csv").display().to_string()),
            "cannot open",
        );

        let mut data = b"a,b\n".to_vec();
        for i in 0..100_000 {
            writeln!(data, "{i},{}", i * 7).unwrap();
        }
        let z = gz(&data);
        check(write_file(d, "trunc.csv.gz", &z[..z.len() / 2]), "read error in record");
        let z = zstd::encode_all(&data[..], 3).unwrap();
        check(
            write_file(d, "trunc.csv.zst", &z[..z.len() / 2]),
            "read error in record",
        );
        let mut bad = z.clone();
        let n = bad.len();
        bad[n / 2..n / 2 + 64].fill(0x55);
        check(write_file(d, "bad.csv.zst", &bad), "read error");
    }

    #[test]
    fn input_spec() {
        assert_eq!(InputSpec::parse("-"), InputSpec::Stdin);
        assert_eq!(InputSpec::Stdin.display_name(), "<stdin>");
        assert_eq!(InputSpec::parse("x.CSV.GZ").compression(), Compression::Gzip);
        assert_eq!(InputSpec::parse("x.tsv.zst").compression(), Compression::Zstd);
        assert_eq!(InputSpec::parse("x.csv").compression(), Compression::None);
        assert_eq!(Compression::sniff(&[0x1f, 0x8b, 8]), Compression::Gzip);
        assert_eq!(Compression::sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Compression::Zstd);
        assert_eq!(Compression::sniff(b"id,doi"), Compression::None);
    }

    /// Expected rows from one sequential `csv` parse of the whole input:
    /// (record, line, byte, fields), header skipped.
    #[allow(clippy::type_complexity)]
    fn sequential(data: &[u8], delim: u8) -> Vec<(u64, u64, u64, Vec<Vec<u8>>)> {
        let mut rdr = csv_reader(data, delim);
        let mut rec = csv::ByteRecord::new();
        let mut out = Vec::new();
        let mut prev = 0usize;
        while rdr.read_byte_record(&mut rec).unwrap() {
            let mut start = prev;
            while data[start] == b'\n' || data[start] == b'\r' {
                start += 1;
            }
            let line = 1 + memchr::memchr_iter(b'\n', &data[..start]).count() as u64;
            let n = out.len() as u64;
            out.push((n, line, start as u64, rec.iter().map(|f| f.to_vec()).collect()));
            prev = rdr.position().byte() as usize;
        }
        out.remove(0);
        out
    }

    fn field() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b'a'),
                Just(b','),
                Just(b'\t'),
                Just(b'"'),
                Just(b'\n'),
                Just(b'\r'),
                Just(b' '),
                Just(0xc3)
            ],
            0..6,
        )
    }

    /// Throughput on a real file (release build):
    /// `HDLSCAN_BENCH_CSV=big.csv cargo test --release --lib io::csv_in::tests::throughput -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn throughput() {
        use rayon::prelude::*;
        use std::time::Instant;
        let path = std::env::var("HDLSCAN_BENCH_CSV").expect("set HDLSCAN_BENCH_CSV");
        let data = std::fs::read(&path).unwrap();
        let mb = data.len() as f64 / 1e6;
        let rate = |t: Instant| mb / t.elapsed().as_secs_f64();

        let t = Instant::now();
        let mut sp = crate::io::split::Splitter::new(b',');
        for c in data.chunks(8 << 20) {
            sp.scan(c);
        }
        sp.finish().unwrap();
        println!(
            "split (in memory):        {:7.0} MB/s, {} records",
            rate(t),
            sp.records()
        );

        let t = Instant::now();
        let mut rdr = csv_reader(&data, b',');
        let mut rec = csv::ByteRecord::new();
        let mut n = 0u64;
        while rdr.read_byte_record(&mut rec).unwrap() {
            n += 1;
        }
        println!("csv sequential baseline:  {:7.0} MB/s, {n} records", rate(t));

        let t = Instant::now();
        let mut rdr = CsvBlockReader::open(&InputSpec::parse(&path), opts()).unwrap();
        let mut raws = Vec::new();
        while let Some(r) = rdr.next_block().unwrap() {
            raws.push(r);
        }
        println!("block reader (file):      {:7.0} MB/s, {} blocks", rate(t), raws.len());

        let (ncols, po) = (rdr.ncols(), rdr.parse_options());
        let t = Instant::now();
        let rows: usize = raws.iter().map(|r| parse_block(r, ncols, po).unwrap().nrows()).sum();
        println!("parse_block (1 thread):   {:7.0} MB/s, {rows} rows", rate(t));

        let t = Instant::now();
        let rows: usize = raws
            .par_iter()
            .map(|r| parse_block(r, ncols, po).unwrap().nrows())
            .sum();
        println!(
            "parse_block (rayon, {}):   {:7.0} MB/s, {rows} rows",
            rayon::current_num_threads(),
            rate(t)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn blocks_equal_sequential_parse(
            rows in proptest::collection::vec(proptest::collection::vec(field(), 3), 1..30),
            terms in proptest::collection::vec(0usize..5, 30),
            block in 1usize..64,
            tab in any::<bool>(),
        ) {
            let delim = if tab { b'\t' } else { b',' };
            let mut data = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let mut w = csv::WriterBuilder::new().delimiter(delim).terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
                w.write_record(row).unwrap();
                let mut line = w.into_inner().unwrap();
                line.pop();
                data.extend_from_slice(&line);
                // Vary terminators, add blank lines; no terminator at the end sometimes.
                let t: &[u8] = [&b"\n"[..], b"\r\n", b"\r", b"\n\n", b"\r\n\r\n"][terms[i]];
                if i + 1 < rows.len() || terms[i] != 0 { data.extend_from_slice(t); }
            }
            let expect = sequential(&data, delim);
            let o = CsvOptions { delimiter: delim, block_size: block, ..CsvOptions::default() };
            let mut rdr = reader(&data, o).unwrap();
            prop_assert_eq!(rdr.ncols(), 3);
            let (got, padded) = read_all(&mut rdr).unwrap();
            prop_assert_eq!(padded, 0);
            prop_assert_eq!(got, expect);
        }
    }
}
