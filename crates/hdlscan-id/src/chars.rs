//! Character classes SPEC.md names: what trimming removes (§2), control
//! characters (§1), invisible characters, look-alike dashes and white space
//! (§3). Every class is defined here once; the rest of the parser asks.
//! Trimming itself (§2, [`trim_bytes`], and the `trimmed` warning,
//! [`trimmed`]) is here too, the one algorithm every reader calls.

use super::classes;
use super::codes::{Warning, Warnings};

/// Removed from both ends of every value (§2): ASCII and Unicode White_Space,
/// plus U+200B ZERO WIDTH SPACE and U+FEFF BYTE ORDER MARK.
pub fn is_trim_char(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{85}' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{200B}' | '\u{FEFF}'
    )
}

/// Unicode White_Space that may stand inside a value without being a control
/// character (§1: tab, CR and LF are whitespace, VT, FF and NEL controls):
/// what `internal_whitespace` looks for in a suffix decoded from escapes (§3).
pub fn is_inner_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// `invisible_char` (§3): soft hyphen, zero-width space/joiners, word joiner, BOM.
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// `unicode_dash` (§3): U+2010–U+2015 and U+2212 MINUS SIGN.
pub fn is_unicode_dash(c: char) -> bool {
    matches!(c, '\u{2010}'..='\u{2015}' | '\u{2212}')
}

/// Whether a non-ASCII character of `s` is one `pred` accepts. For the
/// classes above that hold no ASCII character (invisible characters,
/// dashes; inner spaces once ASCII space is ruled out), this is
/// `s.chars().any(pred)` without decoding the ASCII.
pub fn any_non_ascii(s: &str, pred: impl Fn(char) -> bool) -> bool {
    non_ascii_chars(s).any(|(_, c)| pred(c))
}

/// The non-ASCII characters of `s` and where they start. The ASCII between
/// them is skipped eight bytes at a time, not decoded: most values hold
/// one or two non-ASCII characters, if any.
fn non_ascii_chars(s: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        i = next_non_ascii(s.as_bytes(), i);
        // `i` follows ASCII bytes or a whole character: a boundary.
        let c = s[i..].chars().next()?;
        let at = i;
        i += c.len_utf8();
        Some((at, c))
    })
}

/// Where the first byte of `b` from `from` on that is not ASCII stands, or
/// `b.len()`: eight bytes at a time, then one.
pub fn next_non_ascii(b: &[u8], mut from: usize) -> usize {
    while from < b.len() {
        match non_ascii_in_word_at(b, from) {
            Some(k) => return from + k,
            None if b.len() - from >= 8 => from += 8,
            None if b[from].is_ascii() => from += 1,
            None => return from,
        }
    }
    from
}

/// Where the first non-ASCII byte of the eight from `b[i]` stands among
/// them, if they are eight and one is: a walk that meets a word holding a
/// character steps to it at once, not a byte at a time.
#[inline(always)]
fn non_ascii_in_word_at(b: &[u8], i: usize) -> Option<usize> {
    let w = u64::from_le_bytes(b.get(i..i + 8)?.try_into().unwrap()) & 0x8080_8080_8080_8080;
    (w != 0).then(|| (w.trailing_zeros() / 8) as usize)
}

/// `s` trimmed (§2): [`trim_bytes`] of its bytes, a sub-slice of `s`.
pub fn trim(s: &str) -> &str {
    let t = trim_bytes(s.as_bytes());
    let start = t.as_ptr() as usize - s.as_ptr() as usize;
    // `trim_bytes` removes whole characters only: char boundaries.
    &s[start..start + t.len()]
}

/// The warnings trimming raises (§2): `trimmed` when `t`, `raw` trimmed,
/// is shorter. Every reader asks here.
#[inline(always)]
pub fn trimmed(raw: &[u8], t: &[u8]) -> Warnings {
    let mut ws = Warnings::EMPTY;
    ws.add_if(t.len() != raw.len(), Warning::Trimmed);
    ws
}

