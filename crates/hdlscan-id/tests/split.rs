//! SPEC §6 as properties: the cell splitter (pieces and separators give
//! back the cell, no piece is empty; N identifiers joined by any separator
//! are N pieces, each its identifier), and the whole-value repairs (a
//! repaired value is valid, and repairing again changes nothing). The
//! splitter's laws are `hdlscan_id::laws::check_split`, shared with the
//! fuzz target.

use hdlscan_id::laws;
use hdlscan_id::{ErrorCode, Kind, Options, Parser, Rendered, Scratch, Split, Warning};
use proptest::prelude::*;

fn parser(repair: bool) -> Parser {
    let mut o = Options::default();
    o.repair = repair;
    Parser::new(o)
}

/// What `v` reads as: kind, error, canonical, and the §6 warnings a
/// repair leaves.
fn read(parser: &Parser, v: &str) -> (Kind, Option<ErrorCode>, Option<String>, bool) {
    let mut scratch = Scratch::default();
    let mut out = Rendered::default();
    let p = parser.parse(v.as_bytes(), &mut scratch);
    parser.render(&p, &mut out);
    let repaired = [
        Warning::MultipleValues,
        Warning::WrappedLine,
        Warning::ExtraText,
        Warning::PublisherUrl,
    ]
    .iter()
    .any(|w| p.warnings.contains(*w));
    (p.kind, p.error, out.canonical().map(str::to_owned), repaired)
}

/// An identifier that holds no separator or whitespace, in one of the
/// forms a cell holds, with the canonical it reads as.
fn identifier() -> impl Strategy<Value = (String, String)> {
    let doi = ("10\\.[1-9][0-9]{3,4}", "[a-z0-9][a-z0-9._()-]{0,10}[a-z0-9]");
    let handle = ("[1-9][0-9]{3,4}(\\.[1-9])?", "[A-Za-z0-9]{1,8}");
    prop_oneof![
        (doi, 0..5usize).prop_map(|((p, s), form)| {
            let head = ["", "doi:", "https://doi.org/", "http://dx.doi.org/", "DOI: "][form];
            (format!("{head}{p}/{s}"), format!("{p}/{s}").to_ascii_lowercase())
        }),
        (handle, 0..3usize).prop_map(|((p, s), form)| {
            let head = ["", "hdl:", "https://hdl.handle.net/"][form];
            (format!("{head}{p}/{s}"), format!("{p}/{s}"))
        }),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "||", " || ", "|", ";", "; ", ", ", ",", " / ", " and ", " AND ", "\n", "\r\n", " \n\n ", "\t", " ", "::",
        " :: ",
    ])
}

