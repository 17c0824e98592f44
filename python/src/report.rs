//! `hdlscan.Report`: the CLI's typed report (`hdlscan_core::Report`) fed
//! with batches of values, merged across workers, and printed by the
//! core's printers. Its state is the core's `Stats` (whose examples are
//! the earliest by place whatever the merge order), the inputs' record
//! counts, and, for [`Report::compute_clusters`], the valid values'
//! canonicals; it travels between processes as JSON ([`State`]).

use crate::input;
use crate::options::Given;
use arrow_pyarrow::ToPyArrow;
use hdlscan_core::at::At;
use hdlscan_core::clusters::{self, Member, Repeated, Summary, TopCluster, TopMember};
use hdlscan_core::id::{Parser, Split, Warnings};
use hdlscan_core::report::{InputInfo, Made, Stats, example_text};
use hdlscan_core::variant::Variant;
use hdlscan_core::{Gate, Markup, Pages, Severity, select};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Bumped when [`State`]'s form changes: a partial from another version
/// is refused, not misread.
const STATE_VERSION: u32 = 1;

/// What a report holds besides its parsers: all a worker ships.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct State {
    version: u32,
    columns: Vec<String>,
    inputs: Vec<String>,
    /// Records read from each input, counted on the first column's values.
    input_records: Vec<u64>,
    given: Given,
    stats: Stats,
    keep_canonicals: bool,
    members: Vec<MemberState>,
    elapsed_seconds: f64,
    /// How the run was made beyond the values (`set_run`): the driver's,
    /// never a worker's, so partials without it still read.
    #[serde(default)]
    run: Run,
}

/// What `set_run` tells the report of the run, which the values do not:
/// the CLI's `run` section, field for field.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Run {
    output: Option<String>,
    /// The duplicates file's path, as the report's `duplicates.file`.
    #[serde(default)]
    duplicates: Option<String>,
    long: Option<bool>,
    column_prefix: String,
    formats: Vec<String>,
    bytes: Vec<u64>,
    /// Options past the parser's (`keep`, `no_quoting`, ...), added to
    /// `options` in this order.
    options: serde_json::Map<String, serde_json::Value>,
}

/// A kept valid value, as JSON carries it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct MemberState {
    canonical: String,
    at: At,
    value: String,
    warnings: u64,
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Report(columns, inputs=(), *, repair=False, expect=(), resolvers=(), split=None, max_len=2048, keep_canonicals=True)
/// --
///
/// The report `hdlscan scan --report` writes, for values given from
/// Python: fed with `add`, merged across workers with `merge` (or shipped
/// as `to_partial()` bytes and read back with `Report.from_partial`),
/// printed as the CLI prints it (`to_json`, `to_markdown`, `to_html`,
/// `summary`), judged with `check` (a `--fail-if` gate).
///
/// `columns`: the chosen columns' names, in order (`add` names one; a
/// string is one column); `inputs`: the inputs' names (files), which the
/// examples cite; records
/// are counted on the first column's values. `repair`, `expect`
/// (`"NS"` for every column, `"COLUMN=NS"` for one), `resolvers`, `split`
/// and `max_len` are the CLI's flags. Examples are the earliest values by
/// (input, record, column, place in the cell), as the CLI chooses them,
/// whatever order values are added or reports merged in.
///
/// `keep_canonicals`: keep every valid value's canonical, place and text in
/// memory (and in partials) for `compute_clusters`; a worker whose
/// clusters are found elsewhere (a Spark `groupBy`, then `set_clusters`)
/// passes False.
#[pyclass(module = "hdlscan")]
pub struct Report {
    state: State,
    parsers: Vec<Parser>,
    split: Option<Split>,
    members: Vec<Member>,
    clusters: Option<Summary>,
    gates: Vec<Gate>,
}

impl Report {
    fn from_state(mut state: State) -> PyResult<Report> {
        if state.columns.is_empty() {
            return Err(value_error("a report needs at least one column"));
        }
        let parsers = state.given.column_parsers(&state.columns)?;
        let split = state.given.split()?;
        let members = std::mem::take(&mut state.members)
            .into_iter()
            .map(|m| Member {
                canonical: m.canonical,
                at: m.at,
                value: m.value.into_bytes(),
                warnings: Warnings::from_bits(m.warnings as _),
            })
            .collect();
        if state.stats.columns.len() != state.columns.len() || state.input_records.len() != state.inputs.len().max(1) {
            return Err(value_error(
                "a partial report whose counts do not match its columns or inputs",
            ));
        }
        Ok(Report {
            state,
            parsers,
            split,
            members,
            clusters: None,
            gates: Vec::new(),
        })
    }

