//! The report as one self-contained HTML page: inline CSS, no script, no
//! network; charts are inline SVG, each with a title and the table it
//! draws beside it; readable on a phone and on paper. Every string from
//! the data goes through [`esc`] (a cell holding `<script>` stays text),
//! and lists are cut as in Markdown ([`Limits`]), so the page's size is
//! bounded whatever the input.

use super::page::{CSS, esc, gates_table, pct};
use super::{Codes, Counts, Limits, Report};
use std::fmt::Write;

/// A horizontal bar chart of `rows` as inline SVG, titled.
fn bars(o: &mut String, title: &str, rows: &[(String, u64)]) {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let (w, lh) = (420.0, 22.0);
    let h = lh * rows.len() as f64 + 4.0;
    let _ = write!(
        o,
        "<svg role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\"><title>{}</title>",
        esc(title)
    );
    for (i, (k, n)) in rows.iter().enumerate() {
        let y = i as f64 * lh + 2.0;
        let bw = (*n as f64 / max as f64) * 220.0;
        let _ = write!(
            o,
            "<text x=\"0\" y=\"{:.1}\" font-size=\"12\">{}</text><rect x=\"140\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"#0969da\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{n}</text>",
            y + 14.0,
            esc(&truncate(k, 22)),
            y + 3.0,
            lh - 6.0,
            140.0 + bw + 4.0,
            y + 14.0
        );
    }
    o.push_str("</svg>");
}

fn truncate(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn more(o: &mut String, total: usize, shown: usize, what: &str) {
    if total > shown {
        let _ = write!(
            o,
            "<p class=\"more\">and {} more {what} (the JSON report lists them all)</p>",
            total - shown
        );
    }
}

/// A counts table with its bar chart beside it.
fn counts(o: &mut String, title: &str, key: &str, c: &Counts, of: u64, of_what: &str) {
    let rows: Vec<(String, u64)> = c.0.iter().filter(|(_, n)| *n > 0).take(Limits::ROWS).cloned().collect();
    if rows.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<h2>{}</h2><div class=\"chart\"><table><tr><th>{key}</th><th class=\"n\">count</th><th class=\"n\">share of {of_what}</th></tr>",
        esc(title)
    );
    for (k, n) in &rows {
        let _ = write!(
            o,
            "<tr><td><code>{}</code></td><td class=\"n\">{n}</td><td class=\"n\">{}</td></tr>",
            esc(k),
            pct(*n, of)
        );
    }
    o.push_str("</table>");
    bars(o, title, &rows[..rows.len().min(20)]);
    o.push_str("</div>");
    more(o, c.0.iter().filter(|(_, n)| *n > 0).count(), Limits::ROWS, "rows");
}

fn codes(o: &mut String, title: &str, codes: &Codes, values: u64) {
    if codes.0.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<h2>{title}</h2><div class=\"scroll\"><table><tr><th>code</th><th class=\"n\">count</th><th class=\"n\">share of values</th><th>examples</th></tr>"
    );
    for (name, c) in &codes.0 {
        let _ = write!(
            o,
            "<tr><td><code class=\"k\">{name}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>",
            c.count,
            pct(c.count, values)
        );
        for e in &c.examples {
            let line = e.at.line.map_or(String::new(), |l| format!(", line {l}"));
            let _ = write!(
                o,
                "record {}{line}, {}: <code>{}</code><br>",
                e.at.record,
                esc(&e.at.column),
                if e.value.is_empty() {
                    "(empty)".to_string()
                } else {
                    esc(&e.value)
                }
            );
        }
        o.push_str("</td></tr>");
    }
    o.push_str("</table></div>");
}

