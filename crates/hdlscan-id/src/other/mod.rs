//! SPEC §8, identifiers of other schemes: ISSN, ISBN, ORCID iD, ISNI,
//! ROR, arXiv, PubMed and PubMed Central ids, ARK. What each file owns:
//!
//! - `check.rs`: the check characters, from their standards;
//! - `ids.rs`: each scheme's identifier shapes and canonical spelling;
//! - `labels.rs`: the labelled forms (`ISSN 1932-6203`, `urn:isbn:`,
//!   `ark:`, PubMed's `[pmid]` tags) and the §3 dirt after a label;
//! - `url.rs`: the schemes' resolver URLs;
//! - `declared.rs`: the shapes read where the caller declared a scheme.
//!
//! This file joins them to the full parser: [`parse`] reads a trimmed
//! value of §8 into the draft (kind `other_pid`, the scheme's namespace,
//! the canonical identifier in `info_identifier`), and [`render`] writes
//! its `canonical` and `url`. The fast path leaves every value that
//! could be one of these to the full parser ([`may_be`]).
//!
//! Where SPEC is silent: a §8 identifier's canonical is its scheme's
//! spelling whether or not repairs are on (the §3 dirt after a label,
//! `trailing_punct`, `unicode_dash`, `invisible_char`, is flagged and
//! never part of it); `PMCID: 1234567` (the digits after a PMC label) is
//! `pmcid:PMC1234567`.

mod check;
pub mod declared;
mod ids;
mod labels;
pub mod url;

pub use ids::{Fail, Id, Scheme};
pub use labels::{Clean, doi_tag, head_len, label, may_hold, piece_may_be, spaced_shape};

/// A value's §8 label, read once ([`label`]) and handed to each step
/// that asks.
pub type Label = Option<(Scheme, usize)>;

use super::codes::{ErrorCode, Kind, Warnings};
use super::{Cx, Parsed, Scratch, Span};

/// A value of SPEC §8, read: the identifier, or the scheme named and why
/// its identifier was refused.
pub type Reading<'a> = Result<Id<'a>, (Scheme, Fail)>;

/// The error a refused identifier is (SPEC §8).
pub fn error_of(fail: Fail) -> ErrorCode {
    match fail {
        Fail::Shape => ErrorCode::BadPid,
        Fail::Check => ErrorCode::BadCheckDigit,
    }
}

/// Reads the trimmed value `t`, whose label is `lab`, if it is a
/// labelled or bare value of SPEC §8 (`None`: sections 1–6 decide), into
/// `cx`'s draft.
pub fn parse<'a>(cx: &mut Cx<'a>, t: &'a str, lab: Label) -> Option<Result<(), ErrorCode>> {
    if let Some(read) = labelled_url(cx, t, lab) {
        return Some(read);
    }
    let mut ws = Warnings::EMPTY;
    let (reading, (query, fragment)) = labels::read_labelled(t, lab, &mut ws)?;
    cx.d.warnings |= ws;
    cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
    cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
    Some(into_draft(cx, reading, Kind::OtherPid))
}

/// SPEC v3 §2 "Wrapped identifiers": the identifier `id` of an OpenAIRE
/// wrapper of `scheme` (`pmid`, `pmc`, `arxiv`, `isbn`, `issn`, `ark`,
/// any case), read as that scheme's labelled form (`pmid:ID`; `ark:ID`,
/// an `ark:` already written in `id` read once); `None` for another
/// scheme.
pub fn wrapped<'a>(cx: &mut Cx<'a>, scheme: &str, id: &'a str) -> Option<Result<(), ErrorCode>> {
    let scheme = if scheme.eq_ignore_ascii_case("pmc") {
        Scheme::Pmcid
    } else {
        let named = Scheme::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(scheme));
        named.filter(|s| {
            matches!(
                s,
                Scheme::Issn | Scheme::Isbn | Scheme::Arxiv | Scheme::Pmid | Scheme::Ark
            )
        })?
    };
    let id = match scheme {
        Scheme::Ark if super::chars::starts_with_ci(id, "ark:") => &id[4..],
        _ => id,
    };
    let (reading, (query, fragment)) = labels::after_label(scheme, id, &mut cx.d.warnings);
    cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
    cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
    Some(into_draft(cx, reading, Kind::OtherPid))
}