    /// The core's report of what was added, judged by the checked gates.
    fn build(&self) -> PyResult<hdlscan_core::Report> {
        let s = &self.state;
        let inputs = s
            .inputs
            .iter()
            .zip(&s.input_records)
            .enumerate()
            .map(|(i, (path, &records))| InputInfo {
                path: path.clone(),
                format: s.run.formats.get(i).cloned().unwrap_or_else(|| "arrow".into()),
                bytes: s.run.bytes.get(i).copied().unwrap_or(0),
                records,
                decoding: None,
            })
            .collect();
        let mut options = s.given.shown();
        if let Some(o) = options.as_object_mut() {
            o.extend(s.run.options.clone());
        }
        let made = Made {
            inputs,
            columns: s.columns.clone(),
            output: s.run.output.clone(),
            long: s.run.long.unwrap_or(self.split.is_some() || s.columns.len() > 1),
            column_prefix: s.run.column_prefix.clone(),
            notes: Vec::new(),
            options,
            elapsed_seconds: s.elapsed_seconds,
        };
        let clusters = self.clusters.clone().unwrap_or_default();
        let mut r = hdlscan_core::Report::new(made, s.stats.clone(), &clusters, s.run.duplicates.clone());
        r.judge(&self.gates, None).map_err(value_error)?;
        Ok(r)
    }
}

#[pymethods]
impl Report {
    #[new]
    // Python's keyword arguments, one per flag.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (columns, inputs=None, *, repair=false, expect=None, resolvers=None, split=None, max_len=crate::options::MAX_LEN as i64, keep_canonicals=true))]
    fn new(
        columns: &Bound<'_, PyAny>,
        inputs: Option<&Bound<'_, PyAny>>,
        repair: bool,
        expect: Option<&Bound<'_, PyAny>>,
        resolvers: Option<&Bound<'_, PyAny>>,
        split: Option<String>,
        max_len: i64,
        keep_canonicals: bool,
    ) -> PyResult<Report> {
        use crate::options::names;
        let max_len = crate::options::count(max_len, "max_len")? as usize;
        let (columns, inputs) = (names(Some(columns), "columns")?, names(inputs, "inputs")?);
        let (expect, resolvers) = (names(expect, "expect")?, names(resolvers, "resolvers")?);
        let n = columns.len();
        Report::from_state(State {
            version: STATE_VERSION,
            input_records: vec![0; inputs.len().max(1)],
            columns,
            inputs,
            given: Given {
                repair,
                max_len,
                expect,
                resolvers,
                split,
            },
            stats: Stats::new(n),
            keep_canonicals,
            members: Vec::new(),
            elapsed_seconds: 0.0,
            run: Run::default(),
        })
    }

