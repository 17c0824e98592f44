//! The Python package `hdlscan`'s extension module (`hdlscan._hdlscan`):
//! [`parse`], [`variant::variant`], [`select_columns`], [`expect_by_column`] and the [`report::Report`] over Arrow's C data interface,
//! standing on `hdlscan-core` so that Python gets the CLI's columns,
//! values and report, not a copy of them.
//!
//! - `input`: Python objects read as Arrow string arrays.
//! - `items`: list arrays read as cells of several values.
//! - `options`: `repair`, `expect`, `resolvers`, `split` into parsers.
//! - `report`: the typed report, fed, merged, shipped and printed.
//! - `variant`: a cluster member's variant, by the duplicates' rule.
//!
//! The Python side (`python/hdlscan/`) adds the Polars namespace and the
//! DuckDB function; `hdlscan.spark` stands on this module too.

mod input;
mod items;
mod options;
mod report;
mod variant;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, downcast_dictionary_array, make_array};
use arrow_buffer::ArrowNativeType;
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use hdlscan_core::classify::{SPLIT_LEAD, Value, classify_cells};
use hdlscan_core::id::{Parser, Split};
use options::Given;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Classifies every value of `arrays` in order (records numbered from
/// `first_record`), calling `each` with each value's record and 1-based
/// place in its cell, into one batch. A list array is a column of cells
/// of several items (`items`): its batch is led by `record`,
/// `value_index` and `value`, as `split`'s is.
fn classify_arrays(
    arrays: &[ArrayRef],
    parser: &Parser,
    split: Option<&Split>,
    first_record: u64,
    mut each: impl FnMut(u64, u32, &Value<'_>),
) -> PyResult<RecordBatch> {
    let mut batches = Vec::with_capacity(arrays.len().max(1));
    let mut record = first_record;
    for a in arrays {
        let base = record;
        let batch = match items::items(a.as_ref()) {
            Some(items) => classify_items(&items, parser, split, base, &mut each)?,
            None => classify_cells(a.as_ref(), parser, split, base, |v| {
                each(base + v.row as u64, v.index, v)
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))?,
        };
        batches.push(batch);
        record += a.len() as u64;
    }
    if batches.len() == 1 {
        return Ok(batches.pop().expect("one batch"));
    }
    // None (an empty stream): the schema of an empty column's.
    let schema = match batches.first() {
        Some(b) => b.schema(),
        None => classify_cells(&StringArray::new_null(0), parser, split, 1, |_| {})
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .schema(),
    };
    arrow_select::concat::concat_batches(&schema, &batches).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `classify_cells` of a list column's items, a row per value led by its
/// cell's record, its place among the cell's values and its text.
fn classify_items(
    items: &items::Items,
    parser: &Parser,
    split: Option<&Split>,
    base: u64,
    each: &mut impl FnMut(u64, u32, &Value<'_>),
) -> PyResult<RecordBatch> {
    use arrow_array::builder::{StringBuilder, UInt32Builder, UInt64Builder};
    let n = items.cell.len();
    let (mut records, mut indices, mut text) = (
        UInt64Builder::with_capacity(n),
        UInt32Builder::with_capacity(n),
        StringBuilder::with_capacity(n, n * 32),
    );
    let (mut last, mut index) = (None, 0u32);
    let spec = classify_cells(items.flat.as_ref(), parser, split, base, |v| {
        let cell = items.cell[v.row];
        if last != Some(cell) {
            (last, index) = (Some(cell), 0);
        }
        index += 1;
        let record = base + cell as u64;
        records.append_value(record);
        indices.append_value(index);
        text.append_value(String::from_utf8_lossy(v.raw));
        each(record, index, v);
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `split`'s batch opens with its own record, value_index and value
    // (of the items, not the cells): replaced.
    let skip = if split.is_some() { SPLIT_LEAD.len() } else { 0 };
    let schema = spec.schema();
    let mut fields: Vec<Field> = vec![
        Field::new(SPLIT_LEAD[0], DataType::UInt64, false),
        Field::new(SPLIT_LEAD[1], DataType::UInt32, false),
        Field::new(SPLIT_LEAD[2], DataType::Utf8, false),
    ];
    fields.extend(schema.fields().iter().skip(skip).map(|f| f.as_ref().clone()));
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(records.finish()),
        Arc::new(indices.finish()),
        Arc::new(text.finish()),
    ];
    columns.extend(spec.columns().iter().skip(skip).cloned());
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A dictionary of strings as plain strings (a loop of its own: arrow's
/// `take` kernels would add 2 MB to the module for SPEC's three
/// dictionary columns).
fn decoded(c: &dyn Array) -> ArrayRef {
    downcast_dictionary_array!(
        c => match c.values().as_string_opt::<i32>() {
            Some(values) => Arc::new(
                c.keys().iter().map(|k| k.map(|k| values.value(k.as_usize()))).collect::<StringArray>(),
            ),
            None => make_array(c.to_data()),
        },
        _ => make_array(c.to_data()),
    )
}

/// `batch` in types Spark reads: dictionaries decoded to their values,
/// unsigned integers (`record`, `value_index`) as `int64`, so that a Spark
/// task hands the batch on without a cast of its own.
fn spark_types(batch: RecordBatch) -> PyResult<RecordBatch> {
    let err = |e: arrow_schema::ArrowError| PyValueError::new_err(e.to_string());
    let mut fields = Vec::with_capacity(batch.num_columns());
    let mut columns = Vec::with_capacity(batch.num_columns());
    for (f, c) in batch.schema().fields().iter().zip(batch.columns()) {
        let c: ArrayRef = match c.data_type() {
            DataType::Dictionary(_, _) => decoded(c.as_ref()),
            DataType::UInt64 => Arc::new(c.as_primitive::<UInt64Type>().unary::<_, Int64Type>(|v| v as i64)),
            DataType::UInt32 => Arc::new(c.as_primitive::<UInt32Type>().unary::<_, Int64Type>(i64::from)),
            _ => c.clone(),
        };
        fields.push(Field::new(f.name(), c.data_type().clone(), f.is_nullable()));
        columns.push(c);
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(err)
}

/// parse(values, *, repair=False, expect=(), resolvers=(), split=None, max_len=2048, first_record=1, spark_types=False)
/// --
///
/// Parses every value of `values` and returns a `pyarrow.RecordBatch` of
/// SPEC's columns (`hdlscan.SPEC`: kind, namespace, prefix, suffix,
/// canonical, uri, url, resolver, query, fragment, error, warnings), a row
/// per value, with the values `hdlscan parse` and `hdlscan scan` give.
///
/// `values`: anything with `__arrow_c_array__` or `__arrow_c_stream__`
/// (a pyarrow Array or ChunkedArray, a Polars Series, a one-column pyarrow
/// Table or DuckDB relation) of strings (string, large_string,
/// string_view, a dictionary of strings) or binary. A null is an `empty`
/// value. A list of them is a cell of several values (the elements a
/// path through `[]` reached), a row per value led by `record`,
/// `value_index` and `value` as under `split`; an empty or null list is
/// one empty value, as the CLI counts a path that found nothing.
/// Anything else raises `TypeError`.
///
/// `repair`, `expect` (namespaces: `("doi",)`, or one: `"doi"`),
/// `resolvers` (hosts: `("repository.example.edu/handle",)`) and
/// `max_len` are the CLI's
/// `--repair`, `--expect`, `--resolver` and `--max-len`; a value no flag
/// takes raises `ValueError`.
///
/// `split`: the CLI's `--split SEP` (`"||"`, or `"auto"` for SPEC's
/// separators in cells that hold several identifiers). Each value of a
/// cell is then a row, led by where it came from, as `scan`'s long output
/// says it: `record` (the position of its cell in `values`, counted from
/// `first_record`), `value_index` (its 1-based place in the cell) and
/// `value` (its text); a cell that is not split is one value, an empty
/// one too.
///
/// `spark_types`: the columns in types Spark reads
/// (`kind`, `namespace` and `error` as strings, `record` and
/// `value_index` as int64), as `hdlscan.spark` returns them.
#[pyfunction]
#[pyo3(signature = (values, *, repair=false, expect=None, resolvers=None, split=None, max_len=options::MAX_LEN as i64, first_record=1, spark_types=false))]
#[allow(clippy::too_many_arguments)]
fn parse<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    repair: bool,
    expect: Option<&Bound<'py, PyAny>>,
    resolvers: Option<&Bound<'py, PyAny>>,
    split: Option<String>,
    max_len: i64,
    first_record: i64,
    spark_types: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (max_len, first_record) = (
        options::count(max_len, "max_len")?,
        options::count(first_record, "first_record")?,
    );
    let given = Given {
        repair,
        max_len: max_len as usize,
        expect: options::names(expect, "expect")?,
        resolvers: options::names(resolvers, "resolvers")?,
        split,
    };
    let parser = given.parser()?;
    let split = given.split()?;
    let arrays = input::arrays(values)?;
    let batch = py.detach(|| {
        let batch = classify_arrays(&arrays, &parser, split.as_ref(), first_record, |_, _, _| {})?;
        if spark_types {
            self::spark_types(batch)
        } else {
            Ok(batch)
        }
    })?;
    batch.to_pyarrow(py)
}

/// select_columns(names, selectors, shown)
/// --
///
/// The columns of `names` that `selectors` choose, as indices, by the
/// CLI's `-c` rules: an exact name, a trimmed or case-blind name when one
/// fits, a 1-based number, or a pattern (`*`, `?`); each column once, in
/// the order chosen. A selector that chooses none raises `ValueError`,
/// naming `shown` and listing the columns, with the nearest name.
#[pyfunction]
fn select_columns(names: Vec<String>, selectors: Vec<String>, shown: &str) -> PyResult<Vec<usize>> {
    hdlscan_core::select::select(&names, &selectors, shown).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// expect_by_column(columns, expect)
/// --
///
/// The namespaces each of `columns` expects, as lists for `parse`'s
/// `expect`: `expect`'s `NS` for every column, `COLUMN=NS` for the
/// columns `COLUMN` selects by the CLI's `-c` rules (a `Report` resolves
/// them so). One that selects none raises `ValueError`.
#[pyfunction]
fn expect_by_column(columns: Vec<String>, expect: Vec<String>) -> PyResult<Vec<Vec<String>>> {
    let given = Given {
        expect,
        ..Given::default()
    };
    given.column_expects(&columns)
}

/// added_prefix(names, long, prefix=None)
/// --
///
/// The prefix of the columns a scan adds, as the CLI's
/// `--column-prefix` rule gives it: `prefix` when given (`ValueError`
/// when an added column would then be named like one of `names`, in any
/// case), else none unless one of `names` is named like an added column
/// (OpenAPC's `url`), then the first free of `hdl_`, `hdl2_`, ….
/// `names` are the output's own columns: the input's in the wide shape,
/// the kept ones in the long shape (`long`).
#[pyfunction]
#[pyo3(signature = (names, long, prefix=None))]
fn added_prefix(names: Vec<String>, long: bool, prefix: Option<String>) -> PyResult<String> {
    use hdlscan_core::columns;
    let Some(prefix) = prefix else {
        return Ok(columns::free_prefix(&names, long));
    };
    let checked = match long {
        true => {
            let keep: Vec<_> = names
                .iter()
                .map(|n| Arc::new(Field::new(n, DataType::Utf8, true)))
                .collect();
            columns::long_fields(&prefix, &keep, true, DataType::Utf8).map(drop)
        }
        false => columns::fields(&prefix, &names).map(drop),
    };
    // The message is the CLI's, which names its flag; here the option is
    // a keyword argument.
    checked.map_err(|e| {
        let m = e.to_string().replace("--column-prefix hdl_", "column_prefix=\"hdl_\"");
        PyValueError::new_err(m.replace("--column-prefix", "column_prefix"))
    })?;
    Ok(prefix)
}

#[pymodule]
fn _hdlscan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(variant::variant, m)?)?;
    m.add_function(wrap_pyfunction!(select_columns, m)?)?;
    m.add_function(wrap_pyfunction!(expect_by_column, m)?)?;
    m.add_function(wrap_pyfunction!(added_prefix, m)?)?;
    m.add_class::<report::Report>()?;
    m.add("SPEC", hdlscan_core::SPEC.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
