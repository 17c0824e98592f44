//! The report as a page, Markdown or HTML, written by one printer through
//! [`Markup`]: the same sections in the same order, each format's syntax
//! and escaping in `Markup`. HTML adds a bar chart beside each counts
//! table (inline SVG with a title). Every list is cut to a fixed length
//! ([`Limits`]), so a page's size is bounded whatever the input.

use super::markup::{Markup, Pages, gates_table, pct};
use super::{Codes, Counts, Limits, Report};
use serde_json::Value;
use std::fmt::Write;

impl Pages for Report {
    fn json(&self) -> Value {
        self.to_json()
    }

    fn page(&self, m: Markup) -> String {
        let html = m == Markup::Html;
        let t = &self.totals;
        let mut o = String::with_capacity(if html { 64 * 1024 } else { 16 * 1024 });
        m.start(&mut o, "report", &self.verdict);
        gates_table(&mut o, m, &self.gates);
        if let Some(c) = &self.changes {
            m.heading(&mut o, &format!("Since {}", m.code(&c.baseline)));
            if let Some(caveat) = c.caveat(|tool| m.cell(tool)) {
                m.paragraph(&mut o, &format!("Note: {caveat}."));
            }
            let columns = [("metric", false), ("then", true), ("now", true), ("change", true)];
            m.table(&mut o, &columns, false);
            for x in &c.metrics {
                let cells = [
                    x.metric.to_string(),
                    x.then.to_string(),
                    x.now.to_string(),
                    format!("{:+}", x.change),
                ];
                m.row(&mut o, &cells, &columns.map(|c| c.1));
            }
            m.end_table(&mut o, false);
            let list = |v: &[String]| match v.is_empty() {
                true => "none".to_string(),
                false => v.iter().map(|c| m.code(c)).collect::<Vec<_>>().join(", "),
            };
            let codes = format!("New codes: {}. Gone: {}.", list(&c.new_codes), list(&c.gone_codes));
            m.paragraph(&mut o, &codes);
        }
        let d = &self.duplicates;
        m.heading(&mut o, "Totals");
        let columns = [("", false), ("count", true), ("share", true)];
        m.table(&mut o, &columns, false);
        let of = |n: u64, total: u64, what: &str| format!("{} of {what}", pct(n, total));
        let repeated = d.repeated_in_record;
        for (k, n, share) in [
            ("records", self.records, String::new()),
            ("cells", t.cells, String::new()),
            ("values", t.values, String::new()),
            ("empty", t.empty, of(t.empty, t.values, "values")),
            ("placeholder", t.placeholder, of(t.placeholder, t.values, "values")),
            ("present", t.present, of(t.present, t.values, "values")),
            ("valid", t.valid, of(t.valid, t.present, "present")),
            ("invalid", t.invalid, of(t.invalid, t.present, "present")),
            ("duplicate clusters", d.clusters, String::new()),
            ("records in clusters", d.records_in_clusters, String::new()),
            (
                "values in clusters",
                d.values_in_clusters,
                of(d.values_in_clusters, t.valid, "valid"),
            ),
            (
                "repeated in their record",
                repeated.values,
                of(repeated.values, t.valid, "valid"),
            ),
            ("records with a repeat", repeated.records, String::new()),
        ] {
            if share.is_empty() && !html {
                // Markdown's rows without a share have always ended `| |`.
                let _ = writeln!(o, "| {k} | {n} | |");
            } else {
                m.row(&mut o, &[k.to_string(), n.to_string(), share], &columns.map(|c| c.1));
            }
        }
        m.end_table(&mut o, false);
        counts(&mut o, m, "By kind", "kind", &t.by_kind, t.values, "values");
        counts(
            &mut o,
            m,
            "By namespace",
            "namespace",
            &self.by_namespace,
            t.valid,
            "valid",
        );
        if self.columns.len() > 1 {
            m.heading(&mut o, "By column");
            let columns = [
                ("column", false),
                ("cells", true),
                ("values", true),
                ("empty", true),
                ("placeholder", true),
                ("present", true),
                ("valid", true),
                ("invalid", true),
                ("valid of present", true),
            ];
            m.table(&mut o, &columns, true);
            for c in self.columns.iter().take(Limits::COLUMNS) {
                let x = &c.totals;
                let cells = [
                    code(m, &c.name),
                    x.cells.to_string(),
                    x.values.to_string(),
                    x.empty.to_string(),
                    x.placeholder.to_string(),
                    x.present.to_string(),
                    x.valid.to_string(),
                    x.invalid.to_string(),
                    pct(x.valid, x.present),
                ];
                m.row(&mut o, &cells, &columns.map(|c| c.1));
            }
            m.end_table(&mut o, true);
            m.more_of(&mut o, self.columns.len(), Limits::COLUMNS, "columns");
        }
        codes(&mut o, m, "Errors", &self.errors, t.values);
        codes(&mut o, m, "Warnings", &self.warnings, t.values);
        let prefixes = Counts(self.top_prefixes.iter().map(|p| (p.prefix.clone(), p.count)).collect());
        if html {
            counts(&mut o, m, "Top prefixes", "prefix", &prefixes, t.valid, "valid");
        } else if !prefixes.0.is_empty() {
            m.heading(&mut o, "Top prefixes");
            m.table(&mut o, &[("prefix", false), ("count", true)], false);
            for (prefix, n) in &prefixes.0 {
                m.row(&mut o, &[code(m, prefix), n.to_string()], &[false, true]);
            }
            m.end_table(&mut o, false);
        }
        counts(&mut o, m, "Resolver hosts", "host", &self.resolvers, t.valid, "valid");
        if d.clusters > 0 {
            m.heading(&mut o, "Largest duplicate clusters");
            let text = format!(
                "{} identifiers are each held by two records or more: {} records, {} values ({} clusters across \
                 inputs, {} across columns). An identifier repeated inside one record is no cluster.",
                d.clusters, d.records_in_clusters, d.values_in_clusters, d.across_inputs, d.across_columns
            );
            m.paragraph(&mut o, &text);
            let columns = [
                ("cluster", true),
                ("canonical", false),
                ("records", true),
                ("values", true),
                ("first seen", false),
                ("members", false),
            ];
            m.table(&mut o, &columns, true);
            for c in &d.top {
                let members = c
                    .members
                    .iter()
                    .map(|x| format!("record {}: {} ({})", x.at.record, code(m, &x.value), x.variant));
                let cells = [
                    c.cluster.to_string(),
                    code(m, &c.canonical),
                    c.records.to_string(),
                    c.count.to_string(),
                    format!("record {}, {}", c.first.record, m.cell(&c.first.column)),
                    lines(m, members, ", "),
                ];
                m.row(&mut o, &cells, &columns.map(|c| c.1));
            }
            m.end_table(&mut o, true);
        }
        self.run_table(&mut o, m);
        m.end(&mut o);
        o
    }
}

