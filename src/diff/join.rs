//! The join of OLD and NEW on the key: OLD's rows are held in an
//! [`Index`] (compact: see its doc for the bytes a row takes); NEW is
//! streamed past it, each row matched, classified and handed on as
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
use super::index::{Entry, Index, Values};
use super::layout::{Layout, Shape};
use super::parts::{Budget, Parts};
use super::read::Table;
use super::row::{RowBuf, Side, Vocab, describe_key};
use super::spill::Prior;
use anyhow::Result;
use std::fmt;

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
    /// Long output read without `column` and `value_index` in the key.
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
                 --key column --key value_index"
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
    vocab: Vocab,
    index: Index,
    matched: Matched,
}

impl<'k> Join<'k> {
    /// `keys` names the key columns in messages.
    pub fn new(keys: &'k [String]) -> Join<'k> {
        Join {
            keys,
            vocab: Vocab::default(),
            index: Index::default(),
            matched: Matched::default(),
        }
    }

    /// Reads OLD into memory; or, once its index passes `budget`, moves
    /// the rows read so far and the rest of OLD into [`Parts`], which
    /// are returned.
    pub fn load(&mut self, table: Table, layout: &Layout, budget: &Budget) -> Result<Option<Parts>> {
        let name = table.name().to_string();
        let Join { keys, vocab, index, .. } = self;
        let mut parts: Option<Parts> = None;
        let rows = table.for_each(layout, |r| {
            if let Some(p) = &mut parts {
                return p.push(r.row, &r.key, &r.side());
            }
            if let Some(i) = index.find(&r.key) {
                let first = At {
                    row: i as u64 + 1,
                    record: known(index.entry(i).record),
                };
                return Err(duplicate(keys, &name, layout, &r.key, first, at(r)));
            }
            if index.heap_bytes_with(r.key.len() + r.canonical.len()) + vocab.heap_bytes() > budget.bytes {
                let mut p = Parts::new(budget)?;
                for (i, e) in index.iter().enumerate() {
                    p.push(i as u64 + 1, index.key(e), &side(index, vocab, e))?;
                }
                (*index, *vocab) = (Index::default(), Vocab::default());
                p.push(r.row, &r.key, &r.side())?;
                parts = Some(p);
                return Ok(());
            }
            let values = Values {
                canonical: &r.canonical,
                record: r.record.unwrap_or(0),
                kind: vocab.id(&r.kind),
                error: vocab.id(&r.error),
                warnings: vocab.id(&r.warnings),
            };
            index.push(&r.key, values);
            Ok(())
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
        let Join {
            keys,
            vocab,
            index,
            matched: m,
        } = self;
        let old_rows = m.old_rows as usize;
        let mut parts: Option<Parts> = None;
        let rows = table.for_each(layout, |r| {
            if let Some(p) = &mut parts {
                return p.push(r.row, &r.key, &r.side());
            }
            let new = r.side();
            let Some(i) = index.find(&r.key) else {
                if index.heap_bytes_with(r.key.len()) + vocab.heap_bytes() > budget.bytes {
                    let mut p = leave_memory(index, vocab, old_rows, budget)?;
                    (*index, *vocab) = (Index::default(), Vocab::default());
                    p.push(r.row, &r.key, &new)?;
                    parts = Some(p);
                    return Ok(());
                }
                // Added: kept, so that a second NEW row with it is found.
                let values = Values {
                    record: r.record.unwrap_or(0),
                    ..Values::default()
                };
                let i = index.push(&r.key, values);
                let e = index.entry_mut(i);
                (e.matched, e.matched_record) = (r.row, r.record.unwrap_or(0));
                return emit(&ChangeRow {
                    change: Change::Added,
                    key: &r.key,
                    old: None,
                    new: Some(new),
                });
            };
            let e = *index.entry(i);
            if e.matched > 0 {
                let first = At {
                    row: e.matched,
                    record: known(e.matched_record),
                };
                return Err(duplicate(keys, &name, layout, &r.key, first, at(r)));
            }
            let entry = index.entry_mut(i);
            (entry.matched, entry.matched_record) = (r.row, r.record.unwrap_or(0));
            let old = side(index, vocab, &e);
            let mut any = false;
            for change in classify(&old, &new) {
                any = true;
                emit(&ChangeRow {
                    change,
                    key: &r.key,
                    old: Some(old),
                    new: Some(new),
                })?;
            }
            if any {
                m.changed += 1;
            } else {
                m.unchanged += 1;
            }
            Ok(())
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
        let old_rows = self.matched.old_rows as usize;
        for e in self.index.iter().take(old_rows).filter(|e| e.matched == 0) {
            emit(&ChangeRow {
                change: Change::Removed,
                key: self.index.key(e),
                old: Some(side(&self.index, &self.vocab, e)),
                new: None,
            })?;
        }
        Ok(self.matched)
    }
}

/// OLD's rows in the index (with the NEW rows that matched them) and the
/// keys NEW added, partitioned: the join leaves memory part way through
/// NEW. The partitions returned take the rest of NEW.
fn leave_memory(index: &Index, vocab: &Vocab, old_rows: usize, budget: &Budget) -> Result<Parts> {
    let mut p = Parts::new(budget)?;
    for (i, e) in index.iter().enumerate() {
        let (row, record) = (e.matched, e.matched_record);
        let (at, prior) = match (i < old_rows, row > 0) {
            (true, false) => (i as u64 + 1, Prior::None),
            (true, true) => (i as u64 + 1, Prior::Matched { row, record }),
            (false, _) => (0, Prior::Added { row, record }),
        };
        p.push_prior(at, index.key(e), &side(index, vocab, e), prior)?;
    }
    p.start_new()?;
    Ok(p)
}

/// An OLD entry as a [`Side`].
pub(super) fn side<'a>(index: &'a Index, vocab: &'a Vocab, e: &Entry) -> Side<'a> {
    Side {
        record: known(e.record),
        kind: vocab.name(e.kind),
        canonical: index.canonical(e),
        error: vocab.name(e.error),
        warnings: vocab.name(e.warnings),
    }
}

pub(super) fn known(record: u64) -> Option<u64> {
    (record > 0).then_some(record)
}

pub(super) fn duplicate(
    keys: &[String],
    file: &str,
    layout: &Layout,
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
        long_hint: layout.shape == Shape::Long && !(has("column") && has("value_index")),
    })
}

fn at(r: &RowBuf) -> At {
    At {
        row: r.row,
        record: r.record,
    }
}
