//! SPEC §8 "declared": where the caller declared a column's scheme
//! (`--expect issn`), its shapes without hyphens are read too (an ISSN of
//! 8 characters, an ISBN-10 of 10, an ISNI of 16, a PMID of digits, an
//! arXiv id `YYMM.NNNN(N)`), checks as for labelled values. Read before
//! the value's own reading, which none of these shapes has (they hold no
//! `/` and no label): `Parser::parse` with `--expect` asks [`read`].

use super::super::chars;
use super::super::codes::Warnings;
use super::Reading;
use super::ids::{self, Fail, Scheme};
use super::labels::Clean;

/// The reading of `raw` as a declared scheme of `expected` (lower-case
/// namespaces), with its warnings: the first that reads it, else the
/// first whose shape it has and whose check fails (`12376099` in a column
/// declared ISSN and PMID is a PMID); `None` when it has none of their
/// shapes. Borrows nothing: `other::parsed` writes it.
pub fn read(expected: &[String], raw: &[u8]) -> Option<(Reading<'static>, Warnings)> {
    let t = chars::trim_bytes(raw);
    let s = std::str::from_utf8(t).ok()?;
    let mut ws = chars::trimmed(raw, t);
    let mut clean = Clean::default();
    let b = clean.of(s, &mut ws)?;
    let mut failed = None;
    for scheme in expected.iter().filter_map(|ns| Scheme::from_name(ns)) {
        match ids::labelled(scheme, b) {
            Ok(id) => return Some((Ok(id), ws)),
            Err(Fail::Shape) => {}
            Err(f) => failed = failed.or(Some((scheme, f))),
        }
    }
    failed.map(|f| (Err(f), ws))
}