/// `raw` trimmed (§2): without the characters [`is_trim_char`] names at
/// its ends. This is the one trimming algorithm; [`trim`] is it on text.
/// ASCII runs are counted 16 bytes at a time (`classes::ascii_space_runs`);
/// a non-ASCII end goes to `trim_unicode`, so a value with a NBSP around
/// it is read by the fast path on its first pass rather than sent to the
/// full parser. Bytes that are not UTF-8 stop trimming: whoever reads the
/// value reports them (`bad_utf8`).
#[inline(always)]
pub fn trim_bytes(raw: &[u8]) -> &[u8] {
    // Most values have nothing to trim: both ends printable ASCII.
    let printable = |b: &u8| b.wrapping_sub(0x21) < 0x5F;
    if raw.first().is_some_and(printable) && raw.last().is_some_and(printable) {
        return raw;
    }
    let (mut start, mut end) = (0, raw.len());
    if let Some((lead, trail)) = classes::ascii_space_runs(raw) {
        (start, end) = (lead, raw.len() - trail);
    } else {
        while start < end && is_ascii_trim(raw[start]) {
            start += 1;
        }
        while end > start && is_ascii_trim(raw[end - 1]) {
            end -= 1;
        }
    }
    if start < end && (!raw[start].is_ascii() || !raw[end - 1].is_ascii()) {
        return trim_unicode(&raw[start..end]);
    }
    &raw[start..end]
}

/// ASCII White_Space: what [`is_trim_char`] names that is one byte long.
fn is_ascii_trim(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// `trim_bytes` for a value with a non-ASCII end: whole characters that
/// [`is_trim_char`] names, ASCII or not, from both ends. Out of line: rare.
#[cold]
#[inline(never)]
fn trim_unicode(mut b: &[u8]) -> &[u8] {
    while let Some(len) = trim_char_len(b) {
        b = &b[len..];
    }
    while let Some(&x) = b.last() {
        // The start of the last character: up to two continuation bytes back.
        let len = if x.is_ascii() {
            1
        } else {
            match (1..=3).find(|&k| b.len() > k - 1 && b[b.len() - k] & 0xC0 != 0x80) {
                Some(k) if k > 1 => k,
                _ => break,
            }
        };
        if trim_char_len(&b[b.len() - len..]) != Some(len) {
            break;
        }
        b = &b[..b.len() - len];
    }
    b
}

/// The length of the character `b` starts with, if it is UTF-8 and one
/// [`is_trim_char`] names. Decoded here rather than by
/// `std::str::from_utf8`, whose general code is slow for one character:
/// no trim character takes four bytes, and a sequence of two or three is
/// UTF-8 when its continuation bytes are and it is neither overlong nor a
/// surrogate.
fn trim_char_len(b: &[u8]) -> Option<usize> {
    let cont = |i: usize| b.get(i).filter(|&&c| c & 0xC0 == 0x80).map(|&c| u32::from(c & 0x3F));
    let (code, len) = match *b.first()? {
        x @ 0x00..=0x7F => (u32::from(x), 1),
        x @ 0xC2..=0xDF => ((u32::from(x) & 0x1F) << 6 | cont(1)?, 2),
        x @ 0xE0..=0xEF => ((u32::from(x) & 0x0F) << 12 | cont(1)? << 6 | cont(2)?, 3),
        _ => return None,
    };
    // `from_u32` refuses surrogates; below U+0800, three bytes are overlong.
    let c = char::from_u32(code).filter(|_| len < 3 || code >= 0x800)?;
    is_trim_char(c).then_some(len)
}

/// Facts about a string gathered in one pass, so later steps can skip work
/// (no `%` means nothing to decode, ASCII-only means no Unicode checks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scan {
    /// U+0000–U+001F, U+007F–U+009F but tab, CR and LF (§1 `control_char`).
    pub control: bool,
    /// A byte outside ASCII.
    pub non_ascii: bool,
    /// A `%` (something may be percent-decoded).
    pub percent: bool,
    /// A `&` (an HTML entity may be there).
    pub amp: bool,
    /// ASCII whitespace that is no control character: space, tab, CR, LF.
    pub space: bool,
}

