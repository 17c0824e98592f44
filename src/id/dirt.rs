//! SPEC §3 "Dirt, and repair": the warnings that flag a dirty but readable
//! handle, and the repairs that `--repair` applies to `canonical`, `uri`
//! and `url`. Flagging looks at the parts as read; each repair runs only
//! when its warning was raised, so the report shows every repair made.

use super::chars::{self, is_invisible, is_unicode_dash};
use super::codes::{Warning, Warnings};
use super::percent;

const PUBLISHER_SUFFIXES: [&str; 4] = ["/abstract", "/full", "/pdf", "/epdf"];
const TEST_PREFIXES: [&str; 3] = ["123456789", "10.5072", "10.2999"];
const ENTITIES: [(&str, char); 3] = [("&lt;", '<'), ("&gt;", '>'), ("&amp;", '&')];

/// Raises the §3 warnings that apply to a handle's decoded parts.
pub fn flag(prefix: &str, suffix: &str, is_doi: bool, decoded: bool, ws: &mut Warnings) {
    if trailing_punct_len(suffix) > 0 {
        ws.add(Warning::TrailingPunct);
    }
    let scan = chars::scan(suffix);
    if scan.non_ascii || !prefix.is_ascii() {
        for c in prefix.chars().chain(suffix.chars()) {
            if is_invisible(c) {
                ws.add(Warning::InvisibleChar);
            }
        }
        for c in suffix.chars() {
            if is_doi && is_unicode_dash(c) {
                ws.add(Warning::UnicodeDash);
            }
            if chars::is_inner_space(c) {
                ws.add(Warning::InternalWhitespace);
            }
        }
    }
    if scan.space {
        ws.add(Warning::InternalWhitespace);
    }
    if scan.amp && ENTITIES.iter().any(|(e, _)| suffix.contains(e)) {
        ws.add(Warning::HtmlEntity);
    }
    if is_doi && publisher_suffix_len(suffix) > 0 {
        ws.add(Warning::PublisherSuffix);
    }
    if decoded && (scan.percent || prefix.contains('%')) && (percent::has_escape(suffix) || percent::has_escape(prefix))
    {
        ws.add(Warning::DoubleEncoded);
    }
    if is_doi && has_embedded_doi(suffix) {
        ws.add(Warning::EmbeddedDoi);
    }
    if TEST_PREFIXES.contains(&prefix) {
        ws.add(Warning::TestPrefix);
    }
}

/// Length of the trailing punctuation a repair would drop: `.` `,` `;`, and
/// closing brackets the suffix never opened, repeatedly. Never the whole
/// suffix.
fn trailing_punct_len(suffix: &str) -> usize {
    let b = suffix.as_bytes();
    let mut end = b.len();
    while end > 1 {
        let last = b[end - 1];
        let drop = match last {
            b'.' | b',' | b';' => true,
            b')' => unopened(&b[..end], b'(', b')'),
            b']' => unopened(&b[..end], b'[', b']'),
            b'}' => unopened(&b[..end], b'{', b'}'),
            _ => false,
        };
        if !drop {
            break;
        }
        end -= 1;
    }
    b.len() - end
}

fn unopened(s: &[u8], open: u8, close: u8) -> bool {
    memchr::memchr_iter(close, s).count() > memchr::memchr_iter(open, s).count()
}

fn publisher_suffix_len(suffix: &str) -> usize {
    PUBLISHER_SUFFIXES
        .iter()
        .find(|p| suffix.len() > p.len() && chars::ends_with_ci(suffix, p))
        .map_or(0, |p| p.len())
}

/// `10.` then four or more digits, optional `.digits` segments, then `/`.
fn has_embedded_doi(suffix: &str) -> bool {
    let b = suffix.as_bytes();
    memchr::memmem::find_iter(b, b"10.").any(|i| {
        let mut j = i + 3;
        let start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j - start < 4 {
            return false;
        }
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
            j += 1;
        }
        j < b.len() && b[j] == b'/'
    })
}

/// Buffers for repairs, reused across values.
#[derive(Debug, Default, Clone)]
pub struct RepairBufs {
    prefix: String,
    suffix: String,
    tmp: String,
    bytes: Vec<u8>,
}

/// The warnings whose repairs change something.
pub fn any_repairable(ws: Warnings) -> bool {
    [
        Warning::TrailingPunct,
        Warning::UnicodeDash,
        Warning::InvisibleChar,
        Warning::HtmlEntity,
        Warning::PublisherSuffix,
        Warning::DoubleEncoded,
    ]
    .iter()
    .any(|w| ws.contains(*w))
}

