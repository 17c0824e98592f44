//! The byte classes the fast path (`fast.rs`) reads SPEC §2's forms and
//! §6's separators by (no rule of SPEC is decided here), OR-ed
//! over the whole value: which of control characters, `%`, `?`/`#`, bytes
//! a URI must escape, `&`, space, `:` (or a SPEC §6 separator) and
//! non-ASCII it holds anywhere; and, in the same pass, where its `/` and
//! its separator bytes are, as bit masks for values of up to 64 bytes, so
//! that finding the prefix, the host or a second `/`, or asking whether a
//! separator stands after a head, is a shift and a count of zeros rather
//! than another search.
//!
//! [`of`] is the table walk (`naive`) done 16 bytes at a time with SSE2,
//! which every x86-64 CPU has. The walk is a chain of dependent ORs, a
//! cycle a byte, ended by a loop exit whose count changes with every value;
//! the vector version has neither. Since OR is idempotent, the last chunk
//! may overlap the one before it. A first pass only tests for the bytes
//! most of an identifier is made of (letters, digits, `-./`) and
//! collects the `/`; the classes of any other byte, and the places of the
//! separator bytes, are read from the table one byte at a time (values of
//! up to 64 bytes, which keep masks), or computed for every chunk again
//! (longer ones).
//! Values of 8 to 15 bytes are one vector of two overlapping words; those
//! under 8 take the walk. The tests check `of` against `naive`: every byte
//! at every position, arbitrary bytes, and identifier text with one byte
//! of any kind; and `Classes::slash` against a plain search.

use super::{chars, other, percent, pieces};

/// Control characters (C0 and DEL), and `\`, which may start a line
/// break written as text (SPEC §6 raw whitespace): the full parser's
/// business.
pub const GIVE_UP: u8 = 1;
pub const PCT: u8 = 2;
/// `?` or `#`: split off before the handle is read.
pub const QUERY: u8 = 4;
/// Outside RFC 3986's path characters (`unencoded_chars`).
pub const UNENCODED: u8 = 8;
pub const AMP: u8 = 16;
pub const SPACE: u8 = 32;
/// `:`, `;`, `,` or `|`: a scheme or a label may be written, or one of
/// SPEC §6's separators (`::`, `;`, `,`, `|`, `||`) stands in the value.
pub const SEP: u8 = 64;
/// A byte of a non-ASCII character (also `UNENCODED`).
pub const NON_ASCII: u8 = 128;

/// Each byte's classes.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b < 0x20 || b == 0x7F {
            GIVE_UP
        } else if b == b'\\' {
            GIVE_UP | UNENCODED
        } else if b >= 0x80 {
            NON_ASCII | UNENCODED
        } else if b == b'%' {
            PCT
        } else if b == b'?' {
            QUERY
        } else if b == b'#' {
            QUERY | UNENCODED
        } else if b == b'&' {
            AMP
        } else if b == b' ' {
            SPACE | UNENCODED
        } else if b == b':' || b == b';' || b == b',' {
            SEP
        } else if b == b'|' {
            SEP | UNENCODED
        } else if percent::URI_RAW.contains(b) {
            0
        } else {
            UNENCODED
        };
        i += 1;
    }
    t
};

/// What one pass over a value finds: its bytes' classes, OR-ed, and where
/// its `/` are, so no later step searches for one again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classes {
    /// The classes of every byte, OR-ed.
    pub acc: u8,
    /// Bit `i` is set when byte `i` is `/`; kept for values of up to
    /// `MASKED` bytes (`slash` searches longer ones).
    slashes: u64,
    /// Bit `i` is set when byte `i` is of class `SEP`, as `slashes`.
    seps: u64,
}

/// The longest value whose `/` are kept as a mask.
const MASKED: usize = 64;

impl Classes {
    /// True when a value of up to `MASKED` bytes holds a `/` (always for
    /// a longer one).
    #[inline(always)]
    pub fn has_slash_masked(&self) -> bool {
        self.slashes != 0
    }

