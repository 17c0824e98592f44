//! The authority of `hdl://` URIs and resolver URLs (SPEC §2, RFC 3986 §3.2):
//! `host[:port]`, where host is a registered name, an IPv4 dotted quad or a
//! bracketed IP literal.

use super::codes::ErrorCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Authority<'a> {
    /// As written; brackets kept for IP literals.
    pub host: &'a str,
    pub port: Option<&'a str>,
    pub bracketed: bool,
}

/// Parses `host[:port]`; `bad_uri` for an empty host, a malformed literal,
/// a non-numeric or empty port, or userinfo.
pub fn parse(auth: &str) -> Result<Authority<'_>, ErrorCode> {
    if auth.is_empty() || auth.contains('@') {
        return Err(ErrorCode::BadUri);
    }
    let (host, port, bracketed) = if auth.starts_with('[') {
        let close = auth.find(']').ok_or(ErrorCode::BadUri)?;
        if !is_ip_literal(&auth[1..close]) {
            return Err(ErrorCode::BadUri);
        }
        let port = match &auth[close + 1..] {
            "" => None,
            rest => Some(rest.strip_prefix(':').ok_or(ErrorCode::BadUri)?),
        };
        (&auth[..=close], port, true)
    } else {
        match auth.rfind(':') {
            Some(i) => (&auth[..i], Some(&auth[i + 1..]), false),
            None => (auth, None, false),
        }
    };
    if host.is_empty() {
        return Err(ErrorCode::BadUri);
    }
    // `port = *DIGIT`: an empty one is the scheme's default (§6.2.3), as if
    // not written.
    let port = port.filter(|p| !p.is_empty());
    if let Some(p) = port
        && (p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(ErrorCode::BadUri);
    }
    Ok(Authority { host, port, bracketed })
}

/// What may stand between the brackets (RFC 3986 §3.2.2 `IP-literal`): an
/// IPv6 address, or `IPvFuture` (`v` 1*HEXDIG `.` 1*(unreserved /
/// sub-delims / `:`)).
fn is_ip_literal(lit: &str) -> bool {
    if let Some(future) = lit.strip_prefix(['v', 'V']) {
        let Some((version, rest)) = future.split_once('.') else {
            return false;
        };
        return !version.is_empty()
            && version.bytes().all(|b| b.is_ascii_hexdigit())
            && !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:".contains(&b));
    }
    lit.parse::<std::net::Ipv6Addr>().is_ok()
}

/// Four decimal octets, each 0–255.
pub fn is_ipv4(host: &str) -> bool {
    let octet = |seg: &str| seg.len() <= 3 && seg.bytes().all(|b| b.is_ascii_digit()) && seg.parse::<u8>().is_ok();
    let mut segs = host.split('.');
    (0..4).all(|_| segs.next().is_some_and(octet)) && segs.next().is_none()
}

/// A DNS name with a letter in it: labels of letters, digits and `-`.
pub fn is_dns_name_with_letter(host: &str) -> bool {
    !host.is_empty()
        && host.bytes().any(|b| b.is_ascii_alphabetic())
        && host
            .split('.')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorities() {
        assert_eq!(
            parse("a.b:2641"),
            Ok(Authority {
                host: "a.b",
                port: Some("2641"),
                bracketed: false
            })
        );
        assert_eq!(parse("[2001:db8::1]:2641").unwrap().host, "[2001:db8::1]");
        assert_eq!(parse("[2001:db8::1]").unwrap().port, None);
        assert_eq!(parse(""), Err(ErrorCode::BadUri));
        assert_eq!(parse("a:").unwrap().port, None);
        assert_eq!(parse("[::1]:").unwrap().port, None);
        assert_eq!(parse("[v1.x]").unwrap().host, "[v1.x]");
        assert_eq!(parse("[v1.]"), Err(ErrorCode::BadUri));
        assert_eq!(parse("[1:2:3:4:5:6:7:8:9]"), Err(ErrorCode::BadUri));
        assert_eq!(parse("[::ffff:1.2.3.4]").unwrap().host, "[::ffff:1.2.3.4]");
        assert_eq!(parse("[fe80::1%25eth0]"), Err(ErrorCode::BadUri));
        assert_eq!(parse("a:x"), Err(ErrorCode::BadUri));
        assert_eq!(parse("[zz]"), Err(ErrorCode::BadUri));
        assert_eq!(parse("u@h"), Err(ErrorCode::BadUri));
        assert!(is_ipv4("190.12.34.56"));
        assert!(!is_ipv4("100.102"));
        assert!(!is_ipv4("1.2.3.256"));
        assert!(is_dns_name_with_letter("CNRI.TEST"));
        assert!(!is_dns_name_with_letter("100.102"));
    }
}
