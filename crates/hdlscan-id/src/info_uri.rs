//! `info:` URIs (SPEC §2, seed 004): `info:NAMESPACE/IDENTIFIER[#fragment]`.
//! `hdl` and `doi` identifiers are handles (§1); other namespaces are
//! normalized per seed 004 §6 steps a–d.

use super::chars;
use super::codes::{ErrorCode, Kind, Warning, Warnings};
use super::dirt;
use super::handle::{self, Rule};
use super::percent::{self, INFO_IDENTIFIER, INFO_UNRESERVED};
use super::{Cx, Span, hdl_uri, label, other};

/// Namespaces named in the draft, plus `doi`, `hdl`, `oclcnum`, `ofi`.
pub(crate) const KNOWN: [&str; 10] = [
    "ddc", "lccn", "sici", "bibcode", "pmid", "pii", "doi", "hdl", "oclcnum", "ofi",
];

/// Parses what follows `info:`.
pub fn parse<'a>(cx: &mut Cx<'a>, rest: &'a str) -> Result<(), ErrorCode> {
    if let Some((scheme, id)) = wrapped(rest) {
        cx.warn(Warning::WrappedIdentifier);
        if scheme.eq_ignore_ascii_case("doi") {
            // `doi:ID`: a `doi:` written in ID too is a label doubled.
            let (labels, id) = label::doi_labels(id);
            cx.d.warnings.add_if(labels > 0, Warning::DoubledLabel);
            return label::labelled(cx, id);
        }
        if scheme.eq_ignore_ascii_case("hdl") || scheme.eq_ignore_ascii_case("handle") {
            return hdl_uri::parse(cx, id);
        }
        if let Some(read) = other::wrapped(cx, scheme, id) {
            return read;
        }
    }
    let (rest, fragment) = chars::split_off(rest, b'#');
    let Some(slash) = chars::find_byte(b'/', rest.as_bytes()) else {
        return Err(if is_namespace(rest) {
            ErrorCode::BadInfoIdentifier
        } else {
            ErrorCode::BadInfoNamespace
        });
    };
    let (ns, ident) = (&rest[..slash], &rest[slash + 1..]);
    if !is_namespace(ns) {
        return Err(ErrorCode::BadInfoNamespace);
    }
    if ident.is_empty() {
        return Err(ErrorCode::BadInfoIdentifier);
    }
    if let Some(f) = fragment {
        cx.check_encoded(&[fragment]);
        cx.d.fragment = cx.span_of(f);
    }
    cx.d.kind = Some(Kind::InfoUri);
    if ns.eq_ignore_ascii_case("hdl") || ns.eq_ignore_ascii_case("doi") {
        let unencoded = percent::has_outside(ident, &percent::INFO_RAW);
        cx.d.warnings.add_if(unencoded, Warning::UnencodedChars);
        let rule = if ns.eq_ignore_ascii_case("doi") {
            Rule::Doi
        } else {
            Rule::Any
        };
        let (p, s) = handle::split_uri_part(ident, &mut cx.d.warnings)?;
        return handle::read(cx, p, s, true, rule);
    }
    let id_span = match other_identifier(ns, ident, cx.buf, &mut cx.d.warnings)? {
        None => cx.span_of(ident),
        Some((a, b)) => Span::Buf(a as u32, b as u32),
    };
    cx.d.namespace = cx.lowercase(ns);
    cx.d.info_id = id_span;
    Ok(())
}

/// SPEC v3 §2 "Wrapped identifiers": what follows `info:` when it is
/// OpenAIRE's `eu-repo/semantics/altIdentifier/SCHEME/ID` (any case),
/// SCHEME one of `doi`, `hdl`, `handle`, `pmid`, `pmc`, `arxiv`, `isbn`,
/// `issn`, `ark`: SCHEME and ID, which `parse` reads as `SCHEME:ID` (the
/// scheme's labelled form). Other `eu-repo` values stay `info:` URIs; the
/// fast path leaves these to `parse` (`other_parts`).
pub fn wrapped(rest: &str) -> Option<(&str, &str)> {
    const HEAD: &str = "eu-repo/semantics/altIdentifier/";
    let after = chars::starts_with_ci(rest, HEAD).then(|| &rest[HEAD.len()..])?;
    let (scheme, id) = after.split_once('/')?;
    const SCHEMES: [&str; 9] = ["doi", "hdl", "handle", "pmid", "pmc", "arxiv", "isbn", "issn", "ark"];
    SCHEMES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
        .then_some((scheme, id))
}

