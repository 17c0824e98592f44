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
use crate::io::parquet_in::IdColumn;
use crate::report::Stats;
use anyhow::Result;
use arrow_array::{ArrayRef, RecordBatch};
use std::sync::Arc;

/// The chosen cells of one unit of work.
trait Cells {
    fn rows(&self) -> usize;
    /// The cell of chosen column `chosen` (its index among the run's
    /// chosen columns); a null is an empty cell.
    fn cell(&self, row: usize, chosen: usize) -> &[u8];
    fn line(&self, row: usize) -> Option<u64>;
}

struct CsvCells<'a, 'b> {
    block: &'b RowBlock<'a>,
    /// The chosen columns' indices in this input.
    cols: &'b [usize],
}

impl Cells for CsvCells<'_, '_> {
    fn rows(&self) -> usize {
        self.block.nrows()
    }
    #[inline]
    fn cell(&self, row: usize, chosen: usize) -> &[u8] {
        self.block.field(row, self.cols[chosen])
    }
    fn line(&self, row: usize) -> Option<u64> {
        Some(self.block.line(row))
    }
}

struct ParquetCells<'a> {
    rows: usize,
    cols: Vec<IdColumn<'a>>,
}

impl Cells for ParquetCells<'_> {
    fn rows(&self) -> usize {
        self.rows
    }
    #[inline]
    fn cell(&self, row: usize, chosen: usize) -> &[u8] {
        self.cols[chosen].get_bytes(row).unwrap_or(b"")
    }
    fn line(&self, _: usize) -> Option<u64> {
        None
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
    fn new(shape: &Shape, rows: usize, bytes: usize) -> Out {
        match shape.shaped {
            Shaped::Audit => Out::Audit,
            Shaped::Wide(_) => Out::Wide(Box::new(columns::Builder::with_capacity(rows))),
            Shaped::Long(_) => Out::Long(Box::new(LongBuilder::with_capacity(rows, bytes, shape.several_inputs))),
        }
    }
}

/// Every value of every chosen cell, in record, column and piece order.
fn each_value(
    cells: &impl Cells,
    first_record: u64,
    input: u32,
    shape: &Shape,
    out: &mut Out,
    stats: &mut Stats,
    dups: &mut dups::Block,
) {
    let mut scratch = Scratch::default();
    let mut rendered = Rendered::default();
    let mut pieces = Vec::new();
    for row in 0..cells.rows() {
        let (record, line) = (first_record + row as u64, cells.line(row));
        for (chosen, parser) in shape.parsers.iter().enumerate() {
            let cell = cells.cell(row, chosen);
            stats.cell(chosen);
            pieces.clear();
            if let Some(split) = &shape.split {
                split.pieces(parser, cell, &mut scratch, &mut pieces);
            }
            if pieces.is_empty() {
                pieces.push(0..cell.len());
            }
            for (i, range) in pieces.iter().enumerate() {
                let value = &cell[range.clone()];
                let at = At {
                    input,
                    record,
                    line,
                    column: chosen as u32,
                    value_index: i as u32 + 1,
                };
                let p = parser.parse(value, &mut scratch);
                parser.render(&p, &mut rendered);
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

/// Classifies one unit of work.
pub(super) fn process(w: Work, shape: &Shape) -> Result<Done> {
    let mut stats = Stats::new(shape.parsers.len());
    let mut dups = dups::Block::default();
    match w {
        Work::Csv { raw, input } => {
            let rows = csv_in::parse_block(&raw, input.ncols, shape.parse)?;
            let n = rows.nrows();
            stats.records = n as u64;
            stats.padded_rows = rows.padded_rows();
            let mut out = Out::new(shape, n, raw.data.len() / input.ncols.max(1));
            let cells = CsvCells {
                block: &rows,
                cols: &input.cols,
            };
            each_value(
                &cells,
                raw.first_record + input.record_base,
                input.index,
                shape,
                &mut out,
                &mut stats,
                &mut dups,
            );
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
            let batch = match (out, &shape.shaped) {
                (Out::Wide(enriched), Shaped::Wide(schema)) => {
                    let mut arrays = text(&mut (0..input.ncols), &mut stats.lossy_cells)?;
                    arrays.extend(enriched.finish());
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                (Out::Long(long), Shaped::Long(schema)) => {
                    let keep = text(&mut input.keep.iter().copied(), &mut stats.lossy_cells)?;
                    let arrays = long.finish(
                        &shape.input_names,
                        &shape.column_names,
                        &keep,
                        shape.raw_cells,
                        &mut stats.lossy_cells,
                    )?;
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                _ => None,
            };
            Ok(Done {
                batch,
                stats,
                dups,
                progress: raw.data.len() as u64,
            })
        }
        Work::Parquet {
            batch,
            first_record,
            input,
        } => {
            let n = batch.num_rows();
            stats.records = n as u64;
            let cols = input
                .cols
                .iter()
                .map(|&c| IdColumn::new(batch.column(c).as_ref()))
                .collect::<Result<Vec<_>>>()?;
            let mut out = Out::new(shape, n, 0);
            each_value(
                &ParquetCells { rows: n, cols },
                first_record,
                input.index,
                shape,
                &mut out,
                &mut stats,
                &mut dups,
            );
            let out = match (out, &shape.shaped) {
                (Out::Wide(enriched), Shaped::Wide(schema)) => {
                    let mut arrays: Vec<ArrayRef> = batch.columns().to_vec();
                    arrays.extend(enriched.finish());
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                (Out::Long(long), Shaped::Long(schema)) => {
                    let keep: Vec<ArrayRef> = input.keep.iter().map(|&k| batch.column(k).clone()).collect();
                    let arrays = long.finish(
                        &shape.input_names,
                        &shape.column_names,
                        &keep,
                        false,
                        &mut stats.lossy_cells,
                    )?;
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                _ => None,
            };
            Ok(Done {
                batch: out,
                stats,
                dups,
                progress: n as u64,
            })
        }
    }
}
