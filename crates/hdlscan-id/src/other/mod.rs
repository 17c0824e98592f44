//! SPEC §8, identifiers of other schemes: ISSN, ISBN, ORCID iD, ISNI,
//! ROR, arXiv, PubMed and PubMed Central ids, ARK. What each file owns:
//!
//! - `check.rs`: the check characters, from their standards;
//! - `ids.rs`: each scheme's identifier shapes and canonical spelling.
//!
//! Not yet read by the parser: the next step joins it.
#![allow(dead_code)]

mod check;
mod ids;
