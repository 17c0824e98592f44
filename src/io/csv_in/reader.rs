//! [`CsvBlockReader`]: one input read in order and cut into [`RawBlock`]s
//! of whole records by the quote-aware [`Splitter`]; the header (or the
//! first record's width) read first.

use std::io::Read;
use std::sync::Arc;

use super::block::leading_newlines;
use super::decode::{self, Tally};
use super::{CsvOptions, ParseOptions, Ragged};
use crate::io::error::{ErrorKind, Position, PositionedError};
use crate::io::sheet::SheetRead;
use crate::io::source::{InputSpec, open_input};
use super::boundary::{Boundary, Splitter, UnclosedQuote};
use crate::report::Decoding;

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
    /// Offset of `data[0]` in the decompressed (and decoded) stream.
    pub byte_offset: u64,
    /// Number of records in `data`.
    pub nrecords: u64,
    /// Input bytes (decompressed, not decoded) this block stands for, for
    /// progress: `data`'s length when the input is read as UTF-8 bytes;
    /// decoded, the input the decoder consumed since the previous block
    /// (it reads ahead, so a block's share is near, their sum exact).
    pub source_bytes: u64,
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
    /// Of `ncols`, those past the header (`Ragged::Extra`).
    extra: usize,
    sheet: Option<SheetRead>,
    /// The decoder's count, when the input is not read as UTF-8 bytes.
    tally: Option<Tally>,
    /// `tally`'s input bytes when the last block was cut.
    consumed: u64,
}

const READ_SIZE: usize = 1 << 20;

impl CsvBlockReader {
    /// Open `spec` (see [`open_input`]) and read its header.
    pub fn open(spec: &InputSpec, opts: CsvOptions) -> Result<Self, PositionedError> {
        let opened = open_input(spec, opts.sheet.as_deref())?;
        // A spreadsheet's CSV is written here, quoted: read unquoted, its
        // cells holding `"`, `,` or a line break would come apart.
        if opened.sheet.is_some() && !opts.quoting {
            let kind = ErrorKind::BadOption("--no-quoting: a spreadsheet's cells need no quoting; drop it".into());
            return Err(PositionedError::new(&spec.display_name().into(), Position::default(), kind));
        }
        let mut r = Self::from_reader(spec.display_name(), opened.read, opts)?;
        r.sheet = opened.sheet;
        Ok(r)
    }

    /// The sheet read, when the input is a spreadsheet.
    pub fn sheet(&self) -> Option<&SheetRead> {
        self.sheet.as_ref()
    }

