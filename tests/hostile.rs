//! `hdlscan scan` on bad inputs and bad outputs: every failure is exit 1
//! with a message naming the file (and record, line or column where there
//! is one), never a panic, and leaves no output and no temporary file.
//! Inputs that are odd but well-formed (BOM, CRLF, invalid UTF-8 in a cell,
//! NUL bytes) must give the correct result instead.
//!
//! Each case runs in its own tempdir: the input(s) at the top, the output
//! in `out/`, which must be empty after a failure.
//!
//! Run: `cargo test --test tests hostile`

use crate::scan::{ENRICHED, Table, assert_no_temp_files, check_report_totals, entries, read_json, scan, scan_in};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    /// A tempdir with `files` written at its top and an empty `out/`.
    fn new(files: &[(&str, &[u8])]) -> Case {
        let dir = tempfile::tempdir().unwrap();
        for (name, data) in files {
            fs::write(dir.path().join(name), data).unwrap();
        }
        fs::create_dir(dir.path().join("out")).unwrap();
        Case { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// Runs with `-o out/o.csv` (unless `args` has `-o`) and `-q`.
    fn run(&self, args: &[&str]) -> crate::scan::Run {
        let mut a: Vec<&str> = args.to_vec();
        if !a.contains(&"-o") {
            a.extend(["-o", "out/o.csv"]);
        }
        a.push("-q");
        scan(self.path(), &a)
    }

    /// Asserts the output directory holds no output file. Failures that
    /// happen before the output is opened must not leave a temporary file
    /// either (`strict`); for the others see `late_failures_leave_no_temp_file`.
    #[track_caller]
    fn nothing_written(&self, strict: bool) {
        let left: Vec<String> = entries(&self.out())
            .into_iter()
            .filter(|n| !n.contains(".hdlscan-tmp"))
            .collect();
        assert!(left.is_empty(), "output left after a failure: {left:?}");
        if strict {
            assert_no_temp_files(&self.out());
        }
    }

    fn report(&self) -> serde_json::Value {
        read_json(&self.out().join("r.json"))
    }

    fn output(&self) -> Table {
        Table::from_csv(&self.out().join("o.csv"), b',')
    }
}

const OK_CSV: &[u8] = b"a,id\n1,10.1/x\n";

#[test]
fn missing_file() {
    let c = Case::new(&[]);
    let msg = c.run(&["nope.csv", "-c", "id"]).fails_with(&["nope.csv"]);
    assert!(msg.to_lowercase().contains("no such file"), "{msg}");
    c.nothing_written(true);
}

#[test]
fn missing_file_message_says_it_once() {
    let c = Case::new(&[]);
    let msg = c.run(&["nope.csv", "-c", "id"]).fails_with(&["nope.csv"]);
    assert_eq!(msg.matches("no such file").count(), 1, "{msg}");
    assert!(!msg.contains("os error"), "{msg}");
}

#[test]
fn missing_column_lists_the_columns() {
    let c = Case::new(&[("in.csv", b"alpha,beta,gamma\n1,2,3\n")]);
    c.run(&["in.csv", "-c", "identifier"])
        .usage_error(&["in.csv", "identifier", "alpha, beta, gamma"]);
    c.nothing_written(true);
}

#[test]
fn column_number_out_of_range() {
    let c = Case::new(&[("in.csv", OK_CSV)]);
    for n in ["3", "0"] {
        c.run(&["in.csv", "-c", n])
            .usage_error(&["in.csv", "out of range", "2 columns", "a, id"]);
        c.nothing_written(true);
    }
    // Too big for a number: no such name, the columns listed.
    c.run(&["in.csv", "-c", "99999999999999999999"])
        .usage_error(&["in.csv", "99999999999999999999", "a, id"]);
    c.nothing_written(true);
}

#[test]
fn unbalanced_quote() {
    // The open quote on the last record never closes; the error names the
    // flag that reads such a file.
    let c = Case::new(&[("in.csv", b"a,id\n1,10.1/x\n2,\"10.1/y\n3,10.1/z\n")]);
    c.run(&["in.csv", "-c", "id"])
        .fails_with(&["in.csv", "record 2", "line 3", "quote", "--no-quoting"]);
    c.nothing_written(false);
    // In the header.
    let c = Case::new(&[("in.csv", b"a,\"id\n1,10.1/x\n")]);
    c.run(&["in.csv", "-c", "id"]).fails_with(&["in.csv", "quote"]);
    c.nothing_written(false);
}

/// A TSV written without quoting (PostgreSQL's text format, IANA TSV):
/// titles opening with a `"` ran on into the next records, four records
/// read as one, silently when the stray quotes paired up. With
/// `--no-quoting` every `"` is a plain character: four records, the titles
/// as written. A CSV read so keeps its `"` too, and the report says how it
/// was read; a spreadsheet (whose CSV is ours, quoted) refuses the flag.
#[test]
fn no_quoting_reads_stray_quotes_as_text() {
    let tsv: &[u8] =
        b"id\ttitle\tdoi\n1\t\"Quoted start\t10.1/a\n2\tplain\t10.1/b\n3\t\"x\" y\t10.1/c\n4\t\"\"\t10.1/d\n";
    let c = Case::new(&[("in.tsv", tsv), ("in.csv", b"t,doi\n\"a,10.1/a\n\"b\",10.1/b\n")]);
    c.run(&["in.tsv", "-c", "doi", "--report", "out/r.json"]).ok();
    assert_eq!(c.report()["records"], 2, "the stray quotes pair up: records merged");
    // Without the flag the report's options are as before it.
    assert!(c.report()["run"]["options"].get("no_quoting").is_none());
    c.run(&["in.tsv", "-c", "doi", "--no-quoting", "--report", "out/r.json"])
        .ok();
    assert_eq!(c.report()["records"], 4);
    assert_eq!(c.report()["run"]["options"]["no_quoting"], true);
    let t = c.output();
    let got = t.pick(["title", "canonical"]);
    assert_eq!(
        got,
        [
            ["\"Quoted start", "10.1/a"],
            ["plain", "10.1/b"],
            ["\"x\" y", "10.1/c"],
            ["\"\"", "10.1/d"]
        ]
    );
    c.run(&["in.csv", "-c", "doi", "--no-quoting"]).ok();
    let t = c.output();
    assert_eq!(t.pick(["t", "canonical"]), [["\"a", "10.1/a"], ["\"b\"", "10.1/b"]]);
    // A spreadsheet is read as the quoted CSV it would export: refused.
    let xlsx = include_bytes!("../testdata/inputs/eurographics_dspace.xlsx");
    let c = Case::new(&[("in.xlsx", xlsx)]);
    c.run(&["in.xlsx", "-c", "dc.identifier.uri", "--no-quoting"])
        .fails_with(&["in.xlsx", "--no-quoting: a spreadsheet's cells need no quoting"]);
    c.nothing_written(true);
}

const BAD_UTF8_CSV: &[u8] = b"a,id\n\xff\xfe,10.1/\xffx\nok\xc3,10.1/y\nclean,10.1/z\n";

#[test]
fn invalid_utf8_in_cells() {
    // Record 1: bad bytes in the identifier and in another column; record 2
    // bad bytes in the other column only; record 3 clean.
    let c = Case::new(&[("in.csv", BAD_UTF8_CSV)]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    let r = c.report();
    check_report_totals(&r, 3);
    assert_eq!(r["errors"]["bad_utf8"]["count"], 1);
    assert_eq!(r["errors"]["bad_utf8"]["examples"][0]["record"], 1);
    assert_eq!(r["valid"], 2);
    // CSV in, CSV out: every cell goes through byte for byte.
    let rows = csv_rows(&c.out().join("o.csv"));
    assert_eq!(rows.len(), 4);
    assert_eq!(field(&rows, 0, "kind"), b"invalid");
    assert_eq!(field(&rows, 0, "error"), b"bad_utf8");
    assert_eq!(field(&rows, 0, "a"), b"\xff\xfe");
    assert_eq!(field(&rows, 0, "id"), b"10.1/\xffx");
    assert_eq!(field(&rows, 1, "a"), b"ok\xc3");
    assert_eq!(field(&rows, 1, "canonical"), b"10.1/y");
    assert_eq!(field(&rows, 2, "a"), b"clean");
    assert_eq!(r["lossy_cells"], 0);
}

/// Parquet strings are UTF-8: bad bytes become U+FFFD there, counted in
/// `lossy_cells` for every cell so written, the identifier column's copy
/// too (its value is also `bad_utf8`, which does not say the cell changed).
#[test]
fn invalid_utf8_lossy_cells_counts_every_replaced_cell() {
    let c = Case::new(&[("in.csv", BAD_UTF8_CSV)]);
    c.run(&["in.csv", "-c", "id", "-o", "out/o.parquet", "--report", "out/r.json"])
        .ok();
    assert_eq!(c.report()["lossy_cells"], 3);
    let (schema, batches) = crate::scan::read_parquet(&c.out().join("o.parquet"));
    let t = Table::from_batches(&schema, &batches);
    assert_eq!(t.get(0, "id"), "10.1/\u{fffd}x");
    assert_eq!(t.get(0, "a"), "\u{fffd}\u{fffd}");
    assert_eq!(t.get(1, "a"), "ok\u{fffd}");
    assert_eq!(t.get(0, "error"), "bad_utf8");
}

#[test]
fn invalid_utf8_in_header() {
    // A documented decision (README): header names are decoded lossily where
    // they must be text (the report, Parquet and Arrow field names); CSV and
    // TSV output keep the header's bytes. The column can be chosen by
    // number, or by the name of a clean column.
    let c = Case::new(&[("in.csv", b"a\xff,id\nx,10.1/x\n")]);
    c.run(&["in.csv", "-c", "1", "--report", "out/r.json"]).ok();
    assert_eq!(c.report()["columns"][0]["name"], "a\u{fffd}");
    let csv = fs::read(c.out().join("o.csv")).unwrap();
    assert!(
        csv.starts_with(b"a\xff,id,record,kind,"),
        "{:?}",
        String::from_utf8_lossy(&csv)
    );
    assert_eq!(field(&csv_rows(&c.out().join("o.csv")), 0, "error"), b"placeholder");
    c.run(&["in.csv", "-c", "id", "-o", "out/o.parquet"]).ok();
    let (schema, batches) = crate::scan::read_parquet(&c.out().join("o.parquet"));
    assert_eq!(schema.field(0).name(), "a\u{fffd}");
    assert_eq!(Table::from_batches(&schema, &batches).get(0, "canonical"), "10.1/x");
}

#[test]
fn empty_file() {
    let c = Case::new(&[("in.csv", b"")]);
    c.run(&["in.csv", "-c", "id"]).fails_with(&["in.csv", "no header"]);
    c.nothing_written(true);
}

#[test]
fn header_only_is_zero_rows() {
    let c = Case::new(&[("in.csv", b"a,id\n")]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    let r = c.report();
    check_report_totals(&r, 0);
    assert_eq!(r["valid"], 0);
    let t = c.output();
    assert_eq!(t.names, [&["a", "id"][..], &ENRICHED[..]].concat());
    assert!(t.rows.is_empty());
    // Header without its line end too.
    let c = Case::new(&[("in.csv", b"a,id")]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    check_report_totals(&c.report(), 0);
    // The summary says there was nothing, not a bare `kinds:`.
    let summary = scan(c.path(), &["in.csv", "-c", "id"]).ok().stderr;
    assert!(summary.contains("hdlscan: 0 records, 0 values"), "{summary}");
    assert!(
        summary.contains("\n  kinds: none: the inputs hold no record\n"),
        "{summary}"
    );
}

#[test]
fn ragged_rows() {
    let short = b"a,id,b\n1,10.1/x,z\n2,10.1/y\n3,10.1/z,q\n";
    let c = Case::new(&[("in.csv", short)]);
    c.run(&["in.csv", "-c", "id"])
        .fails_with(&["in.csv", "record 2", "line 3", "expected 3 fields, found 2"]);
    c.nothing_written(false);

    // --allow-short-rows pads and counts.
    c.run(&["in.csv", "-c", "id", "--allow-short-rows", "--report", "out/r.json"])
        .ok();
    let r = c.report();
    check_report_totals(&r, 3);
    assert_eq!(r["padded_rows"], 1);
    let t = c.output();
    assert_eq!(t.get(1, "b"), "");
    assert_eq!(t.get(1, "canonical"), "10.1/y");
    assert_eq!(t.get(2, "b"), "q");

    // A short row that lacks the identifier column itself: padded, empty.
    let c = Case::new(&[("in.csv", b"a,b,id\n1,2,10.1/x\n2\n")]);
    c.run(&["in.csv", "-c", "id", "--allow-short-rows", "--report", "out/r.json"])
        .ok();
    assert_eq!(c.report()["errors"]["empty"]["count"], 1);

    // Long rows always fail, padded or not.
    let long = b"a,id,b\n1,10.1/x,z\n2,10.1/y,q,extra\n";
    let c = Case::new(&[("in.csv", long)]);
    for extra in [&[][..], &["--allow-short-rows"][..]] {
        let mut args = vec!["in.csv", "-c", "id"];
        args.extend_from_slice(extra);
        c.run(&args)
            .fails_with(&["in.csv", "record 2", "line 3", "expected 3 fields, found 4"]);
        c.nothing_written(false);
    }
}

#[test]
fn nul_bytes_in_cells() {
    let c = Case::new(&[("in.csv", b"a,id\n1\0x,10.1/x\n2,10.1/\0y\n")]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    let r = c.report();
    check_report_totals(&r, 2);
    assert_eq!(r["errors"]["control_char"]["count"], 1);
    assert_eq!(r["errors"]["control_char"]["examples"][0]["record"], 2);
    let t = c.output();
    assert_eq!(t.get(0, "a"), "1\0x", "NUL kept in other columns");
    assert_eq!(t.get(0, "canonical"), "10.1/x");
    assert_eq!(t.get(1, "id"), "10.1/\0y");
    assert_eq!(t.get(1, "error"), "control_char");
}

#[test]
fn bom_before_header() {
    let c = Case::new(&[("in.csv", b"\xef\xbb\xbfid,a\n10.1/x,1\n")]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    let r = c.report();
    check_report_totals(&r, 1);
    assert_eq!(r["columns"][0]["name"], "id");
    let t = c.output();
    assert_eq!(t.names[0], "id", "the BOM is not part of the name");
    assert_eq!(t.get(0, "canonical"), "10.1/x");
}

#[test]
fn crlf_and_lone_cr_line_ends() {
    for (name, data) in [
        (
            "crlf",
            &b"a,id\r\n1,10.1/x\r\n2,\"10.1/y\"\r\n3,\"multi\r\nline\"\r\n"[..],
        ),
        ("cr", &b"a,id\r1,10.1/x\r2,\"10.1/y\"\r3,\"multi\r\nline\"\r"[..]),
        (
            "crlf-no-final",
            &b"a,id\r\n1,10.1/x\r\n2,10.1/y\r\n3,\"multi\r\nline\""[..],
        ),
    ] {
        let c = Case::new(&[("in.csv", data)]);
        c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
        let r = c.report();
        check_report_totals(&r, 3);
        let t = c.output();
        assert_eq!(t.names[1], "id", "{name}: no CR in the header name");
        assert_eq!(t.get(0, "canonical"), "10.1/x", "{name}: no CR in values");
        assert_eq!(t.get(1, "canonical"), "10.1/y", "{name}");
        assert_eq!(t.get(2, "id"), "multi\r\nline", "{name}: quoted CRLF kept");
        // SPEC v2: a line break is whitespace; a value without a digit is
        // a placeholder.
        assert_eq!(t.get(2, "error"), "placeholder", "{name}");
    }
}

/// A semicolon- or tab-separated export read with `,` given comes out as
/// one column: the error names the delimiter to try, and only then.
/// Without `--delimiter` it is read with the one its header splits on.
#[test]
fn wrong_delimiter_gets_a_hint() {
    let c = Case::new(&[
        ("semi.csv", b"id;doi\n1;10.1/x\n"),
        ("tab.csv", b"id\tdoi\n1\t10.1/x\n"),
        ("comma.csv", b"id,doi\n1,10.1/x\n"),
    ]);
    c.run(&["semi.csv", "-c", "doi", "-d", ","]).usage_error(&[
        "no column named 'doi'",
        "one column holding ';'",
        "--delimiter ';'",
    ]);
    c.run(&["tab.csv", "-c", "2", "-d", ","])
        .usage_error(&["has 1 column:", "a tab", "--delimiter tab"]);
    let err = c
        .run(&["comma.csv", "-c", "nope"])
        .usage_error(&["no column named 'nope'"]);
    assert!(!err.contains("--delimiter"), "no hint for a header that split: {err}");
    // Read with the right delimiter, no hint either, and the scan works.
    let err = c
        .run(&["semi.csv", "-c", "nope", "-d", ";"])
        .usage_error(&["no column named 'nope'"]);
    assert!(!err.contains("--delimiter"), "{err}");
    c.nothing_written(true);
    c.run(&["semi.csv", "-c", "doi", "-d", ";"]).ok();
    c.run(&["tab.csv", "-c", "2"]).ok();
}

#[test]
fn duplicate_header_names() {
    let c = Case::new(&[("in.csv", b"id,a,id\n10.1/x,1,10.1/z\n")]);
    c.run(&["in.csv", "-c", "id"])
        .usage_error(&["in.csv", "2 columns are named \"id\"", "number"]);
    c.nothing_written(true);
    c.run(&["in.csv", "-c", "3", "--report", "out/r.json"]).ok();
    let t = c.output();
    assert_eq!(t.names[..3], ["id", "a", "id"]);
    assert_eq!(t.rows[0][0].as_deref(), Some("10.1/x"));
    assert_eq!(t.get(0, "canonical"), "10.1/z", "column 3 was scanned");
    // Parquet readers cannot tell the two apart: the second is renamed.
    c.run(&["in.csv", "-c", "3", "-o", "out/o.parquet"]).ok();
    let (schema, _) = crate::scan::read_parquet(&c.out().join("o.parquet"));
    let names: Vec<&str> = schema.fields().iter().take(3).map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["id", "a", "id_2"]);
}

/// An input column named like an added one in another case (`Prefix`) is
/// a clash too (DuckDB and Spark resolve names case-insensitively): the
/// added columns get a prefix by themselves, and say so; a prefix given
/// that still clashes is an error.
#[test]
fn added_column_clash_in_any_case() {
    let c = Case::new(&[("in.csv", b"id,Prefix,hdl_kind\n10.1/x,a,b\n")]);
    c.run(&["in.csv", "-c", "id", "-o", "out/o.csv", "--report", "out/r.json"])
        .ok();
    let note = read_json(&c.out().join("r.json"))["notes"][0].clone();
    assert!(note.as_str().unwrap().contains("named hdl2_record"), "{note}");
    let t = Table::from_csv(&c.out().join("o.csv"), b',');
    assert_eq!(t.names[3..5], ["hdl2_record", "hdl2_kind"]);
    assert_eq!(t.get(0, "hdl2_prefix"), "10.1");
    c.run(&["in.csv", "-c", "id", "--column-prefix", "hdl_", "-o", "out/p.csv"])
        .fails_with(&["\"hdl_kind\"", "--column-prefix"]);
    assert_eq!(entries(&c.out()), ["o.csv", "r.json"]);
}

/// Writes `batch` as Parquet to `path`.
pub fn write_parquet(path: &Path, batch: &arrow_array::RecordBatch) {
    let f = fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(f, batch.schema(), None).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// 5000 DOIs (`id`) and titles (`title`).
fn small_batch() -> arrow_array::RecordBatch {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    let ids: StringArray = (0..5000)
        .map(|i| Some(format!("10.{}/item-{i}", 1000 + i % 50)))
        .collect();
    let titles: StringArray = (0..5000).map(|i| Some(format!("title number {i}"))).collect();
    RecordBatch::try_from_iter([
        ("id", Arc::new(ids) as ArrayRef),
        ("title", Arc::new(titles) as ArrayRef),
    ])
    .unwrap()
}

fn small_parquet() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    write_parquet(&path, &small_batch());
    fs::read(&path).unwrap()
}

#[test]
fn parquet_input_works() {
    // The baseline for the two Parquet cases below.
    let c = Case::new(&[("in.parquet", &small_parquet())]);
    c.run(&["in.parquet", "-c", "id", "--report", "out/r.json"]).ok();
    check_report_totals(&c.report(), 5000);
    assert_eq!(c.output().get(4999, "canonical"), "10.1049/item-4999");
}

#[test]
fn parquet_cut_in_half() {
    let data = small_parquet();
    let c = Case::new(&[("cut.parquet", &data[..data.len() / 2])]);
    c.run(&["cut.parquet", "-c", "id"]).fails_with(&["cut.parquet"]);
    c.nothing_written(true);
    // Also as a second input, after a good one.
    let c = Case::new(&[("good.parquet", &data), ("cut.parquet", &data[..data.len() / 2])]);
    c.run(&["good.parquet", "cut.parquet", "-c", "id"])
        .fails_with(&["cut.parquet"]);
    c.nothing_written(false);
}

/// An integer column (PubMed ids as pandas writes them) is read as its
/// decimal text, as a JSON number or a spreadsheet's whole number is, and
/// written back with its type; a column of another type is refused.
#[test]
fn parquet_non_string_identifier_column() {
    use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray, UInt32Array};
    let c = Case::new(&[]);
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from(vec![Some(31623623), None, Some(-3)])) as ArrayRef,
        ),
        ("name", Arc::new(StringArray::from(vec!["a", "b", "c"])) as ArrayRef),
        ("u", Arc::new(UInt32Array::from(vec![7, 8, 9])) as ArrayRef),
        ("f", Arc::new(Float64Array::from(vec![1.0, 2.5, 3.0])) as ArrayRef),
    ])
    .unwrap();
    write_parquet(&c.path().join("ints.parquet"), &batch);
    c.run(&["ints.parquet", "-c", "f"])
        .fails_with(&["ints.parquet: column 'f' has type Float64, not a string type"]);
    c.nothing_written(true);
    c.run(&[
        "ints.parquet",
        "-c",
        "id",
        "--expect",
        "pmid",
        "--report",
        "out/r.json",
        "-o",
        "out/o.parquet",
    ])
    .ok();
    let r = c.report();
    check_report_totals(&r, 3);
    assert_eq!(r["by_kind"]["other_pid"], 1, "{}", r["by_kind"]);
    assert_eq!(r["errors"]["empty"]["count"], 1, "{}", r["errors"]);
    let (schema, batches) = crate::scan::read_parquet(&c.path().join("out/o.parquet"));
    let id = schema.field_with_name("id").unwrap();
    assert_eq!(
        id.data_type(),
        &arrow_schema::DataType::Int64,
        "the input column keeps its type"
    );
    let canonical = batches[0].column_by_name("canonical").unwrap();
    assert_eq!(crate::scan::cell(canonical, 0).as_deref(), Some("pmid:31623623"));
    c.run(&["ints.parquet", "-c", "name", "-c", "u", "--report", "out/r.json"])
        .ok();
    let t = c.output();
    let u: Vec<&str> = (0..6)
        .filter(|&i| t.get(i, "source_column") == "u")
        .map(|i| t.get(i, "value"))
        .collect();
    assert_eq!(u, ["7", "8", "9"]);
}

