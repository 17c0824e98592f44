//! The byte form of a partitioned diff's frames (`spill::frame`'s
//! varints): OLD's and NEW's rows in the partition files, and the changes
//! each partition hands to the merge. The spill suite (`diff::tests`)
//! round-trips every kind through a partitioned diff.

use super::change::{Change, ChangeRow};
use super::row::Side;
use crate::spill::frame::{get_bytes, get_varint, put_bytes, put_varint};
use anyhow::Result;

/// What the spill engine's errors say its files are for.
pub(super) const TASK: crate::spill::Task = crate::spill::Task("diff");

fn put_side(out: &mut Vec<u8>, s: &Side<'_>) {
    put_varint(out, s.record.map_or(0, |r| r.saturating_add(1)));
    for t in [s.kind, s.canonical, s.error, s.warnings] {
        put_bytes(out, t.as_bytes());
    }
}

fn get_side<'a>(b: &'a [u8], pos: &mut usize) -> Option<Side<'a>> {
    let record = get_varint(b, pos)?.checked_sub(1);
    let mut text = || std::str::from_utf8(get_bytes(b, pos)?).ok();
    Some(Side {
        record,
        kind: text()?,
        canonical: text()?,
        error: text()?,
        warnings: text()?,
    })
}

/// What earlier NEW rows did to a key, for an OLD row partitioned after
/// the in-memory join had begun reading NEW (see `join::Join::compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    None,
    /// An OLD row a NEW row (`row`, `scan`'s `record` or 0) matched.
    Matched {
        row: u64,
        record: u64,
    },
    /// Not an OLD row: a key a NEW row added.
    Added {
        row: u64,
        record: u64,
    },
}

/// A row of OLD or NEW in a partition file.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The file's data row (its sequence number).
    pub row: u64,
    pub key: &'a [u8],
    pub side: Side<'a>,
    pub prior: Prior,
}

/// Sets `out` to a row's frame.
pub fn put_row(out: &mut Vec<u8>, row: u64, key: &[u8], side: &Side<'_>, prior: Prior) {
    out.clear();
    put_varint(out, row);
    put_bytes(out, key);
    put_side(out, side);
    let (tag, matched, record) = match prior {
        Prior::None => (0, 0, 0),
        Prior::Matched { row, record } => (1, row, record),
        Prior::Added { row, record } => (2, row, record),
    };
    for v in [tag, matched, record] {
        put_varint(out, v);
    }
}

pub fn get_row(frame: &[u8]) -> Result<Row<'_>> {
    let pos = &mut 0;
    let mut row = || {
        let (row, key, side) = (get_varint(frame, pos)?, get_bytes(frame, pos)?, get_side(frame, pos)?);
        let (tag, matched, record) = (
            get_varint(frame, pos)?,
            get_varint(frame, pos)?,
            get_varint(frame, pos)?,
        );
        let prior = match tag {
            0 => Prior::None,
            1 => Prior::Matched { row: matched, record },
            2 => Prior::Added { row: matched, record },
            _ => return None,
        };
        Some(Row { row, key, side, prior })
    };
    row().ok_or_else(|| TASK.corrupt())
}

/// Sets `out` to a change's frame, with the sequence number it is written
/// in order of (NEW's row, or OLD's for `removed`).
pub fn put_change(out: &mut Vec<u8>, seq: u64, c: &ChangeRow<'_>) {
    out.clear();
    put_varint(out, seq);
    put_varint(out, c.change as u64);
    put_bytes(out, c.key);
    for s in [&c.old, &c.new] {
        put_varint(out, s.is_some() as u64);
        if let Some(s) = s {
            put_side(out, s);
        }
    }
}

/// The sequence number of a change's frame, the merge's key.
pub fn change_seq(frame: &[u8]) -> Option<u64> {
    get_varint(frame, &mut 0)
}

pub fn get_change(frame: &[u8]) -> Result<ChangeRow<'_>> {
    let pos = &mut 0;
    let mut change = || {
        get_varint(frame, pos)?;
        let change = *Change::ALL.get(usize::try_from(get_varint(frame, pos)?).ok()?)?;
        let key = get_bytes(frame, pos)?;
        let mut side = || match get_varint(frame, pos)? {
            0 => Some(None),
            _ => get_side(frame, pos).map(Some),
        };
        let (old, new) = (side()?, side()?);
        Some(ChangeRow { change, key, old, new })
    };
    change().ok_or_else(|| TASK.corrupt())
}
