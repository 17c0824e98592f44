//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! The API a binding needs, and nothing more:
//!
//! - [`id`]: the pure parser of one value (SPEC.md), the `hdlscan-id` crate
//!   re-exported: no I/O, threads or arrow.
//! - [`classify`]: one Arrow string array in, SPEC's columns out: the
//!   values `scan` writes for it.
//! - A scan: a [`Request`] decided into a [`ScanPlan`] before any work
//!   ([`PlanError`] when it cannot be), then [`run`] into a [`ScanResult`].
//! - Its typed [`Report`] (serde both ways) and its printers ([`Pages`]),
//!   judged by [`Gate`]s; a [`Snapshot`] of it is a later run's baseline.
//! - Files: [`InputSpec`] (a path or stdin), [`Format`], [`Sink`] (an
//!   enriched output), [`AtomicFile`] (written beside its target and
//!   renamed into place when complete).
//! - [`diff`]: what changed between two outputs of a scan.
//!
//! Inside (private): `io` (readers and sinks), `select` (which columns),
//! `at` (where a value was read), `columns` (SPEC's columns as Arrow
//! arrays), `dups` (duplicate clusters in bounded memory), `plan`,
//! `pipeline` (blocks, rayon, the per-value loop, the writer thread),
//! `report`, `gates`, `spill` (the engine `dups` and `diff` share past
//! memory: partition files, the k-way merge, the table of keys), `heap`
//! (glibc heap tuning) and `open_files` (the open-file limit). With the `internals` feature (benches and examples
//! only) they are public, hidden from the docs and from any promise.

#![deny(missing_docs)]
// The internals' accessors are for a few examples, not an API to round out.
#![cfg_attr(feature = "internals", allow(clippy::len_without_is_empty))]

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

modules!(
    at, classify, columns, dups, gates, heap, io, open_files, pipeline, plan, report, select, spill
);
pub mod diff;

pub use hdlscan_id as id;

pub use classify::classify;
pub use columns::SPEC;
pub use dups::{Grouped, Options as DuplicateOptions, Summary as DuplicateSummary};
pub use gates::{Gate, Severity, Verdict};
pub use io::atomic::{
    AtomicFile, check_not_an_input, commit_all, committed_any, os_reason, remove_all_temp_files, same_target,
};
pub use io::csv_in::{Ragged, TextEncoding};
pub use io::format::Format;
pub use io::sink::{Sink, SinkOptions};
pub use io::source::{Compression, InputSpec};
pub use pipeline::{ScanResult, run};
pub use plan::{DASH_OUTPUT, Options as ScanOptions, PlanError, Request, ScanPlan, output_format};
pub use report::page::{Markup, Pages};
pub use report::{InputInfo, Made, Report, Snapshot, Stats};

/// Tunes the process for long scans: the glibc heap (so freed blocks go
/// back and memory stays bounded) and the open-file limit (raised to its
/// hard limit, for spills). Call once, first.
pub fn tune_process() {
    heap::configure();
    open_files::raise();
}
