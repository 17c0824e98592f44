//! SPEC §6 "Words used here": raw whitespace, separators and pieces.
//!
//! *Raw whitespace* is Unicode White_Space inside a trimmed value, and
//! the escaped line breaks exports write as text (`\n`, `\r`, `\t`: a
//! backslash and a letter, [`space_len`]), but for the whitespace SPEC §2
//! skips after a head (a `doi:` or `DOI`
//! label, `hdl:`, a resolver URL's host or path prefix): [`head_len`]
//! says where a head and its whitespace end. A *separator* is raw
//! whitespace or one of `||`, `|`, `::`, `;`, `,`, and ` / ` and ` and `
//! with whitespace on both sides; a run of them is one separator. The
//! *pieces* are the non-empty parts between separators, each starting
//! with its head, so `DOI: 10.1/x; DOI: 10.1/y` is two pieces, not four.
//!
//! [`Words`] are the pieces cut at whitespace alone (` / ` and ` and `
//! included), which `extra_text`'s repair picks from: `;`, `,` and `::`
//! stand inside real DOIs (SICI), and cutting there would repair a value
//! to a DOI that does not exist.

use super::chars::{self, starts_with_ci};
use super::{Options, classes, label, other, resolver};
use std::ops::Range;

/// The bytes a separator inside a piece may start with (no whitespace
/// before it, so no ` / ` or ` and `): ASCII whitespace, `|`, `;`, `,`,
/// `:` (of `::`), `\` (of an escaped line break), and the first byte of a
/// character outside ASCII (Unicode white space). `separator_at` decides
/// at each.
static MAY_END_PIECE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b >= 0xC0
            || matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C | b'|' | b';' | b',' | b':' | b'\\'
            );
        i += 1;
    }
    t
};

/// Which separators cut: all of SPEC §6's, or whitespace only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Every separator of SPEC §6: pieces.
    All,
    /// Raw whitespace and the separators that hold it (` / `, ` and `):
    /// words.
    Whitespace,
}

/// Is `c` whitespace (SPEC §6: a space, tab, CR, LF or any other Unicode
/// White_Space)? U+200B and U+FEFF are not: inside a value they are
/// `invisible_char`.
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// The length of the raw whitespace that starts at byte `i` of `s`: a
/// White_Space character ([`is_space`]), or an escaped line break written
/// as text (`\n`, `\r`, `\t`, SPEC v3 §6); 0 when none does. Decision:
/// the letter in either case, since a DOI's canonical is lowercased whole
/// (`\N` in a DOI would become `\n` there).
#[inline]
pub fn space_len(s: &str, i: usize) -> usize {
    let b = s.as_bytes();
    match b.get(i) {
        None => 0,
        Some(b'\\') => 2 * b.get(i + 1).is_some_and(|&c| is_escape_letter(c)) as usize,
        Some(&x) if x.is_ascii() => is_space(char::from(x)) as usize,
        Some(_) => s[i..].chars().next().filter(|&c| is_space(c)).map_or(0, char::len_utf8),
    }
}

/// True when `s` holds raw whitespace ([`space_len`]).
pub fn has_space(s: &str) -> bool {
    // Most text holds no byte that may start whitespace: one look at
    // eight bytes at a time says so.
    if !may_start_space(s.as_bytes()) {
        return false;
    }
    // ASCII is tested a byte at a time, without decoding, in one walk
    // with the escaped line breaks; text outside ASCII as characters.
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b' ' | b'\t'..=b'\r' => return true,
            b'\\' if b.get(i + 1).is_some_and(|&n| is_escape_letter(n)) => return true,
            0x80.. => return s[i..].contains(is_space) || has_escaped_space(&b[i..]),
            _ => {}
        }
    }
    false
}

/// True when `b` holds a byte that may start raw whitespace: ASCII
/// white space or a control byte (below `!`), `\` (of `\n` written as
/// text), or a byte outside ASCII (Unicode White_Space). Eight bytes at a
/// time, as `chars::find_byte` reads them.
fn may_start_space(b: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    // A lane below `!` or with its high bit set; a lane equal to `\`.
    let hit = |w: u64| {
        let x = w ^ (LO * u64::from(b'\\'));
        (w.wrapping_sub(LO * 0x21) | w | x.wrapping_sub(LO) & !x) & HI != 0
    };
    let mut words = b.chunks_exact(8);
    if words.by_ref().any(|w| hit(u64::from_le_bytes(w.try_into().unwrap()))) {
        return true;
    }
    words
        .remainder()
        .iter()
        .any(|&c| c < 0x21 || c == b'\\' || !c.is_ascii())
}

