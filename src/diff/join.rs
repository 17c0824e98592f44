//! The join of OLD and NEW on the key, in memory: OLD's rows are held
//! (`held`), NEW is streamed past them, each row matched, classified and
//! handed on as `ChangeRow`s in NEW's order; OLD's rows no NEW row
//! matched are then handed on as `removed`, in OLD's order.
//!
//! When OLD's rows would pass their budget, `load` hands OLD, and then
//! NEW, to [`Parts`] instead, which joins them a partition at a time; when
//! the keys NEW adds take it past, `compare` hands on what it holds and
//! the rest of NEW.

use super::change::ChangeRow;
use super::held::{Held, Matched, duplicate, known};
use super::layout::Layout;
use super::parts::Parts;
use super::read::Table;
use super::record::Prior;
use super::row::{At, RowBuf};
use crate::spill::{self, Budget};
use anyhow::Result;

/// OLD held in memory, then the keys NEW added.
pub struct Join<'k> {
    keys: &'k [String],
    held: Held,
    matched: Matched,
}

impl<'k> Join<'k> {
    /// `keys` names the key columns in messages; `budget` says how much
    /// one table holds.
    pub fn new(keys: &'k [String], budget: &Budget) -> Join<'k> {
        Join {
            keys,
            held: Held::new(budget.table_max()),
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
            if budget.passed_by(held.bytes_with(r.key.len() + r.canonical.len())) {
                let mut p = Parts::new(budget)?;
                for i in 0..held.index.len() {
                    p.push(i as u64 + 1, held.index.key(i), &held.side(i))?;
                }
                *held = Held::new(budget.table_max());
                return Ok(Some(p));
            }
            held.hold(h, &r.key, &r.side(), Prior::None)?;
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
            if held.index.find(h, &r.key).is_none() && budget.passed_by(held.bytes_with(r.key.len())) {
                let p = leave_memory(held, old_rows, budget)?;
                *held = Held::new(budget.table_max());
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

fn at(r: &RowBuf) -> At {
    At {
        row: r.row,
        record: r.record,
    }
}
