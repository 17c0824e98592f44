//! The report of a diff: one typed model ([`DiffReport`]) of the counts,
//! examples, gates and notes, serialized as JSON and drawn as the stderr
//! summary (`summary.rs`), Markdown and HTML. [`Tally`] counts the changes
//! as they stream by and keeps the first examples of each.
//!
//! How each run was made is not in `scan`'s output files but in its JSON
//! report: given `--old-report`/`--new-report`, [`ScanRun`] reads them and
//! the report says whether the tool's version, the options, the chosen
//! columns or the shape differ, since a change of any of them changes rows
//! that did not change in the data.

use super::change::{Change, ChangeRow};
use super::gates::{Counts, Gate};
use super::held::Matched;
use super::row::{Side, key_cells};
use crate::gates::Verdict;
use crate::report::{Report, example_text, is_diff_report};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Bumped whenever a field of diff's JSON report changes meaning or goes
/// away.
pub const DIFF_REPORT_VERSION: u32 = 1;
/// Examples kept per change: the first in NEW's order (OLD's for
/// `removed`).
pub const EXAMPLES: usize = 5;

/// One side of an example.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SideReport {
    /// `scan`'s record (the input record), when the file has it.
    pub record: Option<u64>,
    pub kind: String,
    pub canonical: Option<String>,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

impl SideReport {
    fn of(s: &Side<'_>) -> SideReport {
        let some = |v: &str| (!v.is_empty()).then(|| example_text(v.as_bytes()));
        let codes = s.warnings.split(';').filter(|w| !w.is_empty());
        SideReport {
            record: s.record,
            kind: s.kind.to_string(),
            canonical: some(s.canonical),
            error: some(s.error),
            warnings: codes.map(String::from).collect(),
        }
    }

    /// Valid as `scan` counts it.
    pub fn valid(&self) -> bool {
        self.kind != crate::id::Kind::Invalid.as_str()
    }
}

/// One changed key: its cells by key column, and both sides.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ExampleReport {
    pub key: Map<String, Value>,
    pub old: Option<SideReport>,
    pub new: Option<SideReport>,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ChangeReport {
    pub count: u64,
    pub examples: Vec<ExampleReport>,
}

/// The six changes, serialized as an object by name in
/// [`Change::ALL`]'s order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes(pub [ChangeReport; 6]);

impl Changes {
    pub fn get(&self, c: Change) -> &ChangeReport {
        &self.0[c as usize]
    }

    pub fn counts(&self) -> [u64; 6] {
        std::array::from_fn(|i| self.0[i].count)
    }
}

impl Serialize for Changes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(Change::ALL.map(|c| (c.as_str(), self.get(c))))
    }
}

/// Counts the changes streaming by and keeps the first `EXAMPLES` (5) of
/// each.
#[derive(Debug, Clone)]
pub struct Tally {
    keys: Vec<String>,
    /// The count and first examples of each change.
    pub changes: Changes,
}

impl Tally {
    /// An empty tally, for rows keyed by `keys`.
    pub fn new(keys: &[String]) -> Tally {
        Tally {
            keys: keys.to_vec(),
            changes: Changes::default(),
        }
    }

    /// Counts one change, and keeps it as an example while there is room.
    pub fn add(&mut self, c: &ChangeRow<'_>) {
        let r = &mut self.changes.0[c.change as usize];
        r.count += 1;
        if r.examples.len() < EXAMPLES {
            let cell = |(k, v): (&String, &[u8])| (k.clone(), Value::String(example_text(v)));
            let key = self.keys.iter().zip(key_cells(c.key)).map(cell).collect();
            r.examples.push(ExampleReport {
                key,
                old: c.old.as_ref().map(SideReport::of),
                new: c.new.as_ref().map(SideReport::of),
            });
        }
    }
}

/// One of the two files.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileReport {
    /// The file, as named.
    pub path: String,
    /// `csv`, `tsv`, `parquet` or `arrow`.
    pub format: &'static str,
    /// `wide` or `long`.
    pub shape: &'static str,
    /// Its data rows.
    pub rows: u64,
}

/// How one `scan` run was made, from its JSON report.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScanRun {
    /// The report's path.
    pub report: String,
    /// `hdlscan VERSION`.
    pub tool: String,
    /// The options that scan ran with, as its report gives them.
    pub options: Value,
    /// The chosen columns.
    pub columns: Vec<String>,
    /// Its output's shape (`wide` or `long`).
    pub output_shape: String,
    /// Rows the run wrote: its values (long) or records (wide).
    pub rows: Option<u64>,
}

