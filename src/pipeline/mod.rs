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
mod text_column;

use crate::columns;
use crate::dups;
use crate::heap;
use crate::id::{Options, Parser, Split};
use crate::io::atomic::{AtomicFile, os_reason};
use crate::io::csv_in::{CsvBlockReader, CsvOptions, InputSpec, ParseOptions, RawBlock};
use crate::io::jsonl::{JsonPath, JsonlOptions, PathSet, RawLines, Step};
use crate::io::nested;
use crate::io::parquet_in::{self, ParquetInput};
use crate::io::sink::{self, OutputFormat, Sink, SinkOptions};
use crate::report::{InputInfo, Stats};
use crate::select;
use anyhow::{Result, anyhow, bail};
use arrow_array::{RecordBatch, StringArray};
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
    /// JSON Lines (`.jsonl`, `.ndjson`, `.json`), or with `--records` JSON
    /// documents holding an array of records.
    Jsonl,
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
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") || name.ends_with(".json") {
            InputFormat::Jsonl
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
            InputFormat::Jsonl => "jsonl",
        }
    }
}

/// Widest input written to Parquet or Arrow. Each Parquet column writer
/// holds its own page buffers, dictionary and statistics: a 2,000-column
/// CSV to Parquet peaked at 360 MB (an audit measured 1.4 GB at 5,000), so
/// the cap keeps a wide export near the 300 MB of a normal run. Wider ones
/// go to CSV or TSV output, which streams.
pub const MAX_COLUMNAR_COLUMNS: usize = 1_000;

/// Largest block of JSON Lines cut for a worker (see `run`).
const JSON_BLOCK: usize = 4 << 20;

/// What to scan and how.
pub struct ScanConfig {
    pub inputs: Vec<InputSpec>,
    pub input_format: InputFormat,
    /// `--column` selectors (see `select`).
    pub columns: Vec<String>,
    /// `--keep` selectors: input columns carried into long output.
    pub keep: Vec<String>,
    /// `--expect` arguments: `NS` for every chosen column, `COLUMN=NS` for some.
    pub expect: Vec<String>,
    pub split: Option<Split>,
    /// Long output even for one column not split.
    pub long: bool,
    pub csv: CsvOptions,
    /// JSON Lines input: its block and line sizes, bad lines, `--records`.
    pub json: JsonlOptions,
    pub output: Option<(PathBuf, OutputFormat)>,
    /// `--column-prefix`; when not given, a prefix is chosen only if an
    /// input column is named like an added one (`columns::free_prefix`).
    pub column_prefix: Option<String>,
    /// The parser's options, before `--expect`.
    pub parser: Options,
    /// How the duplicate clusters are found (memory, temporary files).
    pub dups: dups::Options,
    pub threads: usize,
    /// Called with the number of input bytes (CSV) or rows (Parquet) done.
    pub progress: Option<Box<dyn Fn(u64) + Send + Sync>>,
}

