//! The figures gates judge and baselines compare, read alike from a
//! finished [`Report`] or from an earlier run's JSON report
//! (`scan --baseline OLD.json`), so that "now" and "then" are measured by
//! one piece of code.

use super::{Report, Totals};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The counts of a run, or of one column.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub cells: u64,
    pub values: u64,
    pub present: u64,
    pub valid: u64,
    /// Codes with a count above zero.
    pub errors: BTreeMap<String, u64>,
    pub warnings: BTreeMap<String, u64>,
}

impl Figures {
    pub fn invalid_present(&self) -> u64 {
        self.present.saturating_sub(self.valid)
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
    /// The tool and version that wrote the report.
    pub tool: String,
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
            tool: r.run.tool.clone(),
            options: r.run.options.clone(),
        }
    }

    /// An earlier run's JSON report, read as a [`Report`]. A report of
    /// another schema version is refused: its fields do not mean the same.
    pub fn from_json(j: &Value) -> Result<Snapshot, String> {
        let version = j["version"].as_u64().unwrap_or(0);
        if version != u64::from(super::REPORT_VERSION) {
            return Err(format!(
                "it is a report of schema version {version}, and this hdlscan writes and compares version {}: run the baseline again with this version",
                super::REPORT_VERSION
            ));
        }
        let report = Report::deserialize(j).map_err(|e| format!("not a JSON report of hdlscan scan: {e}"))?;
        Ok(Snapshot::of(&report))
    }

    /// The figures of column `name`, or the run's.
    pub fn figures(&self, column: Option<&str>) -> Option<&Figures> {
        match column {
            None => Some(&self.total),
            Some(name) => self.columns.iter().find(|(c, _)| c == name).map(|(_, f)| f),
        }
    }
}

/// What changed since the baseline, as the report lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Changes {
    /// The baseline report's path.
    pub baseline: String,
    /// The tool and version of the baseline.
    pub baseline_tool: String,
    /// Whether the baseline was made by the same hdlscan version, and with
    /// the same options (threads aside): if not, a change may be theirs.
    pub same_tool: bool,
    /// Whether the baseline used the same options (threads aside).
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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MetricChange {
    pub metric: String,
    pub then: f64,
    pub now: f64,
    pub change: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CodeChange {
    pub code: String,
    pub then: u64,
    pub now: u64,
}

fn share(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        (n as f64 / of as f64 * 1e6).round() / 1e6
    }
}

impl Changes {
    /// What changed from `then` (read from `baseline`) to `now`.
    pub fn between(baseline: String, then: &Snapshot, now: &Snapshot) -> Changes {
        let without_threads = |o: &Value| {
            let mut o = o.clone();
            if let Some(m) = o.as_object_mut() {
                m.remove("threads");
            }
            o
        };
        let (t, n) = (&then.total, &now.total);
        let pairs: [(&'static str, f64, f64); 7] = [
            ("records", then.records as f64, now.records as f64),
            ("values", t.values as f64, n.values as f64),
            ("present", t.present as f64, n.present as f64),
            ("valid", t.valid as f64, n.valid as f64),
            ("invalid", t.invalid_present() as f64, n.invalid_present() as f64),
            ("valid_of_present", share(t.valid, t.present), share(n.valid, n.present)),
            (
                "duplicates",
                then.values_in_clusters as f64,
                now.values_in_clusters as f64,
            ),
        ];
        let metrics = pairs
            .into_iter()
            .map(|(metric, then, now)| MetricChange {
                metric: metric.to_string(),
                then,
                now,
                change: ((now - then) * 1e6).round() / 1e6,
            })
            .collect();
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
            same_tool: then.tool == now.tool,
            same_options: without_threads(&then.options) == without_threads(&now.options),
            metrics,
            new_codes: codes.iter().filter(|c| c.then == 0).map(|c| c.code.clone()).collect(),
            gone_codes: codes.iter().filter(|c| c.now == 0).map(|c| c.code.clone()).collect(),
            codes,
        }
    }
}
