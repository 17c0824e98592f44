//! Quote-aware CSV record-boundary finder.
//!
//! This is the sequential half of the block pipeline: a reader feeds the raw
//! (decompressed) bytes through a [`Splitter`] chunk by chunk, and cuts its
//! buffer at the [`Boundary`] the splitter reports. Each piece then holds
//! whole records only and can be parsed independently (on another thread)
//! by the `csv` crate with exactly the same result as one sequential parse.
//!
//! The splitter is pure: no allocation, no I/O. It jumps between the few
//! bytes that matter with `memchr`:
//!
//! - outside quotes it looks for `"`, `\n` and `\r` (`memchr3`); a quote
//!   only opens a quoted field at the start of a field, i.e. when the byte
//!   before it is the delimiter or the quote starts the record;
//! - inside quotes it looks for the next `"` (`memchr`) and counts the
//!   newlines it skipped.
//!
//! # Semantics (identical to `csv-core` with its default configuration)
//!
//! - A `"` at the start of a field opens a quoted field. Inside it, `""` is
//!   a literal quote, and delimiters, `\r` and `\n` are literal bytes. After
//!   the closing quote the field continues unquoted (`"ab"c` is `abc`).
//!   [`Splitter::unquoted`] (`--no-quoting`, csv-core's `quoting(false)`)
//!   opens none: every `"` is a literal byte and only line breaks end
//!   records.
//! - A `"` anywhere else in an unquoted field is a literal byte.
//! - A record ends at `\n`, at `\r\n`, or at a lone `\r` (csv-core's default
//!   terminator, `Terminator::CRLF`, accepts all three).
//! - Terminator bytes at the start of a record are blank lines: csv-core
//!   skips them, they are not records.
//! - Line numbers count `\n` bytes only, like `csv::Position::line`: a lone
//!   `\r` ends a record but does not start a new line. Newlines inside
//!   quoted fields do count.
//! - At end of input an unterminated last record is still a record; a quoted
//!   field that never closes is reported by [`Splitter::finish`] (csv-core
//!   itself silently accepts it).
//!
//! A record ending in `\r` reports its boundary only once the next byte is
//! known, so that `\r\n` is never split between two pieces; a `\r` that is
//! the very last byte of the input is reported by [`Splitter::finish`].

use memchr::{memchr, memchr3};

/// The quote byte (fixed: RFC 4180).
pub const QUOTE: u8 = b'"';

/// A cut point just past the terminator of a complete record.
///
/// All values are cumulative from the start of the input fed to the
/// splitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Boundary {
    /// Byte offset just past the record's terminator.
    pub offset: u64,
    /// Number of complete records before `offset` (this record included).
    pub records: u64,
    /// Number of `\n` bytes before `offset`.
    pub lines: u64,
}

/// A position in the input, used to report where something started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mark {
    /// Byte offset.
    pub offset: u64,
    /// 1-based line number (`\n` count before `offset`, plus one).
    pub line: u64,
    /// 1-based record number, counting every record (a header too).
    pub record: u64,
}

/// A quoted field was still open at end of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnclosedQuote {
    /// Where the record holding the quote starts.
    pub record: Mark,
    /// Where the opening quote is.
    pub quote: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Not inside quotes (at a field start, or in an unquoted field).
    Outside,
    /// Inside a quoted field.
    Quoted,
    /// Just read a quote inside a quoted field: either it closes the field,
    /// or the next byte is a second quote (an escaped quote).
    QuoteInQuoted,
}

/// Incremental record-boundary finder; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Splitter {
    delim: u8,
    /// A `"` at a field's start opens quotes (see [`Splitter::unquoted`]).
    quoting: bool,
    mode: Mode,
    /// Outside quotes: the next byte is the first byte of a field.
    at_field_start: bool,
    /// Some byte of the current record has been consumed.
    in_record: bool,
    /// A record ended at `\r`; its boundary waits for the next byte.
    pending_cr: Option<Boundary>,
    pos: u64,
    lines: u64,
    records: u64,
    rec_start: Mark,
    quote_open: Mark,
}

