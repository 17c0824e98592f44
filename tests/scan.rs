//! End-to-end tests of `hdlscan scan` through the built binary: every input
//! and output format, row accounting, the enriched columns' values for known
//! rows of `testdata/sample_export.csv`, and the report's totals.
//!
//! Hostile inputs are in `hostile.rs`, which shares the helpers below.
//!
//! Run: `cargo test --test tests scan`

use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, Int16Type, Int32Type, Int64Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, SchemaRef};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

// ---------------------------------------------------------------------------
// Helpers (also used by hostile.rs).

/// The enriched columns `scan` appends, in order.
pub const ENRICHED: [&str; 13] = [
    "record",
    "kind",
    "namespace",
    "prefix",
    "suffix",
    "canonical",
    "uri",
    "url",
    "resolver",
    "query",
    "fragment",
    "error",
    "warnings",
];

/// The header of `testdata/sample_export.csv`.
pub const SAMPLE_COLUMNS: [&str; 6] = [
    "id",
    "collection",
    "dc.title",
    "dc.date.issued",
    "dc.type",
    "dc.identifier.uri",
];
pub const SAMPLE_ID: &str = "dc.identifier.uri";

pub fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sample_export.csv")
}

/// Data records of the sample export (the first 108 are the hand-placed
/// showcase rows, whose `id` is their record number).
pub fn sample_rows() -> u64 {
    let mut r = csv::ReaderBuilder::new().from_path(sample()).unwrap();
    r.byte_records().count() as u64
}

/// One finished run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// Asserts exit 0 and no panic.
    #[track_caller]
    pub fn ok(self) -> Run {
        assert!(!self.stderr.contains("panicked"), "panic:\n{}", self.stderr);
        assert_eq!(self.code, 0, "expected success; stderr:\n{}", self.stderr);
        self
    }

    /// Asserts exit 1 (an error, not usage), no panic, one `hdlscan:` message
    /// containing every one of `needles`. Returns the message.
    #[track_caller]
    pub fn fails_with(self, needles: &[&str]) -> String {
        assert!(!self.stderr.contains("panicked"), "panic:\n{}", self.stderr);
        assert_eq!(self.code, 1, "expected exit 1; stderr:\n{}", self.stderr);
        assert!(
            self.stderr.starts_with("hdlscan: "),
            "no error message:\n{}",
            self.stderr
        );
        for n in needles {
            assert!(self.stderr.contains(n), "message lacks {n:?}:\n{}", self.stderr);
        }
        self.stderr
    }
}

impl Run {
    /// Asserts exit 2 (a usage error), no panic, a message containing every
    /// one of `needles`.
    #[track_caller]
    pub fn usage_error(self, needles: &[&str]) -> String {
        assert!(!self.stderr.contains("panicked"), "panic:\n{}", self.stderr);
        assert_eq!(self.code, 2, "expected exit 2; stderr:\n{}", self.stderr);
        for n in needles {
            assert!(self.stderr.contains(n), "message lacks {n:?}:\n{}", self.stderr);
        }
        self.stderr
    }
}

