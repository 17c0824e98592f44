//! `hdlscan scan` reading values, not rows: several columns chosen by
//! name, number or pattern, cells split into values, long output with
//! `--keep` columns, `--expect COLUMN=NS`, inputs whose columns differ, and
//! the bad command lines around them.
//!
//! Run: `cargo test --test tests values`

use crate::hostile::{assert_rss, scan_measured};
use crate::scan::{Table, assert_no_temp_files, entries, p, read_json, read_parquet, scan};
use std::fs;
use std::path::{Path, PathBuf};

fn dspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/dspace/export.csv")
}

/// The DSpace fixture's values, in output order: record, line, column,
/// value_index, value, id (kept), kind, canonical, error.
const DSPACE_LONG: &[[&str; 9]] = &[
    [
        "1",
        "2",
        "dc.identifier.uri",
        "1",
        "http://hdl.handle.net/10568/1001",
        "5f1c0e2a-0001",
        "resolver_url",
        "10568/1001",
        "",
    ],
    [
        "1",
        "2",
        "dc.identifier.uri",
        "2",
        "https://doi.org/10.1016/j.fcr.2019.107659",
        "5f1c0e2a-0001",
        "resolver_url",
        "10.1016/j.fcr.2019.107659",
        "",
    ],
    [
        "1",
        "2",
        "dc.identifier.uri[]",
        "1",
        "",
        "5f1c0e2a-0001",
        "invalid",
        "",
        "empty",
    ],
    [
        "1",
        "2",
        "dc.identifier.uri[en_US]",
        "1",
        "",
        "5f1c0e2a-0001",
        "invalid",
        "",
        "empty",
    ],
    [
        "1",
        "2",
        "dc.identifier.doi",
        "1",
        "10.1016/j.fcr.2019.107659",
        "5f1c0e2a-0001",
        "doi",
        "10.1016/j.fcr.2019.107659",
        "",
    ],
    [
        "2",
        "3",
        "dc.identifier.uri",
        "1",
        "http://hdl.handle.net/10568/1002",
        "5f1c0e2a-0002",
        "resolver_url",
        "10568/1002",
        "",
    ],
    [
        "2",
        "3",
        "dc.identifier.uri[]",
        "1",
        "https://hdl.handle.net/10568/1002",
        "5f1c0e2a-0002",
        "resolver_url",
        "10568/1002",
        "",
    ],
    [
        "2",
        "3",
        "dc.identifier.uri[en_US]",
        "1",
        "",
        "5f1c0e2a-0002",
        "invalid",
        "",
        "empty",
    ],
    [
        "2",
        "3",
        "dc.identifier.doi",
        "1",
        "",
        "5f1c0e2a-0002",
        "invalid",
        "",
        "empty",
    ],
    [
        "3",
        "4",
        "dc.identifier.uri",
        "1",
        "",
        "5f1c0e2a-0003",
        "invalid",
        "",
        "empty",
    ],
    [
        "3",
        "4",
        "dc.identifier.uri[]",
        "1",
        "",
        "5f1c0e2a-0003",
        "invalid",
        "",
        "empty",
    ],
    [
        "3",
        "4",
        "dc.identifier.uri[en_US]",
        "1",
        "http://hdl.handle.net/10568/1003",
        "5f1c0e2a-0003",
        "resolver_url",
        "10568/1003",
        "",
    ],
    [
        "3",
        "4",
        "dc.identifier.uri[en_US]",
        "2",
        "http://dx.doi.org/10.1111/gcb.13809",
        "5f1c0e2a-0003",
        "resolver_url",
        "10.1111/gcb.13809",
        "",
    ],
    [
        "3",
        "4",
        "dc.identifier.doi",
        "1",
        "doi:10.1111/GCB.13809",
        "5f1c0e2a-0003",
        "doi",
        "10.1111/gcb.13809",
        "",
    ],
    [
        "4",
        "5",
        "dc.identifier.uri",
        "1",
        "http://hdl.handle.net/10568/1004",
        "5f1c0e2a-0004",
        "resolver_url",
        "10568/1004",
        "",
    ],
    [
        "4",
        "5",
        "dc.identifier.uri[]",
        "1",
        "",
        "5f1c0e2a-0004",
        "invalid",
        "",
        "empty",
    ],
    [
        "4",
        "5",
        "dc.identifier.uri[en_US]",
        "1",
        "",
        "5f1c0e2a-0004",
        "invalid",
        "",
        "empty",
    ],
    [
        "4",
        "5",
        "dc.identifier.doi",
        "1",
        "N/A",
        "5f1c0e2a-0004",
        "invalid",
        "",
        "placeholder",
    ],
    [
        "5",
        "6",
        "dc.identifier.uri",
        "1",
        "http://hdl.handle.net/10568/1005",
        "5f1c0e2a-0005",
        "resolver_url",
        "10568/1005",
        "",
    ],
    [
        "5",
        "6",
        "dc.identifier.uri[]",
        "1",
        "",
        "5f1c0e2a-0005",
        "invalid",
        "",
        "empty",
    ],
    [
        "5",
        "6",
        "dc.identifier.uri[en_US]",
        "1",
        "",
        "5f1c0e2a-0005",
        "invalid",
        "",
        "empty",
    ],
    [
        "5",
        "6",
        "dc.identifier.doi",
        "1",
        "https://doi.org/10.5194/hess-26-1-2022.",
        "5f1c0e2a-0005",
        "resolver_url",
        "10.5194/hess-26-1-2022.",
        "",
    ],
];

