//! Gates: `--fail-if EXPR` and `--warn-if EXPR`, judged on a finished
//! report. `EXPR` is `[COLUMN:]METRIC OP LIMIT`: OP one of `>`, `>=`, `<`,
//! `<=`; LIMIT a count (`12`) or a percentage (`5%`).
//!
//! | metric | count | a percentage is a share of |
//! | --- | --- | --- |
//! | `invalid` | present values that are invalid (neither `empty` nor `placeholder`) | present values |
//! | an error or warning code (`extra_text`, `legacy_resolver`) | values with that code | values |
//! | `duplicates` | valid values in duplicate clusters (`values_in_clusters`) | valid values |
//! | `records`, `values` | as counted | (a count only) |
//! | `valid_of_present` | valid values | present values: `95%` or `0.95` |
//!
//! `COLUMN:METRIC` judges one chosen column (`dc.identifier.doi:invalid>0`);
//! the column name is everything before the last `:`. `duplicates` and
//! `records` are the run's only.
//!
//! `change:[COLUMN:]METRIC` judges the change since `--baseline OLD.json`:
//! now minus then, in counts, or in percentage points when LIMIT is a
//! percentage (`change:invalid>0` fails when more values are invalid than
//! last night; `change:valid_of_present<-1%` when the valid share fell by
//! more than a point).

use crate::id::{ErrorCode, Warning};
use crate::report::Snapshot;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// A gate's comparison.
pub enum Op {
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

impl Op {
    /// As written in a gate.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }

    /// Whether `a OP b` holds.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Lt => a < b,
            Op::Le => a <= b,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
/// What a gate measures (see the module doc's table).
pub enum Metric {
    /// Present values that are invalid.
    Invalid,
    /// Values with this error code.
    Error(ErrorCode),
    /// Values with this warning.
    Warning(Warning),
    /// Valid values in duplicate clusters.
    Duplicates,
    /// Records read.
    Records,
    /// Values read.
    Values,
    /// Valid values among present ones.
    ValidOfPresent,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Invalid => "invalid",
            Metric::Error(e) => e.as_str(),
            Metric::Warning(w) => w.as_str(),
            Metric::Duplicates => "duplicates",
            Metric::Records => "records",
            Metric::Values => "values",
            Metric::ValidOfPresent => "valid_of_present",
        }
    }

    fn from_name(s: &str) -> Option<Metric> {
        Some(match s {
            "invalid" => Metric::Invalid,
            "duplicates" => Metric::Duplicates,
            "records" => Metric::Records,
            "values" => Metric::Values,
            "valid_of_present" => Metric::ValidOfPresent,
            // `multiple_values` and its kin are both errors and (repaired)
            // warnings: the name means the error, as the report lists it.
            _ => match ErrorCode::from_name(s) {
                Some(e) => Metric::Error(e),
                None => Metric::Warning(Warning::from_name(s)?),
            },
        })
    }
}

/// Whether a gate fails the run or only warns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// `--fail-if`: a gate that holds fails the run.
    Fail,
    /// `--warn-if`: a gate that holds is reported as a warning.
    Warn,
}

impl Severity {
    /// The flag that gives a gate of this severity.
    pub fn flag(self) -> &'static str {
        match self {
            Severity::Fail => "--fail-if",
            Severity::Warn => "--warn-if",
        }
    }
}

/// `LEFT OP LIMIT`, the shape of every gate (`scan`'s and `diff`'s): what
/// LEFT names is the caller's business.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What the gate measures, as written.
    pub left: String,
    /// The comparison.
    pub op: Op,
    /// The limit as written: a count, or a percentage.
    pub limit: f64,
    /// Whether the limit is a percentage.
    pub percent: bool,
}

impl Expr {
    /// Reads `expr`; `flag` names it in errors.
    pub fn parse(expr: &str, flag: &str) -> Result<Expr, String> {
        let at = expr.find(['<', '>']).ok_or_else(|| {
            format!("{flag} {expr:?}: expected METRIC OP LIMIT, OP one of > >= < <= (e.g. 'invalid>1%')")
        })?;
        let (left, rest) = expr.split_at(at);
        let (op, limit) = if let Some(l) = rest.strip_prefix(">=") {
            (Op::Ge, l)
        } else if let Some(l) = rest.strip_prefix("<=") {
            (Op::Le, l)
        } else if let Some(l) = rest.strip_prefix('>') {
            (Op::Gt, l)
        } else {
            (Op::Lt, &rest[1..])
        };
        let limit = limit.trim();
        let (number, percent) = match limit.strip_suffix('%') {
            Some(n) => (n.trim(), true),
            None => (limit, false),
        };
        let value: f64 = number
            .parse()
            .ok()
            // Negative limits are for changes (`change:valid<-10`).
            .filter(|n: &f64| n.is_finite())
            .ok_or_else(|| format!("{flag} {expr:?}: the limit {limit:?} is not a count or a percentage (12, 5%)"))?;
        if percent && value.abs() > 100.0 {
            return Err(format!("{flag} {expr:?}: a percentage above 100%"));
        }
        Ok(Expr {
            left: left.trim().to_string(),
            op,
            limit: value,
            percent,
        })
    }
}

