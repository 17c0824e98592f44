//! A [`DiffReport`] as a page: GitHub-flavoured Markdown, fit for a ticket
//! or a CI job summary, or one self-contained HTML page (inline CSS, no
//! script, no network). Both hold the same content in the same order: the
//! counts line, the gates, a table of the changes, the notes, how the
//! scans were made, and each change's examples. One printer writes both
//! through [`Markup`], which owns each format's syntax and escaping: a
//! string from the data reaches the page only through `Markup::code` or
//! `Markup::text`, so a cell holding `<script>`, `|` or a backtick stays
//! text.

use super::change::Change;
use super::report::{DiffReport, SideReport};
use super::summary::key_text;
use crate::report::page::{CSS, esc, gates_table, md_code, pct};
use crate::report::visible;
use std::fmt::Write;

/// The format a page is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Markup {
    Markdown,
    Html,
}

impl Markup {
    /// A value from the data, as code (nothing when empty).
    fn code(self, s: &str) -> String {
        match self {
            Markup::Markdown => md_code(s, ""),
            Markup::Html if s.is_empty() => String::new(),
            Markup::Html => format!("<code>{}</code>", esc(s)),
        }
    }

    /// Text from the data outside a table.
    fn text(self, s: &str) -> String {
        match self {
            Markup::Markdown => visible(s),
            Markup::Html => esc(s),
        }
    }

    fn heading(self, o: &mut String, title: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "## {title}\n\n"),
            Markup::Html => write!(o, "<h2>{title}</h2>"),
        };
    }

    fn paragraph(self, o: &mut String, text: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "{text}\n\n"),
            Markup::Html => write!(o, "<p>{text}</p>"),
        };
    }

    /// A line after a table saying what it leaves out.
    fn more(self, o: &mut String, text: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "{text}\n\n"),
            Markup::Html => write!(o, "<p class=\"more\">{text}</p>"),
        };
    }

    fn list(self, o: &mut String, items: impl Iterator<Item = String>) {
        match self {
            Markup::Markdown => {
                for item in items {
                    let _ = writeln!(o, "- {item}");
                }
                o.push('\n');
            }
            Markup::Html => {
                o.push_str("<ul>");
                for item in items {
                    let _ = write!(o, "<li>{item}</li>");
                }
                o.push_str("</ul>");
            }
        }
    }

    /// A table's head: the columns' names, `true` for numbers (right
    /// aligned); `scroll` lets a wide one scroll on its own in HTML.
    fn table(self, o: &mut String, columns: &[(&str, bool)], scroll: bool) {
        match self {
            Markup::Markdown => {
                o.push('|');
                for (name, _) in columns {
                    let _ = write!(o, "{}{name} |", if name.is_empty() { "" } else { " " });
                }
                o.push_str("\n|");
                for &(_, number) in columns {
                    o.push_str(if number { " ---: |" } else { " --- |" });
                }
                o.push('\n');
            }
            Markup::Html => {
                o.push_str(if scroll {
                    "<div class=\"scroll\"><table><tr>"
                } else {
                    "<table><tr>"
                });
                for &(name, number) in columns {
                    let _ = write!(o, "<th{}>{name}</th>", number_class(number));
                }
                o.push_str("</tr>");
            }
        }
    }

    /// A row of cells, already escaped; `numbers` as the head's columns.
    fn row(self, o: &mut String, cells: &[String], numbers: &[bool]) {
        match self {
            Markup::Markdown => {
                let _ = writeln!(o, "| {} |", cells.join(" | "));
            }
            Markup::Html => {
                o.push_str("<tr>");
                for (i, cell) in cells.iter().enumerate() {
                    let number = numbers.get(i).copied().unwrap_or(false);
                    let _ = write!(o, "<td{}>{cell}</td>", number_class(number));
                }
                o.push_str("</tr>");
            }
        }
    }

    fn end_table(self, o: &mut String, scroll: bool) {
        o.push_str(match (self, scroll) {
            (Markup::Markdown, _) => "\n",
            (Markup::Html, false) => "</table>",
            (Markup::Html, true) => "</table></div>",
        });
    }
}

fn number_class(number: bool) -> &'static str {
    if number { " class=\"n\"" } else { "" }
}

/// One side's cells of an example: kind, canonical or error, warnings;
/// empty when the key is not on that side.
fn side_cells(m: Markup, s: Option<&SideReport>) -> [String; 3] {
    match s {
        None => Default::default(),
        Some(s) => [
            m.code(&s.kind),
            m.code(s.canonical.as_deref().or(s.error.as_deref()).unwrap_or_default()),
            m.code(&s.warnings.join(";")),
        ],
    }
}

impl DiffReport {
    pub fn markdown(&self) -> String {
        self.page(Markup::Markdown)
    }

    pub fn html(&self) -> String {
        self.page(Markup::Html)
    }

    fn page(&self, m: Markup) -> String {
        let mut o = String::with_capacity(16 * 1024);
        match m {
            Markup::Markdown => {
                let _ = write!(
                    o,
                    "# hdlscan diff: {}\n\n**{}**\n\n",
                    self.verdict.to_uppercase(),
                    self.summary
                );
            }
            Markup::Html => {
                let _ = write!(
                    o,
                    "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>hdlscan diff: {}</title><style>{CSS}</style></head><body>\
                     <h1>hdlscan diff <span class=\"verdict {}\">{}</span></h1><p class=\"counts\">{}</p>",
                    self.verdict,
                    self.verdict,
                    self.verdict.to_uppercase(),
                    esc(&self.summary)
                );
            }
        }
        let keys = self.key.iter().map(|k| m.code(k)).collect::<Vec<_>>().join(", ");
        let (old, new) = (&self.old, &self.new);
        m.paragraph(
            &mut o,
            &format!(
                "OLD {} ({}, {}, {} rows) → NEW {} ({}, {}, {} rows), key {keys}.",
                m.code(&old.path),
                old.format,
                old.shape,
                old.rows,
                m.code(&new.path),
                new.format,
                new.shape,
                new.rows,
            ),
        );
        o.push_str(&gates_table(&self.gates, m == Markup::Html));

        // The counts. Markdown's page opens with them, and needs no heading.
        if m == Markup::Html {
            m.heading(&mut o, "Changes");
        }
        let numbers = [false, true, true];
        m.table(
            &mut o,
            &[("change", false), ("keys", true), ("share of OLD's rows", true)],
            false,
        );
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
            m.table(
                &mut o,
                &[("", false), ("report", false), ("tool", false), ("options", false)],
                false,
            );
            for (which, r) in [("OLD", &runs.old), ("NEW", &runs.new)] {
                if let Some(r) = r {
                    let cells = [
                        which.to_string(),
                        m.code(&r.report),
                        m.code(&r.tool),
                        m.code(&r.options.to_string()),
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
                let mut cells = vec![m.code(&key_text(e))];
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
        if m == Markup::Html {
            o.push_str("</body></html>\n");
        }
        o
    }
}
