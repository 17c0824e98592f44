//! End-to-end tests of `hdlscan diff` through the built binary: OLD and NEW
//! are made by `hdlscan scan` from a small DSpace-like export and its next
//! night (a record added, one removed, a value broken, one repaired, one
//! with another canonical, one with new warnings, one with both), in wide
//! and long shape and in mixed formats; every count, every `-o` row, the
//! errors (a key on two rows, a file `scan` did not write) and the gates.
//!
//! Run: `cargo test --test tests diff`

use crate::scan::{Run, Table, assert_no_temp_files, entries, read_json, scan};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

const URI: &str = "dc.identifier.uri";

const OLD: &str = "\
id,collection,dc.title,dc.identifier.uri,dc.identifier.doi
1,123456789/10,\"Alpha, a study\",https://hdl.handle.net/1721.1/100,10.1000/alpha
2,123456789/10,Beta,https://hdl.handle.net/1721.1/200,
3,123456789/11,Gamma,https://hdl.handle.net/1721.1/300,10.1000/gamma
4,123456789/11,Delta,https://hdl.handle.net/1721.1/400,
5,123456789/12,Epsilon,hdl:1721.1,
6,123456789/12,Zeta,https://hdl.handle.net/1721.1/600,
7,123456789/12,Eta,hdl:1721.1/700,
8,123456789/13,Theta,10.1000/eight,
";

/// OLD's next night: 3 removed, 4 broken, 5 repaired, 6 another
/// canonical, 7 new warnings (same canonical), 8 both, 9 added, and a
/// second DOI for 1 (a new value in long output only).
const NEW: &str = "\
id,collection,dc.title,dc.identifier.uri,dc.identifier.doi
1,123456789/10,\"Alpha, a study\",https://hdl.handle.net/1721.1/100,10.1000/alpha||10.1000/alpha2
2,123456789/10,Beta,https://hdl.handle.net/1721.1/200,
4,123456789/11,Delta,https://hdl.handle.net/1721.1/400 (see also),
5,123456789/12,Epsilon,hdl:1721.1/500,
6,123456789/12,Zeta,https://hdl.handle.net/1721.1/601,
7,123456789/12,Eta,http://hdl.handle.net/1721.1/700,
8,123456789/13,Theta,http://dx.doi.org/10.1000/EIGHT-2,
9,123456789/13,Iota,https://hdl.handle.net/1721.1/900,10.1000/iota
";

/// `-o`'s columns after the key's.
const CHANGE_COLUMNS: [&str; 9] = [
    "change",
    "old_kind",
    "new_kind",
    "old_canonical",
    "new_canonical",
    "old_error",
    "new_error",
    "old_warnings",
    "new_warnings",
];

/// One expected row of `-o`: the key as text, then [`CHANGE_COLUMNS`].
#[derive(Debug, Clone, PartialEq)]
struct Row {
    key: Vec<String>,
    cells: [String; 9],
}

fn row(key: &[&str], cells: [&str; 9]) -> Row {
    Row {
        key: key.iter().map(|s| s.to_string()).collect(),
        cells: cells.map(String::from),
    }
}

/// The wide diff's rows (by `id`), in the order `-o` has them: NEW's order,
/// then `removed` in OLD's.
fn wide_rows(key: &[&str]) -> Vec<Row> {
    fn with<'a>(id: &'a str, key: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec![id];
        v.extend_from_slice(key);
        v
    }
    let k = |id| with(id, key);
    vec![
        row(
            &k("4"),
            [
                "became_invalid",
                "resolver_url",
                "invalid",
                "1721.1/400",
                "",
                "",
                "extra_text",
                "",
                "",
            ],
        ),
        row(
            &k("5"),
            [
                "became_valid",
                "invalid",
                "hdl_uri",
                "",
                "1721.1/500",
                "no_slash",
                "",
                "",
                "",
            ],
        ),
        row(
            &k("6"),
            [
                "canonical_changed",
                "resolver_url",
                "resolver_url",
                "1721.1/600",
                "1721.1/601",
                "",
                "",
                "",
                "",
            ],
        ),
        row(
            &k("7"),
            [
                "codes_changed",
                "hdl_uri",
                "resolver_url",
                "1721.1/700",
                "1721.1/700",
                "",
                "",
                "",
                "http_resolver",
            ],
        ),
        row(
            &k("8"),
            [
                "canonical_changed",
                "doi",
                "resolver_url",
                "10.1000/eight",
                "10.1000/eight-2",
                "",
                "",
                "",
                "http_resolver;legacy_resolver",
            ],
        ),
        row(
            &k("8"),
            [
                "codes_changed",
                "doi",
                "resolver_url",
                "10.1000/eight",
                "10.1000/eight-2",
                "",
                "",
                "",
                "http_resolver;legacy_resolver",
            ],
        ),
        row(&k("9"), ["added", "", "resolver_url", "", "1721.1/900", "", "", "", ""]),
        row(
            &k("3"),
            ["removed", "resolver_url", "", "1721.1/300", "", "", "", "", ""],
        ),
    ]
}

