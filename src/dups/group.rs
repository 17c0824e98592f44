//! Grouping one partition: exact clusters by canonical bytes, in two passes
//! over its records, within a memory budget.
//!
//! 1. **Count.** A table keyed by canonical *bytes* (the hash only finds
//!    the slot; equal hashes with different bytes are different groups)
//!    gathers each canonical's count, first appearance and whether it was
//!    seen in more than one input or column. A table that outgrows the
//!    budget means too many distinct canonicals: the partition is split by
//!    the next level's hash into sub-partitions, grouped one at a time.
//!    Many repeats of few canonicals never need that: the table stays
//!    small however many records there are, and the records are streamed.
//! 2. **Emit.** Records are read again, in order of appearance, so a
//!    cluster's first member comes before the others; each member of a
//!    cluster (two or more) becomes a row with its variant against that
//!    first member, and rows go to sorted runs (`spill::RunBuf`).
//!
//! A partition whose file fits a quarter of the budget is read whole and
//! both passes run in memory; a larger one is streamed through a buffer.

use super::options::Options;
use super::record::{Held, Key, Row, RowKey, TASK, get_apart, get_apart_value, get_body, get_key, put_row};
use super::values::Values;
use crate::at::At;
use crate::clusters::{Summary, TopCluster, TopMember};
use crate::report::example_text;
use crate::spill::frame::get_frame;
use crate::spill::{Frames, Part, Run, RunBuf, RunStore, Table, Writer, bucket, level_hash, seq_frame};
use crate::variant::variant;
use anyhow::Result;
use rayon::prelude::*;
use std::ops::AddAssign;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a grouping went, for tests, benchmarks and `--verbose` output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Bytes the collector wrote to its partition files.
    pub spilled_bytes: u64,
    /// Partitions split again because their canonicals did not fit.
    pub repartitions: u64,
    /// Bytes written by those splits.
    pub repartitioned_bytes: u64,
    /// Partitions grouped a buffer at a time, too large to be read whole.
    pub streamed_partitions: u64,
    /// Sorted runs of rows made by `finish` (none when grouped in memory:
    /// its rows are made when written).
    pub runs: u64,
    /// Bytes written to the runs file (runs, and merged runs once written).
    pub run_bytes: u64,
}

impl EngineStats {
    /// Every byte written to temporary files.
    pub fn temp_bytes(&self) -> u64 {
        self.spilled_bytes + self.repartitioned_bytes + self.run_bytes
    }
}

/// Counts shared by the threads of one grouping.
#[derive(Default)]
pub(crate) struct Counters {
    pub repartitions: AtomicU64,
    pub repartitioned_bytes: AtomicU64,
    pub streamed: AtomicU64,
    pub runs: AtomicU64,
}

/// Levels of splitting before a partition is grouped whatever memory its
/// table takes (up to the table's limit): each level's hash is
/// independent, so only a hash that cannot tell canonicals apart (tests)
/// gets here.
const MAX_LEVEL: u32 = 8;

/// About the bytes of a row in a run.
const ROW_BYTES: usize = 64;

/// What every partition's grouping shares.
pub(super) struct Ctx<'a> {
    pub opts: &'a Options,
    /// Whether the blocks kept their values apart (only the top
    /// members' are read back, by `fill_apart`).
    pub apart: bool,
    /// The canonical's hash at the first level, made again for records
    /// read from partition files (tests give a degenerate one).
    pub hash: fn(&[u8]) -> u64,
    /// Memory for one partition at a time on one thread.
    pub per_thread: usize,
    pub runs: &'a RunStore,
    pub counters: &'a Counters,
    pub top: &'a TopSoFar,
}

/// The keys of the largest clusters any partition has counted so far, at
/// most `Options::top` of them: a partition's candidate behind all of them
/// cannot be among the run's, so it is not looked for.
#[derive(Default)]
pub(super) struct TopSoFar(Mutex<Vec<RowKey>>);

impl TopSoFar {
    /// Adds `keys` (a partition's candidates) and returns the `n`th best
    /// key so far, once `n` are known.
    fn offer(&self, keys: impl Iterator<Item = RowKey>, n: usize) -> Option<RowKey> {
        let mut best = self.0.lock().unwrap_or_else(|p| p.into_inner());
        best.extend(keys);
        best.sort_unstable();
        best.truncate(n);
        (n > 0 && best.len() == n).then(|| best[n - 1])
    }
}

