//! The fast path: one walk that reads the commonest clean forms and gives
//! up (`None`) on anything else, so `Parser::parse` runs the full parser.
//!
//! It takes bare handles and DOIs, `doi:`-labelled DOIs, `hdl:` path URIs,
//! and `http(s)://` URLs on the global resolvers or on another host's
//! `/hdl/` and `/handle/` paths, when the value is ASCII with no control
//! character and (in URI and URL forms) no `%`. Everything SPEC.md says
//! about the handle itself (prefix grammar, DOI rule, dirt warnings) is not
//! repeated here: `handle::check` and `dirt::flag` decide it, as on the full
//! path. A value the fast path answers gets the very `Parsed` the full
//! parser would give; `tests::fast_path_agrees_with_full_parser` checks
//! that on the conformance corpus and on generated values.

use super::chars::Scan;
use super::codes::{Kind, Warning, Warnings};
use super::handle::{self, Rule};
use super::dirt::{self, RepairBufs};
use super::{Options, Parsed, percent};

/// Byte classes, OR-ed over the value.
const GIVE_UP: u8 = 1; // control, non-ASCII: the full parser's business
const PCT: u8 = 2;
const QUERY: u8 = 4; // `?` or `#`: split off before the handle is read
const UNENCODED: u8 = 8; // outside RFC 3986's path characters (`unencoded_chars`)
const AMP: u8 = 16;
const SPACE: u8 = 32;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b < 0x20 || b >= 0x7F {
            GIVE_UP
        } else if b == b'%' {
            PCT
        } else if b == b'?' {
            QUERY
        } else if b == b'#' {
            QUERY | UNENCODED
        } else if b == b'&' {
            AMP
        } else if b == b' ' {
            SPACE | UNENCODED
        } else if percent::URI_RAW.contains(b) {
            0
        } else {
            UNENCODED
        };
        i += 1;
    }
    t
};

/// ASCII White_Space: what `chars::trim` removes that is one byte long.
fn is_ascii_trim(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// The global resolvers' hosts, lowercase, with the warning each carries
/// (as `resolver::GLOBAL`, which the full path reads).
const GLOBAL: [(&str, Option<Warning>); 6] = [
    ("doi.org", None),
    ("hdl.handle.net", None),
    ("dx.doi.org", Some(Warning::LegacyResolver)),
    ("www.doi.org", Some(Warning::LegacyResolver)),
    ("handle.stage.datacite.org", Some(Warning::TestResolver)),
    ("handle.test.datacite.org", Some(Warning::TestResolver)),
];

/// The form found, and where its handle part starts.
struct Form {
    kind: Kind,
    rule: Rule,
    /// URI and URL forms: parts would be percent-decoded, `?`/`#` split off.
    uri: bool,
    /// Byte offset of the handle part (or, for URLs, of the authority).
    at: usize,
}

/// Reads `input` if it is one of the forms above; `None` sends it to the
/// full parser.
pub fn parse<'a>(input: &'a str, opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    let b = input.as_bytes();
    let (mut start, mut end) = (0, b.len());
    while start < end && is_ascii_trim(b[start]) {
        start += 1;
    }
    while end > start && is_ascii_trim(b[end - 1]) {
        end -= 1;
    }
    let t = &input[start..end];
    let tb = t.as_bytes();
    let mut ws = Warnings::EMPTY;
    if t.len() != input.len() {
        ws.add(Warning::Trimmed);
    }
    let mut acc = 0u8;
    for &x in tb {
        acc |= CLASS[x as usize];
    }
    // Non-ASCII at either end may be Unicode white space to trim; inside,
    // invisible characters and dashes: all the full parser's.
    if acc & GIVE_UP != 0 || tb.is_empty() {
        return None;
    }
    let form = form_of(tb)?;
    // Hosts the user adds are looked for before any other reading of a
    // URL-like value (`doi:10/x` has host `doi`, port 10): leave those runs
    // to the full parser, bare values aside.
    if form.at > 0 && !opts.resolvers().is_empty() {
        return None;
    }
    let mut rest = &t[form.at..];
    let (mut query, mut fragment) = (None, None);
    let mut resolver = None;
    if form.uri {
        if acc & PCT != 0 {
            return None;
        }
        if acc & QUERY != 0 {
            let (r, f) = split_off(rest, b'#');
            let (r, q) = split_off(r, b'?');
            (rest, query, fragment) = (r, q, f);
        }
        if form.kind == Kind::ResolverUrl {
            let (host, handle_part, rule_warning) = url_parts(rest)?;
            resolver = Some(host);
            rest = handle_part;
            let (rule, w) = rule_warning;
            if let Some(w) = w {
                ws.add(w);
            }
            if tb[4] != b's' && tb[4] != b'S' {
                ws.add(Warning::HttpResolver);
            }
            return finish(form, rule, rest, query, fragment, resolver, acc, ws, bufs);
        }
    }
    let rule = form.rule;
    finish(form, rule, rest, query, fragment, resolver, acc, ws, bufs)
}