impl Report {
    /// How the run was made: a table of two columns without a head in
    /// HTML, and with an empty one in Markdown.
    fn run_table(&self, o: &mut String, m: Markup) {
        let r = &self.run;
        m.heading(o, "Run");
        match m {
            Markup::Markdown => m.table(o, &[("", false), ("", false)], false),
            Markup::Html => o.push_str("<table>"),
        }
        let row = |o: &mut String, label: &str, text: String| m.row(o, &[label.to_string(), text], &[]);
        row(o, "tool", m.cell(&r.tool));
        for i in r.inputs.iter().take(Limits::ROWS) {
            let what = format!("({}, {} records, {} bytes)", m.text(&i.format), i.records, i.bytes);
            row(o, "input", format!("{} {what}", code(m, &i.path)));
        }
        // Markdown has always said this inside the table, HTML after it.
        let more = r.inputs.len().saturating_sub(Limits::ROWS);
        if more > 0 && m == Markup::Markdown {
            let _ = writeln!(o, "\nand {more} more inputs (the JSON report lists them all)");
        }
        if let Some(out) = &r.output {
            row(o, "output", format!("{} ({})", code(m, out), r.output_shape));
        }
        row(o, "options", code(m, &r.options.to_string()));
        let time = format!("{:.2} s, {:.0} values/s", r.elapsed_seconds, r.values_per_second);
        row(o, "time", time);
        if m == Markup::Html {
            o.push_str("</table>");
            m.more_of(o, r.inputs.len(), Limits::ROWS, "inputs");
        }
    }
}