/// A broken Parquet input: its bytes, and what the message must name.
struct BrokenParquet {
    name: &'static str,
    bytes: Vec<u8>,
    says: &'static [&'static str],
}

/// [`small_parquet`] in row groups of 1000 rows, with the first data page
/// of group 2's `id` column overwritten: the footer reads, the data do not.
fn parquet_damaged_in_group_2() -> Vec<u8> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(1000))
        .build();
    let batch = small_batch();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(fs::File::create(&path).unwrap(), batch.schema(), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let mut bytes = fs::read(&path).unwrap();
    let reader = SerializedFileReader::new(fs::File::open(&path).unwrap()).unwrap();
    let page = reader.metadata().row_group(2).column(0).data_page_offset() as usize;
    bytes[page..page + 16].fill(0xff);
    bytes
}

/// Every way a Parquet input can be broken gives one message naming the
/// file (and the row group and its records, when the data are damaged),
/// exit 1 as for a broken CSV, no panic, and no output.
#[test]
fn broken_parquet_inputs() {
    let good = small_parquet();
    let gzipped = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, &good).unwrap();
        e.finish().unwrap()
    };
    let cases = [
        BrokenParquet {
            name: "cut.parquet",
            bytes: good[..good.len() / 2].to_vec(),
            says: &["cut.parquet: not a readable Parquet file", "cut short"],
        },
        BrokenParquet {
            name: "empty.parquet",
            bytes: Vec::new(),
            says: &["empty.parquet: not a readable Parquet file: the file is empty"],
        },
        BrokenParquet {
            name: "text.parquet",
            bytes: OK_CSV.to_vec(),
            says: &["text.parquet: not a Parquet file", "--input-format csv"],
        },
        BrokenParquet {
            name: "zipped.parquet",
            bytes: gzipped,
            says: &["zipped.parquet: gzip-compressed", "decompress it first"],
        },
        BrokenParquet {
            name: "damaged.parquet",
            bytes: parquet_damaged_in_group_2(),
            says: &["damaged.parquet: row group 2 (records 2001 to 3000): damaged Parquet data: "],
        },
    ];
    for case in &cases {
        let c = Case::new(&[(case.name, &case.bytes)]);
        for out in ["out/o.csv", "out/o.parquet"] {
            let msg = c.run(&[case.name, "-c", "id", "-o", out]).fails_with(case.says);
            assert_eq!(msg.lines().count(), 1, "{msg}");
            c.nothing_written(false);
        }
        // The same file as a second input, after a good one.
        let c = Case::new(&[("good.parquet", &good), (case.name, &case.bytes)]);
        c.run(&["good.parquet", case.name, "-c", "id"]).fails_with(case.says);
        c.nothing_written(false);
    }
}

