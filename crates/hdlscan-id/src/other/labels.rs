//! SPEC §8's labelled and bare forms: a scheme's label (any case, then
//! `:` and whitespace, or whitespace) at the start of a value or piece,
//! `urn:issn:` and `urn:isbn:`, `ark:`, PubMed's tags written after the
//! identifier (`33604029[pmid]`, `PMC4441768 [pmcid]`, `10.1000/182
//! [doi]`), and the bare shapes of `ids::bare`; with SPEC §3's dirt
//! after a label (`Clean`). Also what SPEC §6 must know of them: the
//! whitespace a label's head takes ([`head_len`]), a value whose groups
//! are joined by spaces ([`spaced_shape`]), and which pieces could be
//! one ([`piece_may_be`], [`may_hold`]).

use super::super::chars::{split_off, starts_with_ci};
use super::super::codes::{Warning, Warnings};
use super::Reading;
use super::ids::{self, Fail, Scheme};

/// The labels of SPEC §8 and their schemes, by their first letter, a
/// longer label before any label it starts with (`issn-l` before `issn`,
/// `pmcid` before `pmc`).
const LABELS_I: &[Label] = &[
    Label::new("issn-l", Scheme::Issn),
    Label::new("issn", Scheme::Issn),
    Label::new("isbn-10", Scheme::Isbn),
    Label::new("isbn-13", Scheme::Isbn),
    Label::new("isbn", Scheme::Isbn),
    Label::new("isni", Scheme::Isni),
];
const LABELS_P: &[Label] = &[
    Label::new("pissn", Scheme::Issn),
    Label::new("pmid", Scheme::Pmid),
    Label::new("pubmed", Scheme::Pmid),
    Label::new("pmcid", Scheme::Pmcid),
    Label::new("pmc", Scheme::Pmcid),
];
const LABELS_E: &[Label] = &[Label::new("eissn", Scheme::Issn)];
const LABELS_O: &[Label] = &[
    Label::new("orcid id", Scheme::Orcid),
    Label::new("orcid", Scheme::Orcid),
];
const LABELS_R: &[Label] = &[Label::new("ror", Scheme::Ror)];
const LABELS_A: &[Label] = &[Label::new("arxiv", Scheme::Arxiv)];

/// A label of SPEC §8 (at most 8 bytes), as `label_bytes` compares it
/// with the first 8 bytes of a value read as one little-endian word:
/// `(word | case) & keep == lower`, a letter's case bit set by `case`.
struct Label {
    name: &'static str,
    scheme: Scheme,
    lower: u64,
    case: u64,
    keep: u64,
}

impl Label {
    const fn new(name: &'static str, scheme: Scheme) -> Label {
        let b = name.as_bytes();
        assert!(b.len() <= 8);
        let (mut lower, mut case, mut i) = (0u64, 0u64, 0);
        while i < b.len() {
            lower |= (b[i] as u64) << (8 * i);
            if b[i].is_ascii_lowercase() {
                case |= 0x20 << (8 * i);
            }
            i += 1;
        }
        let keep = if b.len() == 8 {
            u64::MAX
        } else {
            (1 << (8 * b.len())) - 1
        };
        Label {
            name,
            scheme,
            lower,
            case,
            keep,
        }
    }
}

/// URNs of §8's schemes, read as their labels: the head before its last
/// `:`, compared as a label is, and then the `:`.
const URNS: &[Label] = &[
    Label::new("urn:issn", Scheme::Issn),
    Label::new("urn:isbn", Scheme::Isbn),
];

/// PubMed's tags, written after the identifier; `None` for `[doi]`.
const TAGS: &[(&str, Option<Scheme>)] = &[
    ("[pmid]", Some(Scheme::Pmid)),
    ("[pmcid]", Some(Scheme::Pmcid)),
    ("[pmc]", Some(Scheme::Pmcid)),
    ("[doi]", None),
];

