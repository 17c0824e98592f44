//! HTTP(S) resolver URLs (SPEC §2 "Resolver URLs", seed 002): the global
//! resolvers, DataCite's test resolvers, their `/api/handles/` REST path,
//! the `/hdl/` and `/handle/` paths of any host with DSpace's UI and file
//! paths (older DSpace's `/bitstream/PREFIX/SUFFIX/SEQ/FILE` too), local
//! handle proxies (`hdl.…`, `handle.…` hosts), hosts the user adds, the
//! DOI proxy's own paths (shortDOIs, `urn:doi:`), a resolver URL written
//! inside another, `doi:` and `hdl:` labels and whitespace before the
//! handle; URLs written without their scheme on any host, and misspelt
//! schemes (SPEC v3 §2 "URLs written without their scheme, or with a
//! broken one"); then SPEC §6 `publisher_url` (a DOI in the path or a
//! `doi=` parameter), the last URL form checked before
//! `not_a_resolver_url`.
//!
//! Each rule is decided here once. The fast path (`fast.rs`,
//! `fast/rare.rs`) routes a URL by [`route`], reads what stands before
//! its handle by [`part_head`] and asks [`publisher_doi`] before it
//! answers `not_a_resolver_url`; it gives up on the rest (a handle part
//! that does not start with a digit: whitespace, a URL written twice, the
//! DOI proxy's paths), which no handle starting with a digit can be.
//! SPEC §6 asks [`head_space`] which whitespace §2 skips.
//!
//! Where SPEC is silent: a shortDOI path holds a letter (`https://doi.org/10`
//! and `https://doi.org/12345` are `no_slash`, as `https://doi.org/10.1000`:
//! a truncated DOI, not a shortDOI); a `/bitstream/handle/PREFIX/SUFFIX`
//! without a file name after it is read as a UI path (`local_resolver`, the
//! handle as written); a resolver URL written inside another without its
//! scheme is recognized by a global or user host only (`doi.org/…`), and
//! one written with it is read whatever its host, so that
//! `https://doi.org/https://example.com/x` is `not_a_resolver_url`, never a
//! handle with prefix `https:`; an inner URL's `http:` is flagged, its
//! missing scheme is not (it is the doubling's).

use super::authority;
use super::chars::{self, starts_with_ci};
use super::codes::{ErrorCode, Kind, Warning};
use super::handle::{self, Rule};
use super::{Cx, Options, Span, UserResolver, decode_part, label, other, percent, pieces};

/// The global resolvers: host, and the warning it carries.
pub(super) const GLOBAL: [(&str, Option<Warning>); 6] = [
    ("hdl.handle.net", None),
    ("doi.org", None),
    ("dx.doi.org", Some(Warning::LegacyResolver)),
    ("www.doi.org", Some(Warning::LegacyResolver)),
    ("handle.stage.datacite.org", Some(Warning::TestResolver)),
    ("handle.test.datacite.org", Some(Warning::TestResolver)),
];

/// The global resolver `host` names (any case): its index in `GLOBAL`.
pub(super) fn global(host: &str) -> Option<usize> {
    GLOBAL.iter().position(|(h, _)| host.eq_ignore_ascii_case(h))
}

/// The DOI proxy's hosts, which read shortDOIs and `urn:doi:` (SPEC §2):
/// every global resolver but the Handle System's own.
fn is_doi_host(global: usize) -> bool {
    GLOBAL[global].0 != "hdl.handle.net"
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
    /// `doi.org/10.1/x`: no scheme written (`missing_url_scheme`).
    Missing,
}

impl Scheme {
    /// What a resolver URL written with this scheme raises (SPEC §2).
    pub fn warning(self) -> Option<Warning> {
        match self {
            Scheme::Http => Some(Warning::HttpResolver),
            Scheme::Https => None,
            Scheme::Missing => Some(Warning::MissingUrlScheme),
        }
    }

    /// The port a URL of this scheme keeps: none when it is the default
    /// (SPEC §2 "default ports drop"; without a scheme, either default).
    pub fn kept_port(self, port: Option<&str>) -> Option<&str> {
        match (self, port) {
            (Scheme::Http | Scheme::Missing, Some("80")) | (Scheme::Https | Scheme::Missing, Some("443")) => None,
            (_, p) => p,
        }
    }
}

/// A value that is a URL: its scheme and what follows `scheme://`.
#[derive(Debug, Clone, Copy)]
pub struct UrlStart<'a> {
    scheme: Scheme,
    rest: &'a str,
}

impl<'a> UrlStart<'a> {
    /// Recognizes `http://…`, `https://…`, and a scheme-less URL whose host
    /// is a known or user resolver, a DNS name whose path is a resolver
    /// form of any host (`/hdl/`, `/handle/`, DSpace's paths; [`route`]),
    /// or any host name by SPEC v3 §2's rule ([`is_host_name`]).
    pub fn detect(t: &'a str, opts: &Options) -> Option<UrlStart<'a>> {
        if let Some(url) = UrlStart::with_scheme(t) {
            return Some(url);
        }
        let slash = chars::find_byte(b'/', t.as_bytes())?;
        let (auth, path) = (&t[..slash], &t[slash..]);
        let host = authority::parse(auth).ok()?.host;
        let local = || {
            host.contains('.')
                && authority::is_dns_name_with_letter(host)
                && (route(host, path) != Route::None || other::url::is_host(host))
        };
        (names_resolver(auth, host, opts) || local() || is_host_name(auth)).then_some(UrlStart {
            scheme: Scheme::Missing,
            rest: t,
        })
    }

    /// This URL without its query and fragment.
    fn without_query(self) -> UrlStart<'a> {
        let (rest, _) = chars::split_off(self.rest, b'#');
        let (rest, _) = chars::split_off(rest, b'?');
        UrlStart { rest, ..self }
    }

