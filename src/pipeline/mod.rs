//! The batch pipeline of `hdlscan scan` (the qsv/xsv pattern): a reader
//! thread cuts the inputs into units of work ([`produce`]), the main
//! thread maps a batch of them on rayon's pool ([`classify`]: the one
//! per-value loop) and collects the results in input order, and a writer
//! thread writes them sequentially. Every channel is bounded, so memory
//! stays bounded whatever the input size.
//!
//! Output has one of two shapes: **wide** (one chosen column, cells not
//! split: the input's rows with SPEC's columns added) or **long** (several
//! columns, `--split` or `--long`: a row per value, see `columns::LONG_LEAD`).

mod classify;
mod long;
mod produce;
pub(crate) mod text_column;

use crate::columns;
use crate::dups;
use crate::id::{Parser, Split};
use crate::io::atomic::{AtomicFile, os_reason};
use crate::io::csv_in::{ParseOptions, RawBlock};
use crate::io::jsonl::{JsonlOptions, PathSet, RawLines, Reach, Step};
use crate::io::sink::{Sink, SinkOptions};
use crate::io::source::InputSpec;
use crate::plan::{PlanError, ScanPlan};
use crate::report::{Made, Stats};
use anyhow::{Result, anyhow, bail};
use arrow_array::{RecordBatch, StringArray};
use arrow_schema::SchemaRef;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

/// What a run produced, for the report.
pub struct ScanResult {
    /// How the run was made, as its report says it: the inputs read, the
    /// chosen columns, the output's shape, the plan's options; all but
    /// the elapsed time, which the caller measures from where it starts.
    pub made: Made,
    /// The counts of every column, for the report.
    pub stats: Stats,
    /// The duplicate clusters, grouped; their file is written by the
    /// caller (`Grouped::write`), if asked for.
    pub grouped: dups::Grouped,
    /// Rows written to the output, if any.
    pub rows_written: Option<u64>,
    /// The output, written in full to its temporary file but not yet in
    /// place: the caller commits it together with the report
    /// (`atomic::commit_all`), or drops it, which removes it, when the
    /// report cannot be written.
    pub output: Option<AtomicFile>,
}

/// One unit of parallel work.
enum Work {
    Csv {
        raw: RawBlock,
        input: Arc<InputShape>,
    },
    /// A batch of a columnar input (Parquet, Arrow IPC), its columns
    /// as the file types them.
    Batch {
        batch: RecordBatch,
        first_record: u64,
        input: Arc<InputShape>,
    },
    Jsonl {
        raw: RawLines,
        input: Arc<InputShape>,
    },
}

/// Where one input holds what the run reads.
struct InputShape {
    /// The input's index among the run's inputs.
    index: u32,
    ncols: usize,
    /// The chosen columns' indices in this input, in the run's order.
    cols: Vec<usize>,
    /// The `--keep` columns' indices in this input.
    keep: Vec<usize>,
    /// Records of the inputs before this one.
    record_base: u64,
}

/// The result of one unit, in input order.
struct Done {
    batch: Option<RecordBatch>,
    stats: Stats,
    /// The unit's valid values, for the duplicate clusters.
    dups: dups::Block,
    progress: u64,
    /// JSON input: the places of the paths its records reached.
    reach: Option<Reach>,
}

/// What the run writes.
enum Shaped {
    Audit,
    Wide(SchemaRef),
    Long(SchemaRef),
}

/// Facts every worker needs, fixed once the first input is open.
struct Shape {
    /// One per chosen column (each with its `--expect`).
    parsers: Vec<Parser>,
    split: Option<Split>,
    shaped: Shaped,
    parse: ParseOptions,
    /// CSV in, CSV or TSV out: the input's cells go through as bytes
    /// (`Binary`), invalid UTF-8 and all; nothing to convert or lose.
    raw_cells: bool,
    /// Long output then has an `input` column.
    several_inputs: bool,
    /// Parquet input: a chosen column's path into its structs and lists
    /// (`io::nested`), if it has one.
    nested: Vec<Option<Vec<Step>>>,
    /// JSON input: the chosen paths, then the kept ones, as one tree.
    json_paths: PathSet,
    json: JsonlOptions,
    /// The dictionaries of long output's `input` and `column`.
    input_names: Arc<StringArray>,
    column_names: Arc<StringArray>,
    /// Whether blocks keep every value in its body: for the duplicates
    /// file, and beside an output, where values kept apart cost the
    /// writer's run more peak memory than their search saves (a 100M-row
    /// scan to Parquet peaked at 309–318 MB against 290). An audit keeps
    /// them apart.
    values_in_bodies: bool,
}

