//! Values from Python: any object with `__arrow_c_array__` or
//! `__arrow_c_stream__` (the Arrow PyCapsule interface: pyarrow arrays and
//! chunked arrays, Polars series, DuckDB results) read as Arrow arrays of
//! a type `hdlscan_core::strings::IdColumn` reads, integers (read as
//! their decimal text), or lists of either (cells of several values,
//! `items`); anything else is a `TypeError` naming what it got.

use arrow_array::cast::AsArray;
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{Array, ArrayRef, StructArray, make_array};
use arrow_data::ArrayData;
use arrow_pyarrow::FromPyArrow;
use arrow_schema::DataType;
use hdlscan_core::id::{Warning, Warnings};
use hdlscan_core::strings::{IdColumn, StrColumn, integer_text};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::sync::Arc;

/// The arrays `values` holds, in order: one for an array, one per chunk
/// for a stream. A stream of one-column tables (a DuckDB relation, a
/// pyarrow table) reads as that column.
pub fn arrays(values: &Bound<'_, PyAny>) -> PyResult<Vec<ArrayRef>> {
    any_arrays(values)?.into_iter().map(|a| one_column(a, values)).collect()
}

/// The arrays `values` holds, of any type.
fn any_arrays(values: &Bound<'_, PyAny>) -> PyResult<Vec<ArrayRef>> {
    let py = values.py();
    Ok(if values.hasattr(intern!(py, "__arrow_c_array__"))? {
        vec![make_array(ArrayData::from_pyarrow_bound(values)?)]
    } else if let Some(method) = values.getattr_opt(intern!(py, "__arrow_c_stream__"))? {
        match stream(&method.call0()?) {
            Ok(arrays) => arrays,
            // Polars exports a Series of its Null type (all values null, as
            // `pl.Series([None, None])` has it) with a buffer the C data
            // interface says a null array has not, which arrow-rs refuses
            // and pyarrow reads: read it through pyarrow, and give the
            // first error if that fails too.
            Err(e) => py
                .import(intern!(py, "pyarrow"))
                .and_then(|pa| pa.call_method1(intern!(py, "chunked_array"), (values,)))
                .and_then(|c| stream(&c.call_method0(intern!(py, "__arrow_c_stream__"))?))
                .map_err(|_| e)?,
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "expected Arrow strings (a pyarrow Array or ChunkedArray, a Polars Series, anything with \
             __arrow_c_array__ or __arrow_c_stream__), got {}; for a Python list, pass pyarrow.array(values)",
            type_name(values)
        )));
    })
}

/// The warnings of every row of `values`, a list of warning names a row
/// (the `warnings` column `parse` returns; a null row has none), in order
/// across chunks. An unknown name is a `ValueError`, another type a
/// `TypeError`.
pub fn warnings(values: &Bound<'_, PyAny>) -> PyResult<Vec<Warnings>> {
    let mut out = Vec::new();
    for a in any_arrays(values)? {
        let rows: Vec<Option<ArrayRef>> = match a.data_type() {
            DataType::List(_) => a.as_list::<i32>().iter().collect(),
            DataType::LargeList(_) => a.as_list::<i64>().iter().collect(),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "expected lists of warning names (parse's warnings column), got {} of Arrow type {}",
                    type_name(values),
                    a.data_type()
                )));
            }
        };
        for row in rows {
            let mut w = Warnings::EMPTY;
            if let Some(names) = row {
                let names = StrColumn::new(names.as_ref()).map_err(|_| {
                    PyTypeError::new_err(format!("expected lists of strings, got lists of {}", names.data_type()))
                })?;
                for name in names.iter().flatten() {
                    let known = Warning::from_name(name)
                        .ok_or_else(|| PyValueError::new_err(format!("no warning {name:?}")))?;
                    w.add(known);
                }
            }
            out.push(w);
        }
    }
    Ok(out)
}

/// The arrays of a `__arrow_c_stream__` capsule.
fn stream(capsule: &Bound<'_, PyAny>) -> PyResult<Vec<ArrayRef>> {
    let capsule = capsule
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return a capsule"))?;
    let ptr = capsule
        .pointer_checked(Some(c"arrow_array_stream"))
        .map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return an arrow_array_stream capsule"))?;
    // SAFETY: the capsule holds an ArrowArrayStream (its name says so);
    // `from_raw` moves it out and leaves a released one for the capsule's
    // destructor.
    let stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.cast::<FFI_ArrowArrayStream>().as_ptr()) };
    let reader = ArrayStreamReader::try_new(stream).map_err(|e| PyValueError::new_err(e.to_string()))?;
    reader
        .map(|a| {
            let a = a.map_err(|e| PyValueError::new_err(e.to_string()))?;
            a.to_data()
                .validate_full()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(a)
        })
        .collect()
}

/// `array` itself, or the one column of a one-column table; a `TypeError`
/// for any type the parser cannot read.
fn one_column(array: ArrayRef, values: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let array = match array.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => {
            let s = array
                .as_any()
                .downcast_ref::<StructArray>()
                .expect("a struct type is a StructArray");
            s.column(0).clone()
        }
        DataType::Struct(fields) => {
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            return Err(PyTypeError::new_err(format!(
                "expected one column of strings, got {} with {} columns {names:?}: pass the one to parse",
                type_name(values),
                names.len()
            )));
        }
        _ => array,
    };
    // A list of values: a cell of several items (`items`).
    if crate::items::is_list_of_values(array.data_type()) {
        return Ok(array);
    }
    // An integer column (a PubMed id stored as a number) is read as its
    // decimal text, as the CLI reads one from Parquet.
    let array = match integer_text(array.as_ref()) {
        Some(text) => Arc::new(text) as ArrayRef,
        None => array,
    };
    match IdColumn::new(array.as_ref()) {
        Ok(_) => Ok(array),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected strings (string, large_string, string_view, a dictionary of strings, or binary), \
             integers, or lists of them (a cell of several values), got {} of Arrow type {}",
            type_name(values),
            array.data_type()
        ))),
    }
}

/// `module.Class` of `obj`, as a message names it.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let t = obj.get_type();
    let module = t.module().map(|m| m.to_string()).unwrap_or_default();
    let name = t.qualname().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    match module.as_str() {
        "" | "builtins" => name,
        m => format!("{m}.{name}"),
    }
}
