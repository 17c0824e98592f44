//! The parser's options as `--repair`, `--max-len`, `--resolver` and
//! `--expect` give them, for the command line and the Python package
//! alike: one reading of each, so the same words parse the same way.

use crate::id::Options;

/// The parser's options for `repair`, `max_len` and the extra resolver
/// hosts `resolvers` (`HOST[:PORT][/PATH]`); `--expect` is per column
/// ([`split_expect`], [`Options::expect`]). An error names the resolver
/// that cannot be one.
pub fn parser_options(repair: bool, max_len: usize, resolvers: &[String]) -> Result<Options, String> {
    let mut opts = Options::default();
    opts.repair = repair;
    opts.max_len = max_len;
    for r in resolvers {
        opts.add_resolver(r)?;
    }
    Ok(opts)
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
    #[test]
    fn expect_column_or_all() {
        use super::split_expect;
        assert_eq!(split_expect("doi"), (None, "doi"));
        assert_eq!(
            split_expect("dc.identifier.doi=doi"),
            (Some("dc.identifier.doi"), "doi")
        );
    }
}