impl Report {
    pub fn html(&self) -> String {
        let t = &self.totals;
        let mut o = String::with_capacity(64 * 1024);
        let _ = write!(
            o,
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>hdlscan report: {}</title><style>{CSS}</style></head><body>",
            self.verdict
        );
        let _ = write!(
            o,
            "<h1>hdlscan report <span class=\"verdict {}\">{}</span></h1>",
            self.verdict,
            self.verdict.to_uppercase()
        );
        o.push_str(&gates_table(&self.gates, true));
        if let Some(c) = &self.changes {
            let _ = write!(o, "<h2>Since <code>{}</code></h2>", esc(&c.baseline));
            if !c.same_tool || !c.same_options {
                let _ = write!(
                    o,
                    "<p>Note: the baseline was made by {} with {} options; a change may be theirs.</p>",
                    esc(&c.baseline_tool),
                    if c.same_options { "the same" } else { "other" }
                );
            }
            o.push_str("<table><tr><th>metric</th><th class=\"n\">then</th><th class=\"n\">now</th><th class=\"n\">change</th></tr>");
            for m in &c.metrics {
                let _ = write!(
                    o,
                    "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:+}</td></tr>",
                    m.metric, m.then, m.now, m.change
                );
            }
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.iter()
                        .map(|c| format!("<code>{}</code>", esc(c)))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            };
            let _ = write!(
                o,
                "</table><p>New codes: {}. Gone: {}.</p>",
                list(&c.new_codes),
                list(&c.gone_codes)
            );
        }
        let d = &self.duplicates;
        o.push_str("<h2>Totals</h2><table><tr><th></th><th class=\"n\">count</th><th class=\"n\">share</th></tr>");
        for (k, n, share) in [
            ("records", self.records, String::new()),
            ("cells", t.cells, String::new()),
            ("values", t.values, String::new()),
            ("present", t.present, format!("{} of values", pct(t.present, t.values))),
            ("valid", t.valid, format!("{} of present", pct(t.valid, t.present))),
            (
                "invalid",
                self.invalid(),
                format!("{} of values", pct(self.invalid(), t.values)),
            ),
            (
                "in duplicate clusters",
                d.values_in_clusters,
                format!("{} of valid", pct(d.values_in_clusters, t.valid)),
            ),
        ] {
            let _ = write!(
                o,
                "<tr><td>{k}</td><td class=\"n\">{n}</td><td class=\"n\">{share}</td></tr>"
            );
        }
        o.push_str("</table>");
        counts(&mut o, "By kind", "kind", &t.by_kind, t.values, "values");
        counts(
            &mut o,
            "By namespace",
            "namespace",
            &self.by_namespace,
            t.valid,
            "valid",
        );
        if self.columns.len() > 1 {
            o.push_str("<h2>By column</h2><div class=\"scroll\"><table><tr><th>column</th><th class=\"n\">cells</th><th class=\"n\">values</th><th class=\"n\">present</th><th class=\"n\">valid</th><th class=\"n\">valid of present</th></tr>");
            for c in self.columns.iter().take(Limits::COLUMNS) {
                let x = &c.totals;
                let _ = write!(
                    o,
                    "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                    esc(&c.name),
                    x.cells,
                    x.values,
                    x.present,
                    x.valid,
                    pct(x.valid, x.present)
                );
            }
            o.push_str("</table></div>");
            more(&mut o, self.columns.len(), Limits::COLUMNS, "columns");
        }
        codes(&mut o, "Errors", &self.errors, t.values);
        codes(&mut o, "Warnings", &self.warnings, t.values);
        let prefixes = Counts(self.top_prefixes.iter().map(|p| (p.prefix.clone(), p.count)).collect());
        counts(&mut o, "Top prefixes", "prefix", &prefixes, t.valid, "valid");
        counts(&mut o, "Resolver hosts", "host", &self.resolvers, t.valid, "valid");
        if d.clusters > 0 {
            let _ = write!(
                o,
                "<h2>Largest duplicate clusters</h2><p>{} clusters hold {} values ({} across inputs, {} across columns).</p><div class=\"scroll\"><table><tr><th class=\"n\">cluster</th><th>canonical</th><th class=\"n\">count</th><th>first seen</th><th>members</th></tr>",
                d.clusters, d.values_in_clusters, d.across_inputs, d.across_columns
            );
            for c in &d.top {
                let _ = write!(
                    o,
                    "<tr><td class=\"n\">{}</td><td><code>{}</code></td><td class=\"n\">{}</td><td>record {}, {}</td><td>",
                    c.cluster,
                    esc(&c.canonical),
                    c.count,
                    c.first.record,
                    esc(&c.first.column)
                );
                for m in &c.members {
                    let _ = write!(o, "<code>{}</code> ({})<br>", esc(&m.value), m.variant);
                }
                o.push_str("</td></tr>");
            }
            o.push_str("</table></div>");
        }
        let r = &self.run;
        let _ = write!(o, "<h2>Run</h2><table><tr><td>tool</td><td>{}</td></tr>", esc(&r.tool));
        for i in r.inputs.iter().take(Limits::ROWS) {
            let _ = write!(
                o,
                "<tr><td>input</td><td><code>{}</code> ({}, {} records, {} bytes)</td></tr>",
                esc(&i.path),
                esc(&i.format),
                i.records,
                i.bytes
            );
        }
        if let Some(out) = &r.output {
            let _ = write!(
                o,
                "<tr><td>output</td><td><code>{}</code> ({})</td></tr>",
                esc(out),
                r.output_shape
            );
        }
        let _ = write!(
            o,
            "<tr><td>options</td><td><code>{}</code></td></tr><tr><td>time</td><td>{:.2} s, {:.0} values/s</td></tr></table>",
            esc(&r.options.to_string()),
            r.elapsed_seconds,
            r.values_per_second
        );
        more(&mut o, r.inputs.len(), Limits::ROWS, "inputs");
        o.push_str("</body></html>\n");
        o
    }
}
