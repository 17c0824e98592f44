//! `hdlscan scan`: the batch audit. Reads CSV, TSV, Parquet, Arrow IPC,
//! JSON Lines and spreadsheet inputs, classifies the values of the chosen columns,
//! optionally writes them back enriched (wide or long), and reports.

use super::report_files::{self, ReportArgs};
use super::{ParserArgs, Usage};
use anyhow::Result;
use hdlscan::{Compression, Format, Gate, InputSpec, Made, Ragged, Report, Request, ScanPlan, Snapshot, TextEncoding};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const EXAMPLES: &str = "\
Examples:
  # Audit a DSpace export: summary on stderr, full report as JSON
  hdlscan scan export.csv --column dc.identifier.uri --report audit.json

  # Every identifier column of a DSpace export, cells split at '||', a row
  # per value keeping the item id, the duplicate clusters, and the report
  hdlscan scan export.csv -c 'dc.identifier.uri*' -c 'dc.identifier.doi*' --split '||' --keep id -o values.parquet --duplicates dups.csv --report audit.json

  # Write the export back enriched with SPEC's columns, as Parquet
  hdlscan scan export.csv -c dc.identifier.uri -o enriched.parquet --report audit.json

  # A DOI column must hold DOIs only (a handle there is unexpected_namespace)
  hdlscan scan works.csv -c doi -c handle --expect doi=doi

  # Several gzipped TSV dumps, column by number, repairs on, CSV out
  hdlscan scan part-*.tsv.gz -c 3 --repair -o clean.csv

  # Nightly: compare with last night's report, fail when it got worse
  hdlscan scan export.csv -c 'dc.identifier.uri*' -c 'dc.identifier.doi*' --split '||' --baseline audit.json \\
      --report audit.json --report audit.md --fail-if 'change:invalid>0' --fail-if 'change:valid<0'

  # From a pipe (no header line)
  zcat dump.csv.gz | hdlscan scan - -n -c 1 --report -

  # A ';'-separated OpenAPC file needs no --delimiter (the summary says
  # which was used); DBLP's export has a field more a row than names
  hdlscan scan apc_de.csv -c doi --report -
  hdlscan scan dblp_vis.csv -c doi --ragged extra -o vis.csv

  # An Excel export (.xlsx, .xls, .ods), read as its CSV would be
  hdlscan scan export.xlsx --sheet Items -c 'dc.identifier.uri*' -c 'dc.identifier.doi*' --report audit.json

  # JSON Lines (OpenAlex works): paths into each record and its lists
  hdlscan scan works.jsonl.gz -c doi -c 'locations[].landing_page_url' -o values.parquet

  # The values as JSON Lines on stdout, for jq or DuckDB
  hdlscan scan export.csv -c dc.identifier.uri --long -o - --output-format jsonl | jq -c 'select(.error)'