/// Runs `hdlscan scan ARGS` in `cwd` (relative paths in messages stay short),
/// feeding `stdin` if given.
pub fn scan_in(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hdlscan"));
    cmd.current_dir(cwd)
        .arg("scan")
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run hdlscan");
    if let Some(data) = stdin {
        let mut si = child.stdin.take().unwrap();
        let data = data.to_vec();
        // A writer thread, so a process that stops reading cannot deadlock us.
        std::thread::spawn(move || {
            let _ = si.write_all(&data);
        });
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn scan(dir: &Path, args: &[&str]) -> Run {
    scan_in(dir, args, None)
}

pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// File names in `dir`, hidden ones included, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Asserts no hdlscan temporary file (`.NAME.hdlscan-tmp.*`) is in `dir`.
#[track_caller]
pub fn assert_no_temp_files(dir: &Path) {
    let tmp: Vec<String> = entries(dir)
        .into_iter()
        .filter(|n| n.contains(".hdlscan-tmp"))
        .collect();
    assert!(tmp.is_empty(), "temporary files left in {}: {tmp:?}", dir.display());
}

/// The report's totals agree with each other and with `rows`.
#[track_caller]
pub fn check_report_totals(r: &Value, rows: u64) {
    let n = |v: &Value| v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"));
    let sum = |v: &Value| v.as_object().unwrap().values().map(n).sum::<u64>();
    assert_eq!(r["version"], 3);
    assert_eq!(n(&r["records"]), rows, "report records");
    assert_eq!(n(&r["cells"]), rows, "one column: a cell per record");
    assert_eq!(n(&r["values"]), rows, "cells not split: a value per cell");
    let inputs = r["run"]["inputs"].as_array().unwrap();
    assert_eq!(
        inputs.iter().map(|i| n(&i["records"])).sum::<u64>(),
        rows,
        "inputs' records"
    );
    assert_eq!(
        inputs.iter().map(|i| n(&i["bytes"])).sum::<u64>(),
        n(&r["run"]["input_bytes"])
    );
    assert_eq!(sum(&r["by_kind"]), rows, "by_kind sums to values");
    let valid = n(&r["valid"]);
    let (empty, placeholder, invalid) = (n(&r["empty"]), n(&r["placeholder"]), n(&r["invalid"]));
    assert_eq!(valid + invalid + empty + placeholder, rows, "each value one outcome");
    for k in ["invalid", "placeholder", "empty"] {
        assert_eq!(r["by_kind"][k], r[k], "by_kind's {k}");
    }
    let invalid = invalid + empty + placeholder;
    // One error code per invalid value; a namespace per valid one.
    let errors = r["errors"].as_object().unwrap();
    assert_eq!(
        errors.values().map(|e| n(&e["count"])).sum::<u64>(),
        invalid,
        "error counts"
    );
    let absent = [&r["errors"]["empty"], &r["errors"]["placeholder"]]
        .iter()
        .map(|e| e["count"].as_u64().unwrap_or(0))
        .sum::<u64>();
    assert_eq!(n(&r["present"]), rows - absent, "present");
    assert_eq!(empty + placeholder, absent, "empty and placeholder are their codes");
    assert_eq!(sum(&r["by_namespace"]), valid, "by_namespace sums to valid");
    let d = &r["duplicates"];
    assert!(n(&d["unique_canonical"]) <= valid);
    assert!(n(&d["records_in_clusters"]) <= n(&d["values_in_clusters"]));
    let columns = r["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 1);
    for k in ["cells", "values", "present", "empty", "placeholder", "valid", "invalid"] {
        assert_eq!(columns[0][k], r[k], "the one column's {k}");
    }
    for (code, c) in errors.iter().chain(r["warnings"].as_object().unwrap()) {
        let count = n(&c["count"]);
        assert!(count > 0, "{code}: a listed code has a count");
        let ex = c["examples"].as_array().unwrap();
        assert!((1..=count.min(5)).contains(&(ex.len() as u64)), "{code}: examples");
        let values: std::collections::HashSet<&str> = ex.iter().map(|e| e["value"].as_str().unwrap()).collect();
        assert_eq!(values.len(), ex.len(), "{code}: examples are distinct values");
        let recs: Vec<u64> = ex.iter().map(|e| n(&e["record"])).collect();
        assert!(
            recs.windows(2).all(|w| w[0] < w[1]),
            "{code}: examples in order: {recs:?}"
        );
        assert!(
            recs.iter().all(|&x| (1..=rows).contains(&x)),
            "{code}: example records {recs:?}"
        );
    }
    let prefixes = r["top_prefixes"].as_array().unwrap();
    assert!(prefixes.len() <= 20);
    assert!(prefixes.windows(2).all(|w| n(&w[0]["count"]) >= n(&w[1]["count"])));
}

/// The report minus what legitimately differs between equivalent runs:
/// how the run was made (but its options), and the input a value was read
/// from (a gzip of the same file has another name).
pub fn report_core(r: &Value) -> Value {
    let mut r = r.clone();
    let o = r.as_object_mut().unwrap();
    let mut options = o["run"]["options"].clone();
    if let Some(opts) = options.as_object_mut() {
        opts.remove("threads");
    }
    o.insert("run".into(), options);
    o["duplicates"].as_object_mut().unwrap().remove("file");
    let strip = |place: &mut Value| {
        let p = place.as_object_mut().unwrap();
        p.remove("input");
        p.remove("line");
    };
    for c in o["duplicates"]["top"].as_array_mut().unwrap() {
        strip(&mut c["first"]);
        for m in c["members"].as_array_mut().unwrap() {
            strip(m);
        }
    }
    for codes in ["errors", "warnings"] {
        for c in o[codes].as_object_mut().unwrap().values_mut() {
            for e in c["examples"].as_array_mut().unwrap() {
                // Parquet has no lines.
                e.as_object_mut().unwrap().remove("input");
                e.as_object_mut().unwrap().remove("line");
            }
        }
    }
    r
}

/// `hdlscan scan --help`, as printed.
pub fn scan_help() -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .args(["scan", "--help"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// An output read back: column names, and every cell as text (null → None,
/// lists joined with `;`), so CSV, Parquet and Arrow compare alike.
#[derive(Debug)]
pub struct Table {
    pub names: Vec<String>,
    pub rows: Vec<Vec<Option<String>>>,
}

impl Table {
    pub fn col(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no column {name:?} in {:?}", self.names))
    }

    /// The cell of column `name` in data row `i` (0-based), null as "".
    pub fn get(&self, i: usize, name: &str) -> &str {
        self.rows[i][self.col(name)].as_deref().unwrap_or("")
    }

    /// Every data row's cells of the columns `names`, in order, null as "".
    pub fn pick<const N: usize>(&self, names: [&str; N]) -> Vec<[&str; N]> {
        let cols = names.map(|n| self.col(n));
        (self.rows.iter())
            .map(|row| cols.map(|c| row[c].as_deref().unwrap_or("")))
            .collect()
    }

    pub fn from_csv(path: &Path, delimiter: u8) -> Table {
        let mut r = csv::ReaderBuilder::new().delimiter(delimiter).from_path(path).unwrap();
        let names = r.headers().unwrap().iter().map(String::from).collect();
        let rows = r
            .records()
            .map(|rec| rec.unwrap().iter().map(|s| Some(s.to_string())).collect())
            .collect();
        Table { names, rows }
    }

    pub fn from_batches(schema: &SchemaRef, batches: &[RecordBatch]) -> Table {
        let names = schema.fields().iter().map(|f| f.name().clone()).collect();
        let mut rows = Vec::new();
        for b in batches {
            for i in 0..b.num_rows() {
                rows.push(b.columns().iter().map(|c| cell(c, i)).collect());
            }
        }
        Table { names, rows }
    }
}

/// One cell as text, for the types hdlscan writes and reads.
pub fn cell(a: &ArrayRef, i: usize) -> Option<String> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().value(i).to_string(),
        DataType::LargeUtf8 => a.as_string::<i64>().value(i).to_string(),
        DataType::UInt64 => a.as_primitive::<UInt64Type>().value(i).to_string(),
        DataType::UInt32 => a.as_primitive::<arrow_array::types::UInt32Type>().value(i).to_string(),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
        DataType::Dictionary(k, _) => {
            let (key, values) = match k.as_ref() {
                DataType::Int8 => {
                    let d = a.as_dictionary::<Int8Type>();
                    (d.keys().value(i) as usize, d.values().clone())
                }
                DataType::Int16 => {
                    let d = a.as_dictionary::<Int16Type>();
                    (d.keys().value(i) as usize, d.values().clone())
                }
                DataType::Int32 => {
                    let d = a.as_dictionary::<Int32Type>();
                    (d.keys().value(i) as usize, d.values().clone())
                }
                other => panic!("dictionary key type {other}"),
            };
            cell(&values, key)?
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>().value(i);
            (0..l.len()).filter_map(|j| cell(&l, j)).collect::<Vec<_>>().join(";")
        }
        other => panic!("unexpected column type {other}"),
    })
}

pub fn read_parquet(path: &Path) -> (SchemaRef, Vec<RecordBatch>) {
    let f = fs::File::open(path).unwrap();
    let b = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
    let schema = b.schema().clone();
    let batches = b.build().unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    (schema, batches)
}

pub fn read_ipc(path: &Path) -> (SchemaRef, Vec<RecordBatch>) {
    let r = arrow_ipc::reader::FileReader::try_new(fs::File::open(path).unwrap(), None).unwrap();
    let schema = r.schema();
    let batches = r.collect::<Result<Vec<_>, _>>().unwrap();
    (schema, batches)
}

/// What some showcase rows of the sample must yield (record, raw value,
/// kind, namespace, prefix, suffix, canonical, uri, url, resolver, query,
/// fragment, error, warnings as a set). `None` = empty/null, except for
/// uri and url, where it means "not checked" (always empty when invalid).
type Expect = (
    usize,
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    &'static [&'static str],
);

pub const KNOWN: &[Expect] = &[
    (
        1,
        "10.1045/april2006-paskin",
        "doi",
        Some("doi"),
        Some("10.1045"),
        Some("april2006-paskin"),
        Some("10.1045/april2006-paskin"),
        Some("hdl:10.1045/april2006-paskin"),
        Some("https://doi.org/10.1045/april2006-paskin"),
        None,
        None,
        None,
        None,
        &[],
    ),
    (
        13,
        "10.1045/April2006-Paskin",
        "doi",
        Some("doi"),
        Some("10.1045"),
        Some("April2006-Paskin"),
        Some("10.1045/april2006-paskin"),
        Some("hdl:10.1045/April2006-Paskin"),
        Some("https://doi.org/10.1045/April2006-Paskin"),
        None,
        None,
        None,
        None,
        &[],
    ),
    (
        14,
        "10/aabbe",
        "doi",
        Some("doi"),
        Some("10"),
        Some("aabbe"),
        Some("10/aabbe"),
        None,
        None,
        None,
        None,
        None,
        None,
        &["short_doi"],
    ),
    (
        17,
        "http://dx.doi.org/10.1000/182",
        "resolver_url",
        Some("doi"),
        Some("10.1000"),
        Some("182"),
        Some("10.1000/182"),
        Some("hdl:10.1000/182"),
        Some("https://doi.org/10.1000/182"),
        Some("dx.doi.org"),
        None,
        None,
        None,
        &["http_resolver", "legacy_resolver"],
    ),
    (
        28,
        "https://hdl.handle.net/1721.1/123?noredirect",
        "resolver_url",
        Some("hdl"),
        Some("1721.1"),
        Some("123"),
        Some("1721.1/123"),
        Some("hdl:1721.1/123"),
        Some("https://hdl.handle.net/1721.1/123"),
        Some("hdl.handle.net"),
        Some("noredirect"),
        None,
        None,
        &[],
    ),
    (
        32,
        "http://arrow.resolver.au.gov:2641/hdl/100.102/F58F",
        "resolver_url",
        Some("hdl"),
        Some("100.102"),
        Some("F58F"),
        Some("100.102/F58F"),
        None,
        None,
        Some("arrow.resolver.au.gov:2641"),
        None,
        None,
        None,
        &["http_resolver", "local_resolver"],
    ),
    (
        44,
        "HDL:1234/567#frag",
        "hdl_uri",
        Some("hdl"),
        Some("1234"),
        Some("567"),
        Some("1234/567"),
        Some("hdl:1234/567"),
        Some("https://hdl.handle.net/1234/567"),
        None,
        None,
        Some("frag"),
        None,
        &[],
    ),
    (
        52,
        "info:pmid/12376099",
        "info_uri",
        Some("pmid"),
        None,
        None,
        // SPEC v3 §3: an `info:pmid/` identifier's canonical is §8's.
        Some("pmid:12376099"),
        Some("info:pmid/12376099"),
        Some("https://pubmed.ncbi.nlm.nih.gov/12376099/"),
        None,
        None,
        None,
        None,
        &[],
    ),
    (
        56,
        "  10.1000/182  ",
        "doi",
        Some("doi"),
        Some("10.1000"),
        Some("182"),
        Some("10.1000/182"),
        None,
        None,
        None,
        None,
        None,
        None,
        &["trimmed"],
    ),
    (
        64,
        "10.1000/182.",
        "doi",
        Some("doi"),
        Some("10.1000"),
        Some("182."),
        Some("10.1000/182."),
        Some("hdl:10.1000/182."),
        None,
        None,
        None,
        None,
        None,
        &["trailing_punct"],
    ),
    (
        87,
        "",
        "invalid",
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        Some("empty"),
        &[],
    ),
    (
        88,
        "N/A",
        "invalid",
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        Some("placeholder"),
        &[],
    ),
    (
        95,
        "https://example.com/paper/1",
        "invalid",
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        Some("not_a_resolver_url"),
        &[],
    ),
    (
        107,
        "10.1371/journal.pone.0123456",
        "doi",
        Some("doi"),
        Some("10.1371"),
        Some("journal.pone.0123456"),
        Some("10.1371/journal.pone.0123456"),
        None,
        None,
        None,
        None,
        None,
        None,
        &[],
    ),
    (
        108,
        "2027.42/12345",
        "handle",
        Some("hdl"),
        Some("2027.42"),
        Some("12345"),
        Some("2027.42/12345"),
        Some("hdl:2027.42/12345"),
        Some("https://hdl.handle.net/2027.42/12345"),
        None,
        None,
        None,
        None,
        &[],
    ),
];

/// Checks an output of the sample export: columns and their order, one row
/// per record in order, input columns unchanged, the known rows' values.
/// `prefix` is the `--column-prefix`; `record_offset` is added to record
/// numbers (the sample as a later input).
#[track_caller]
pub fn check_sample_output(t: &Table, prefix: &str, record_offset: u64) {
    let want: Vec<String> = SAMPLE_COLUMNS
        .iter()
        .map(|s| s.to_string())
        .chain(ENRICHED.iter().map(|s| format!("{prefix}{s}")))
        .collect();
    assert_eq!(t.names, want, "column names and order");
    let rows = sample_rows();
    assert_eq!(t.rows.len() as u64, rows, "output rows");
    let rec = format!("{prefix}record");
    for i in 0..t.rows.len() {
        assert_eq!(
            t.get(i, &rec),
            (record_offset + i as u64 + 1).to_string(),
            "record of row {i}"
        );
    }
    // Input columns unchanged: compare with the csv crate's reading.
    let mut r = csv::ReaderBuilder::new().from_path(sample()).unwrap();
    for (i, input) in r.records().enumerate() {
        let input = input.unwrap();
        for (c, name) in SAMPLE_COLUMNS.iter().enumerate() {
            assert_eq!(t.get(i, name), &input[c], "row {i} column {name}");
        }
    }
    for e in KNOWN {
        let (record, raw, kind, ns, pre, suf, canon, uri, url, resolver, query, frag, err, warns) = *e;
        let i = record - 1;
        let f = |c: &str| t.get(i, &format!("{prefix}{c}")).to_string();
        assert_eq!(t.get(i, "id"), record.to_string());
        assert_eq!(t.get(i, SAMPLE_ID), raw, "raw value of record {record}");
        assert_eq!(f("kind"), kind, "kind of record {record} ({raw:?})");
        for (col, want) in [
            ("namespace", ns),
            ("prefix", pre),
            ("suffix", suf),
            ("canonical", canon),
            ("resolver", resolver),
            ("query", query),
            ("fragment", frag),
            ("error", err),
        ] {
            assert_eq!(f(col), want.unwrap_or(""), "{col} of record {record} ({raw:?})");
        }
        for (col, want) in [("uri", uri), ("url", url)] {
            if let Some(w) = want {
                assert_eq!(f(col), w, "{col} of record {record} ({raw:?})");
            }
        }
        if kind == "invalid" {
            assert_eq!(f("uri"), "");
            assert_eq!(f("url"), "");
        }
        let got: BTreeSet<String> = f("warnings")
            .split(';')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let want: BTreeSet<String> = warns.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, want, "warnings of record {record} ({raw:?})");
    }
}