/// Runs `hdlscan diff ARGS` in `dir`.
fn diff(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(dir)
        .arg("diff")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run hdlscan");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes OLD and NEW's exports into `dir` as `old.csv`, `new.csv`.
fn exports(dir: &Path) {
    fs::write(dir.join("old.csv"), OLD).unwrap();
    fs::write(dir.join("new.csv"), NEW).unwrap();
}

/// `scan INPUT -o OUTPUT ARGS --report OUTPUT.json`.
fn scanned(dir: &Path, input: &str, output: &str, args: &[&str]) {
    let report = format!("{output}.json");
    let mut all = vec![input, "-o", output, "--report", &report, "-q"];
    all.extend_from_slice(args);
    scan(dir, &all).ok();
}

/// `-o` read back as CSV: the key columns and the change columns.
fn changes_file(path: &Path, keys: &[&str]) -> Vec<Row> {
    let t = Table::from_csv(path, b',');
    let mut expected_names: Vec<&str> = keys.to_vec();
    expected_names.extend(CHANGE_COLUMNS);
    assert_eq!(t.names, expected_names);
    (0..t.rows.len())
        .map(|i| Row {
            key: keys.iter().map(|k| t.get(i, k).to_string()).collect(),
            cells: CHANGE_COLUMNS.map(|c| t.get(i, c).to_string()),
        })
        .collect()
}

fn count(r: &Value, change: &str) -> u64 {
    r["changes"][change]["count"]
        .as_u64()
        .unwrap_or_else(|| panic!("no count of {change}: {r}"))
}

/// The counts of `r`, in the order of the changes.
fn counts(r: &Value) -> [u64; 6] {
    [
        "added",
        "removed",
        "became_invalid",
        "became_valid",
        "canonical_changed",
        "codes_changed",
    ]
    .map(|c| count(r, c))
}

#[test]
fn wide_outputs_in_mixed_formats_give_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.parquet", &["-c", URI]);
    scanned(d, "new.csv", "new.out.csv", &["-c", URI]);
    let run = diff(
        d,
        &[
            "old.parquet",
            "new.out.csv",
            "--key",
            "id",
            "-o",
            "changes.csv",
            "--report",
            "diff.json",
            "--report",
            "diff.md",
            "--report",
            "diff.html",
        ],
    )
    .ok();
    assert_eq!(
        run.stderr.lines().next(),
        Some("+1 \u{2212}1 ~5, 1 became invalid"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("became_valid                1  e.g. id=5: invalid (no_slash) → 1721.1/500"),
        "{}",
        run.stderr
    );
    let r = read_json(&d.join("diff.json"));
    assert_eq!(counts(&r), [1, 1, 1, 1, 2, 2]);
    assert_eq!((r["changed"].as_u64(), r["unchanged"].as_u64()), (Some(5), Some(2)));
    assert_eq!(
        (r["old"]["rows"].as_u64(), r["new"]["rows"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(
        (r["old"]["format"].as_str(), r["new"]["format"].as_str()),
        (Some("parquet"), Some("csv"))
    );
    assert_eq!(
        (r["old"]["shape"].as_str(), r["verdict"].as_str()),
        (Some("wide"), Some("pass"))
    );
    assert_eq!(r["summary"], "+1 \u{2212}1 ~5, 1 became invalid");
    // An example: the key, and both sides' canonical and error.
    let ex = &r["changes"]["became_invalid"]["examples"][0];
    assert_eq!(ex["key"]["id"], "4");
    assert_eq!(
        (ex["old"]["canonical"].as_str(), ex["old"]["error"].as_str()),
        (Some("1721.1/400"), None)
    );
    assert_eq!(
        (ex["new"]["canonical"].as_str(), ex["new"]["error"].as_str()),
        (None, Some("extra_text"))
    );
    assert_eq!(ex["new"]["record"], 3, "scan's record in NEW");
    assert_eq!(r["changes"]["removed"]["examples"][0]["new"], Value::Null);
    assert_eq!(
        r["changes"]["canonical_changed"]["examples"].as_array().unwrap().len(),
        2
    );
    assert_eq!(changes_file(&d.join("changes.csv"), &["id"]), wide_rows(&[]));
    let md = fs::read_to_string(d.join("diff.md")).unwrap();
    assert!(
        md.starts_with("# hdlscan diff: PASS\n\n**+1 \u{2212}1 ~5, 1 became invalid**"),
        "{md}"
    );
    assert!(
        md.contains("| `id=4` | `resolver_url` | `1721.1/400` |  | `invalid` | `extra_text` |  |"),
        "{md}"
    );
    let html = fs::read_to_string(d.join("diff.html")).unwrap();
    assert!(
        html.contains("<p class=\"counts\">+1 \u{2212}1 ~5, 1 became invalid</p>"),
        "{html}"
    );
    assert!(r["notes"][0].as_str().unwrap().contains("--old-report"), "{r}");
}

#[test]
fn every_pair_of_formats_gives_the_same_diff() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    for ext in ["csv", "tsv", "parquet", "arrow", "jsonl"] {
        scanned(d, "old.csv", &format!("o.{ext}"), &["-c", URI]);
        scanned(d, "new.csv", &format!("n.{ext}"), &["-c", URI]);
    }
    // A gzipped CSV, found by its first bytes whatever its name; a gzipped
    // JSON Lines file, by its name.
    let gzip = |from: &str, to: &str| {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &fs::read(d.join(from)).unwrap()).unwrap();
        fs::write(d.join(to), gz.finish().unwrap()).unwrap();
    };
    gzip("o.csv", "o.data");
    gzip("n.jsonl", "n.jsonl.gz");
    for (old, new) in [
        ("o.csv", "n.csv"),
        ("o.parquet", "n.parquet"),
        ("o.tsv", "n.arrow"),
        ("o.arrow", "n.tsv"),
        ("o.data", "n.parquet"),
        ("o.jsonl", "n.jsonl"),
        ("o.parquet", "n.jsonl.gz"),
        ("o.jsonl", "n.csv"),
    ] {
        let run = diff(d, &[old, new, "--key", "id", "-o", "ch.csv", "--report", "r.json"]).ok();
        let r = read_json(&d.join("r.json"));
        assert_eq!(counts(&r), [1, 1, 1, 1, 2, 2], "{old} {new}");
        assert_eq!(
            changes_file(&d.join("ch.csv"), &["id"]),
            wide_rows(&[]),
            "{old} {new}: {}",
            run.stderr
        );
    }
    // -o in Parquet: warnings as a list, the same rows.
    diff(d, &["o.csv", "n.parquet", "--key", "id", "-o", "ch.parquet", "-q"]).ok();
    let (schema, batches) = crate::scan::read_parquet(&d.join("ch.parquet"));
    let t = Table::from_batches(&schema, &batches);
    assert_eq!(t.rows.len(), 8);
    assert_eq!(t.get(4, "new_warnings"), "http_resolver;legacy_resolver");
    assert!(matches!(
        schema.field_with_name("new_warnings").unwrap().data_type(),
        arrow_schema::DataType::List(_)
    ));
}

/// A scan of no rows writes an empty JSON Lines file: it names no column,
/// and compares as a file without rows.
#[test]
fn an_empty_json_lines_output_holds_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "new.csv", "n.jsonl", &["-c", URI]);
    fs::write(d.join("none.csv"), OLD.lines().next().unwrap()).unwrap();
    scanned(d, "none.csv", "o.jsonl", &["-c", URI]);
    assert_eq!(fs::read(d.join("o.jsonl")).unwrap(), b"");
    diff(d, &["o.jsonl", "n.jsonl", "--key", "id", "--report", "r.json"]).ok();
    let r = read_json(&d.join("r.json"));
    let rows = NEW.lines().count() as u64 - 1;
    assert_eq!(counts(&r), [rows, 0, 0, 0, 0, 0], "{r}");
    assert_eq!(r["old"]["rows"], 0, "{r}");
}