Output shapes:
  wide  one column, cells not split: every input column unchanged, then
        record (1-based data record number across all inputs, header not
        counted), kind, namespace, prefix, suffix, canonical, uri, url,
        resolver, query, fragment, error, warnings.
  long  several columns, --split or --long: a row per value: input (when
        there are several), record, line (where the record starts in CSV,
        TSV and JSON; a spreadsheet's row; empty for Parquet and Arrow),
        source_column, value_index (1-based in its cell), value, the --keep
        columns, then SPEC's columns as above. Every cell is at least one
        value (an empty cell is one `empty` value).
Output is written to a temporary file beside the target and renamed at
the end: a failed or interrupted run leaves nothing behind.

Gates (--fail-if, --warn-if; EXPR is [change:][COLUMN:]METRIC OP LIMIT):
  empty>50%, placeholder>0   empty values, placeholders: % of values
  present<1000               values neither empty nor placeholder: % of values
  invalid>1%, valid<99%      present values invalid or valid: % of present
  valid_of_present<95%       valid values, % of present values (or 0.95)
  extra_text>0               values with an error or warning code, % of values
  legacy_resolver>5%
  duplicates>10%             values in duplicate clusters, % of valid values
  repeated_in_record>0       values repeating their record's identifier,
                             % of valid values
  clusters>0, records<1000, values<1000   counts only
  dc.identifier.doi:invalid>0   the columns a selector of -c chooses
  'dc.identifier.d*:empty>0'    (a pattern sums its columns)
  change:valid<0             the change since --baseline: now minus then,
  change:valid_of_present<-1%   in counts, or in percentage points
A gate is judged after the run; output and report are written either way.
With -q, a --fail-if that holds is still said in one line.

Exit status: 0 success, 1 error (bad input, I/O; never 0 or 3 for a run
that could not finish), 2 usage error, 3 a --fail-if gate held,
130 interrupted.";

#[derive(clap::Args, Debug)]
#[command(
    about = "Scan columns of CSV, TSV, JSON Lines, Parquet, Arrow or Excel files: classify, normalize, report",
    after_help = EXAMPLES
)]
pub struct ScanArgs {
    /// Input files (.csv, .tsv, .parquet, Arrow IPC: .arrow/.arrows/.ipc/.feather,
    /// JSON Lines: .jsonl/.ndjson/.json, Excel: .xlsx/.xls/.ods; .gz and
    /// .zst CSV, TSV and JSON decompress).
    /// `-` reads CSV from stdin. Each input must hold the chosen and kept
    /// columns (wide output: the same columns as the first).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// An identifier column, repeatable: a header name (an exact name
    /// always wins), a 1-based column number, or a pattern where `*` and
    /// `?` are wildcards and every other character is literal
    /// ('dc.identifier.uri*' matches dc.identifier.uri[en_US]). Resolved
    /// against the first input. For JSON input, a path: doi, ids.doi,
    /// locations[].landing_page_url ([] yields each element; a null or a
    /// missing key is one empty value), or a JSON Pointer (/a.b/c) for
    /// names holding dots.
    #[arg(short = 'c', long, required = true, value_name = "NAME|NUMBER|PATTERN")]
    pub column: Vec<String>,
    /// Split cells into values (SPEC §6): at SEP (DSpace joins values with
    /// '||'), or, with no SEP or 'auto', at SPEC's separators of a cell
    /// holding several identifiers. Output becomes long.
    #[arg(long, value_name = "SEP", num_args = 0..=1, default_missing_value = "auto")]
    pub split: Option<String>,
    /// An input column to carry into long output (e.g. DSpace's item id
    /// for re-import), repeatable; chosen as --column.
    #[arg(long, value_name = "COLUMN")]
    pub keep: Vec<String>,
    /// JSON input: a line that is not one JSON object is counted, reported
    /// and skipped instead of stopping the run.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// JSON input holding its records as an array under this path (as
    /// Crossref's {"items": [...]}: --records items), or '[]' for an array
    /// that is the whole document, instead of one a line; read as it
    /// streams in, in bounded memory.
    #[arg(long, value_name = "PATH")]
    pub records: Option<String>,
    /// Long output (a row per value) even for one column not split.
    #[arg(long)]
    pub long: bool,
    /// Write the duplicate clusters here (.csv, .tsv, .parquet, .arrow,
    /// .jsonl): a row per
    /// member (valid value) of every canonical held by two records or
    /// more; a record repeating its own identifier is not a duplicate.
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<PathBuf>,
    /// Where grouping duplicates spills (about 40 bytes a valid value past
    /// the first 16 MiB) [default: $TMPDIR, or /tmp].
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,
    /// Memory for grouping duplicates before spilling, in KiB (tests).
    #[arg(long, value_name = "KIB", hide = true)]
    pub dups_memory_kib: Option<usize>,
    /// Write the input enriched with SPEC's columns (.parquet, .csv, .tsv,
    /// .arrow, .jsonl); `-` for stdout (CSV, or --output-format). Without
    /// it the run is an audit: the report alone.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format, overriding the output file's extension.
    #[arg(long, value_name = "FORMAT", value_parser = super::formats(super::WRITTEN))]
    pub output_format: Option<Format>,
    /// Input format, overriding the input files' extensions.
    #[arg(long, value_name = "FORMAT", value_parser = super::formats(READ))]
    pub input_format: Option<Format>,
    #[command(flatten)]
    pub reports: ReportArgs,
    /// Field delimiter of CSV input [default: `,`, or the `;`, tab or `|`
    /// a header of one column splits on; tab for .tsv].
    #[arg(short = 'd', long, value_name = "CHAR")]
    pub delimiter: Option<String>,
    /// The first CSV line is data, not a header; columns are named
    /// column_1, column_2, …
    #[arg(short = 'n', long)]
    pub no_headers: bool,
    /// A `"` in CSV input is a plain character, never a field's quotes:
    /// for TSV and CSV written without quoting (PostgreSQL's and MySQL's
    /// text exports, IANA TSV), where a title opening with a stray `"`
    /// would otherwise run on into the records after it.
    #[arg(long)]
    pub no_quoting: bool,
    /// The sheet of a spreadsheet input (.xlsx, .xls, .ods) to read,
    /// by name [default: the first]. A spreadsheet is read as the CSV it
    /// would export: whole numbers without .0, dates as 2024-05-01.
    #[arg(long, value_name = "NAME")]
    pub sheet: Option<String>,
    /// Text encoding of CSV input: utf-8 (the default), windows-1252
    /// (alias latin1), or any WHATWG label. A UTF-16 byte-order mark is
    /// read as UTF-16 whatever this says; bytes not valid in the encoding
    /// are read as U+FFFD and counted in the summary.
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<TextEncoding>,
    /// CSV records with another number of fields than the header: `pad`
    /// pads short rows with empty cells (counted in the report); `extra`
    /// also keeps the fields past the header, as columns column_N (N their
    /// position; as many as the widest record of the first block has).
    /// Without it such a record stops the run, naming it.
    #[arg(long, value_name = "pad|extra", value_parser = ragged)]
    pub ragged: Option<Ragged>,
    /// The earlier name of `--ragged pad`.
    #[arg(long, hide = true, conflicts_with = "ragged")]
    pub allow_short_rows: bool,
    /// Prefix for the added column names. Without it the added columns
    /// have none, unless an input column is named like one of them
    /// (OpenAPC's `url`): then they get `hdl_` (or `hdl2_`, …), as the
    /// summary and the report say.
    #[arg(long, value_name = "PREFIX")]
    pub column_prefix: Option<String>,
    /// Worker threads, 1 to 256 [default: all cores]. Memory grows with
    /// them: each holds a few MiB of input and its columns in flight.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Longest CSV record or JSON line (with --records, array element)
    /// accepted, in MiB (4 to 2047): a longer one stops the run with an
    /// error rather than holding several copies of it in memory [default:
    /// 32]
    // An Option (the default applied in `run`) so that giving it with
    // Parquet input can be refused, like the other CSV-only flags.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u16).range(4..=2047))]
    pub max_record_mib: Option<u16>,
    /// CSV block size in MiB [default: 4]: the unit of parallel work.
    #[arg(long, value_name = "MIB", hide = true)]
    pub block_mib: Option<usize>,
    /// An earlier run's JSON report: the reports gain `changes` (each
    /// metric then and now, codes new and gone), and gates may judge
    /// `change:METRIC`. It may be the --report file this run replaces.
    #[arg(long, value_name = "OLD.json")]
    pub baseline: Option<PathBuf>,
    /// Fail the run (exit 3, after writing output and reports) when EXPR
    /// holds: [COLUMN:]METRIC OP LIMIT, e.g. 'invalid>1%' (see below).
    /// Repeatable.
    #[arg(long = "fail-if", value_name = "EXPR")]
    pub fail_if: Vec<String>,
    /// Print a warning when EXPR holds; the exit status stays 0.
    /// Repeatable.
    #[arg(long = "warn-if", value_name = "EXPR")]
    pub warn_if: Vec<String>,
    /// No progress bar and no summary on stderr; a failed gate is still
    /// said in one line.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    #[command(flatten)]
    pub parser: ParserArgs,
}

