//! Duplicate clusters: every valid value sharing a canonical with another,
//! found exactly (by canonical bytes, never by a hash alone) in bounded
//! memory at any size, and written as the duplicates file, a row per
//! member, clusters numbered by size, then by first appearance.
//!
//! Workers fill a [`Block`] each, hashing each canonical once; the
//! [`Collector`] takes blocks in input order and holds them up to
//! the memory of [`Options::budget`], then spills them to hash-partitioned anonymous
//! temporary files (the `spill` engine). [`Collector::finish`] groups the
//! held blocks in memory when their table fits beside them (their rows are
//! then made only by [`Grouped::write`], so an audit makes none);
//! otherwise it groups one partition at a time per thread (splitting one
//! whose canonicals do not fit), and sorts each partition's cluster
//! members into runs; [`Grouped::write`] merges the runs into the file's
//! global order (clusters never span partitions).
//!
//! - `record`: the compact byte form of a member, a [`Block`].
//! - `options`: the [`Options`] of a grouping.
//! - `collect`: the [`Collector`].
//! - `group`: one partition's two passes and its split; the
//!   [`EngineStats`] of a grouping.
//! - `values`: the values an audit keeps apart from its bodies.
//! - `output`: the duplicates file; the [`Summary`](crate::clusters::Summary) the report shows, and
//!   each member's `variant`, are the core's (`clusters`, `variant`).

mod collect;
mod group;
mod options;
mod output;
mod record;
mod values;

#[cfg(test)]
mod tests;

/// Where a value was read: the reference every value of a scan carries
/// (named by the internals' examples).
#[cfg(feature = "internals")]
pub use crate::at::At;
pub use collect::Collector;
#[cfg(feature = "internals")]
pub use group::EngineStats;
pub use options::Options;
pub use output::Grouped;
pub use record::Block;
