//! What a gate judged, as the report carries it: its [`Severity`] and its
//! [`Verdict`]. The gates themselves (`crate::gates`) parse and judge;
//! the report and its printers need only these.

use serde::{Deserialize, Serialize};

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
    /// A run's verdict from its gates': `fail` when a `--fail-if` held,
    /// else `warn` when a `--warn-if` did, else `pass`.
    pub fn overall(gates: &[Verdict]) -> &'static str {
        let warned = gates.iter().any(|v| v.holds && v.severity == Severity::Warn);
        match (gates.iter().any(Verdict::failed), warned) {
            (true, _) => "fail",
            (false, true) => "warn",
            (false, false) => "pass",
        }
    }

    /// Whether this is a `--fail-if` that held: one fails the run.
    pub fn failed(&self) -> bool {
        self.holds && self.severity == Severity::Fail
    }

    /// One line for stderr.
    pub fn describe(&self) -> String {
        let shown = match (self.then, self.denominator) {
            // A change of a share is in percentage points, from the
            // baseline's share: a bare `+0.4098` read as a count.
            (Some(then), _) if self.unit == "percent" => format!(
                "{:+.2} points since the baseline's {then:.2}%, now {:.2}%",
                self.value,
                then + self.value
            ),
            (Some(then), _) => format!("{:+} since the baseline's {then}", self.value),
            (None, Some(of)) if self.unit == "percent" => format!("{:.2}% ({} of {of})", self.value, self.count),
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