/// The formats `--input-format` takes.
const READ: &[(Format, &str)] = &[
    (Format::Csv, ""),
    (Format::Tsv, ""),
    (Format::Parquet, ""),
    (
        Format::Arrow,
        "Arrow IPC, the file or the stream format (`.arrow`, `.arrows`, `.ipc`, `.feather`)",
    ),
    (
        Format::Jsonl,
        "JSON Lines (`.jsonl`, `.ndjson`, `.json`), or with `--records` JSON documents holding an array of records",
    ),
];

/// `--ragged`: `pad` or `extra` (`error`, the default, too).
fn ragged(s: &str) -> Result<Ragged, String> {
    [Ragged::Error, Ragged::Pad, Ragged::Extra]
        .into_iter()
        .find(|r| r.name() == s)
        .ok_or_else(|| "expected pad or extra".to_string())
}

impl ScanArgs {
    /// The scan these arguments ask for, before anything is resolved.
    fn request(&self) -> Request {
        Request {
            inputs: self.inputs.clone(),
            input_format: self.input_format,
            columns: self.column.clone(),
            keep: self.keep.clone(),
            split: self.split.clone(),
            long: self.long,
            output: self.output.clone(),
            output_format: self.output_format,
            column_prefix: self.column_prefix.clone(),
            delimiter: self.delimiter.clone(),
            no_headers: self.no_headers,
            no_quoting: self.no_quoting,
            ragged: self.ragged.or(self.allow_short_rows.then_some(Ragged::Pad)),
            encoding: self.encoding,
            sheet: self.sheet.clone(),
            max_record_mib: self.max_record_mib,
            block_mib: self.block_mib,
            skip_bad_lines: self.skip_bad_lines,
            records: self.records.clone(),
            threads: self.threads,
            repair: self.parser.repair,
            max_len: self.parser.max_len,
            resolvers: self.parser.resolvers.clone(),
            expect: self.parser.expect.clone(),
            dups: {
                let d = hdlscan::DuplicateOptions::default();
                let memory = self.dups_memory_kib.map_or(d.budget.memory, |k| k.max(1) << 10);
                hdlscan::DuplicateOptions {
                    budget: d.budget.with_memory(memory).with_temp_dir(self.temp_dir.clone()),
                    file: self.duplicates.is_some(),
                    ..d
                }
            },
        }
    }
}

