//! A [`DiffReport`] as one self-contained HTML page (inline CSS, no
//! script, no network), the Markdown page's content: every string from the
//! data escaped by [`esc`], so a cell holding `<script>` stays text.

use super::change::Change;
use super::report::{DiffReport, SideReport};
use super::summary::key_text;
use crate::report::visible;
use std::fmt::Write;

/// HTML text and attribute escaping, after making invisible characters
/// visible.
fn esc(s: &str) -> String {
    let v = visible(s);
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "–".to_string()
    } else {
        format!("{:.2}%", n as f64 * 100.0 / of as f64)
    }
}

const CSS: &str = "\
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:.3rem 0 1rem;font-size:.9rem}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font:.85rem ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all;background:#f6f8fa;padding:0 .2rem}
.verdict{display:inline-block;padding:.2rem .7rem;border-radius:.3rem;color:#fff;font-weight:600}.pass{background:#1a7f37}.warn{background:#9a6700}.fail{background:#cf222e}
.counts{font-size:1.3rem;font-weight:600}.scroll{overflow-x:auto}.more{color:#57606a;font-size:.85rem}
@media (max-width:40rem){body{font-size:14px;padding:.5rem}td,th{padding:.2rem .3rem}}
";

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
        if !self.gates.is_empty() {
            o.push_str("<h2>Gates</h2><table><tr><th>gate</th><th>severity</th><th class=\"n\">value</th><th>outcome</th></tr>");
            for g in &self.gates {
                let value = if g.unit == "percent" {
                    format!("{}% ({} of {})", g.value, g.count, g.denominator.unwrap_or(0))
                } else {
                    g.count.to_string()
                };
                let outcome = match (g.holds, g.severity) {
                    (true, crate::gates::Severity::Fail) => "<b>failed</b>",
                    (true, _) => "warning",
                    (false, _) => "passed",
                };
                let _ = write!(
                    o,
                    "<tr><td>{}</td><td>{:?}</td><td class=\"n\">{value}</td><td>{outcome}</td></tr>",
                    code(&g.expr),
                    g.severity
                );
            }
            o.push_str("</table>");
        }
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
