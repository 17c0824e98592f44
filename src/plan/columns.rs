//! The chosen and kept columns, resolved against the first input: names,
//! numbers and patterns (`select`), JSON paths, Parquet paths into structs
//! and lists (`io::nested`), and `--expect COLUMN=NS` per chosen column.

use super::PlanError;
use crate::id::{Options, Parser};
use crate::io::csv_in::{SNIFFED, delimiter_name};
use crate::io::format::Format;
use crate::io::jsonl::{JsonPath, Step};
use crate::io::nested;
use crate::select;
use anyhow::{Result, anyhow};
use arrow_schema::Schema;
use hdlscan_core::options::split_expect;

/// `--expect PATH=NS` with PATH as the JSON reader spells it, so that it
/// matches the column named after the path.
pub(super) fn normalize_expect(e: &str) -> String {
    match split_expect(e) {
        (Some(col), ns) => JsonPath::parse(col).map_or(e.to_string(), |p| format!("{p}={ns}")),
        (None, _) => e.to_string(),
    }
}

/// `--column` and `--keep` as paths into JSON records: chosen ones first
/// (each once), then kept ones. A kept path may not yield several values
/// (`[]`): a kept column has one cell per value's record.
pub(super) fn json_paths(columns: &[String], keep: &[String]) -> Result<Vec<JsonPath>, PlanError> {
    let parse = |flag: &str, s: &String| JsonPath::parse(s).map_err(|e| PlanError::flag(format!("{flag} {s:?}"), e));
    let mut paths: Vec<JsonPath> = Vec::new();
    for c in columns {
        let p = parse("--column", c)?;
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    for k in keep {
        let p = parse("--keep", k)?;
        if p.yields_many() {
            return Err(PlanError::flag(
                format!("--keep {k:?}"),
                "a kept path gives one cell per record; drop the [] to keep the whole list as JSON",
            ));
        }
        paths.push(p);
    }
    Ok(paths)
}

/// A parser per chosen column: `--expect NS` for all, `COLUMN=NS` for the
/// columns COLUMN selects, which must be chosen ones.
pub(super) fn column_parsers(
    base: &Options,
    expect: &[String],
    names: &[String],
    chosen: &[usize],
    shown: &str,
) -> Result<Vec<Parser>, PlanError> {
    let mut options = vec![base.clone(); chosen.len()];
    for arg in expect {
        let (column, ns) = split_expect(arg);
        let targets: Vec<usize> = match column {
            None => (0..chosen.len()).collect(),
            Some(sel) => {
                let cols = select::one(names, sel, shown)
                    .map_err(|e| PlanError::flag(format!("--expect {arg}"), format_args!("{e:#}")))?;
                cols.iter()
                    .map(|c| {
                        chosen.iter().position(|x| x == c).ok_or_else(|| {
                            PlanError::flag(
                                format!("--expect {arg}"),
                                format_args!("column {:?} is not one of the chosen columns (--column)", names[*c]),
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        for t in targets {
            options[t]
                .expect(ns)
                .map_err(|e| PlanError::flag(format!("--expect {arg}"), e))?;
        }
    }
    Ok(options.into_iter().map(Parser::new).collect())
}

/// `--column` against the first input, where a Parquet selector naming no
/// column may be a path into its structs and lists (`ids.doi`): such a
/// column is chosen with its path in `nested` (at its index).
pub(super) fn choose_or_nested(
    names: &[String],
    selectors: &[String],
    shown: &str,
    delimiter: Option<u8>,
    schema: &Schema,
    format: Format,
    nested: &mut Vec<Option<(String, Vec<Step>)>>,
) -> Result<Vec<usize>> {
    if !format.is_columnar() || !selectors.iter().any(|s| nested::looks_like_path(s)) {
        return choose(names, selectors, shown, delimiter);
    }
    let mut chosen = Vec::new();
    for sel in selectors {
        match select::one(names, sel, shown) {
            Ok(cols) => {
                for c in cols {
                    // Read once, as `select` does; the same column through a
                    // path is another column.
                    if !chosen.iter().zip(nested.iter()).any(|(&x, n)| x == c && n.is_none()) {
                        chosen.push(c);
                        nested.push(None);
                    }
                }
            }
            Err(e) if nested::looks_like_path(sel) => {
                let path = JsonPath::parse(sel).map_err(|p| anyhow!("{e:#}; as a path: {p}"))?;
                let (c, steps) = nested::resolve(schema, &path).map_err(|p| anyhow!("{shown}: {p:#}"))?;
                let name = path.to_string();
                if !nested.iter().flatten().any(|(n, _)| *n == name) {
                    chosen.push(c);
                    nested.push(Some((name, steps)));
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(chosen)
}

/// `--column` selectors against the first input; a header read as one
/// column that holds another common delimiter gets a hint, since that is
/// the usual cause of a name not found.
fn choose(names: &[String], selectors: &[String], shown: &str, delimiter: Option<u8>) -> Result<Vec<usize>> {
    select::select(names, selectors, shown).map_err(|e| match delimiter.and_then(|d| delimiter_hint(names, d)) {
        Some(hint) => anyhow!("{e:#} ({hint})"),
        None => e.into(),
    })
}

/// When a CSV header came out as one column holding `;`, a tab or `|`
/// (and that is not the delimiter in use): the `--delimiter` to try.
fn delimiter_hint(names: &[String], delimiter: u8) -> Option<String> {
    let [name] = names else { return None };
    let d = SNIFFED
        .into_iter()
        .find(|&b| b != delimiter && name.as_bytes().contains(&b))?;
    let (shown, arg) = delimiter_name(d);
    Some(format!(
        "the header is one column holding {shown}: if that is the delimiter, add --delimiter {arg}"
    ))
}
