//! Where a diff's columns are in one file's header: the `--key` columns
//! (named exactly as in the file) and SPEC's twelve columns of `scan`'s
//! output, under `--column-prefix` (none by default), and the output's
//! shape (long output has `value_index` and `source_column`, or `column`
//! as scan named it before). Pure: names in, indices out, so the errors
//! are tested without files.
//!
//! A file without SPEC's columns is not an output of `scan`: the error
//! lists what is missing and, when the columns are there under another
//! prefix, names it. A missing key column is the command line's mistake
//! ([`LayoutError::MissingKey`], which the CLI makes a usage error).

use crate::columns::SPEC;
use crate::io::describe_columns;
use std::fmt;

/// Positions in SPEC's column order ([`crate::columns::SPEC`]).
pub const KIND: usize = 0;
pub const CANONICAL: usize = 4;
pub const ERROR: usize = 10;
pub const WARNINGS: usize = 11;

/// The two shapes of `scan`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A row per input record.
    Wide,
    /// A row per value: `source_column` and `value_index` say which.
    Long,
}

impl Shape {
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Wide => "wide",
            Shape::Long => "long",
        }
    }
}

/// The columns of one file a diff reads, as 0-based indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The `--key` columns, in the order given.
    pub key: Vec<usize>,
    /// SPEC's columns, in SPEC's order.
    pub spec: [usize; 12],
    /// `scan`'s `record` column (the input record a row came from), for
    /// messages; absent in a file cut down by another tool.
    pub record: Option<usize>,
    pub shape: Shape,
}

/// Why a header cannot be diffed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// SPEC's columns (some or all) are missing: not an output of `scan`.
    NotScan {
        /// The file, as named.
        file: String,
        /// The `--column-prefix` looked under.
        prefix: String,
        /// SPEC's columns it lacks.
        missing: Vec<String>,
        /// A prefix under which all of them are there.
        found_under: Option<String>,
        /// The file's columns, described.
        columns: String,
    },
    /// A `--key` column the file does not have.
    MissingKey {
        /// The file, as named.
        file: String,
        /// The key.
        key: String,
        /// The file's columns, described.
        columns: String,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::NotScan {
                file,
                prefix,
                missing,
                found_under,
                columns,
            } => {
                write!(f, "{file} is not an output of `hdlscan scan`: ")?;
                if missing.len() == SPEC.len() {
                    write!(f, "none of SPEC's columns ({}) is there", SPEC.join(", "))?;
                    if !prefix.is_empty() {
                        write!(f, " under the prefix {prefix:?}")?;
                    }
                } else {
                    write!(f, "it lacks SPEC's column(s) {}", missing.join(", "))?;
                }
                match found_under {
                    Some(p) if p.is_empty() => write!(f, "; they are there without a prefix: drop --column-prefix")?,
                    Some(p) => write!(f, "; they are there under the prefix {p:?}: pass --column-prefix {p}")?,
                    None => write!(f, " (its columns: {columns})")?,
                }
                Ok(())
            }
            LayoutError::MissingKey { file, key, columns } => write!(
                f,
                "--key {key}: {file} has no column {key:?} (its columns: {columns}); a key column is named as in both files"
            ),
        }
    }
}

impl std::error::Error for LayoutError {}

