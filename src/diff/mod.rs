//! `hdlscan diff`: what changed between two enriched outputs of `scan`
//! (last night's and tonight's), by key.
//!
//! - `layout`: the key columns and SPEC's columns in a header; the shape.
//! - `read`: any output format of `scan` (CSV, TSV, JSON Lines, Parquet,
//!   Arrow IPC), row by row as text; OLD and NEW may differ in format.
//! - `row`: a row's key and compared cells; OLD's compact form.
//! - `change`: the six changes and the rule that classifies a pair.
//! - `held`: rows held by key (the `spill` engine's table), met by NEW's;
//!   duplicate keys.
//! - `join`: OLD's rows held in memory, NEW streamed past them.
//! - `parts`: the same join a partition at a time, in the `spill`
//!   engine's partition files, when OLD's rows would pass their budget;
//!   `record`: the byte form of its rows and changes.
//! - `report`: the typed report and its tally; `gates`: `--fail-if`.
//! - `summary`: the report on stderr; `page`: as Markdown or HTML, one printer.
//! - `output`: `-o`, a row per change.
//!
//! Memory: OLD's rows are held (its keys, canonicals and interned codes)
//! up to a budget ([`Diff::BUDGET`], 64 MiB), NEW is streamed; past the
//! budget both are partitioned into temporary files; see README's
//! `hdlscan diff`.
//!
//! ```no_run
//! use hdlscan::diff::Diff;
//! use hdlscan::InputSpec;
//!
//! let keys = vec!["id".to_string()];
//! let outcome = Diff::new(&keys).run(
//!     &InputSpec::parse("yesterday.parquet"),
//!     &InputSpec::parse("today.csv"),
//!     |change| Ok(println!("{}", change.change.as_str())),
//! )?;
//! println!("{} unchanged", outcome.matched.unchanged);
//! # Ok::<(), anyhow::Error>(())
//! ```

mod change;
mod gates;
mod held;
mod join;
mod layout;
mod output;
mod page;
mod parts;
mod read;
mod record;
mod report;
mod row;
mod summary;

#[cfg(test)]
mod tests;

pub use change::{Change, ChangeRow};
pub use gates::Gate;
pub use held::{DuplicateKey, Matched};
pub use layout::LayoutError;
pub use output::{ChangeWriter, schema as changes_schema};
pub use report::{DiffMade, DiffReport, DiffRun, FileReport, Runs, ScanRun, Tally};

use crate::io::source::InputSpec;
use crate::spill::Budget;
use anyhow::Result;
use join::Join;
use layout::Layout;
use read::Table;

/// A diff to run: the key columns, and where SPEC's columns are.
#[derive(Debug, Clone)]
pub struct Diff<'k> {
    keys: &'k [String],
    column_prefix: String,
    budget: Budget,
}

/// A finished diff: both files, the counts and examples.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// OLD: its path, format, shape and rows.
    pub old: FileReport,
    /// NEW: its path, format, shape and rows.
    pub new: FileReport,
    /// The changes counted, with examples.
    pub tally: Tally,
    /// Keys matched and unchanged, duplicates, partitions.
    pub matched: Matched,
}

impl<'k> Diff<'k> {
    /// A diff's budget unless told: OLD's index held up to 64 MiB, then
    /// both files split into 128 partitions. A partition holds about
    /// 1/128 of OLD's index: that takes OLD's index to 8 GiB (some 90
    /// million rows) with each partition still within 64 MiB.
    pub const BUDGET: Budget = Budget::new(64 << 20, 128);

    /// A diff by `keys` (column names, as in both files).
    pub fn new(keys: &'k [String]) -> Diff<'k> {
        Diff {
            keys,
            column_prefix: String::new(),
            budget: Self::BUDGET,
        }
    }

    /// The prefix `scan --column-prefix` gave SPEC's columns.
    pub fn column_prefix(mut self, prefix: &str) -> Self {
        self.column_prefix = prefix.to_string();
        self
    }

    /// The memory OLD's index may take before both files are partitioned
    /// into temporary files (64 MiB unless told), their number (128) and
    /// directory.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Opens both files and finds their columns (so a key NEW lacks is
    /// told before OLD is read), then joins them; every change goes to
    /// `on_change` (in NEW's order, then `removed` in OLD's).
    pub fn run(
        &self,
        old: &InputSpec,
        new: &InputSpec,
        mut on_change: impl FnMut(&ChangeRow<'_>) -> Result<()>,
    ) -> Result<Outcome> {
        let (old, new) = (Table::open(old)?, Table::open(new)?);
        // An empty JSON Lines output names no column; the other file's
        // columns stand for its, since it has no row to read with them.
        let find = |t: &Table, other: &Table| {
            let names = if t.is_empty_jsonl() { other.names() } else { t.names() };
            Layout::find(t.name(), names, self.keys, &self.column_prefix)
        };
        let (old_layout, new_layout) = (find(&old, &new)?, find(&new, &old)?);
        let file = |t: &Table, l: &Layout| FileReport {
            path: t.name().to_string(),
            format: t.format().name(),
            shape: l.shape.as_str(),
            rows: 0,
        };
        let (mut old_file, mut new_file) = (file(&old, &old_layout), file(&new, &new_layout));
        let mut tally = Tally::new(self.keys);
        let mut emit = |c: &ChangeRow<'_>| {
            tally.add(c);
            on_change(c)
        };
        let (old_name, new_name) = (old.name().to_string(), new.name().to_string());
        let mut join = Join::new(self.keys, &self.budget);
        let matched = match join.load(old, &old_layout, &self.budget)? {
            None => match join.compare(new, &new_layout, &self.budget, &mut emit)? {
                None => join.finish(&mut emit)?,
                Some(parts) => {
                    let rest = parts.join(self.keys, (&old_name, &old_layout), (&new_name, &new_layout), &mut emit)?;
                    let so_far = join.matched();
                    Matched {
                        unchanged: so_far.unchanged + rest.unchanged,
                        changed: so_far.changed + rest.changed,
                        partitions: rest.partitions,
                        ..so_far
                    }
                }
            },
            Some(mut parts) => {
                let new_rows = parts.read_new(new, &new_layout)?;
                let matched = parts.join(self.keys, (&old_name, &old_layout), (&new_name, &new_layout), &mut emit)?;
                Matched {
                    old_rows: join.old_rows(),
                    new_rows,
                    ..matched
                }
            }
        };
        old_file.rows = matched.old_rows;
        new_file.rows = matched.new_rows;
        Ok(Outcome {
            old: old_file,
            new: new_file,
            tally,
            matched,
        })
    }
}
