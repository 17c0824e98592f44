//! Which columns a selector chooses, by name: `scan`'s `--column`,
//! `--keep` and `--expect COLUMN=NS`, a gate's `COLUMN:`, and the Python
//! package's `Report.check` and Spark command, all by these rules.
//!
//! A selector is, in this order: a header name (an exact name always wins,
//! even over a pattern or a number that would match too; then the name
//! with white space and invisible characters around it trimmed, a
//! no-break space included; then the same without regard to ASCII case,
//! each only when it picks one column), a 1-based column number, or a
//! pattern where `*` matches any run of characters and `?` any one
//! character, and every other character is literal (`[` too: DSpace names
//! hold brackets, `dc.identifier.uri[en_US]`). A pattern may match several
//! columns; a column selected twice is read once, at its first selection.
//! Selecting nothing is an error that lists the columns (invisible
//! characters escaped) and suggests the nearest name.

use crate::gates::Gate;
use crate::report::visible;
use std::fmt;

/// A selector that chooses no column, or more than one where one is
/// meant; the message names the input and lists its columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectError(String);

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelectError {}

/// What selecting columns gives.
pub type Result<T, E = SelectError> = std::result::Result<T, E>;

/// Returns early with a [`SelectError`] of the formatted message.
macro_rules! fail {
    ($($arg:tt)*) => {
        return Err(SelectError(format!($($arg)*)))
    };
}

/// The columns `selectors` choose among `names`, in the order the
/// selectors give them (a pattern's matches in header order), each once.
/// `shown` names the input in errors.
pub fn select(names: &[String], selectors: &[String], shown: &str) -> Result<Vec<usize>> {
    let mut chosen: Vec<usize> = Vec::new();
    let mut seen = vec![false; names.len()];
    for s in selectors {
        for i in one(names, s, shown)? {
            if !std::mem::replace(&mut seen[i], true) {
                chosen.push(i);
            }
        }
    }
    Ok(chosen)
}

