//! SPEC §1 "Handles and DOIs": the prefix grammar, the DOI rule, and the
//! split of a URI's handle part into prefix and suffix (§2 "Splitting URIs
//! and URLs"). Every form ends here once it has found its handle.

use super::chars::{is_digits, is_visibly};
use super::codes::{ErrorCode, Warning, Warnings};
use super::{Cx, Span, dirt};

/// Which prefixes a form accepts (§1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// No explicit scheme, or another host's `/hdl/` and `/handle/` path:
    /// the first segment must be all digits.
    Numeric,
    /// `hdl:`, `info:hdl/`, global and user resolver hosts: any prefix that
    /// fits the grammar, `nonnumeric_prefix` when the first segment is not
    /// all digits.
    Any,
    /// `doi:` label, `urn:doi:`, `info:doi/`: the prefix must be a DOI's.
    Doi,
}

/// Checks a (decoded) prefix and suffix; returns whether the handle is a DOI.
pub fn check(prefix: &str, suffix: &str, rule: Rule, ws: &mut Warnings) -> Result<bool, ErrorCode> {
    if prefix.is_empty() {
        return Err(ErrorCode::EmptyPrefix);
    }
    if suffix.is_empty() {
        return Err(ErrorCode::EmptySuffix);
    }
    // One or more non-empty segments joined by `.`.
    if prefix.split('.').any(str::is_empty) {
        return Err(ErrorCode::BadPrefix);
    }
    let mut segments = prefix.split('.');
    let first = segments.next().unwrap_or("");
    if is_visibly(first, "10") {
        // `10.` followed by all-digit segments; exactly `10` is a shortDOI.
        let mut rest = segments.peekable();
        if rest.peek().is_none() {
            ws.add(Warning::ShortDoi);
            return Ok(true);
        }
        return if rest.all(is_digits) {
            Ok(true)
        } else {
            Err(ErrorCode::BadDoiPrefix)
        };
    }
    match rule {
        Rule::Doi => Err(ErrorCode::BadDoiPrefix),
        _ if is_digits(first) => Ok(false),
        Rule::Numeric => Err(ErrorCode::BadPrefix),
        Rule::Any => {
            ws.add(Warning::NonnumericPrefix);
            Ok(false)
        }
    }
}

/// True when the first segment of `prefix` is all digits.
pub fn first_segment_numeric(prefix: &str) -> bool {
    is_digits(prefix.split('.').next().unwrap_or(""))
}

/// Splits a URI's handle part at its first literal `/`, or, when it has
/// none, at its first `%2F` (either case) with `encoded_separator`.
pub fn split_uri_part<'s>(part: &'s str, ws: &mut Warnings) -> Result<(&'s str, &'s str), ErrorCode> {
    if let Some(i) = memchr::memchr(b'/', part.as_bytes()) {
        return Ok((&part[..i], &part[i + 1..]));
    }
    if let Some(i) = find_encoded_slash(part) {
        ws.add(Warning::EncodedSeparator);
        return Ok((&part[..i], &part[i + 3..]));
    }
    Err(ErrorCode::NoSlash)
}

fn find_encoded_slash(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    memchr::memchr_iter(b'%', b).find(|&i| b.get(i + 1) == Some(&b'2') && matches!(b.get(i + 2), Some(b'f' | b'F')))
}

/// True when `s` holds a `/` or a `%2F`.
pub fn has_separator(s: &str) -> bool {
    memchr::memchr(b'/', s.as_bytes()).is_some() || find_encoded_slash(s).is_some()
}

/// Reads the handle `prefix_raw "/" suffix_raw` (sub-slices of the input):
/// decodes the parts when `decode`, checks them, flags dirt, and records
/// prefix, suffix and namespace in the draft.
pub fn read<'a>(
    cx: &mut Cx<'a>,
    prefix_raw: &'a str,
    suffix_raw: &'a str,
    decode: bool,
    rule: Rule,
) -> Result<(), ErrorCode> {
    if prefix_raw.is_empty() {
        return Err(ErrorCode::EmptyPrefix);
    }
    if suffix_raw.is_empty() {
        return Err(ErrorCode::EmptySuffix);
    }
    let p = cx.part(prefix_raw, decode)?;
    let s = cx.part(suffix_raw, decode)?;
    let mut ws = cx.d.warnings;
    // Field-level borrows: the texts live in input/buf, repair buffers apart.
    let (prefix, suffix) = (
        p.get(cx.input, cx.buf).unwrap_or(""),
        s.get(cx.input, cx.buf).unwrap_or(""),
    );
    let is_doi = check(prefix, suffix, rule, &mut ws)?;
    dirt::flag(prefix, suffix, is_doi, decode, &mut ws, cx.repair);
    cx.d.warnings = ws;
    cx.d.prefix = p;
    cx.d.suffix = s;
    cx.d.namespace = Span::Lit(if is_doi { "doi" } else { "hdl" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(p: &str, rule: Rule) -> Result<bool, ErrorCode> {
        check(p, "x", rule, &mut Warnings::default())
    }

    #[test]
    fn prefix_grammar_and_doi_rule() {
        assert_eq!(c("12345", Rule::Numeric), Ok(false));
        assert_eq!(c("20.500.12345", Rule::Numeric), Ok(false));
        assert_eq!(c("0.NA", Rule::Numeric), Ok(false));
        assert_eq!(c("10.1045", Rule::Numeric), Ok(true));
        assert_eq!(c("10.1000.10", Rule::Numeric), Ok(true));
        assert_eq!(c("10", Rule::Numeric), Ok(true));
        assert_eq!(c("10.abc", Rule::Numeric), Err(ErrorCode::BadDoiPrefix));
        assert_eq!(c("10.abc", Rule::Any), Err(ErrorCode::BadDoiPrefix));
        assert_eq!(c("N", Rule::Numeric), Err(ErrorCode::BadPrefix));
        assert_eq!(c("CNRI.TEST", Rule::Any), Ok(false));
        assert_eq!(c("1234", Rule::Doi), Err(ErrorCode::BadDoiPrefix));
        assert_eq!(c("12..3", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(c("12.", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(
            check("", "x", Rule::Any, &mut Warnings::default()),
            Err(ErrorCode::EmptyPrefix)
        );
        assert_eq!(
            check("1", "", Rule::Any, &mut Warnings::default()),
            Err(ErrorCode::EmptySuffix)
        );
    }

    #[test]
    fn split_prefers_literal_slash() {
        let mut ws = Warnings::EMPTY;
        assert_eq!(split_uri_part("10.1%2Fa/b", &mut ws), Ok(("10.1%2Fa", "b")));
        assert!(ws.is_empty());
        assert_eq!(split_uri_part("10.1%2fab", &mut ws), Ok(("10.1", "ab")));
        assert!(ws.contains(Warning::EncodedSeparator));
        assert_eq!(split_uri_part("10.1", &mut ws), Err(ErrorCode::NoSlash));
    }
}