const DSPACE_ARGS: [&str; 8] = [
    "-c",
    "dc.identifier.uri*",
    "-c",
    "dc.identifier.doi",
    "--split",
    "||",
    "--keep",
    "id",
];

fn check_dspace_long(t: &Table) {
    let lead = [
        "record",
        "line",
        "source_column",
        "value_index",
        "value",
        "id",
        "kind",
        "canonical",
        "error",
    ];
    assert_eq!(
        &t.names[..6],
        &lead[..6],
        "long output starts with where a value was read, then --keep"
    );
    assert_eq!(t.rows.len(), DSPACE_LONG.len(), "a row per value");
    for (i, want) in DSPACE_LONG.iter().enumerate() {
        let got: Vec<&str> = lead.iter().map(|c| t.get(i, c)).collect();
        assert_eq!(&got[..], &want[..], "row {i}");
    }
}

#[test]
fn dspace_export_long_csv_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec![p(&dspace().clone()).to_string()];
    args.extend(DSPACE_ARGS.iter().map(|s| s.to_string()));
    args.extend(["-o", "values.csv", "--report", "r.json"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    scan(d, &args).ok();
    check_dspace_long(&Table::from_csv(&d.join("values.csv"), b','));
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["records"], 5);
    assert_eq!(r["cells"], 20, "5 records × 4 columns");
    assert_eq!(r["values"], 22, "two cells hold two values");
    assert_eq!(r["present"], 11);
    assert_eq!(r["valid"], 11);
    assert_eq!(r["valid_of_present"], 1.0);
    assert_eq!(r["run"]["output_shape"], "long");
    let cols: Vec<(&str, u64, u64, u64)> = r["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["cells"].as_u64().unwrap(),
                c["values"].as_u64().unwrap(),
                c["valid"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cols,
        [
            ("dc.identifier.uri", 5, 6, 5),
            ("dc.identifier.uri[]", 5, 5, 1),
            ("dc.identifier.uri[en_US]", 5, 6, 2),
            ("dc.identifier.doi", 5, 5, 3)
        ]
    );
    let ph = &r["errors"]["placeholder"]["examples"][0];
    assert_eq!((ph["record"].as_u64(), ph["line"].as_u64()), (Some(4), Some(5)));
    assert_eq!(ph["column"], "dc.identifier.doi");
    assert_eq!(ph["value"], "N/A");
}

#[test]
fn dspace_export_long_parquet_equals_csv() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = dspace();
    let mut args = vec![p(&s), "-o", "values.parquet"];
    args.extend(DSPACE_ARGS);
    scan(d, &args).ok();
    let (schema, batches) = read_parquet(&d.join("values.parquet"));
    check_dspace_long(&Table::from_batches(&schema, &batches));
    // Parquet input: the kept column keeps its type, `line` is null.
    let mut args = vec![
        "values.parquet",
        "-c",
        "value",
        "--keep",
        "id",
        "--keep",
        "line",
        "--long",
        "-o",
        "again.parquet",
        "--column-prefix",
        "h_",
    ];
    let again = scan(d, &args).ok();
    drop(again);
    let (schema, batches) = read_parquet(&d.join("again.parquet"));
    let t = Table::from_batches(&schema, &batches);
    assert_eq!(t.rows.len(), DSPACE_LONG.len());
    assert_eq!(t.get(3, "line"), "2", "the kept column, as it was");
    assert_eq!(t.get(3, "h_line"), "", "Parquet input has no lines");
    assert_eq!(t.get(13, "h_canonical"), "10.1111/gcb.13809");
    args.truncate(0);
}