/// The report of a sample run: totals, and codes seen in the showcase rows.
#[track_caller]
pub fn check_sample_report(r: &Value) {
    let rows = sample_rows();
    check_report_totals(r, rows);
    assert_eq!(r["columns"][0]["name"], SAMPLE_ID);
    let ex = |code: &str| -> Vec<u64> {
        r["errors"][code]["examples"]
            .as_array()
            .unwrap_or_else(|| panic!("no error {code}"))
            .iter()
            .map(|e| e["record"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(ex("empty")[0], 87);
    assert_eq!(ex("placeholder")[..2], [88, 89]);
    assert_eq!(
        r["errors"]["bad_percent_escape"]["examples"][0]["value"],
        "hdl:1234/5%G7"
    );
    assert_eq!(r["warnings"]["short_doi"]["examples"][0]["record"], 14);
    assert!(r["resolvers"]["doi.org"].as_u64().unwrap() > 0);
    assert!(r["by_kind"]["doi"].as_u64().unwrap() > 0);
    assert_eq!(r["lossy_cells"], 0);
    assert_eq!(r["padded_rows"], 0);
}

pub fn check_parquet_schema(schema: &SchemaRef, prefix: &str) {
    let dict = |k: DataType| DataType::Dictionary(Box::new(k), Box::new(DataType::Utf8));
    let f = |name: &str| {
        schema
            .field_with_name(&format!("{prefix}{name}"))
            .unwrap()
            .data_type()
            .clone()
    };
    assert_eq!(f("record"), DataType::UInt64);
    assert_eq!(f("kind"), dict(DataType::Int8));
    assert_eq!(f("namespace"), dict(DataType::Int32));
    assert_eq!(f("error"), dict(DataType::Int8));
    assert!(
        matches!(f("warnings"), DataType::List(ref item) if *item.data_type() == DataType::Utf8),
        "warnings: {}",
        f("warnings")
    );
    for c in [
        "prefix",
        "suffix",
        "canonical",
        "uri",
        "url",
        "resolver",
        "query",
        "fragment",
    ] {
        assert_eq!(f(c), DataType::Utf8, "{c}");
    }
}

/// Scans the sample to `out` (format by extension) with a report; returns it.
fn scan_sample(dir: &Path, out: &str, extra: &[&str]) -> Value {
    let report = dir.join("report.json");
    let s = sample();
    let mut args = vec![p(&s), "-c", SAMPLE_ID, "-o", out, "--report", p(&report), "-q"];
    args.extend_from_slice(extra);
    scan(dir, &args).ok();
    read_json(&report)
}

// ---------------------------------------------------------------------------
// Output formats.

#[test]
fn csv_to_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let r = scan_sample(dir.path(), "out.parquet", &[]);
    check_sample_report(&r);
    assert_eq!(r["run"]["output"], "out.parquet");
    assert_eq!(entries(dir.path()), ["out.parquet", "report.json"]);
    let (schema, batches) = read_parquet(&dir.path().join("out.parquet"));
    check_parquet_schema(&schema, "");
    let t = Table::from_batches(&schema, &batches);
    check_sample_output(&t, "", 0);
    // Warnings are a real list: record 17 has two elements.
    let w = schema.index_of("warnings").unwrap();
    let mut seen = 0;
    let mut first = 0;
    for b in &batches {
        if first + b.num_rows() > 16 && first <= 16 {
            let l = b.column(w).as_list::<i32>().value(16 - first);
            assert_eq!(l.len(), 2);
            seen += 1;
        }
        first += b.num_rows();
    }
    assert_eq!(seen, 1);
}

/// Skips (prints a note) or, under CI, fails when a tool is missing.
fn missing_tool(what: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is required under CI");
    }
    eprintln!("note: skipping: {what} is not available");
}

#[test]
fn csv_to_parquet_read_by_pyarrow_duckdb_polars() {
    let dir = tempfile::tempdir().unwrap();
    scan_sample(dir.path(), "out.parquet", &[]);
    let python = match Command::new("python3").arg("--version").output() {
        Ok(o) if o.status.success() => "python3",
        _ => return missing_tool("python3"),
    };
    for module in ["pyarrow", "duckdb", "polars"] {
        let ok = Command::new(python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            return missing_tool(&format!("python module {module}"));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_parquet.py");
    let rows = sample_rows().to_string();
    let out = Command::new(python)
        .arg(&script)
        .arg(dir.path().join("out.parquet"))
        .args(["--expect-rows", &rows])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "check_parquet.py failed:\n{text}");
    for reader in ["pyarrow", "duckdb", "polars"] {
        assert!(text.contains(&format!("{reader}: {rows} rows")), "{reader}:\n{text}");
    }
}

#[test]
fn csv_to_csv_round_trips_quoted_fields() {
    let dir = tempfile::tempdir().unwrap();
    let r = scan_sample(dir.path(), "out.csv", &[]);
    check_sample_report(&r);
    let out = dir.path().join("out.csv");
    let t = Table::from_csv(&out, b',');
    check_sample_output(&t, "", 0);
    assert_eq!(t.get(106, "dc.title"), "Showcase: Title with a comma, and \"quotes\"");
    assert_eq!(t.get(107, "dc.title"), "Showcase: Title with an embedded\nline break");
    assert_eq!(t.get(16, "warnings").split(';').count(), 2, "warnings joined with ;");
    // Byte level: the header line, and the quoting of the comma/quote title.
    let text = fs::read_to_string(&out).unwrap();
    let header = text.lines().next().unwrap();
    assert_eq!(header, [&SAMPLE_COLUMNS[..], &ENRICHED[..]].concat().join(","));
    assert!(text.contains("\"Showcase: Title with a comma, and \"\"quotes\"\"\""));
    assert!(text.contains("\"Showcase: Title with an embedded\nline break\""));
}

#[test]
fn csv_to_tsv() {
    let dir = tempfile::tempdir().unwrap();
    let r = scan_sample(dir.path(), "out.tsv", &[]);
    check_sample_report(&r);
    let out = dir.path().join("out.tsv");
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        [&SAMPLE_COLUMNS[..], &ENRICHED[..]].concat().join("\t")
    );
    check_sample_output(&Table::from_csv(&out, b'\t'), "", 0);
}

#[test]
fn csv_to_arrow_ipc() {
    let dir = tempfile::tempdir().unwrap();
    let r = scan_sample(dir.path(), "out.arrow", &[]);
    check_sample_report(&r);
    let (schema, batches) = read_ipc(&dir.path().join("out.arrow"));
    assert_eq!(schema.field_with_name("record").unwrap().data_type(), &DataType::UInt64);
    assert!(matches!(
        schema.field_with_name("warnings").unwrap().data_type(),
        DataType::List(_)
    ));
    check_sample_output(&Table::from_batches(&schema, &batches), "", 0);
}

#[test]
fn output_format_flag_overrides_extension() {
    let dir = tempfile::tempdir().unwrap();
    scan_sample(dir.path(), "out.data", &["--output-format", "csv"]);
    check_sample_output(&Table::from_csv(&dir.path().join("out.data"), b','), "", 0);
}

#[test]
fn parquet_to_parquet_with_column_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = scan_sample(d, "in.parquet", &[]);
    // The enriched names clash with the input's own: the added ones get a
    // prefix by themselves, and the report says so.
    scan(
        d,
        &[
            "in.parquet",
            "-c",
            SAMPLE_ID,
            "-o",
            "auto.parquet",
            "--report",
            "auto.json",
        ],
    )
    .ok();
    let auto = read_json(&d.join("auto.json"));
    assert_eq!(auto["run"]["column_prefix"], "hdl_");
    assert!(auto["notes"][0].as_str().unwrap().contains("hdl_record"));
    let (schema, _) = read_parquet(&d.join("auto.parquet"));
    assert!(schema.field_with_name("hdl_canonical").is_ok() && schema.field_with_name("canonical").is_ok());
    for f in ["auto.parquet", "auto.json"] {
        fs::remove_file(d.join(f)).unwrap();
    }
    let report = d.join("report2.json");
    scan(
        d,
        &[
            "in.parquet",
            "-c",
            SAMPLE_ID,
            "-o",
            "out.parquet",
            "--column-prefix",
            "p_",
            "--report",
            p(&report),
            "-q",
        ],
    )
    .ok();
    let r = read_json(&report);
    check_report_totals(&r, sample_rows());
    assert_eq!(r["run"]["inputs"][0]["format"], "parquet");
    assert_eq!(report_core(&r), report_core(&first), "same values, same report");
    let (schema, batches) = read_parquet(&d.join("out.parquet"));
    check_parquet_schema(&schema, "p_");
    let t = Table::from_batches(&schema, &batches);
    // Input columns (the first run's enriched ones included) come through
    // unchanged, then the p_ columns, which must equal the first run's.
    let mut names: Vec<String> = SAMPLE_COLUMNS.iter().map(|s| s.to_string()).collect();
    names.extend(ENRICHED.iter().map(|s| s.to_string()));
    names.extend(ENRICHED.iter().map(|s| format!("p_{s}")));
    assert_eq!(t.names, names);
    assert_eq!(t.rows.len() as u64, sample_rows());
    let (in_schema, in_batches) = read_parquet(&d.join("in.parquet"));
    assert_eq!(
        schema.fields()[..19],
        in_schema.fields()[..],
        "input columns keep their types"
    );
    let input = Table::from_batches(&in_schema, &in_batches);
    for (i, row) in t.rows.iter().enumerate() {
        assert_eq!(row[..19], input.rows[i][..], "row {i}: input columns unchanged");
        assert_eq!(row[19..], input.rows[i][6..], "row {i}: the same enrichment again");
    }
    // The sample's known values, through the prefixed columns.
    let keep: Vec<usize> = (0..6).chain(19..32).collect();
    let view = Table {
        names: keep.iter().map(|&c| t.names[c].clone()).collect(),
        rows: t
            .rows
            .iter()
            .map(|r| keep.iter().map(|&c| r[c].clone()).collect())
            .collect(),
    };
    check_sample_output(&view, "p_", 0);
}

