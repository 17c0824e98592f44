//! The committed test data: `testdata/sample_export.csv` (hand-placed
//! [`SHOWCASE`] rows, one over-long value, then [`SAMPLE_ROWS`] generated
//! rows), and the seeds and sizes of `testdata/bench_values.txt` and
//! `bench_values_v2.txt` (written by [`crate::values::write_values`]).
//! Regenerate all three with `cargo run --release --example gen_sample`.

use crate::csv::{push_header, push_row, write_rows};
use crate::tables::{COLLECTIONS, DC_TYPES};
use crate::{Layout, Row, SplitMix64, Synth};
use std::io::{self, Write};

/// Seed of the generated rows of `testdata/sample_export.csv`.
pub const SAMPLE_SEED: u64 = 0x4844_4C53_4341_4E01;
/// How many generated rows `testdata/sample_export.csv` holds.
pub const SAMPLE_ROWS: u64 = 3000;
/// Seed of `testdata/bench_values.txt` ([`BENCH_VALUES`] values of
/// [`Mix::V1`](crate::Mix::V1)), and `hdlscan bench`'s default.
pub const BENCH_SEED: u64 = 0x4844_4C53_4341_4E02;
/// How many values each bench file holds.
pub const BENCH_VALUES: usize = 50_000;
/// Seed of `testdata/bench_values_v2.txt` ([`BENCH_VALUES`] values of
/// [`Mix::V2`](crate::Mix::V2)).
pub const BENCH_V2_SEED: u64 = 0x4844_4C53_4341_4E03;

