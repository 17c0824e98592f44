//! The values an audit keeps apart from its bodies ([`Block`]'s `values`):
//! each block's frames under the sequence number of its first value, in
//! memory until the collector spills, then in a file of their own, and
//! read back only for the few members the report's top clusters show,
//! a stretch of [`MARK`] frames each. Grouping never reads them, so no
//! partition carries them.
//!
//! [`Block`]: super::Block

use super::record::TASK;
use crate::spill::frame::get_frame;
use crate::spill::{Budget, Spill};
use anyhow::Result;
use std::collections::BTreeMap;

/// Frames between two marks of where a block's frames are: a value is
/// read back with at most this many.
const MARK: u64 = 1024;

/// One block's values: a frame each (`record::put_apart`), and where
/// every [`MARK`]th starts.
#[derive(Debug, Default)]
pub(crate) struct BlockValues {
    frames: Vec<u8>,
    marks: Vec<u64>,
    len: u64,
}

impl BlockValues {
    pub fn with_capacity(values: usize) -> BlockValues {
        BlockValues {
            frames: Vec::with_capacity(values * 8),
            ..BlockValues::default()
        }
    }

    /// Adds a value's frame, which `put` writes.
    #[inline]
    pub fn push(&mut self, put: impl FnOnce(&mut Vec<u8>)) {
        if self.len.is_multiple_of(MARK) {
            self.marks.push(self.frames.len() as u64);
        }
        self.len += 1;
        put(&mut self.frames);
    }

    pub fn bytes(&self) -> usize {
        self.frames.capacity() + self.marks.capacity() * 8
    }

    pub fn shrink(&mut self) {
        self.frames.shrink_to_fit();
        self.marks.shrink_to_fit();
    }
}

/// Where one block's frames are: in memory, or from an offset of the file.
enum Stored {
    Mem(Vec<u8>),
    File(u64),
}

/// One block's values as held.
struct Held {
    /// The sequence number of its first value.
    base: u64,
    stored: Stored,
    /// Where every [`MARK`]th frame starts, and where the last ends.
    marks: Vec<u64>,
}

/// Every block's values, in sequence order.
#[derive(Default)]
pub(super) struct Values {
    blocks: Vec<Held>,
    file: Option<Spill>,
}

impl Values {
    /// Adds the values of the block whose first value is `base`.
    pub fn push(&mut self, base: u64, values: BlockValues) {
        let BlockValues { frames, mut marks, .. } = values;
        marks.push(frames.len() as u64);
        self.blocks.push(Held {
            base,
            stored: Stored::Mem(frames),
            marks,
        });
    }

    /// Moves the frames held in memory to the file, each block's in one
    /// write; returns the bytes written.
    pub fn spill(&mut self, budget: &Budget) -> Result<u64> {
        let mut bytes = 0;
        for b in &mut self.blocks {
            let Stored::Mem(frames) = &b.stored else {
                continue;
            };
            let file = match &self.file {
                Some(f) => f,
                None => self.file.insert(Spill::new(TASK, budget.dir(), false)?),
            };
            let off = file.reserve(frames.len() as u64);
            file.write_at(frames, off)?;
            bytes += frames.len() as u64;
            b.stored = Stored::File(off);
        }
        Ok(bytes)
    }

    /// The frames of the members numbered `seqs`, by number.
    pub fn get(&self, seqs: Vec<u64>) -> Result<BTreeMap<u64, Vec<u8>>> {
        let mut out = BTreeMap::new();
        let mut buf = Vec::new();
        for seq in seqs {
            let b = self.blocks.partition_point(|b| b.base <= seq).checked_sub(1);
            let b = &self.blocks[b.ok_or_else(|| TASK.corrupt())?];
            let i = seq - b.base;
            let stretch = usize::try_from(i / MARK).map_err(|_| TASK.corrupt())?;
            let (Some(&lo), Some(&hi)) = (b.marks.get(stretch), b.marks.get(stretch + 1)) else {
                return Err(TASK.corrupt());
            };
            let len = usize::try_from(hi.checked_sub(lo).ok_or_else(|| TASK.corrupt())?).map_err(|_| TASK.corrupt())?;
            let frames = match &b.stored {
                Stored::Mem(frames) => frames.get(lo as usize..lo as usize + len).ok_or_else(|| TASK.corrupt())?,
                Stored::File(off) => {
                    buf.resize(len, 0);
                    self.file.as_ref().ok_or_else(|| TASK.corrupt())?.read_at(&mut buf, off + lo)?;
                    &buf[..]
                }
            };
            let mut pos = 0;
            let value = (0..=i % MARK).try_fold(&[][..], |_, _| get_frame(frames, &mut pos));
            out.insert(seq, value.ok_or_else(|| TASK.corrupt())?.to_vec());
        }
        Ok(out)
    }
}
