//! `diff`'s gates: `--fail-if METRIC OP LIMIT` and `--warn-if`, the shape
//! of `scan`'s ([`crate::gates::Expr`]), judged on a diff's counts.
//!
//! | metric | counts |
//! | --- | --- |
//! | `added`, `removed`, `became_invalid`, `became_valid`, `canonical_changed`, `codes_changed` | keys with that change |
//! | `changed` | keys in both files with any of the last four |
//!
//! A percentage is a share of OLD's rows (`became_invalid>1%`); with an
//! empty OLD every percentage is 0.

use super::change::Change;
use crate::gates::{Expr, Op, Severity, Verdict, unknown_metric};

/// What a gate judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Change(Change),
    Changed,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Change(c) => c.as_str(),
            Metric::Changed => "changed",
        }
    }

    fn from_name(s: &str) -> Option<Metric> {
        match s {
            "changed" => Some(Metric::Changed),
            _ => Change::from_name(s).map(Metric::Change),
        }
    }
}

/// Every metric name, for the error that lists them.
pub fn metric_names() -> Vec<&'static str> {
    Change::ALL.iter().map(|c| c.as_str()).chain(["changed"]).collect()
}

/// A `--fail-if`/`--warn-if` of `diff`: a change count or share compared with a limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The expression as given.
    pub expr: String,
    /// Fail or warn when it holds.
    pub severity: Severity,
    /// What it counts.
    pub metric: Metric,
    /// How it compares.
    pub op: Op,
    /// The limit, a count or a percentage.
    pub limit: f64,
    /// Whether `limit` is a percentage (of the keys compared).
    pub percent: bool,
}

/// The counts a gate is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Per change, in [`Change::ALL`]'s order.
    pub changes: [u64; 6],
    pub changed: u64,
    pub old_rows: u64,
}

impl Gate {
    /// Reads `METRIC OP LIMIT`; an unknown metric or a column (`scan`'s
    /// `COLUMN:METRIC`) is an error naming the metrics there are.
    pub fn parse(expr: &str, severity: Severity) -> Result<Gate, String> {
        let flag = severity.flag();
        let Expr {
            left,
            op,
            limit,
            percent,
        } = Expr::parse(expr, flag)?;
        let metric = Metric::from_name(&left).ok_or_else(|| {
            let column = if left.contains(':') {
                " (diff's gates count keys of the whole file, not of a column)"
            } else {
                ""
            };
            unknown_metric(flag, expr, &left, column, "diff's ", &metric_names())
        })?;
        Ok(Gate {
            expr: expr.to_string(),
            severity,
            metric,
            op,
            limit,
            percent,
        })
    }

    /// The gate's outcome on a diff's counts.
    pub fn judge(&self, c: &Counts) -> Verdict {
        let count = match self.metric {
            Metric::Change(ch) => c.changes[ch as usize],
            Metric::Changed => c.changed,
        };
        let value = match (self.percent, c.old_rows) {
            (true, 0) => 0.0,
            (true, of) => count as f64 * 100.0 / of as f64,
            (false, _) => count as f64,
        };
        Verdict {
            expr: self.expr.clone(),
            severity: self.severity,
            column: None,
            metric: self.metric.name().to_string(),
            count,
            denominator: Some(c.old_rows),
            then: None,
            value: (value * 1e4).round() / 1e4,
            op: self.op.as_str().to_string(),
            limit: self.limit,
            unit: if self.percent { "percent" } else { "count" }.to_string(),
            holds: self.op.holds(value, self.limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_judges() {
        let c = Counts {
            changes: [12, 3, 7, 0, 30, 5],
            changed: 40,
            old_rows: 200,
        };
        let g = Gate::parse("became_invalid>0", Severity::Fail).unwrap();
        let v = g.judge(&c);
        assert_eq!((v.count, v.holds, v.unit.as_str()), (7, true, "count"));
        let v = Gate::parse("changed >= 25%", Severity::Warn).unwrap().judge(&c);
        assert_eq!((v.count, v.value, v.holds), (40, 20.0, false));
        let v = Gate::parse("added<=6%", Severity::Fail).unwrap().judge(&c);
        assert_eq!((v.value, v.holds), (6.0, true));
        let empty = Counts { old_rows: 0, ..c };
        assert_eq!(
            Gate::parse("removed>1%", Severity::Fail).unwrap().judge(&empty).value,
            0.0
        );
    }

    #[test]
    fn bad_gates_say_what_is_wrong() {
        let e = Gate::parse("invalid>0", Severity::Fail).unwrap_err();
        assert!(
            e.contains("unknown metric \"invalid\"") && e.contains("became_invalid, became_valid"),
            "{e}"
        );
        let e = Gate::parse("doi:added>0", Severity::Fail).unwrap_err();
        assert!(e.contains("not of a column"), "{e}");
        assert!(Gate::parse("added=0", Severity::Fail).unwrap_err().contains("OP"));
    }
}
