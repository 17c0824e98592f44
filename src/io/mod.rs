//! Input and output files; no identifier parsing here.
//!
//! - [`split`]: the quote-aware CSV record-boundary finder (no I/O).
//! - [`csv_in`]: CSV/TSV input (files, stdin, `.gz`, `.zst`) cut into blocks
//!   of whole records by a sequential reader, each parsed independently into
//!   a columnar [`csv_in::RowBlock`]; errors carry file, record, line, byte.
//! - [`parquet_in`]: Parquet input, one row group at a time, and access to
//!   the identifier column whatever its string type.
//! - [`sink`]: enriched output as Parquet, CSV, TSV or Arrow IPC.
//! - [`atomic`]: output written to a hidden temporary file beside the target
//!   and renamed onto it only when complete; cleanup on drop and on
//!   interrupt ([`atomic::remove_all_temp_files`]).

pub mod atomic;
pub mod csv_in;
pub mod parquet_in;
pub mod sink;
pub mod split;
