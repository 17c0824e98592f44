//! Long output's rows of one block: a row per value, saying where it was
//! read (`columns::LONG_LEAD`), the `--keep` columns of its record, then
//! SPEC's columns.

use super::text_column::TextColumn;
use crate::at::At;
use crate::columns;
use crate::id::{Parsed, Rendered};
use anyhow::Result;
use arrow_array::builder::{UInt32Builder, UInt64Builder};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, DictionaryArray, StringArray, UInt32Array};
use std::sync::Arc;

pub struct LongBuilder {
    /// Input and column keys index the run's input and column names.
    input: Option<Vec<i32>>,
    record: UInt64Builder,
    line: UInt64Builder,
    column: Vec<i32>,
    value_index: UInt32Builder,
    value: TextColumn,
    /// Per value: its row in the block, to take the `--keep` cells by.
    rows: Vec<u32>,
    enriched: columns::Builder,
}

impl LongBuilder {
    pub fn with_capacity(values: usize, bytes: usize, several_inputs: bool) -> LongBuilder {
        LongBuilder {
            input: several_inputs.then(|| Vec::with_capacity(values)),
            record: UInt64Builder::with_capacity(values),
            line: UInt64Builder::with_capacity(values),
            column: Vec::with_capacity(values),
            value_index: UInt32Builder::with_capacity(values),
            value: TextColumn::with_capacity(values, bytes),
            rows: Vec::with_capacity(values),
            enriched: columns::Builder::with_capacity(values),
        }
    }

    pub fn push(&mut self, at: At, row: usize, value: &[u8], p: &Parsed<'_>, r: &Rendered) {
        if let Some(i) = &mut self.input {
            i.push(at.input as i32);
        }
        self.record.append_value(at.record);
        self.line.append_option(at.line);
        self.column.push(at.column as i32);
        self.value_index.append_value(at.value_index);
        self.value.push(value);
        self.rows.push(row as u32);
        self.enriched.push(at.record, p, r);
    }

    /// The block's arrays in the schema's order. `keep` are the block's
    /// `--keep` columns, a row per record; `value_bytes` writes `value` as
    /// bytes (CSV to CSV), else as UTF-8 with invalid bytes replaced and
    /// counted in `lossy`.
    pub fn finish(
        mut self,
        inputs: &Arc<StringArray>,
        columns: &Arc<StringArray>,
        keep: &[ArrayRef],
        value_bytes: bool,
        lossy: &mut u64,
    ) -> Result<Vec<ArrayRef>> {
        let dict = |keys: Vec<i32>, names: &Arc<StringArray>| -> Result<ArrayRef> {
            Ok(Arc::new(DictionaryArray::<Int32Type>::try_new(keys.into(), names.clone())?))
        };
        let mut out: Vec<ArrayRef> = Vec::with_capacity(columns::LONG_LEAD.len() + keep.len() + columns::SPEC.len());
        if let Some(i) = self.input.take() {
            out.push(dict(i, inputs)?);
        }
        out.push(Arc::new(self.record.finish()));
        out.push(Arc::new(self.line.finish()));
        out.push(dict(std::mem::take(&mut self.column), columns)?);
        out.push(Arc::new(self.value_index.finish()));
        out.push(match value_bytes {
            true => Arc::new(self.value.finish_bytes()?),
            false => Arc::new(self.value.finish(lossy)?),
        });
        let rows = UInt32Array::from(self.rows);
        for k in keep {
            out.push(arrow_select::take::take(k.as_ref(), &rows, None)?);
        }
        // `record` was pushed above, where long output has it.
        out.extend(self.enriched.finish().into_iter().skip(1));
        Ok(out)
    }
}
