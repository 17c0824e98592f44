//! Paths into nested Parquet: `ids.doi` into a struct and
//! `locations[].landing_page_url` into a list of structs (the element
//! field named as a writer likes), as in OpenAlex's Parquet works.
//!
//! Run: `cargo test --test tests nested`

use crate::hostile::write_parquet;
use crate::scan::{Table, read_json, scan};
use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;

/// Three works: two locations, none, one whose URL is null.
pub fn works() -> RecordBatch {
    let ids_fields = Fields::from(vec![
        Field::new("openalex", DataType::Utf8, true),
        Field::new("doi", DataType::Utf8, true),
    ]);
    let mut ids = StructBuilder::from_fields(ids_fields, 3);
    let loc_fields = Fields::from(vec![Field::new("landing_page_url", DataType::Utf8, true)]);
    let mut locs = ListBuilder::new(StructBuilder::from_fields(loc_fields.clone(), 3))
        .with_field(Arc::new(Field::new("item", DataType::Struct(loc_fields), true)));
    for (w, doi, urls) in [
        (
            "W1",
            Some("https://doi.org/10.7717/peerj.4375"),
            vec![
                Some("https://doi.org/10.7717/PEERJ.4375"),
                Some("https://europepmc.org/x"),
            ],
        ),
        ("W2", None, vec![]),
        ("W3", Some("10.1000/182"), vec![None]),
    ] {
        ids.field_builder::<StringBuilder>(0).unwrap().append_value(w);
        ids.field_builder::<StringBuilder>(1).unwrap().append_option(doi);
        ids.append(true);
        for u in urls {
            let s = locs.values();
            s.field_builder::<StringBuilder>(0).unwrap().append_option(u);
            s.append(true);
        }
        locs.append(true);
    }
    let id = Arc::new(StringArray::from(vec!["1", "2", "3"])) as ArrayRef;
    RecordBatch::try_from_iter(vec![
        ("id", id),
        ("ids", Arc::new(ids.finish()) as ArrayRef),
        ("locations", Arc::new(locs.finish()) as ArrayRef),
    ])
    .unwrap()
}

/// `batch` as an Arrow IPC file.
fn write_arrow(path: &std::path::Path, batch: &RecordBatch) {
    let mut w = arrow_ipc::writer::FileWriter::try_new(std::fs::File::create(path).unwrap(), &batch.schema()).unwrap();
    w.write(batch).unwrap();
    w.finish().unwrap();
}

#[test]
fn struct_and_list_paths_in_parquet_and_arrow() {
    for works_file in ["works.parquet", "works.arrow"] {
        struct_and_list_paths(works_file);
    }
}

