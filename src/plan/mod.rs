//! What a scan does, decided once before it runs (ripgrep's `LowArgs` →
//! `HiArgs`): a [`Request`] as the command line gave it becomes a
//! [`ScanPlan`], with the inputs and their format, the chosen and kept
//! columns (and JSON and Parquet paths) resolved against the first input,
//! a parser per column, the output's shape and schema, and the reader
//! options. `pipeline::run` only runs a plan; everything that can be
//! refused before reading a record is refused here, as a [`PlanError`].
//!
//! - this file: the request, the plan, and [`ScanPlan::build`];
//! - `columns`: selectors and `--expect` resolved against the first input;
//! - `error`: [`PlanError`].

mod columns;
mod error;

pub use error::{DASH_OUTPUT, PlanError};

use crate::dups;
use crate::id::{Parser, Split};
use crate::io::csv_in::{CsvBlockReader, CsvOptions, Ragged, TextEncoding, delimiter_name};
use crate::io::format::Format;
use crate::io::jsonl::{JsonPath, JsonlOptions, Step};
use crate::io::parquet_in::{self, Columnar};
use crate::io::source::InputSpec;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest block of JSON Lines cut for a worker. JSON output is long: a
/// block of works yields a value every ~150 bytes read, each some 300
/// bytes of columns, so larger blocks hold more in flight than a scan's
/// 300 MB allow.
const JSON_BLOCK: usize = 4 << 20;

/// Widest input written to Parquet or Arrow. Each Parquet column writer
/// holds its own page buffers, dictionary and statistics, so the cap keeps
/// a wide export near the memory of a normal run. Wider ones go to CSV or
/// TSV output, which streams.
pub const MAX_COLUMNAR_COLUMNS: usize = 1_000;

/// A scan as asked for: selectors and flags as given, nothing resolved.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Input paths; `-` is stdin.
    pub inputs: Vec<String>,
    /// Overrides the inputs' extensions.
    pub input_format: Option<Format>,
    /// `--column` selectors (see `select`), or JSON paths.
    pub columns: Vec<String>,
    /// `--keep` selectors: input columns carried into long output.
    pub keep: Vec<String>,
    /// `--split SEP` (`auto` for SPEC's separators).
    pub split: Option<String>,
    /// Long output even for one column not split.
    pub long: bool,
    /// `-o`: the enriched output, if any.
    pub output: Option<PathBuf>,
    /// Overrides the output's extension.
    pub output_format: Option<Format>,
    /// `--column-prefix`; when not given, a prefix is chosen only if an
    /// input column is named like an added one (`columns::free_prefix`).
    pub column_prefix: Option<String>,
    /// CSV input: delimiter as given (`tab`, `\t` or one character).
    pub delimiter: Option<String>,
    /// `--no-headers`: a CSV's first record is data.
    pub no_headers: bool,
    /// `--no-quoting`: a CSV's `"` is a plain character.
    pub no_quoting: bool,
    /// `--ragged`: CSV records with another number of fields than the
    /// header (an error when not given).
    pub ragged: Option<Ragged>,
    /// `--sheet`: a spreadsheet's sheet (its first when `None`).
    pub sheet: Option<String>,
    /// `--encoding`: a CSV's text encoding (UTF-8 when `None`).
    pub encoding: Option<TextEncoding>,
    /// Longest record (CSV) or line (JSON), in MiB.
    pub max_record_mib: Option<u16>,
    /// CSV block size in MiB.
    pub block_mib: Option<usize>,
    /// JSON input: skip lines that are not one object.
    pub skip_bad_lines: bool,
    /// JSON input: the path to the array of records.
    pub records: Option<String>,
    /// Worker threads (default: all cores).
    pub threads: Option<u16>,
    /// `--repair`: the parser's repairs of common damage.
    pub repair: bool,
    /// `--max-len`: the longest value parsed.
    pub max_len: usize,
    /// `--resolver HOST[/PATH]`.
    pub resolvers: Vec<String>,
    /// `--expect`: `NS` for every chosen column, `COLUMN=NS` for some.
    pub expect: Vec<String>,
    /// How the duplicate clusters are found (memory, temporary files);
    /// its `repair` follows [`Request::repair`].
    pub dups: dups::Options,
}

