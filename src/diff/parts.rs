//! The join of OLD and NEW when OLD's index would pass its memory budget:
//! both files are hash-partitioned by key into anonymous temporary files
//! ([`spill`](super::spill)), then joined one partition at a time (a
//! partition's OLD rows in an [`Index`], its NEW rows streamed past it),
//! as [`Join`](super::join::Join) joins the whole files.
//!
//! A key's rows are all in one partition, so its changes and duplicates
//! are found there. Each row carries its data row, which orders everything
//! back as the in-memory join has it: each partition writes its changes
//! in NEW's order and its `removed` in OLD's, and a k-way merge by row
//! hands them on in the files' order; a duplicate key is the one whose
//! second row comes first (OLD's before NEW's), the one the in-memory join
//! stops at. The counts, examples, `-o` rows and errors are the same.

use super::change::{Change, classify};
use super::index::{Index, Values};
use super::join::{At, ChangeRow, Matched, duplicate, known, side};
use super::layout::Layout;
use super::read::Table;
use super::row::{Side, Vocab};
use super::spill::{self, Enc, FrameReader, FrameWriter, Prior};
use anyhow::Result;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::hash::BuildHasher;
use std::path::PathBuf;

/// Partitions a spilled diff splits into. A partition holds about
/// 1/128 of OLD's index: 64 MiB of budget takes OLD's index to 8 GiB
/// (some 90 million rows) with each partition still within it.
pub const PARTITIONS: usize = 128;

/// The memory OLD's index may take before the diff partitions, and where.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Bytes OLD's index may take before both files are partitioned.
    pub bytes: u64,
    /// Where the partitions' temporary files go (the system's default when `None`).
    pub temp_dir: Option<PathBuf>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            bytes: 64 << 20,
            temp_dir: None,
        }
    }
}

/// The partition of `key` among `n`: a fixed-seed hash's top bits.
fn partition(key: &[u8], n: usize) -> usize {
    let h = foldhash::quality::FixedState::with_seed(0x6864_6c64_6966_6600).hash_one(key);
    ((u128::from(h) * n as u128) >> 64) as usize
}

/// Both files being partitioned: OLD's first, then NEW's.
pub struct Parts {
    temp_dir: Option<PathBuf>,
    writers: Vec<FrameWriter>,
    old: Vec<File>,
    enc: Enc,
}

impl Parts {
    pub fn new(budget: &Budget) -> Result<Parts> {
        Ok(Parts {
            writers: writers(budget.temp_dir.as_deref())?,
            temp_dir: budget.temp_dir.clone(),
            old: Vec::new(),
            enc: Enc::default(),
        })
    }

    /// Adds a row of OLD's (or, after [`Parts::start_new`], of NEW's).
    pub fn push(&mut self, row: u64, key: &[u8], side: &Side<'_>) -> Result<()> {
        self.push_prior(row, key, side, Prior::None)
    }

    /// Adds a row of OLD's with what earlier NEW rows did to its key.
    pub fn push_prior(&mut self, row: u64, key: &[u8], side: &Side<'_>, prior: Prior) -> Result<()> {
        spill::put_row(&mut self.enc, row, key, side, prior);
        self.writers[partition(key, PARTITIONS)].push(&self.enc.0)
    }

