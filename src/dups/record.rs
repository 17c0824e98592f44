//! The compact byte forms of a member, in memory and in temporary files,
//! all frames of the spill engine's encoding (`spill::frame`).
//!
//! - A member's *body*: a flags byte; LEB128 `input` and `column` (when
//!   not 0), `record`; the canonical as a frame (what the count pass
//!   reads ends here); `line` (when there is one and it is not the line
//!   after `record`'s number, as its distance from it), `value_index`
//!   (when not 1) and the warning bits (when not 0); then the value:
//!   nothing when it is the canonical itself, else the canonical wrapped
//!   (the bytes before it, or the index of a common link or label; the
//!   bytes after it; which of its letters the value writes in the other
//!   case), else its own bytes. Most values
//!   are their canonical, or it in a link or with a label, so most
//!   bodies hold little more than the canonical. Its hash is not stored:
//!   a [`Block`] keeps it beside the body, and grouping a partition file
//!   hashes the canonical again, which costs less than its bytes on disk.
//! - In a [`Block`], a member is a frame holding its body; its sequence
//!   number is the block's base plus its index.
//! - In a partition file, a frame holds the sequence number's distance
//!   from the previous record's (they only grow within a file), then the
//!   body.
//! - In a run, a frame holds a [`Row`]: the cluster's sort key and facts,
//!   the variant, and the member's body, its value stored as it is.
//!
//! Decoding returns `None` on bytes that cannot be a record: temporary
//! files are ours, but a short read must be an error, never a panic.

use crate::at::At;
use crate::clusters::Repeated;
use crate::id::Warnings;
use crate::spill::frame::{
    begin_frame, end_frame, get_bytes, get_frame, get_u32, get_varint, put_bytes, put_varint, varint_len,
};
use crate::variant::Variant;
use super::values::BlockValues;

/// What the engine's errors say this spill is for.
pub(super) const TASK: crate::spill::Task = crate::spill::Task("grouping duplicates");

/// A block appended to the collector, its values numbered from `base`.
pub(crate) struct Held {
    pub base: u64,
    pub block: Block,
}

/// The line is stored, as its distance from the record.
const HAS_LINE: u8 = 1;
/// Two bits: how the value is stored; 0 for its own bytes.
const VALUE_FORM: u8 = 3 << 1;
const VALUE_IS_CANONICAL: u8 = 1 << 1;
const VALUE_WRAPS: u8 = 2 << 1;
/// As [`VALUE_WRAPS`], then a bit a canonical byte, set where the value
/// writes that letter in the other case.
const VALUE_WRAPS_CASED: u8 = 3 << 1;
/// The line is the record's number plus one (CSV's header line), not
/// stored.
const LINE_NEXT: u8 = 1 << 3;
const HAS_INPUT: u8 = 1 << 4;
const HAS_COLUMN: u8 = 1 << 5;
/// A cell's values count from 1: the first is not stored.
const HAS_VALUE_INDEX: u8 = 1 << 6;
const HAS_WARNINGS: u8 = 1 << 7;

/// What most often comes before a canonical, the links and labels of
/// DOIs and handles: stored as an index, since it is otherwise most of a
/// wrapped value's bytes.
const PREFIXES: [&[u8]; 16] = [
    b"https://doi.org/",
    b"http://hdl.handle.net/",
    b"doi:",
    b"https://hdl.handle.net/",
    b"http://dx.doi.org/",
    b"https://dx.doi.org/",
    b"http://doi.org/",
    b"hdl:",
    b"DOI: ",
    b"info:doi/",
    b"doi.org/",
    b"DOI:",
    b"info:hdl/",
    b"doi: ",
    b"dx.doi.org/",
    b"https://www.doi.org/",
];

/// The most bytes around a canonical looked for: links and labels are
/// shorter, and the search stays linear in the canonical.
const WRAP_MAX: usize = 64;

/// A member as decoded from its body.
#[derive(Debug, Clone, Copy)]
pub(super) struct Member<'a> {
    pub at: At,
    pub warnings: Warnings,
    pub canonical: &'a [u8],
    pub value: &'a [u8],
}

/// A record's line is its number plus a few (the header, breaks in quoted
/// fields): stored as the difference, zigzagged, in a byte.
#[inline]
fn zigzag_line(record: u64, line: u64) -> u64 {
    let d = line.wrapping_sub(record) as i64;
    ((d << 1) ^ (d >> 63)) as u64
}

#[inline]
fn unzigzag_line(record: u64, z: u64) -> u64 {
    let d = (z >> 1) as i64 ^ -((z & 1) as i64);
    record.wrapping_add(d as u64)
}

