//! The figures gates judge and baselines compare, read alike from a
//! finished [`Report`] or from an earlier run's JSON report
//! (`scan --baseline OLD.json`), so that "now" and "then" are measured by
//! one piece of code.

use super::{Report, Totals};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The counts of a run, or of some columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Cells read.
    pub cells: u64,
    /// Values read.
    pub values: u64,
    /// Values neither `empty` nor `placeholder`.
    pub present: u64,
    /// Valid values.
    pub valid: u64,
    /// Error codes with a count above zero (`empty` and `placeholder` among
    /// them: the counts of both, in a report of any version).
    pub errors: BTreeMap<String, u64>,
    /// Warnings with a count above zero.
    pub warnings: BTreeMap<String, u64>,
}

impl Figures {
    /// Present values that are not valid.
    pub fn invalid(&self) -> u64 {
        self.present.saturating_sub(self.valid)
    }

    /// The values of error code `code`.
    pub fn error(&self, code: &str) -> u64 {
        self.errors.get(code).copied().unwrap_or(0)
    }

    /// Empty values.
    pub fn empty(&self) -> u64 {
        self.error("empty")
    }

    /// Placeholders.
    pub fn placeholder(&self) -> u64 {
        self.error("placeholder")
    }
}

impl std::ops::AddAssign<&Figures> for Figures {
    fn add_assign(&mut self, o: &Figures) {
        self.cells += o.cells;
        self.values += o.values;
        self.present += o.present;
        self.valid += o.valid;
        for (mine, theirs) in [(&mut self.errors, &o.errors), (&mut self.warnings, &o.warnings)] {
            for (k, v) in theirs {
                *mine.entry(k.clone()).or_insert(0) += v;
            }
        }
    }
}

/// The figures of a report that gates compare a later run with (`--baseline`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// Data records read.
    pub records: u64,
    /// The figures over all columns.
    pub total: Figures,
    /// The figures per column.
    pub columns: Vec<(String, Figures)>,
    /// Values in duplicate clusters.
    pub values_in_clusters: u64,
    /// Duplicate clusters.
    pub clusters: u64,
    /// Values repeating their record's canonical.
    pub repeated_in_record: u64,
    /// JSON lines skipped as not one record.
    pub skipped_lines: u64,
    /// Short rows padded with empty fields.
    pub padded_rows: u64,
    /// Cells whose invalid UTF-8 was written as U+FFFD.
    pub lossy_cells: u64,
    /// The tool and version that wrote the report.
    pub tool: String,
    /// The report's schema version ([`super::REPORT_VERSION`] for this run's).
    pub version: u32,
    /// The options it ran with.
    pub options: Value,
}

fn of_totals(t: &Totals) -> Figures {
    Figures {
        cells: t.cells,
        values: t.values,
        present: t.present,
        valid: t.valid,
        ..Figures::default()
    }
}

impl Snapshot {
    /// The snapshot of `r`.
    pub fn of(r: &Report) -> Snapshot {
        let mut total = of_totals(&r.totals);
        total.errors = r.errors.0.iter().map(|(k, c)| (k.clone(), c.count)).collect();
        total.warnings = r.warnings.0.iter().map(|(k, c)| (k.clone(), c.count)).collect();
        let columns = r
            .columns
            .iter()
            .map(|c| {
                let mut f = of_totals(&c.totals);
                f.errors = c.errors.0.iter().cloned().collect();
                f.warnings = c.warnings.0.iter().cloned().collect();
                (c.name.clone(), f)
            })
            .collect();
        Snapshot {
            records: r.records,
            total,
            columns,
            values_in_clusters: r.duplicates.values_in_clusters,
            clusters: r.duplicates.clusters,
            repeated_in_record: r.duplicates.repeated_in_record.values,
            skipped_lines: r.skipped_lines,
            padded_rows: r.padded_rows,
            lossy_cells: r.lossy_cells,
            tool: r.run.tool.clone(),
            version: r.version,
            options: r.run.options.clone(),
        }
    }

    /// An earlier run's JSON report, read as a [`Report`]. Version 2 is
    /// read too: its totals are the same counts (`empty` and `placeholder`
    /// are its error codes), and its duplicates were counted by values
    /// (`changes.same_tool` is then false, and the page says so). Other
    /// versions are refused: their fields do not mean the same; so is
    /// `diff`'s JSON report, named as such.
    pub fn from_json(j: &Value) -> Result<Snapshot, String> {
        // A nightly job writes diff's JSON report beside scan's, and its
        // version (1) would otherwise send the user to rerun a baseline
        // that is not one.
        if is_diff_report(j) {
            return Err(
                "it is a report of hdlscan diff, not of scan: give an earlier scan's JSON report (scan --report FILE.json)"
                    .to_string(),
            );
        }
        // Other JSON (`{}`, an export's record) is no report at all, not
        // one of an old version to run again.
        let Some(version) = j.get("version").and_then(Value::as_u64) else {
            return Err("not a JSON report of hdlscan scan: it has no version".to_string());
        };
        if !(2..=u64::from(super::REPORT_VERSION)).contains(&version) {
            return Err(format!(
                "it is a report of schema version {version}, and this hdlscan compares versions 2 to {}: run the baseline again with this version",
                super::REPORT_VERSION
            ));
        }
        let report = Report::deserialize(j).map_err(|e| format!("not a JSON report of hdlscan scan: {e}"))?;
        Ok(Snapshot::of(&report))
    }