    /// `http://…` or `https://…` (any case).
    pub fn with_scheme(t: &'a str) -> Option<UrlStart<'a>> {
        if starts_with_ci(t, "https://") {
            return Some(UrlStart {
                scheme: Scheme::Https,
                rest: &t[8..],
            });
        }
        starts_with_ci(t, "http://").then(|| UrlStart {
            scheme: Scheme::Http,
            rest: &t[7..],
        })
    }
}

/// True when `auth` (host `host`) is a global resolver or one the user
/// added.
fn names_resolver(auth: &str, host: &str, opts: &Options) -> bool {
    global(host).is_some()
        || opts
            .resolvers
            .iter()
            .any(|r| r.host.eq_ignore_ascii_case(auth) || r.host.eq_ignore_ascii_case(host))
}

/// SPEC v3 §2 "URLs written without their scheme": `auth`, the text of a
/// bare value before its first `/`, is a host name: labels of ASCII
/// letters, digits and `-`, and it starts with `www.`, or it has two or
/// more labels, its first holds a letter, and its last is `com`, `org`,
/// `net`, `edu`, `gov`, `int`, `info` or any two letters (`0.NA` has no
/// letter in its first label, `CNRI.TEST` a last label of four).
/// Without a `/` a value is no URL: `www.example.com` alone stays
/// `no_slash` (SPEC says "before the first `/`").
pub fn is_host_name(auth: &str) -> bool {
    let b = auth.as_bytes();
    // Told at the first label for most values (a handle's prefix has no
    // letter there), before the others are looked at.
    let Some(dot) = chars::find_byte(b'.', b) else {
        return false;
    };
    let first = &b[..dot];
    if !may_start_host(first) {
        return false;
    }
    let www = first.eq_ignore_ascii_case(b"www");
    let labels_ok = !b.ends_with(b".")
        && !b.windows(2).any(|w| w == b"..")
        && !b.starts_with(b".")
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.');
    let last = &b[b.iter().rposition(|&c| c == b'.').map_or(0, |i| i + 1)..];
    let top = (last.len() == 2 && last.iter().all(u8::is_ascii_alphabetic))
        || ["com", "org", "net", "edu", "gov", "int", "info"]
            .iter()
            .any(|d| last.eq_ignore_ascii_case(d.as_bytes()));
    labels_ok && (www || top)
}

/// Whether `label` may be a host name's first label ([`is_host_name`]):
/// `www`, or one holding a letter.
fn may_start_host(label: &[u8]) -> bool {
    label.eq_ignore_ascii_case(b"www") || label.iter().any(u8::is_ascii_alphabetic)
}

/// SPEC v3 §2: a trimmed value written as a URL without its scheme on any
/// host ([`is_host_name`] before its first `/`). Every reader asks it of a
/// bare value that is no handle: the fast path gives up on it, the full
/// parser reads it as a URL ([`UrlStart::detect`]).
#[inline(never)]
pub fn is_schemeless_url(t: &str) -> bool {
    // Told at the first label for most values, before the search for the
    // `/`: a host name's first label ends in `.` before any `/`, and a
    // handle's prefix holds no letter there (`10.1000/`).
    let b = t.as_bytes();
    let first = b.iter().position(|&c| c == b'.' || c == b'/').unwrap_or(b.len());
    if b.get(first) != Some(&b'.') || !may_start_host(&b[..first]) {
        return false;
    }
    chars::find_byte(b'/', b).is_some_and(|i| is_host_name(&t[..i]))
}

/// SPEC v3 §2 `scheme_typo`: the trimmed value `t` starts with a misspelt
/// `http` scheme: `h`, `t`, `p` each written one or more times and an
/// optional `s`, any case, then `://`, `//`, or `:/` and no second `/`,
/// but for `http://` and `https://` themselves (`htttp://`, `hhttp://`,
/// `htp://`, `http//`, `https:/`). Whether `https` was meant, and where
/// what follows the scheme's slashes starts. Where SPEC is silent: a
/// dropped or repeated letter of the four counts (`htp://`,
/// `httpss://`), another letter does not (`ttp://`, `hxxp://`, which
/// defanged URLs are written with on purpose).
pub fn scheme_typo(t: &str) -> Option<(bool, usize)> {
    let b = t.as_bytes();
    let mut i = 0;
    let mut run = |c: u8| {
        let start = i;
        while b.get(i).is_some_and(|&x| x | 0x20 == c) {
            i += 1;
        }
        i - start
    };
    let (h, tt, p, s) = (run(b'h'), run(b't'), run(b'p'), run(b's'));
    if h == 0 || tt == 0 || p == 0 {
        return None;
    }
    let rest = &b[i..];
    let (right, slashes) = if rest.starts_with(b"://") {
        (h == 1 && tt == 2 && p == 1 && s <= 1, 3)
    } else if rest.starts_with(b"//") || rest.starts_with(b":/") {
        (false, 2)
    } else {
        return None;
    };
    (!right).then_some((s > 0, i + slashes))
}

/// Which rule of SPEC §2 a URL's host and path name, and its handle part:
/// what follows the host's `/` or the path prefix, up to the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route<'p> {
    /// `GLOBAL[host]`: the path after the host's `/`, or after
    /// `/api/handles/` (`api`). Any prefix that fits the grammar.
    Global { host: usize, api: bool, part: &'p str },
    /// Another host's `/hdl/` or `/handle/` path, DSpace's UI paths before
    /// `/handle/`, or (`file`) `/bitstream/handle/PREFIX/SUFFIX/FILE`,
    /// whose part is `PREFIX/SUFFIX`; its handle starts with a digit, and
    /// its first prefix segment must be all digits.
    Local { part: &'p str, file: bool },
    /// A host the user added, with its path; any prefix.
    User { part: &'p str, file: bool },
    /// None of them: not a resolver URL.
    None,
}

/// Routes `path` (`/…` or empty, no query) on `host` (as written), a host
/// the user did not add (SPEC §2 "Resolver URLs").
pub fn route<'p>(host: &str, path: &'p str) -> Route<'p> {
    match global(host) {
        Some(host) => route_global(host, path),
        None => route_local(host, path),
    }
}

/// `route` for the global resolver `GLOBAL[host]`.
#[inline]
pub fn route_global(host: usize, path: &str) -> Route<'_> {
    const API: &str = "api/handles/";
    let p = path.strip_prefix('/').unwrap_or(path);
    // In any case, as the host is: an export written in capitals
    // (`HTTPS://HDL.HANDLE.NET/API/HANDLES/1721.1/5`) names the same
    // handle, and a canonical upper-cased whole (a `0.` handle's) must
    // read as the value did (SPEC §3's laws).
    let api = starts_with_ci(p, API);
    let part = if api { &p[API.len()..] } else { p };
    Route::Global { host, api, part }
}