/// SPEC §8's labels of one word: before an identifier of another shape they
/// make `bad_pid`, not text a whole-value repair drops.
const SECTION_8_LABELS: &[&str] = &[
    "issn", "eissn", "pissn", "isbn", "orcid", "ror", "arxiv", "pmid", "pubmed", "pmcid", "pmc", "isni",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// N identifiers joined by separators: `multiple_values` (N >= 2), and
    /// split `auto`, N pieces, each reading as its identifier.
    #[test]
    fn joined_identifiers_split_back(
        ids in prop::collection::vec(identifier(), 1..5),
        seps in prop::collection::vec(separator(), 4),
        lead in prop::sample::select(vec!["", " ", "\u{A0}"]),
    ) {
        let mut cell = String::from(lead);
        for (i, (v, _)) in ids.iter().enumerate() {
            if i > 0 {
                cell.push_str(seps[i - 1]);
            }
            cell.push_str(v);
        }
        let p = parser(false);
        let pieces = laws::check_split(&p, &Split::Auto, cell.as_bytes()).map_err(TestCaseError::fail)?;
        if ids.len() == 1 {
            prop_assert_eq!(pieces, vec![0..cell.len()]);
            return Ok(());
        }
        prop_assert_eq!(read(&p, &cell).1, Some(ErrorCode::MultipleValues), "{:?}", cell);
        prop_assert_eq!(pieces.len(), ids.len(), "{:?}", cell);
        for (r, (_, canonical)) in pieces.into_iter().zip(&ids) {
            let (_, error, got, _) = read(&p, &cell[r]);
            prop_assert_eq!(error, None);
            prop_assert_eq!(got.as_deref(), Some(canonical.as_str()));
        }
    }

    /// At a given separator: the laws hold for any text, and DSpace's `||`
    /// cells give back their values.
    #[test]
    fn split_at_a_separator(cell in "[a-z0-9|/ ;,.\u{A0}]{0,30}", sep in prop::sample::select(vec!["||", "|", ";", ", "])) {
        laws::check_split(&parser(false), &Split::at(sep).unwrap(), cell.as_bytes()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn split_any_text(cell in "\\PC{0,40}") {
        for split in [Split::Auto, Split::at("||").unwrap()] {
            laws::check_split(&parser(false), &split, cell.as_bytes()).map_err(TestCaseError::fail)?;
        }
    }

    /// Dirt around one identifier: a repaired value is valid, and reading
    /// it again (its canonical, and its uri) changes nothing and needs no
    /// whole-value repair.
    #[test]
    fn whole_value_repairs_are_valid_and_final(
        (id, canonical) in identifier(),
        dirt in 0..6usize,
        word in "[a-z]{1,8}".prop_filter("a SPEC §8 label names a scheme, not glued text", |w| !SECTION_8_LABELS.contains(&w.as_str())),
    ) {
        let v = match dirt {
            0 => format!("{id} {word}"),
            1 => format!("{word} {id}"),
            2 => format!("{id} |"),
            3 => format!("{id}\n{id}"),
            4 => format!("{id} || {id}"),
            _ => format!("{id} ({word})"),
        };
        let p = parser(true);
        let (kind, error, got, repaired) = read(&p, &v);
        prop_assert!(error.is_none() && kind != Kind::Invalid, "{:?}: {:?}", v, error);
        prop_assert!(repaired, "{:?}", v);
        prop_assert_eq!(got.as_deref(), Some(canonical.as_str()), "{:?}", v);
        let (kind, error, got, repaired) = read(&p, &canonical);
        prop_assert_eq!((error, got, repaired), (None, Some(canonical.clone()), false), "{:?} as {:?}", canonical, kind);
    }
}

/// The fuzzer's find: a cell split `auto` whose end is U+200B, which SPEC
/// §2 trims but which is no separator: the laws take the cell's ends as
/// trimmed.
#[test]
fn a_trimmed_invisible_end_is_the_cells_not_a_piece() {
    let cell = "#################;N:;89//3/F\nF]]]/F\n9/.;N:;#####\u{200B}";
    let pieces = laws::check_split(&parser(false), &Split::Auto, cell.as_bytes()).unwrap();
    assert!(
        pieces.iter().all(|r| !cell[r.clone()].contains('\u{200B}')),
        "{pieces:?}"
    );
    let pieces = laws::check_split(&parser(false), &Split::Auto, "10.1/x, 10.1/y\u{FEFF}".as_bytes()).unwrap();
    assert_eq!(pieces, [0..6, 8..14]);
}

/// The fuzzer's find: a split cell ending in LF, `/`, space, `,`: the `/`
/// between whitespace is a separator where the trimmed cell has it.
#[test]
fn a_slash_between_spaces_at_the_end_is_a_separator() {
    let cell = ":\\+\t& \n \n2//&&&& \n2//&&&&/  \n2//{&&&& \n2//&&&/&&&& \n2//&&&&/  \n2//&&&& \n2//&&&&/ /&&&\n/ ,";
    laws::check_split(&parser(false), &Split::Auto, cell.as_bytes()).unwrap();
}

/// Every input the cell fuzz target ever failed on (`testdata/fuzz/cell/`,
/// see `fuzz/README.md`), replayed with its checks.
#[test]
fn fuzz_regressions_cell() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz/cell");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let cell = std::fs::read(&path).unwrap();
        for split in [Split::Auto, Split::at("||").unwrap()] {
            laws::check_split(&parser(false), &split, &cell).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        n += 1;
    }
    assert!(n >= 3, "{n} inputs in {}", dir.display());
}