const F_CTRL: u8 = 1;
const F_NONASCII: u8 = 2;
const F_PCT: u8 = 4;
const F_AMP: u8 = 8;
const F_SPACE: u8 = 16;
const F_C2: u8 = 32;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        // Tab, CR and LF are whitespace inside a value, not controls (§1).
        t[i] = if i == b'\t' as usize || i == b'\n' as usize || i == b'\r' as usize {
            F_SPACE
        } else if i < 0x20 || i == 0x7F {
            F_CTRL
        } else if i == 0xC2 {
            F_NONASCII | F_C2
        } else if i >= 0x80 {
            F_NONASCII
        } else if i == b'%' as usize {
            F_PCT
        } else if i == b'&' as usize {
            F_AMP
        } else if i == b' ' as usize {
            F_SPACE
        } else {
            0
        };
        i += 1;
    }
    t
};

/// One table-driven pass over `s`.
pub fn scan(s: &str) -> Scan {
    let b = s.as_bytes();
    let mut acc = 0u8;
    for &x in b {
        acc |= CLASS[x as usize];
    }
    let control = acc & F_CTRL != 0 || (acc & F_C2 != 0 && has_c1_control(b));
    Scan {
        control,
        non_ascii: acc & F_NONASCII != 0,
        percent: acc & F_PCT != 0,
        amp: acc & F_AMP != 0,
        space: acc & F_SPACE != 0,
    }
}

/// True when UTF-8 `b` holds a C1 control (U+0080–U+009F, encoded C2 80 –
/// C2 9F). One pass without early exit, which the compiler vectorizes:
/// the values asked hold a character or two outside ASCII, too short for
/// `memchr`'s setup to pay.
pub fn has_c1_control(b: &[u8]) -> bool {
    b.iter()
        .zip(b.iter().skip(1))
        .fold(false, |any, (&x, &y)| any | ((x == 0xC2) & (0x80..=0x9F).contains(&y)))
}

/// True when `b` is UTF-8 without C1 controls and without non-ASCII
/// White_Space (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
/// U+202F, U+205F, U+3000): what `std::str::from_utf8`, `!has_c1_control`
/// and `!s.chars().any(|c| !c.is_ascii() && c.is_whitespace())` say
/// together, in one plain walk. The fast path asks it of the rare value
/// with a character or two outside ASCII, when `from_utf8`'s general code
/// is cold and its branches mispredict; one walk, not two, since the
/// spaces are found on the way. Each sequence is checked as RFC 3629 §4 (and
/// `from_utf8`) has it: no overlong form, no surrogate, nothing above
/// U+10FFFF. The spaces are told by their bytes: U+0085 is a C1 control
/// already.
pub fn is_utf8_without_c1_or_space(b: &[u8]) -> bool {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let cont = |i: usize| at(i) & 0xC0 == 0x80;
    let mut i = 0;
    loop {
        i = next_non_ascii(b, i);
        let Some(&x) = b.get(i) else {
            return true;
        };
        // The second byte's range, which rules out what the lead allows
        // but the code points do not (overlongs, surrogates, too high),
        // and the spaces.
        let (second, third) = (at(i + 1), at(i + 2));
        let (len, ok) = match x {
            // C1 controls are C2 80..9F; U+00A0 is C2 A0.
            0xC2 => (2, (0xA1..=0xBF).contains(&second)),
            0xC3..=0xDF => (2, cont(i + 1)),
            0xE0 => (3, (0xA0..=0xBF).contains(&second)),
            0xE1 => (3, cont(i + 1) && (second, third) != (0x9A, 0x80)),
            0xE2 => (
                3,
                cont(i + 1) && !matches!((second, third), (0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF) | (0x81, 0x9F)),
            ),
            0xE3 => (3, cont(i + 1) && (second, third) != (0x80, 0x80)),
            0xE4..=0xEC | 0xEE | 0xEF => (3, cont(i + 1)),
            0xED => (3, (0x80..=0x9F).contains(&second)),
            0xF0 => (4, (0x90..=0xBF).contains(&second)),
            0xF1..=0xF3 => (4, cont(i + 1)),
            0xF4 => (4, (0x80..=0x8F).contains(&second)),
            _ => return false,
        };
        if !ok || !(2..len).all(|k| cont(i + k)) {
            return false;
        }
        i += len;
    }
}

