//! The one error of the input layer, CSV, JSON, Parquet and Arrow alike
//! (rust-csv's `Error` and `Position` shape): what went wrong
//! ([`ErrorKind`]), in which file, and where ([`Position`]: record, line,
//! byte, column; a Parquet file's row group).

use std::fmt;
use std::io;
use std::sync::Arc;

use crate::io::format::Format;
use crate::io::magic;

/// Where an error happened. Any part may be unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// 1-based data record number (the header is not counted).
    pub record: Option<u64>,
    /// 1-based line number (counting `\n`).
    pub line: Option<u64>,
    /// Byte offset in the decompressed stream (decoded to UTF-8 when the
    /// input is in another encoding).
    pub byte: Option<u64>,
    /// 1-based byte in the line (JSON syntax errors).
    pub column: Option<u64>,
    /// The Parquet row group being decoded (its first record is
    /// `record`).
    pub row_group: Option<RowGroup>,
}

/// A Parquet row group: its 0-based index and its number of rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowGroup {
    /// 0-based, as Parquet tools number them.
    pub index: usize,
    /// Rows in the group, from the footer.
    pub rows: u64,
}

impl Position {
    /// A line and record (JSON input), either of them unknown.
    pub fn line(line: Option<u64>, record: Option<u64>) -> Position {
        Position {
            record,
            line,
            ..Position::default()
        }
    }
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
    /// A file read as another format that starts like Parquet (`PAR1`) or
    /// Arrow IPC (the format); the hint depends on why it was read so.
    Looks(Format, Misread),
    /// A compressed file (the compression is "gzip" or "zstd") that holds
    /// Parquet or Arrow IPC, which are read only as files as written.
    Compressed(Format, &'static str),
    /// Another format a CSV export is mistaken for (a spreadsheet, PDF,
    /// HTML, JSON), plain or inside `compressed` ("gzip", "zstd").
    NotCsv {
        format: magic::NotCsv,
        compressed: Option<&'static str>,
    },
    /// `has_headers` but the input holds no record.
    NoHeader,
    /// A record has the wrong number of fields, under this `--ragged`.
    FieldCount {
        expected: usize,
        found: usize,
        ragged: crate::io::csv_in::Ragged,
    },
    /// A quoted field was still open at end of input.
    UnclosedQuote,
    /// A single record is larger than `max_block_size`.
    RecordTooLarge { limit: usize },
    /// Invalid reader options (CSV's or JSON's).
    BadOption(String),
    /// A spreadsheet that cannot be read as asked (a sheet it has not).
    Sheet(String),
    /// The `csv` crate rejected a block (not expected to happen).
    Csv(String),
    /// JSON: a line longer than the longest accepted.
    LineTooLong { limit: usize },
    /// JSON with `records`: an element (a record) or a value off the path
    /// to the array longer than the longest line accepted.
    ValueTooLong { limit: usize },
    /// Not JSON: `what` was expected at the position's column of the line
    /// (or, with `records`, of the line the error is on).
    Syntax {
        what: &'static str,
        /// The input ends inside this record, on its last line without a
        /// line break: cut short rather than malformed.
        cut: bool,
    },
    /// Valid JSON, but not an object: `found` is "an array", "a string", …
    NotObject { found: &'static str },
    /// A JSON array where a JSON Lines line or a `--records KEY` document
    /// was expected (`lines` for the first): an array of records, which
    /// `--records '[]'` reads.
    ArrayOfRecords { lines: bool },
    /// JSON with `--records '[]'`: a document that is not an array.
    NotArray { found: &'static str },
    /// JSON with `records`: no document held an array at the path;
    /// `detail` names the keys found instead, where the walk stopped.
    NoRecords { path: String, detail: String },
    /// The Parquet or Arrow IPC reader failed, with its own message:
    /// without a position, the file is not readable as `format` at all
    /// (cut short, a corrupt footer); with one, its data are damaged there.
    Columnar { format: Format, message: String },
    /// A file read as Parquet that is not: what its first bytes say it is
    /// instead (another format, plain or `compressed`), or nothing known
    /// (no `PAR1` at its start).
    NotParquet {
        format: Option<magic::NotCsv>,
        compressed: Option<&'static str>,
    },
    /// A column read as text whose type cannot be: `wanted` says what can,
    /// `hint` (empty, or starting with `; `) how to read it otherwise.
    ColumnType {
        column: String,
        found: String,
        wanted: &'static str,
        hint: String,
    },
}

impl ErrorKind {
    /// The decoder's own words, without the wrappers each library layer adds
    /// ("Parquet argument error: Parquet error: …").
    pub(crate) fn columnar_message(e: &dyn fmt::Display) -> String {
        const WRAPPERS: [&str; 7] = [
            "Parquet argument error: ",
            "Parquet error: ",
            "External error: ",
            "External: ",
            "Arrow: ",
            "Ipc error: ",
            "Parser error: ",
        ];
        let s = e.to_string();
        let mut rest = s.as_str();
        while let Some(inner) = WRAPPERS.iter().find_map(|w| rest.strip_prefix(w)) {
            rest = inner;
        }
        rest.to_string()
    }
}

/// Why a Parquet or Arrow IPC file was read as another format, for the
/// hint that gets it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misread {
    /// Bytes on stdin, which is always CSV: Parquet and Arrow IPC need a
    /// file (Parquet's footer is read first), so `--input-format` would
    /// not help.
    Stdin,
    /// Named for its format already (`.parquet`, `.arrow`): only
    /// `--input-format` can have made it another.
    Named,
    /// Any other name.
    OtherName,
}

/// An error naming the file and the position reached: boxed, as
/// rust-csv's `Error`, so a `Result` carrying it stays one pointer wide.
#[derive(Debug)]
pub struct PositionedError(Box<Located>);

#[derive(Debug)]
struct Located {
    file: Arc<str>,
    pos: Position,
    kind: ErrorKind,
}

impl PositionedError {
    pub(crate) fn new(file: &Arc<str>, pos: Position, kind: ErrorKind) -> Self {
        PositionedError(Box::new(Located {
            file: file.clone(),
            pos,
            kind,
        }))
    }

    /// Where in the file.
    pub fn pos(&self) -> &Position {
        &self.0.pos
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
}

impl fmt::Display for PositionedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Located { file, pos: p, kind } = &*self.0;
        write!(f, "{file}: ")?;
        if let (Some(g), Some(r)) = (p.row_group, p.record) {
            let last = r + g.rows.max(1) - 1;
            write!(f, "row group {} (records {r} to {last}): ", g.index)?;
        }
        match (kind, p.record, p.line) {
            (_, _, _) if p.row_group.is_some() => {}
            // CSV names the record and byte reached after "read error".
            (ErrorKind::Read(_), _, _) if p.byte.is_some() => {}
            (_, Some(r), Some(l)) => write!(f, "record {r} (line {l}): ")?,
            (_, Some(r), None) => write!(f, "record {r}: ")?,
            (_, None, Some(l)) => write!(f, "line {l}: ")?,
            _ => {}
        }
        match kind {
            ErrorKind::Open(e) => write!(f, "cannot open: {}", crate::io::atomic::os_reason(e)),
            ErrorKind::Read(e) => {
                write!(f, "read error")?;
                match (p.record, p.byte) {
                    (Some(r), Some(b)) => write!(f, " in record {r} (byte {b})")?,
                    (None, Some(b)) => write!(f, " at byte {b}")?,
                    _ => {}
                }
                write!(f, ": {e}")?;
                // gzip's and zstd's words for a stream that stops early.
                if e.kind() == io::ErrorKind::UnexpectedEof || e.to_string().starts_with("incomplete") {
                    write!(f, " (the compressed file ends early: cut short, or still being written)")?;
                }
                Ok(())
            }
            ErrorKind::NotGzip => write!(f, "not a gzip file (bad magic bytes)"),
            ErrorKind::NotZstd => write!(f, "not a zstd file (empty or bad magic bytes)"),
            ErrorKind::Looks(format, why) => {
                let article = if *format == Format::Arrow { "an" } else { "a" };
                write!(f, "this is {article} {} file", format.columnar_name())?;
                match why {
                    Misread::Stdin => write!(f, ", which cannot be read from stdin; give the file's path instead of -"),
                    Misread::Named => write!(f, ", read as another format because of --input-format; drop that option"),
                    Misread::OtherName => write!(f, "; name it .{0} or pass --input-format {0}", format.name()),
                }
            }
            ErrorKind::Compressed(format, c) => write!(
                f,
                "a {c}-compressed {} file; decompress it first and give hdlscan the .{} file",
                format.columnar_name(),
                format.name()
            ),
            ErrorKind::NotCsv { format, compressed } => {
                write!(f, "this is {}", format.noun())?;
                if let Some(c) = compressed {
                    write!(f, ", {c}-compressed")?;
                }
                write!(f, ", not CSV: {}", format.advice())
            }
            ErrorKind::NoHeader => write!(f, "no header: the input holds no record"),
            ErrorKind::FieldCount {
                expected,
                found,
                ragged,
            } => {
                use crate::io::csv_in::Ragged;
                write!(f, "expected {expected} fields, found {found}")?;
                match (ragged, found < expected) {
                    (Ragged::Error, true) => f.write_str(" (--ragged pad reads short rows, padded with empty cells)"),
                    (Ragged::Error | Ragged::Pad, false) => {
                        f.write_str(" (--ragged extra keeps the fields past the header as column_N)")
                    }
                    // Extra: the columns were fixed by the first block.
                    _ => f.write_str(
                        ", more than any record of the first block had, which set the columns; \
                         cut the file's widest rows first, or give the header a name for each field",
                    ),
                }
            }
            ErrorKind::UnclosedQuote => write!(
                f,
                "quote opened here never closes (if the file does not quote its fields, --no-quoting reads every \" \
                 as a plain character)"
            ),
            ErrorKind::RecordTooLarge { limit } => write!(
                f,
                "record longer than the {limit}-byte limit (raise it with --max-record-mib)"
            ),
            ErrorKind::BadOption(m) => write!(f, "invalid option: {m}"),
            ErrorKind::Sheet(m) => f.write_str(m),
            ErrorKind::Csv(m) => write!(f, "CSV error: {m}"),
            ErrorKind::LineTooLong { limit } => write!(
                f,
                "line longer than the {limit}-byte limit (raise it with --max-record-mib)"
            ),
            ErrorKind::ValueTooLong { limit } => write!(
                f,
                "JSON value longer than the {limit}-byte limit of a record (raise it with --max-record-mib)"
            ),
            ErrorKind::Syntax { what, cut } => {
                if *cut {
                    f.write_str("the file ends inside this record (cut short, or still being written): ")?;
                }
                write!(f, "not valid JSON: expected {what} at byte ")?;
                match p.column {
                    Some(c) => write!(f, "{c} of the line"),
                    None => f.write_str("? of the line"),
                }
            }
            ErrorKind::NotObject { found } => write!(f, "{found}, not a JSON object"),
            ErrorKind::ArrayOfRecords { lines } => write!(
                f,
                "a JSON array, not {}: read an array of records with --records '[]'",
                if *lines { "JSON Lines (an object a line)" } else { "a JSON object" }
            ),
            ErrorKind::NotArray { found } => write!(f, "{found}, not a JSON array (--records '[]')"),
            ErrorKind::NoRecords { path, detail } => write!(f, "no array at {path} (--records){detail}"),
            ErrorKind::Columnar { format, message } => {
                let noun = format.columnar_name();
                match (p.record, p.row_group) {
                    (None, None) => write!(f, "not a readable {noun} file: {message}"),
                    _ => write!(f, "damaged {noun} data: {message}"),
                }
            }
            ErrorKind::NotParquet {
                format: Some(format), ..
            } => write!(f, "this is {}, not Parquet: {}", format.noun(), format.advice()),
            ErrorKind::NotParquet {
                compressed: Some(c), ..
            } => write!(
                f,
                "{c}-compressed; hdlscan reads Parquet files as written (their pages are compressed inside): \
                 decompress it first"
            ),
            ErrorKind::NotParquet { .. } => {
                f.write_str("not a Parquet file (it does not start with PAR1); if it is CSV, pass --input-format csv")
            }
            ErrorKind::ColumnType {
                column,
                found,
                wanted,
                hint,
            } => write!(f, "column '{column}' has type {found}, not {wanted}{hint}"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_messages_lose_their_wrappers_only() {
        let m = |s: &str| ErrorKind::columnar_message(&s);
        assert_eq!(m("Parquet argument error: Parquet error: bad page"), "bad page");
        assert_eq!(
            m("Parser error: Arrow file does not contain correct footer"),
            "Arrow file does not contain correct footer"
        );
        assert_eq!(m("EOF: Parquet file too small"), "EOF: Parquet file too small");
    }
}