#[test]
fn several_parquet_inputs_continue_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    scan_sample(d, "a.parquet", &[]);
    fs::copy(d.join("a.parquet"), d.join("b.parquet")).unwrap();
    scan(
        d,
        &[
            "a.parquet",
            "b.parquet",
            "-c",
            SAMPLE_ID,
            "-o",
            "out.csv",
            "--column-prefix",
            "p_",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    let n = sample_rows();
    let r = read_json(&d.join("r.json"));
    check_report_totals(&r, 2 * n);
    assert_eq!(r["run"]["inputs"][1]["records"], n);
    assert_eq!(
        r["duplicates"]["unique_canonical"],
        read_json(&d.join("report.json"))["duplicates"]["unique_canonical"]
    );
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(t.rows.len() as u64, 2 * n);
    for i in [0, n as usize - 1, n as usize, 2 * n as usize - 1] {
        assert_eq!(t.get(i, "p_record"), (i + 1).to_string(), "p_record of row {i}");
        assert_eq!(
            t.get(i, "record"),
            (i % n as usize + 1).to_string(),
            "the input's record"
        );
    }
    assert_eq!(t.get(n as usize + 63, "p_canonical"), "10.1000/182.");
}

// ---------------------------------------------------------------------------
// Input forms.

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn gz_and_zst_inputs_report_like_the_plain_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = fs::read(sample()).unwrap();
    fs::write(d.join("s.csv"), &data).unwrap();
    fs::write(d.join("s.csv.gz"), gzip(&data)).unwrap();
    fs::write(d.join("s.csv.zst"), zstd::encode_all(&data[..], 3).unwrap()).unwrap();
    let mut reports = Vec::new();
    for name in ["s.csv", "s.csv.gz", "s.csv.zst"] {
        let out = format!("{name}.out.csv");
        let rep = format!("{name}.json");
        scan(d, &[name, "-c", SAMPLE_ID, "-o", &out, "--report", &rep, "-q"]).ok();
        let r = read_json(&d.join(&rep));
        check_sample_report(&r);
        assert_eq!(r["run"]["inputs"][0]["path"], name);
        assert_eq!(r["run"]["inputs"][0]["format"], "csv");
        reports.push((report_core(&r), fs::read(d.join(&out)).unwrap()));
    }
    assert_eq!(reports[0].0, reports[1].0, ".gz report");
    assert_eq!(reports[0].0, reports[2].0, ".zst report");
    assert!(reports[0].1 == reports[1].1, ".gz output differs");
    assert!(reports[0].1 == reports[2].1, ".zst output differs");
}