/// [`PREFIXES`] by length, so a value's bytes before its canonical are
/// compared with those of their length only (at most three).
const PREFIXES_BY_LEN: [[u8; 3]; 24] = {
    let mut t = [[u8::MAX; 3]; 24];
    let mut i = 0;
    while i < PREFIXES.len() {
        let row = &mut t[PREFIXES[i].len()];
        let mut j = 0;
        while row[j] != u8::MAX {
            j += 1;
        }
        row[j] = i as u8;
        i += 1;
    }
    t
};

/// The index of `before` in [`PREFIXES`], if it is one.
#[inline]
fn prefix_index(before: &[u8]) -> Option<usize> {
    let row = PREFIXES_BY_LEN.get(before.len())?;
    row.iter()
        .take_while(|&&i| i != u8::MAX)
        .map(|&i| usize::from(i))
        .find(|&i| PREFIXES[i] == before)
}

/// A byte repeated in every byte of a word.
const BYTES: u64 = 0x0101_0101_0101_0101;

/// The eight bytes of `b` at `i`, the first in the low byte.
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"))
}

/// Whether the bytes of `x` and of `x ^ d` are the same but for the case
/// of ASCII letters.
#[inline(always)]
fn case_only(x: u64, d: u64) -> bool {
    if d & !(0x20 * BYTES) != 0 {
        return false;
    }
    // A byte is a letter when, with its case bit set, it lies in `a..=z`;
    // the sums do not carry out of a byte under 0x80.
    let lower = x | (0x20 * BYTES);
    let low7 = lower & (0x7f * BYTES);
    let from_a = low7 + (0x80 - u64::from(b'a')) * BYTES;
    let past_z = low7 + (0x80 - u64::from(b'z') - 1) * BYTES;
    let letter = from_a & !past_z & !lower & (0x80 * BYTES);
    (d << 2) & !letter == 0
}

/// Whether `a` and `b` (of one length) are equal but for the case of
/// ASCII letters, and if so whether the case of any differs; eight bytes
/// at a time, the last eight overlapping the others.
#[inline]
fn eq_folded(a: &[u8], b: &[u8]) -> Option<bool> {
    let n = a.len();
    if n < 8 {
        let mut flips = false;
        for (x, y) in a.iter().zip(b) {
            if x != y {
                if !x.eq_ignore_ascii_case(y) {
                    return None;
                }
                flips = true;
            }
        }
        return Some(flips);
    }
    let mut diff = 0;
    let mut i = 0;
    loop {
        let at = i.min(n - 8);
        let x = word_at(a, at);
        let d = x ^ word_at(b, at);
        if d != 0 {
            if !case_only(x, d) {
                return None;
            }
            diff |= d;
        }
        if at == n - 8 {
            return Some(diff != 0);
        }
        i += 8;
    }
}

/// Where the canonical sits in the value, when the value is it wrapped
/// (bytes before and after, letters in either case) and that takes fewer
/// bytes than the value itself: the bytes before it, and whether a letter
/// changes case.
fn wrapping(canonical: &[u8], value: &[u8]) -> Option<(usize, bool)> {
    let extra = value.len().checked_sub(canonical.len())?;
    if extra > WRAP_MAX {
        return None;
    }
    // The canonical last first: trailing dirt is rarer than a link.
    let (p, flips) = (0..=extra)
        .rev()
        .find_map(|p| eq_folded(&value[p..p + canonical.len()], canonical).map(|f| (p, f)))?;
    let s = extra - p;
    let wrapped = varint_len(p as u64) + varint_len(s as u64) + extra + if flips { canonical.len().div_ceil(8) } else { 0 };
    (wrapped < varint_len(value.len() as u64) + value.len()).then_some((p, flips))
}

/// A bit a byte of `c` and `v` (of one length, at most eight), set where
/// they differ, the first byte's lowest.
#[inline]
fn flip_bits(c: &[u8], v: &[u8]) -> u8 {
    if c.len() == 8 {
        // A differing byte differs in its case bit alone: that bit of each
        // byte gathered into one byte by a multiply.
        let d = (word_at(c, 0) ^ word_at(v, 0)) >> 5 & BYTES;
        return (d.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    }
    c.iter().zip(v).enumerate().fold(0, |m, (i, (a, b))| m | u8::from(a != b) << i)
}

/// Where a body keeps its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueIn {
    /// In the body, the canonical wrapped when that is shorter: a block's,
    /// held and spilled while the scan runs.
    Wrapped,
    /// In the body, its own bytes: a row's, made once grouping has decoded
    /// the value, and decoded once more as the file is written, where no
    /// search for the canonical is worth its bytes.
    Whole,
    /// Apart ([`Block::values`]): the body ends with its form, the
    /// canonical itself or 0.
    Apart,
}

