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

use crate::id::{ErrorCode, Warning};
use crate::report::{ColumnReport, Report, Totals};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Gt,
    Ge,
    Lt,
    Le,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }

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
pub enum Metric {
    Invalid,
    Error(ErrorCode),
    Warning(Warning),
    Duplicates,
    Records,
    Values,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Fail,
    Warn,
}

impl Severity {
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
    pub left: String,
    pub op: Op,
    /// The limit as written: a count, or a percentage.
    pub limit: f64,
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
            .filter(|n: &f64| n.is_finite() && *n >= 0.0)
            .ok_or_else(|| format!("{flag} {expr:?}: the limit {limit:?} is not a count or a percentage (12, 5%)"))?;
        if percent && value > 100.0 {
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

#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    pub expr: String,
    pub severity: Severity,
    pub column: Option<String>,
    pub metric: Metric,
    pub op: Op,
    /// The limit as written: a count, or a percentage.
    pub limit: f64,
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
        let left = left.as_str();
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
            op,
            limit,
            percent,
        })
    }

    /// The gate judged on `report`; an unknown column is an error.
    pub fn judge(&self, report: &Report) -> Result<Verdict, String> {
        let column: Option<&ColumnReport> = match &self.column {
            None => None,
            Some(name) => Some(report.columns.iter().find(|c| &c.name == name).ok_or_else(|| {
                let names: Vec<&str> = report.columns.iter().map(|c| c.name.as_str()).collect();
                format!(
                    "gate {:?}: {name:?} is not a chosen column ({})",
                    self.expr,
                    names.join(", ")
                )
            })?),
        };
        let totals: &Totals = column.map_or(&report.totals, |c| &c.totals);
        let code_count = |name: &str| -> u64 {
            match column {
                Some(c) => {
                    let counts = if matches!(self.metric, Metric::Error(_)) {
                        &c.errors
                    } else {
                        &c.warnings
                    };
                    counts.0.iter().find(|(k, _)| k == name).map_or(0, |(_, n)| *n)
                }
                None => {
                    let codes = if matches!(self.metric, Metric::Error(_)) {
                        &report.errors
                    } else {
                        &report.warnings
                    };
                    codes.0.iter().find(|(k, _)| *k == name).map_or(0, |(_, c)| c.count)
                }
            }
        };
        let (count, of) = match self.metric {
            Metric::Invalid => (totals.present - totals.valid, Some(totals.present)),
            Metric::Error(e) => (code_count(e.as_str()), Some(totals.values)),
            Metric::Warning(w) => (code_count(w.as_str()), Some(totals.values)),
            Metric::Duplicates => (report.duplicates.values_in_clusters, Some(totals.valid)),
            Metric::Records => (report.records, None),
            Metric::Values => (totals.values, None),
            Metric::ValidOfPresent => (totals.valid, Some(totals.present)),
        };
        let value = match (self.percent, of) {
            (true, Some(0)) => 0.0,
            (true, Some(of)) => count as f64 * 100.0 / of as f64,
            _ => count as f64,
        };
        let holds = self.op.holds(value, self.limit);
        Ok(Verdict {
            expr: self.expr.clone(),
            severity: self.severity,
            column: self.column.clone(),
            metric: self.metric.name(),
            count,
            denominator: of,
            value: (value * 1e4).round() / 1e4,
            op: self.op.as_str(),
            limit: self.limit,
            unit: if self.percent { "percent" } else { "count" },
            holds,
        })
    }
}

/// A gate's outcome, as the report lists it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Verdict {
    pub expr: String,
    pub severity: Severity,
    pub column: Option<String>,
    pub metric: &'static str,
    /// What the metric counts.
    pub count: u64,
    /// What a percentage is a share of (null for counts).
    pub denominator: Option<u64>,
    /// The value compared: `count`, or its percentage of `denominator`.
    pub value: f64,
    pub op: &'static str,
    pub limit: f64,
    /// `count` or `percent`.
    pub unit: &'static str,
    /// Whether the expression holds: a `--fail-if` that holds fails the run.
    pub holds: bool,
}

impl Verdict {
    /// One line for stderr.
    pub fn describe(&self) -> String {
        let shown = match self.denominator {
            Some(of) if self.unit == "percent" => format!("{}% ({} of {of})", self.value, self.count),
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