/// `route` for a host that is no global resolver. A path starting with
/// `/ark:` is SPEC §8's ARK on any host, whatever segments its name holds
/// (`/ark:/13/x/handle/6`: no handle; the fuzzer's find).
#[inline]
pub fn route_local<'p>(host: &str, path: &'p str) -> Route<'p> {
    if path.as_bytes().get(1).is_some_and(|&c| c | 0x20 == b'a') && starts_with_ci(path, "/ark:") {
        return Route::None;
    }
    let found = local_path(path).or_else(|| Some((path.strip_prefix('/')?, false)).filter(|_| is_proxy_host(host)));
    match found {
        // Only a handle starting with a digit makes another host's path a
        // resolver's: `/handle/abc/def` is a page of the site (SPEC §2).
        Some((part, file)) if part[part_head(part).at..].starts_with(|c: char| c.is_ascii_digit()) => {
            Route::Local { part, file }
        }
        _ => Route::None,
    }
}

/// SPEC v3 §2: a local install of the handle proxy, a host of three or
/// more DNS labels whose first is `hdl` or `handle` (any case:
/// `hdl.loc.gov`, `hdl.cqu.edu.au`), whose whole path is the handle; not
/// `handle.net` (two labels) nor a publisher's `doi.` host.
fn is_proxy_host(host: &str) -> bool {
    let rest = if starts_with_ci(host, "hdl.") {
        &host[4..]
    } else if starts_with_ci(host, "handle.") {
        &host[7..]
    } else {
        return false;
    };
    chars::find_byte(b'.', rest.as_bytes()).is_some() && authority::is_dns_name_with_letter(host)
}

/// Where any host's path names a handle: after `/hdl/` (seed 002), after
/// the first segment named `handle` (a repository's own URL, and DSpace's
/// UI paths such as `/xmlui/handle/`), and, when that segment follows one
/// named `bitstream`, the item's `PREFIX/SUFFIX` before the file's name
/// (`true`). Without a file name, a `bitstream` path is a UI path. With no
/// segment named `handle`, older DSpace's `/bitstream/PREFIX/SUFFIX/SEQ/FILE`
/// (SPEC v3 §2: PREFIX with an all-digit first segment, SEQ all digits)
/// names `PREFIX/SUFFIX` too ([`old_bitstream`]). The handle itself is
/// not looked at.
fn local_path(path: &str) -> Option<(&str, bool)> {
    // The commonest paths, `/hdl/` and `/handle/` first, need no search.
    if let Some(part) = path.strip_prefix("/hdl/").or_else(|| path.strip_prefix("/handle/")) {
        return Some((part, false));
    }
    // `/handle/` only ever matches a whole segment, so the first match is
    // the first segment named `handle` with anything after it. Looked for
    // at each `/`, found a word at a time (a `str` searcher's or memchr's
    // set-up costs more than the search on paths this short).
    let b = path.as_bytes();
    let mut from = 0;
    let mut bitstream = None;
    let i = loop {
        let Some(i) = chars::find_byte(b'/', &b[from..]).map(|i| from + i) else {
            return old_bitstream(&path[bitstream? + "/bitstream/".len()..]).map(|part| (part, true));
        };
        if b[i + 1..].starts_with(b"handle/") {
            break i;
        }
        if b.get(i + 1) == Some(&b'b') && bitstream.is_none() && b[i + 1..].starts_with(b"bitstream/") {
            bitstream = Some(i);
        }
        from = i + 1;
    };
    let part = &path[i + "/handle/".len()..];
    if path[..i].ends_with("/bitstream")
        && let Some(p) = chars::find_byte(b'/', part.as_bytes())
        && let Some(s) = chars::find_byte(b'/', &part.as_bytes()[p + 1..])
        && part.len() > p + 1 + s + 1
    {
        return Some((&part[..p + 1 + s], true));
    }
    Some((part, false))
}