/// Appends a member's body to `out`, its value as `value_in` says.
/// Returns whether the value is its canonical, and where the canonical
/// ends in `out`.
#[inline(always)]
fn put_body_as(
    out: &mut Vec<u8>,
    canonical: &[u8],
    at: &At,
    value: &[u8],
    warnings: Warnings,
    value_in: ValueIn,
) -> (bool, usize) {
    let same = value == canonical;
    let wrap = if same || value_in != ValueIn::Wrapped { None } else { wrapping(canonical, value) };
    let form = match wrap {
        _ if same => VALUE_IS_CANONICAL,
        Some((_, true)) => VALUE_WRAPS_CASED,
        Some((_, false)) => VALUE_WRAPS,
        None => 0,
    };
    let line = at.line.filter(|&l| l != at.record.wrapping_add(1));
    let flag = |on: bool, bit: u8| if on { bit } else { 0 };
    out.push(
        form | flag(line.is_some(), HAS_LINE)
            | flag(at.line.is_some() && line.is_none(), LINE_NEXT)
            | flag(at.input != 0, HAS_INPUT)
            | flag(at.column != 0, HAS_COLUMN)
            | flag(at.value_index != 1, HAS_VALUE_INDEX)
            | flag(!warnings.is_empty(), HAS_WARNINGS),
    );
    for n in [at.input, at.column] {
        if n != 0 {
            put_varint(out, u64::from(n));
        }
    }
    put_varint(out, at.record);
    put_bytes(out, canonical);
    let end = out.len();
    if let Some(line) = line {
        put_varint(out, zigzag_line(at.record, line));
    }
    if at.value_index != 1 {
        put_varint(out, u64::from(at.value_index));
    }
    if !warnings.is_empty() {
        put_varint(out, warnings.bits());
    }
    match wrap {
        _ if same || value_in == ValueIn::Apart => {}
        Some((p, flips)) => {
            let end = p + canonical.len();
            let before = &value[..p];
            match prefix_index(before) {
                Some(i) => put_varint(out, i as u64),
                None => {
                    put_varint(out, (PREFIXES.len() + p) as u64);
                    out.extend_from_slice(before);
                }
            }
            put_bytes(out, &value[end..]);
            if flips {
                for (c, v) in canonical.chunks(8).zip(value[p..end].chunks(8)) {
                    out.push(flip_bits(c, v));
                }
            }
        }
        None => put_bytes(out, value),
    }
    (same, end)
}

/// Appends a value kept apart, as a frame: empty when it is its canonical;
/// a byte when it is the canonical after one of [`PREFIXES`] (its index,
/// found at the cost of one comparison, not `wrapping`'s search); else a
/// byte past them, then its own bytes.
#[inline]
pub(super) fn put_apart(out: &mut Vec<u8>, canonical: &[u8], value: &[u8], same: bool) {
    let linked = (!same && value.len() > canonical.len() && value.ends_with(canonical))
        .then(|| prefix_index(&value[..value.len() - canonical.len()]))
        .flatten();
    match linked {
        _ if same => out.push(0),
        Some(i) => out.extend_from_slice(&[1, i as u8]),
        None => {
            put_varint(out, value.len() as u64 + 1);
            out.push(PREFIXES.len() as u8);
            out.extend_from_slice(value);
        }
    }
}

/// The value of a frame [`put_apart`] wrote for `canonical`.
pub(super) fn get_apart_value(frame: &[u8], canonical: &[u8]) -> Option<Vec<u8>> {
    let Some((&tag, rest)) = frame.split_first() else {
        return Some(canonical.to_vec());
    };
    match PREFIXES.get(usize::from(tag)) {
        Some(p) if rest.is_empty() => Some([p, canonical].concat()),
        None if usize::from(tag) == PREFIXES.len() => Some(rest.to_vec()),
        _ => None,
    }
}

/// What the count pass reads of a body, without decoding the rest.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key<'a> {
    /// The canonical's hash, from the [`Block`] or made again.
    pub hash: u64,
    pub input: u32,
    pub column: u32,
    /// The record, which with `input` names the record a cluster counts.
    pub record: u64,
    pub canonical: &'a [u8],
    flags: u8,
    /// Where the rest of the body starts.
    end: usize,
}

/// The key of a body, the canonical's hash given by `hash` (the stored
/// one, or made again).
#[inline(always)]
pub(super) fn get_key(body: &[u8], hash: impl FnOnce(&[u8]) -> u64) -> Option<Key<'_>> {
    let flags = *body.first()?;
    let mut pos = 1;
    let opt = |bit: u8, pos: &mut usize| if flags & bit != 0 { get_u32(body, pos) } else { Some(0) };
    let input = opt(HAS_INPUT, &mut pos)?;
    let column = opt(HAS_COLUMN, &mut pos)?;
    let record = get_varint(body, &mut pos)?;
    let canonical = get_bytes(body, &mut pos)?;
    Some(Key {
        hash: hash(canonical),
        input,
        column,
        record,
        canonical,
        flags,
        end: pos,
    })
}