/// Identifiers stored as bytes (BINARY without the UTF8 annotation, as
/// older Spark and Hive write strings) are read like strings; a column of
/// nulls only (type Null) is all `empty`.
#[test]
fn parquet_binary_and_null_identifier_columns() {
    use arrow_array::{ArrayRef, BinaryArray, NullArray, RecordBatch};
    let c = Case::new(&[]);
    let ids: Vec<Option<&[u8]>> = vec![Some(b"10.1/a"), None, Some(b"hdl:1234/\xff")];
    let batch = RecordBatch::try_from_iter_with_nullable([
        ("id", Arc::new(BinaryArray::from(ids)) as ArrayRef, true),
        ("none", Arc::new(NullArray::new(3)) as ArrayRef, true),
    ])
    .unwrap();
    write_parquet(&c.path().join("bin.parquet"), &batch);
    c.run(&[
        "bin.parquet",
        "-c",
        "id",
        "-o",
        "out/o.parquet",
        "--report",
        "out/r.json",
    ])
    .ok();
    let r = c.report();
    check_report_totals(&r, 3);
    assert_eq!(r["by_kind"]["doi"], 1);
    assert_eq!(r["errors"]["empty"]["count"], 1);
    assert_eq!(r["errors"]["bad_utf8"]["count"], 1);
    c.run(&[
        "bin.parquet",
        "-c",
        "none",
        "-o",
        "out/n.parquet",
        "--report",
        "out/r.json",
    ])
    .ok();
    assert_eq!(c.report()["errors"]["empty"]["count"], 3);
    // CSV output writes the bytes as they are.
    c.run(&["bin.parquet", "-c", "id", "-o", "out/o.csv"]).ok();
    let rows = csv_rows(&c.out().join("o.csv"));
    assert_eq!(field(&rows, 0, "id"), b"10.1/a");
    assert_eq!(field(&rows, 2, "id"), b"hdl:1234/\xff");
}

