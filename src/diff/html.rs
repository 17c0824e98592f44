//! A [`DiffReport`] as one self-contained HTML page (inline CSS, no
//! script, no network), the Markdown page's content: every string from the
//! data escaped by [`esc`], so a cell holding `<script>` stays text.

use super::change::Change;
use super::report::{DiffReport, SideReport};
use super::summary::key_text;
use crate::report::page::{CSS, esc, gates_table, pct};
use std::fmt::Write;

fn code(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("<code>{}</code>", esc(s))
    }
}

fn side_cells(o: &mut String, s: Option<&SideReport>) {
    match s {
        None => o.push_str("<td></td><td></td><td></td>"),
        Some(s) => {
            let _ = write!(
                o,
                "<td>{}</td><td>{}</td><td>{}</td>",
                code(&s.kind),
                code(s.canonical.as_deref().or(s.error.as_deref()).unwrap_or_default()),
                code(&s.warnings.join(";"))
            );
        }
    }
}

impl DiffReport {
    pub fn html(&self) -> String {
        let mut o = String::with_capacity(16 * 1024);
        let _ = write!(
            o,
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>hdlscan diff: {}</title><style>{CSS}</style></head><body>",
            self.verdict
        );
        let _ = write!(
            o,
            "<h1>hdlscan diff <span class=\"verdict {}\">{}</span></h1><p class=\"counts\">{}</p>",
            self.verdict,
            self.verdict.to_uppercase(),
            esc(&self.summary)
        );
        let _ = write!(
            o,
            "<p>OLD {} ({}, {}, {} rows) → NEW {} ({}, {}, {} rows), key {}.</p>",
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
        o.push_str(&gates_table(&self.gates, true));
        o.push_str("<h2>Changes</h2><table><tr><th>change</th><th class=\"n\">keys</th><th class=\"n\">share of OLD's rows</th></tr>");
        let rows = Change::ALL
            .iter()
            .map(|c| (c.as_str(), self.changes.get(*c).count))
            .chain([
                ("changed (any of the last four)", self.changed),
                ("unchanged", self.unchanged),
            ]);
        for (name, n) in rows {
            let _ = write!(
                o,
                "<tr><td>{name}</td><td class=\"n\">{n}</td><td class=\"n\">{}</td></tr>",
                pct(n, self.old.rows)
            );
        }
        o.push_str("</table>");
        if !self.notes.is_empty() {
            o.push_str("<h2>Notes</h2><ul>");
            for n in &self.notes {
                let _ = write!(o, "<li>{}</li>", esc(n));
            }
            o.push_str("</ul>");
        }
        if let Some(runs) = &self.runs {
            o.push_str("<h2>The scans</h2><table><tr><th></th><th>report</th><th>tool</th><th>options</th></tr>");
            for (which, r) in [("OLD", &runs.old), ("NEW", &runs.new)] {
                if let Some(r) = r {
                    let _ = write!(
                        o,
                        "<tr><td>{which}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        code(&r.report),
                        code(&r.tool),
                        code(&r.options.to_string())
                    );
                }
            }
            o.push_str("</table>");
        }
        for c in Change::ALL {
            let r = self.changes.get(c);
            if r.examples.is_empty() {
                continue;
            }
            let _ = write!(
                o,
                "<h2>{} ({})</h2><div class=\"scroll\"><table><tr><th>key</th><th>old kind</th><th>old canonical or error</th><th>old warnings</th><th>new kind</th><th>new canonical or error</th><th>new warnings</th></tr>",
                c.as_str(),
                r.count
            );
            for e in &r.examples {
                let _ = write!(o, "<tr><td>{}</td>", code(&key_text(e)));
                side_cells(&mut o, e.old.as_ref());
                side_cells(&mut o, e.new.as_ref());
                o.push_str("</tr>");
            }
            o.push_str("</table></div>");
            if r.count as usize > r.examples.len() {
                let _ = write!(
                    o,
                    "<p class=\"more\">{} more: <code>-o FILE</code> writes every change.</p>",
                    r.count as usize - r.examples.len()
                );
            }
        }
        o.push_str("</body></html>\n");
        o
    }
}
