//! Input and output files; no identifier parsing here.
//!
//! - [`error`]: [`error::PositionedError`], the one error of CSV, JSON,
//!   Parquet and Arrow input, with its file and [`error::Position`].
//! - [`format`](mod@format): the one [`format::Format`] of a table file,
//!   from its name or its first bytes.
//! - [`source`]: where an input's bytes come from: files and stdin, opened,
//!   decompressed (gzip, zstd) and sniffed.
//! - [`csv_in`]: CSV/TSV input cut into blocks of whole records by a
//!   sequential reader, each parsed independently into a columnar
//!   [`csv_in::RowBlock`].
//! - [`parquet_in`]: Parquet input, one row group at a time (only the leaf
//!   columns a run needs), and access to the identifier column whatever its
//!   string type.
//! - [`arrow_in`]: Arrow IPC input (file and stream formats), batch by
//!   batch.
//! - [`sheet`]: spreadsheets (`.xlsx`, `.xls`, `.ods`) read as the CSV
//!   they would export.
//! - [`jsonl`]: JSON Lines input, and JSON documents holding an array of
//!   records, cut into blocks and scanned without building a tree.
//! - [`nested`]: paths into nested Parquet columns (`ids.doi`,
//!   `locations[].landing_page_url`), JSON input's path syntax.
//! - [`sink`]: enriched output as Parquet, CSV, TSV, Arrow IPC or JSON
//!   Lines.
//! - [`magic`]: what a file's first bytes say it is (gzip, zstd, Parquet,
//!   Arrow IPC, a spreadsheet, PDF, HTML, JSON), whatever its name.
//! - [`atomic`]: output written to a hidden temporary file beside the target
//!   and renamed onto it only when complete; cleanup on drop and on
//!   interrupt ([`atomic::remove_all_temp_files`]).

pub mod arrow_in;
pub mod atomic;
pub mod csv_in;
pub mod error;
pub mod format;
pub mod jsonl;
pub mod magic;
pub mod nested;
pub mod parquet_in;
pub mod sheet;
pub mod sink;
pub mod source;

/// Column names for an error message, escaped and cut short.
pub use crate::select::describe_columns;