/// Two Parquet inputs with the same names but another type in one column:
/// the message names the column and both types.
#[test]
fn parquet_inputs_with_another_column_type() {
    use arrow_array::{ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
    let c = Case::new(&[]);
    let ids = || Arc::new(StringArray::from(vec!["10.1/a", "10.1/b"])) as ArrayRef;
    let a = RecordBatch::try_from_iter([("id", ids()), ("n", Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef)]);
    let b = RecordBatch::try_from_iter([("id", ids()), ("n", Arc::new(Int64Array::from(vec![1, 2])) as ArrayRef)]);
    write_parquet(&c.path().join("a.parquet"), &a.unwrap());
    write_parquet(&c.path().join("b.parquet"), &b.unwrap());
    // Written into one output, the columns must agree.
    c.run(&["a.parquet", "b.parquet", "-c", "id", "-o", "out/x.parquet"])
        .fails_with(&[
            "b.parquet",
            "column \"n\"",
            "Int64 not null here",
            "Int32 not null in the first input",
        ]);
    c.nothing_written(true);
    // An audit reads the identifier column alone: every row counts.
    scan(
        c.path(),
        &["a.parquet", "b.parquet", "-c", "id", "--report", "out/r.json", "-q"],
    )
    .ok();
    check_report_totals(&c.report(), 4);
    // But that column must still be text in every input.
    let d = RecordBatch::try_from_iter([
        ("id", Arc::new(Float64Array::from(vec![1.0, 2.0])) as ArrayRef),
        ("n", ids()),
    ]);
    write_parquet(&c.path().join("d.parquet"), &d.unwrap());
    scan(c.path(), &["a.parquet", "d.parquet", "-c", "id", "-q"]).fails_with(&[
        "d.parquet",
        "'id'",
        "not a string type",
    ]);
}

#[test]
fn gz_that_is_not_gzip() {
    let c = Case::new(&[("in.csv.gz", b"a,id\n1,10.1/x\n")]);
    c.run(&["in.csv.gz", "-c", "id"]).fails_with(&["in.csv.gz", "gzip"]);
    c.nothing_written(true);
}

#[test]
fn gz_cut_short() {
    // A real gzip stream cut in the middle: the data ends early.
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut data = b"a,id\n".to_vec();
    for i in 0..50_000 {
        data.extend_from_slice(format!("{i},10.{}/abc{i}\n", 1000 + i % 89).as_bytes());
    }
    std::io::Write::write_all(&mut e, &data).unwrap();
    let gz = e.finish().unwrap();
    let zst = zstd::encode_all(&data[..], 3).unwrap();
    let c = Case::new(&[
        ("in.csv.gz", &gz[..gz.len() / 2]),
        ("in.csv.zst", &zst[..zst.len() / 2]),
    ]);
    // Where it stopped, and that the file ends early, not that it is bad.
    for name in ["in.csv.gz", "in.csv.zst"] {
        c.run(&[name, "-c", "id"])
            .fails_with(&[name, "read error", "record", "the compressed file ends early"]);
        c.nothing_written(false);
    }
}

/// A plain JSON Lines file whose last record was cut (a copy or an
/// export still being written) says so; it said only which character was
/// expected. A record broken by a line break inside is not called cut,
/// nor is a malformed last line that is whole.
#[test]
fn jsonl_cut_short() {
    let c = Case::new(&[
        ("cut.jsonl", b"{\"doi\":\"10.1/a\"}\n{\"doi\":\"10.1/b"),
        ("cut_after_value.jsonl", b"{\"doi\":\"10.1/a\"}\n{\"doi\":\"10.1/b\""),
        ("broken.jsonl", b"{\"doi\":\"10.1/a\"\n}\n"),
        ("bad_last.jsonl", b"{\"doi\":\"10.1/a\"}\n{\"doi\" \"10.1/b\"}"),
    ]);
    const CUT: &str = "record 2 (line 2): the file ends inside this record (cut short, or still being written)";
    for name in ["cut.jsonl", "cut_after_value.jsonl"] {
        c.run(&[name, "-c", "doi"]).fails_with(&[name, CUT, "not valid JSON"]);
        c.nothing_written(false);
    }
    for name in ["broken.jsonl", "bad_last.jsonl"] {
        let msg = c.run(&[name, "-c", "doi"]).fails_with(&[name, "not valid JSON"]);
        assert!(!msg.contains("cut short"), "{msg}");
    }
}

#[test]
fn empty_zst() {
    let c = Case::new(&[("in.csv.zst", b"")]);
    c.run(&["in.csv.zst", "-c", "id"]).fails_with(&["in.csv.zst", "zstd"]);
    c.nothing_written(true);
}

#[test]
fn output_directory_without_write_permission() {
    use std::os::unix::fs::PermissionsExt;
    let c = Case::new(&[("in.csv", OK_CSV)]);
    let ro = c.out();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    // As root permissions don't bite: detect that by trying.
    let probe = ro.join("probe");
    if fs::write(&probe, b"x").is_ok() {
        fs::remove_file(&probe).unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("note: skipping output_directory_without_write_permission: running with privileges (root?)");
        return;
    }
    let run = c.run(&["in.csv", "-c", "id"]);
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
    run.fails_with(&["out", "permission denied"]);
    c.nothing_written(true);
}

/// Is `path` a character device?
fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

#[test]
fn output_to_dev_full() {
    let full = Path::new("/dev/full");
    if !is_char_device(full) {
        eprintln!("note: skipping output_to_dev_full: no /dev/full device");
        return;
    }
    let c = Case::new(&[("in.csv", OK_CSV)]);
    let run = scan(
        c.path(),
        &["in.csv", "-c", "id", "-o", "/dev/full", "--output-format", "csv", "-q"],
    );
    // Damage control first: a run with the bug replaces the device node
    // (as root) and may leave a temporary file in /dev.
    let mut damage = Vec::new();
    for e in entries(Path::new("/dev")) {
        if e.starts_with(".full.hdlscan-tmp") {
            let _ = fs::remove_file(Path::new("/dev").join(&e));
            damage.push(format!("left /dev/{e}"));
        }
    }
    if !is_char_device(full) {
        let _ = fs::remove_file(full);
        let restored = std::process::Command::new("mknod")
            .args(["-m", "666", "/dev/full", "c", "1", "7"])
            .status()
            .is_ok_and(|s| s.success());
        damage.push(format!("replaced /dev/full by a regular file (restored: {restored})"));
    }
    assert!(
        damage.is_empty(),
        "{damage:?}; exit {}, stderr {}",
        run.code,
        run.stderr
    );
    // Sane: an error naming /dev/full (no space left, or refusing a
    // non-regular file), nothing left behind.
    run.fails_with(&["/dev/full"]);
}

#[test]
fn output_format_unknown_for_device() {
    // Without --output-format, /dev/full has no extension: a clear error.
    let c = Case::new(&[("in.csv", OK_CSV)]);
    c.run(&["in.csv", "-c", "id", "-o", "/dev/full"])
        .usage_error(&["/dev/full", "--output-format"]);
}

/// Asking for the impossible is a usage error (exit 2), like clap's own.
#[test]
fn usage_errors_exit_2() {
    let c = Case::new(&[("in.csv", OK_CSV)]);
    c.run(&["in.csv", "-c", "id", "-j", "0"]).usage_error(&["--threads"]);
    c.run(&["in.csv", "-c", "id", "-j", "100000"])
        .usage_error(&["--threads", "1..=256"]);
    c.run(&["in.csv", "-c", "id", "-d", "::"]).usage_error(&["--delimiter"]);
    c.run(&["in.csv", "-c", "id", "--max-record-mib", "1"])
        .usage_error(&["--max-record-mib"]);
    c.run(&["in.csv", "-c", "id", "-o", "out/x.foo"])
        .usage_error(&["out/x.foo", "unknown output format"]);
    c.run(&["in.csv", "-c", "id", "-o", "-", "--report", "-"])
        .usage_error(&["-o - and --report - both write to stdout"]);
    c.run(&["-", "in.csv", "-", "-c", "id"]).usage_error(&["stdin", "once"]);
    // Checked before the run: a one-record input never spills, and the
    // mistake would wait for the first large one.
    c.run(&["in.csv", "-c", "id", "--temp-dir", "missing"])
        .usage_error(&["--temp-dir missing: no such file or directory"]);
    c.run(&["in.csv", "-c", "id", "--temp-dir", "in.csv"])
        .usage_error(&["--temp-dir in.csv: not a directory"]);
    assert_eq!(entries(c.path()), ["in.csv", "out"]);
    c.nothing_written(true);
}

/// One file given twice, by its path or through another path to it, would
/// count every record twice: a usage error naming both, nothing written.
#[test]
fn the_same_input_twice_is_refused() {
    let c = Case::new(&[("in.csv", OK_CSV)]);
    c.run(&["in.csv", "in.csv", "-c", "id", "-o", "out/o.csv"])
        .usage_error(&["in.csv is given twice", "drop one"]);
    c.run(&["in.csv", "./in.csv", "-c", "id", "--report", "out/r.json"])
        .usage_error(&["in.csv and ./in.csv are the same file"]);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(c.path().join("in.csv"), c.path().join("link.csv")).unwrap();
        c.run(&["in.csv", "link.csv", "-c", "id"])
            .usage_error(&["in.csv and link.csv are the same file"]);
    }
    c.nothing_written(true);
}

