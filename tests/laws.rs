//! SPEC §3 "Laws the tests must hold for every valid value", as property
//! tests: parsing a valid value's `uri` or `url` gives back its `canonical`;
//! so does parsing its `canonical` (numeric prefix, no edge white space);
//! normalizing twice changes nothing; and any bytes at all yield exactly one
//! kind without panicking.

use hdlscan::id::{Kind, Options, Parser, Rendered, Scratch};
use proptest::prelude::*;

/// Everything about a parse that a law compares, owned.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    kind: Kind,
    canonical: Option<String>,
    uri: Option<String>,
    url: Option<String>,
}

fn see(parser: &Parser, v: &[u8]) -> Seen {
    let mut scratch = Scratch::default();
    let mut out = Rendered::default();
    let p = parser.parse(v, &mut scratch);
    // Exactly one kind: invalid with one error, or valid with a namespace.
    assert_eq!(p.kind == Kind::Invalid, p.error.is_some(), "{v:?}");
    if p.kind != Kind::Invalid {
        assert!(p.namespace.is_some(), "{v:?}");
        assert_eq!(p.prefix.is_some(), p.suffix.is_some(), "{v:?}");
        assert!(p.prefix.is_some() || p.info_identifier.is_some(), "{v:?}");
    }
    parser.render(&p, &mut out);
    Seen {
        kind: p.kind,
        canonical: out.canonical().map(str::to_owned),
        uri: out.uri().map(str::to_owned),
        url: out.url().map(str::to_owned),
    }
}

fn parser(repair: bool) -> Parser {
    let mut o = Options::default();
    o.repair = repair;
    o.add_resolver("repo.example.edu/handle").unwrap();
    Parser::new(o)
}

/// Prefixes: assigned-looking, DOI, derived, `0.` and non-numeric ones.
fn prefix() -> impl Strategy<Value = String> {
    prop_oneof![
        "[1-9][0-9]{0,5}(\\.[0-9]{1,4}){0,2}",
        "10\\.[0-9]{4,5}(\\.[0-9]{1,2})?",
        Just("10".to_string()),
        "0\\.[A-Za-z]{1,3}",
        "[A-Za-z][A-Za-z0-9]{0,5}(\\.[A-Za-z]{1,4})?",
        Just("123456789".to_string()),
        Just("10.5072".to_string()),
    ]
}

/// Suffixes with the characters real exports hold: SICI punctuation,
/// percent signs, spaces, slashes, Unicode, dirt.
fn suffix() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        8 => "[a-zA-Z0-9]",
        2 => "[-._/;:()<>\\[\\]{}?#%&=+,!*'@$~ ]",
        1 => "[éß中🙂\u{2013}\u{2212}\u{00A0}\u{200B}\u{00AD}]",
        1 => Just("%41".to_string()),
        1 => Just("%2F".to_string()),
        1 => Just("&lt;".to_string()),
    ];
    (
        prop::collection::vec(ch, 1..16),
        prop::option::of(prop_oneof![Just("/pdf"), Just("."), Just(")"), Just("/abstract")]),
    )
        .prop_map(|(v, tail)| v.concat() + tail.unwrap_or(""))
}

/// A handle wrapped in one of SPEC §2's forms.
fn identifier() -> impl Strategy<Value = String> {
    (prefix(), suffix(), 0..12usize, any::<bool>()).prop_map(|(p, s, form, pad)| {
        let enc = |x: &str| x.replace('%', "%25").replace('?', "%3F").replace('#', "%23");
        let v = match form {
            0 => format!("{p}/{s}"),
            1 => format!("doi:{p}/{s}"),
            2 => format!("hdl:{p}/{}", enc(&s)),
            3 => format!("HDL://{p}/{}", enc(&s)),
            4 => format!("info:hdl/{p}/{}", enc(&s)),
            5 => format!("https://doi.org/{p}/{}", enc(&s)),
            6 => format!("http://hdl.handle.net/{p}/{}?noredirect", enc(&s)),
            7 => format!("https://repo.example.edu/handle/{p}/{}", enc(&s)),
            8 => format!("urn:doi:{p}/{}", enc(&s)),
            9 => format!("hdl://190.12.34.56:2641/{p}/{}#x", enc(&s)),
            10 => format!("https://www.doi.org/api/handles/{p}/{}", enc(&s)),
            _ => format!("info:doi/{p}/{}", enc(&s)),
        };
        if pad { format!(" \u{FEFF}{v}\u{A0}") } else { v }
    })
}

