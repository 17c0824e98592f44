//! The inputs a user has (issue 28), each on a fixture shaped like the
//! real file that showed it: a typo in a JSON or Parquet path, a `;` CSV
//! (OpenAPC's German and Czech files), a ragged CSV (DBLP's VIS papers),
//! an Excel export (a DSpace one), and output to stdout.
//!
//! Run: `cargo test --test tests inputs`

use crate::hostile::write_parquet;
use crate::scan::{assert_no_temp_files, entries, read_json, scan};
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

/// OpenAPC's FWF file is `;`-separated: read so without `--delimiter`,
/// and the summary and the report say how.
#[test]
fn a_semicolon_csv_is_read_with_its_delimiter() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fwf = fixture("inputs/openapc_fwf_2016_semicolon.csv");
    let fwf = fwf.to_str().unwrap();
    let run = scan(d, &[fwf, "-c", "doi", "-o", "out.csv", "--report", "r.json"]).ok();
    assert!(
        run.stderr
            .contains("read with ';' as the delimiter (--delimiter ';'): its header is one column with ','"),
        "{}",
        run.stderr
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["records"].as_u64(), r["valid"].as_u64()),
        (Some(10), Some(10)),
        "{r}"
    );
    assert_eq!(r["run"]["options"]["delimiter"], ";");
    let out = std::fs::read_to_string(d.join("out.csv")).unwrap();
    assert!(out.starts_with("period,doi,record,kind,"), "{out}");
    // A delimiter given is used as it is: one column, and the hint.
    scan(d, &[fwf, "-c", "doi", "-d", ","]).usage_error(&["add --delimiter ';'"]);
    // A tab or `|` too; a TSV's tab is not second-guessed.
    std::fs::write(d.join("pipe.csv"), "id|doi\n1|10.1000/1\n").unwrap();
    scan(d, &["pipe.csv", "-c", "doi", "-q"]).ok();
    std::fs::write(d.join("semi.tsv"), "id;doi\n1;10.1000/1\n").unwrap();
    scan(d, &["semi.tsv", "-c", "doi"]).usage_error(&["add --delimiter ';'"]);
}

/// DBLP's VIS papers: 4 names, 5 fields a record.
#[test]
fn ragged_rows_are_an_error_or_padded_or_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let vis = fixture("inputs/dblp_vis_ragged.csv");
    let vis = vis.to_str().unwrap();
    scan(d, &[vis, "-c", "doi", "-o", "out.csv"]).fails_with(&[
        "dblp_vis_ragged.csv: record 1 (line 2): expected 4 fields, found 5",
        "--ragged extra",
    ]);
    scan(d, &[vis, "-c", "doi", "--ragged", "pad"]).fails_with(&["record 1 (line 2)", "--ragged extra"]);
    assert_eq!(entries(d), Vec::<String>::new());
    let run = scan(
        d,
        &[
            vis, "-c", "doi", "--ragged", "extra", "-o", "out.csv", "--report", "r.json",
        ],
    )
    .ok();
    assert!(
        run.stderr
            .contains("records have up to 5 fields and the header 4 names: the fields past it are read as column_5"),
        "{}",
        run.stderr
    );
    let out = std::fs::read_to_string(d.join("out.csv")).unwrap();
    let mut lines = out.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("year,venue,title,doi,column_5,record,kind,"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .contains(",https://dblp.org/rec/journals/tvcg/IsenbergHKIXSSCMS17,1,doi,")
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["valid"].as_u64(), r["run"]["options"]["ragged"].as_str()),
        (Some(3), Some("extra"))
    );

    // Short rows: an error naming the record, or padded.
    std::fs::write(d.join("short.csv"), "id,doi,title\n1,10.1000/1,A\n2,10.1000/2\n").unwrap();
    scan(d, &["short.csv", "-c", "doi"]).fails_with(&[
        "short.csv: record 2 (line 3): expected 3 fields, found 2",
        "--ragged pad",
    ]);
    for how in ["pad", "extra"] {
        scan(d, &["short.csv", "-c", "doi", "--ragged", how, "-q"]).ok();
    }
    // The earlier flag is `--ragged pad`.
    scan(d, &["short.csv", "-c", "doi", "--allow-short-rows", "-q"]).ok();
    scan(d, &["short.csv", "-c", "doi", "--ragged", "wide"]).usage_error(&["pad or extra"]);
    let works = fixture("jsonl/openalex_works.jsonl");
    scan(d, &[works.to_str().unwrap(), "-c", "doi", "--ragged", "pad"])
        .usage_error(&["--ragged applies to CSV/TSV input only"]);
}