    /// Ends OLD's partitions; what is pushed next is NEW's.
    pub fn start_new(&mut self) -> Result<()> {
        let fresh = writers(self.temp_dir.as_deref())?;
        let old = std::mem::replace(&mut self.writers, fresh);
        self.old = old.into_iter().map(FrameWriter::finish).collect::<Result<_>>()?;
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
        let new_files: Vec<File> = self
            .writers
            .into_iter()
            .map(FrameWriter::finish)
            .collect::<Result<_>>()?;
        let dir = self.temp_dir.as_deref();
        let mut m = Matched {
            partitions: PARTITIONS as u64,
            ..Matched::default()
        };
        let (mut changes, mut removed) = (Vec::new(), Vec::new());
        // The duplicate key found with the earliest second row, by file.
        let (mut old_dup, mut new_dup): (Found, Found) = (None, None);
        let mut enc = Enc::default();
        for (old_part, new_part) in self.old.into_iter().zip(new_files) {
            let (mut index, mut vocab, mut rows) = (Index::default(), Vocab::default(), Vec::new());
            let mut reader = FrameReader::new(old_part);
            while reader.advance()? {
                let r = spill::get_row(reader.frame())?;
                if let Some(i) = index.find(r.key) {
                    if old_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                        let first = At {
                            row: rows[i],
                            record: known(index.entry(i).record),
                        };
                        let second = At {
                            row: r.row,
                            record: r.side.record,
                        };
                        old_dup = Some((r.row, duplicate(keys, old_file.0, old_file.1, r.key, first, second)));
                    }
                    break;
                }
                let s = &r.side;
                let values = Values {
                    canonical: s.canonical,
                    record: s.record.unwrap_or(0),
                    kind: vocab.id(s.kind),
                    error: vocab.id(s.error),
                    warnings: vocab.id(s.warnings),
                };
                let i = index.push(r.key, values);
                rows.push(r.row);
                if let Prior::Matched { row, record } | Prior::Added { row, record } = r.prior {
                    let e = index.entry_mut(i);
                    (e.matched, e.matched_record) = (row, record);
                }
            }
            drop(reader);
            // The in-memory join stops at OLD's duplicate before NEW is
            // read: only OLD's partitions are still to search for one.
            if old_dup.is_some() {
                continue;
            }
            let mut out = FrameWriter::new(dir)?;
            let mut reader = FrameReader::new(new_part);
            while reader.advance()? {
                let r = spill::get_row(reader.frame())?;
                let new = r.side;
                let Some(i) = index.find(r.key) else {
                    let i = index.push(
                        r.key,
                        Values {
                            record: new.record.unwrap_or(0),
                            ..Values::default()
                        },
                    );
                    let e = index.entry_mut(i);
                    (e.matched, e.matched_record) = (r.row, new.record.unwrap_or(0));
                    let c = ChangeRow {
                        change: Change::Added,
                        key: r.key,
                        old: None,
                        new: Some(new),
                    };
                    spill::put_change(&mut enc, r.row, &c);
                    out.push(&enc.0)?;
                    continue;
                };
                let e = *index.entry(i);
                if e.matched > 0 {
                    if new_dup.as_ref().is_none_or(|(row, _)| r.row < *row) {
                        let first = At {
                            row: e.matched,
                            record: known(e.matched_record),
                        };
                        let second = At {
                            row: r.row,
                            record: new.record,
                        };
                        new_dup = Some((r.row, duplicate(keys, new_file.0, new_file.1, r.key, first, second)));
                    }
                    break;
                }
                let entry = index.entry_mut(i);
                (entry.matched, entry.matched_record) = (r.row, new.record.unwrap_or(0));
                let old = side(&index, &vocab, &e);
                let mut any = false;
                for change in classify(&old, &new) {
                    any = true;
                    let c = ChangeRow {
                        change,
                        key: r.key,
                        old: Some(old),
                        new: Some(new),
                    };
                    spill::put_change(&mut enc, r.row, &c);
                    out.push(&enc.0)?;
                }
                if any {
                    m.changed += 1;
                } else {
                    m.unchanged += 1;
                }
            }
            changes.push(out.finish()?);
            let mut out = FrameWriter::new(dir)?;
            // Keys NEW added before the join left memory are matched.
            for (i, &row) in rows.iter().enumerate() {
                let e = index.entry(i);
                if e.matched == 0 {
                    let c = ChangeRow {
                        change: Change::Removed,
                        key: index.key(e),
                        old: Some(side(&index, &vocab, e)),
                        new: None,
                    };
                    spill::put_change(&mut enc, row, &c);
                    out.push(&enc.0)?;
                }
            }
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

/// A duplicate key's error, and its second row.
type Found = Option<(u64, anyhow::Error)>;

fn writers(dir: Option<&std::path::Path>) -> Result<Vec<FrameWriter>> {
    (0..PARTITIONS).map(|_| FrameWriter::new(dir)).collect()
}

/// The changes of every partition's file (each in its sequence order),
/// handed on in sequence order. A row's two changes are in one file, one
/// after the other, and leave it in that order.
fn merge(files: Vec<File>, emit: &mut dyn FnMut(&ChangeRow<'_>) -> Result<()>) -> Result<()> {
    let mut readers: Vec<FrameReader> = files.into_iter().map(FrameReader::new).collect();
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for (i, r) in readers.iter_mut().enumerate() {
        if r.advance()? {
            heap.push(Reverse((spill::change_seq(r.frame())?, i)));
        }
    }
    while let Some(Reverse((_, i))) = heap.pop() {
        let r = &mut readers[i];
        emit(&spill::get_change(r.frame())?)?;
        if r.advance()? {
            heap.push(Reverse((spill::change_seq(r.frame())?, i)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_spread_keys() {
        let mut counts = [0u32; PARTITIONS];
        for i in 0..128_000u32 {
            counts[partition(format!("id{i}").as_bytes(), PARTITIONS)] += 1;
        }
        assert!(counts.iter().all(|&c| c.abs_diff(1000) < 250), "{counts:?}");
    }
}
