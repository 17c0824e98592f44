//! The compact byte forms of a member, in memory and in temporary files,
//! all frames of the spill engine's encoding (`spill::frame`).
//!
//! - A member's *body*: a fixed header of what the count pass reads, the
//!   canonical's hash (u64), `input` and `column` (u32) and the
//!   canonical's length (u32), all little-endian, and flags; the
//!   canonical's bytes; then LEB128 `record`, `line` (when there is one),
//!   `value_index`, the warning bits, and the value's length and bytes
//!   unless the value is the canonical itself (the common case, stored
//!   once). The hash is made once, on the worker that pushed the member.
//! - In a [`Block`], a member is a frame holding its body; its sequence
//!   number is the block's base plus its index.
//! - In a partition file, a frame holds the sequence number's distance
//!   from the previous record's (they only grow within a file), then the
//!   body.
//! - In a run, a frame holds a [`Row`]: the cluster's sort key, the
//!   variant, and the member.
//!
//! Decoding returns `None` on bytes that cannot be a record: temporary
//! files are ours, but a short read must be an error, never a panic.

use crate::at::At;
use crate::clusters::Repeated;
use crate::id::Warnings;
use crate::spill::frame::{begin_frame, end_frame, get_bytes, get_frame, get_u32, get_varint, put_bytes, put_varint};
use crate::variant::Variant;

/// What the engine's errors say this spill is for.
pub(super) const TASK: crate::spill::Task = crate::spill::Task("grouping duplicates");

/// A block appended to the collector, its values numbered from `base`.
pub(crate) struct Held {
    pub base: u64,
    pub block: Block,
}

const HAS_LINE: u8 = 1;
const VALUE_IS_CANONICAL: u8 = 2;

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

fn put_at(out: &mut Vec<u8>, at: &At) {
    put_varint(out, u64::from(at.input));
    put_varint(out, at.record);
    if let Some(line) = at.line {
        put_varint(out, zigzag_line(at.record, line));
    }
    put_varint(out, u64::from(at.column));
    put_varint(out, u64::from(at.value_index));
}

fn get_at(buf: &[u8], pos: &mut usize, has_line: bool) -> Option<At> {
    let input = get_u32(buf, pos)?;
    let record = get_varint(buf, pos)?;
    let line = if has_line {
        Some(unzigzag_line(record, get_varint(buf, pos)?))
    } else {
        None
    };
    Some(At {
        input,
        record,
        line,
        column: get_u32(buf, pos)?,
        value_index: get_u32(buf, pos)?,
    })
}

/// The fixed part of a body: hash, input, column, canonical length, flags.
const HEAD: usize = 21;

#[inline]
fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("four bytes"))
}

/// Appends a member's body to `out`.
pub(super) fn put_body(out: &mut Vec<u8>, hash: u64, canonical: &[u8], at: &At, value: &[u8], warnings: Warnings) {
    let same = value == canonical;
    let mut head = [0u8; HEAD];
    head[..8].copy_from_slice(&hash.to_le_bytes());
    head[8..12].copy_from_slice(&at.input.to_le_bytes());
    head[12..16].copy_from_slice(&at.column.to_le_bytes());
    let len = u32::try_from(canonical.len()).expect("a canonical under 4 GiB");
    head[16..20].copy_from_slice(&len.to_le_bytes());
    head[20] = if at.line.is_some() { HAS_LINE } else { 0 } | if same { VALUE_IS_CANONICAL } else { 0 };
    out.extend_from_slice(&head);
    out.extend_from_slice(canonical);
    put_varint(out, at.record);
    if let Some(line) = at.line {
        put_varint(out, zigzag_line(at.record, line));
    }
    put_varint(out, u64::from(at.value_index));
    put_varint(out, warnings.bits());
    if !same {
        put_bytes(out, value);
    }
}

/// What the count pass reads of a body, without decoding the rest.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key<'a> {
    pub hash: u64,
    pub input: u32,
    pub column: u32,
    pub canonical: &'a [u8],
    /// The record, which with `input` names the record a cluster counts.
    pub record: u64,
}

