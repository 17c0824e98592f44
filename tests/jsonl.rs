//! `hdlscan scan` on JSON: OpenAlex-, DataCite- and Crossref-shaped
//! records (`testdata/jsonl/`), paths into objects and lists, long output
//! with kept paths, bad lines (an error naming file and line, or counted
//! and reported skips), compressed input, and the flags that do not apply.
//!
//! Run: `cargo test --test tests jsonl`

use crate::scan::{Table, entries, read_json, scan};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jsonl").join(name)
}

#[test]
fn openalex_works_paths_and_lists_into_long_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = fixture("openalex_works.jsonl");
    let f = f.to_str().unwrap();
    scan(
        d,
        &[
            f,
            "-c",
            "doi",
            "-c",
            "ids.doi",
            "-c",
            "locations[].landing_page_url",
            "--keep",
            "ids.openalex",
            "-o",
            "out.csv",
            "--report",
            "r.json",
            "--duplicates",
            "d.csv",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(
        t.names[..6],
        ["record", "line", "column", "value_index", "value", "ids.openalex"]
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["records"], 4);
    assert_eq!(r["cells"], 12, "4 records × 3 paths");
    assert_eq!(r["values"].as_u64(), Some(t.rows.len() as u64), "a row per value");
    assert_eq!(r["run"]["output_shape"], "long");
    assert_eq!(r["run"]["inputs"][0]["format"], "jsonl");
    // The first work: its DOI three times, and a second location.
    let first: Vec<[&str; 4]> = (0..4)
        .map(|i| {
            [
                t.get(i, "column"),
                t.get(i, "value_index"),
                t.get(i, "canonical"),
                t.get(i, "ids.openalex"),
            ]
        })
        .collect();
    assert_eq!(
        first[0],
        ["doi", "1", "10.7717/peerj.4375", "https://openalex.org/W2741809807"]
    );
    assert_eq!(
        first[1],
        ["ids.doi", "1", "10.7717/peerj.4375", "https://openalex.org/W2741809807"]
    );
    assert_eq!(
        first[2][..3],
        ["locations[].landing_page_url", "1", "10.7717/peerj.4375"]
    );
    assert_eq!(first[3][..2], ["locations[].landing_page_url", "2"]);
    // A work whose doi is null is one empty value, not a lost one.
    assert!(r["errors"]["empty"]["count"].as_u64().unwrap() >= 1);
    // Each work's DOI in two or three places: clusters across columns.
    assert!(r["duplicates"]["across_columns"].as_u64().unwrap() >= 1);
    assert!(fs::read_to_string(d.join("d.csv")).unwrap().lines().count() > 1);
}

/// Every list element a path reaches is one value, so an audit counts the
/// versions without a DOI: a null or a missing key in an element is one
/// empty value at its position; an empty list (and a record without the
/// key) is one empty value for the cell. Shaped like a real curated file of
/// works with versions (testdata/real/README.md).
#[test]
fn every_list_element_is_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("w.jsonl"),
        concat!(
            r#"{"versions":[{"doi":"10.1016/j.pss.2006.12.007"},{"doi":null,"locations":[{"url":"https://hdl.handle.net/2060/20070014798"}]}]}"#,
            "\n",
            r#"{"versions":[{"doi":"10.1109/tps.2021.3110946","locations":[]},{}]}"#,
            "\n",
            r#"{"versions":[]}"#,
            "\n",
            r#"{"versions":{"doi":"10.1029/2024ja033490"}}"#,
            "\n",
        ),
    )
    .unwrap();
    scan(
        d,
        &[
            "w.jsonl",
            "-c",
            "versions[].doi",
            "-c",
            "versions[].locations[].url",
            "-o",
            "o.csv",
            "--report",
            "r.json",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    let rows: Vec<[&str; 5]> = (0..t.rows.len())
        .map(|i| {
            [
                t.get(i, "record"),
                t.get(i, "column"),
                t.get(i, "value_index"),
                t.get(i, "canonical"),
                t.get(i, "error"),
            ]
        })
        .collect();
    let (doi, url) = ("versions[].doi", "versions[].locations[].url");
    assert_eq!(
        rows,
        [
            ["1", doi, "1", "10.1016/j.pss.2006.12.007", ""],
            ["1", doi, "2", "", "empty"],
            // The first version has no locations key: a dead end, one empty value.
            ["1", url, "1", "", "empty"],
            ["1", url, "2", "2060/20070014798", ""],
            ["2", doi, "1", "10.1109/tps.2021.3110946", ""],
            ["2", doi, "2", "", "empty"],
            // An empty list gives nothing; the second version lacks the key.
            ["2", url, "1", "", "empty"],
            ["3", doi, "1", "", "empty"],
            ["3", url, "1", "", "empty"],
            // An object where a list was expected: a list of one.
            ["4", doi, "1", "10.1029/2024ja033490", ""],
            ["4", url, "1", "", "empty"],
        ]
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["values"], 11);
    assert_eq!(r["valid"], 4);
}

#[test]
fn bad_lines_stop_the_run_or_are_counted_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = fixture("malformed.jsonl");
    let f = f.to_str().unwrap();
    scan(d, &[f, "-c", "doi", "-o", "o.csv"]).fails_with(&["malformed.jsonl", "line 2", "not valid JSON"]);
    assert!(entries(d).is_empty());
    scan(d, &[f, "-c", "doi", "--skip-bad-lines", "--report", "r.json", "-q"]).ok();
    let r = read_json(&d.join("r.json"));
    assert_eq!((r["records"].as_u64(), r["skipped_lines"].as_u64()), (Some(3), Some(3)));
    assert_eq!(r["run"]["inputs"][0]["records"], 6, "every non-blank line is read");
    let notes: Vec<&str> = r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("line 4: an array, not a JSON object")),
        "{notes:?}"
    );
}