#[test]
fn stdin_with_headers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = fs::read(sample()).unwrap();
    let run = scan_in(
        d,
        &["-", "-c", SAMPLE_ID, "-o", "out.csv", "--report", "-", "-q"],
        Some(&data),
    )
    .ok();
    let r: Value = serde_json::from_slice(&run.stdout).unwrap();
    check_sample_report(&r);
    assert_eq!(r["run"]["inputs"][0]["path"], "<stdin>");
    check_sample_output(&Table::from_csv(&d.join("out.csv"), b','), "", 0);
}

#[test]
fn stdin_small_input() {
    let dir = tempfile::tempdir().unwrap();
    let run = scan_in(
        dir.path(),
        &["-", "-c", "id", "--report", "-", "-q"],
        Some(b"a,id\n1,10.1/x\n2,N/A\n"),
    )
    .ok();
    let r: Value = serde_json::from_slice(&run.stdout).unwrap();
    check_report_totals(&r, 2);
    assert_eq!(r["by_kind"]["doi"], 1);
    assert_eq!(r["errors"]["placeholder"]["examples"][0]["record"], 2);
}

#[test]
fn stdin_no_headers_column_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = scan_in(
        d,
        &["-", "-n", "-c", "2", "-o", "out.csv", "--report", "-", "-q"],
        Some(b"1,10.1/x\n2,hdl:1721.1/5\n3,oops\n"),
    )
    .ok();
    let r: Value = serde_json::from_slice(&run.stdout).unwrap();
    check_report_totals(&r, 3);
    assert_eq!(r["columns"][0]["name"], "column_2");
    let t = Table::from_csv(&d.join("out.csv"), b',');
    let mut names = vec!["column_1".to_string(), "column_2".into()];
    names.extend(ENRICHED.iter().map(|s| s.to_string()));
    assert_eq!(t.names, names);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.get(0, "record"), "1", "the first line is a record");
    assert_eq!(t.get(0, "canonical"), "10.1/x");
    assert_eq!(t.get(1, "kind"), "hdl_uri");
    assert_eq!(t.get(2, "kind"), "invalid");
}