/// Hand-placed sample rows: `(title, identifier)`, every form and every dirt
/// case at least once. They open `testdata/sample_export.csv`.
pub const SHOWCASE: &[(&str, &str)] = &[
    // Bare DOIs.
    ("D-Lib: the DOI example (bare DOI)", "10.1045/april2006-paskin"),
    ("Elsevier journal DOI", "10.1016/j.cell.2020.01.001"),
    ("Elsevier PII DOI, with parentheses", "10.1016/S0140-6736(20)30183-5"),
    (
        "Wiley SICI DOI: <>;:() are part of it",
        "10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9",
    ),
    ("AMS SICI DOI", "10.1175/1520-0469(1998)055<1161:TSOWAI>2.0.CO;2"),
    ("Springer article DOI", "10.1007/s00000-020-01234-5"),
    ("Springer chapter DOI", "10.1007/978-3-030-12345-6_7"),
    ("arXiv DOI", "10.48550/arXiv.2101.00001"),
    ("Zenodo DOI", "10.5281/zenodo.123456"),
    ("Harvard Dataverse DOI", "10.7910/DVN/ABC123"),
    ("figshare DOI", "10.6084/m9.figshare.1234567.v2"),
    (
        "DOI ending in a ) it opened: not trailing punctuation",
        "10.3319/TAO.2009.05.25.02(IWNOP)",
    ),
    ("DOI in mixed case", "10.1045/April2006-Paskin"),
    ("shortDOI", "10/aabbe"),
    ("DOI with a derived prefix", "10.1000.10/123"),
    // DOI resolver URLs.
    ("doi.org URL", "https://doi.org/10.1000/182"),
    ("legacy dx.doi.org over http", "http://dx.doi.org/10.1000/182"),
    ("dx.doi.org over https", "https://dx.doi.org/10.1038/nature12373"),
    ("doi.org without a scheme", "doi.org/10.1371/journal.pone.0123456"),
    ("www.doi.org", "https://www.doi.org/10.1109/CVPR.2016.90"),
    (
        "upper-case scheme and host",
        "HTTPS://DOI.ORG/10.1080/00207543.2019.1234567",
    ),
    (
        "doi: label inside the URL path",
        "https://doi.org/doi:10.1093/nar/gkz123",
    ),
    (
        "SICI DOI in a URL, encoded",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6%3C637::AID-TEA4%3E3.0.CO;2-9",
    ),
    (
        "SICI DOI in a URL, not encoded",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9",
    ),
    ("DOI through the handle proxy", "https://hdl.handle.net/10.1000/182"),
    (
        "DataCite test resolver",
        "https://handle.stage.datacite.org/10.5072/abc-123",
    ),
    // Handle URLs.
    ("Handle proxy URL", "http://hdl.handle.net/1721.1/12345"),
    (
        "Handle proxy with a query",
        "https://hdl.handle.net/1721.1/123?noredirect",
    ),
    (
        "DSpace local handle URL",
        "https://repo.example.edu/handle/2027.42/1234",
    ),
    ("hdl.handle.net without a scheme", "hdl.handle.net/2027.42/67890"),
    (
        "Handle REST API URL",
        "https://hdl.handle.net/api/handles/20.500.12345/678",
    ),
    (
        "three-segment /hdl/ resolver",
        "http://arrow.resolver.au.gov:2641/hdl/100.102/F58F",
    ),
    // Bare handles.
    ("bare handle (Deep Blue)", "2027.42/12345"),
    ("bare handle (DSpace@MIT)", "1721.1/98765"),
    (
        "bare handle, 20.500 prefix, UUID suffix",
        "20.500.11820/3f2b5c1e-8d4a-4b7e-9c1a-2e5f6a7b8c9d",
    ),
    ("unconfigured DSpace prefix", "123456789/42"),
    ("prefix handle", "0.NA/10.1045"),
    // doi: labels.
    ("doi: label", "doi:10.1000/182"),
    ("DOI: label with a space", "DOI: 10.1000/182"),
    ("DOI and a space, no colon", "DOI 10.1038/s41586-020-2012-7"),
    ("doubled label", "doi:doi:10.1093/nar/gkz123"),
    ("urn:doi: with : for the first /", "urn:doi:10.1000:182"),
    // hdl: and info: URIs.
    ("hdl: URI", "hdl:1721.1/12345"),
    ("HDL: with a fragment", "HDL:1234/567#frag"),
    ("hdl: with a query", "hdl:1234/567?locatt=view:1"),
    (
        "hdl:// with the prefix as host",
        "hdl://100.102/F58FB49EB1F848f0A606E84CEF294BE5",
    ),
    ("hdl:// with a server", "hdl://190.12.34.56/1234/567"),
    ("hdl:// ambiguous host", "hdl://CNRI.TEST/a/b"),
    ("info:hdl/", "info:hdl/2027.42/12345"),
    ("info:doi/", "info:doi/10.1000/182"),
    ("INFO:DOI/ upper case", "INFO:DOI/10.1000/182"),
    ("info:pmid/", "info:pmid/12376099"),
    (
        "info:sici/ with escapes",
        "info:sici/0363-0277(19950315)120:5%3c%3e1.0.TX;2-V",
    ),
    (
        "INFO:PII/ with escaped unreserved chars",
        "INFO:PII/S0888%2D7543%2802%2996852%2D7",
    ),
    ("info: namespace not in the draft", "info:ark/13030/tf5p30086k"),
    // Dirt: whitespace and invisibles.
    ("spaces around", "  10.1000/182  "),
    ("a tab in front", "\t10.1000/182"),
    ("NBSP around", "\u{A0}10.1016/j.cell.2020.01.001\u{A0}"),
    ("BOM in front", "\u{FEFF}10.1000/182"),
    ("zero-width space inside", "10.1000/1\u{200B}82"),
    ("soft hyphen inside", "10.1038/nature\u{AD}12373"),
    (
        "zero-width joiner and word joiner inside",
        "2027.42/12\u{200D}34\u{2060}5",
    ),
    ("BOM inside", "10.5281/zenodo.12\u{FEFF}3456"),
    // Dirt: trailing punctuation.
    ("trailing period", "10.1000/182."),
    ("trailing comma", "https://doi.org/10.1016/j.cell.2020.01.001,"),
    ("trailing semicolon", "doi:10.1000/182;"),
    ("unopened trailing parenthesis", "10.1007/s00000-020-01234-5)"),
    ("trailing period on a handle URL", "http://hdl.handle.net/1721.1/12345."),
    // Dirt: Unicode dashes.
    ("hyphen U+2010", "10.1007/s00000\u{2010}020\u{2010}01234\u{2010}5"),
    ("en dash U+2013", "10.1038/s41586\u{2013}020\u{2013}2012\u{2013}7"),
    (
        "minus sign U+2212",
        "https://doi.org/10.1016/S0140\u{2212}6736(20)30183\u{2212}5",
    ),
    // Dirt: HTML entities.
    (
        "&lt; and &gt; in a SICI DOI",
        "10.1002/(SICI)1098-2736(199908)36:6&lt;637::AID-TEA4&gt;3.0.CO;2-9",
    ),
    ("&amp; in a suffix", "10.1000/ab&amp;cd"),
    // Dirt: publisher suffixes.
    (
        "/abstract after a DOI",
        "https://doi.org/10.1002/anie.201912345/abstract",
    ),
    ("/full after a DOI", "10.1111/j.1365-2486.2009.01234.x/full"),
    ("/pdf after a DOI", "doi:10.1002/adma.202001234/pdf"),
    ("/epdf after a DOI", "10.1002/adma.202001234/epdf"),
    // Dirt: percent-encoding.
    ("%2F separator in a URL", "https://doi.org/10.1000%2F182"),
    ("%252F (double-encoded) separator", "https://doi.org/10.1000%252F182"),
    ("%2F in a bare value: no slash", "10.1007%2FBF01451751"),
    ("%2f in a handle URL", "https://hdl.handle.net/1721.1%2f12345"),
    // Dirt: test prefixes, spaces, glued DOIs.
    ("DataCite test prefix", "10.5072/FK2ABC123"),
    ("test prefix in a URL", "https://doi.org/10.5072/zenodo.1234"),
    ("space inside the suffix", "10.1016/j.cell. 2020.01.001"),
    ("two DOIs glued", "10.1016/j.cell.2020.01.00110.1016/j.cell.2020.01.002"),
    ("prefix pasted twice", "10.1002/10.1002/anie.201912345"),
    // Junk.
    ("empty identifier", ""),
    ("N/A", "N/A"),
    ("n/a", "n/a"),
    ("a dash", "-"),
    ("TBD", "TBD"),
    ("none", "none"),
    ("ISBN URN", "urn:isbn:0451450523"),
    ("ISBN in text", "ISBN 978-0-306-40615-7"),
    ("not a resolver URL", "https://example.com/paper/1"),
    (
        "publisher landing page, not a resolver",
        "https://onlinelibrary.wiley.com/doi/10.1002/anie.201912345",
    ),
    ("JSTOR stable URL", "http://www.jstor.org/stable/1234567"),
    ("DOI prefix without a suffix", "10.1000"),
    ("empty suffix", "12345/"),
    ("bad percent escape", "hdl:1234/5%G7"),
    ("PMID in text", "PMID: 12376099"),
    // Duplicates of rows above, in other cases and forms.
    ("duplicate: upper case", "10.1045/APRIL2006-PASKIN"),
    ("duplicate: as a URL", "https://doi.org/10.1045/april2006-paskin"),
    ("duplicate: as info:doi/", "info:doi/10.1045/april2006-paskin"),
    ("duplicate: same handle as a bare value", "1721.1/12345"),
    ("duplicate: the very same string", "10.1000/182"),
    // CSV quoting in titles.
    ("Title with a comma, and \"quotes\"", "10.1371/journal.pone.0123456"),
    ("Title with an embedded\nline break", "2027.42/12345"),
    // Added later, at the end so that the record numbers above stay put
    // (tests name showcase rows by record number).
    (
        "double-encoded escapes in a SICI DOI URL",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6%253C637::AID-TEA4%253E3.0.CO;2-9",
    ),
    ("a tab inside (control character)", "10.1000/\t182"),
    ("empty prefix", "/12345"),
    ("DOI prefix that is not all digits", "10.abc/x"),
    ("hdl:// with an empty host", "hdl:///1234/567"),
    ("info: namespace that is not a scheme name", "info:1abc/x"),
    ("info:pmid/ that is not digits", "info:pmid/12a34"),
];

