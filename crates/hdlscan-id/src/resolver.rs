//! HTTP(S) resolver URLs (SPEC §2 "Resolver URLs", seed 002): the global
//! resolvers, DataCite's test resolvers, their `/api/handles/` REST path,
//! the `/hdl/` and `/handle/` paths of any host, and hosts the user adds.

use super::authority;
use super::chars::{self, starts_with_ci};
use super::codes::{ErrorCode, Kind, Warning};
use super::handle::{self, Rule};
use super::hdl_uri::split_off;
use super::{Cx, Options, Span, UserResolver, percent};

/// The global resolvers: host, and the warning it carries.
pub(super) const GLOBAL: [(&str, Option<Warning>); 6] = [
    ("hdl.handle.net", None),
    ("doi.org", None),
    ("dx.doi.org", Some(Warning::LegacyResolver)),
    ("www.doi.org", Some(Warning::LegacyResolver)),
    ("handle.stage.datacite.org", Some(Warning::TestResolver)),
    ("handle.test.datacite.org", Some(Warning::TestResolver)),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
    /// `doi.org/10.1/x`: no scheme written (`missing_url_scheme`).
    Missing,
}

/// A value that is a URL: its scheme and what follows `scheme://`.
#[derive(Debug, Clone, Copy)]
pub struct UrlStart<'a> {
    scheme: Scheme,
    rest: &'a str,
}

impl<'a> UrlStart<'a> {
    /// Recognizes `http://…`, `https://…`, and a scheme-less URL whose host
    /// is a known or user resolver, or any DNS name followed by `/hdl/` or
    /// `/handle/`.
    pub fn detect(t: &'a str, opts: &Options) -> Option<UrlStart<'a>> {
        if starts_with_ci(t, "https://") {
            return Some(UrlStart {
                scheme: Scheme::Https,
                rest: &t[8..],
            });
        }
        if starts_with_ci(t, "http://") {
            return Some(UrlStart {
                scheme: Scheme::Http,
                rest: &t[7..],
            });
        }
        let slash = chars::find_byte(b'/', t.as_bytes())?;
        let (auth, path) = (&t[..slash], &t[slash..]);
        let host = authority::parse(auth).ok()?.host;
        let known = GLOBAL.iter().any(|(h, _)| host.eq_ignore_ascii_case(h))
            || opts
                .resolvers
                .iter()
                .any(|r| r.host.eq_ignore_ascii_case(auth) || r.host.eq_ignore_ascii_case(host));
        let local = host.contains('.')
            && authority::is_dns_name_with_letter(host)
            && (path.starts_with("/hdl/") || path.starts_with("/handle/"));
        (known || local).then_some(UrlStart {
            scheme: Scheme::Missing,
            rest: t,
        })
    }
}

/// Parses a resolver URL.
pub fn parse<'a>(cx: &mut Cx<'a>, url: UrlStart<'a>) -> Result<(), ErrorCode> {
    let (rest, fragment) = split_off(url.rest, b'#');
    let (rest, query) = split_off(rest, b'?');
    let (auth, path) = match chars::find_byte(b'/', rest.as_bytes()) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let a = authority::parse(auth).map_err(|_| ErrorCode::NotAResolverUrl)?;
    // Default ports drop (§2).
    let port = match (url.scheme, a.port) {
        (Scheme::Http | Scheme::Missing, Some("80")) | (Scheme::Https | Scheme::Missing, Some("443")) => None,
        (_, p) => p,
    };
    let host_and_port = match port {
        Some(_) => auth,
        None => a.host,
    };
    let resolver = cx.lowercase(host_and_port);
    let host_lc = &cx.text(resolver)[..a.host.len()];

    let user = cx.opts.resolvers.iter().find(|r| {
        r.host == cx.text(resolver) && path.starts_with(r.path.as_str()) && path[r.path.len()..].starts_with('/')
    });
    let (handle_part, rule) = if let Some(r) = user {
        let part = &path[r.path.len() + 1..];
        // A host added without a path still serves `/handle/` and `/hdl/`
        // as any host does: adding it must not turn DSpace's
        // `/handle/1721.1/5` into the handle `handle/1721.1/5`.
        let local = ["handle/", "hdl/"].iter().find_map(|p| part.strip_prefix(p));
        let part = match local {
            Some(rest) if r.path.is_empty() && handle::has_separator(rest) => rest,
            _ => part,
        };
        (part, Rule::Any)
    } else if let Some((_, w)) = GLOBAL.iter().find(|(h, _)| *h == host_lc) {
        if let Some(w) = w {
            cx.warn(*w);
        }
        let p = path.strip_prefix('/').unwrap_or(path);
        match p.strip_prefix("api/handles/") {
            Some(api) => {
                cx.warn(Warning::ApiUrl);
                (api, Rule::Any)
            }
            None => (p, Rule::Any),
        }
    } else if let Some(p) = path.strip_prefix("/hdl/").or_else(|| path.strip_prefix("/handle/")) {
        cx.warn(Warning::LocalResolver);
        (p, Rule::Numeric)
    } else {
        return Err(ErrorCode::NotAResolverUrl);
    };