/// Decodes a whole body; a value that is not stored as it is comes back in
/// `scratch`.
pub(super) fn get_body<'a>(body: &'a [u8], scratch: &'a mut Vec<u8>) -> Option<Member<'a>> {
    let (k, at, warnings, mut pos) = get_head(body)?;
    let (flags, canonical) = (k.flags, k.canonical);
    let value = match flags & VALUE_FORM {
        VALUE_IS_CANONICAL => canonical,
        VALUE_WRAPS | VALUE_WRAPS_CASED => {
            let tag = usize::try_from(get_varint(body, &mut pos)?).ok()?;
            let before = match PREFIXES.get(tag) {
                Some(k) => k,
                None => {
                    let s = body.get(pos..pos.checked_add(tag - PREFIXES.len())?)?;
                    pos += s.len();
                    s
                }
            };
            let after = get_bytes(body, &mut pos)?;
            scratch.clear();
            scratch.extend_from_slice(before);
            let start = scratch.len();
            scratch.extend_from_slice(canonical);
            if flags & VALUE_FORM == VALUE_WRAPS_CASED {
                let mask = body.get(pos..pos.checked_add(canonical.len().div_ceil(8))?)?;
                pos += mask.len();
                flip_case(&mut scratch[start..], mask)?;
            }
            scratch.extend_from_slice(after);
            &scratch[..]
        }
        _ => get_bytes(body, &mut pos)?,
    };
    (pos == body.len()).then_some(Member {
        at,
        warnings,
        canonical,
        value,
    })
}

/// Flips the case of the letters of `b` whose bits `mask` sets (a bit a
/// byte, the first byte's lowest), visiting the set bits alone: most
/// are clear. `None` when one is not a letter's, or is past `b`.
fn flip_case(b: &mut [u8], mask: &[u8]) -> Option<()> {
    for (k, &m) in mask.iter().enumerate() {
        let mut bits = m;
        while bits != 0 {
            let c = b.get_mut(k * 8 + bits.trailing_zeros() as usize)?;
            if !c.is_ascii_alphabetic() {
                return None;
            }
            *c ^= 0x20;
            bits &= bits - 1;
        }
    }
    Some(())
}

/// Decodes a body whose value is kept apart: the member, its value the
/// canonical when it is that, else empty; and whether it is.
pub(super) fn get_apart(body: &[u8]) -> Option<(Member<'_>, bool)> {
    let (k, at, warnings, pos) = get_head(body)?;
    let same = match k.flags & VALUE_FORM {
        VALUE_IS_CANONICAL => true,
        0 => false,
        _ => return None,
    };
    let value = if same { k.canonical } else { b"" };
    (pos == body.len()).then_some((
        Member {
            at,
            warnings,
            canonical: k.canonical,
            value,
        },
        same,
    ))
}

/// Decodes a body up to its value: its key, place, warnings, and where
/// the value starts.
fn get_head(body: &[u8]) -> Option<(Key<'_>, At, Warnings, usize)> {
    let k = get_key(body, |_| 0)?;
    let (flags, mut pos) = (k.flags, k.end);
    let line = match flags & (HAS_LINE | LINE_NEXT) {
        0 => None,
        HAS_LINE => Some(unzigzag_line(k.record, get_varint(body, &mut pos)?)),
        LINE_NEXT => Some(k.record.wrapping_add(1)),
        _ => return None,
    };
    let value_index = if flags & HAS_VALUE_INDEX != 0 { get_u32(body, &mut pos)? } else { 1 };
    let warnings = if flags & HAS_WARNINGS != 0 {
        Warnings::from_bits(get_varint(body, &mut pos)?)
    } else {
        Warnings::EMPTY
    };
    let at = At {
        input: k.input,
        record: k.record,
        line,
        column: k.column,
        value_index,
    };
    Some((k, at, warnings, pos))
}

