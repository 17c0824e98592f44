//! The one engine for work that outgrows memory, used by duplicate
//! grouping (`dups`) and by `hdlscan diff`: records hashed into partition
//! files, grouped or joined a partition at a time in a table, and put back
//! in order by a k-way merge. One suite of properties (`suite`) runs
//! against both users.
//!
//! - `frame`: the one byte encoding, LEB128 varints and length-prefixed
//!   frames.
//! - `file`: anonymous temporary files, each a `Spill` whose partition
//!   [`Writer`]s share it, and [`Frames`] read back from files or memory;
//!   the [`Task`] errors name.
//! - `merge`: sorted runs in one `Spill` of their own, and their k-way
//!   [`Merge`].
//! - `table`: distinct keys in an arena, found by hash and bytes.
//!
//! - `budget`: the [`Budget`] every user spills by.
//! - `open_files`: the open-file limit, raised for the process.

mod budget;
mod file;
pub(crate) mod frame;
mod merge;
mod open_files;
pub(crate) mod table;

#[cfg(test)]
pub(crate) mod suite;

pub use budget::Budget;
pub(crate) use file::{Frames, Part, Spill, Task, Writer, seq_frame};
#[cfg(test)]
pub(crate) use file::Src;
pub(crate) use merge::{Merge, Run, RunBuf, RunStore, reduce};
pub use open_files::raise as raise_open_files;
pub(crate) use table::Table;

/// The seed of the key hash (the hash-only counter the duplicate engine
/// replaced had it too), so the same key lands in the same partition run
/// after run.
const SEED: u64 = 0x0068_646c_7363_616e;

/// The hash of a key at the first level: its partition, and its slot in a
/// partition's table.
#[inline]
pub(crate) fn hash(key: &[u8]) -> u64 {
    level_hash(0, key)
}

/// The hash that splits a partition at `level` (0 for the first split).
/// Each level has its own seed, so a partition split again spreads over
/// all its sub-partitions rather than one.
#[inline]
pub(crate) fn level_hash(level: u32, key: &[u8]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let seed = SEED.wrapping_add(u64::from(level).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut h = foldhash::quality::FixedState::with_seed(seed).build_hasher();
    h.write(key);
    h.finish()
}

/// The partition of hash `h` among `n`: its top bits, scaled (so any `n`
/// works). A [`Table`] uses other bits, so the keys of one partition do
/// not crowd its slots.
#[inline]
pub(crate) fn bucket(h: u64, n: usize) -> usize {
    ((u128::from(h) * n as u128) >> 64) as usize
}
