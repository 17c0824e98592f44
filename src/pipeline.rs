//! The batch pipeline of `hdlscan scan` (the qsv/xsv pattern): a reader
//! thread cuts the inputs into blocks (CSV blocks at record boundaries,
//! Parquet record batches), the main thread maps a batch of blocks on
//! rayon's pool and collects the results in input order, and a writer
//! thread writes them sequentially. Every channel is bounded, so memory
//! stays bounded whatever the input size.

use crate::columns;
use crate::heap;
use crate::id::{Parser, Rendered, Scratch};
use crate::io::atomic::{AtomicFile, os_reason};
use crate::io::csv_in::{self, CsvBlockReader, CsvOptions, InputSpec, ParseOptions, RawBlock};
use crate::io::parquet_in::{self, IdColumn, ParquetInput};
use crate::io::sink::{self, OutputFormat, Sink, SinkOptions};
use crate::report::{InputInfo, Stats};
use anyhow::{Context, Result, anyhow, bail};
use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::file::properties::EnabledStatistics;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

/// The input formats `scan` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    Csv,
    Tsv,
    Parquet,
}

impl InputFormat {
    /// By extension, looking through `.gz` / `.zst`; stdin is CSV.
    pub fn detect(spec: &InputSpec) -> InputFormat {
        let InputSpec::Path(p) = spec else {
            return InputFormat::Csv;
        };
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let name = name
            .strip_suffix(".gz")
            .or_else(|| name.strip_suffix(".zst"))
            .unwrap_or(&name);
        if name.ends_with(".parquet") || name.ends_with(".pq") {
            InputFormat::Parquet
        } else if name.ends_with(".tsv") || name.ends_with(".tab") {
            InputFormat::Tsv
        } else {
            InputFormat::Csv
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Csv => "csv",
            InputFormat::Tsv => "tsv",
            InputFormat::Parquet => "parquet",
        }
    }
}

/// Widest input written to Parquet or Arrow. Each Parquet column writer
/// holds its own page buffers, dictionary and statistics: a 2,000-column
/// CSV to Parquet peaked at 360 MB (an audit measured 1.4 GB at 5,000), so
/// the cap keeps a wide export near the 300 MB of a normal run. Wider ones
/// go to CSV or TSV output, which streams.
pub const MAX_COLUMNAR_COLUMNS: usize = 1_000;

/// What to scan and how.
pub struct ScanConfig {
    pub inputs: Vec<InputSpec>,
    pub input_format: InputFormat,
    /// Column name, or 1-based number when no column has that name.
    pub column: String,
    pub csv: CsvOptions,
    pub output: Option<(PathBuf, OutputFormat)>,
    pub column_prefix: String,
    pub parser: Parser,
    pub threads: usize,
    /// Called with the number of input bytes (CSV) or rows (Parquet) done.
    pub progress: Option<Box<dyn Fn(u64) + Send + Sync>>,
}

/// What a run produced, for the report.
pub struct ScanResult {
    pub inputs: Vec<InputInfo>,
    pub column_name: String,
    pub stats: Stats,
    pub rows_written: Option<u64>,
    /// The output, written in full to its temporary file but not yet in
    /// place: the caller commits it together with the report
    /// (`atomic::commit_all`), or drops it, which removes it, when the
    /// report cannot be written.
    pub output: Option<AtomicFile>,
}

/// One unit of parallel work.
enum Work {
    Csv { raw: RawBlock, record_base: u64 },
    Parquet { batch: RecordBatch, first_record: u64 },
}

/// The result of one unit, in input order.
struct Done {
    batch: Option<RecordBatch>,
    stats: Stats,
    progress: u64,
}

/// Facts every worker needs, fixed once the first input is open.
struct Shape {
    col: usize,
    ncols: usize,
    schema: Option<SchemaRef>,
    parse: ParseOptions,
    /// CSV in, CSV or TSV out: the input's cells go through as bytes
    /// (`Binary`), invalid UTF-8 and all; nothing to convert or lose.
    raw_cells: bool,
}

