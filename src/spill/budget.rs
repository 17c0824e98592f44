//! The engine's one knob, shared by its users: the memory a user holds
//! before it spills, how many partitions it spills into, and where their
//! temporary files go.

use super::file::{Task, Writer};
use super::open_files;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// What a user of the spill engine (grouping duplicates, a diff) may
/// hold in memory, and how it spills past that. Each user starts from its
/// own defaults ([`DuplicateOptions`](crate::DuplicateOptions)'s,
/// [`Diff::new`](crate::diff::Diff::new)'s).
#[derive(Debug, Clone)]
pub struct Budget {
    /// Bytes held in memory before spilling.
    pub memory: usize,
    /// Partitions of a spill (fewer under a low open-file limit).
    pub partitions: usize,
    /// Where temporary files go (the system's temporary directory when
    /// `None`).
    pub temp_dir: Option<PathBuf>,
}

impl Budget {
    /// `memory` bytes held before spilling into `partitions` partitions,
    /// in the system's temporary directory.
    pub const fn new(memory: usize, partitions: usize) -> Budget {
        Budget {
            memory,
            partitions,
            temp_dir: None,
        }
    }

    /// With `memory` bytes held before spilling.
    pub fn with_memory(mut self, memory: usize) -> Budget {
        self.memory = memory;
        self
    }

    /// With temporary files in `dir` (the system's when `None`).
    pub fn with_temp_dir(mut self, dir: Option<PathBuf>) -> Budget {
        self.temp_dir = dir;
        self
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.temp_dir.as_deref()
    }

    /// How many partitions a spill that holds `files_each` files open per
    /// partition may make: [`partitions`](Self::partitions), or fewer
    /// under a low open-file limit (fewer partitions only cost more
    /// splitting, or a larger partition).
    pub(crate) fn open_partitions(&self, files_each: usize) -> usize {
        (open_files::spill_files(self.partitions * files_each) / files_each).max(2)
    }

    /// `n` partition files of `task` in the budget's directory, each
    /// written through `buffer` bytes.
    pub(crate) fn writers(&self, task: Task, n: usize, buffer: usize) -> Result<Vec<Writer>> {
        (0..n).map(|_| Writer::new(task, self.dir(), buffer)).collect()
    }
}