#[test]
fn long_output_is_keyed_by_the_values_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    let long = ["-c", URI, "-c", "dc.identifier.doi", "--split", "||", "--keep", "id"];
    scanned(d, "old.csv", "old.tsv", &long);
    scanned(d, "new.csv", "new.parquet", &long);
    let keys = ["id", "source_column", "value_index"];
    let run = diff(
        d,
        &[
            "old.tsv",
            "new.parquet",
            "--key",
            "id",
            "--key",
            "source_column",
            "--key",
            "value_index",
            "-o",
            "ch.csv",
            "--report",
            "r.json",
        ],
    )
    .ok();
    assert_eq!(
        run.stderr.lines().next(),
        Some("+3 \u{2212}2 ~5, 1 became invalid"),
        "{}",
        run.stderr
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(counts(&r), [3, 2, 1, 1, 2, 2]);
    assert_eq!((r["changed"].as_u64(), r["unchanged"].as_u64()), (Some(5), Some(9)));
    assert_eq!(
        (r["old"]["rows"].as_u64(), r["new"]["rows"].as_u64()),
        (Some(16), Some(17))
    );
    assert_eq!(
        (r["old"]["shape"].as_str(), r["new"]["shape"].as_str()),
        (Some("long"), Some("long"))
    );
    // The URI column's changes are the wide diff's; then the DOI column's
    // second value of 1, and 9's two values, added; 3's two removed.
    let mut expected: Vec<Row> = wide_rows(&[URI, "1"]);
    let removed = expected.pop().unwrap();
    let added = expected.pop().unwrap();
    let doi = "dc.identifier.doi";
    expected.insert(
        0,
        row(
            &["1", doi, "2"],
            ["added", "", "doi", "", "10.1000/alpha2", "", "", "", ""],
        ),
    );
    expected.push(added);
    expected.push(row(
        &["9", doi, "1"],
        ["added", "", "doi", "", "10.1000/iota", "", "", "", ""],
    ));
    expected.push(removed);
    expected.push(row(
        &["3", doi, "1"],
        ["removed", "doi", "", "10.1000/gamma", "", "", "", "", ""],
    ));
    assert_eq!(changes_file(&d.join("ch.csv"), &keys), expected);
    let ex = &r["changes"]["added"]["examples"][0];
    assert_eq!(
        ex["key"],
        serde_json::json!({"id": "1", "source_column": doi, "value_index": "2"})
    );
}

#[test]
fn a_key_on_two_rows_is_an_error_naming_it_and_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    // Long output keyed by the item alone: each item has two values.
    let long = ["-c", URI, "-c", "dc.identifier.doi", "--keep", "id"];
    scanned(d, "old.csv", "old.long.csv", &long);
    scanned(d, "new.csv", "new.long.parquet", &long);
    let args = [
        "old.long.csv",
        "new.long.parquet",
        "--key",
        "id",
        "-o",
        "ch.csv",
        "--report",
        "r.json",
    ];
    diff(d, &args).fails_with(&[
        "old.long.csv: the key id=1 is not unique: rows 1 and 2 (scan's records 1 and 1) both hold it",
        "--key source_column --key value_index",
    ]);
    // Wide: a record exported twice, in NEW.
    fs::write(
        d.join("twice.csv"),
        format!("{NEW}2,123456789/10,Beta again,10.1000/b,\n"),
    )
    .unwrap();
    scanned(d, "old.csv", "old.wide.csv", &["-c", URI]);
    scanned(d, "twice.csv", "twice.parquet", &["-c", URI]);
    let args = [
        "old.wide.csv",
        "twice.parquet",
        "--key",
        "id",
        "-o",
        "ch.csv",
        "--report",
        "r.json",
    ];
    diff(d, &args).fails_with(&[
        "twice.parquet: the key id=2 is not unique: records 2 and 9 both hold it",
        "--key is repeatable",
    ]);
    // In OLD, with a key of two columns.
    diff(
        d,
        &["twice.parquet", "old.wide.csv", "--key", "id", "--key", "collection"],
    )
    .fails_with(&["twice.parquet: the key id=2, collection=123456789/10 is not unique: records 2 and 9"]);
    // A key NEW adds twice.
    fs::write(
        d.join("added_twice.csv"),
        format!("{NEW}9,123456789/13,Iota again,10.1000/i,\n"),
    )
    .unwrap();
    scanned(d, "added_twice.csv", "added_twice.csv.out.csv", &["-c", URI]);
    diff(d, &["old.wide.csv", "added_twice.csv.out.csv", "--key", "id"])
        .fails_with(&["the key id=9 is not unique: records 8 and 9 both hold it"]);
    assert!(
        !entries(d).iter().any(|e| e == "ch.csv" || e == "r.json"),
        "{:?}",
        entries(d)
    );
    assert_no_temp_files(d);
}