/// Older DSpace's file path after `/bitstream/` (SPEC v3 §2):
/// `PREFIX/SUFFIX/SEQ/FILE`, PREFIX's first segment all digits, SEQ all
/// digits, FILE not empty: `PREFIX/SUFFIX`.
fn old_bitstream(rest: &str) -> Option<&str> {
    let mut segs = rest.splitn(4, '/');
    let (prefix, suffix, seq, file) = (segs.next()?, segs.next()?, segs.next()?, segs.next()?);
    let first = prefix.split('.').next().unwrap_or("");
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(first) && !suffix.is_empty() && digits(seq) && !file.is_empty())
        .then(|| &rest[..prefix.len() + 1 + suffix.len()])
}

/// What stands before the handle in a resolver URL's handle part (SPEC §2):
/// whitespace, skipped (`unencoded_chars`), then `doi:` labels, and
/// (SPEC v3) `hdl:` labels, raw or escaped (`doubled_label`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartHead {
    /// The length of the whitespace.
    pub space: usize,
    /// How many labels.
    pub labels: usize,
    /// Where what follows them starts.
    pub at: usize,
}

/// The head of the handle part `part`.
#[inline(always)]
pub fn part_head(part: &str) -> PartHead {
    // Most handle parts start with their prefix's digit: no whitespace,
    // no label (one test, where `labelled_head` compares four times).
    if part.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return PartHead {
            space: 0,
            labels: 0,
            at: 0,
        };
    }
    labelled_head(part)
}

/// `part_head` of a part that does not start with a digit. Out of line:
/// rare.
#[inline(never)]
fn labelled_head(part: &str) -> PartHead {
    let space = skipped_space(part);
    let (mut at, mut labels) = (space, 0);
    loop {
        let rest = &part[at..];
        at += if starts_with_ci(rest, "doi:") || starts_with_ci(rest, "hdl:") {
            4
        } else if starts_with_ci(rest, "doi%3a") || starts_with_ci(rest, "hdl%3a") {
            6
        } else {
            break;
        };
        labels += 1;
    }
    PartHead { space, labels, at }
}

/// The length of the whitespace `s` starts with: what SPEC §2 skips after
/// `hdl:` and between a resolver URL's host or path prefix and its handle,
/// any Unicode White_Space (SPEC §6's whitespace, which this is not).
#[inline]
pub fn skipped_space(s: &str) -> usize {
    match s.as_bytes().first() {
        Some(b) if b.is_ascii_alphanumeric() => 0,
        _ => s.len() - s.trim_start_matches(pieces::is_space).len(),
    }
}

/// The whitespace SPEC §2 skips in the trimmed value `t`, which SPEC §6
/// must not count as raw: right after `hdl:` (`hdl: 1234/5`), or between
/// a resolver URL's host or path prefix and its handle
/// (`https://doi.org/ 10.1000/x`, `https://repo.example.edu/handle/ 1/2`),
/// the URL perhaps after `doi:` labels (whose own whitespace is not this).
/// The range of `t` it takes; `None` when there is none. A URL written
/// inside another may have one run for each; this is the first, and a
/// second is raw.
pub(crate) fn head_space(t: &str, opts: &Options) -> Option<(usize, usize)> {
    if t.as_bytes().first()?.is_ascii_digit() {
        return None;
    }
    if starts_with_ci(t, "hdl:") {
        let n = skipped_space(&t[4..]);
        return (n > 0).then_some((4, 4 + n));
    }
    let url = UrlStart::detect(t, opts).or_else(|| match label::doi_labels(t) {
        (0, _) => None,
        (_, rest) => UrlStart::detect(rest, opts),
    })?;
    let mut url = url.without_query();
    loop {
        let part = match locate(url, opts).ok()?.route {
            Route::Global { part, .. } | Route::Local { part, .. } | Route::User { part, .. } => part,
            Route::None => return None,
        };
        let head = part_head(part);
        if head.space > 0 {
            let at = part.as_ptr() as usize - t.as_ptr() as usize;
            return Some((at, at + head.space));
        }
        url = inner_url(&part[head.at..], opts)?;
    }
}

/// A resolver URL written again at the start of a resolver URL's handle
/// (SPEC §2, `doubled_label`): `http(s)://` and any host, or a global or
/// user resolver's host and `/` without a scheme.
fn inner_url<'a>(s: &'a str, opts: &Options) -> Option<UrlStart<'a>> {
    if let Some(url) = UrlStart::with_scheme(s) {
        return Some(url);
    }
    let slash = chars::find_byte(b'/', s.as_bytes())?;
    let auth = &s[..slash];
    let host = authority::parse(auth).ok()?.host;
    names_resolver(auth, host, opts).then_some(UrlStart {
        scheme: Scheme::Missing,
        rest: s,
    })
}

/// A URL's authority and path, routed.
struct Located<'a> {
    /// `host[:port]` as written, a default port dropped.
    resolver: &'a str,
    path: &'a str,
    route: Route<'a>,
    /// The host is one the user added (whatever the path).
    user_host: bool,
}

