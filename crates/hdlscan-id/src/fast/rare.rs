//! The forms the fast path (`fast.rs`) leaves that are still common
//! enough to cost (SPEC §2: other `info:` namespaces, `hdl://` hosts,
//! ports, `%2F` in bare values, escaped URLs; §6: `multiple_values` and
//! `extra_text` without a line break; §8: labelled values and the
//! schemes' resolver URLs):
//! read out of line once `fast::parse` gave up, before
//! the full parser. Each of these values is rare, so its code is cold when
//! one comes, and the full parser's general steps (authority, ports,
//! labels, users' hosts) mispredict and miss the cache all the way
//! through. Read here by the fast path's pieces and SPEC's own functions
//! (`handle::check`, `dirt::flag`, `info_uri::other_identifier`,
//! `authority::parse`, `whole::before_forms`), they cost a fraction of
//! that. Errors are answered where the full parser raises them at the
//! same step with the same warnings; anything not plainly one of these
//! forms is the full parser's. The `agree` tests in `fast/tests.rs` and
//! the fuzz target check every answer against it.

use super::super::codes::{ErrorCode, Kind, Warning, Warnings};
use super::super::handle::{self, Rule};
use super::super::resolver::{self, Route, Scheme};
use super::super::whole::{Before, Found};
use super::super::{
    Options, Parsed, Scratch, authority, chars, decode_part, dirt, hdl_uri, info_uri, label, other, pieces, whole,
};
use super::classes::{AMP, Classes, GIVE_UP, NON_ASCII, PCT, QUERY, SPACE, UNENCODED};
use super::{HTTP, HTTPS, Head, Scan, Seen, Text, handle_parsed, handle_split, known_host, scheme_warning, url_parts};

/// Reads a value, as `fast::see` saw it, if it is one of the forms below;
/// `scratch` back otherwise, for the full parser. ASCII values without `?`
/// or `#` only (the fast path reads the others it can), without a host
/// the user added (any could be theirs).
#[cold]
#[inline(never)]
pub fn read<'a>(seen: &Seen<'a>, opts: &Options, scratch: &'a mut Scratch) -> Result<Parsed<'a>, &'a mut Scratch> {
    let Seen { t, trimmed, classes } = *seen;
    // A query or a fragment (`?`, `#`) is split off first: the full
    // parser's, as are values holding non-ASCII.
    if !opts.resolvers().is_empty() || t.is_empty() || classes.acc & (GIVE_UP | NON_ASCII | QUERY) != 0 {
        return Err(scratch);
    }
    // SAFETY: no byte of `t` is NON_ASCII.
    let t = unsafe { Text::ascii_unchecked(t) };
    // `pieces::has_http_scheme`, one compare of the first word.
    let head = Head::of(t.bytes());
    let https = head.starts(&HTTPS);
    let http = https || head.starts(&HTTP);
    // An `http(s)` URL ending in a PubMed tag is read as tagged (SPEC §8),
    // by the full parser.
    if t.bytes().last() == Some(&b']') && http {
        return Err(scratch);
    }
    let mut ws = trimmed;
    // A §8 label, read once by the few steps below that ask (most values
    // these forms take reach none of them).
    let lab = std::cell::OnceCell::new();
    let lab = || *lab.get_or_init(|| other::label(t.s));
    // A value of SPEC §8 whose groups are joined by spaces is one value.
    // ASCII without control characters or `\` holds whitespace exactly when
    // it holds a space (`SPACE`).
    let raw_space = classes.acc & SPACE != 0 && pieces::space_after_head(t.s, opts) && !other::spaced_shape(t.s, lab());
    let several = || raw_space || (classes.may_separate(t.bytes()) && classes.may_be_several(t.bytes()));
    // Classes without `GIVE_UP`: no control character.
    match whole::before_forms(t.s, Found::default(), several) {
        // Its whole-value repair is the full parser's.
        Before::Error(ErrorCode::FormulaText) => return Err(scratch),
        Before::Error(e) => return Ok(Parsed::invalid(e, ws)),
        // SPEC §8's values, one value by §6: read here as the full
        // parser reads them (`other::parse`). A URL's are its host's
        // (`url_parts`), and pieces of §8 in a value §6 looks at are
        // `whole::several`'s.
        Before::Forms if !http && (lab().is_some() || other::may_be(t.bytes())) => {
            return other::read_one(t.s, lab(), ws, scratch);
        }
        // Without a line break (line breaks, and the `\` of one written
        // as text, are `GIVE_UP`): `multiple_values` or `extra_text`, as
        // `whole::check` finds them, unless a repair must read a piece;
        // anything else is the full parser's. A value of §8's spaced
        // shapes is one value to the full parser, whatever it holds.
        Before::Several if !opts.repair && (raw_space || !other::spaced_shape(t.s, lab())) => {
            return match whole::several(t.s, opts, raw_space) {
                Some(e) => Ok(Parsed::invalid(e, ws)),
                None => Err(scratch),
            };
        }
        Before::Several => return Err(scratch),
        Before::Forms => {}
    }
    let mut scratch = scratch;
    if classes.acc & PCT != 0 {
        // A URL on a known host, or nothing `%` could change below.
        scratch = match escaped_url(t, &classes, ws, scratch) {
            Ok(p) => return Ok(p),
            Err(scratch) => scratch,
        };
    }
    if chars::starts_with_ci(t.s, "info:") {
        return other_info(t, ws, scratch);
    }
    // Below, `%` would be decoded (URIs, URLs) or is taken literally
    // (`no_slash`'s values, but a `%2F` it leaves to the full parser).
    let plain = classes.acc & PCT == 0;
    if plain && http {
        let Some(p) = url_with_port(t, &classes, https, ws, &mut scratch.repair) else {
            return other_url(t, &classes, https, ws, scratch);
        };
        return Ok(p);
    }
    let parsed = if plain && chars::starts_with_ci(t.s, "hdl://") {
        hdl_host(t, &classes, ws, &mut scratch.repair)
    } else if classes.slash(t.bytes(), 0, t.len()).is_none() {
        match no_slash(t.s) {
            Some((e, w)) => {
                ws.add_some(w);
                Some(Parsed::invalid(e, ws))
            }
            None if classes.acc & PCT != 0 => return encoded_bare(t, &classes, ws, scratch),
            None => None,
        }
    } else {
        None
    };
    parsed.ok_or(scratch)
}