/// The label `s` starts with: its scheme and where what follows it and
/// its `:` and whitespace starts. A label must be followed by `:` or
/// whitespace.
pub fn label(s: &str) -> Option<(Scheme, usize)> {
    let (scheme, len) = label_bytes(s.as_bytes())?;
    let rest = &s[len..];
    if len > 4 && s[..len].ends_with(':') && s.as_bytes()[..4].eq_ignore_ascii_case(b"urn:") {
        return Some((scheme, len));
    }
    if !rest.starts_with(|c: char| c == ':' || c.is_whitespace()) {
        return None;
    }
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    // ASCII whitespace (`char::is_whitespace`'s: tab to carriage return,
    // space) a byte at a time; a character outside ASCII decoded.
    let ascii = rest.bytes().take_while(|&c| matches!(c, b'\t'..=b'\r' | b' ')).count();
    let rest = &rest[ascii..];
    let rest = match rest.as_bytes().first() {
        Some(c) if !c.is_ascii() => rest.trim_start_matches(char::is_whitespace),
        _ => rest,
    };
    Some((scheme, s.len() - rest.len()))
}

/// The label or URN head `b` starts with, its first 8 bytes compared as
/// one word with each label's (SPEC §6 asks it of every piece): its
/// scheme and length, without what follows. Only the labels that start
/// with `b`'s first two letters are compared: most words that start a
/// piece (`info`, `AID-…` in a SICI DOI) share a first letter with a
/// label, few its second.
fn label_bytes(b: &[u8]) -> Option<(Scheme, usize)> {
    let (labels, urn) = match (b.first()? | 0x20, b.get(1)? | 0x20) {
        (b'i', b's') => (LABELS_I, false),
        (b'p', b'i' | b'm' | b'u') => (LABELS_P, false),
        (b'e', b'i') => (LABELS_E, false),
        (b'o', b'r') => (LABELS_O, false),
        (b'r', b'o') => (LABELS_R, false),
        (b'a', b'r') => (LABELS_A, false),
        (b'u', b'r') => (URNS, true),
        _ => return None,
    };
    // Byte i of the value is byte i of the word, as in `Label`.
    let word = match b.get(..8).map(<[u8; 8]>::try_from) {
        Some(Ok(head)) => u64::from_le_bytes(head),
        _ => b.iter().rev().fold(0, |w, &c| w << 8 | u64::from(c)),
    };
    if urn {
        let l = labels
            .iter()
            .find(|l| b.get(8) == Some(&b':') && (word | l.case) & l.keep == l.lower)?;
        return Some((l.scheme, l.name.len() + 1));
    }
    labels
        .iter()
        .find(|l| {
            // Followed by `:`, or whitespace (ASCII, or a character that may be).
            let len = l.name.len();
            b.len() > len
                && (word | l.case) & l.keep == l.lower
                && (b[len] == b':' || b[len].is_ascii_whitespace() || !b[len].is_ascii())
        })
        .map(|l| (l.scheme, l.name.len()))
}

/// SPEC §6: the length of a §8 label and the whitespace after it that
/// `s` starts with, when whitespace follows it (`ISSN 1932-6203`,
/// `PMID: 123`); 0 otherwise.
pub fn head_len(s: &str) -> usize {
    match label(s) {
        Some((_, n)) if s[..n].ends_with(char::is_whitespace) => n,
        _ => 0,
    }
}

/// The tag `t` ends with, and what stands before it and the whitespace
/// before it.
fn tag(t: &str) -> Option<(Option<Scheme>, &str)> {
    if !t.ends_with(']') {
        return None;
    }
    let &(tag, scheme) = TAGS.iter().find(|(tag, _)| {
        t.len() > tag.len()
            && t.is_char_boundary(t.len() - tag.len())
            && t[t.len() - tag.len()..].eq_ignore_ascii_case(tag)
    })?;
    let before = t[..t.len() - tag.len()].trim_end_matches(char::is_whitespace);
    (!before.is_empty()).then_some((scheme, before))
}

/// `10.1000/182 [doi]`: what stands before a `[doi]` tag, read as after
/// a `doi:` label (SPEC §8).
pub fn doi_tag(t: &str) -> Option<&str> {
    match tag(t)? {
        (None, before) => Some(before),
        _ => None,
    }
}

