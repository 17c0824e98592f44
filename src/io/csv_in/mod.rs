//! CSV/TSV input: open (with transparent decompression), read the header,
//! cut the stream into blocks of whole records, parse blocks into columnar
//! [`RowBlock`]s.
//!
//! - this file: the options (inputs are opened, decompressed and sniffed
//!   by `io::source`; errors are `io::error`'s);
//! - `decode`: the input's [`TextEncoding`], decoded to UTF-8 while
//!   streaming, before records are split;
//! - `boundary`: the quote-aware record-boundary finder the reader cuts
//!   at (no I/O; fuzzed against the `csv` crate);
//! - `reader`: [`CsvBlockReader`], the sequential cutter into [`RawBlock`]s;
//! - `block`: [`parse_block`], one raw block into a [`RowBlock`], each
//!   record read by `record` (memchr, falling back to the `csv` crate).
//!
//! Private to the crate, so not a doctest (`examples/floor_csv.rs` runs
//! this loop under the `internals` feature):
//!
//! ```ignore
//! use hdlscan::io::csv_in::{parse_block, CsvBlockReader, CsvOptions};
//! use hdlscan::io::source::InputSpec;
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
//! # Ok::<(), hdlscan::io::error::PositionedError>(())
//! ```
//!
//! Decisions:
//! - Header names are decoded lossily (invalid UTF-8 becomes U+FFFD); the
//!   exact bytes stay available through [`CsvBlockReader::take_header_bytes`].
//! - A UTF-8 BOM at the very start of the stream is dropped (byte offsets
//!   still count it).
//! - Input in another encoding than UTF-8 ([`CsvOptions::encoding`], or a
//!   UTF-16 BOM) is decoded to UTF-8 before anything else reads it: byte
//!   offsets then count the UTF-8 text, not the file's bytes.
//! - Records with a different number of fields than the header are errors,
//!   unless [`CsvOptions::ragged`] says otherwise ([`Ragged`]).
//! - With [`CsvOptions::sniff_delimiter`], a header that reads as one
//!   column but splits on `;`, a tab or `|` sets the delimiter (`sniff`).
//! - Line numbers count `\n` like `csv::Position` (a lone `\r` ends a record
//!   but starts no new line).

mod block;
mod boundary;
mod decode;
mod reader;
mod record;
mod sniff;
#[cfg(test)]
mod test_util;

pub use block::{RowBlock, parse_block};
pub use decode::TextEncoding;
pub use reader::{CsvBlockReader, RawBlock};
pub use sniff::{SNIFFED, delimiter_name};

/// What a record with another number of fields than the header is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ragged {
    /// An error naming the record (the default): a row that does not fit
    /// the header usually means the file is not what it seems.
    #[default]
    Error,
    /// Short records padded with empty fields; long ones are errors, since
    /// their fields past the header would be lost.
    Pad,
    /// As `Pad`, and the columns are as many as the widest record of the
    /// first block (DBLP's exports have a field more than names), those
    /// past the header named `column_N` (N its 1-based position), as
    /// DuckDB's `null_padding` reads them. A later record wider still is
    /// an error: the output's columns are fixed by then.
    Extra,
}

impl Ragged {
    /// The name `--ragged` takes.
    pub fn name(self) -> &'static str {
        match self {
            Ragged::Error => "error",
            Ragged::Pad => "pad",
            Ragged::Extra => "extra",
        }
    }
}

/// Options of the block reader.
#[derive(Clone, Debug)]
pub struct CsvOptions {
    /// Field delimiter: `,` (default) or `\t` for TSV; not `"`, `\r`, `\n`.
    pub delimiter: u8,
    /// The first record is a header (default true).
    pub has_headers: bool,
    /// A `"` at a field's start opens quotes (default true, RFC 4180);
    /// without, every `"` is a plain byte.
    pub quoting: bool,
    /// Records with another number of fields than the header.
    pub ragged: Ragged,
    /// A header that reads as one column but splits on another common
    /// delimiter sets the delimiter (default false).
    pub sniff_delimiter: bool,
    /// Target block size in bytes (default 8 MiB).
    pub block_size: usize,
    /// Hard cap on a block (so on one record) in bytes (default 256 MiB,
    /// at most `u32::MAX`); a longer record is an error.
    pub max_block_size: usize,
    /// The input's text encoding (default UTF-8, whose bytes are read as
    /// they are); a UTF-16 byte-order mark overrides it.
    pub encoding: TextEncoding,
    /// A spreadsheet's sheet to read (default: its first).
    pub sheet: Option<std::sync::Arc<str>>,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            delimiter: b',',
            has_headers: true,
            quoting: true,
            ragged: Ragged::Error,
            sniff_delimiter: false,
            block_size: 8 << 20,
            max_block_size: 256 << 20,
            encoding: TextEncoding::UTF_8,
            sheet: None,
        }
    }
}

impl CsvOptions {
    /// What [`parse_block`] needs of these options.
    pub fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            delimiter: self.delimiter,
            quoting: self.quoting,
            ragged: self.ragged,
        }
    }
}

/// Options [`parse_block`] needs.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    pub delimiter: u8,
    pub quoting: bool,
    pub ragged: Ragged,
}

#[cfg(test)]
mod tests {
    use super::test_util::{gz, opts, read_all, small, write_file};
    use super::*;
    use crate::io::source::InputSpec;
    use std::io::Write;

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
}
