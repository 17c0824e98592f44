//! `repair`, `max_len`, `expect`, `resolvers` and `split` as Python passes
//! them, read as the CLI reads `--repair`, `--max-len`, `--expect`,
//! `--resolver` and `--split`
//! (`hdlscan_core::options`, `Split::at`): a parser per column and the
//! split. A value no flag would take is a `ValueError` saying why.

use hdlscan_core::id::{Options, Parser, Split};
use hdlscan_core::options::{parser_options, split_expect};
use hdlscan_core::select;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
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

    /// A parser per column of `columns`: `expect` holds `NS` for all and
    /// `COLUMN=NS` for the columns `COLUMN` selects, as `-c` selects them
    /// (a name, a number, a pattern); one that selects none is an error.
    pub fn column_parsers(&self, columns: &[String]) -> PyResult<Vec<Parser>> {
        let mut targets = Vec::with_capacity(self.expect.len());
        for arg in &self.expect {
            targets.push(match split_expect(arg) {
                (None, _) => None,
                (Some(c), _) => Some(
                    select::one(columns, c, "the report's columns")
                        .map_err(|e| value_error(format!("expect={arg:?}: {e}")))?,
                ),
            });
        }
        (0..columns.len())
            .map(|i| self.parser_where(|k| targets[k].as_ref().is_none_or(|t| t.contains(&i))))
            .collect()
    }

    /// The parser of column `column` (`parse(column=)`): `expect`'s `NS`,
    /// and its `COLUMN=NS` where `COLUMN` selects this column; one that
    /// selects another column does not apply.
    pub fn column_parser(&self, column: &str) -> PyResult<Parser> {
        let one = [column.to_string()];
        self.parser_where(|k| {
            split_expect(&self.expect[k])
                .0
                .is_none_or(|c| select::one(&one, c, "").is_ok())
        })
    }

    /// A parser with the `expect` entries `applies` takes, by index.
    fn parser_where(&self, applies: impl Fn(usize) -> bool) -> PyResult<Parser> {
        let mut opts = self.base()?;
        for (k, arg) in self.expect.iter().enumerate() {
            if applies(k) {
                opts.expect(split_expect(arg).1).map_err(value_error)?;
            }
        }
        Ok(Parser::new(opts))
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
