//! `hdlscan scan` on JSON: OpenAlex-, DataCite- and Crossref-shaped
//! records (`testdata/jsonl/`), paths into objects and lists, long output
//! with kept paths, bad lines (an error naming file and line, or counted
//! and reported skips), compressed input, and the flags that do not apply.
//!
//! Run: `cargo test --test tests jsonl`

use crate::hostile::{assert_rss, scan_measured_with_stdin};
use crate::scan::{Table, entries, read_json, scan, scan_in};
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
        [
            "record",
            "line",
            "source_column",
            "value_index",
            "value",
            "ids.openalex"
        ]
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["records"], 4);
    assert_eq!(r["cells"], 12, "4 records × 3 paths");
    assert_eq!(r["values"].as_u64(), Some(t.rows.len() as u64), "a row per value");
    assert_eq!(r["run"]["output_shape"], "long");
    assert_eq!(r["run"]["inputs"][0]["format"], "jsonl");
    // The first work: its DOI three times, and a second location.
    let first: Vec<[&str; 4]> = t.pick(["source_column", "value_index", "canonical", "ids.openalex"])[..4].to_vec();
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
    // Each work's DOI in two or three places: the work repeating its own
    // identifier, not a duplicate.
    assert!(r["duplicates"]["repeated_in_record"]["records"].as_u64().unwrap() >= 1);
    assert_eq!(r["duplicates"]["clusters"], 0);
    assert_eq!(fs::read_to_string(d.join("d.csv")).unwrap().lines().count(), 1);
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
    let rows = t.pick(["record", "source_column", "value_index", "canonical", "error"]);
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
    // One record written over several lines: the hint says what reads it.
    std::fs::write(d.join("one.json"), "{\n  \"doi\": \"10.1/a\"\n}\n").unwrap();
    scan(d, &["one.json", "-c", "doi", "-q"]).fails_with(&["if it is one record, write it on one line (jq -c . FILE)"]);
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
    // A `[]` in the path is the command line's fault, not the file's: a
    // usage error, in either spelling, before any input is read.
    for bad in ["items[]", "/items/[]"] {
        let msg = scan(d, &[f, "-c", "DOI", "--records", bad, "-q"]).usage_error(&["--records", "without []"]);
        assert!(!msg.contains("crossref_items.json"), "{msg}");
    }
}