/// True when `b` holds an escaped line break written as text (`\n`, `\r`,
/// `\t`).
fn has_escaped_space(b: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', b).any(|i| b.get(i + 1).is_some_and(|&c| is_escape_letter(c)))
}

/// The letter of an escaped line break after its `\\`, any case.
fn is_escape_letter(c: u8) -> bool {
    matches!(c | 0x20, b'n' | b'r' | b't')
}

/// `s` without the raw whitespace at its end.
pub fn trim_end_space(mut s: &str) -> &str {
    loop {
        let t = s.trim_end_matches(is_space);
        match t.as_bytes() {
            [.., b'\\', c] if is_escape_letter(*c) => s = &t[..t.len() - 2],
            _ => return t,
        }
    }
}

/// `s` without the raw whitespace at its start.
pub fn trim_start_space(mut s: &str) -> &str {
    loop {
        let n = space_len(s, 0);
        if n == 0 {
            return s;
        }
        s = &s[n..];
    }
}

/// True when the trimmed value `t` holds raw whitespace.
pub fn has_raw_space(t: &str, opts: &Options) -> bool {
    // Most values the full parser reads hold none: then their head, a
    // second walk of the value, is not looked for.
    has_space(t) && space_after_head(t, opts)
}

/// `has_raw_space` of a value `t` known to hold whitespace (`has_space`):
/// whether any stands after its head.
pub fn space_after_head(t: &str, opts: &Options) -> bool {
    has_space(&t[head_len(t, opts)..])
}

/// The length of the head `s` starts with, with the whitespace SPEC §2
/// skips after it (`DOI: `, `doi:doi: `, `hdl: `, `https://doi.org/ `,
/// `https://repo.example.edu/handle/ `); 0 when `s` has no head followed
/// by whitespace. What stands before it is not raw whitespace.
/// `opts` names the hosts the user added, whose paths are heads too.
pub fn head_len(s: &str, opts: &Options) -> usize {
    // A head ends where whitespace starts, in `:` (`doi:`, `hdl:`), `/`
    // (a resolver's path) or `doi` (`DOI 10.1/x`): most words are none.
    // The search stops at a separator byte too, so that finding the heads
    // of a value's pieces reads it once, not once a piece.
    // Bytes that can start neither are skipped by `MAY_END_PIECE`, without
    // `char_indices`' decoding.
    let b = s.as_bytes();
    let mut i = 0;
    let end = loop {
        let Some(&x) = b.get(i) else {
            return 0;
        };
        // Neither whitespace nor a separator can start here.
        if !MAY_END_PIECE[x as usize] {
            i += 1;
            continue;
        }
        if space_len(s, i) > 0 {
            break i;
        }
        let c = match x.is_ascii() {
            true => char::from(x),
            false => s[i..].chars().next().unwrap_or_default(),
        };
        if matches!(c, '|' | ';' | ',') || (c == ':' && b.get(i + 1) == Some(&b':')) {
            return 0;
        }
        i += c.len_utf8();
    };
    let word = &b[..end];
    // A label of SPEC §8 and its whitespace (`ISSN 1932-6203`, `PMID: 1`,
    // `ORCID iD 0000-…`) is the head: no `doi` label or URL starts so.
    let other = other::head_len(s);
    // A word ending in `doi` may end in a label (`DOI 10.1/x`, and
    // `doi:doi 10.1/x`, two labels: the fuzzer's find).
    let doi = word.len() >= 3 && word[word.len() - 3..].eq_ignore_ascii_case(b"doi");
    if other > 0 || !(word.ends_with(b":") || word.ends_with(b"/") || doi) {
        return other;
    }
    // A lone `DOI` before whitespace is a label too (`DOI 10.1/x`).
    let (labels, rest) = label::doi_labels(s);
    let label = if labels > 0 { s.len() - rest.len() } else { 0 };
    // A resolver URL's, perhaps after labels (`doi: https://doi.org/ 10.1/x`).
    let url = resolver::head_space(s, opts).map_or(0, |(_, end)| end);
    label.max(url)
}

/// The separator that starts at byte `i` of `t`, if any: its length.
/// `space_before` says whether whitespace ends just before `i`.
fn separator_at(t: &str, i: usize, space_before: bool, cut: Cut) -> usize {
    let b = t.as_bytes();
    let c = b[i];
    let space = space_len(t, i);
    if space > 0 {
        return space;
    }
    if c.is_ascii() {
        let space_after = |len: usize| space_len(t, i + len) > 0;
        return match c {
            b'|' | b';' | b',' if cut == Cut::All => 1,
            b':' if cut == Cut::All && b.get(i + 1) == Some(&b':') => 2,
            b'/' if space_before && space_after(1) => 1,
            b'a' | b'A' if space_before && starts_with_ci(&t[i..], "and") && space_after(3) => 3,
            _ => 0,
        };
    }
    0
}

