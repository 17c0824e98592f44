//! SPEC §3 rendering: `canonical` (the key two values share exactly when
//! they name the same thing), `uri` (`hdl:` with seed 000's native
//! characters) and `url` (the global resolver's URL), each of which reads
//! back as the one identifier it renders (§3's laws), never as two (§6's
//! separators, `separator_before_another`).

use super::chars::{self, is_visibly};
use super::codes::{Warning, Warnings};
use super::dirt;
use super::percent::{self, AsciiSet, HDL_PREFIX, HDL_SUFFIX, URL_PATH};
use super::{Kind, Parsed, Rendered, other, pieces, resolver};

/// The `url` prefix keeps what a path keeps except `:`, so a prefix such
/// as `doi:x` is not read back as a `doi:` label.
const URL_PREFIX: AsciiSet = URL_PATH.without(b':');

/// What a suffix may hold to be written as it is in both `uri` and `url`.
/// Neither keeps `|` (seed 000 and RFC 3986 have none), so a `|` or `||`
/// of SPEC §6 is always escaped.
const PLAIN_SUFFIX: AsciiSet = HDL_SUFFIX.and(&URL_PATH);

/// What each column keeps raw, of prefix and suffix.
struct Sets {
    uri_prefix: AsciiSet,
    uri_suffix: AsciiSet,
    url_prefix: AsciiSet,
    url_suffix: AsciiSet,
}

/// The sets of a handle with a separator before another identifier
/// (`separator_before_another`): those of `handle_columns` without §6's
/// separator characters `;`, `,` and `:`, which then read back as `%3B`,
/// `%2C`, `%3A`.
const SEPARATED: Sets = Sets {
    uri_prefix: HDL_PREFIX.without(b';').without(b','),
    uri_suffix: HDL_SUFFIX.without(b';').without(b','),
    url_prefix: URL_PREFIX.without(b';').without(b','),
    url_suffix: URL_PATH.without(b';').without(b',').without(b':'),
};