/// True when `c` is a control character per §1: C0, DEL and C1, but tab,
/// CR and LF, which are whitespace inside a value.
pub fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}') && !matches!(c, '\t' | '\n' | '\r')
}

/// All ASCII digits, at least one; invisible characters are looked through
/// (they are flagged as `invisible_char` and removed by repair), so a prefix
/// such as `10.1000` with a stray soft hyphen is still read as a DOI prefix.
pub fn is_digits(seg: &str) -> bool {
    if seg.is_ascii() {
        return !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit());
    }
    let mut digits = 0;
    for c in seg.chars() {
        if c.is_ascii_digit() {
            digits += 1;
        } else if !is_invisible(c) {
            return false;
        }
    }
    digits > 0
}

/// `seg` is exactly `lit` once invisible characters are looked through.
pub fn is_visibly(seg: &str, lit: &str) -> bool {
    seg == lit || (!seg.is_ascii() && seg.chars().filter(|c| !is_invisible(*c)).eq(lit.chars()))
}

/// Position of `needle` in `hay`. Identifier parts are tens of bytes, where
/// memchr's vector set-up costs more than the search: they are read eight
/// bytes a word (SWAR); long haystacks go to memchr.
#[inline]
pub fn find_byte(needle: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() >= 64 {
        return memchr::memchr(needle, hay);
    }
    let Some(&last) = hay.last_chunk::<8>() else {
        return hay.iter().position(|&b| b == needle);
    };
    let mut words = hay.chunks_exact(8);
    for (i, w) in words.by_ref().enumerate() {
        if let Some(j) = byte_in_word(needle, w.try_into().unwrap()) {
            return Some(8 * i + j);
        }
    }
    // The last eight bytes, overlapping words already searched: none of
    // those held `needle`, so a match is at or after the remainder.
    if words.remainder().is_empty() {
        return None;
    }
    byte_in_word(needle, last).map(|j| hay.len() - 8 + j)
}

/// False when `b` does not hold the three bytes `lit` in a row (true when
/// it does, and for a few that do not: see below). With SSE2 (part
/// of the x86-64 baseline), sixteen bytes at a time, the last chunk
/// overlapping the one before: three compares and masks test fourteen
/// places at once, where a walk takes several instructions a byte. Eight
/// to fourteen bytes are one vector of their first and last eight
/// (overlapping: every place is in one word; a match across the two
/// words is a false one, which the caller's own check of what it found
/// rules out). Shorter haystacks (and other targets) take the walk,
/// without an early exit the CPU would mispredict.
#[inline]
pub fn may_contain3(b: &[u8], lit: [u8; 3]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if (8..=14).contains(&b.len()) || b.len() >= 16 {
        // SAFETY: `b` has 8 bytes or more.
        return unsafe { may_contain3_sse2(b, lit) };
    }
    b.windows(3).fold(false, |any, w| {
        any | ((w[0] == lit[0]) & (w[1] == lit[1]) & (w[2] == lit[2]))
    })
}

/// `may_contain3` for `b.len()` of 8 to 14, or 16 or more.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn may_contain3_sse2(b: &[u8], lit: [u8; 3]) -> bool {
    use std::arch::x86_64::*;
    let n = b.len();
    debug_assert!((8..=14).contains(&n) || n >= 16);
    // SAFETY: each load reads bytes of `b`, as its comment says; the rest
    // are SSE2 intrinsics, part of the x86-64 baseline.
    unsafe {
        let eq = |x: __m128i, c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8))) as u32;
        // Bit i: `lit` starts at lane i.
        let hit = |x: __m128i| eq(x, lit[0]) & (eq(x, lit[1]) >> 1) & (eq(x, lit[2]) >> 2) != 0;
        if n < 16 {
            // `b[..8]` and `b[n - 8..]`.
            let word = |i: usize| b.as_ptr().add(i).cast::<u64>().read_unaligned() as i64;
            return hit(_mm_set_epi64x(word(n - 8), word(0)));
        }
        let last = n - 16;
        let mut at = 0;
        loop {
            // `b[at..at + 16]`, `at <= last`.
            let at_ = at.min(last);
            if hit(_mm_loadu_si128(b.as_ptr().add(at_).cast())) {
                return true;
            }
            if at_ == last {
                return false;
            }
            at += 14;
        }
    }
}

