//! Paths into nested Parquet columns: `ids.doi` into a struct,
//! `locations[].landing_page_url` into a list of structs, whatever a
//! writer named the list's element field. The same path syntax as JSON
//! input (`jsonl::JsonPath`); a path's first key names the top column.
//!
//! A batch's column is flattened once into its leaf array and, per row,
//! the leaf positions the path reaches (several through `[]`; a null on
//! the way is one empty value, an empty list none), so the per-value loop
//! reads values as it reads a flat column's.
//!
//! [`leaves`] numbers the Parquet leaf columns a path (or a whole column)
//! needs, so a scan decodes those and no others (see
//! `parquet_in::ParquetInput::project`).

use super::jsonl::{JsonPath, Step};
use crate::select::did_you_mean;
use anyhow::{Result, anyhow, bail};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, GenericListArray, GenericListViewArray, OffsetSizeTrait};
use arrow_schema::{DataType, Field, Schema};
use std::ops::Range;

/// Whether `s` reads as a path rather than a column name: a `.` or `[]`.
pub fn looks_like_path(s: &str) -> bool {
    s.contains('.') || s.contains("[]") || s.starts_with('/')
}

/// The top column `path` starts in and the steps after it, checked
/// against `schema`: each key a struct field, each `[]` a list, the leaf a
/// string or bytes column.
pub fn resolve(schema: &Schema, path: &JsonPath) -> Result<(usize, Vec<Step>)> {
    let steps = path.steps();
    let Some(Step::Key(top)) = steps.first() else {
        bail!("{path}: a path starts with a column name");
    };
    let Some(col) = schema.fields().iter().position(|f| f.name().as_str() == &**top) else {
        let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
        bail!(
            "no column named '{top}' (the first key of {path}){}",
            did_you_mean(&names, top)
        );
    };
    check(schema.field(col), &steps[1..], path)?;
    Ok((col, steps[1..].to_vec()))
}

/// Checks that `steps` lead from the top column `top` to strings: each key
/// a struct field, each `[]` a list. `path` names the path in errors.
pub fn check(top: &Field, steps: &[Step], path: &JsonPath) -> Result<()> {
    let mut field = top;
    for step in steps {
        field = match (step, field.data_type()) {
            (Step::Key(k), DataType::Struct(children)) => match children.iter().find(|c| c.name().as_str() == &**k) {
                Some(c) => c,
                None => {
                    let names: Vec<String> = children.iter().map(|c| c.name().clone()).collect();
                    bail!(
                        "{path}: {} has no field '{k}'{} (its fields: {})",
                        field.name(),
                        did_you_mean(&names, k),
                        super::describe_columns(names.iter().map(String::as_str))
                    )
                }
            },
            (Step::Key(k), other) => bail!(
                "{path}: {} is {other}, not a struct: it has no field '{k}'",
                field.name()
            ),
            (Step::Each, other) => match list_item(other) {
                Some(item) => item,
                None => bail!("{path}: {} is {other}, not a list: drop the []", field.name()),
            },
        };
    }
    if !(crate::strings::is_string_type(field.data_type())
        || field.data_type().is_integer()
        || matches!(
            field.data_type(),
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView
        ))
    {
        bail!(
            "{path} ends on {}, of type {}: a path must end on strings or integers (add [] for a list, or a field for a struct)",
            field.name(),
            field.data_type()
        );
    }
    Ok(())
}

/// The element field of a list of any of Arrow's kinds (`List`,
/// `LargeList`, `FixedSizeList`, `ListView`, `LargeListView`): what a
/// path's `[]` steps into. None for any other type.
pub fn list_item(dt: &DataType) -> Option<&Field> {
    match dt {
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::FixedSizeList(item, _)
        | DataType::ListView(item)
        | DataType::LargeListView(item) => Some(item),
        _ => None,
    }
}