/// Writes `testdata/sample_export.csv`: the header, [`SHOWCASE`] rows (ids
/// from 1), one row whose identifier is over 2048 bytes, then
/// [`SAMPLE_ROWS`] rows generated with [`SAMPLE_SEED`].
pub fn write_sample_csv<W: Write>(mut w: W) -> io::Result<()> {
    let mut buf = Vec::new();
    push_header(&mut buf, &Layout::DSPACE);
    let mut rng = SplitMix64::new(SAMPLE_SEED ^ 0xFFFF);
    for (i, &(title, identifier)) in SHOWCASE.iter().enumerate() {
        let row = Row {
            id: i as u64 + 1,
            collection: rng.pick(COLLECTIONS).to_string(),
            title: format!("Showcase: {title}"),
            date_issued: format!("{}", rng.range(2000, 2024)),
            dc_type: rng.from_table(&DC_TYPES),
            identifier: identifier.to_string(),
        };
        push_row(&mut buf, &Layout::DSPACE, &row);
    }
    // An identifier cell holding a pasted abstract: over the 2048-byte limit.
    let mut long = String::from("10.1000/182 Abstract:");
    while long.len() <= 2100 {
        long.push_str(" We study the effects of soil carbon dynamics on river basin water quality.");
    }
    let row = Row {
        id: SHOWCASE.len() as u64 + 1,
        collection: COLLECTIONS[0].to_string(),
        title: "Showcase: an abstract pasted into the identifier (too long)".to_string(),
        date_issued: "2019".to_string(),
        dc_type: "Article",
        identifier: long,
    };
    push_row(&mut buf, &Layout::DSPACE, &row);
    w.write_all(&buf)?;
    let first = SHOWCASE.len() as u64 + 2;
    let mut synth = Synth::new(SAMPLE_SEED);
    write_rows(&mut w, &Layout::DSPACE, &mut synth, first, SAMPLE_ROWS)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mix;
    use crate::values::write_values;

    #[test]
    fn sample_csv_parses() {
        let mut out = Vec::new();
        write_sample_csv(&mut out).unwrap();
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let recs: Vec<_> = rd.records().map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), SHOWCASE.len() + 1 + SAMPLE_ROWS as usize);
        for (rec, (_, id)) in recs.iter().zip(SHOWCASE) {
            assert_eq!(&rec[5], *id);
        }
    }

    #[test]
    fn committed_testdata_is_current() {
        // Cargo's run-time variable first: a test binary built in another
        // clone of the workspace sharing its target directory (identical
        // sources, so not rebuilt) has that clone's path compiled in.
        let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
        let dir = std::path::Path::new(&manifest).join("../../testdata");
        let mut csv = Vec::new();
        write_sample_csv(&mut csv).unwrap();
        let mut vals = Vec::new();
        write_values(&mut vals, BENCH_VALUES, BENCH_SEED, Mix::V1).unwrap();
        let mut vals2 = Vec::new();
        write_values(&mut vals2, BENCH_VALUES, BENCH_V2_SEED, Mix::V2).unwrap();
        let regen = "regenerate with `cargo run --release --example gen_sample`";
        assert!(std::fs::read(dir.join("sample_export.csv")).unwrap() == csv, "{regen}");
        assert!(std::fs::read(dir.join("bench_values.txt")).unwrap() == vals, "{regen}");
        assert!(
            std::fs::read(dir.join("bench_values_v2.txt")).unwrap() == vals2,
            "{regen}"
        );
    }
}
