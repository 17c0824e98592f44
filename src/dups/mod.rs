//! Duplicate clusters: every valid value sharing a canonical with another,
//! found exactly (by canonical bytes, never by a hash alone) in bounded
//! memory at any size, and written as the duplicates file, a row per
//! member, clusters numbered by size, then by first appearance.
//!
//! Workers fill a [`Block`] each, hashing each canonical once; the
//! [`Collector`] takes blocks in input order and holds them up to
//! [`Options::memory`], then spills them to hash-partitioned anonymous
//! temporary files (the `spill` engine). [`Collector::finish`] groups the
//! held blocks in memory when their table fits beside them (their rows are
//! then made only by [`Grouped::write`], so an audit makes none);
//! otherwise it groups one partition at a time per thread (splitting one
//! whose canonicals do not fit), and sorts each partition's cluster
//! members into runs; [`Grouped::write`] merges the runs into the file's
//! global order (clusters never span partitions).
//!
//! - `record`: the compact byte form of a member, a [`Block`].
//! - `collect`: the [`Collector`] and its [`Options`].
//! - `group`: one partition's two passes and its split.
//! - `output`: the duplicates file; the [`Summary`] the report shows, and
//!   each member's `variant`, are the core's (`clusters`, `variant`).

mod collect;
mod group;
mod output;
mod record;

#[cfg(test)]
mod tests;

pub use collect::{Collector, Options};
pub use crate::clusters::{Summary, TopCluster, TopMember};
pub use output::Grouped;
pub use record::Block;

use std::sync::atomic::AtomicU64;

/// What the engine's errors say this spill is for.
const TASK: crate::spill::Task = crate::spill::Task("grouping duplicates");

/// Where a value was read: the reference every value of a scan carries.
pub use crate::at::At;

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

/// A block appended to the collector, its values numbered from `base`.
pub(crate) struct Held {
    pub base: u64,
    pub block: Block,
}

/// Counts shared by the threads of one grouping.
#[derive(Default)]
pub(crate) struct Counters {
    pub repartitions: AtomicU64,
    pub repartitioned_bytes: AtomicU64,
    pub streamed: AtomicU64,
    pub runs: AtomicU64,
}