impl Splitter {
    /// A splitter for `delimiter`.
    ///
    /// # Panics
    /// If `delimiter` is `"`, `\r` or `\n`.
    pub fn new(delimiter: u8) -> Self {
        assert!(
            !matches!(delimiter, QUOTE | b'\r' | b'\n'),
            "invalid CSV delimiter {delimiter:#04x}"
        );
        Splitter {
            delim: delimiter,
            quoting: true,
            mode: Mode::Outside,
            at_field_start: true,
            in_record: false,
            pending_cr: None,
            pos: 0,
            lines: 0,
            records: 0,
            rec_start: Mark::default(),
            quote_open: Mark::default(),
        }
    }

    /// The splitter without quoting (`--no-quoting`): every `"` is a plain
    /// byte, so only line breaks end records.
    pub fn unquoted(self) -> Self {
        Splitter { quoting: false, ..self }
    }

    #[cfg(test)]
    /// Total bytes consumed so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    #[cfg(test)]
    /// Total `\n` bytes consumed so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Complete records seen so far (a record ending in a lone `\r` at the
    /// end of the data fed so far is counted).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Consume all of `chunk` (the bytes following everything fed so far)
    /// and return the last record boundary inside it, if any.
    pub fn scan(&mut self, chunk: &[u8]) -> Option<Boundary> {
        self.run::<false>(chunk).1
    }

    /// Consume `chunk` up to and including the first record boundary in it.
    /// Returns how many bytes were consumed, and the boundary (then
    /// `boundary.offset == position()`), or `None` if all of `chunk` was
    /// consumed without completing a record. Call again with the rest.
    pub fn next_boundary(&mut self, chunk: &[u8]) -> (usize, Option<Boundary>) {
        self.run::<true>(chunk)
    }

    /// Declare end of input. Returns the boundary of a last record that had
    /// no terminator (or ended with a lone `\r` as the very last byte), or
    /// an error if a quoted field is still open. Feeding more data after
    /// `finish` is a logic error.
    pub fn finish(&mut self) -> Result<Option<Boundary>, UnclosedQuote> {
        if let Some(b) = self.pending_cr.take() {
            return Ok(Some(b));
        }
        if self.mode == Mode::Quoted {
            return Err(UnclosedQuote {
                record: self.rec_start,
                quote: self.quote_open,
            });
        }
        if self.in_record {
            self.in_record = false;
            self.mode = Mode::Outside;
            self.at_field_start = true;
            self.records += 1;
            return Ok(Some(self.boundary()));
        }
        Ok(None)
    }

    #[inline]
    fn boundary(&self) -> Boundary {
        Boundary {
            offset: self.pos,
            records: self.records,
            lines: self.lines,
        }
    }

    #[inline]
    fn mark(&self, offset: u64) -> Mark {
        Mark {
            offset,
            line: self.lines + 1,
            record: self.records + 1,
        }
    }

