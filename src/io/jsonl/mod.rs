//! JSON Lines input: paths into records, options, errors.
//!
//! - [`path`]: [`JsonPath`] and [`PathSet`].
//! - [`options`]: how input is cut and how strictly it is read
//!   ([`JsonlOptions`]).
//! - [`error`]: [`PositionedError`], naming file, line and record.

pub mod error;
pub mod options;
pub mod path;

pub use error::{ErrorKind, PositionedError};
pub use options::JsonlOptions;
pub use path::{JsonPath, PathSet, Step};
