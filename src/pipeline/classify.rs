//! The one per-value loop of `scan`. Every reader's unit of work is seen
//! through [`Cells`]; each chosen cell of each record becomes its values
//! (the whole cell, or its pieces under `--split`; an empty cell is one
//! `empty` value, so every cell is accounted for), and each value is
//! parsed, rendered, counted and written, wide or long.

use super::long::LongBuilder;
use super::text_column::TextColumn;
use super::{Done, Shape, Shaped, Work};
use crate::at::At;
use crate::columns;
use crate::dups;
use crate::id::{Rendered, Scratch};
use crate::io::csv_in::{self, RowBlock};
use crate::io::jsonl::{self, JsonRecords};
use crate::io::nested::{self, Flat};
use crate::report::Stats;
use crate::strings::{IdColumn, integer_text};
use anyhow::Result;
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use hdlscan_core::classify::cell_values;
use std::sync::Arc;

/// The chosen cells of one unit of work. A CSV or Parquet cell holds one
/// value (before `--split`); a JSON path may yield several, or none.
trait Cells {
    fn rows(&self) -> usize;
    /// The values of chosen column `chosen` (its index among the run's
    /// chosen columns) in `row`.
    fn count(&self, _row: usize, _chosen: usize) -> usize {
        1
    }
    /// Value `i` of that cell; a null is an empty value.
    fn value(&self, row: usize, chosen: usize, i: usize) -> &[u8];
    fn line(&self, row: usize) -> Option<u64>;
    /// The 1-based record number of `row`, across all inputs.
    fn record(&self, row: usize) -> u64;
}

struct CsvCells<'a, 'b> {
    block: &'b RowBlock<'a>,
    /// The chosen columns' indices in this input.
    cols: &'b [usize],
    first_record: u64,
}

impl Cells for CsvCells<'_, '_> {
    fn rows(&self) -> usize {
        self.block.nrows()
    }
    #[inline]
    fn value(&self, row: usize, chosen: usize, _: usize) -> &[u8] {
        self.block.field(row, self.cols[chosen])
    }
    fn line(&self, row: usize) -> Option<u64> {
        Some(self.block.line(row))
    }
    fn record(&self, row: usize) -> u64 {
        self.first_record + row as u64
    }
}

struct BatchCells<'a> {
    rows: usize,
    cols: Vec<IdColumn<'a>>,
    /// A chosen column read through a path (`io::nested`): its values per
    /// row, as positions in its leaf (`cols` reads the leaf then).
    flats: &'a [Option<Flat>],
    first_record: u64,
}

impl Cells for BatchCells<'_> {
    fn rows(&self) -> usize {
        self.rows
    }
    fn count(&self, row: usize, chosen: usize) -> usize {
        self.flats[chosen].as_ref().map_or(1, |f| f.count(row))
    }
    #[inline]
    fn value(&self, row: usize, chosen: usize, i: usize) -> &[u8] {
        let at = self.flats[chosen].as_ref().map_or(Some(row), |f| f.at(row, i));
        at.and_then(|at| self.cols[chosen].get_bytes(at)).unwrap_or(b"")
    }
    fn line(&self, _: usize) -> Option<u64> {
        None
    }
    fn record(&self, row: usize) -> u64 {
        self.first_record + row as u64
    }
}

/// A block of JSON records: the chosen paths are the first of the path
/// set, the kept ones after them.
struct JsonCells<'a> {
    recs: &'a JsonRecords,
    record_base: u64,
}

impl Cells for JsonCells<'_> {
    fn rows(&self) -> usize {
        self.recs.len()
    }
    fn count(&self, row: usize, chosen: usize) -> usize {
        self.recs.value_count(row, chosen)
    }
    fn value(&self, row: usize, chosen: usize, i: usize) -> &[u8] {
        self.recs.values(row, chosen).nth(i).unwrap_or(b"")
    }
    fn line(&self, row: usize) -> Option<u64> {
        Some(self.recs.line(row))
    }
    fn record(&self, row: usize) -> u64 {
        self.record_base + self.recs.record(row)
    }
}

/// Where a block's values go besides the stats.
enum Out {
    Audit,
    // Boxed: the builders are large, and one exists per block.
    Wide(Box<columns::Builder>),
    Long(Box<LongBuilder>),
}

