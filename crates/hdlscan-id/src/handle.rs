//! SPEC §1 "Handles and DOIs": the prefix grammar, the DOI rule, the
//! prefix warnings (§3 `unusual_prefix`), and the split of a handle part
//! into prefix and suffix: a URI's (§2 "Splitting URIs and URLs") and a
//! bare or labelled value's at `%2F` (§2 "Bare values and the `doi:`
//! label"). Every form ends here once it has found its handle.

use super::chars::{self, is_digits, is_invisible, is_visibly};
use super::codes::{ErrorCode, Warning, Warnings};
use super::{Cx, Span, dirt, other};

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

/// Checks a (decoded) prefix and suffix; returns whether the handle is a DOI,
/// and raises the prefix's warnings (`short_doi`, `nonnumeric_prefix`,
/// `unusual_prefix`). Every path calls it, the fast ones too.
/// Inlined wherever it is called (the compiler left it out of line once the
/// fast path read several forms): the commonest prefixes are decided here,
/// without a call.
#[inline(always)]
pub fn check(prefix: &str, suffix: &str, rule: Rule, ws: &mut Warnings) -> Result<bool, ErrorCode> {
    if prefix.is_empty() {
        return Err(ErrorCode::EmptyPrefix);
    }
    if suffix.is_empty() {
        return Err(ErrorCode::EmptySuffix);
    }
    // The commonest prefixes, decided without the general walk: `10.NNNN`
    // (a DOI), then any digits and dots with no segment empty
    // (`20.500.12345`, `1721.1`), but `10` alone (a shortDOI, which warns).
    let b = prefix.as_bytes();
    if b.len() > 3 && b.starts_with(b"10.") && chars::all_digits(&b[3..]) {
        return Ok(true);
    }
    if b != b"10" && (chars::all_digits(b) || chars::dotted_digits(b)) {
        return numeric(prefix, rule, ws);
    }
    check_shape(prefix, rule, ws)
}

/// `check` for a prefix of digits and dots, no segment empty, but `10`.
#[inline(always)]
fn numeric(prefix: &str, rule: Rule, ws: &mut Warnings) -> Result<bool, ErrorCode> {
    let b = prefix.as_bytes();
    if b.starts_with(b"10.") {
        Ok(true)
    } else if rule == Rule::Doi {
        Err(ErrorCode::BadDoiPrefix)
    } else {
        // Only a prefix starting with `0` can be unusual: one byte decides
        // nearly every handle.
        if b[0] == b'0' {
            flag_unusual(prefix, ws);
        }
        Ok(false)
    }
}

/// SPEC §3 `unusual_prefix`, of the prefix of a handle that is not a DOI:
/// its first segment has a leading zero (`0042`: a `0` then a digit; a lone
/// `0`, as in `0.NA`, is none), or it is in the global service's `0.`
/// space (first segment `0`, then a `.`) but none of `0.NA`, `0.TYPE`,
/// `0.SERV`, `0.0`, compared ASCII case-insensitively as prefixes are
/// (`0.na` is `0.NA`). A prefix that is `0` alone is neither. Invisible
/// characters are looked through, as for the digits of the prefix rule
/// (`is_digits`). Cold: few prefixes start with `0`.
#[cold]
#[inline(never)]
fn flag_unusual(prefix: &str, ws: &mut Warnings) {
    const OWN: [&str; 4] = ["NA", "TYPE", "SERV", "0"];
    let mut visible = prefix.chars().filter(|&c| !is_invisible(c));
    let unusual = match (visible.next(), visible.next()) {
        (Some('0'), Some(d)) if d.is_ascii_digit() => true,
        (Some('0'), Some('.')) => !OWN
            .iter()
            .any(|own| visible.clone().map(|c| c.to_ascii_uppercase()).eq(own.chars())),
        _ => false,
    };
    ws.add_if(unusual, Warning::UnusualPrefix);
}

/// `check` for the other prefixes: the general walk. Out of line, so
/// `check` stays small where it is inlined.
#[inline(never)]
fn check_shape(prefix: &str, rule: Rule, ws: &mut Warnings) -> Result<bool, ErrorCode> {
    let b = prefix.as_bytes();
    let shape = if prefix.is_ascii() {
        PrefixShape::of_ascii(b)
    } else {
        PrefixShape::of(prefix)
    };
    // One or more non-empty segments joined by `.`; no segment holds `/`
    // (seed 000's na-segment), which a URI prefix can only get from `%2F`,
    // nor whitespace (§1), which it can only get from `%20` and the like.
    if shape.empty_segment || shape.slash || shape.space {
        return Err(ErrorCode::BadPrefix);
    }
    if shape.first_is_ten {
        // `10.` followed by all-digit segments; exactly `10` is a shortDOI.
        if shape.segments == 1 {
            ws.add(Warning::ShortDoi);
            return Ok(true);
        }
        return if shape.rest_digits {
            Ok(true)
        } else {
            Err(ErrorCode::BadDoiPrefix)
        };
    }
    match rule {
        Rule::Doi => Err(ErrorCode::BadDoiPrefix),
        _ if shape.first_digits => {
            flag_unusual(prefix, ws);
            Ok(false)
        }
        Rule::Numeric => Err(ErrorCode::BadPrefix),
        // A label of SPEC §8 and its `:` start another scheme's identifier
        // (§8 "labelled"), not a naming authority: the canonical, which
        // drops the `hdl:`, would read as that identifier (`hdl:pmid:1/x`
        // as `PMID:1/x`), or, before a separator, as two (`PMID:1822,34/a/`),
        // where §3 and §6 want one identifier of the same meaning.
        Rule::Any if other::label(prefix).is_some() => Err(ErrorCode::BadPrefix),
        Rule::Any => {
            ws.add(Warning::NonnumericPrefix);
            Ok(false)
        }
    }
}