#[test]
fn expect_per_column() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = dspace();
    let r = scan(
        d,
        &[
            p(&s),
            "-c",
            "dc.identifier.uri",
            "-c",
            "dc.identifier.doi",
            "--split",
            "||",
            "--expect",
            "dc.identifier.doi=doi",
            "--expect",
            "dc.identifier.uri=hdl",
            "--report",
            "r.json",
        ],
    )
    .ok();
    drop(r);
    let r = read_json(&d.join("r.json"));
    // Record 1's uri cell holds a DOI URL beside its handle.
    assert_eq!(r["errors"]["unexpected_namespace"]["count"], 1, "{}", r["errors"]);
    let ex = &r["errors"]["unexpected_namespace"]["examples"][0];
    assert_eq!(ex["column"], "dc.identifier.uri");
    assert_eq!(ex["value"], "https://doi.org/10.1016/j.fcr.2019.107659");
    // The same without the column: every column expects both.
    scan(
        d,
        &[
            p(&s),
            "-c",
            "dc.identifier.*",
            "--split",
            "--expect",
            "doi",
            "--expect",
            "hdl",
            "--report",
            "r2.json",
        ],
    )
    .ok();
    assert!(read_json(&d.join("r2.json"))["errors"]["unexpected_namespace"].is_null());
    scan(d, &[p(&s), "-c", "dc.identifier.doi", "--expect", "dc.title=doi"])
        .usage_error(&["dc.title", "not one of the chosen columns"]);
    scan(
        d,
        &[
            p(&s),
            "-c",
            "dc.identifier.doi",
            "--expect",
            "dc.identifier.doi=no such",
        ],
    )
    .usage_error(&["no such"]);
}

#[test]
fn one_column_not_split_stays_wide_and_long_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = dspace();
    scan(d, &[p(&s), "-c", "6", "-o", "wide.csv"]).ok();
    let t = Table::from_csv(&d.join("wide.csv"), b',');
    assert_eq!(
        t.names[..7],
        [
            "id",
            "collection",
            "dc.identifier.uri",
            "dc.identifier.uri[]",
            "dc.identifier.uri[en_US]",
            "dc.identifier.doi",
            "dc.title"
        ]
    );
    assert_eq!(t.names[7], "record");
    assert_eq!(t.rows.len(), 5);
    scan(d, &[p(&s), "-c", "6", "--long", "-o", "long.csv"]).ok();
    let t = Table::from_csv(&d.join("long.csv"), b',');
    assert_eq!(
        t.names[..5],
        ["record", "line", "source_column", "value_index", "value"]
    );
    assert_eq!(t.get(2, "value"), "doi:10.1111/GCB.13809");
}