#[allow(clippy::too_many_arguments)]
fn finish<'a>(
    form: Form,
    rule: Rule,
    part: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
    resolver: Option<&'a str>,
    acc: u8,
    mut ws: Warnings,
    bufs: &mut RepairBufs,
) -> Option<Parsed<'a>> {
    if form.uri {
        let unencoded = if acc & QUERY != 0 {
            [Some(part), query, fragment].iter().flatten().any(|p| percent::has_unencoded(p))
        } else {
            acc & UNENCODED != 0
        };
        if unencoded {
            ws.add(Warning::UnencodedChars);
        }
    }
    let slash = part.bytes().position(|c| c == b'/')?;
    let (prefix, suffix) = (&part[..slash], &part[slash + 1..]);
    let is_doi = handle::check(prefix, suffix, rule, &mut ws).ok()?;
    let scan = Scan {
        amp: acc & AMP != 0,
        space: acc & SPACE != 0,
        ..Scan::default()
    };
    dirt::flag(prefix, suffix, is_doi, false, scan, &mut ws, bufs);
    let kind = match form.kind {
        Kind::Handle if is_doi => Kind::Doi,
        k => k,
    };
    Some(Parsed {
        kind,
        error: None,
        warnings: ws,
        namespace: Some(if is_doi { "doi" } else { "hdl" }),
        prefix: Some(prefix),
        suffix: Some(suffix),
        resolver,
        query,
        fragment,
        info_identifier: None,
    })
}

/// Which form `t` (trimmed, ASCII) has, by its first bytes. Bare and URI
/// handle parts must start with a digit: other prefixes raise warnings or
/// errors the full parser handles.
fn form_of(t: &[u8]) -> Option<Form> {
    let first = *t.first()?;
    if first.is_ascii_digit() {
        return Some(Form {
            kind: Kind::Handle,
            rule: Rule::Numeric,
            uri: false,
            at: 0,
        });
    }
    let lower = |i: usize| t.get(i).map(u8::to_ascii_lowercase);
    match first | 0x20 {
        b'd' if lower(1)? == b'o' && lower(2)? == b'i' => {
            // One `doi:` or `doi ` label, then spaces, then the DOI.
            let mut i = 3;
            let colon = t[i] == b':';
            i += colon as usize;
            let label_end = i;
            while i < t.len() && is_ascii_trim(t[i]) {
                i += 1;
            }
            if !colon && i == label_end {
                return None;
            }
            t.get(i)?.is_ascii_digit().then_some(Form {
                kind: Kind::Doi,
                rule: Rule::Doi,
                uri: false,
                at: i,
            })
        }
        b'h' if lower(1)? == b'd' && lower(2)? == b'l' && t.get(3) == Some(&b':') => {
            t.get(4)?.is_ascii_digit().then_some(Form {
                kind: Kind::HdlUri,
                rule: Rule::Any,
                uri: true,
                at: 4,
            })
        }
        b'h' if t.len() > 8 && t[..4].eq_ignore_ascii_case(b"http") => {
            let at = if t[4..8].eq_ignore_ascii_case(b"s://") {
                8
            } else if &t[4..7] == b"://" {
                7
            } else {
                return None;
            };
            Some(Form {
                kind: Kind::ResolverUrl,
                rule: Rule::Any,
                uri: true,
                at,
            })
        }
        _ => None,
    }
}

/// Splits `host/path` of a resolver URL: the host (lowercase, no port),
/// the handle part, and the rule and warning the host brings.
#[allow(clippy::type_complexity)]
fn url_parts(s: &str) -> Option<(&str, &str, (Rule, Option<Warning>))> {
    let slash = s.bytes().position(|c| c == b'/')?;
    let (host, path) = (&s[..slash], &s[slash..]);
    if host.is_empty() || !host.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'.' || c == b'-') {
        return None;
    }
    let (part, rule, w) = if let Some((_, w)) = GLOBAL.iter().find(|(h, _)| *h == host) {
        (&path[1..], Rule::Any, *w)
    } else if let Some(p) = path.strip_prefix("/handle/").or_else(|| path.strip_prefix("/hdl/")) {
        (p, Rule::Numeric, Some(Warning::LocalResolver))
    } else {
        return None;
    };
    // `api/handles/` and a `doi:` label inside the path start with a letter.
    part.as_bytes().first()?.is_ascii_digit().then_some((host, part, (rule, w)))
}