#[test]
fn no_headers_file_column_by_number() {
    // The same as above from a file, so a stdin bug does not hide this one.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.csv"), b"1,10.1/x\n2,hdl:1721.1/5\n3,oops\n").unwrap();
    scan(
        d,
        &["in.csv", "-n", "-c", "2", "-o", "out.csv", "--report", "r.json", "-q"],
    )
    .ok();
    check_report_totals(&read_json(&d.join("r.json")), 3);
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(t.names[..2], ["column_1", "column_2"]);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.get(0, "canonical"), "10.1/x");
}

#[test]
fn several_inputs_continue_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    fs::write(
        d.join("second.csv"),
        "id,collection,dc.title,dc.date.issued,dc.type,dc.identifier.uri\n\
         x1,c,t,2000,Article,10.1000/A\nx2,c,t,2000,Article,junk\n",
    )
    .unwrap();
    scan(
        d,
        &[
            "second.csv",
            p(&s),
            "-c",
            SAMPLE_ID,
            "-o",
            "out.csv",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    let n = sample_rows();
    let r = read_json(&d.join("r.json"));
    check_report_totals(&r, n + 2);
    let inputs = r["run"]["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["records"], 2);
    assert_eq!(inputs[1]["records"], n);
    // The sample's errors are now 2 records later.
    assert_eq!(r["errors"]["empty"]["examples"][0]["record"], 87 + 2);
    let t = Table::from_csv(&d.join("out.csv"), b',');
    assert_eq!(t.get(0, "record"), "1");
    assert_eq!(t.get(0, "canonical"), "10.1000/a");
    assert_eq!(t.get(1, "error"), "placeholder");
    let rest = Table {
        names: t.names.clone(),
        rows: t.rows[2..].to_vec(),
    };
    check_sample_output(&rest, "", 2);
}

#[test]
fn several_inputs_with_different_columns_fail() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("a.csv"), "a,id\n1,10.1/x\n").unwrap();
    fs::write(d.join("b.csv"), "x,y\n1,2\n").unwrap();
    scan(d, &["a.csv", "b.csv", "-c", "id", "-o", "out.csv", "-q"]).fails_with(&["b.csv", "x, y", "a, id"]);
    assert!(!d.join("out.csv").exists());
    // (Temporary files: see hostile::late_failures_leave_no_temp_file.)
}