fn struct_and_list_paths(works_file: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    match works_file.ends_with(".arrow") {
        true => write_arrow(&d.join(works_file), &works()),
        false => write_parquet(&d.join(works_file), &works()),
    }
    scan(
        d,
        &[
            works_file,
            "-c",
            "ids.doi",
            "-c",
            "locations[].landing_page_url",
            "--keep",
            "id",
            "-o",
            "out.csv",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("out.csv"), b',');
    let rows = t.pick(["id", "source_column", "value_index", "value", "canonical"]);
    assert_eq!(
        rows,
        [
            [
                "1",
                "ids.doi",
                "1",
                "https://doi.org/10.7717/peerj.4375",
                "10.7717/peerj.4375"
            ],
            [
                "1",
                "locations[].landing_page_url",
                "1",
                "https://doi.org/10.7717/PEERJ.4375",
                "10.7717/peerj.4375"
            ],
            ["1", "locations[].landing_page_url", "2", "https://europepmc.org/x", ""],
            ["2", "ids.doi", "1", "", ""],
            ["2", "locations[].landing_page_url", "1", "", ""],
            ["3", "ids.doi", "1", "10.1000/182", "10.1000/182"],
            ["3", "locations[].landing_page_url", "1", "", ""],
        ]
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!((r["cells"].as_u64(), r["values"].as_u64()), (Some(6), Some(7)));
    // Record 1's DOI in two places is the record repeating it.
    assert_eq!(r["duplicates"]["clusters"], 0);
    assert_eq!(r["duplicates"]["repeated_in_record"]["records"], 1);
    // A struct path alone, no []: wide output, the input's columns kept.
    scan(d, &[works_file, "-c", "ids.doi", "-o", "wide.parquet", "-q"]).ok();
    // Paths that do not fit say why, before anything is written.
    scan(d, &[works_file, "-c", "ids.pmid"]).usage_error(&["has no field 'pmid' (its fields: openalex, doi)"]);
    scan(d, &[works_file, "-c", "locations.landing_page_url"]).usage_error(&["not a struct"]);
    // A struct or list chosen whole: the path that reads it.
    scan(d, &[works_file, "-c", "ids"]).fails_with(&[
        "column 'ids' has type Struct",
        "a path reads one of its fields: -c ids.openalex (its fields: openalex, doi)",
    ]);
    scan(d, &[works_file, "-c", "locations"]).fails_with(&["a path reads its elements: -c 'locations[]'"]);
}

/// As for JSON (tests/jsonl.rs), every list element a path reaches is one
/// value: a null field, a null element or a null list is one empty value in
/// its place, an empty list none (the cell is then one empty value).
#[test]
fn every_list_element_is_a_value_in_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fields = Fields::from(vec![Field::new("doi", DataType::Utf8, true)]);
    let mut versions = ListBuilder::new(StructBuilder::from_fields(fields.clone(), 4))
        .with_field(Arc::new(Field::new("element", DataType::Struct(fields), true)));
    // Rows: [x, null doi, null element, y], [], null, [z].
    let rows: [Option<Vec<Option<Option<&str>>>>; 4] = [
        Some(vec![Some(Some("10.1/x")), Some(None), None, Some(Some("10.1/y"))]),
        Some(vec![]),
        None,
        Some(vec![Some(Some("10.1/z"))]),
    ];
    for row in rows {
        for element in row.iter().flatten() {
            let s = versions.values();
            s.field_builder::<StringBuilder>(0)
                .unwrap()
                .append_option(element.flatten());
            s.append(element.is_some());
        }
        versions.append(row.is_some());
    }
    let batch = RecordBatch::try_from_iter(vec![("versions", Arc::new(versions.finish()) as ArrayRef)]).unwrap();
    write_parquet(&d.join("v.parquet"), &batch);
    scan(
        d,
        &["v.parquet", "-c", "versions[].doi", "-o", "o.csv", "--report", "r.json"],
    )
    .ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    let rows = t.pick(["record", "value_index", "canonical", "error"]);
    assert_eq!(
        rows,
        [
            ["1", "1", "10.1/x", ""],
            ["1", "2", "", "empty"],
            ["1", "3", "", "empty"],
            ["1", "4", "10.1/y", ""],
            ["2", "1", "", "empty"],
            ["3", "1", "", "empty"],
            ["4", "1", "10.1/z", ""],
        ]
    );
    assert_eq!(read_json(&d.join("r.json"))["values"], 7);
}

/// Arrow IPC holds lists of five kinds (`List`, `LargeList`,
/// `FixedSizeList`, `ListView`, `LargeListView`): `[]` reads each, the
/// column chosen whole names that path, and a sliced batch (offsets not
/// starting at 0) reads its own rows.
#[test]
fn every_arrow_list_kind_reads_through_its_elements() {
    use arrow_array::{FixedSizeListArray, GenericListViewArray, LargeListArray, ListArray};
    use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Rows, two elements each: [skipped], [10.1/a, null], null, [10.1/b, 10.1/c].
    let values = Arc::new(StringArray::from(vec![
        Some("junk"),
        Some("junk"),
        Some("10.1/a"),
        None,
        Some("x"),
        Some("x"),
        Some("10.1/b"),
        Some("https://doi.org/10.1/C"),
    ])) as ArrayRef;
    let item = Arc::new(Field::new("item", DataType::Utf8, true));
    let nulls = Some(NullBuffer::from(vec![true, true, false, true]));
    let offsets = OffsetBuffer::new(ScalarBuffer::from(vec![0i32, 2, 4, 6, 8]));
    let large = OffsetBuffer::new(ScalarBuffer::from(vec![0i64, 2, 4, 6, 8]));
    let kinds: Vec<(&str, ArrayRef)> = vec![
        (
            "list",
            Arc::new(ListArray::new(item.clone(), offsets, values.clone(), nulls.clone())),
        ),
        (
            "large",
            Arc::new(LargeListArray::new(item.clone(), large, values.clone(), nulls.clone())),
        ),
        (
            "fixed",
            Arc::new(FixedSizeListArray::new(item.clone(), 2, values.clone(), nulls.clone())),
        ),
        (
            "view",
            Arc::new(GenericListViewArray::<i32>::new(
                item.clone(),
                ScalarBuffer::from(vec![0, 2, 4, 6]),
                ScalarBuffer::from(vec![2, 2, 2, 2]),
                values.clone(),
                nulls.clone(),
            )),
        ),
        (
            "large_view",
            Arc::new(GenericListViewArray::<i64>::new(
                item,
                ScalarBuffer::from(vec![0, 2, 4, 6]),
                ScalarBuffer::from(vec![2, 2, 2, 2]),
                values,
                nulls,
            )),
        ),
    ];
    let batch = RecordBatch::try_from_iter(kinds.iter().cloned()).unwrap().slice(1, 3);
    write_arrow(&d.join("lists.arrow"), &batch);
    for (name, _) in &kinds {
        let out = format!("{name}.csv");
        scan(d, &["lists.arrow", "-c", &format!("{name}[]"), "-o", &out, "-q"]).ok();
        let t = Table::from_csv(&d.join(&out), b',');
        let rows = t.pick(["record", "value_index", "canonical", "error"]);
        assert_eq!(
            rows,
            [
                ["1", "1", "10.1/a", ""],
                ["1", "2", "", "empty"],
                ["2", "1", "", "empty"],
                ["3", "1", "10.1/b", ""],
                ["3", "2", "10.1/c", ""],
            ],
            "{name}"
        );
        scan(d, &["lists.arrow", "-c", name]).fails_with(&[&format!("a path reads its elements: -c '{name}[]'")]);
    }
}

/// OpenAlex-shaped works with an abstract (the wide column no audit
/// needs) and authorships nested two lists deep, each institution with a
/// `ror` and a `name`.
fn works_with_abstracts(rows: usize) -> RecordBatch {
    let ids_fields = Fields::from(vec![
        Field::new("openalex", DataType::Utf8, true),
        Field::new("doi", DataType::Utf8, true),
    ]);
    let mut ids = StructBuilder::from_fields(ids_fields, rows);
    let inst_fields = Fields::from(vec![
        Field::new("ror", DataType::Utf8, true),
        Field::new("name", DataType::Utf8, true),
    ]);
    let inst = ListBuilder::new(StructBuilder::from_fields(inst_fields.clone(), rows)).with_field(Arc::new(
        Field::new("element", DataType::Struct(inst_fields.clone()), true),
    ));
    let author_fields = Fields::from(vec![Field::new(
        "institutions",
        DataType::List(Arc::new(Field::new("element", DataType::Struct(inst_fields), true))),
        true,
    )]);
    let mut authorships = ListBuilder::new(StructBuilder::new(author_fields.clone(), vec![Box::new(inst)]))
        .with_field(Arc::new(Field::new("element", DataType::Struct(author_fields), true)));
    let mut abstracts = StringBuilder::new();
    for r in 0..rows {
        ids.field_builder::<StringBuilder>(0)
            .unwrap()
            .append_value(format!("W{r}"));
        ids.field_builder::<StringBuilder>(1)
            .unwrap()
            .append_value(format!("https://doi.org/10.1000/w{r}"));
        ids.append(true);
        let a = authorships.values();
        let i = a.field_builder::<ListBuilder<StructBuilder>>(0).unwrap();
        let s = i.values();
        s.field_builder::<StringBuilder>(0)
            .unwrap()
            .append_value(format!("https://ror.org/0{r}"));
        s.field_builder::<StringBuilder>(1)
            .unwrap()
            .append_value(format!("University {r}"));
        s.append(true);
        i.append(true);
        a.append(true);
        authorships.append(true);
        abstracts.append_value(format!("{r} ").repeat(200));
    }
    let id = Arc::new(StringArray::from_iter_values((0..rows).map(|r| r.to_string()))) as ArrayRef;
    RecordBatch::try_from_iter(vec![
        ("id", id),
        ("ids", Arc::new(ids.finish()) as ArrayRef),
        ("authorships", Arc::new(authorships.finish()) as ArrayRef),
        ("abstract", Arc::new(abstracts.finish()) as ArrayRef),
    ])
    .unwrap()
}

/// Overwrites the column chunks of the leaves whose dotted Parquet path
/// starts with one of `leaves` (every row group) with bytes no decoder
/// reads: any attempt to decode them fails.
fn corrupt_leaves(path: &std::path::Path, leaves: &[&str]) -> Vec<String> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    let mut hit = Vec::new();
    for rg in reader.metadata().row_groups() {
        for c in rg.columns() {
            let name = c.column_path().string();
            if leaves.iter().any(|l| name.starts_with(l)) {
                let (start, len) = c.byte_range();
                bytes[start as usize..(start + len) as usize].fill(0xff);
                hit.push(name);
            }
        }
    }
    std::fs::write(path, bytes).unwrap();
    hit
}