    /// The first `/` of `b[from..end]`, as an index into `b`, the bytes
    /// these classes were taken of.
    #[inline(always)]
    pub fn slash(&self, b: &[u8], from: usize, end: usize) -> Option<usize> {
        debug_assert!(from <= end && end <= b.len());
        if b.len() > MASKED {
            return slash_unmasked(b, from, end);
        }
        // `from` is at most 64: the shift then clears every bit.
        let above = self.slashes & (!0u64).checked_shl(from as u32).unwrap_or(0);
        let i = above.trailing_zeros() as usize;
        (i < end).then_some(i)
    }

    /// True when `b[at + 1..]` holds a `/`, `b` the bytes these classes
    /// were taken of and `at` one of its places: one test of the mask
    /// (whether a suffix to the end of the value holds a `/`).
    #[inline(always)]
    pub fn slash_after(&self, b: &[u8], at: usize) -> bool {
        debug_assert!(at < b.len());
        if b.len() > MASKED {
            return slash_unmasked(b, at + 1, b.len()).is_some();
        }
        self.slashes >> at > 1
    }

    /// True when `b`, the bytes these classes were taken of, may hold one
    /// of SPEC §6's separators other than whitespace (`|`, `;`, `,`,
    /// `::`): it holds a byte of class `SEP` other than a lone `:` (a
    /// scheme's or a label's, which most values with a `SEP` byte have).
    #[inline(always)]
    pub fn may_separate(&self, b: &[u8]) -> bool {
        // Nearly half the values hold no `SEP` byte: one test says so.
        if self.acc & SEP == 0 {
            return false;
        }
        if b.len() > MASKED {
            return may_separate_unmasked(b);
        }
        // Without branches on the value: which of these holds is as
        // random as the values' forms.
        let first = b.get(self.seps.trailing_zeros() as usize).copied().unwrap_or(b':');
        (self.seps.count_ones() > 1) | (first != b':')
    }
}

impl Classes {
    /// `pieces::may_be_several(b)`, for `b` the bytes these classes were
    /// taken of, told by the masks when they can: for a value of up to
    /// `MASKED` bytes without `%`, whitespace or `urn:doi:`, its pieces
    /// run between its separators (`|`, `;`, `,`, `::`, not a lone `:`),
    /// and a piece could hold an identifier when it holds a `/` (the
    /// mask says so) or could be one of SPEC §8's (`other::piece_may_be`).
    /// The rest are `pieces::may_be_several`'s. Out of line: `one_value`
    /// asks it of few values (SICI DOIs), for which the masks spare a
    /// search.
    #[cold]
    #[inline(never)]
    pub fn may_be_several(&self, b: &[u8]) -> bool {
        if b.len() > MASKED || self.acc & (PCT | SPACE | GIVE_UP) != 0 {
            return pieces::may_be_several(b);
        }
        // Bit i set when byte i is (part of) a separator.
        let (mut cuts, mut urn_doi) = (0u64, false);
        let mut m = self.seps;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if b[i] != b':' {
                cuts |= 1 << i;
            } else if b.get(i + 1) == Some(&b':') {
                cuts |= 3 << i;
                m &= !(2 << i);
            } else {
                urn_doi |= i >= 7 && b[i - 7..=i].eq_ignore_ascii_case(b"urn:doi:");
            }
        }
        // Without a separator, one piece (an empty value has none), a
        // `urn:doi:` value's too.
        if cuts == 0 {
            return false;
        }
        if urn_doi {
            return pieces::may_be_several(b);
        }
        // Bit i set when a piece starts at byte i (no piece is empty).
        let mut starts = ((cuts << 1) | 1) & !cuts & (u64::MAX >> (MASKED - b.len()));
        let mut candidates = 0;
        while starts != 0 {
            let start = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let end = (start + (cuts >> start).trailing_zeros() as usize).min(b.len());
            let piece = (u64::MAX >> (MASKED - end)) & !((1 << start) - 1);
            candidates += (self.slashes & piece != 0 || other::piece_may_be(&b[start..end])) as u32;
            if candidates >= 2 {
                return true;
            }
        }
        false
    }
}

/// `Classes::may_separate` for values longer than `MASKED`, which keep no
/// mask (long UUID handles): a `SEP` byte other than a lone `:`, found 16
/// bytes at a time (memchr's set-up costs more than the search on values
/// this short).
#[inline(never)]
fn may_separate_unmasked(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline; `b` has more than
        // `MASKED` bytes.
        unsafe { sse2::may_separate_long(b) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut seps = b.iter().enumerate().filter(|&(_, &x)| CLASS[x as usize] & SEP != 0);
        match (seps.next(), seps.next()) {
            (Some((_, &x)), None) => x != b':',
            (first, _) => first.is_some(),
        }
    }
}

