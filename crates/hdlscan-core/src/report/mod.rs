//! The report of a run: one typed model ([`Report`]) made of the merged
//! [`Stats`], the duplicate clusters' summary and how the run was made.
//! JSON is its serde serialization, read back through serde (a
//! `--baseline`, `diff`'s `--old-report`); the stderr summary
//! ([`Report::summary`]) and the Markdown and HTML pages (`page`, through [`markup::Markup`])
//! are its printers. The gates' [`Verdict`]s are part of it; judging them
//! is `crate::gates`' business ([`Report::judge`]), which stands on the
//! report and not the other way round.
//! Every field is documented in docs/report.md; the schema's
//! version is [`REPORT_VERSION`].

pub mod markup;
mod page;
mod snapshot;
mod stats;
mod summary;
mod tally;
mod verdict;

pub use snapshot::{Changes, CodeChange, Figures, MetricChange, Snapshot, is_diff_report};
pub use stats::{CodeStats, ColumnStats, Decoding, Example, InputInfo, Stats, example_text};
pub use tally::Tally;
pub use verdict::{Severity, Verdict};

use crate::at::At;
use crate::id::{ErrorCode, Kind, Warning};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Bumped whenever a field of the JSON report changes meaning or goes away.
/// 2: several columns and values per cell (`records`, `cells`, `values`,
/// `present`, `columns`), examples with their column and line, and
/// `duplicates` as clusters. 3: `empty`, `placeholder` and `invalid`
/// (present, not valid) apart in every total; a cluster is a canonical
/// held by two records or more (`records_in_clusters`, each top cluster's
/// `records`), a record's own repeats are `repeated_in_record`, and
/// `duplicate_values` is gone. [`Snapshot::from_json`] reads 2 and 3.
pub const REPORT_VERSION: u32 = 3;
/// Prefixes listed in `top_prefixes`.
const TOP_PREFIXES: usize = 20;

/// How much of each list the Markdown and HTML pages show (the JSON report
/// has everything): enough to act on, and a page of bounded size however
/// many hosts or columns an export has.
pub struct Limits;

impl Limits {
    /// Rows of the largest clusters' table.
    pub const ROWS: usize = 50;
    /// Characters of a value shown in a page.
    pub const COLUMNS: usize = 100;
}

