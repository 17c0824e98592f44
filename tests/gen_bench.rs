//! `hdlscan gen` and `hdlscan bench` through the built binary: `gen` is
//! deterministic per seed, writes exactly N data rows (CSV and Parquet, read
//! back), the same rows in both formats, atomically; `bench` prints its
//! table and valid JSON.
//!
//! Run: `cargo test --test tests gen_bench`

use crate::scan::{assert_no_temp_files, cell, entries, p, read_json, read_parquet, scan};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

const COLUMNS: [&str; 6] = ["record_id", "identifier", "title", "date_issued", "type", "collection"];

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hdlscan(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run hdlscan");
    let o = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!o.stderr.contains("panicked"), "panic:\n{}", o.stderr);
    o
}

#[track_caller]
fn gen_ok(rows: u64, seed: u64, out: &Path, extra: &[&str]) {
    let (rows, seed) = (rows.to_string(), seed.to_string());
    let mut args = vec!["gen", "--rows", &rows, "--seed", &seed, "-o", p(out), "-q"];
    args.extend_from_slice(extra);
    let o = hdlscan(&args);
    assert_eq!(o.code, 0, "gen failed:\n{}", o.stderr);
    assert!(o.stderr.is_empty(), "-q printed: {}", o.stderr);
}

/// CSV records (header excluded) as strings.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::ReaderBuilder::new().from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Parquet rows as strings (every column, null as empty), with the column names.
fn parquet_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let (schema, batches) = read_parquet(path);
    let names = schema.fields().iter().map(|f| f.name().clone()).collect();
    let mut rows = Vec::new();
    for b in &batches {
        for i in 0..b.num_rows() {
            rows.push(b.columns().iter().map(|c| cell(c, i).unwrap_or_default()).collect());
        }
    }
    (names, rows)
}

#[test]
fn gen_csv_is_deterministic_per_seed_with_n_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a.csv"),
        dir.path().join("b.csv"),
        dir.path().join("c.csv"),
    );
    gen_ok(3000, 5, &a, &[]);
    gen_ok(3000, 5, &b, &[]);
    gen_ok(3000, 6, &c, &[]);
    let bytes = fs::read(&a).unwrap();
    assert_eq!(bytes, fs::read(&b).unwrap(), "same seed, different bytes");
    assert_ne!(bytes, fs::read(&c).unwrap(), "different seeds, same bytes");

    let (header, rows) = read_csv(&a);
    assert_eq!(header, COLUMNS);
    assert_eq!(rows.len(), 3000);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (i + 1).to_string(), "record_id of row {i}");
        assert!(r.iter().skip(2).all(|f| !f.is_empty()), "empty field in {r:?}");
    }
    // Titles exercise CSV quoting; identifiers never hold a line break.
    assert!(rows.iter().any(|r| r[2].contains('\n')), "no title with a line break");
    assert!(rows.iter().any(|r| r[2].contains('"')), "no title with a quote");
    assert!(rows.iter().any(|r| r[2].contains(',')), "no title with a comma");
    assert!(rows.iter().all(|r| !r[1].contains(['\n', '\r'])));
    // The mix is there.
    assert!(rows.iter().any(|r| r[1].starts_with("https://doi.org/")));
    assert!(rows.iter().any(|r| r[1].starts_with("10.")));
    assert!(
        rows.iter()
            .any(|r| r[1].starts_with("hdl:") || r[1].starts_with("info:"))
    );
    assert_no_temp_files(dir.path());
}

#[test]
fn gen_parquet_has_the_csv_rows_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("x.csv");
    let (pq1, pq2) = (dir.path().join("x.parquet"), dir.path().join("y.parquet"));
    // More than one batch (65,536 rows) so batch boundaries are covered.
    let n = 70_000;
    gen_ok(n, 9, &csv, &[]);
    gen_ok(n, 9, &pq1, &[]);
    gen_ok(n, 9, &pq2, &[]);
    assert_eq!(
        fs::read(&pq1).unwrap(),
        fs::read(&pq2).unwrap(),
        "same seed, different Parquet"
    );
    let (names, prows) = parquet_rows(&pq1);
    assert_eq!(names, COLUMNS);
    let (_, crows) = read_csv(&csv);
    assert_eq!(prows.len(), n as usize);
    assert_eq!(prows, crows, "CSV and Parquet of one seed differ");
    assert_no_temp_files(dir.path());
}