/// Splits `url` (no query) into authority and path and routes it;
/// `not_a_resolver_url` for an authority that is none (user info, a bad
/// port).
fn locate<'a>(url: UrlStart<'a>, opts: &Options) -> Result<Located<'a>, ErrorCode> {
    let (auth, path) = match chars::find_byte(b'/', url.rest.as_bytes()) {
        Some(i) => (&url.rest[..i], &url.rest[i..]),
        None => (url.rest, ""),
    };
    let a = authority::parse(auth).map_err(|_| ErrorCode::NotAResolverUrl)?;
    let resolver = match url.scheme.kept_port(a.port) {
        Some(_) => auth,
        None => a.host,
    };
    let user = opts.resolvers.iter().find(|r| {
        r.host.eq_ignore_ascii_case(resolver)
            && path.starts_with(r.path.as_str())
            && path[r.path.len()..].starts_with('/')
    });
    let route = match user {
        Some(r) => user_route(r, path),
        None => route(a.host, path),
    };
    let user_host = user.is_some() || opts.resolvers.iter().any(|r| r.host.eq_ignore_ascii_case(resolver));
    Ok(Located {
        resolver,
        path,
        route,
        user_host,
    })
}

/// The handle part of `path` on a host the user added with `r.path`.
fn user_route<'p>(r: &UserResolver, path: &'p str) -> Route<'p> {
    // A host added without a path still serves the paths any host serves
    // (`/handle/`, `/hdl/`, DSpace's): adding it must not turn DSpace's
    // `/handle/1721.1/5` into the handle `handle/1721.1/5`.
    if r.path.is_empty()
        && let Some((part, file)) = local_path(path)
        && handle::has_separator(part)
    {
        return Route::User { part, file };
    }
    Route::User {
        part: &path[r.path.len() + 1..],
        file: false,
    }
}

/// Parses a resolver URL, and the resolver URL written inside it, if any.
pub fn parse<'a>(cx: &mut Cx<'a>, url: UrlStart<'a>) -> Result<(), ErrorCode> {
    let (rest, fragment) = chars::split_off(url.rest, b'#');
    let (rest, query) = chars::split_off(rest, b'?');
    let mut url = UrlStart { rest, ..url };
    let mut outer = true;
    // What must be percent-encoded: the whole path (a UI path's segments,
    // a file URL's file name, a URL written inside it), the query and the
    // fragment.
    let mut path = "";
    loop {
        let at = locate(url, cx.opts)?;
        if outer {
            path = at.path;
        }
        let (part, rule) = match at.route {
            Route::Global { host, api, part } => {
                cx.d.warnings.add_some(GLOBAL[host].1);
                cx.d.warnings.add_if(api, Warning::ApiUrl);
                (part, Rule::Any)
            }
            Route::Local { part, file } => {
                cx.warn(Warning::LocalResolver);
                cx.d.warnings.add_if(file, Warning::FileUrl);
                (part, Rule::Numeric)
            }
            Route::User { part, file } => {
                cx.d.warnings.add_if(file, Warning::FileUrl);
                (part, Rule::Any)
            }
            Route::None => {
                // SPEC v3 §2: a URL without its scheme on any host says so.
                let missing = outer && url.scheme == Scheme::Missing;
                cx.d.warnings.add_if(missing, Warning::MissingUrlScheme);
                return Err(not_a_resolver(cx, &at, query)).or_else(|e| other_url(cx, url, &at, [query, fragment], e));
            }
        };
        // An inner URL's missing scheme is the doubling's, not a warning
        // of its own; `http:` is flagged wherever it is written.
        if let Some(w) = url.scheme.warning()
            && (outer || url.scheme == Scheme::Http)
        {
            cx.warn(w);
        }
        let head = part_head(part);
        cx.d.warnings.add_if(head.space > 0, Warning::UnencodedChars);
        cx.d.warnings.add_if(head.labels > 0, Warning::DoubledLabel);
        let handle = &part[head.at..];
        if let Some(inner) = inner_url(handle, cx.opts) {
            cx.warn(Warning::DoubledLabel);
            (url, outer) = (inner, false);
            continue;
        }
        cx.check_encoded(&[Some(path), query, fragment]);
        let proxy = matches!(at.route, Route::Global { host, api: false, .. } if is_doi_host(host)) && head.labels == 0;
        if proxy && is_short_doi(handle) {
            read_short_doi(cx, handle);
        } else if proxy && starts_with_ci(handle, "urn:doi:") {
            // The DOI proxy's own syntax: no warning (SPEC §2).
            label::urn_doi(cx, &handle[8..])?;
        } else {
            let (p, s) = handle::split_uri_part(handle, &mut cx.d.warnings)?;
            handle::read(cx, p, s, true, rule)?;
        }
        cx.d.kind = Some(Kind::ResolverUrl);
        cx.d.resolver = cx.lowercase(at.resolver);
        cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
        cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
        return Ok(());
    }
}