/// A JSON file holding its records as a top-level array (`jq` output, an
/// API's `data` saved as is) is read with `--records '[]'`; without it, or
/// with a key, the error says so, whether the array is on one line or many.
#[test]
fn a_top_level_array_is_read_with_records_brackets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("one.json"), "[{\"doi\":\"10.1/a\"},{\"doi\":null},{\"id\":3}]\n").unwrap();
    fs::write(
        d.join("pretty.json"),
        "[\n  {\"doi\": \"10.1/a\"},\n  {\"doi\": \"10.1/b\"}\n]\n",
    )
    .unwrap();
    fs::write(d.join("two.json"), "[{\"doi\":\"10.1/a\"}]\n[{\"doi\":\"10.1/c\"}]\n").unwrap();
    let hint = "read an array of records with --records '[]'";
    scan(d, &["one.json", "-c", "doi", "-q"])
        .fails_with(&["one.json: record 1 (line 1): a JSON array, not JSON Lines", hint]);
    scan(d, &["pretty.json", "-c", "doi", "-q"]).fails_with(&["pretty.json", "--records '[]'"]);
    scan(d, &["one.json", "--records", "items", "-c", "doi", "-q"])
        .fails_with(&["one.json: line 1: a JSON array, not a JSON object", hint]);
    scan(
        d,
        &[
            "one.json",
            "--records",
            "[]",
            "-c",
            "doi",
            "-o",
            "o.csv",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    let r = read_json(&d.join("r.json"));
    assert_eq!((r["records"].as_u64(), r["valid"].as_u64()), (Some(3), Some(1)));
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!((t.get(2, "record"), t.get(2, "error")), ("3", "empty"));
    scan(d, &["pretty.json", "--records", "[]", "-c", "doi", "-o", "p.csv", "-q"]).ok();
    let t = Table::from_csv(&d.join("p.csv"), b',');
    assert_eq!(
        (t.get(1, "record"), t.get(1, "line"), t.get(1, "value")),
        ("2", "3", "10.1/b")
    );
    scan(
        d,
        &["two.json", "--records", "[]", "-c", "doi", "--report", "r2.json", "-q"],
    )
    .ok();
    assert_eq!(read_json(&d.join("r2.json"))["records"], 2);
    fs::write(d.join("obj.json"), "{\"items\": []}\n").unwrap();
    scan(d, &["obj.json", "--records", "[]", "-c", "doi", "-q"])
        .fails_with(&["obj.json: line 1: an object, not a JSON array (--records '[]')"]);
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
    scan(d, &["dc.jsonl.gz", "-c", "attributes.doi", "--report", "gz.json", "-q"]).ok();
    scan(d, &["dc.jsonl", "-c", "attributes.doi", "--report", "plain.json", "-q"]).ok();
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

/// A Crossref-shaped document, `{"status":"ok","message":{…,"items":[…]}}`,
/// of `items` works (each with a 1,500-byte abstract no path names), made
/// as it is read: the test never holds it.
struct CrossrefDocument {
    items: u64,
    next: u64,
    chunk: Vec<u8>,
    at: usize,
    done: bool,
}

impl CrossrefDocument {
    fn new(items: u64) -> CrossrefDocument {
        let head = br#"{"status":"ok","message-type":"work-list","message":{"facets":{},"total-results":0,"items":["#;
        CrossrefDocument {
            items,
            next: 0,
            chunk: head.to_vec(),
            at: 0,
            done: false,
        }
    }

    /// The document's size in bytes.
    fn len(items: u64) -> u64 {
        std::io::copy(&mut CrossrefDocument::new(items), &mut std::io::sink()).unwrap()
    }
}

impl std::io::Read for CrossrefDocument {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.done {
                return Ok(0);
            }
            self.chunk.clear();
            self.at = 0;
            // Works a few at a time, so reads end anywhere in one.
            for _ in 0..7 {
                if self.next == self.items {
                    self.chunk.extend_from_slice(br#"],"items-per-page":20}}"#);
                    self.done = true;
                    break;
                }
                if self.next > 0 {
                    self.chunk.push(b',');
                }
                let i = self.next;
                write!(
                    self.chunk,
                    "{{\"DOI\":\"10.5555/{i}\",\"abstract\":\"{}\",\"link\":[{{\"URL\":\"https://example.org/{i}\"}}],\n\"ISSN\":[\"1234-5678\"]}}",
                    "<jats:p>text \\\"quoted\\\" \\u00e9 and more</jats:p>".repeat(30)
                )
                .unwrap();
                self.next += 1;
            }
        }
        let n = out.len().min(self.chunk.len() - self.at);
        out[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Scans a Crossref-like document of `items` works piped to stdin with
/// `--records message.items`: within `rss_limit`, every work read and
/// valid. Returns the report.
fn stream_records(d: &Path, items: u64, what: &str, rss_limit: u64) -> serde_json::Value {
    let args = [
        "-",
        "--input-format",
        "jsonl",
        "--records",
        "message.items",
        "-c",
        "DOI",
        "--report",
        "r.json",
    ];
    let (run, rss) = scan_measured_with_stdin(d, &args, Some(Box::new(CrossrefDocument::new(items))));
    run.ok();
    assert_rss(what, rss, rss_limit);
    let r = read_json(&d.join("r.json"));
    assert_eq!((r["records"].as_u64(), r["valid"].as_u64()), (Some(items), Some(items)));
    r
}

/// `--records` reads a document as it streams in: one of 200 MB, from a
/// pipe, in a small part of its size (the whole document held was more
/// than its size), each work found and its line right.
#[test]
fn records_stream_a_document_larger_than_memory_allows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let items = 135_000;
    let size = CrossrefDocument::len(items);
    assert!(size > 200_000_000, "{size}");
    stream_records(d, items, "a 200 MB --records document", 150 << 20);
    // Each work starts on its own line but the first (after the head).
    let e = scan_in(
        d,
        &[
            "-",
            "--input-format",
            "jsonl",
            "--records",
            "message.items",
            "-c",
            "DOI",
            "-o",
            "out.csv",
            "-q",
        ],
        Some(&{
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut CrossrefDocument::new(3), &mut v).unwrap();
            v
        }),
    );
    e.ok();
    let t = Table::from_csv(&d.join("out.csv"), b',');
    let got: Vec<[&str; 3]> = t.pick(["record", "line", "canonical"])[..3].to_vec();
    assert_eq!(
        got,
        [
            ["1", "1", "10.5555/0"],
            ["2", "2", "10.5555/1"],
            ["3", "3", "10.5555/2"]
        ]
    );
}

/// The same past the 4 GiB a document could have when it was read whole
/// (`--records` had a limit of 4 GiB - 1). Some minutes in a debug build:
/// `cargo test --release --test tests jsonl::records_past_4_gib -- --ignored`.
#[test]
#[ignore]
fn records_past_4_gib() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = stream_records(d, 2_600_000, "a 4.3 GB --records document", 200 << 20);
    assert!(r["run"]["input_bytes"].as_u64().unwrap() > 4 << 30, "{}", r["run"]);
}

/// A JSON line holding bytes that are not UTF-8 (a producer that wrote
/// Latin-1) is `bad_utf8`, and the notes do not advise `--encoding`, which
/// is a usage error with JSON input.
#[test]
fn bad_utf8_in_json_is_not_sent_to_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("l1.jsonl"),
        b"{\"doi\":\"10.1000/caf\xe9\"}\n{\"doi\":\"10.1000/182\"}\n",
    )
    .unwrap();
    scan(d, &["l1.jsonl", "-c", "doi", "--report", "r.json", "-q"]).ok();
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["errors"]["bad_utf8"]["count"], 1);
    let notes = r["notes"].to_string();
    assert!(!notes.contains("--encoding"), "{notes}");
    scan(d, &["l1.jsonl", "-c", "doi", "--encoding", "windows-1252", "-q"]).usage_error(&["--encoding"]);
}