/// SPEC §3's `trailing_punct` at the end of an identifier: none opens a
/// bracket.
const TRAILING: &[u8] = b".,;)]}";

/// The identifier text after a label, as ASCII: SPEC §3's dirt mapped
/// (`unicode_dash`: U+2010–U+2015 and U+2212 read as `-`;
/// `invisible_char`: U+00AD, U+200B–U+200D, U+2060, U+FEFF dropped) and
/// trailing punctuation dropped (`trailing_punct`: `.`, `,`, `;`, or a
/// `)`, `]`, `}`, which no identifier here opens). Kept on the stack:
/// §8's identifiers are short.
pub struct Clean {
    buf: [u8; 48],
}

impl Default for Clean {
    fn default() -> Clean {
        Clean { buf: [0; 48] }
    }
}

impl Clean {
    /// `s` cleaned, with the warnings its dirt raises; `None` when it holds
    /// another character outside ASCII or is too long to be an identifier.
    pub fn of<'b>(&'b mut self, s: &'b str, ws: &mut Warnings) -> Option<&'b [u8]> {
        let b = if s.is_ascii() {
            s.as_bytes()
        } else {
            let mut n = 0;
            let (mut dash, mut invisible) = (false, false);
            for c in s.chars() {
                let byte = match c {
                    '\u{2010}'..='\u{2015}' | '\u{2212}' => {
                        dash = true;
                        b'-'
                    }
                    '\u{AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => {
                        invisible = true;
                        continue;
                    }
                    c if c.is_ascii() => c as u8,
                    _ => return None,
                };
                *self.buf.get_mut(n)? = byte;
                n += 1;
            }
            ws.add_if(dash, Warning::UnicodeDash);
            ws.add_if(invisible, Warning::InvisibleChar);
            &self.buf[..n]
        };
        let kept = b.len() - b.iter().rev().take_while(|c| TRAILING.contains(c)).count();
        ws.add_if(kept < b.len(), Warning::TrailingPunct);
        Some(&b[..kept])
    }
}

/// An ARK's query and fragment, raw as a URL's (SPEC §8: `?` starts the
/// query; `#` the fragment, as the ARK spec and every URI have it).
pub type ArkTail<'a> = (Option<&'a str>, Option<&'a str>);

/// Reads the trimmed value `t` if it has a form of SPEC §8 (`None`:
/// sections 1–6 decide): the reading, and an ARK's query and fragment. `lab` is
/// `t`'s [`label`], read once by the caller, which asks it of
/// [`spaced_shape`] too.
pub fn read_labelled<'a>(
    t: &'a str,
    lab: Option<(Scheme, usize)>,
    ws: &mut Warnings,
) -> Option<(Reading<'a>, ArkTail<'a>)> {
    if starts_with_ci(t, "ark:") {
        return Some(after_label(Scheme::Ark, &t[4..], ws));
    }
    if let Some((scheme, at)) = lab {
        return Some(after_label(scheme, &t[at..], ws));
    }
    let mut clean = Clean::default();
    if let Some((Some(scheme), before)) = tag(t) {
        let reading = match clean.of(before, ws) {
            Some(b) => ids::labelled(scheme, b).map_err(|f| (scheme, f)),
            None => Err((scheme, Fail::Shape)),
        };
        return Some((reading, (None, None)));
    }
    let b = clean.of(t, ws)?;
    let reading = ids::bare(b)?;
    Some((reading.map_err(|f| (bare_scheme(b), f)), (None, None)))
}