impl ScanRun {
    /// Reads `scan`'s report `v`, read from `path`, as a [`Report`]; an
    /// error says why it is not one.
    pub fn from_json(path: &str, v: &Value) -> Result<ScanRun, String> {
        // diff's own report, kept beside scan's, otherwise fails on a field
        // of its `changes` ("missing field `baseline`"), which says nothing.
        if is_diff_report(v) {
            return Err(format!(
                "{path} is not a JSON report of `hdlscan scan` (it is `hdlscan diff`'s own); give the file `scan --report FILE.json` wrote"
            ));
        }
        let r = Report::deserialize(v).map_err(|e| {
            format!(
                "{path} is not a JSON report of `hdlscan scan` ({e}); give the file `scan --report FILE.json` wrote"
            )
        })?;
        Ok(ScanRun {
            report: path.to_string(),
            rows: Some(if r.run.output_shape == "long" {
                r.totals.values
            } else {
                r.records
            }),
            columns: r.columns.into_iter().map(|c| c.name).collect(),
            tool: r.run.tool,
            options: r.run.options,
            output_shape: r.run.output_shape,
        })
    }
}

/// The two runs compared.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Runs {
    /// OLD's scan, from `--old-report`.
    pub old: Option<ScanRun>,
    /// NEW's scan, from `--new-report`.
    pub new: Option<ScanRun>,
    /// Both reports given and their `tool` is the same.
    pub same_tool: Option<bool>,
    /// What differs between the runs: option names (`repair`, `expect`,
    /// …; not `threads`, which changes no row), `columns`,
    /// `output_shape`. Empty when both reports are given and agree; null
    /// with one report only.
    pub differences: Option<Vec<String>>,
}

impl Runs {
    /// The scans of OLD and NEW, compared.
    pub fn new(old: Option<ScanRun>, new: Option<ScanRun>) -> Runs {
        let (same_tool, differences) = match (&old, &new) {
            (Some(o), Some(n)) => {
                let mut keys: Vec<&String> = Vec::new();
                for opts in [&o.options, &n.options] {
                    for k in opts.as_object().into_iter().flat_map(|m| m.keys()) {
                        if k != "threads" && !keys.contains(&k) {
                            keys.push(k);
                        }
                    }
                }
                let mut d: Vec<String> = keys
                    .into_iter()
                    .filter(|k| o.options.get(k.as_str()) != n.options.get(k.as_str()))
                    .cloned()
                    .collect();
                if o.columns != n.columns {
                    d.push("columns".into());
                }
                if o.output_shape != n.output_shape {
                    d.push("output_shape".into());
                }
                (Some(o.tool == n.tool), Some(d))
            }
            _ => (None, None),
        };
        Runs {
            old,
            new,
            same_tool,
            differences,
        }
    }
}

/// How the diff was made, besides the two files.
#[derive(Debug, Clone, Serialize)]
pub struct DiffRun {
    /// `hdlscan` and its version.
    pub tool: String,
    /// `-o`, if given.
    pub output: Option<String>,
    /// The prefix of SPEC's columns in both files.
    pub column_prefix: String,
    /// Partitions OLD and NEW were split into in temporary files, OLD's
    /// index being over its memory budget; 0 when it fitted.
    pub partitions: u64,
    /// Wall time of the diff.
    pub elapsed_seconds: f64,
}

/// A finished diff.
#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    /// The report's format version.
    pub version: u32,
    /// `pass`, `warn` (a `--warn-if` held) or `fail` (a `--fail-if` held).
    pub verdict: &'static str,
    /// Every gate with its outcome.
    pub gates: Vec<Verdict>,
    /// `+12 −3 ~40, 7 became invalid`: added, removed, changed.
    pub summary: String,
    /// The key columns.
    pub key: Vec<String>,
    /// OLD, as read.
    pub old: FileReport,
    /// NEW, as read.
    pub new: FileReport,
    /// Keys in both files with no change.
    pub unchanged: u64,
    /// Keys in both files with a change.
    pub changed: u64,
    /// The changes, counted, with examples.
    pub changes: Changes,
    /// How the two scans were made (`--old-report`, `--new-report`); null
    /// without them.
    pub runs: Option<Runs>,
    /// What a reader must know to trust the counts: different tool
    /// versions, options, shapes.
    pub notes: Vec<String>,
    /// How the diff ran.
    pub run: DiffRun,
}