    /// Read from an already opened (decompressed) stream; `name` is used in
    /// error messages. Decodes it from [`CsvOptions::encoding`] (or the
    /// UTF-16 its byte-order mark says) to UTF-8, then reads the header
    /// (or the first record's width).
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
        let (src, tally) = decode::decoded(Box::new(src), opts.encoding)
            .map_err(|e| PositionedError::new(&name, Position::default(), ErrorKind::Read(e)))?;
        let mut r = CsvBlockReader {
            name,
            src,
            split: splitter(&opts),
            buf: Vec::with_capacity(opts.block_size + READ_SIZE),
            scanned: 0,
            buf_start: Boundary::default(),
            cut: None,
            origin: 0,
            record_base: opts.has_headers as u64,
            opts,
            eof: false,
            finished: false,
            header_bytes: Vec::new(),
            headers: Vec::new(),
            ncols: 0,
            extra: 0,
            sheet: None,
            tally,
            consumed: 0,
        };
        r.start()?;
        Ok(r)
    }

    /// Column names (lossy UTF-8), or `column_1..column_N` without headers.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    #[cfg(test)]
    /// Exact header bytes (empty without headers, or once taken).
    pub fn header_bytes(&self) -> &[Vec<u8>] {
        &self.header_bytes
    }

    /// Takes the exact header bytes out of the reader (a header can be
    /// as long as a record: one copy is enough).
    pub fn take_header_bytes(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.header_bytes)
    }

    /// How the input was decoded to UTF-8: `None` when its bytes are read
    /// as they are (UTF-8), else the encoding used and the byte sequences
    /// not valid in it so far (complete once [`next_block`](Self::next_block)
    /// has returned `None`).
    pub fn decoding(&self) -> Option<Decoding> {
        self.tally.as_ref().map(Tally::decoding)
    }

    /// Input bytes read so far, decompressed but not decoded: the file's
    /// bytes when it is not compressed, whatever `--encoding` says
    /// (complete once [`next_block`](Self::next_block) has returned
    /// `None`).
    pub fn source_bytes(&self) -> u64 {
        match &self.tally {
            Some(t) => t.consumed(),
            None => self.origin + self.buf_start.offset + self.buf.len() as u64,
        }
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

    /// What [`parse_block`](super::parse_block) needs from the reader's options.
    pub fn parse_options(&self) -> ParseOptions {
        self.opts.parse_options()
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
            ..Position::default()
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
                ..Position::default()
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
        self.first_record(chunk)
    }

    /// Reads the header (or the first record's width); with
    /// `sniff_delimiter`, once more with the delimiter its one column
    /// splits on.
    fn first_record(&mut self, chunk: usize) -> Result<(), PositionedError> {
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
                    ..Position::default()
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
        let fields = first_record_fields(&self.buf[..end], self.opts.delimiter, self.opts.quoting)
            .map_err(|e| self.err(Position::default(), ErrorKind::Csv(e)))?;
        if std::mem::take(&mut self.opts.sniff_delimiter)
            && fields.len() == 1
            && let Some(d) = super::sniff::delimiter(&self.buf[..end], self.opts.delimiter, self.opts.quoting)
        {
            // The splitter's quotes depend on the delimiter: cut again.
            self.opts.delimiter = d;
            self.split = splitter(&self.opts);
            (self.scanned, self.finished) = (0, false);
            return self.first_record(chunk);
        }
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
        if self.opts.ragged == Ragged::Extra {
            self.widen();
        }
        Ok(())
    }

    /// `Ragged::Extra`: as many columns as the widest whole record read so
    /// far, those past the header named `column_N`.
    fn widen(&mut self) {
        let end = self.cut.map_or(0, |c| (c.offset - self.buf_start.offset) as usize);
        let mut rdr = csv_reader(&self.buf[..end], self.opts.delimiter, self.opts.quoting);
        let mut rec = csv::ByteRecord::new();
        let mut widest = self.ncols;
        while let Ok(true) = rdr.read_byte_record(&mut rec) {
            widest = widest.max(rec.len().min(MAX_COLUMNS));
        }
        let named = self.ncols;
        self.extra = widest - named;
        let names = (named + 1..=widest).map(|i| format!("column_{i}"));
        if self.opts.has_headers {
            self.header_bytes.extend(names.clone().map(String::into_bytes));
        }
        self.headers.extend(names);
        self.ncols = widest;
    }

    /// Columns past the header's names (`Ragged::Extra`).
    pub fn extra_columns(&self) -> usize {
        self.extra
    }

    /// The input's field delimiter: the one given, or the one its header
    /// was found to split on (`CsvOptions::sniff_delimiter`).
    pub fn delimiter(&self) -> u8 {
        self.opts.delimiter
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
        let source_bytes = match &self.tally {
            Some(t) => {
                let now = t.consumed();
                now - std::mem::replace(&mut self.consumed, now)
            }
            None => data.len() as u64,
        };
        RawBlock {
            file: self.name.clone(),
            first_record: start.records + 1 - self.record_base,
            first_line: start.lines + 1 + leading_newlines(&data),
            byte_offset: self.origin + start.offset,
            nrecords: c.records - start.records,
            source_bytes,
            data,
        }
    }
}

/// Most columns a CSV header may have. Each column costs a few hundred
/// bytes across the header's names, the schema and the report (1.5 million
/// fields peaked at 510 MB), so past this a run could not stay within its
/// 300 MB; such a line is rarely a header anyway.
pub const MAX_COLUMNS: usize = 500_000;

pub(super) fn first_record_fields(data: &[u8], delim: u8, quoting: bool) -> Result<Vec<Vec<u8>>, String> {
    let mut rdr = csv_reader(data, delim, quoting);
    let mut rec = csv::ByteRecord::new();
    rdr.read_byte_record(&mut rec).map_err(|e| e.to_string())?;
    if rec.len() > MAX_COLUMNS {
        return Err(format!(
            "the first line has {} fields; hdlscan reads at most {MAX_COLUMNS} columns. A line this wide is seldom a \
             header: check the delimiter (-d), or cut the columns you need first (e.g. cut -d, -f1-20)",
            rec.len()
        ));
    }
    Ok(rec.iter().map(|f| f.to_vec()).collect())
}

/// The record splitter `opts` ask for.
fn splitter(opts: &CsvOptions) -> Splitter {
    let s = Splitter::new(opts.delimiter);
    if opts.quoting { s } else { s.unquoted() }
}