/// The options a report records, so that a later run can tell whether it
/// was made the same way. Serialized as the report's `options`.
#[derive(Debug, Clone, Serialize)]
pub struct Options {
    /// `--repair`.
    pub repair: bool,
    /// `--max-len`.
    pub max_len: usize,
    /// `--resolver`: extra resolver hosts.
    pub resolvers: Vec<String>,
    /// `--expect`: the kind expected per column.
    pub expect: Vec<String>,
    /// `--split`: the separator between values in a cell.
    pub split: Option<String>,
    /// `--keep`: input columns kept in long output.
    pub keep: Vec<String>,
    /// Worker threads.
    pub threads: usize,
    /// Only when given, so a baseline from before the flag has the same
    /// options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// CSV's delimiter, when not the format's own (given, or found in the
    /// header), so the report says how the input was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delimiter: Option<String>,
    /// `--ragged`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ragged: Option<&'static str>,
    /// `--no-quoting`, only when given (as `encoding`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_quoting: bool,
}

/// A scan, decided: what [`crate::pipeline::run`] reads, how it parses,
/// and what it writes.
pub struct ScanPlan {
    pub(crate) inputs: Vec<InputSpec>,
    pub(crate) format: Format,
    pub(crate) csv: CsvOptions,
    pub(crate) json: JsonlOptions,
    pub(crate) output: Option<(PathBuf, Format)>,
    pub(crate) options: Options,
    pub(crate) dups: dups::Options,
    pub(crate) threads: usize,
    /// The first CSV input, open with its header read: stdin can be read
    /// only once. It goes to the reader thread.
    pub(crate) first_csv: Option<CsvBlockReader>,
    /// The first CSV input's header as it was, for raw CSV/TSV output.
    pub(crate) header: Vec<Vec<u8>>,
    /// The first input's schema (JSON: the paths, chosen then kept).
    pub(crate) schema: SchemaRef,
    /// Indices in the first input of the chosen and kept columns.
    pub(crate) chosen: Vec<usize>,
    pub(crate) keep: Vec<usize>,
    /// Parquet input: a chosen column's path into its structs and lists.
    pub(crate) nested: Vec<Option<Vec<Step>>>,
    /// JSON input: the chosen paths, then the kept ones.
    pub(crate) json_paths: Vec<JsonPath>,
    /// The chosen columns' names (or paths), in the run's order.
    pub(crate) column_names: Vec<String>,
    /// One per chosen column, each with its `--expect`.
    pub(crate) parsers: Vec<Parser>,
    pub(crate) split: Option<Split>,
    pub(crate) long: bool,
    /// The added columns' prefix.
    pub(crate) prefix: String,
    /// CSV in, CSV or TSV out: the input's cells go through as bytes.
    pub(crate) raw_cells: bool,
    /// The output's schema, wide or long as [`ScanPlan::long`] says; none
    /// for an audit.
    pub(crate) out_schema: Option<SchemaRef>,
    /// What planning noticed that the user should hear.
    pub(crate) notes: Vec<String>,
}