/// Runs `plan`; `progress` is called with the number of input bytes
/// (CSV, JSON) or rows (Parquet) done.
pub fn run(plan: ScanPlan, progress: &dyn Fn(u64)) -> Result<ScanResult> {
    let ScanPlan {
        inputs,
        format,
        csv,
        json,
        output,
        options,
        dups,
        threads,
        first_csv,
        header,
        schema,
        chosen,
        keep,
        nested,
        json_paths,
        column_names,
        parsers,
        split,
        long,
        prefix,
        raw_cells,
        out_schema,
        mut notes,
        ..
    } = plan;
    // The options and the output as the report shows them.
    let options = serde_json::to_value(&options)?;
    let shown_output = output.as_ref().map(|(p, _)| p.display().to_string());
    let several_inputs = inputs.len() > 1;
    let input_names: Vec<String> = inputs.iter().map(InputSpec::display_name).collect();
    let shape = Arc::new(Shape {
        parsers,
        split,
        shaped: match &out_schema {
            None => Shaped::Audit,
            Some(s) if long => Shaped::Long(s.clone()),
            Some(s) => Shaped::Wide(s.clone()),
        },
        parse: csv.parse_options(),
        raw_cells,
        several_inputs,
        json_paths: PathSet::new(&json_paths),
        nested,
        json: json.clone(),
        // Only long output writes them; a wide run's one column name may
        // be a 100 MB header line, not worth two more copies.
        input_names: Arc::new(StringArray::from_iter_values(input_names.iter().filter(|_| long))),
        column_names: Arc::new(StringArray::from_iter_values(column_names.iter().filter(|_| long))),
        values_in_bodies: dups.file || output.is_some(),
    });
    let threads = threads.max(1);
    // The output may replace none of them.
    let input_paths: Vec<PathBuf> = inputs.iter().filter_map(|i| Some(i.path()?.to_path_buf())).collect();
    // One pool for classification and for the writer's parallel column
    // encoding, so --threads bounds both.
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?);
    let (work_tx, work_rx) = sync_channel::<Result<Work>>(threads * 2);
    let reader = {
        let columns = produce::Columns {
            format,
            csv,
            schema,
            chosen,
            keep,
            json,
            nested: shape.nested.clone(),
            all: matches!(shape.shaped, Shaped::Wide(_)),
        };
        thread::Builder::new()
            .name("hdlscan-reader".into())
            .spawn(move || produce::produce(inputs, first_csv, columns, work_tx))?
    };
    let writer = match (&output, &out_schema) {
        (Some((path, format)), Some(schema)) => {
            let refs: Vec<&Path> = input_paths.iter().map(PathBuf::as_path).collect();
            let warnings = format!("{prefix}warnings");
            let mut options = sink_options(&prefix, long).with_joined_lists(schema, &[&warnings]);
            if raw_cells && !long {
                options.header = header;
            }
            let sink = Sink::create_with(path, *format, schema.clone(), &refs, options)?;
            let (tx, rx) = sync_channel::<WriterMsg>(2);
            let handle = thread::Builder::new().name("hdlscan-writer".into()).spawn({
                let pool = Arc::clone(&pool);
                move || write_all(sink, rx, &pool)
            })?;
            Some((tx, handle))
        }
        _ => None,
    };

    let collecting = Collecting::start(dups, &shape, threads, Arc::clone(&pool))?;
    let result = drive(
        progress,
        &shape,
        &pool,
        threads,
        work_rx,
        writer.as_ref().map(|(tx, _)| tx),
        &collecting.tx,
    );
    let (stats, reach) = match result {
        Ok(done) => done,
        Err(e) => {
            // Closing the writer's channel without `Finish` makes it drop the
            // sink, which removes the temporary file; wait for that before
            // returning, since the process exits right after. A writer or a
            // collector that failed first (disk full) has the better message.
            let writer_err = writer.and_then(|(tx, handle)| {
                drop(tx);
                handle.join().ok().and_then(|r| r.err())
            });
            let collector_err = collecting.finish().err();
            let _ = reader.join();
            return Err(match (e.downcast_ref::<Stopped>().copied(), writer_err, collector_err) {
                (Some(Stopped::Writer), Some(w), _) | (Some(Stopped::Collector), _, Some(w)) => w,
                _ => e,
            });
        }
    };
    let infos = reader.join().map_err(|_| anyhow!("the reader thread panicked"))??;
    let collector = collecting.finish()?;
    let rows_out = if long { stats.total().values } else { stats.records };
    let (output, rows_written, grouped) = match writer {
        Some((tx, handle)) => {
            let sent = tx.send(WriterMsg::Finish(rows_out));
            drop(tx);
            // Grouped while the writer closes and syncs the output; an
            // error waits for the writer.
            let grouped = pool.install(|| collector.finish());
            let (file, written) = handle.join().map_err(|_| anyhow!("the writer thread panicked"))??;
            sent.map_err(|_| Stopped::Writer)?;
            (Some(file), Some(written), grouped?)
        }
        None => (None, None, pool.install(|| collector.finish())?),
    };
    // Returning drops the output's temporary file, which removes it.
    if stats.records > 0 {
        let shown = match &input_names[..] {
            [one] => one.clone(),
            all => format!("the {} inputs", all.len()),
        };
        // A record an input (no more): documents, whose records may be a
        // list in them; JSON Lines' lists are fields of their records.
        let documents = shape.json.records.is_none() && stats.records <= input_names.len() as u64;
        unreached(&reach, &shape.json_paths, column_names.len(), &shown, documents)?;
    }
    let read: u64 = infos.iter().map(|i| i.records).sum();
    let cells = stats.total().cells;
    if read != stats.records + stats.skipped_lines
        || cells != stats.records * column_names.len() as u64
        || rows_written.is_some_and(|w| w != rows_out)
    {
        bail!(
            "row accounting failed: {read} records read, {} classified ({cells} cells), {} rows written; no output was kept",
            stats.records,
            rows_written.map_or("no".to_string(), |w| w.to_string())
        );
    }
    for (info, d) in infos.iter().filter_map(|i| Some((i, i.decoding?))) {
        if d.malformed > 0 {
            notes.push(format!(
                "{}: {} byte sequences were not valid {}; each was read as U+FFFD",
                info.path, d.malformed, d.encoding
            ));
        }
    }
    Ok(ScanResult {
        made: Made {
            inputs: infos,
            columns: column_names,
            output: shown_output,
            long,
            column_prefix: prefix,
            notes,
            options,
            elapsed_seconds: 0.0,
        },
        stats,
        grouped,
        rows_written,
        output,
    })
}

