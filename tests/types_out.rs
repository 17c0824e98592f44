//! CSV and TSV output of every type a Parquet input can hold: dates and
//! timestamps in ISO 8601, numbers as they are, nested values (lists of
//! strings too) as JSON; only SPEC's `warnings` is joined with `;`.
//!
//! Run: `cargo test --test tests types_out`

use crate::scan::{Table, scan};
use arrow_array::builder::{
    FixedSizeListBuilder, Int32Builder, Int64Builder, LargeListBuilder, ListBuilder, MapBuilder, StringBuilder,
};
use arrow_array::types::*;
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Float32Array, Float64Array, Int8Array, LargeStringArray, PrimitiveArray,
    RecordBatch, StringArray, StringViewArray, StructArray, UInt64Array,
};
use arrow_buffer::{IntervalDayTime, i256};
use arrow_schema::{DataType, Field};
use std::fs;
use std::path::Path;
use std::sync::Arc;

/// A column of the test file: its name, the array, and the text expected
/// in the output for row 0 (row 1 is null in every column but `id`).
struct Case {
    name: &'static str,
    array: ArrayRef,
    text: &'static str,
}

fn case(name: &'static str, array: impl arrow_array::Array + 'static, text: &'static str) -> Case {
    Case {
        name,
        array: Arc::new(array),
        text,
    }
}

/// Row 0 holds `v`, row 1 a null.
fn two<T>(v: T) -> Vec<Option<T>> {
    vec![Some(v), None]
}

/// 2024-05-01T12:34:56.789 UTC, in milliseconds.
const MS: i64 = 1_714_566_896_789;

