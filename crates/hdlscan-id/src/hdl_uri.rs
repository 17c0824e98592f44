//! `hdl:` URIs (SPEC §2): the path form `hdl:PREFIX/SUFFIX` of seeds 000
//! and 002, and the authority forms `hdl://NA/local` (seed 002: the host
//! names the prefix) and `hdl://SERVER/prefix/suffix` (seed 000: the host is
//! a handle server), with optional `?query` and `#fragment`. Whitespace
//! right after `hdl:` is skipped (`resolver::skipped_space`, which SPEC §6
//! learns of by `resolver::head_space`); which hosts are servers is
//! [`names_server`]'s, which the fast path asks too.

use super::authority::{self, Authority};
use super::chars;
use super::codes::{ErrorCode, Kind, Warning};
use super::handle::{self, Rule};
use super::{Cx, Span, resolver};

/// Parses what follows `hdl:`.
pub fn parse<'a>(cx: &mut Cx<'a>, rest: &'a str) -> Result<(), ErrorCode> {
    // `hdl: 1234/5`: the whitespace is skipped; a URI holds none (SPEC §2).
    let space = resolver::skipped_space(rest);
    cx.d.warnings.add_if(space > 0, Warning::UnencodedChars);
    let rest = &rest[space..];
    let (rest, fragment) = chars::split_off(rest, b'#');
    let (rest, query) = chars::split_off(rest, b'?');
    // The authority (an IP literal's brackets) is checked by its own grammar.
    let path = rest
        .strip_prefix("//")
        .map_or(rest, |a| a.find('/').map_or("", |i| &a[i..]));
    cx.check_encoded(&[Some(path), query, fragment]);
    match rest.strip_prefix("//") {
        Some(auth_rest) => authority_form(cx, auth_rest)?,
        None if rest.is_empty() => return Err(ErrorCode::BadUri),
        None => {
            let (p, s) = handle::split_uri_part(rest, &mut cx.d.warnings)?;
            handle::read(cx, p, s, true, Rule::Any)?;
        }
    }
    cx.d.kind = Some(Kind::HdlUri);
    cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
    cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
    Ok(())
}

/// SPEC §2 "hdl: URIs": HOST of `hdl://HOST/PATH` is a handle server when
/// it is an IPv4 dotted quad, a bracketed IP literal, carries a port, or is
/// a DNS name with a letter while PATH holds a `/` (or `%2F`); otherwise
/// HOST is the prefix and PATH the suffix. `rare::hdl_host` asks it too.
pub fn names_server(a: &Authority<'_>, path: Option<&str>) -> bool {
    a.bracketed
        || a.port.is_some()
        || authority::is_ipv4(a.host)
        || (authority::is_dns_name_with_letter(a.host) && path.is_some_and(handle::has_separator))
}

/// `hdl://HOST/PATH`, HOST read by `names_server`.
fn authority_form<'a>(cx: &mut Cx<'a>, s: &'a str) -> Result<(), ErrorCode> {
    let (auth, path) = match chars::find_byte(b'/', s.as_bytes()) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let a = authority::parse(auth)?;
    if !names_server(&a, path) {
        // The host is the prefix: what it holds raw counts as the path's.
        cx.check_encoded(&[Some(a.host)]);
        let path = path.ok_or(ErrorCode::NoSlash)?;
        return handle::read(cx, a.host, path, true, Rule::Any);
    }
    let (p, suffix) = handle::split_uri_part(path.unwrap_or(""), &mut cx.d.warnings)?;
    // A DNS name with a letter could also be a prefix (`hdl://CNRI.TEST/a/b`):
    // read as a server, but say so when the path does not look like a handle
    // with an assigned (numeric) prefix.
    let dns = authority::is_dns_name_with_letter(a.host);
    let ambiguous = dns && a.port.is_none() && !handle::first_segment_numeric(p);
    cx.d.warnings.add_if(ambiguous, Warning::AmbiguousHdlHost);
    handle::read(cx, p, suffix, true, Rule::Any)?;
    // `host:`, an empty port, is no port (RFC 3986 §6.2.3), as in URLs.
    cx.d.resolver = cx.lowercase(if a.port.is_some() { auth } else { a.host });
    Ok(())
}
