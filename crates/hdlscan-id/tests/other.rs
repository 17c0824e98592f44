//! SPEC §8 as property tests: generated identifiers of every scheme, in
//! every form (bare, labelled, tagged, declared-looking, resolver URL),
//! clean, dirty, with a check character broken, or joined to another
//! value. For each, `laws::check` holds: the fast path and the full
//! parser give the same answer, and a valid value's `canonical` and
//! `url` read back as the same `canonical`. The check characters here
//! are computed from the standards' definitions, apart from the crate's.

use hdlscan_id::laws;
use hdlscan_id::{ErrorCode, Kind, Options, Parser, Rendered, Scratch};
use proptest::prelude::*;

/// ISO 3297: the check makes sum(d_i * (8 - i)) + c ≡ 0 (mod 11).
fn issn_check(d: &str) -> char {
    mod11_weighted(d, 8)
}

/// ISO 7064 MOD 11-2: sum(a_i * 2^(16-i)) + c ≡ 1 (mod 11).
fn mod11_2(d: &str) -> char {
    let s: u64 = d
        .bytes()
        .enumerate()
        .map(|(i, c)| (c - b'0') as u64 * (1 << (15 - i)))
        .sum();
    let c = (0..=10).find(|c| (s + c) % 11 == 1).unwrap();
    if c == 10 { 'X' } else { char::from(b'0' + c as u8) }
}

/// ISBN-13: weights 1, 3.
fn isbn13_check(d: &str) -> char {
    let s: u32 = d
        .bytes()
        .enumerate()
        .map(|(i, c)| (c - b'0') as u32 * [1, 3][i % 2])
        .sum();
    char::from(b'0' + ((10 - s % 10) % 10) as u8)
}

/// ISBN-10: sum(d_i * (10 - i)) + c ≡ 0 (mod 11).
fn isbn10_check(d: &str) -> char {
    mod11_weighted(d, 10)
}

/// The check making sum(d_i * (top - i)) + c ≡ 0 (mod 11), `X` for 10.
fn mod11_weighted(d: &str, top: u32) -> char {
    let s: u32 = d
        .bytes()
        .enumerate()
        .map(|(i, c)| (c - b'0') as u32 * (top - i as u32))
        .sum();
    let c = (11 - s % 11) % 11;
    if c == 10 { 'X' } else { char::from(b'0' + c as u8) }
}

const CROCKFORD: &str = "0123456789abcdefghjkmnpqrstvwxyz";

/// ROR: MOD 97-10 over the base32 value of its first seven characters.
fn ror_check(first7: &str) -> String {
    let n = first7.bytes().fold(0u64, |n, c| {
        n * 32 + CROCKFORD.bytes().position(|a| a == c).unwrap() as u64
    });
    format!("{:02}", 98 - (n * 100) % 97)
}

fn digits(n: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(0..10u8, n).prop_map(|v| v.into_iter().map(|d| char::from(b'0' + d)).collect())
}

