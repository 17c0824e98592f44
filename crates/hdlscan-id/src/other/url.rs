//! SPEC §8's resolver URLs: the closed list of the schemes' resolvers
//! (`orcid.org/ID`, `ror.org/ID`, arXiv's `/abs/` and `/pdf/`, PubMed's,
//! PubMed Central's and Europe PMC's pages, `isni.org/isni/`, the ISSN
//! portal) and any host's `/ark:` path. `resolver::parse` asks [`route`]
//! of a URL no handle resolver claims, before `not_a_resolver_url`; the
//! fast path leaves every URL [`claims`] says is one of these to
//! `rare::read`, which reads them by [`reading`] as the full parser does.

use super::super::chars::starts_with_ci;
use super::super::codes::{Kind, Warning, Warnings};
use super::super::{Cx, ErrorCode};
use super::ids::{self, Fail, Scheme};
use super::{Clean, Reading, into_draft};

/// A resolver host (without `www.`), and its paths: a path prefix (any
/// case) and the scheme of the identifier after it.
const HOSTS: &[(&str, &[(&str, Scheme)])] = &[
    ("orcid.org", &[("/", Scheme::Orcid)]),
    ("sandbox.orcid.org", &[("/", Scheme::Orcid)]),
    ("ror.org", &[("/", Scheme::Ror)]),
    ("arxiv.org", &[("/abs/", Scheme::Arxiv), ("/pdf/", Scheme::Arxiv)]),
    ("pubmed.ncbi.nlm.nih.gov", &[("/", Scheme::Pmid)]),
    (
        "ncbi.nlm.nih.gov",
        &[("/pubmed/", Scheme::Pmid), ("/pmc/articles/", Scheme::Pmcid)],
    ),
    (
        "europepmc.org",
        &[
            ("/article/med/", Scheme::Pmid),
            ("/abstract/med/", Scheme::Pmid),
            ("/article/pmc/", Scheme::Pmcid),
            ("/articles/", Scheme::Pmcid),
        ],
    ),
    ("pmc.ncbi.nlm.nih.gov", &[("/articles/", Scheme::Pmcid)]),
    ("isni.org", &[("/isni/", Scheme::Isni)]),
    ("portal.issn.org", &[("/resource/issn/", Scheme::Issn)]),
];

/// The host (any case, a port after it) without `www.` and the port.
/// A walk of its few bytes: a search for the `:` costs more to set up.
fn bare_host(host: &str) -> &str {
    let host = match host.bytes().position(|c| c == b':') {
        Some(port) => &host[..port],
        None => host,
    };
    match starts_with_ci(host, "www.") {
        true => &host[4..],
        false => host,
    }
}

/// The paths of `host`, if it is one of §8's resolvers.
fn paths(host: &str) -> Option<&'static [(&'static str, Scheme)]> {
    let host = bare_host(host);
    HOSTS
        .iter()
        .find(|(h, _)| host.eq_ignore_ascii_case(h))
        .map(|(_, p)| *p)
}

/// True when `host` is one of §8's resolvers (a URL written without its
/// scheme on it is a URL: `orcid.org/0000-…`).
pub fn is_host(host: &str) -> bool {
    paths(host).is_some()
}

/// True when a URL on `host` with `path` may be §8's: its host is a
/// resolver of a scheme, or its path starts with `/ark:`.
pub fn claims(host: &str, path: &str) -> bool {
    is_host(host) || starts_with_ci(path, "/ark:")
}

/// Where a URL on `host` (as written, `:port` perhaps) with `path` (no
/// query) names an identifier of §8: its scheme, and the identifier's
/// text. `None` when it is none of the list's pages.
fn locate<'p>(host: &str, path: &'p str) -> Option<(Scheme, &'p str)> {
    if starts_with_ci(path, "/ark:") {
        return Some((Scheme::Ark, &path[5..]));
    }
    let (prefix, scheme) = paths(host)?.iter().find(|(p, _)| starts_with_ci(path, p))?;
    let id = &path[prefix.len()..];
    let id = id.strip_suffix('/').unwrap_or(id);
    // On a host whose page is `/ID`, only an id starting with a digit is
    // one: `https://orcid.org/signin` is a page of the site.
    if *prefix == "/" && !id.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let id = match scheme {
        Scheme::Arxiv => id.strip_suffix(".pdf").unwrap_or(id),
        _ => id,
    };
    Some((*scheme, id))
}

/// Reads the URL on `host` with `path` into `cx`'s draft if §8 lists it:
/// kind `resolver_url` and the scheme's namespace, `bad_pid` or
/// `bad_check_digit` when its identifier is none, `local_resolver` for an
/// ARK on a host other than `n2t.net`, `test_resolver` for ORCID's
/// sandbox. `None`: not one of them.
pub fn read<'a>(cx: &mut Cx<'a>, host: &str, path: &'a str) -> Option<Result<(), ErrorCode>> {
    let mut ws = Warnings::EMPTY;
    let reading = reading(host, path, &mut ws)?;
    cx.d.warnings |= ws;
    Some(into_draft(cx, reading, Kind::ResolverUrl))
}

/// [`read`]'s reading, with the warnings it raises added to `ws`: what
/// the full parser and the fast path's `rare::read` share.
pub fn reading<'p>(host: &str, path: &'p str, ws: &mut Warnings) -> Option<Reading<'p>> {
    let (scheme, id) = locate(host, path)?;
    let reading = match scheme {
        Scheme::Ark => {
            ws.add_if(!bare_host(host).eq_ignore_ascii_case("n2t.net"), Warning::LocalResolver);
            ids::ark(id)
        }
        _ => {
            ws.add_if(
                bare_host(host).eq_ignore_ascii_case("sandbox.orcid.org"),
                Warning::TestResolver,
            );
            let mut clean = Clean::default();
            match clean.of(id, ws) {
                Some(b) => ids::labelled(scheme, b),
                None => Err(Fail::Shape),
            }
        }
    };
    Some(reading.map_err(|f| (scheme, f)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list() {
        assert_eq!(
            locate("orcid.org", "/0000-0002-1825-0097/"),
            Some((Scheme::Orcid, "0000-0002-1825-0097"))
        );
        assert_eq!(locate("orcid.org", "/signin"), None);
        assert_eq!(
            locate("WWW.NCBI.NLM.NIH.GOV", "/pmc/articles/PMC1/"),
            Some((Scheme::Pmcid, "PMC1"))
        );
        assert_eq!(
            locate("arxiv.org", "/pdf/2101.00001v2.pdf"),
            Some((Scheme::Arxiv, "2101.00001v2"))
        );
        assert_eq!(
            locate("gallica.bnf.fr", "/ark:/12148/bpt6k5619759j"),
            Some((Scheme::Ark, "/12148/bpt6k5619759j"))
        );
        assert_eq!(locate("ror.org", "/"), None);
        assert_eq!(locate("example.org", "/0000-0002-1825-0097"), None);
    }
}