/// A `--fail-if`/`--warn-if` of `scan`: a metric of the report compared with a limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The expression as given.
    pub expr: String,
    /// Fail or warn when it holds.
    pub severity: Severity,
    /// The column it is judged on (`column.metric`); all columns when `None`.
    pub column: Option<String>,
    /// What it measures.
    pub metric: Metric,
    /// `change:METRIC`: judged on the change since the baseline.
    pub change: bool,
    /// How it compares.
    pub op: Op,
    /// The limit as written: a count, or a percentage.
    pub limit: f64,
    /// Whether the limit is a percentage.
    pub percent: bool,
}

/// Every metric name a gate takes, for the error that lists them.
pub fn metric_names() -> Vec<&'static str> {
    let mut v = vec!["invalid", "duplicates", "records", "values", "valid_of_present"];
    v.extend(ErrorCode::ALL.iter().map(|e| e.as_str()));
    v.extend(
        Warning::ALL
            .iter()
            .map(|w| w.as_str())
            .filter(|w| ErrorCode::from_name(w).is_none()),
    );
    v
}

impl Gate {
    /// Reads `[COLUMN:]METRIC OP LIMIT` (spaces around OP allowed).
    pub fn parse(expr: &str, severity: Severity) -> Result<Gate, String> {
        let flag = severity.flag();
        let Expr {
            left,
            op,
            limit,
            percent,
        } = Expr::parse(expr, flag)?;
        let (change, left) = match left.strip_prefix("change:") {
            Some(rest) => (true, rest),
            None => (false, left.as_str()),
        };
        let (column, metric_name) = match left.rsplit_once(':') {
            Some((c, m)) => (Some(c.to_string()), m),
            None => (None, left),
        };
        let metric = Metric::from_name(metric_name).ok_or_else(|| {
            format!(
                "{flag} {expr:?}: unknown metric {metric_name:?}; metrics are: {}",
                metric_names().join(", ")
            )
        })?;
        let mut limit = limit;
        let mut percent = percent;
        match metric {
            Metric::Records | Metric::Values if percent => {
                return Err(format!(
                    "{flag} {expr:?}: {} is a count; give a number, not a percentage",
                    metric.name()
                ));
            }
            Metric::ValidOfPresent if !percent => {
                if limit > 1.0 {
                    return Err(format!(
                        "{flag} {expr:?}: valid_of_present is a share: give 95% or 0.95"
                    ));
                }
                limit *= 100.0;
                percent = true;
            }
            _ => {}
        }
        if column.is_some() && matches!(metric, Metric::Duplicates | Metric::Records) {
            return Err(format!(
                "{flag} {expr:?}: {} is counted for the run, not per column",
                metric.name()
            ));
        }
        Ok(Gate {
            expr: expr.to_string(),
            severity,
            column,
            metric,
            change,
            op,
            limit,
            percent,
        })
    }

    /// What the metric counts in `snap`, and what a percentage of it is a
    /// share of. None when the column is not in `snap`.
    fn measure(&self, snap: &Snapshot) -> Option<(u64, Option<u64>)> {
        let f = snap.figures(self.column.as_deref())?;
        let code = |m: &std::collections::BTreeMap<String, u64>, name: &str| m.get(name).copied().unwrap_or(0);
        Some(match self.metric {
            Metric::Invalid => (f.invalid_present(), Some(f.present)),
            Metric::Error(e) => (code(&f.errors, e.as_str()), Some(f.values)),
            Metric::Warning(w) => (code(&f.warnings, w.as_str()), Some(f.values)),
            Metric::Duplicates => (snap.values_in_clusters, Some(snap.total.valid)),
            Metric::Records => (snap.records, None),
            Metric::Values => (f.values, None),
            Metric::ValidOfPresent => (f.valid, Some(f.present)),
        })
    }

    /// The compared value of a measure: the count, or its percentage.
    fn value(&self, (count, of): (u64, Option<u64>)) -> f64 {
        match (self.percent, of) {
            (true, Some(0)) => 0.0,
            (true, Some(of)) => count as f64 * 100.0 / of as f64,
            _ => count as f64,
        }
    }