/// A compressed export saved under a plain name is read (sniffed), and a
/// Parquet file named .csv is refused with the way out.
#[test]
fn compressed_or_parquet_under_a_csv_name() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, OK_CSV).unwrap();
    let gz = gz.finish().unwrap();
    let pq = small_parquet();
    let c = Case::new(&[("gz.csv", &gz), ("pq.csv", &pq)]);
    c.run(&["gz.csv", "-c", "id", "--report", "out/r.json"]).ok();
    assert_eq!(c.report()["records"], 1);
    assert_eq!(c.report()["by_kind"]["doi"], 1);
    c.run(&["pq.csv", "-c", "id"])
        .fails_with(&["pq.csv", "Parquet file", "--input-format parquet"]);
}

#[test]
fn output_onto_an_input_is_refused() {
    let c = Case::new(&[("in.csv", OK_CSV)]);
    c.run(&["in.csv", "-c", "id", "-o", "in.csv"])
        .usage_error(&["in.csv", "same file"]);
    assert_eq!(fs::read(c.path().join("in.csv")).unwrap(), OK_CSV, "input untouched");
    assert_no_temp_files(c.path());
}

#[test]
fn value_longer_than_max_len() {
    let c = Case::new(&[("in.csv", b"a,id\n1,10.1/xxxxxxxxxxxxxxx\n2,10.1/x\n")]);
    c.run(&["in.csv", "-c", "id", "--max-len", "10", "--report", "out/r.json"])
        .ok();
    let r = c.report();
    check_report_totals(&r, 2);
    assert_eq!(r["errors"]["too_long"]["count"], 1);
    assert_eq!(r["errors"]["too_long"]["examples"][0]["record"], 1);
    assert_eq!(r["run"]["options"]["max_len"], 10);
    let t = c.output();
    assert_eq!(t.get(0, "error"), "too_long");
    assert_eq!(t.get(1, "canonical"), "10.1/x");
}

#[test]
fn stdin_empty() {
    let c = Case::new(&[]);
    scan_in(c.path(), &["-", "-c", "id", "-o", "out/o.csv", "-q"], Some(b"")).fails_with(&["<stdin>", "no header"]);
    c.nothing_written(true);
}

/// Failures found after the output was opened (a bad record, a bad second
/// input) must remove the temporary file too. Run each several times: the
/// writer thread races the process exit.
#[test]
fn late_failures_leave_no_temp_file() {
    type Files<'a> = &'a [(&'a str, &'a [u8])];
    let cases: &[(Files, &[&str])] = &[
        (
            &[("in.csv", b"a,id,b\n1,10.1/x,z\n2,10.1/y\n")],
            &["in.csv", "-c", "id"],
        ),
        (
            &[("in.csv", b"a,id,b\n1,10.1/x,z\n2,10.1/y,q,r\n")],
            &["in.csv", "-c", "id", "--allow-short-rows"],
        ),
        (&[("in.csv", b"a,id\n1,10.1/x\n2,\"10.1/y\n")], &["in.csv", "-c", "id"]),
        (
            &[("a.csv", b"a,id\n1,10.1/x\n"), ("b.csv", b"x,y\n1,2\n")],
            &["a.csv", "b.csv", "-c", "id"],
        ),
    ];
    for (files, args) in cases {
        for _ in 0..10 {
            let c = Case::new(files);
            let run = c.run(args);
            assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
            c.nothing_written(false);
            let tmp: Vec<String> = entries(&c.out())
                .into_iter()
                .filter(|n| n.contains(".hdlscan-tmp"))
                .collect();
            assert!(tmp.is_empty(), "{args:?}: left {tmp:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Hostile sizes. The inputs are made in tempdirs at run time (never
// committed). Each case asserts which outcome it gets (a correct result
// here: none of these sizes is over a limit), and where measured, peak RSS.

const MB100: usize = 100 << 20;

/// Writes a file through a buffer, so a 100 MB input never sits in a Vec.
fn write_with(path: &Path, f: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) {
    let mut w = std::io::BufWriter::new(fs::File::create(path).unwrap());
    f(&mut w).unwrap();
    std::io::Write::flush(&mut w).unwrap();
}

/// Writes `n` copies of `byte`.
fn repeat(w: &mut dyn std::io::Write, byte: u8, n: usize) -> std::io::Result<()> {
    let chunk = [byte; 1 << 16];
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk.len());
        w.write_all(&chunk[..k])?;
        left -= k;
    }
    Ok(())
}

/// GNU time, to measure a child's peak RSS (`%M`, KiB).
const GNU_TIME: &str = "/usr/bin/time";

/// Runs `hdlscan scan ARGS -q` in `dir` under GNU time: the run and its
/// peak RSS in KiB. Without GNU time the RSS is `None` (and a note says the
/// assertion is skipped).
pub fn scan_measured(dir: &Path, args: &[&str]) -> (crate::scan::Run, Option<u64>) {
    scan_measured_with_stdin(dir, args, None)
}

/// [`scan_measured`] with `stdin` streamed to the run as it reads (an
/// input larger than memory never exists whole, not even in the test).
pub fn scan_measured_with_stdin(
    dir: &Path,
    args: &[&str],
    stdin: Option<Box<dyn std::io::Read + Send>>,
) -> (crate::scan::Run, Option<u64>) {
    use std::process::{Command, Stdio};
    let time = Path::new(GNU_TIME).exists();
    if !time {
        eprintln!("note: {GNU_TIME} missing (apt-get install time): peak RSS not checked");
    }
    let rss_file = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = match time {
        true => {
            let mut c = Command::new(GNU_TIME);
            c.arg("-f")
                .arg("%M")
                .arg("-o")
                .arg(rss_file.path())
                .arg(env!("CARGO_BIN_EXE_hdlscan"));
            c
        }
        false => Command::new(env!("CARGO_BIN_EXE_hdlscan")),
    };
    cmd.arg("scan")
        .args(args)
        .arg("-q")
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(mut src) = stdin {
        let mut si = child.stdin.take().unwrap();
        // A writer thread, so a run that stops reading cannot deadlock us.
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut src, &mut si);
        });
    }
    let out = child.wait_with_output().unwrap();
    if !time {
        let run = crate::scan::Run {
            code: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        return (run, None);
    }
    let text = fs::read_to_string(rss_file.path()).unwrap();
    // GNU time writes "Command exited with non-zero status N" first then.
    let rss = text.lines().last().and_then(|l| l.trim().parse().ok());
    assert!(rss.is_some(), "no RSS from {GNU_TIME}: {text:?}");
    let run = crate::scan::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (run, rss)
}

/// Asserts a peak RSS (KiB) under `limit` bytes, and prints it either way.
#[track_caller]
pub fn assert_rss(what: &str, rss_kib: Option<u64>, limit: u64) {
    let Some(kib) = rss_kib else { return };
    let bytes = kib * 1024;
    eprintln!("{what}: peak RSS {} MB (limit {} MB)", bytes >> 20, limit >> 20);
    assert!(
        bytes < limit,
        "{what}: peak RSS {} MB over {} MB",
        bytes >> 20,
        limit >> 20
    );
}