fn split_off(s: &str, sep: u8) -> (&str, Option<&str>) {
    match s.bytes().position(|c| c == sep) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Options, Parser, Scratch};
    use crate::synth::Synth;
    use proptest::prelude::*;

    /// Every option set whose answers could differ: repair changes no
    /// parse, a user resolver turns the fast path off for non-bare forms.
    fn parsers() -> Vec<Parser> {
        let mut with_host = Options::default();
        with_host.add_resolver("repo.example.edu/handle").unwrap();
        let mut short = Options::default();
        short.max_len = 24;
        [Options::default(), with_host, short].into_iter().map(Parser::new).collect()
    }

    /// Whenever the fast path answers, the full parser gives the same answer.
    fn agree(parser: &Parser, input: &str) -> Result<bool, String> {
        let mut bufs = Default::default();
        let mut scratch = Scratch::default();
        let Some(fast) = super::parse(input, &parser.opts, &mut bufs) else {
            return Ok(false);
        };
        let full = parser.parse_full(input, &mut scratch);
        if fast != full {
            return Err(format!("{input:?}:\n fast {fast:?}\n full {full:?}"));
        }
        // And `parse` (length limit first) agrees with both.
        if input.len() <= parser.opts.max_len && parser.parse(input.as_bytes(), &mut scratch) != fast {
            return Err(format!("{input:?}: parse differs"));
        }
        Ok(true)
    }

    fn corpus_inputs() -> Vec<String> {
        let text = include_str!("../../testdata/conformance.json");
        let doc: serde_json::Value = serde_json::from_str(text).unwrap();
        doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["input"].as_str().map(str::to_owned))
            .collect()
    }

    #[test]
    fn agrees_with_full_parser_on_corpus_and_generated_values() {
        let mut inputs = corpus_inputs();
        let mut synth = Synth::new(11);
        let mut s = String::new();
        for _ in 0..30_000 {
            s.clear();
            synth.next_identifier(&mut s);
            inputs.push(s.clone());
        }
        let mut answered = 0;
        for parser in parsers() {
            for input in &inputs {
                answered += agree(&parser, input).unwrap_or_else(|e| panic!("{e}")) as usize;
            }
        }
        // The fast path must actually carry the common forms.
        assert!(answered > inputs.len(), "fast path answered only {answered}");
    }

    /// Values built from the pieces the fast path looks at: labels, schemes,
    /// hosts, prefixes, and suffix bytes that raise warnings.
    fn shaped() -> impl Strategy<Value = String> {
        let head = prop::sample::select(vec![
            "", " ", "doi:", "DOI: ", "doi ", "doi:doi:", "hdl:", "HDL:", "hdl://", "https://doi.org/",
            "http://dx.doi.org/", "HTTPS://DOI.ORG/", "https://hdl.handle.net/", "https://www.doi.org/",
            "https://repo.example.edu/handle/", "http://x.org/hdl/", "https://doi.org:443/", "doi.org/",
            "https://handle.test.datacite.org/", "https://doi.org/api/handles/", "https://doi.org/doi:",
        ]);
        let prefix = "(10|10\\.[0-9]{1,5}|0\\.NA|123456789|10\\.5072|[0-9]{1,5}(\\.[0-9]{1,3})?|[a-z]{1,3}|)";
        let suffix = "[a-zA-Z0-9./;:()<>\\[\\]{}&%?# ,_-]{0,14}";
        let tail = prop::sample::select(vec!["", " ", "\t", ".", ")", "/pdf", "&lt;", "10.1234/x", "#f", "?q"]);
        (head, prefix, prop::bool::ANY, suffix, tail)
            .prop_map(|(h, p, slash, s, t)| format!("{h}{p}{}{s}{t}", if slash { "/" } else { "" }))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn agrees_on_shaped_values(v in shaped()) {
            for parser in parsers() {
                agree(&parser, &v).map_err(TestCaseError::fail)?;
            }
        }

        #[test]
        fn agrees_on_any_string(v in "\\PC{0,30}") {
            for parser in parsers() {
                agree(&parser, &v).map_err(TestCaseError::fail)?;
            }
        }
    }
}
