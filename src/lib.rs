//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! - [`id`]: the pure parser of one value (SPEC.md), the `hdlscan-id` crate
//!   re-exported: no I/O, threads or arrow.
//! - [`io`]: CSV, Parquet and JSON Lines readers, paths into nested
//!   Parquet, output sinks, atomic output files.
//! - [`select`]: which columns a run reads (names, numbers, patterns).
//! - [`at`]: where a value was read, the reference every value carries.
//! - [`columns`]: SPEC's output columns (wide and long) as Arrow arrays.
//! - [`dups`]: exact duplicate clusters in bounded memory, and their file.
//! - [`plan`]: a scan decided from its request before it runs: inputs,
//!   columns, parsers, the output's shape and schema.
//! - [`pipeline`]: runs a plan: blocks, rayon, the one per-value loop, the writer thread.
//! - [`report`]: statistics that merge with `+=`, the typed report and its
//!   printers (JSON, Markdown, HTML, the summary).
//! - [`gates`]: `--fail-if` / `--warn-if`, judged on a report.
//! - [`diff`]: `hdlscan diff`, what changed between two outputs of `scan`.
//! - [`heap`]: glibc heap tuning that keeps long scans fast and bounded.
//! - [`open_files`]: the open-file limit, raised at start; how many
//!   temporary files a spill may hold under it.
//! - `spill`: the engine `dups` and `diff` share past memory: partition
//!   files, the k-way merge, the table of keys.

pub mod at;
pub mod columns;
pub mod diff;
pub mod dups;
pub mod gates;
pub mod heap;
pub mod io;
pub mod open_files;
pub mod pipeline;
pub mod plan;
pub mod report;
pub mod select;

mod spill;

pub use hdlscan_id as id;