#[test]
fn inputs_with_different_columns_long_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("a.csv"), "id,doi\n1,10.1000/1\n2,10.1000/2\n").unwrap();
    fs::write(d.join("b.csv"), "title,doi,id,extra\nt,https://doi.org/10.1000/1,9,x\n").unwrap();
    scan(
        d,
        &[
            "a.csv", "b.csv", "-c", "doi", "--keep", "id", "--long", "-o", "out.csv", "--report", "r.json",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(
        t.names[..7],
        ["input", "record", "line", "source_column", "value_index", "value", "id"]
    );
    let rows: Vec<[&str; 4]> = t.pick(["input", "record", "id", "canonical"])[..3].to_vec();
    assert_eq!(
        rows,
        [
            ["a.csv", "1", "1", "10.1000/1"],
            ["a.csv", "2", "2", "10.1000/2"],
            ["b.csv", "3", "9", "10.1000/1"]
        ]
    );
    // Wide output writes every column: they must be the same.
    scan(d, &["a.csv", "b.csv", "-c", "doi", "-o", "wide.csv"]).fails_with(&[
        "b.csv",
        "differ from the first input",
        "long output",
    ]);
    // A chosen column missing from a later input.
    fs::write(d.join("c.csv"), "id,handle\n1,1721.1/5\n").unwrap();
    scan(d, &["a.csv", "c.csv", "-c", "doi", "--long", "-o", "x.csv"])
        .fails_with(&["c.csv has no column named \"doi\""]);
    assert!(!d.join("x.csv").exists() && !d.join("wide.csv").exists());
    assert_no_temp_files(d);
}

#[test]
fn bad_selections_are_usage_or_input_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = dspace();
    let s = p(&s);
    scan(d, &[s, "-c", "dc.subject*", "-o", "o.csv"])
        .usage_error(&["'dc.subject*' matches no column", "dc.identifier.doi"]);
    scan(
        d,
        &[
            s,
            "-c",
            "dc.identifier.doi",
            "--keep",
            "handle",
            "--long",
            "-o",
            "o.csv",
        ],
    )
    .usage_error(&["--keep", "no column named 'handle'"]);
    let err = scan(d, &[s, "-c", "dc.identifier.doi", "--split", "", "-o", "o.csv"]).usage_error(&["--split"]);
    assert_eq!(err.matches("--split").count(), 1, "the flag named once: {err}");
    // `--split`'s SEP is optional: written before the only input, it takes
    // it, and the error says so, naming the file.
    let err = scan(d, &["-c", "dc.identifier.doi", "--split", s, "-o", "o.csv"])
        .usage_error(&["<INPUT>", &format!("tip: --split took '{s}' as its separator")]);
    assert!(err.contains("give the input before --split"), "{err}");
    // Not a file: clap's error alone.
    let err = scan(d, &["-c", "dc.identifier.doi", "--split", "||"]).usage_error(&["<INPUT>"]);
    assert!(!err.contains("tip:"), "{err}");
    scan(d, &[s, "-c", "dc.identifier.doi", "--keep", "id", "-o", "o.csv"]).usage_error(&["--keep", "--long"]);
    scan(
        d,
        &[
            s,
            "-c",
            "dc.identifier.doi",
            "--split",
            "||",
            "--keep",
            "dc.identifier.doi",
            "-o",
            "o.parquet",
        ],
    )
    .ok();
    assert_eq!(entries(d), ["o.parquet"]);
    fs::remove_file(d.join("o.parquet")).unwrap();
    // `value` is an added column of long output: a prefix given that
    // clashes is an error.
    fs::write(d.join("v.csv"), "hdl_value,doi\na,10.1/x\n").unwrap();
    scan(
        d,
        &[
            "v.csv",
            "-c",
            "doi",
            "--keep",
            "hdl_value",
            "--long",
            "-o",
            "o.csv",
            "--column-prefix",
            "hdl_",
        ],
    )
    .fails_with(&["--column-prefix"]);
    assert_eq!(entries(d), ["v.csv"]);
}

#[test]
fn a_cell_of_a_million_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut cell = String::with_capacity(12_000_000);
    for i in 0..1_000_000 {
        if i > 0 {
            cell.push_str("||");
        }
        cell.push_str(&format!("10.1/{}", i % 1000));
    }
    fs::write(d.join("big.csv"), format!("id,doi\n1,{cell}\n2,10.1/x\n")).unwrap();
    let args = [
        "big.csv",
        "-c",
        "doi",
        "--split",
        "||",
        "--keep",
        "id",
        "-o",
        "out.parquet",
        "--report",
        "r.json",
        "--duplicates",
        "d.csv",
    ];
    let (run, rss) = scan_measured(d, &args);
    run.ok();
    // One record's million values are one unit, so one batch of a million
    // rows (its output columns near 200 MB) beside their duplicate block:
    // 276 MB alone, up to 304 MB with another scan on the same cores (the
    // heap trimmed later), measured alike before and after the duplicate
    // collector got its thread. Cutting a unit into batches would bound it
    // like any other input; until then the bound here is 320 MB.
    assert_rss("a cell of a million pieces", rss, 320 << 20);
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["records"].as_u64(), r["cells"].as_u64(), r["values"].as_u64()),
        (Some(2), Some(2), Some(1_000_001))
    );
    assert_eq!(r["duplicates"]["unique_canonical"], 1001);
    let (_, batches) = read_parquet(&d.join("out.parquet"));
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 1_000_001);
}