/// Memory bound for an input whose largest record is `record` bytes: a
/// small factor of it (the reader's block, the parsed block, the Arrow
/// column and the output each hold one copy), and never a gigabyte.
fn rss_limit(record: usize) -> u64 {
    (8 * record as u64).min(1 << 30)
}

/// Streams the CSV output: one `Vec<Vec<u8>>` per row, header first.
fn csv_rows(path: &Path) -> Vec<Vec<Vec<u8>>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_path(path).unwrap();
    r.byte_records()
        .map(|rec| rec.unwrap().iter().map(<[u8]>::to_vec).collect())
        .collect()
}

fn field<'a>(rows: &'a [Vec<Vec<u8>>], row: usize, name: &str) -> &'a [u8] {
    let col = rows[0].iter().position(|n| n == name.as_bytes()).unwrap();
    &rows[row + 1][col]
}

/// One record whose identifier is 100 MB: a correct result, `too_long`
/// found cheaply (the parser checks the length first), the cell passed
/// through unchanged, the next record fine. Memory: a few copies of the
/// record, not more.
#[test]
fn identifier_cell_of_100_mb() {
    let c = Case::new(&[]);
    write_with(&c.path().join("in.csv"), |w| {
        w.write_all(b"a,id\n1,10.1/")?;
        repeat(w, b'x', MB100)?;
        w.write_all(b"\n2,10.1/y\n")
    });
    // By default a record over 32 MiB stops the run, saying how to go on.
    let (run, rss) = scan_measured(c.path(), &["in.csv", "-c", "id", "-o", "out/o.csv"]);
    run.fails_with(&["in.csv", "record 1", "record longer than", "--max-record-mib"]);
    assert_rss("100 MB identifier, refused", rss, 300 << 20);
    c.nothing_written(true);
    // Raised, the record is read and classified too_long.
    let (run, rss) = scan_measured(
        c.path(),
        &[
            "in.csv",
            "-c",
            "id",
            "-o",
            "out/o.csv",
            "--report",
            "out/r.json",
            "--max-record-mib",
            "128",
        ],
    );
    run.ok();
    assert_rss("100 MB identifier, CSV out", rss, rss_limit(MB100));
    let r = c.report();
    check_report_totals(&r, 2);
    assert_eq!(r["errors"]["too_long"]["count"], 1);
    assert_eq!(r["errors"]["too_long"]["examples"][0]["record"], 1);
    assert_eq!(r["valid"], 1);
    let rows = csv_rows(&c.out().join("o.csv"));
    assert_eq!(rows.len(), 3);
    let id = field(&rows, 0, "id");
    assert_eq!(id.len(), 5 + MB100, "the cell is passed through whole");
    assert!(id.starts_with(b"10.1/") && id[5..].iter().all(|&b| b == b'x'));
    assert_eq!(field(&rows, 0, "error"), b"too_long");
    assert_eq!(field(&rows, 0, "kind"), b"invalid");
    assert_eq!(field(&rows, 1, "canonical"), b"10.1/y");
}

/// A file that is one 100 MB line without a line end. As data (`-n`): one
/// record, `too_long`. As a header: one 100 MB column name and zero rows
/// (correct, if useless).
#[test]
fn one_line_of_100_mb_without_newline() {
    let c = Case::new(&[]);
    write_with(&c.path().join("in.csv"), |w| {
        w.write_all(b"10.1/")?;
        repeat(w, b'y', MB100)
    });
    let (run, rss) = scan_measured(c.path(), &["in.csv", "-n", "-c", "1"]);
    run.fails_with(&["in.csv", "record longer than", "--max-record-mib"]);
    assert_rss("one 100 MB line, refused", rss, 300 << 20);
    let (run, rss) = scan_measured(
        c.path(),
        &[
            "in.csv",
            "-n",
            "-c",
            "1",
            "--report",
            "out/r.json",
            "--max-record-mib",
            "128",
        ],
    );
    run.ok();
    assert_rss("one 100 MB line, audit", rss, rss_limit(MB100));
    let r = c.report();
    check_report_totals(&r, 1);
    assert_eq!(r["errors"]["too_long"]["count"], 1);
    assert_eq!(r["columns"][0]["name"], "column_1");

    let (run, rss) = scan_measured(
        c.path(),
        &["in.csv", "-c", "1", "-o", "out/h.csv", "--max-record-mib", "128"],
    );
    run.ok();
    assert_rss("one 100 MB line as the header, CSV out", rss, rss_limit(MB100));
    let rows = csv_rows(&c.out().join("h.csv"));
    assert_eq!(rows.len(), 1, "a header and no rows");
    assert_eq!(rows[0][0].len(), 5 + MB100);
}

/// A column name that is 100 MB, and a `--column` that names no column:
/// the error must still be a readable line, not the 100 MB name.
#[test]
fn missing_column_error_with_a_100_mb_column_name_stays_short() {
    let c = Case::new(&[]);
    write_with(&c.path().join("in.csv"), |w| {
        w.write_all(b"id,")?;
        repeat(w, b'n', MB100)?;
        w.write_all(b"\n10.1/x,1\n")
    });
    let run = c.run(&["in.csv", "-c", "nope", "--max-record-mib", "128"]);
    assert!(run.stderr.len() < 4096, "{} bytes of error message", run.stderr.len());
    run.usage_error(&["in.csv", "nope"]);
    c.nothing_written(true);
}

/// Pseudo-random text with everything CSV must quote: `,` `"` CR LF, and
/// multi-byte UTF-8.
fn nasty_text(len: usize) -> Vec<u8> {
    let pieces: [&[u8]; 8] = [b"abc", b",", b"\"", b"\r\n", b"\n", "é中🙂".as_bytes(), b" ", b"10.1/x"];
    let mut out = Vec::with_capacity(len + 16);
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    while out.len() < len {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        out.extend_from_slice(pieces[(s % 8) as usize]);
    }
    out
}

/// A 10 MB cell (full of quotes, commas, line breaks) in a non-identifier
/// column passes through to the CSV output byte for byte.
#[test]
fn ten_mb_cell_in_another_column_passes_through() {
    let big = nasty_text(10 << 20);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([&b"a"[..], b"id"]).unwrap();
    w.write_record([&big[..], b"10.1/x"]).unwrap();
    w.write_record([&b"small"[..], b"10.1/y"]).unwrap();
    let data = w.into_inner().unwrap();
    let c = Case::new(&[("in.csv", &data)]);
    c.run(&["in.csv", "-c", "id", "--report", "out/r.json"]).ok();
    check_report_totals(&c.report(), 2);
    let rows = csv_rows(&c.out().join("o.csv"));
    assert_eq!(rows.len(), 3);
    assert!(field(&rows, 0, "a") == &big[..], "the 10 MB cell changed");
    assert_eq!(field(&rows, 0, "canonical"), b"10.1/x");
    assert_eq!(field(&rows, 1, "a"), b"small");
    assert_eq!(field(&rows, 1, "canonical"), b"10.1/y");
}

const WIDE: usize = 100_000;

/// A 100,000-column CSV: header `col1..col100000`, three rows, identifiers
/// in column 99,999 (`col99999`), `r{row}c{col}` elsewhere.
fn wide_csv() -> Vec<u8> {
    let mut data = Vec::with_capacity(4 << 20);
    let names: Vec<String> = (1..=WIDE).map(|i| format!("col{i}")).collect();
    data.extend_from_slice(names.join(",").as_bytes());
    data.push(b'\n');
    for row in 1..=3 {
        let cells: Vec<String> = (1..=WIDE)
            .map(|col| {
                if col == WIDE - 1 {
                    format!("10.{}/wide-{row}", 1000 + row)
                } else {
                    format!("r{row}c{col}")
                }
            })
            .collect();
        data.extend_from_slice(cells.join(",").as_bytes());
        data.push(b'\n');
    }
    data
}

/// Column 99,999 of 100,000, by number and by name: a correct result (the
/// same output both ways), every other column passed through.
#[test]
fn hundred_thousand_columns() {
    let c = Case::new(&[("in.csv", &wide_csv())]);
    let mut outputs = Vec::new();
    for (spec, out) in [("99999", "out/n.csv"), ("col99999", "out/name.csv")] {
        let (run, rss) = scan_measured(c.path(), &["in.csv", "-c", spec, "-o", out, "--report", "out/r.json"]);
        run.ok();
        // The input is 3 MB; the baseline RSS of a run is ~15 MB.
        assert_rss(&format!("100,000 columns, -c {spec}, CSV out"), rss, 256 << 20);
        let r = c.report();
        check_report_totals(&r, 3);
        assert_eq!(r["columns"][0]["name"], "col99999");
        assert_eq!(r["by_kind"]["doi"], 3);
        outputs.push(fs::read(c.path().join(out)).unwrap());
    }
    assert!(outputs[0] == outputs[1], "by number and by name differ");
    let rows = csv_rows(&c.out().join("n.csv"));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].len(), WIDE + ENRICHED.len());
    assert_eq!(rows[0][WIDE - 2], b"col99999");
    assert_eq!(rows[0][WIDE], b"record");
    for row in 1..=3 {
        assert_eq!(
            field(&rows, row - 1, "canonical"),
            format!("10.{}/wide-{row}", 1000 + row).as_bytes()
        );
        assert_eq!(rows[row][0], format!("r{row}c1").as_bytes());
        assert_eq!(rows[row][WIDE - 2], format!("10.{}/wide-{row}", 1000 + row).as_bytes());
        assert_eq!(rows[row][WIDE - 3], format!("r{row}c{}", WIDE - 2).as_bytes());
        assert_eq!(rows[row][WIDE - 1], format!("r{row}c{WIDE}").as_bytes());
    }
    // Out of range: a clear error, nothing written.
    for f in entries(&c.out()) {
        fs::remove_file(c.out().join(f)).unwrap();
    }
    let run = c.run(&["in.csv", "-c", "100001"]);
    run.usage_error(&["in.csv", "out of range", "100000 columns"]);
    c.nothing_written(true);
}