#[test]
fn audit_only_writes_nothing_but_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    let run = scan(d, &[p(&s), "-c", SAMPLE_ID, "--report", "r.json"]).ok();
    assert_eq!(entries(d), ["r.json"]);
    assert!(run.stdout.is_empty(), "audit prints nothing on stdout");
    assert!(
        run.stderr.contains(&format!("{} records", sample_rows())),
        "summary:\n{}",
        run.stderr
    );
    let r = read_json(&d.join("r.json"));
    check_sample_report(&r);
    assert_eq!(r["run"]["output"], Value::Null);
    // --report - prints the same JSON on stdout, and nothing is written.
    let empty = tempfile::tempdir().unwrap();
    let run = scan(empty.path(), &[p(&s), "-c", SAMPLE_ID, "--report", "-", "-q"]).ok();
    assert!(entries(empty.path()).is_empty());
    assert!(run.stderr.is_empty(), "-q: {}", run.stderr);
    let r2: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report_core(&r2), report_core(&r));
}

#[test]
fn repair_changes_canonical_and_keeps_warning() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plain = scan_sample(d, "plain.csv", &[]);
    let repaired = scan_sample(d, "repaired.csv", &["--repair"]);
    check_sample_report(&repaired);
    assert_eq!(repaired["run"]["options"]["repair"], true);
    let a = Table::from_csv(&d.join("plain.csv"), b',');
    let b = Table::from_csv(&d.join("repaired.csv"), b',');
    // Record 64: `10.1000/182.`
    let i = 63;
    assert_eq!(a.get(i, "canonical"), "10.1000/182.");
    assert_eq!(b.get(i, "canonical"), "10.1000/182");
    assert_eq!(b.get(i, "uri"), "hdl:10.1000/182");
    assert_eq!(b.get(i, "url"), "https://doi.org/10.1000/182");
    assert_eq!(b.get(i, "suffix"), "182.", "suffix shows what was read");
    assert_eq!(b.get(i, "warnings"), "trailing_punct", "the warning stays");
    // Record 65: a URL with a trailing comma.
    assert_eq!(b.get(64, "canonical"), "10.1016/j.cell.2020.01.001");
    assert_eq!(
        plain["warnings"]["trailing_punct"]["count"],
        repaired["warnings"]["trailing_punct"]["count"]
    );
    assert_eq!(plain["records"], repaired["records"]);
    // SPEC v2 §6: whole-value repairs make values valid, each keeping its
    // error's name as a warning; the other repairs change no validity.
    let whole: u64 = ["multiple_values", "wrapped_line", "extra_text", "publisher_url"]
        .iter()
        .map(|w| repaired["warnings"][w]["count"].as_u64().unwrap_or(0))
        .sum();
    assert!(whole > 0, "the sample holds values a whole-value repair reads");
    assert_eq!(
        plain["valid"].as_u64().unwrap() + whole,
        repaired["valid"].as_u64().unwrap()
    );
    // Repairs merge duplicates (182. and 182 are one now).
    assert!(repaired["duplicates"]["unique_canonical"].as_u64() < plain["duplicates"]["unique_canonical"].as_u64());
}

#[test]
fn custom_resolver_makes_urls_valid() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("in.csv"),
        "id\nhttps://ids.example.org/r/1721.1/5\nhttps://ids.example.org/other/1721.1/5\n",
    )
    .unwrap();
    scan(d, &["in.csv", "-c", "id", "-o", "a.csv", "--report", "a.json", "-q"]).ok();
    let a = Table::from_csv(&d.join("a.csv"), b',');
    assert_eq!(a.get(0, "error"), "not_a_resolver_url");
    scan(
        d,
        &[
            "in.csv",
            "-c",
            "id",
            "-o",
            "b.csv",
            "--report",
            "b.json",
            "-q",
            "--resolver",
            "ids.example.org/r",
        ],
    )
    .ok();
    let b = Table::from_csv(&d.join("b.csv"), b',');
    assert_eq!(b.get(0, "kind"), "resolver_url");
    assert_eq!(b.get(0, "canonical"), "1721.1/5");
    assert_eq!(b.get(0, "resolver"), "ids.example.org");
    assert_eq!(b.get(1, "kind"), "invalid", "only the given path");
    let r = read_json(&d.join("b.json"));
    check_report_totals(&r, 2);
    assert_eq!(r["valid"], 1);
    assert_eq!(r["resolvers"]["ids.example.org"], 1);
    assert_eq!(r["run"]["options"]["resolvers"][0], "ids.example.org/r");
}

/// Writes a `rows`-row export like the sample's: identifiers from
/// `hdlscan_synth` (seeded), titles with commas, quotes and line breaks so
/// quoted records straddle block boundaries, ids `1..=rows`.
pub fn write_synth_csv(path: &Path, rows: u64, seed: u64) {
    use hdlscan_synth::{Layout, csv};
    let mut synth = hdlscan_synth::Synth::new(seed);
    let mut out = Vec::with_capacity(rows as usize * 120);
    csv::push_header(&mut out, &Layout::DSPACE);
    let mut row = hdlscan_synth::Row::default();
    for id in 1..=rows {
        row.id = id;
        row.collection = ["1721.1/7582", "2027.42/41", "123456789/2"][id as usize % 3].to_string();
        row.title = match id % 7 {
            0 => format!("A title, with a comma {id}"),
            1 => format!("Quoted \"words\" in title {id}"),
            2 => format!("Two\nlines, and \"quotes\" {id}"),
            _ => format!("Plain title {id}"),
        };
        row.date_issued = format!("{}", 2000 + id % 25);
        row.dc_type = "Article";
        synth.next_identifier(&mut row.identifier);
        csv::push_row(&mut out, &Layout::DSPACE, &row);
    }
    fs::write(path, out).unwrap();
}