/// What the report needs besides the counts.
pub struct DiffMade {
    /// The key columns.
    pub key: Vec<String>,
    /// OLD, as read.
    pub old: FileReport,
    /// NEW, as read.
    pub new: FileReport,
    /// The scans that wrote OLD and NEW, when their reports are given.
    pub runs: Option<Runs>,
    /// How the diff ran.
    pub run: DiffRun,
}

impl DiffReport {
    /// The report of a finished diff.
    pub fn new(made: DiffMade, tally: Tally, matched: Matched) -> DiffReport {
        let c = tally.changes.counts();
        let summary = format!(
            "+{} \u{2212}{} ~{}, {} became invalid",
            c[Change::Added as usize],
            c[Change::Removed as usize],
            matched.changed,
            c[Change::BecameInvalid as usize]
        );
        let notes = notes(&made);
        DiffReport {
            version: DIFF_REPORT_VERSION,
            verdict: "pass",
            gates: Vec::new(),
            summary,
            key: made.key,
            old: made.old,
            new: made.new,
            unchanged: matched.unchanged,
            changed: matched.changed,
            changes: tally.changes,
            runs: made.runs,
            notes,
            run: made.run,
        }
    }

    /// The counts its gates judge.
    pub fn counts(&self) -> Counts {
        Counts {
            changes: self.changes.counts(),
            changed: self.changed,
            old_rows: self.old.rows,
        }
    }

    /// Judges `gates` and records their verdicts.
    pub fn judge(&mut self, gates: &[Gate]) {
        let counts = self.counts();
        self.gates = gates.iter().map(|g| g.judge(&counts)).collect();
        self.verdict = Verdict::overall(&self.gates);
    }
}

fn notes(made: &DiffMade) -> Vec<String> {
    let mut notes = Vec::new();
    if made.old.shape != made.new.shape {
        notes.push(format!(
            "OLD is scan's {} output and NEW its {}: rows are paired by the key alone",
            made.old.shape, made.new.shape
        ));
    }
    let Some(runs) = &made.runs else {
        notes.push(
            "how the scans were made is unknown: give --old-report and --new-report (scan's JSON reports) \
             to learn whether the tool's version or options differ"
                .to_string(),
        );
        return notes;
    };
    for (which, run, file) in [("OLD", &runs.old, &made.old), ("NEW", &runs.new, &made.new)] {
        if let Some(r) = run
            && let Some(rows) = r.rows
            && rows != file.rows
        {
            notes.push(format!(
                "{which}'s report {} describes a run that wrote {rows} rows, and {} has {}: is it that run's report?",
                r.report, file.path, file.rows
            ));
        }
    }
    if let (Some(o), Some(n)) = (&runs.old, &runs.new) {
        if runs.same_tool == Some(false) {
            notes.push(format!(
                "the scans were made by different versions ({} and {}): some changes may be the tool's, not the data's",
                o.tool, n.tool
            ));
        }
        if let Some(d) = runs.differences.as_ref().filter(|d| !d.is_empty()) {
            notes.push(format!(
                "the scans were made with different options ({}): some changes may be the options', not the data's",
                d.join(", ")
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(tool: &str, repair: bool, threads: u64) -> ScanRun {
        let made = crate::report::Made {
            inputs: Vec::new(),
            columns: Vec::new(),
            output: None,
            long: false,
            column_prefix: String::new(),
            notes: Vec::new(),
            options: json!({"repair": repair, "threads": threads}),
            elapsed_seconds: 1.0,
        };
        let mut r = Report::new(made, Default::default(), &Default::default(), None);
        r.records = 10;
        r.run.tool = tool.to_string();
        ScanRun::from_json("r.json", &r.to_json()).unwrap()
    }

    #[test]
    fn runs_name_what_differs_but_threads() {
        let r = Runs::new(
            Some(run("hdlscan 0.1.0", false, 2)),
            Some(run("hdlscan 0.1.0", false, 8)),
        );
        assert_eq!((r.same_tool, r.differences.as_deref()), (Some(true), Some(&[][..])));
        let r = Runs::new(
            Some(run("hdlscan 0.1.0", false, 2)),
            Some(run("hdlscan 0.2.0", true, 2)),
        );
        assert_eq!(r.same_tool, Some(false));
        assert_eq!(r.differences.unwrap(), ["repair"]);
        assert_eq!(run("t", false, 1).rows, Some(10));
    }

    #[test]
    fn a_file_that_is_no_scan_report_is_refused() {
        let e = ScanRun::from_json("x.json", &json!({"a": 1})).unwrap_err();
        assert!(e.contains("x.json is not a JSON report of `hdlscan scan`"), "{e}");
    }
}
