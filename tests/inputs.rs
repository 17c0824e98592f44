//! The inputs a user has (issue 28), each on a fixture shaped like the
//! real file that showed it: a typo in a JSON or Parquet path, a `;` CSV
//! (OpenAPC's German and Czech files), a ragged CSV (DBLP's VIS papers),
//! an Excel export (a DSpace one), and output to stdout.
//!
//! Run: `cargo test --test tests inputs`

use crate::hostile::write_parquet;
use crate::scan::{assert_no_temp_files, entries, scan};
use std::path::{Path, PathBuf};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(path)
}

/// `-c dooi` on OpenAlex works: every record is read before the path is
/// known to reach nothing, and then nothing is left of the output, the
/// report or the duplicates file.
#[test]
fn a_json_path_that_reaches_nothing_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let works = fixture("jsonl/openalex_works.jsonl");
    let works = works.to_str().unwrap();
    let outputs = ["-o", "out.parquet", "--report", "r.json", "--duplicates", "d.csv"];
    let run = |args: &[&str]| scan(d, &[&[works][..], args, &outputs].concat());
    run(&["-c", "dooi"]).usage_error(&[
        "--column dooi: reaches nothing in any record of",
        "openalex_works.jsonl",
        "(did you mean 'doi'?)",
        "keys seen there: id, doi, title",
    ]);
    run(&["-c", "doi", "-c", "ids.dooi"]).usage_error(&["--column ids.dooi", "(did you mean 'ids.doi'?)"]);
    run(&["-c", "locations[].landing_page_uri"]).usage_error(&["(did you mean 'locations[].landing_page_url'?)"]);
    run(&["-c", "doi", "--keep", "titel"]).usage_error(&["--keep titel", "(did you mean 'title'?)"]);
    assert_no_temp_files(d);
    assert!(entries(d).is_empty(), "{:?}", entries(d));

    // A key only the last record has, or one always null, is reached.
    std::fs::write(
        d.join("late.jsonl"),
        "{\"id\":1}\n{\"id\":2,\"doi\":null}\n{\"id\":3,\"x\":{\"doi\":\"10.1000/1\"}}\n",
    )
    .unwrap();
    scan(d, &["late.jsonl", "-c", "doi", "-c", "x.doi", "-q"]).ok();
}

/// The same typo into nested Parquet is found before reading a row.
#[test]
fn a_parquet_path_that_reaches_nothing_names_the_nearest_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_parquet(&d.join("works.parquet"), &crate::nested::works());
    scan(d, &["works.parquet", "-c", "ids.dooi", "-o", "out.csv"])
        .usage_error(&["ids has no field 'dooi' (did you mean 'doi'?)"]);
    scan(d, &["works.parquet", "-c", "idss.doi"]).usage_error(&["(did you mean 'ids'?)"]);
    assert_eq!(entries(d), ["works.parquet"]);
}