#[inline(always)]
pub(super) fn get_key(body: &[u8]) -> Option<Key<'_>> {
    let head = body.get(..HEAD)?;
    let len = u32_at(head, 16) as usize;
    let end = HEAD.checked_add(len)?;
    let mut pos = end;
    Some(Key {
        hash: u64::from_le_bytes(head[..8].try_into().expect("eight bytes")),
        input: u32_at(head, 8),
        column: u32_at(head, 12),
        canonical: body.get(HEAD..end)?,
        record: get_varint(body, &mut pos)?,
    })
}

pub(super) fn get_body(body: &[u8]) -> Option<Member<'_>> {
    let k = get_key(body)?;
    let flags = body[HEAD - 1];
    let mut pos = HEAD + k.canonical.len();
    let record = get_varint(body, &mut pos)?;
    let line = if flags & HAS_LINE != 0 {
        Some(unzigzag_line(record, get_varint(body, &mut pos)?))
    } else {
        None
    };
    let value_index = get_u32(body, &mut pos)?;
    let warnings = Warnings::from_bits(get_varint(body, &mut pos)?);
    let value = if flags & VALUE_IS_CANONICAL != 0 {
        k.canonical
    } else {
        get_bytes(body, &mut pos)?
    };
    (pos == body.len()).then_some(Member {
        at: At {
            input: k.input,
            record,
            line,
            column: k.column,
            value_index,
        },
        warnings,
        canonical: k.canonical,
        value,
    })
}

/// The valid values of one block of work, built on a rayon worker: each a
/// frame in one byte buffer, its canonical's hash inside (hashing here
/// spreads that work over the workers). No I/O.
///
/// A record's values are pushed together, in one block (as the pipeline
/// reads them): the block counts the canonicals a record repeats
/// ([`Repeated`]) as they come, and the grouping counts a cluster's
/// records by comparing each member's record with the one before.
#[derive(Debug, Default)]
pub struct Block {
    pub(super) buf: Vec<u8>,
    pub(super) len: u64,
    /// The record being pushed: `(input, record)`.
    record: Option<(u32, u64)>,
    /// Its canonicals so far, back to back, and each one's hash and end.
    canonicals: Vec<u8>,
    ends: Vec<(u64, usize)>,
    /// Whether it repeated one already (it is then counted).
    repeats: bool,
    pub(super) repeated: Repeated,
}

impl Block {
    /// A block with room for `values` values of about 40 bytes, so pushing
    /// does not regrow (and copy) its buffer as it fills.
    pub fn with_capacity(values: usize) -> Block {
        Block {
            buf: Vec::with_capacity(values * 56),
            ..Block::default()
        }
    }

    /// Adds one valid value: its canonical form, where it was read, its raw
    /// bytes and the parser's warnings for it. A record's values come
    /// together, in one block.
    pub fn push(&mut self, canonical: &[u8], at: At, value: &[u8], warnings: Warnings) {
        let hash = crate::spill::hash(canonical);
        self.count_repeat(hash, canonical, (at.input, at.record));
        let start = begin_frame(&mut self.buf);
        put_body(&mut self.buf, hash, canonical, &at, value, warnings);
        end_frame(&mut self.buf, start);
        self.len += 1;
    }

    /// Counts `canonical` as a repeat when `record` holds it already.
    #[inline]
    fn count_repeat(&mut self, hash: u64, canonical: &[u8], record: (u32, u64)) {
        if self.record != Some(record) {
            self.record = Some(record);
            self.canonicals.clear();
            self.ends.clear();
            self.repeats = false;
        }
        let mut start = 0;
        for &(h, end) in &self.ends {
            if h == hash && &self.canonicals[start..end] == canonical {
                self.repeated.values += 1;
                self.repeated.records += u64::from(!std::mem::replace(&mut self.repeats, true));
                return;
            }
            start = end;
        }
        self.canonicals.extend_from_slice(canonical);
        self.ends.push((hash, self.canonicals.len()));
    }

    /// The repeats counted, the record scratch given back: the block is
    /// complete.
    pub(super) fn finish_records(&mut self) -> Repeated {
        self.canonicals = Vec::new();
        self.ends = Vec::new();
        self.record = None;
        std::mem::take(&mut self.repeated)
    }