    /// The gate judged on `now` (and, for a `change:` gate, against
    /// `then`, the baseline); an unknown column or a `change:` gate without
    /// a baseline is an error.
    pub fn judge(&self, now: &Snapshot, then: Option<&Snapshot>) -> Result<Verdict, String> {
        let unknown = |snap: &Snapshot, which: &str| {
            let names: Vec<&str> = snap.columns.iter().map(|(c, _)| c.as_str()).collect();
            format!(
                "gate {:?}: {:?} is not one of the {which} ({})",
                self.expr,
                self.column.as_deref().unwrap_or_default(),
                names.join(", ")
            )
        };
        let m = self.measure(now).ok_or_else(|| unknown(now, "chosen columns"))?;
        let mut value = self.value(m);
        let mut before = None;
        if self.change {
            let then = then.ok_or_else(|| {
                format!(
                    "gate {:?}: change: compares with a baseline; add --baseline OLD.json",
                    self.expr
                )
            })?;
            let t = self.value(self.measure(then).ok_or_else(|| unknown(then, "baseline's columns"))?);
            before = Some((t * 1e4).round() / 1e4);
            value -= t;
        }
        let holds = self.op.holds(value, self.limit);
        Ok(Verdict {
            expr: self.expr.clone(),
            severity: self.severity,
            column: self.column.clone(),
            metric: self.metric.name().to_string(),
            count: m.0,
            denominator: m.1,
            then: before,
            value: (value * 1e4).round() / 1e4,
            op: self.op.as_str().to_string(),
            limit: self.limit,
            unit: if self.percent { "percent" } else { "count" }.to_string(),
            holds,
        })
    }
}

/// A gate's outcome, as the report lists it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Verdict {
    /// The expression as given.
    pub expr: String,
    /// Fail or warn.
    pub severity: Severity,
    /// The column judged, if one.
    pub column: Option<String>,
    /// The metric's name.
    pub metric: String,
    /// What the metric counts (now).
    pub count: u64,
    /// For a `change:` gate, the baseline's value (count or percentage);
    /// `value` is then the change since.
    pub then: Option<f64>,
    /// What a percentage is a share of (null for counts).
    pub denominator: Option<u64>,
    /// The value compared: `count`, or its percentage of `denominator`.
    pub value: f64,
    /// The comparison (`>`, `>=`, `<`, `<=`).
    pub op: String,
    /// The limit compared with.
    pub limit: f64,
    /// `count` or `percent`.
    pub unit: String,
    /// Whether the expression holds: a `--fail-if` that holds fails the run.
    pub holds: bool,
}

impl Verdict {
    /// One line for stderr.
    pub fn describe(&self) -> String {
        let shown = match (self.then, self.denominator) {
            (Some(then), _) => format!("{:+} since the baseline's {then}", self.value),
            (None, Some(of)) if self.unit == "percent" => format!("{}% ({} of {of})", self.value, self.count),
            _ => self.count.to_string(),
        };
        let word = match (self.holds, self.severity) {
            (true, Severity::Fail) => "FAILED",
            (true, Severity::Warn) => "warning",
            (false, _) => "passed",
        };
        format!("gate {word}: {} (is {shown})", self.expr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_the_help_shows() {
        let g = Gate::parse("invalid>1%", Severity::Fail).unwrap();
        assert_eq!(
            (g.metric, g.op, g.limit, g.percent, g.column),
            (Metric::Invalid, Op::Gt, 1.0, true, None)
        );
        let g = Gate::parse("dc.identifier.doi:extra_text >= 3", Severity::Warn).unwrap();
        assert_eq!(g.column.as_deref(), Some("dc.identifier.doi"));
        assert_eq!(
            (g.metric, g.op, g.limit, g.percent),
            (Metric::Error(ErrorCode::ExtraText), Op::Ge, 3.0, false)
        );
        let g = Gate::parse("legacy_resolver>5%", Severity::Fail).unwrap();
        assert_eq!(g.metric, Metric::Warning(Warning::LegacyResolver));
        let g = Gate::parse("valid_of_present<0.95", Severity::Fail).unwrap();
        assert_eq!((g.limit, g.percent), (95.0, true));
        let g = Gate::parse("a:b:invalid<=0", Severity::Fail).unwrap();
        assert_eq!(g.column.as_deref(), Some("a:b"));
    }

    #[test]
    fn bad_expressions_say_what_is_wrong() {
        let e = Gate::parse("invalidd>1", Severity::Fail).unwrap_err();
        assert!(e.contains("unknown metric") && e.contains("extra_text"), "{e}");
        assert!(Gate::parse("invalid=1", Severity::Fail).unwrap_err().contains("OP"));
        assert!(Gate::parse("invalid>x", Severity::Fail).unwrap_err().contains("limit"));
        assert!(Gate::parse("records>5%", Severity::Fail).unwrap_err().contains("count"));
        assert!(
            Gate::parse("invalid>101%", Severity::Fail)
                .unwrap_err()
                .contains("above 100%")
        );
        assert!(
            Gate::parse("doi:duplicates>0", Severity::Fail)
                .unwrap_err()
                .contains("not per column")
        );
        assert!(
            Gate::parse("valid_of_present<95", Severity::Fail)
                .unwrap_err()
                .contains("95%")
        );
    }
}