/// `info:` in a namespace other than `doi` and `hdl` (`info:pmid/…`,
/// `info:sici/…<>…`), lowercase, without a fragment: the identifier
/// normalized as `info_uri::parse` does it (seed 004 §6), into `scratch`
/// when that changes it.
fn other_info<'a>(t: Text<'a>, mut ws: Warnings, scratch: &'a mut Scratch) -> Result<Parsed<'a>, &'a mut Scratch> {
    let Some((namespace, ident)) = info_uri::other_parts(t.cut(5, t.len())) else {
        return Err(scratch);
    };
    let range = match info_uri::other_identifier(namespace, ident, &mut scratch.buf, &mut ws) {
        Ok(range) => range,
        Err(e) => return Ok(Parsed::invalid(e, ws)),
    };
    let buf: &'a str = &scratch.buf;
    Ok(Parsed {
        kind: Kind::InfoUri,
        error: None,
        namespace: Some(namespace),
        info_identifier: Some(range.map_or(ident, |(a, b)| &buf[a..b])),
        ..Parsed::invalid(ErrorCode::Empty, ws)
    })
}

/// `hdl://HOST/…` where the host is plain (lowercase letters, digits, `.`,
/// `-`, a port), read as a server or as the prefix by SPEC §2's host rule
/// (`hdl_uri::names_server`): a server with a port or an IPv4 address
/// (`hdl://hs.example.org:2641/20.500.1/x`, `hdl://32.49.208.92/1959.4/5`),
/// or a prefix of digits and dots (`hdl://20.500.11850/593138`). A DNS
/// name without a port (a server that may be a prefix,
/// `ambiguous_hdl_host`) is the full parser's.
fn hdl_host<'a>(t: Text<'a>, classes: &Classes, mut ws: Warnings, repair: &mut dirt::RepairBufs) -> Option<Parsed<'a>> {
    const AT: usize = "hdl://".len();
    let sep = classes.slash(t.bytes(), AT, t.len())?;
    let auth = t.cut(AT, sep);
    if !plain_authority(auth) {
        return None;
    }
    let a = authority::parse(auth).ok()?;
    // No `?` or `#`, a plain host: the value's classes are the path's.
    ws.add_if(classes.acc & UNENCODED != 0, Warning::UnencodedChars);
    let server = hdl_uri::names_server(&a, Some(t.cut(sep + 1, t.len())));
    if server && a.port.is_none() && authority::is_dns_name_with_letter(a.host) {
        return None;
    }
    if server {
        let slash = classes.slash(t.bytes(), sep + 1, t.len())?;
        let resolver = if a.port.is_some() { auth } else { a.host };
        let parsed = handle_split(
            t,
            classes,
            classes.acc,
            sep + 1,
            slash,
            t.len(),
            Rule::Any,
            Kind::HdlUri,
            ws,
            repair,
        )?;
        return Some(Parsed {
            resolver: Some(resolver),
            ..parsed
        });
    }
    let numeric = a.host == auth && auth.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !numeric {
        return None;
    }
    handle_split(
        t,
        classes,
        classes.acc,
        AT,
        sep,
        t.len(),
        Rule::Any,
        Kind::HdlUri,
        ws,
        repair,
    )
}