    /// Values pushed.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Memory held, as the collector's budget counts it.
    pub(super) fn bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// The bodies, in push order.
    pub(super) fn records(&self) -> impl Iterator<Item = &[u8]> {
        let mut pos = 0;
        (0..self.len).map(move |_| get_frame(&self.buf, &mut pos).expect("a block holds whole frames"))
    }

    /// Gives every body `hash(canonical)` for its hash (tests).
    pub(super) fn rehash(&mut self, hash: fn(&[u8]) -> u64) {
        let mut pos = 0;
        while pos < self.buf.len() {
            let n = get_varint(&self.buf, &mut pos).expect("a block holds whole frames") as usize;
            let body = &mut self.buf[pos..pos + n];
            let h = hash(get_key(body).expect("a whole body").canonical);
            body[..8].copy_from_slice(&h.to_le_bytes());
            pos += n;
        }
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
pub(super) fn put_row(out: &mut Vec<u8>, row: &Row<'_>) {
    let start = begin_frame(out);
    put_varint(out, row.records);
    put_varint(out, row.first_seq);
    put_varint(out, row.seq);
    put_varint(out, row.count);
    put_varint(out, row.first_record);
    let same = row.value == row.canonical;
    out.push(
        row.variant.to_u8() << 2
            | if row.at.line.is_some() { HAS_LINE } else { 0 }
            | if same { VALUE_IS_CANONICAL } else { 0 },
    );
    put_at(out, &row.at);
    put_bytes(out, row.canonical);
    if !same {
        put_bytes(out, row.value);
    }
    end_frame(out, start);
}

/// Decodes a row frame's bytes.
pub(super) fn get_row(frame: &[u8]) -> Option<Row<'_>> {
    let mut pos = 0;
    let records = get_varint(frame, &mut pos)?;
    let first_seq = get_varint(frame, &mut pos)?;
    let seq = get_varint(frame, &mut pos)?;
    let count = get_varint(frame, &mut pos)?;
    let first_record = get_varint(frame, &mut pos)?;
    let flags = *frame.get(pos)?;
    pos += 1;
    let variant = Variant::from_u8(flags >> 2)?;
    let at = get_at(frame, &mut pos, flags & HAS_LINE != 0)?;
    let canonical = get_bytes(frame, &mut pos)?;
    let value = if flags & VALUE_IS_CANONICAL != 0 {
        canonical
    } else {
        get_bytes(frame, &mut pos)?
    };
    (pos == frame.len()).then_some(Row {
        records,
        count,
        first_seq,
        seq,
        first_record,
        variant,
        at,
        canonical,
        value,
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

    #[test]
    fn bodies_round_trip() {
        let at = At {
            input: 3,
            record: 1 << 40,
            line: Some(7),
            column: 2,
            value_index: 1,
        };
        let long = "x".repeat(300);
        let ws: Warnings = [Warning::Trimmed, Warning::PublisherUrl].into_iter().collect();
        for (canonical, value, line) in [
            ("10.1000/abc", "10.1000/abc", Some(7)),
            ("10.1000/abc", " https://doi.org/10.1000/ABC", None),
            (long.as_str(), "x", Some(0)),
            ("10.1/x", "10.1/x", Some(u64::MAX)),
            ("10.1/x", "10.1/x", Some((1 << 40) + 3)),
        ] {
            let mut b = Block::default();
            let at = At { line, ..at };
            b.push(canonical.as_bytes(), at, value.as_bytes(), ws);
            b.push(b"10.1/z", at, b"10.1/z", Warnings::EMPTY);
            let recs: Vec<_> = b.records().collect();
            assert_eq!(recs.len(), 2);
            let m = get_body(recs[0]).unwrap();
            assert_eq!(
                (m.at, m.warnings, m.canonical, m.value),
                (at, ws, canonical.as_bytes(), value.as_bytes())
            );
            assert_eq!(get_body(recs[1]).unwrap().canonical, b"10.1/z");
            let k = get_key(recs[0]).unwrap();
            assert_eq!(k.hash, crate::spill::hash(canonical.as_bytes()));
            assert_eq!(
                (k.input, k.column, k.canonical),
                (at.input, at.column, canonical.as_bytes())
            );
            // Any cut is refused, not misread.
            for cut in 0..recs[0].len() {
                assert!(get_body(&recs[0][..cut]).is_none(), "{cut}");
            }
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