/// Each row's elements of the list array `a` (any kind `list_item`
/// takes) as the first and past-the-last place in its values array, and
/// that array. Places are `u32`, as [`Flat`]'s are.
fn list_elements(a: &ArrayRef) -> Result<(Vec<(u32, u32)>, ArrayRef)> {
    fn spans<O: OffsetSizeTrait>(l: &GenericListArray<O>) -> Vec<(u32, u32)> {
        l.offsets().windows(2).map(|w| (w[0].as_usize() as u32, w[1].as_usize() as u32)).collect()
    }
    fn view_spans<O: OffsetSizeTrait>(l: &GenericListViewArray<O>) -> Vec<(u32, u32)> {
        let sizes = l.value_sizes().iter();
        let span = |(o, s): (&O, &O)| (o.as_usize() as u32, (o.as_usize() + s.as_usize()) as u32);
        l.value_offsets().iter().zip(sizes).map(span).collect()
    }
    let values = match a.data_type() {
        DataType::List(_) => a.as_list::<i32>().values(),
        DataType::LargeList(_) => a.as_list::<i64>().values(),
        DataType::ListView(_) => a.as_list_view::<i32>().values(),
        DataType::LargeListView(_) => a.as_list_view::<i64>().values(),
        DataType::FixedSizeList(..) => a.as_fixed_size_list().values(),
        other => bail!("not a list: {other}"),
    };
    // Every place fits in a u32 below `DEAD_END`.
    if values.len() >= DEAD_END as usize {
        bail!("a list column of {} values in one batch: too many", values.len());
    }
    let spans = match a.data_type() {
        DataType::List(_) => spans(a.as_list::<i32>()),
        DataType::LargeList(_) => spans(a.as_list::<i64>()),
        DataType::ListView(_) => view_spans(a.as_list_view::<i32>()),
        DataType::LargeListView(_) => view_spans(a.as_list_view::<i64>()),
        _ => {
            let n = a.as_fixed_size_list().value_length() as u32;
            (0..a.len() as u32).map(|i| (i * n, i * n + n)).collect()
        }
    };
    Ok((spans, values.clone()))
}

/// Leaf columns in a Parquet file under a column of this Arrow type: one
/// per primitive, depth first, as the Parquet schema numbers them (a list
/// or map adds groups, never leaves).
pub fn leaf_count(dt: &DataType) -> usize {
    match dt {
        DataType::Struct(children) => children.iter().map(|c| leaf_count(c.data_type())).sum(),
        DataType::Map(item, _) => leaf_count(item.data_type()),
        _ => list_item(dt).map_or(1, |item| leaf_count(item.data_type())),
    }
}

/// The Parquet leaf numbers a scan needs of the top column `col` of
/// `schema` (the Arrow schema of the whole file): all its leaves, or with
/// `steps` (checked by [`check`]) the one leaf the path ends on, so that a
/// struct's or a list element's other fields are not decoded.
pub fn leaves(schema: &Schema, col: usize, steps: Option<&[Step]>) -> Result<Range<usize>> {
    let fields = schema.fields();
    let mut start: usize = fields[..col].iter().map(|f| leaf_count(f.data_type())).sum();
    let mut field: &Field = &fields[col];
    for step in steps.unwrap_or_default() {
        field = match (step, field.data_type()) {
            (Step::Key(k), DataType::Struct(children)) => {
                let i = children
                    .iter()
                    .position(|c| c.name().as_str() == &**k)
                    .ok_or_else(|| anyhow!("{} has no field '{k}'", field.name()))?;
                start += children[..i].iter().map(|c| leaf_count(c.data_type())).sum::<usize>();
                &children[i]
            }
            (Step::Each, other) => {
                list_item(other).ok_or_else(|| anyhow!("{} is {other}: the path does not fit it", field.name()))?
            }
            (_, other) => bail!("{} is {other}: the path does not fit it", field.name()),
        };
    }
    Ok(start..start + leaf_count(field.data_type()))
}

/// A column flattened along a path: the leaf array, and for row `r` the
/// leaf positions `idx[starts[r]..starts[r + 1]]`, [`DEAD_END`] where the
/// path met a null.
pub struct Flat {
    pub leaf: ArrayRef,
    starts: Vec<u32>,
    idx: Vec<u32>,
}

