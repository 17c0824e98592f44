//! The short human summary of a [`Report`] for stderr.

use super::markup::pct;
use super::{Report, Totals};
use std::fmt::Write;

/// Error codes shown with examples; the rest are counted on one line.
const ERRORS_SHOWN: usize = 5;

impl Report {
    /// The few lines `scan` prints on stderr.
    pub fn summary(&self) -> String {
        let t = &self.totals;
        let mut out = String::new();
        let d = &self.duplicates;
        let secs = self.run.elapsed_seconds.max(1e-9);
        let _ = writeln!(
            out,
            "hdlscan: {} records, {} values: {}; {} unique, {} duplicate clusters ({} records, {} values), \
             {} values repeated in their record ({} records); {:.2}s, {:.0} values/s, {:.1} MB/s",
            self.records,
            t.values,
            outcomes(t),
            d.unique_canonical,
            d.clusters,
            d.records_in_clusters,
            d.values_in_clusters,
            d.repeated_in_record.values,
            d.repeated_in_record.records,
            self.run.elapsed_seconds,
            t.values as f64 / secs,
            self.run.input_bytes as f64 / 1e6 / secs,
        );
        let counted = t.by_kind.0.iter().filter(|(_, n)| *n > 0);
        let kinds: Vec<String> = counted.map(|(k, n)| format!("{k} {n}")).collect();
        if kinds.is_empty() {
            // Every cell is a value, so no value means no record: say so
            // rather than print a bare `kinds:`.
            let _ = writeln!(out, "  kinds: none: the inputs hold no record");
        } else {
            let _ = writeln!(out, "  kinds: {}", kinds.join(", "));
        }
        if self.columns.len() > 1 {
            for c in &self.columns {
                let _ = writeln!(
                    out,
                    "  column {:?}: {} values: {}",
                    c.name,
                    c.totals.values,
                    outcomes(&c.totals)
                );
            }
        }
        let mut errs: Vec<_> = self.errors.0.iter().collect();
        errs.sort_by_key(|(_, c)| std::cmp::Reverse(c.count));
        for (code, c) in errs.iter().take(ERRORS_SHOWN) {
            let example = |x: &super::ExampleReport| format!("record {}: {:?}", x.at.record, x.value);
            let ex: Vec<String> = c.examples.iter().take(2).map(example).collect();
            let _ = writeln!(out, "  error {code:<20} {:>10}  e.g. {}", c.count, ex.join(", "));
        }
        if errs.len() > ERRORS_SHOWN {
            let rest: Vec<String> = errs[ERRORS_SHOWN..]
                .iter()
                .map(|(code, c)| format!("{code} {}", c.count))
                .collect();
            let _ = writeln!(out, "  other errors: {}", rest.join(", "));
        }
        let mut warns: Vec<_> = self.warnings.0.iter().map(|(w, c)| (w.as_str(), c.count)).collect();
        warns.sort_by_key(|w| std::cmp::Reverse(w.1));
        if !warns.is_empty() {
            let w: Vec<String> = warns.iter().map(|(w, n)| format!("{w} {n}")).collect();
            let _ = writeln!(out, "  warnings: {}", w.join(", "));
        }
        for g in self.gates.iter().filter(|g| g.holds) {
            let _ = writeln!(out, "  {}", g.describe());
        }
        if let Some(caveat) = self.baseline_caveat() {
            let _ = writeln!(out, "  note: {caveat}");
        }
        for n in &self.notes {
            let _ = writeln!(out, "  note: {n}");
        }
        if self.lossy_cells > 0 {
            let _ = writeln!(
                out,
                "  note: {} input cells held invalid UTF-8, replaced by U+FFFD in the output",
                self.lossy_cells
            );
        }
        out
    }

    /// [`Changes::caveat`](super::Changes::caveat) with the baseline named,
    /// for stderr: a nightly log shows a failed `change:` gate beside it.
    pub fn baseline_caveat(&self) -> Option<String> {
        let c = self.changes.as_ref()?;
        Some(format!("{}: {}", c.baseline, c.caveat(str::to_string)?))
    }
}

/// The four outcomes of `t`'s values, each once, with the shares the
/// pages give: `empty`, `placeholder` and `present` of the values, `valid`
/// and `invalid` of the present ones.
fn outcomes(t: &Totals) -> String {
    let share = |n: u64, what: &str, of: u64| format!("{n} {what} ({})", pct(n, of));
    format!(
        "{}, {}, {}: {}, {}",
        share(t.empty, "empty", t.values),
        share(t.placeholder, "placeholder", t.values),
        share(t.present, "present", t.values),
        share(t.valid, "valid", t.present),
        share(t.invalid, "invalid", t.present)
    )
}