/// A thread the main loop hands its results to hung up: its own error,
/// once it is joined, says why, and is the one returned.
#[derive(Debug, Clone, Copy)]
enum Stopped {
    Writer,
    Collector,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = if let Stopped::Writer = self { "the writer" } else { "grouping duplicates" };
        write!(f, "{who} stopped early")
    }
}

impl std::error::Error for Stopped {}

/// The main loop: gather up to `threads` units, map them in parallel,
/// hand the results to the writer and the duplicate collector in order.
fn drive(
    progress: &dyn Fn(u64),
    shape: &Arc<Shape>,
    pool: &rayon::ThreadPool,
    threads: usize,
    work_rx: Receiver<Result<Work>>,
    writer: Option<&SyncSender<WriterMsg>>,
    collector: &SyncSender<dups::Block>,
) -> Result<(Stats, Reach)> {
    let mut stats = Stats::new(shape.parsers.len());
    let mut reach = Reach::default();
    let mut works = Vec::with_capacity(threads);
    loop {
        works.clear();
        for w in work_rx.iter().take(threads) {
            works.push(w?);
        }
        if works.is_empty() {
            break;
        }
        let done: Vec<Result<Done>> =
            pool.install(|| works.par_drain(..).map(|w| classify::process(w, shape)).collect());
        let mut done_units = 0;
        for d in done {
            let d = d?;
            if let (Some(batch), Some(tx)) = (d.batch, writer) {
                tx.send(WriterMsg::Batch(batch)).map_err(|_| Stopped::Writer)?;
            }
            stats += d.stats;
            if let Some(r) = d.reach {
                reach.merge(r);
            }
            // In input order: the order defines a cluster's first member.
            collector.send(d.dups).map_err(|_| Stopped::Collector)?;
            done_units += d.progress;
        }
        progress(done_units);
    }
    Ok((stats, reach))
}