/// The pieces (or words) of the trimmed value `t`: byte ranges, in order,
/// none empty.
pub struct Pieces<'a> {
    t: &'a str,
    at: usize,
    cut: Cut,
    opts: &'a Options,
}

impl<'a> Pieces<'a> {
    pub fn new(t: &'a str, cut: Cut, opts: &'a Options) -> Pieces<'a> {
        Pieces { t, at: 0, cut, opts }
    }

    /// The separator run from `i`: where it ends.
    fn skip_separators(&self, mut i: usize) -> usize {
        let t = self.t;
        let mut space_before = i > 0 && trim_end_space(&t[..i]).len() < i;
        while i < t.len() {
            let n = separator_at(t, i, space_before, self.cut);
            if n == 0 {
                break;
            }
            space_before = space_len(t, i) > 0;
            i += n;
        }
        i
    }
}

impl Iterator for Pieces<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        let t = self.t;
        let start = self.skip_separators(self.at);
        if start >= t.len() {
            self.at = t.len();
            return None;
        }
        // The piece's head and the whitespace after it are the piece's.
        let mut i = start + head_len(&t[start..], self.opts);
        // Whitespace ends a piece, so none stands before a `/` or `and`
        // inside one. Most bytes can start no separator: the table skips
        // them without a closer look.
        let b = t.as_bytes();
        while i < t.len() {
            if !MAY_END_PIECE[b[i] as usize] {
                i += 1;
                continue;
            }
            if separator_at(t, i, false, self.cut) != 0 {
                break;
            }
            i += t[i..].chars().next().map_or(1, char::len_utf8);
        }
        // A head with nothing after it (`doi: ` at the end) ends at its
        // last visible character.
        let end = trim_end_space(&t[..i]).len().max(start + 1).min(i);
        self.at = i;
        Some(start..end)
    }
}

/// True when `piece` is a link (SPEC §6): it starts with `http://` or
/// `https://`, any case, or it is a URL written without its scheme, which
/// SPEC §2 reads as `http://` + the piece for section 6's rules too: else
/// `oi.org/x;ream/handle/10.1/a;1/b` would be one value (its first piece no
/// link) whose canonical `10.1/a;1/b` reads as two (the fuzzer's find).
pub fn is_link(piece: &str) -> bool {
    has_http_scheme(piece) || resolver::is_schemeless_url(piece)
}

/// True when `t` starts with `http://` or `https://`, any case: the URLs
/// the fast path hands to URL parsing as written.
pub fn has_http_scheme(t: &str) -> bool {
    starts_with_ci(t, "http://") || starts_with_ci(t, "https://")
}

/// True when `b` could be an identifier or a link at all: it holds a `/`,
/// an escaped one (`%2F`), or `urn:doi:` (where a `:` stands for the `/`),
/// since every form of SPEC §2 but that one holds a `/`. False proves a
/// piece is neither, without parsing it.
pub fn could_hold_identifier(b: &[u8]) -> bool {
    classes::places(b, [b'/', b'%', b':', b'/']).any(|i| starts_identifier_at(b, i)) || other::piece_may_be(b)
}

/// True when a `/`, a `%2F` or the last `:` of `urn:doi:` stands at `b[i]`.
#[inline(always)]
fn starts_identifier_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        b'/' => true,
        b'%' => b.get(i + 1) == Some(&b'2') && b.get(i + 2).is_some_and(|&f| f | 0x20 == b'f'),
        b':' => i >= 7 && b[i - 7..=i].eq_ignore_ascii_case(b"urn:doi:"),
        _ => false,
    }
}

/// True when no two pieces of `t`, however it is cut, could hold an
/// identifier: two need two `/`, or an escape, or a `urn:doi:`, or a
/// piece of SPEC §8, which needs no `/` (`10.1/x; PMID: 123`).
#[inline]
pub fn at_most_one_candidate(t: &[u8]) -> bool {
    at_most_one_handle(t) && !other::may_hold(t)
}

/// [`at_most_one_candidate`] for the handles and DOIs alone. Most values
/// with a separator byte (SICI DOIs) or a space (a DOI with a stray
/// space, `ISBN 978-…`) have one `/` and no escape, and are told so by a
/// few searches, a word at a time (`chars::find_byte`: memchr's set-up
/// costs more on values this short).
#[inline]
fn at_most_one_handle(t: &[u8]) -> bool {
    let second_slash = chars::find_byte(b'/', t).is_some_and(|i| chars::find_byte(b'/', &t[i + 1..]).is_some());
    if second_slash || chars::find_byte(b'%', t).is_some() {
        return false;
    }
    let mut from = 0;
    while let Some(i) = chars::find_byte(b':', &t[from..]) {
        if starts_identifier_at(t, from + i) {
            return false;
        }
        from += i + 1;
    }
    true
}