/// The identifier `id` after a label of `scheme` (after `ark:` for an
/// ARK), read: the reading, and an ARK's query and fragment. `read` and OpenAIRE's
/// wrappers (`other::wrapped`) share it.
#[inline]
pub fn after_label<'a>(scheme: Scheme, id: &'a str, ws: &mut Warnings) -> (Reading<'a>, ArkTail<'a>) {
    if scheme == Scheme::Ark {
        let (id, fragment) = split_off(id, b'#');
        let (ark, query) = split_off(id, b'?');
        return (ids::ark(ark).map_err(|f| (Scheme::Ark, f)), (query, fragment));
    }
    let mut clean = Clean::default();
    let reading = match clean.of(id, ws) {
        Some(b) => ids::labelled(scheme, b).map_err(|f| (scheme, f)),
        None => Err((scheme, Fail::Shape)),
    };
    (reading, (None, None))
}

/// The scheme of a bare shape that failed its check: ORCID (hyphens),
/// ISNI (spaces, sixteen characters), or ISBN-13.
fn bare_scheme(b: &[u8]) -> Scheme {
    match (b.len(), b.get(4)) {
        (19, Some(b'-')) => Scheme::Orcid,
        (19, Some(b' ')) => Scheme::Isni,
        _ => Scheme::Isbn,
    }
}

/// SPEC §8: a value of a bare or labelled shape whose groups are joined
/// by spaces (`978 0 306 40615 7`, `ISNI 0000 0001 0943 5850`), or an
/// identifier and a tag with whitespace between (`33604029 [pmid]`,
/// `10.1000/182 [doi]`): one value, which SPEC §6 does not cut. `lab` is
/// `t`'s [`label`], read by the caller.
pub fn spaced_shape(t: &str, lab: Option<(Scheme, usize)>) -> bool {
    if let Some((_, before)) = tag(t) {
        return !before.contains(char::is_whitespace) && before.len() < t.len() - 5;
    }
    let at = lab.map_or(0, |(_, at)| at);
    let rest = &t[at..];
    if !rest.contains(' ')
        || !rest
            .bytes()
            .all(|c| c.is_ascii_digit() || c == b' ' || c | 0x20 == b'x')
    {
        return false;
    }
    let mut ws = Warnings::EMPTY;
    let mut clean = Clean::default();
    let Some(b) = clean.of(rest, &mut ws) else {
        return false;
    };
    match lab {
        Some((scheme, _)) => ids::labelled(scheme, b) != Err(Fail::Shape),
        None => ids::bare(b).is_some(),
    }
}

/// True when `b` (a piece, or the start of a value) could be a value of
/// SPEC §8 in any form: a label, `urn:issn:`/`urn:isbn:` or `ark:` head,
/// a tag at its end, `PMC` and a digit, an old arXiv id's archive, or
/// digits, `-`, spaces and `X` as many as a bare shape has. Conservative:
/// what it calls possible, a parse decides.
pub fn piece_may_be(b: &[u8]) -> bool {
    let Some(&first) = b.first() else {
        return false;
    };
    if b.ends_with(b"]") {
        return true;
    }
    if first.is_ascii_digit() {
        // Trailing punctuation and non-ASCII dashes and invisible
        // characters are dirt `Clean` takes away.
        let b = &b[..b.len() - b.iter().rev().take_while(|c| TRAILING.contains(c)).count()];
        let fits = |&c: &u8| c.is_ascii_digit() || matches!(c, b'-' | b' ' | b'X' | b'x') || !c.is_ascii();
        return (9..=64).contains(&b.len()) && b.iter().all(fits) && is_shape_count(characters(b));
    }
    starts_label(&b[..b.len().min(12)]) || bare_word_may_be(b)
}

/// True when the piece `b` could be `PMC` and digits, or an old arXiv
/// id: an archive of arXiv's (with a subject at most) before a `/` and a
/// digit.
fn bare_word_may_be(b: &[u8]) -> bool {
    if b.len() > 3 && b[..3].eq_ignore_ascii_case(b"pmc") && b[3].is_ascii_digit() {
        return true;
    }
    // The archive ends at the first `.` or `/`, within 9 bytes, and holds
    // only letters and `-` (as `ids::is_archive` asks): most words are
    // told by their first bytes, before the search for the `/`.
    let archive = b
        .iter()
        .take(9)
        .take_while(|&&c| c.is_ascii_alphabetic() || c == b'-')
        .count();
    if archive == 9 || !matches!(b.get(archive), Some(b'.' | b'/')) {
        return false;
    }
    ids::is_archive(&b[..archive])
        && (b.iter().take(24).position(|&c| c == b'/')).is_some_and(|i| b.get(i + 1).is_some_and(u8::is_ascii_digit))
}

