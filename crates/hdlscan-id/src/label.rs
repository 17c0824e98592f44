//! Values without a URI scheme (SPEC §2): bare handles and DOIs, the `doi:`
//! label and `urn:doi:`. Bare and labelled values are taken literally (no
//! percent-decoding), but for the one exception of §2: one with no `/`
//! whose `%2F` follows a valid prefix is split there and its suffix
//! decoded (`handle::split_bare_encoded`). `urn:doi:` is a URI, so its
//! parts are decoded.

use super::chars::{self, starts_with_ci};
use super::codes::{ErrorCode, Kind, Warning};
use super::handle::{self, Rule};
use super::{Cx, resolver};

/// A bare handle or DOI: split at the first `/` (or a `%2F`, §2),
/// numeric prefix required.
pub fn bare<'a>(cx: &mut Cx<'a>, t: &'a str) -> Result<(), ErrorCode> {
    literal_or_encoded(cx, t, Rule::Numeric)?;
    cx.d.kind = Some(if cx.d.namespace.get("", "") == Some("doi") {
        Kind::Doi
    } else {
        Kind::Handle
    });
    Ok(())
}

/// Strips `doi:` / `DOI ` labels (any case, Unicode White_Space after them);
/// `None` when `t` has no label. Two or more labels raise `doubled_label`.
pub fn strip_doi_labels<'a>(cx: &mut Cx<'a>, t: &'a str) -> Option<&'a str> {
    let (labels, rest) = doi_labels(t);
    cx.d.warnings.add_if(labels > 1, Warning::DoubledLabel);
    (labels > 0).then_some(rest)
}

/// How many `doi:` / `DOI ` labels `t` starts with, and what follows
/// them (and the white space after them).
pub fn doi_labels(t: &str) -> (usize, &str) {
    let mut rest = t;
    let mut labels = 0;
    loop {
        let after = if starts_with_ci(rest, "doi:") {
            &rest[4..]
        } else if starts_with_ci(rest, "doi") && rest[3..].starts_with(char::is_whitespace) {
            &rest[3..]
        } else {
            break;
        };
        labels += 1;
        // White space only: an invisible character after the label is
        // the DOI's, flagged `invisible_char` (trimming is for the ends).
        rest = after.trim_start_matches(char::is_whitespace);
    }
    (labels, rest)
}

/// What follows `doi:` labels: a bare DOI, or a resolver URL someone
/// labelled again (`doi: https://doi.org/…`, flagged `doubled_label`).
pub fn labelled<'a>(cx: &mut Cx<'a>, rest: &'a str) -> Result<(), ErrorCode> {
    if rest.is_empty() {
        return Err(ErrorCode::Empty);
    }
    if let Some(url) = resolver::UrlStart::detect(rest, cx.opts) {
        cx.warn(Warning::DoubledLabel);
        return resolver::parse(cx, url);
    }
    literal_or_encoded(cx, rest, Rule::Doi)?;
    cx.d.kind = Some(Kind::Doi);
    Ok(())
}

/// Reads the handle `t` of a bare or labelled value: split at its first
/// `/` and taken literally, or, without one, split at a `%2F` after a
/// valid prefix and its suffix decoded once (§2).
fn literal_or_encoded<'a>(cx: &mut Cx<'a>, t: &'a str, rule: Rule) -> Result<(), ErrorCode> {
    if let Some(i) = chars::find_byte(b'/', t.as_bytes()) {
        return handle::read(cx, &t[..i], &t[i + 1..], false, rule);
    }
    let (prefix, suffix) = handle::split_bare_encoded(t, rule, &mut cx.d.warnings)?;
    handle::read(cx, prefix, suffix, true, rule)
}

/// `urn:doi:` (after the scheme and NID): a `:` may stand for the first `/`.
pub fn urn_doi<'a>(cx: &mut Cx<'a>, nss: &'a str) -> Result<(), ErrorCode> {
    cx.check_encoded(&[Some(nss)]);
    let b = nss.as_bytes();
    // A URN's NSS holds no raw `?` (RFC 8141: it would start a
    // q-component), so one in a DOI should have been escaped, as in `info:`.
    cx.d.warnings
        .add_if(chars::find_byte(b'?', b).is_some(), Warning::UnencodedChars);
    let (p, s) = match (chars::find_byte(b':', b), chars::find_byte(b'/', b)) {
        (Some(c), slash) if slash.is_none_or(|s| c < s) => (&nss[..c], &nss[c + 1..]),
        _ => handle::split_uri_part(nss, &mut cx.d.warnings)?,
    };
    handle::read(cx, p, s, true, Rule::Doi)?;
    cx.d.kind = Some(Kind::Doi);
    Ok(())
}

/// The URI scheme `t` starts with (RFC 3986 `scheme ":"`), if any.
pub fn scheme_of(t: &str) -> Option<&str> {
    let b = t.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let end = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.'))?;
    (b[end] == b':').then(|| &t[..end])
}
