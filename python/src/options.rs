//! `repair`, `max_len`, `expect`, `resolvers` and `split` as Python passes
//! them, read as the CLI reads `--repair`, `--max-len`, `--expect`,
//! `--resolver` and `--split`
//! (`hdlscan_core::options`, `Split::at`): a parser per column and the
//! split. A value no flag would take is a `ValueError` saying why.

use hdlscan_core::id::{Options, Parser, Split};
use hdlscan_core::options::{parser_options, split_expect};
use hdlscan_core::select;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde::{Deserialize, Serialize};

/// Values longer than this many bytes are `too_long`: the CLI's default
/// `--max-len`.
pub const MAX_LEN: usize = 2048;

/// The options as given: what a report records, and what a worker's
/// partial state carries to rebuild its parsers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Given {
    pub repair: bool,
    pub max_len: usize,
    pub expect: Vec<String>,
    pub resolvers: Vec<String>,
    pub split: Option<String>,
}

/// The strings of a keyword argument that takes several (`expect`,
/// `resolvers`, a report's `columns` and `inputs`): a list or tuple of
/// them, or one string as one item (`expect="doi"`, which a sequence
/// reading would take as the namespaces `d`, `o`, `i`); `None` is none.
/// Anything else is a `TypeError` naming the argument.
pub fn names(value: Option<&Bound<'_, PyAny>>, argument: &str) -> PyResult<Vec<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(one) = value.cast::<PyString>() {
        return Ok(vec![one.to_str()?.to_owned()]);
    }
    value.extract::<Vec<String>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{argument}: expected a string or a list of strings, got {}",
            crate::input::type_name(value)
        ))
    })
}

/// A count a keyword argument gives (`max_len`, `first_record`): a
/// negative one is a `ValueError` naming the argument, where pyo3's own
/// conversion raised `OverflowError: can't convert negative int to
/// unsigned`, naming none.
pub fn count(value: i64, argument: &str) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| value_error(format!("{argument}={value}: give 0 or more")))
}

fn value_error(e: String) -> PyErr {
    PyValueError::new_err(e)
}

impl Given {
    fn base(&self) -> PyResult<Options> {
        parser_options(self.repair, self.max_len, &self.resolvers).map_err(value_error)
    }

    /// The parser of values that have no column (`parse`): `expect` holds
    /// namespaces only.
    pub fn parser(&self) -> PyResult<Parser> {
        let mut opts = self.base()?;
        for ns in &self.expect {
            if let (Some(_), _) = split_expect(ns) {
                return Err(value_error(format!(
                    "expect={ns:?}: COLUMN=NS names a column of a Report; parse reads one column: give NS"
                )));
            }
            opts.expect(ns).map_err(value_error)?;
        }
        Ok(Parser::new(opts))
    }

    /// A parser per column of `columns`, with the namespaces
    /// [`Given::column_expects`] gives it.
    pub fn column_parsers(&self, columns: &[String]) -> PyResult<Vec<Parser>> {
        self.column_expects(columns)?
            .iter()
            .map(|expect| {
                let mut opts = self.base()?;
                for ns in expect {
                    opts.expect(ns).map_err(value_error)?;
                }
                Ok(Parser::new(opts))
            })
            .collect()
    }

    /// The namespaces each column of `columns` expects: `expect`'s `NS`
    /// for all and `COLUMN=NS` for the columns `COLUMN` selects, as `-c`
    /// selects them (a name, a number, a pattern); one that selects none
    /// is an error.
    pub fn column_expects(&self, columns: &[String]) -> PyResult<Vec<Vec<String>>> {
        let mut per_column = vec![Vec::new(); columns.len()];
        for arg in &self.expect {
            let (column, ns) = split_expect(arg);
            let chosen = match column {
                None => (0..columns.len()).collect(),
                Some(c) => select::one(columns, c, "the report's columns")
                    .map_err(|e| value_error(format!("expect={arg:?}: {e}")))?,
            };
            for i in chosen {
                per_column[i].push(ns.to_string());
            }
        }
        Ok(per_column)
    }

    /// The split, if one was given.
    pub fn split(&self) -> PyResult<Option<Split>> {
        self.split.as_deref().map(Split::at).transpose().map_err(value_error)
    }

    /// The report's `options`, as the CLI's report names them.
    pub fn shown(&self) -> serde_json::Value {
        serde_json::json!({
            "repair": self.repair,
            "max_len": self.max_len,
            "resolvers": self.resolvers,
            "expect": self.expect,
            "split": self.split,
        })
    }
}
