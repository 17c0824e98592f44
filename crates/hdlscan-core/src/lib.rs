//! hdlscan's core: what a scan makes of identifier strings once they are in
//! memory, without files, threads or a command line. The CLI (the `hdlscan`
//! crate) and the Python package stand on it, so both write the same
//! columns and print the same report.
//!
//! - [`classify()`]: one Arrow string array in, SPEC's columns out.
//! - [`columns`]: those columns as Arrow arrays ([`SPEC`] their names).
//! - [`report`]: the typed [`Report`], made of merged [`Stats`], the
//!   duplicate clusters' [`clusters::Summary`] and how the run was made; its
//!   printers (JSON by serde, the summary, Markdown and HTML pages).
//! - [`gates`]: `--fail-if` and `--warn-if`, judged on a report.
//! - [`select`]: which columns a name, number or pattern chooses (`-c`,
//!   `--keep`, a gate's `COLUMN:`), with the error that lists them.
//! - [`options`]: the parser's options as the flags give them.
//! - [`strings`]: Arrow's string and binary arrays read as bytes.
//! - [`clusters`]: the duplicate clusters in numbers ([`clusters::Summary`]),
//!   filled by the CLI's engine, by Spark, or by [`clusters::group`] over
//!   values in memory.
//! - [`at`], [`variant`]: where a value was read, and how a cluster's
//!   member differs from its first.
//!
//! The Python package (`python/src`) binds this crate: [`classify()`]'s
//! cell-level form [`classify::classify_cells`], [`select`], [`options`],
//! [`strings`], the [`report`] with [`clusters`] and [`variant`] for its
//! `Report`.

#![deny(missing_docs)]

pub use hdlscan_id as id;

pub mod at;
pub mod classify;
pub mod clusters;
pub mod columns;
pub mod gates;
pub mod options;
pub mod report;
pub mod select;
pub mod strings;
pub mod variant;

pub use classify::classify;
pub use columns::SPEC;
pub use gates::{Gate, Severity, Verdict};
pub use report::markup::{Markup, Pages};
pub use report::{InputInfo, Made, Report, Snapshot, Stats};
