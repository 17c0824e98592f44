//! The enriched output columns (`record` and SPEC §3's columns, and long
//! output's columns saying where a value was read) as Arrow arrays: their
//! schema, the clash check against input column names, and a builder that
//! appends one parsed value at a time.

use crate::id::{ErrorCode, Kind, Parsed, Rendered};
use anyhow::{Result, bail};
use arrow_array::builder::{Int8Builder, ListBuilder, StringBuilder, StringDictionaryBuilder, UInt64Builder};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, DictionaryArray, StringArray};
use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;

/// SPEC §3's columns, in output order: what every parsed value yields.
pub const SPEC: [&str; 12] = [
    "kind",
    "namespace",
    "prefix",
    "suffix",
    "canonical",
    "uri",
    "url",
    "resolver",
    "query",
    "fragment",
    "error",
    "warnings",
];

/// Names of the enriched columns of `scan`, in output order (before
/// `--column-prefix`): the record number, then SPEC's columns.
pub fn names() -> impl Iterator<Item = &'static str> {
    std::iter::once("record").chain(SPEC)
}

/// Added columns whose values are (nearly) all distinct: a Parquet
/// dictionary would only cost time (interning every value) before the
/// writer falls back to plain encoding.
pub const DISTINCT: [&str; 5] = ["record", "suffix", "canonical", "uri", "url"];

/// Added string columns written without Parquet min/max statistics: their
/// values are spread over the whole range in every row group, so the
/// statistics prune nothing, and computing them compares every value twice
/// (2% of a scan's instructions).
pub const NO_STATISTICS: [&str; 4] = ["suffix", "canonical", "uri", "url"];

/// Long output's leading columns written without a Parquet dictionary:
/// `line` repeats only within a record (its few values), so its dictionary
/// outgrows the page limit in every row group, and is larger than plain.
pub const LONG_NO_DICTIONARY: [&str; 1] = ["line"];

/// Long output's leading columns written without min/max statistics:
/// `value`, the values as read, spread over the whole range, as
/// [`NO_STATISTICS`]'s do.
pub const LONG_NO_STATISTICS: [&str; 1] = ["value"];

fn dict(key: DataType) -> DataType {
    DataType::Dictionary(Box::new(key), Box::new(DataType::Utf8))
}

/// Long output's leading columns (before `--column-prefix`), in order:
/// where each value was read. `input` is there when a run has several
/// inputs. `source_column`, not `column`: that is an SQL keyword DuckDB
/// and Spark SQL make a query quote.
pub const LONG_LEAD: [&str; 6] = ["input", "record", "line", "source_column", "value_index", "value"];

/// `prefix` + `name`, refused when it clashes with an input column's name
/// in any case: DuckDB and Spark resolve column names case-insensitively,
/// so `Prefix` beside `prefix` would be ambiguous there.
fn added_name(prefix: &str, name: &str, input_names: &[String]) -> Result<String> {
    let full = format!("{prefix}{name}");
    if let Some(theirs) = input_names.iter().find(|n| n.eq_ignore_ascii_case(&full)) {
        bail!(
            "the input already has a column named {theirs:?}, and hdlscan adds {full:?} to its output; \
             choose a prefix for the added columns with --column-prefix (e.g. --column-prefix hdl_)"
        );
    }
    Ok(full)
}

/// `names` made unique and non-empty for a columnar output: an empty name
/// becomes `column_N` (its 1-based position), a repeated one `name_2`,
/// `name_3`, … (skipping names the input has).
pub fn unique_names(names: &[&str]) -> Vec<String> {
    let mut taken: std::collections::HashSet<String> = names.iter().map(|n| n.to_string()).collect();
    let mut seen = std::collections::HashSet::new();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n.is_empty() {
                let mut name = format!("column_{}", i + 1);
                while taken.contains(&name) {
                    name.push('_');
                }
                taken.insert(name.clone());
                return name;
            }
            if seen.insert(*n) {
                return n.to_string();
            }
            let name = (2..)
                .map(|k| format!("{n}_{k}"))
                .find(|c| !taken.contains(c))
                .expect("a free name");
            taken.insert(name.clone());
            name
        })
        .collect()
}

