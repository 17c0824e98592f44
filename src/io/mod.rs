//! Input and output files.
//!
//! - [`atomic`]: output written to a hidden temporary file beside the target
//!   and renamed onto it only when complete; cleanup on drop and on
//!   interrupt ([`atomic::remove_all_temp_files`]).
//! - [`sink`]: enriched output as Parquet, CSV, TSV or Arrow IPC.
//! - [`parquet_in`]: Parquet input, one row group at a time, and access to
//!   the identifier column whatever its string type.

pub mod atomic;
pub mod parquet_in;
pub mod sink;
