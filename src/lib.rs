//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! - [`id`]: the pure parser of one value (SPEC.md).
//! - [`cli`]: the command line.

pub mod cli;
pub mod columns;
pub mod id;
pub mod report;
pub mod synth;