#[test]
fn a_file_scan_did_not_write_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "new.csv", "new.parquet", &["-c", URI]);
    diff(d, &["old.csv", "new.parquet", "--key", "id", "-o", "ch.csv"]).fails_with(&[
        "old.csv is not an output of `hdlscan scan`: none of SPEC's columns (kind, namespace, prefix",
        "(its columns: id, collection, dc.title, dc.identifier.uri, dc.identifier.doi)",
    ]);
    // SPEC's columns under a prefix: named, and found with --column-prefix.
    fs::write(d.join("clash.csv"), OLD.replace("dc.identifier.doi", "kind")).unwrap();
    fs::write(d.join("clash2.csv"), NEW.replace("dc.identifier.doi", "kind")).unwrap();
    scanned(d, "clash.csv", "a.csv", &["-c", URI, "--column-prefix", "hdl_"]);
    scanned(d, "clash2.csv", "b.csv", &["-c", URI, "--column-prefix", "hdl_"]);
    diff(d, &["a.csv", "b.csv", "--key", "id"]).fails_with(&[
        "a.csv is not an output of `hdlscan scan`: it lacks SPEC's column(s) namespace, prefix",
        "they are there under the prefix \"hdl_\": pass --column-prefix hdl_",
    ]);
    diff(
        d,
        &[
            "a.csv",
            "b.csv",
            "--key",
            "id",
            "--column-prefix",
            "hdl_",
            "--report",
            "r.json",
        ],
    )
    .ok();
    assert_eq!(counts(&read_json(&d.join("r.json"))), [1, 1, 1, 1, 2, 2]);
    // Not a table at all, or not there.
    fs::write(d.join("junk.parquet"), b"PAR1 not really").unwrap();
    diff(d, &["junk.parquet", "b.csv", "--key", "id"]).fails_with(&["junk.parquet: not a readable Parquet file"]);
    diff(d, &["missing.csv", "b.csv", "--key", "id"]).fails_with(&["missing.csv: cannot open"]);
    assert!(!entries(d).contains(&"ch.csv".to_string()));
    assert_no_temp_files(d);
}

/// A scan output broken after it was written is read by diff through the
/// input layer: the same messages as `scan` gives (file, and row group or
/// record when the data are damaged), exit 1, nothing written.
#[test]
fn a_broken_output_of_scan_is_the_input_layers_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "a.parquet", &["-c", URI]);
    scanned(d, "old.csv", "a.arrow", &["-c", URI]);
    let cut = |name: &str, to: &str| {
        let bytes = fs::read(d.join(name)).unwrap();
        fs::write(d.join(to), &bytes[..bytes.len() / 2]).unwrap();
    };
    cut("a.parquet", "cut.parquet");
    cut("a.arrow", "cut.arrow");
    scanned(d, "old.csv", "a.jsonl", &["-c", URI]);
    let jsonl = fs::read_to_string(d.join("a.jsonl")).unwrap();
    let first = jsonl.lines().next().unwrap();
    fs::write(d.join("cut.jsonl"), format!("{first}\n{}", &first[..first.len() / 2])).unwrap();
    fs::write(d.join("list.jsonl"), format!("[1, 2]\n{jsonl}")).unwrap();
    // `kind` of a type no diff reads as text.
    let (_, batches) = crate::scan::read_parquet(&d.join("a.parquet"));
    let b = &batches[0];
    let kind = b.schema().index_of("kind").unwrap();
    let mut columns = b.columns().to_vec();
    columns[kind] = arrow_array::new_null_array(&arrow_schema::DataType::Date32, b.num_rows());
    let mut fields: Vec<arrow_schema::Field> = b.schema().fields().iter().map(|f| f.as_ref().clone()).collect();
    fields[kind] = arrow_schema::Field::new("kind", arrow_schema::DataType::Date32, true);
    let typed = arrow_array::RecordBatch::try_new(std::sync::Arc::new(arrow_schema::Schema::new(fields)), columns);
    crate::hostile::write_parquet(&d.join("typed.parquet"), &typed.unwrap());
    for (new, says) in [
        (
            "cut.parquet",
            "cut.parquet: not a readable Parquet file: it ends before its footer",
        ),
        ("cut.arrow", "cut.arrow: not a readable Arrow IPC file: "),
        (
            "typed.parquet",
            "typed.parquet: column 'kind' has type Date32, not one a diff reads as text",
        ),
        (
            "cut.jsonl",
            "cut.jsonl: record 2 (line 2): the file ends inside this record (cut short, or still being written): not valid JSON",
        ),
        (
            "list.jsonl",
            "list.jsonl: line 1: not a JSON object, so not a row of scan's JSON Lines output",
        ),
    ] {
        diff(d, &["a.parquet", new, "--key", "id", "-o", "ch.csv"]).fails_with(&[says]);
        assert!(!entries(d).contains(&"ch.csv".to_string()));
    }
    assert_no_temp_files(d);
}