pub fn run(args: ScanArgs) -> Result<ExitCode> {
    super::install_signal_handler();
    let started = Instant::now();
    let plan = ScanPlan::build(&args.request()).map_err(super::plan_error)?;
    let mut gates = super::gates(&args.fail_if, &args.warn_if, Gate::parse)?;
    let baseline = args.baseline.as_deref().map(read_baseline).transpose()?;
    // Report files are created before any work, so one that cannot be
    // written fails the run before the output is touched, and none may
    // replace an input or the output.
    let input_paths: Vec<&Path> = plan.inputs().iter().filter_map(InputSpec::path).collect();
    let mut claimed = report_files::Claimed::new(&input_paths);
    if let Some((out, format)) = plan.output() {
        if out.as_os_str() == "-" {
            stdout_output(*format, &args.reports.report)?;
        } else {
            claimed.claim("-o", "the output file", out)?;
        }
    }
    let reports = report_files::open(&args.reports, &mut claimed, &input_paths)?;
    let open_duplicates = |path| report_files::open_duplicates(path, &mut claimed, &input_paths);
    let mut dups_sink = args.duplicates.as_deref().map(open_duplicates).transpose()?;
    let bar = progress_bar(&args, plan.inputs(), plan.format());
    let progress = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = hdlscan::run(plan, &progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // A JSON path no record reached is known only at the end of the run,
    // and is the command line's mistake all the same.
    let mut result = result.map_err(|e| match e.downcast::<hdlscan::PlanError>() {
        Ok(p) => super::plan_error(p),
        Err(e) => e,
    })?;
    let made = Made {
        elapsed_seconds: started.elapsed().as_secs_f64(),
        ..result.made
    };
    // The clusters' file: written whole to its temporary file before
    // anything is committed, like the output.
    let summary = result.grouped.summary().clone();
    let dups_file = match dups_sink.take() {
        Some(mut sink) => {
            test_pause("writing duplicates");
            let names: Vec<String> = made.inputs.iter().map(|i| i.path.clone()).collect();
            result.grouped.write(&mut sink, &names, &made.columns)?;
            Some(sink.finish_writer()?.0)
        }
        None => None,
    };
    let shown_dups = args.duplicates.as_ref().map(|p| p.display().to_string());
    let mut report = Report::new(made, result.stats, &summary, shown_dups);
    let names: Vec<String> = report.columns.iter().map(|c| c.name.clone()).collect();
    hdlscan::gate_columns(&mut gates, &names).map_err(Usage::error)?;
    let shown = args.baseline.as_ref().map(|p| p.display().to_string());
    report
        .judge(&gates, shown.as_deref().zip(baseline.as_ref()))
        .map_err(Usage::error)?;
    report_files::write_and_commit(reports, &report, result.output.take().into_iter().chain(dups_file))?;
    super::finished(args.quiet, &report.summary(), &report.gates, report.baseline_caveat())
}

/// `-o -`: stdout takes one file, and Parquet or Arrow only into a pipe
/// or a file, not onto a terminal.
fn stdout_output(format: Format, reports: &[String]) -> Result<()> {
    if reports.iter().any(|r| r == "-") {
        anyhow::bail!(Usage(
            "-o - and --report - both write to stdout; send one of them to a file".into()
        ));
    }
    if matches!(format, Format::Parquet | Format::Arrow) && std::io::stdout().is_terminal() {
        anyhow::bail!(Usage(format!(
            "-o -: {} is binary and stdout is a terminal; pipe it, name a file, or give --output-format csv, tsv \
             or jsonl",
            format.name()
        )));
    }
    Ok(())
}

/// A test's hook into the phases of a run (debug builds only): with
/// `HDLSCAN_TEST_PAUSE=PHASE`, says `hdlscan: test pause: PHASE` on stderr
/// and sleeps five seconds there, so a test can interrupt that phase.
fn test_pause(phase: &str) {
    if cfg!(debug_assertions) && std::env::var("HDLSCAN_TEST_PAUSE").is_ok_and(|p| p == phase) {
        super::say(format_args!("hdlscan: test pause: {phase}"));
        std::thread::sleep(std::time::Duration::from_secs(5));
    }
}

/// `--baseline`: read before any work, since the run may replace it.
fn read_baseline(path: &Path) -> Result<Snapshot> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| anyhow::anyhow!("--baseline {shown}: {}", hdlscan::os_reason(&e)))?;
    let json: serde_json::Value = serde_json::from_slice(&text)
        .map_err(|e| anyhow::anyhow!("--baseline {shown}: not a JSON report of hdlscan scan: {e}"))?;
    Snapshot::from_json(&json).map_err(|e| anyhow::anyhow!("--baseline {shown}: {e}"))
}

