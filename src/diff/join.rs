//! The join of OLD and NEW on the key: OLD's rows are held in an
//! `Index`, the spill engine's table (a row's key and canonical in its
//! arena, 56 bytes of `Entry` with its hash and place, and a 5-byte
//! slot); NEW is streamed
//! past it, each row matched, classified and handed on as
//! [`ChangeRow`]s in NEW's order; OLD's rows no NEW row matched are then
//! handed on as `removed`, in OLD's order.
//!
//! When OLD's index would pass its budget, `load` hands OLD, and then
//! NEW, to [`Parts`] instead, which joins them a partition at a time; when
//! the keys NEW adds take it past, `compare` hands on what it holds and
//! the rest of NEW.
//!
//! A key on two rows of one file is an error naming the key and both rows
//! ([`DuplicateKey`]): a diff by that key would pair rows at random.

use super::change::{Change, classify};
use super::layout::{Layout, Shape};
use super::parts::{Budget, Parts};
use super::read::Table;
use super::record::Prior;
use super::row::{RowBuf, Side, Vocab, describe_key};
use crate::spill;
use anyhow::Result;
use std::fmt;

/// Rows held for the join, by key: OLD's, in OLD's order (which is then
/// `removed`'s), then the keys NEW added, so that a second NEW row with
/// one of them is found as a duplicate too. A row's canonical is its
/// key's tail.
pub(super) type Index = spill::Table<Entry>;

/// What a diff compares of a held row (codes as [`Vocab`] ids).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry {
    /// `scan`'s record; 0 when unknown.
    pub record: u64,
    /// The NEW row that had this key (0: none yet), and its record, to
    /// name both rows of a key NEW holds twice.
    pub matched: u64,
    pub matched_record: u64,
    pub kind: u32,
    pub error: u32,
    pub warnings: u32,
}

/// One change of one key, as the report and `-o` take it.
#[derive(Debug, Clone, Copy)]
pub struct ChangeRow<'a> {
    /// Which change.
    pub change: Change,
    /// The encoded key (see `row::key_cells`).
    pub key: &'a [u8],
    /// None for `added`.
    pub old: Option<Side<'a>>,
    /// None for `removed`.
    pub new: Option<Side<'a>>,
}

/// Where a row is: its data row in the file and `scan`'s record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub row: u64,
    pub record: Option<u64>,
}

/// A key that two rows of one file hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The file holding the key twice.
    pub file: String,
    /// As `row::describe_key` shows it.
    pub key: String,
    /// The first row with the key.
    pub first: At,
    /// The second row with it.
    pub second: At,
    /// Long output read without `source_column` and `value_index` in the key.
    pub long_hint: bool,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.first, self.second);
        write!(f, "{}: the key {} is not unique: ", self.file, self.key)?;
        match (a.record, b.record) {
            (Some(ra), Some(rb)) if ra == a.row && rb == b.row => write!(f, "records {ra} and {rb} both hold it")?,
            (Some(ra), Some(rb)) => write!(
                f,
                "rows {} and {} (scan's records {ra} and {rb}) both hold it",
                a.row, b.row
            )?,
            _ => write!(f, "rows {} and {} both hold it", a.row, b.row)?,
        }
        if self.long_hint {
            write!(
                f,
                "; this is scan's long output (a row per value): add the value's place to the key, \
                 --key source_column --key value_index"
            )
        } else {
            write!(f, "; give --key columns that name one row (--key is repeatable)")
        }
    }
}

impl std::error::Error for DuplicateKey {}

/// What the join counted besides the changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Matched {
    /// Rows read from OLD.
    pub old_rows: u64,
    /// Rows read from NEW.
    pub new_rows: u64,
    /// Keys in both files with no change.
    pub unchanged: u64,
    /// Keys in both files with a change (any of the four).
    pub changed: u64,
    /// Partitions OLD and NEW were split into (`parts`); 0 when OLD's
    /// index fitted in memory.
    pub partitions: u64,
}

/// OLD held in memory, then the keys NEW added.
pub struct Join<'k> {
    keys: &'k [String],
    held: Held,
    matched: Matched,
}

