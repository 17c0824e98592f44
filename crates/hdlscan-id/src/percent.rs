//! Percent-encoding (RFC 3986 §2.1) with named byte sets, for SPEC §2
//! "Splitting URIs and URLs" (decoding) and §3's `uri` and `url`. Decoding is strict
//! (`%` must start a two-hex-digit escape) because SPEC.md makes a malformed
//! escape an error (`bad_percent_escape`); encoding always writes uppercase
//! hex (§3 `uri`, seed 004 §6 step d).

use super::codes::ErrorCode;

/// A set of ASCII bytes that are written as they are; every other byte,
/// including all non-ASCII bytes, is percent-encoded. A byte-indexed table,
/// so a membership test is one load in the encoding loops.
#[derive(Clone, Copy)]
pub struct AsciiSet {
    keep: [bool; 256],
}

impl AsciiSet {
    const fn empty() -> AsciiSet {
        AsciiSet { keep: [false; 256] }
    }

    const fn add(mut self, b: u8) -> AsciiSet {
        assert!(b < 128, "an AsciiSet holds ASCII bytes only");
        self.keep[b as usize] = true;
        self
    }

    const fn add_range(mut self, lo: u8, hi: u8) -> AsciiSet {
        let mut b = lo;
        while b <= hi {
            self = self.add(b);
            b += 1;
        }
        self
    }

    const fn add_all(mut self, s: &[u8]) -> AsciiSet {
        let mut i = 0;
        while i < s.len() {
            self = self.add(s[i]);
            i += 1;
        }
        self
    }

    const fn alnum() -> AsciiSet {
        AsciiSet::empty()
            .add_range(b'0', b'9')
            .add_range(b'A', b'Z')
            .add_range(b'a', b'z')
    }

    /// The set without byte `b`.
    pub const fn without(mut self, b: u8) -> AsciiSet {
        self.keep[b as usize] = false;
        self
    }

    /// The bytes both sets keep.
    pub const fn and(mut self, other: &AsciiSet) -> AsciiSet {
        let mut i = 0;
        while i < 256 {
            self.keep[i] = self.keep[i] && other.keep[i];
            i += 1;
        }
        self
    }

    /// Whether the set keeps byte `b` as it is.
    #[inline]
    pub const fn contains(&self, b: u8) -> bool {
        self.keep[b as usize]
    }
}

/// Native characters of a naming-authority segment in seed 000's ABNF
/// (`%x21 / %x24 / %x26-2D / %x30-39 / %x3B / %x3D / %x41-5A / %x5F /
/// %x61-7A / %x7E`), plus `.`, which separates segments.
pub const HDL_PREFIX: AsciiSet = AsciiSet::empty()
    .add(0x21)
    .add(0x24)
    .add_range(0x26, 0x2D)
    .add_range(0x30, 0x39)
    .add(0x3B)
    .add(0x3D)
    .add_range(0x41, 0x5A)
    .add(0x5F)
    .add_range(0x61, 0x7A)
    .add(0x7E)
    .add(b'.');

/// Native characters of a local name in seed 000's ABNF (`%x21 / %x24 /
/// %x26-2F / %x30-39 / %x3B / %x3D / %x41-5A / %x5F / %x61-7A / %x7E`).
pub const HDL_SUFFIX: AsciiSet = HDL_PREFIX.add(b'/');

/// What stays literal in the path of the `url` column: printable ASCII but
/// the WHATWG path percent-encode set (space `"` `#` `<` `>` `?` `` ` `` `{`
/// `}`), `%` itself (so the url decodes back to the same suffix), and the
/// characters RFC 3986 forbids in a path (`\` `^` `|` `[` `]`).
pub const URL_PATH: AsciiSet = AsciiSet::alnum().add_all(b"!$&'()*+,-./:;=@_~");

/// Unreserved characters of RFC 2396 (seed 004 Part B): an escape of one of
/// these is unescaped by seed 004 §6 step c.
pub const INFO_UNRESERVED: AsciiSet = AsciiSet::alnum().add_all(b"-_.!~*'()");

/// `pchar` of seed 004 Part B, plus `/` between segments: what an `info:`
/// identifier may hold unescaped.
pub const INFO_IDENTIFIER: AsciiSet = INFO_UNRESERVED.add_all(b";:@&=+$,/");

/// What RFC 3986 allows unescaped in a path, query or fragment (`pchar`,
/// `/`, `?`) plus `%` of an escape. Anything else in a URI or URL is flagged
/// `unencoded_chars`.
pub const URI_RAW: AsciiSet = AsciiSet::alnum().add_all(b"-._~!$&'()*+,;=:@/?%");

/// What an `info:` identifier may hold raw: seed 004's `pchar`, `/`, and
/// the `%` of an escape (no `?`: an `info:` URI has no query).
pub const INFO_RAW: AsciiSet = INFO_IDENTIFIER.add(b'%');

/// True when `s` holds a byte a URI should have percent-encoded.
pub fn has_unencoded(s: &str) -> bool {
    has_outside(s, &URI_RAW)
}

