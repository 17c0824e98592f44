//! The join of OLD and NEW when OLD's index would pass its memory budget:
//! both files are hash-partitioned by key into the spill engine's
//! partition files, then joined one partition at a time (a partition's
//! OLD rows held, its NEW rows streamed past them), as
//! `join::Join` joins the whole files.
//!
//! A key's rows are all in one partition, so its changes and duplicates
//! are found there. Each row carries its data row, which orders everything
//! back as the in-memory join has it: each partition writes its changes
//! in NEW's order and its `removed` in OLD's, and a k-way merge by row
//! hands them on in the files' order; a duplicate key is the one whose
//! second row comes first (OLD's before NEW's), the one the in-memory join
//! stops at. The counts, examples, `-o` rows and errors are the same.
//!
//! A partition too large for one table of the engine's (4 GiB of keys)
//! is split in two by the next level's hash before it is joined, and
//! again, so none holds more.

use super::change::ChangeRow;
use super::held::{Held, Matched, duplicate, known};
use super::layout::Layout;
use super::read::Table;
use super::record::{self, Prior, TASK};
use super::row::{At, Side};
use crate::spill::{self, Budget, Merge, Part, Writer, bucket};
use anyhow::Result;

/// Buffer of each file being written or read.
const BUFFER: usize = 64 * 1024;

/// Both files being partitioned: OLD's first, then NEW's.
pub struct Parts {
    budget: Budget,
    /// Each partition holds two files open (OLD's and NEW's, then its
    /// changes and `removed`).
    n: usize,
    writers: Vec<Writer>,
    old: Vec<Part>,
    enc: Vec<u8>,
}

impl Parts {
    pub fn new(budget: &Budget) -> Result<Parts> {
        let n = budget.open_partitions(2);
        Ok(Parts {
            writers: budget.writers(TASK, n, BUFFER)?,
            budget: budget.clone(),
            n,
            old: Vec::new(),
            enc: Vec::new(),
        })
    }

    /// Adds a row of OLD's (or, after [`Parts::start_new`], of NEW's).
    pub fn push(&mut self, row: u64, key: &[u8], side: &Side<'_>) -> Result<()> {
        self.push_prior(row, key, side, Prior::None)
    }

    /// Adds a row of OLD's with what earlier NEW rows did to its key.
    pub fn push_prior(&mut self, row: u64, key: &[u8], side: &Side<'_>, prior: Prior) -> Result<()> {
        record::put_row(&mut self.enc, row, key, side, prior);
        self.writers[bucket(spill::hash(key), self.n)].push(&self.enc)
    }

    /// Ends OLD's partitions; what is pushed next is NEW's.
    pub fn start_new(&mut self) -> Result<()> {
        let fresh = self.budget.writers(TASK, self.n, BUFFER)?;
        let old = std::mem::replace(&mut self.writers, fresh);
        self.old = old.into_iter().map(Writer::finish).collect::<Result<_>>()?;
        Ok(())
    }

    /// Partitions the whole of NEW; returns its rows.
    pub fn read_new(&mut self, table: Table, layout: &Layout) -> Result<u64> {
        self.start_new()?;
        table.for_each(layout, |r| self.push(r.row, &r.key, &r.side()))
    }

    /// Joins partition after partition, then hands every change to
    /// `emit` in the in-memory join's order. `old_file` and `new_file`:
    /// each file's name and layout, for messages.
    pub fn join(
        self,
        keys: &[String],
        old_file: (&str, &Layout),
        new_file: (&str, &Layout),
        emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>,
    ) -> Result<Matched> {
        let new_files: Vec<Part> = self.writers.into_iter().map(Writer::finish).collect::<Result<_>>()?;
        let mut j = Joined {
            keys,
            old_file,
            new_file,
            budget: &self.budget,
            m: Matched {
                partitions: self.n as u64,
                ..Matched::default()
            },
            changes: Vec::new(),
            removed: Vec::new(),
            old_dup: None,
            new_dup: None,
            enc: Vec::new(),
        };
        for (old_part, new_part) in self.old.into_iter().zip(new_files) {
            j.fitting(old_part, new_part, 0)?;
        }
        if let Some((_, e)) = j.old_dup.or(j.new_dup) {
            return Err(e);
        }
        merge(j.changes, emit)?;
        merge(j.removed, emit)?;
        Ok(j.m)
    }
}

/// Levels of splitting a partition in two before it is joined whatever
/// its table can take.
const MAX_LEVEL: u32 = 8;