#[test]
fn gen_format_flag_zero_rows_and_scan_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    // --format overrides the extension.
    let txt = dir.path().join("export.txt");
    gen_ok(10, 1, &txt, &["--format", "csv"]);
    assert_eq!(read_csv(&txt).1.len(), 10);
    let data = dir.path().join("export.dat");
    gen_ok(10, 1, &data, &["--format", "parquet"]);
    assert_eq!(parquet_rows(&data).1.len(), 10);

    // Zero rows: a header-only CSV, an empty Parquet file with the schema.
    let (c0, p0) = (dir.path().join("zero.csv"), dir.path().join("zero.parquet"));
    gen_ok(0, 1, &c0, &[]);
    gen_ok(0, 1, &p0, &[]);
    assert_eq!(fs::read_to_string(&c0).unwrap(), format!("{}\n", COLUMNS.join(",")));
    let (names, rows) = parquet_rows(&p0);
    assert_eq!((names.len(), rows.len()), (6, 0));

    // `scan` reads both outputs without --column-prefix.
    let (csv, pq) = (dir.path().join("s.csv"), dir.path().join("s.parquet"));
    gen_ok(2000, 3, &csv, &[]);
    gen_ok(2000, 3, &pq, &[]);
    for input in [&csv, &pq] {
        let report = dir.path().join("r.json");
        let out = dir.path().join("o.parquet");
        scan(
            dir.path(),
            &[
                p(input),
                "-c",
                "identifier",
                "-o",
                p(&out),
                "--report",
                p(&report),
                "-q",
            ],
        )
        .ok();
        assert_eq!(read_json(&report)["records"], 2000);
        assert_eq!(parquet_rows(&out).1.len(), 2000);
    }
}

#[test]
fn gen_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("keep.csv");
    fs::write(&target, "old\n").unwrap();
    // Unknown extension: a usage error (as in scan), before anything is
    // created.
    let bad = dir.path().join("x.json");
    let o = hdlscan(&["gen", "--rows", "5", "-o", p(&bad)]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--format"), "{}", o.stderr);
    // A directory that does not exist: an error, nothing written.
    let missing = dir.path().join("no/such/dir/x.csv");
    let o = hdlscan(&["gen", "--rows", "5", "-o", p(&missing)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(entries(dir.path()), ["keep.csv"]);
    // Replacing an existing file happens in one rename: the old contents
    // until the end, then the complete new file, and no temporary left.
    gen_ok(1000, 2, &target, &[]);
    assert_eq!(read_csv(&target).1.len(), 1000);
    assert_eq!(entries(dir.path()), ["keep.csv"]);
    // Refuses to replace what is not a regular file.
    let sub = dir.path().join("sub.csv");
    fs::create_dir(&sub).unwrap();
    let o = hdlscan(&["gen", "--rows", "5", "-o", p(&sub)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(sub.is_dir());
    assert_no_temp_files(dir.path());
}

#[test]
fn gen_help_has_examples() {
    let o = hdlscan(&["gen", "--help"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains("Examples:") && o.stdout.contains("--rows"),
        "{}",
        o.stdout
    );
}

#[test]
fn bench_prints_the_table() {
    let o = hdlscan(&["bench", "--values", "20000", "--runs", "1", "--threads", "2"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let out = &o.stdout;
    assert!(out.contains("20000 values"), "{out}");
    assert!(out.contains("machine: nproc "), "{out}");
    for col in ["mode", "threads", "values/s", "MB/s", "ns/value"] {
        assert!(out.contains(col), "no column {col}:\n{out}");
    }
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("parse ") || l.starts_with("parse+render "))
        .collect();
    assert_eq!(lines.len(), 4, "parse and parse+render at 1 and 2 threads:\n{out}");
}

#[test]
fn bench_json_parses() {
    let o = hdlscan(&["bench", "--values", "20000", "--runs", "2", "--threads", "2", "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}:\n{}", o.stdout));
    assert_eq!(v["values"], 20000);
    assert!(v["bytes"].as_u64().unwrap() > 20000 * 10);
    assert!(v["machine"]["nproc"].as_u64().unwrap() >= 1);
    assert!(v["machine"]["cpu_model"].is_string());
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        assert!(["parse", "parse+render"].contains(&r["mode"].as_str().unwrap()), "{r}");
        assert_eq!(r["seconds"].as_array().unwrap().len(), 2);
        for k in ["median_seconds", "values_per_second", "mb_per_second", "ns_per_value"] {
            assert!(r[k].as_f64().unwrap() > 0.0, "{k} in {r}");
        }
    }
}

#[test]
fn bench_usage_errors_exit_2() {
    for (args, says) in [
        (["-j", "0"], "--threads"),
        (["-j", "300"], "300"),
        (["--values", "0"], "--values"),
        (["--runs", "0"], "--runs"),
    ] {
        let o = hdlscan(&["bench", args[0], args[1]]);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        assert!(o.stdout.is_empty());
    }
}
