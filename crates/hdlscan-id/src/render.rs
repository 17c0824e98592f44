//! SPEC §3 rendering: `canonical` (the key two values share exactly when
//! they name the same thing), `uri` (`hdl:` with seed 000's native
//! characters) and `url` (the global resolver's URL).

use super::chars::{self, is_visibly};
use super::codes::Warning;
use super::dirt;
use super::percent::{self, AsciiSet, HDL_PREFIX, HDL_SUFFIX, URL_PATH};
use super::{Kind, Parsed, Rendered};

/// The `url` prefix keeps what a path keeps except `:`, so a prefix such
/// as `doi:x` is not read back as a `doi:` label.
const URL_PREFIX: AsciiSet = URL_PATH.without(b':');

/// What a suffix may hold to be written as it is in both `uri` and `url`.
const PLAIN_SUFFIX: AsciiSet = HDL_SUFFIX.and(&URL_PATH);

/// Byte classes for one OR-ed walk over each part, which decides at once
/// whether it needs escapes and whether it has a letter to case-map.
const NOT_PLAIN_SUFFIX: u8 = 1; // outside PLAIN_SUFFIX
const NOT_PLAIN_PREFIX: u8 = 2; // not a digit or `.`
const UPPER: u8 = 4; // ASCII uppercase
const NON_ASCII: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if !PLAIN_SUFFIX.contains(b) {
            t[i] |= NOT_PLAIN_SUFFIX;
        }
        if !(b.is_ascii_digit() || b == b'.') {
            t[i] |= NOT_PLAIN_PREFIX;
        }
        if b.is_ascii_uppercase() {
            t[i] |= UPPER;
        }
        if !b.is_ascii() {
            t[i] |= NON_ASCII;
        }
        i += 1;
    }
    t
};

/// The classes of `s`'s bytes, OR-ed: no early exit, since parts are short
/// and a branch-free walk is cheaper than a test per byte.
fn classes(s: &str) -> u8 {
    s.bytes().fold(0, |acc, b| acc | CLASS[b as usize])
}

pub fn render(p: &Parsed<'_>, repair: bool, out: &mut Rendered) {
    out.canonical.clear();
    out.uri.clear();
    out.url.clear();
    out.valid = p.kind != Kind::Invalid;
    out.has_url = false;
    if !out.valid {
        return;
    }
    if let (Some(prefix), Some(suffix)) = (p.prefix, p.suffix) {
        let is_doi = p.is_doi();
        let (prefix, suffix) = if repair && dirt::any_repairable(p.warnings) {
            dirt::repair(prefix, suffix, p.warnings, is_doi, &mut out.repair)
        } else {
            (prefix, suffix)
        };
        handle_columns(prefix, suffix, is_doi, &mut out.canonical, &mut out.uri, &mut out.url);
        out.has_url = true;
    } else if let (Some(ns), Some(id)) = (p.namespace, p.info_identifier) {
        out.canonical.push_str("info:");
        out.canonical.push_str(ns);
        out.canonical.push('/');
        let at = out.canonical.len();
        if repair && p.warnings.contains(Warning::InvisibleChar) {
            dirt::info_without_invisible(id, &mut out.canonical);
        }
        // Nothing repaired, or a repair that would leave the identifier
        // empty (`info:lccn/%C2%AD`: invalid, `bad_info_identifier`): as
        // for a handle's suffix, the value stays as read.
        if out.canonical.len() == at {
            out.canonical.push_str(id);
        }
        out.uri.push_str(&out.canonical);
    }
}

fn handle_columns(
    prefix: &str,
    suffix: &str,
    is_doi: bool,
    canonical: &mut String,
    uri: &mut String,
    url: &mut String,
) {
    // Most handles need no escape at all: digits and dots before the `/`,
    // and a suffix of bytes both sets keep. Test once, copy as they are.
    let (prefix_class, suffix_class) = (classes(prefix), classes(suffix));
    let plain_prefix = prefix_class & NOT_PLAIN_PREFIX == 0;
    let plain_suffix = suffix_class & NOT_PLAIN_SUFFIX == 0;

    uri.push_str("hdl:");
    if plain_prefix {
        uri.push_str(prefix);
    } else {
        percent::encode_into(prefix, &HDL_PREFIX, uri);
    }
    uri.push('/');
    if plain_suffix {
        uri.push_str(suffix);
    } else {
        percent::encode_into(suffix, &HDL_SUFFIX, uri);
    }

    // One literal per branch: a copy of known length needs no memcpy call.
    if is_doi {
        url.push_str("https://doi.org/");
    } else {
        url.push_str("https://hdl.handle.net/");
    }
    if plain_prefix && plain_suffix {
        // Both paths are `prefix/suffix` as read: one copy of the uri's,
        // not three pieces again.
        url.push_str(&uri["hdl:".len()..]);
    } else {
        if plain_prefix {
            url.push_str(prefix);
        } else {
            url_prefix(prefix, suffix, url);
        }
        url.push('/');
        if plain_suffix {
            url.push_str(suffix);
        } else {
            percent::encode_into(suffix, &URL_PATH, url);
        }
    }

    // `prefix/suffix` as read, in one copy when the uri holds it unescaped.
    if plain_prefix && plain_suffix {
        canonical.push_str(&uri["hdl:".len()..]);
    } else {
        canonical.push_str(prefix);
        canonical.push('/');
        canonical.push_str(suffix);
    }
    if is_doi {
        // DOIs are case-insensitive as a whole (ASCII only).
        if (prefix_class | suffix_class) & UPPER != 0 {
            canonical.make_ascii_lowercase();
        }
    } else if is_global_service_prefix(prefix, prefix_class & NON_ASCII != 0) {
        // The global service's own prefixes are case-insensitive as a whole.
        canonical.make_ascii_uppercase();
    } else if !plain_prefix {
        // Another handle: its prefix only (digits and dots have no case).
        canonical[..prefix.len()].make_ascii_uppercase();
    }
}

/// The prefix in the `url` path, escaped where it would otherwise be read
/// back as something else.
fn url_prefix(prefix: &str, suffix: &str, url: &mut String) {
    let at = url.len();
    percent::encode_into(prefix, &URL_PREFIX, url);
    // Escape the prefix's first letter where the path would otherwise be
    // read back as something else: `api/handles/…` is the REST API path, and
    // `doi%3A…` an (escaped) `doi:` label.
    let misread = (prefix.eq_ignore_ascii_case("api") && suffix.starts_with("handles/"))
        || chars::starts_with_ci(&url[at..], "doi%3a");
    if misread {
        let first = url.as_bytes()[at];
        url.replace_range(at..at + 1, "");
        let mut esc = String::with_capacity(3);
        percent::push_escape(first, &mut esc);
        url.insert_str(at, &esc);
    }
}

/// The global service's own prefixes: first segment `0` (`0.NA`).
/// `non_ascii` says whether the prefix holds non-ASCII bytes, from the
/// class walk already made.
fn is_global_service_prefix(prefix: &str, non_ascii: bool) -> bool {
    let b = prefix.as_bytes();
    if b.first() == Some(&b'0') && (b.len() == 1 || b[1] == b'.') {
        return true;
    }
    non_ascii && is_visibly(prefix.split('.').next().unwrap_or(""), "0")
}