/// What a run produced, for the report.
pub struct ScanResult {
    pub inputs: Vec<InputInfo>,
    /// The chosen columns' names, in the run's order.
    pub columns: Vec<String>,
    /// Whether the output (or would-be output) is long.
    pub long: bool,
    /// The added columns' prefix, and whether hdlscan chose it (an input
    /// column is named like one of them) rather than `--column-prefix`.
    pub column_prefix: String,
    pub prefix_chosen: bool,
    /// What the run noticed that the user should hear (see `Report::notes`).
    pub notes: Vec<String>,
    pub stats: Stats,
    /// The duplicate clusters, grouped; their file is written by the
    /// caller (`Grouped::write`), if asked for.
    pub grouped: dups::Grouped,
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
    Parquet {
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
}

pub fn run(cfg: ScanConfig) -> Result<ScanResult> {
    if cfg.inputs.is_empty() {
        bail!("no input given");
    }
    let mut first_csv = None;
    // The first CSV input's header as it was, for CSV/TSV output.
    let mut header = Vec::new();
    let json = cfg.input_format == InputFormat::Jsonl;
    // Parquet paths into structs and lists (`ids.doi`), per chosen column.
    let mut nested: Vec<Option<(String, Vec<Step>)>> = Vec::new();
    let json_paths = match json {
        true => json_paths(&cfg.columns, &cfg.keep)?,
        false => Vec::new(),
    };
    let (input_schema, first_name) = match cfg.input_format {
        // No header: the columns are the paths, chosen then kept.
        InputFormat::Jsonl => {
            let names: Vec<String> = json_paths.iter().map(|p| p.to_string()).collect();
            (produce::utf8_schema(&names), cfg.inputs[0].display_name())
        }
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
            let schema = produce::utf8_schema(r.headers());
            header = r.take_header_bytes();
            first_csv = Some(r);
            (schema, cfg.inputs[0].display_name())
        }
    };
    let names: Vec<String> = input_schema.fields().iter().map(|f| f.name().clone()).collect();
    let delimiter = (cfg.input_format != InputFormat::Parquet).then_some(cfg.csv.delimiter);
    // A selector that selects nothing is a command line to fix: exit 2.
    let usage = |flag: &'static str| move |e: anyhow::Error| anyhow!(crate::cli::Usage(format!("{flag}: {e:#}")));
    let (chosen, keep) = match json {
        true => {
            let n = json_paths.len() - cfg.keep.len();
            ((0..n).collect::<Vec<_>>(), (n..json_paths.len()).collect::<Vec<_>>())
        }
        false => (
            choose_or_nested(
                &names,
                &cfg.columns,
                &first_name,
                delimiter,
                &input_schema,
                cfg.input_format,
                &mut nested,
            )
            .map_err(usage("--column"))?,
            select::select(&names, &cfg.keep, &first_name).map_err(usage("--keep"))?,
        ),
    };
    // `--expect PATH=NS` names a path as the user spelled it.
    let expect: Vec<String> = match json {
        true => cfg
            .expect
            .iter()
            .map(|e| match select::split_expect(e) {
                (Some(col), ns) => JsonPath::parse(col).map_or(e.clone(), |p| format!("{p}={ns}")),
                (None, _) => e.clone(),
            })
            .collect(),
        false => cfg.expect.clone(),
    };
    if nested.len() < chosen.len() {
        nested.resize(chosen.len(), None);
    }
    if cfg.input_format == InputFormat::Parquet {
        for (&c, n) in chosen.iter().zip(&nested) {
            if n.is_none() {
                parquet_in::check_identifier_column(&input_schema, c, &first_name)?;
            }
        }
    }
    let parsers = column_parsers(&cfg.parser, &expect, &names, &chosen, &first_name)?;
    let column_names: Vec<String> = chosen
        .iter()
        .zip(&nested)
        .map(|(&c, n)| n.as_ref().map_or_else(|| names[c].clone(), |(path, _)| path.clone()))
        .collect();
    let chosen_count = chosen.len();
    // A file of DOIs without a header line loses its first DOI to the
    // header: say so when a chosen column's name is itself an identifier.
    let mut notes = Vec::new();
    if matches!(cfg.input_format, InputFormat::Csv | InputFormat::Tsv) && cfg.csv.has_headers {
        let mut scratch = crate::id::Scratch::default();
        for (name, parser) in column_names.iter().zip(&parsers) {
            let p = parser.parse(name.as_bytes(), &mut scratch);
            if p.error.is_none() {
                notes.push(format!(
                    "the header of column {:?} is itself a valid {}: if {first_name} has no header line, add -n \
                     (-c then takes column numbers)",
                    crate::report::visible(name),
                    p.kind
                ));
            }
        }
    }
    // JSON has no input row to write back: its output is always long.
    let many = nested.iter().flatten().any(|(_, steps)| steps.contains(&Step::Each));
    let long = cfg.long || json || many || chosen.len() > 1 || cfg.split.is_some();
    if !keep.is_empty() && !long {
        bail!(crate::cli::Usage(
            "--keep carries input columns into long output; wide output (one column, no --split) has every input \
             column already: drop --keep, or add --long"
                .into()
        ));
    }
    let raw_cells = matches!(cfg.input_format, InputFormat::Csv | InputFormat::Tsv)
        && matches!(&cfg.output, Some((_, OutputFormat::Csv | OutputFormat::Tsv)));
    let several_inputs = cfg.inputs.len() > 1;
    let (prefix, prefix_chosen) = match &cfg.column_prefix {
        Some(p) => (p.clone(), false),
        None => {
            let p = match long {
                true => columns::free_prefix(&keep.iter().map(|&k| names[k].clone()).collect::<Vec<_>>(), true),
                false => columns::free_prefix(&names, false),
            };
            let chosen = !p.is_empty();
            (p, chosen)
        }
    };
    let shaped = match &cfg.output {
        None => Shaped::Audit,
        Some((path, format)) => {
            let written: Vec<usize> = if long { keep.clone() } else { (0..names.len()).collect() };
            check_writable(written.len(), path, *format, &first_name)?;
            // Parquet and Arrow readers (pyarrow, DuckDB) refuse or rename
            // an empty or repeated name; CSV keeps the header as it is.
            let columnar = !matches!(format, OutputFormat::Csv | OutputFormat::Tsv);
            let renamed = columnar
                .then(|| columns::unique_names(&written.iter().map(|&i| names[i].as_str()).collect::<Vec<_>>()));
            let as_written = |(k, f): (usize, &Arc<Field>)| {
                let mut f = f.as_ref().clone();
                if raw_cells {
                    f = f.with_data_type(DataType::Binary);
                }
                if let Some(r) = &renamed {
                    f = f.with_name(r[k].clone());
                }
                Arc::new(f)
            };
            if long {
                let kept: Vec<Arc<Field>> = keep
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| as_written((i, &input_schema.fields()[k])))
                    .collect();
                let value_type = if raw_cells { DataType::Binary } else { DataType::Utf8 };
                let fields = columns::long_fields(&prefix, &kept, several_inputs, value_type)?;
                Shaped::Long(Arc::new(Schema::new(fields)))
            } else {
                let mut fields: Vec<Arc<Field>> = input_schema.fields().iter().enumerate().map(as_written).collect();
                fields.extend(columns::fields(&prefix, &names)?.iter().cloned());
                Shaped::Wide(Arc::new(Schema::new(fields)))
            }
        }
    };
    let out_schema = match &shaped {
        Shaped::Wide(s) | Shaped::Long(s) => Some(s.clone()),
        Shaped::Audit => None,
    };
    let input_names: Vec<String> = cfg.inputs.iter().map(InputSpec::display_name).collect();
    let shape = Arc::new(Shape {
        parsers,
        split: cfg.split.clone(),
        shaped,
        parse: ParseOptions {
            delimiter: cfg.csv.delimiter,
            allow_short_rows: cfg.csv.allow_short_rows,
        },
        raw_cells,
        several_inputs,
        json_paths: PathSet::new(&json_paths),
        nested: nested.into_iter().map(|n| n.map(|(_, steps)| steps)).collect(),
        json: cfg.json.clone(),
        // Only long output writes them; a wide run's one column name may
        // be a 100 MB header line, not worth two more copies.
        input_names: Arc::new(StringArray::from_iter_values(input_names.iter().filter(|_| long))),
        column_names: Arc::new(StringArray::from_iter_values(column_names.iter().filter(|_| long))),
    });

    // Long output costs some 150 bytes a value whatever the value: a block
    // of a wide export (10,000 columns, mostly empty cells) holds far more
    // values than bytes/40. Blocks shrink with the columns read, so the
    // values in flight stay bounded.
    let mut csv = cfg.csv;
    if long && chosen_count > 8 {
        csv.block_size = (csv.block_size / (chosen_count / 8)).max(64 << 10).min(csv.block_size);
        if let Some(r) = first_csv.as_mut() {
            r.set_block_size(csv.block_size);
        }
    }
    // JSON output is long: a block of works yields a value every ~150 bytes
    // read, each some 300 bytes of columns, so 8 MiB blocks put ~60 MB of
    // batches in flight per worker and held a scan over the trimmer's
    // budget (`heap`), faulting its pages back after every trim.
    let mut json = cfg.json.clone();
    json.block_size = json.block_size.min(JSON_BLOCK);
    let threads = cfg.threads.max(1);
    // One pool for classification and for the writer's parallel column
    // encoding, so --threads bounds both.
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?);
    let (work_tx, work_rx) = sync_channel::<Result<Work>>(threads * 2);
    let reader = {
        let inputs = cfg.inputs.clone();
        let columns = produce::Columns {
            format: cfg.input_format,
            csv,
            schema: input_schema.clone(),
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

    let mut collector = dups::Collector::new(cfg.dups.clone());
    let result = drive(
        &cfg,
        &shape,
        &pool,
        threads,
        work_rx,
        writer.as_ref().map(|(tx, _)| tx),
        &mut collector,
    );
    let stats = match result {
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
    let rows_out = if long { stats.total().values } else { stats.records };
    // The blocks' free pages go back before grouping adds its own (the
    // peak of a run with --duplicates was here, over 300 MB).
    heap::trim();
    let (output, rows_written, grouped) = match writer {
        Some((tx, handle)) => {
            let sent = tx.send(WriterMsg::Finish(rows_out));
            drop(tx);
            // Grouped while the writer closes and syncs the output; an
            // error waits for the writer.
            let grouped = pool.install(|| collector.finish());
            let (file, written) = handle.join().map_err(|_| anyhow!("the writer thread panicked"))??;
            sent.map_err(|_| anyhow!("the writer stopped early"))?;
            (Some(file), Some(written), grouped?)
        }
        None => (None, None, pool.install(|| collector.finish())?),
    };
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
        inputs: infos,
        columns: column_names,
        long,
        column_prefix: prefix,
        prefix_chosen,
        notes,
        stats,
        grouped,
        rows_written,
        output,
    })
}