/// The valid values of one block of work, built on a rayon worker: each a
/// frame in one byte buffer, its canonical's hash beside it (hashing here
/// spreads that work over the workers). No I/O.
///
/// A record's values are pushed together, in one block (as the pipeline
/// reads them): the block counts the canonicals a record repeats
/// ([`Repeated`]) as they come, and the grouping counts a cluster's
/// records by comparing each member's record with the one before.
#[derive(Debug, Default)]
pub struct Block {
    pub(super) buf: Vec<u8>,
    /// Each value's canonical hash, in push order.
    pub(super) hashes: Vec<u64>,
    /// The record being pushed: `(input, record)`.
    record: Option<(u32, u64)>,
    /// Its distinct canonicals so far: each one's hash and place in
    /// `buf` (its body's), not copied for a record of one value.
    ends: Vec<(u64, usize, usize)>,
    /// Whether it repeated one already (it is then counted).
    repeats: bool,
    pub(super) repeated: Repeated,
    /// Without the duplicates file, only the report's few top members show
    /// their values: a frame a value here ([`put_apart`]), in push order,
    /// found by sequence number only for them, and the bodies stay short
    /// of it. `None`: each value in its body.
    pub(super) values: Option<BlockValues>,
}

impl Block {
    /// A block with room for `values` values of about 40 bytes, so pushing
    /// does not regrow (and copy) its buffer as it fills; `file`: whether
    /// the duplicates file is wanted ([`Options::file`](super::Options)),
    /// which needs every value in its body.
    pub fn with_capacity(values: usize, file: bool) -> Block {
        Block {
            buf: Vec::with_capacity(values * if file { 40 } else { 32 }),
            hashes: Vec::with_capacity(values),
            values: (!file).then(|| BlockValues::with_capacity(values)),
            ..Block::default()
        }
    }

    /// Adds one valid value: its canonical form, where it was read, its raw
    /// bytes and the parser's warnings for it. A record's values come
    /// together, in one block.
    pub fn push(&mut self, canonical: &[u8], at: At, value: &[u8], warnings: Warnings) {
        let hash = crate::spill::hash(canonical);
        let repeat = self.count_repeat(hash, canonical, (at.input, at.record));
        let start = begin_frame(&mut self.buf);
        let value_in = if self.values.is_some() { ValueIn::Apart } else { ValueIn::Wrapped };
        let (same, end) = put_body_as(&mut self.buf, canonical, &at, value, warnings, value_in);
        let written = self.buf.len();
        end_frame(&mut self.buf, start);
        if !repeat {
            // A frame of 128 bytes or more moves its body by its length's
            // extra bytes.
            let end = end + (self.buf.len() - written);
            self.ends.push((hash, end - canonical.len(), end));
        }
        if let Some(values) = &mut self.values {
            values.push(|out| put_apart(out, canonical, value, same));
        }
        self.hashes.push(hash);
    }

    /// Counts `canonical` as a repeat when `record` holds it already, and
    /// says whether it did.
    #[inline]
    fn count_repeat(&mut self, hash: u64, canonical: &[u8], record: (u32, u64)) -> bool {
        if self.record != Some(record) {
            self.record = Some(record);
            self.ends.clear();
            self.repeats = false;
        }
        for &(h, start, end) in &self.ends {
            if h == hash && &self.buf[start..end] == canonical {
                self.repeated.values += 1;
                self.repeated.records += u64::from(!std::mem::replace(&mut self.repeats, true));
                return true;
            }
        }
        false
    }

    /// The repeats counted, the record scratch given back: the block is
    /// complete.
    pub(super) fn finish_records(&mut self) -> Repeated {
        self.ends = Vec::new();
        self.record = None;
        std::mem::take(&mut self.repeated)
    }

    /// Values pushed.
    pub fn len(&self) -> u64 {
        self.hashes.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Memory held, as the collector's budget counts it.
    pub(super) fn bytes(&self) -> usize {
        self.buf.capacity() + self.hashes.capacity() * 8 + self.values.as_ref().map_or(0, BlockValues::bytes)
    }

    /// Gives back what the buffers do not use (shrinking in place copies
    /// nothing).
    pub(super) fn shrink(&mut self) {
        self.buf.shrink_to_fit();
        self.hashes.shrink_to_fit();
        self.values.as_mut().map(BlockValues::shrink);
    }

    /// The hashes and bodies, in push order.
    pub(super) fn records(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let mut pos = 0;
        self.hashes
            .iter()
            .map(move |&h| (h, get_frame(&self.buf, &mut pos).expect("a block holds whole frames")))
    }

    /// Gives every value `hash(canonical)` for its hash (tests).
    pub(super) fn rehash(&mut self, hash: fn(&[u8]) -> u64) {
        let bodies = self.records().map(|(_, body)| get_key(body, hash).expect("a whole body").hash);
        self.hashes = bodies.collect();
    }
}

/// One row of the duplicates file as a run stores it: the cluster's sort
/// key (`records` descending, then `first_seq`), the member's own `seq`
/// (members in order of appearance), and what the row shows.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row<'a> {
    pub records: u64,
    pub count: u64,
    pub first_seq: u64,
    pub seq: u64,
    pub first_record: u64,
    pub variant: Variant,
    pub at: At,
    pub canonical: &'a [u8],
    pub value: &'a [u8],
}