/// Byte classes for one OR-ed walk over each part, which decides at once
/// whether it needs escapes and whether it has a letter to case-map.
const NOT_PLAIN_SUFFIX: u8 = 1; // outside PLAIN_SUFFIX
const NOT_PLAIN_PREFIX: u8 = 2; // not a digit or `.`
const UPPER: u8 = 4; // ASCII uppercase
const NON_ASCII: u8 = 8;
const SEPARATOR: u8 = 16; // `;`, `,`, `:`: may be (part of) a §6 separator

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
        if matches!(b, b';' | b',' | b':') {
            t[i] |= SEPARATOR;
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

/// SPEC §3: `canonical`, `uri` and `url` of `p` into `out` (cleared
/// first), repaired when `repair` (`--repair`); an invalid value leaves
/// them empty. `Parser::render` is the public way in.
pub fn render(p: &Parsed<'_>, repair: bool, out: &mut Rendered) {
    if !start(p, out) {
        return;
    }
    if let (Some(prefix), Some(suffix)) = (p.prefix, p.suffix) {
        let is_doi = p.is_doi();
        let (prefix, suffix) = repaired(p, prefix, suffix, repair, &mut out.repair);
        handle_columns(prefix, suffix, is_doi, &mut out.canonical, &mut out.uri, &mut out.url);
        out.has_url = true;
    } else if let (Some(ns), Some(id)) = (p.namespace, p.info_identifier) {
        // SPEC §8, and `info:pmid/N`, whose canonical is `pmid:N` (other
        // `info:` namespaces keep theirs, whatever their name).
        if (p.kind != Kind::InfoUri || ns == "pmid") && other::render(ns, id, &mut out.canonical, &mut out.url) {
            out.has_url = !out.url.is_empty();
            if p.kind == Kind::InfoUri {
                write_info(ns, id, &mut out.uri);
            }
            return;
        }
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

/// Clears `out` for `p`'s columns: whether `p` is valid, and so has any.
fn start(p: &Parsed<'_>, out: &mut Rendered) -> bool {
    out.canonical.clear();
    out.uri.clear();
    out.url.clear();
    out.has_url = false;
    out.valid = p.kind != Kind::Invalid;
    out.valid
}

/// A handle's `prefix` and `suffix`, repaired (into `bufs`) when `repair`
/// asks and `p`'s warnings name a repair.
fn repaired<'a>(
    p: &Parsed<'_>,
    prefix: &'a str,
    suffix: &'a str,
    repair: bool,
    bufs: &'a mut dirt::RepairBufs,
) -> (&'a str, &'a str) {
    match repair && p.warnings.intersects(Warnings::REPAIRABLE) {
        true => dirt::repair(prefix, suffix, p.warnings, p.is_doi(), bufs),
        false => (prefix, suffix),
    }
}

/// The `info:` URI of an identifier in namespace `ns`, as read.
fn write_info(ns: &str, id: &str, out: &mut String) {
    out.push_str("info:");
    out.push_str(ns);
    out.push('/');
    out.push_str(id);
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
    let separated = (prefix_class | suffix_class) & SEPARATOR != 0 && separator_before_another(prefix, suffix);
    if separated {
        separated_columns(prefix, suffix, is_doi, uri, url);
    } else {
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
        url.push_str(url_head(is_doi));
        if plain_prefix && plain_suffix {
            // Both paths are `prefix/suffix` as read: one copy of the uri's,
            // not three pieces again.
            url.push_str(&uri["hdl:".len()..]);
        } else {
            if plain_prefix {
                url.push_str(prefix);
            } else {
                url_prefix(prefix, suffix, &URL_PREFIX, url);
            }
            url.push('/');
            if plain_suffix {
                url.push_str(suffix);
            } else {
                percent::encode_into(suffix, &URL_PATH, url);
            }
        }
    }

    // `prefix/suffix` as read, in one copy when the uri holds it unescaped.
    if plain_prefix && plain_suffix && !separated {
        canonical.push_str(&uri["hdl:".len()..]);
    } else {
        canonical.push_str(prefix);
        canonical.push('/');
        canonical.push_str(suffix);
    }
    fold_case(canonical, prefix.len(), is_doi, prefix_class, suffix_class);
}

/// SPEC §3's case rule on `canonical`, `prefix/suffix` as read (the
/// prefix `prefix_len` bytes long, the parts' classes given).
fn fold_case(canonical: &mut str, prefix_len: usize, is_doi: bool, prefix_class: u8, suffix_class: u8) {
    if is_doi {
        // DOIs are case-insensitive as a whole (ASCII only).
        if (prefix_class | suffix_class) & UPPER != 0 {
            canonical.make_ascii_lowercase();
        }
    } else if is_global_service_prefix(&canonical[..prefix_len], prefix_class & NON_ASCII != 0) {
        // The global service's own prefixes are case-insensitive as a whole.
        canonical.make_ascii_uppercase();
    } else if prefix_class & NOT_PLAIN_PREFIX != 0 {
        // Another handle: its prefix only (digits and dots have no case).
        canonical[..prefix_len].make_ascii_uppercase();
    }
}

/// SPEC §3's `canonical` of `p` alone into `out`, for a caller that needs
/// neither `uri` nor `url` (an audit counts and groups canonicals only):
/// the canonical `render` gives, with `out.uri()` and `out.url()` `None`.
/// A handle's is written here; the rarer forms are `render`'s.
pub fn render_canonical(p: &Parsed<'_>, repair: bool, out: &mut Rendered) {
    let (Some(prefix), Some(suffix)) = (p.prefix, p.suffix) else {
        render(p, repair, out);
        out.uri.clear();
        out.has_url = false;
        return;
    };
    if !start(p, out) {
        return;
    }
    let is_doi = p.is_doi();
    let (prefix, suffix) = repaired(p, prefix, suffix, repair, &mut out.repair);
    out.canonical.push_str(prefix);
    out.canonical.push('/');
    out.canonical.push_str(suffix);
    fold_case(
        &mut out.canonical,
        prefix.len(),
        is_doi,
        classes(prefix),
        classes(suffix),
    );
}

/// SPEC §3's laws under §6: `uri` and `url` must each read back as one
/// identifier, but §6 reads a value holding a raw `;`, `,` or `::` (`|`
/// is always escaped) as two when the pieces around it are identifiers or
/// links. True when such a separator in the handle stands before what any
/// identifier or link after it must hold: a `/`, a `%` (of a `%2F`,
/// conservatively), or, for the one form without either, `urn:doi:`
/// (`urn:doi:10.1000:182`). The `/` that ends the prefix counts, so a
/// separator in a prefix is always escaped. Conservative and cheap:
/// escaping reads back the same, so a false alarm costs only readability.
/// SICI DOIs (`…(199908)36:6<637::AID-TEA4>3.0.CO;2-9`) and DOIs holding
/// entities (`…118&lt;0328:PXAFTC&gt;2.0.CO;2`), whose separators have
/// nothing of the kind after them, keep theirs raw.
#[cold]
#[inline(never)]
fn separator_before_another(prefix: &str, suffix: &str) -> bool {
    /// Where the first separator of `b` ends.
    fn after_separator(b: &[u8]) -> Option<usize> {
        (0..b.len()).find_map(|i| match b[i] {
            b';' | b',' => Some(i + 1),
            b':' if b.get(i + 1) == Some(&b':') => Some(i + 2),
            _ => None,
        })
    }
    if after_separator(prefix.as_bytes()).is_some() {
        return true;
    }
    let b = suffix.as_bytes();
    let Some(end) = after_separator(b) else {
        return false;
    };
    // A piece of §8 may stand past later separators (`0/,05,pmid:80`):
    // every piece after the first separator is asked.
    pieces::could_hold_identifier(&b[end..]) || other::may_hold(&b[end..])
}

/// `uri` and `url` of a handle whose separators `separator_before_another`
/// found: `;`, `,` and `:` escaped too. Out of line: few handles come here.
#[cold]
#[inline(never)]
fn separated_columns(prefix: &str, suffix: &str, is_doi: bool, uri: &mut String, url: &mut String) {
    uri.push_str("hdl:");
    percent::encode_into(prefix, &SEPARATED.uri_prefix, uri);
    uri.push('/');
    percent::encode_into(suffix, &SEPARATED.uri_suffix, uri);
    url.push_str(url_head(is_doi));
    url_prefix(prefix, suffix, &SEPARATED.url_prefix, url);
    url.push('/');
    percent::encode_into(suffix, &SEPARATED.url_suffix, url);
}

/// The global resolver's URL before the handle.
#[inline(always)]
fn url_head(is_doi: bool) -> &'static str {
    if is_doi {
        "https://doi.org/"
    } else {
        "https://hdl.handle.net/"
    }
}

/// The prefix in the `url` path, escaped (outside `keep`) where it would
/// otherwise be read back as something else.
fn url_prefix(prefix: &str, suffix: &str, keep: &AsciiSet, url: &mut String) {
    let at = url.len();
    percent::encode_into(prefix, keep, url);
    // Escape the prefix's first letter where the path would otherwise be
    // read back as something else: `api/handles/…` is the REST API path,
    // `doi%3A…` and `hdl%3A…` an (escaped) label (SPEC v3 reads `hdl:`
    // there too: `hdl:hdl:1234/b`, the fuzzer's), and a global resolver's host
    // (`hdl://doi.org/x` is the handle `DOI.ORG/x`) a resolver URL written
    // again (SPEC §2 `doubled_label`; the fuzzer's find).
    let misread = (prefix.eq_ignore_ascii_case("api") && suffix.starts_with("handles/"))
        || chars::starts_with_ci(&url[at..], "doi%3a")
        || chars::starts_with_ci(&url[at..], "hdl%3a")
        || resolver::GLOBAL.iter().any(|(h, _)| prefix.eq_ignore_ascii_case(h));
    if misread {
        let mut esc = String::with_capacity(3);
        percent::push_escape(url.as_bytes()[at], &mut esc);
        url.replace_range(at..at + 1, &esc);
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

#[cfg(test)]
mod tests {
    use super::super::{Options, Parser, Rendered, Scratch};
    use super::separator_before_another;

    /// `uri` and `url` of `v`.
    fn columns(v: &str) -> (String, String) {
        let parser = Parser::new(Options::default());
        let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
        let p = parser.parse(v.as_bytes(), &mut scratch);
        parser.render(&p, &mut out);
        (out.uri().unwrap().to_owned(), out.url().unwrap().to_owned())
    }

    /// A prefix that starts like a label the resolver path reads
    /// (`doi:`, and `hdl:` since SPEC v3) has its first letter escaped
    /// in `url`, which then reads back as the same handle.
    #[test]
    fn label_like_prefixes_are_escaped_in_url() {
        for (v, url) in [
            ("hdl:hdl:1234/b", "https://hdl.handle.net/%68dl%3A1234/b"),
            ("hdl:HDL:1234/b", "https://hdl.handle.net/%48DL%3A1234/b"),
            ("hdl:doi:1234/b", "https://hdl.handle.net/%64oi%3A1234/b"),
        ] {
            assert_eq!(columns(v).1, url, "{v}");
        }
    }

    #[test]
    fn separators_before_another_identifier_are_escaped() {
        assert!(separator_before_another("10.1000", "a;10.1/b"));
        assert!(separator_before_another("10.1000", "a,URN:DOI:10.1:c"));
        assert!(separator_before_another("10.1000", "a::b%2Fc"));
        assert!(!separator_before_another("10.1000", "a,b:c"));
        assert!(separator_before_another("0", ",,05,pmid:80::5\""));
        let entities = "1520-0481(1984)118&lt;0328:PXAFTC&gt;2.0.CO;2";
        assert!(!separator_before_another("10.1175", entities));
        assert!(separator_before_another("1;2", "x"));
        assert!(!separator_before_another("10.1000", "a:b/c;d"));
        assert!(!separator_before_another("10.1000", "a;b,c-d"));
        assert!(!separator_before_another("10.1000", "a;b,c::d"));
        let sici = "(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9";
        assert!(!separator_before_another("10.1002", sici));
        for (v, uri, url) in [
            (
                "hdl:1234/a%3B10.1/b",
                "hdl:1234/a%3B10.1/b",
                "https://hdl.handle.net/1234/a%3B10.1/b",
            ),
            (
                "hdl:1234/a%2Chttps%3A//x.org/1",
                "hdl:1234/a%2Chttps%3A//x.org/1",
                "https://hdl.handle.net/1234/a%2Chttps%3A//x.org/1",
            ),
            (
                "hdl:1234/a%3A%3Adoi%3A10.1/x",
                "hdl:1234/a%3A%3Adoi%3A10.1/x",
                "https://hdl.handle.net/1234/a%3A%3Adoi%3A10.1/x",
            ),
            (
                "hdl:1234/a%7C10.1/b",
                "hdl:1234/a%7C10.1/b",
                "https://hdl.handle.net/1234/a%7C10.1/b",
            ),
            (
                "hdl:1234/a%3Burn%3Adoi%3A10.1%3Ax",
                "hdl:1234/a%3Burn%3Adoi%3A10.1%3Ax",
                "https://hdl.handle.net/1234/a%3Burn%3Adoi%3A10.1%3Ax",
            ),
            // A `:` that starts nothing: kept raw in the url.
            (
                "hdl:1234/a%3Bb%3Ac",
                "hdl:1234/a;b%3Ac",
                "https://hdl.handle.net/1234/a;b:c",
            ),
            // Nothing that could start another after it: kept raw.
            ("10.1000/a;b", "hdl:10.1000/a;b", "https://doi.org/10.1000/a;b"),
            (
                &format!("10.1002/{sici}"),
                "hdl:10.1002/(SICI)1098-2736(199908)36%3A6%3C637%3A%3AAID-TEA4%3E3.0.CO;2-9",
                "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6%3C637::AID-TEA4%3E3.0.CO;2-9",
            ),
        ] {
            assert_eq!(columns(v), (uri.to_owned(), url.to_owned()), "{v}");
        }
    }

    /// The canonical of `v` and of the `uri` and `url` it renders.
    fn read_back(v: &str) -> Option<[Option<String>; 3]> {
        let parser = Parser::new(Options::default());
        let canonical = |v: &str| {
            let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
            let p = parser.parse(v.as_bytes(), &mut scratch);
            parser.render(&p, &mut out);
            let cols = [out.canonical(), out.uri(), out.url()];
            cols.map(|c| c.map(str::to_owned))
        };
        let [c, uri, url] = canonical(v);
        let c = c?;
        Some([Some(c), canonical(&uri?)[0].clone(), canonical(&url?)[0].clone()])
    }

    proptest::proptest! {
        /// SPEC §3's laws where §6's separators could cut: a handle whose
        /// (decoded) prefix and suffix hold `;`, `,`, `:`, `|` and what
        /// starts identifiers and links reads back from its `uri` and its
        /// `url` as the same one identifier.
        #[test]
        fn separators_read_back_as_one_identifier(
            prefix in "(10[.]1000|1234|0[.]NA|1[;,]2|a:b)",
            suffix in "([a0-9./;,:|]|%2F|%7C|%3B|doi:|hdl:|https://x[.]org/|10[.]1/x|urn:doi:10[.]1:x|URN:DOI:1){1,8}",
        ) {
            let escaped: String = suffix.replace(';', "%3B").replace(',', "%2C").replace('|', "%7C");
            let v = format!("hdl:{}/{escaped}", prefix.replace(';', "%3B").replace(',', "%2C"));
            if let Some([c, via_uri, via_url]) = read_back(&v) {
                proptest::prop_assert_eq!(&via_uri, &c, "uri of {:?}", v);
                proptest::prop_assert_eq!(&via_url, &c, "url of {:?}", v);
            }
        }
    }
}