/// `--column` and `--keep` as paths into JSON records: chosen ones first
/// (each once), then kept ones. A kept path may not yield several values
/// (`[]`): a kept column has one cell per value's record.
fn json_paths(columns: &[String], keep: &[String]) -> Result<Vec<JsonPath>> {
    let parse = |flag: &str, s: &String| {
        JsonPath::parse(s).map_err(|e| anyhow!(crate::cli::Usage(format!("{flag} {s:?}: {e}"))))
    };
    let mut paths: Vec<JsonPath> = Vec::new();
    for c in columns {
        let p = parse("--column", c)?;
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    for k in keep {
        let p = parse("--keep", k)?;
        if p.yields_many() {
            bail!(crate::cli::Usage(format!(
                "--keep {k:?}: a kept path gives one cell per record; drop the [] to keep the whole list as JSON"
            )));
        }
        paths.push(p);
    }
    Ok(paths)
}

/// Parquet and Arrow writers hold buffers per column: wide inputs go to
/// CSV/TSV.
fn check_writable(written: usize, path: &Path, format: OutputFormat, shown: &str) -> Result<()> {
    if format == OutputFormat::Csv || format == OutputFormat::Tsv {
        return Ok(());
    }
    if written > MAX_COLUMNAR_COLUMNS {
        bail!(
            "{shown} has {written} columns; hdlscan writes at most {MAX_COLUMNAR_COLUMNS} to {} ({}), since \
             each Parquet column writer holds its own buffers; write CSV or TSV output instead (-o out.csv)",
            format.name(),
            path.display()
        );
    }
    Ok(())
}

/// A parser per chosen column: `--expect NS` for all, `COLUMN=NS` for the
/// columns COLUMN selects, which must be chosen ones.
fn column_parsers(
    base: &Options,
    expect: &[String],
    names: &[String],
    chosen: &[usize],
    shown: &str,
) -> Result<Vec<Parser>> {
    let mut options = vec![base.clone(); chosen.len()];
    for arg in expect {
        let (column, ns) = select::split_expect(arg);
        let targets: Vec<usize> = match column {
            None => (0..chosen.len()).collect(),
            Some(sel) => {
                let cols = select::one(names, sel, shown)
                    .map_err(|e| anyhow!(crate::cli::Usage(format!("--expect {arg}: {e:#}"))))?;
                cols.iter()
                    .map(|c| {
                        chosen.iter().position(|x| x == c).ok_or_else(|| {
                            anyhow!(crate::cli::Usage(format!(
                                "--expect {arg}: column {:?} is not one of the chosen columns (--column)",
                                names[*c]
                            )))
                        })
                    })
                    .collect::<Result<_>>()?
            }
        };
        for t in targets {
            options[t]
                .expect(ns)
                .map_err(|e| anyhow!(crate::cli::Usage(format!("--expect {arg}: {e}"))))?;
        }
    }
    Ok(options.into_iter().map(Parser::new).collect())
}

/// `--column` against the first input, where a Parquet selector naming no
/// column may be a path into its structs and lists (`ids.doi`): such a
/// column is chosen with its path in `nested` (at its index).
fn choose_or_nested(
    names: &[String],
    selectors: &[String],
    shown: &str,
    delimiter: Option<u8>,
    schema: &Schema,
    format: InputFormat,
    nested: &mut Vec<Option<(String, Vec<Step>)>>,
) -> Result<Vec<usize>> {
    if format != InputFormat::Parquet || !selectors.iter().any(|s| nested::looks_like_path(s)) {
        return choose(names, selectors, shown, delimiter);
    }
    let mut chosen = Vec::new();
    for sel in selectors {
        match select::one(names, sel, shown) {
            Ok(cols) => {
                for c in cols {
                    // Read once, as `select` does; the same column through a
                    // path is another column.
                    if !chosen.iter().zip(nested.iter()).any(|(&x, n)| x == c && n.is_none()) {
                        chosen.push(c);
                        nested.push(None);
                    }
                }
            }
            Err(e) if nested::looks_like_path(sel) => {
                let path = JsonPath::parse(sel).map_err(|p| anyhow!("{e:#}; as a path: {p}"))?;
                let (c, steps) = nested::resolve(schema, &path).map_err(|p| anyhow!("{shown}: {p:#}"))?;
                let name = path.to_string();
                if !nested.iter().flatten().any(|(n, _)| *n == name) {
                    chosen.push(c);
                    nested.push(Some((name, steps)));
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(chosen)
}

/// `--column` selectors against the first input; a header read as one
/// column that holds another common delimiter gets a hint, since that is
/// the usual cause of a name not found.
fn choose(names: &[String], selectors: &[String], shown: &str, delimiter: Option<u8>) -> Result<Vec<usize>> {
    select::select(names, selectors, shown).map_err(|e| match delimiter.and_then(|d| delimiter_hint(names, d)) {
        Some(hint) => anyhow!("{e:#} ({hint})"),
        None => e,
    })
}

/// The main loop: gather up to `threads` units, map them in parallel,
/// hand the results to the writer and the duplicate collector in order.
fn drive(
    cfg: &ScanConfig,
    shape: &Arc<Shape>,
    pool: &rayon::ThreadPool,
    threads: usize,
    work_rx: Receiver<Result<Work>>,
    writer: Option<&SyncSender<WriterMsg>>,
    collector: &mut dups::Collector,
) -> Result<Stats> {
    let mut stats = Stats::new(shape.parsers.len());
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
        let mut progress = 0;
        for d in done {
            let d = d?;
            if let (Some(batch), Some(tx)) = (d.batch, writer) {
                tx.send(WriterMsg::Batch(batch))
                    .map_err(|_| anyhow!("the writer stopped early"))?;
            }
            stats += d.stats;
            // In input order: the order defines a cluster's first member.
            collector.append(d.dups)?;
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
/// statistics where they prune nothing (see `columns`); `long` output's
/// leading columns too.
pub fn sink_options(column_prefix: &str, long: bool) -> SinkOptions {
    let mut props = sink::parquet_properties_builder(sink::parquet_zstd(sink::PARQUET_ZSTD_LEVEL));
    let long_only = |names: &'static [&'static str]| names.iter().filter(move |_| long);
    for name in columns::DISTINCT.iter().chain(long_only(&columns::LONG_NO_DICTIONARY)) {
        props = props.set_column_dictionary_enabled(ColumnPath::from(format!("{column_prefix}{name}")), false);
    }
    for name in columns::NO_STATISTICS
        .iter()
        .chain(long_only(&columns::LONG_NO_STATISTICS))
    {
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

/// When a CSV header came out as one column holding `;`, a tab or `|`
/// (and that is not the delimiter in use): the `--delimiter` to try.
fn delimiter_hint(names: &[String], delimiter: u8) -> Option<String> {
    let [name] = names else { return None };
    let name = name.as_bytes();
    let &(_, shown, arg) = [(b';', "';'", "';'"), (b'\t', "a tab", "tab"), (b'|', "'|'", "'|'")]
        .iter()
        .find(|&&(b, _, _)| b != delimiter && name.contains(&b))?;
    Some(format!(
        "the header is one column holding {shown}: if that is the delimiter, add --delimiter {arg}"
    ))
}