/// A URL of SPEC §8's resolvers (`other::url`), read instead of the
/// error `e` that no handle resolver's form claimed it; `e` when it is
/// none of them. Its scheme warns as a resolver's does.
fn other_url<'a>(
    cx: &mut Cx<'a>,
    url: UrlStart<'a>,
    at: &Located<'a>,
    [query, fragment]: [Option<&'a str>; 2],
    e: ErrorCode,
) -> Result<(), ErrorCode> {
    // A page of §8's list is read as such before `publisher_url`: an
    // ARK's name may hold a DOI's shape (`ark:x/10.5555/y`, the fuzzer's).
    if !matches!(e, ErrorCode::NotAResolverUrl | ErrorCode::PublisherUrl) || at.user_host {
        return Err(e);
    }
    let Some(read) = other::url::read(cx, at.resolver, at.path) else {
        return Err(e);
    };
    cx.d.warnings.add_some(url.scheme.warning());
    read?;
    cx.check_encoded(&[query, fragment]);
    cx.d.resolver = cx.lowercase(at.resolver);
    cx.d.query = query.map_or(Span::None, |q| cx.span_of(q));
    cx.d.fragment = fragment.map_or(Span::None, |f| cx.span_of(f));
    Ok(())
}

/// A shortDOI path on the DOI proxy's hosts (SPEC §2): one segment of
/// ASCII letters and digits, with a letter (all digits, it is a DOI cut
/// short: `no_slash`).
fn is_short_doi(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()) && s.bytes().any(|b| b.is_ascii_alphabetic())
}

/// `https://doi.org/abcde`: the shortDOI `10/abcde` (warning `short_doi`,
/// raised by `handle::check` for the prefix `10`). Letters and digits hold
/// none of SPEC §3's dirt.
fn read_short_doi<'a>(cx: &mut Cx<'a>, code: &'a str) {
    const PREFIX: &str = "10";
    let is_doi = handle::check(PREFIX, code, Rule::Any, &mut cx.d.warnings);
    debug_assert_eq!(is_doi, Ok(true));
    cx.d.prefix = Span::Lit(PREFIX);
    cx.d.suffix = cx.span_of(code);
    cx.d.namespace = Span::Lit("doi");
}

/// The error of a URL no resolver form claims: `publisher_url` when its
/// path, or (SPEC v3) its query's `doi=` parameter, holds a DOI on a host
/// that is no resolver (SPEC §6), with `cx.d.whole` set to that DOI for
/// its repair (a path's less a file extension ending it); else
/// `not_a_resolver_url`.
fn not_a_resolver<'a>(cx: &mut Cx<'a>, at: &Located<'a>, query: Option<&'a str>) -> ErrorCode {
    if at.user_host {
        return ErrorCode::NotAResolverUrl;
    }
    // The path percent-decoded once, as a handle part is (SPEC §6); one
    // that does not decode is read as written.
    let decoded = decode_part(at.path, cx.bytes, cx.buf).ok().flatten();
    let text = decoded.map_or(at.path, |(a, b)| &cx.buf[a..b]);
    if let Some(i) = publisher_doi(text) {
        let cut = file_extension_len(text);
        cx.d.whole = match decoded {
            Some((a, b)) => Span::Buf((a + i) as u32, (b - cut) as u32),
            None => cx.span_of(&at.path[i..at.path.len() - cut]),
        };
        return ErrorCode::PublisherUrl;
    }
    let Some(raw) = query.and_then(doi_param) else {
        return ErrorCode::NotAResolverUrl;
    };
    let decoded = decode_part(raw, cx.bytes, cx.buf).ok().flatten();
    let text = decoded.map_or(raw, |(a, b)| &cx.buf[a..b]);
    if !starts_doi(text.as_bytes()) {
        return ErrorCode::NotAResolverUrl;
    }
    cx.d.whole = match decoded {
        Some((a, b)) => Span::Buf(a as u32, b as u32),
        None => cx.span_of(raw),
    };
    ErrorCode::PublisherUrl
}

/// SPEC v3 §6: the length of the file extension (`.pdf`, `.epub`,
/// `.html`, `.htm`, `.xml`, any case) a landing page's path ends with,
/// which the repair of `publisher_url` drops; 0 when none.
fn file_extension_len(path: &str) -> usize {
    [".pdf", ".epub", ".html", ".htm", ".xml"]
        .iter()
        .find(|x| path.len() > x.len() && path.as_bytes()[path.len() - x.len()..].eq_ignore_ascii_case(x.as_bytes()))
        .map_or(0, |x| x.len())
}

/// SPEC v3 §6 `publisher_url`: the raw value of a query's first `doi=`
/// parameter (name any case), up to the next `&`.
pub fn doi_param(query: &str) -> Option<&str> {
    query.split('&').find(|p| starts_with_ci(p, "doi=")).map(|p| &p[4..])
}

/// A landing page (`path`, no query; `query`, raw) whose path or `doi=`
/// parameter holds a DOI (SPEC §6 `publisher_url`), for a URL holding no
/// `%` (the fast path's): as written is as decoded.
#[inline]
pub fn is_publisher_url(path: &str, query: Option<&str>) -> bool {
    publisher_doi(path).is_some() || query.and_then(doi_param).is_some_and(|v| starts_doi(v.as_bytes()))
}

/// `b` starts with a DOI: `10.` and digits (`10.1000`, derived
/// `10.1000.10`), `/`, and a suffix not starting with `/`.
fn starts_doi(b: &[u8]) -> bool {
    chars::find_byte(b'/', b).is_some_and(|end| is_doi_head(&b[..end], b.get(end + 1)))
}