impl Out {
    /// Room for `values` values (their `bytes` of raw text), so that
    /// filling the builders does not regrow and copy them.
    fn new(shape: &Shape, values: usize, bytes: usize) -> Out {
        match shape.shaped {
            Shaped::Audit => Out::Audit,
            Shaped::Wide(_) => Out::Wide(Box::new(columns::Builder::with_capacity(values))),
            Shaped::Long(_) => Out::Long(Box::new(LongBuilder::with_capacity(
                values,
                bytes,
                shape.several_inputs,
            ))),
        }
    }

    /// The block's output batch: wide, the input's own arrays (`input`)
    /// then the added columns; long, the long builder's arrays with the
    /// kept columns (`keep`; `value_bytes`: CSV to CSV keeps the raw
    /// bytes); none for an audit.
    fn finish(
        self,
        shape: &Shape,
        input: impl FnOnce(&mut u64) -> Result<Vec<ArrayRef>>,
        keep: impl FnOnce(&mut u64) -> Result<Vec<ArrayRef>>,
        value_bytes: bool,
        lossy: &mut u64,
    ) -> Result<Option<RecordBatch>> {
        let (arrays, schema) = match (self, &shape.shaped) {
            (Out::Wide(enriched), Shaped::Wide(schema)) => {
                let mut arrays = input(lossy)?;
                arrays.extend(enriched.finish());
                (arrays, schema)
            }
            (Out::Long(long), Shaped::Long(schema)) => {
                let keep = keep(lossy)?;
                let arrays = long.finish(&shape.input_names, &shape.column_names, &keep, value_bytes, lossy)?;
                (arrays, schema)
            }
            _ => return Ok(None),
        };
        Ok(Some(RecordBatch::try_new(schema.clone(), arrays)?))
    }
}

/// The values `each_value` will meet in `cells` before `--split` (a path
/// that yields nothing is one empty value), and their bytes.
fn count_values(cells: &impl Cells, chosen: usize) -> (usize, usize) {
    let (mut values, mut bytes) = (0, 0);
    for row in 0..cells.rows() {
        for c in 0..chosen {
            let items = cells.count(row, c);
            values += items.max(1);
            bytes += (0..items).map(|i| cells.value(row, c, i).len()).sum::<usize>();
        }
    }
    (values, bytes)
}

/// Every value of every chosen cell, in record, column and piece order.
fn each_value(cells: &impl Cells, input: u32, shape: &Shape, out: &mut Out, stats: &mut Stats, dups: &mut dups::Block) {
    let mut scratch = Scratch::default();
    let mut rendered = Rendered::default();
    let mut pieces = Vec::new();
    for row in 0..cells.rows() {
        let (record, line) = (cells.record(row), cells.line(row));
        for (chosen, parser) in shape.parsers.iter().enumerate() {
            stats.cell(chosen);
            // A path that yields nothing is one empty value, as an empty
            // cell is: every cell is accounted for.
            let items = cells.count(row, chosen);
            let mut index = 0u32;
            for item in 0..items.max(1) {
                let cell = if items == 0 {
                    &b""[..]
                } else {
                    cells.value(row, chosen, item)
                };
                cell_values(shape.split.as_ref(), parser, cell, &mut scratch, &mut pieces);
                for range in pieces.iter() {
                    index += 1;
                    let value = &cell[range.clone()];
                    let at = At {
                        input,
                        record,
                        line,
                        column: chosen as u32,
                        value_index: index,
                    };
                    let p = parser.parse(value, &mut scratch);
                    // An audit writes no uri or url.
                    match out {
                        Out::Audit => parser.render_canonical(&p, &mut rendered),
                        _ => parser.render(&p, &mut rendered),
                    }
                    stats.value(at, value, &p, rendered.canonical());
                    if let Some(c) = rendered.canonical() {
                        dups.push(c.as_bytes(), at, value, p.warnings);
                    }
                    match out {
                        Out::Audit => {}
                        Out::Wide(b) => b.push(record, &p, &rendered),
                        Out::Long(b) => b.push(at, row, value, &p, &rendered),
                    }
                }
            }
        }
    }
}