fn cases() -> Vec<Case> {
    type F16 = <Float16Type as ArrowPrimitiveType>::Native;
    let mut ints = ListBuilder::new(Int32Builder::new());
    ints.values().append_value(1);
    ints.values().append_null();
    ints.append(true);
    ints.append_null();
    let mut words = LargeListBuilder::new(StringBuilder::new());
    words.values().append_value("a \"b\"");
    words.values().append_value("c;d");
    words.append(true);
    words.append_null();
    let mut tags = ListBuilder::new(StringBuilder::new());
    tags.values().append_value("x");
    tags.values().append_value("y");
    tags.append(true);
    tags.append_null();
    let mut pair = FixedSizeListBuilder::new(Int64Builder::new(), 2);
    pair.values().append_value(-1);
    pair.values().append_value(2);
    pair.append(true);
    pair.values().append_null();
    pair.values().append_null();
    pair.append(false);
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    map.keys().append_value("k");
    map.values().append_value(7);
    map.append(true).unwrap();
    map.append(false).unwrap();
    let record = StructArray::from(vec![
        (
            Arc::new(Field::new("title", DataType::Utf8, true)),
            Arc::new(StringArray::from(vec![Some("Über\n\"x\""), None])) as ArrayRef,
        ),
        (
            Arc::new(Field::new("year", DataType::Int32, true)),
            Arc::new(PrimitiveArray::<Int32Type>::from(vec![Some(2024), None])) as ArrayRef,
        ),
        (
            Arc::new(Field::new("issued", DataType::Date32, true)),
            Arc::new(PrimitiveArray::<Date32Type>::from(vec![Some(19_844), None])) as ArrayRef,
        ),
    ]);
    // Row 1 of the struct: null as a whole.
    let record = StructArray::try_new(
        record.fields().clone(),
        record.columns().to_vec(),
        Some(vec![true, false].into()),
    )
    .unwrap();
    vec![
        case("bool", BooleanArray::from(two(true)), "true"),
        case("int8", Int8Array::from(two(-8)), "-8"),
        case("uint64", UInt64Array::from(two(u64::MAX)), "18446744073709551615"),
        case(
            "float16",
            PrimitiveArray::<Float16Type>::from(two(F16::from_f32(0.5))),
            "0.5",
        ),
        case("float32", Float32Array::from(two(1.25)), "1.25"),
        case("float64", Float64Array::from(two(-0.1)), "-0.1"),
        case(
            "decimal128",
            PrimitiveArray::<Decimal128Type>::from(two(-123_456))
                .with_precision_and_scale(20, 4)
                .unwrap(),
            "-12.3456",
        ),
        case(
            "decimal256",
            PrimitiveArray::<Decimal256Type>::from(two(i256::from_i128(10_i128.pow(30) + 5)))
                .with_precision_and_scale(50, 2)
                .unwrap(),
            "10000000000000000000000000000.05",
        ),
        case("date32", PrimitiveArray::<Date32Type>::from(two(19_844)), "2024-05-01"),
        case(
            "date64",
            PrimitiveArray::<Date64Type>::from(two(19_844 * 86_400_000)),
            "2024-05-01",
        ),
        case(
            "ts_s",
            PrimitiveArray::<TimestampSecondType>::from(two(MS / 1000)),
            "2024-05-01T12:34:56",
        ),
        case(
            "ts_ms",
            PrimitiveArray::<TimestampMillisecondType>::from(two(MS)),
            "2024-05-01T12:34:56.789",
        ),
        case(
            "ts_us_utc",
            PrimitiveArray::<TimestampMicrosecondType>::from(two(MS * 1000 + 7)).with_timezone("UTC"),
            "2024-05-01T12:34:56.789007Z",
        ),
        case(
            "ts_ns_berlin",
            PrimitiveArray::<TimestampNanosecondType>::from(two(MS * 1_000_000)).with_timezone("Europe/Berlin"),
            "2024-05-01T12:34:56.789000000Z",
        ),
        case(
            "ts_ms_offset",
            PrimitiveArray::<TimestampMillisecondType>::from(two(MS)).with_timezone("+02:00"),
            "2024-05-01T12:34:56.789Z",
        ),
        case(
            "time32_s",
            PrimitiveArray::<Time32SecondType>::from(two(45_296)),
            "12:34:56",
        ),
        case(
            "time32_ms",
            PrimitiveArray::<Time32MillisecondType>::from(two(45_296_789)),
            "12:34:56.789",
        ),
        case(
            "time64_us",
            PrimitiveArray::<Time64MicrosecondType>::from(two(45_296_789_001)),
            "12:34:56.789001",
        ),
        case(
            "time64_ns",
            PrimitiveArray::<Time64NanosecondType>::from(two(45_296_789_000_001)),
            "12:34:56.789000001",
        ),
        case(
            "duration_ms",
            PrimitiveArray::<DurationMillisecondType>::from(two(90_061_500)),
            "PT90061.500S",
        ),
        case(
            "interval_ym",
            PrimitiveArray::<IntervalYearMonthType>::from(two(14)),
            "P14M",
        ),
        case(
            "interval_dt",
            PrimitiveArray::<IntervalDayTimeType>::from(two(IntervalDayTime::new(3, 500))),
            "P3DT0.500S",
        ),
        case(
            "binary",
            BinaryArray::from(vec![Some(&b"raw bytes"[..]), None]),
            "raw bytes",
        ),
        case("large_utf8", LargeStringArray::from(two("large")), "large"),
        case("utf8_view", StringViewArray::from(two("view")), "view"),
        case("list_int", ints.finish(), "[1,null]"),
        case("large_list_utf8", words.finish(), r#"["a \"b\"","c;d"]"#),
        case("list_utf8", tags.finish(), r#"["x","y"]"#),
        case("fixed_list", pair.finish(), "[-1,2]"),
        case("map", map.finish(), r#"{"k":7}"#),
        case(
            "struct",
            record,
            r#"{"title":"Über\n\"x\"","year":2024,"issued":"2024-05-01"}"#,
        ),
    ]
}

/// Writes `cases` after an `id` column to a Parquet file; each case that
/// Parquet cannot hold is dropped (and named, so the test says what it
/// did not check end to end).
fn write_parquet(path: &Path, cases: Vec<Case>) -> Vec<Case> {
    let mut kept = Vec::new();
    for c in cases {
        let id = Arc::new(StringArray::from(vec!["10.1000/a", "10.1000/b"])) as ArrayRef;
        let batch = RecordBatch::try_from_iter([("id", id), (c.name, Arc::clone(&c.array))]).unwrap();
        let mut w = parquet::arrow::ArrowWriter::try_new(Vec::new(), batch.schema(), None).unwrap();
        let ok = w.write(&batch).is_ok() && w.close().is_ok();
        if ok {
            kept.push(c);
        } else {
            eprintln!(
                "types_out: Parquet cannot hold {}; checked by the unit tests only",
                c.name
            );
        }
    }
    let mut columns: Vec<(&str, ArrayRef)> = vec![(
        "id",
        Arc::new(StringArray::from(vec!["10.1000/a", "10.1000/b"])) as ArrayRef,
    )];
    columns.extend(kept.iter().map(|c| (c.name, Arc::clone(&c.array))));
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(fs::File::create(path).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    kept
}

#[test]
fn every_parquet_type_is_written_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = write_parquet(&d.join("in.parquet"), cases());
    let names: Vec<&str> = kept.iter().map(|c| c.name).collect();
    for must in [
        "date32",
        "ts_us_utc",
        "ts_ns_berlin",
        "decimal128",
        "list_int",
        "struct",
        "map",
        "time64_ns",
    ] {
        assert!(names.contains(&must), "Parquet should hold {must}");
    }
    for (out, delimiter) in [("out.csv", b','), ("out.tsv", b'\t')] {
        scan(d, &["in.parquet", "-c", "id", "-o", out]).ok();
        let t = Table::from_csv(&d.join(out), delimiter);
        assert_eq!(t.get(0, "canonical"), "10.1000/a");
        for c in &kept {
            assert_eq!(t.get(0, c.name), c.text, "{out}: column {}", c.name);
            assert_eq!(t.get(1, c.name), "", "{out}: column {} holds a null", c.name);
        }
    }
}

/// A Parquet date column once made CSV output refuse the whole file; the
/// text of a JSON-like column is read back as the JSON it is.
#[test]
fn nested_text_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = write_parquet(
        &d.join("in.parquet"),
        cases()
            .into_iter()
            .filter(|c| ["struct", "map", "list_int"].contains(&c.name))
            .collect(),
    );
    assert_eq!(kept.len(), 3);
    scan(d, &["in.parquet", "-c", "id", "-o", "out.csv"]).ok();
    let t = Table::from_csv(&d.join("out.csv"), b',');
    for c in &kept {
        let v: serde_json::Value = serde_json::from_str(t.get(0, c.name)).expect("JSON");
        assert!(v.is_object() || v.is_array(), "{}: {v}", c.name);
    }
    let v: serde_json::Value = serde_json::from_str(t.get(0, "struct")).unwrap();
    assert_eq!(v["title"], "Über\n\"x\"");
}

/// An input's own list of strings is JSON in CSV and TSV, wide or kept in
/// long output, so an element holding `;` stays one element; SPEC's
/// `warnings` keeps its `;`-joined codes, also beside an input column of
/// that very name.
#[test]
fn input_lists_of_strings_are_json_and_warnings_stay_joined() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut subjects = ListBuilder::new(StringBuilder::new());
    let mut warnings = ListBuilder::new(StringBuilder::new());
    for (subject, warning) in [(vec!["Physics; applied", "Optics"], "a;b"), (vec![], "c")] {
        for s in subject {
            subjects.values().append_value(s);
        }
        subjects.append(true);
        warnings.values().append_value(warning);
        warnings.append(true);
    }
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(StringArray::from(vec![" http://dx.doi.org/10.1000/182", "10.1000/x"])) as ArrayRef,
        ),
        ("subjects", Arc::new(subjects.finish()) as ArrayRef),
        ("warnings", Arc::new(warnings.finish()) as ArrayRef),
    ])
    .unwrap();
    crate::hostile::write_parquet(&d.join("in.parquet"), &batch);
    for (out, delimiter, long) in [("w.csv", b',', false), ("w.tsv", b'\t', false), ("l.csv", b',', true)] {
        let mut args = vec!["in.parquet", "-c", "id", "-o", out];
        if long {
            args.extend(["--long", "--keep", "subjects", "--keep", "warnings"]);
        }
        scan(d, &args).ok();
        let t = Table::from_csv(&d.join(out), delimiter);
        assert_eq!(t.get(0, "subjects"), r#"["Physics; applied","Optics"]"#, "{out}");
        assert_eq!(t.get(1, "subjects"), "[]", "{out}");
        let v: Vec<String> = serde_json::from_str(t.get(0, "subjects")).unwrap();
        assert_eq!(v.len(), 2);
        // The input's `warnings`, then SPEC's, which took a prefix.
        assert_eq!(t.get(0, "warnings"), r#"["a;b"]"#, "{out}");
        assert_eq!(
            t.get(0, "hdl_warnings"),
            "trimmed;http_resolver;legacy_resolver",
            "{out}"
        );
        assert_eq!(t.get(1, "hdl_warnings"), "", "{out}");
    }
}
