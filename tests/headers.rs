//! Honest headers: a column chosen by the name the user typed even when
//! the header cell carries a no-break space or another case; errors that
//! show invisible characters and suggest the nearest name; names made
//! unique for Parquet; a header line that is really data.
//!
//! Run: `cargo test --test tests headers`

use crate::scan::{Table, entries, read_json, read_parquet, scan};
use std::fs;

#[test]
fn a_name_with_a_no_break_space_or_another_case_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.csv"), "ID,doi\u{a0},Title\n1,10.1000/1,x\n").unwrap();
    scan(
        d,
        &[
            "in.csv", "-c", "doi", "--keep", "id", "--long", "-o", "o.csv", "--report", "r.json",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!((t.get(0, "ID"), t.get(0, "canonical")), ("1", "10.1000/1"));
    assert_eq!(read_json(&d.join("r.json"))["columns"][0]["name"], "doi\u{a0}");
}

#[test]
fn errors_escape_invisible_characters_and_suggest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("in.csv"),
        "id,doi\u{a0},Doi\u{200b},handle\n1,10.1/x,10.1/y,1/2\n",
    )
    .unwrap();
    // Two columns differ from `doi` only in white space or case.
    scan(d, &["in.csv", "-c", "DOI"]).usage_error(&["2 columns differ", "doi\\u00a0 (2)", "Doi\\u200b (3)"]);
    let e = scan(d, &["in.csv", "-c", "handel"]).usage_error(&["did you mean 'handle'?"]);
    assert!(e.contains("columns are: id, doi\\u00a0, Doi\\u200b, handle"), "{e}");
    assert!(!e.contains('\u{a0}') && !e.contains('\u{200b}'), "{e}");
    assert_eq!(entries(d), ["in.csv"]);
}

#[test]
fn empty_and_repeated_names_are_made_unique_for_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.csv"), "doi,,doi,x\n10.1/a,b,10.1/c,d\n").unwrap();
    scan(d, &["in.csv", "-c", "1", "-o", "o.parquet"]).ok();
    let (schema, _) = read_parquet(&d.join("o.parquet"));
    let names: Vec<&str> = schema.fields().iter().take(4).map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["doi", "column_2", "doi_2", "x"]);
    // CSV keeps the header as it was.
    scan(d, &["in.csv", "-c", "1", "-o", "o.csv"]).ok();
    assert!(
        fs::read_to_string(d.join("o.csv"))
            .unwrap()
            .starts_with("doi,,doi,x,record,")
    );
}

#[test]
fn a_header_that_is_an_identifier_gets_a_note_suggesting_no_headers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("dois.csv"), "10.1000/1\n10.1000/2\n").unwrap();
    let run = scan(d, &["dois.csv", "-c", "1", "--report", "r.json"]).ok();
    assert!(
        run.stderr
            .contains("note: the header of column \"10.1000/1\" is itself a valid doi"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("add -n"));
    assert_eq!(read_json(&d.join("r.json"))["notes"].as_array().unwrap().len(), 1);
    let run = scan(d, &["dois.csv", "-n", "-c", "1", "--report", "r.json"]).ok();
    assert!(!run.stderr.contains("note:"), "{}", run.stderr);
    assert_eq!(read_json(&d.join("r.json"))["records"], 2);
}

#[test]
fn a_header_of_five_million_fields_is_a_clear_error_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A 10 MB line of five million fields, then one record.
    let mut line = ",".repeat(4_999_999);
    line.push('\n');
    fs::write(d.join("wide.csv"), format!("{line}{line}")).unwrap();
    let (run, rss) = crate::hostile::scan_measured(d, &["wide.csv", "-c", "1", "--max-record-mib", "64"]);
    run.fails_with(&["5000000 fields", "at most 500000 columns", "-d"]);
    crate::hostile::assert_rss("a 10 MB header of five million fields", rss, 300 << 20);
}