/// A resolver URL on another host with a port, or a default port written
/// (`http://arrow.resolver.example.gov:2641/hdl/20.500.11820/…`), and a
/// `/hdl/` or `/handle/` path or a UI path before `/handle/`
/// (`resolver::route`'s `Route::Local`, not a file URL); the fast path
/// takes hosts without a port.
fn url_with_port<'a>(
    t: Text<'a>,
    classes: &Classes,
    https: bool,
    mut ws: Warnings,
    repair: &mut dirt::RepairBufs,
) -> Option<Parsed<'a>> {
    let at = if https { HTTPS.len } else { HTTP.len };
    let sep = classes.slash(t.bytes(), at, t.len())?;
    let auth = t.cut(at, sep);
    if !plain_authority(auth) || !auth.contains(':') {
        return None;
    }
    let a = authority::parse(auth).ok()?;
    let scheme = if https { Scheme::Https } else { Scheme::Http };
    let resolver = match scheme.kept_port(a.port) {
        Some(_) => auth,
        None => a.host,
    };
    // Global hosts are the fast path's or the full parser's.
    let path = t.cut(sep, t.len());
    let Route::Local { part: handle, file } = resolver::route(a.host, path) else {
        return None;
    };
    if file {
        return None;
    }
    // Whitespace or a `doi:` label before the handle: the full parser's.
    if resolver::part_head(handle).at != 0 {
        return None;
    }
    let from = t.len() - handle.len();
    let slash = classes.slash(t.bytes(), from, t.len())?;
    ws.add(Warning::LocalResolver);
    ws.add_some(scheme_warning(Some(https)));
    // No `?` or `#`, a plain host: the value's classes are the path's.
    ws.add_if(classes.acc & UNENCODED != 0, Warning::UnencodedChars);
    let parsed = handle_split(
        t,
        classes,
        classes.acc,
        from,
        slash,
        t.len(),
        Rule::Numeric,
        Kind::ResolverUrl,
        ws,
        repair,
    )?;
    Some(Parsed {
        resolver: Some(resolver),
        ..parsed
    })
}

/// A URL of SPEC §8's resolvers (`https://orcid.org/…`, PubMed's,
/// arXiv's, any host's `/ark:` path), on a plain host without a port, no
/// handle resolver's form and no landing page holding a DOI: read by
/// `other::url::reading` as `resolver::parse` reads it, with its scheme's
/// warning.
fn other_url<'a>(
    t: Text<'a>,
    classes: &Classes,
    https: bool,
    mut ws: Warnings,
    scratch: &'a mut Scratch,
) -> Result<Parsed<'a>, &'a mut Scratch> {
    let at = if https { HTTPS.len } else { HTTP.len };
    let Some(sep) = classes.slash(t.bytes(), at, t.len()) else {
        return Err(scratch);
    };
    let (host, path) = (t.cut(at, sep), t.cut(sep, t.len()));
    if !other::url::claims(host, path)
        || !plain_authority(host)
        || host.contains(':')
        || resolver::route(host, path) != Route::None
        || resolver::publisher_doi(path).is_some()
    {
        return Err(scratch);
    }
    let Some(reading) = other::url::reading(host, path, &mut ws) else {
        return Err(scratch);
    };
    ws.add_some(scheme_warning(Some(https)));
    let p = other::parsed(reading, ws, &mut scratch.buf);
    Ok(match p.error {
        None => Parsed {
            kind: Kind::ResolverUrl,
            resolver: Some(host),
            ..p
        },
        Some(_) => p,
    })
}