impl Row<'_> {
    /// The order of the duplicates file.
    #[inline]
    pub fn key(&self) -> RowKey {
        RowKey::new(self.records, self.first_seq, self.seq)
    }
}

/// Sorts as the duplicates file does: clusters of more records first, then
/// the cluster first seen first, then members in order of appearance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct RowKey(std::cmp::Reverse<u64>, u64, u64);

impl RowKey {
    #[inline]
    pub fn new(records: u64, first_seq: u64, seq: u64) -> RowKey {
        RowKey(std::cmp::Reverse(records), first_seq, seq)
    }

    /// Whether `self` and `o` are members of the same cluster.
    #[inline]
    pub fn same_cluster(&self, o: &RowKey) -> bool {
        self.0 == o.0 && self.1 == o.1
    }
}

/// Appends a row as a frame.
/// `body`, when given, is the member's body as a block made it (its value
/// in it): copied as it is when it holds its value unwrapped, rather than
/// made again; the warnings it may hold are skipped when read, since a
/// row's variant is made.
pub(super) fn put_row(out: &mut Vec<u8>, row: &Row<'_>, body: Option<&[u8]>) {
    let start = begin_frame(out);
    put_varint(out, row.records);
    put_varint(out, row.first_seq);
    put_varint(out, row.seq);
    put_varint(out, row.count);
    put_varint(out, row.first_record);
    out.push(row.variant.to_u8());
    match body.filter(|b| b.first().is_some_and(|&f| matches!(f & VALUE_FORM, 0 | VALUE_IS_CANONICAL))) {
        Some(b) => out.extend_from_slice(b),
        None => {
            put_body_as(out, row.canonical, &row.at, row.value, Warnings::EMPTY, ValueIn::Whole);
        }
    }
    end_frame(out, start);
}

/// Decodes a row frame's bytes; a value not stored as it is comes back in
/// `scratch`.
pub(super) fn get_row<'a>(frame: &'a [u8], scratch: &'a mut Vec<u8>) -> Option<Row<'a>> {
    let mut pos = 0;
    let records = get_varint(frame, &mut pos)?;
    let first_seq = get_varint(frame, &mut pos)?;
    let seq = get_varint(frame, &mut pos)?;
    let count = get_varint(frame, &mut pos)?;
    let first_record = get_varint(frame, &mut pos)?;
    let variant = Variant::from_u8(*frame.get(pos)?)?;
    let m = get_body(&frame[pos + 1..], scratch)?;
    Some(Row {
        records,
        count,
        first_seq,
        seq,
        first_record,
        variant,
        at: m.at,
        canonical: m.canonical,
        value: m.value,
    })
}

