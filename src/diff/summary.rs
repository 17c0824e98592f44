//! The short summary of a [`DiffReport`] for stderr: its first line is the
//! counts (`+12 −3 ~40, 7 became invalid`), then each change with a count
//! and two examples, the gates that held and the notes.

use super::change::Change;
use super::report::{DiffReport, ExampleReport, FileReport, SideReport};
use crate::report::visible;
use std::fmt::Write;

/// Examples per change on stderr (the report has more).
const SHOWN: usize = 2;

/// A side in a few words: the canonical of a valid value, the error of an
/// invalid one, and the warnings.
pub(super) fn brief(s: &SideReport) -> String {
    let mut out = if s.valid() {
        s.canonical.clone().unwrap_or_default()
    } else {
        format!("invalid ({})", s.error.as_deref().unwrap_or("no error code"))
    };
    if !s.warnings.is_empty() {
        let _ = write!(out, " [{}]", s.warnings.join(";"));
    }
    visible(&out)
}

/// `id=42, column=doi`, as the data has it (printers escape it).
pub(super) fn key_text(e: &ExampleReport) -> String {
    let cell = |(k, v): (&String, &serde_json::Value)| format!("{k}={}", v.as_str().unwrap_or_default());
    e.key.iter().map(cell).collect::<Vec<_>>().join(", ")
}

/// `OLD → NEW`, either side alone for `removed` and `added`.
pub(super) fn example_line(e: &ExampleReport) -> String {
    match (&e.old, &e.new) {
        (Some(o), Some(n)) => format!("{} → {}", brief(o), brief(n)),
        (Some(o), None) => brief(o),
        (None, Some(n)) => brief(n),
        (None, None) => String::new(),
    }
}

impl DiffReport {
    /// The few lines `diff` prints on stderr.
    pub fn summary_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.summary);
        let file = |f: &FileReport| format!("{}: {} rows ({}, {})", visible(&f.path), f.rows, f.format, f.shape);
        let key = visible(&self.key.join(", "));
        let _ = writeln!(out, "  OLD {}; NEW {}; key {key}", file(&self.old), file(&self.new));
        for c in Change::ALL {
            let r = self.changes.get(c);
            let _ = write!(out, "  {:<18} {:>10}", c.as_str(), r.count);
            let example = |e: &ExampleReport| format!("{}: {}", visible(&key_text(e)), example_line(e));
            let ex: Vec<String> = r.examples.iter().take(SHOWN).map(example).collect();
            if !ex.is_empty() {
                let _ = write!(out, "  e.g. {}", ex.join("; "));
            }
            out.push('\n');
        }
        let _ = writeln!(out, "  {:<18} {:>10}", "unchanged", self.unchanged);
        for g in self.gates.iter().filter(|g| g.holds) {
            let _ = writeln!(out, "  {}", g.describe());
        }
        for n in &self.notes {
            let _ = writeln!(out, "  note: {n}");
        }
        out
    }
}
