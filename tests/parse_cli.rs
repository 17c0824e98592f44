//! `hdlscan parse` through the built binary: SPEC §5's table as JSON lines
//! with exactly the keys the issue fixed, TSV (a header even for no value),
//! the table a block of rows at a time, a closed pipe (exit 0, no word),
//! and a `--resolver` no URL can name (a usage error).
//!
//! Run: `cargo test --test tests parse_cli`

use crate::scan::ENRICHED;
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// `parse`'s keys: the value read, then the columns `scan` adds after
/// `record`.
fn keys() -> Vec<&'static str> {
    std::iter::once("input").chain(ENRICHED[1..].iter().copied()).collect()
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `hdlscan parse ARGS` with `stdin` fed to it.
fn parse(args: &[&str], stdin: &[u8]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .arg("parse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hdlscan");
    let mut si = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    std::thread::spawn(move || si.write_all(&data));
    let out = child.wait_with_output().unwrap();
    let o = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!o.stderr.contains("panicked"), "panic:\n{}", o.stderr);
    o
}

/// The SPEC §5 cases of the conformance corpus.
fn spec_cases() -> Vec<Value> {
    let text = include_str!("../testdata/conformance.json");
    let doc: Value = serde_json::from_str(text).unwrap();
    let cases: Vec<Value> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("spec-5-"))
        .cloned()
        .collect();
    assert_eq!(cases.len(), 34, "SPEC v2 §5 has 34 rows");
    cases
}