/// True when every byte of `b` is an ASCII digit (and for no bytes).
/// A word at a time: prefixes are a few bytes long, of lengths that vary,
/// and a byte loop's exit mispredicts on them.
#[inline(always)]
pub fn all_digits(b: &[u8]) -> bool {
    any_word(b, |w| digit_lanes(w) != LO * 0x80).is_none_or(|non_digit| !non_digit)
}

/// True when `b` holds an ASCII digit. A word at a time, as `all_digits`:
/// SPEC §6's `placeholder` asks it of every value that does not start
/// with a digit, most of which hold their first one a dozen bytes in.
pub fn any_digit(b: &[u8]) -> bool {
    any_word(b, |w| digit_lanes(w) != 0).unwrap_or(false)
}

/// A one in each byte of a word.
const LO: u64 = 0x0101_0101_0101_0101;

/// Bit 7 of each byte of `w` set where that byte is an ASCII digit: with
/// x = byte ^ '0', a digit is x < 10, bit 7 clear in x and in
/// (x & 0x7F) + 0x76, which cannot carry into the next byte.
#[inline(always)]
fn digit_lanes(w: u64) -> u64 {
    let x = w ^ (LO * b'0' as u64);
    !((x & (LO * 0x7F)).wrapping_add(LO * 0x76) | x) & (LO * 0x80)
}

/// Whether `hit` holds for a word of `b`: its eight-byte words from the
/// start, then its last eight bytes (overlapping); four to seven bytes as
/// one word of their first and last four (overlapping: every byte is in
/// one); one to three as a word of their first, middle and last bytes,
/// the last repeated (each lane holds a byte of `b`, so a test of every
/// lane or of any lane is one of `b`'s bytes). `None` for no bytes.
/// No byte walk: `handle::check`, inlined three times in the fast path,
/// asks it of prefixes, and a walk cost each copy its code.
#[inline(always)]
fn any_word(b: &[u8], hit: impl Fn(u64) -> bool) -> Option<bool> {
    let n = b.len();
    if n >= 8 {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let mut i = 0;
        while i + 8 < n {
            if hit(word(i)) {
                return Some(true);
            }
            i += 8;
        }
        return Some(hit(word(n - 8)));
    }
    if n >= 4 {
        let half = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as u64;
        return Some(hit(half(0) | half(n - 4) << 32));
    }
    let (first, middle, last) = (*b.first()? as u64, b[n / 2] as u64, b[n - 1] as u64);
    Some(hit(first | middle << 8 | (last * (LO << 16))))
}

/// True when `b` is one or more runs of ASCII digits joined by single
/// `.`, none empty: the prefixes of nearly every handle and DOI
/// (`10.1000`, `20.500.12345`, `1721.1`). Up to 15 bytes are read as two
/// overlapping words, checked without a loop; longer ones take the byte
/// walk. Words, not one `u128` with its bytes shifted into place: this
/// is inlined wherever `handle::check` is, three times in the fast path,
/// and the wide shifts cost each copy its code.
#[inline(always)]
pub fn dotted_digits(b: &[u8]) -> bool {
    const ZEROS: u64 = LO * b'0' as u64;
    let n = b.len();
    // Two words that hold every byte of `b` and every two neighbours, their
    // other lanes `0` (a digit, next to which a `.` is no empty segment).
    let (first, second) = match n {
        8..16 => {
            let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
            (word(0), word(n - 8))
        }
        4..8 => {
            let half = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as u64 | ZEROS << 32;
            (half(0), half(n - 4))
        }
        // Bytes 0, n / 2 and n - 1: each neighbour pair but a byte twice
        // at the end, which is no `.` when the end is none (below).
        1..4 => {
            let w = b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16 | ZEROS << 24;
            (w, w)
        }
        0 => return false,
        _ => return dotted_digits_walk(b),
    };
    // Bit 7 of a lane is set where that byte is a digit (`digit_lanes`), or
    // a `.` (byte ^ '.' zero); two `.` side by side leave an empty segment.
    let dots = |w: u64| {
        let y = w ^ (LO * b'.' as u64);
        !(((y & (LO * 0x7F)) + LO * 0x7F) | y) & (LO * 0x80)
    };
    let fits = |w: u64| {
        let dot = dots(w);
        (digit_lanes(w) | dot) == LO * 0x80 && dot & (dot >> 8) == 0
    };
    // Digits have bit 4 set, `.` has not: neither end is a `.`.
    fits(first) && fits(second) && b[0] & b[n - 1] & 0x10 != 0
}