    match url.scheme {
        Scheme::Http => cx.warn(Warning::HttpResolver),
        Scheme::Missing => cx.warn(Warning::MissingUrlScheme),
        Scheme::Https => {}
    }
    let mut handle_part = handle_part;
    // A `doi:` label inside the path, written raw or escaped.
    loop {
        let n = if starts_with_ci(handle_part, "doi:") {
            4
        } else if starts_with_ci(handle_part, "doi%3a") {
            6
        } else {
            break;
        };
        cx.warn(Warning::DoubledLabel);
        handle_part = &handle_part[n..];
    }
    cx.check_encoded(&[Some(handle_part), query, fragment]);
    let (p, s) = handle::split_uri_part(handle_part, &mut cx.d.warnings)?;
    handle::read(cx, p, s, true, rule)?;
    cx.d.kind = Some(Kind::ResolverUrl);
    cx.d.resolver = resolver;
    cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
    cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
    Ok(())
}

/// A resolver the user adds (`--resolver HOST[:PORT][/PATH]`, an
/// `http(s)://` in front accepted and ignored). HOST is a host name, an
/// IPv4 address or a bracketed IP literal, PORT 1 to 65535; PATH holds only
/// characters a URL path may hold unescaped. Anything else is refused: a
/// resolver that no URL can name would make the run quietly match nothing.
pub fn user_resolver(spec: &str) -> Result<UserResolver, String> {
    let refuse = |why: &str| {
        Err(format!(
            "--resolver {spec:?}: {why}; expected HOST[:PORT][/PATH], e.g. repository.example.edu/handle"
        ))
    };
    let s = spec.trim();
    let s = ["https://", "http://"]
        .iter()
        .find(|p| starts_with_ci(s, p))
        .map_or(s, |p| &s[p.len()..]);
    let (auth, path) = match s.find('/') {
        Some(i) => (&s[..i], s[i..].trim_end_matches('/')),
        None => (s, ""),
    };
    let Ok(a) = authority::parse(auth) else {
        return refuse("not a host with an optional :PORT");
    };
    let name = |h: &str| {
        h.split('.')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
    };
    if !(a.bracketed || authority::is_ipv4(a.host) || name(a.host)) {
        return refuse("not a host name or IP address");
    }
    if let Some(p) = a.port
        && !p.parse::<u16>().is_ok_and(|p| p > 0)
    {
        return refuse("the port must be 1 to 65535");
    }
    if !path.bytes().all(|b| b != b'?' && percent::URI_RAW.contains(b)) {
        return refuse("the path holds a character a URL must escape");
    }
    let host = match a.port {
        Some(port) => format!("{}:{port}", a.host),
        None => a.host.to_string(),
    };
    Ok(UserResolver {
        host: host.to_ascii_lowercase(),
        path: path.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolvers_the_user_adds() {
        let added = user_resolver;
        let r = |host: &str, path: &str| UserResolver {
            host: host.into(),
            path: path.into(),
        };
        assert_eq!(added("Repo.Example.EDU/handle/"), Ok(r("repo.example.edu", "/handle")));
        assert_eq!(added("https://h_1.example:8080"), Ok(r("h_1.example:8080", "")));
        assert_eq!(added("190.12.34.56/x"), Ok(r("190.12.34.56", "/x")));
        assert_eq!(added("[2001:DB8::1]:2641"), Ok(r("[2001:db8::1]:2641", "")));
        // An empty port is the scheme's, as in a URL.
        assert_eq!(added("host:"), Ok(r("host", "")));
        for bad in [
            "",
            "/handle",
            "a b",
            ".",
            "a..b",
            "h:80:80/x",
            ":80",
            "a:b:c",
            "[",
            "[::1",
            "[zz]",
            "h:65536",
            "h:0",
            "h:x",
            "u@h",
            "h/a b",
            "h/x?y",
            "h/x#y",
        ] {
            let e = added(bad).unwrap_err();
            assert!(e.starts_with(&format!("--resolver {bad:?}: ")), "{bad:?}: {e}");
        }
    }
}