    /// add(values, *, column, input=0, first_record=1, spark_types=False)
    /// --
    ///
    /// Parses `values` (one cell per record of column `column`, records
    /// numbered from `first_record` in input number `input`; the CLI
    /// numbers records from 1 across all inputs, the second input's first
    /// record following the first input's last), counts them,
    /// and returns the batch `hdlscan.parse` returns for them (with
    /// `record` numbered from `first_record` under `split`, or for a list
    /// a record holds: the values of a path through `[]`), so that a
    /// value is parsed once, in the types `parse(spark_types=)` says.
    /// Clusters computed or set before are dropped.
    #[pyo3(signature = (values, *, column, input=0, first_record=1, spark_types=false))]
    fn add<'py>(
        &mut self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
        column: &str,
        input: u32,
        first_record: i64,
        spark_types: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let first_record = crate::options::count(first_record, "first_record")?;
        let s = &mut self.state;
        let c = s
            .columns
            .iter()
            .position(|n| n == column)
            .ok_or_else(|| value_error(format!("column {column:?} is not one of the report's {:?}", s.columns)))?;
        if input as usize >= s.input_records.len() {
            return Err(value_error(format!(
                "input {input} is not one of the report's {} inputs (numbered from 0)",
                s.input_records.len()
            )));
        }
        let arrays = input::arrays(values)?;
        let started = Instant::now();
        let (parser, split) = (&self.parsers[c], self.split.as_ref());
        let (stats, members, keep) = (&mut s.stats, &mut self.members, s.keep_canonicals);
        let batch = py.detach(|| {
            crate::classify_arrays(&arrays, parser, split, first_record, |record, value_index, v| {
                if value_index == 1 {
                    stats.cell(c);
                }
                let at = At {
                    input,
                    record,
                    line: None,
                    column: c as u32,
                    value_index,
                };
                let canonical = v.rendered.canonical();
                stats.value(at, v.raw, v.parsed, canonical);
                if let Some(canonical) = canonical.filter(|_| keep) {
                    members.push(Member {
                        canonical: canonical.to_string(),
                        at,
                        value: v.raw.to_vec(),
                        warnings: v.parsed.warnings,
                    });
                }
            })
        })?;
        if c == 0 {
            let rows: u64 = arrays.iter().map(|a| a.len() as u64).sum();
            s.stats.records += rows;
            s.input_records[input as usize] += rows;
        }
        s.elapsed_seconds += started.elapsed().as_secs_f64();
        self.clusters = None;
        match spark_types {
            true => crate::spark_types(batch)?.to_pyarrow(py),
            false => batch.to_pyarrow(py),
        }
    }

    /// The report's state as bytes, for `Report.from_partial` in another
    /// process (a Spark worker's, shipped to the driver).
    fn to_partial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut state = self.state.clone();
        state.members = self
            .members
            .iter()
            .map(|m| MemberState {
                canonical: m.canonical.clone(),
                at: m.at,
                value: String::from_utf8_lossy(&m.value).into_owned(),
                warnings: m.warnings.bits(),
            })
            .collect();
        let bytes = serde_json::to_vec(&state).map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The report `to_partial` made these bytes of.
    #[classmethod]
    fn from_partial(_cls: &Bound<'_, PyType>, partial: &[u8]) -> PyResult<Report> {
        let state: State =
            serde_json::from_slice(partial).map_err(|e| value_error(format!("not a partial hdlscan report: {e}")))?;
        if state.version != STATE_VERSION {
            return Err(value_error(format!(
                "a partial report of version {}, this is {STATE_VERSION}: workers and driver must run one hdlscan",
                state.version
            )));
        }
        Report::from_state(state)
    }

    /// Pickles as its partial state (Spark ships reports by pickle).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from = slf.get_type().getattr("from_partial")?;
        Ok((from, (slf.borrow().to_partial(slf.py())?,)))
    }

    /// merge(other)
    /// --
    ///
    /// Adds `other`'s counts, examples and kept canonicals to this report's
    /// (`other` must have the same columns, inputs and options). The
    /// result does not depend on the order reports are merged in.
    fn merge(&mut self, other: PyRef<'_, Report>) -> PyResult<()> {
        let (s, o) = (&mut self.state, &other.state);
        if s.columns != o.columns || s.inputs != o.inputs || s.given != o.given {
            return Err(value_error(
                "reports to merge must have the same columns, inputs and options",
            ));
        }
        s.stats += o.stats.clone();
        for (a, b) in s.input_records.iter_mut().zip(&o.input_records) {
            *a += b;
        }
        s.elapsed_seconds += o.elapsed_seconds;
        s.keep_canonicals &= o.keep_canonicals;
        match s.keep_canonicals {
            true => self.members.extend(other.members.iter().cloned()),
            false => self.members = Vec::new(),
        }
        self.clusters = None;
        Ok(())
    }

    /// set_clusters(summary)
    /// --
    ///
    /// The duplicate clusters, found elsewhere (a Spark `groupBy` on the
    /// canonical), as a dict of `hdlscan_core::clusters::Summary`'s fields:
    /// `values` (valid values), `unique` (distinct canonicals), `clusters`
    /// (canonicals held by two records or more), `values_in_clusters`,
    /// `records_in_clusters`, `across_inputs`, `across_columns`,
    /// `repeated_in_record` (`{"values", "records"}`: a canonical its own
    /// record holds again), and `top`: the largest clusters (most records,
    /// then first seen), each `{"canonical", "count", "records", "first",
    /// "members"}`, `first` a place `{"input", "record", "column",
    /// "value_index"}` (indices, `value_index` from 1; `line` optional)
    /// and each member `{"at": place, "value", "variant"}`: its value as
    /// read (the report cuts it as it cuts examples) and its variant
    /// (`same`, `case`, `repair`, `encoding` or `form`: `hdlscan.variant`).
    fn set_clusters(&mut self, py: Python<'_>, summary: &Bound<'_, PyAny>) -> PyResult<()> {
        let json: String = py.import("json")?.call_method1("dumps", (summary,))?.extract()?;
        let given: SummaryIn = serde_json::from_str(&json).map_err(|e| value_error(format!("set_clusters: {e}")))?;
        self.clusters = Some(given.into_summary()?);
        Ok(())
    }

    /// compute_clusters()
    /// --
    ///
    /// Finds the duplicate clusters among the valid values added (kept in
    /// memory, as `keep_canonicals` says), as the CLI's duplicates engine
    /// finds them, for the report to print.
    fn compute_clusters(&mut self) -> PyResult<()> {
        if !self.state.keep_canonicals {
            return Err(value_error(
                "this report keeps no canonicals (keep_canonicals=False): give the clusters with set_clusters",
            ));
        }
        self.clusters = Some(clusters::group(&mut self.members, self.state.given.repair));
        Ok(())
    }

    /// The report as JSON, as `--report FILE.json` writes it.
    fn to_json(&self) -> PyResult<String> {
        let mut s = serde_json::to_string_pretty(&self.build()?.json()).map_err(value_error)?;
        s.push('\n');
        Ok(s)
    }

    /// The report as Markdown, as `--report FILE.md` writes it.
    fn to_markdown(&self) -> PyResult<String> {
        Ok(self.build()?.page(Markup::Markdown))
    }

    /// The report as an HTML page, as `--report FILE.html` writes it.
    fn to_html(&self) -> PyResult<String> {
        Ok(self.build()?.page(Markup::Html))
    }

    /// The summary `scan` prints on stderr.
    fn summary(&self) -> PyResult<String> {
        Ok(self.build()?.summary())
    }

    /// check(expr, *, warn=False)
    /// --
    ///
    /// Judges `expr`, a `--fail-if` gate (`"invalid>1%"`,
    /// `"doi:bad_check_digit>0"`, `"dc.identifier.*:invalid>0"`), or a
    /// `--warn-if` one with `warn=True`, on the report: whether it holds.
    /// `COLUMN:` selects the report's columns as the CLI's gates do (a
    /// name, number or pattern; a pattern sums the columns it matches).
    /// The gate stays with the report, whose `verdict` is then `fail` (or
    /// `warn`) while it holds. An expression that is not a gate, or a
    /// `COLUMN:` that selects none, raises `ValueError`.
    #[pyo3(signature = (expr, *, warn=false))]
    fn check(&mut self, expr: &str, warn: bool) -> PyResult<bool> {
        let severity = if warn { Severity::Warn } else { Severity::Fail };
        let mut gate = Gate::parse(expr, severity).map_err(value_error)?;
        select::gate_columns(std::slice::from_mut(&mut gate), &self.state.columns).map_err(value_error)?;
        if !self.gates.contains(&gate) {
            self.gates.push(gate.clone());
        }
        let r = self.build()?;
        let i = self.gates.iter().position(|g| *g == gate).expect("pushed above");
        Ok(r.gates[i].holds)
    }

    /// set_elapsed(seconds)
    /// --
    ///
    /// The run's wall time, as the summary and `elapsed_seconds` show it.
    /// Reports time their own `add` calls, summed over merges: the CPU
    /// time of every worker; a driver that merged workers' reports sets
    /// the job's wall time instead.
    fn set_elapsed(&mut self, seconds: f64) -> PyResult<()> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(value_error(format!("set_elapsed: {seconds} is not a time in seconds")));
        }
        self.state.elapsed_seconds = seconds;
        Ok(())
    }

    /// set_run(*, output=None, long=None, column_prefix="", formats=(), bytes=(), options=None, duplicates=None)
    /// --
    ///
    /// What the report's `run` says of how the run was made, where the
    /// values do not tell it, as the CLI's report says it: `output` (the
    /// enriched output's path), `long` (the output's shape: by default
    /// long for several columns or a split, as the CLI's), `column_prefix`
    /// (the added columns' prefix), `formats` and `bytes` (each input's
    /// format name, `csv`, `parquet`, `jsonl`..., and size; by default
    /// `arrow` and 0), and `options`, a dict added to the parser's options
    /// (`{"keep": [...], "no_quoting": True}`), and `duplicates` (the
    /// duplicates file's path, the report's `duplicates.file`).
    #[pyo3(signature = (*, output=None, long=None, column_prefix=String::new(), formats=None, bytes=Vec::new(), options=None, duplicates=None))]
    fn set_run(
        &mut self,
        output: Option<String>,
        long: Option<bool>,
        column_prefix: String,
        formats: Option<&Bound<'_, PyAny>>,
        bytes: Vec<u64>,
        options: Option<&Bound<'_, PyAny>>,
        duplicates: Option<String>,
    ) -> PyResult<()> {
        let formats = crate::options::names(formats, "formats")?;
        let n = self.state.inputs.len().max(1);
        for (name, len) in [("formats", formats.len()), ("bytes", bytes.len())] {
            if len != 0 && len != n {
                return Err(value_error(format!("set_run: {name} has {len} items, for {n} inputs")));
            }
        }
        let options = match options.filter(|o| !o.is_none()) {
            None => serde_json::Map::new(),
            Some(o) => {
                let text: String = o.py().import("json")?.call_method1("dumps", (o,))?.extract()?;
                match serde_json::from_str(&text).map_err(value_error)? {
                    serde_json::Value::Object(m) => m,
                    _ => return Err(value_error("set_run: options must be a dict")),
                }
            }
        };
        self.state.run = Run {
            output,
            duplicates,
            long,
            column_prefix,
            formats,
            bytes,
            options,
        };
        Ok(())
    }

    /// The chosen columns, in order.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.state.columns.clone()
    }

    /// The inputs, in order.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        self.state.inputs.clone()
    }

    /// Records added (counted on the first column).
    #[getter]
    fn records(&self) -> u64 {
        self.state.stats.records
    }

    fn __repr__(&self) -> String {
        let t = self.state.stats.total();
        format!(
            "hdlscan.Report(columns={:?}, records={}, values={}, valid={})",
            self.state.columns,
            self.state.stats.records,
            t.values,
            t.valid()
        )
    }
}

