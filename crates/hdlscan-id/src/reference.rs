//! A slow, obviously-correct reference for the prefix/suffix split of URI
//! forms (SPEC §2 "Splitting URIs and URLs"), which property tests check
//! the fast path (`handle::split_uri_part` + `percent::decode_into`) against.

/// Splits at the first `/`, else at the first `%2F`/`%2f`, then decodes
/// each part; `None` when there is no separator or an escape is malformed.
pub fn split_and_decode(part: &str) -> Option<(Vec<u8>, Vec<u8>, bool)> {
    let chars: Vec<char> = part.chars().collect();
    let mut cut = None;
    for (i, c) in chars.iter().enumerate() {
        if *c == '/' {
            cut = Some((i, 1, false));
            break;
        }
    }
    if cut.is_none() {
        for i in 0..chars.len() {
            if chars[i] == '%' && chars.get(i + 1) == Some(&'2') && matches!(chars.get(i + 2), Some('f') | Some('F')) {
                cut = Some((i, 3, true));
                break;
            }
        }
    }
    let (at, width, encoded) = cut?;
    let prefix: String = chars[..at].iter().collect();
    let suffix: String = chars[at + width..].iter().collect();
    Some((decode(&prefix)?, decode(&suffix)?, encoded))
}

fn decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::codes::{ErrorCode, Warning, Warnings};
    use super::super::{handle, percent};
    use proptest::prelude::*;

    fn fast(part: &str) -> Option<(Vec<u8>, Vec<u8>, bool)> {
        let mut ws = Warnings::EMPTY;
        let (p, s) = handle::split_uri_part(part, &mut ws).ok()?;
        let (mut pd, mut sd) = (Vec::new(), Vec::new());
        percent::decode_into(p, &mut pd).ok()?;
        percent::decode_into(s, &mut sd).ok()?;
        Some((pd, sd, ws.contains(Warning::EncodedSeparator)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn fast_split_matches_reference(s in "[a-z0-9./%2fF€ ]{0,24}") {
            prop_assert_eq!(fast(&s), super::split_and_decode(&s));
        }

        #[test]
        fn fast_split_matches_reference_any_string(s in any::<String>()) {
            prop_assert_eq!(fast(&s), super::split_and_decode(&s));
        }
    }

    #[test]
    fn reference_examples() {
        assert_eq!(
            super::split_and_decode("10.1000%2F182"),
            Some((b"10.1000".to_vec(), b"182".to_vec(), true))
        );
        assert_eq!(
            super::split_and_decode("a%2Fb/c"),
            Some((b"a/b".to_vec(), b"c".to_vec(), false))
        );
        assert_eq!(super::split_and_decode("abc"), None);
        let _ = ErrorCode::NoSlash;
    }
}