/// The sort key of a row frame, decoded alone (runs are sorted and merged
/// by it without decoding the rest).
#[inline]
pub(super) fn row_key(frame: &[u8]) -> Option<RowKey> {
    let mut pos = 0;
    let records = get_varint(frame, &mut pos)?;
    let first_seq = get_varint(frame, &mut pos)?;
    let seq = get_varint(frame, &mut pos)?;
    Some(RowKey::new(records, first_seq, seq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Warning;

    /// `wrapping` as it was first written, a byte at a time.
    fn wrapping_bytewise(canonical: &[u8], value: &[u8]) -> Option<(usize, bool)> {
        let extra = value.len().checked_sub(canonical.len())?;
        if extra > WRAP_MAX {
            return None;
        }
        let p = (0..=extra)
            .rev()
            .find(|&p| value[p..p + canonical.len()].eq_ignore_ascii_case(canonical))?;
        let flips = value[p..p + canonical.len()] != *canonical;
        let s = extra - p;
        let wrapped =
            varint_len(p as u64) + varint_len(s as u64) + extra + if flips { canonical.len().div_ceil(8) } else { 0 };
        (wrapped < varint_len(value.len() as u64) + value.len()).then_some((p, flips))
    }

    #[test]
    fn bodies_gather_what_the_bytewise_walk_found() {
        // Canonicals and values of every length around the eight-byte
        // words, wrapped in links, labels and dirt, in either case, with
        // bytes that are letters only with their case bit flipped.
        let mut cases: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let stems: [&[u8]; 6] = [b"10.1000/abc-DEF.xyz_0123456789", b"1721.1/@[`{", b"x", b"", b"\xc3\xa9t\xc3\xa9/Z", b"hdl/AbC@`[{"];
        let wraps: [(&[u8], &[u8]); 8] = [
            (b"", b""),
            (b"https://doi.org/", b""),
            (b"doi:", b" "),
            (b"DOI: ", b"."),
            (b"https://example.org/handle/", b"?x=1"),
            (b"hdl:", b""),
            (b"info:hdl/", b"#"),
            (b"xx", b"10.1000/abc"),
        ];
        for stem in stems {
            for n in 0..=stem.len() {
                let c = &stem[..n];
                for (before, after) in wraps {
                    for case in 0..4u8 {
                        let mid: Vec<u8> = c
                            .iter()
                            .enumerate()
                            .map(|(i, &b)| match case {
                                0 => b,
                                1 => b.to_ascii_uppercase(),
                                2 if i % 3 == 0 => b ^ 0x20,
                                3 if i % 2 == 0 => b.to_ascii_uppercase(),
                                _ => b,
                            })
                            .collect();
                        cases.push((c.to_vec(), [before, &mid[..], after].concat()));
                    }
                }
            }
        }
        // `put_body_as` writes what it wrote a byte at a time exactly when
        // the three pieces it gathers by words agree with their bytewise
        // selves: where the canonical sits, a chunk's case flips, the
        // link before it.
        for (c, v) in &cases {
            let wrap = wrapping(c, v);
            assert_eq!(wrap, wrapping_bytewise(c, v), "{c:?} {v:?}");
            let Some((p, _)) = wrap else {
                continue;
            };
            for (c8, v8) in c.chunks(8).zip(v[p..p + c.len()].chunks(8)) {
                let bytewise = c8.iter().zip(v8).enumerate().fold(0, |m, (i, (a, b))| m | u8::from(a != b) << i);
                assert_eq!(flip_bits(c8, v8), bytewise, "{c8:?} {v8:?}");
            }
            let before = &v[..p];
            assert_eq!(prefix_index(before), PREFIXES.iter().position(|&k| k == before), "{before:?}");
        }
        for &k in PREFIXES.iter() {
            assert_eq!(PREFIXES[prefix_index(k).unwrap()], k);
        }
    }

    #[test]
    fn bodies_round_trip() {
        let some = At {
            input: 3,
            record: 1 << 40,
            line: Some(7),
            column: 2,
            value_index: 1,
        };
        let max = At {
            input: u32::MAX,
            record: u64::MAX,
            line: Some(0),
            column: u32::MAX,
            value_index: u32::MAX,
        };
        let long = "x".repeat(300);
        let long_link = format!("https://hdl.handle.net/{}", "X".repeat(300));
        let ws: Warnings = [Warning::Trimmed, Warning::PublisherUrl].into_iter().collect();
        for at in [some, max, At::default()] {
            for (canonical, value, line) in [
                ("10.1000/abc", "10.1000/abc", Some(7)),
                ("10.1000/abc", " https://doi.org/10.1000/ABC", None),
                ("10.1000/abc", "doi:10.1000/abc ", None),
                ("10.1000/abc", "https://example.org/handle/10.1000/abc", None),
                ("10.1000/abc", "10.1000/aBc", None),
                ("10.1000/abc", "10.1000%2Fabc", None),
                (long.as_str(), "x", Some(0)),
                (long.as_str(), long_link.as_str(), Some(0)),
                ("10.1/x", "10.1/x", Some(u64::MAX)),
                ("10.1/x", "10.1/x", Some((1 << 40) + 3)),
                ("10.1/x", "10.1/x", Some((1 << 40) + 1)),
                ("10.1/x", "10.1/x", Some(1 << 40)),
                ("", "", None),
                ("", "x", None),
            ] {
                for warnings in [ws, Warnings::EMPTY] {
                    let at = At { line, ..at };
                    let mut b = Block::default();
                    b.push(canonical.as_bytes(), at, value.as_bytes(), warnings);
                    b.push(b"10.1/z", at, b"10.1/z", Warnings::EMPTY);
                    let recs: Vec<_> = b.records().collect();
                    assert_eq!(recs.len(), 2);
                    let (hash, body) = recs[0];
                    let mut scratch = Vec::new();
                    let m = get_body(body, &mut scratch).unwrap();
                    assert_eq!(
                        (m.at, m.warnings, m.canonical, m.value),
                        (at, warnings, canonical.as_bytes(), value.as_bytes())
                    );
                    assert_eq!(get_body(recs[1].1, &mut scratch).unwrap().canonical, b"10.1/z");
                    assert_eq!(hash, crate::spill::hash(canonical.as_bytes()));
                    let k = get_key(body, crate::spill::hash).unwrap();
                    assert_eq!(
                        (k.hash, k.input, k.column, k.record, k.canonical),
                        (hash, at.input, at.column, at.record, canonical.as_bytes())
                    );
                    // Never more than the value stored whole.
                    assert!(body.len() <= 1 + 5 + 5 + 10 + 10 + 10 + 10 + 5 + 10 + canonical.len() + 2 + value.len());
                    // Any cut is refused, not misread.
                    for cut in 0..body.len() {
                        assert!(get_body(&body[..cut], &mut scratch).is_none(), "{cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn apart_values_round_trip_and_links_take_a_byte() {
        let c = b"10.1000/abc";
        for (value, len) in [
            (&b"10.1000/abc"[..], 1),
            (b"https://doi.org/10.1000/abc", 2),
            (b"doi:10.1000/abc", 2),
            (b"https://example.org/10.1000/abc", 33),
            (b"10.1000/ABC", 13),
            (b"", 2),
        ] {
            let mut out = Vec::new();
            put_apart(&mut out, c, value, value == c);
            assert_eq!(out.len(), len, "{value:?}");
            let frame = get_frame(&out, &mut 0).unwrap();
            assert_eq!(get_apart_value(frame, c).as_deref(), Some(value));
        }
        // A link's index past the list, or bytes after it, cannot be ours.
        assert_eq!(get_apart_value(&[17], c), None);
        assert_eq!(get_apart_value(&[0, b'x'], c), None);
    }

    #[test]
    fn wrapped_values_are_small_and_checked() {
        let mut b = Block::default();
        let canonical = b"10.1000/abcdefgh";
        let first = At {
            value_index: 1,
            ..At::default()
        };
        b.push(canonical, first, b"https://doi.org/10.1000/ABCDEFGH", Warnings::EMPTY);
        let body = b.records().next().unwrap().1;
        // Flags, record, the canonical, the link's index, an empty tail,
        // two bytes of case.
        assert_eq!(body.len(), 1 + 1 + 17 + 1 + 1 + 2);
        // A case flip on a byte that is not a letter cannot be ours.
        let mut bad = body.to_vec();
        let n = bad.len();
        bad[n - 2] |= 1;
        assert!(get_body(&bad, &mut Vec::new()).is_none());
    }

    #[test]
    fn rows_round_trip() {
        let row = Row {
            records: 3,
            count: 4,
            first_seq: 1 << 50,
            seq: u64::MAX,
            first_record: 9,
            variant: Variant::ALL[Variant::ALL.len() - 1],
            at: At {
                line: None,
                ..At::default()
            },
            canonical: b"10.1/abc",
            value: b"doi:10.1/ABC",
        };
        let mut out = Vec::new();
        put_row(&mut out, &row, None);
        let frame = get_frame(&out, &mut 0).unwrap();
        let mut scratch = Vec::new();
        let got = get_row(frame, &mut scratch).unwrap();
        assert_eq!(format!("{got:?}"), format!("{row:?}"));
        assert_eq!(row_key(frame), Some(row.key()));
        // A row made from a block's body, copied or made again, reads the
        // same: the body's warnings are skipped.
        let ws: Warnings = [Warning::Trimmed].into_iter().collect();
        for (canonical, value, warnings) in [
            (&b"10.1/abc"[..], &b"10.1/abc"[..], ws),
            (b"10.1/abc", b"10.1%2Fabc", ws),
            (b"10.1/abc", b"https://doi.org/10.1/ABC", Warnings::EMPTY),
            (b"10.1/abc", b"10.1/abc", Warnings::EMPTY),
        ] {
            let mut block = Block::default();
            block.push(canonical, row.at, value, warnings);
            let body = block.records().next().unwrap().1;
            let m = get_body(body, &mut scratch).unwrap();
            let from = Row {
                canonical: m.canonical,
                value: m.value,
                at: m.at,
                ..row
            };
            let (mut copied, mut made) = (Vec::new(), Vec::new());
            put_row(&mut copied, &from, Some(body));
            put_row(&mut made, &from, None);
            let (mut s1, mut s2) = (Vec::new(), Vec::new());
            let a = get_row(get_frame(&copied, &mut 0).unwrap(), &mut s1).unwrap();
            let b = get_row(get_frame(&made, &mut 0).unwrap(), &mut s2).unwrap();
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
            assert_eq!(a.value, value);
        }
    }

    #[test]
    fn row_keys_sort_as_the_file() {
        let mut keys = vec![
            RowKey::new(2, 0, 1),
            RowKey::new(3, 9, 10),
            RowKey::new(2, 0, 0),
            RowKey::new(3, 4, 12),
            RowKey::new(3, 4, 5),
        ];
        keys.sort();
        assert_eq!(
            keys,
            vec![
                RowKey::new(3, 4, 5),
                RowKey::new(3, 4, 12),
                RowKey::new(3, 9, 10),
                RowKey::new(2, 0, 0),
                RowKey::new(2, 0, 1),
            ]
        );
    }
}