    #[inline(always)]
    fn run<const FIRST: bool>(&mut self, chunk: &[u8]) -> (usize, Option<Boundary>) {
        let base = self.pos;
        let n = chunk.len();
        let mut last = None;
        let mut i = 0;
        // Keep `self.pos` equal to `base + i` at every exit.
        macro_rules! found {
            ($b:expr) => {{
                last = Some($b);
                if FIRST {
                    self.pos = base + i as u64;
                    return (i, last);
                }
            }};
        }
        while i < n {
            match self.mode {
                Mode::Outside => {
                    if let Some(mut b) = self.pending_cr.take() {
                        if chunk[i] == b'\n' {
                            i += 1;
                            self.lines += 1;
                            b.offset += 1;
                            b.lines += 1;
                            found!(b);
                            continue;
                        }
                        found!(b);
                    }
                    let rest = &chunk[i..];
                    match memchr3(QUOTE, b'\n', b'\r', rest) {
                        None => {
                            if !self.in_record {
                                self.in_record = true;
                                self.rec_start = self.mark(base + i as u64);
                            }
                            self.at_field_start = chunk[n - 1] == self.delim;
                            i = n;
                        }
                        Some(k) => {
                            let j = i + k;
                            let byte = chunk[j];
                            if k > 0 && !self.in_record {
                                self.in_record = true;
                                self.rec_start = self.mark(base + i as u64);
                            }
                            if byte == QUOTE {
                                if !self.in_record {
                                    self.in_record = true;
                                    self.rec_start = self.mark(base + j as u64);
                                }
                                let field_start = self.quoting
                                    && if k == 0 {
                                        self.at_field_start
                                    } else {
                                        chunk[j - 1] == self.delim
                                    };
                                if field_start {
                                    self.mode = Mode::Quoted;
                                    self.quote_open = self.mark(base + j as u64);
                                } else {
                                    self.at_field_start = false;
                                }
                                i = j + 1;
                            } else {
                                i = j + 1;
                                self.at_field_start = true;
                                if byte == b'\n' {
                                    self.lines += 1;
                                }
                                if self.in_record {
                                    self.in_record = false;
                                    self.records += 1;
                                    let b = Boundary {
                                        offset: base + i as u64,
                                        records: self.records,
                                        lines: self.lines,
                                    };
                                    if byte == b'\r' {
                                        self.pending_cr = Some(b);
                                    } else {
                                        found!(b);
                                    }
                                }
                            }
                        }
                    }
                }
                Mode::Quoted => {
                    let rest = &chunk[i..];
                    match memchr(QUOTE, rest) {
                        None => {
                            self.lines += count_newlines(rest);
                            i = n;
                        }
                        Some(k) => {
                            self.lines += count_newlines(&rest[..k]);
                            self.mode = Mode::QuoteInQuoted;
                            i += k + 1;
                        }
                    }
                }
                Mode::QuoteInQuoted => {
                    if chunk[i] == QUOTE {
                        // Escaped quote: still inside the quoted field.
                        self.mode = Mode::Quoted;
                        i += 1;
                    } else {
                        // The quote closed the field; this byte is handled
                        // like one in the middle of an unquoted field.
                        self.mode = Mode::Outside;
                        self.at_field_start = false;
                    }
                }
            }
        }
        self.pos = base + n as u64;
        (n, last)
    }
}

#[inline]
fn count_newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// One sequential `csv` parse of `data`: the records that pieces cut at
/// the boundaries must add up to (the unit tests' and the fuzz target's
/// reference).
#[cfg(any(test, fuzzing))]
pub fn csv_records(data: &[u8], delim: u8) -> Vec<Vec<Vec<u8>>> {
    quoted_csv_records(data, delim, true)
}

/// [`csv_records`], with quoting or without (`Splitter::unquoted`'s).
#[cfg(any(test, fuzzing))]
pub fn quoted_csv_records(data: &[u8], delim: u8, quoting: bool) -> Vec<Vec<Vec<u8>>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .quoting(quoting)
        .from_reader(data);
    rdr.byte_records()
        .map(|r| r.unwrap().iter().map(|f| f.to_vec()).collect())
        .collect()
}