/// An authority of lowercase letters, digits, `.`, `-` and `:`: nothing
/// to lowercase for `resolver`, nothing `unencoded_chars` looks at.
fn plain_authority(auth: &str) -> bool {
    auth.bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b':'))
}

/// The error of a value without `/` that no form below claims (SPEC §2's
/// order), with the warning its labels raise: after `doi` labels, `empty`
/// or `no_slash`, `doubled_label` for two or more; else
/// `unsupported_scheme` for another URI scheme (`urn:isbn:…`, `PMID: 1`),
/// `bad_uri` for `http:` or `https:` without `//`, else `no_slash`
/// (`ISBN 978-…`). `None` where a form could still read it or raise
/// another error: `hdl:`, `info:`, `urn:doi:` (whose `:` may split), and
/// a bare or labelled value that `handle::split_bare_encoded` splits at a
/// `%2F` (`doi:10.48550%2FarXiv…`), whose suffix is decoded.
fn no_slash(t: &str) -> Option<(ErrorCode, Option<Warning>)> {
    if ["hdl:", "info:", "urn:doi:"]
        .iter()
        .any(|h| chars::starts_with_ci(t, h))
    {
        return None;
    }
    // The split is the full parser's; the throwaway warnings its own.
    let splits = |t: &str, rule| handle::split_bare_encoded(t, rule, &mut Warnings::default()).is_ok();
    let (labels, rest) = label::doi_labels(t);
    if labels > 0 {
        // What follows the labels holds no `/`, so no URL (`labelled`).
        let e = if rest.is_empty() {
            ErrorCode::Empty
        } else if splits(rest, Rule::Doi) {
            return None;
        } else {
            ErrorCode::NoSlash
        };
        return Some((e, (labels > 1).then_some(Warning::DoubledLabel)));
    }
    let e = match label::scheme_of(t) {
        Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => ErrorCode::BadUri,
        Some(_) => ErrorCode::UnsupportedScheme,
        None if splits(t, Rule::Numeric) => return None,
        None => ErrorCode::NoSlash,
    };
    Some((e, None))
}

/// A bare or `doi:`-labelled value copied out of a URL, whose separator
/// is a `%2F` (`10.1007%2FBF01451751`, SPEC §2): split by the full
/// parser's `handle::split_bare_encoded`, the suffix decoded by its
/// `decode_part`, checked and flagged as `handle::read` does.
fn encoded_bare<'a>(
    t: Text<'a>,
    classes: &Classes,
    mut ws: Warnings,
    scratch: &'a mut Scratch,
) -> Result<Parsed<'a>, &'a mut Scratch> {
    let (labels, rest) = label::doi_labels(t.s);
    let rule = if labels > 0 { Rule::Doi } else { Rule::Numeric };
    ws.add_if(labels > 1, Warning::DoubledLabel);
    let Ok((prefix, suffix_raw)) = handle::split_bare_encoded(rest, rule, &mut ws) else {
        return Err(scratch);
    };
    if prefix.is_empty() || suffix_raw.is_empty() {
        return Err(scratch);
    }
    let Ok(decoded) = decode_part(suffix_raw, &mut scratch.bytes, &mut scratch.buf) else {
        return Err(scratch);
    };
    let buf: &'a str = &scratch.buf;
    let suffix = decoded.map_or(suffix_raw, |(a, b)| &buf[a..b]);
    let is_doi = match check_decoded(prefix, suffix, rule, classes, &mut ws, &mut scratch.repair) {
        Ok(is_doi) => is_doi,
        Err(e) => return Ok(Parsed::invalid(e, ws)),
    };
    let kind = if is_doi { Kind::Doi } else { Kind::Handle };
    Ok(handle_parsed(kind, prefix, suffix, is_doi, ws))
}