#[test]
fn a_kind_scan_never_writes_is_refused_not_read_as_valid() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "a.csv", &["-c", URI]);
    // An edited output: every kind a number, as a spreadsheet may leave it.
    let text = fs::read_to_string(d.join("a.csv")).unwrap();
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    let kind = head.split(',').position(|c| c == "kind").unwrap();
    let mut edited = format!("{head}\n");
    for line in lines {
        let mut cells: Vec<&str> = line.split(',').collect();
        if cells.len() > kind {
            cells[kind] = "1";
        }
        edited.push_str(&cells.join(","));
        edited.push('\n');
    }
    fs::write(d.join("b.csv"), edited).unwrap();
    diff(d, &["a.csv", "b.csv", "--key", "id", "-o", "ch.csv"]).fails_with(&[
        "b.csv: row ",
        ": column 'kind' holds \"1\", which is none of the kinds scan writes",
    ]);
    assert!(!entries(d).contains(&"ch.csv".to_string()));
    assert_no_temp_files(d);
}

#[test]
fn a_held_gate_exits_3_with_everything_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.parquet", &["-c", URI]);
    scanned(d, "new.csv", "new.parquet", &["-c", URI]);
    let run = diff(
        d,
        &[
            "old.parquet",
            "new.parquet",
            "--key",
            "id",
            "-o",
            "ch.csv",
            "--report",
            "r.json",
            "--report",
            "r.md",
            "--fail-if",
            "became_invalid>0",
            "--fail-if",
            "removed>20%",
            "--warn-if",
            "changed>=50%",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("gate FAILED: became_invalid>0 (is 1)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("gate warning: changed>=50% (is 62.50% (5 of 8))"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("removed>20%"),
        "a gate that does not hold is not named: {}",
        run.stderr
    );
    for f in ["ch.csv", "r.json", "r.md"] {
        assert!(d.join(f).exists(), "{f} written");
    }
    assert_eq!(changes_file(&d.join("ch.csv"), &["id"]).len(), 8);
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["verdict"], "fail");
    let g = &r["gates"][1];
    assert_eq!(
        (g["metric"].as_str(), g["count"].as_u64(), g["denominator"].as_u64()),
        (Some("removed"), Some(1), Some(8))
    );
    assert_eq!((g["value"].as_f64(), g["holds"].as_bool()), (Some(12.5), Some(false)));
    let md = fs::read_to_string(d.join("r.md")).unwrap();
    assert!(
        md.contains("| `became_invalid>0` | Fail | 1 | > 0 | **failed** |"),
        "{md}"
    );
    // A warning alone exits 0.
    let args = [
        "old.parquet",
        "new.parquet",
        "--key",
        "id",
        "--warn-if",
        "added>0",
        "--fail-if",
        "became_valid>1",
    ];
    let run = diff(d, &args).ok();
    assert!(run.stderr.contains("gate warning: added>0 (is 1)"), "{}", run.stderr);
    // -q, as scan's: a held --fail-if is still one line for the job's log,
    // a warning or a pass says nothing.
    let quiet = ["old.parquet", "new.parquet", "--key", "id", "-q"];
    let run = diff(
        d,
        &[&quiet[..], &["--fail-if", "became_invalid>0", "--fail-if", "added>0"]].concat(),
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "hdlscan: gate FAILED: became_invalid>0 (is 1); gate FAILED: added>0 (is 1)\n"
    );
    let run = diff(d, &[&quiet[..], &["--warn-if", "added>0"]].concat()).ok();
    assert_eq!(run.stderr, "");
    assert_no_temp_files(d);
}

#[test]
fn what_cannot_be_judged_or_found_is_a_usage_error_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.parquet", &["-c", URI]);
    scanned(d, "new.csv", "new.parquet", &["-c", URI]);
    let before = entries(d);
    let cases: [(&[&str], &str); 7] = [
        (
            &["--fail-if", "invalid>0"],
            "unknown metric \"invalid\"; diff's metrics are: added, removed",
        ),
        (&["--fail-if", "became_invalid=1"], "OP"),
        (&["--warn-if", "doi:added>0"], "not of a column"),
        (&["--fail-if", "added>101%"], "above 100%"),
        (&["--key", "ID"], "--key ID: old.parquet has no column \"ID\""),
        (&["--key", "id"], "--key id is given twice"),
        (&["--key", "change"], "-o names one of its own columns"),
    ];
    for (extra, needle) in cases {
        let mut args = vec![
            "old.parquet",
            "new.parquet",
            "--key",
            "id",
            "-o",
            "ch.csv",
            "--report",
            "r.json",
        ];
        args.extend_from_slice(extra);
        diff(d, &args).usage_error(&[needle]);
        assert_eq!(entries(d), before, "{extra:?}");
    }
    diff(
        d,
        &[
            "old.parquet",
            "new.parquet",
            "--key",
            "id",
            "-o",
            "x.csv",
            "--report",
            "x.csv",
        ],
    )
    .usage_error(&["names the output file"]);
    diff(d, &["old.parquet", "new.parquet", "--key", "id", "-o", "-"]).usage_error(&["name a file"]);
    diff(d, &["old.parquet", "new.parquet", "--key", "id", "-o", "ch.txt"]).usage_error(&["unknown output format"]);
    diff(d, &["-", "-", "--key", "id"]).usage_error(&["read only once"]);
    diff(d, &["old.parquet", "new.parquet"]).usage_error(&["--key"]);
    // -o onto an input: refused, the input untouched.
    let old = fs::read(d.join("old.parquet")).unwrap();
    diff(d, &["old.parquet", "new.parquet", "--key", "id", "-o", "old.parquet"]).usage_error(&["same file as input"]);
    assert_eq!(fs::read(d.join("old.parquet")).unwrap(), old);
    assert_eq!(entries(d), before);
    assert_no_temp_files(d);
}