/// `seg`, before a `/` followed by `next`, is a DOI's prefix (`10.` and
/// digits) with a suffix after it (not starting with `/`).
#[inline(always)]
fn is_doi_head(seg: &[u8], next: Option<&u8>) -> bool {
    seg.len() > 3 && seg.starts_with(b"10.") && chars::dotted_digits(&seg[3..]) && next.is_some_and(|&c| c != b'/')
}

/// SPEC §6 `publisher_url`: where the DOI that a landing page's path
/// (decoded, without query) holds starts: the first segment `10.` and
/// digits (`10.1000`, derived `10.1000.10`) followed by a non-empty
/// segment (`/doi/10.1000/182`, `/doi/abs/10.1000/182`). The DOI runs to
/// the end of the path.
pub fn publisher_doi(path: &str) -> Option<usize> {
    let b = path.as_bytes();
    let mut start = 0;
    loop {
        let end = start + chars::find_byte(b'/', &b[start..])?;
        if is_doi_head(&b[start..end], b.get(end + 1)) {
            return Some(start);
        }
        start = end + 1;
    }
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
    use crate::{Level, Scratch, read_value};

    #[test]
    fn routes() {
        let local = |part, file| Route::Local { part, file };
        assert_eq!(
            route("DOI.org", "/api/handles/10.1/x"),
            Route::Global {
                host: 1,
                api: true,
                part: "10.1/x"
            }
        );
        // The REST path in any case, as the host.
        assert_eq!(
            route("HDL.HANDLE.NET", "/API/Handles/1721.1/5"),
            Route::Global {
                host: 0,
                api: true,
                part: "1721.1/5"
            }
        );
        assert_eq!(route("x.org", "/handle/1721.1/5"), local("1721.1/5", false));
        assert_eq!(route("x.org", "/hdl/ 1/2"), local(" 1/2", false));
        assert_eq!(route("x.org", "/xmlui/handle/1721.1/5"), local("1721.1/5", false));
        assert_eq!(route("x.org", "/a/handle/doi:10.1/x"), local("doi:10.1/x", false));
        assert_eq!(route("x.org", "/bitstream/handle/1/2/f.pdf"), local("1/2", true));
        assert_eq!(route("x.org", "/x/bitstream/handle/1/2/a/b"), local("1/2", true));
        assert_eq!(route("x.org", "/bitstream/handle/1/2/"), local("1/2/", false));
        assert_eq!(route("x.org", "/bitstream/handle/1/2"), local("1/2", false));
        for not in [
            "/handle/abc/1",
            "/handle/",
            "/handle",
            "/hdl/x/handle/1/2",
            "/xhandle/1/2",
            "/HANDLE/1/2",
            "",
        ] {
            assert_eq!(route("x.org", not), Route::None, "{not}");
        }
    }

    /// The fast path answers a handle part starting with a digit without
    /// asking whether it is a URL written again: no global host starts
    /// with one.
    #[test]
    fn no_global_host_starts_with_a_digit() {
        assert!(GLOBAL.iter().all(|(h, _)| !h.as_bytes()[0].is_ascii_digit()));
    }

    #[test]
    fn v3_routes() {
        let local = |part, file| Route::Local { part, file };
        assert_eq!(route("hdl.cqu.edu.au", "/10018/58925"), local("10018/58925", false));
        assert_eq!(route("HANDLE.example.edu", "/1/2"), local("1/2", false));
        assert_eq!(route("hdl.loc.gov", "/loc.pnp/x"), Route::None);
        assert_eq!(route("handle.net", "/1/2"), Route::None);
        assert_eq!(route("hdl.org", "/1/2"), Route::None);
        assert_eq!(route("x.hdl.org", "/1/2"), Route::None);
        assert_eq!(route("x.org", "/bitstream/1721.1/5/1/f.pdf"), local("1721.1/5", true));
        assert_eq!(
            route("x.org", "/a/bitstream/1721.1/5/12/b/f.pdf"),
            local("1721.1/5", true)
        );
        for not in [
            "/bitstream/1721.1/5/1/",
            "/bitstream/1721.1/5/x/f",
            "/bitstream/a1.1/5/1/f",
            "/bitstream/1721.1//1/f",
            "/bitstream/1721.1/5",
            "/xbitstream/1721.1/5/1/f",
        ] {
            assert_eq!(route("x.org", not), Route::None, "{not}");
        }
        assert_eq!(route("n2t.net", "/ark:/13/x/handle/6/7"), Route::None);
        assert_eq!(route("x.org", "/ARK:13/hdl/1/2"), Route::None);
        assert_eq!(part_head("hdl:1/2").at, 4);
        assert_eq!(part_head("HDL%3a1/2").at, 6);
        assert_eq!(part_head("doi:hdl:1/2").labels, 2);
    }

    #[test]
    fn host_names_and_scheme_typos() {
        for host in [
            "www.x",
            "www.bioplatforms.com",
            "a.org",
            "3d.com",
            "x.y.co",
            "A.B.INFO",
            "a-b.de",
        ] {
            assert!(is_host_name(host), "{host}");
        }
        for not in [
            "0.NA",
            "CNRI.TEST",
            "loc.gdc",
            "x",
            "a..org",
            "a.org.",
            "www",
            "a_b.org",
            "10.1000",
            "a.b:80",
        ] {
            assert!(!is_host_name(not), "{not}");
        }
        for (t, want) in [
            ("htttp://x", Some((false, 8))),
            ("hhttp://x", Some((false, 8))),
            ("HTTPS//x", Some((true, 7))),
            ("http//x", Some((false, 6))),
            ("http:/x", Some((false, 6))),
            ("httpss://x", Some((true, 9))),
            ("htp://x", Some((false, 6))),
            ("http://x", None),
            ("HTTPS://x", None),
            ("http:///x", None),
            ("hxxp://x", None),
            ("ttp://x", None),
            ("http:x", None),
            ("hdl:1/2", None),
        ] {
            assert_eq!(scheme_typo(t), want, "{t}");
        }
    }

    #[test]
    fn publisher_queries() {
        assert_eq!(doi_param("doi=10.1/x"), Some("10.1/x"));
        assert_eq!(doi_param("a=1&DOI=10.1/x&b=2"), Some("10.1/x"));
        assert_eq!(doi_param("xdoi=10.1/x"), None);
        assert_eq!(doi_param("do"), None);
        assert!(is_publisher_url("/a", Some("doi=10.1/x")));
        assert!(!is_publisher_url("/a", Some("doi=10.1/")));
        assert!(!is_publisher_url("/a", Some("doi=x10.1/y")));
        assert_eq!(file_extension_len("/10.1/x.PDF"), 4);
        assert_eq!(file_extension_len("/10.1/x.htm"), 4);
        assert_eq!(file_extension_len("/10.1/x.html"), 5);
        assert_eq!(file_extension_len("/10.1/x.pdfx"), 0);
    }

    #[test]
    fn publisher_dois() {
        for (path, at) in [
            ("/doi/10.1000/182", Some(5)),
            ("/doi/abs/10.1000/182/full", Some(9)),
            ("/10.1000.10/x", Some(1)),
            ("/a/10.1000/10.1000/x", Some(3)),
            ("/doi/10.1000", None),
            ("/doi/10.1000/", None),
            ("/doi/10.1000//x", None),
            ("/doi/10./x", None),
            ("/doi/10.1a/x", None),
            ("/doi/x10.1/x", None),
            ("/doi/10.1..2/x", None),
            ("", None),
        ] {
            assert_eq!(publisher_doi(path), at, "{path}");
        }
    }

    #[test]
    fn head_spaces() {
        let mut user = Options::default();
        user.add_resolver("repo.example.edu/id").unwrap();
        for (t, want) in [
            ("hdl: 1/2", Some((4, 5))),
            ("HDL:\u{A0}\t1/2", Some((4, 7))),
            ("hdl:1/2", None),
            ("https://doi.org/ 10.1/x", Some((16, 17))),
            ("doi.org/\u{3000}10.1/x", Some((8, 11))),
            ("https://x.org/xmlui/handle/ 1/2", Some((27, 28))),
            ("https://doi.org/https://doi.org/ 10.1/x", Some((32, 33))),
            ("doi: https://doi.org/ 10.1/x", Some((21, 22))),
            ("https://doi.org/10.1/ x", None),
            ("https://x.org/handle/ abc/def", None),
            ("https://x.org/a b", None),
            ("https://doi.org/?q= x", None),
            ("10.1/ x", None),
            ("https://repo.example.edu/id/ 1/2", None),
        ] {
            assert_eq!(head_space(t, &Options::default()), want, "{t}");
        }
        assert_eq!(head_space("https://repo.example.edu/id/ 1/2", &user), Some((28, 29)));
    }

    /// The forms with whitespace before the handle, read without SPEC §6
    /// (whose raw whitespace `head_space` tells apart).
    #[test]
    fn whitespace_before_the_handle_is_skipped() {
        let opts = Options::default();
        for (v, prefix, suffix) in [
            ("https://doi.org/ 10.1000/x", "10.1000", "x"),
            ("http://dx.doi.org/\t10.1000/x", "10.1000", "x"),
            ("https://x.org/xmlui/handle/\u{A0}1721.1/5", "1721.1", "5"),
            ("https://doi.org/ https://doi.org/ abcde", "10", "abcde"),
            ("hdl: 1234/5", "1234", "5"),
            ("hdl:\u{2003}//100.102/x", "100.102", "x"),
        ] {
            // Every whitespace of these is the one run `head_space` finds,
            // but the doubled URL's second.
            let (a, b) = head_space(v, &opts).unwrap();
            let outside = format!("{}{}", &v[..a], &v[b..]);
            assert_eq!(
                outside.contains(char::is_whitespace),
                v.contains("https://doi.org/ https"),
                "{v}"
            );
            let mut scratch = Scratch::default();
            let p = read_value(v, &mut scratch, &opts, Level::Forms);
            assert_eq!((p.error, p.prefix, p.suffix), (None, Some(prefix), Some(suffix)), "{v}");
            assert!(p.warnings.contains(Warning::UnencodedChars), "{v}");
        }
    }

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

    proptest::proptest! {
        /// The first-label pre-test decides as the plain rule would: a
        /// host name (`is_host_name`) before the first `/`.
        #[test]
        fn schemeless_urls_are_told_as_the_rule_says(v in "(www|WWW|org|doi|[a-z0-9]|[./:_-]|10[.]1000|é)*") {
            let plain = chars::find_byte(b'/', v.as_bytes()).is_some_and(|i| is_host_name(&v[..i]));
            proptest::prop_assert_eq!(is_schemeless_url(&v), plain, "{:?}", v);
        }
    }
}