/// Applies the §3 repairs flagged in `ws`, in an order where each one sees
/// the text the previous left: decode, entities, invisibles, dashes,
/// publisher suffix, trailing punctuation.
pub fn repair<'b>(
    prefix: &str,
    suffix: &str,
    ws: Warnings,
    is_doi: bool,
    bufs: &'b mut RepairBufs,
) -> (&'b str, &'b str) {
    let RepairBufs {
        prefix: p,
        suffix: s,
        tmp,
        bytes,
    } = bufs;
    p.clear();
    p.push_str(prefix);
    s.clear();
    s.push_str(suffix);
    if ws.contains(Warning::DoubleEncoded) {
        for part in [&mut *p, &mut *s] {
            percent::decode_lenient_into(part, bytes);
            if let Ok(d) = std::str::from_utf8(bytes) {
                part.clear();
                part.push_str(d);
            }
        }
    }
    if ws.contains(Warning::HtmlEntity) {
        tmp.clear();
        let mut rest = s.as_str();
        while let Some(i) = rest.find('&') {
            tmp.push_str(&rest[..i]);
            rest = &rest[i..];
            match ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) {
                Some((e, c)) => {
                    tmp.push(*c);
                    rest = &rest[e.len()..];
                }
                None => {
                    tmp.push('&');
                    rest = &rest[1..];
                }
            }
        }
        tmp.push_str(rest);
        std::mem::swap(s, tmp);
    }
    if ws.contains(Warning::InvisibleChar) {
        p.retain(|c| !is_invisible(c));
        s.retain(|c| !is_invisible(c));
    }
    if ws.contains(Warning::UnicodeDash) && is_doi {
        tmp.clear();
        tmp.extend(s.chars().map(|c| if is_unicode_dash(c) { '-' } else { c }));
        std::mem::swap(s, tmp);
    }
    if ws.contains(Warning::PublisherSuffix) && is_doi {
        let n = publisher_suffix_len(s);
        s.truncate(s.len() - n);
    }
    if ws.contains(Warning::TrailingPunct) {
        let n = trailing_punct_len(s);
        s.truncate(s.len() - n);
    }
    (p.as_str(), s.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(prefix: &str, suffix: &str, decoded: bool) -> Vec<&'static str> {
        let mut ws = Warnings::EMPTY;
        flag(prefix, suffix, prefix.starts_with("10."), decoded, &mut ws);
        ws.iter().map(|w| w.as_str()).collect()
    }

    #[test]
    fn trailing_punct_respects_brackets_it_opened() {
        assert_eq!(trailing_punct_len("TAO.2009.05.25.02(IWNOP)"), 0);
        assert_eq!(trailing_punct_len("182)."), 2);
        assert_eq!(trailing_punct_len("a]"), 1);
        assert_eq!(trailing_punct_len("."), 0);
        assert_eq!(flags("10.1000", "182.", false), ["trailing_punct"]);
    }

    #[test]
    fn each_dirt_is_flagged() {
        assert_eq!(flags("10.1000", "a\u{2013}b", false), ["unicode_dash"]);
        assert_eq!(flags("1234", "a\u{2013}b", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "a\u{200B}b", false), ["invisible_char"]);
        assert_eq!(flags("10.1000", "a&lt;b", false), ["html_entity"]);
        assert_eq!(flags("10.1000", "x/abstract", false), ["publisher_suffix"]);
        assert_eq!(flags("10.1000", "x%41", true), ["double_encoded"]);
        assert_eq!(flags("10.1000", "x%41", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "x10.1234/y", false), ["embedded_doi"]);
        assert_eq!(flags("10.1000", "x10.12/y", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "a b", false), ["internal_whitespace"]);
        assert_eq!(flags("10.1000", "a\u{A0}b", false), ["internal_whitespace"]);
        assert_eq!(flags("10.5072", "x", false), ["test_prefix"]);
    }

    #[test]
    fn repairs_chain_in_order() {
        let mut b = RepairBufs::default();
        let ws: Warnings = [
            Warning::HtmlEntity,
            Warning::InvisibleChar,
            Warning::UnicodeDash,
            Warning::TrailingPunct,
        ]
        .into_iter()
        .collect();
        let (p, s) = repair("10.1\u{AD}000", "a&lt;b\u{2010}c\u{200B}.", ws, true, &mut b);
        assert_eq!((p, s), ("10.1000", "a<b-c"));
        let ws: Warnings = [Warning::PublisherSuffix].into_iter().collect();
        assert_eq!(repair("10.1", "x/PDF", ws, true, &mut b), ("10.1", "x"));
        let ws: Warnings = [Warning::DoubleEncoded].into_iter().collect();
        assert_eq!(repair("10.1", "a%2Fb", ws, true, &mut b), ("10.1", "a/b"));
    }
}