/// True when `t` is cut by a separator other than whitespace (`|`, `;`,
/// `,`, `::`) into two or more pieces that [`could_hold_identifier`]
/// each: for a value without raw whitespace, whether `multiple_values`
/// may apply (`whole::multiple` reads the same pieces). The fast path
/// asks it of values holding `|`, `;`, `,` or `::` (`Classes` tells most
/// of them by its masks). Out of line: the fast path's registers are
/// worth more than the call.
#[cold]
#[inline(never)]
pub fn may_be_several(t: &[u8]) -> bool {
    let seps = separators(t);
    // Without a separator, the value is one piece.
    let Some((first_sep, _)) = seps.clone().next() else {
        return false;
    };
    // The second candidate stands after a separator: a URL holding a
    // SICI DOI (`…37:9%3C598::AID-JPS5%3E3.0.CO;2-J`) has its `/` before.
    // A piece of SPEC §8 there needs none: `other::may_hold` looks.
    let rest = &t[first_sep..];
    if !could_hold_identifier(rest) && !other::may_hold(rest) {
        return false;
    }
    let (mut candidates, mut start) = (0, 0);
    for (at, len) in seps {
        candidates += (at > start && could_hold_identifier(&t[start..at])) as u32;
        start = at + len;
        if candidates >= 2 {
            return true;
        }
    }
    candidates + (start < t.len() && could_hold_identifier(&t[start..])) as u32 >= 2
}

