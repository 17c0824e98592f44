//! `-o`: a row per change, written through `scan`'s [`Sink`] in any of its
//! formats: the key columns (as text, named as given), `change`, then
//! `old_kind`, `new_kind`, `old_canonical`, `new_canonical`, `old_error`,
//! `new_error`, `old_warnings`, `new_warnings` (the side a change lacks is
//! null: `added` has no old, `removed` no new). `warnings` is a list of
//! strings, joined with `;` in CSV and TSV as `scan` writes it. A key with
//! two changes (`canonical_changed` and `codes_changed`) has two rows, so
//! the rows of a change are as many as its count.

use super::change::ChangeRow;
use super::row::{Side, key_cells};
use crate::io::sink::Sink;
use anyhow::{Result, bail};
use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::io::Write;
use std::sync::Arc;

/// The columns after the key's.
pub const COLUMNS: [&str; 9] = [
    "change",
    "old_kind",
    "new_kind",
    "old_canonical",
    "new_canonical",
    "old_error",
    "new_error",
    "old_warnings",
    "new_warnings",
];

/// Rows per written batch.
const BATCH: usize = 8192;

/// The schema of `-o` for these key columns; a key column named like one
/// of `COLUMNS` (`change`, `old_kind`, …) is refused (the file would have two columns of one name).
pub fn schema(keys: &[String]) -> Result<SchemaRef> {
    if let Some(k) = keys.iter().find(|k| COLUMNS.contains(&k.as_str())) {
        bail!("--key {k}: -o names one of its own columns {k:?}; rename the column to use it as a key with -o");
    }
    let mut fields: Vec<Field> = keys.iter().map(|k| Field::new(k, DataType::Utf8, false)).collect();
    let list = DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)));
    fields.extend(COLUMNS.map(|name| match name.ends_with("warnings") {
        true => Field::new(name, list.clone(), true),
        // Only `change` is never null.
        false => Field::new(name, DataType::Utf8, name != "change"),
    }));
    Ok(Arc::new(Schema::new(fields)))
}

/// Appends changes and writes them a batch at a time.
pub struct ChangeWriter<W: Write + Send> {
    sink: Sink<W>,
    keys: Vec<StringBuilder>,
    text: [StringBuilder; 7],
    warnings: [ListBuilder<StringBuilder>; 2],
    rows: usize,
}

impl<W: Write + Send> ChangeWriter<W> {
    /// `sink` must have been made with [`schema`] of `keys` columns.
    pub fn new(sink: Sink<W>, keys: usize) -> ChangeWriter<W> {
        ChangeWriter {
            sink,
            keys: (0..keys).map(|_| StringBuilder::new()).collect(),
            text: std::array::from_fn(|_| StringBuilder::new()),
            warnings: std::array::from_fn(|_| ListBuilder::new(StringBuilder::new())),
            rows: 0,
        }
    }

    /// Writes one change as a row.
    pub fn push(&mut self, c: &ChangeRow<'_>) -> Result<()> {
        for (b, cell) in self.keys.iter_mut().zip(key_cells(c.key)) {
            b.append_value(String::from_utf8_lossy(cell));
        }
        let (old, new) = (c.old.as_ref(), c.new.as_ref());
        fn get<'a>(s: Option<&Side<'a>>, which: usize) -> Option<&'a str> {
            s.map(|s| [s.kind, s.canonical, s.error][which])
                .filter(|v| !v.is_empty())
        }
        // `change`, then each of kind, canonical and error, old then new.
        let values = std::iter::once(Some(c.change.as_str())).chain((0..3).flat_map(|i| [get(old, i), get(new, i)]));
        for (b, v) in self.text.iter_mut().zip(values) {
            b.append_option(v);
        }
        // A list of the side's codes; null for a side the change lacks.
        for (b, side) in self.warnings.iter_mut().zip([old, new]) {
            let codes = side.map(|s| s.warnings.split(';').filter(|w| !w.is_empty()).map(Some));
            b.extend([codes]);
        }
        self.rows += 1;
        if self.rows >= BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut cols: Vec<ArrayRef> = Vec::with_capacity(self.keys.len() + COLUMNS.len());
        cols.extend(self.keys.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
        cols.extend(self.text.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
        cols.extend(self.warnings.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
        let batch = RecordBatch::try_new(self.sink.schema().clone(), cols)?;
        self.sink.write(&batch)?;
        self.rows = 0;
        Ok(())
    }

    /// Writes what is left and ends the file; returns the writer (for an
    /// `AtomicFile`, still to commit) and the rows written.
    pub fn finish(mut self) -> Result<(W, u64)> {
        self.flush()?;
        self.sink.finish_writer()
    }
}
