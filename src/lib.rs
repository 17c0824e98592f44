//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! - [`id`]: the pure parser of one value (SPEC.md).

pub mod id;
pub mod synth;