/// A label before its scheme's resolver URL (`ORCID: https://orcid.org/…`):
/// the URL, with `doubled_label`, as `doi:` before a DOI's URL is read.
/// A URL of another scheme after a label is `bad_pid`.
fn labelled_url<'a>(cx: &mut Cx<'a>, t: &'a str, lab: Label) -> Option<Result<(), ErrorCode>> {
    let (scheme, at) = lab?;
    let url = super::resolver::UrlStart::with_scheme(&t[at..])?;
    cx.warn(super::codes::Warning::DoubledLabel);
    Some(super::resolver::parse(cx, url).and_then(|()| {
        if matches!(cx.d.namespace, Span::Lit(ns) if ns == scheme.name()) {
            return Ok(());
        }
        cx.d.namespace = Span::Lit(scheme.name());
        Err(ErrorCode::BadPid)
    }))
}

/// A trimmed value `t` that SPEC §6 found to be one value, read as
/// [`parse`] reads it in the full parser, for the fast path's rare forms
/// (a labelled value's cost was the full parser's general steps);
/// `scratch` back for what `parse` would read otherwise: a label before a
/// URL, an ARK's query or fragment, or no form of §8.
pub fn read_one<'a>(
    t: &'a str,
    lab: Label,
    mut ws: Warnings,
    scratch: &'a mut Scratch,
) -> Result<Parsed<'a>, &'a mut Scratch> {
    if let Some((_, at)) = lab
        && super::resolver::UrlStart::with_scheme(&t[at..]).is_some()
    {
        return Err(scratch);
    }
    match labels::read_labelled(t, lab, &mut ws) {
        Some((reading, (None, None))) => Ok(parsed(reading, ws, &mut scratch.buf)),
        _ => Err(scratch),
    }
}

/// The answer of a reading with `warnings`, its identifier written into
/// `buf`: what the full parser's draft gives for it (`into_draft`).
pub fn parsed<'a>(reading: Reading<'_>, warnings: Warnings, buf: &'a mut String) -> Parsed<'a> {
    match reading {
        Ok(id) => {
            buf.clear();
            id.write(buf);
            Parsed {
                kind: Kind::OtherPid,
                namespace: Some(id.scheme.name()),
                info_identifier: Some(buf.as_str()),
                error: None,
                ..Parsed::invalid(ErrorCode::Empty, warnings)
            }
        }
        Err((scheme, fail)) => Parsed {
            namespace: Some(scheme.name()),
            ..Parsed::invalid(error_of(fail), warnings)
        },
    }
}

/// The draft of a reading, as `kind`: the identifier written into the
/// scratch buffer, or the error with the namespace found.
pub fn into_draft(cx: &mut Cx<'_>, reading: Reading<'_>, kind: Kind) -> Result<(), ErrorCode> {
    match reading {
        Ok(id) => {
            cx.d.namespace = Span::Lit(id.scheme.name());
            let start = cx.buf.len();
            id.write(cx.buf);
            cx.d.info_id = Span::Buf(start as u32, cx.buf.len() as u32);
            cx.d.kind = Some(kind);
            Ok(())
        }
        Err((scheme, fail)) => {
            cx.d.namespace = Span::Lit(scheme.name());
            cx.d.info_id = Span::None;
            Err(error_of(fail))
        }
    }
}

/// True when the trimmed bytes `t`, which SPEC §6 found to be one value,
/// could be a value of SPEC §8 in any form the fast path would otherwise
/// answer: a label or `urn:`/`ark:` head, a bare shape, a PubMed or DOI
/// tag. Only the whole value is read as §8 then (`labels::read_labelled`),
/// so it is looked at as one piece, not cut at its `:`. Cheap and
/// conservative: the fast path gives up on what it says, and `read_one`
/// or the full parser reads it.
#[cold]
#[inline(never)]
pub fn may_be(t: &[u8]) -> bool {
    piece_may_be(t)
}

/// Writes `canonical` (`scheme:` + the identifier) and `url` of a §8
/// identifier `id` of namespace `ns`; false when `ns` is no §8 scheme or
/// (an `info:pmid/` identifier with a leading zero) `id` is none of its
/// identifiers, which the caller renders as before.
pub fn render(ns: &str, id: &str, canonical: &mut String, url: &mut String) -> bool {
    let Some(scheme) = Scheme::from_name(ns) else {
        return false;
    };
    if scheme == Scheme::Pmid && ids::labelled(scheme, id.as_bytes()).is_err() {
        return false;
    }
    canonical.push_str(ns);
    canonical.push(':');
    canonical.push_str(id);
    if let Some(head) = scheme.url_head() {
        url.push_str(head);
        if scheme == Scheme::Ark {
            url.push_str("ark:");
        }
        super::percent::encode_into(id, &super::percent::URL_PATH, url);
        url.push_str(scheme.url_tail());
    }
    true
}