/// What §1 asks of a prefix, gathered in one pass.
struct PrefixShape {
    segments: usize,
    empty_segment: bool,
    slash: bool,
    /// Whitespace (`pieces::is_space`'s, Unicode White_Space).
    space: bool,
    /// The first segment is `10` (looking through invisible characters).
    first_is_ten: bool,
    /// The first segment is all digits.
    first_digits: bool,
    /// Every later segment is all digits.
    rest_digits: bool,
}

impl PrefixShape {
    /// The fast path: one pass over ASCII bytes.
    fn of_ascii(b: &[u8]) -> PrefixShape {
        let mut shape = PrefixShape {
            segments: 1,
            empty_segment: false,
            slash: false,
            space: false,
            first_is_ten: false,
            first_digits: true,
            rest_digits: true,
        };
        let mut seg_start = 0;
        let mut first_end = b.len();
        for (i, &c) in b.iter().enumerate() {
            if c == b'.' {
                shape.empty_segment |= i == seg_start;
                if shape.segments == 1 {
                    first_end = i;
                }
                shape.segments += 1;
                seg_start = i + 1;
            } else if !c.is_ascii_digit() {
                shape.slash |= c == b'/';
                shape.space |= (c as char).is_whitespace();
                if shape.segments == 1 {
                    shape.first_digits = false;
                } else {
                    shape.rest_digits = false;
                }
            }
        }
        shape.empty_segment |= seg_start == b.len();
        shape.first_is_ten = &b[..first_end] == b"10";
        shape
    }

    /// Any prefix: segment by segment, invisible characters looked through.
    fn of(prefix: &str) -> PrefixShape {
        let mut segs = prefix.split('.');
        let first = segs.next().unwrap_or("");
        let mut shape = PrefixShape {
            segments: 1,
            empty_segment: first.is_empty(),
            slash: prefix.contains('/'),
            space: prefix.contains(char::is_whitespace),
            first_is_ten: is_visibly(first, "10"),
            first_digits: is_digits(first),
            rest_digits: true,
        };
        for seg in segs {
            shape.segments += 1;
            shape.empty_segment |= seg.is_empty();
            shape.rest_digits &= is_digits(seg);
        }
        shape
    }
}

/// True when the first segment of `prefix` is all digits (`is_digits`).
pub fn first_segment_numeric(prefix: &str) -> bool {
    is_digits(prefix.split('.').next().unwrap_or(""))
}

/// Splits a URI's handle part at its first literal `/`, or, when it has
/// none, at its first `%2F` (either case) with `encoded_separator`.
pub fn split_uri_part<'s>(part: &'s str, ws: &mut Warnings) -> Result<(&'s str, &'s str), ErrorCode> {
    if let Some(i) = chars::find_byte(b'/', part.as_bytes()) {
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
    (0..b.len()).find(|&i| is_encoded_slash(b, i))
}

/// `b[i..]` starts with `%2F` or `%2f`.
fn is_encoded_slash(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b'%') && b.get(i + 1) == Some(&b'2') && matches!(b.get(i + 2), Some(b'f' | b'F'))
}

/// SPEC §2 "Bare values and the `doi:` label": a bare or labelled value
/// `t` that holds no literal `/` but a `%2F` (either case) copied out of a
/// URL, split there with `encoded_separator` when what stands before it is
/// a valid prefix under `rule` (bare values `Rule::Numeric`, labelled ones
/// `Rule::Doi`). That prefix is taken literally, so it holds no `%`: the
/// value's first `%` is the `%2F`. Returns the raw parts; the caller
/// decodes the suffix once, as the URL it came from would have been.
/// `no_slash` otherwise (`10.1000`, `abc%2Fdef`, `10.abc%2Fx`). The full
/// parser (`label::bare`, `label::labelled`) and the fast path
/// (`rare::no_slash`) both decide by it.
pub fn split_bare_encoded<'s>(t: &'s str, rule: Rule, ws: &mut Warnings) -> Result<(&'s str, &'s str), ErrorCode> {
    let b = t.as_bytes();
    let Some(i) = chars::find_byte(b'%', b).filter(|&i| is_encoded_slash(b, i)) else {
        return Err(ErrorCode::NoSlash);
    };
    // The prefix alone decides (a stand-in suffix): `10.1007%2F` splits,
    // and is then `empty_suffix`, as `10.1007/` is.
    if check(&t[..i], "x", rule, &mut Warnings::default()).is_err() {
        return Err(ErrorCode::NoSlash);
    }
    ws.add(Warning::EncodedSeparator);
    Ok((&t[..i], &t[i + 3..]))
}