fn has_escape(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len())
        .any(|i| b[i] == b'%' && b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit())
}

fn starts_or_ends_trimmable(s: &str) -> bool {
    let t = |c: char| hdlscan::id::chars::is_trim_char(c);
    s.starts_with(t) || s.ends_with(t)
}

/// The laws for one value under one parser.
fn check_laws(parser: &Parser, v: &str) -> Result<(), TestCaseError> {
    let first = see(parser, v.as_bytes());
    let Some(canonical) = first.canonical.clone() else {
        return Ok(());
    };
    let uri = first.uri.clone().unwrap();
    let via_uri = see(parser, uri.as_bytes());
    prop_assert_eq!(
        via_uri.canonical.as_deref(),
        Some(canonical.as_str()),
        "uri {} of {:?}",
        uri,
        v
    );
    prop_assert_eq!(via_uri.uri.as_deref(), Some(uri.as_str()), "uri twice, of {:?}", v);
    if let Some(url) = first.url.clone() {
        let via_url = see(parser, url.as_bytes());
        prop_assert_eq!(
            via_url.canonical.as_deref(),
            Some(canonical.as_str()),
            "url {} of {:?}",
            url,
            v
        );
        prop_assert_eq!(via_url.url.as_deref(), Some(url.as_str()), "url twice, of {:?}", v);
    }
    let suffix_part = canonical.split_once('/').map_or("", |(_, s)| s);
    // "when the prefix starts with a digit … (a bare value … needs a numeric
    // prefix)": SPEC §1 makes that the first segment being all digits, so
    // `0A/x` (from `hdl:0a/x`) is not covered. See README "Decisions".
    let first_segment = canonical.split(['.', '/']).next().unwrap_or("");
    let numeric = !first_segment.is_empty() && first_segment.bytes().all(|b| b.is_ascii_digit());
    if (numeric && !starts_or_ends_trimmable(suffix_part)) || canonical.starts_with("info:") {
        let again = see(parser, canonical.as_bytes());
        prop_assert_eq!(
            again.canonical.as_deref(),
            Some(canonical.as_str()),
            "canonical of {:?}",
            v
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn laws_hold_for_identifier_shaped_values(v in identifier()) {
        check_laws(&parser(false), &v)?;
    }

    /// With repair, a suffix holding a literal `%XX` renders as `%25XX`, which
    /// the `double_encoded` repair reads back as one more level of encoding:
    /// SPEC's own rule, so such values are outside this law (README "Decisions").
    #[test]
    fn laws_hold_with_repair(v in identifier()) {
        let p = parser(true);
        let literal_escape = see(&p, v.as_bytes())
            .canonical
            .is_some_and(|c| c.split_once('/').is_some_and(|(_, s)| has_escape(s)));
        if !literal_escape {
            check_laws(&p, &v)?;
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_yield_one_kind(v in prop::collection::vec(any::<u8>(), 0..80)) {
        let _ = see(&parser(false), &v);
        let _ = see(&parser(true), &v);
    }

    #[test]
    fn arbitrary_strings_keep_the_laws(v in "\\PC{0,40}") {
        check_laws(&parser(false), &v)?;
    }
}

#[test]
fn most_generated_identifiers_are_valid() {
    // Guards the generator: laws over invalid values would prove nothing.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let p = parser(false);
    let strategy = identifier();
    let valid = (0..1000)
        .filter(|_| see(&p, strategy.new_tree(&mut runner).unwrap().current().as_bytes()).kind != Kind::Invalid)
        .count();
    assert!(valid > 600, "only {valid}/1000 generated identifiers are valid");
}