/// Byte classes for [`may_hold`]'s one walk: what ends a piece (SPEC
/// §6's separators but ` / ` and ` and `, which need whitespace: it ends
/// a piece here too), what a bare shape holds (digits, `-`, `X`, and
/// non-ASCII dashes and invisible characters), and trailing punctuation.
const END: u8 = 1;
const SHAPE: u8 = 2;
const TRAIL: u8 = 4;
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if matches!(b, b'|' | b';' | b',' | b' ' | b'\t' | b'\n' | b'\r' | b':') {
            END
        } else if b.is_ascii_digit() || matches!(b, b'-' | b'X' | b'x') || b >= 0x80 {
            SHAPE
        } else if matches!(b, b'.' | b')' | b']' | b'}') {
            TRAIL
        } else {
            0
        };
        i += 1;
    }
    t
};

/// True when some piece of the trimmed value `t` could be a value of
/// SPEC §8 ([`piece_may_be`], and a label before its `:` or whitespace),
/// the value cut at every byte that may start a separator. The fast path
/// asks it of every value with a separator: where the pieces end is one
/// pass of vector compares for a value of up to 64 bytes
/// ([`piece_ends`]), and a piece is looked at past its first byte only
/// when that is a digit or a letter, or it ends in `]`. Conservative:
/// `false` proves no piece is one.
pub fn may_hold(t: &[u8]) -> bool {
    if t.len() <= 64 {
        return may_hold_cut(t, piece_ends(t));
    }
    // Longer values (SICI DOIs in URLs, long cells) 64 bytes at a time,
    // each chunk's ends found as `piece_ends` finds a short value's.
    let mut start = 0;
    for (k, chunk) in t.chunks(64).enumerate() {
        let mut ends = piece_ends(chunk);
        while ends != 0 {
            let i = 64 * k + ends.trailing_zeros() as usize;
            ends &= ends - 1;
            if piece_may_hold(t, start, i) {
                return true;
            }
            start = i + 1;
        }
    }
    piece_may_hold(t, start, t.len())
}

/// [`may_hold`] for a value `t` of up to 64 bytes whose bytes that end a
/// piece are the set bits of `ends`.
fn may_hold_cut(t: &[u8], ends: u64) -> bool {
    debug_assert!(t.len() <= 64);
    if t.is_empty() {
        return false;
    }
    // Bit i is set when a piece starts at byte i: the first byte, and each
    // after an end that is no end itself (an empty piece is none of §8).
    let mut starts = ((ends << 1) | 1) & !ends & (u64::MAX >> (64 - t.len()));
    while starts != 0 {
        let start = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let end = (start + (ends >> start).trailing_zeros() as usize).min(t.len());
        if piece_may_hold(t, start, end) {
            return true;
        }
    }
    false
}

/// The bytes of `t` (up to 64 of them) that end a piece for [`may_hold`],
/// as bits.
fn piece_ends(t: &[u8]) -> u64 {
    debug_assert!(t.len() <= 64);
    if let Some(ends) = super::super::classes::piece_ends(t) {
        return ends;
    }
    t.iter()
        .enumerate()
        .fold(0, |ends, (i, &c)| ends | (u64::from(CLASS[c as usize] & END) << i))
}

/// True when the piece `t[start..end]` (no byte of it ends a piece) could
/// be a value of SPEC §8: it ends in a tag's `]`, is a bare shape
/// ([`piece_may_be`]'s digits, `-` and `X`, then trailing punctuation),
/// or starts with a label (looked for past the piece, before its `:` or
/// whitespace) or a word `bare_word_may_be` lets through.
#[inline]
fn piece_may_hold(t: &[u8], start: usize, end: usize) -> bool {
    let piece = &t[start..end];
    let Some(&first) = piece.first() else {
        return false;
    };
    if piece.last() == Some(&b']') {
        return true;
    }
    if first.is_ascii_digit() {
        return is_bare_shape(piece);
    }
    first.is_ascii_alphabetic() && (starts_label(&t[start..t.len().min(start + 12)]) || bare_word_may_be(piece))
}

