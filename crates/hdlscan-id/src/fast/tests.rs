//! The fast path's agreement suite: whatever `fast::parse` and `rare::read`
//! answer, the full parser answers alike (SPEC §1–§6, every form the fast
//! path takes), on the conformance corpus, the bench values and generated
//! values; and which values each must take or leave.

use super::super::{Options, Parser, Scratch};
use proptest::prelude::*;

/// Every option set whose answers could differ: repair changes no
/// parse, a user resolver turns the fast path off for non-bare forms.
fn parsers() -> Vec<Parser> {
    let mut with_host = Options::default();
    with_host.add_resolver("repo.example.edu/handle").unwrap();
    let short = Options {
        max_len: 24,
        ..Options::default()
    };
    [Options::default(), with_host, short]
        .into_iter()
        .map(Parser::new)
        .collect()
}

/// Whenever the fast path answers, the full parser gives the same answer.
fn agree(parser: &Parser, input: &str) -> Result<bool, String> {
    let mut bufs = Default::default();
    let mut scratch = Scratch::default();
    let mut escaped_scratch = Scratch::default();
    let escaped_scratch = &mut escaped_scratch;
    // As `Parser::parse` calls them: then `rare::read` on what the
    // fast path left.
    let raw = input.as_bytes();
    let fast = super::parse(raw, &parser.opts, &mut bufs)
        .or_else(move || super::rare::read(&super::see(raw), &parser.opts, escaped_scratch).ok());
    let full = parser.parse_full(input, &mut scratch);
    let Some(fast) = fast else {
        // Left to the full parser: `parse` must get there (and not go
        // round its retry for ever).
        if input.len() <= parser.opts.max_len && parser.parse(raw, &mut Scratch::default()) != full {
            return Err(format!("{input:?}: parse differs from the full parser"));
        }
        return Ok(false);
    };
    if fast != full {
        return Err(format!("{input:?}:\n fast {fast:?}\n full {full:?}"));
    }
    // And `parse` (length limit first) agrees with both.
    if input.len() <= parser.opts.max_len && parser.parse(input.as_bytes(), &mut scratch) != fast {
        return Err(format!("{input:?}: parse differs"));
    }
    Ok(true)
}

/// The inputs of `testdata/conformance.json` and of each file in
/// `testdata/conformance/`.
fn corpus_inputs() -> Vec<String> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files = vec![data.join("conformance.json")];
    let dir = std::fs::read_dir(data.join("conformance")).unwrap();
    let json = |p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "json");
    files.extend(dir.map(|e| e.unwrap().path()).filter(json));
    let mut inputs = Vec::new();
    for file in files {
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let cases = doc["cases"].as_array().unwrap().iter();
        inputs.extend(cases.filter_map(|c| c["input"].as_str().map(str::to_owned)));
    }
    inputs
}

#[test]
fn agrees_with_full_parser_on_corpus_and_bench_values() {
    let mut inputs = corpus_inputs();
    let bench = include_str!("../../../../testdata/bench_values.txt");
    inputs.extend(bench.lines().map(str::to_owned));
    let mut answered = 0;
    for parser in parsers() {
        for input in &inputs {
            answered += agree(&parser, input).unwrap_or_else(|e| panic!("{e}")) as usize;
        }
    }
    // The fast path must actually carry the common forms.
    assert!(answered > inputs.len(), "fast path answered only {answered}");
}

/// `global_as_written` is the search of `GLOBAL` it stands for.
#[test]
fn globals_as_written() {
    use super::super::resolver::GLOBAL;
    for (i, (host, _)) in GLOBAL.iter().enumerate() {
        assert_eq!(super::global_as_written(host), Some(i), "{host}");
        assert_eq!(super::global_as_written(&host.to_uppercase()), None, "{host}");
    }
    for host in ["", "doi", "doi.org.", "hdl.handle.ne", "ww.doi.org", "example.org"] {
        assert_eq!(super::global_as_written(host), None, "{host}");
    }
}