/// Classifies one unit of work.
pub(super) fn process(w: Work, shape: &Shape) -> Result<Done> {
    let mut stats = Stats::new(shape.parsers.len());
    // Each block's duplicates buffer is sized for its values, so that
    // pushing does not regrow (and copy) it.
    let (batch, dups, progress, reach) = match w {
        Work::Csv { raw, input } => {
            let rows = csv_in::parse_block(&raw, input.ncols, shape.parse)?;
            let n = rows.nrows();
            stats.records = n as u64;
            stats.padded_rows = rows.padded_rows();
            let mut dups = dups::Block::with_capacity(n * shape.parsers.len(), shape.values_in_bodies);
            let mut out = Out::new(shape, n, raw.data.len() / input.ncols.max(1));
            let cells = CsvCells {
                block: &rows,
                cols: &input.cols,
                first_record: raw.first_record + input.record_base,
            };
            each_value(&cells, input.index, shape, &mut out, &mut stats, &mut dups);
            // Input cells as arrays: all of them (wide), the kept ones (long).
            let text = |cols: &mut dyn Iterator<Item = usize>, lossy: &mut u64| -> Result<Vec<ArrayRef>> {
                let per_col = raw.data.len() / input.ncols.max(1);
                cols.map(|c| {
                    let mut t = TextColumn::with_capacity(n, per_col);
                    for row in 0..n {
                        t.push(rows.field(row, c));
                    }
                    // The identifier columns' copies count as lossy too:
                    // their values are `bad_utf8`, but the cells written
                    // are altered all the same.
                    Ok(match shape.raw_cells {
                        true => Arc::new(t.finish_bytes()?) as ArrayRef,
                        false => Arc::new(t.finish(lossy)?) as ArrayRef,
                    })
                })
                .collect()
            };
            let batch = out.finish(
                shape,
                |lossy| text(&mut (0..input.ncols), lossy),
                |lossy| text(&mut input.keep.iter().copied(), lossy),
                shape.raw_cells,
                &mut stats.lossy_cells,
            )?;
            (batch, dups, raw.source_bytes, None)
        }
        Work::Batch {
            batch,
            first_record,
            input,
        } => {
            let n = batch.num_rows();
            stats.records = n as u64;
            let mut dups = dups::Block::with_capacity(n * shape.parsers.len(), shape.values_in_bodies);
            let flats = input
                .cols
                .iter()
                .zip(&shape.nested)
                .map(|(&c, steps)| steps.as_ref().map(|s| nested::flatten(batch.column(c), s)).transpose())
                .collect::<Result<Vec<_>>>()?;
            let leaves: Vec<&ArrayRef> = (input.cols.iter().zip(&flats))
                .map(|(&c, f)| f.as_ref().map_or(batch.column(c), |f| &f.leaf))
                .collect();
            let texts: Vec<Option<StringArray>> = leaves.iter().map(|a| integer_text(a.as_ref())).collect();
            let cols = (leaves.iter().zip(&texts))
                .map(|(a, t)| IdColumn::new(t.as_ref().map_or(a.as_ref(), |t| t as &dyn Array)))
                .collect::<Result<Vec<_>>>()?;
            let mut out = Out::new(shape, n, 0);
            let cells = BatchCells {
                rows: n,
                cols,
                flats: &flats,
                first_record,
            };
            each_value(&cells, input.index, shape, &mut out, &mut stats, &mut dups);
            let out = out.finish(
                shape,
                |_| Ok(batch.columns().to_vec()),
                |_| Ok(input.keep.iter().map(|&k| batch.column(k).clone()).collect()),
                false,
                &mut stats.lossy_cells,
            )?;
            (out, dups, n as u64, None)
        }
        Work::Jsonl { raw, input } => {
            let mut recs = jsonl::parse_block(&raw, &shape.json_paths, &shape.json)?;
            let n = recs.len();
            stats.records = n as u64;
            stats.skipped_lines = recs.skipped();
            let bad = recs.bad_lines().iter();
            stats.bad_lines = bad
                .map(|b| format!("{} line {}: {}", raw.file, b.line, b.reason))
                .collect();
            let cells = JsonCells {
                recs: &recs,
                record_base: input.record_base,
            };
            let (values, bytes) = count_values(&cells, shape.parsers.len());
            let mut out = Out::new(shape, values, bytes);
            let mut dups = dups::Block::with_capacity(values, shape.values_in_bodies);
            each_value(&cells, input.index, shape, &mut out, &mut stats, &mut dups);
            // Kept paths yield one value at most (`[]` is refused in
            // --keep): a record's text, or null.
            let keep = |_: &mut u64| {
                let keep = input.keep.iter().map(|&k| {
                    let texts = (0..n).map(|r| recs.kept(r, k).map(String::from_utf8_lossy));
                    Arc::new(StringArray::from_iter(texts)) as ArrayRef
                });
                Ok(keep.collect())
            };
            let batch = out.finish(shape, |_| Ok(Vec::new()), keep, false, &mut stats.lossy_cells)?;
            (batch, dups, raw.data.len() as u64, Some(recs.take_reach()))
        }
    };
    Ok(Done {
        batch,
        stats,
        dups,
        progress,
        reach,
    })
}