/// 100,000 columns into Parquet: the memory a run needs must not grow with
/// the column count times a large per-column buffer.
#[test]
fn hundred_thousand_columns_to_parquet_is_refused_clearly() {
    // Each Parquet column writer holds its own buffers (~20 KB): 100,000 of
    // them would take 2 GB, so wide inputs go to CSV/TSV output instead.
    let c = Case::new(&[("in.csv", &wide_csv())]);
    let (run, rss) = scan_measured(c.path(), &["in.csv", "-c", "99999", "-o", "out/o.parquet"]);
    run.fails_with(&["in.csv", "100000 columns", "at most 1000 ", "CSV"]);
    assert_rss("100,000 columns, Parquet refused", rss, 300 << 20);
    c.nothing_written(true);
    let (run, rss) = scan_measured(c.path(), &["in.csv", "-c", "99999", "-o", "out/o.csv"]);
    run.ok();
    assert_rss("100,000 columns, CSV out", rss, 300 << 20);
}

/// Errors with 100,000 columns must stay readable: the list of columns in
/// "no column named" is cut short.
#[test]
fn hundred_thousand_columns_error_stays_short() {
    let c = Case::new(&[("in.csv", &wide_csv())]);
    for spec in ["nope", "100001"] {
        let run = c.run(&["in.csv", "-c", spec]);
        assert!(
            run.stderr.len() < 4096,
            "-c {spec}: {} bytes of error message",
            run.stderr.len()
        );
        run.usage_error(&["in.csv", spec]);
        c.nothing_written(true);
    }
}

// ---------------------------------------------------------------------------
// Fuzz regressions

/// The checks of `fuzz/fuzz_targets/parse.rs` for one input
/// (`hdlscan::id::laws`): one kind, and SPEC §3's laws for a valid value,
/// repair off and on.
fn parse_laws(input: &[u8]) {
    if let Err(e) = hdlscan::id::laws::check_both(input) {
        panic!("{e}");
    }
}

/// Replays every input the parser fuzz target ever failed on
/// (`testdata/fuzz/parse/`, see `fuzz/README.md`).
#[test]
fn fuzz_regressions_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz/parse");
    let mut n = 0;
    for name in entries(&dir) {
        if name.ends_with(".md") {
            continue;
        }
        let input = fs::read(dir.join(&name)).unwrap();
        let r = std::panic::catch_unwind(|| parse_laws(&input));
        assert!(r.is_ok(), "testdata/fuzz/parse/{name} fails again: {input:?}");
        n += 1;
    }
    eprintln!("replayed {n} fuzz inputs");
    // The checks themselves, on values the laws cover.
    for v in [
        &b"10.1000/182"[..],
        b" doi:10.1045/April2006-Paskin ",
        b"info:pii/S0888%2D7543%2802%2996852%2D7",
        b"hdl://190.12.34.56/1234/567",
        b"\xff\xfe",
        b"",
    ] {
        parse_laws(v);
    }
}

// ---------------------------------------------------------------------------
// Arrow IPC input, and files read the wrong way: hints that fit how the
// input was read.

/// `rows` identifiers as an Arrow IPC file (`stream`: the stream format).
fn arrow_ipc(stream: bool) -> Vec<u8> {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    let ids: StringArray = ["10.1/a", "10.1/b"].into_iter().map(Some).collect();
    let batch = RecordBatch::try_from_iter([("identifier", Arc::new(ids) as ArrayRef)]).unwrap();
    let mut out = Vec::new();
    if stream {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut out, &batch.schema()).unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
    } else {
        let mut w = arrow_ipc::writer::FileWriter::try_new(&mut out, &batch.schema()).unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, data).unwrap();
    gz.finish().unwrap()
}

/// Arrow IPC is read in either format (file and stream) when its name
/// says so; under another name, on stdin or compressed it is named by its
/// first bytes with the hint that gets it read (it was once read as CSV,
/// exiting 0 with garbage rows).
#[test]
fn arrow_ipc_input_is_read_or_named() {
    let (file, stream) = (arrow_ipc(false), arrow_ipc(true));
    let gz = gzip(&file);
    let c = Case::new(&[
        ("one.arrow", &file),
        ("one.arrows", &stream),
        ("one.csv", &file),
        ("one.parquet", &file),
        ("one.csv.gz", &gz),
        ("one.arrow.gz", &gz),
        ("in.csv", OK_CSV),
    ]);
    for input in ["one.arrow", "one.arrows"] {
        c.run(&[input, "-c", "identifier", "-o", "read.csv"]).ok();
        let out = fs::read_to_string(c.path().join("read.csv")).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "identifier,record,kind,namespace,prefix,suffix,canonical,uri,url,resolver,query,fragment,error,warnings"
        );
        assert!(
            lines[1].starts_with("10.1/a,1,doi,doi,10.1,a,10.1/a,"),
            "{input}: {out}"
        );
        assert!(lines[2].starts_with("10.1/b,2,doi,"), "{input}: {out}");
        assert_eq!(lines.len(), 3, "{input}: {out}");
    }
    let named = "this is an Arrow IPC file; name it .arrow or pass --input-format arrow";
    for args in [
        &["one.csv", "-c", "1"][..],
        &["one.parquet", "-c", "1"],
        &["one.arrow", "-c", "1", "--input-format", "parquet"],
    ] {
        c.run(args).fails_with(&[args[0], named]);
        c.nothing_written(true);
    }
    c.run(&["one.arrow", "-c", "1", "--input-format", "csv"]).fails_with(&[
        "one.arrow",
        "read as another format because of --input-format; drop that option",
    ]);
    scan_in(c.path(), &["-", "-c", "1", "-o", "out/o.csv", "-q"], Some(&stream)).fails_with(&[
        "<stdin>",
        "Arrow IPC file, which cannot be read from stdin; give the file's path",
    ]);
    for gz in ["one.csv.gz", "one.arrow.gz"] {
        c.run(&[gz, "-c", "1"])
            .fails_with(&[gz, "gzip-compressed Arrow IPC file; decompress it first"]);
        c.nothing_written(true);
    }
    // scan's own Arrow output, fed back: the same classification.
    c.run(&["in.csv", "-c", "id", "-o", "out/x.arrow", "--report", "out/a.json"])
        .ok();
    c.run(&["out/x.arrow", "-c", "id", "--report", "out/b.json"]).ok();
    let report = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&fs::read(c.path().join("out").join(name)).unwrap()).unwrap()
    };
    let (a, b) = (report("a.json"), report("b.json"));
    for key in ["values", "valid", "invalid", "by_kind", "duplicates"] {
        assert_eq!(a[key], b[key], "{key}");
    }
}

/// Arrow IPC with its buffers compressed (Feather v2 writes LZ4 by
/// default) reads as the plain file does.
#[test]
fn compressed_arrow_ipc_buffers() {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    use arrow_ipc::CompressionType;
    use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
    let ids: StringArray = ["10.1/a", "hdl:1721.1/5"].into_iter().map(Some).collect();
    let batch = RecordBatch::try_from_iter([("identifier", Arc::new(ids) as ArrayRef)]).unwrap();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, codec) in [
        ("lz4.feather", CompressionType::LZ4_FRAME),
        ("zstd.arrow", CompressionType::ZSTD),
    ] {
        let opts = IpcWriteOptions::default().try_with_compression(Some(codec)).unwrap();
        let mut out = Vec::new();
        let mut w = FileWriter::try_new_with_options(&mut out, &batch.schema(), opts).unwrap();
        w.write(&batch).unwrap();
        w.finish().unwrap();
        drop(w);
        files.push((name.into(), out));
    }
    let c = Case::new(&[
        (&files[0].0, &files[0].1),
        (&files[1].0, &files[1].1),
        ("v1.feather", b"FEA1\0\0\0\0"),
    ]);
    for (name, _) in &files {
        c.run(&[name, "-c", "identifier", "-o", "read.csv"]).ok();
        let out = fs::read_to_string(c.path().join("read.csv")).unwrap();
        assert!(
            out.contains("\n10.1/a,1,doi,") && out.contains("\nhdl:1721.1/5,2,hdl_uri,"),
            "{name}: {out}"
        );
    }
    c.run(&["v1.feather", "-c", "1"])
        .fails_with(&["v1.feather", "Feather version 1 file; rewrite it as version 2"]);
}