/// In [`Flat`]'s positions: the path met a null there (a null struct, list
/// or leaf), which is one empty value.
const DEAD_END: u32 = u32::MAX;

impl Flat {
    pub fn count(&self, row: usize) -> usize {
        (self.starts[row + 1] - self.starts[row]) as usize
    }

    /// The leaf position of value `i` of `row`; None for an empty value
    /// (a null on the way).
    pub fn at(&self, row: usize, i: usize) -> Option<usize> {
        let at = self.idx[self.starts[row] as usize + i];
        (at != DEAD_END).then_some(at as usize)
    }
}

/// Marks the places in `idx` where `a` is null as dead ends.
fn dead_ends(idx: &mut [u32], a: &dyn Array) {
    for i in idx.iter_mut().filter(|i| **i != DEAD_END && a.is_null(**i as usize)) {
        *i = DEAD_END;
    }
}

/// Flattens `array` (a batch's top column) along `steps` (as `resolve`
/// gave them). As for JSON paths (`io::jsonl::scan`), every place the path
/// reaches is one value: a null on the way (struct, list or leaf) is one
/// empty value in its place; only an empty list reaches nothing.
pub fn flatten(array: &ArrayRef, steps: &[Step]) -> Result<Flat> {
    let rows = array.len();
    // Per row, positions in the current array: starts as the identity.
    let mut starts: Vec<u32> = (0..=rows as u32).collect();
    let mut idx: Vec<u32> = (0..rows as u32).collect();
    let mut current = array.clone();
    for step in steps {
        current = match step {
            Step::Key(k) => {
                let Some(s) = current.as_struct_opt() else {
                    bail!("not a struct: {}", current.data_type())
                };
                // A key keeps each place, a dead end where the struct is null.
                dead_ends(&mut idx, s);
                // Checked against the file's schema; a batch read otherwise
                // (another file, a projection) is an error, not a panic.
                match s.column_by_name(k) {
                    Some(c) => c.clone(),
                    None => bail!("no field '{k}' in {}", current.data_type()),
                }
            }
            Step::Each => {
                let (elements, values) = list_elements(&current)?;
                let (mut new_starts, mut new_idx) = (Vec::with_capacity(starts.len()), Vec::with_capacity(idx.len()));
                new_starts.push(0u32);
                for w in starts.windows(2) {
                    for &i in &idx[w[0] as usize..w[1] as usize] {
                        if i != DEAD_END && current.is_valid(i as usize) {
                            let (a, b) = elements[i as usize];
                            new_idx.extend(a..b);
                        } else {
                            new_idx.push(DEAD_END);
                        }
                    }
                    new_starts.push(new_idx.len() as u32);
                }
                (starts, idx) = (new_starts, new_idx);
                values
            }
        };
    }
    // A leaf's nulls are dead ends too (its values are read through `at`,
    // which the leaf's own validity would also answer; marked for one rule).
    dead_ends(&mut idx, current.as_ref());
    Ok(Flat {
        leaf: current,
        starts,
        idx,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
    use arrow_array::{RecordBatch, StringArray};
    use arrow_schema::Fields;
    use std::sync::Arc;

    /// OpenAlex-shaped: `ids` a struct with `doi`, `locations` a list of
    /// structs with `landing_page_url`.
    fn batch() -> RecordBatch {
        let ids_fields = Fields::from(vec![Field::new("doi", DataType::Utf8, true)]);
        let mut ids = StructBuilder::from_fields(ids_fields.clone(), 3);
        let loc_fields = Fields::from(vec![Field::new("landing_page_url", DataType::Utf8, true)]);
        let mut locs = ListBuilder::new(StructBuilder::from_fields(loc_fields.clone(), 3)).with_field(Arc::new(
            Field::new("element", DataType::Struct(loc_fields.clone()), true),
        ));
        for (doi, urls) in [
            (
                Some("10.1/a"),
                vec![Some("https://doi.org/10.1/a"), Some("https://x.org/1")],
            ),
            (None, vec![]),
            (Some("10.1/c"), vec![None]),
        ] {
            ids.field_builder::<StringBuilder>(0).unwrap().append_option(doi);
            ids.append(true);
            for u in urls {
                let s = locs.values();
                s.field_builder::<StringBuilder>(0).unwrap().append_option(u);
                s.append(true);
            }
            locs.append(true);
        }
        let ids = Arc::new(ids.finish()) as ArrayRef;
        let locs = Arc::new(locs.finish()) as ArrayRef;
        let id = Arc::new(StringArray::from(vec!["w1", "w2", "w3"])) as ArrayRef;
        RecordBatch::try_from_iter(vec![("id", id), ("ids", ids), ("locations", locs)]).unwrap()
    }

    fn values(b: &RecordBatch, path: &str) -> Vec<Vec<String>> {
        let p = JsonPath::parse(path).unwrap();
        let (col, steps) = resolve(&b.schema(), &p).unwrap();
        let flat = flatten(b.column(col), &steps).unwrap();
        let leaf = flat.leaf.as_string::<i32>();
        (0..b.num_rows())
            .map(|r| {
                (0..flat.count(r))
                    .map(|i| flat.at(r, i).map_or(String::new(), |at| leaf.value(at).to_string()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn structs_and_lists_of_structs() {
        let b = batch();
        // A null leaf is one empty value; an empty list none.
        assert_eq!(values(&b, "ids.doi"), [vec!["10.1/a"], vec![""], vec!["10.1/c"]]);
        assert_eq!(
            values(&b, "locations[].landing_page_url"),
            [vec!["https://doi.org/10.1/a", "https://x.org/1"], vec![], vec![""]]
        );
        assert_eq!(values(&b, "id"), [vec!["w1"], vec!["w2"], vec!["w3"]]);
    }

    #[test]
    fn paths_that_do_not_fit_the_schema_say_why() {
        let b = batch();
        let err = |p: &str| {
            resolve(&b.schema(), &JsonPath::parse(p).unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(err("ids.pmid").contains("has no field 'pmid' (its fields: doi)"));
        assert!(err("locations.landing_page_url").contains("not a struct"));
        assert!(err("ids").contains("must end on strings"));
        assert!(err("nope.x").contains("no column named 'nope'"));
    }

    #[test]
    fn leaves_are_numbered_as_parquet_numbers_them() {
        // id | ids.doi | locations.list.element.landing_page_url
        let b = batch();
        let schema = b.schema();
        let at = |col, path: Option<&str>| {
            let steps = path.map(|p| resolve(&schema, &JsonPath::parse(p).unwrap()).unwrap().1);
            leaves(&schema, col, steps.as_deref()).unwrap()
        };
        assert_eq!(at(0, None), 0..1);
        assert_eq!(at(1, None), 1..2);
        assert_eq!(at(1, Some("ids.doi")), 1..2);
        assert_eq!(at(2, None), 2..3);
        assert_eq!(at(2, Some("locations[].landing_page_url")), 2..3);
        let path = JsonPath::parse("ids.doi").unwrap();
        assert!(leaves(&schema, 2, Some(&path.steps()[1..])).is_err());
        // The file numbers them so: a projection by these numbers reads
        // the path's leaf and nothing else.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("w.parquet");
        let mut w =
            parquet::arrow::ArrowWriter::try_new(std::fs::File::create(&file).unwrap(), schema.clone(), None).unwrap();
        w.write(&b).unwrap();
        w.close().unwrap();
        let mut input = crate::io::parquet_in::ParquetInput::open(&file).unwrap();
        assert_eq!(
            input.project(at(2, Some("locations[].landing_page_url"))),
            [None, None, Some(0)]
        );
        let got = input.read_row_group(0).unwrap().next().unwrap().unwrap();
        assert_eq!(got.num_columns(), 1);
        let flat = flatten(
            got.column(0),
            &resolve(&schema, &JsonPath::parse("locations[].landing_page_url").unwrap())
                .unwrap()
                .1,
        )
        .unwrap();
        assert_eq!(flat.count(0), 2);
    }
}