/// The prefix the added columns get when `--column-prefix` is not given:
/// none, unless an input column is named like an added one (OpenAPC's
/// `url`), then the first of `hdl_`, `hdl2_`, … that clashes with none.
/// `long` adds long output's leading names to those checked.
pub fn free_prefix(input_names: &[String], long: bool) -> String {
    // No copy of the names: a header may be one 100 MB name, or millions.
    let added = || names().chain(LONG_LEAD.iter().copied().filter(move |_| long));
    let free = |p: &str| {
        added().all(|n| {
            let full = format!("{p}{n}");
            !input_names.iter().any(|x| x.eq_ignore_ascii_case(&full))
        })
    };
    std::iter::once(String::new())
        .chain(std::iter::once("hdl_".to_string()))
        .chain((2..).map(|i| format!("hdl{i}_")))
        .find(|p| free(p))
        .expect("some prefix is free: the input has finitely many names")
}

/// The fields of the enriched columns, names prefixed with `prefix`; errors
/// when one clashes with an input column's name (see `added_name`).
pub fn fields(prefix: &str, input_names: &[String]) -> Result<Fields> {
    // record, kind, namespace; the eight text columns, `prefix` to
    // `fragment`, as the builder's `text`; error, warnings.
    let list = DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)));
    let types = [
        (DataType::UInt64, false),
        (dict(DataType::Int8), false),
        (dict(DataType::Int32), true),
    ]
    .into_iter()
    .chain(std::iter::repeat_n((DataType::Utf8, true), 8))
    .chain([(dict(DataType::Int8), true), (list, false)]);
    names()
        .zip(types)
        .map(|(name, (dt, nullable))| Ok(Field::new(added_name(prefix, name, input_names)?, dt, nullable)))
        .collect()
}

/// Long output's schema: [`LONG_LEAD`] (without `input` unless
/// `several_inputs`), the `keep` columns as given, then SPEC's columns.
/// `value` is of `value_type` (bytes when CSV goes to CSV, as the input
/// cells do).
pub fn long_fields(prefix: &str, keep: &[Arc<Field>], several_inputs: bool, value_type: DataType) -> Result<Fields> {
    let keep_names: Vec<String> = keep.iter().map(|f| f.name().clone()).collect();
    let types = [
        (dict(DataType::Int32), false),
        (DataType::UInt64, false),
        (DataType::UInt64, true),
        (dict(DataType::Int32), false),
        (DataType::UInt32, false),
        (value_type, false),
    ];
    let mut out: Vec<Arc<Field>> = Vec::new();
    for (name, (dt, nullable)) in LONG_LEAD.iter().zip(types) {
        if *name == "input" && !several_inputs {
            continue;
        }
        let name = added_name(prefix, name, &keep_names)?;
        out.push(Arc::new(Field::new(name, dt, nullable)));
    }
    out.extend(keep.iter().cloned());
    // SPEC's columns: `fields` without its leading `record`.
    out.extend(fields(prefix, &keep_names)?.iter().skip(1).cloned());
    Ok(Fields::from(out))
}

/// Appends enriched rows; `finish` yields one array per column of `fields`.
pub struct Builder {
    record: UInt64Builder,
    /// `kind` and `error` are enums: their keys are the variants' indices
    /// into a dictionary of every name, so no value is hashed per row.
    kind: Int8Builder,
    namespace: StringDictionaryBuilder<Int32Type>,
    text: [StringBuilder; 8],
    error: Int8Builder,
    warnings: ListBuilder<StringBuilder>,
}

const _: () = assert!(Kind::ALL.len() <= i8::MAX as usize && ErrorCode::ALL.len() <= i8::MAX as usize);

/// A dictionary column over every name of an enum, keyed by variant index.
fn enum_dictionary(keys: &mut Int8Builder, names: impl Iterator<Item = &'static str>) -> ArrayRef {
    let values = Arc::new(StringArray::from_iter_values(names));
    Arc::new(DictionaryArray::try_new(keys.finish(), values).expect("keys index the names"))
}

