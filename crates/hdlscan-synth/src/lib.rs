//! Realistic synthetic identifier data for hdlscan's tests and benchmarks:
//! the values and the dirt of real repository exports (DSpace, EPrints,
//! Dataverse) and metadata dumps (Crossref, DataCite, OpenAlex), seeded and
//! deterministic. A developer tool, not part of hdlscan's library.
//!
//! - [`random`]: the seeded random source and weighted tables.
//! - `tables`: what the values are drawn from (DOI templates, handle
//!   prefixes, resolver hosts, junk, titles, types, collections).
//! - [`identifiers`]: [`Synth`], the identifier generator and its mixes.
//! - [`row`]: one export row ([`Row`]) and the column [`Layout`]s it is
//!   written in.
//! - Writers: [`csv`](mod@csv), [`jsonl`] (OpenAlex-like works),
//!   [`values`] (the benchmark's value files), [`sample`] (the committed
//!   test data).
//!
//! The mix, measured over 100,000 values of seed 42 (duplicates included,
//! in the form they were re-written in): bare DOIs 31%, DOI resolver URLs
//! 25%, handle URLs 17.5%, `doi:` labels 9%, bare handles 8%, `hdl:`/`info:`
//! URIs 4.7%, junk 4.7% (empty, `N/A`, `-`, `TBD`, ISBNs, non-resolver URLs,
//! `10.1000` without a suffix, …). About 10% of the values carry dirt
//! (whitespace, NBSP, invisible characters, trailing punctuation, Unicode
//! dashes, HTML entities, publisher suffixes, `%2F`, `%252F` and
//! double-encoded escapes, test prefixes, internal spaces, glued DOIs), and
//! 10% repeat an earlier identifier (the same string, or the same DOI in
//! another form or case). Mean length about 32.5 bytes. No identifier ever
//! holds CR or LF; only titles do (LF).
//!
//! That is [`Mix::V1`], what [`Synth::new`] makes, `hdlscan gen` writes and
//! `testdata/bench_values.txt` holds, unchanged since SPEC version 1.
//! [`Mix::V2`] ([`Synth::with_mix`]) adds the dirt SPEC version 2 reads
//! (section 6, and the new forms of section 2), found in real exports
//! (OpenAPC, DSpace, CGIAR) and at the rates of the dirtiest of them:
//! about 9% of the values, among them cells with two identifiers and
//! values broken over lines (so CR and LF). See [`identifiers::v2`] for the
//! rates and where they come from.
//!
//! Once the rings of recent values are full (after [`identifiers::POOL`]
//! values), only a few rare dirt forms allocate for their value (HTML
//! entities in a SICI DOI, every dash replaced, escapes encoded twice): the
//! common values reuse the generator's buffers.

#![deny(missing_docs)]

pub mod csv;
pub mod identifiers;
pub mod jsonl;
pub mod random;
pub mod row;
pub mod sample;
mod tables;
mod text;
pub mod values;

pub use identifiers::{Dirt, Form, Meta, Mix, Synth};
pub use random::SplitMix64;
pub use row::{Layout, Row};
