//! What grouping found: the core's [`Summary`] filled for the report, and
//! the duplicates file, written from the merged runs through a [`Sink`].

use super::group::{Counters, Ctx, EngineStats, HeldGroups, TopSoFar};
use super::options::Options;
use super::record::{Row, RowKey, TASK, get_row, row_key};
use crate::clusters::Summary;
use crate::io::sink::{Sink, SinkOptions};
use crate::spill::{Run, RunStore, reduce};
use anyhow::{Result, bail};
use crate::pipeline::text_column::TextColumn;
use arrow_array::builder::{UInt32Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::io::Write;
use std::sync::Arc;

/// Rows per record batch of the duplicates file.
pub const BATCH_ROWS: usize = 64 * 1024;

/// Where the duplicates file's rows come from.
pub(super) enum Rows {
    /// Sorted runs, made while grouping partitions.
    Runs(Vec<Run>),
    /// Blocks grouped in memory, whose rows are made when written.
    Held(HeldGroups),
    /// None: the file was not wanted (`Options::file`).
    NotMade,
}

/// The grouped collection: its summary now, its file when written.
pub struct Grouped {
    pub(super) summary: Summary,
    pub(super) rows: Rows,
    pub(super) store: RunStore,
    pub(super) opts: Options,
    pub(super) memory: usize,
    pub(super) stats: EngineStats,
}

impl Grouped {
    /// The clusters' counts and largest clusters, for the report.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// How the grouping went: what was spilled, split and sorted.
    pub fn stats(&self) -> &EngineStats {
        &self.stats
    }

    /// The duplicates file's Arrow schema: `cluster`, `canonical`, `records`
    /// (the cluster's distinct records), `count` (its members), `input`, `record`, `line`, `column`, `value_index`, `value`,
    /// `first_record`, `variant`. `input` and `column` are names; `line` is
    /// null for Parquet input.
    pub fn schema() -> SchemaRef {
        let u64 = |name| Field::new(name, DataType::UInt64, false);
        let utf8 = |name| Field::new(name, DataType::Utf8, false);
        Arc::new(Schema::new(vec![
            u64("cluster"),
            utf8("canonical"),
            u64("records"),
            u64("count"),
            utf8("input"),
            u64("record"),
            Field::new("line", DataType::UInt64, true),
            utf8("source_column"),
            Field::new("value_index", DataType::UInt32, false),
            utf8("value"),
            u64("first_record"),
            utf8("variant"),
        ]))
    }

    /// The duplicates file's Parquet settings: hdlscan's defaults, without
    /// dictionaries or statistics on the columns that are (nearly) all
    /// distinct, where interning every value only costs time (5% of an
    /// audit's instructions with the file).
    pub fn sink_options() -> SinkOptions {
        let plain = ["canonical", "record", "line", "value", "first_record"].map(String::from);
        SinkOptions::parquet_without(plain.clone(), plain)
    }

    /// Writes every cluster's members in cluster order through `sink`, in
    /// batches of at most `BATCH_ROWS` rows; `inputs`/`columns` map
    /// `At`'s indices to names. Returns rows written.
    pub fn write<W: Write + Send>(self, sink: &mut Sink<W>, inputs: &[String], columns: &[String]) -> Result<u64> {
        let Grouped {
            rows,
            store,
            opts,
            memory,
            ..
        } = self;
        let mut runs = match rows {
            Rows::Runs(runs) => runs,
            Rows::Held(groups) => {
                let counters = Counters::default();
                // Held blocks keep their hashes: none is made again.
                let ctx = Ctx {
                    opts: &opts,
                    apart: false,
                    hash: crate::spill::hash,
                    per_thread: memory,
                    runs: &store,
                    counters: &counters,
                    top: &TopSoFar::default(),
                };
                groups.runs(&ctx, memory)?
            }
            Rows::NotMade => bail!("writing duplicates: the rows were not made (Options::file was false)"),
        };
        // Each run is read through its own buffer, half the budget shared
        // by them all: buffers as small as 512 bytes rather than a pass
        // more (a spilled 10M-value scan makes a run or two a partition,
        // 512 partitions: with fixed 64 KiB buffers, every row was
        // written and read once more to merge 128 runs at a time).
        let cap = (memory / 2 / runs.len().max(1)).clamp(512, 64 * 1024);
        reduce(&store, &mut runs, memory / 2 / cap, cap, row_key)?;
        // The merge and the batches' rows are made on a thread of their
        // own while the sink encodes the batch before: on two cores, the
        // file's writing phase takes about the longer of the two, not their
        // sum. One batch queued, one being made and one being written bound
        // the memory.
        let (tx, rx) = std::sync::mpsc::sync_channel::<RecordBatch>(1);
        std::thread::scope(|scope| {
            let made = scope.spawn(|| merge_batches(&store, &runs, cap, inputs, columns, tx));
            let written = rx.iter().try_fold(0u64, |rows, batch| {
                sink.write(&batch)?;
                anyhow::Ok(rows + batch.num_rows() as u64)
            });
            // Dropping the receiver stops the merge at its next batch if
            // writing failed.
            drop(rx);
            let made = made
                .join()
                .map_err(|_| anyhow::anyhow!("writing duplicates: the merge thread panicked"))?;
            let rows = written?;
            made?;
            Ok(rows)
        })
    }
}

/// Merges `runs` into the file's order and sends its rows as record batches
/// of at most [`BATCH_ROWS`] rows, until the rows end or `tx`'s receiver is
/// gone.
fn merge_batches(
    store: &RunStore,
    runs: &[Run],
    cap: usize,
    inputs: &[String],
    columns: &[String],
    tx: std::sync::mpsc::SyncSender<RecordBatch>,
) -> Result<()> {
    let mut merge = store.merge(runs, cap, row_key)?;
    let mut batch = Batch::new();
    let mut cluster = 0u64;
    let mut last: Option<RowKey> = None;
    let mut scratch = Vec::new();
    while let Some(frame) = merge.next()? {
        let row = get_row(frame, &mut scratch).ok_or_else(|| TASK.corrupt())?;
        let key = row.key();
        if !last.is_some_and(|l| l.same_cluster(&key)) {
            cluster += 1;
        }
        last = Some(key);
        batch.push(cluster, &row, inputs, columns)?;
        if batch.rows == BATCH_ROWS && tx.send(batch.finish()?).is_err() {
            return Ok(());
        }
    }
    if batch.rows > 0 {
        // A receiver gone has its own error to tell.
        let _ = tx.send(batch.finish()?);
    }
    Ok(())
}

/// Rows gathered for one record batch. Strings are gathered end to end
/// and checked as UTF-8 once a column ([`TextColumn`]), not once a row.
struct Batch {
    cluster: UInt64Builder,
    canonical: TextColumn,
    records: UInt64Builder,
    count: UInt64Builder,
    input: TextColumn,
    record: UInt64Builder,
    line: UInt64Builder,
    column: TextColumn,
    value_index: UInt32Builder,
    value: TextColumn,
    first_record: UInt64Builder,
    variant: TextColumn,
    rows: usize,
}

impl Batch {
    /// Room for [`BATCH_ROWS`] rows, so they are gathered without regrowing.
    fn new() -> Batch {
        let numbers = || UInt64Builder::with_capacity(BATCH_ROWS);
        let text = |bytes| TextColumn::with_capacity(BATCH_ROWS, BATCH_ROWS * bytes);
        Batch {
            cluster: numbers(),
            canonical: text(32),
            records: numbers(),
            count: numbers(),
            input: text(16),
            record: numbers(),
            line: numbers(),
            column: text(16),
            value_index: UInt32Builder::with_capacity(BATCH_ROWS),
            value: text(48),
            first_record: numbers(),
            variant: text(8),
            rows: 0,
        }
    }

    fn push(&mut self, cluster: u64, row: &Row<'_>, inputs: &[String], columns: &[String]) -> Result<()> {
        let Some(input) = inputs.get(row.at.input as usize) else {
            bail!("writing duplicates: no name for input {}", row.at.input);
        };
        let Some(column) = columns.get(row.at.column as usize) else {
            bail!("writing duplicates: no name for column {}", row.at.column);
        };
        self.cluster.append_value(cluster);
        self.canonical.push(row.canonical);
        self.records.append_value(row.records);
        self.count.append_value(row.count);
        self.input.push(input.as_bytes());
        self.record.append_value(row.at.record);
        self.line.append_option(row.at.line);
        self.column.push(column.as_bytes());
        self.value_index.append_value(row.at.value_index);
        self.value.push(row.value);
        self.first_record.append_value(row.first_record);
        self.variant.push(row.variant.as_str().as_bytes());
        self.rows += 1;
        Ok(())
    }

    /// The rows gathered as a record batch; the batch starts afresh.
    fn finish(&mut self) -> Result<RecordBatch> {
        let mut b = std::mem::replace(self, Batch::new());
        // Canonicals are rendered text, and valid values are UTF-8 (a value
        // that is not gets `bad_utf8` and no canonical): lossy changes
        // nothing but keeps a bad caller from a panic.
        let mut lossy = 0;
        let mut text = |t: TextColumn| -> Result<ArrayRef> { Ok(Arc::new(t.finish(&mut lossy)?)) };
        let cols: Vec<ArrayRef> = vec![
            Arc::new(b.cluster.finish()),
            text(b.canonical)?,
            Arc::new(b.records.finish()),
            Arc::new(b.count.finish()),
            text(b.input)?,
            Arc::new(b.record.finish()),
            Arc::new(b.line.finish()),
            text(b.column)?,
            Arc::new(b.value_index.finish()),
            text(b.value)?,
            Arc::new(b.first_record.finish()),
            text(b.variant)?,
        ];
        Ok(RecordBatch::try_new(Grouped::schema(), cols)?)
    }
}