/// The columns one selector chooses.
pub fn one(names: &[String], selector: &str, shown: &str) -> Result<Vec<usize>> {
    let exact: Vec<usize> = (0..names.len()).filter(|&i| names[i] == selector).collect();
    match exact.len() {
        1 => return Ok(exact),
        n if n > 1 => fail!(
            "{shown}: {n} columns are named {selector:?}; choose one by its number (1-based: {})",
            exact.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(", ")
        ),
        _ => {}
    }
    // A header cell `doi\u{a0}` (a no-break space pasted from a web page),
    // or `DOI` for `doi`: what the user meant, when only one column fits.
    let loose = [
        |n: &str, s: &str| trim(n) == trim(s),
        |n: &str, s: &str| trim(n).eq_ignore_ascii_case(trim(s)),
    ];
    for same in loose {
        let hits: Vec<usize> = (0..names.len()).filter(|&i| same(&names[i], selector)).collect();
        match hits.len() {
            1 => return Ok(hits),
            0 => {}
            n => fail!(
                "{shown}: no column is named exactly {selector:?}, and {n} columns differ from it only in white space or \
                 case ({}); choose one by its number",
                hits.iter()
                    .map(|&i| format!("{} ({})", visible(&names[i]), i + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    let list = describe_columns(names.iter().map(String::as_str));
    if selector.is_empty() {
        fail!("an empty column name; {shown} has the columns: {list}");
    }
    if let Ok(n) = selector.trim().parse::<usize>() {
        if (1..=names.len()).contains(&n) {
            return Ok(vec![n - 1]);
        }
        let noun = if names.len() == 1 { "column" } else { "columns" };
        fail!(
            "no column named '{selector}' and column number {n} is out of range: {shown} has {} {noun}: {list}",
            names.len()
        );
    }
    if is_pattern(selector) {
        let hits: Vec<usize> = (0..names.len()).filter(|&i| matches(selector, &names[i])).collect();
        if hits.is_empty() {
            fail!("the pattern '{selector}' matches no column of {shown}; its columns are: {list}");
        }
        return Ok(hits);
    }
    let hint = did_you_mean(names, selector);
    // A Windows-1252 export's no-break space after `doi` reads as U+FFFD
    // in UTF-8, and is then no white space to trim.
    let encoding = if names.iter().any(|n| n.contains('\u{fffd}')) {
        "; its header is not UTF-8 (\u{fffd} marks the bytes): if the file is Windows-1252 or Latin-1, give --encoding windows-1252"
    } else {
        ""
    };
    fail!("no column named '{selector}' in {shown}{hint}; columns are: {list}{encoding}")
}

/// `s` without white space or invisible characters around it.
fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '\u{feff}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{00ad}')
    })
}

/// ` (did you mean 'NAME'?)` for the name nearest `selector`, or nothing.
pub fn did_you_mean(names: &[String], selector: &str) -> String {
    nearest(names, selector).map_or(String::new(), suggestion)
}

/// ` (did you mean 'NAME'?)`, invisible characters shown.
pub fn suggestion(name: &str) -> String {
    format!(" (did you mean '{}'?)", visible(name))
}

/// The name nearest `selector` by edit distance (ASCII case aside), when
/// near enough to be a typo: at most a third of its length, and 3.
pub fn nearest<'a>(names: &'a [String], selector: &str) -> Option<&'a str> {
    let want: Vec<char> = trim(selector).to_lowercase().chars().collect();
    let limit = (want.len() / 3).clamp(1, 3);
    names
        .iter()
        .filter(|n| n.len() < 4 * want.len() + 16)
        .map(|n| (distance(&trim(n).to_lowercase().chars().collect::<Vec<_>>(), &want), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// Edit distance counting a swap of neighbours as one edit (`dio` for
/// `doi`): the optimal string alignment distance.
fn distance(a: &[char], b: &[char]) -> usize {
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (i, row) in d.chunks_mut(w).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[..w].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j - 1] + cost)
                .min(d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// Whether `s` holds `*` or `?`, the only characters a pattern gives
/// meaning to.
pub fn is_pattern(s: &str) -> bool {
    s.contains(['*', '?'])
}

/// Wildcard matching of `name` by `pattern` (`*` any run, `?` one
/// character), in time linear in their lengths times the stars: the usual
/// greedy match that backtracks only to the last star.
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || (p[pi] != '*' && p[pi] == n[ni])) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Resolves each gate's `COLUMN:` against the run's chosen columns
/// (`names`) with the selectors `-c` takes (a pattern sums the columns it
/// matches): one matcher for both.
pub fn gate_columns(gates: &mut [Gate], names: &[String]) -> Result<()> {
    for g in gates {
        if let Some(selector) = &g.column {
            let chosen = one(names, selector, "the chosen columns")
                .map_err(|e| SelectError(format!("gate {:?}: {e}", g.expr)))?;
            g.columns = chosen.into_iter().map(|i| names[i].clone()).collect();
        }
    }
    Ok(())
}

/// Column names for an error message: at most 20, each cut to 60
/// characters, so a 100,000-column header or a 100 MB name cannot flood
/// stderr, and control characters escaped (`\u{1b}`), so a header cannot
/// drive the terminal.
pub fn describe_columns<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 20;
    const WIDTH: usize = 60;
    let total = names.len();
    if total == 0 {
        return "none".to_string();
    }
    let mut out = String::new();
    for (i, name) in names.take(SHOWN).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for (n, c) in name.chars().enumerate() {
            if n == WIDTH {
                out.push('…');
                break;
            }
            if c.is_control() {
                out.extend(c.escape_debug());
            } else if c != ' ' && visible(c.encode_utf8(&mut [0; 4])).len() > c.len_utf8() {
                // A no-break space or an invisible character: shown, so two
                // names that look alike can be told apart.
                out.push_str(&visible(c.encode_utf8(&mut [0; 4])));
            } else {
                out.push(c);
            }
        }
    }
    if total > SHOWN {
        out.push_str(&format!(", … and {} more", total - SHOWN));
    }
    out
}
#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn dspace_columns_by_pattern_brackets_literal() {
        let n = names(&[
            "id",
            "dc.identifier.uri",
            "dc.identifier.uri[]",
            "dc.identifier.uri[en_US]",
            "dc.identifier.doi",
        ]);
        let got = select(&n, &["dc.identifier.uri*".into(), "dc.identifier.doi".into()], "x.csv").unwrap();
        assert_eq!(got, [1, 2, 3, 4]);
        assert_eq!(one(&n, "dc.identifier.uri[]", "x").unwrap(), [2]);
        assert_eq!(one(&n, "dc.identifier.uri[?????]", "x").unwrap(), [3]);
    }

    #[test]
    fn exact_name_wins_over_number_and_pattern() {
        let n = names(&["2", "a*", "ab", "b"]);
        assert_eq!(one(&n, "2", "x").unwrap(), [0]);
        assert_eq!(one(&n, "a*", "x").unwrap(), [1]);
        assert_eq!(one(&n, "4", "x").unwrap(), [3]);
        assert_eq!(one(&n, "a?", "x").unwrap(), [1, 2]);
    }

    #[test]
    fn selected_twice_is_read_once_in_first_order() {
        let n = names(&["a", "b", "c"]);
        let got = select(&n, &["c".into(), "*".into(), "2".into()], "x").unwrap();
        assert_eq!(got, [2, 0, 1]);
    }

    #[test]
    fn nothing_matched_lists_the_columns() {
        let n = names(&["id", "doi"]);
        let e = one(&n, "dc.*", "x.csv").unwrap_err().to_string();
        assert!(e.contains("matches no column of x.csv") && e.contains("id, doi"), "{e}");
        let e = one(&n, "handle", "x.csv").unwrap_err().to_string();
        assert!(e.contains("no column named 'handle'") && e.contains("id, doi"), "{e}");
        let e = one(&n, "9", "x.csv").unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
        let e = one(&names(&["a", "a"]), "a", "x.csv").unwrap_err().to_string();
        assert!(e.contains("2 columns are named") && e.contains("1, 2"), "{e}");
    }

    #[test]
    fn honest_headers_trimmed_then_any_case_when_unambiguous() {
        let n = names(&["id", "doi\u{a0}", "\u{feff}Handle ", "url", "URL"]);
        assert_eq!(one(&n, "doi", "x").unwrap(), [1]);
        assert_eq!(one(&n, "handle", "x").unwrap(), [2]);
        assert_eq!(one(&n, "url", "x").unwrap(), [3], "the exact name wins");
        let e = one(&n, "Url", "x").unwrap_err().to_string();
        assert!(e.contains("2 columns differ"), "{e}");
        let e = one(&n, "dio", "x.csv").unwrap_err().to_string();
        assert!(e.contains("did you mean 'doi\\u00a0'?"), "{e}");
        let e = one(&n, "title", "x.csv").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
        assert!(!e.contains("--encoding"), "{e}");
    }

    #[test]
    fn wildcards() {
        for (p, s, want) in [
            ("*", "", true),
            ("a*b", "ab", true),
            ("a*b", "axxbxb", true),
            ("a*b", "axxbx", false),
            ("?", "é", true),
            ("??", "é", false),
            ("*.uri*", "dc.identifier.uri[en]", true),
            ("a**", "a", true),
            ("[*]", "[x]", true),
            ("[*]", "x", false),
        ] {
            assert_eq!(matches(p, s), want, "{p} {s}");
        }
    }

    #[test]
    fn describe_columns_is_short() {
        let names: Vec<String> = (0..100_000).map(|i| format!("col{i}")).collect();
        let s = describe_columns(names.iter().map(String::as_str));
        assert!(s.ends_with(", … and 99980 more"), "{s}");
        let long = "x".repeat(1000);
        assert_eq!(
            describe_columns([long.as_str()].into_iter()),
            format!("{}…", "x".repeat(60))
        );
        assert_eq!(
            describe_columns(["a\u{1b}[31mb", "c\nd"].into_iter()),
            "a\\u{1b}[31mb, c\\nd"
        );
        assert_eq!(describe_columns(std::iter::empty()), "none");
    }
}