/// A key or value from the data as code: `(empty)` in Markdown when empty.
fn code(m: Markup, s: &str) -> String {
    match m {
        Markup::Markdown => m.code_or(s, "(empty)"),
        Markup::Html => m.code(s),
    }
}

/// Several entries in one cell: joined by `sep` in Markdown, each ending
/// its line in HTML.
fn lines(m: Markup, items: impl Iterator<Item = String>, sep: &str) -> String {
    match m {
        Markup::Markdown => items.collect::<Vec<_>>().join(sep),
        Markup::Html => items.map(|x| x + "<br>").collect(),
    }
}

/// A counts table (rows above zero), in HTML with its bar chart beside it.
fn counts(o: &mut String, m: Markup, title: &str, key: &str, c: &Counts, of: u64, of_what: &str) {
    let rows: Vec<(String, u64)> = c.0.iter().filter(|(_, n)| *n > 0).cloned().collect();
    if rows.is_empty() {
        return;
    }
    let html = m == Markup::Html;
    m.heading(o, title);
    let share = if html {
        format!("share of {of_what}")
    } else {
        "share".to_string()
    };
    if html {
        o.push_str("<div class=\"chart\">");
    }
    m.table(o, &[(key, false), ("count", true), (&share, true)], false);
    let shown = &rows[..rows.len().min(Limits::ROWS)];
    for (k, n) in shown {
        m.row(o, &[code(m, k), n.to_string(), pct(*n, of)], &[false, true, true]);
    }
    m.end_table(o, false);
    if html {
        bars(o, title, &shown[..shown.len().min(20)]);
        o.push_str("</div>");
    }
    m.more_of(o, rows.len(), Limits::ROWS, "rows");
}

/// The errors or warnings with their counts and first examples.
fn codes(o: &mut String, m: Markup, title: &str, codes: &Codes, values: u64) {
    if codes.0.is_empty() {
        return;
    }
    m.heading(o, title);
    let examples = match m {
        Markup::Markdown => "examples (record, line, column: value)",
        Markup::Html => "examples",
    };
    let columns = [
        ("code", false),
        ("count", true),
        ("share of values", true),
        (examples, false),
    ];
    m.table(o, &columns, true);
    for (name, c) in &codes.0 {
        let name = match m {
            Markup::Markdown => format!("`{name}`"),
            Markup::Html => format!("<code class=\"k\">{name}</code>"),
        };
        let examples = c.examples.iter().map(|e| {
            let line = e.at.line.map_or(String::new(), |l| format!(", line {l}"));
            let value = match m {
                Markup::Markdown => m.code_or(&e.value, "(empty)"),
                Markup::Html => m.code(if e.value.is_empty() { "(empty)" } else { &e.value }),
            };
            format!("record {}{line}, {}: {value}", e.at.record, m.cell(&e.at.column))
        });
        let cells = [
            name,
            c.count.to_string(),
            pct(c.count, values),
            lines(m, examples, "<br>"),
        ];
        m.row(o, &cells, &columns.map(|c| c.1));
    }
    m.end_table(o, true);
}

/// A horizontal bar chart of `rows` as inline SVG, titled.
fn bars(o: &mut String, title: &str, rows: &[(String, u64)]) {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let (w, lh) = (420.0, 22.0);
    let h = lh * rows.len() as f64 + 4.0;
    let _ = write!(
        o,
        "<svg role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\"><title>{}</title>",
        Markup::Html.text(title)
    );
    for (i, (k, n)) in rows.iter().enumerate() {
        let y = i as f64 * lh + 2.0;
        let bw = (*n as f64 / max as f64) * 220.0;
        let _ = write!(
            o,
            "<text x=\"0\" y=\"{:.1}\" font-size=\"12\">{}</text><rect x=\"140\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"#0969da\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{n}</text>",
            y + 14.0,
            Markup::Html.text(&truncate(k, 22)),
            y + 3.0,
            lh - 6.0,
            140.0 + bw + 4.0,
            y + 14.0
        );
    }
    o.push_str("</svg>");
}

/// `s` cut to `n` characters, with an ellipsis when cut.
fn truncate(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
