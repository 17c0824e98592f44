//! The run's collection of valid values: blocks appended in input order
//! (which numbers their values, and so defines "first appearance"), held
//! in memory up to the budget, then spilled to hash-partitioned anonymous
//! temporary files; and [`Collector::finish`], which groups them.

use super::group::{self, Counters, Ctx, EngineStats, TopSoFar};
use super::options::Options;
use super::output::{Grouped, Rows};
use super::record::{Block, Held, TASK};
use super::values::Values;
use crate::clusters::{Repeated, Summary};
use crate::spill::{RunStore, Writer, bucket};
use anyhow::{Result, anyhow};
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// The smallest budget a thread gets, whatever `memory` says: a few
/// records' worth, so tiny budgets (tests) still make progress.
const MIN_THREAD_BUDGET: usize = 1024;

/// The run's collection. Blocks are appended in input order (the order
/// defines "first appearance"); past `memory` bytes it spills to
/// hash-partitioned anonymous temp files.
pub struct Collector {
    opts: Options,
    /// Whether blocks keep their values apart (`Block::with_capacity`):
    /// a run writing no duplicates file, unless `keeping_values`.
    apart: bool,
    /// The first level's hash; `None` for the real one (tests inject a
    /// degenerate one to prove that equal hashes never merge clusters).
    hash: Option<fn(&[u8]) -> u64>,
    held: Vec<Held>,
    held_bytes: usize,
    next_seq: u64,
    /// The values an audit's blocks keep apart.
    values: Values,
    /// The blocks' own counts of canonicals their records repeat.
    repeated: Repeated,
    parts: Option<Vec<Writer>>,
    spilled: u64,
    /// Set by a failed spill: the partitions are incomplete, so no count
    /// may be made of them.
    failed: Option<String>,
}

impl Collector {
    /// A spill is one file whatever its partitions (`spill::file`), so
    /// the open-file limit does not bound them.
    pub fn new(opts: Options) -> Collector {
        Collector {
            apart: !opts.file,
            opts,
            hash: None,
            held: Vec::new(),
            held_bytes: 0,
            next_seq: 0,
            values: Values::default(),
            repeated: Repeated::default(),
            parts: None,
            spilled: 0,
            failed: None,
        }
    }

    /// Blocks keep every value in its body, as for the duplicates file,
    /// though none is written: beside an output, whose writer's memory
    /// counts more than the search values apart save.
    pub fn keeping_values(mut self) -> Collector {
        self.apart = false;
        self
    }

    /// With `hash` in place of the canonical hash (tests).
    #[cfg(test)]
    pub(super) fn with_hash(mut self, hash: fn(&[u8]) -> u64) -> Collector {
        self.hash = Some(hash);
        self
    }

    #[cfg(test)]
    /// Values appended so far.
    pub fn len(&self) -> u64 {
        self.next_seq
    }

    #[cfg(any(test, feature = "internals"))]
    /// Bytes written to partition files so far (0 while all fits in memory).
    pub fn spilled(&self) -> u64 {
        self.spilled
    }

    pub fn append(&mut self, mut b: Block) -> Result<()> {
        self.check()?;
        self.repeated += b.finish_records();
        if b.is_empty() {
            return Ok(());
        }
        if b.values.is_some() != self.apart {
            return Err(anyhow!("{}: a block's values are apart exactly when the collector keeps them so", TASK.0));
        }
        if let Some(hash) = self.hash {
            b.rehash(hash);
        }
        // A worker's buffers grow by doubling: what they do not use is
        // given back, so the budget counts what is held.
        b.shrink();
        let n = b.len();
        self.held_bytes += b.bytes();
        if let Some(values) = b.values.take() {
            self.values.push(self.next_seq, values);
        }
        self.held.push(Held {
            base: self.next_seq,
            block: b,
        });
        self.next_seq += n;
        if self.held_bytes > self.opts.budget.memory {
            self.spill()?;
        }
        Ok(())
    }

    fn check(&self) -> Result<()> {
        self.failed.as_ref().map_or(Ok(()), |e| Err(anyhow!("{e}")))
    }