/// `Classes::slash` for values longer than `MASKED`: a search.
#[inline(never)]
fn slash_unmasked(b: &[u8], from: usize, end: usize) -> Option<usize> {
    chars::find_byte(b'/', &b[from..end]).map(|i| i + from)
}

/// The classes of every byte of `b`, OR-ed, and its `/`. Inlined where
/// it is called (the fast path's two entries), whatever the compiler's
/// count of callers would decide: a call costs the ASCII path its
/// registers.
#[inline(always)]
pub fn of(b: &[u8]) -> Classes {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 8 {
        // SAFETY: SSE2 is part of the x86-64 baseline; `b` has 8 bytes.
        return unsafe { sse2::of(b) };
    }
    naive(b)
}

/// Bit `i` set when byte `i` of `b` ends a piece for `other::may_hold`:
/// a byte of class `SEP`, a space, `\t`, `\n` or `\r`; found 16 bytes at a
/// time for values of 16 to `MASKED` bytes (`None` for the others, which
/// the caller walks).
#[inline]
pub fn piece_ends(b: &[u8]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if (16..=MASKED).contains(&b.len()) {
        // SAFETY: SSE2 is part of the x86-64 baseline; `b` has 16 bytes.
        return Some(unsafe { sse2::piece_ends(b) });
    }
    let _ = b;
    None
}

/// The places in `b` of the bytes of `set`, in order, found 16 bytes at
/// a time (a chunk's places are one mask): `pieces` walks a long SICI
/// DOI's separators and candidate bytes by them, where memchr's set-up
/// for each search costs more than the search on values this short.
/// `set` repeats a byte to name fewer than four.
#[inline]
pub fn places(b: &[u8], set: [u8; 4]) -> Places<'_> {
    Places {
        b,
        set,
        next_chunk: 0,
        base: 0,
        mask: 0,
    }
}

/// The iterator of [`places`].
#[derive(Clone)]
pub struct Places<'a> {
    b: &'a [u8],
    set: [u8; 4],
    /// Where the next chunk starts.
    next_chunk: usize,
    /// Where the chunk of `mask` starts.
    base: usize,
    /// The places of the current chunk not yet given, bit `i` for
    /// `b[base + i]`.
    mask: u32,
}

impl Iterator for Places<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            if self.next_chunk >= self.b.len() {
                return None;
            }
            self.base = self.next_chunk;
            self.mask = chunk_places(self.b, self.base, self.set);
            self.next_chunk += 16;
        }
        let i = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.base + i)
    }
}

/// Bit `i` set when `b[at + i]` is one of `set`, for `i` below 16. The
/// last chunk of a value of 16 bytes or more is read where it overlaps
/// the one before, its places there dropped; a shorter value is read as
/// two overlapping words (every byte is in one).
#[inline(always)]
fn chunk_places(b: &[u8], at: usize, set: [u8; 4]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let n = b.len();
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        // SAFETY (each call): SSE2 is part of the x86-64 baseline.
        if n >= 16 {
            let from = at.min(n - 16);
            let chunk: &[u8; 16] = b[from..from + 16].try_into().unwrap();
            return unsafe { sse2::places(*chunk, set) } >> (at - from);
        }
        if n >= 8 {
            debug_assert_eq!(at, 0, "a value under 16 bytes is one chunk");
            let mut pair = [0u8; 16];
            pair[..8].copy_from_slice(&word(0).to_le_bytes());
            pair[8..].copy_from_slice(&word(n - 8).to_le_bytes());
            let m = unsafe { sse2::places(pair, set) };
            return (m & 0xFF) | (m >> 8) << (n - 8);
        }
    }
    b[at..]
        .iter()
        .take(16)
        .enumerate()
        .filter(|&(_, x)| set.contains(x))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// How many bytes of ASCII white space (`\t`, `\n`, `\x0B`, `\x0C`,