/// The separators of `t` other than whitespace, in order, as their place
/// and length: `|`, `;`, `,`, and `::` (the colon after it starts none;
/// a lone `:` is a scheme's or a label's).
fn separators(t: &[u8]) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
    let mut places = classes::places(t, [b'|', b';', b',', b':']);
    std::iter::from_fn(move || {
        loop {
            let at = places.next()?;
            if t[at] != b':' {
                return Some((at, 1));
            }
            if t.get(at + 1) == Some(&b':') {
                // The second colon is the next place: it is this one's.
                places.next();
                return Some((at, 2));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(t: &str, cut: Cut) -> Vec<&str> {
        Pieces::new(t, cut, &Options::default()).map(|r| &t[r]).collect()
    }

    fn has_raw_space(t: &str) -> bool {
        super::has_raw_space(t, &Options::default())
    }

    #[test]
    fn pieces_at_every_separator() {
        assert_eq!(
            cut("http://hdl.handle.net/1/2||http://dx.doi.org/10.1/x", Cut::All),
            ["http://hdl.handle.net/1/2", "http://dx.doi.org/10.1/x"]
        );
        assert_eq!(cut("10.1/a, 10.1/b ; 10.1/c", Cut::All), ["10.1/a", "10.1/b", "10.1/c"]);
        assert_eq!(
            cut("10.1/a / 10.1/b and 10.1/c", Cut::All),
            ["10.1/a", "10.1/b", "10.1/c"]
        );
        assert_eq!(cut("10.1/a AND 10.1/b", Cut::All), ["10.1/a", "10.1/b"]);
        assert_eq!(cut("10.1/a\r\n10.1/b\n", Cut::All), ["10.1/a", "10.1/b"]);
        assert_eq!(cut("hdl:1/2 :: doi:10.1/x", Cut::All), ["hdl:1/2", "doi:10.1/x"]);
        // `/` and `and` without whitespace on both sides are not separators.
        assert_eq!(cut("10.1/a/b andx/y", Cut::All), ["10.1/a/b", "andx/y"]);
        assert_eq!(cut("10.1/a /b", Cut::All), ["10.1/a", "/b"]);
        assert_eq!(cut("sand and band", Cut::All), ["sand", "band"]);
    }

    #[test]
    fn heads_keep_their_whitespace() {
        assert_eq!(
            cut("DOI: 10.1/x; doi 10.1/y, hdl: 1/2", Cut::All),
            ["DOI: 10.1/x", "doi 10.1/y", "hdl: 1/2"]
        );
        assert_eq!(
            cut("see DOI:\u{A0}10.1/x", Cut::Whitespace),
            ["see", "DOI:\u{A0}10.1/x"]
        );
        assert_eq!(cut("doi: ", Cut::All), ["doi:"]);
        assert!(!has_raw_space("DOI: doi: 10.1/x"));
        assert!(has_raw_space("10.1/x see"));
        assert!(has_raw_space("DOI: 10.1/x see"));
    }

    #[test]
    fn words_keep_sici_dois_whole() {
        let sici = "10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9";
        assert_eq!(cut(&format!("{sici} see"), Cut::Whitespace), [sici, "see"]);
        assert_eq!(cut(sici, Cut::All).len(), 3);
        assert!(!may_be_several(sici.as_bytes()));
        assert!(may_be_several(b"10.1/a,10.1/b"));
        assert!(may_be_several(b"urn:doi:10.1:a|urn:doi:10.1:b"));
        assert!(!may_be_several(b"10.1/a,b;c"));
        // An entity's `;` and a `:` in a DOI are no second identifier.
        assert!(!may_be_several(
            b"10.1175/1520-0481(1984)118&lt;0328:PXAFTC&gt;2.0.CO;2"
        ));
        assert!(may_be_several(b"10.1%2Fa;10.1%2fb"));
        assert!(!may_be_several(
            b"https://doi.org/10.1/(SICI)37:9%3C598::AID-JPS5%3E3.0.CO;2-J"
        ));
    }

    /// SPEC v3 §6: `\n`, `\r`, `\t` written as text are whitespace.
    #[test]
    fn escaped_line_breaks_are_whitespace() {
        assert_eq!(cut(r"10.1/a\n10.1/b", Cut::All), ["10.1/a", "10.1/b"]);
        assert_eq!(cut(r"10.1/a\r\n10.1/b\t", Cut::Whitespace), ["10.1/a", "10.1/b"]);
        assert_eq!(cut(r"10.1/a\n / 10.1/b", Cut::All), ["10.1/a", "10.1/b"]);
        assert_eq!(cut(r"10.1/a\b", Cut::All), [r"10.1/a\b"]);
        assert!(has_raw_space(r"10.1/a\tb"));
        assert!(!has_raw_space(r"10.1/a\b\x"));
        assert!(has_raw_space(r"10.1/a\Nb"));
        assert_eq!(trim_end_space("a \\n\t\\r"), "a");
        assert_eq!(trim_start_space("\\t \\nb"), "b");
        assert_eq!(
            (space_len(r"\n", 0), space_len(r"\x", 0), space_len("\u{A0}", 0)),
            (2, 0, 2)
        );
    }

    #[test]
    fn separators_only_give_no_piece() {
        assert!(cut(" || ;, ", Cut::All).is_empty());
        assert!(cut("", Cut::All).is_empty());
    }

    /// `may_be_several` from its definition: the pieces between `|`, `;`,
    /// `,` and `::` (read left to right), two of which hold a `/`, a
    /// `%2F`, a `urn:doi:` or a piece of SPEC §8.
    fn several_by_definition(t: &[u8]) -> bool {
        let candidate = |p: &[u8]| {
            let escaped = |i: usize| p[i..].len() >= 3 && p[i] == b'%' && p[i + 1] == b'2' && p[i + 2] | 0x20 == b'f';
            let urn = |i: usize| i >= 7 && p[i - 7..=i].eq_ignore_ascii_case(b"urn:doi:");
            (0..p.len()).any(|i| p[i] == b'/' || escaped(i) || urn(i)) || other::piece_may_be(p)
        };
        let (mut pieces, mut start, mut i) = (0, 0, 0);
        while i < t.len() {
            let sep = match t[i] {
                b'|' | b';' | b',' => 1,
                b':' if t.get(i + 1) == Some(&b':') => 2,
                _ => 0,
            };
            if sep > 0 {
                pieces += (i > start && candidate(&t[start..i])) as u32;
                start = i + sep;
                i += sep;
            } else {
                i += 1;
            }
        }
        pieces + (start < t.len() && candidate(&t[start..])) as u32 >= 2
    }

    proptest::proptest! {
        /// On text made of separators, slashes, escapes, `urn:doi:`,
        /// SPEC §8's pieces and letters, at every length (the searches
        /// read 16 bytes at a time).
        #[test]
        fn may_be_several_is_its_definition(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "/", "%2F", "%2f", "%2", "%", ":", "::", ":::", ";", ",", "|", "||", "urn:doi:", "URN:DOI:",
                    "a", "10.1", "x", "AID-JPS5", "%3E", "1932-6203", "PMID", "[pmid]", "ark:", "-",
                ]),
                0..40,
            ),
        ) {
            let v = parts.concat();
            proptest::prop_assert_eq!(may_be_several(v.as_bytes()), several_by_definition(v.as_bytes()), "{:?}", v);
        }
    }
}