#[test]
fn threads_1_and_2_give_identical_output() {
    const ROWS: u64 = 200_000;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_synth_csv(&d.join("big.csv"), ROWS, 42);
    let size = fs::metadata(d.join("big.csv")).unwrap().len();
    assert!(size > 8 << 20, "the input spans many 1 MiB blocks ({size} bytes)");
    let mut outs = Vec::new();
    for threads in ["1", "2"] {
        let out = format!("t{threads}.csv");
        let rep = format!("t{threads}.json");
        scan(
            d,
            &[
                "big.csv",
                "-c",
                SAMPLE_ID,
                "-o",
                &out,
                "--report",
                &rep,
                "--threads",
                threads,
                "--block-mib",
                "1",
                "-q",
            ],
        )
        .ok();
        let r = read_json(&d.join(&rep));
        check_report_totals(&r, ROWS);
        assert_eq!(r["run"]["options"]["threads"], threads.parse::<u64>().unwrap());
        outs.push((report_core(&r), fs::read(d.join(&out)).unwrap()));
    }
    assert_eq!(outs[0].0, outs[1].0, "reports");
    assert!(outs[0].1 == outs[1].1, "outputs differ between --threads 1 and 2");
    // Order preserved and input columns intact: ids and records 1..=ROWS in
    // order, titles as written.
    let t = Table::from_csv(&d.join("t2.csv"), b',');
    assert_eq!(t.rows.len() as u64, ROWS);
    let (id, rec, title) = (t.col("id"), t.col("record"), t.col("dc.title"));
    for (i, row) in t.rows.iter().enumerate() {
        let want = (i + 1).to_string();
        assert_eq!(row[rec].as_deref(), Some(want.as_str()), "record of row {i}");
        assert_eq!(row[id].as_deref(), Some(want.as_str()), "id of row {i}");
        assert!(
            row[title].as_deref().unwrap().ends_with(&format!(" {want}")),
            "title of row {i}"
        );
    }
    // The identifiers are the generator's mix: some of every kind.
    let r = &outs[0].0;
    for kind in ["doi", "handle", "hdl_uri", "info_uri", "resolver_url", "invalid"] {
        assert!(r["by_kind"][kind].as_u64().unwrap() > 0, "no {kind}");
    }
}

/// `hdlscan_synth::csv::write_csv`, the documented way to make big test
/// inputs, must work in the test (debug) profile and make titles like the
/// sample's showcase.
#[test]
fn synth_write_csv_works_in_debug_builds() {
    let mut out = Vec::new();
    let synth = hdlscan_synth::Synth::new(42);
    hdlscan_synth::csv::write_csv(&mut out, &hdlscan_synth::Layout::DSPACE, synth, 2000).unwrap();
    let mut r = csv::ReaderBuilder::new().from_reader(&out[..]);
    let titles: Vec<String> = r.records().map(|rec| rec.unwrap()[2].to_string()).collect();
    assert_eq!(titles.len(), 2000);
    let quoted = titles.iter().filter(|t| t.contains('"')).count();
    // Titles are quoted with chance 30 per mille.
    assert!(quoted < 200, "{quoted} of 2000 titles hold a quote");
}

#[test]
fn header_only_csv_to_parquet() {
    // Not hostile, just small: a header-only Parquet round trip keeps the schema.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("h.csv"), "a,id\n").unwrap();
    scan(d, &["h.csv", "-c", "id", "-o", "h.parquet", "--report", "r.json", "-q"]).ok();
    check_report_totals(&read_json(&d.join("r.json")), 0);
    let (schema, batches) = read_parquet(&d.join("h.parquet"));
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 0);
    let names: Vec<&str> = schema
        .fields()
        .iter()
        .map(|f: &std::sync::Arc<Field>| f.name().as_str())
        .collect();
    assert_eq!(names, [&["a", "id"][..], &ENRICHED[..]].concat());
    check_parquet_schema(&schema, "");
}

/// Parquet written with each standard codec (pandas and Spark default to
/// snappy or gzip; others pick zstd, brotli, lz4) is read, every row.
#[test]
fn parquet_input_in_every_codec() {
    use arrow_array::StringArray;
    use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    use parquet::file::properties::WriterProperties;
    let dir = tempfile::tempdir().unwrap();
    let ids = StringArray::from(vec!["10.1000/182", "hdl:1721.1/5", "x"]);
    let batch = RecordBatch::try_from_iter([("id", std::sync::Arc::new(ids) as ArrayRef)]).unwrap();
    for codec in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::ZSTD(ZstdLevel::default()),
        Compression::BROTLI(BrotliLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
    ] {
        let name = format!("{codec:?}").replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let input = dir.path().join(format!("{name}.parquet"));
        let props = WriterProperties::builder().set_compression(codec).build();
        let mut w =
            parquet::arrow::ArrowWriter::try_new(fs::File::create(&input).unwrap(), batch.schema(), Some(props))
                .unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let out = dir.path().join(format!("{name}.out.parquet"));
        scan(dir.path(), &[p(&input), "-c", "id", "-o", p(&out), "-q"]).ok();
        let (schema, batches) = read_parquet(&out);
        let t = Table::from_batches(&schema, &batches);
        let kinds: Vec<_> = (0..3).map(|i| t.get(i, "kind")).collect();
        assert_eq!(kinds, ["doi", "hdl_uri", "invalid"], "{codec:?}");
    }
}

/// SPEC §8 in a scan: the report counts `other_pid` and the schemes'
/// namespaces (not a failed check's), the duplicates cluster a scheme's
/// forms by canonical, and the gates take §8's codes.
#[test]
fn other_schemes_are_counted_clustered_and_gated() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("in.csv"),
        "id\nISSN 1932-6203\n1932-6203\nhttps://orcid.org/0000-0002-1825-0097\n0000-0002-1825-0098\nPMID: 12376099\ninfo:pmid/12376099\n",
    )
    .unwrap();
    let run = scan(
        d,
        &[
            "in.csv",
            "-c",
            "id",
            "--duplicates",
            "d.csv",
            "--report",
            "r.json",
            "-q",
            "--fail-if",
            "bad_check_digit>0",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["by_kind"]["other_pid"], 3);
    assert_eq!(r["by_namespace"]["issn"], 2);
    assert_eq!(r["by_namespace"]["orcid"], 1);
    assert_eq!(r["by_namespace"]["pmid"], 2);
    assert_eq!(r["errors"]["bad_check_digit"]["count"], 1);
    let dups = Table::from_csv(&d.join("d.csv"), b',');
    let clusters: BTreeSet<&str> = (0..dups.rows.len()).map(|i| dups.get(i, "canonical")).collect();
    assert_eq!(clusters, BTreeSet::from(["issn:1932-6203", "pmid:12376099"]));
}
