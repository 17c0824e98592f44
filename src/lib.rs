//! hdlscan: audit persistent identifiers (Handle System handles, DOIs,
//! `hdl:` and `info:` URIs, resolver URLs) in bulk.
//!
//! - [`id`]: the pure parser of one value (SPEC.md).
//! - [`io`]: CSV input: block splitting and columnar parsing.

pub mod id;
pub mod io;