/// True when `s` holds a byte outside `set`.
pub fn has_outside(s: &str, set: &AsciiSet) -> bool {
    s.bytes().any(|b| !set.contains(b))
}

/// The byte of the escape starting at `s[i]` (which is `%`), if well formed.
#[inline]
pub fn escape_at(s: &[u8], i: usize) -> Option<u8> {
    let hex = |at: usize| char::from(*s.get(at)?).to_digit(16);
    Some((hex(i + 1)? << 4 | hex(i + 2)?) as u8)
}

/// Decodes every escape of `s` into `out` (cleared first). Errors on a `%`
/// that does not start a two-hex-digit escape.
pub fn decode_into(s: &str, out: &mut Vec<u8>) -> Result<(), ErrorCode> {
    out.clear();
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'%', &b[i..]) {
        let p = i + off;
        out.extend_from_slice(&b[i..p]);
        out.push(escape_at(b, p).ok_or(ErrorCode::BadPercentEscape)?);
        i = p + 3;
    }
    out.extend_from_slice(&b[i..]);
    Ok(())
}

/// Decodes the well-formed escapes of `s` and leaves a stray `%` as it is:
/// the lenient second pass of the `double_encoded` repair.
pub fn decode_lenient_into(s: &str, out: &mut Vec<u8>) {
    out.clear();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = escape_at(b, i)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
}

/// True when `s` holds `%` followed by two hex digits.
pub fn has_escape(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| b[i] == b'%' && escape_at(b, i).is_some())
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `s` to `out`, encoding every byte outside `keep` as `%XX`.
pub fn encode_into(s: &str, keep: &AsciiSet, out: &mut String) {
    let b = s.as_bytes();
    // Most parts need no escape: one test per byte, one copy.
    if b.iter().all(|&x| keep.contains(x)) {
        out.push_str(s);
        return;
    }
    let mut start = 0;
    for (i, &x) in b.iter().enumerate() {
        if !keep.contains(x) {
            // A non-empty run holds kept (ASCII) bytes only, so both of its
            // ends are char boundaries.
            if start < i {
                out.push_str(&s[start..i]);
            }
            push_escape(x, out);
            start = i + 1;
        }
    }
    if start < b.len() {
        out.push_str(&s[start..]);
    }
}

/// Appends `%XX`, upper-case hex, for byte `x`.
#[inline]
pub fn push_escape(x: u8, out: &mut String) {
    out.push('%');
    out.push(HEX[(x >> 4) as usize] as char);
    out.push(HEX[(x & 15) as usize] as char);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_strictly() {
        let mut v = Vec::new();
        decode_into("a%20b%2fc", &mut v).unwrap();
        assert_eq!(v, b"a b/c");
        assert_eq!(decode_into("a%2", &mut v), Err(ErrorCode::BadPercentEscape));
        assert_eq!(decode_into("a%G7", &mut v), Err(ErrorCode::BadPercentEscape));
        decode_lenient_into("a%41%", &mut v);
        assert_eq!(v, b"aA%");
    }

    #[test]
    fn encodes_uppercase_and_keeps_utf8_whole() {
        let mut s = String::new();
        encode_into("a b/é:<", &HDL_SUFFIX, &mut s);
        assert_eq!(s, "a%20b/%C3%A9%3A%3C");
        s.clear();
        encode_into("a b/é:?#%", &URL_PATH, &mut s);
        assert_eq!(s, "a%20b/%C3%A9:%3F%23%25");
    }

    proptest::proptest! {
        /// The run-copying encoder against the obvious char-by-char one.
        #[test]
        fn encode_matches_char_by_char(s in "[a-zA-Z0-9 %/:?#<>\\[\\]{}|^`\"'.~é€\u{0}\u{7F}-]{0,20}") {
            for set in [&HDL_PREFIX, &HDL_SUFFIX, &URL_PATH, &INFO_IDENTIFIER] {
                let mut want = String::new();
                for c in s.chars() {
                    let mut buf = [0u8; 4];
                    for &b in c.encode_utf8(&mut buf).as_bytes() {
                        if c.is_ascii() && set.contains(b) {
                            want.push(c);
                        } else {
                            want.push_str(&format!("%{b:02X}"));
                        }
                    }
                }
                let mut got = String::from("x");
                encode_into(&s, set, &mut got);
                proptest::prop_assert_eq!(&got[1..], want.as_str());
            }
        }
    }

    #[test]
    fn named_sets_match_the_abnf() {
        for b in b"!$&'()*+,-.0123456789;=AZ_az~" {
            assert!(HDL_PREFIX.contains(*b), "{}", *b as char);
        }
        for b in b"/:@?#% \"<>[]\\^`{|}" {
            assert!(!HDL_PREFIX.contains(*b), "{}", *b as char);
        }
        assert!(HDL_SUFFIX.contains(b'/'));
        assert!(!INFO_UNRESERVED.contains(b';'));
        assert!(INFO_IDENTIFIER.contains(b';'));
    }
}