#[test]
fn the_scans_reports_tell_when_versions_or_options_differ() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.parquet", &["-c", URI]);
    scanned(d, "new.csv", "new.parquet", &["-c", URI]);
    scanned(d, "new.csv", "repaired.parquet", &["-c", URI, "--repair"]);
    let with = |new: &str, new_report: &str| {
        let args = [
            "old.parquet",
            new,
            "--key",
            "id",
            "--old-report",
            "old.parquet.json",
            "--new-report",
            new_report,
            "--report",
            "r.json",
        ];
        diff(d, &args).ok();
        read_json(&d.join("r.json"))
    };
    let r = with("new.parquet", "new.parquet.json");
    assert_eq!(r["runs"]["same_tool"], true);
    assert_eq!(r["runs"]["differences"], serde_json::json!([]));
    assert_eq!(r["notes"], serde_json::json!([]));
    let r = with("repaired.parquet", "repaired.parquet.json");
    assert_eq!(r["runs"]["differences"], serde_json::json!(["repair"]));
    assert!(
        r["notes"].to_string().contains("different options (repair)"),
        "{}",
        r["notes"]
    );
    // A later version: said so.
    let mut later = read_json(&d.join("new.parquet.json"));
    later["run"]["tool"] = "hdlscan 9.9.9".into();
    fs::write(d.join("later.json"), later.to_string()).unwrap();
    let r = with("new.parquet", "later.json");
    assert_eq!(r["runs"]["same_tool"], false);
    let notes = r["notes"].to_string();
    let tool = format!(
        "different versions (hdlscan {} and hdlscan 9.9.9)",
        env!("CARGO_PKG_VERSION")
    );
    assert!(notes.contains(&tool), "{notes}");
    // The report of another run (its rows differ), and files that are no
    // scan report (diff's own is not).
    let long = ["-c", URI, "-c", "dc.identifier.doi", "--split", "||", "--keep", "id"];
    scanned(d, "new.csv", "long.parquet", &long);
    let r = with("new.parquet", "long.parquet.json");
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("NEW's report long.parquet.json describes a run that wrote 17 rows, and new.parquet has 8"),
        "{notes}"
    );
    assert_eq!(
        r["runs"]["differences"],
        serde_json::json!(["split", "keep", "columns", "output_shape"])
    );
    let args = ["old.parquet", "new.parquet", "--key", "id", "--old-report", "r.json"];
    diff(d, &args).fails_with(&["r.json is not a JSON report of `hdlscan scan`"]);
    let args = ["old.parquet", "new.parquet", "--key", "id", "--old-report", "old.csv"];
    diff(d, &args).fails_with(&["old.csv is not a JSON report"]);
}

/// Generated outputs of `scan` (wide, keyed by `id`) for a diff past its
/// memory budget: OLD of `n` ids in a shuffled order, NEW in another,
/// with every change (ids removed and added, broken, repaired, another
/// canonical, other warnings). Written directly, not by `scan`: only the
/// columns a diff reads are filled.
struct Generated {
    n: u64,
}

impl Generated {
    const HEADER: &str =
        "id,record,kind,namespace,prefix,suffix,canonical,uri,url,resolver,query,fragment,error,warnings\n";

    /// A row for `id` as OLD (`new` false) or NEW holds it.
    fn row(&self, out: &mut impl std::io::Write, id: u64, record: u64, new: bool) {
        let invalid = if new {
            id.is_multiple_of(13) && id % 2 == 1 || id.is_multiple_of(37)
        } else {
            id.is_multiple_of(13)
        };
        let canonical = if new && id.is_multiple_of(31) { id + 1 } else { id };
        let warnings = match (id.is_multiple_of(17), new && id.is_multiple_of(41)) {
            (true, true) => "",
            (false, false) => "",
            _ => "trimmed;legacy_resolver",
        };
        let (kind, canonical, error) = if invalid {
            ("invalid", String::new(), "no_slash")
        } else {
            ("doi", format!("10.1000/{canonical}"), "")
        };
        writeln!(out, "{id},{record},{kind},,,,{canonical},,,,,,{error},{warnings}").unwrap();
    }

    /// Writes `old.csv` and `new.csv` into `dir`.
    fn write(&self, dir: &Path) {
        let n = self.n;
        // Coprime strides: both files in an order of their own.
        let (a, b) = (7919 % n.max(2), 104_729 % n.max(2));
        let mut old = std::io::BufWriter::new(fs::File::create(dir.join("old.csv")).unwrap());
        old.write_all(Self::HEADER.as_bytes()).unwrap();
        for i in 0..n {
            self.row(&mut old, (i * a + 3) % n, i + 1, false);
        }
        old.flush().unwrap();
        let mut new = std::io::BufWriter::new(fs::File::create(dir.join("new.csv")).unwrap());
        new.write_all(Self::HEADER.as_bytes()).unwrap();
        let mut record = 0;
        for i in 0..n {
            let id = (i * b + 5) % n;
            if id.is_multiple_of(29) {
                continue;
            }
            record += 1;
            self.row(&mut new, id, record, true);
            if i.is_multiple_of(50) {
                record += 1;
                self.row(&mut new, n + i, record, true);
            }
        }
        new.flush().unwrap();
    }
}

