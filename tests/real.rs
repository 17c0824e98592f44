//! Real exports (`testdata/real/`, sources in its README): every cell of
//! their identifier columns against the oracle worked out by hand from
//! SPEC v2 (`<name>.expected.tsv`), and `hdlscan scan` on each file and
//! column, whose report must count the kinds and codes the oracle counts.
//!
//! Run: `cargo test --test tests real`

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One line of an oracle.
struct Expected {
    record: usize,
    column: String,
    value: String,
    kind: String,
    canonical: String,
    /// The error when invalid, else the warnings joined by `;`, sorted.
    code: String,
}

fn real_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/real")
}

/// The samples: every `<name>.csv` with a `<name>.expected.tsv` beside it.
fn samples() -> Vec<(PathBuf, Vec<Expected>)> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(real_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    paths.sort();
    for csv in paths {
        let oracle = csv.with_extension("expected.tsv");
        let text = std::fs::read_to_string(&oracle).unwrap_or_else(|e| panic!("{}: {e}", oracle.display()));
        let lines = text
            .lines()
            .skip(1)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                assert_eq!(f.len(), 6, "{}: {l:?}", oracle.display());
                Expected {
                    record: f[0].parse().unwrap(),
                    column: f[1].to_string(),
                    value: unescape(f[2]),
                    kind: f[3].to_string(),
                    canonical: f[4].to_string(),
                    code: f[5].to_string(),
                }
            })
            .collect();
        out.push((csv, lines));
    }
    assert!(out.len() >= 5, "testdata/real holds {} samples", out.len());
    out
}

/// The oracle's `value`: `\t`, `\n`, `\r` and `\\` spelled out.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// What `hdlscan parse` says of each cell, as the oracle writes it.
fn parse_all(values: &[&str]) -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .args(["parse", "--format", "jsonl", "--"])
        .args(values)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let code = match v["error"].as_str() {
                Some(e) => e.to_string(),
                None => {
                    let mut w: Vec<&str> = v["warnings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|w| w.as_str().unwrap())
                        .collect();
                    w.sort();
                    w.join(";")
                }
            };
            (
                v["kind"].as_str().unwrap().to_string(),
                v["canonical"].as_str().unwrap_or("").to_string(),
                code,
            )
        })
        .collect()
}

#[test]
fn every_cell_is_what_the_oracle_says() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (csv, oracle) in samples() {
        // The cells as the CSV reader gives them, to check the oracle's
        // `value` is the cell it speaks of.
        let mut reader = csv::Reader::from_path(&csv).unwrap();
        let headers = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        for e in &oracle {
            let col = headers.iter().position(|h| h == e.column).unwrap_or_else(|| {
                panic!("{}: no column {:?}", csv.display(), e.column);
            });
            assert_eq!(
                rows[e.record - 1].get(col),
                Some(e.value.as_str()),
                "{}: record {} column {}",
                csv.display(),
                e.record,
                e.column
            );
        }
        let values: Vec<&str> = oracle.iter().map(|e| e.value.as_str()).collect();
        for (e, got) in oracle.iter().zip(parse_all(&values)) {
            checked += 1;
            let want = (e.kind.clone(), e.canonical.clone(), e.code.clone());
            if got != want {
                let name = csv.file_name().unwrap().to_string_lossy().into_owned();
                wrong.push(format!(
                    "{name} record {} {}: {:?}\n    oracle {want:?}\n    parser {got:?}",
                    e.record, e.column, e.value
                ));
            }
        }
    }
    assert!(checked > 400, "only {checked} cells checked");
    assert!(
        wrong.is_empty(),
        "{} of {checked} cells differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `scan`'s report on one column counts each kind and error code as the
/// oracle does.
#[test]
fn scan_counts_what_the_oracle_counts() {
    for (csv, oracle) in samples() {
        let mut columns: Vec<&str> = oracle.iter().map(|e| e.column.as_str()).collect();
        columns.dedup();
        for column in columns {
            let lines: Vec<&Expected> = oracle.iter().filter(|e| e.column == column).collect();
            let out = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
                .args(["scan", "-q", "--column", column, "--report", "-"])
                .arg(&csv)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
            let mut errors: BTreeMap<String, u64> = BTreeMap::new();
            for e in &lines {
                // The report tells SPEC's `invalid` apart: empty,
                // placeholder, and the rest.
                let kind = match (e.kind.as_str(), e.code.as_str()) {
                    ("invalid", code @ ("empty" | "placeholder")) => code,
                    (kind, _) => kind,
                };
                *kinds.entry(kind.to_string()).or_default() += 1;
                if e.kind == "invalid" {
                    *errors.entry(e.code.clone()).or_default() += 1;
                }
            }
            let counted = |key: &str| -> BTreeMap<String, u64> {
                report[key]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().or_else(|| v["count"].as_u64()).unwrap()))
                    .filter(|(_, n)| *n > 0)
                    .collect()
            };
            let where_ = format!("{} column {column}", csv.display());
            assert_eq!(report["records"].as_u64(), Some(lines.len() as u64), "{where_}");
            assert_eq!(counted("by_kind"), kinds, "{where_}");
            assert_eq!(counted("errors"), errors, "{where_}");
        }
    }
}