/// True when `piece` is 9 to 64 bytes of a bare shape then trailing
/// punctuation, holding as many digits and `X` as a bare shape has; told
/// at the first byte that breaks the shape, which in a DOI's prefix is
/// its fourth.
fn is_bare_shape(piece: &[u8]) -> bool {
    let mut shape_len = 0;
    let mut trail = false;
    for &c in piece {
        let class = CLASS[c as usize];
        if class & SHAPE != 0 && !trail {
            shape_len += 1;
        } else if class & TRAIL != 0 {
            trail = true;
        } else {
            return false;
        }
    }
    (9..=64).contains(&shape_len) && is_shape_count(characters(piece))
}

/// How many ASCII digits and `X` (either case) `b` holds: the characters
/// of a bare shape, whose dashes, spaces and dirt hold none.
fn characters(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c.is_ascii_digit() || c | 0x20 == b'x').count()
}

/// True when a bare shape of `ids::bare` has `n` characters: an ISSN's
/// 8, an ISBN's 10 or 13, an ORCID iD's or an ISNI's 16. A DOI broken by
/// a stray space (`10.1002/advs. 201086893`) leaves a piece of digits
/// that is none of them, which `whole::check` need not read.
fn is_shape_count(n: usize) -> bool {
    matches!(n, 8 | 10 | 13 | 16)
}

