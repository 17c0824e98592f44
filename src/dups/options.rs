//! How a grouping runs: its spill budget, and what it makes.

use crate::spill::Budget;

/// How the engine runs; the defaults are what `scan` uses.
#[derive(Debug, Clone)]
pub struct Options {
    /// `memory`: bytes of values held before spilling, and the memory the
    /// grouping may use at once (shared by its threads); `partitions`: of
    /// the spill, and of each further split.
    pub budget: Budget,
    /// Whether the run repairs values (`--repair`), for the variant rule.
    pub repair: bool,
    /// Clusters in [`Summary::top`](crate::clusters::Summary::top).
    pub top: usize,
    /// Members shown for each of them.
    pub top_members: usize,
    /// Whether the duplicates file is wanted
    /// ([`Grouped::write`](crate::Grouped::write)): a collection that
    /// spilled makes its rows while grouping, and only then; without them
    /// an audit groups for the summary alone.
    pub file: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            // Memory: beside a scan's ~265 MB at 10M rows, within its 300
            // MB. Partitions: a partition's distinct canonicals must fit
            // a thread's share of the memory or it is split again
            // (written and read once more): 512 keep 20M of them (10M
            // works' three paths) whole.
            budget: Budget::new(16 << 20, 512),
            repair: false,
            top: crate::clusters::TOP,
            top_members: crate::clusters::TOP_MEMBERS,
            file: true,
        }
    }
}
