//! JSON Lines output: a row an object, keys the field names in order.
//! Cells are what [`super::text`] writes for CSV, as JSON: strings (bytes
//! read as UTF-8, lossily), dates and decimals as strings; integers,
//! finite floats and booleans as numbers and `true`/`false`; lists (SPEC's
//! `warnings` too), structs and maps as JSON; null as `null`.

use std::io::Write;

use anyhow::Result;
use arrow_array::RecordBatch;
use arrow_schema::{DataType, Schema};

use super::text;

pub(super) struct JsonLines<W: Write> {
    w: std::io::BufWriter<W>,
    /// Per column: `"name":`, with the `,` before it but for the first.
    keys: Vec<Vec<u8>>,
    scratch: Vec<u8>,
}

/// How a column's cells are written.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    /// As a JSON string.
    Text,
    /// As the text `text` writes, which is JSON (integers, booleans,
    /// nested values).
    Json,
    /// A number if finite, else a string (`"NaN"`), which JSON lacks.
    Float,
}

fn cell(dt: &DataType) -> Cell {
    use DataType::*;
    match dt {
        Dictionary(_, v) => cell(v),
        Float16 | Float32 | Float64 => Cell::Float,
        Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 => Cell::Json,
        List(_) | LargeList(_) | FixedSizeList(..) | ListView(_) | LargeListView(_) | Struct(_) | Map(..) => Cell::Json,
        _ => Cell::Text,
    }
}

/// Whether `text` is a finite number, so JSON has it.
fn finite(text: &[u8]) -> bool {
    std::str::from_utf8(text).is_ok_and(|t| t.parse::<f64>().is_ok_and(f64::is_finite))
}

impl<W: Write> JsonLines<W> {
    pub(super) fn new(w: W, schema: &Schema) -> Self {
        let keys = schema
            .fields()
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let mut k = Vec::from(if i == 0 { &b"{"[..] } else { b"," });
                serde_json::to_writer(&mut k, f.name()).expect("a string serializes");
                k.push(b':');
                k
            })
            .collect();
        JsonLines {
            w: std::io::BufWriter::with_capacity(256 << 10, w),
            keys,
            scratch: Vec::with_capacity(256),
        }
    }

    pub(super) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let cells: Vec<Cell> = batch.columns().iter().map(|a| cell(a.data_type())).collect();
        for i in 0..batch.num_rows() {
            for ((a, key), &how) in batch.columns().iter().zip(&self.keys).zip(&cells) {
                self.w.write_all(key)?;
                self.scratch.clear();
                if !text::write_text(a.as_ref(), i, &mut self.scratch) {
                    self.w.write_all(b"null")?;
                } else if how == Cell::Json || (how == Cell::Float && finite(&self.scratch)) {
                    self.w.write_all(&self.scratch)?;
                } else {
                    serde_json::to_writer(&mut self.w, &String::from_utf8_lossy(&self.scratch))?;
                }
            }
            if self.keys.is_empty() {
                self.w.write_all(b"{")?;
            }
            self.w.write_all(b"}\n")?;
        }
        Ok(())
    }

    pub(super) fn into_inner(self) -> Result<W> {
        self.w.into_inner().map_err(|e| anyhow::anyhow!("{}", e.error()))
    }
}

#[cfg(test)]
mod tests {
    use crate::io::format::Format;
    use crate::io::sink::Sink;
    use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt64Array};
    use std::sync::Arc;

    #[test]
    fn cells_as_json() {
        let batch = RecordBatch::try_from_iter(vec![
            (
                "n",
                Arc::new(UInt64Array::from(vec![Some(1), None, Some(3)])) as ArrayRef,
            ),
            (
                "x",
                Arc::new(Float64Array::from(vec![Some(1.5), Some(f64::NAN), None])) as ArrayRef,
            ),
            (
                "s",
                Arc::new(StringArray::from(vec![Some("a\"b"), Some(""), None])) as ArrayRef,
            ),
        ])
        .unwrap();
        let mut sink = Sink::from_writer(Vec::new(), Format::Jsonl, batch.schema(), "t").unwrap();
        sink.write(&batch).unwrap();
        let (out, rows) = sink.finish_writer().unwrap();
        assert_eq!(rows, 3);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"n\":1,\"x\":1.5,\"s\":\"a\\\"b\"}\n{\"n\":null,\"x\":\"NaN\",\"s\":\"\"}\n{\"n\":3,\"x\":null,\"s\":null}\n"
        );
    }
}