pub(super) fn csv_reader(data: &[u8], delim: u8, quoting: bool) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .quoting(quoting)
        .buffer_capacity(64 << 10)
        .from_reader(data)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{fields, opts, read_all, reader, small};
    use super::super::{TextEncoding, parse_block};
    use super::*;
    use std::io;

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

    /// Decoded input is counted in its own bytes: the blocks' shares add
    /// up to the input's length, not the UTF-8 text's (half a UTF-16
    /// file's, more than a windows-1252 one's); UTF-8 as before.
    #[test]
    fn source_bytes_count_the_input_not_the_text() {
        let text = "id,title\n".to_string() + &"1,Café – résumé ünïcödé\n".repeat(300);
        let mut utf16: Vec<u8> = vec![0xff, 0xfe];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let latin_opts = |block| CsvOptions {
            encoding: TextEncoding::WINDOWS_1252,
            ..small(block)
        };
        for block in [7, 100, 1 << 20] {
            for (input, o) in [(&utf16[..], small(block)), (&latin[..], latin_opts(block))] {
                let mut rdr = reader(input, o).unwrap();
                let mut shares = 0;
                while let Some(raw) = rdr.next_block().unwrap() {
                    shares += raw.source_bytes;
                }
                assert_eq!(rdr.source_bytes(), input.len() as u64, "block {block}");
                // The header's bytes are in the first block's share.
                assert_eq!(shares, input.len() as u64, "block {block}");
            }
            let mut rdr = reader(text.as_bytes(), small(block)).unwrap();
            let mut shares = 0;
            while let Some(raw) = rdr.next_block().unwrap() {
                assert_eq!(raw.source_bytes, raw.data.len() as u64);
                shares += raw.source_bytes;
            }
            assert_eq!(shares, (text.len() - "id,title\n".len()) as u64);
            assert_eq!(rdr.source_bytes(), text.len() as u64);
        }
    }

    #[test]
    fn decoded_before_records_are_split() {
        let latin = CsvOptions {
            encoding: TextEncoding::WINDOWS_1252,
            ..opts()
        };
        let mut rdr = reader(b"id,r\xe9f\n1,\xa010.1000/x\xa0\n", latin).unwrap();
        assert_eq!(rdr.headers(), ["id", "réf"]);
        assert_eq!(rdr.header_bytes()[1], "réf".as_bytes());
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!(fields(&rows), [vec!["1", "\u{a0}10.1000/x\u{a0}"]]);
        let d = rdr.decoding().unwrap();
        assert_eq!((d.encoding, d.malformed), ("windows-1252", 0));

        // UTF-16 by its BOM, with a quoted line break; a lone surrogate counted.
        let mut utf16: Vec<u8> = vec![0xff, 0xfe];
        for unit in "a,b\n\"x\ny\","
            .encode_utf16()
            .chain([0xd800])
            .chain("\n".encode_utf16())
        {
            utf16.extend_from_slice(&unit.to_le_bytes());
        }
        let mut rdr = reader(&utf16, small(3)).unwrap();
        assert_eq!(rdr.headers(), ["a", "b"]);
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!(fields(&rows), [vec!["x\ny", "\u{fffd}"]]);
        assert_eq!((rows[0].1, rows[0].2), (2, 4), "line and byte of the UTF-8 text");
        let d = rdr.decoding().unwrap();
        assert_eq!((d.encoding, d.malformed), ("UTF-16LE", 1));

        // UTF-8 is read as bytes: no decoding to report.
        let mut rdr = reader(b"a\n\xff\n", opts()).unwrap();
        assert_eq!(read_all(&mut rdr).unwrap().0[0].3[0], b"\xff");
        assert_eq!(rdr.decoding(), None);
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
    fn empty_and_header_only() {
        let e = reader(b"", opts()).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::NoHeader));
        assert_eq!(e.to_string(), "data.csv: no header: the input holds no record");
        assert!(matches!(
            reader(b"\r\n\n", opts()).err().unwrap().kind(),
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
                "data.csv: record 2 (line 3): quote opened here never closes (if the file does not quote its \
                 fields, --no-quoting reads every \" as a plain character)"
            );
        }
        let e = reader(b"\"a,b\n1,2\n", opts()).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::UnclosedQuote));
        assert_eq!(e.pos().line, Some(1));
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
        let mut rdr = reader(data.as_bytes(), o.clone()).unwrap();
        let e = read_all(&mut rdr).map(|_| ()).expect_err("record over the cap");
        assert!(matches!(e.kind(), ErrorKind::RecordTooLarge { limit: 1000 }), "{e}");
        assert_eq!(
            e.to_string(),
            "data.csv: record 2 (line 3): record longer than the 1000-byte limit (raise it with --max-record-mib)"
        );
        // The header too.
        let data = format!("{big}\n1\n");
        let e = reader(data.as_bytes(), o).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::RecordTooLarge { .. }));
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
            assert!(matches!(
                reader(b"a\n", o).err().unwrap().kind(),
                ErrorKind::BadOption(_)
            ));
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
        assert!(matches!(e.kind(), ErrorKind::Read(_)));
        assert_eq!(e.to_string(), "in.csv: read error in record 3 (byte 7): disk on fire");
        // The OS reason is in the message once, not repeated by a source.
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "in.csv: read error in record 3 (byte 7): disk on fire"
        );
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
        let mut sp = crate::io::csv_in::boundary::Splitter::new(b',');
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
        let mut rdr = csv_reader(&data, b',', true);
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
}