#[test]
fn ten_thousand_columns_matched_by_a_star() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = 10_000;
    let header: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    let row: Vec<String> = (0..n)
        .map(|i| if i % 2 == 0 { format!("10.1/{i}") } else { String::new() })
        .collect();
    fs::write(
        d.join("wide.csv"),
        format!("{}\n{}\n{}\n", header.join(","), row.join(","), row.join(",")),
    )
    .unwrap();
    scan(d, &["wide.csv", "-c", "*", "-o", "out.csv", "--report", "r.json"]).ok();
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["cells"].as_u64(), r["values"].as_u64(), r["valid"].as_u64()),
        (Some(2 * n), Some(2 * n), Some(n))
    );
    assert_eq!(r["errors"]["empty"]["count"], n);
    assert_eq!(r["columns"].as_array().unwrap().len() as u64, n);
    assert_eq!(r["duplicates"]["unique_canonical"], n / 2);
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(t.rows.len() as u64, 2 * n);
    assert_eq!(t.get(n as usize + 2, "source_column"), "c2");
    // More columns than Parquet output takes is fine in long output: it
    // has a column per chosen column's value, not per input column. 200
    // such rows: two million values, within the scan's 300 MB.
    let rows = format!("{}\n", row.join(",")).repeat(200);
    fs::write(d.join("wider.csv"), format!("{}\n{rows}", header.join(","))).unwrap();
    let (run, rss) = scan_measured(
        d,
        &["wider.csv", "-c", "*", "-o", "wider.parquet", "--duplicates", "d.csv"],
    );
    run.ok();
    assert_rss("10,000 columns × 200 rows, long output", rss, 300 << 20);
}

#[test]
fn scan_help_shows_the_dspace_run() {
    let help = crate::scan::scan_help();
    assert!(
        help.contains("hdlscan scan export.csv -c 'dc.identifier.uri*' -c 'dc.identifier.doi*' --split '||' --keep id -o values.parquet --duplicates dups.csv --report audit.json"),
        "{help}"
    );
    assert!(help.contains("Output shapes:") && help.contains("Exit status: 0 success"));
    assert!(
        !help.contains("dc.identifier.*"),
        "the citation and ISSN columns too: {help}"
    );
}

/// `hdlscan scan --version` answers as `hdlscan --version` does.
#[test]
fn every_command_prints_the_version() {
    for command in ["scan", "diff", "parse", "gen", "bench"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hdlscan"))
            .args([command, "--version"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}: {out:?}");
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(printed, format!("hdlscan-{command} {}\n", env!("CARGO_PKG_VERSION")));
    }
}

/// `hdlscan::classify`, the entry point of a binding, gives the columns
/// `scan` writes for the same values: same names, types and cells.
#[test]
fn classify_gives_the_columns_scan_writes() {
    use crate::scan::Table;
    use arrow_array::StringArray;
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sample_export.csv");
    let out = dir.path().join("out.parquet");
    scan(dir.path(), &[p(&input), "-c", "dc.identifier.uri", "-o", p(&out)]).ok();
    let (schema, batches) = read_parquet(&out);
    let scanned = Table::from_batches(&schema, &batches);
    let column = scanned.names.iter().position(|n| n == "dc.identifier.uri").unwrap();
    let values: StringArray = scanned.rows.iter().map(|r| r[column].clone()).collect();
    let parser = hdlscan::id::Parser::new(hdlscan::id::Options::default());
    let batch = hdlscan::classify(&values, &parser).unwrap();
    let classified = Table::from_batches(&batch.schema(), std::slice::from_ref(&batch));
    assert_eq!(classified.names, hdlscan::SPEC);
    for (i, name) in classified.names.iter().enumerate() {
        let j = scanned.names.iter().position(|n| n == name).unwrap();
        assert_eq!(
            batch.schema().field(i).data_type(),
            schema.field(j).data_type(),
            "{name}"
        );
        let want: Vec<_> = scanned.rows.iter().map(|r| &r[j]).collect();
        let got: Vec<_> = classified.rows.iter().map(|r| &r[i]).collect();
        assert_eq!(got, want, "{name}");
    }
}