/// Long output of JSON carries each record's line, as CSV's does, and the
/// help says so (it named CSV and TSV only).
#[test]
fn json_long_output_has_lines_and_the_help_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("w.jsonl"), "{\"doi\":\"10.1/a\"}\n\n{\"doi\":\"10.1/b\"}\n").unwrap();
    scan(d, &["w.jsonl", "-c", "doi", "-o", "o.csv", "-q"]).ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!((t.get(0, "line"), t.get(1, "line")), ("1", "3"));
    let help = crate::scan::scan_help();
    assert!(
        help.contains("line (where the record starts in CSV,\n        TSV and JSON"),
        "{help}"
    );
}

/// A kept key that is `null` or missing is null in the output, as the
/// input has it, and an empty string stays one: they were all written "",
/// so a join on the kept column could not tell them apart. The
/// identifier's own null or missing key is still one empty value.
#[test]
fn a_kept_null_or_missing_key_is_null() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("k.jsonl"),
        "{\"doi\":\"10.1/a\",\"o\":null}\n{\"doi\":\"10.1/b\"}\n{\"doi\":\"10.1/c\",\"o\":\"x\"}\n{\"doi\":\"10.1/d\",\"o\":\"\"}\n{\"o\":\"y\"}\n",
    )
    .unwrap();
    scan(d, &["k.jsonl", "-c", "doi", "--keep", "o", "-o", "k.parquet", "-q"]).ok();
    let (_, batches) = crate::scan::read_parquet(&d.join("k.parquet"));
    let kept: Vec<Option<String>> = batches
        .iter()
        .flat_map(|b| {
            let col = b.column(b.schema().index_of("o").unwrap()).clone();
            (0..b.num_rows()).map(move |i| crate::scan::cell(&col, i))
        })
        .collect();
    assert_eq!(
        kept,
        [None, None, Some("x".into()), Some(String::new()), Some("y".into())]
    );
    scan(d, &["k.jsonl", "-c", "doi", "--keep", "o", "-o", "k.out.jsonl", "-q"]).ok();
    let lines: Vec<serde_json::Value> = fs::read_to_string(d.join("k.out.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let o: Vec<&serde_json::Value> = lines.iter().map(|l| &l["o"]).collect();
    assert_eq!(
        o,
        [
            &serde_json::Value::Null,
            &serde_json::Value::Null,
            &"x".into(),
            &"".into(),
            &"y".into()
        ]
    );
    // The identifier missing in record 5: one empty value.
    assert_eq!(
        (lines[4]["value"].as_str(), lines[4]["error"].as_str()),
        (Some(""), Some("empty"))
    );
}