/// `set_clusters`' dict, read with serde: every field named, none unknown.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryIn {
    values: u64,
    unique: u64,
    clusters: u64,
    values_in_clusters: u64,
    records_in_clusters: u64,
    across_inputs: u64,
    across_columns: u64,
    repeated_in_record: Repeated,
    #[serde(default)]
    top: Vec<TopIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopIn {
    canonical: String,
    count: u64,
    records: u64,
    first: At,
    #[serde(default)]
    members: Vec<MemberIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberIn {
    at: At,
    value: String,
    variant: String,
}

impl SummaryIn {
    fn into_summary(self) -> PyResult<Summary> {
        let top = self
            .top
            .into_iter()
            .map(|c| {
                let members = c
                    .members
                    .into_iter()
                    .map(|m| {
                        let variant = Variant::ALL
                            .into_iter()
                            .find(|v| v.as_str() == m.variant)
                            .ok_or_else(|| value_error(format!("set_clusters: no variant {:?}", m.variant)))?;
                        Ok(TopMember {
                            at: m.at,
                            value: example_text(m.value.as_bytes()),
                            variant,
                        })
                    })
                    .collect::<PyResult<_>>()?;
                Ok(TopCluster {
                    canonical: c.canonical,
                    count: c.count,
                    records: c.records,
                    first: c.first,
                    members,
                })
            })
            .collect::<PyResult<_>>()?;
        Ok(Summary {
            values: self.values,
            unique: self.unique,
            clusters: self.clusters,
            values_in_clusters: self.values_in_clusters,
            records_in_clusters: self.records_in_clusters,
            across_inputs: self.across_inputs,
            across_columns: self.across_columns,
            repeated_in_record: self.repeated_in_record,
            top,
        })
    }
}
