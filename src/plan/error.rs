//! [`PlanError`]: why a scan cannot be planned, naming the flag, column or
//! input at fault.

use crate::io::format::Format;
use std::fmt;
use std::path::PathBuf;

/// Why `gen` and `diff` refuse `-o -`.
pub const DASH_OUTPUT: &str = "-o -: the output is written to a file and renamed into place when complete; name a file";

/// A scan that cannot be planned. Every variant but [`PlanError::MixedFormats`]
/// and [`PlanError::Input`] is a request that asks for something
/// impossible ([`PlanError::is_usage`]).
#[derive(Debug)]
pub enum PlanError {
    /// A flag whose value cannot be read or selects nothing; `flag` as
    /// shown, with its value when that tells which one (`--expect x=doi`).
    Flag {
        /// The flag.
        flag: String,
        /// Why its value is refused.
        reason: String,
    },
    /// `--resolver`: the parser's own message names it.
    Resolver(String),
    /// `-` given twice: stdin can be read once.
    StdinTwice,
    /// One file named twice among the inputs (the same path, another
    /// path to it, or a link to it).
    InputTwice {
        /// The input as given first.
        first: String,
        /// The same file, given again.
        again: String,
    },
    /// A flag given with an input it does not apply to.
    NotForInput {
        /// The flag.
        flag: &'static str,
        /// The inputs it applies to.
        applies: &'static str,
        /// The input's format.
        format: Format,
    },
    /// `--keep` with wide output.
    KeepNeedsLong,
    /// `-o PATH` whose extension names no output format.
    UnknownOutputFormat(PathBuf),
    /// Inputs named as different formats, without `--input-format`.
    MixedFormats(Vec<Format>),
    /// The first input cannot be opened, or does not hold what the run
    /// reads (its message already names it).
    Input(anyhow::Error),
}

impl PlanError {
    /// Whether the command line is at fault (exit 2), rather than an
    /// input (exit 1).
    pub fn is_usage(&self) -> bool {
        !matches!(self, PlanError::MixedFormats(_) | PlanError::Input(_))
    }

    pub(crate) fn flag(flag: impl Into<String>, reason: impl fmt::Display) -> PlanError {
        PlanError::Flag {
            flag: flag.into(),
            reason: reason.to_string(),
        }
    }
}

impl From<crate::io::error::PositionedError> for PlanError {
    fn from(e: crate::io::error::PositionedError) -> PlanError {
        PlanError::Input(anyhow::Error::new(e))
    }
}

impl From<anyhow::Error> for PlanError {
    fn from(e: anyhow::Error) -> PlanError {
        PlanError::Input(e)
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Flag { flag, reason } => write!(f, "{flag}: {reason}"),
            PlanError::Resolver(e) => f.write_str(e),
            PlanError::StdinTwice => f.write_str("- (stdin) is given more than once; it can be read only once"),
            PlanError::InputTwice { first, again } if first == again => {
                write!(f, "input {first} is given twice; each input is read once: drop one")
            }
            PlanError::InputTwice { first, again } => write!(
                f,
                "inputs {first} and {again} are the same file; each input is read once: drop one"
            ),
            PlanError::NotForInput { flag, applies, format } => write!(
                f,
                "{flag} applies to {applies} input only, and this input is {}; drop it",
                format.name()
            ),
            PlanError::KeepNeedsLong => f.write_str(
                "--keep carries input columns into long output; wide output (one column, no --split) has every input \
                 column already: drop --keep, or add --long",
            ),
            PlanError::UnknownOutputFormat(path) => write!(
                f,
                "{}: unknown output format; use a .parquet, .csv, .tsv, .arrow or .jsonl name, or --output-format",
                path.display()
            ),
            PlanError::MixedFormats(formats) => write!(
                f,
                "inputs of one run must share a format (found {}); use --input-format to override",
                formats.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
            ),
            PlanError::Input(e) => write!(f, "{e:#}"),
        }
    }
}

impl std::error::Error for PlanError {}