/// An Arrow file of one batch longer than a unit of work is read in
/// slices: every row once, in order, numbered across the slices.
#[test]
fn one_long_arrow_batch() {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    let n = 70_000;
    let ids: StringArray = (1..=n).map(|i| Some(format!("10.1/{i}"))).collect();
    let batch = RecordBatch::try_from_iter([("identifier", Arc::new(ids) as ArrayRef)]).unwrap();
    let mut file = Vec::new();
    let mut w = arrow_ipc::writer::FileWriter::try_new(&mut file, &batch.schema()).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    drop(w);
    let c = Case::new(&[("long.arrow", &file)]);
    c.run(&["long.arrow", "-c", "identifier", "-o", "read.csv", "--report", "r.json"])
        .ok();
    let out = fs::read_to_string(c.path().join("read.csv")).unwrap();
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), n);
    for (i, row) in rows.iter().enumerate() {
        let want = format!("10.1/{0},{0},doi,", i + 1);
        assert!(row.starts_with(&want), "row {i}: {row}");
    }
    let r: serde_json::Value = serde_json::from_slice(&fs::read(c.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(
        (r["records"].as_u64(), r["valid"].as_u64()),
        (Some(n as u64), Some(n as u64))
    );
}

/// arrow's IPC reader panics on some damaged files (a buffer offset past
/// the buffer's end): one error naming the file and the record, exit 1,
/// and no panic message or backtrace on stderr.
#[test]
fn arrow_reader_panic_is_one_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/inputs");
    let file = fs::read(dir.join("arrow-bad-buffer-offset.arrow")).unwrap();
    let c = Case::new(&[("bad.arrow", &file)]);
    let msg = c
        .run(&["bad.arrow", "-c", "1"])
        .fails_with(&["bad.arrow: record 3: damaged Arrow IPC data: the decoder failed on malformed data"]);
    assert_eq!(msg.lines().count(), 1, "{msg}");
    c.nothing_written(false);
}

/// A damaged Arrow IPC file fails with its name and, mid-stream, the
/// record its batch starts at; one cut short says so (it said "does not
/// contain correct footer" or "failed to fill whole buffer"); nothing is
/// written and nothing panics.
#[test]
fn damaged_arrow_ipc() {
    let (file, stream) = (arrow_ipc(false), arrow_ipc(true));
    let c = Case::new(&[
        ("cut.arrow", &file[..file.len() / 2]),
        ("magic.arrow", &file[..6]),
        ("cut.arrows", &stream[..stream.len() - 20]),
        ("schema.arrows", &stream[..12]),
        ("empty.arrow", b""),
    ]);
    const EARLY: &str = "it ends early (cut short, or still being written)";
    for (input, want) in [
        (
            "cut.arrow",
            format!("cut.arrow: not a readable Arrow IPC file: {EARLY}"),
        ),
        (
            "magic.arrow",
            format!("magic.arrow: not a readable Arrow IPC file: {EARLY}"),
        ),
        (
            "cut.arrows",
            format!("cut.arrows: record 1: damaged Arrow IPC data: {EARLY}"),
        ),
        (
            "schema.arrows",
            format!("schema.arrows: not a readable Arrow IPC file: {EARLY}"),
        ),
        ("empty.arrow", "empty.arrow: not a readable Arrow IPC file".into()),
    ] {
        c.run(&[input, "-c", "1", "-o", "out/o.csv"]).fails_with(&[&want]);
        c.nothing_written(true);
    }
}

/// Parquet read the wrong way gets the hint that works: on stdin, not
/// "--input-format parquet" (which cannot read stdin); already named
/// .parquet, not "name it .parquet"; compressed whole, not "Corrupt footer".
#[test]
fn parquet_hints_fit_how_it_was_read() {
    let pq = small_parquet();
    let gz = gzip(&pq);
    let zst = zstd::encode_all(&pq[..], 3).unwrap();
    let c = Case::new(&[
        ("pq.parquet", &pq),
        ("pq.parquet.gz", &gz),
        ("pq.parquet.zst", &zst),
        ("pq.csv.gz", &gz),
    ]);
    let msg = scan_in(c.path(), &["-", "-c", "id", "-o", "out/o.csv", "-q"], Some(&pq)).fails_with(&[
        "<stdin>",
        "Parquet",
        "cannot be read from stdin",
        "path",
    ]);
    assert!(!msg.contains("--input-format parquet"), "{msg}");
    for format in ["csv", "tsv"] {
        let msg = c
            .run(&["pq.parquet", "-c", "id", "--input-format", format])
            .fails_with(&["pq.parquet", "Parquet file", "--input-format", "drop"]);
        assert!(!msg.contains("name it .parquet"), "{msg}");
    }
    for (name, codec) in [("pq.parquet.gz", "gzip"), ("pq.parquet.zst", "zstd")] {
        let msg = c
            .run(&[name, "-c", "id"])
            .fails_with(&[name, &format!("{codec}-compressed"), "decompress it first"]);
        assert!(!msg.contains("footer"), "{msg}");
    }
    c.run(&["pq.csv.gz", "-c", "id"])
        .fails_with(&["pq.csv.gz", "gzip-compressed Parquet file", "decompress it first"]);
    c.nothing_written(true);
}

/// CSV reading flags given with Parquet input were ignored without a word;
/// now each is a usage error naming it. Left unset, nothing changes.
#[test]
fn csv_flags_with_parquet_input_are_usage_errors() {
    let c = Case::new(&[("in.parquet", &small_parquet())]);
    for (args, flag) in [
        (&["-n"][..], "--no-headers"),
        (&["--no-headers"], "--no-headers"),
        (&["-d", ";"], "--delimiter"),
        (&["--delimiter", "tab"], "--delimiter"),
        (&["--allow-short-rows"], "--ragged"),
        (&["--ragged", "extra"], "--ragged"),
        (&["--max-record-mib", "64"], "--max-record-mib"),
        (&["--block-mib", "1"], "--block-mib"),
    ] {
        let mut a = vec!["in.parquet", "-c", "id"];
        a.extend_from_slice(args);
        c.run(&a).usage_error(&[flag, "applies to CSV/TSV", "input only"]);
        c.nothing_written(true);
    }
    c.run(&["in.parquet", "-c", "id", "--input-format", "parquet", "-n"])
        .usage_error(&["--no-headers", "CSV/TSV input only"]);
    c.run(&["in.parquet", "-c", "id", "--report", "out/r.json"]).ok();
    check_report_totals(&c.report(), 5000);
}

/// The audit's reproduction: two title cells and one identifier cell hold
/// invalid UTF-8; Parquet and Arrow output write all three with U+FFFD,
/// so `lossy_cells` is 3 (it was 2); CSV output keeps the bytes: 0.
#[test]
fn lossy_cells_counts_the_identifier_cell_in_parquet_and_arrow_output() {
    let bad = b"id,identifier,title\n1,10.1000/\xff\xfe,t\xe9st\n2,10.1000/a\x00b,ti\x00tle\n3,\x00,\xc3\n";
    let c = Case::new(&[("bad.csv", bad)]);
    for out in ["o.parquet", "o.arrow"] {
        let target = format!("out/{out}");
        c.run(&["bad.csv", "-c", "identifier", "-o", &target, "--report", "out/r.json"])
            .ok();
        assert_eq!(c.report()["lossy_cells"], 3, "{out}");
        let (schema, batches) = if out.ends_with(".parquet") {
            crate::scan::read_parquet(&c.out().join(out))
        } else {
            crate::scan::read_ipc(&c.out().join(out))
        };
        let t = Table::from_batches(&schema, &batches);
        assert_eq!(t.get(0, "identifier"), "10.1000/\u{fffd}\u{fffd}", "{out}");
        assert_eq!(t.get(0, "error"), "bad_utf8", "{out}");
    }
    scan(
        c.path(),
        &["bad.csv", "-c", "identifier", "--report", "out/r.json", "-q"],
    )
    .ok();
    assert_eq!(c.report()["lossy_cells"], 0, "an audit writes no cell");
    c.run(&["bad.csv", "-c", "identifier", "--report", "out/r.json"]).ok();
    assert_eq!(c.report()["lossy_cells"], 0, "CSV output keeps the bytes");
}

/// `gen -o -` wrote a file named `-`; it is refused as `scan` refuses it.
#[test]
fn gen_refuses_dash_output() {
    let c = Case::new(&[]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(c.path())
        .args(["gen", "--rows", "3", "--format", "csv", "-o", "-"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("-o -") && stderr.contains("name a file"), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(entries(c.path()), ["out"]);
}
