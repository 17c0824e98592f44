//! Gates: `--fail-if EXPR` and `--warn-if EXPR`, judged on a finished
//! report. `EXPR` is `[change:][COLUMN:]METRIC OP LIMIT`: OP one of `>`,
//! `>=`, `<`, `<=`; LIMIT a whole count (`12`) or a percentage (`5%`). Every
//! total of the report is a metric ([`Metric::TOTALS`]), and so is each
//! code:
//!
//! The shares are the report's: `empty`, `placeholder` and `present` of
//! the values, `valid` and `invalid` of the present ones.
//!
//! | metric | count | a percentage is a share of |
//! | --- | --- | --- |
//! | `records`, `values` | as counted | (a count only) |
//! | `present` | values neither `empty` nor `placeholder` | values |
//! | `empty`, `placeholder` | values of that error code | values |
//! | `valid` | valid values | present values |
//! | `invalid` | present values that are not valid | present values |
//! | `valid_of_present` | valid values | present values: `95%` or `0.95` |
//! | `duplicates` | valid values in duplicate clusters (`values_in_clusters`) | valid values |
//! | `clusters` | duplicate clusters (canonicals held by two records or more) | (a count only) |
//! | `repeated_in_record` | values repeating their record's canonical | valid values |
//! | `skipped_lines`, `padded_rows`, `lossy_cells` | how the input was read: JSON lines skipped (`--skip-bad-lines`), short rows padded (`--ragged pad`), cells written with U+FFFD | (a count only) |
//! | an error or warning code (`extra_text`, `legacy_resolver`) | values with that code | values |
//!
//! `COLUMN:METRIC` judges the columns COLUMN selects, summed, with the
//! selectors of `-c` (a name, trimmed or in any case when only one column
//! fits, a number, a pattern: `dc.identifier.*:invalid>0`); the selector
//! is everything before the last `:`, and the caller resolves it
//! ([`Gate::columns`]). `records`, `duplicates`, `clusters`,
//! `repeated_in_record` and how the input was read are the run's only.
//!
//! `change:[COLUMN:]METRIC` judges the change since `--baseline OLD.json`:
//! now minus then, in counts, or in percentage points when LIMIT is a
//! percentage (`change:valid<0` fails when fewer values are valid than
//! last night, an identifier replaced by `N/A` among them;
//! `change:valid_of_present<-1%` when the valid share fell by more than a
//! point).

use crate::id::{ErrorCode, Warning};
use crate::report::{Changes, Figures, MetricChange, Report, Snapshot};
// What a gate judged is the report's model; re-exported where gates are.
pub use crate::report::{Severity, Verdict};

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
    /// Records read.
    Records,
    /// Values read.
    Values,
    /// Values neither empty nor placeholder.
    Present,
    /// Empty values.
    Empty,
    /// Placeholders.
    Placeholder,
    /// Valid values.
    Valid,
    /// Present values that are invalid.
    Invalid,
    /// Valid values among present ones.
    ValidOfPresent,
    /// Valid values in duplicate clusters.
    Duplicates,
    /// Duplicate clusters.
    Clusters,
    /// Values repeating their record's canonical.
    RepeatedInRecord,
    /// JSON lines skipped as not one record.
    SkippedLines,
    /// Short rows padded with empty fields.
    PaddedRows,
    /// Cells whose invalid UTF-8 was written as U+FFFD.
    LossyCells,
    /// Values with this error code.
    Error(ErrorCode),
    /// Values with this warning.
    Warning(Warning),
}

impl Metric {
    /// The report's totals, in the order the baseline table lists them.
    pub const TOTALS: [Metric; 11] = [
        Metric::Records,
        Metric::Values,
        Metric::Present,
        Metric::Empty,
        Metric::Placeholder,
        Metric::Valid,
        Metric::Invalid,
        Metric::ValidOfPresent,
        Metric::Duplicates,
        Metric::Clusters,
        Metric::RepeatedInRecord,
    ];

    /// The report's counts of how the input was read, metrics too but not
    /// in the baseline's table of totals.
    pub const READING: [Metric; 3] = [Metric::SkippedLines, Metric::PaddedRows, Metric::LossyCells];