#[test]
fn spec_section_5_as_json_lines() {
    // A row whose input holds a line break (SPEC §6's wrapped_line) is
    // given as an argument; the others as CRLF lines on stdin.
    let (lines, args): (Vec<Value>, Vec<Value>) = spec_cases()
        .into_iter()
        .partition(|c| !c["input"].as_str().unwrap().contains(['\n', '\r']));
    assert!(!args.is_empty());
    let stdin: String = lines
        .iter()
        .map(|c| format!("{}\r\n", c["input"].as_str().unwrap()))
        .collect();
    let o = parse(&["--format", "jsonl"], stdin.as_bytes());
    assert_eq!(o.code, 0, "{}", o.stderr);
    let mut out = o.stdout;
    let mut argv = vec!["--format", "jsonl", "--"];
    argv.extend(args.iter().map(|c| c["input"].as_str().unwrap()));
    let o = parse(&argv, b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    out.push_str(&o.stdout);
    let cases: Vec<Value> = lines.into_iter().chain(args).collect();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for (case, line) in cases.iter().zip(lines) {
        let got: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        assert_eq!(got.keys().map(String::as_str).collect::<Vec<_>>(), keys(), "{line}");
        assert_eq!(got["input"], case["input"], "CRLF is a line end, not part of the value");
        assert!(got["warnings"].is_array(), "{line}");
        for (k, want) in case["expect"].as_object().unwrap() {
            if k == "warnings" {
                let set = |v: &Value| {
                    v.as_array()
                        .unwrap()
                        .iter()
                        .map(|w| w.to_string())
                        .collect::<BTreeSet<_>>()
                };
                assert_eq!(set(&got[k]), set(want), "{}: warnings", case["id"]);
            } else {
                assert_eq!(&got[k], want, "{}: {k}", case["id"]);
            }
        }
    }
}

#[test]
fn tsv_has_its_header_for_no_value_and_escapes() {
    let o = parse(&["--format", "tsv"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, format!("{}\n", keys().join("\t")));
    let o = parse(&["--format", "tsv", "10.1000/a\tb"], b"");
    let rows: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(rows.len(), 2);
    assert!(rows[1].starts_with("10.1000/a\\tb\t"), "{}", rows[1]);
}

#[test]
fn table_comes_a_block_at_a_time_with_one_header() {
    let stdin: String = (0..2500).map(|i| format!("10.1000/{i}\n")).collect();
    let o = parse(&["--format", "table"], stdin.as_bytes());
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 2501);
    assert!(lines[0].starts_with("INPUT "), "{}", lines[0]);
    assert_eq!(lines.iter().filter(|l| l.starts_with("INPUT")).count(), 1);
    // Columns only widen: the kind column of the last row starts where
    // the first row's does, or further right.
    let at = |l: &str| l.find("doi").unwrap();
    assert!(at(lines[2500]) >= at(lines[1]), "{}\n{}", lines[1], lines[2500]);
    assert!(lines[2500].starts_with("\"10.1000/2499\""));
}

#[test]
fn closed_pipe_is_success_in_every_format() {
    let stdin: Vec<u8> = (0..300_000)
        .flat_map(|i| format!("10.1000/{i}\n").into_bytes())
        .collect();
    for format in ["jsonl", "tsv", "table"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
            .args(["parse", "--format", format])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut si = child.stdin.take().unwrap();
        let data = stdin.clone();
        std::thread::spawn(move || si.write_all(&data));
        // Read one line, then close the pipe, as `| head -1` does.
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{format}");
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(stderr.is_empty(), "{format}: {stderr}");
    }
}

#[test]
fn resolver_no_url_can_name_is_a_usage_error() {
    for bad in ["h:80:80/x", ".", "h:65536", "[::1", "a b"] {
        let o = parse(&["--resolver", bad, "10.1000/1"], b"");
        assert_eq!(o.code, 2, "{bad}: {}", o.stderr);
        assert!(
            o.stderr.contains("--resolver") && o.stderr.contains("HOST[:PORT][/PATH]"),
            "{}",
            o.stderr
        );
        assert!(o.stdout.is_empty());
    }
    let o = parse(
        &["--format", "jsonl", "--resolver", "Repo.Example.edu:8443/xmlui/handle"],
        b"https://repo.example.edu:8443/xmlui/handle/1721.1/5\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(
        (v["kind"].as_str(), v["resolver"].as_str()),
        (Some("resolver_url"), Some("repo.example.edu:8443"))
    );
}

/// `--split`: a row per piece with its place in the value; `auto` (or no
/// SEP) splits only what holds several identifiers; an empty value is one
/// empty piece.
#[test]
fn split_prints_each_piece_with_its_place() {
    let cell = "hdl:1721.1/5||https://doi.org/10.1000/182";
    let o = parse(&["--format", "jsonl", "--split", "||", cell, ""], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let place = |v: &Value| {
        (
            v["line"].as_u64().unwrap(),
            v["value_index"].as_u64().unwrap(),
            v["start"].as_u64().unwrap() as usize,
            v["end"].as_u64().unwrap() as usize,
        )
    };
    assert_eq!(rows.len(), 3);
    assert_eq!(place(&rows[0]), (1, 1, 0, 12));
    assert_eq!(place(&rows[1]), (1, 2, 14, cell.len()));
    assert_eq!(rows[1]["input"], "https://doi.org/10.1000/182");
    assert_eq!(rows[1]["canonical"], "10.1000/182");
    assert_eq!(
        (place(&rows[2]), rows[2]["error"].as_str()),
        ((2, 1, 0, 0), Some("empty"))
    );
    // The keys: the place, then parse's own.
    let got: Vec<&str> = rows[0].as_object().unwrap().keys().map(String::as_str).collect();
    let want: Vec<&str> = ["line", "value_index", "start", "end"]
        .into_iter()
        .chain(keys())
        .collect();
    assert_eq!(got, want);

    // Auto, from stdin: only the value holding two identifiers is split.
    let o = parse(
        &["--format", "tsv", "--split"],
        b"10.1/a, doi:10.1/b\n10.1/c see also\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<Vec<&str>> = o.stdout.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0][..5], ["line", "value_index", "start", "end", "input"]);
    let rows: Vec<_> = lines[1..].iter().map(|f| (f[0], f[1], f[4], f[5])).collect();
    assert_eq!(
        rows,
        [
            ("1", "1", "10.1/a", "doi"),
            ("1", "2", "doi:10.1/b", "doi"),
            ("2", "1", "10.1/c see also", "invalid")
        ]
    );
    let o = parse(&["--split", ""], b"");
    assert_eq!(o.code, 2, "an empty separator is a usage error: {}", o.stderr);
    assert_eq!(
        o.stderr,
        "hdlscan: --split: the separator is empty; give one such as '||', or 'auto'\n"
    );
}

/// `--expect`: a valid value of another namespace is `unexpected_namespace`
/// and keeps the namespace found; an impossible namespace is a usage error.
#[test]
fn expect_flags_other_namespaces() {
    let o = parse(
        &["--format", "jsonl", "--expect", "DOI", "1721.1/5", "doi:10.1000/1"],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        (
            rows[0]["kind"].as_str(),
            rows[0]["error"].as_str(),
            rows[0]["namespace"].as_str()
        ),
        (Some("invalid"), Some("unexpected_namespace"), Some("hdl"))
    );
    assert_eq!(rows[0]["canonical"], Value::Null);
    assert_eq!(rows[1]["error"], Value::Null);
    let o = parse(&["--expect", "10.1000", "x"], b"");
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--expect \"10.1000\""), "{}", o.stderr);
}

/// A name SPEC does not know is a typo until said otherwise: `--expect
/// dio` would make every DOI `unexpected_namespace`. An `info:` namespace
/// SPEC does not name is declared as `info:NAME`.
#[test]
fn expect_refuses_a_namespace_spec_does_not_know() {
    for ns in ["dio", "handle", "isbn13"] {
        let o = parse(&["--expect", ns, "10.1000/1"], b"");
        assert_eq!(o.code, 2, "--expect {ns}: {}", o.stderr);
        for needle in [&format!("--expect \"{ns}\""), "doi, hdl", "issn", "lccn", "info:NAME"] {
            assert!(o.stderr.contains(needle), "{needle}: {}", o.stderr);
        }
    }
    for ns in ["doi", "HDL", "orcid", "lccn", "info:lccn", "info:foo"] {
        let o = parse(&["--expect", ns, "10.1000/1"], b"");
        assert_eq!(o.code, 0, "--expect {ns}: {}", o.stderr);
    }
    let o = parse(
        &["--format", "jsonl", "--expect", "info:foo", "info:foo/1", "info:bar/1"],
        b"",
    );
    let rows: Vec<Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["error"], Value::Null, "{}", o.stdout);
    assert_eq!(rows[1]["error"], "unexpected_namespace", "{}", o.stdout);
}

/// SPEC §8 "declared": `--expect issn` reads ISSNs without their hyphen,
/// and an ORCID iD in a DOI column is `unexpected_namespace`.
#[test]
fn expect_reads_declared_schemes() {
    let o = parse(&["--format", "jsonl", "--expect", "issn", "19326203", "2012-2013"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        (rows[0]["kind"].as_str(), rows[0]["canonical"].as_str()),
        (Some("other_pid"), Some("issn:1932-6203"))
    );
    assert_eq!(
        (rows[1]["error"].as_str(), rows[1]["namespace"].as_str()),
        (Some("bad_check_digit"), Some("issn"))
    );
    let o = parse(&["--format", "jsonl", "--expect", "doi", "0000-0002-1825-0097"], b"");
    let row: Value = serde_json::from_str(o.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(
        (row["error"].as_str(), row["namespace"].as_str()),
        (Some("unexpected_namespace"), Some("orcid"))
    );
}