impl<'k> Join<'k> {
    /// `keys` names the key columns in messages.
    pub fn new(keys: &'k [String]) -> Join<'k> {
        Join {
            keys,
            held: Held::default(),
            matched: Matched::default(),
        }
    }

    /// Reads OLD into memory; or, once its index passes `budget`, moves
    /// the rows read so far and the rest of OLD into [`Parts`], which
    /// are returned.
    pub fn load(&mut self, table: Table, layout: &Layout, budget: &Budget) -> Result<Option<Parts>> {
        let name = table.name().to_string();
        let Join { keys, held, .. } = self;
        let (rows, parts) = until_parts(table, layout, |r| {
            let h = spill::hash(&r.key);
            if let Some(i) = held.index.find(h, &r.key) {
                let first = At {
                    row: i as u64 + 1,
                    record: known(held.index.get(i).record),
                };
                return Err(duplicate(keys, (&name, layout), &r.key, first, at(r)));
            }
            if held.bytes_with(r.key.len() + r.canonical.len()) > budget.bytes {
                let mut p = Parts::new(budget)?;
                for i in 0..held.index.len() {
                    p.push(i as u64 + 1, held.index.key(i), &held.side(i))?;
                }
                *held = Held::default();
                return Ok(Some(p));
            }
            held.hold(h, &r.key, &r.side(), Prior::None);
            Ok(None)
        })?;
        self.matched.old_rows = rows;
        Ok(parts)
    }

    /// OLD's rows, once loaded.
    pub fn old_rows(&self) -> u64 {
        self.matched.old_rows
    }

    /// Streams NEW past OLD: every change of a key in both, and `added`,
    /// go to `emit` in NEW's order. The keys NEW adds are held too: once
    /// they take the index past `budget`, OLD's rows (with what NEW did to
    /// them so far), those keys and the rest of NEW go to [`Parts`], which
    /// are returned to finish the join.
    pub fn compare(
        &mut self,
        table: Table,
        layout: &Layout,
        budget: &Budget,
        emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>,
    ) -> Result<Option<Parts>> {
        let name = table.name().to_string();
        let Join { keys, held, matched: m } = self;
        let old_rows = m.old_rows as usize;
        let (rows, parts) = until_parts(table, layout, |r| {
            let h = spill::hash(&r.key);
            if held.index.find(h, &r.key).is_none() && held.bytes_with(r.key.len()) > budget.bytes {
                let p = leave_memory(held, old_rows, budget)?;
                *held = Held::default();
                return Ok(Some(p));
            }
            match held.meet(h, &r.key, r.row, r.side(), m, emit)? {
                Some(first) => Err(duplicate(keys, (&name, layout), &r.key, first, at(r))),
                None => Ok(None),
            }
        })?;
        self.matched.new_rows = rows;
        Ok(parts)
    }

    /// The counts so far.
    pub fn matched(&self) -> Matched {
        self.matched
    }

    /// OLD's rows NEW lacks, in OLD's order, as `removed`; returns the
    /// counts of the whole join.
    pub fn finish(self, emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>) -> Result<Matched> {
        self.held.removed(self.matched.old_rows as usize, |_, c| emit(c))?;
        Ok(self.matched)
    }
}

/// Hands `table`'s rows to `f` until it returns [`Parts`], which then take
/// that row and the rest; returns the rows read, and the parts.
fn until_parts(
    table: Table,
    layout: &Layout,
    mut f: impl FnMut(&RowBuf) -> Result<Option<Parts>>,
) -> Result<(u64, Option<Parts>)> {
    let mut parts: Option<Parts> = None;
    let rows = table.for_each(layout, |r| {
        if parts.is_none() {
            parts = f(r)?;
        }
        match &mut parts {
            Some(p) => p.push(r.row, &r.key, &r.side()),
            None => Ok(()),
        }
    })?;
    Ok((rows, parts))
}

/// OLD's rows in the index (with the NEW rows that matched them) and the
/// keys NEW added, partitioned: the join leaves memory part way through
/// NEW. The partitions returned take the rest of NEW.
fn leave_memory(held: &Held, old_rows: usize, budget: &Budget) -> Result<Parts> {
    let mut p = Parts::new(budget)?;
    for i in 0..held.index.len() {
        let e = held.index.get(i);
        let (row, record) = (e.matched, e.matched_record);
        let (at, prior) = match (i < old_rows, row > 0) {
            (true, false) => (i as u64 + 1, Prior::None),
            (true, true) => (i as u64 + 1, Prior::Matched { row, record }),
            (false, _) => (0, Prior::Added { row, record }),
        };
        p.push_prior(at, held.index.key(i), &held.side(i), prior)?;
    }
    p.start_new()?;
    Ok(p)
}

/// Rows held for a join (all of OLD, or a partition's): the index and the
/// vocabulary of its codes. The in-memory join and each partition's hold
/// and meet rows alike.
#[derive(Default)]
pub(super) struct Held {
    pub index: Index,
    vocab: Vocab,
}

impl Held {
    /// Memory held once a row of `bytes` more (key and canonical) is.
    fn bytes_with(&self, bytes: usize) -> u64 {
        self.index.bytes_with(bytes) as u64 + self.vocab.heap_bytes()
    }

