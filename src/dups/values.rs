//! The values an audit keeps apart from its bodies ([`Block`]'s `values`):
//! each block's frames under the sequence number of its first value, in
//! memory until the collector spills, then in a file of their own, and
//! read back only for the few members the report's top clusters show.
//! Grouping never reads them, so no partition carries them.
//!
//! [`Block`]: super::Block

use super::record::TASK;
use crate::spill::frame::get_frame;
use crate::spill::{Budget, Spill};
use anyhow::Result;
use std::collections::BTreeMap;

/// Where one block's frames are.
enum Stored {
    Mem(Vec<u8>),
    File { off: u64, len: u64 },
}

/// Every block's values, in sequence order.
#[derive(Default)]
pub(super) struct Values {
    /// Each block's first sequence number, ascending, and its frames.
    blocks: Vec<(u64, Stored)>,
    file: Option<Spill>,
}

impl Values {
    /// Adds the frames of the block whose first value is `base`.
    pub fn push(&mut self, base: u64, frames: Vec<u8>) {
        self.blocks.push((base, Stored::Mem(frames)));
    }

    /// Moves the frames held in memory to the file, each block's in one
    /// write; returns the bytes written.
    pub fn spill(&mut self, budget: &Budget) -> Result<u64> {
        let mut bytes = 0;
        for (_, stored) in &mut self.blocks {
            let Stored::Mem(frames) = stored else {
                continue;
            };
            let file = match &self.file {
                Some(f) => f,
                None => self.file.insert(Spill::new(TASK, budget.dir(), false)?),
            };
            let len = frames.len() as u64;
            let off = file.reserve(len);
            file.write_at(frames, off)?;
            bytes += len;
            *stored = Stored::File { off, len };
        }
        Ok(bytes)
    }

    /// The values of the members numbered `seqs`, by number (a value that
    /// is its canonical comes back empty).
    pub fn get(&self, mut seqs: Vec<u64>) -> Result<BTreeMap<u64, Vec<u8>>> {
        seqs.sort_unstable();
        seqs.dedup();
        let mut out = BTreeMap::new();
        let mut read: Option<(usize, Vec<u8>)> = None;
        // Where the last value found ends, and its block and number: the
        // next one of the same block is looked for from there.
        let mut from: Option<(usize, u64, usize)> = None;
        for seq in seqs {
            let b = self.blocks.partition_point(|&(base, _)| base <= seq).checked_sub(1);
            let Some(b) = b else {
                return Err(TASK.corrupt());
            };
            let frames = match &self.blocks[b].1 {
                Stored::Mem(frames) => frames,
                Stored::File { off, len } => {
                    if read.as_ref().is_none_or(|(r, _)| *r != b) {
                        let mut buf = vec![0; usize::try_from(*len).map_err(|_| TASK.corrupt())?];
                        self.file.as_ref().ok_or_else(|| TASK.corrupt())?.read_at(&mut buf, *off)?;
                        read = Some((b, buf));
                    }
                    &read.as_ref().expect("read above").1
                }
            };
            let (first, mut pos) = match from {
                Some((fb, last, end)) if fb == b => (last + 1, end),
                _ => (self.blocks[b].0, 0),
            };
            let value = (first..=seq).try_fold(&[][..], |_, _| get_frame(frames, &mut pos));
            out.insert(seq, value.ok_or_else(|| TASK.corrupt())?.to_vec());
            from = Some((b, seq, pos));
        }
        Ok(out)
    }
}