/// The identifier `ident` of another namespace than `doi` and `hdl`
/// (`ns`, any case): normalized per seed 004 §6 c–d, appended to `buf`
/// when that changes it (its range there returned; `None` when it stays as
/// written), then checked (a `pmid` is digits) and flagged (an unknown
/// namespace, an escaped invisible character). Shared by `parse` and the
/// fast path's `rare::read`.
pub fn other_identifier(
    ns: &str,
    ident: &str,
    buf: &mut String,
    ws: &mut Warnings,
) -> Result<Option<(usize, usize)>, ErrorCode> {
    let range = normalize(ident, buf, ws)?;
    let id = range.map_or(ident, |(a, b)| &buf[a..b]);
    if ns.eq_ignore_ascii_case("pmid") && !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ErrorCode::BadInfoIdentifier);
    }
    ws.add_if(!is_known(ns), Warning::UnknownInfoNamespace);
    ws.add_if(dirt::info_has_invisible(id), Warning::InvisibleChar);
    Ok(range)
}

/// What follows `info:` (no `#` in it) in a namespace other than `doi` and
/// `hdl`, split: a lowercase namespace and a non-empty identifier, for the
/// fast path's `rare::read` (`parse` reports what does not fit: a bad
/// namespace or identifier; another case needs a lowercase copy).
pub fn other_parts(rest: &str) -> Option<(&str, &str)> {
    let (ns, ident) = rest.split_at(chars::find_byte(b'/', rest.as_bytes())?);
    let ident = &ident[1..];
    let plain = is_namespace(ns) && !ns.bytes().any(|b| b.is_ascii_uppercase()) && !ident.is_empty();
    (plain && ns != "doi" && ns != "hdl" && wrapped(rest).is_none()).then_some((ns, ident))
}

/// Whether `ns` is one of the namespaces SPEC §2 names (any case).
pub(crate) fn is_known(ns: &str) -> bool {
    KNOWN.iter().any(|k| ns.eq_ignore_ascii_case(k))
}

/// The `scheme` production of seed 004: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
pub fn is_namespace(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphabetic)
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.')
}

/// Seed 004 §6 steps c and d on the identifier: unescape escapes of
/// unreserved characters (RFC 2396's set), uppercase the hex of the others.
/// Characters that should have been escaped are escaped (`unencoded_chars`).
/// Dot segments are never removed.
fn normalize(ident: &str, buf: &mut String, ws: &mut Warnings) -> Result<Option<(usize, usize)>, ErrorCode> {
    let b = ident.as_bytes();
    if b.iter().all(|&c| INFO_IDENTIFIER.contains(c)) {
        return Ok(None);
    }
    let start = buf.len();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let v = percent::escape_at(b, i).ok_or(ErrorCode::BadPercentEscape)?;
            // A control character escaped is one all the same (§1: anywhere),
            // as it is in the parts of `hdl` and `doi`, which are decoded:
            // C0 and DEL, and C1 as UTF-8 (`%C2%80`..`%C2%9F`).
            let c1 = v == 0xC2
                && b.get(i + 3) == Some(&b'%')
                && percent::escape_at(b, i + 3).is_some_and(|n| (0x80..=0x9F).contains(&n));
            if v < 0x20 || v == 0x7F || c1 {
                return Err(ErrorCode::ControlChar);
            }
            // `%25` then two hex digits: an escape escaped again (§3).
            if v == b'%' && percent::escape_at(b, i + 2).is_some() {
                ws.add(Warning::DoubleEncoded);
            }
            if INFO_UNRESERVED.contains(v) {
                buf.push(v as char);
            } else {
                percent::push_escape(v, buf);
            }
            i += 3;
        } else if INFO_IDENTIFIER.contains(c) {
            buf.push(c as char);
            i += 1;
        } else {
            ws.add(Warning::UnencodedChars);
            percent::push_escape(c, buf);
            i += 1;
        }
    }
    Ok(Some((start, buf.len())))
}
