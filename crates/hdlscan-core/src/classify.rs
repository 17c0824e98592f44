//! [`classify`]: a column of identifier strings in, SPEC's columns out, for
//! a binding that holds its values in Arrow already. The same parse,
//! rendering and arrays as `scan`'s wide output, without files, threads,
//! statistics or duplicates.

use crate::columns;
use crate::id::{Parser, Rendered, Scratch};
use crate::strings::IdColumn;
use anyhow::Result;
use arrow_array::{Array, RecordBatch};
use arrow_schema::Schema;
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
    let column = IdColumn::new(values)?;
    let mut builder = columns::Builder::with_capacity(values.len());
    let (mut scratch, mut rendered) = (Scratch::default(), Rendered::default());
    for row in 0..values.len() {
        let p = parser.parse(column.get_bytes(row).unwrap_or_default(), &mut scratch);
        parser.render(&p, &mut rendered);
        builder.push(row as u64 + 1, &p, &rendered);
    }
    // `scan`'s enriched columns open with `record`, a place in a file: not
    // one of SPEC's.
    let fields = columns::fields("", &[])?.iter().skip(1).cloned().collect::<Vec<_>>();
    let arrays = builder.finish().into_iter().skip(1).collect();
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)?)
}
