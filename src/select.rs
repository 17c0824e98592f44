//! Which input columns a run reads: `--column` and `--keep` selectors, and
//! `--expect COLUMN=NS`.
//!
//! A selector is, in this order: a header name (an exact name always wins,
//! even over a pattern or a number that would match too), a 1-based column
//! number, or a pattern where `*` matches any run of characters and `?` any
//! one character, and every other character is literal (`[` too: DSpace
//! names hold brackets, `dc.identifier.uri[en_US]`). A pattern may match
//! several columns; a column selected twice is read once, at its first
//! selection. Selecting nothing is an error that lists the columns.

use anyhow::{Result, bail};

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
        n if n > 1 => bail!(
            "{shown}: {n} columns are named {selector:?}; choose one by its number (1-based: {})",
            exact.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(", ")
        ),
        _ => {}
    }
    let list = crate::io::describe_columns(names.iter().map(String::as_str));
    if selector.is_empty() {
        bail!("an empty column name; {shown} has the columns: {list}");
    }
    if let Ok(n) = selector.trim().parse::<usize>() {
        if (1..=names.len()).contains(&n) {
            return Ok(vec![n - 1]);
        }
        let noun = if names.len() == 1 { "column" } else { "columns" };
        bail!(
            "no column named '{selector}' and column number {n} is out of range: {shown} has {} {noun}: {list}",
            names.len()
        );
    }
    if is_pattern(selector) {
        let hits: Vec<usize> = (0..names.len()).filter(|&i| matches(selector, &names[i])).collect();
        if hits.is_empty() {
            bail!("the pattern '{selector}' matches no column of {shown}; its columns are: {list}");
        }
        return Ok(hits);
    }
    bail!("no column named '{selector}' in {shown}; columns are: {list}")
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

/// `--expect` arguments: `NS` for every chosen column, `COLUMN=NS` for the
/// columns that selector chooses. Namespaces never hold `=`, so the last
/// `=` splits, and a column name may hold one.
pub fn split_expect(arg: &str) -> (Option<&str>, &str) {
    match arg.rsplit_once('=') {
        Some((col, ns)) => (Some(col), ns),
        None => (None, arg),
    }
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
    fn expect_column_or_all() {
        assert_eq!(split_expect("doi"), (None, "doi"));
        assert_eq!(
            split_expect("dc.identifier.doi=doi"),
            (Some("dc.identifier.doi"), "doi")
        );
    }
}