pub fn run(cfg: ScanConfig) -> Result<ScanResult> {
    if cfg.inputs.is_empty() {
        bail!("no input given");
    }
    let mut first_csv = None;
    // The first CSV input's header as it was, for CSV/TSV output.
    let mut header = Vec::new();
    let (input_schema, first_name) = match cfg.input_format {
        InputFormat::Parquet => {
            let InputSpec::Path(p) = &cfg.inputs[0] else {
                bail!("Parquet cannot be read from stdin; give a file")
            };
            let pq = ParquetInput::open(p)?;
            (pq.schema().clone(), p.display().to_string())
        }
        _ => {
            // This reader stays open and goes to the reader thread: stdin can
            // be read only once.
            let mut r = CsvBlockReader::open(&cfg.inputs[0], cfg.csv)?;
            let schema = utf8_schema(r.headers());
            header = r.take_header_bytes();
            first_csv = Some(r);
            (schema, cfg.inputs[0].display_name())
        }
    };
    let delimiter = (cfg.input_format != InputFormat::Parquet).then_some(cfg.csv.delimiter);
    let col = resolve_column(&input_schema, &cfg.column, &first_name, delimiter)?;
    if cfg.input_format == InputFormat::Parquet {
        parquet_in::check_identifier_column(&input_schema, col, &first_name)?;
    }
    let column_name = input_schema.field(col).name().clone();
    let names: Vec<String> = input_schema.fields().iter().map(|f| f.name().clone()).collect();
    if let Some((path, format)) = &cfg.output
        && *format != OutputFormat::Csv
        && *format != OutputFormat::Tsv
        && names.len() > MAX_COLUMNAR_COLUMNS
    {
        bail!(
            "{first_name} has {} columns; hdlscan writes at most {MAX_COLUMNAR_COLUMNS} to {} ({}), since \
                 each Parquet column writer holds its own buffers; write CSV or TSV output instead (-o out.csv)",
            names.len(),
            format.name(),
            path.display()
        );
    }
    if let Some((path, format)) = &cfg.output {
        // Parquet and Arrow readers (pyarrow, DuckDB) refuse or rename a
        // repeated column name; CSV keeps the header as it is.
        let columnar = *format != OutputFormat::Csv && *format != OutputFormat::Tsv;
        let mut seen = std::collections::HashSet::new();
        if let Some(dup) = names.iter().find(|n| !seen.insert(n.as_str()))
            && columnar
        {
            bail!(
                "{first_name}: more than one column is named {dup:?}, which {} readers cannot tell apart \
                     ({}); write CSV or TSV output instead (-o out.csv), which keeps the header as it is",
                format.name(),
                path.display()
            );
        }
    }
    let raw_cells = cfg.input_format != InputFormat::Parquet
        && matches!(&cfg.output, Some((_, OutputFormat::Csv | OutputFormat::Tsv)));
    let out_schema = match &cfg.output {
        Some(_) => {
            let mut fields: Vec<Arc<Field>> = match raw_cells {
                true => input_schema
                    .fields()
                    .iter()
                    .map(|f| Arc::new(f.as_ref().clone().with_data_type(DataType::Binary)))
                    .collect(),
                false => input_schema.fields().iter().cloned().collect(),
            };
            fields.extend(columns::fields(&cfg.column_prefix, &names)?.iter().cloned());
            Some(Arc::new(Schema::new(fields)))
        }
        None => None,
    };
    let shape = Arc::new(Shape {
        col,
        ncols: names.len(),
        schema: out_schema.clone(),
        parse: ParseOptions {
            delimiter: cfg.csv.delimiter,
            allow_short_rows: cfg.csv.allow_short_rows,
        },
        raw_cells,
    });

    let threads = cfg.threads.max(1);
    // One pool for classification and for the writer's parallel column
    // encoding, so --threads bounds both.
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?);
    let (work_tx, work_rx) = sync_channel::<Result<Work>>(threads * 2);
    let reader = {
        let (inputs, format, csv, schema) = (cfg.inputs.clone(), cfg.input_format, cfg.csv, input_schema.clone());
        // Without output only the identifier column is read: the other
        // columns of later Parquet inputs may differ in type.
        let audit_only = cfg.output.is_none().then_some(col);
        thread::Builder::new()
            .name("hdlscan-reader".into())
            .spawn(move || produce(inputs, first_csv, format, csv, schema, audit_only, work_tx))?
    };
    let writer = match (&cfg.output, &out_schema) {
        (Some((path, format)), Some(schema)) => {
            let inputs: Vec<PathBuf> = cfg
                .inputs
                .iter()
                .filter_map(|i| match i {
                    InputSpec::Path(p) => Some(p.clone()),
                    InputSpec::Stdin => None,
                })
                .collect();
            let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            let mut options = sink_options(&cfg.column_prefix);
            if raw_cells {
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

    let result = drive(&cfg, &shape, &pool, threads, work_rx, writer.as_ref().map(|(tx, _)| tx));
    let mut stats = match result {
        Ok(stats) => stats,
        Err(e) => {
            // Closing the writer's channel without `Finish` makes it drop the
            // sink, which removes the temporary file; wait for that before
            // returning, since the process exits right after. A writer that
            // failed first (disk full) has the better message.
            let writer_err = writer.and_then(|(tx, handle)| {
                drop(tx);
                handle.join().ok().and_then(|r| r.err())
            });
            let _ = reader.join();
            return Err(match writer_err {
                Some(w) if e.to_string().contains("writer stopped early") => w,
                _ => e,
            });
        }
    };
    let infos = reader.join().map_err(|_| anyhow!("the reader thread panicked"))??;
    let (output, rows_written) = match writer {
        Some((tx, handle)) => {
            let sent = tx.send(WriterMsg::Finish(stats.rows));
            drop(tx);
            // Counted while the writer closes and syncs the output (the
            // report reads the count back); an error waits for the writer.
            let counted = stats.canonicals.count_unique();
            let (file, written) = handle.join().map_err(|_| anyhow!("the writer thread panicked"))??;
            sent.map_err(|_| anyhow!("the writer stopped early"))?;
            counted?;
            (Some(file), Some(written))
        }
        None => (None, None),
    };
    let read: u64 = infos.iter().map(|i| i.rows).sum();
    if read != stats.rows || rows_written.is_some_and(|w| w != read) {
        bail!(
            "row accounting failed: {read} records read, {} classified, {} written; no output was kept",
            stats.rows,
            rows_written.map_or("none".to_string(), |w| w.to_string())
        );
    }
    Ok(ScanResult {
        inputs: infos,
        column_name,
        stats,
        rows_written,
        output,
    })
}

/// The main loop: gather up to `threads` units, map them in parallel,
/// hand the results to the writer in order.
fn drive(
    cfg: &ScanConfig,
    shape: &Arc<Shape>,
    pool: &rayon::ThreadPool,
    threads: usize,
    work_rx: Receiver<Result<Work>>,
    writer: Option<&SyncSender<WriterMsg>>,
) -> Result<Stats> {
    let mut stats = Stats::new();
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
            pool.install(|| works.par_drain(..).map(|w| process(w, shape, &cfg.parser)).collect());
        let mut progress = 0;
        for d in done {
            let d = d?;
            if let (Some(batch), Some(tx)) = (d.batch, writer) {
                tx.send(WriterMsg::Batch(batch))
                    .map_err(|_| anyhow!("the writer stopped early"))?;
            }
            stats += d.stats;
            progress += d.progress;
        }
        if let Some(p) = &cfg.progress {
            p(progress);
        }
    }
    Ok(stats)
}

enum WriterMsg {
    Batch(RecordBatch),
    /// All batches were sent; commit if exactly this many rows were.
    Finish(u64),
}

/// The writer settings of `scan`'s output: hdlscan's Parquet defaults,
/// without dictionaries on the always-distinct added columns and without
/// statistics where they prune nothing (see `columns`).
pub fn sink_options(column_prefix: &str) -> SinkOptions {
    let mut props = sink::parquet_properties_builder(sink::parquet_zstd(sink::PARQUET_ZSTD_LEVEL));
    for name in columns::DISTINCT {
        props = props.set_column_dictionary_enabled(ColumnPath::from(format!("{column_prefix}{name}")), false);
    }
    for name in columns::NO_STATISTICS {
        let path = ColumnPath::from(format!("{column_prefix}{name}"));
        props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
    }
    SinkOptions {
        parquet: props.build(),
        ..SinkOptions::default()
    }
}

fn write_all(mut sink: Sink, rx: Receiver<WriterMsg>, pool: &rayon::ThreadPool) -> Result<(AtomicFile, u64)> {
    let (mut rows, mut trimmer) = (0u64, heap::Trimmer::new(pool.current_num_threads()));
    for msg in rx {
        match msg {
            WriterMsg::Batch(b) => {
                let n = b.num_rows() as u64;
                rows += n;
                pool.install(|| sink.write(&b))?;
                drop(b);
                trimmer.wrote(n);
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

/// The reader thread: every input in turn, cut into units of work. Returns
/// the per-input facts for the report.
fn produce(
    inputs: Vec<InputSpec>,
    mut first_csv: Option<CsvBlockReader>,
    format: InputFormat,
    csv: CsvOptions,
    schema: SchemaRef,
    audit_only: Option<usize>,
    tx: SyncSender<Result<Work>>,
) -> Result<Vec<InputInfo>> {
    let mut infos = Vec::with_capacity(inputs.len());
    let mut record_base = 0u64;
    for spec in &inputs {
        let r = match format {
            InputFormat::Parquet => produce_parquet(spec, &schema, audit_only, record_base, &tx),
            _ => match first_csv.take() {
                Some(r) => produce_csv(Ok(r), spec, csv, &schema, record_base, &tx),
                None => produce_csv(CsvBlockReader::open(spec, csv), spec, csv, &schema, record_base, &tx),
            },
        };
        match r {
            Ok(Some(info)) => {
                record_base += info.rows;
                infos.push(info);
            }
            // The main thread stopped listening: it has an error of its own.
            Ok(None) => return Ok(infos),
            Err(e) => {
                let _ = tx.send(Err(anyhow!("{e:#}")));
                return Err(e);
            }
        }
    }
    Ok(infos)
}

fn produce_csv(
    reader: Result<CsvBlockReader, csv_in::PositionedError>,
    spec: &InputSpec,
    csv: CsvOptions,
    schema: &SchemaRef,
    record_base: u64,
    tx: &SyncSender<Result<Work>>,
) -> Result<Option<InputInfo>> {
    let mut reader = reader?;
    same_columns(
        schema,
        reader.headers().iter().map(String::as_str),
        &spec.display_name(),
    )?;
    let (mut rows, mut bytes) = (0u64, 0u64);
    while let Some(raw) = reader.next_block()? {
        rows += raw.nrecords;
        bytes = bytes.max(raw.byte_offset + raw.data.len() as u64);
        if tx.send(Ok(Work::Csv { raw, record_base })).is_err() {
            return Ok(None);
        }
    }
    if bytes == 0
        && let InputSpec::Path(p) = spec
    {
        bytes = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    }
    let format = if csv.delimiter == b'\t' { "tsv" } else { "csv" };
    Ok(Some(InputInfo {
        path: spec.display_name(),
        format: format.into(),
        bytes,
        rows,
    }))
}

/// One Parquet input. Its columns must be the first input's, by name and
/// type, since they are written into one output; an audit without output
/// (`audit_only`: the identifier column's index) needs the names only, and
/// an identifier column of a string or bytes type, whichever.
fn produce_parquet(
    spec: &InputSpec,
    schema: &SchemaRef,
    audit_only: Option<usize>,
    record_base: u64,
    tx: &SyncSender<Result<Work>>,
) -> Result<Option<InputInfo>> {
    let InputSpec::Path(path) = spec else {
        bail!("Parquet cannot be read from stdin; give a file")
    };
    let pq = ParquetInput::open(path)?;
    let shown = path.display().to_string();
    if pq.schema().fields() != schema.fields() {
        let names = |s: &Schema| s.fields().iter().map(|f| f.name().clone()).collect::<Vec<_>>();
        if names(pq.schema()) != names(schema) {
            bail!(
                "{shown}: its columns ({}) differ from the first input's ({}); inputs of one run must have the same columns",
                field_list(pq.schema()),
                field_list(schema)
            );
        }
        if let Some(col) = audit_only {
            parquet_in::check_identifier_column(pq.schema(), col, &shown)?;
        } else {
            // Same names: say which column's type differs.
            let (ours, first) = pq
                .schema()
                .fields()
                .iter()
                .zip(schema.fields())
                .find(|(a, b)| a != b)
                .expect("schemas differ in a field");
            let describe = |f: &Field| format!("{}{}", f.data_type(), if f.is_nullable() { "" } else { " not null" });
            bail!(
                "{shown}: column {:?} is {} here but {} in the first input; inputs of one run must have the same column types",
                ours.name(),
                describe(ours),
                describe(first)
            );
        }
    }
    let mut rows = 0u64;
    for rg in 0..pq.num_row_groups() {
        for batch in pq.read_row_group(rg)? {
            let batch = batch?;
            let first_record = record_base + rows + 1;
            rows += batch.num_rows() as u64;
            if tx.send(Ok(Work::Parquet { batch, first_record })).is_err() {
                return Ok(None);
            }
        }
    }
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(Some(InputInfo {
        path: shown,
        format: "parquet".into(),
        bytes,
        rows,
    }))
}

/// Classifies one unit of work.
fn process(w: Work, shape: &Shape, parser: &Parser) -> Result<Done> {
    let mut scratch = Scratch::default();
    let mut rendered = Rendered::default();
    let mut stats = Stats::new();
    match w {
        Work::Csv { raw, record_base } => {
            let rows = csv_in::parse_block(&raw, shape.ncols, shape.parse)?;
            let n = rows.nrows();
            stats.rows = n as u64;
            stats.padded_rows = rows.padded_rows();
            let mut out = shape.schema.as_ref().map(|_| {
                let per_col = raw.data.len() / shape.ncols.max(1);
                let inputs: Vec<TextColumn> = (0..shape.ncols)
                    .map(|_| TextColumn::with_capacity(n, per_col))
                    .collect();
                (inputs, columns::Builder::with_capacity(n))
            });
            for row in 0..n {
                let v = rows.field(row, shape.col);
                let record = record_base + rows.record_number(row);
                let p = parser.parse(v, &mut scratch);
                parser.render(&p, &mut rendered);
                stats.record(record, v, &p, rendered.canonical());
                if let Some((inputs, enriched)) = &mut out {
                    for (c, b) in inputs.iter_mut().enumerate() {
                        b.push(rows.field(row, c));
                    }
                    enriched.push(record, &p, &rendered);
                }
            }
            let batch = match (out, &shape.schema) {
                (Some((inputs, enriched)), Some(schema)) => {
                    let mut arrays: Vec<ArrayRef> = Vec::with_capacity(schema.fields().len());
                    for col in inputs {
                        if shape.raw_cells {
                            arrays.push(Arc::new(col.finish_bytes()?));
                            continue;
                        }
                        // The identifier column's copy counts too: its
                        // value is `bad_utf8`, but the cell written is
                        // altered all the same (and `bad_utf8` alone does
                        // not say so: CSV output and Binary Parquet input
                        // keep the bytes).
                        arrays.push(Arc::new(col.finish(&mut stats.lossy_cells)?));
                    }
                    arrays.extend(enriched.finish());
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                _ => None,
            };
            Ok(Done {
                batch,
                stats,
                progress: raw.data.len() as u64,
            })
        }
        Work::Parquet { batch, first_record } => {
            let n = batch.num_rows();
            stats.rows = n as u64;
            let column = IdColumn::new(batch.column(shape.col).as_ref())?;
            let mut enriched = shape.schema.as_ref().map(|_| columns::Builder::with_capacity(n));
            for i in 0..n {
                // A null cell is classified as an empty value.
                let v = column.get_bytes(i).unwrap_or(b"");
                let record = first_record + i as u64;
                let p = parser.parse(v, &mut scratch);
                parser.render(&p, &mut rendered);
                stats.record(record, v, &p, rendered.canonical());
                if let Some(b) = &mut enriched {
                    b.push(record, &p, &rendered);
                }
            }
            let out = match (enriched, &shape.schema) {
                (Some(b), Some(schema)) => {
                    let mut arrays: Vec<ArrayRef> = batch.columns().to_vec();
                    arrays.extend(b.finish());
                    Some(RecordBatch::try_new(schema.clone(), arrays)?)
                }
                _ => None,
            };
            Ok(Done {
                batch: out,
                stats,
                progress: n as u64,
            })
        }
    }
}

/// One CSV column of a block as an Arrow string array: the fields'
/// bytes end to end plus offsets, validated as UTF-8 once for the whole
/// column instead of once per cell.
struct TextColumn {
    values: Vec<u8>,
    offsets: Vec<i32>,
}

impl TextColumn {
    fn with_capacity(rows: usize, bytes: usize) -> TextColumn {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        TextColumn {
            values: Vec::with_capacity(bytes),
            offsets,
        }
    }

    fn push(&mut self, field: &[u8]) {
        self.values.extend_from_slice(field);
        // Blocks are capped below 2 GiB (--max-record-mib ≤ 2047), so
        // offsets fit in i32.
        self.offsets.push(self.values.len() as i32);
    }

    /// The column as bytes, as read (for CSV and TSV output).
    fn finish_bytes(self) -> Result<BinaryArray> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        Ok(BinaryArray::try_new(offsets, Buffer::from_vec(self.values), None)?)
    }

    /// The column; invalid UTF-8 in a field is replaced (U+FFFD) and
    /// counted in `lossy`, since Arrow and Parquet strings are UTF-8.
    fn finish(self, lossy: &mut u64) -> Result<StringArray> {
        // Valid as a whole and cut only at char boundaries: every field is
        // valid (the common case, one pass).
        let whole_ok = std::str::from_utf8(&self.values)
            .is_ok_and(|s| self.offsets.iter().all(|&o| s.is_char_boundary(o as usize)));
        if whole_ok {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
            // SAFETY: the offsets were pushed as the values grew, so they
            // are in bounds, and the check above is `try_new`'s own: UTF-8,
            // cut only at char boundaries. Validating twice cost a scan 1–2%.
            return Ok(unsafe { StringArray::new_unchecked(offsets, Buffer::from_vec(self.values), None) });
        }
        let mut b = StringBuilder::with_capacity(self.offsets.len() - 1, self.values.len());
        for w in self.offsets.windows(2) {
            let field = &self.values[w[0] as usize..w[1] as usize];
            match std::str::from_utf8(field) {
                Ok(s) => b.append_value(s),
                Err(_) => {
                    *lossy += 1;
                    b.append_value(String::from_utf8_lossy(field));
                }
            }
        }
        Ok(b.finish())
    }
}

fn utf8_schema(headers: &[String]) -> SchemaRef {
    Arc::new(Schema::new(
        headers
            .iter()
            .map(|h| Field::new(h, DataType::Utf8, true))
            .collect::<Vec<_>>(),
    ))
}

fn field_list(schema: &Schema) -> String {
    crate::io::describe_columns(schema.fields().iter().map(|f| f.name().as_str()))
}

fn same_columns<'a>(schema: &Schema, headers: impl Iterator<Item = &'a str>, shown: &str) -> Result<()> {
    let got: Vec<&str> = headers.collect();
    let want: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    if got != want {
        bail!(
            "{shown}: its columns ({}) differ from the first input's ({}); inputs of one run must have the same columns",
            crate::io::describe_columns(got.iter().copied()),
            crate::io::describe_columns(want.iter().copied())
        );
    }
    Ok(())
}

/// `--column`: a header name first; a number is a 1-based column index when
/// no column has that name. A name that several columns share is refused.
/// `delimiter` is the CSV input's: a header read as one column that holds
/// another common delimiter gets a hint, since that is the usual cause.
fn resolve_column(schema: &Schema, spec: &str, shown: &str, delimiter: Option<u8>) -> Result<usize> {
    let same = schema.fields().iter().filter(|f| f.name() == spec).count();
    if same > 1 {
        bail!("{shown}: {same} columns are named {spec:?}; choose one by its number (1-based) with --column");
    }
    parquet_in::resolve_column_spec(schema, spec, shown)
        .map_err(|e| match delimiter.and_then(|d| delimiter_hint(schema, d)) {
            Some(hint) => anyhow!("{e:#} ({hint})"),
            None => e,
        })
        .context("--column")
}

/// When a CSV header came out as one column holding `;`, a tab or `|`
/// (and that is not the delimiter in use): the `--delimiter` to try.
fn delimiter_hint(schema: &Schema, delimiter: u8) -> Option<String> {
    let [field] = &schema.fields()[..] else { return None };
    let name = field.name().as_bytes();
    let &(_, shown, arg) = [(b';', "';'", "';'"), (b'\t', "a tab", "tab"), (b'|', "'|'", "'|'")]
        .iter()
        .find(|&&(b, _, _)| b != delimiter && name.contains(&b))?;
    Some(format!(
        "the header is one column holding {shown}: if that is the delimiter, add --delimiter {arg}"
    ))
}
