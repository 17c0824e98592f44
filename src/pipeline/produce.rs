//! The reader thread of `scan`: every input in turn, cut into units of
//! work (CSV blocks of whole records, Parquet and Arrow IPC record
//! batches), each with where its chosen and kept columns are in that input.
//!
//! Inputs of one run may differ in columns: each must hold every chosen
//! and `--keep` column, found by the name it has in the first input
//! (where the selectors were resolved). Wide output writes every input
//! column, so there the columns must be the first input's, in order, and
//! for Parquet of the same types.
//!
//! A Parquet input whose rows are not written back (audit, long output)
//! decodes only the leaf columns its chosen paths and kept columns need
//! (`ParquetInput::project`); wide output writes every column, so reads
//! them all.

use super::{InputShape, Work};
use crate::io::csv_in::{CsvBlockReader, CsvOptions};
use crate::io::error::PositionedError;
use crate::io::format::Format;
use crate::io::jsonl::{JsonPath, Step};
use crate::io::nested;
use crate::io::parquet_in::{self, Columnar};
use crate::io::source::InputSpec;
use crate::report::InputInfo;
use anyhow::{Result, anyhow, bail};
use arrow_array::RecordBatch;
use arrow_schema::{Field, Schema, SchemaRef};
use std::sync::Arc;
use std::sync::mpsc::SyncSender;

/// What every input is matched against: the first input's columns.
pub(super) struct Columns {
    pub format: Format,
    pub csv: CsvOptions,
    /// The first input's schema.
    pub schema: SchemaRef,
    /// Indices in the first input of the chosen and kept columns.
    pub chosen: Vec<usize>,
    pub keep: Vec<usize>,
    /// Every input column is written (wide output).
    pub all: bool,
    /// Per chosen column: the path into its structs and lists (after the
    /// column's own name), so the column itself is not a string column.
    pub nested: Vec<Option<Vec<Step>>>,
    pub json: crate::io::jsonl::JsonlOptions,
}

impl Columns {
    /// The shape of input `index` whose column names are `names` (and
    /// Parquet schema `schema`).
    fn shape(
        &self,
        index: u32,
        names: &[&str],
        schema: Option<&Schema>,
        record_base: u64,
        shown: &str,
    ) -> Result<InputShape> {
        let first: Vec<&str> = self.schema.fields().iter().map(|f| f.name().as_str()).collect();
        let ncols = names.len();
        // Wide output: the first input's columns, in order, so its indices hold.
        let (cols, keep): (Vec<usize>, Vec<usize>) = if self.all {
            if names != first {
                bail!(
                    "{shown}: its columns ({}) differ from the first input's ({}); inputs of one run written as wide \
                     output must have the same columns (long output, with several columns or --long, needs only \
                     the chosen ones)",
                    crate::io::describe_columns(names.iter().copied()),
                    crate::io::describe_columns(first.iter().copied())
                );
            }
            if let Some(s) = schema
                && let Some((ours, theirs)) = s.fields().iter().zip(self.schema.fields()).find(|(a, b)| a != b)
            {
                let describe =
                    |f: &Field| format!("{}{}", f.data_type(), if f.is_nullable() { "" } else { " not null" });
                bail!(
                    "{shown}: column {:?} is {} here but {} in the first input; inputs of one run must have the same column types",
                    ours.name(),
                    describe(ours),
                    describe(theirs)
                );
            }
            (self.chosen.clone(), self.keep.clone())
        } else {
            let find = |i: usize, what: &str| -> Result<usize> {
                let name = first[i];
                let at: Vec<usize> = (0..ncols).filter(|&c| names[c] == name).collect();
                match at[..] {
                    [c] => Ok(c),
                    [] => bail!(
                        "{shown} has no column named {name:?} ({what} in the first input); its columns are: {}",
                        crate::io::describe_columns(names.iter().copied())
                    ),
                    _ => bail!(
                        "{shown}: {} columns are named {name:?}; which one to read is ambiguous",
                        at.len()
                    ),
                }
            };
            (
                self.chosen.iter().map(|&i| find(i, "chosen")).collect::<Result<_>>()?,
                self.keep.iter().map(|&i| find(i, "kept")).collect::<Result<_>>()?,
            )
        };
        if let Some(s) = schema {
            for (&c, steps) in cols.iter().zip(&self.nested) {
                match steps {
                    None => parquet_in::check_identifier_column(s, c, shown)?,
                    // Resolved in the first input; another may nest otherwise.
                    Some(steps) => {
                        let mut full = vec![Step::Key(s.field(c).name().as_str().into())];
                        full.extend(steps.iter().cloned());
                        let path = JsonPath::from_steps(full).map_err(|e| anyhow!("{shown}: {e}"))?;
                        nested::check(s.field(c), steps, &path).map_err(|e| anyhow!("{shown}: {e:#}"))?;
                    }
                }
            }
            for (&k, &first_k) in keep.iter().zip(&self.keep) {
                let (ours, theirs) = (s.field(k).data_type(), self.schema.field(first_k).data_type());
                if ours != theirs {
                    bail!(
                        "{shown}: the kept column {:?} is {ours} here but {theirs} in the first input; a column of \
                         the output has one type",
                        s.field(k).name()
                    );
                }
            }
        }
        Ok(InputShape {
            index,
            ncols,
            cols,
            keep,
            record_base,
        })
    }
}

