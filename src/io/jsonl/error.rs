//! [`PositionedError`]: what went wrong in JSON input, with the file, line
//! and record it happened at (rust-csv's `Error` and `Position` shape, as
//! `csv_in` has it).

use crate::io::csv_in;
use std::fmt;
use std::io;
use std::sync::Arc;

/// What went wrong.
#[derive(Debug)]
pub enum ErrorKind {
    /// Opening or sniffing the input failed (a missing file, a `.gz` that
    /// is not gzip, a Parquet file): `csv_in::open_input`'s error, whose
    /// message already names the file.
    Input(Box<csv_in::PositionedError>),
    /// Reading or decompressing failed.
    Read(io::Error),
    /// A line longer than `max_line`.
    LineTooLong { limit: usize },
    /// With `records`, an element (a record) or a value off the path to
    /// the array longer than `max_line`.
    ValueTooLong { limit: usize },
    /// Not JSON: `what` was expected at byte `column` (1-based) of the line
    /// (or, with `records`, of the line the error is on).
    Syntax { column: u64, what: &'static str },
    /// Valid JSON, but not an object: `found` is "an array", "a string", …
    NotObject { found: &'static str },
    /// With `records`, no document held an array at the path.
    NoRecords { path: String },
    /// Invalid [`super::JsonlOptions`].
    BadOption(String),
}

/// An error naming the input and, when known, the line and record.
#[derive(Debug)]
pub struct PositionedError {
    pub file: Arc<str>,
    /// 1-based line (counting `\n`).
    pub line: Option<u64>,
    /// 1-based record number (the ordinal of the non-blank line, or of the
    /// array element with `records`).
    pub record: Option<u64>,
    pub kind: ErrorKind,
}

impl PositionedError {
    pub(super) fn new(file: &Arc<str>, line: Option<u64>, record: Option<u64>, kind: ErrorKind) -> Self {
        PositionedError {
            file: file.clone(),
            line,
            record,
            kind,
        }
    }
}

impl fmt::Display for PositionedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ErrorKind::Input(e) = &self.kind {
            return e.fmt(f);
        }
        write!(f, "{}: ", self.file)?;
        match (self.record, self.line) {
            (Some(r), Some(l)) => write!(f, "record {r} (line {l}): ")?,
            (None, Some(l)) => write!(f, "line {l}: ")?,
            (Some(r), None) => write!(f, "record {r}: ")?,
            (None, None) => {}
        }
        match &self.kind {
            ErrorKind::Input(_) => unreachable!(),
            ErrorKind::Read(e) => write!(f, "read error: {e}"),
            ErrorKind::LineTooLong { limit } => write!(
                f,
                "line longer than the {limit}-byte limit (raise it with --max-record-mib)"
            ),
            ErrorKind::ValueTooLong { limit } => write!(
                f,
                "JSON value longer than the {limit}-byte limit of a record (raise it with --max-record-mib)"
            ),
            ErrorKind::Syntax { column, what } => {
                write!(f, "not valid JSON: expected {what} at byte {column} of the line")
            }
            ErrorKind::NotObject { found } => write!(f, "{found}, not a JSON object"),
            ErrorKind::NoRecords { path } => write!(f, "no array at {path} (--records)"),
            ErrorKind::BadOption(m) => write!(f, "invalid option: {m}"),
        }
    }
}

impl std::error::Error for PositionedError {
    // The message holds the cause's text already (see csv_in's).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}