    /// The figures of the columns named `names` summed, or the run's when
    /// there are none; `Err` names a column the snapshot lacks.
    pub fn figures(&self, names: &[String]) -> Result<Figures, String> {
        if names.is_empty() {
            return Ok(self.total.clone());
        }
        let mut sum = Figures::default();
        for name in names {
            match self.columns.iter().find(|(c, _)| c == name) {
                Some((_, f)) => sum += f,
                None => return Err(name.clone()),
            }
        }
        Ok(sum)
    }

    /// The figures of the columns named `names` summed, a column the
    /// snapshot lacks counting nothing: a baseline's, for a column chosen
    /// since.
    pub fn figures_or_none(&self, names: &[String]) -> Figures {
        let mut sum = Figures::default();
        for (_, f) in self.columns.iter().filter(|(c, _)| names.contains(c)) {
            sum += f;
        }
        sum
    }
}

/// What changed since the baseline, as the report lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Changes {
    /// The baseline report's path.
    pub baseline: String,
    /// The tool and version of the baseline.
    pub baseline_tool: String,
    /// The baseline's report version.
    #[serde(default)]
    pub baseline_version: u32,
    /// Whether the baseline was made by the same hdlscan version, writing
    /// the same report version: if not, a change may be theirs (a version
    /// 2 report counted clusters by values, not records).
    pub same_tool: bool,
    /// Whether the baseline used the same options (threads aside) and
    /// chose the same columns.
    pub same_options: bool,
    /// The totals, then and now.
    pub metrics: Vec<MetricChange>,
    /// Codes seen now and not then.
    pub new_codes: Vec<String>,
    /// Codes seen then and not now.
    pub gone_codes: Vec<String>,
    /// Every code whose count changed.
    pub codes: Vec<CodeChange>,
}

impl Changes {
    /// Why a change may not be the data's: a baseline made by another
    /// version or with other options (another job's columns, `--repair`
    /// on one night only). `tool` shows the baseline's tool name (escaped
    /// for a page).
    pub fn caveat(&self, tool: impl Fn(&str) -> String) -> Option<String> {
        (!self.same_tool || !self.same_options).then(|| {
            format!(
                "the baseline was made by {} (report version {}) with {} options; a change may be theirs",
                tool(&self.baseline_tool),
                self.baseline_version,
                if self.same_options { "the same" } else { "other" }
            )
        })
    }
}

/// One total then and now: a count, or for `valid_of_present` a fraction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MetricChange {
    /// The total's name, as a gate names it.
    pub metric: String,
    /// The baseline's.
    pub then: f64,
    /// This run's.
    pub now: f64,
    /// `now - then`.
    pub change: f64,
}

/// One code's count then and now.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CodeChange {
    /// The error or warning code.
    pub code: String,
    /// The baseline's count.
    pub then: u64,
    /// This run's.
    pub now: u64,
}

/// The names of a snapshot's columns, in any order (`-c a -c b` and `-c b
/// -c a` choose alike).
fn column_names(s: &Snapshot) -> std::collections::BTreeSet<&str> {
    s.columns.iter().map(|(name, _)| name.as_str()).collect()
}

impl Changes {
    /// What changed from `then` (read from `baseline`) to `now`; the
    /// totals' `metrics` as the gates measure them.
    pub fn between(baseline: String, then: &Snapshot, now: &Snapshot, metrics: Vec<MetricChange>) -> Changes {
        let without_threads = |o: &Value| {
            let mut o = o.clone();
            if let Some(m) = o.as_object_mut() {
                m.remove("threads");
            }
            o
        };
        let (t, n) = (&then.total, &now.total);
        let all = |f: &Figures| -> BTreeMap<String, u64> {
            f.errors
                .iter()
                .chain(&f.warnings)
                .map(|(k, v)| (k.clone(), *v))
                .collect()
        };
        let (a, b) = (all(t), all(n));
        let codes = a
            .keys()
            .chain(b.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|k| CodeChange {
                code: k.clone(),
                then: a.get(k).copied().unwrap_or(0),
                now: b.get(k).copied().unwrap_or(0),
            })
            .filter(|c| c.then != c.now)
            .collect::<Vec<_>>();
        Changes {
            baseline,
            baseline_tool: then.tool.clone(),
            baseline_version: then.version,
            same_tool: then.tool == now.tool && then.version == now.version,
            // A column chosen on one night only moves every total as much
            // as `--repair` does, and the options do not list the columns.
            same_options: without_threads(&then.options) == without_threads(&now.options)
                && column_names(then) == column_names(now),
            metrics,
            new_codes: codes.iter().filter(|c| c.then == 0).map(|c| c.code.clone()).collect(),
            gone_codes: codes.iter().filter(|c| c.now == 0).map(|c| c.code.clone()).collect(),
            codes,
        }
    }
}

/// Whether `j` is `hdlscan diff`'s JSON report (a `key` and a
/// `changes.became_invalid`), which nightly jobs keep beside scan's and
/// which is read back where scan's is expected.
pub fn is_diff_report(j: &Value) -> bool {
    j.get("key").is_some() && j["changes"].get("became_invalid").is_some()
}
