//! [`JsonlOptions`]: how JSON Lines input is cut and how strictly it is read.

use super::path::JsonPath;

/// Options of [`super::JsonlBlockReader`] and [`super::parse_block`].
#[derive(Clone, Debug)]
pub struct JsonlOptions {
    /// Target block size in bytes (default 8 MiB): a block ends at the first
    /// line end past it.
    pub block_size: usize,
    /// Longest line accepted, in bytes without its `\n` (default 256 MiB,
    /// as CSV's `--max-record-mib`); a longer one is an error naming its
    /// line, whatever `skip_bad_lines` says, since the reader would have to
    /// hold it whole to skip it. With `records`, the longest element, and
    /// the longest value off the path to the array.
    pub max_line: usize,
    /// A line that is not one JSON object is counted, reported and skipped
    /// instead of stopping the run (default false).
    pub skip_bad_lines: bool,
    /// `--records`: the input is JSON documents (usually one) and the
    /// records are the elements of the array at this path of keys, as in
    /// Crossref's `{"items": [...]}`, read as they stream in. Default
    /// `None`: one record per line.
    pub records: Option<JsonPath>,
}

impl Default for JsonlOptions {
    fn default() -> Self {
        JsonlOptions {
            block_size: 8 << 20,
            max_line: 256 << 20,
            skip_bad_lines: false,
            records: None,
        }
    }
}

impl JsonlOptions {
    #[cfg(test)]
    /// Sets [`JsonlOptions::block_size`].
    pub fn with_block_size(mut self, bytes: usize) -> Self {
        self.block_size = bytes;
        self
    }

    /// Sets [`JsonlOptions::max_line`].
    pub fn with_max_line(mut self, bytes: usize) -> Self {
        self.max_line = bytes;
        self
    }

    /// Sets [`JsonlOptions::skip_bad_lines`].
    pub fn with_skip_bad_lines(mut self, yes: bool) -> Self {
        self.skip_bad_lines = yes;
        self
    }

    /// Sets [`JsonlOptions::records`].
    pub fn with_records(mut self, path: Option<JsonPath>) -> Self {
        self.records = path;
        self
    }

    /// Why these options cannot be used, if they cannot.
    pub(super) fn check(&self) -> Result<(), String> {
        if self.block_size == 0 || self.max_line == 0 {
            return Err("block_size and max_line must be positive".into());
        }
        // Offsets inside a block are u32 (see `RawLines::elements`).
        if self.block_size.saturating_add(self.max_line) > u32::MAX as usize {
            return Err("block_size + max_line must be under 4 GiB".into());
        }
        if let Some(r) = &self.records
            && r.keys().is_none()
        {
            return Err(format!("--records {r}: a path of keys, without []"));
        }
        Ok(())
    }
}