/// A JSON path that no record reached is a typo (`-c dooi`), refused as
/// the command line's mistake, as a CSV header without the column is;
/// the first `chosen` paths are `--column`'s, the others `--keep`'s.
/// Read as `documents` (without `--records`, a record an input), a record
/// whose key holds a list may be a document whose records are that list:
/// the flag that reads it.
fn unreached(reach: &Reach, paths: &PathSet, chosen: usize, shown: &str, documents: bool) -> Result<()> {
    let Some(u) = reach.first_unreached(paths) else {
        return Ok(());
    };
    let flag = if u.path < chosen { "--column" } else { "--keep" };
    let path = &paths.paths()[u.path];
    let hint = match (documents, u.lists.first()) {
        (true, Some(keys)) => {
            let steps = keys.iter().map(|k| crate::io::jsonl::Step::Key(k.as_str().into())).collect();
            let path = crate::io::jsonl::JsonPath::from_steps(steps).map_or_else(|_| keys.join("."), |p| p.to_string());
            format!("; if the records are the list under '{path}', read them with --records {path}")
        }
        _ => String::new(),
    };
    Err(PlanError::flag(
        format!("{flag} {path}"),
        format_args!("reaches nothing in any record of {shown}: {}{hint}", u.reason),
    )
    .into())
}

/// The duplicate collector on a thread of its own: appending a unit's
/// valid values, and spilling them past its budget, overlaps the next
/// units' classification instead of holding the workers back.
struct Collecting {
    tx: SyncSender<dups::Block>,
    handle: thread::JoinHandle<Result<dups::Collector>>,
}

impl Collecting {
    /// `depth` blocks may wait for it: a unit's worth each. A spill runs
    /// on the scan's `pool`, so `--threads` bounds it too.
    fn start(opts: dups::Options, shape: &Shape, depth: usize, pool: Arc<rayon::ThreadPool>) -> Result<Collecting> {
        let (tx, rx) = sync_channel::<dups::Block>(depth);
        let keep_values = shape.values_in_bodies && !opts.file;
        let handle = thread::Builder::new().name("hdlscan-dups".into()).spawn(move || {
            let mut collector = dups::Collector::new(opts);
            if keep_values {
                collector = collector.keeping_values();
            }
            for block in rx {
                pool.install(|| collector.append(block))?;
            }
            Ok(collector)
        })?;
        Ok(Collecting { tx, handle })
    }

    /// Every block appended, or the error that stopped it.
    fn finish(self) -> Result<dups::Collector> {
        drop(self.tx);
        self.handle
            .join()
            .map_err(|_| anyhow!("the duplicates thread panicked"))?
    }
}

enum WriterMsg {
    Batch(RecordBatch),
    /// All batches were sent; commit if exactly this many rows were.
    Finish(u64),
}

/// The writer settings of `scan`'s output: hdlscan's Parquet defaults,
/// without dictionaries on the always-distinct added columns and without
/// statistics where they prune nothing (see `columns`); `long` output's
/// leading columns too.
pub fn sink_options(column_prefix: &str, long: bool) -> SinkOptions {
    let long_only = |names: &'static [&'static str]| names.iter().filter(move |_| long);
    let named = |name: &&str| format!("{column_prefix}{name}");
    SinkOptions::parquet_without(
        columns::DISTINCT.iter().chain(long_only(&columns::LONG_NO_DICTIONARY)).map(named),
        columns::NO_STATISTICS.iter().chain(long_only(&columns::LONG_NO_STATISTICS)).map(named),
    )
}

fn write_all(mut sink: Sink, rx: Receiver<WriterMsg>, pool: &rayon::ThreadPool) -> Result<(AtomicFile, u64)> {
    let mut rows = 0u64;
    for msg in rx {
        match msg {
            WriterMsg::Batch(b) => {
                rows += b.num_rows() as u64;
                pool.install(|| sink.write(&b))?;
            }
            WriterMsg::Finish(expected) => {
                if expected != rows {
                    bail!("row accounting failed: {expected} rows classified but {rows} sent to the writer");
                }
                let (mut file, written) = pool.install(|| sink.finish_writer())?;
                // On this thread, while the main thread counts duplicates.
                file.sync_now()
                    .map_err(|e| anyhow!("writing {}: {}", file.target().display(), os_reason(&e)))?;
                return Ok((file, written));
            }
        }
    }
    // Channel closed without Finish: the run failed; dropping the sink
    // removes the temporary file.
    bail!("run aborted; no output written")
}