/// A top cluster candidate with its place in the global order.
#[derive(Debug, Clone)]
pub(super) struct TopCand {
    pub key: RowKey,
    pub cluster: TopCluster,
    /// An audit's members, their values kept apart: filled once the run's
    /// top is known ([`fill_apart`]).
    apart: Vec<Apart>,
}

/// A top member whose value is kept apart: its number, its warnings, and
/// its canonical, replaced by its value once read (at once when it is
/// the canonical).
#[derive(Debug, Clone)]
struct Apart {
    seq: u64,
    warnings: crate::id::Warnings,
    value: Vec<u8>,
    read: bool,
}

/// Fills the values and variants of the top members an audit found
/// ([`TopCand::apart`]), reading the values not their canonical.
pub(super) fn fill_apart(top: &mut [TopCand], values: &Values, repair: bool) -> Result<()> {
    let seqs = top.iter().flat_map(|c| c.apart.iter().filter(|m| !m.read).map(|m| m.seq));
    let frames = values.get(seqs.collect())?;
    for c in top {
        let mut apart = std::mem::take(&mut c.apart);
        for m in apart.iter_mut().filter(|m| !m.read) {
            let frame = frames.get(&m.seq).ok_or_else(|| TASK.corrupt())?;
            m.value = get_apart_value(frame, &m.value).ok_or_else(|| TASK.corrupt())?;
        }
        let Some(first) = apart.first() else {
            continue;
        };
        for (member, m) in c.cluster.members.iter_mut().zip(&apart) {
            member.value = example_text(&m.value);
            member.variant = variant(&m.value, m.warnings, &first.value, first.warnings, repair);
        }
    }
    Ok(())
}

/// What grouping some partitions found; partitions add up with `+=`.
#[derive(Debug, Default)]
pub(super) struct PartOut {
    /// The counts; `values` and `top` are the collector's to fill.
    pub counts: Summary,
    /// The largest clusters, at most `top`, in file order.
    pub top: Vec<TopCand>,
    pub runs: Vec<Run>,
}

impl PartOut {
    /// Keeps the `n` first candidates in file order.
    pub fn keep_top(&mut self, n: usize) {
        self.top.sort_by_key(|c| c.key);
        self.top.truncate(n);
    }
}

impl AddAssign<PartOut> for PartOut {
    fn add_assign(&mut self, o: PartOut) {
        let (c, d) = (&mut self.counts, o.counts);
        c.unique += d.unique;
        c.clusters += d.clusters;
        c.values_in_clusters += d.values_in_clusters;
        c.records_in_clusters += d.records_in_clusters;
        c.across_inputs += d.across_inputs;
        c.across_columns += d.across_columns;
        // The caller cuts the top to its length (`keep_top`).
        self.top.extend(o.top);
        self.runs.extend(o.runs);
    }
}

