//! `hdlscan gen`: a seeded synthetic export (the realistic mix of
//! `hdlscan_synth`) as CSV, Parquet or JSON Lines, for benchmarks and for
//! trying `scan` out on data of any size.
//!
//! Columns: those of [`Layout::GEN`]: `record_id` (1..=N), `identifier`,
//! `title` (with the odd comma, quote or line break), `date_issued`, `type`,
//! `collection`. The same seed
//! gives the same rows in both formats, and the same bytes on every run.
//! CSV is streamed; Parquet is built in batches of [`BATCH_ROWS`] rows on
//! one thread while [`Sink`] encodes the previous batch (bounded memory).
//! Both are written atomically (temporary file, then rename; SIGINT and
//! SIGTERM remove the temporary file, as in `scan`); `-o -` is refused.

use super::Usage;
use anyhow::{Result, bail};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use hdlscan::{AtomicFile, Format, Sink};
use hdlscan_synth::row::Column;
use hdlscan_synth::{Layout, Row, Synth};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

const EXAMPLES: &str = "\
Examples:
  # 10 million rows of CSV, then scan them
  hdlscan gen --rows 10000000 -o export.csv
  hdlscan scan export.csv -c identifier -o enriched.parquet

  # The same rows as Parquet (same seed, same rows)
  hdlscan gen --rows 10000000 -o export.parquet

  # Another seed, format given explicitly
  hdlscan gen --rows 1000 --seed 7 --format csv -o sample.txt

Columns: record_id (1..N), identifier, title, date_issued, type, collection.
The identifier mix: bare DOIs, DOI and handle resolver URLs, bare handles,
doi: labels, hdl:/info: URIs, junk, and dirt (whitespace, invisible
characters, trailing punctuation, %2F, ...), with ~10% duplicates.
The output is written to a temporary file beside the target and renamed
at the end.";

/// Rows per Parquet record batch.
pub const BATCH_ROWS: usize = 65_536;

/// Default seed.
pub const DEFAULT_SEED: u64 = 1;