/// A handle whose parts were percent-decoded, checked and flagged as
/// `handle::read` does it with `decode` (the value's classes stand for
/// the full parser's scan of it).
fn check_decoded(
    prefix: &str,
    suffix: &str,
    rule: Rule,
    classes: &Classes,
    ws: &mut Warnings,
    repair: &mut dirt::RepairBufs,
) -> Result<bool, ErrorCode> {
    let is_doi = handle::check(prefix, suffix, rule, ws)?;
    let value = Scan {
        percent: true,
        amp: classes.acc & AMP != 0,
        space: classes.acc & SPACE != 0,
        ..Scan::default()
    };
    dirt::flag(prefix, suffix, is_doi, true, value, ws, repair);
    Ok(is_doi)
}

/// A resolver URL on a host `known_host` knows (`https://`, `http://` or
/// no scheme), or on any host `url_parts` routes (with a scheme), whose
/// handle holds percent escapes (SICI DOIs' `%3C…%3E`,
/// an encoded separator): the parts decoded into `scratch` by the full
/// parser's `decode_part` (SPEC §2 "Splitting URIs and URLs"), checked and
/// flagged by the same code, without the full parser's general steps
/// (authority, ports, labels, users' hosts).
fn escaped_url<'a>(
    t: Text<'a>,
    classes: &Classes,
    mut ws: Warnings,
    scratch: &'a mut Scratch,
) -> Result<Parsed<'a>, &'a mut Scratch> {
    let head = Head::of(t.bytes());
    let scheme = if head.starts(&HTTPS) {
        Some(true)
    } else if head.starts(&HTTP) {
        Some(false)
    } else {
        None
    };
    let at = match scheme {
        Some(true) => HTTPS.len,
        Some(false) => HTTP.len,
        None => 0,
    };
    // Where the handle starts, the host's name and the prefix rule: the
    // commonest hosts by `known_host`; with a scheme, any other host
    // `url_parts` routes (`www.doi.org`, hosts in upper case, another
    // host's `/handle/` path), whose routing reads the path as written,
    // as `resolver::parse` does.
    let (from, host, rule) = match known_host(t.bytes(), at) {
        Some((from, host, host_ws)) => {
            ws.add_some(scheme_warning(scheme));
            ws.add_some(host_ws);
            (from, host, Rule::Any)
        }
        None if scheme.is_some() => match url_parts(t, classes, at, t.len() - at, scheme, None) {
            Some(Ok((host, handle))) => {
                ws |= host.warnings;
                (t.len() - handle.len(), host.name, host.rule)
            }
            _ => return Err(scratch),
        },
        None => return Err(scratch),
    };
    // No `?` or `#`: the value's classes are the handle's.
    ws.add_if(classes.acc & UNENCODED != 0, Warning::UnencodedChars);
    // The errors below are the full parser's, raised at the same step with
    // the same warnings (`resolver::parse`, `handle::read`); a part that
    // does not decode is left to it.
    let (prefix_raw, suffix_raw) = match handle::split_uri_part(t.cut(from, t.len()), &mut ws) {
        Ok(parts) => parts,
        Err(e) => return Ok(Parsed::invalid(e, ws)),
    };
    for (raw, e) in [
        (prefix_raw, ErrorCode::EmptyPrefix),
        (suffix_raw, ErrorCode::EmptySuffix),
    ] {
        if raw.is_empty() {
            return Ok(Parsed::invalid(e, ws));
        }
    }
    let (Ok(p), Ok(s)) = (
        decode_part(prefix_raw, &mut scratch.bytes, &mut scratch.buf),
        decode_part(suffix_raw, &mut scratch.bytes, &mut scratch.buf),
    ) else {
        return Err(scratch);
    };
    // A part as written, or its range in `buf` once decoded.
    let text = |part: Option<(usize, usize)>, raw: &'a str, buf: &'a str| part.map_or(raw, |(a, b)| &buf[a..b]);
    let (prefix, suffix) = (text(p, prefix_raw, &scratch.buf), text(s, suffix_raw, &scratch.buf));
    let is_doi = match check_decoded(prefix, suffix, rule, classes, &mut ws, &mut scratch.repair) {
        Ok(is_doi) => is_doi,
        Err(e) => return Ok(Parsed::invalid(e, ws)),
    };
    let buf: &'a str = &scratch.buf;
    Ok(Parsed {
        resolver: Some(host),
        ..handle_parsed(
            Kind::ResolverUrl,
            text(p, prefix_raw, buf),
            text(s, suffix_raw, buf),
            is_doi,
            ws,
        )
    })
}