impl ScanPlan {
    /// Resolves `req`, opening the first input to read its columns.
    pub fn build(req: &Request) -> Result<ScanPlan, PlanError> {
        let parser = hdlscan_core::options::parser_options(req.repair, req.max_len, &req.resolvers)
            .map_err(PlanError::Resolver)?;
        let split = req.split.as_deref().map(Split::at).transpose();
        let split = split.map_err(|e| PlanError::flag("--split", e))?;
        if let Err((dir, reason)) = req.dups.budget.check_temp_dir() {
            return Err(PlanError::flag(format!("--temp-dir {}", dir.display()), reason));
        }
        let inputs: Vec<InputSpec> = req.inputs.iter().map(|s| InputSpec::parse(s)).collect();
        if inputs.is_empty() {
            return Err(anyhow::anyhow!("no input given").into());
        }
        // Stdin is read once: a second `-` would only ever be empty.
        if inputs.iter().filter(|i| matches!(i, InputSpec::Stdin)).count() > 1 {
            return Err(PlanError::StdinTwice);
        }
        // One file given twice (by two paths, or through a link) would
        // count every record of it twice, and find each a duplicate.
        let mut seen = std::collections::HashMap::new();
        for (i, input) in inputs.iter().enumerate() {
            if let InputSpec::Path(p) = input
                && let Ok(real) = std::fs::canonicalize(p)
                && let Some(first) = seen.insert(real, i)
            {
                return Err(PlanError::InputTwice {
                    first: req.inputs[first].clone(),
                    again: req.inputs[i].clone(),
                });
            }
        }
        let format = match req.input_format {
            Some(f) => f,
            None => {
                let formats: Vec<Format> = inputs.iter().map(InputSpec::format).collect();
                if formats.iter().any(|f| *f != formats[0]) {
                    return Err(PlanError::MixedFormats(formats));
                }
                formats[0]
            }
        };
        check_input_flags(req, format)?;
        let delimiter = match &req.delimiter {
            Some(d) => parse_delimiter(d)?,
            None => format.delimiter(),
        };
        let output = match &req.output {
            Some(path) => Some((path.clone(), output_format(path, req.output_format)?)),
            None => None,
        };
        let block_mib = req.block_mib.unwrap_or(4).max(1);
        let csv = CsvOptions {
            delimiter,
            has_headers: !req.no_headers,
            quoting: !req.no_quoting,
            ragged: req.ragged.unwrap_or_default(),
            // Only CSV's comma is guessed at: a TSV's tab, or a delimiter
            // given, is what the user said.
            sniff_delimiter: req.delimiter.is_none() && format == Format::Csv,
            block_size: block_mib << 20,
            max_block_size: usize::from(req.max_record_mib.unwrap_or(32)).max(block_mib) << 20,
            encoding: req.encoding.unwrap_or_default(),
            sheet: req.sheet.as_deref().map(Into::into),
        };
        let records = match &req.records {
            Some(p) if p.trim() == "[]" => Some(JsonPath::root()),
            Some(p) => {
                let path = JsonPath::parse(p).map_err(|e| PlanError::flag(format!("--records {p:?}"), e))?;
                // The reader refuses a `[]` too, but only once an input is
                // open, as a read error (1) naming the file: it is the
                // command line that is wrong (2).
                if path.keys().is_none() {
                    return Err(PlanError::flag(
                        format!("--records {p:?}"),
                        "a path of keys, without [] (the records are the array it names; '[]' alone for a document that is one array)",
                    ));
                }
                Some(path)
            }
            None => None,
        };
        let mut json = JsonlOptions::default()
            .with_max_line(csv.max_block_size)
            .with_skip_bad_lines(req.skip_bad_lines)
            .with_records(records);
        json.block_size = json.block_size.min(JSON_BLOCK);
        let threads = req.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        );
        let options = Options {
            repair: req.repair,
            max_len: req.max_len,
            resolvers: req.resolvers.clone(),
            expect: req.expect.clone(),
            split: req.split.clone(),
            keep: req.keep.clone(),
            threads,
            encoding: req.encoding.map(TextEncoding::name),
            delimiter: None,
            ragged: req.ragged.map(Ragged::name),
            no_quoting: req.no_quoting,
        };
        let dups = dups::Options {
            repair: req.repair,
            ..req.dups.clone()
        };
        let mut plan = ScanPlan {
            inputs,
            format,
            csv,
            json,
            output,
            options,
            dups,
            threads,
            first_csv: None,
            header: Vec::new(),
            schema: Arc::new(Schema::empty()),
            chosen: Vec::new(),
            keep: Vec::new(),
            nested: Vec::new(),
            json_paths: Vec::new(),
            column_names: Vec::new(),
            parsers: Vec::new(),
            split,
            long: false,
            prefix: String::new(),
            raw_cells: false,
            out_schema: None,
            notes: Vec::new(),
        };
        plan.resolve(req, parser)?;
        Ok(plan)
    }

    /// The inputs, in the run's order.
    pub fn inputs(&self) -> &[InputSpec] {
        &self.inputs
    }

    /// The inputs' format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The output file and its format, if the run writes one.
    pub fn output(&self) -> Option<&(PathBuf, Format)> {
        self.output.as_ref()
    }

    /// Opens the first input and resolves the columns, the parsers and
    /// the output's shape against it.
    fn resolve(&mut self, req: &Request, parser: crate::id::Options) -> Result<(), PlanError> {
        let json = self.format == Format::Jsonl;
        if json {
            self.json_paths = columns::json_paths(&req.columns, &req.keep)?;
        }
        let first_name = self.inputs[0].display_name();
        self.schema = match self.format {
            // No header: the columns are the paths, chosen then kept.
            Format::Jsonl => {
                let names: Vec<String> = self.json_paths.iter().map(|p| p.to_string()).collect();
                utf8_schema(&names)
            }
            Format::Parquet | Format::Arrow => Columnar::open(&self.inputs[0], self.format)?.schema().clone(),
            Format::Csv | Format::Tsv => {
                let mut r = CsvBlockReader::open(&self.inputs[0], self.csv.clone())?;
                self.read_as(&r, &first_name)?;
                let schema = utf8_schema(r.headers());
                self.header = r.take_header_bytes();
                self.first_csv = Some(r);
                schema
            }
        };
        let names: Vec<String> = self.schema.fields().iter().map(|f| f.name().clone()).collect();
        // Parquet paths into structs and lists (`ids.doi`), per chosen column.
        let mut nested: Vec<Option<(String, Vec<Step>)>> = Vec::new();
        (self.chosen, self.keep) = match json {
            true => {
                let n = self.json_paths.len() - req.keep.len();
                ((0..n).collect(), (n..self.json_paths.len()).collect())
            }
            false => {
                let delimiter = (!self.format.is_columnar()).then_some(self.csv.delimiter);
                let chosen = columns::choose_or_nested(
                    &names,
                    &req.columns,
                    &first_name,
                    delimiter,
                    &self.schema,
                    self.format,
                    &mut nested,
                )
                .map_err(|e| PlanError::flag("--column", format_args!("{e:#}")))?;
                let keep = crate::select::select(&names, &req.keep, &first_name)
                    .map_err(|e| PlanError::flag("--keep", format_args!("{e:#}")))?;
                (chosen, keep)
            }
        };
        // `--expect PATH=NS` names a path as the user spelled it.
        let expect: Vec<String> = match json {
            true => req.expect.iter().map(|e| columns::normalize_expect(e)).collect(),
            false => req.expect.clone(),
        };
        nested.resize(nested.len().max(self.chosen.len()), None);
        if self.format.is_columnar() {
            for (&c, n) in self.chosen.iter().zip(&nested) {
                if n.is_none() {
                    parquet_in::check_identifier_column(&self.schema, c, &first_name)?;
                }
            }
        }
        self.parsers = columns::column_parsers(&parser, &expect, &names, &self.chosen, &first_name)?;
        self.column_names = self
            .chosen
            .iter()
            .zip(&nested)
            .map(|(&c, n)| n.as_ref().map_or_else(|| names[c].clone(), |(path, _)| path.clone()))
            .collect();
        // JSON has no input row to write back: its output is always long.
        let many = nested.iter().flatten().any(|(_, steps)| steps.contains(&Step::Each));
        self.nested = nested.into_iter().map(|n| n.map(|(_, steps)| steps)).collect();
        self.long = req.long || json || many || self.chosen.len() > 1 || self.split.is_some();
        if !self.keep.is_empty() && !self.long {
            return Err(PlanError::KeepNeedsLong);
        }
        self.raw_cells = matches!(self.format, Format::Csv | Format::Tsv)
            && matches!(&self.output, Some((_, Format::Csv | Format::Tsv)));
        self.prefix = match &req.column_prefix {
            Some(p) => p.clone(),
            None if self.long => {
                crate::columns::free_prefix(&self.keep.iter().map(|&k| names[k].clone()).collect::<Vec<_>>(), true)
            }
            None => crate::columns::free_prefix(&names, false),
        };
        if req.column_prefix.is_none() && !self.prefix.is_empty() {
            self.notes.push(format!(
                "an input column is named like an added one, so the added columns are named {0}record, {0}kind, … \
                 (--column-prefix chooses another prefix)",
                self.prefix
            ));
        }
        self.notes.extend(self.header_notes(&first_name));
        if let Some((path, format)) = &self.output {
            self.out_schema = Some(self.out_schema(&names, path, *format, &first_name)?);
        }
        // Long output costs some 150 bytes a value whatever the value: a
        // block of a wide export (10,000 columns, mostly empty cells) holds
        // far more values than bytes/40. Blocks shrink with the columns
        // read, so the values in flight stay bounded.
        let chosen = self.chosen.len();
        if self.long && chosen > 8 {
            self.csv.block_size = (self.csv.block_size / (chosen / 8))
                .max(64 << 10)
                .min(self.csv.block_size);
            if let Some(r) = self.first_csv.as_mut() {
                r.set_block_size(self.csv.block_size);
            }
        }
        Ok(())
    }

    /// How the first CSV input was read, fixed for every input: the
    /// delimiter its header splits on, and the columns past the header
    /// (`--ragged extra`), said in the notes.
    fn read_as(&mut self, r: &CsvBlockReader, first_name: &str) -> Result<(), PlanError> {
        match (r.sheet(), &self.csv.sheet) {
            (None, Some(_)) => {
                return Err(PlanError::flag(
                    "--sheet",
                    format_args!("{first_name} is not a spreadsheet (.xlsx, .xls, .ods): drop --sheet"),
                ));
            }
            (Some(_), _) if self.options.encoding.is_some() => {
                return Err(PlanError::flag(
                    "--encoding",
                    format_args!("{first_name} is a spreadsheet, whose text is Unicode: drop --encoding"),
                ));
            }
            (Some(s), None) if s.sheets.len() > 1 => self.notes.push(format!(
                "{first_name}: read its first sheet, {:?}, of {} ({}; --sheet NAME reads another)",
                s.name,
                s.sheets.len(),
                crate::io::describe_columns(s.sheets.iter().map(String::as_str))
            )),
            _ => {}
        }
        let (given, found) = (self.csv.delimiter, r.delimiter());
        if given != found {
            let ((was, _), (now, arg)) = (delimiter_name(given), delimiter_name(found));
            self.notes.push(format!(
                "{first_name}: read with {now} as the delimiter (--delimiter {arg}): its header is one column with \
                 {was}"
            ));
        }
        self.csv.delimiter = found;
        self.csv.sniff_delimiter = false;
        if found != self.format.delimiter() {
            self.options.delimiter = Some(delimiter_name(found).1.trim_matches('\'').to_string());
        }
        let extra = r.extra_columns();
        if extra > 0 {
            let n = r.ncols();
            self.notes.push(format!(
                "{first_name}: records have up to {n} fields and the header {} names: the fields past it are read \
                 as {} (--ragged extra)",
                n - extra,
                match extra {
                    1 => format!("column_{n}"),
                    _ => format!("column_{} to column_{n}", n - extra + 1),
                }
            ));
        }
        Ok(())
    }

    /// A file of DOIs without a header line loses its first DOI to the
    /// header: say so when a chosen column's name is itself an identifier.
    fn header_notes(&self, first_name: &str) -> Vec<String> {
        if !matches!(self.format, Format::Csv | Format::Tsv) || !self.csv.has_headers {
            return Vec::new();
        }
        let mut scratch = crate::id::Scratch::default();
        let mut notes = Vec::new();
        for (name, parser) in self.column_names.iter().zip(&self.parsers) {
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
        notes
    }

    /// The output's schema: the input's columns (wide: all of them; long:
    /// the kept ones, after where each value stands), then SPEC's.
    fn out_schema(&self, names: &[String], path: &Path, format: Format, first_name: &str) -> anyhow::Result<SchemaRef> {
        let written: Vec<usize> = if self.long {
            self.keep.clone()
        } else {
            (0..names.len()).collect()
        };
        check_writable(written.len(), path, format, first_name)?;
        // Parquet and Arrow readers (pyarrow, DuckDB) refuse or rename an
        // empty or repeated name; CSV keeps the header as it is.
        let columnar = !matches!(format, Format::Csv | Format::Tsv);
        let renamed = columnar
            .then(|| crate::columns::unique_names(&written.iter().map(|&i| names[i].as_str()).collect::<Vec<_>>()));
        // The input columns written, as their cells are.
        let mut input_fields: Vec<Arc<Field>> = (written.iter().enumerate())
            .map(|(k, &c)| {
                let mut f = self.schema.field(c).clone();
                if self.raw_cells {
                    f = f.with_data_type(DataType::Binary);
                }
                if let Some(r) = &renamed {
                    f = f.with_name(r[k].clone());
                }
                Arc::new(f)
            })
            .collect();
        let fields = if self.long {
            let value_type = if self.raw_cells {
                DataType::Binary
            } else {
                DataType::Utf8
            };
            crate::columns::long_fields(&self.prefix, &input_fields, self.inputs.len() > 1, value_type)?
        } else {
            input_fields.extend(crate::columns::fields(&self.prefix, names)?.iter().cloned());
            input_fields.into()
        };
        Ok(Arc::new(Schema::new(fields)))
    }
}