/// `\r`, space) `b` starts and ends with, found 16 bytes at a time rather
/// than by a loop whose end a CPU mispredicts: `None` for values under 16
/// bytes and runs of 16 or more, which the caller walks.
#[inline(always)]
pub fn ascii_space_runs(b: &[u8]) -> Option<(usize, usize)> {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        // SAFETY: SSE2 is part of the x86-64 baseline; `b` has 16 bytes.
        return unsafe { sse2::space_runs(b) };
    }
    let _ = b;
    None
}

/// The table walk: the oracle, and short values.
#[inline]
fn naive(b: &[u8]) -> Classes {
    let mut c = Classes {
        acc: 0,
        slashes: 0,
        seps: 0,
    };
    for (i, &x) in b.iter().enumerate() {
        c.acc |= CLASS[x as usize];
        if x == b'/' && i < MASKED {
            c.slashes |= 1 << i;
        }
        if CLASS[x as usize] & SEP != 0 && i < MASKED {
            c.seps |= 1 << i;
        }
    }
    c
}

/// The classes of the bytes of `b` (up to `MASKED` of them) whose bits are
/// set in `other` (bits past its end are ignored), OR-ed, and where the
/// separator bytes among them are: what the first pass of `sse2::of`
/// leaves. Read from the table a byte at a time, since a value holds few.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn others(b: &[u8], other: u64) -> (u8, u64) {
    let (mut acc, mut seps) = (0, 0u64);
    let mut other = other & (u64::MAX >> (MASKED - b.len()));
    // The first two without a branch: most values hold none (bare DOIs),
    // one (a scheme's or a label's `:`) or two, as randomly as their
    // forms come, and a loop's exit after zero, one or two rounds would
    // mispredict. With none left, the byte read
    // is the last one and its class is masked away.
    for _ in 0..2 {
        let i = (other.trailing_zeros() as usize).min(b.len() - 1);
        let some = 0u8.wrapping_sub((other != 0) as u8);
        let class = CLASS[b[i] as usize] & some;
        acc |= class;
        seps |= u64::from(class & SEP != 0) << i;
        other &= other.wrapping_sub(1);
    }
    while other != 0 {
        let i = other.trailing_zeros() as usize;
        other &= other - 1;
        let class = CLASS[b[i] as usize];
        acc |= class;
        seps |= u64::from(class & SEP != 0) << i;
    }
    (acc, seps)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::*;
    use std::arch::x86_64::*;

    /// `of` for `b.len() >= 8`. Values of 8 to 15 bytes are read as one
    /// vector of two overlapping words (bytes 0..8 and len-8..len); longer
    /// ones 16 bytes at a time, the last chunk overlapping the one before.
    /// Most bytes of most values are letters, digits or `-./`: a
    /// first pass over the chunks tests for these alone (a third of the
    /// work of `classes`) and collects the `/`. For values of up to
    /// `MASKED` bytes, it keeps a mask of the bytes it knows; the others,
    /// a few in any value (a scheme's or a label's `:`, a space, a `%`, a
    /// character outside ASCII), take their classes from the table one by
    /// one (`others`), which also places the separator bytes. Longer values
    /// keep no mask: their chunks are tested for the separator bytes `:`,
    /// `;` and `,` too, and the classes of every chunk computed again
    /// when one holds any other byte.
    ///
    /// Safety: `b` must hold at least 8 bytes (the loads are unchecked).
    #[inline(always)]
    pub unsafe fn of(b: &[u8]) -> Classes {
        debug_assert!(b.len() >= 8);
        let p = b.as_ptr();
        let n = b.len();
        // SAFETY (every load): each reads bytes inside `b`, as its comment
        // says; the rest are SSE2 intrinsics, part of the x86-64 baseline.
        unsafe {
            let slash_bits = |x: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(b'/' as i8))) as u64;
            let plain_bits = |x: __m128i| _mm_movemask_epi8(plain_bytes(x)) as u64;
            let sep_bits = |x: __m128i| _mm_movemask_epi8(plain_sep_bytes(x)) as u64;
            let pipe_bits = |x: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(b'|' as i8))) as u64;
            if n < 16 {
                // Bytes 0..8 and n-8..n, with 8 <= n < 16: the high lanes'
                // bits moved to the places of their bytes.
                let lo = p.cast::<u64>().read_unaligned();
                let hi = p.add(n - 8).cast::<u64>().read_unaligned();
                let x = _mm_set_epi64x(hi as i64, lo as i64);
                let places = |s: u64| (s & 0xFF) | (s >> 8) << (n - 8);
                let slashes = places(slash_bits(x));
                let (acc, seps) = others(b, !places(plain_bits(x)));
                return Classes { acc, slashes, seps };
            }
            let last = n - 16;
            // `i <= last`: 16 bytes from `i` are in `b`.
            let load = |i: usize| _mm_loadu_si128(p.add(i).cast());
            if n <= MASKED {
                // Bit i of `known` is set when the first pass knows byte i.
                let (mut known, mut slashes) = (0u64, 0u64);
                let mut chunk = |at: usize| {
                    let x = load(at);
                    known |= plain_bits(x) << at;
                    slashes |= slash_bits(x) << at;
                };
                // Three chunks whatever the length (16.min(last) and
                // 32.min(last) read the last one again when the value is
                // shorter: OR is idempotent), a fourth past 48 bytes: a
                // loop of one to four rounds, as the value's length said,
                // would mispredict its exit.
                chunk(0);
                chunk(16.min(last));
                chunk(32.min(last));
                if n > 48 {
                    chunk(last);
                }
                let (acc, seps) = others(b, !known);
                return Classes { acc, slashes, seps };
            }
            let (slashes, mut seps) = (0u64, 0u64);
            // Longer values keep no mask of their `/` (`slash` and
            // `may_separate` search them): their chunks are tested as one,
            // and the classes of all of them computed when any byte is not
            // plain. `seps` is rotated: no bit falls off, so it is non-zero
            // when the value holds a separator byte.
            let mut plain = _mm_set1_epi8(-1);
            let mut chunk = |at: usize| {
                let x = load(at);
                plain = _mm_and_si128(plain, _mm_or_si128(plain_bytes(x), plain_sep_bytes(x)));
                seps |= sep_bits(x).rotate_left(at as u32);
            };
            let mut i = 0;
            while i < last {
                chunk(i);
                i += 16;
            }
            chunk(last);
            if _mm_movemask_epi8(plain) == 0xFFFF {
                return Classes {
                    acc: if seps != 0 { SEP } else { 0 },
                    slashes,
                    seps,
                };
            }
            let mut acc = _mm_setzero_si128();
            let mut i = 0;
            while i < last {
                let x = load(i);
                acc = _mm_or_si128(acc, classes(x));
                seps |= pipe_bits(x).rotate_left(i as u32);
                i += 16;
            }
            let x = load(last);
            acc = _mm_or_si128(acc, classes(x));
            seps |= pipe_bits(x).rotate_left(last as u32);
            Classes {
                acc: fold(acc),
                slashes,
                seps,
            }
        }
    }

    /// `may_separate_unmasked`: true when `b` holds two bytes of class
    /// `SEP`, or one that is not `:`.
    ///
    /// Safety: `b` must hold at least 16 bytes (the loads are unchecked).
    #[inline(always)]
    pub unsafe fn may_separate_long(b: &[u8]) -> bool {
        debug_assert!(b.len() >= 16);
        let (p, n) = (b.as_ptr(), b.len());
        // SAFETY: each load reads 16 bytes from `i` with `i + 16 <= n`, or
        // the last 16; the rest are SSE2 intrinsics.
        unsafe {
            let seps = |i: usize| _mm_movemask_epi8(sep_bytes(_mm_loadu_si128(p.add(i).cast()))) as u32;
            let (mut count, mut first) = (0, None);
            let mut i = 0;
            while i < n {
                // The last chunk overlaps the one before: its bytes from
                // `i` are its high `n - i` bits.
                let s = if i + 16 <= n {
                    seps(i)
                } else {
                    seps(n - 16) >> (16 - (n - i))
                };
                if s != 0 {
                    first = first.or(Some(i + s.trailing_zeros() as usize));
                    count += s.count_ones();
                    if count > 1 {
                        return true;
                    }
                }
                i += 16;
            }
            first.is_some_and(|f| b[f] != b':')
        }
    }

    /// `piece_ends` for `16 <= b.len() <= MASKED`: the chunks at 0, 16,
    /// 32 and the last, as `of` reads them.
    ///
    /// Safety: `b` must hold 16 to `MASKED` bytes (the loads are unchecked).
    #[inline(always)]
    pub unsafe fn piece_ends(b: &[u8]) -> u64 {
        debug_assert!((16..=MASKED).contains(&b.len()));
        let (p, last) = (b.as_ptr(), b.len() - 16);
        // SAFETY: each load reads 16 bytes from at most `last`; the rest
        // are SSE2 intrinsics.
        unsafe {
            let ends = |at: usize| {
                let x = _mm_loadu_si128(p.add(at).cast());
                let space = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8)), in_range(x, b'\t', b'\n'));
                let space = _mm_or_si128(space, _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\r' as i8)));
                (_mm_movemask_epi8(_mm_or_si128(sep_bytes(x), space)) as u64) << at
            };
            let mut m = ends(0) | ends(16.min(last)) | ends(32.min(last));
            if b.len() > 48 {
                m |= ends(last);
            }
            m
        }
    }

    /// `chunk_places` of 16 bytes.
    #[inline(always)]
    pub unsafe fn places(bytes: [u8; 16], set: [u8; 4]) -> u32 {
        // SAFETY: the load reads `bytes`; the rest are SSE2 intrinsics.
        unsafe {
            let x = _mm_loadu_si128(bytes.as_ptr().cast());
            let eq = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
            let hit = _mm_or_si128(
                _mm_or_si128(eq(set[0]), eq(set[1])),
                _mm_or_si128(eq(set[2]), eq(set[3])),
            );
            _mm_movemask_epi8(hit) as u32
        }
    }

    /// `ascii_space_runs` for `b.len() >= 16`.
    ///
    /// Safety: `b` must hold at least 16 bytes (the loads are unchecked).
    #[inline(always)]
    pub unsafe fn space_runs(b: &[u8]) -> Option<(usize, usize)> {
        debug_assert!(b.len() >= 16);
        // SAFETY: the loads read bytes 0..16 and len-16..len of `b`; the
        // rest are SSE2 intrinsics, part of the x86-64 baseline.
        unsafe {
            let space = |x: __m128i| {
                let s = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8)), in_range(x, b'\t', b'\r'));
                _mm_movemask_epi8(s) as u32
            };
            let head = space(_mm_loadu_si128(b.as_ptr().cast()));
            let tail = space(_mm_loadu_si128(b.as_ptr().add(b.len() - 16).cast()));
            if head == 0xFFFF || tail == 0xFFFF {
                return None;
            }
            // Bit i is byte i: the head's run is its low set bits, the
            // tail's its high ones.
            Some((
                (!head).trailing_zeros() as usize,
                (!tail << 16).leading_zeros() as usize,
            ))
        }
    }

    /// The bytes of class `SEP`: `plain_sep_bytes` and `|`.
    #[inline(always)]
    unsafe fn sep_bytes(x: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        unsafe { _mm_or_si128(plain_sep_bytes(x), _mm_cmpeq_epi8(x, _mm_set1_epi8(b'|' as i8))) }
    }

    /// The bytes of class `SEP` that `plain_bytes` lets through: `:` and
    /// `;` (which differ in their low bit alone: one compare), `,`.
    #[inline(always)]
    unsafe fn plain_sep_bytes(x: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        unsafe {
            let colon_semi = _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(1)), _mm_set1_epi8(b';' as i8));
            _mm_or_si128(colon_semi, _mm_cmpeq_epi8(x, _mm_set1_epi8(b',' as i8)))
        }
    }

    /// The 16 class bytes OR-ed into one.
    #[inline(always)]
    unsafe fn fold(acc: __m128i) -> u8 {
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        let w = unsafe { _mm_cvtsi128_si64(_mm_or_si128(acc, _mm_unpackhi_epi64(acc, acc))) } as u64;
        let w = w | w >> 32;
        let w = w | w >> 16;
        (w | w >> 8) as u8
    }

    /// `lo..=hi` (unsigned) in each byte of `x`: x - lo + 0x80 is, signed,
    /// below -128 + (hi - lo + 1) (one add and one compare, where the
    /// unsigned form takes a subtraction, a minimum and a compare).
    #[inline(always)]
    unsafe fn in_range(x: __m128i, lo: u8, hi: u8) -> __m128i {
        debug_assert!(lo <= hi && hi - lo < 0x7F);
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        unsafe {
            let d = _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
            _mm_cmplt_epi8(d, _mm_set1_epi8((0x80 + (hi - lo) + 1) as i8))
        }
    }

    /// The bytes the first pass knows, of class 0: letters, and `-` to
    /// `9` (0x2D..=0x39: `-./` and digits). Not the other bytes of class
    /// 0 (`_`, `'()*+`), nor the separator bytes: few values hold one of
    /// those, and testing every chunk for them would cost every value more
    /// than `others` costs the values that hold them.
    #[inline(always)]
    unsafe fn plain_bytes(x: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        unsafe {
            let letter = in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), b'a', b'z');
            _mm_or_si128(letter, in_range(x, b'-', b'9'))
        }
    }

    /// Each byte's classes, as `CLASS` gives them.
    #[inline(always)]
    unsafe fn classes(x: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsics, part of the x86-64 baseline; no memory.
        unsafe {
            let eq = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
            let bits = |m: __m128i, c: u8| _mm_and_si128(m, _mm_set1_epi8(c as i8));
            let range = |lo: u8, hi: u8| in_range(x, lo, hi);
            // Signed: 0x80 and up are negative, so below 0x20 but not
            // negative is a C0 control.
            let non_ascii = _mm_cmplt_epi8(x, _mm_setzero_si128());
            let give_up = _mm_or_si128(
                _mm_andnot_si128(non_ascii, _mm_cmplt_epi8(x, _mm_set1_epi8(0x20))),
                _mm_or_si128(eq(0x7F), eq(b'\\')),
            );
            // The printable bytes URI_RAW lacks, `#` and space aside: `"`,
            // `<` and `>` (one test: `x | 2 == '>'`), `[\]^`, `` ` ``, `{|}`
            // (`|` is `SEP` too).
            let angle = _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(2)), _mm_set1_epi8(b'>' as i8));
            let unencoded = _mm_or_si128(
                _mm_or_si128(eq(b'"'), angle),
                _mm_or_si128(_mm_or_si128(range(b'[', b'^'), eq(b'`')), range(b'{', b'}')),
            );
            let a = _mm_or_si128(bits(give_up, GIVE_UP), bits(eq(b'%'), PCT));
            let b = _mm_or_si128(bits(eq(b'?'), QUERY), bits(eq(b'#'), QUERY | UNENCODED));
            let c = _mm_or_si128(bits(unencoded, UNENCODED), bits(eq(b'&'), AMP));
            let d = _mm_or_si128(bits(eq(b' '), SPACE | UNENCODED), bits(sep_bytes(x), SEP));
            let e = bits(non_ascii, NON_ASCII | UNENCODED);
            _mm_or_si128(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)), e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `places` is a filter of the bytes, at every length and place.
        #[test]
        fn places_are_a_filter(b in prop::collection::vec(any::<u8>(), 0..70), set in any::<[u8; 4]>()) {
            let want: Vec<usize> = (0..b.len()).filter(|&i| set.contains(&b[i])).collect();
            prop_assert_eq!(places(&b, set).collect::<Vec<_>>(), want);
        }
    }

    /// `of` is `naive`: the classes, and the masks where they are kept.
    fn same(v: &[u8]) -> Result<(), TestCaseError> {
        let (got, want) = (of(v), naive(v));
        prop_assert_eq!(got.acc, want.acc);
        if v.len() <= MASKED {
            prop_assert_eq!((got.slashes, got.seps), (want.slashes, want.seps));
        }
        Ok(())
    }

    /// Every byte, alone and at every position of every length up to 40,
    /// among bytes of no class.
    #[test]
    fn every_byte_at_every_position() {
        for x in 0..=255u8 {
            for len in 1..=40 {
                for at in 0..len {
                    let mut v = vec![b'a'; len];
                    v[at] = x;
                    let c = of(&v);
                    assert_eq!(c.acc, CLASS[x as usize], "byte {x:#04x} at {at} of {len}");
                    let want = if x == b'/' { 1 << at } else { 0 };
                    assert_eq!(c.slashes, want, "byte {x:#04x} at {at} of {len}");
                    let want = if CLASS[x as usize] & SEP != 0 { 1 << at } else { 0 };
                    assert_eq!(c.seps, want, "byte {x:#04x} at {at} of {len}");
                    let lone = CLASS[x as usize] & SEP != 0 && x != b':';
                    assert_eq!(c.may_separate(&v), lone, "byte {x:#04x} at {at} of {len}");
                }
            }
        }
    }

    proptest! {
        /// The white space runs at the ends, against a plain walk.
        #[test]
        fn space_runs_match_a_walk(
            lead in "[ \t\n\x0B\x0C\r]{0,20}",
            body in "[a-z0-9./\x08\x0E\x1F!]{0,30}",
            trail in "[ \t\n\x0B\x0C\r]{0,20}",
        ) {
            let v = format!("{lead}{body}{trail}");
            let b = v.as_bytes();
            let sp = |c: &u8| matches!(c, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
            let want_lead = b.iter().take_while(|c| sp(c)).count();
            let want_trail = b.iter().rev().take_while(|c| sp(c)).count();
            match ascii_space_runs(b) {
                Some(got) => prop_assert_eq!(got, (want_lead, want_trail)),
                None => prop_assert!(b.len() < 16 || want_lead >= 16 || want_trail >= 16),
            }
        }
    }

    proptest! {
        /// `Classes::may_be_several` is `pieces::may_be_several`, on text
        /// made of separators, `/`, `%2F`, `urn:doi:` and letters.
        #[test]
        fn may_be_several_is_the_pieces_one(
            parts in prop::collection::vec(
                prop::sample::select(vec![
                    "/", "%2F", "%2f", "%", ":", "::", ";", ",", "|", "||", "urn:doi:", "URN:DOI:", "a", "10.1", "x", " ",
                    // Pieces of SPEC §8.
                    "1932-6203", "X", ".", "]", "[pmid]", "PMID", "pmc1", "hep-th", "ark:",
                ]),
                0..30,
            ),
        ) {
            let v = parts.concat();
            let b = v.as_bytes();
            prop_assert_eq!(of(b).may_be_several(b), pieces::may_be_several(b), "{:?}", v);
        }

        /// `may_separate` is a `SEP` byte other than a lone `:`, for
        /// values with masks and without.
        #[test]
        fn may_separate_is_a_walk(
            v in "[a-z0-9./]{0,40}[:;,|]?[a-z0-9./]{0,40}[:;,|]?[a-z0-9./]{0,80}",
        ) {
            let b = v.as_bytes();
            let seps = b.iter().filter(|&&x| CLASS[x as usize] & SEP != 0).count();
            let first = b.iter().find(|&&x| CLASS[x as usize] & SEP != 0);
            let want = seps > 1 || first.is_some_and(|&x| x != b':');
            prop_assert_eq!(of(b).may_separate(b), want, "{:?}", v);
        }

        #[test]
        fn agrees_with_the_table_walk(v in prop::collection::vec(any::<u8>(), 0..80)) {
            same(&v)?;
        }

        /// `slash` finds what a plain search of the range finds, below and
        /// above `MASKED` bytes.
        #[test]
        fn slash_is_the_first_in_range(
            v in "[a-z0-9./:]{0,80}",
            from in any::<prop::sample::Index>(),
            end in any::<prop::sample::Index>(),
        ) {
            let b = v.as_bytes();
            let (from, end) = (from.index(b.len() + 1), end.index(b.len() + 1));
            let (from, end) = (from.min(end), from.max(end));
            let want = b[from..end].iter().position(|&x| x == b'/').map(|i| i + from);
            prop_assert_eq!(of(b).slash(b, from, end), want);
        }

        #[test]
        fn agrees_on_printable_ascii(v in "[ -~]{0,70}") {
            same(v.as_bytes())?;
        }

        /// Identifier-like text (what the first pass lets through) with one
        /// byte of any kind somewhere: the first pass must send it on.
        #[test]
        fn agrees_on_plain_text_with_one_other_byte(
            v in "[a-zA-Z0-9'()*+,./:;_-]{16,70}",
            x in any::<u8>(),
            at in any::<prop::sample::Index>(),
        ) {
            let mut b = v.into_bytes();
            let i = at.index(b.len());
            b[i] = x;
            same(&b)?;
        }
    }
}