    /// Moves the held blocks to the partition files, one thread per range
    /// of partitions (each reads every record's hash, and writes its own).
    fn spill(&mut self) -> Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let res = (|| -> Result<u64> {
            let budget = &self.opts.budget;
            let n = budget.partitions.max(2);
            if self.parts.is_none() {
                // A file's buffer: 16 KiB, less for small budgets.
                let buffer = (budget.memory / 4 / n).clamp(512, 16 * 1024);
                // The disk goes back as partitions are grouped only when
                // runs of the duplicates file are written meanwhile.
                self.parts = Some(budget.writers(TASK, n, buffer, self.opts.file)?);
            }
            let parts = self.parts.as_mut().expect("created above");
            let before: u64 = parts.iter().map(Writer::bytes).sum();
            let chunk = n.div_ceil(rayon::current_num_threads().max(1));
            let held = &self.held;
            parts.par_chunks_mut(chunk).enumerate().try_for_each(|(c, ws)| {
                let lo = c * chunk;
                for h in held {
                    for (i, (hash, body)) in h.block.records().enumerate() {
                        let p = bucket(hash, n);
                        if (lo..lo + ws.len()).contains(&p) {
                            ws[p - lo].push_seq(h.base + i as u64, body)?;
                        }
                    }
                }
                Ok::<(), anyhow::Error>(())
            })?;
            let values = self.values.spill(budget)?;
            Ok(parts.iter().map(Writer::bytes).sum::<u64>() - before + values)
        })();
        match res {
            Ok(bytes) => {
                self.spilled += bytes;
                self.held.clear();
                self.held_bytes = 0;
                Ok(())
            }
            Err(e) => {
                self.failed = Some(e.to_string());
                self.parts = None;
                Err(e)
            }
        }
    }

    /// Groups partition by partition (rayon, at most a partition per thread
    /// in memory). A collection that never spilled, and whose canonicals
    /// fit beside it, is grouped in memory without a temporary file, and
    /// its rows are made only if the file is written.
    pub fn finish(mut self) -> Result<Grouped> {
        self.check()?;
        let counters = Counters::default();
        let top = TopSoFar::default();
        let store = RunStore::new(TASK, self.opts.budget.temp_dir.clone());
        let threads = rayon::current_num_threads().max(1);
        let memory = self.opts.budget.memory.max(MIN_THREAD_BUDGET);
        let values = self.next_seq;
        let opts = self.opts.clone();
        let ctx = Ctx {
            opts: &opts,
            apart: self.apart,
            hash: self.hash.unwrap_or(crate::spill::hash),
            per_thread: (memory / threads).max(MIN_THREAD_BUDGET),
            runs: &store,
            counters: &counters,
            top: &top,
        };
        let mut held_groups = None;
        if self.parts.is_none() {
            match group::group_held(&ctx, std::mem::take(&mut self.held), self.held_bytes, memory)? {
                Ok((out, groups)) => held_groups = Some((out, groups)),
                Err(held) => self.held = held,
            }
        }
        let (mut out, rows) = match held_groups {
            Some((out, groups)) => (out, Rows::Held(groups)),
            None => {
                self.spill()?;
                let parts = self.parts.take().unwrap_or_default();
                let files = parts.into_iter().map(Writer::finish).collect::<Result<Vec<_>>>()?;
                let ctx = Ctx {
                    per_thread: group::per_thread(ctx.per_thread, memory, &files),
                    ..ctx
                };
                let mut out = group::group_files(&ctx, files, 0)?;
                let runs = std::mem::take(&mut out.runs);
                (out, if opts.file { Rows::Runs(runs) } else { Rows::NotMade })
            }
        };
        out.keep_top(opts.top);
        if self.apart {
            group::fill_apart(&mut out.top, &self.values, opts.repair)?;
        }
        let stats = EngineStats {
            spilled_bytes: self.spilled,
            repartitions: counters.repartitions.load(Ordering::Relaxed),
            repartitioned_bytes: counters.repartitioned_bytes.load(Ordering::Relaxed),
            streamed_partitions: counters.streamed.load(Ordering::Relaxed),
            runs: counters.runs.load(Ordering::Relaxed),
            run_bytes: store.bytes(),
        };
        let summary = Summary {
            values,
            repeated_in_record: self.repeated,
            top: out.top.into_iter().map(|c| c.cluster).collect(),
            ..out.counts
        };
        Ok(Grouped {
            summary,
            rows,
            store,
            opts,
            memory,
            stats,
        })
    }
}