/// Only the leaves under the chosen paths and the kept columns are
/// decoded when no input row is written back: with the abstract's chunk
/// and the sibling leaves of the chosen ones (`ids.openalex`, the
/// institutions' `name`) made undecodable, audits and long output still
/// read, while wide output, which writes every column, fails clearly.
#[test]
fn only_the_needed_parquet_leaves_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = d.join("works.parquet");
    write_parquet(&file, &works_with_abstracts(300));
    let hit = corrupt_leaves(
        &file,
        &[
            "abstract",
            "ids.openalex",
            "authorships.list.element.institutions.list.element.name",
        ],
    );
    assert_eq!(hit.len(), 3, "{hit:?}");

    // An audit of one flat column, and of a path into a struct.
    for col in ["id", "ids.doi"] {
        scan(d, &["works.parquet", "-c", col, "--report", "r.json", "-q"]).ok();
        assert_eq!(read_json(&d.join("r.json"))["records"], 300, "{col}");
    }
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["valid"], 300);
    // Long output: a path two lists deep beside its corrupt sibling, a
    // kept column, and a second chosen column in the same struct's root.
    scan(
        d,
        &[
            "works.parquet",
            "-c",
            "authorships[].institutions[].ror",
            "-c",
            "ids.doi",
            "--keep",
            "id",
            "-o",
            "long.csv",
            "-q",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("long.csv"), b',');
    assert_eq!(t.rows.len(), 600);
    assert_eq!(
        [t.get(2, "id"), t.get(2, "source_column"), t.get(2, "value")],
        ["1", "authorships[].institutions[].ror", "https://ror.org/01"]
    );
    assert_eq!(
        [t.get(3, "value"), t.get(3, "canonical")],
        ["https://doi.org/10.1000/w1", "10.1000/w1"]
    );
    // Wide output writes the abstract too: it must be read, and is broken.
    scan(d, &["works.parquet", "-c", "id", "-o", "wide.csv"]).fails_with(&["works.parquet", "row group 0"]);
    // Keeping the abstract needs it too.
    scan(
        d,
        &[
            "works.parquet",
            "-c",
            "id",
            "--keep",
            "abstract",
            "--long",
            "-o",
            "k.csv",
        ],
    )
    .fails_with(&["works.parquet"]);
}