#[cfg(any(test, fuzzing))]
/// Byte-by-byte reference implementation, transcribed from csv-core's NFA
/// (`transition_nfa`, default options: no comment, no escape, double quote
/// on, CRLF terminator). Returns every record boundary (a `\r` terminator
/// followed by `\n` ends past the `\n`) and, if a quoted field is still
/// open at the end, where it started.
pub fn oracle_boundaries(data: &[u8], delim: u8) -> (Vec<Boundary>, Option<UnclosedQuote>) {
    #[derive(PartialEq)]
    enum S {
        StartRecord,
        StartField,
        InField,
        InQuoted,
        QuoteInQuoted,
        Cr,
    }
    let (mut s, mut out, mut lines, mut records) = (S::StartRecord, Vec::new(), 0u64, 0u64);
    let (mut rec_start, mut quote) = (Mark::default(), Mark::default());
    let mark = |off: usize, lines: u64, records: u64| Mark {
        offset: off as u64,
        line: lines + 1,
        record: records + 1,
    };
    for (i, &c) in data.iter().enumerate() {
        let term = c == b'\n' || c == b'\r';
        if s == S::Cr {
            let b = Boundary {
                offset: i as u64 + (c == b'\n') as u64,
                records,
                lines: lines + (c == b'\n') as u64,
            };
            out.push(b);
            s = S::StartRecord;
            if c == b'\n' {
                lines += 1;
                continue;
            }
        }
        if s == S::StartRecord && !term {
            s = S::StartField;
            rec_start = mark(i, lines, records);
        }
        let end_record = match s {
            S::StartRecord | S::Cr => false,
            S::StartField if c == QUOTE => {
                s = S::InQuoted;
                quote = mark(i, lines, records);
                false
            }
            S::InQuoted if c == QUOTE => {
                s = S::QuoteInQuoted;
                false
            }
            S::InQuoted => false,
            S::QuoteInQuoted if c == QUOTE => {
                s = S::InQuoted;
                false
            }
            S::StartField | S::InField | S::QuoteInQuoted if c == delim => {
                s = S::StartField;
                false
            }
            S::StartField | S::InField | S::QuoteInQuoted if term => true,
            S::StartField | S::InField | S::QuoteInQuoted => {
                s = S::InField;
                false
            }
        };
        lines += (c == b'\n') as u64;
        if end_record {
            records += 1;
            s = if c == b'\r' { S::Cr } else { S::StartRecord };
            if c == b'\n' {
                out.push(Boundary {
                    offset: i as u64 + 1,
                    records,
                    lines,
                });
            }
        }
    }
    match s {
        S::InQuoted => {
            return (
                out,
                Some(UnclosedQuote {
                    record: rec_start,
                    quote,
                }),
            );
        }
        S::Cr => out.push(Boundary {
            offset: data.len() as u64,
            records,
            lines,
        }),
        S::StartField | S::InField | S::QuoteInQuoted => out.push(Boundary {
            offset: data.len() as u64,
            records: records + 1,
            lines,
        }),
        S::StartRecord => {}
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// All boundaries via `next_boundary`, feeding `data` in pieces of
    /// `piece` bytes, then `finish`.
    fn all_fast(data: &[u8], delim: u8, piece: usize) -> (Vec<Boundary>, Option<UnclosedQuote>) {
        let mut sp = Splitter::new(delim);
        let mut out = Vec::new();
        for chunk in data.chunks(piece.max(1)) {
            let mut rest = chunk;
            loop {
                let (used, b) = sp.next_boundary(rest);
                rest = &rest[used..];
                match b {
                    Some(b) => {
                        assert_eq!(b.offset, sp.position());
                        out.push(b)
                    }
                    None => break,
                }
            }
            assert!(rest.is_empty());
        }
        match sp.finish() {
            Ok(b) => {
                out.extend(b);
                (out, None)
            }
            Err(e) => (out, Some(e)),
        }
    }

    fn offsets(bs: &[Boundary]) -> Vec<u64> {
        bs.iter().map(|b| b.offset).collect()
    }

    #[test]
    fn simple_records_and_lines() {
        let data = b"a,b\nc,d\r\ne,f\rg,h";
        let bs = all_fast(data, b',', 1000).0;
        assert_eq!(offsets(&bs), vec![4, 9, 13, 16]);
        assert_eq!(bs.iter().map(|b| b.records).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        // lone CR does not count as a line, like csv::Position::line.
        assert_eq!(bs.iter().map(|b| b.lines).collect::<Vec<_>>(), vec![1, 2, 2, 2]);
    }

    #[test]
    fn quotes_only_open_at_field_start() {
        // `b"c` is a literal quote in an unquoted field, so the newline ends
        // the record; `"x\ny"` is a quoted field spanning lines.
        let data = b"a,b\"c\n\"x\ny\",z\n";
        let bs = all_fast(data, b',', 3).0;
        assert_eq!(offsets(&bs), vec![6, 14]);
        assert_eq!(bs[1].lines, 3);
        assert_eq!(csv_records(data, b',').len(), 2);
    }

    #[test]
    fn doubled_quotes_and_text_after_closing_quote() {
        let data = b"\"a\"\"b\",\"c\"d\"e\n1\n";
        let bs = all_fast(data, b',', 1).0;
        assert_eq!(offsets(&bs), vec![14, 16]);
        let recs = csv_records(data, b',');
        assert_eq!(recs[0], vec![b"a\"b".to_vec(), b"cd\"e".to_vec()]);
    }

    #[test]
    fn blank_lines_are_not_records() {
        let data = b"\n\r\n\ra\n\n\nb\r\r\n";
        let bs = all_fast(data, b',', 2).0;
        assert_eq!(offsets(&bs), vec![6, 10]);
        assert_eq!(bs[1].records, 2);
        assert_eq!(csv_records(data, b',').len(), 2);
    }

    #[test]
    fn cr_at_chunk_end_waits_for_next_byte() {
        let mut sp = Splitter::new(b',');
        assert_eq!(sp.scan(b"a,b\r"), None);
        let b = sp.scan(b"\nc").unwrap();
        assert_eq!((b.offset, b.records, b.lines), (5, 1, 1));
        assert_eq!(sp.finish().unwrap().unwrap().offset, 6);

        let mut sp = Splitter::new(b',');
        assert_eq!(sp.scan(b"a\r"), None);
        assert_eq!(sp.finish().unwrap().unwrap().offset, 2);
        assert_eq!(sp.finish().unwrap(), None);
    }

    #[test]
    fn unclosed_quote_is_reported_with_record_and_line() {
        let data = b"h1,h2\nx,y\n1,\"never\ncloses\n";
        let (bs, e) = all_fast(data, b',', 4);
        assert_eq!(offsets(&bs), vec![6, 10]);
        let e = e.unwrap();
        assert_eq!(e.record.record, 3);
        assert_eq!(e.record.line, 3);
        assert_eq!(e.record.offset, 10);
        assert_eq!(e.quote.offset, 12);
        assert_eq!(oracle_boundaries(data, b',').1, Some(e));
        // A closing quote right at EOF is fine.
        assert_eq!(
            all_fast(b"\"a\"", b',', 1),
            (
                vec![Boundary {
                    offset: 3,
                    records: 1,
                    lines: 0
                }],
                None
            )
        );
    }

    #[test]
    fn tab_delimiter() {
        let data = b"a\t\"b\tc\"\nd\te\n";
        assert_eq!(offsets(&all_fast(data, b'\t', 5).0), vec![8, 12]);
        // With tab as delimiter, a quote after a comma is literal.
        let data = b"a,\"b\nc\n";
        assert_eq!(offsets(&all_fast(data, b'\t', 5).0), vec![5, 7]);
    }

    #[test]
    fn scan_returns_last_boundary() {
        let mut sp = Splitter::new(b',');
        let b = sp.scan(b"a\nb\nc").unwrap();
        assert_eq!((b.offset, b.records, b.lines), (4, 2, 2));
        assert_eq!(sp.position(), 5);
        assert_eq!(sp.lines(), 2);
    }

    fn csv_bytes() -> impl Strategy<Value = Vec<u8>> {
        // Tokens chosen to exercise every transition, including malformed
        // input (stray quotes, unclosed quotes, lone CRs).
        let tok = prop_oneof![
            Just(b"a".to_vec()),
            Just(b"xyz".to_vec()),
            Just(b",".to_vec()),
            Just(b"\t".to_vec()),
            Just(b"\"".to_vec()),
            Just(b"\"\"".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"\r".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\"q,\n\r\"".to_vec()),
            Just(b",,".to_vec()),
            Just(vec![0xff]),
            Just(b"\xc3\xa9".to_vec()),
        ];
        proptest::collection::vec(tok, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn fast_equals_oracle(data in csv_bytes(), piece in 1usize..12, tab in any::<bool>()) {
            let delim = if tab { b'\t' } else { b',' };
            prop_assert_eq!(all_fast(&data, delim, piece), oracle_boundaries(&data, delim));
            prop_assert_eq!(all_fast(&data, delim, usize::MAX), oracle_boundaries(&data, delim));
        }

        #[test]
        fn scan_reports_last_oracle_boundary_per_chunk(data in csv_bytes(), piece in 1usize..12) {
            let (all, _) = oracle_boundaries(&data, b',');
            let len = data.len() as u64;
            // A boundary is known to `scan` once the byte after a lone `\r`
            // was seen; one at EOF without `\n` only comes from `finish`.
            let known_at = |pos: u64| {
                all.iter()
                    .filter(|b| b.offset <= pos)
                    .filter(|b| !(b.offset == pos && data[pos as usize - 1] == b'\r'))
                    .rfind(|b| !(b.offset == len && data[len as usize - 1] != b'\n'))
                    .copied()
            };
            let mut sp = Splitter::new(b',');
            let mut pos = 0u64;
            for chunk in data.chunks(piece) {
                let before = known_at(pos);
                pos += chunk.len() as u64;
                let now = known_at(pos);
                let expect = if now != before { now } else { None };
                prop_assert_eq!(sp.scan(chunk), expect);
            }
        }

        #[test]
        fn cutting_at_boundaries_preserves_records(data in csv_bytes(), tab in any::<bool>(), quoting in any::<bool>()) {
            let delim = if tab { b'\t' } else { b',' };
            let csv_records = |data: &[u8], delim| quoted_csv_records(data, delim, quoting);
            let whole = csv_records(&data, delim);
            let mut sp = if quoting { Splitter::new(delim) } else { Splitter::new(delim).unquoted() };
            let mut pieces = Vec::new();
            let mut rest = &data[..];
            let mut start = 0usize;
            let mut consumed = 0usize;
            loop {
                let (used, b) = sp.next_boundary(rest);
                rest = &rest[used..];
                consumed += used;
                match b {
                    Some(b) => { pieces.push(&data[start..b.offset as usize]); start = b.offset as usize; }
                    None => break,
                }
            }
            prop_assert_eq!(consumed, data.len());
            let end = sp.finish();
            pieces.push(&data[start..]);
            let mut joined = Vec::new();
            for p in &pieces {
                let recs = csv_records(p, delim);
                if !std::ptr::eq(*p, *pieces.last().unwrap()) {
                    // Every piece but the tail holds exactly one record.
                    prop_assert_eq!(recs.len(), 1);
                }
                joined.extend(recs);
            }
            prop_assert_eq!(&joined, &whole);
            match end {
                Ok(_) => prop_assert_eq!(sp.records() as usize, whole.len()),
                // csv-core accepts an unclosed quote; it swallows the rest
                // of the input into the last record.
                Err(_) => prop_assert!(quoting && !whole.is_empty()),
            }
        }

        #[test]
        fn random_cuts_into_blocks_preserve_records(data in csv_bytes(), cuts in proptest::collection::vec(0usize..200, 0..6)) {
            // Block-reader style: scan arbitrary chunks, cut at the last
            // boundary seen, parse the blocks separately.
            let whole = csv_records(&data, b',');
            let mut sp = Splitter::new(b',');
            let mut cutpts: Vec<usize> = cuts.into_iter().filter(|&c| c <= data.len()).collect();
            cutpts.sort();
            cutpts.push(data.len());
            let (mut fed, mut block_start) = (0usize, 0usize);
            let mut blocks = Vec::new();
            for c in cutpts {
                if c < fed { continue; }
                if let Some(b) = sp.scan(&data[fed..c]) {
                    blocks.push(&data[block_start..b.offset as usize]);
                    block_start = b.offset as usize;
                }
                fed = c;
            }
            let _ = sp.finish();
            blocks.push(&data[block_start..]);
            let joined: Vec<_> = blocks.iter().flat_map(|b| csv_records(b, b',')).collect();
            prop_assert_eq!(joined, whole);
        }
    }
}