impl Layout {
    /// Finds `keys` and SPEC's columns (named `prefix` + name) in `names`,
    /// the header of `file`.
    pub fn find(file: &str, names: &[String], keys: &[String], prefix: &str) -> Result<Layout, LayoutError> {
        let position = |name: &str| names.iter().position(|n| n == name);
        let columns = || describe_columns(names.iter().map(String::as_str));
        let spec: Vec<Option<usize>> = SPEC.iter().map(|s| position(&format!("{prefix}{s}"))).collect();
        if spec.iter().any(Option::is_none) {
            let absent = SPEC.iter().zip(&spec).filter(|(_, i)| i.is_none());
            let missing = absent.map(|(s, _)| format!("{prefix}{s}")).collect();
            return Err(LayoutError::NotScan {
                file: file.to_string(),
                prefix: prefix.to_string(),
                missing,
                found_under: other_prefix(names, prefix),
                columns: columns(),
            });
        }
        let key = keys
            .iter()
            .map(|k| {
                position(k).ok_or_else(|| LayoutError::MissingKey {
                    file: file.to_string(),
                    key: k.clone(),
                    columns: columns(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Last night's output may predate the rename of `column`.
        let long = position(&format!("{prefix}value_index")).is_some()
            && ["source_column", "column"]
                .iter()
                .any(|c| position(&format!("{prefix}{c}")).is_some());
        Ok(Layout {
            key,
            spec: std::array::from_fn(|i| spec[i].expect("checked above")),
            record: position(&format!("{prefix}record")),
            shape: if long { Shape::Long } else { Shape::Wide },
        })
    }
}

/// A prefix other than `tried` under which all SPEC's columns are in
/// `names`: the candidates are what precedes `warnings` in a name.
fn other_prefix(names: &[String], tried: &str) -> Option<String> {
    names
        .iter()
        .filter_map(|n| n.strip_suffix("warnings"))
        .filter(|p| *p != tried)
        .find(|p| SPEC.iter().all(|s| names.iter().any(|n| *n == format!("{p}{s}"))))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(pre: &[&str], prefix: &str, post: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = pre.iter().map(|s| s.to_string()).collect();
        v.extend(SPEC.iter().map(|s| format!("{prefix}{s}")));
        v.extend(post.iter().map(|s| s.to_string()));
        v
    }

    #[test]
    fn wide_and_long_are_told_apart() {
        let wide = header(&["id", "dc.identifier.uri", "record"], "", &[]);
        let l = Layout::find("a.csv", &wide, &["id".into()], "").unwrap();
        assert_eq!(
            (l.key.clone(), l.spec[KIND], l.record, l.shape),
            (vec![0], 3, Some(2), Shape::Wide)
        );
        assert_eq!(l.spec[WARNINGS], 14);
        for column in ["source_column", "column"] {
            let long = header(&["record", "line", column, "value_index", "value", "id"], "", &[]);
            let keys = ["id".into(), column.into(), "value_index".into()];
            let l = Layout::find("a.csv", &long, &keys, "").unwrap();
            assert_eq!((l.key, l.shape), (vec![5, 2, 3], Shape::Long));
        }
    }

    #[test]
    fn not_scan_output_lists_what_is_missing() {
        let names: Vec<String> = ["id", "doi", "kind"].iter().map(|s| s.to_string()).collect();
        let e = Layout::find("x.csv", &names, &["id".into()], "")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x.csv is not an output of `hdlscan scan`: it lacks SPEC's column(s) namespace, prefix"),
            "{e}"
        );
        assert!(e.contains("(its columns: id, doi, kind)"), "{e}");
        let names: Vec<String> = ["id", "doi"].iter().map(|s| s.to_string()).collect();
        let e = Layout::find("x.csv", &names, &[], "").unwrap_err().to_string();
        assert!(e.contains("none of SPEC's columns (kind, namespace"), "{e}");
    }

    #[test]
    fn another_prefix_is_named() {
        let names = header(&["id", "kind"], "hdl_", &[]);
        let e = Layout::find("x.csv", &names, &[], "").unwrap_err().to_string();
        assert!(
            e.contains("under the prefix \"hdl_\": pass --column-prefix hdl_"),
            "{e}"
        );
        assert!(Layout::find("x.csv", &names, &["id".into()], "hdl_").is_ok());
        let plain = header(&["id"], "", &[]);
        let e = Layout::find("x.csv", &plain, &[], "p_").unwrap_err().to_string();
        assert!(e.contains("without a prefix: drop --column-prefix"), "{e}");
    }

    #[test]
    fn a_missing_key_is_its_own_error() {
        let names = header(&["id"], "", &[]);
        let e = Layout::find("x.csv", &names, &["ID".into()], "").unwrap_err();
        assert!(matches!(e, LayoutError::MissingKey { ref key, .. } if key == "ID"));
        assert!(e.to_string().contains("--key ID: x.csv has no column \"ID\""), "{e}");
    }
}
