//! A [`DiffReport`] as GitHub-flavoured Markdown, fit for a ticket or a CI
//! job summary: the counts line, the gates, a table of the changes, the
//! notes, how the scans were made, and each change's examples.

use super::change::Change;
use super::report::{DiffReport, SideReport};
use super::summary::key_text;
use crate::report::page::{gates_table, md_code, pct};
use crate::report::visible;
use std::fmt::Write;

fn code(s: &str) -> String {
    md_code(s, "")
}

fn side_cells(s: Option<&SideReport>) -> [String; 3] {
    match s {
        None => Default::default(),
        Some(s) => [
            code(&s.kind),
            code(s.canonical.as_deref().or(s.error.as_deref()).unwrap_or_default()),
            code(&s.warnings.join(";")),
        ],
    }
}

impl DiffReport {
    pub fn markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "# hdlscan diff: {}\n", self.verdict.to_uppercase());
        let _ = writeln!(o, "**{}**\n", self.summary);
        let _ = writeln!(
            o,
            "OLD {} ({}, {}, {} rows) → NEW {} ({}, {}, {} rows), key {}.\n",
            code(&self.old.path),
            self.old.format,
            self.old.shape,
            self.old.rows,
            code(&self.new.path),
            self.new.format,
            self.new.shape,
            self.new.rows,
            self.key.iter().map(|k| code(k)).collect::<Vec<_>>().join(", ")
        );
        o.push_str(&gates_table(&self.gates, false));
        o.push_str("| change | keys | share of OLD's rows |\n| --- | ---: | ---: |\n");
        for c in Change::ALL {
            let n = self.changes.get(c).count;
            let _ = writeln!(o, "| {} | {n} | {} |", c.as_str(), pct(n, self.old.rows));
        }
        let _ = writeln!(
            o,
            "| changed (any of the last four) | {} | {} |",
            self.changed,
            pct(self.changed, self.old.rows)
        );
        let _ = writeln!(
            o,
            "| unchanged | {} | {} |\n",
            self.unchanged,
            pct(self.unchanged, self.old.rows)
        );
        if !self.notes.is_empty() {
            o.push_str("## Notes\n\n");
            for n in &self.notes {
                let _ = writeln!(o, "- {}", visible(n));
            }
            o.push('\n');
        }
        if let Some(runs) = &self.runs {
            o.push_str("## The scans\n\n| | report | tool | options |\n| --- | --- | --- | --- |\n");
            for (which, r) in [("OLD", &runs.old), ("NEW", &runs.new)] {
                if let Some(r) = r {
                    let _ = writeln!(
                        o,
                        "| {which} | {} | {} | {} |",
                        code(&r.report),
                        code(&r.tool),
                        code(&r.options.to_string())
                    );
                }
            }
            o.push('\n');
        }
        for c in Change::ALL {
            let r = self.changes.get(c);
            if r.examples.is_empty() {
                continue;
            }
            let _ = writeln!(o, "## {} ({})\n", c.as_str(), r.count);
            o.push_str(
                "| key | old kind | old canonical or error | old warnings | new kind | new canonical or error | new warnings |\n\
                 | --- | --- | --- | --- | --- | --- | --- |\n",
            );
            for e in &r.examples {
                let mut cells = vec![code(&key_text(e))];
                cells.extend(side_cells(e.old.as_ref()));
                cells.extend(side_cells(e.new.as_ref()));
                let _ = writeln!(o, "| {} |", cells.join(" | "));
            }
            if r.count as usize > r.examples.len() {
                let _ = writeln!(
                    o,
                    "\n{} more: `-o FILE` writes every change.",
                    r.count as usize - r.examples.len()
                );
            }
            o.push('\n');
        }
        o
    }
}