/// True when `s` holds a `/` or a `%2F`.
pub fn has_separator(s: &str) -> bool {
    chars::find_byte(b'/', s.as_bytes()).is_some() || find_encoded_slash(s).is_some()
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
    dirt::flag(prefix, suffix, is_doi, decode, cx.scan, &mut ws, cx.repair);
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
        // A §8 label before its `:` is no naming authority.
        assert_eq!(c("pmid:1822,34", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(c("ISSN:1", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(c("pmidx:1", Rule::Any), Ok(false));
        assert_eq!(c("1234", Rule::Doi), Err(ErrorCode::BadDoiPrefix));
        assert_eq!(c("12..3", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(c("12.", Rule::Any), Err(ErrorCode::BadPrefix));
        // Only a decoded URI prefix can hold `/` (from %2F).
        assert_eq!(c("ab/c", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(c("1é/2", Rule::Any), Err(ErrorCode::BadPrefix));
        assert_eq!(
            check("", "x", Rule::Any, &mut Warnings::default()),
            Err(ErrorCode::EmptyPrefix)
        );
        assert_eq!(
            check("1", "", Rule::Any, &mut Warnings::default()),
            Err(ErrorCode::EmptySuffix)
        );
    }

    /// The prefix's warnings, as `check` raises them under `rule`.
    fn warned(p: &str, rule: Rule) -> Vec<&'static str> {
        let mut ws = Warnings::default();
        check(p, "x", rule, &mut ws).unwrap();
        ws.iter().map(|w| w.as_str()).collect()
    }

    #[test]
    fn unusual_prefixes() {
        for p in [
            "0042",
            "00",
            "01.5",
            "0.5555",
            "0.1234",
            "0.TEST",
            "0.na.1",
            "0.00",
            "0\u{AD}42",
        ] {
            for rule in [Rule::Numeric, Rule::Any] {
                assert_eq!(warned(p, rule), ["unusual_prefix"], "{p:?} {rule:?}");
            }
        }
        for p in [
            "0.NA",
            "0.na",
            "0.Type",
            "0.SERV",
            "0.0",
            "0",
            "1234",
            "20.500.1",
            "100.0",
            "0\u{AD}.NA",
        ] {
            assert_eq!(warned(p, Rule::Any), Vec::<&str>::new(), "{p:?}");
        }
        // DOIs are never unusual; `010` is not `10`.
        assert_eq!(warned("10.0042", Rule::Doi), Vec::<&str>::new());
        assert_eq!(c("010.1", Rule::Numeric), Ok(false));
        assert_eq!(warned("010.1", Rule::Numeric), ["unusual_prefix"]);
        assert_eq!(warned("0abc", Rule::Any), ["nonnumeric_prefix"]);
    }

    #[test]
    fn prefix_with_whitespace_is_bad() {
        for p in ["12 34", "1.2\t3", "1\u{A0}2", "0. NA", " 1", "1\n"] {
            for rule in [Rule::Numeric, Rule::Any, Rule::Doi] {
                assert_eq!(c(p, rule), Err(ErrorCode::BadPrefix), "{p:?} {rule:?}");
            }
        }
        assert_eq!(c("10.12 34", Rule::Any), Err(ErrorCode::BadPrefix));
    }

    #[test]
    fn bare_values_split_at_an_encoded_slash_after_a_valid_prefix() {
        let split = |t, rule| {
            let mut ws = Warnings::EMPTY;
            let r = split_bare_encoded(t, rule, &mut ws);
            assert_eq!(r.is_ok(), ws.contains(Warning::EncodedSeparator), "{t}");
            r
        };
        assert_eq!(
            split("10.1007%2FBF01451751", Rule::Numeric),
            Ok(("10.1007", "BF01451751"))
        );
        assert_eq!(split("12345%2fa%2Fb", Rule::Numeric), Ok(("12345", "a%2Fb")));
        assert_eq!(split("10.1007%2F", Rule::Doi), Ok(("10.1007", "")));
        assert_eq!(split("10%2Fabcde", Rule::Doi), Ok(("10", "abcde")));
        for (t, rule) in [
            ("12345%2Fabc", Rule::Doi),
            ("abc%2Fdef", Rule::Numeric),
            ("10.abc%2Fx", Rule::Numeric),
            ("%2Fx", Rule::Numeric),
            ("10.1%41%2Fx", Rule::Numeric),
            ("10.1%2Ex", Rule::Numeric),
            ("10.1000", Rule::Numeric),
            ("10.1%2", Rule::Numeric),
        ] {
            assert_eq!(split(t, rule), Err(ErrorCode::NoSlash), "{t}");
        }
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