/// True when `b` starts with a label, `urn:issn:`, `urn:isbn:` or `ark:`.
fn starts_label(b: &[u8]) -> bool {
    label_bytes(b).is_some() || (b.len() >= 4 && b[..4].eq_ignore_ascii_case(b"ark:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_heads() {
        assert_eq!(label("ISSN 1932-6203"), Some((Scheme::Issn, 5)));
        assert_eq!(label("PMID:  1"), Some((Scheme::Pmid, 7)));
        assert_eq!(label("ORCID iD: 0000"), Some((Scheme::Orcid, 10)));
        assert_eq!(label("PMCID: PMC1"), Some((Scheme::Pmcid, 7)));
        assert_eq!(label("PMC1234"), None);
        assert_eq!(label("urn:isbn:0451450523"), Some((Scheme::Isbn, 9)));
        assert_eq!(label("issnx"), None);
        assert_eq!(head_len("ISSN 1932-6203"), 5);
        assert_eq!(head_len("issn:1932-6203"), 0);
    }

    #[test]
    fn tags() {
        assert_eq!(tag("33604029[pmid]"), Some((Some(Scheme::Pmid), "33604029")));
        assert_eq!(tag("PMC4441768 [PMCID]"), Some((Some(Scheme::Pmcid), "PMC4441768")));
        assert_eq!(doi_tag("10.1000/182 [doi]"), Some("10.1000/182"));
        assert_eq!(tag("[pmid]"), None);
    }

    #[test]
    fn spaced_shapes_are_one_value() {
        let spaced = |t| spaced_shape(t, label(t));
        assert!(spaced("978 0 306 40615 7"));
        assert!(spaced("0000 0001 0943 5850"));
        assert!(spaced("ISBN 978 0 306 40615 7"));
        assert!(spaced("33604029 [pmid]"));
        assert!(!spaced("10.1000/182 see"));
        assert!(!spaced("2012 2013"));
    }

    #[test]
    fn pieces_that_may_be() {
        assert!(may_hold(b"10.1/x; PMID: 123"));
        assert!(may_hold(b"10.1/x;1932-6203"));
        assert!(!may_hold(
            b"10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9"
        ));
        assert!(!may_hold(b"10.1000/182"));
    }

    /// The walk `may_hold` was: the oracle for its cut into pieces.
    fn walk(t: &[u8]) -> bool {
        let mut i = 0;
        while i < t.len() {
            let start = i;
            let first = t[i];
            let digit = first.is_ascii_digit();
            let (mut shape, mut trail, mut trailing) = (digit, false, 0);
            while i < t.len() {
                let class = CLASS[t[i] as usize];
                if class & END != 0 {
                    break;
                }
                if class & SHAPE != 0 {
                    shape &= !trail;
                } else if class & TRAIL != 0 {
                    trail = true;
                    trailing += 1;
                } else {
                    shape = false;
                }
                i += 1;
            }
            let piece = &t[start..i];
            let shape_len = piece.len() - trailing;
            let count = piece
                .iter()
                .filter(|&&c| c.is_ascii_digit() || c == b'x' || c == b'X')
                .count();
            if piece.last() == Some(&b']')
                || (shape && (9..=64).contains(&shape_len) && matches!(count, 8 | 10 | 13 | 16))
                || (first.is_ascii_alphabetic()
                    && (starts_label(&t[start..t.len().min(start + 12)]) || bare_word_may_be(piece)))
            {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `bare_word_may_be` as SPEC §8 says it: the oracle for its
    /// pre-test.
    fn bare_word_searched(b: &[u8]) -> bool {
        let pmc = b.len() > 3 && b[..3].eq_ignore_ascii_case(b"pmc") && b[3].is_ascii_digit();
        pmc || b
            .iter()
            .take(24)
            .position(|&c| c == b'/')
            .is_some_and(|i| b.get(i + 1).is_some_and(u8::is_ascii_digit) && ids::is_archive(&b[..i]))
    }

    /// `label_bytes` as SPEC §8 says it: every label compared, byte by
    /// byte, whatever its first letters.
    fn label_compared(b: &[u8]) -> Option<(Scheme, usize)> {
        let urn = [("urn:issn:", Scheme::Issn), ("urn:isbn:", Scheme::Isbn)]
            .into_iter()
            .find(|(u, _)| b.len() >= u.len() && b[..u.len()].eq_ignore_ascii_case(u.as_bytes()));
        if let Some((u, scheme)) = urn {
            return Some((scheme, u.len()));
        }
        [LABELS_I, LABELS_P, LABELS_E, LABELS_O, LABELS_R, LABELS_A]
            .iter()
            .flat_map(|labels| labels.iter())
            .find(|l| {
                let n = l.name.len();
                b.len() > n
                    && b[..n].eq_ignore_ascii_case(l.name.as_bytes())
                    && (b[n] == b':' || b[n].is_ascii_whitespace() || !b[n].is_ascii())
            })
            .map(|l| (l.scheme, l.name.len()))
    }

    proptest::proptest! {
        #[test]
        fn labels_are_compared_as_words(
            v in "(ISSN|issn|IsBn|isbn-1|pmc|PMCID|pubmed|eissn|ORCID|orcid iD|ror|arxiv|urn:issn:|[a-z]|[-0-9: \r\x0d\x00\x11]|é)*"
        ) {
            proptest::prop_assert_eq!(label_bytes(v.as_bytes()), label_compared(v.as_bytes()), "{:?}", v);
        }

        #[test]
        fn bare_word_pre_test_is_the_search(v in "(hep-th|HEP-TH|math|cs|q-bio|acc-phys|[a-z]|[.]|/|[0-9]|pmc|PMC)*") {
            proptest::prop_assert_eq!(bare_word_may_be(v.as_bytes()), bare_word_searched(v.as_bytes()), "{:?}", v);
        }

        #[test]
        fn may_hold_is_the_walk(v in "([0-9xX.)\\]}:;,| \t\r\n/a-z-]|pmc|issn|ark:|hep-th|\\[pmid\\]|‐){0,90}") {
            proptest::prop_assert_eq!(may_hold(v.as_bytes()), walk(v.as_bytes()), "{:?}", v);
        }

        #[test]
        fn may_hold_is_the_walk_on_bytes(v in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            proptest::prop_assert_eq!(may_hold(&v), walk(&v));
        }
    }
}
