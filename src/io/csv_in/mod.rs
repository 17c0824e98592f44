//! CSV/TSV input: open (with transparent decompression), read the header,
//! cut the stream into blocks of whole records, parse blocks into columnar
//! [`RowBlock`]s.
//!
//! - this file: where an input comes from ([`InputSpec`]), the options,
//!   and [`open_input`] (decompression, formats that are not CSV refused);
//! - `error`: [`PositionedError`], the error of this layer with its
//!   [`Position`];
//! - `decode`: the input's [`TextEncoding`], decoded to UTF-8 while
//!   streaming, before records are split;
//! - `reader`: [`CsvBlockReader`], the sequential cutter into [`RawBlock`]s;
//! - `block`: [`parse_block`], one raw block into a [`RowBlock`].
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
//! - Input in another encoding than UTF-8 ([`CsvOptions::encoding`], or a
//!   UTF-16 BOM) is decoded to UTF-8 before anything else reads it: byte
//!   offsets then count the UTF-8 text, not the file's bytes.
//! - Records with a different number of fields than the header are errors;
//!   with [`CsvOptions::allow_short_rows`], short records are padded with
//!   empty fields and counted, long records are always errors.
//! - Line numbers count `\n` like `csv::Position` (a lone `\r` ends a record
//!   but starts no new line).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::magic::{self, is_gzip, is_zstd};

mod block;
mod decode;
mod error;
mod reader;
#[cfg(test)]
mod test_util;

pub use block::{RowBlock, parse_block};
pub use decode::{Decoding, TextEncoding};
pub use error::{ErrorKind, Position, PositionedError, ReadAsCsv};
pub use reader::{CsvBlockReader, RawBlock};

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
    /// The input's text encoding (default UTF-8, whose bytes are read as
    /// they are); a UTF-16 byte-order mark overrides it.
    pub encoding: TextEncoding,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            delimiter: b',',
            has_headers: true,
            allow_short_rows: false,
            block_size: 8 << 20,
            max_block_size: 256 << 20,
            encoding: TextEncoding::UTF_8,
        }
    }
}

/// Options [`parse_block`] needs.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    pub delimiter: u8,
    pub allow_short_rows: bool,
}

/// Open `spec` as a decompressed byte stream. A `.gz` or `.zst` name must
/// hold what it says (a mislabelled file gives a clear error); any other
/// input, stdin included, is sniffed for gzip and zstd magic bytes, so a
/// compressed export saved as `.csv` is read, not taken for garbage text.
/// Parquet, Arrow IPC, a spreadsheet, PDF, HTML or JSON read as CSV,
/// plain or compressed, is refused with a hint (see [`magic`]).
pub fn open_input(spec: &InputSpec) -> Result<Box<dyn Read + Send>, PositionedError> {
    open_text(spec, false)
}

/// [`open_input`] for a reader of text that may be JSON (JSON Lines
/// input): JSON and JSON Lines pass, the other formats are refused alike.
pub fn open_text(spec: &InputSpec, json: bool) -> Result<Box<dyn Read + Send>, PositionedError> {
    let not_text = |head: &[u8]| {
        magic::not_csv(head).filter(|f| !(json && matches!(f, magic::NotCsv::Json | magic::NotCsv::JsonLines)))
    };
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
        if let Some(format) = not_text(head) {
            return Err(err(ErrorKind::NotCsv {
                format,
                compressed: None,
            }));
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
    // A Parquet file, or any other that is not CSV, compressed whole
    // decompresses to no CSV either: its first bytes are looked at, then
    // given back in front.
    let mut inner = Vec::with_capacity(magic::SNIFF_LEN);
    (&mut decoded)
        .take(magic::SNIFF_LEN as u64)
        .read_to_end(&mut inner)
        .map_err(|e| err(ErrorKind::Read(e)))?;
    if magic::is_parquet(&inner) {
        return Err(err(ErrorKind::CompressedParquet(compression)));
    }
    if magic::is_arrow_ipc(&inner) {
        return Err(err(ErrorKind::CompressedArrow(compression)));
    }
    if let Some(format) = not_text(&inner) {
        return Err(err(ErrorKind::NotCsv {
            format,
            compressed: Some(compression),
        }));
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

#[cfg(test)]
mod tests {
    use super::test_util::{gz, opts, read_all, small, write_file};
    use super::*;
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
}
