//! Cells of a CSV block gathered into Arrow arrays: the input columns of
//! wide output and the `--keep` columns of long output.

use anyhow::Result;
use arrow_array::{BinaryArray, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use std::borrow::Cow;

/// One CSV column of a block as an Arrow string array: the fields'
/// bytes end to end plus offsets, validated as UTF-8 once for the whole
/// column instead of once per cell.
pub struct TextColumn {
    values: Vec<u8>,
    offsets: Vec<i32>,
}

impl TextColumn {
    pub fn with_capacity(rows: usize, bytes: usize) -> TextColumn {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        TextColumn {
            values: Vec::with_capacity(bytes),
            offsets,
        }
    }

    pub fn push(&mut self, field: &[u8]) {
        self.values.extend_from_slice(field);
        // Blocks are capped below 2 GiB (--max-record-mib ≤ 2047), so
        // offsets fit in i32.
        self.offsets.push(self.values.len() as i32);
    }

    /// The column as bytes, as read (for CSV and TSV output).
    pub fn finish_bytes(self) -> Result<BinaryArray> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        Ok(BinaryArray::try_new(offsets, Buffer::from_vec(self.values), None)?)
    }

    /// The column; invalid UTF-8 in a field is replaced (U+FFFD) and
    /// counted in `lossy`, since Arrow and Parquet strings are UTF-8.
    pub fn finish(self, lossy: &mut u64) -> Result<StringArray> {
        // Valid as a whole and cut only at char boundaries: every field is
        // valid (the common case, one pass).
        let whole_ok = std::str::from_utf8(&self.values)
            .is_ok_and(|s| self.offsets.iter().all(|&o| s.is_char_boundary(o as usize)));
        if whole_ok {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
            // SAFETY: the offsets were pushed as the values grew, so they
            // are in bounds, and the check above is `try_new`'s own: UTF-8,
            // cut only at char boundaries. Validating twice cost a scan 1–2%.
            return Ok(unsafe { StringArray::new_unchecked(offsets, Buffer::from_vec(self.values), None) });
        }
        let fields = self.offsets.windows(2).map(|w| &self.values[w[0] as usize..w[1] as usize]);
        Ok(StringArray::from_iter_values(fields.map(|field| {
            // Borrowed exactly when the field is valid UTF-8.
            let text = String::from_utf8_lossy(field);
            *lossy += u64::from(matches!(text, Cow::Owned(_)));
            text
        })))
    }
}