/// The format of `-o PATH`: `flag` (`--output-format`), else the
/// extension; `-o -` (stdout) is CSV unless the flag says otherwise.
pub fn output_format(path: &Path, flag: Option<Format>) -> Result<Format, PlanError> {
    match flag {
        Some(f) => Ok(f),
        None if crate::io::atomic::is_stdout(path) => Ok(Format::Csv),
        None => Format::from_path(path).ok_or_else(|| PlanError::UnknownOutputFormat(path.to_path_buf())),
    }
}

/// Parquet and Arrow writers hold buffers per column: wide inputs go to
/// CSV/TSV.
fn check_writable(written: usize, path: &Path, format: Format, shown: &str) -> anyhow::Result<()> {
    if written > MAX_COLUMNAR_COLUMNS && !matches!(format, Format::Csv | Format::Tsv) {
        anyhow::bail!(
            "{shown} has {written} columns; hdlscan writes at most {MAX_COLUMNAR_COLUMNS} to {} ({}), since \
             each Parquet column writer holds its own buffers; write CSV or TSV output instead (-o out.csv)",
            format.name(),
            path.display()
        );
    }
    Ok(())
}

/// Parquet and Arrow input have no header line, delimiter or records to pad or cap,
/// JSON no header or delimiter, CSV no bad lines to skip: a flag given with
/// an input it does not apply to would be ignored, and silently ignoring
/// `-n` or `-d` hides a command line that meant something else.
fn check_input_flags(req: &Request, format: Format) -> Result<(), PlanError> {
    let (columnar, json) = (format.is_columnar(), format == Format::Jsonl);
    let given = [
        (req.no_headers, "-n/--no-headers", "CSV/TSV", columnar || json),
        (req.no_quoting, "--no-quoting", "CSV/TSV", columnar || json),
        (req.delimiter.is_some(), "-d/--delimiter", "CSV/TSV", columnar || json),
        (req.ragged.is_some(), "--ragged", "CSV/TSV", columnar || json),
        (
            req.max_record_mib.is_some(),
            "--max-record-mib",
            "CSV/TSV and JSON",
            columnar,
        ),
        (req.block_mib.is_some(), "--block-mib", "CSV/TSV and JSON", columnar),
        (req.encoding.is_some(), "--encoding", "CSV/TSV", columnar || json),
        (req.sheet.is_some(), "--sheet", "spreadsheet", columnar || json),
        (req.skip_bad_lines, "--skip-bad-lines", "JSON", !json),
        (req.records.is_some(), "--records", "JSON", !json),
    ];
    match given.iter().find(|(set, _, _, refused)| *set && *refused) {
        Some(&(_, flag, applies, _)) => Err(PlanError::NotForInput { flag, applies, format }),
        None => Ok(()),
    }
}

fn parse_delimiter(d: &str) -> Result<u8, PlanError> {
    match d {
        "\\t" | "tab" => Ok(b'\t'),
        _ if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" && d != "\r" => Ok(d.as_bytes()[0]),
        _ => Err(PlanError::flag(
            format!("--delimiter {d:?}"),
            "expected one ASCII character other than a quote or newline (or \\t)",
        )),
    }
}

/// The CSV header as a schema of string columns.
fn utf8_schema(headers: &[String]) -> SchemaRef {
    Arc::new(Schema::new(
        headers
            .iter()
            .map(|h| Field::new(h, DataType::Utf8, true))
            .collect::<Vec<_>>(),
    ))
}
