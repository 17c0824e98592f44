//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! The API of a scan over files, and nothing more. (The Python package
//! binds the `hdlscan-core` crate, whose crate doc lists what it uses:
//! values in memory need no plan, files or threads of this crate's.)
//!
//! - [`id`]: the pure parser of one value (SPEC.md), the `hdlscan-id` crate
//!   re-exported: no I/O, threads or arrow.
//! - [`classify()`]: one Arrow string array in, SPEC's columns out: the
//!   values `scan` writes for it. It, the report and the gates come from
//!   the `hdlscan-core` crate, which the Python package shares; so does
//!   [`cell_values`], the values a cell holds under `--split`, and
//!   [`parser_options`], the parser's options as the flags give them.
//! - A scan: a [`Request`] decided into a [`ScanPlan`] before any work
//!   ([`PlanError`] when it cannot be), then [`run`] into a [`ScanResult`].
//! - Its typed [`Report`] (serde both ways) and its printers ([`Pages`]),
//!   judged by [`Gate`]s; a [`Snapshot`] of it is a later run's baseline.
//! - Files: [`InputSpec`] (a path or stdin), [`Format`], [`Sink`] (an
//!   enriched output), [`AtomicFile`] (written beside its target and
//!   renamed into place when complete).
//! - [`diff`]: what changed between two outputs of a scan.
//!
//! Inside (private): `io` (readers and sinks), `select` (which columns:
//! the core's, shared with the Python package), `dups` (duplicate clusters in bounded memory), `plan`,
//! `pipeline` (blocks, rayon, the per-value loop, the writer thread),
//! `spill` (the engine `dups` and `diff` share past
//! memory: partition files, the k-way merge, the table of keys, the
//! open-file limit they need). With the
//! `internals` feature (benches and examples only) they are public, hidden
//! from the docs and from any promise.
//!
//! `docs/architecture.md` draws the flow (arguments, plan, pipeline,
//! report) and says where to change what.

#![deny(missing_docs)]
// The internals' accessors are for a few examples, not an API to round out.
#![cfg_attr(feature = "internals", allow(clippy::len_without_is_empty))]
// Module docs link the private items they are made of; under `internals`
// those modules turn public while the items stay private.
#![cfg_attr(feature = "internals", allow(rustdoc::private_intra_doc_links))]

/// The crate's modules: private, or public but hidden under the
/// `internals` feature, which the examples and benches that time a single
/// stage build with.
macro_rules! modules {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

modules!(dups, io, pipeline, plan, spill);
// The core's modules, under the names the crate's own code uses.
use hdlscan_core::{at, clusters, columns, gates, report, select, strings, variant};
pub mod diff;

pub use hdlscan_core::id;

pub use clusters::Summary as DuplicateSummary;
pub use dups::{Grouped, Options as DuplicateOptions};
pub use hdlscan_core::classify::cell_values;
pub use hdlscan_core::options::parser_options;
pub use hdlscan_core::{Gate, SPEC, Severity, Verdict, classify};
pub use hdlscan_core::{InputInfo, Made, Markup, Pages, Report, Snapshot, Stats};
pub use io::atomic::{
    AtomicFile, check_not_an_input, commit_all, committed_any, os_reason, remove_all_temp_files, same_target,
};
pub use io::csv_in::{Ragged, TextEncoding};
pub use io::format::Format;
pub use io::sink::{Sink, SinkOptions};
pub use io::source::{Compression, InputSpec};
pub use pipeline::{ScanResult, run};
pub use plan::{DASH_OUTPUT, Options as ScanOptions, PlanError, Request, ScanPlan, output_format};
pub use select::gate_columns;
pub use spill::Budget;

/// Tunes the process for long scans: the open-file limit raised to its
/// hard limit, for spills. Call once, first.
pub fn tune_process() {
    spill::raise_open_files();
}