#[test]
fn crossref_items_with_records_and_a_hint_without() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = fixture("crossref_items.json");
    let f = f.to_str().unwrap();
    scan(d, &[f, "-c", "DOI", "-q"]).fails_with(&["--records KEY"]);
    scan(
        d,
        &[
            f,
            "-c",
            "DOI",
            "-c",
            "URL",
            "--records",
            "items",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["records"], 3);
    assert_eq!(r["cells"], 6);
}

#[test]
fn gzip_input_and_flags_that_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = fs::read(fixture("datacite.jsonl")).unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&data).unwrap();
    fs::write(d.join("dc.jsonl.gz"), e.finish().unwrap()).unwrap();
    fs::write(d.join("dc.jsonl"), &data).unwrap();
    scan(d, &["dc.jsonl.gz", "-c", "doi", "--report", "gz.json", "-q"]).ok();
    scan(d, &["dc.jsonl", "-c", "doi", "--report", "plain.json", "-q"]).ok();
    let (a, b) = (read_json(&d.join("gz.json")), read_json(&d.join("plain.json")));
    assert_eq!(
        (a["values"].clone(), a["valid"].clone()),
        (b["values"].clone(), b["valid"].clone())
    );
    scan(d, &["dc.jsonl", "-c", "doi", "-n"]).usage_error(&["-n/--no-headers applies to CSV/TSV input only", "jsonl"]);
    scan(d, &["dc.jsonl", "-c", "doi", "--keep", "creators[].name"]).usage_error(&["--keep", "drop the []"]);
    scan(d, &["dc.jsonl", "-c", "doi["]).usage_error(&["--column"]);
    fs::write(d.join("x.csv"), "doi\n10.1/x\n").unwrap();
    scan(d, &["x.csv", "-c", "doi", "--skip-bad-lines"]).usage_error(&["--skip-bad-lines applies to JSON input only"]);
}