/// Every input in turn, cut into units of work. Returns the per-input
/// facts for the report.
pub(super) fn produce(
    inputs: Vec<InputSpec>,
    mut first_csv: Option<CsvBlockReader>,
    columns: Columns,
    tx: SyncSender<Result<Work>>,
) -> Result<Vec<InputInfo>> {
    let mut infos = Vec::with_capacity(inputs.len());
    let mut record_base = 0u64;
    for (index, spec) in inputs.iter().enumerate() {
        let index = index as u32;
        let r = match columns.format {
            Format::Parquet | Format::Arrow => produce_columnar(spec, index, &columns, record_base, &tx),
            Format::Jsonl => produce_jsonl(spec, index, &columns, record_base, &tx),
            _ => produce_csv(first_csv.take(), spec, index, &columns, record_base, &tx),
        };
        match r {
            Ok(Some(info)) => {
                record_base += info.records;
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

/// One CSV or TSV input; `opened` is the first input's reader, which the
/// plan opened to read its header.
fn produce_csv(
    opened: Option<CsvBlockReader>,
    spec: &InputSpec,
    index: u32,
    columns: &Columns,
    record_base: u64,
    tx: &SyncSender<Result<Work>>,
) -> Result<Option<InputInfo>> {
    let mut reader = match opened {
        Some(reader) => reader,
        None => CsvBlockReader::open(spec, columns.csv.clone())?,
    };
    let shown = spec.display_name();
    let names: Vec<&str> = reader.headers().iter().map(String::as_str).collect();
    let input = Arc::new(columns.shape(index, &names, None, record_base, &shown)?);
    let (mut records, mut bytes) = (0u64, 0u64);
    while let Some(raw) = reader.next_block()? {
        records += raw.nrecords;
        bytes = bytes.max(raw.byte_offset + raw.data.len() as u64);
        let input = Arc::clone(&input);
        if tx.send(Ok(Work::Csv { raw, input })).is_err() {
            return Ok(None);
        }
    }
    // Decoded text is no file's size: count the bytes it was decoded from.
    if reader.decoding().is_some() {
        bytes = reader.source_bytes();
    }
    // Nor is a spreadsheet's CSV: count the workbook's.
    if (bytes == 0 || reader.sheet().is_some())
        && let InputSpec::Path(p) = spec
    {
        bytes = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    }
    let format = match reader.sheet() {
        Some(sheet) => sheet.format,
        None if columns.csv.delimiter == b'\t' => "tsv",
        None => "csv",
    };
    Ok(Some(InputInfo {
        path: shown,
        format: format.into(),
        bytes,
        records,
        decoding: reader.decoding(),
    }))
}

/// One Parquet or Arrow IPC input: its batches as the file types them.
/// A run that writes no input row reads only what it needs: of Parquet
/// the leaf columns its paths end on and its kept columns (matched by
/// name on the whole schema first), of Arrow the top-level columns.
fn produce_columnar(
    spec: &InputSpec,
    index: u32,
    columns: &Columns,
    record_base: u64,
    tx: &SyncSender<Result<Work>>,
) -> Result<Option<InputInfo>> {
    let mut source = Columnar::open(spec, columns.format)?;
    let shown = spec.display_name();
    let schema = source.schema().clone();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    let mut input = columns.shape(index, &names, Some(&schema), record_base, &shown)?;
    // Arrow's batches keep these columns, in order.
    let mut top: Option<Vec<usize>> = None;
    if !columns.all {
        if let Columnar::Parquet(pq) = &mut source {
            let mut leaves = Vec::new();
            for (&c, steps) in input.cols.iter().zip(&columns.nested) {
                leaves.extend(nested::leaves(&schema, c, steps.as_deref()).map_err(|e| anyhow!("{shown}: {e:#}"))?);
            }
            for &k in &input.keep {
                leaves.extend(nested::leaves(&schema, k, None)?);
            }
            let at = pq.project(leaves);
            let renumber = |c: &mut usize| -> Result<()> {
                *c = at[*c].ok_or_else(|| anyhow!("{shown}: column {:?} has no leaf to read", names[*c]))?;
                Ok(())
            };
            input.cols.iter_mut().chain(&mut input.keep).try_for_each(renumber)?;
            input.ncols = at.iter().flatten().count();
        } else {
            let mut read: Vec<usize> = input.cols.iter().chain(&input.keep).copied().collect();
            read.sort_unstable();
            read.dedup();
            let at = |c: &mut usize| *c = read.binary_search(c).unwrap_or_default();
            input.cols.iter_mut().chain(&mut input.keep).for_each(at);
            input.ncols = read.len();
            top = Some(read).filter(|r| r.len() < names.len());
        }
    }
    let input = Arc::new(input);
    let mut records = 0u64;
    match source {
        Columnar::Parquet(pq) => {
            for rg in 0..pq.num_row_groups() {
                if !send_batches(pq.read_row_group(rg)?, &input, record_base, &mut records, |b| b, tx)? {
                    return Ok(None);
                }
            }
        }
        Columnar::Arrow(batches) => {
            let keep = |b: RecordBatch| match &top {
                Some(read) => b.project(read).unwrap_or(b),
                None => b,
            };
            if !send_batches(batches, &input, record_base, &mut records, keep, tx)? {
                return Ok(None);
            }
        }
    }
    Ok(Some(InputInfo {
        path: shown,
        format: columns.format.name().into(),
        bytes: spec.path().map_or(0, |p| std::fs::metadata(p).map_or(0, |m| m.len())),
        records,
        decoding: None,
    }))
}

/// Sends each of `batches`, as `keep` leaves it, with the record it starts
/// at; `records` counts the input's rows so far. A batch longer than
/// Parquet's goes in slices of that many rows (no copy): an Arrow file
/// written as one batch of millions of rows is then classified on every
/// worker, and each unit's output stays as small as Parquet's. False when
/// the main thread stopped listening.
fn send_batches(
    batches: impl Iterator<Item = Result<RecordBatch, PositionedError>>,
    input: &Arc<InputShape>,
    record_base: u64,
    records: &mut u64,
    keep: impl Fn(RecordBatch) -> RecordBatch,
    tx: &SyncSender<Result<Work>>,
) -> Result<bool> {
    for batch in batches {
        let batch = keep(batch?);
        let rows = batch.num_rows();
        for at in (0..rows).step_by(parquet_in::DEFAULT_BATCH_SIZE) {
            let part = batch.slice(at, parquet_in::DEFAULT_BATCH_SIZE.min(rows - at));
            let first_record = record_base + *records + 1;
            *records += part.num_rows() as u64;
            let unit = Work::Batch {
                batch: part,
                first_record,
                input: Arc::clone(input),
            };
            if tx.send(Ok(unit)).is_err() {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// One JSON input: the same paths in every input, so no columns to match.
fn produce_jsonl(
    spec: &InputSpec,
    index: u32,
    columns: &Columns,
    record_base: u64,
    tx: &SyncSender<Result<Work>>,
) -> Result<Option<InputInfo>> {
    let mut reader = crate::io::jsonl::JsonlBlockReader::open(spec, columns.json.clone())?;
    let input = Arc::new(InputShape {
        index,
        ncols: columns.chosen.len() + columns.keep.len(),
        cols: columns.chosen.clone(),
        keep: columns.keep.clone(),
        record_base,
    });
    let (mut records, mut bytes) = (0u64, 0u64);
    while let Some(raw) = reader.next_block()? {
        records += raw.nrecords;
        bytes = bytes.max(raw.byte_offset + raw.data.len() as u64);
        // A pretty-printed document read as JSON Lines fails on its first
        // line: say what to do, as the line alone cannot.
        let first = raw.data.split(|&b| b == b'\n').next().unwrap_or_default().trim_ascii();
        let hint = match first {
            b"{" => "a JSON document over several lines; if its records are an array under a key (Crossref's \
                     {\"items\": [...]}), add --records KEY; if it is one record, write it on one line \
                     (jq -c . FILE)",
            b"[" => "a JSON array over several lines; read its elements as records with --records '[]'",
            _ => "",
        };
        if raw.first_line == 1 && columns.json.records.is_none() && !hint.is_empty() {
            bail!("{}: line 1 is not one JSON record: this looks like {hint}", spec.display_name());
        }
        let input = Arc::clone(&input);
        if tx.send(Ok(Work::Jsonl { raw, input })).is_err() {
            return Ok(None);
        }
    }
    Ok(Some(InputInfo {
        path: spec.display_name(),
        format: "jsonl".into(),
        bytes,
        records,
        decoding: None,
    }))
}