use std::io::Write as _;

/// The JSON report without what differs from run to run of one diff.
fn report_minus_run(path: &Path) -> Value {
    let mut r = read_json(path);
    r.as_object_mut().unwrap().remove("run");
    r
}

#[test]
fn a_diff_past_its_memory_budget_partitions_and_gives_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    Generated { n: 20_000 }.write(d);
    fs::create_dir(d.join("tmp")).unwrap();
    let base = ["old.csv", "new.csv", "--key", "id", "-q"];
    let run = |out: &str, extra: &[&str]| {
        let (report, csv) = (format!("{out}.json"), format!("{out}.csv"));
        let mut args = base.to_vec();
        args.extend(["-o", &csv, "--report", &report]);
        args.extend_from_slice(extra);
        diff(d, &args).ok();
        (
            read_json(&d.join(&report)),
            report_minus_run(&d.join(&report)),
            fs::read(d.join(&csv)).unwrap(),
        )
    };
    let (full, in_memory, rows) = run("mem", &[]);
    assert_eq!(full["run"]["partitions"], 0);
    let c = counts(&full);
    assert!(c.iter().all(|&n| n > 5), "every change, more than its examples: {c:?}");
    // 0: partitioned from the first row; 1 MiB: part way through OLD.
    for (out, mib) in [("zero", "0"), ("one", "1")] {
        let (full, partitioned, same_rows) = run(out, &["--memory-mib", mib, "--temp-dir", "tmp"]);
        assert_eq!(full["run"]["partitions"], 128, "--memory-mib {mib}");
        assert_eq!(partitioned, in_memory, "--memory-mib {mib}");
        assert!(same_rows == rows, "--memory-mib {mib}: -o differs");
    }
    // An OLD that fits, a NEW whose added keys do not: the join leaves
    // memory part way through NEW.
    let old: String = fs::read_to_string(d.join("old.csv"))
        .unwrap()
        .lines()
        .take(3001)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(d.join("old_small.csv"), old).unwrap();
    let small = ["old_small.csv", "new.csv", "--key", "id", "-q"];
    let run = |out: &str, extra: &[&str]| {
        let (report, csv) = (format!("{out}.json"), format!("{out}.csv"));
        let mut args = small.to_vec();
        args.extend(["-o", &csv, "--report", &report]);
        args.extend_from_slice(extra);
        diff(d, &args).ok();
        (
            read_json(&d.join(&report)),
            report_minus_run(&d.join(&report)),
            fs::read(d.join(&csv)).unwrap(),
        )
    };
    let (full, in_memory, rows) = run("small_mem", &[]);
    assert_eq!(full["run"]["partitions"], 0);
    let (full, partitioned, same_rows) = run("small_one", &["--memory-mib", "1", "--temp-dir", "tmp"]);
    assert_eq!(full["run"]["partitions"], 128);
    assert_eq!(partitioned, in_memory);
    assert!(same_rows == rows, "-o differs");
    assert_eq!(entries(&d.join("tmp")), Vec::<String>::new(), "anonymous files only");
    assert_no_temp_files(d);
}

#[test]
fn a_key_on_two_rows_is_the_same_error_when_partitioned() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    Generated { n: 2_000 }.write(d);
    let old = fs::read_to_string(d.join("old.csv")).unwrap();
    let new = fs::read_to_string(d.join("new.csv")).unwrap();
    // An id twice in NEW (records 7 and 2001), then also twice in OLD:
    // OLD's is told, as OLD is read first.
    let seventh = new.lines().nth(7).unwrap();
    fs::write(d.join("new2.csv"), format!("{new}{seventh}\n")).unwrap();
    let third = old.lines().nth(3).unwrap();
    fs::write(d.join("old2.csv"), format!("{old}{third}\n")).unwrap();
    for (old, new, expected) in [
        ("old.csv", "new2.csv", "new2.csv: the key id="),
        ("old2.csv", "new2.csv", "old2.csv: the key id="),
    ] {
        let args = [old, new, "--key", "id", "-o", "ch.csv"];
        let mut small = args.to_vec();
        small.extend(["--memory-mib", "0"]);
        let partitioned = diff(d, &small);
        let message = diff(d, &args).fails_with(&[expected, "both hold it"]);
        assert_eq!(partitioned.fails_with(&[]), message);
        assert!(!d.join("ch.csv").exists());
    }
    // A NEW key's first row read in memory, its second after the join left
    // memory (NEW's added keys past 1 MiB).
    let big = Generated { n: 20_000 };
    big.write(d);
    let new = fs::read_to_string(d.join("new.csv")).unwrap();
    let seventh = new.lines().nth(7).unwrap();
    fs::write(d.join("new2.csv"), format!("{new}{seventh}\n")).unwrap();
    let old: String = fs::read_to_string(d.join("old.csv"))
        .unwrap()
        .lines()
        .take(1001)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(d.join("old_small.csv"), old).unwrap();
    let args = ["old_small.csv", "new2.csv", "--key", "id", "-o", "ch.csv"];
    let mut small = args.to_vec();
    small.extend(["--memory-mib", "1"]);
    let partitioned = diff(d, &small);
    let message = diff(d, &args).fails_with(&["new2.csv: the key id=", "rows 7 and "]);
    assert_eq!(partitioned.fails_with(&[]), message);
}