/// A bar on a terminal, for files whose size tells the work ahead: bytes
/// for CSV, rows for Parquet. None on stdin, compressed input, Arrow IPC
/// (whose rows are known only once read) or -q.
fn progress_bar(args: &ScanArgs, inputs: &[InputSpec], format: Format) -> Option<ProgressBar> {
    if args.quiet || !std::io::stderr().is_terminal() || format == Format::Arrow {
        return None;
    }
    let mut total = 0u64;
    for i in inputs {
        let InputSpec::Path(p) = i else { return None };
        if format == Format::Parquet {
            let file = std::fs::File::open(p).ok()?;
            let reader = parquet::file::reader::SerializedFileReader::new(file).ok()?;
            total += parquet::file::reader::FileReader::metadata(&reader)
                .file_metadata()
                .num_rows() as u64;
        } else if i.compression() == Compression::None {
            total += std::fs::metadata(p).ok()?.len();
        } else {
            return None;
        }
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = if format == Format::Parquet {
        "{bar:40} {human_pos}/{human_len} rows  {per_sec}  ETA {eta}"
    } else {
        "{bar:40} {bytes}/{total_bytes}  {bytes_per_sec}  ETA {eta}"
    };
    bar.set_style(ProgressStyle::with_template(template).ok()?);
    Some(bar)
}
