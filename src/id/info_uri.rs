//! `info:` URIs (SPEC §2, seed 004): `info:NAMESPACE/IDENTIFIER[#fragment]`.
//! `hdl` and `doi` identifiers are handles (§1); other namespaces are
//! normalized per seed 004 §6 steps a–d.

use super::chars;
use super::codes::{ErrorCode, Kind, Warning};
use super::dirt;
use super::handle::{self, Rule};
use super::hdl_uri::split_off;
use super::percent::{self, INFO_IDENTIFIER, INFO_UNRESERVED};
use super::{Cx, Span};

/// Namespaces named in the draft, plus `doi`, `hdl`, `oclcnum`, `ofi`.
const KNOWN: [&str; 10] = [
    "ddc", "lccn", "sici", "bibcode", "pmid", "pii", "doi", "hdl", "oclcnum", "ofi",
];

/// Parses what follows `info:`.
pub fn parse<'a>(cx: &mut Cx<'a>, rest: &'a str) -> Result<(), ErrorCode> {
    let (rest, fragment) = split_off(rest, b'#');
    let Some(slash) = chars::find_byte(b'/', rest.as_bytes()) else {
        return Err(if is_scheme(rest) {
            ErrorCode::BadInfoIdentifier
        } else {
            ErrorCode::BadInfoNamespace
        });
    };
    let (ns, ident) = (&rest[..slash], &rest[slash + 1..]);
    if !is_scheme(ns) {
        return Err(ErrorCode::BadInfoNamespace);
    }
    if ident.is_empty() {
        return Err(ErrorCode::BadInfoIdentifier);
    }
    if let Some(f) = fragment {
        if percent::has_unencoded(f) {
            cx.warn(Warning::UnencodedChars);
        }
        cx.d.fragment = cx.span_of(f);
    }
    cx.d.kind = Some(Kind::InfoUri);
    if ns.eq_ignore_ascii_case("hdl") || ns.eq_ignore_ascii_case("doi") {
        if percent::has_outside(ident, &percent::INFO_RAW) {
            cx.warn(Warning::UnencodedChars);
        }
        let rule = if ns.eq_ignore_ascii_case("doi") {
            Rule::Doi
        } else {
            Rule::Any
        };
        let (p, s) = handle::split_uri_part(ident, &mut cx.d.warnings)?;
        return handle::read(cx, p, s, true, rule);
    }
    let ns_span = cx.lowercase(ns);
    let id_span = normalize(cx, ident)?;
    let ns_lc = cx.text(ns_span);
    if ns_lc == "pmid" && !cx.text(id_span).bytes().all(|b| b.is_ascii_digit()) {
        return Err(ErrorCode::BadInfoIdentifier);
    }
    if !KNOWN.contains(&ns_lc) {
        cx.warn(Warning::UnknownInfoNamespace);
    }
    if dirt::info_has_invisible(cx.text(id_span)) {
        cx.warn(Warning::InvisibleChar);
    }
    cx.d.namespace = ns_span;
    cx.d.info_id = id_span;
    Ok(())
}

/// What follows `info:` (no `#` in it) in a namespace other than `doi` and
/// `hdl` when `parse` would take it as written: the namespace lowercase,
/// the identifier of `INFO_IDENTIFIER` bytes alone (nothing to unescape,
/// nothing to escape, so no escaped invisible character either), a `pmid`
/// all digits. Returns the namespace, the identifier and the warning for
/// an unknown namespace; `None` for what `parse` must do (normalize, or
/// report an error). The fast path's share of this form.
pub fn as_written(rest: &str) -> Option<(&str, &str, Option<Warning>)> {
    let (ns, ident) = rest.split_at(chars::find_byte(b'/', rest.as_bytes())?);
    let ident = &ident[1..];
    let plain = is_scheme(ns)
        && !ns.bytes().any(|b| b.is_ascii_uppercase())
        && !ident.is_empty()
        && ident.bytes().all(|c| INFO_IDENTIFIER.contains(c));
    if !plain || ns == "doi" || ns == "hdl" || (ns == "pmid" && !ident.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let warning = (!KNOWN.contains(&ns)).then_some(Warning::UnknownInfoNamespace);
    Some((ns, ident, warning))
}

/// The `scheme` production of seed 004: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.')
}

/// Seed 004 §6 steps c and d on the identifier: unescape escapes of
/// unreserved characters (RFC 2396's set), uppercase the hex of the others.
/// Characters that should have been escaped are escaped (`unencoded_chars`).
/// Dot segments are never removed.
fn normalize<'a>(cx: &mut Cx<'a>, ident: &'a str) -> Result<Span, ErrorCode> {
    let b = ident.as_bytes();
    if b.iter().all(|&c| INFO_IDENTIFIER.contains(c)) {
        return Ok(cx.span_of(ident));
    }
    let start = cx.buf.len();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let v = percent::escape_at(b, i).ok_or(ErrorCode::BadPercentEscape)?;
            // A control character escaped is one all the same (§1: anywhere),
            // as it is in the parts of `hdl` and `doi`, which are decoded:
            // C0 and DEL, and C1 as UTF-8 (`%C2%80`..`%C2%9F`).
            let c1 = v == 0xC2 && percent::escape_at(b, i + 3).is_some_and(|n| (0x80..=0x9F).contains(&n));
            if v < 0x20 || v == 0x7F || c1 {
                return Err(ErrorCode::ControlChar);
            }
            // `%25` then two hex digits: an escape escaped again (§3).
            if v == b'%' && percent::escape_at(b, i + 2).is_some() {
                cx.d.warnings.add(Warning::DoubleEncoded);
            }
            if INFO_UNRESERVED.contains(v) {
                cx.buf.push(v as char);
            } else {
                percent::push_escape(v, cx.buf);
            }
            i += 3;
        } else if INFO_IDENTIFIER.contains(c) {
            cx.buf.push(c as char);
            i += 1;
        } else {
            cx.d.warnings.add(Warning::UnencodedChars);
            percent::push_escape(c, cx.buf);
            i += 1;
        }
    }
    Ok(Span::Buf(start as u32, cx.buf.len() as u32))
}