/// A path resolved in the first input must fit every other input: a
/// second file whose struct lacks the field is a clear error, not a
/// decoder's surprise.
#[test]
fn a_path_checked_in_every_parquet_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_parquet(&d.join("a.parquet"), &works());
    let ids = arrow_array::StructArray::from(vec![(
        Arc::new(Field::new("openalex", DataType::Utf8, true)),
        Arc::new(StringArray::from(vec!["W9"])) as ArrayRef,
    )]);
    let b = RecordBatch::try_from_iter(vec![
        ("id", Arc::new(StringArray::from(vec!["9"])) as ArrayRef),
        ("ids", Arc::new(ids) as ArrayRef),
    ])
    .unwrap();
    write_parquet(&d.join("b.parquet"), &b);
    scan(d, &["a.parquet", "b.parquet", "-c", "ids.doi", "-q"]).fails_with(&["b.parquet", "has no field 'doi'"]);
}

/// A path may end on integers (OpenAlex's `ids.pmid` as a number): read as
/// their decimal text, as a top-level integer column is.
#[test]
fn a_path_ending_on_integers_reads_their_text() {
    use arrow_array::{Int64Array, StructArray};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pmid = Arc::new(Int64Array::from(vec![Some(29456894), None])) as ArrayRef;
    let ids = StructArray::from(vec![(Arc::new(Field::new("pmid", DataType::Int64, true)), pmid)]);
    let batch = RecordBatch::try_from_iter(vec![("ids", Arc::new(ids) as ArrayRef)]).unwrap();
    write_parquet(&d.join("w.parquet"), &batch);
    scan(
        d,
        &[
            "w.parquet",
            "-c",
            "ids.pmid",
            "--expect",
            "pmid",
            "--long",
            "-o",
            "o.csv",
            "-q",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!(
        (t.get(0, "value"), t.get(0, "canonical"), t.get(1, "error")),
        ("29456894", "pmid:29456894", "empty")
    );
}
