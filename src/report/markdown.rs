//! The report as GitHub-flavoured Markdown, fit for a ticket or a CI job
//! summary. Every list is cut to a fixed length ([`super::shown`]'s
//! limits), so the page stays under 1 MiB whatever the input.

use super::page::{gates_table, md_cell, md_code, pct};
use super::{Codes, Counts, Limits, Report};
use std::fmt::Write;

fn cell(s: &str) -> String {
    md_cell(s)
}

fn code(s: &str) -> String {
    md_code(s, "(empty)")
}

impl Report {
    pub fn markdown(&self) -> String {
        let mut o = String::new();
        let t = &self.totals;
        let _ = writeln!(o, "# hdlscan report: {}\n", self.verdict.to_uppercase());
        o.push_str(&gates_table(&self.gates, false));
        if let Some(c) = &self.changes {
            let _ = writeln!(o, "## Since {}\n", code(&c.baseline));
            if !c.same_tool || !c.same_options {
                let _ = writeln!(
                    o,
                    "Note: the baseline was made by {} with {} options; a change may be theirs.\n",
                    cell(&c.baseline_tool),
                    if c.same_options { "the same" } else { "other" }
                );
            }
            let _ = writeln!(o, "| metric | then | now | change |\n| --- | ---: | ---: | ---: |");
            for m in &c.metrics {
                let _ = writeln!(o, "| {} | {} | {} | {:+} |", m.metric, m.then, m.now, m.change);
            }
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                }
            };
            let _ = writeln!(
                o,
                "\nNew codes: {}. Gone: {}.\n",
                list(&c.new_codes),
                list(&c.gone_codes)
            );
        }
        let _ = writeln!(o, "## Totals\n\n| | count | share |\n| --- | ---: | ---: |");
        let _ = writeln!(o, "| records | {} | |", self.records);
        let _ = writeln!(o, "| cells | {} | |", t.cells);
        let _ = writeln!(o, "| values | {} | |", t.values);
        let _ = writeln!(
            o,
            "| present | {} | {} of values |",
            t.present,
            pct(t.present, t.values)
        );
        let _ = writeln!(o, "| valid | {} | {} of present |", t.valid, pct(t.valid, t.present));
        let _ = writeln!(
            o,
            "| invalid | {} | {} of values |",
            self.invalid(),
            pct(self.invalid(), t.values)
        );
        let d = &self.duplicates;
        let _ = writeln!(
            o,
            "| in duplicate clusters | {} | {} of valid |\n",
            d.values_in_clusters,
            pct(d.values_in_clusters, t.valid)
        );
        counts_table(&mut o, "By kind", "kind", &t.by_kind, t.values);
        counts_table(&mut o, "By namespace", "namespace", &self.by_namespace, t.valid);
        if self.columns.len() > 1 {
            let _ = writeln!(
                o,
                "## By column\n\n| column | cells | values | present | valid | valid of present |\n| --- | ---: | ---: | ---: | ---: | ---: |"
            );
            for c in self.columns.iter().take(Limits::COLUMNS) {
                let x = &c.totals;
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} | {} |",
                    code(&c.name),
                    x.cells,
                    x.values,
                    x.present,
                    x.valid,
                    pct(x.valid, x.present)
                );
            }
            more(&mut o, self.columns.len(), Limits::COLUMNS, "columns");
            o.push('\n');
        }
        codes_table(&mut o, "Errors", &self.errors, t.values);
        codes_table(&mut o, "Warnings", &self.warnings, t.values);
        if !self.top_prefixes.is_empty() {
            let _ = writeln!(o, "## Top prefixes\n\n| prefix | count |\n| --- | ---: |");
            for p in &self.top_prefixes {
                let _ = writeln!(o, "| {} | {} |", code(&p.prefix), p.count);
            }
            o.push('\n');
        }
        counts_table(&mut o, "Resolver hosts", "host", &self.resolvers, t.valid);
        if d.clusters > 0 {
            let _ = writeln!(
                o,
                "## Largest duplicate clusters\n\n{} clusters hold {} values ({} across inputs, {} across columns).\n",
                d.clusters, d.values_in_clusters, d.across_inputs, d.across_columns
            );
            let _ = writeln!(
                o,
                "| cluster | canonical | count | first seen | members |\n| ---: | --- | ---: | --- | --- |"
            );
            for c in &d.top {
                let members: Vec<String> = c
                    .members
                    .iter()
                    .map(|m| format!("{} ({})", code(&m.value), m.variant))
                    .collect();
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | record {}, {} | {} |",
                    c.cluster,
                    code(&c.canonical),
                    c.count,
                    c.first.record,
                    cell(&c.first.column),
                    members.join(", ")
                );
            }
            o.push('\n');
        }
        let r = &self.run;
        let _ = writeln!(o, "## Run\n\n| | |\n| --- | --- |\n| tool | {} |", cell(&r.tool));
        for i in r.inputs.iter().take(Limits::ROWS) {
            let _ = writeln!(
                o,
                "| input | {} ({}, {} records, {} bytes) |",
                code(&i.path),
                i.format,
                i.records,
                i.bytes
            );
        }
        more(&mut o, r.inputs.len(), Limits::ROWS, "inputs");
        if let Some(out) = &r.output {
            let _ = writeln!(o, "| output | {} ({}) |", code(out), r.output_shape);
        }
        let _ = writeln!(o, "| options | {} |", code(&r.options.to_string()));
        let _ = writeln!(
            o,
            "| time | {:.2} s, {:.0} values/s |",
            r.elapsed_seconds, r.values_per_second
        );
        o
    }
}

fn more(o: &mut String, total: usize, shown: usize, what: &str) {
    if total > shown {
        let _ = writeln!(
            o,
            "\nand {} more {what} (the JSON report lists them all)",
            total - shown
        );
    }
}

fn counts_table(o: &mut String, title: &str, key: &str, c: &Counts, of: u64) {
    let rows: Vec<&(String, u64)> = c.0.iter().filter(|(_, n)| *n > 0).collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(o, "## {title}\n\n| {key} | count | share |\n| --- | ---: | ---: |");
    for (k, n) in rows.iter().take(Limits::ROWS) {
        let _ = writeln!(o, "| {} | {n} | {} |", code(k), pct(*n, of));
    }
    more(o, rows.len(), Limits::ROWS, "rows");
    o.push('\n');
}

fn codes_table(o: &mut String, title: &str, codes: &Codes, values: u64) {
    if codes.0.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "## {title}\n\n| code | count | share of values | examples (record, line, column: value) |\n| --- | ---: | ---: | --- |"
    );
    for (name, c) in &codes.0 {
        let ex: Vec<String> = c
            .examples
            .iter()
            .map(|e| {
                let line = e.at.line.map_or(String::new(), |l| format!(", line {l}"));
                format!(
                    "record {}{line}, {}: {}",
                    e.at.record,
                    cell(&e.at.column),
                    code(&e.value)
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "| `{name}` | {} | {} | {} |",
            c.count,
            pct(c.count, values),
            ex.join("<br>")
        );
    }
    o.push('\n');
}
