//! [`parse_block`]: a [`RawBlock`] of whole records into a columnar
//! [`RowBlock`] of field spans, with the position of every row.

use super::{ParseOptions, Ragged, RawBlock};
use crate::io::error::{ErrorKind, Position, PositionedError};
use super::record;

/// `\n` count in the blank lines at the start of `data`.
pub(super) fn leading_newlines(data: &[u8]) -> u64 {
    data.iter()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count() as u64
}

/// A parsed block, without per-record allocation: `ncols` field spans per
/// row, into the raw block it borrows (most fields are read in place) or
/// into a buffer of the few fields unescaping changed.
#[derive(Clone, Debug)]
pub struct RowBlock<'a> {
    ncols: usize,
    raw: &'a [u8],
    copies: Vec<u8>,
    spans: Vec<record::Span>,
    // Where rows are: the tests check it; records and lines are counted
    // for errors and output before a block is parsed.
    #[cfg(test)]
    first_record: u64,
    first_line: u64,
    #[cfg(test)]
    byte_offset: u64,
    /// Per row: line minus `first_line`.
    line_delta: Vec<u32>,
    /// Per row: start offset in the raw block.
    #[cfg(test)]
    row_byte: Vec<u32>,
    padded_rows: u64,
}

impl<'a> RowBlock<'a> {
    /// Number of records.
    pub fn nrows(&self) -> usize {
        self.line_delta.len()
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

    /// 1-based data record number of `row`.
    #[cfg(test)]
    pub fn record_number(&self, row: usize) -> u64 {
        assert!(row < self.nrows());
        self.first_record + row as u64
    }

    /// 1-based line where `row` starts.
    pub fn line(&self, row: usize) -> u64 {
        self.first_line + self.line_delta[row] as u64
    }

    /// Byte offset of `row` in the decompressed stream.
    #[cfg(test)]
    pub fn byte(&self, row: usize) -> u64 {
        self.byte_offset + self.row_byte[row] as u64
    }

    /// Number of short rows that were padded with empty fields.
    pub fn padded_rows(&self) -> u64 {
        self.padded_rows
    }
}

/// Parse a block into a [`RowBlock`] of `ncols` fields per row. Pure and
/// thread-safe: blocks can be parsed in parallel, in any order.
pub fn parse_block(raw: &RawBlock, ncols: usize, opts: ParseOptions) -> Result<RowBlock<'_>, PositionedError> {
    let data = &raw.data;
    assert!(data.len() < record::COPIED as usize, "block of 2 GiB or more");
    let mut out = RowBlock {
        ncols,
        raw: data,
        copies: Vec::new(),
        spans: Vec::with_capacity(raw.nrecords as usize * ncols),
        #[cfg(test)]
        first_record: raw.first_record,
        first_line: raw.first_line,
        #[cfg(test)]
        byte_offset: raw.byte_offset,
        line_delta: Vec::with_capacity(raw.nrecords as usize),
        #[cfg(test)]
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
        let rec = record::read(data, start, opts.delimiter, opts.quoting, &mut out.copies, &mut out.spans);
        let found = rec.fields;
        if found != ncols && !(found < ncols && opts.ragged != Ragged::Error) {
            return Err(PositionedError::new(
                &raw.file,
                Position {
                    record: Some(raw.first_record + row as u64),
                    line: Some(raw.first_line + line_delta as u64),
                    byte: Some(raw.byte_offset + start as u64),
                    ..Position::default()
                },
                ErrorKind::FieldCount {
                    expected: ncols,
                    found,
                    ragged: opts.ragged,
                },
            ));
        }
        if found < ncols {
            out.spans.extend(std::iter::repeat_n([0, 0], ncols - found));
            out.padded_rows += 1;
        }
        out.line_delta.push(line_delta);
        #[cfg(test)]
        out.row_byte.push(start as u32);
        line += rec.newlines as i64;
        pos = rec.end;
    }
    debug_assert_eq!(out.nrows() as u64, raw.nrecords);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::reader::csv_reader;
    use super::super::test_util::{fields, opts, read_all, reader};
    use super::super::{CsvOptions, Ragged};
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ragged_rows() {
        let data = b"a,b\n1,2\n3,4,5\n";
        let mut rdr = reader(data, opts()).unwrap();
        let e = read_all(&mut rdr).unwrap_err();
        assert_eq!(
            e.to_string(),
            "data.csv: record 2 (line 3): expected 2 fields, found 3 (--ragged extra keeps the fields past the \
             header as column_N)"
        );
        assert_eq!(e.pos().byte, Some(8));

        let data = b"a,b,c\n1,2,3\n4\n\n5,6\n";
        let e = read_all(&mut reader(data, opts()).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "data.csv: record 2 (line 3): expected 3 fields, found 1 (--ragged pad reads short rows, padded with \
             empty cells)"
        );
        let o = CsvOptions {
            ragged: Ragged::Pad,
            ..opts()
        };
        let (rows, padded) = read_all(&mut reader(data, o.clone()).unwrap()).unwrap();
        assert_eq!(padded, 2);
        assert_eq!(
            fields(&rows),
            [vec!["1", "2", "3"], vec!["4", "", ""], vec!["5", "6", ""]]
        );
        assert_eq!(rows[2].1, 5);
        // Long rows stay errors even then.
        let e = read_all(&mut reader(b"a\n1,2\n", o).unwrap()).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::FieldCount {
                expected: 1,
                found: 2,
                ..
            }
        ));
        // Extra: as many columns as the widest record of the first block.
        let o = CsvOptions {
            ragged: Ragged::Extra,
            ..opts()
        };
        let mut rdr = reader(b"a,b\n1,2,3\n4\n5,6,7,8\n", o.clone()).unwrap();
        assert_eq!(rdr.headers(), ["a", "b", "column_3", "column_4"]);
        assert_eq!(rdr.extra_columns(), 2);
        let (rows, _) = read_all(&mut rdr).unwrap();
        assert_eq!(
            fields(&rows),
            [vec!["1", "2", "3", ""], vec!["4", "", "", ""], vec!["5", "6", "7", "8"]]
        );
        // A later block's wider record: the columns were fixed.
        let late = [&b"a\n"[..], &b"1\n".repeat(600_000), b"2,3\n"].concat();
        let e = read_all(&mut reader(&late, o).unwrap()).unwrap_err();
        assert!(
            e.to_string().contains("more than any record of the first block had"),
            "{e}"
        );
    }

    /// Expected rows from one sequential `csv` parse of the whole input:
    /// (record, line, byte, fields), header skipped.
    #[allow(clippy::type_complexity)]
    fn sequential(data: &[u8], delim: u8) -> Vec<(u64, u64, u64, Vec<Vec<u8>>)> {
        let mut rdr = csv_reader(data, delim, true);
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