    /// The metric's name, as a gate and the baseline table write it.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Records => "records",
            Metric::Values => "values",
            Metric::Present => "present",
            Metric::Empty => "empty",
            Metric::Placeholder => "placeholder",
            Metric::Valid => "valid",
            Metric::Invalid => "invalid",
            Metric::ValidOfPresent => "valid_of_present",
            Metric::Duplicates => "duplicates",
            Metric::Clusters => "clusters",
            Metric::RepeatedInRecord => "repeated_in_record",
            Metric::SkippedLines => "skipped_lines",
            Metric::PaddedRows => "padded_rows",
            Metric::LossyCells => "lossy_cells",
            Metric::Error(e) => e.as_str(),
            Metric::Warning(w) => w.as_str(),
        }
    }

    fn from_name(s: &str) -> Option<Metric> {
        if let Some(m) = Metric::TOTALS.iter().chain(&Metric::READING).find(|m| m.name() == s) {
            return Some(*m);
        }
        // `multiple_values` and its kin are both errors and (repaired)
        // warnings: the name means the error, as the report lists it.
        Some(match ErrorCode::from_name(s) {
            Some(e) => Metric::Error(e),
            None => Metric::Warning(Warning::from_name(s)?),
        })
    }

    /// Counted for the run only, not per column.
    fn run_only(self) -> bool {
        matches!(
            self,
            Metric::Records | Metric::Duplicates | Metric::Clusters | Metric::RepeatedInRecord
        ) || Metric::READING.contains(&self)
    }

    /// A count that has no share.
    fn count_only(self) -> bool {
        matches!(self, Metric::Records | Metric::Values | Metric::Clusters) || Metric::READING.contains(&self)
    }

    /// The metric for the run, then and now (a share for
    /// `valid_of_present`), for the baseline's table.
    fn change(self, then: &Snapshot, now: &Snapshot) -> MetricChange {
        let at = |snap: &Snapshot| {
            let (count, of) = self.measure(snap, &snap.total);
            match self {
                Metric::ValidOfPresent => crate::report::fraction(count, of.unwrap_or(0)),
                _ => count as f64,
            }
        };
        let (then, now) = (at(then), at(now));
        MetricChange {
            metric: self.name().to_string(),
            then,
            now,
            change: ((now - then) * 1e6).round() / 1e6,
        }
    }

    /// What the metric counts in `snap` (`f`: the figures of the judged
    /// columns, or the run's), and what a percentage of it is a share of.
    pub fn measure(self, snap: &Snapshot, f: &Figures) -> (u64, Option<u64>) {
        match self {
            Metric::Records => (snap.records, None),
            Metric::Values => (f.values, None),
            Metric::Present => (f.present, Some(f.values)),
            Metric::Empty => (f.empty(), Some(f.values)),
            Metric::Placeholder => (f.placeholder(), Some(f.values)),
            Metric::Valid => (f.valid, Some(f.present)),
            Metric::Invalid => (f.invalid(), Some(f.present)),
            Metric::ValidOfPresent => (f.valid, Some(f.present)),
            Metric::Duplicates => (snap.values_in_clusters, Some(snap.total.valid)),
            Metric::Clusters => (snap.clusters, None),
            Metric::RepeatedInRecord => (snap.repeated_in_record, Some(snap.total.valid)),
            Metric::SkippedLines => (snap.skipped_lines, None),
            Metric::PaddedRows => (snap.padded_rows, None),
            Metric::LossyCells => (snap.lossy_cells, None),
            Metric::Error(e) => (f.error(e.as_str()), Some(f.values)),
            Metric::Warning(w) => (f.warnings.get(w.as_str()).copied().unwrap_or(0), Some(f.values)),
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
        // `rest` starts with `<` or `>`: one of these is its prefix.
        let (op, limit) = [Op::Ge, Op::Le, Op::Gt, Op::Lt]
            .into_iter()
            .find_map(|op| Some((op, rest.strip_prefix(op.as_str())?.trim())))
            .expect("rest starts with < or >");
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
    /// The column selector it is judged on (`COLUMN:METRIC`, as written);
    /// the run's totals when `None`.
    pub column: Option<String>,
    /// The columns `column` selects, resolved by the caller with `-c`'s
    /// selectors against the run's chosen columns; empty until then, when
    /// `column` is taken as one exact name.
    pub columns: Vec<String>,
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

/// Every metric name a gate takes, once each (`empty` is a total and a
/// code), for the error that lists them.
pub fn metric_names() -> Vec<&'static str> {
    let totals = Metric::TOTALS.iter().chain(&Metric::READING).map(|m| m.name());
    let codes = ErrorCode::ALL.iter().map(|e| e.as_str());
    let warnings = Warning::ALL.iter().map(|w| w.as_str());
    let mut v = Vec::new();
    for name in totals.chain(codes).chain(warnings) {
        if !v.contains(&name) {
            v.push(name);
        }
    }
    v
}

/// The error for a metric no gate knows, `scan`'s or `diff`'s: the
/// nearest name when it looks like a typo, then every name there is.
pub fn unknown_metric(flag: &str, expr: &str, name: &str, hint: &str, whose: &str, names: &[&str]) -> String {
    let owned: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let near = crate::select::did_you_mean(&owned, name);
    format!(
        "{flag} {expr:?}: unknown metric {name:?}{near}{hint}; {whose}metrics are: {}",
        names.join(", ")
    )
}

impl Gate {
    /// Reads `[COLUMN:]METRIC OP LIMIT` (spaces around OP allowed).
    pub fn parse(expr: &str, severity: Severity) -> Result<Gate, String> {
        let flag = severity.flag();
        let Expr {
            left,
            op,
            mut limit,
            mut percent,
        } = Expr::parse(expr, flag)?;
        let (change, left) = match left.strip_prefix("change:") {
            Some(rest) => (true, rest),
            None => (false, left.as_str()),
        };
        let (column, metric_name) = match left.rsplit_once(':') {
            Some((c, m)) => (Some(c.to_string()), m),
            None => (None, left),
        };
        let metric = Metric::from_name(metric_name)
            .ok_or_else(|| unknown_metric(flag, expr, metric_name, "", "", &metric_names()))?;
        match metric {
            _ if metric.count_only() && percent => {
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
            // `valid<0.95` meant a share: as a count it held for no run
            // with a valid value, and said nothing.
            _ if !percent && limit.fract() != 0.0 => {
                let share = if limit.abs() < 1.0 { limit * 100.0 } else { limit };
                return Err(format!(
                    "{flag} {expr:?}: {} is counted in whole values; a share is written with % ({share}%)",
                    metric.name(),
                ));
            }
            _ => {}
        }
        if column.is_some() && metric.run_only() {
            return Err(format!(
                "{flag} {expr:?}: {} is counted for the run, not per column",
                metric.name()
            ));
        }
        Ok(Gate {
            expr: expr.to_string(),
            severity,
            column,
            columns: Vec::new(),
            metric,
            change,
            op,
            limit,
            percent,
        })
    }

    /// What the metric counts in `snap`, and what a percentage of it is a
    /// share of; `Err` names a judged column `snap` lacks.
    fn measure(&self, snap: &Snapshot) -> Result<(u64, Option<u64>), String> {
        Ok(self.metric.measure(snap, &snap.figures(self.names())?))
    }

    /// The judged columns' names; none for the run.
    fn names(&self) -> &[String] {
        match (&self.column, self.columns.is_empty()) {
            (Some(c), true) => std::slice::from_ref(c),
            _ => &self.columns[..],
        }
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
        let unknown = |snap: &Snapshot, which: &str, name: String| {
            let names: Vec<&str> = snap.columns.iter().map(|(c, _)| c.as_str()).collect();
            format!(
                "gate {:?}: {name:?} is not one of the {which} ({})",
                self.expr,
                names.join(", ")
            )
        };
        let m = self.measure(now).map_err(|c| unknown(now, "chosen columns", c))?;
        let mut value = self.value(m);
        let mut before = None;
        if self.change {
            let then = then.ok_or_else(|| {
                format!(
                    "gate {:?}: change: compares with a baseline; add --baseline OLD.json",
                    self.expr
                )
            })?;
            // A column chosen since the baseline held nothing then: its
            // whole count is the change, and the report's caveat says the
            // baseline chose other columns. An error here would stop the
            // nightly job before it wrote the report that the next night
            // compares with, night after night.
            let figures = match self.names() {
                [] => then.total.clone(),
                names => then.figures_or_none(names),
            };
            let t = self.value(self.metric.measure(then, &figures));
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

/// Gates are judged on a finished report: here, so that the report knows
/// their verdicts but not how they are reached.
impl Report {
    /// Judges `gates` on this report (and `change:` gates against the
    /// baseline, whose changes it records) and records their verdicts. An
    /// error names a gate that cannot be judged.
    pub fn judge(&mut self, gates: &[Gate], baseline: Option<(&str, &Snapshot)>) -> Result<(), String> {
        let now = Snapshot::of(self);
        if let Some((path, then)) = baseline {
            let metrics = Metric::TOTALS.iter().map(|m| m.change(then, &now)).collect();
            self.changes = Some(Changes::between(path.to_string(), then, &now, metrics));
        }
        self.gates = gates
            .iter()
            .map(|g| g.judge(&now, baseline.map(|b| b.1)))
            .collect::<Result<_, _>>()?;
        self.verdict = Verdict::overall(&self.gates).to_string();
        Ok(())
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
    fn a_count_limit_is_whole() {
        let e = Gate::parse("valid<0.95", Severity::Fail).unwrap_err();
        assert!(
            e.contains("valid is counted in whole values; a share is written with % (95%)"),
            "{e}"
        );
        let e = Gate::parse("change:invalid>2.5", Severity::Fail).unwrap_err();
        assert!(e.contains("(2.5%)"), "{e}");
        for ok in ["valid_of_present<0.95", "invalid>2.5%", "change:valid<-3", "records>=1"] {
            assert!(Gate::parse(ok, Severity::Fail).is_ok(), "{ok}");
        }
    }

    #[test]
    fn every_total_is_a_metric() {
        for m in Metric::TOTALS.into_iter().chain(Metric::READING) {
            let g = Gate::parse(&format!("change:{}<0", m.name()), Severity::Fail).unwrap();
            assert_eq!((g.metric, g.change), (m, true));
        }
        let g = Gate::parse("change:dc.identifier.*:placeholder>0", Severity::Fail).unwrap();
        assert_eq!(g.column.as_deref(), Some("dc.identifier.*"));
        assert!(
            Gate::parse("clusters>5%", Severity::Fail)
                .unwrap_err()
                .contains("count")
        );
        for run_only in ["doi:clusters>0", "doi:repeated_in_record>0", "doi:records<1"] {
            assert!(
                Gate::parse(run_only, Severity::Fail)
                    .unwrap_err()
                    .contains("not per column")
            );
        }
    }

    /// One DOI of last night's export became `N/A`: fewer valid values and
    /// one more placeholder, and no more invalid ones.
    #[test]
    fn a_placeholder_is_a_lost_identifier_not_an_invalid_one() {
        let figures = |valid: u64, placeholder: u64| Figures {
            cells: 4,
            values: 4,
            present: 4 - placeholder,
            valid,
            errors: [("placeholder".to_string(), placeholder)]
                .into_iter()
                .filter(|e| e.1 > 0)
                .collect(),
            ..Figures::default()
        };
        let snap = |f: Figures| Snapshot {
            records: 4,
            columns: vec![("dc.identifier.doi".to_string(), f.clone())],
            total: f,
            ..Snapshot::default()
        };
        let (then, now) = (snap(figures(4, 0)), snap(figures(3, 1)));
        let judge = |expr: &str| {
            let mut g = Gate::parse(expr, Severity::Fail).unwrap();
            g.columns = g.column.iter().cloned().collect();
            g.judge(&now, Some(&then)).unwrap()
        };
        assert!(!judge("change:invalid>0").holds);
        assert!(judge("change:valid<0").holds);
        assert!(judge("change:dc.identifier.doi:placeholder>0").holds);
        // The share of present values stays whole: it cannot see a loss.
        assert!(!judge("change:valid_of_present<0").holds);
        assert_eq!(judge("placeholder>=25%").value, 25.0);
        assert_eq!(judge("valid>=100%").value, 100.0);
    }

    #[test]
    fn bad_expressions_say_what_is_wrong() {
        let e = Gate::parse("invalidd>1", Severity::Fail).unwrap_err();
        assert!(e.contains("unknown metric") && e.contains("extra_text"), "{e}");
        assert!(e.contains("(did you mean 'invalid'?)"), "{e}");
        assert!(
            !Gate::parse("frobs>1", Severity::Fail)
                .unwrap_err()
                .contains("did you mean")
        );
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
