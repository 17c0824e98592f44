//! A [`DiffReport`] as a page: GitHub-flavoured Markdown, fit for a ticket
//! or a CI job summary, or one self-contained HTML page (inline CSS, no
//! script, no network). Both hold the same content in the same order: the
//! counts line, the gates, a table of the changes, the notes, how the
//! scans were made, and each change's examples. One printer writes both
//! through [`Markup`], as the scan report's printer does.

use super::change::Change;
use super::report::{DiffReport, FileReport, SideReport};
use super::summary::key_text;
use crate::report::markup::{Markup, Pages, gates_table, pct};

/// One side's cells of an example: kind, canonical or error, warnings;
/// empty when the key is not on that side.
fn side_cells(m: Markup, s: Option<&SideReport>) -> [String; 3] {
    match s {
        None => Default::default(),
        Some(s) => [
            m.code_or(&s.kind, ""),
            m.code_or(s.canonical.as_deref().or(s.error.as_deref()).unwrap_or_default(), ""),
            m.code_or(&s.warnings.join(";"), ""),
        ],
    }
}

impl Pages for DiffReport {
    fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("the report serializes")
    }

    fn page(&self, m: Markup) -> String {
        let mut o = String::with_capacity(16 * 1024);
        m.start(&mut o, "diff", self.verdict);
        match m {
            Markup::Markdown => m.paragraph(&mut o, &m.strong(&self.summary)),
            Markup::Html => o.push_str(&format!("<p class=\"counts\">{}</p>", m.text(&self.summary))),
        }
        let keys = self.key.iter().map(|k| m.code_or(k, "")).collect::<Vec<_>>().join(", ");
        let (old, new) = (&self.old, &self.new);
        let file = |f: &FileReport| {
            let path = m.code_or(&f.path, "");
            format!("{path} ({}, {}, {} rows)", f.format, f.shape, f.rows)
        };
        let files = format!("OLD {} → NEW {}, key {keys}.", file(old), file(new));
        m.paragraph(&mut o, &files);
        gates_table(&mut o, m, &self.gates);

        // The counts. Markdown's page opens with them, and needs no heading.
        if m == Markup::Html {
            m.heading(&mut o, "Changes");
        }
        let columns = [("change", false), ("keys", true), ("share of OLD's rows", true)];
        let numbers = columns.map(|c| c.1);
        m.table(&mut o, &columns, false);
        let counts = Change::ALL
            .iter()
            .map(|c| (c.as_str(), self.changes.get(*c).count))
            .chain([
                ("changed (any of the last four)", self.changed),
                ("unchanged", self.unchanged),
            ]);
        for (name, n) in counts {
            m.row(&mut o, &[name.to_string(), n.to_string(), pct(n, old.rows)], &numbers);
        }
        m.end_table(&mut o, false);

        if !self.notes.is_empty() {
            m.heading(&mut o, "Notes");
            m.list(&mut o, self.notes.iter().map(|n| m.text(n)));
        }
        if let Some(runs) = &self.runs {
            m.heading(&mut o, "The scans");
            let columns = [("", false), ("report", false), ("tool", false), ("options", false)];
            m.table(&mut o, &columns, false);
            for (which, r) in [("OLD", &runs.old), ("NEW", &runs.new)] {
                if let Some(r) = r {
                    let cells = [
                        which.to_string(),
                        m.code_or(&r.report, ""),
                        m.code_or(&r.tool, ""),
                        m.code_or(&r.options.to_string(), ""),
                    ];
                    m.row(&mut o, &cells, &[]);
                }
            }
            m.end_table(&mut o, false);
        }
        for c in Change::ALL {
            let r = self.changes.get(c);
            if r.examples.is_empty() {
                continue;
            }
            m.heading(&mut o, &format!("{} ({})", c.as_str(), r.count));
            let columns = [
                "key",
                "old kind",
                "old canonical or error",
                "old warnings",
                "new kind",
                "new canonical or error",
                "new warnings",
            ];
            m.table(&mut o, &columns.map(|c| (c, false)), true);
            for e in &r.examples {
                let mut cells = vec![m.code_or(&key_text(e), "")];
                cells.extend(side_cells(m, e.old.as_ref()));
                cells.extend(side_cells(m, e.new.as_ref()));
                m.row(&mut o, &cells, &[]);
            }
            m.end_table(&mut o, true);
            if r.count as usize > r.examples.len() {
                let left = r.count as usize - r.examples.len();
                m.more(
                    &mut o,
                    &format!("{left} more: {} writes every change.", m.code("-o FILE")),
                );
            }
        }
        m.end(&mut o);
        o
    }
}
