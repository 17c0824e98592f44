//! Where an input's bytes come from: a file or stdin ([`InputSpec`]),
//! opened, decompressed (gzip and zstd, named by the extension or sniffed
//! by their magic bytes) and sniffed, so that a file in a format the
//! reader does not read is named as such (see `magic`) instead of being
//! read as garbage, and a spreadsheet is read as the CSV it would export
//! (see `sheet`). Every text reader (CSV, JSON Lines) opens its input
//! here.

use super::error::{ErrorKind, Position, PositionedError, Misread};
use super::format::Format;
use super::magic::{self, is_gzip, is_zstd};
use super::sheet::SheetRead;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

    /// The file's path; none for stdin.
    pub fn path(&self) -> Option<&Path> {
        match self {
            InputSpec::Path(p) => Some(p),
            InputSpec::Stdin => None,
        }
    }

    /// The name used in error messages.
    pub fn display_name(&self) -> String {
        match self {
            InputSpec::Stdin => "<stdin>".to_string(),
            InputSpec::Path(p) => p.display().to_string(),
        }
    }

    /// The format its name says, looking through `.gz` and `.zst`: CSV
    /// for stdin and for any name of no other format (a Parquet or Arrow
    /// file read as CSV is then named by its first bytes).
    pub fn format(&self) -> Format {
        match self {
            InputSpec::Path(p) => Format::from_input_path(p).unwrap_or(Format::Csv),
            InputSpec::Stdin => Format::Csv,
        }
    }

    /// A file's first bytes, enough for [`Format::sniff`]; none for stdin
    /// (read once, by its reader) or a file that cannot be read (its
    /// reader names the reason when it opens it).
    pub fn head(&self) -> Vec<u8> {
        let mut head = Vec::with_capacity(magic::HEAD_LEN);
        if let InputSpec::Path(p) = self
            && let Ok(f) = File::open(p)
        {
            let _ = f.take(magic::HEAD_LEN as u64).read_to_end(&mut head);
        }
        head
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
    /// Plain bytes.
    None,
    /// gzip.
    Gzip,
    /// Zstandard.
    Zstd,
}

impl Compression {
    /// "gzip" or "zstd", as messages name it.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Compression::None => None,
            Compression::Gzip => Some("gzip"),
            Compression::Zstd => Some("zstd"),
        }
    }

    /// By extension: `.gz` → gzip, `.zst` → zstd, otherwise none.
    pub fn from_path(p: &Path) -> Self {
        match p.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("gz") => Compression::Gzip,
            Some(e) if e.eq_ignore_ascii_case("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }

    /// By the magic bytes `head` starts with.
    pub fn sniff(head: &[u8]) -> Self {
        if is_gzip(head) {
            Compression::Gzip
        } else if is_zstd(head) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// Open `spec` as a decompressed byte stream. A `.gz` or `.zst` name must
/// hold what it says (a mislabelled file gives a clear error); any other
/// input, stdin included, is sniffed for gzip and zstd magic bytes, so a
/// compressed export saved as `.csv` is read, not taken for garbage text.
/// Parquet, Arrow IPC, a spreadsheet, PDF, HTML or JSON read as CSV,
/// plain or compressed, is refused with a hint (see [`magic`]).
///
/// A spreadsheet (`.xlsx`, `.xls`, `.ods`, found by its first bytes) is
/// read as CSV: its first sheet, or the one `sheet` names (see `sheet`).
pub fn open_input(spec: &InputSpec, sheet: Option<&str>) -> Result<Opened, PositionedError> {
    open(spec, false, sheet)
}

/// An input opened as CSV text.
pub struct Opened {
    /// Its bytes, decompressed (a spreadsheet's as CSV).
    pub read: Box<dyn Read + Send>,
    /// The sheet read, when the input is a spreadsheet.
    pub sheet: Option<SheetRead>,
}

/// [`open_input`] for a reader of text that may be JSON (JSON Lines
/// input): JSON and JSON Lines pass, the other formats are refused alike.
pub fn open_text(spec: &InputSpec) -> Result<Box<dyn Read + Send>, PositionedError> {
    open(spec, true, None).map(|o| o.read)
}

/// Opens the file at `path` for reading; a directory is refused here
/// (`EISDIR`), where opening one succeeds and only reading it fails.
pub(crate) fn open_file(path: &Path) -> io::Result<File> {
    let f = File::open(path)?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::from_raw_os_error(libc::EISDIR));
    }
    Ok(f)
}

fn open(spec: &InputSpec, json: bool, sheet: Option<&str>) -> Result<Opened, PositionedError> {
    let not_text = |head: &[u8]| {
        magic::not_csv(head).filter(|f| !(json && matches!(f, magic::NotCsv::Json | magic::NotCsv::JsonLines)))
    };
    let name: Arc<str> = spec.display_name().into();
    let err = |kind| PositionedError::new(&name, Position::default(), kind);
    let mut src: BufReader<Box<dyn Read + Send>> = match spec {
        InputSpec::Stdin => BufReader::with_capacity(256 << 10, Box::new(io::stdin())),
        InputSpec::Path(p) => {
            let f = open_file(p).map_err(|e| err(ErrorKind::Open(e)))?;
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
        if let Some(binary) = Format::sniff(head) {
            let why = match spec {
                InputSpec::Stdin => Misread::Stdin,
                InputSpec::Path(_) if spec.format() == binary => Misread::Named,
                InputSpec::Path(_) => Misread::OtherName,
            };
            return Err(err(ErrorKind::Looks(binary, why)));
        }
        if let Some(format) = not_text(head) {
            if !json && matches!(format, magic::NotCsv::Zip | magic::NotCsv::OldOffice) {
                return match super::sheet::to_csv(src, sheet) {
                    Ok((csv, read)) => Ok(Opened {
                        read: Box::new(io::Cursor::new(csv)),
                        sheet: Some(read),
                    }),
                    // A ZIP that holds no workbook: what it is, as before.
                    Err(e) if e.starts_with(super::sheet::NOT_A_WORKBOOK) => Err(err(ErrorKind::NotCsv {
                        format,
                        compressed: None,
                    })),
                    Err(e) => Err(err(ErrorKind::Sheet(e))),
                };
            }
            return Err(err(ErrorKind::NotCsv {
                format,
                compressed: None,
            }));
        }
    }
    let plain = |read: Box<dyn Read + Send>| Opened { read, sheet: None };
    let (mut decoded, compression): (Box<dyn Read + Send>, _) = match comp {
        Compression::None => return Ok(plain(Box::new(src))),
        Compression::Gzip if !is_gzip(head) => return Err(err(ErrorKind::NotGzip)),
        Compression::Zstd if !is_zstd(head) => return Err(err(ErrorKind::NotZstd)),
        Compression::Gzip => (Box::new(flate2::bufread::MultiGzDecoder::new(src)), "gzip"),
        Compression::Zstd => {
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
    if let Some(binary) = Format::sniff(&inner) {
        return Err(err(ErrorKind::Compressed(binary, compression)));
    }
    if let Some(format) = not_text(&inner) {
        return Err(err(ErrorKind::NotCsv {
            format,
            compressed: Some(compression),
        }));
    }
    Ok(plain(Box::new(io::Cursor::new(inner).chain(decoded))))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(Compression::Zstd.name(), Some("zstd"));
    }
}