/// Groups `d` with `sep` at the cuts `cuts` (positions inside `d`).
fn group(d: &str, cuts: &[usize], sep: &str) -> String {
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if cuts.contains(&i) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// One identifier of SPEC §8, in one of its forms.
fn pid() -> impl Strategy<Value = String> {
    let issn = (digits(7), 0..5usize).prop_map(|(d, form)| {
        let id = format!("{}-{}{}", &d[..4], &d[4..], issn_check(&d));
        match form {
            0 => id,
            1 => format!("ISSN {id}"),
            2 => format!("eissn:{}", id.replace('-', "")),
            3 => format!("urn:issn:{id}"),
            _ => format!("https://portal.issn.org/resource/ISSN/{id}"),
        }
    });
    let isbn = (digits(9), any::<bool>(), 0..5usize).prop_map(|(d, thirteen, form)| {
        let (id, cuts): (String, &[usize]) = if thirteen {
            let d = format!("978{d}");
            (format!("{d}{}", isbn13_check(&d)), &[3, 4, 7, 12])
        } else {
            (format!("{d}{}", isbn10_check(&d)), &[1, 4, 9])
        };
        match form {
            0 => group(&id, cuts, "-"),
            1 => group(&id, cuts, " "),
            2 => format!("ISBN {id}"),
            3 => format!("urn:isbn:{}", group(&id, cuts, "-")),
            _ => format!("isbn-13: {}", group(&id, cuts, "-")),
        }
    });
    let orcid = (digits(15), 0..4usize).prop_map(|(d, form)| {
        let full = format!("{d}{}", mod11_2(&d));
        let id = group(&full, &[4, 8, 12], "-");
        match form {
            0 => id.to_lowercase(),
            1 => format!("ORCID: {id}"),
            2 => format!("https://orcid.org/{id}"),
            _ => format!("http://www.orcid.org/{id}/"),
        }
    });
    let isni = (digits(15), 0..3usize).prop_map(|(d, form)| {
        let full = format!("{d}{}", mod11_2(&d));
        match form {
            0 => group(&full, &[4, 8, 12], " "),
            1 => format!("ISNI {full}"),
            _ => format!("https://isni.org/isni/{full}"),
        }
    });
    let ror = (
        proptest::collection::vec(proptest::sample::select(CROCKFORD.as_bytes().to_vec()), 6),
        0..3usize,
    )
        .prop_map(|(b, form)| {
            let first7 = format!("0{}", String::from_utf8(b).unwrap());
            let id = format!("{first7}{}", ror_check(&first7));
            match form {
                0 => format!("ror:{id}"),
                1 => format!("ROR {}", id.to_uppercase()),
                _ => format!("https://ror.org/{id}"),
            }
        });
    let arxiv = (0..100u32, 1..13u32, digits(5), 0..4u32, 0..5usize).prop_map(|(yy, mm, n, v, form)| {
        let version = if v > 0 { format!("v{v}") } else { String::new() };
        match form {
            0 => format!("arXiv:{yy:02}{mm:02}.{n}{version}"),
            1 => format!("hep-th/{yy:02}{mm:02}{}{version}", &n[..3]),
            2 => format!("math.GT/{yy:02}{mm:02}{}", &n[..3]),
            3 => format!("https://arxiv.org/abs/{yy:02}{mm:02}.{}{version}", &n[..4]),
            _ => format!("https://arxiv.org/pdf/{yy:02}{mm:02}.{n}{version}.pdf"),
        }
    });
    let pubmed = (1..999_999_999u32, 0..8usize).prop_map(|(n, form)| match form {
        0 => format!("PMID: {n}"),
        1 => format!("{n}[pmid]"),
        2 => format!("pubmed {n}"),
        3 => format!("https://pubmed.ncbi.nlm.nih.gov/{n}/"),
        4 => format!("PMC{n}"),
        5 => format!("PMC{n} [pmcid]"),
        6 => format!("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC{n}/"),
        _ => format!("info:pmid/{n}"),
    });
    let ark = ("[0-9]{5}", "[a-z0-9][a-z0-9-]{0,10}", 0..3usize).prop_map(|(naan, name, form)| match form {
        0 => format!("ark:/{naan}/{name}"),
        1 => format!("https://n2t.net/ark:/{naan}/{name}"),
        _ => format!("http://example.org/ark:{naan}/{name}"),
    });
    prop_oneof![issn, isbn, orcid, isni, ror, arxiv, pubmed, ark]
}

/// A §8 value as real files hold it: clean, with dirt, a character
/// changed (a broken check), cut short, or beside another value.
fn value() -> impl Strategy<Value = String> {
    (pid(), 0..9usize, 0..20usize, pid()).prop_map(|(v, dirt, at, other)| {
        let at = v
            .char_indices()
            .map(|(i, _)| i)
            .nth(at % v.chars().count())
            .unwrap_or(0);
        match dirt {
            0..=2 => v,
            3 => format!(" {v}.\u{A0}"),
            4 => {
                // One digit changed: most such values fail their check.
                let mut s = v.clone();
                if let Some(i) = s.rfind(|c: char| c.is_ascii_digit()) {
                    let d = s.as_bytes()[i];
                    s.replace_range(i..=i, &char::from(b'0' + (d - b'0' + 1) % 10).to_string());
                }
                s
            }
            5 => v[..at].to_string(),
            6 => format!("{v}; 10.1000/182"),
            7 => format!("{v} {other}"),
            _ => v.replacen('-', "\u{2010}", 1),
        }
    })
}

fn parser(repair: bool) -> Parser {
    let mut o = Options::default();
    o.repair = repair;
    Parser::new(o)
}

fn check(parser: &Parser, v: &str) -> Result<(), TestCaseError> {
    let (_, again) = laws::parsers(parser.options());
    laws::check(parser, &again, v.as_bytes()).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The laws, and the fast path's agreement with the full parser.
    #[test]
    fn laws_hold_for_other_schemes(v in value()) {
        check(&parser(false), &v)?;
        check(&parser(true), &v)?;
    }
}

#[test]
fn generated_identifiers_are_valid() {
    // Guards the generator: every clean value it makes is an identifier.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let p = parser(false);
    let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
    for _ in 0..2000 {
        let v = pid().new_tree(&mut runner).unwrap().current();
        let parsed = p.parse(v.as_bytes(), &mut scratch);
        assert_ne!(parsed.kind, Kind::Invalid, "{v:?}: {parsed:?}");
        assert!(parsed.namespace.is_some());
        p.render(&parsed, &mut out);
        assert!(out.canonical().is_some());
    }
}

#[test]
fn broken_checks_are_named() {
    let p = parser(false);
    let mut scratch = Scratch::default();
    for (v, ns) in [
        ("0000-0002-1825-0098", "orcid"),
        ("ror:01eezs656", "ror"),
        ("ISSN 1932-6204", "issn"),
    ] {
        let parsed = p.parse(v.as_bytes(), &mut scratch);
        assert_eq!(
            (parsed.error, parsed.namespace),
            (Some(ErrorCode::BadCheckDigit), Some(ns)),
            "{v}"
        );
    }
}
