//! [`classify`]: a column of identifier strings in, SPEC's columns out, for
//! a binding that holds its values in Arrow already; [`classify_cells`]
//! also splits cells (`--split`) and shows each value to a caller that
//! counts it. The same parse, rendering and arrays as `scan`'s output,
//! without files, threads or duplicates. [`cell_values`] is the one rule
//! of what values a cell holds.

use crate::columns;
use crate::id::{Parsed, Parser, Rendered, Scratch, Split};
use crate::strings::IdColumn;
use anyhow::Result;
use arrow_array::builder::{StringBuilder, UInt32Builder};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use std::ops::Range;
use std::sync::Arc;

/// Classifies every value of `values` (a string or binary array: `Utf8`,
/// `LargeUtf8`, `Utf8View`, a dictionary of strings, the binary types, or
/// `Null`) with `parser`, into a batch of SPEC's columns ([`crate::SPEC`],
/// in that order), a row per value: the values `hdlscan scan` writes for
/// the same cells and options. A null is an empty value, as an empty cell
/// is. Fails only on an array of another type.
///
/// ```
/// use arrow_array::StringArray;
/// use hdlscan_core::id::{Options, Parser};
///
/// let values = StringArray::from(vec!["doi:10.1000/182", "N/A"]);
/// let batch = hdlscan_core::classify(&values, &Parser::new(Options::default()))?;
/// assert_eq!(batch.num_rows(), 2);
/// assert_eq!(batch.schema().field(0).name(), "kind");
/// # Ok::<(), anyhow::Error>(())
/// ```
pub fn classify(values: &dyn Array, parser: &Parser) -> Result<RecordBatch> {
    classify_cells(values, parser, None, 1, |_| {})
}

/// One value [`classify_cells`] met.
pub struct Value<'a> {
    /// The row of its cell in the array.
    pub row: usize,
    /// Its 1-based place in its cell (1 without `--split`).
    pub index: u32,
    /// The value as read.
    pub raw: &'a [u8],
    /// Its parse.
    pub parsed: &'a Parsed<'a>,
    /// Its canonical, URI and URL.
    pub rendered: &'a Rendered,
}

/// The names of the columns [`classify_cells`] puts before SPEC's when it
/// splits cells: where each value came from, as `scan`'s long output
/// says it (`record`, `value_index`, `value`).
pub const SPLIT_LEAD: [&str; 3] = ["record", "value_index", "value"];

/// As [`classify`], splitting each cell as `split` says (`--split`), and
/// calling `each` with every value, in order. Without `split`, a row per
/// cell and SPEC's columns; with it, a row per value, led by
/// [`SPLIT_LEAD`]: its record (`first_record` for the array's first row,
/// counting up), its 1-based index in its cell and its text (lossy UTF-8).
pub fn classify_cells(
    values: &dyn Array,
    parser: &Parser,
    split: Option<&Split>,
    first_record: u64,
    mut each: impl FnMut(&Value<'_>),
) -> Result<RecordBatch> {
    let column = IdColumn::new(values)?;
    let mut builder = columns::Builder::with_capacity(values.len());
    let (mut index, mut text) = (UInt32Builder::new(), StringBuilder::new());
    let (mut scratch, mut rendered) = (Scratch::default(), Rendered::default());
    let mut pieces = Vec::new();
    for row in 0..values.len() {
        let cell = column.get_bytes(row).unwrap_or_default();
        cell_values(split, parser, cell, &mut scratch, &mut pieces);
        let record = first_record + row as u64;
        for (i, range) in pieces.iter().enumerate() {
            let raw = &cell[range.clone()];
            let p = parser.parse(raw, &mut scratch);
            parser.render(&p, &mut rendered);
            builder.push(record, &p, &rendered);
            if split.is_some() {
                index.append_value(i as u32 + 1);
                text.append_value(String::from_utf8_lossy(raw));
            }
            each(&Value {
                row,
                index: i as u32 + 1,
                raw,
                parsed: &p,
                rendered: &rendered,
            });
        }
    }
    // `finish` opens with `record`: a place, not one of SPEC's columns.
    let mut fields = columns::fields("", &[])?.iter().cloned().collect::<Vec<_>>();
    let mut arrays = builder.finish();
    if split.is_some() {
        // After `record`: `value_index`, then `value`.
        let index_field = Field::new(SPLIT_LEAD[1], DataType::UInt32, false);
        let text_field = Field::new(SPLIT_LEAD[2], DataType::Utf8, false);
        fields.splice(1..1, [Arc::new(index_field), Arc::new(text_field)]);
        arrays.splice(1..1, [Arc::new(index.finish()) as ArrayRef, Arc::new(text.finish())]);
    } else {
        fields.remove(0);
        arrays.remove(0);
    }
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)?)
}

/// Replaces `out` with the byte ranges of the values `cell` holds: its
/// pieces under `split`, else the cell whole. An empty cell is one empty
/// value, so every cell is accounted for.
pub fn cell_values(
    split: Option<&Split>,
    parser: &Parser,
    cell: &[u8],
    scratch: &mut Scratch,
    out: &mut Vec<Range<usize>>,
) {
    out.clear();
    if let Some(split) = split {
        split.pieces(parser, cell, scratch, out);
    }
    if out.is_empty() {
        out.push(0..cell.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Options;
    use arrow_array::StringArray;
    use arrow_array::cast::AsArray;

    #[test]
    fn split_cells_give_a_row_per_value_with_its_place() {
        let values = StringArray::from(vec![Some("hdl:1721.1/5||10.1000/182"), None, Some("N/A")]);
        let parser = Parser::new(Options::default());
        let split = Split::at("||").unwrap();
        let mut seen = Vec::new();
        let batch = classify_cells(&values, &parser, Some(&split), 7, |v| {
            seen.push((v.row, v.index, v.parsed.kind.as_str()))
        })
        .unwrap();
        assert_eq!(
            seen,
            [(0, 1, "hdl_uri"), (0, 2, "doi"), (1, 1, "invalid"), (2, 1, "invalid")]
        );
        let schema = batch.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names[..4], ["record", "value_index", "value", "kind"]);
        assert_eq!(names.len(), 3 + crate::SPEC.len());
        let record = batch.column(0).as_primitive::<arrow_array::types::UInt64Type>();
        assert_eq!(record.values().to_vec(), [7, 7, 8, 9]);
        assert_eq!(batch.column(2).as_string::<i32>().value(1), "10.1000/182");
    }
}