/// A `--temp-dir` where no file can be made is refused before any work,
/// whether or not the run would have spilled.
#[test]
fn a_temp_dir_that_cannot_hold_files_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    Generated { n: 100 }.write(d);
    let args = [
        "old.csv",
        "new.csv",
        "--key",
        "id",
        "--memory-mib",
        "0",
        "--temp-dir",
        "missing",
    ];
    diff(d, &args).usage_error(&["--temp-dir missing: no such file or directory"]);
    let args = ["old.csv", "new.csv", "--key", "id", "--temp-dir", "old.csv"];
    diff(d, &args).usage_error(&["--temp-dir old.csv: not a directory"]);
}

/// GNU time, to measure a child's peak RSS (`%M`, KiB).
const GNU_TIME: &str = "/usr/bin/time";

/// Peak RSS in KiB of `hdlscan diff ARGS` in `dir`, which must succeed;
/// None without GNU time.
fn diff_rss(dir: &Path, args: &[&str]) -> Option<u64> {
    if !Path::new(GNU_TIME).exists() {
        eprintln!("note: {GNU_TIME} missing (apt-get install time): peak RSS not checked");
        return None;
    }
    let rss_file = dir.join("rss.txt");
    let out = Command::new(GNU_TIME)
        .args(["-f", "%M", "-o"])
        .arg(&rss_file)
        .arg(env!("CARGO_BIN_EXE_hdlscan"))
        .arg("diff")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = fs::read_to_string(rss_file).unwrap();
    text.lines().last().and_then(|l| l.trim().parse().ok())
}

#[test]
fn a_million_row_diff_stays_within_a_small_budget() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    Generated { n: 1_000_000 }.write(d);
    let args = [
        "old.csv",
        "new.csv",
        "--key",
        "id",
        "-q",
        "-o",
        "ch.csv",
        "--memory-mib",
        "8",
    ];
    let rss = diff_rss(d, &args);
    // In memory it peaked at 176 MB (release); partitioned, the readers,
    // 128 write buffers and an 8 MiB index take some 70.
    if let Some(kib) = rss {
        eprintln!("1M-row diff, --memory-mib 8: peak RSS {} MB", kib >> 10);
        assert!(kib < 100 << 10, "peak RSS {} MB", kib >> 10);
    }
}

/// A DOI replaced by `N/A` became invalid for `diff` (its kind is
/// `invalid`), while `scan`'s report counts it a placeholder, not among its
/// `invalid`: diff's help must not send a nightly job's reader to scan's
/// counts to match the two.
#[test]
fn a_doi_become_n_a_is_became_invalid_and_the_help_says_scan_counts_it_apart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("old.csv"), "id,doi\n1,10.1000/a\n2,10.1000/b\n").unwrap();
    fs::write(d.join("new.csv"), "id,doi\n1,10.1000/a\n2,N/A\n").unwrap();
    scanned(d, "old.csv", "old.out.csv", &["-c", "doi"]);
    scanned(d, "new.csv", "new.out.csv", &["-c", "doi"]);
    let then = read_json(&d.join("old.out.csv.json"));
    let now = read_json(&d.join("new.out.csv.json"));
    assert_eq!(now["invalid"], then["invalid"], "scan: a placeholder is not invalid");
    assert_eq!(now["placeholder"], 1);
    let run = diff(d, &["old.out.csv", "new.out.csv", "--key", "id", "--report", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(count(&r, "became_invalid"), 1);
    let help = diff(d, &["--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(!help.contains("as scan counts it"), "{help}");
    assert!(help.contains("though scan's report counts"), "{help}");
}

/// diff's own JSON report given as `--old-report` is named as what it is.
#[test]
fn a_diff_report_as_old_report_is_named_as_diffs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.out.csv", &["-c", URI]);
    scanned(d, "new.csv", "new.out.csv", &["-c", URI]);
    let pair = ["old.out.csv", "new.out.csv", "--key", "id", "-q"];
    diff(d, &[&pair[..], &["--report", "changes.json"]].concat()).ok();
    let run = diff(d, &[&pair[..], &["--old-report", "changes.json"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("changes.json is not a JSON report of `hdlscan scan` (it is `hdlscan diff`'s own)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("baseline"), "{}", run.stderr);
}

/// diff's own JSON report given to `scan --baseline` (a nightly job keeps
/// both side by side) is named as diff's, not sent to rerun a baseline.
#[test]
fn a_diff_report_as_scans_baseline_is_named_as_diffs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.out.csv", &["-c", URI]);
    scanned(d, "new.csv", "new.out.csv", &["-c", URI]);
    diff(
        d,
        &[
            "old.out.csv",
            "new.out.csv",
            "--key",
            "id",
            "-q",
            "--report",
            "changes.json",
        ],
    )
    .ok();
    let run = scan(d, &["new.csv", "-c", URI, "--baseline", "changes.json", "-q"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("it is a report of hdlscan diff, not of scan"),
        "{}",
        run.stderr
    );
}

/// JSON Lines on stdin, or under a name that is not `.jsonl`, is read as
/// CSV; the error must not advise scan's `--input-format`, which diff has
/// not.
#[test]
fn json_lines_read_as_csv_is_not_sent_to_input_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    exports(d);
    scanned(d, "old.csv", "old.jsonl", &["-c", URI]);
    fs::copy(d.join("old.jsonl"), d.join("old.txt")).unwrap();
    let run = diff(d, &["old.jsonl", "old.txt", "--key", "id"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("old.txt: this is JSON Lines, not CSV"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("named .jsonl"), "{}", run.stderr);
    assert!(!run.stderr.contains("--input-format"), "{}", run.stderr);
    assert!(
        diff(d, &["--input-format", "jsonl", "old.jsonl", "old.jsonl", "--key", "id"]).code == 2,
        "diff has no --input-format"
    );
}