/// `s` with what a reader cannot see written as an escape: control
/// characters, white space other than the space, and the invisible
/// format characters of SPEC's `invisible_char` (`\u200b`, `\u00ad`,
/// `\ufeff`, the bidi controls); a backslash is doubled so an escape is
/// never ambiguous.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let hidden = c.is_control()
            || (c.is_whitespace() && c != ' ')
            || matches!(c, '\u{00AD}' | '\u{034F}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}');
        match c {
            '\\' => out.push_str("\\\\"),
            _ if hidden => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Counts in a fixed order, serialized as a JSON object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts(#[serde(with = "pairs")] pub Vec<(String, u64)>);

/// Codes with their counts and examples, serialized as an object by code.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Codes(#[serde(with = "pairs")] pub Vec<(String, CodeReport)>);

/// `(name, value)` pairs as one JSON object, in their order.
mod pairs {
    use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
    use serde::ser::{Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize>(pairs: &[(String, T)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<(String, T)>, D::Error> {
        struct Pairs<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Pairs<T> {
            type Value = Vec<(String, T)>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(pairs)
            }
        }
        d.deserialize_map(Pairs(std::marker::PhantomData))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// One code's count and first examples.
pub struct CodeReport {
    /// Values with the code.
    pub count: u64,
    /// The first of them, in input order.
    pub examples: Vec<ExampleReport>,
}

/// Where a value was read, by name.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Place {
    /// The input, as named.
    pub input: String,
    /// The 1-based data record, across inputs.
    pub record: u64,
    /// The line the record starts on (CSV, TSV); null for Parquet.
    pub line: Option<u64>,
    /// The chosen column.
    pub column: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// An example value and where it was read.
pub struct ExampleReport {
    #[serde(flatten)]
    /// Where it was read.
    pub at: Place,
    /// The value as read (lossy UTF-8, cut).
    pub value: String,
}

/// The statistics of a set of values: the run's, or one column's. Every
/// value is one of `empty`, `placeholder`, `valid` and `invalid`; `present`
/// is the last two.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Totals {
    /// Cells read (a cell holds several values under `--split`).
    pub cells: u64,
    /// Values read.
    pub values: u64,
    /// Values neither `empty` nor `placeholder`.
    pub present: u64,
    /// Empty values (an empty cell, a null, a path that found nothing).
    #[serde(default)]
    pub empty: u64,
    /// Placeholders (`N/A`, `none`, `-`: SPEC's `placeholder`).
    #[serde(default)]
    pub placeholder: u64,
    /// Valid values.
    pub valid: u64,
    /// Present values that are not valid.
    #[serde(default)]
    pub invalid: u64,
    /// `valid / present`, a fraction (0 to 1) rounded to 6 digits; 0
    /// when nothing is present.
    pub valid_of_present: f64,
    /// Values of each kind of SPEC §2, its `invalid` told apart as
    /// `invalid` (present), `placeholder` and `empty`: they sum to `values`.
    pub by_kind: Counts,
}

impl Totals {
    fn of(c: &ColumnStats) -> Totals {
        let (present, valid) = (c.present(), c.valid());
        let empty = c.errors[ErrorCode::Empty as usize];
        let placeholder = c.errors[ErrorCode::Placeholder as usize];
        let valid_kinds = Kind::ALL.iter().filter(|k| **k != Kind::Invalid);
        let kinds = valid_kinds.map(|k| (k.as_str().to_string(), c.by_kind[*k as usize]));
        Totals {
            cells: c.cells,
            values: c.values,
            present,
            empty,
            placeholder,
            valid,
            invalid: present.saturating_sub(valid),
            valid_of_present: fraction(valid, present),
            by_kind: Counts(
                kinds
                    .chain([
                        ("invalid".to_string(), present.saturating_sub(valid)),
                        ("placeholder".to_string(), placeholder),
                        ("empty".to_string(), empty),
                    ])
                    .collect(),
            ),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// One chosen column's statistics.
pub struct ColumnReport {
    /// The column, as named in the input.
    pub name: String,
    #[serde(flatten)]
    /// Its totals.
    pub totals: Totals,
    /// Codes that occur in this column, with their counts.
    pub errors: Counts,
    /// Warnings in this column, with their counts.
    pub warnings: Counts,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// A prefix and its count.
pub struct PrefixCount {
    /// The prefix (`10.1000`, `1721.1`).
    pub prefix: String,
    /// Valid values with it.
    pub count: u64,
}

/// The duplicate clusters: records sharing a canonical (see
/// [`crate::clusters`] for each definition).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct Duplicates {
    /// Distinct canonicals among the valid values.
    pub unique_canonical: u64,
    /// Canonicals held by two records or more.
    pub clusters: u64,
    /// The records of those clusters, each cluster's counted.
    #[serde(default)]
    pub records_in_clusters: u64,
    /// Valid values in those clusters, a record's repeats included.
    pub values_in_clusters: u64,
    /// Clusters holding values from more than one input.
    pub across_inputs: u64,
    /// Clusters holding values from more than one chosen column.
    pub across_columns: u64,
    /// A canonical repeated inside one record: never a cluster by itself.
    #[serde(default)]
    pub repeated_in_record: crate::clusters::Repeated,
    /// The largest clusters, numbered as in the duplicates file.
    pub top: Vec<ClusterReport>,
    /// The duplicates file (`--duplicates`), if written.
    pub file: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// One of the largest duplicate clusters.
pub struct ClusterReport {
    /// Its number in the duplicates file.
    pub cluster: u64,
    /// The canonical its members share.
    pub canonical: String,
    /// Its members (values).
    pub count: u64,
    /// The distinct records holding them.
    #[serde(default)]
    pub records: u64,
    /// Where the cluster was first seen.
    pub first: Place,
    /// Its first members, in order of appearance.
    pub members: Vec<MemberReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// A member of a cluster.
pub struct MemberReport {
    #[serde(flatten)]
    /// Where it was read.
    pub at: Place,
    /// Its 1-based position in its cell.
    pub value_index: u32,
    /// The value as read.
    pub value: String,
    /// How the value differs from the cluster's first (see README).
    pub variant: String,
}

/// How the run was made.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunInfo {
    /// The tool and version that made it.
    pub tool: String,
    /// The inputs read.
    pub inputs: Vec<InputInfo>,
    /// The enriched output, if any.
    pub output: Option<String>,
    /// `wide` (the input's rows, enriched) or `long` (a row per value).
    pub output_shape: String,
    /// The added columns' prefix (`--column-prefix`, or chosen: see
    /// `notes`).
    pub column_prefix: String,
    /// The options, as the plan serialized them.
    pub options: Value,
    /// Wall time of the run.
    pub elapsed_seconds: f64,
    /// Values per second of wall time.
    pub values_per_second: f64,
    /// Input megabytes per second of wall time.
    pub mb_per_second: f64,
    /// Input bytes read.
    pub input_bytes: u64,
}

/// A finished run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// The report's format version.
    pub version: u32,
    /// `pass`, `warn` (a `--warn-if` held) or `fail` (a `--fail-if` held).
    pub verdict: String,
    /// Every gate with its metric's value, denominator, limit and outcome.
    pub gates: Vec<Verdict>,
    /// What changed since `--baseline`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// Data records read.
    pub records: u64,
    /// Cells, values and their outcomes, over all columns.
    #[serde(flatten)]
    pub totals: Totals,
    /// Values per namespace.
    pub by_namespace: Counts,
    /// Each error code: its count and examples.
    pub errors: Codes,
    /// Each warning code: its count and examples.
    pub warnings: Codes,
    /// The same figures per chosen column.
    pub columns: Vec<ColumnReport>,
    /// The most frequent prefixes.
    pub top_prefixes: Vec<PrefixCount>,
    /// Values per resolver host.
    pub resolvers: Counts,
    /// Duplicate clusters.
    pub duplicates: Duplicates,
    /// Input cells whose invalid UTF-8 was replaced (U+FFFD) in Parquet or
    /// Arrow output.
    pub lossy_cells: u64,
    /// Short rows padded with empty fields (`--allow-short-rows`).
    pub padded_rows: u64,
    /// JSON lines skipped as not one record (`--skip-bad-lines`); the
    /// first few are described in `notes`.
    pub skipped_lines: u64,
    /// What the run decided or noticed that a reader should know (a
    /// prefix chosen for the added columns, a header that looks like data,
    /// bad lines skipped).
    pub notes: Vec<String>,
    /// How the run went: tool, options, inputs, time.
    pub run: RunInfo,
}

/// What the report needs besides the stats.
pub struct Made {
    /// Each input read.
    pub inputs: Vec<InputInfo>,
    /// The chosen columns' names, in the run's order.
    pub columns: Vec<String>,
    /// `-o`, as shown.
    pub output: Option<String>,
    /// Whether the output is long.
    pub long: bool,
    /// The prefix of the added columns.
    pub column_prefix: String,
    /// What the run decided or noticed (see [`Report::notes`]).
    pub notes: Vec<String>,
    /// The options, as the report shows them.
    pub options: Value,
    /// Wall time of the run.
    pub elapsed_seconds: f64,
}

impl Report {
    /// Makes the report of `stats` and the duplicate clusters' `dups`.
    pub fn new(made: Made, stats: Stats, dups: &crate::clusters::Summary, duplicates_file: Option<String>) -> Report {
        let total = stats.total();
        let input_names: Vec<String> = made.inputs.iter().map(|i| i.path.clone()).collect();
        let place_at = |at: &At| Place {
            input: input_names.get(at.input as usize).cloned().unwrap_or_default(),
            record: at.record,
            line: at.line,
            column: made.columns.get(at.column as usize).cloned().unwrap_or_default(),
        };
        let example = |e: &Example| ExampleReport {
            at: place_at(&e.at),
            value: e.value.clone(),
        };
        let code = |c: &CodeStats| CodeReport {
            count: c.count,
            examples: c.examples.iter().map(example).collect(),
        };
        let codes = |names: &[&'static str], stats: &[CodeStats]| {
            let counted = names.iter().zip(stats).filter(|(_, c)| c.count > 0);
            Codes(counted.map(|(n, c)| (n.to_string(), code(c))).collect())
        };
        let error_names: Vec<&'static str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        let warning_names: Vec<&'static str> = Warning::ALL.iter().map(|c| c.as_str()).collect();
        let nonzero = |names: &[&'static str], counts: &[u64]| {
            let counted = names.iter().zip(counts).filter(|(_, n)| **n > 0);
            Counts(counted.map(|(k, n)| (k.to_string(), *n)).collect())
        };
        let column = |(name, c): (&String, &ColumnStats)| ColumnReport {
            name: name.clone(),
            totals: Totals::of(c),
            errors: nonzero(&error_names, &c.errors),
            warnings: nonzero(&warning_names, &c.warnings),
        };
        let columns = made.columns.iter().zip(&stats.columns).map(column).collect();
        let hints = hints(&made.columns, &made.inputs, &stats);
        let skipped = stats.bad_lines.iter().map(|b| format!("skipped {b}"));
        let input_bytes: u64 = made.inputs.iter().map(|i| i.bytes).sum();
        let secs = made.elapsed_seconds.max(1e-9);
        let member = |m: &crate::clusters::TopMember| MemberReport {
            at: place_at(&m.at),
            value_index: m.at.value_index,
            value: m.value.clone(),
            variant: m.variant.as_str().to_string(),
        };
        let cluster = |(i, c): (usize, &crate::clusters::TopCluster)| ClusterReport {
            cluster: i as u64 + 1,
            canonical: c.canonical.clone(),
            count: c.count,
            records: c.records,
            first: place_at(&c.first),
            members: c.members.iter().map(member).collect(),
        };
        let duplicates = Duplicates {
            unique_canonical: dups.unique,
            clusters: dups.clusters,
            records_in_clusters: dups.records_in_clusters,
            values_in_clusters: dups.values_in_clusters,
            across_inputs: dups.across_inputs,
            across_columns: dups.across_columns,
            repeated_in_record: dups.repeated_in_record,
            top: dups.top.iter().enumerate().map(cluster).collect(),
            file: duplicates_file,
        };
        Report {
            version: REPORT_VERSION,
            verdict: "pass".to_string(),
            gates: Vec::new(),
            changes: None,
            records: stats.records,
            totals: Totals::of(&total),
            by_namespace: Counts(sorted_counts(&stats.namespaces, usize::MAX)),
            errors: codes(&error_names, &stats.errors),
            warnings: codes(&warning_names, &stats.warnings),
            columns,
            top_prefixes: sorted_counts(&stats.prefixes, TOP_PREFIXES)
                .into_iter()
                .map(|(prefix, count)| PrefixCount { prefix, count })
                .collect(),
            resolvers: Counts(sorted_counts(&stats.resolvers, usize::MAX)),
            duplicates,
            lossy_cells: stats.lossy_cells,
            padded_rows: stats.padded_rows,
            skipped_lines: stats.skipped_lines,
            notes: made.notes.into_iter().chain(skipped).chain(hints).collect(),
            run: RunInfo {
                tool: format!("hdlscan {}", env!("CARGO_PKG_VERSION")),
                inputs: made.inputs,
                output: made.output,
                output_shape: if made.long { "long" } else { "wide" }.to_string(),
                column_prefix: made.column_prefix,
                options: made.options,
                elapsed_seconds: (made.elapsed_seconds * 1000.0).round() / 1000.0,
                values_per_second: (total.values as f64 / secs).round(),
                mb_per_second: ((input_bytes as f64 / 1e6 / secs) * 10.0).round() / 10.0,
                input_bytes,
            },
        }
    }

    /// The report as JSON, as `--report` writes it.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("the report serializes")
    }
}

/// Notes where the fix is known: bytes that are not UTF-8 in a column of
/// CSV or TSV read as UTF-8 (an Excel export in Windows-1252), and identifiers
/// joined by `||` (DSpace) read as one value.
fn hints(columns: &[String], inputs: &[InputInfo], stats: &Stats) -> Vec<String> {
    let decoded = inputs.iter().any(|i| i.decoding.is_some());
    // `--encoding` is a usage error with any other input (JSON, Parquet):
    // advice to add it would only fail the next run.
    let text = inputs.iter().any(|i| matches!(i.format.as_str(), "csv" | "tsv"));
    let joined = |column: usize| {
        stats.errors.get(ErrorCode::MultipleValues as usize).is_some_and(|c| {
            c.examples
                .iter()
                .any(|e| e.at.column as usize == column && e.value.contains("||"))
        })
    };
    let mut out = Vec::new();
    for (i, (name, c)) in columns.iter().zip(&stats.columns).enumerate() {
        let bad = c.errors[ErrorCode::BadUtf8 as usize];
        if bad > 0 && !decoded && text {
            out.push(format!(
                "column {name:?}: {bad} values are not UTF-8 (bad_utf8): if the file is Windows-1252 or Latin-1, \
                 try `--encoding windows-1252`"
            ));
        }
        let several = c.errors[ErrorCode::MultipleValues as usize];
        if several > 0 && joined(i) {
            out.push(format!(
                "column {name:?}: {several} values hold several identifiers joined by `||` (multiple_values): \
                 add `--split '||'`"
            ));
        }
    }
    out
}

/// `n / of`, rounded to 6 digits; 0 when `of` is 0.
pub(crate) fn fraction(n: u64, of: u64) -> f64 {
    if of == 0 {
        return 0.0;
    }
    (n as f64 / of as f64 * 1e6).round() / 1e6
}

/// Counts sorted by count (descending), then key, at most `n`. Keys are
/// distinct, so the order is total: the first `n` are chosen before they
/// are sorted, and only they are copied (a run meets thousands of
/// prefixes and shows twenty).
fn sorted_counts(m: &Tally, n: usize) -> Vec<(String, u64)> {
    let order = |a: &(&str, u64), b: &(&str, u64)| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0));
    let mut v: Vec<(&str, u64)> = m.iter().collect();
    if n < v.len() {
        if n == 0 {
            return Vec::new();
        }
        v.select_nth_unstable_by(n - 1, order);
        v.truncate(n);
    }
    v.sort_unstable_by(order);
    v.into_iter().map(|(k, c)| (k.to_owned(), c)).collect()
}