/// A partitioned join under way: what the partitions joined so far found.
struct Joined<'a> {
    keys: &'a [String],
    old_file: (&'a str, &'a Layout),
    new_file: (&'a str, &'a Layout),
    budget: &'a Budget,
    m: Matched,
    changes: Vec<Part>,
    removed: Vec<Part>,
    /// The duplicate key found with the earliest second row, by file.
    old_dup: Found,
    new_dup: Found,
    enc: Vec<u8>,
}

impl Joined<'_> {
    /// Joins OLD's and NEW's files of a partition, split in two by the
    /// next level's hash first (and again) while they might not fit one
    /// table: its keys and canonicals take fewer bytes than the files,
    /// its keys and codes are fewer than three a row.
    fn fitting(&mut self, old: Part, new: Part, level: u32) -> Result<()> {
        let max = self.budget.table_max() as u64;
        if level >= MAX_LEVEL || (old.bytes + new.bytes <= max && 3 * (old.records + new.records) < max) {
            return self.pair(old, new);
        }
        let (olds, news) = (
            split(self.budget, &old, level + 1)?,
            split(self.budget, &new, level + 1)?,
        );
        drop((old, new));
        for (old, new) in olds.into_iter().zip(news) {
            self.fitting(old, new, level + 1)?;
        }
        Ok(())
    }

    /// Joins one partition's files: its changes and `removed` go to files
    /// of their own, for the merge.
    fn pair(&mut self, old_part: Part, new_part: Part) -> Result<()> {
        let Joined { keys, enc, .. } = self;
        let (mut held, mut rows) = (Held::new(self.budget.table_max()), Vec::new());
        let mut reader = old_part.frames(BUFFER);
        while reader.advance()? {
            let r = record::get_row(reader.frame())?;
            let h = spill::hash(r.key);
            if let Some(i) = held.index.find(h, r.key) {
                if self.old_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                    let first = At {
                        row: rows[i],
                        record: known(held.index.get(i).record),
                    };
                    self.old_dup = Some((r.row, duplicate(keys, self.old_file, r.key, first, at(&r))));
                }
                break;
            }
            held.hold(h, r.key, &r.side, r.prior)?;
            rows.push(r.row);
        }
        drop(reader);
        // The in-memory join stops at OLD's duplicate before NEW is
        // read: only OLD's partitions are still to search for one.
        if self.old_dup.is_some() {
            return Ok(());
        }
        let dir = self.budget.dir();
        let mut out = Writer::new(TASK, dir, BUFFER)?;
        let mut reader = new_part.frames(BUFFER);
        while reader.advance()? {
            let r = record::get_row(reader.frame())?;
            let mut to_file = |c: &ChangeRow<'_>| {
                record::put_change(enc, r.row, c);
                out.push(enc)
            };
            if let Some(first) = held.meet(spill::hash(r.key), r.key, r.row, r.side, &mut self.m, &mut to_file)? {
                if self.new_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                    self.new_dup = Some((r.row, duplicate(keys, self.new_file, r.key, first, at(&r))));
                }
                break;
            }
        }
        self.changes.push(out.finish()?);
        let mut out = Writer::new(TASK, dir, BUFFER)?;
        // Keys NEW added before the join left memory are matched.
        held.removed(rows.len(), |i, c| {
            record::put_change(enc, rows[i], c);
            out.push(enc)
        })?;
        self.removed.push(out.finish()?);
        Ok(())
    }
}

/// `part` split in two by `level`'s hash of its rows' keys, each half in
/// `part`'s order.
fn split(budget: &Budget, part: &Part, level: u32) -> Result<Vec<Part>> {
    let mut halves = budget.writers(TASK, 2, BUFFER)?;
    let mut reader = part.frames(BUFFER);
    while reader.advance()? {
        let key = record::get_row(reader.frame())?.key;
        halves[bucket(spill::level_hash(level, key), 2)].push(reader.frame())?;
    }
    halves.into_iter().map(Writer::finish).collect()
}

/// A duplicate key's error, and its second row.
type Found = Option<(u64, anyhow::Error)>;

/// Where a partition file's row is.
fn at(r: &record::Row<'_>) -> At {
    At {
        row: r.row,
        record: r.side.record,
    }
}

/// The changes of every partition's file (each in its sequence order),
/// handed on in sequence order. A row's two changes are in one file, one
/// after the other, and leave it in that order.
fn merge(files: Vec<Part>, emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>) -> Result<()> {
    let mut m = Merge::new(files.iter().map(|p| p.frames(BUFFER)).collect(), record::change_seq)?;
    while let Some(frame) = m.next()? {
        emit(&record::get_change(frame)?)?;
    }
    Ok(())
}
