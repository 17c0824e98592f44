//! What the Markdown and HTML pages of every report (`scan`'s and
//! `diff`'s) share: escaping for each, shares as percentages, and one
//! style sheet. A value from the data reaches a page only through
//! [`md_code`], [`md_cell`] or [`esc`].

use super::visible;

/// HTML text and attribute escaping, after making invisible characters
/// visible.
pub fn esc(s: &str) -> String {
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

/// A Markdown table cell: invisible characters as escapes, `|` and
/// backticks escaped, no line breaks (they would end the row).
pub fn md_cell(s: &str) -> String {
    visible(s).replace('|', "\\|").replace('`', "\\`")
}

/// A value in a Markdown cell, as code so Markdown reads nothing into it;
/// `empty` is what an empty value shows.
pub fn md_code(s: &str, empty: &str) -> String {
    if s.is_empty() {
        return empty.to_string();
    }
    // Inside a code span a backtick cannot be escaped: a longer fence can.
    let v = visible(s).replace('|', "\\|");
    if v.contains('`') {
        format!("`` {v} ``")
    } else {
        format!("`{v}`")
    }
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
pub const CSS: &str = "\
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

/// The gates table of a page, Markdown (`html` false) or HTML: each
/// gate's expression, severity, value (with what a percentage is of), limit
/// and outcome.
pub fn gates_table(gates: &[crate::gates::Verdict], html: bool) -> String {
    use crate::gates::Severity;
    use std::fmt::Write;
    let mut o = String::new();
    if gates.is_empty() {
        return o;
    }
    o.push_str(match html {
        true => "<h2>Gates</h2><table><tr><th>gate</th><th>severity</th><th class=\"n\">value</th><th class=\"n\">limit</th><th>outcome</th></tr>",
        false => "| gate | severity | value | limit | outcome |\n| --- | --- | ---: | ---: | --- |\n",
    });
    for g in gates {
        let value = match (g.then, g.denominator) {
            (Some(then), _) => format!("{:+} (then {then})", g.value),
            (None, Some(of)) if g.unit == "percent" => format!("{}% ({} of {of})", g.value, g.count),
            _ => g.count.to_string(),
        };
        let limit = format!("{} {}{}", g.op, g.limit, if g.unit == "percent" { "%" } else { "" });
        let outcome = match (g.holds, g.severity, html) {
            (true, Severity::Fail, true) => "<b>failed</b>",
            (true, Severity::Fail, false) => "**failed**",
            (true, _, _) => "warning",
            (false, _, _) => "passed",
        };
        let _ = match html {
            true => write!(
                o,
                "<tr><td><code>{}</code></td><td>{:?}</td><td class=\"n\">{value}</td><td class=\"n\">{}</td><td>{outcome}</td></tr>",
                esc(&g.expr),
                g.severity,
                esc(&limit)
            ),
            false => writeln!(
                o,
                "| {} | {:?} | {value} | {limit} | {outcome} |",
                md_code(&g.expr, ""),
                g.severity
            ),
        };
    }
    o.push_str(if html { "</table>" } else { "\n" });
    o
}

/// A report that can be written in every `--report` format.
pub trait Pages {
    fn json(&self) -> serde_json::Value;
    fn markdown(&self) -> String;
    fn html(&self) -> String;
}