#[derive(clap::Args, Debug)]
#[command(about = "Generate a seeded synthetic export (CSV, Parquet or JSON Lines) with realistic identifiers", after_help = EXAMPLES)]
pub struct GenArgs {
    /// Number of data rows.
    #[arg(long, value_name = "N")]
    pub rows: u64,
    /// Seed of the generator: the same seed gives the same file.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output file (.csv, .parquet, or .jsonl for OpenAlex-like JSON Lines).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: PathBuf,
    /// Output format, overriding the output file's extension.
    #[arg(long, value_name = "FORMAT", value_parser = super::formats(GENERATED))]
    pub format: Option<Format>,
    /// Fresh identifiers never repeat by chance (each gets `.N` after its
    /// suffix): the only duplicates are the mix's 10% repeats. Without it,
    /// millions of rows also repeat identifiers by chance (23% duplicates
    /// at 10M rows). CSV and Parquet.
    #[arg(long)]
    pub distinct: bool,
    /// No summary on stderr.
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

/// The formats `gen` writes.
const GENERATED: &[(Format, &str)] = &[(Format::Csv, ""), (Format::Parquet, ""), (Format::Jsonl, "")];

pub fn run(args: GenArgs) -> Result<ExitCode> {
    // Refused as `scan` refuses it, rather than writing a file named `-`.
    if args.output.as_os_str() == "-" {
        bail!(Usage(hdlscan::DASH_OUTPUT.into()));
    }
    // An interrupt removes the temporary file, which can be gigabytes.
    super::install_signal_handler();
    let started = Instant::now();
    let by_name = || Format::from_path(&args.output).filter(|f| GENERATED.iter().any(|(g, _)| g == f));
    match args.format.or_else(by_name) {
        Some(Format::Csv) => write_streamed(&args.output, |f| {
            let synth = Synth::new(args.seed).distinct(args.distinct);
            hdlscan_synth::csv::write_csv(f, &Layout::GEN, synth, args.rows)
        })?,
        Some(Format::Parquet) => write_parquet(&args.output, args.rows, args.seed, args.distinct)?,
        Some(Format::Jsonl) if args.distinct => bail!(Usage("--distinct applies to CSV and Parquet output".into())),
        Some(Format::Jsonl) => write_streamed(&args.output, |f| {
            hdlscan_synth::jsonl::write_jsonl(f, args.rows, args.seed)
        })?,
        _ => bail!(Usage(format!(
            "{}: unknown output format; use a .csv, .parquet or .jsonl name, or --format",
            args.output.display()
        ))),
    }
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
        super::say(format_args!(
            "hdlscan gen: {} rows (seed {}) to {} ({:.1} MB) in {:.2} s ({:.0} rows/s)",
            args.rows,
            args.seed,
            args.output.display(),
            bytes as f64 / 1e6,
            secs,
            args.rows as f64 / secs.max(1e-9)
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// Streams to `path` what `write` writes (CSV or JSON Lines), atomically.
fn write_streamed(path: &Path, write: impl FnOnce(&mut AtomicFile) -> std::io::Result<()>) -> Result<()> {
    let mut file = AtomicFile::create(path, &[])?;
    write(&mut file).map_err(|e| anyhow::anyhow!("writing {}: {}", path.display(), hdlscan::os_reason(&e)))?;
    file.commit()
}

/// The Arrow schema of the Parquet output: [`Layout::GEN`], the record id
/// a number, the rest text.
pub fn schema() -> SchemaRef {
    let fields: Vec<Field> = Layout::GEN
        .0
        .iter()
        .map(|&(name, column)| {
            let kind = if column == Column::Id {
                DataType::Int64
            } else {
                DataType::Utf8
            };
            Field::new(name, kind, false)
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// Fills `rows` with the next `rows.len()` rows (ids from `first_id`) and
/// makes them a batch in the columns of [`Layout::GEN`].
fn next_batch(synth: &mut Synth, rows: &mut [Row], schema: &SchemaRef, first_id: u64) -> Result<RecordBatch> {
    for (id, row) in (first_id..).zip(rows.iter_mut()) {
        synth.next_row(id, row);
    }
    let columns: Vec<ArrayRef> = Layout::GEN
        .columns()
        .map(|column| -> ArrayRef {
            if column == Column::Id {
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|row| row.id as i64)))
            } else {
                let text = rows.iter().map(|row| row.text(column).unwrap_or_default());
                Arc::new(StringArray::from_iter_values(text))
            }
        })
        .collect();
    Ok(RecordBatch::try_new(schema.clone(), columns)?)
}

/// Writes `rows` rows to `path` as Parquet: a generator thread builds
/// batches, this thread encodes them through [`Sink`] (columns in parallel).
pub fn write_parquet(path: &Path, rows: u64, seed: u64, distinct: bool) -> Result<()> {
    let schema = schema();
    let mut sink = Sink::create(path, Format::Parquet, schema.clone())?;
    let (tx, rx) = sync_channel::<Result<RecordBatch>>(2);
    std::thread::scope(|s| -> Result<()> {
        let producer_schema = schema.clone();
        s.spawn(move || {
            let mut synth = Synth::new(seed).distinct(distinct);
            let mut batch_rows = Vec::new();
            for first in (1..=rows).step_by(BATCH_ROWS) {
                let n = (rows - first + 1).min(BATCH_ROWS as u64) as usize;
                batch_rows.resize_with(n, Row::default);
                let batch = next_batch(&mut synth, &mut batch_rows, &producer_schema, first);
                let failed = batch.is_err();
                if tx.send(batch).is_err() || failed {
                    return; // the writer gave up, or this was the error
                }
            }
        });
        // `rx` moves in here, so an error drops it before the scope joins
        // the generator (which then stops at its next send).
        for batch in rx {
            sink.write(&batch?)?;
        }
        Ok(())
    })?;
    let written = sink.finish()?;
    if written != rows {
        bail!("wrote {written} rows instead of {rows}");
    }
    Ok(())
}