    /// Holds a row of OLD's, whose key is not held yet, with what earlier
    /// NEW rows did to its key.
    pub fn hold(&mut self, h: u64, key: &[u8], s: &Side<'_>, prior: Prior) {
        let (matched, matched_record) = match prior {
            Prior::Matched { row, record } | Prior::Added { row, record } => (row, record),
            Prior::None => (0, 0),
        };
        let entry = Entry {
            record: s.record.unwrap_or(0),
            matched,
            matched_record,
            kind: self.vocab.id(s.kind),
            error: self.vocab.id(s.error),
            warnings: self.vocab.id(s.warnings),
        };
        self.index.push(h, key, s.canonical.as_bytes(), entry);
    }

    /// Meets NEW's data row `row`: its changes go to `emit` and are
    /// counted in `m`; a key no OLD row had is held, so that a second NEW
    /// row with it is found. Returns the first NEW row of a key NEW holds
    /// twice.
    pub fn meet(
        &mut self,
        h: u64,
        key: &[u8],
        row: u64,
        new: Side<'_>,
        m: &mut Matched,
        emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>,
    ) -> Result<Option<At>> {
        let record = new.record.unwrap_or(0);
        let Some(i) = self.index.find(h, key) else {
            let entry = Entry {
                record,
                matched: row,
                matched_record: record,
                ..Entry::default()
            };
            self.index.push(h, key, &[], entry);
            emit(&ChangeRow {
                change: Change::Added,
                key,
                old: None,
                new: Some(new),
            })?;
            return Ok(None);
        };
        let e = *self.index.get(i);
        if e.matched > 0 {
            return Ok(Some(At {
                row: e.matched,
                record: known(e.matched_record),
            }));
        }
        let entry = self.index.get_mut(i);
        (entry.matched, entry.matched_record) = (row, record);
        let old = self.side(i);
        let mut any = false;
        for change in classify(&old, &new) {
            any = true;
            emit(&ChangeRow {
                change,
                key,
                old: Some(old),
                new: Some(new),
            })?;
        }
        if any {
            m.changed += 1;
        } else {
            m.unchanged += 1;
        }
        Ok(None)
    }

    /// The first `old_rows` held rows no NEW row met, as `removed`, with
    /// their places in the index.
    pub fn removed(&self, old_rows: usize, mut f: impl FnMut(usize, &ChangeRow<'_>) -> Result<()>) -> Result<()> {
        for i in (0..old_rows.min(self.index.len())).filter(|&i| self.index.get(i).matched == 0) {
            f(
                i,
                &ChangeRow {
                    change: Change::Removed,
                    key: self.index.key(i),
                    old: Some(self.side(i)),
                    new: None,
                },
            )?;
        }
        Ok(())
    }

    /// A held row as a [`Side`].
    pub fn side(&self, i: usize) -> Side<'_> {
        let e = self.index.get(i);
        Side {
            record: known(e.record),
            kind: self.vocab.name(e.kind),
            // Pushed as a `&str`: always UTF-8.
            canonical: std::str::from_utf8(self.index.tail(i)).unwrap_or_default(),
            error: self.vocab.name(e.error),
            warnings: self.vocab.name(e.warnings),
        }
    }
}

pub(super) fn known(record: u64) -> Option<u64> {
    (record > 0).then_some(record)
}

/// The error of a key on two rows of `file`.
pub(super) fn duplicate(
    keys: &[String],
    (file, layout): (&str, &Layout),
    key: &[u8],
    first: At,
    second: At,
) -> anyhow::Error {
    let has = |s: &str| keys.iter().any(|k| k.ends_with(s));
    anyhow::Error::new(DuplicateKey {
        file: file.to_string(),
        key: describe_key(keys, key),
        first,
        second,
        long_hint: layout.shape == Shape::Long && !(has("source_column") && has("value_index")),
    })
}

fn at(r: &RowBuf) -> At {
    At {
        row: r.row,
        record: r.record,
    }
}
