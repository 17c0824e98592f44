//! The engine's one knob, shared by its users: the memory a user holds
//! before it spills, how many partitions it spills into, where their
//! temporary files go, and the most one table holds.

use super::file::{Task, Writer};
use super::table;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// What a user of the spill engine (grouping duplicates, a diff) may
/// hold in memory, and how it spills past that. Each user starts from its
/// own defaults ([`DuplicateOptions`](crate::DuplicateOptions)'s,
/// [`Diff::new`](crate::diff::Diff::new)'s).
#[derive(Debug, Clone)]
pub struct Budget {
    /// Bytes held in memory before spilling; grouping a spill takes up to
    /// twice this much on each thread, where a partition needs it.
    pub memory: usize,
    /// Partitions of a spill.
    pub partitions: usize,
    /// Where temporary files go (the system's temporary directory when
    /// `None`).
    pub temp_dir: Option<PathBuf>,
    /// The most one [`Table`](super::Table) of the user's holds: its
    /// limit, or a smaller one in tests, so that what a user does before
    /// a table is full is tested on a few keys.
    table_max: usize,
}

impl Budget {
    /// `memory` bytes held before spilling into `partitions` partitions,
    /// in the system's temporary directory.
    pub const fn new(memory: usize, partitions: usize) -> Budget {
        Budget {
            memory,
            partitions,
            temp_dir: None,
            table_max: table::MAX,
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

    /// With tables of at most `max` bytes of keys, and keys.
    #[cfg(test)]
    pub(crate) fn with_table_max(mut self, max: usize) -> Budget {
        self.table_max = max;
        self
    }

    pub(crate) fn table_max(&self) -> usize {
        self.table_max
    }

    /// Whether holding `bytes` passes the memory; a table's `usize::MAX`
    /// ([`Table::bytes_with`](super::Table::bytes_with): it is full)
    /// passes any.
    pub(crate) fn passed_by(&self, bytes: usize) -> bool {
        bytes > self.memory || bytes == usize::MAX
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.temp_dir.as_deref()
    }

    /// Why no temporary file can be made in the directory the budget was
    /// given (none asked of the system's): a run checks it before it
    /// starts, so a wrong `--temp-dir` fails at once rather than at the
    /// first spill, which a small input never reaches.
    /// The error gives the directory and the OS reason.
    pub fn check_temp_dir(&self) -> std::result::Result<(), (&Path, String)> {
        let Some(dir) = self.dir() else { return Ok(()) };
        tempfile::tempfile_in(dir).map(drop).map_err(|e| (dir, crate::io::atomic::os_reason(&e)))
    }

    /// `n` partitions of `task`, sharing one new file in the budget's
    /// directory, each written through `buffer` bytes; `give_back`: see
    /// [`Spill::new`](super::Spill::new).
    pub(crate) fn writers(&self, task: Task, n: usize, buffer: usize, give_back: bool) -> Result<Vec<Writer>> {
        task.writers(self.dir(), n, buffer, give_back)
    }
}