/// Heads with nothing after them (`doi` once indexed past its end).
#[test]
fn agrees_on_bare_heads() {
    for v in [
        "doi",
        "DOI",
        "doi:",
        "doi ",
        "hdl:",
        "hdl",
        "info:doi",
        "info:doi/",
        "https://",
        "http://doi.org",
        "",
    ] {
        for parser in parsers() {
            agree(&parser, v).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// Every character trimming removes, and some it does not (invisible
/// characters, dashes, other non-ASCII), at either end or both, around
/// every form the fast path reads.
#[test]
fn agrees_on_unicode_at_the_ends() {
    let ends: Vec<String> = (0..=0x3000u32)
        .chain([0xFEFF, 0xFFFD, 0x1F600])
        .filter_map(char::from_u32)
        .filter(|&c| c.is_whitespace() || super::chars::is_trim_char(c) || !c.is_ascii())
        .filter(|&c| c.is_whitespace() || c as u32 >= 0x2000 || (c as u32).is_multiple_of(7))
        .map(String::from)
        .chain(["\u{A0} ", " \u{FEFF}", "\u{3000}\u{A0}", "\u{200B}\u{200D}"].map(str::to_owned))
        .collect();
    let bodies = [
        "10.1000/182",
        "doi:10.1000/182",
        "https://doi.org/10.1000/182",
        "hdl:20.500.12345/6",
        "info:doi/10.1000/182",
        "x.org/hdl/1721.1/5",
        "10.1000/a\u{A0}b",
        "10.1000/a-",
        "",
    ];
    for parser in parsers() {
        for body in bodies {
            for e in &ends {
                for v in [format!("{e}{body}"), format!("{body}{e}"), format!("{e}{body}{e}")] {
                    agree(&parser, &v).unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
    }
    // The fast path takes them, not only agrees by leaving them.
    let taken = agree(&parsers()[0], "\u{FEFF}\u{A0}10.1000/182 \u{3000}");
    assert_eq!(taken, Ok(true));
}

/// Non-ASCII inside every form the fast path reads (invisible
/// characters, dashes, inner white space, C1 controls, letters, in the
/// prefix, the suffix, a host, a query and a fragment): the fast path
/// reads what stands after the prefix and leaves the rest, and agrees
/// with the full parser on all of it.
#[test]
fn agrees_on_unicode_inside() {
    let inner = [
        "\u{AD}",
        "\u{200B}",
        "\u{2060}",
        "\u{FEFF}",
        "\u{2013}",
        "\u{2212}",
        "\u{A0}",
        "\u{3000}",
        "\u{85}",
        "\u{9F}",
        "é",
        "日",
        "\u{1F600}",
        "\u{FFFD}",
    ];
    let bodies = [
        "10.1000/182x",
        "doi:10.1000/182x",
        "DOI 10.1000/182x",
        "https://doi.org/10.1000/182x",
        "http://hdl.handle.net/api/handles/1721.1/5x",
        "hdl:20.500.12345/6x",
        "info:doi/10.1000/182x",
        "info:hdl/1234/5x",
        "urn:doi:10.1000/182x",
        "urn:doi:10.1000:182/x",
        "x.org/hdl/1721.1/5x",
        "https://doi.org/10.1000/a?q=1#f",
        "doi.org/10.1000/a.",
    ];
    for parser in parsers() {
        for body in bodies {
            for c in inner {
                for i in (1..body.len()).filter(|&i| body.is_char_boundary(i)) {
                    let v = format!("{}{c}{}", &body[..i], &body[i..]);
                    agree(&parser, &v).unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
    }
    // Taken after the prefix, left before it.
    let parser = &parsers()[0];
    let taken = [
        "https://doi.org/10.1000/18\u{200B}2",
        "doi: 10.1000/a\u{2013}b",
        "10.1000/\u{AD}x",
    ];
    let left = [
        "10.10\u{AD}00/182",
        "doi:\u{A0}10.1000/182",
        "https://d\u{F6}i.org/10.1/2",
    ];
    taken_and_left(parser, &taken, &left);
}

/// A parser with repairs on, which reads a landing page again as its DOI
/// and a misspelt scheme written right: what the full parser must do.
fn repairing() -> Parser {
    Parser::new(Options {
        repair: true,
        ..Options::default()
    })
}

/// `agree` on each value, which the fast path (or `rare::read`) must
/// take (`taken`) or leave to the full parser (`left`).
fn taken_and_left(parser: &Parser, taken: &[&str], left: &[&str]) {
    for (values, want) in [(taken, true), (left, false)] {
        for v in values {
            assert_eq!(agree(parser, v), Ok(want), "{v}");
        }
    }
}

/// Percent-encoded handles in URLs on the known hosts: taken by
/// `escaped_url` (SICI DOIs, an encoded separator, a double encoding,
/// the errors of splitting and checking), or left to the full parser
/// (a part that does not decode, a query, a label in the path).
#[test]
fn escaped_urls_are_taken_or_left() {
    let parser = &parsers()[0];
    let taken = [
        "https://doi.org/10.1002/(SICI)1750-9952(199911)37:9%3C598::AID-JPS5%3E3.0.CO;2-J",
        "http://hdl.handle.net/10023%2f20045",
        " doi.org/10.1038%2Fs41556-009-01202-1",
        "https://dx.doi.org/10.1016%2f1860-7526(88)50759-6.",
        "https://doi.org/10.1000/a%2541",
        "https://doi.org/10.1000/caf%C3%A9",
        "https://doi.org/10.1000/a%20b/pdf",
        "https://doi.org/10.1000/%3C%3E\"",
        // Errors: a `/` in the prefix once decoded, no separator, an
        // empty suffix.
        "https://doi.org/10.1000%2Fx/y",
        "https://doi.org/10%2E1234",
        "https://doi.org/10.1000%2F",
        "http://hdl.handle.net/20.500.12345%252F7104",
        // Hosts `url_parts` routes: other global ones, upper case,
        // another host's `/handle/` and UI paths, the API's path, an
        // escaped label.
        "https://www.doi.org/10.1/x%41",
        "HTTP://HDL.HANDLE.NET/1721.1%2F111156",
        "https://handle.stage.datacite.org/10.1175/1520-0400(1990)018%3C3033:NKBTAX%3E2.0.CO;2",
        "https://repo.example.edu/handle/1721.1%2f51301",
        "https://ir.lib.example.ac.jp/handle/123456789%252F6112",
        "https://repo.example.edu/xmlui/handle/1721.1%2F5",
        "https://repo.example.edu/handle/1721.1/5%20",
        "https://hdl.handle.net/api/handles/1721.1%2F5",
        "https://doi.org/doi%3A10.1/x%41",
    ];
    let left = [
        "https://doi.org/10.1000/%ZZ",
        "https://doi.org/10.1000/a%00",
        "https://doi.org/10.1000/a%C2%85",
        "https://doi.org/10.1000/a%FF",
        "https://doi.org/10.1/x?y%41",
        "https://doi.org/10.1/x#%41",
        "https://doi.org:443/10.1/x%41",
        "www.doi.org/10.1/x%41",
        "http://arrow.resolver.example.gov:2641/hdl/1959.4%2F67512",
        "https://Repo.Example.edu/handle/1%2F2",
        "https://repo.example.edu/bitstream/handle/1721.1/5/a%20b.pdf",
        "https://repo.example.edu/items/10.1%2Fx",
        "https://doi.org/%20doi:10.1/x",
        // Not a resolver's: the full parser says what it is.
        "http://repo.example.edu/handle/abc%2F5",
    ];
    taken_and_left(parser, &taken, &left);
    // A host the user adds could be any of them: the full parser's.
    assert_eq!(agree(&parsers()[1], "https://doi.org/10.1/x%41"), Ok(false));
}

/// The other forms `rare::read` takes (other `info:` namespaces as
/// written, `hdl://` with a numeric host, a server or a port, other
/// hosts' URLs with a port, the plain errors of values without `/`,
/// SPEC §8's resolver URLs on a plain host, labelled values whose only
/// separator bytes are lone `:`), and neighbours of theirs it must leave.
#[test]
fn rare_forms_are_taken_or_left() {
    let parser = &parsers()[0];
    let taken = [
        // SPEC §6 without a line break, read by `whole::several`: two
        // pieces that are identifiers or links, or one and words, or
        // separators around one.
        "10.1000/182 10.1000/183",
        "10.1146/annurev-astro-059386-116764 PMCID: PMC6942368",
        "10.1038/nphys1170||10.1016/j.cell.2009.01.002",
        "10.1/x; 10.1/y",
        "https://doi.org/10.1/x https://example.org/a",
        "10.1000/182 and more text",
        "10.1000/182; PMID: 123",
        "10.1002/(SICI)1097-4636(199909)47:3<123::AID-JBM1>3.0.CO;2-X",
        // SPEC §8's resolver URLs on a plain host (`other::url::reading`).
        "https://orcid.org/0000-0002-1825-0097",
        "http://www.ncbi.nlm.nih.gov/pmc/articles/PMC1234567/",
        "https://orcid.org/0000-0002-1825-0098",
        "https://orcid.org/0000-0002",
        "https://sandbox.orcid.org/0000-0002-1825-0097",
        "https://gallica.bnf.fr/ark:/12148/bpt6k5619759j",
        "https://arxiv.org/pdf/2101.00001v2.pdf",
        "https://ror.org/01eezs655.",
        // Two lone `:`, a URN's: no separator (`Classes::may_be_several`).
        " urn:isbn:9785967673786 ",
        "URN:ISSN:1932-6203",
        "info:pmid/14890380",
        "INFO:lccn/2021817118",
        "info:ofi/fmt:kev:mtx:journal",
        "info:ark/13030/xd00fgacjr",
        "info:foo/x",
        "info:pmid/12a",
        "info:sici/3356-4301(19810727)12:8<>1.0.TX;2-9",
        "info:sici/2492-5862(19881208)177:3%3C%3E1.0.TX;2-M",
        "info:x/a%41%2f%ZZ",
        "info:x/a%00",
        "info:x/%2541",
        "doi:abc",
        "DOI abc",
        "doi doi x",
        // No valid prefix before the `%2F`: `no_slash` (SPEC §2).
        "DOI:DOI:10.x%2Fj.compstruct",
        "abc%2Fdef",
        "10.1007%41%2Fx",
        "doi:%2Fx",
        "doi: ",
        "hdl://123456789/4231",
        "hdl://20.500.11850/593138/x.",
        "hdl://10.1000/182",
        "hdl://32.49.208.92/1959.4/15150",
        "hdl://hs.example.org:2641/20.500.11820/2a1de423",
        "hdl://1.2.3.4:/1/2",
        "hdl://h:1/10.1000/x.",
        "http://arrow.resolver.example.gov:2641/hdl/20.500.11820/63c6e333",
        "https://repo.example.edu:443/handle/1721.1/5",
        "http://repo.example.edu:80/handle/1721.1/5",
        "https://repo.example.edu:/hdl/1721.1/5",
        // SPEC §6 extra_text, no two pieces that could be identifiers.
        "http://repo.example.edu:443/handle/1721.1/5 x",
        "10.1000/182 see also",
        "DOI:DOI:10.1016%2Fj.compstruct",
        " \tdoi:10.48550%2FarXiv.1604.21027 \t",
        "12345%2fabc",
        "https:x",
        "n.a.",
        // SPEC §8's labelled and bare values, one value each.
        "PMID: 21517381",
        "ISBN 978-1-824-68942-9",
        "1932-6203",
        "33604029[pmid]",
        "hep-th/9901001",
        "978 0 306 40615 7",
        // `::` separates, but before the one piece that could be an
        // identifier: one value, read as the full parser reads it.
        "urn:isbn::9785967673786",
    ];
    let left = [
        "info:PMID/1",
        "info:pmid/1#f",
        "info:pmid",
        "info:abc",
        "hdl://1.2.3.4/x",
        "hdl://123:80/x",
        "hdl://H:1/1/2",
        "hdl://h:123456/1/2",
        "hdl://[::1]:80/1/2",
        "hdl://h:1/1/2?q",
        "https://doi.org:443/10.1/x",
        "https://repo.example.edu:8080/handle/doi:10.1/x",
        "https://Repo.example.edu:8080/handle/1/x",
        "https://u@repo.example.edu:8080/handle/1/x",
        "https://repo.example.edu:8080/handle/1",
        "https://repo.example.edu:8080/items/1721.1/5",
        "hdl://hs.example.org/1/2",
        "hdl:///x",
        "hdl://1/x?q",
        "hdl:abc",
        "urn:doi:abc",
        // Split at `%2F` after a valid prefix, a suffix that does not
        // decode (SPEC §2): the full parser's.
        "10.1007%2Fa%ZZ",
        "10.1007%2F",
        // A link or a marked form ending in a tag: read as tagged (the
        // parse fuzzer's find).
        "https://x.org/a/10.1/41768[pmc]",
        "https://doi.org/10.1/x[pmid]",
        // Two pieces that could be identifiers after a `::`.
        "urn:isbn:9785967673786::1932-6203",
    ];
    taken_and_left(parser, &taken, &left);
}

/// SPEC v2's URL forms (`resolver.rs`): the fast path takes the ones
/// `resolver::route` and `resolver::part_head` decide alike for it
/// (DSpace's UI paths, other hosts' pages), and leaves those whose
/// handle part does not start with a digit, file URLs and landing
/// pages holding a DOI.
#[test]
fn v2_url_forms_are_taken_or_left() {
    let parser = &parsers()[0];
    let taken = [
        "https://repo.example.edu/xmlui/handle/1721.1/77",
        "http://repo.example.edu/jspui/handle/1721.1/77?show=full",
        "https://repo.example.edu/a/b/handle/doi:10.1/x",
        "https://repo.example.edu:8080/xmlui/handle/1721.1/77",
        "https://repo.example.edu/handle/abc/def",
        "https://repo.example.edu/hdl/cnri.test/x",
        "https://example.com/paper/1",
        "https://journals.example.org/doi/10.1000",
        "https://doi.org/doi:10.1000/182?x",
        // publisher_url, repair off.
        "https://journals.example.org/doi/full/10.1000/182",
        "https://example.com/10.1000/182?x",
    ];
    let left = [
        "https://doi.org/abcde",
        "doi.org/abcde",
        "https://doi.org/1abc",
        "https://doi.org/1abc?x",
        "https://doi.org/urn:doi:10.1000:182",
        "https://doi.org/urn:doi:10.1000/182",
        "https://doi.org/https://doi.org/10.1000/182",
        "http://dx.doi.org/doi.org/10.1/x",
        "https://doi.org/doi.org/10.1/x?q",
        "https://doi.org/ 10.1000/x",
        "https://repo.example.edu/handle/ 1721.1/5?q",
        "hdl: 1234/5",
        "https://repo.example.edu/bitstream/handle/1721.1/77/a.pdf",
        "https://repo.example.edu/bitstream/handle/1721.1/77/a.pdf?sequence=1",
        "https://repo.example.edu:8080/bitstream/handle/1721.1/77/a.pdf",
        "https://repo.example.edu/a\"b/handle/1721.1/5?q",
        "https://repo.example.edu/handle/10",
    ];
    taken_and_left(parser, &taken, &left);
    // With repair on, a landing page reads as its DOI: left.
    let repair = repairing();
    taken_and_left(&repair, &[], &["https://journals.example.org/doi/full/10.1000/182"]);
}

/// SPEC v3 §2's and §6's new URL forms: a proxy host's path, an `hdl:`
/// label in a resolver path and a landing page's `doi=` parameter are
/// taken by the rules the full parser asks (`resolver::route_local`,
/// `resolver::part_head`, `resolver::is_publisher_url`); older DSpace
/// file URLs, URLs without a scheme on other hosts, misspelt schemes
/// and OpenAIRE's wrappers are left.
#[test]
fn v3_url_forms_are_taken_or_left() {
    let parser = &parsers()[0];
    let taken = [
        "http://hdl.cqu.edu.au/10018/58925",
        "https://handle.example.edu/1721.1/77?x",
        "hdl.handle.net/hdl:1839/x",
        "https://hdl.handle.net/hdl:1839/00-0000-0000-0000-3D5C-6",
        "https://repo.example.edu/handle/HDL:1721.1/5",
        "https://jamanetwork.com/article.aspx?doi=10.1001/jama.289.8.989",
        "https://x.example.org/view?id=1&DOI=10.1/x#f",
        "https://x.example.org/view?doi=abc",
        "https://link.springer.com/content/pdf/10.1007/0-306-48017-4_14.pdf",
        "http://hdl.loc.gov/loc.pnp/cph.3a12345",
        "10.1000/182",
        "0.NA/12345",
    ];
    let left = [
        "https://repo.example.edu/bitstream/1721.1/77/1/thesis.pdf",
        "www.bioplatforms.com/party-10",
        "3dprint.com/x/y",
        "1a.example.org/10.1000/182",
        "htttp://dx.doi.org/10.1000/182",
        "http//doi.org/10.1000/182",
        "https//doi.org/10.1000/182",
        "http:/doi.org/10.1000/182",
        "info:eu-repo/semantics/altIdentifier/doi/10.1000/182",
        "info:eu-repo/semantics/altIdentifier/pmid/123",
        "CNRI.TEST/abc",
    ];
    taken_and_left(parser, &taken, &left);
    let repair = repairing();
    taken_and_left(
        &repair,
        &[],
        &[
            "https://jamanetwork.com/article.aspx?doi=10.1001/jama.289.8.989",
            "htttp://dx.doi.org/10.1000/182",
        ],
    );
}

/// SPEC v2's rules about the handle and its dirt (`handle::check`,
/// `dirt::flag`, `handle::split_bare_encoded`): what the fast path
/// takes it answers as the full parser does, and a value it must not
/// answer (a `%2F` split, decoded) it leaves.
#[test]
fn agrees_on_v2_handle_rules() {
    let parser = &parsers()[0];
    let taken = [
        "10.1000/182/",
        "https://doi.org/10.1000/182/",
        "doi:10.1/x/-/DCSupplemental.",
        "10.1/x/full/html",
        "10.1/x/META",
        "10.1000/x-\u{AD}-y",
        "10.1000/a\u{2010}\u{2010}b",
        "0.5555/x1",
        "0.NA/x",
        "0.na/x",
        "0/x",
        "00/x",
        "hdl:0042/x",
        "abc%2Fdef",
        "10.1007",
        "10.1000/a%2Fb",
        // The %2F split, by `rare::encoded_bare`.
        "10.1007%2FBF01451751",
        "doi:10.1007%2FBF01451751",
        "DOI: doi:10.1007%2fBF01451751",
        "10.1007%2Fa%20b",
    ];
    let left = ["10.1007%2f", "10.1007%2Fa%ZZ", "10.1000/a\tb", "hdl:12%2034/5"];
    taken_and_left(parser, &taken, &left);
}

/// Bytes that are not UTF-8 at an end stay the full parser's
/// (`bad_utf8`), however much of them looks like a trim character.
#[test]
fn leaves_bad_utf8_at_the_ends() {
    let parser = Parser::new(Options::default());
    let mut scratch = Scratch::default();
    for v in [
        &b"\xC210.1000/182"[..],
        b"\xA010.1000/182",
        b"10.1000/182\xC2",
        b"10.1000/182\xA0",
        b"10.1000/182\xE3\x80",
        b"10.1000/182\x80\x80",
        b"10.1000/182\x80\x80\x80\x80",
        b"\xE2\x80 10.1000/182",
        b"\xED\xA0\x80 10.1000/182",
        b"\xF0\x80\x80\x80 10.1000/182",
        b"\xC2\xA0\xC2",
        b"\xC2",
    ] {
        assert!(
            super::parse(v, &parser.opts, &mut Default::default()).is_none(),
            "{v:?}"
        );
        assert_eq!(
            parser.parse(v, &mut scratch).error,
            Some(super::super::ErrorCode::BadUtf8)
        );
    }
}

/// Values built from the pieces the fast path looks at: labels, schemes,
/// hosts, prefixes, and suffix bytes that raise warnings.
fn shaped() -> impl Strategy<Value = String> {
    let head = prop::sample::select(vec![
        "",
        " ",
        "\u{A0}",
        "\u{FEFF}",
        "\u{3000} ",
        "\u{200B}doi:",
        "\u{2003}https://doi.org/",
        "doi:",
        "DOI: ",
        "doi ",
        "doi:doi:",
        "DOI: doi ",
        "doi doi:",
        "doi:doi:doi:",
        "doi: \tdoi:",
        "doi :doi:",
        "doi:doi",
        "hdl:",
        "HDL:",
        "hdl://",
        "hdl:/",
        "hdl://hs.example.org:2641/",
        "hdl://1.2.3.4/",
        "hdl://20.500.1/",
        "http://x.org:8080/hdl/",
        "https://x.org:443/handle/",
        "info:lccn/",
        "info:sici/",
        "info:X/",
        "https://doi.org/",
        "http://dx.doi.org/",
        "HTTPS://DOI.ORG/",
        "https://hdl.handle.net/",
        "https://www.doi.org/",
        "https://repo.example.edu/handle/",
        "http://x.org/hdl/",
        "https://doi.org:443/",
        "doi.org/",
        "https://handle.test.datacite.org/",
        "https://doi.org/api/handles/",
        "https://doi.org/doi:",
        "info:doi/",
        "INFO:HDL/",
        "info:hdl/",
        "info:pmid/",
        "info:doi",
        "DX.DOI.ORG/",
        "hdl.handle.net/",
        "repo.example.edu/handle/",
        "x.org/hdl/",
        "https://X.org/handle/",
        "https://example.com/paper/",
        "https://doi.org/api/handles/doi:",
        "http://doi.org",
        "https://doi.org?",
        "N",
        "n/",
        "-",
        "TBD ",
        "x.y/",
        "urn:doi:",
        "URN:doi:",
        "urn:doi:10.1000:",
        "urn:doi:doi:",
        "pmid: ",
        "/",
        "?",
        "doi.org?/",
        "https://doi.org/DOI:doi:",
        "https://doi.org/https://doi.org/",
        "http://dx.doi.org/doi.org/",
        "https://doi.org/ ",
        "https://doi.org/urn:doi:",
        "https://doi.org/a",
        "https://x.org/xmlui/handle/",
        "https://x.org/bitstream/handle/",
        "https://x.org:1/jspui/handle/",
        "https://x.org/doi/",
        "https://x.org/a\"/handle/",
        "hdl: ",
        "http://hdl.cqu.edu.au/",
        "HDL.LOC.GOV/",
        "https://x.org/bitstream/",
        "https://x.org/jspui/bitstream/",
        "https://hdl.handle.net/hdl:",
        "https://doi.org/HDL%3a",
        "https://x.org/handle/hdl:",
        "www.x.com/",
        "3d.com/",
        "htttp://doi.org/",
        "http//doi.org/",
        "Https:/hdl.handle.net/",
        "info:eu-repo/semantics/altIdentifier/doi/",
        "info:eu-repo/semantics/altIdentifier/HDL/",
        "info:eu-repo/semantics/altIdentifier/pmid/",
        "https://x.org/a?doi=",
        "https://x.org/a.aspx?x=1&DOI=",
    ]);
    let prefix = "(10|10\\.[0-9]{1,5}|0\\.NA|0\\.(na|TYPE|0|[0-9]{1,4}|[a-z]{1,3})|00?[0-9]{0,3}|123456789|10\\.5072|10\\.2999|[0-9]{1,5}(\\.[0-9]{1,3})?|[a-z]{1,3}|10\\.1\u{AD}0|1\u{200B}2|)";
    let suffix = "[a-zA-Z0-9./;:()<>\\[\\]{}&%?#@ ,_|\u{AD}\u{200B}\u{2013}\u{2212}\u{A0}\u{85}é日-]{0,14}";
    let tail = prop::sample::select(vec![
        "",
        " ",
        "\t",
        ".",
        ")",
        "]",
        "}",
        ",",
        ";",
        "/pdf",
        "/EPDF",
        "/Full",
        "/abstract",
        "&lt;",
        "&amp;",
        "10.1234/x",
        "#f",
        "?q",
        "\u{A0}",
        "\u{3000}",
        "\u{FEFF}",
        " \u{200B}",
        "\u{2028}\t",
        "\u{AD}",
        "/",
        "//",
        ")/",
        "/html",
        "/full/html",
        "/Full/PDF",
        "/fulltext",
        "/meta",
        "/references",
        "/-/DCSupplemental",
        "/-/DCSupplemental.",
        "%2Fx",
        "%2f",
        "%2Fa%20b",
        "%2Fa%ZZ",
        "-\u{AD}-",
        "\u{2010}\u{2010}",
        "a\tb",
        "a\r\nb",
        ".pdf",
        ".HTM",
        "/1/f.pdf",
        "&x=1",
    ]);
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
