//! SPEC §3 "Laws the tests must hold for every valid value", as property
//! tests: parsing a valid value's `uri` or `url` gives back its `canonical`;
//! so does parsing its `canonical` (numeric prefix, no edge white space);
//! normalizing twice changes nothing; and any bytes at all yield exactly one
//! kind without panicking. The checks are `hdlscan_id::laws`, shared with
//! the fuzz target; this file brings the values.

use hdlscan_id::laws::{self, Seen};
use hdlscan_id::{Kind, Options, Parser};
use proptest::prelude::*;

fn see(parser: &Parser, v: &[u8]) -> Seen {
    laws::see(parser, v).unwrap()
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
    (prefix(), suffix(), 0..16usize, any::<bool>()).prop_map(|(p, s, form, pad)| {
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
            // SPEC v3 §2's forms.
            12 => format!("http://hdl.cqu.edu.au/{p}/{}", enc(&s)),
            13 => format!("https://hdl.handle.net/hdl:{p}/{}", enc(&s)),
            14 => format!("info:eu-repo/semantics/altIdentifier/hdl/{p}/{}", enc(&s)),
            15 => format!(
                "https://repo.example.edu/bitstream/{p}/{}/1/f.pdf",
                enc(&s).replace('/', "%2F")
            ),
            _ => format!("info:doi/{p}/{}", enc(&s)),
        };
        if pad { format!(" \u{FEFF}{v}\u{A0}") } else { v }
    })
}

/// The laws for one value under one parser's options.
fn check_laws(parser: &Parser, v: &str) -> Result<(), TestCaseError> {
    let (_, again) = laws::parsers(parser.options());
    laws::check(parser, &again, v.as_bytes()).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn laws_hold_for_identifier_shaped_values(v in identifier()) {
        check_laws(&parser(false), &v)?;
    }

    /// With repair on (`laws::check` leaves out what SPEC's
    /// `double_encoded` repair reads one level further).
    #[test]
    fn laws_hold_with_repair(v in identifier()) {
        check_laws(&parser(true), &v)?;
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
