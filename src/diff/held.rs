//! Rows held for a join, by key: all of OLD in the in-memory join
//! (`join`), or one partition's (`parts`). Both hold OLD's rows and meet
//! NEW's alike: a row met is classified into its changes, a key NEW adds
//! is held too.
//!
//! The index is the spill engine's table: a row's key and canonical in
//! its arena, 56 bytes of `Entry` with its hash and place, and a 5-byte
//! slot.
//!
//! A key on two rows of one file is an error naming the key and both rows
//! ([`DuplicateKey`]): a diff by that key would pair rows at random.

use super::change::{Change, ChangeRow, classify};
use super::layout::{Layout, Shape};
use super::record::{Prior, TASK};
use super::row::{At, Side, Vocab, describe_key};
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

/// Rows held for a join (all of OLD, or a partition's): the index and the
/// vocabulary of its codes. The in-memory join and each partition's hold
/// and meet rows alike.
pub(super) struct Held {
    pub index: Index,
    vocab: Vocab,
}

impl Held {
    /// Rows held in a table of at most `table_max` bytes of keys
    /// (`Budget::table_max`).
    pub fn new(table_max: usize) -> Held {
        Held {
            index: Index::new(table_max),
            vocab: Vocab::default(),
        }
    }

    /// Memory held once a row of `bytes` more (key and canonical) is.
    pub fn bytes_with(&self, bytes: usize) -> usize {
        self.index.bytes_with(bytes).saturating_add(self.vocab.heap_bytes())
    }

    /// Holds a row of OLD's, whose key is not held yet, with what earlier
    /// NEW rows did to its key.
    #[inline]
    pub fn hold(&mut self, h: u64, key: &[u8], s: &Side<'_>, prior: Prior) -> Result<()> {
        let (matched, matched_record) = match prior {
            Prior::Matched { row, record } | Prior::Added { row, record } => (row, record),
            Prior::None => (0, 0),
        };
        let mut id = |s: &str| self.vocab.id(s).ok_or_else(|| TASK.full());
        let entry = Entry {
            record: s.record.unwrap_or(0),
            matched,
            matched_record,
            kind: id(s.kind)?,
            error: id(s.error)?,
            warnings: id(s.warnings)?,
        };
        let pushed = self.index.push(h, key, s.canonical.as_bytes(), entry);
        pushed.map(|_| ()).ok_or_else(|| TASK.full())
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
            self.index.push(h, key, &[], entry).ok_or_else(|| TASK.full())?;
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
            let removed = ChangeRow {
                change: Change::Removed,
                key: self.index.key(i),
                old: Some(self.side(i)),
                new: None,
            };
            f(i, &removed)?;
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