impl Builder {
    /// A builder for about `rows` values.
    pub fn with_capacity(rows: usize) -> Builder {
        // Bytes a row of each text column takes, about, for DOIs and
        // handles (`10.1000/abc…`, `https://doi.org/10.1000/abc…`): a
        // builder that starts too small is copied each time it doubles.
        const ROW_BYTES: [usize; 8] = [12, 24, 32, 36, 48, 8, 0, 0];
        let text = std::array::from_fn(|i| StringBuilder::with_capacity(rows, rows * ROW_BYTES[i]));
        Builder {
            record: UInt64Builder::with_capacity(rows),
            kind: Int8Builder::with_capacity(rows),
            namespace: StringDictionaryBuilder::new(),
            text,
            error: Int8Builder::with_capacity(rows),
            warnings: ListBuilder::new(StringBuilder::new()),
        }
    }

    /// Appends one value: its record number, parse and rendering.
    pub fn push(&mut self, record: u64, p: &Parsed<'_>, r: &Rendered) {
        self.record.append_value(record);
        self.kind.append_value(p.kind as i8);
        self.namespace.append_option(p.namespace);
        let values = [
            p.prefix,
            p.suffix,
            r.canonical(),
            r.uri(),
            r.url(),
            p.resolver,
            p.query,
            p.fragment,
        ];
        for (b, v) in self.text.iter_mut().zip(values) {
            b.append_option(v);
        }
        self.error.append_option(p.error.map(|e| e as i8));
        for w in p.warnings.iter() {
            self.warnings.values().append_value(w.as_str());
        }
        self.warnings.append(true);
    }

    /// The columns, in [`fields`]' order.
    pub fn finish(mut self) -> Vec<ArrayRef> {
        let mut out: Vec<ArrayRef> = Vec::with_capacity(SPEC.len() + 1);
        out.push(Arc::new(self.record.finish()));
        out.push(enum_dictionary(&mut self.kind, Kind::ALL.iter().map(|k| k.as_str())));
        out.push(Arc::new(self.namespace.finish()));
        for b in self.text.iter_mut() {
            out.push(Arc::new(b.finish()));
        }
        out.push(enum_dictionary(
            &mut self.error,
            ErrorCode::ALL.iter().map(|e| e.as_str()),
        ));
        out.push(Arc::new(self.warnings.finish()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::{Options, Parser, Scratch};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::Schema;

    #[test]
    fn builder_matches_schema_and_values() {
        let fields = fields("", &["id".into()]).unwrap();
        let parser = Parser::new(Options::default());
        let (mut sc, mut r) = (Scratch::default(), Rendered::default());
        let mut b = Builder::with_capacity(2);
        for (i, v) in ["https://doi.org/10.1000/182", "N/A"].iter().enumerate() {
            let p = parser.parse(v.as_bytes(), &mut sc);
            parser.render(&p, &mut r);
            b.push(i as u64 + 1, &p, &r);
        }
        let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), b.finish()).unwrap();
        assert_eq!(batch.num_rows(), 2);
        let canonical = batch
            .column(5)
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .unwrap();
        assert_eq!(canonical.value(0), "10.1000/182");
        assert!(canonical.is_null(1));
    }

    #[test]
    fn enum_keys_are_indices_into_all() {
        assert!(Kind::ALL.iter().enumerate().all(|(i, k)| *k as usize == i));
        assert!(ErrorCode::ALL.iter().enumerate().all(|(i, e)| *e as usize == i));
    }

    #[test]
    fn unique_names_for_columnar_output() {
        assert_eq!(
            unique_names(&["id", "", "id", "id_2", "id"]),
            ["id", "column_2", "id_3", "id_2", "id_4"]
        );
    }

    #[test]
    fn a_clash_picks_a_free_prefix() {
        assert_eq!(free_prefix(&["id".into(), "doi".into()], true), "");
        assert_eq!(free_prefix(&["id".into(), "URL".into()], false), "hdl_");
        assert_eq!(free_prefix(&["value".into()], false), "", "value is long output's");
        assert_eq!(free_prefix(&["value".into()], true), "hdl_");
        assert_eq!(free_prefix(&["url".into(), "hdl_url".into()], false), "hdl2_");
    }

    #[test]
    fn clash_points_to_column_prefix() {
        let e = fields("", &["kind".into()]).unwrap_err().to_string();
        assert!(e.contains("--column-prefix"), "{e}");
        assert!(fields("hdl_", &["kind".into()]).is_ok());
    }
}
