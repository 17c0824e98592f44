//! `hdlscan diff OLD NEW --key COL`: what changed between two enriched
//! outputs of `scan`, as a summary, reports (JSON, Markdown, HTML), `-o`
//! (a row per change) and gates, with `scan`'s exit statuses.

use super::Usage;
use super::report_files::{self, Claimed, ReportArgs};
use anyhow::{Context, Result, bail};
use hdlscan::diff::{ChangeWriter, Diff, DiffMade, DiffReport, DiffRun, Gate, LayoutError, Runs, ScanRun};
use hdlscan::{AtomicFile, InputSpec, Sink, SinkOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const EXAMPLES: &str = "\
Examples:
  # The nightly: what changed since yesterday, as Markdown; fail the job
  # when an identifier became invalid
  hdlscan diff yesterday.parquet today.parquet --key id --report changes.md --fail-if 'became_invalid>0'

  # Long output (a row per value): the value's place is part of the key;
  # every change as a row of changes.csv
  hdlscan diff old.csv new.csv --key id --key source_column --key value_index -o changes.csv

  # Say in the report whether the two scans' versions or options differ
  hdlscan diff old.parquet new.csv --key id --old-report old.json --new-report new.json --report diff.json

Changes (counted per key):
  added              the key is in NEW only
  removed            the key is in OLD only
  became_invalid     valid in OLD, invalid in NEW (an empty or placeholder
                     value is of kind invalid, though scan's report counts
                     it apart, as empty or placeholder)
  became_valid       invalid in OLD, valid in NEW
  canonical_changed  valid in both, canonicals differ
  codes_changed      valid in both or invalid in both; the error code or the
                     set of warnings differs
A key both canonical_changed and codes_changed counts in each;
became_invalid and became_valid win over both. The first line of the
summary is `+ADDED −REMOVED ~CHANGED, N became invalid`, CHANGED being the
keys in both files with any change.

Gates (--fail-if, --warn-if; EXPR is METRIC OP LIMIT, OP one of > >= < <=):
  METRIC is a change above, or `changed` (keys in both files with any)
  became_invalid>0     a count
  removed>1%           a percentage: a share of OLD's rows
A gate is judged after the run; output and reports are written either way.

Exit status: 0 success, 1 error (a file that cannot be read, is not an
output of scan, or holds a key twice), 2 usage error (a bad gate, a key
column a file lacks), 3 a --fail-if gate held, 130 interrupted.";

#[derive(clap::Args, Debug)]
#[command(
    about = "Compare two enriched outputs of scan by key: added, removed, became invalid or valid, changed",
    after_help = EXAMPLES
)]
pub struct DiffArgs {
    /// The earlier output of `scan -o` (.parquet, .csv, .tsv, .arrow,
    /// .jsonl; CSV, TSV and JSON Lines may be .gz or .zst; `-` reads CSV
    /// from stdin).
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The later output of `scan -o`, in any of those formats (OLD's or
    /// another).
    #[arg(value_name = "NEW")]
    pub new: String,
    /// A key column, named as in both files, repeatable: the key is all of
    /// them together and must name one row of each file. For long output
    /// add the value's place: --key id --key source_column --key value_index.
    #[arg(short = 'k', long = "key", required = true, value_name = "COLUMN")]
    pub key: Vec<String>,
    /// The prefix `scan --column-prefix` gave SPEC's columns (kind …
    /// warnings) in both files.
    #[arg(long, value_name = "PREFIX", default_value = "")]
    pub column_prefix: String,
    /// Write a row per change (.parquet, .csv, .tsv, .arrow, .jsonl): the key
    /// columns, change, old_kind, new_kind, old_canonical, new_canonical,
    /// old_error, new_error, old_warnings, new_warnings.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format, overriding the output file's extension.
    #[arg(long, value_name = "FORMAT", value_parser = super::formats(super::WRITTEN))]
    pub output_format: Option<hdlscan::Format>,
    #[command(flatten)]
    pub reports: ReportArgs,
    /// The JSON report of the scan that made OLD (`scan --report`): the
    /// report then says whether the tool's version or options differ.
    #[arg(long, value_name = "FILE.json")]
    pub old_report: Option<PathBuf>,
    /// The JSON report of the scan that made NEW.
    #[arg(long, value_name = "FILE.json")]
    pub new_report: Option<PathBuf>,
    /// Fail the run (exit 3, after writing output and reports) when EXPR
    /// holds: METRIC OP LIMIT, e.g. 'became_invalid>0' (see below; a
    /// percentage is a share of OLD's rows). Repeatable.
    #[arg(long = "fail-if", value_name = "EXPR")]
    pub fail_if: Vec<String>,
    /// Print a warning when EXPR holds; the exit status stays 0.
    /// Repeatable.
    #[arg(long = "warn-if", value_name = "EXPR")]
    pub warn_if: Vec<String>,
    /// Where OLD and NEW are partitioned when OLD's rows do not fit in
    /// memory (about 90 bytes a row past the first 64 MiB) [default:
    /// $TMPDIR, or /tmp].
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,
    /// Memory for OLD's rows before partitioning, in MiB; 0 partitions
    /// always (tests).
    #[arg(long, value_name = "MIB", hide = true, default_value_t = 64)]
    pub memory_mib: u64,
    /// No summary on stderr; a failed gate is still said in one line.
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

pub fn run(args: DiffArgs) -> Result<ExitCode> {
    super::install_signal_handler();
    let started = Instant::now();
    let gates = super::gates(&args.fail_if, &args.warn_if, Gate::parse)?;
    for (i, k) in args.key.iter().enumerate() {
        if args.key[..i].contains(k) {
            bail!(Usage(format!("--key {k} is given twice")));
        }
    }
    let (old, new) = (InputSpec::parse(&args.old), InputSpec::parse(&args.new));
    if matches!((&old, &new), (InputSpec::Stdin, InputSpec::Stdin)) {
        bail!(Usage(
            "- (stdin) is given for both OLD and NEW; it can be read only once".into()
        ));
    }
    let budget = Diff::BUDGET
        .with_memory(usize::try_from(args.memory_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX))
        .with_temp_dir(args.temp_dir.clone());
    if let Err((dir, reason)) = budget.check_temp_dir() {
        bail!(Usage(format!("--temp-dir {}: {reason}", dir.display())));
    }
    let output = match &args.output {
        Some(path) => {
            let format = super::output_format(path, args.output_format)?;
            let schema = hdlscan::diff::changes_schema(&args.key).map_err(Usage::error)?;
            Some((path.clone(), format, schema))
        }
        None => None,
    };
    let scan_run = |p: &Option<PathBuf>| -> Result<Option<ScanRun>> {
        let Some(p) = p else { return Ok(None) };
        let shown = p.display().to_string();
        let text = std::fs::read(p).with_context(|| format!("cannot read the report {shown}"))?;
        let v: serde_json::Value =
            serde_json::from_slice(&text).with_context(|| format!("{shown} is not a JSON report of `hdlscan scan`"))?;
        Ok(Some(ScanRun::from_json(&shown, &v).map_err(anyhow::Error::msg)?))
    };
    let (old_run, new_run) = (scan_run(&args.old_report)?, scan_run(&args.new_report)?);
    // Output and reports are created before any work, so one that cannot
    // be written fails the run first, and none may replace an input.
    let mut input_paths: Vec<&Path> = [&old, &new].into_iter().filter_map(InputSpec::path).collect();
    input_paths.extend(args.old_report.iter().chain(&args.new_report).map(PathBuf::as_path));
    let mut claimed = Claimed::new(&input_paths);
    let mut writer = match output {
        Some((path, format, schema)) => {
            claimed.claim("-o", "the output file", &path)?;
            let file = AtomicFile::create(&path, &input_paths).with_context(|| format!("-o {}", path.display()))?;
            let label = path.display().to_string();
            let options = SinkOptions::default().with_joined_lists(&schema, &["old_warnings", "new_warnings"]);
            let sink = Sink::from_writer_with(file, format, schema, &label, options)?;
            Some(ChangeWriter::new(sink, args.key.len()))
        }
        None => None,
    };
    let reports = report_files::open(&args.reports, &mut claimed, &input_paths)?;

    let outcome = Diff::new(&args.key)
        .column_prefix(&args.column_prefix)
        .budget(budget)
        .run(&old, &new, |c| match &mut writer {
            Some(w) => w.push(c),
            None => Ok(()),
        })
        .map_err(|e| match e.downcast_ref::<LayoutError>() {
            Some(l @ LayoutError::MissingKey { .. }) => Usage::error(l),
            _ => e,
        })?;
    let output_file = writer.map(ChangeWriter::finish).transpose()?.map(|(file, _)| file);
    let runs = (old_run.is_some() || new_run.is_some()).then(|| Runs::new(old_run, new_run));
    let made = DiffMade {
        key: args.key.clone(),
        old: outcome.old,
        new: outcome.new,
        runs,
        run: DiffRun {
            tool: format!("hdlscan {}", env!("CARGO_PKG_VERSION")),
            output: args.output.as_ref().map(|p| p.display().to_string()),
            column_prefix: args.column_prefix.clone(),
            partitions: outcome.matched.partitions,
            elapsed_seconds: (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
        },
    };
    let mut report = DiffReport::new(made, outcome.tally, outcome.matched);
    report.judge(&gates);
    report_files::write_and_commit(reports, &report, output_file)?;
    super::finished(args.quiet, &report.summary_text(), &report.gates, None)
}
