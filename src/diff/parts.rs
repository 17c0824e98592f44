//! The join of OLD and NEW when OLD's index would pass its memory budget:
//! both files are hash-partitioned by key into the spill engine's
//! partitions (OLD's sharing one file, NEW's another), then joined one
//! partition at a time (a partition's OLD rows held, its NEW rows streamed
//! past them), as `join::Join` joins the whole files; every partition's
//! changes and `removed` share a third file.
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
use crate::spill::{self, Budget, Merge, Part, Spill, Writer, bucket};
use anyhow::Result;

/// Buffer of each file being written or read.
const BUFFER: usize = 64 * 1024;

/// Both files being partitioned: OLD's first, then NEW's.
pub struct Parts {
    budget: Budget,
    n: usize,
    writers: Vec<Writer>,
    old: Vec<Part>,
    enc: Vec<u8>,
}

impl Parts {
    pub fn new(budget: &Budget) -> Result<Parts> {
        let n = budget.partitions;
        Ok(Parts {
            writers: budget.writers(TASK, n, BUFFER, true)?,
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
        let fresh = self.budget.writers(TASK, self.n, BUFFER, true)?;
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
        let out_file = Spill::new(TASK, self.budget.dir(), true)?;
        let mut m = Matched {
            partitions: self.n as u64,
            ..Matched::default()
        };
        let (mut changes, mut removed) = (Vec::new(), Vec::new());
        // The duplicate key found with the earliest second row, by file.
        let (mut old_dup, mut new_dup): (Found, Found) = (None, None);
        let mut enc = Vec::new();
        let pairs = self
            .old
            .into_iter()
            .zip(new_files)
            .map(|(o, n)| fit(&self.budget, o, n, 0));
        for (old_part, new_part) in pairs.collect::<Result<Vec<_>>>()?.into_iter().flatten() {
            let (mut held, mut rows) = (Held::new(self.budget.table_max()), Vec::new());
            let mut reader = old_part.frames(BUFFER);
            while reader.advance()? {
                let r = record::get_row(reader.frame())?;
                let h = spill::hash(r.key);
                if let Some(i) = held.index.find(h, r.key) {
                    if old_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                        let first = At {
                            row: rows[i],
                            record: known(held.index.get(i).record),
                        };
                        old_dup = Some((r.row, duplicate(keys, old_file, r.key, first, at(&r))));
                    }
                    break;
                }
                held.hold(h, r.key, &r.side, r.prior)?;
                rows.push(r.row);
            }
            drop(reader);
            // The in-memory join stops at OLD's duplicate before NEW is
            // read: only OLD's partitions are still to search for one.
            if old_dup.is_some() {
                continue;
            }
            let mut out = out_file.writer(BUFFER);
            let mut reader = new_part.frames(BUFFER);
            while reader.advance()? {
                let r = record::get_row(reader.frame())?;
                let mut to_file = |c: &ChangeRow<'_>| {
                    record::put_change(&mut enc, r.row, c);
                    out.push(&enc)
                };
                if let Some(first) = held.meet(spill::hash(r.key), r.key, r.row, r.side, &mut m, &mut to_file)? {
                    if new_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                        new_dup = Some((r.row, duplicate(keys, new_file, r.key, first, at(&r))));
                    }
                    break;
                }
            }
            changes.push(out.finish()?);
            let mut out = out_file.writer(BUFFER);
            // Keys NEW added before the join left memory are matched.
            held.removed(rows.len(), |i, c| {
                record::put_change(&mut enc, rows[i], c);
                out.push(&enc)
            })?;
            removed.push(out.finish()?);
        }
        if let Some((_, e)) = old_dup.or(new_dup) {
            return Err(e);
        }
        merge(changes, emit)?;
        merge(removed, emit)?;
        Ok(m)
    }
}

/// Levels of splitting a partition in two before it is joined whatever
/// its table can take.
const MAX_LEVEL: u32 = 8;

/// A partition's OLD and NEW files, split in two by the next level's hash
/// (and again) while they might not fit one table: its keys and
/// canonicals take fewer bytes than the files, its keys and codes are
/// fewer than three a row.
fn fit(budget: &Budget, old: Part, new: Part, level: u32) -> Result<Vec<(Part, Part)>> {
    let max = budget.table_max() as u64;
    if level >= MAX_LEVEL || (old.bytes + new.bytes <= max && 3 * (old.records + new.records) < max) {
        return Ok(vec![(old, new)]);
    }
    let halves = split(budget, &old, level + 1)?
        .into_iter()
        .zip(split(budget, &new, level + 1)?);
    let mut pairs = Vec::new();
    for (old, new) in halves {
        pairs.extend(fit(budget, old, new, level + 1)?);
    }
    Ok(pairs)
}

/// `part` split in two by `level`'s hash of its rows' keys, each half in
/// `part`'s order.
fn split(budget: &Budget, part: &Part, level: u32) -> Result<Vec<Part>> {
    let mut halves = budget.writers(TASK, 2, BUFFER, true)?;
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
