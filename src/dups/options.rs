//! How a grouping runs: its memory, partitions and temporary files, and
//! what it makes.

use std::path::PathBuf;

/// How the engine runs; the defaults are what `scan` uses.
#[derive(Debug, Clone)]
pub struct Options {
    /// Bytes of values held in memory before spilling, and the memory the
    /// grouping may use at once (shared by its threads).
    pub memory: usize,
    /// Partitions of the spill, and of each further split.
    pub partitions: usize,
    /// Whether the run repairs values (`--repair`), for the variant rule.
    pub repair: bool,
    /// Clusters in [`Summary::top`].
    pub top: usize,
    /// Members shown for each of them.
    pub top_members: usize,
    /// Where temporary files go (default: the system's temporary directory).
    pub temp_dir: Option<PathBuf>,
    /// Whether the duplicates file is wanted ([`Grouped::write`]): a
    /// collection that spilled makes its rows while grouping, and only
    /// then; without them an audit groups for the summary alone.
    pub file: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            // Beside a scan's ~265 MB at 10M rows, within its 300 MB.
            memory: 16 << 20,
            // A partition's distinct canonicals must fit a thread's share
            // of `memory` or it is split again (written and read once
            // more): 512 keep 20M of them (10M works' three paths) whole.
            // Open files: these, and a split's few per thread; fewer
            // under a low limit (`spill::partitions`).
            partitions: 512,
            repair: false,
            top: crate::clusters::TOP,
            top_members: crate::clusters::TOP_MEMBERS,
            temp_dir: None,
            file: true,
        }
    }
}