/// Where a partition's records are read from.
pub(super) enum Source<'a> {
    /// The collector's blocks, never spilled.
    Held(&'a [Held]),
    /// A partition file read whole.
    Loaded(&'a [u8]),
    /// A partition file read a buffer at a time.
    Stream(&'a Part, usize),
}

impl Source<'_> {
    /// Calls `f` with the index, sequence number, key and body of every
    /// record whose index `want` takes (the others are only stepped over),
    /// in sequence order, until it returns false. `hash` makes the key's
    /// hash for records read from files.
    fn each(
        &self,
        hash: fn(&[u8]) -> u64,
        mut want: impl FnMut(usize) -> bool,
        mut f: impl FnMut(usize, u64, &Key<'_>, &[u8]) -> Result<bool>,
    ) -> Result<()> {
        let mut k = 0;
        match self {
            Source::Held(held) => {
                for h in *held {
                    for (i, (stored, body)) in h.block.records().enumerate() {
                        k += 1;
                        if want(k - 1) {
                            let key = get_key(body, |_| stored).ok_or_else(|| TASK.corrupt())?;
                            if !f(k - 1, h.base + i as u64, &key, body)? {
                                return Ok(());
                            }
                        }
                    }
                }
            }
            Source::Loaded(bytes) => {
                // Frames in memory, walked in place: most partitions are.
                let (mut pos, mut seq) = (0, 0);
                while pos < bytes.len() {
                    let frame = get_frame(bytes, &mut pos).ok_or_else(|| TASK.corrupt())?;
                    let (s, body) = seq_frame(TASK, frame, &mut seq)?;
                    k += 1;
                    if want(k - 1) {
                        let key = get_key(body, hash).ok_or_else(|| TASK.corrupt())?;
                        if !f(k - 1, s, &key, body)? {
                            break;
                        }
                    }
                }
            }
            Source::Stream(part, cap) => Self::frames(part.frames(*cap), hash, want, f)?,
        }
        Ok(())
    }

    fn frames(
        mut frames: Frames<'_>,
        hash: fn(&[u8]) -> u64,
        mut want: impl FnMut(usize) -> bool,
        mut f: impl FnMut(usize, u64, &Key<'_>, &[u8]) -> Result<bool>,
    ) -> Result<()> {
        let (mut k, mut seq) = (0, 0);
        while frames.advance()? {
            let (s, body) = seq_frame(TASK, frames.frame(), &mut seq)?;
            k += 1;
            if want(k - 1) {
                let key = get_key(body, hash).ok_or_else(|| TASK.corrupt())?;
                if !f(k - 1, s, &key, body)? {
                    break;
                }
            }
        }
        Ok(())
    }
}

const NO_SLOT: u32 = u32::MAX;

/// One canonical's facts from the count pass.
#[derive(Debug, Clone, Copy)]
struct Group {
    count: u64,
    /// Distinct records among its members: a member of another record
    /// than the one before adds one (a record's members are consecutive,
    /// as [`Block`](super::Block) says).
    records: u64,
    last_record: (u32, u64),
    first_seq: u64,
    first_input: u32,
    first_column: u32,
    /// Its index among the partition's clusters, once counted.
    slot: u32,
    multi_input: bool,
    multi_column: bool,
}

/// Distinct canonicals of a partition.
struct Counted {
    groups: Table<Group>,
    /// Each record's group, in order, when the records are in memory: the
    /// second pass then skips the records of no cluster (most of them)
    /// without decoding or looking them up.
    of_record: Vec<u32>,
}

impl Counted {
    /// A table of at most `max` bytes of canonicals (`Budget::table_max`).
    fn new(max: usize) -> Counted {
        Counted {
            groups: Table::new(max),
            of_record: Vec::new(),
        }
    }

    fn bytes(&self) -> usize {
        self.groups.bytes() + self.of_record.capacity() * 4
    }

    /// Counts one member: its group, and whether it was the first of its
    /// canonical; `None` when the table is full.
    #[inline]
    fn add(&mut self, seq: u64, k: &Key<'_>) -> Option<(u32, bool)> {
        let (i, new) = self.groups.find_or_push(k.hash, k.canonical, || Group {
            count: 1,
            records: 1,
            last_record: (k.input, k.record),
            first_seq: seq,
            first_input: k.input,
            first_column: k.column,
            slot: NO_SLOT,
            multi_input: false,
            multi_column: false,
        })?;
        if !new {
            let g = self.groups.get_mut(i);
            g.count += 1;
            if g.last_record != (k.input, k.record) {
                g.last_record = (k.input, k.record);
                g.records += 1;
            }
            g.multi_input |= g.first_input != k.input;
            g.multi_column |= g.first_column != k.column;
        }
        Some((i as u32, new))
    }
}

/// Pass 1: the table of `src`, or `None` once it passes `limit` bytes or
/// the budget's `table_max`. `records`: how many `src` holds, when known.
fn count(ctx: &Ctx<'_>, src: &Source<'_>, limit: usize, records: Option<usize>) -> Result<Option<Counted>> {
    let mut t = Counted::new(ctx.opts.budget.table_max());
    if let Some(n) = records {
        // At most every record a canonical, and no more than fit.
        let per = Table::<Group>::ENTRY_BYTES + 4;
        t.groups.reserve(n.min(limit / per));
        t.of_record.reserve_exact(n);
    }
    let track = records.is_some();
    let mut over = false;
    src.each(ctx.hash, |_| true, |_, seq, key, _| {
        let Some((i, new)) = t.add(seq, key) else {
            over = true;
            return Ok(false);
        };
        if track {
            t.of_record.push(i);
        }
        // New canonicals are what grows the table: checked on each.
        if new && t.bytes() > limit {
            over = true;
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(if over || t.bytes() > limit { None } else { Some(t) })
}

/// What pass 2 makes of a partition's cluster members.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Make {
    /// The top clusters' members only: the rows are made when the file is
    /// written (held blocks), or not at all when it is not wanted.
    Top,
    /// Rows too, in runs, the only one kept in memory.
    RowsInMemory,
    /// Rows too, in runs of the runs file.
    Rows,
}

/// A cluster's first member, met first in pass 2.
struct First {
    at: At,
    warnings: crate::id::Warnings,
    value: (usize, usize),
}

/// Pass 2 for a counted partition: its clusters' facts, top candidates and
/// what `make` asks. `budget` is what this partition may hold; `used` of it
/// is taken by its records.
fn emit(ctx: &Ctx<'_>, src: &Source<'_>, t: &mut Counted, budget: usize, used: usize, make: Make) -> Result<PartOut> {
    let mut out = PartOut::default();
    let c = &mut out.counts;
    c.unique = t.groups.len() as u64;
    let mut clusters: Vec<u32> = Vec::new();
    for (i, g) in t.groups.values_mut().enumerate() {
        if g.records < 2 {
            continue;
        }
        g.slot = clusters.len() as u32;
        clusters.push(i as u32);
        c.clusters += 1;
        c.values_in_clusters += g.count;
        c.records_in_clusters += g.records;
        c.across_inputs += u64::from(g.multi_input);
        c.across_columns += u64::from(g.multi_column);
    }
    if clusters.is_empty() {
        return Ok(out);
    }

    // The partition's own largest clusters: the only ones that can be
    // among the run's.
    let key_of = |i: u32| {
        let g = t.groups.get(i as usize);
        RowKey::new(g.records, g.first_seq, 0)
    };
    let n_top = ctx.opts.top.min(clusters.len());
    let mut top_of_slot: Vec<u32> = Vec::new();
    if n_top > 0 {
        let mut best = clusters.clone();
        if best.len() > n_top {
            best.select_nth_unstable_by_key(n_top - 1, |&i| key_of(i));
            best.truncate(n_top);
        }
        best.sort_unstable_by_key(|&i| key_of(i));
        // Keys are distinct (a cluster's first_seq is its own), so one
        // behind the bound has `top` larger clusters before it.
        if let Some(bound) = ctx.top.offer(best.iter().map(|&i| key_of(i)), ctx.opts.top) {
            best.retain(|&i| key_of(i) <= bound);
        }
        top_of_slot = vec![NO_SLOT; clusters.len()];
        for (k, &i) in best.iter().enumerate() {
            let g = t.groups.get(i as usize);
            top_of_slot[g.slot as usize] = k as u32;
            out.top.push(TopCand {
                key: key_of(i),
                cluster: TopCluster {
                    canonical: String::from_utf8_lossy(t.groups.key(i as usize)).into_owned(),
                    count: g.count,
                    records: g.records,
                    first: At::default(),
                    members: Vec::new(),
                },
                apart: Vec::new(),
            });
        }
    }
    drop(clusters);
    if make == Make::Top && out.top.is_empty() {
        return Ok(out);
    }

    let mut firsts: Vec<Option<First>> = Vec::new();
    firsts.resize_with(out.counts.clusters as usize, || None);
    let mut first_values: Vec<u8> = Vec::new();
    let floor = (budget / 8).max(1024);
    // Room for the partition's rows, so the buffer does not regrow (and
    // copy) as they come; within the floor, keys included, so that room
    // alone never cuts a run.
    let rows = if make == Make::Top { 0 } else { out.counts.values_in_clusters as usize };
    let mut buf = RunBuf::with_capacity(rows.min(floor / (2 * ROW_BYTES)), ROW_BYTES);
    let repair = ctx.opts.repair;
    // Records of no cluster (most), or of no top cluster when only those
    // are wanted, are stepped over without a call when their group is known.
    let t = &t;
    let wanted = |k: usize| {
        t.of_record.get(k).is_none_or(|&i| {
            let g = t.groups.get(i as usize);
            g.records >= 2 && (make != Make::Top || top_of_slot.get(g.slot as usize).is_some_and(|&s| s != NO_SLOT))
        })
    };
    let mut scratch = Vec::new();
    // A record whose group is known is not looked up: its hash is not made.
    let hash = if t.of_record.is_empty() { ctx.hash } else { |_: &[u8]| 0 };
    src.each(hash, wanted, |k, seq, key, body| {
        let known = t.of_record.get(k).map(|&i| i as usize);
        let i = match known {
            Some(i) => i,
            None => t.groups.find(key.hash, key.canonical).ok_or_else(|| TASK.corrupt())?,
        };
        let g = t.groups.get(i);
        if g.records < 2 {
            return Ok(true);
        }
        let slot = g.slot as usize;
        let top = top_of_slot.get(slot).copied().filter(|&k| k != NO_SLOT);
        if make == Make::Top && top.is_none() {
            return Ok(true);
        }
        if ctx.apart {
            // Only top members, their values apart: filled in later.
            let (m, same) = get_apart(body).ok_or_else(|| TASK.corrupt())?;
            let c = &mut out.top[top.ok_or_else(|| TASK.corrupt())? as usize];
            if seq == g.first_seq {
                c.cluster.first = m.at;
            }
            if c.cluster.members.len() < ctx.opts.top_members {
                c.cluster.members.push(TopMember {
                    at: m.at,
                    value: String::new(),
                    variant: crate::variant::Variant::ALL[0],
                });
                c.apart.push(Apart {
                    seq,
                    warnings: m.warnings,
                    value: m.canonical.to_vec(),
                    read: same,
                });
            }
            return Ok(true);
        }
        let m = get_body(body, &mut scratch).ok_or_else(|| TASK.corrupt())?;
        if seq == g.first_seq {
            let start = first_values.len();
            first_values.extend_from_slice(m.value);
            firsts[slot] = Some(First {
                at: m.at,
                warnings: m.warnings,
                value: (start, first_values.len()),
            });
        }
        let f = firsts[slot].as_ref().ok_or_else(|| TASK.corrupt())?;
        let v = variant(
            m.value,
            m.warnings,
            &first_values[f.value.0..f.value.1],
            f.warnings,
            repair,
        );
        if make != Make::Top {
            let row = Row {
                records: g.records,
                count: g.count,
                first_seq: g.first_seq,
                seq,
                first_record: f.at.record,
                variant: v,
                at: m.at,
                canonical: m.canonical,
                value: m.value,
            };
            buf.push(row.key(), |rows| put_row(rows, &row, Some(body)));
        }
        if let Some(k) = top {
            let c = &mut out.top[k as usize].cluster;
            if seq == g.first_seq {
                c.first = m.at;
            }
            if c.members.len() < ctx.opts.top_members {
                c.members.push(TopMember {
                    at: m.at,
                    value: example_text(m.value),
                    variant: v,
                });
            }
        }
        let held =
            used + t.bytes() + firsts.capacity() * std::mem::size_of::<Option<First>>() + first_values.capacity();
        if buf.bytes() > budget.saturating_sub(held).max(floor) {
            out.runs.push(buf.write(ctx.runs)?);
        }
        Ok(true)
    })?;
    if !buf.is_empty() {
        out.runs.push(if make == Make::RowsInMemory && out.runs.is_empty() {
            buf.into_mem()
        } else {
            buf.write(ctx.runs)?
        });
    }
    ctx.counters.runs.fetch_add(out.runs.len() as u64, Ordering::Relaxed);
    Ok(out)
}

/// The collector's blocks grouped in memory, their rows not made yet.
pub(super) struct HeldGroups {
    held: Vec<Held>,
    bytes: usize,
    table: Counted,
}

/// Groups the collector's blocks in memory, within `budget` bytes (their
/// own included): the summary's part, and what makes the rows later. The
/// blocks back when their canonicals need more: the caller spills them and
/// groups the partitions.
pub(super) fn group_held(
    ctx: &Ctx<'_>,
    held: Vec<Held>,
    bytes: usize,
    budget: usize,
) -> Result<Result<(PartOut, HeldGroups), Vec<Held>>> {
    let src = Source::Held(&held);
    let records = held.iter().map(|h| h.block.len() as usize).sum();
    let Some(mut table) = count(ctx, &src, budget.saturating_sub(bytes), Some(records))? else {
        return Ok(Err(held));
    };
    let out = emit(ctx, &src, &mut table, budget, bytes, Make::Top)?;
    Ok(Ok((out, HeldGroups { held, bytes, table })))
}

impl HeldGroups {
    /// The rows, sorted: one run, in memory unless `budget` is too small.
    pub fn runs(mut self, ctx: &Ctx<'_>, budget: usize) -> Result<Vec<Run>> {
        let src = Source::Held(&self.held);
        Ok(emit(ctx, &src, &mut self.table, budget, self.bytes, Make::RowsInMemory)?.runs)
    }
}

/// A thread's memory for grouping the partition `files`: its share of the
/// budget, or, when the largest partition needs more to be counted
/// without being split again (streamed: its table of distinct
/// canonicals, at most one a record, grown by doubling, and a read
/// buffer), up to twice the whole `memory`. The blocks the scan held are gone by then, and a split
/// writes and reads a partition once more: at 10^8 values every one of
/// the 512 partitions (about 15 MB each) needed one under a thread's
/// share, and still did under the whole budget.
pub(super) fn per_thread(share: usize, memory: usize, files: &[Part]) -> usize {
    let entry = 2 * Table::<Group>::ENTRY_BYTES as u64;
    let largest = files.iter().map(|p| p.bytes.saturating_add(p.records.saturating_mul(entry))).max();
    let needs = usize::try_from(largest.unwrap_or(0)).unwrap_or(usize::MAX);
    share.max(needs.min(memory.saturating_mul(2)))
}

/// Groups one partition file at `level` (0: the collector's partitions),
/// splitting it when its canonicals do not fit.
fn group_file(ctx: &Ctx<'_>, part: Part, level: u32) -> Result<PartOut> {
    if part.records == 0 {
        return Ok(PartOut::default());
    }
    let budget = ctx.per_thread;
    let make = if ctx.opts.file { Make::Rows } else { Make::Top };
    // A partition that fits a quarter of the budget is read whole.
    let loaded = if part.bytes <= (budget / 4) as u64 { Some(part.read()?) } else { None };
    let (src, used, records) = match &loaded {
        Some(bytes) => (Source::Loaded(bytes), bytes.len(), Some(part.records as usize)),
        None => {
            let cap = (budget / 16).clamp(256, 1 << 20);
            (Source::Stream(&part, cap), cap, None)
        }
    };
    let limit = if level >= MAX_LEVEL { usize::MAX } else { budget.saturating_sub(used) };
    let counted = match count(ctx, &src, limit, records)? {
        Some(mut t) => {
            ctx.counters.streamed.fetch_add(u64::from(loaded.is_none()), Ordering::Relaxed);
            Some(emit(ctx, &src, &mut t, budget, used, make)?)
        }
        None => None,
    };
    drop(loaded);
    if let Some(out) = counted {
        return Ok(out);
    }
    // Past the last level only a full table gets here: splitting no more.
    if level >= MAX_LEVEL {
        return Err(TASK.full());
    }
    let subs = split(ctx, &part, level + 1)?;
    drop(part);
    group_files(ctx, subs, level + 1)
}

/// Groups partition files at `level` in parallel, merging what they find.
pub(super) fn group_files(ctx: &Ctx<'_>, parts: Vec<Part>, level: u32) -> Result<PartOut> {
    parts
        .into_par_iter()
        .map(|p| group_file(ctx, p, level))
        .try_reduce(PartOut::default, |mut a, b| {
            a += b;
            a.keep_top(ctx.opts.top);
            Ok(a)
        })
}

/// Splits a partition by `level`'s hash into partitions of about a quarter
/// of a thread's budget (twice as many as needed, at most the budget's
/// partitions), sharing one new file.
fn split(ctx: &Ctx<'_>, part: &Part, level: u32) -> Result<Vec<Part>> {
    let fit = (ctx.per_thread / 4).max(1) as u64;
    let n = ((part.bytes / fit + 1) * 2).clamp(2, ctx.opts.budget.partitions.max(2) as u64) as usize;
    let buffer = (ctx.per_thread / 2 / n).clamp(512, 64 * 1024);
    let mut writers = ctx.opts.budget.writers(TASK, n, buffer, ctx.opts.file)?;
    let cap = (ctx.per_thread / 4).clamp(256, 1 << 20);
    // The first level's hash is not needed: a cheap one stands in.
    Source::Stream(part, cap).each(|_| 0, |_| true, |_, seq, k, body| {
        writers[bucket(level_hash(level, k.canonical), n)].push_seq(seq, body)?;
        Ok(true)
    })?;
    ctx.counters.repartitions.fetch_add(1, Ordering::Relaxed);
    ctx.counters
        .repartitioned_bytes
        .fetch_add(writers.iter().map(Writer::bytes).sum(), Ordering::Relaxed);
    writers.into_iter().map(Writer::finish).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_values_are_cut_at_a_character() {
        // The top members' values are shown as the report's examples: cut
        // at 200 bytes.
        assert_eq!(example_text(b"10.1000/abc"), "10.1000/abc");
        let long = format!("10.1000/{}", "\u{e9}".repeat(200));
        let s = example_text(long.as_bytes());
        assert!(s.ends_with('…') && !s.contains('\u{fffd}'), "{s}");
        assert!(s.len() <= 200 + '…'.len_utf8());
        let exact = "x".repeat(200);
        assert_eq!(example_text(exact.as_bytes()), exact);
    }
}
