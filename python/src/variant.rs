//! `hdlscan.variant`: how each duplicate cluster member differs from its
//! cluster's first, by `hdlscan_core::variant::variant` (the rule of the
//! duplicates file and of the report's top members), over Arrow arrays, so
//! an engine that finds clusters elsewhere (a Spark `groupBy`) names
//! variants as the CLI does.

use crate::input;
use arrow_array::{Array, StringArray};
use arrow_pyarrow::ToPyArrow;
use hdlscan_core::strings::IdColumn;
use hdlscan_core::variant::variant as rule;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The bytes of every row of `values` (strings or binary), across chunks.
fn raw(values: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Vec<u8>>>> {
    let mut out = Vec::new();
    for a in input::arrays(values)? {
        let col = IdColumn::new(a.as_ref()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        out.extend((0..a.len()).map(|i| col.get_bytes(i).map(<[u8]>::to_vec)));
    }
    Ok(out)
}

/// variant(values, warnings, first_values, first_warnings, *, repair=False)
/// --
///
/// How each member value differs from its cluster's first value, as the
/// duplicates file's `variant` column and the report's top members say it
/// (`same`, `case`, `repair`, `encoding` or `form`), as a
/// `pyarrow.StringArray`, a row per member.
///
/// `values` and `first_values`: Arrow strings (as `parse` takes), the
/// values as read; `warnings` and `first_warnings`: lists of warning names,
/// the `warnings` column `parse` gave each; `repair`: whether they were
/// parsed with `repair=True`. All four have a row per member; a null value
/// is an error.
#[pyfunction]
#[pyo3(signature = (values, warnings, first_values, first_warnings, *, repair=false))]
pub fn variant<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    warnings: &Bound<'py, PyAny>,
    first_values: &Bound<'py, PyAny>,
    first_warnings: &Bound<'py, PyAny>,
    repair: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (m, mw) = (raw(values)?, input::warnings(warnings)?);
    let (f, fw) = (raw(first_values)?, input::warnings(first_warnings)?);
    if [mw.len(), f.len(), fw.len()].iter().any(|&n| n != m.len()) {
        return Err(PyValueError::new_err(format!(
            "variant: values, warnings, first_values and first_warnings need one row per member, got {}, {}, {} and {}",
            m.len(),
            mw.len(),
            f.len(),
            fw.len()
        )));
    }
    let out = (0..m.len())
        .map(|i| match (&m[i], &f[i]) {
            (Some(m), Some(f)) => Ok(rule(m, mw[i], f, fw[i], repair).as_str()),
            _ => Err(PyValueError::new_err(format!("variant: row {i} has a null value"))),
        })
        .collect::<PyResult<Vec<&str>>>()?;
    StringArray::from(out).into_data().to_pyarrow(py)
}