/// `dotted_digits` a byte at a time, for prefixes of 16 bytes or more.
fn dotted_digits_walk(b: &[u8]) -> bool {
    b.split(|&c| c == b'.').all(|seg| !seg.is_empty() && all_digits(seg))
}

/// Index of the first `needle` in `w`: XOR turns matches into zero bytes,
/// and `(v - 0x01…) & !v & 0x80…` sets the top bit of the first zero byte
/// (a borrow can only mark bytes after it).
#[inline]
fn byte_in_word(needle: u8, w: [u8; 8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let v = u64::from_le_bytes(w) ^ (LO * needle as u64);
    let z = v.wrapping_sub(LO) & !v & HI;
    (z != 0).then(|| (z.trailing_zeros() / 8) as usize)
}

/// Splits `s` at the first `sep` into what precedes and what follows: a
/// URI's fragment (`#`) and query (`?`), kept raw (SPEC §2).
#[inline]
pub fn split_off(s: &str, sep: u8) -> (&str, Option<&str>) {
    match find_byte(sep, s.as_bytes()) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

/// Whether `s` starts with `lit`, ASCII case ignored.
pub fn starts_with_ci(s: &str, lit: &str) -> bool {
    s.len() >= lit.len() && s.as_bytes()[..lit.len()].eq_ignore_ascii_case(lit.as_bytes())
}

/// Whether `s` ends with `lit`, ASCII case ignored.
pub fn ends_with_ci(s: &str, lit: &str) -> bool {
    s.len() >= lit.len() && s.as_bytes()[s.len() - lit.len()..].eq_ignore_ascii_case(lit.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes `any_non_ascii` serves hold no ASCII character but the
    /// ASCII whitespace (`Scan::space`), which its callers rule out first.
    #[test]
    fn ascii_free_classes() {
        for b in 0..128u8 {
            let c = b as char;
            assert!(!is_invisible(c) && !is_unicode_dash(c), "{c:?}");
            assert_eq!(is_inner_space(c), matches!(c, ' ' | '\t' | '\n' | '\r'), "{c:?}");
        }
    }

    /// What `is_utf8_without_c1_or_space` says, by the standard library.
    fn utf8_oracle(b: &[u8]) -> bool {
        std::str::from_utf8(b).is_ok_and(|s| !s.chars().any(|c| !c.is_ascii() && c.is_whitespace()))
            && !has_c1_control(b)
    }

    /// Every sequence of up to three bytes from the bytes that matter (all
    /// leads, the edges of the continuation ranges, ASCII), alone and
    /// after ASCII: the walk agrees with `from_utf8`, `has_c1_control` and
    /// `char::is_whitespace`.
    #[test]
    fn utf8_walk_matches_std() {
        let oracle = utf8_oracle;
        let mut bytes: Vec<u8> = (0x80..=0xFF).collect();
        bytes.extend([b'a', 0x00, 0x7F]);
        for &x in &bytes {
            for &y in &bytes {
                for &z in &bytes {
                    for v in [&[x, y, z][..], &[x, y], &[x], &[b'a', x, y, z, 0x80]] {
                        assert_eq!(is_utf8_without_c1_or_space(v), oracle(v), "{v:02X?}");
                    }
                }
            }
        }
    }

    /// Every character up to U+3100 (the spaces' range) inside ASCII.
    #[test]
    fn utf8_walk_refuses_spaces_and_c1_by_their_bytes() {
        for c in (0x80..=0x3100u32).filter_map(char::from_u32) {
            let v = format!("a{c}b");
            assert_eq!(
                is_utf8_without_c1_or_space(v.as_bytes()),
                !(c.is_whitespace() || is_control(c)),
                "{c:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn utf8_walk_matches_std_on_text(s in "[a-z\u{80}-\u{FF}\u{1680}\u{2000}-\u{2060}\u{3000}\u{2013}\u{FFFD}\u{10000}-\u{10FFFF}]{0,8}", cut in 0usize..40) {
            let b = s.as_bytes();
            let b = &b[..cut.min(b.len())];
            proptest::prop_assert_eq!(is_utf8_without_c1_or_space(b), utf8_oracle(b));
        }
    }

    proptest::proptest! {
        /// Against the plain `chars().any`, on text mixing ASCII runs of
        /// every length with the characters of each class.
        #[test]
        fn any_non_ascii_matches_chars_any(s in "[a-z0-9 ./]{0,20}([\u{AD}\u{A0}\u{2013}\u{200B}\u{3000}é日😀]{0,2}[a-z0-9./]{0,12}){0,3}") {
            let preds: [fn(char) -> bool; 3] = [is_invisible, is_unicode_dash, |c| !c.is_ascii() && is_inner_space(c)];
            for pred in preds {
                proptest::prop_assert_eq!(any_non_ascii(&s, pred), s.chars().any(pred), "{:?}", s);
            }
        }
    }

    proptest::proptest! {
        /// `trim_bytes` is `str::trim_matches(is_trim_char)` (SPEC §2) on
        /// text, whatever mix of ASCII and Unicode white space stands at
        /// the ends.
        #[test]
        fn trim_is_trim_matches(
            lead in "[ \t\r\n\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{200B}\u{2028}\u{202F}\u{205F}\u{3000}\u{FEFF}\u{AD}\u{2013}]{0,4}",
            body in "[a-z0-9./é\u{A0}\u{2013}]{0,20}",
            tail in "[ \t\r\n\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{200B}\u{2028}\u{202F}\u{205F}\u{3000}\u{FEFF}\u{AD}\u{2013}é]{0,4}",
        ) {
            let v = format!("{lead}{body}{tail}");
            let want = v.trim_matches(is_trim_char);
            proptest::prop_assert_eq!(trim_bytes(v.as_bytes()), want.as_bytes());
            proptest::prop_assert_eq!(trim(&v), want);
        }
    }

    #[test]
    fn trims_unicode_space_zwsp_and_bom_but_not_soft_hyphen() {
        assert_eq!(trim("\u{FEFF}\u{A0} 10.1/x\u{200B}\t"), "10.1/x");
        assert_eq!(trim("\u{AD}10.1/x"), "\u{AD}10.1/x");
    }

    #[test]
    fn scan_finds_c0_c1_and_del() {
        assert!(scan("a\u{0}b").control);
        assert!(scan("a\u{7F}").control);
        assert!(scan("a\u{85}").control);
        assert!(scan("a\u{9F}").control);
        assert!(!scan("a\u{A0}é").control);
        let s = scan("10.1/a b%20&");
        assert!(s.space && s.percent && s.amp && !s.non_ascii);
    }

    /// SPEC §1: tab, CR and LF inside a value are whitespace, not controls;
    /// VT, FF and NEL stay controls.
    #[test]
    fn tab_cr_lf_are_whitespace_not_controls() {
        for v in ["a\tb", "a\nb", "a\rb", "a\r\nb"] {
            let s = scan(v);
            assert!(!s.control && s.space, "{v:?}");
        }
        for v in ["a\u{0B}b", "a\u{0C}b", "a\u{85}b", "a\u{0}b"] {
            assert!(scan(v).control, "{v:?}");
        }
        for c in '\0'..='\u{A0}' {
            assert_eq!(is_control(c), scan(&c.to_string()).control, "{c:?}");
        }
        assert_eq!(trim("\t\r\n10.1/x\r\n"), "10.1/x");
    }

    #[test]
    fn find_byte_finds_the_first() {
        let hay = b"0123456789abcdef/0123456789abcdef/0123456789abcdef/0123456789ab/";
        for len in 0..=hay.len() {
            for needle in [b'/', b'0', b'f', b'x', 0x80] {
                let want = hay[..len].iter().position(|&b| b == needle);
                assert_eq!(find_byte(needle, &hay[..len]), want, "{len} {needle}");
                assert_eq!(
                    find_byte(needle, &hay[64 - len..]),
                    hay[64 - len..].iter().position(|&b| b == needle)
                );
            }
        }
    }

    /// `lit` in a row, as a walk finds it.
    fn holds3(b: &[u8], lit: [u8; 3]) -> bool {
        b.windows(3).any(|w| w == lit)
    }

    #[test]
    fn may_contain3_finds_it_at_every_place() {
        for len in 0usize..=50 {
            for at in 0..len.saturating_sub(2) {
                let mut b = vec![b'1'; len];
                b[at..at + 3].copy_from_slice(b"10.");
                assert!(may_contain3(&b, *b"10."), "{len} {at}");
            }
            assert!(!may_contain3(&vec![b'1'; len], *b"10."), "{len}");
        }
    }

    proptest::proptest! {
        /// Dense in the bytes of `10.`: no match missed, and none made up
        /// but where two words meet (8 to 14 bytes).
        #[test]
        fn may_contain3_is_the_walk(b in proptest::collection::vec(proptest::sample::select(b"10.x".to_vec()), 0..60)) {
            let found = may_contain3(&b, *b"10.");
            if holds3(&b, *b"10.") || !(8..=14).contains(&b.len()) {
                proptest::prop_assert_eq!(found, holds3(&b, *b"10."));
            }
        }

        #[test]
        fn all_digits_is_every_byte_a_digit(hay in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            proptest::prop_assert_eq!(all_digits(&hay), hay.iter().all(u8::is_ascii_digit));
        }

        #[test]
        fn all_digits_of_digits_with_one_other_byte(
            len in 1usize..40,
            at in proptest::prelude::any::<proptest::sample::Index>(),
            x: u8,
        ) {
            let mut hay = vec![b'7'; len];
            hay[at.index(len)] = x;
            proptest::prop_assert_eq!(all_digits(&hay), x.is_ascii_digit());
        }

        /// Digits, their neighbours in the byte order (`/`, `:`) and the
        /// bytes that differ from them in bit 7 only, at every length.
        #[test]
        fn any_digit_is_some_byte_a_digit(
            hay in proptest::collection::vec(proptest::sample::select(b"a/0.9:\x2f\x3a\xb0\xb9\x00".to_vec()), 0..40),
        ) {
            proptest::prop_assert_eq!(any_digit(&hay), hay.iter().any(u8::is_ascii_digit));
        }

        #[test]
        fn any_digit_of_letters_with_one_digit(
            len in 0..40usize,
            at in proptest::prelude::any::<proptest::sample::Index>(),
            d in b'0'..=b'9',
        ) {
            let mut hay = vec![b'x'; len];
            if len > 0 {
                hay[at.index(len)] = d;
            }
            proptest::prop_assert_eq!(any_digit(&hay), len > 0);
        }

        /// Dense in `.`, digits and their neighbours in the byte order,
        /// at every length a load takes (0..=16) and past it.
        #[test]
        fn dotted_digits_is_the_segment_rule(
            b in proptest::collection::vec(proptest::sample::select(b"0123456789../:-\x00\xff".to_vec()), 0..24),
        ) {
            let want = !b.is_empty() && b.split(|&c| c == b'.').all(|s| !s.is_empty() && s.iter().all(u8::is_ascii_digit));
            proptest::prop_assert_eq!(dotted_digits(&b), want, "{:?}", String::from_utf8_lossy(&b));
        }

        #[test]
        fn find_byte_is_position(hay in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80), needle: u8) {
            proptest::prop_assert_eq!(find_byte(needle, &hay), hay.iter().position(|&b| b == needle));
        }
    }

    #[test]
    fn digits_look_through_invisibles() {
        assert!(is_digits("1000"));
        assert!(is_digits("10\u{200B}00"));
        assert!(!is_digits("\u{200B}"));
        assert!(!is_digits("10a"));
        assert!(!is_digits(""));
        assert!(is_visibly("1\u{AD}0", "10"));
        assert!(!is_visibly("100", "10"));
    }
}
