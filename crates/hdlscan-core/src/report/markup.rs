//! What the Markdown and HTML pages of every report (`scan`'s and
//! `diff`'s) share: [`Markup`], which owns each format's syntax and
//! escaping so one printer writes both, shares as percentages, the gates
//! table, and one style sheet. A string from the data reaches a page only
//! through `Markup::code`, `Markup::code_or`, `Markup::cell` or
//! `Markup::text`, so a cell holding `<script>`, `|` or a backtick stays
//! text.

use super::visible;
use std::fmt::Write;

/// The format a page is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// GitHub-flavoured Markdown, fit for a ticket or a CI job summary.
    Markdown,
    /// One self-contained HTML page: inline CSS, no script, no network.
    Html,
}

impl Markup {
    /// Opens the page of `what` (`report`, `diff`) with its verdict.
    pub fn start(self, o: &mut String, what: &str, verdict: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "# hdlscan {what}: {}\n\n", verdict.to_uppercase()),
            Markup::Html => write!(
                o,
                "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>hdlscan {what}: {verdict}</title><style>{CSS}</style></head><body>\
                 <h1>hdlscan {what} <span class=\"verdict {verdict}\">{}</span></h1>",
                verdict.to_uppercase()
            ),
        };
    }

    /// Closes the page.
    pub fn end(self, o: &mut String) {
        if self == Markup::Html {
            o.push_str("</body></html>\n");
        }
    }

    /// A value from the data, as code.
    pub fn code(self, s: &str) -> String {
        match self {
            Markup::Markdown => {
                // Inside a code span a backtick cannot be escaped: a longer
                // fence can.
                let v = visible(s).replace('|', "\\|");
                if v.contains('`') {
                    format!("`` {v} ``")
                } else {
                    format!("`{v}`")
                }
            }
            Markup::Html => format!("<code>{}</code>", esc(s)),
        }
    }

    /// A value from the data as code, or `empty` when it is empty.
    pub fn code_or(self, s: &str, empty: &str) -> String {
        if s.is_empty() { empty.to_string() } else { self.code(s) }
    }

    /// Text from the data in a table cell: no line breaks (they would end
    /// a Markdown row), `|` and backticks escaped.
    pub fn cell(self, s: &str) -> String {
        match self {
            Markup::Markdown => visible(s).replace('|', "\\|").replace('`', "\\`"),
            Markup::Html => esc(s),
        }
    }

    /// Text from the data outside a table.
    pub fn text(self, s: &str) -> String {
        match self {
            Markup::Markdown => visible(s),
            Markup::Html => esc(s),
        }
    }

    /// Strong emphasis of text already escaped.
    pub fn strong(self, s: &str) -> String {
        match self {
            Markup::Markdown => format!("**{s}**"),
            Markup::Html => format!("<b>{s}</b>"),
        }
    }

    /// A section's heading.
    pub fn heading(self, o: &mut String, title: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "## {title}\n\n"),
            Markup::Html => write!(o, "<h2>{title}</h2>"),
        };
    }

    /// A paragraph of text already escaped.
    pub fn paragraph(self, o: &mut String, text: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "{text}\n\n"),
            Markup::Html => write!(o, "<p>{text}</p>"),
        };
    }

    /// A line after a table saying what it leaves out.
    pub fn more(self, o: &mut String, text: &str) {
        let _ = match self {
            Markup::Markdown => write!(o, "{text}\n\n"),
            Markup::Html => write!(o, "<p class=\"more\">{text}</p>"),
        };
    }

    /// "and N more WHAT" after a table that shows `shown` of `total`.
    pub fn more_of(self, o: &mut String, total: usize, shown: usize, what: &str) {
        if total > shown {
            let text = format!("and {} more {what} (the JSON report lists them all)", total - shown);
            self.more(o, &text);
        }
    }

    /// A bulleted list of items already escaped.
    pub fn list(self, o: &mut String, items: impl Iterator<Item = String>) {
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
    pub fn table(self, o: &mut String, columns: &[(&str, bool)], scroll: bool) {
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
    pub fn row(self, o: &mut String, cells: &[String], numbers: &[bool]) {
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

    /// Ends a table opened with the same `scroll`.
    pub fn end_table(self, o: &mut String, scroll: bool) {
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

/// `n` as a percentage of `of`, two decimals; a dash when `of` is 0.
pub fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "–".to_string()
    } else {
        format!("{:.2}%", n as f64 * 100.0 / of as f64)
    }
}

/// The style of every HTML page: readable on a phone and printed.
const CSS: &str = "\
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:.3rem 0 1rem;font-size:.9rem}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font:.85rem ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all;background:#f6f8fa;padding:0 .2rem}
.verdict{display:inline-block;padding:.2rem .7rem;border-radius:.3rem;color:#fff;font-weight:600}.pass{background:#1a7f37}.warn{background:#9a6700}.fail{background:#cf222e}
.chart{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}.chart svg{max-width:100%;height:auto}
.counts{font-size:1.3rem;font-weight:600}.k{word-break:normal;white-space:nowrap}.scroll{overflow-x:auto}.more{color:#57606a;font-size:.85rem}
@media (max-width:40rem){body{font-size:14px;padding:.5rem}td,th{padding:.2rem .3rem}}
@media print{body{max-width:none}.scroll{overflow:visible}h2{break-after:avoid}table{break-inside:auto}tr{break-inside:avoid}}
";

/// The gates table of a page: each gate's expression, severity, value
/// (with what a percentage is of), limit and outcome. Markdown's needs no
/// heading: it follows the verdict.
pub fn gates_table(o: &mut String, m: Markup, gates: &[super::Verdict]) {
    use super::Severity;
    if gates.is_empty() {
        return;
    }
    if m == Markup::Html {
        m.heading(o, "Gates");
    }
    let columns = [
        ("gate", false),
        ("severity", false),
        ("value", true),
        ("limit", true),
        ("outcome", false),
    ];
    m.table(o, &columns, false);
    for g in gates {
        let value = match (g.then, g.denominator) {
            (Some(then), _) => format!("{:+} (then {then})", g.value),
            (None, Some(of)) if g.unit == "percent" => format!("{}% ({} of {of})", g.value, g.count),
            _ => g.count.to_string(),
        };
        let limit = format!("{} {}{}", g.op, g.limit, if g.unit == "percent" { "%" } else { "" });
        let outcome = match (g.holds, g.severity) {
            (true, Severity::Fail) => m.strong("failed"),
            (true, _) => "warning".to_string(),
            (false, _) => "passed".to_string(),
        };
        let cells = [
            m.code(&g.expr),
            format!("{:?}", g.severity),
            value,
            m.text(&limit),
            outcome,
        ];
        m.row(o, &cells, &columns.map(|c| c.1));
    }
    m.end_table(o, false);
}

/// A report that can be written in every `--report` format.
pub trait Pages {
    /// The report as JSON.
    fn json(&self) -> serde_json::Value;
    /// The report as a page in `m`.
    fn page(&self, m: Markup) -> String;
}
