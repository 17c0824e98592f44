//! Reading one output of `scan`, in any format `scan` writes: CSV, TSV and
//! JSON Lines (plain, `.gz` or `.zst`, the compression sniffed as `scan`
//! does), Parquet and Arrow IPC, both found by their first bytes whatever
//! the file's name. A `.tsv`/`.tab` name (through `.gz`/`.zst`) is
//! tab-separated, a `.jsonl`/`.ndjson`/`.json` one JSON Lines (its columns
//! are its first record's keys, as `scan` writes every key in every
//! record), any other CSV; `-` is CSV on stdin.
//!
//! [`Table::for_each`] hands the rows to a callback one at a time in a
//! reused [`RowBuf`]: the key cells and the four compared columns, as text
//! (see `row`). Key cells of any type are text as `scan`'s CSV writes them
//! (its writer's [`Cells`]: integers and floats in decimal, booleans
//! `true`/`false`, lists of strings joined with `;`), so an `id` that is
//! an integer in Parquet matches the same `id` in CSV.

use super::layout::{self, Layout};
use super::row::{RowBuf, normalize_warnings};
use crate::io::csv_in::{CsvBlockReader, CsvOptions, parse_block};
use crate::io::error::{ErrorKind, Position, PositionedError};
use crate::io::format::Format;
use crate::io::jsonl::{self, JsonPath, JsonlBlockReader, JsonlOptions, PathSet, RawLines, Step};
use crate::io::parquet_in::Columnar;
use crate::io::sink::Cells;
use crate::io::source::InputSpec;
use crate::strings::is_string_type;
use anyhow::Result;
use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};
use std::borrow::Cow;

enum Source {
    Csv(Box<CsvBlockReader>),
    /// The reader, and its first block, read to learn the columns.
    Jsonl(Box<JsonlBlockReader>, Option<RawLines>),
    Columnar(Columnar),
}

/// The input layer's advice for JSON read as CSV is `scan`'s
/// `--input-format jsonl`, which `diff` has not: it reads JSON Lines by
/// the file's name only.
fn json_by_name(e: PositionedError, name: &str) -> anyhow::Error {
    use crate::io::magic::NotCsv;
    match e.kind() {
        ErrorKind::NotCsv {
            format: format @ (NotCsv::Json | NotCsv::JsonLines),
            ..
        } => anyhow::anyhow!(
            "{name}: this is {}, not CSV: diff reads scan's JSON Lines output from a file named .jsonl \
             (.jsonl.gz, .jsonl.zst), and stdin (-) as CSV only",
            format.noun()
        ),
        _ => e.into(),
    }
}

/// An open output of `scan`: its header read, no row yet.
pub struct Table {
    name: String,
    format: Format,
    names: Vec<String>,
    source: Source,
}

impl Table {
    pub fn open(spec: &InputSpec) -> Result<Table> {
        let name = spec.display_name();
        let head = spec.head();
        let (format, source) = match (spec, Format::sniff(&head)) {
            (InputSpec::Path(_), Some(format @ (Format::Parquet | Format::Arrow))) => {
                (format, Source::Columnar(Columnar::open(spec, format)?))
            }
            (_, None) if spec.format() == Format::Jsonl => {
                let mut reader = JsonlBlockReader::open(spec, JsonlOptions::default())?;
                let first = reader.next_block()?;
                (Format::Jsonl, Source::Jsonl(Box::new(reader), first))
            }
            // Text, by its name: TSV, or CSV.
            _ => {
                let format = match spec.format() {
                    Format::Tsv => Format::Tsv,
                    _ => Format::Csv,
                };
                let opts = CsvOptions {
                    delimiter: format.delimiter(),
                    ..CsvOptions::default()
                };
                let reader = CsvBlockReader::open(spec, opts).map_err(|e| json_by_name(e, &name))?;
                (format, Source::Csv(Box::new(reader)))
            }
        };
        let names = match &source {
            Source::Csv(reader) => reader.headers().to_vec(),
            Source::Jsonl(_, first) => first.as_ref().map_or(Ok(Vec::new()), first_keys)?,
            Source::Columnar(input) => input.schema().fields().iter().map(|f| f.name().clone()).collect(),
        };
        Ok(Table {
            name,
            format,
            names,
            source,
        })
    }

    /// The file as named in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// Column names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A JSON Lines file without a record: it names no column, and holds
    /// no row to compare.
    pub fn is_empty_jsonl(&self) -> bool {
        matches!(self.source, Source::Jsonl(_, None))
    }

    /// Reads every row into `buf` and calls `f`; returns the rows read.
    pub fn for_each(self, layout: &Layout, mut f: impl FnMut(&RowBuf) -> Result<()>) -> Result<u64> {
        let mut buf = RowBuf::default();
        let name = self.name;
        let mut f = |b: &RowBuf| {
            known_kind(&name, b)?;
            f(b)
        };
        match self.source {
            Source::Csv(mut reader) => {
                let (ncols, opts) = (reader.ncols(), reader.parse_options());
                while let Some(raw) = reader.next_block()? {
                    let block = parse_block(&raw, ncols, opts)?;
                    for r in 0..block.nrows() {
                        buf.next_row();
                        for &k in &layout.key {
                            buf.push_key(block.field(r, k));
                        }
                        let text = |c: usize| String::from_utf8_lossy(block.field(r, layout.spec[c]));
                        set(&mut buf.kind, &text(layout::KIND));
                        set(&mut buf.canonical, &text(layout::CANONICAL));
                        set(&mut buf.error, &text(layout::ERROR));
                        normalize_warnings(std::iter::once(&*text(layout::WARNINGS)), &mut buf.warnings);
                        buf.record = layout
                            .record
                            .and_then(|c| std::str::from_utf8(block.field(r, c)).ok()?.parse().ok());
                        f(&buf)?;
                    }
                }
            }
            // No record: no row, and no column names to look up.
            Source::Jsonl(_, None) => {}
            Source::Jsonl(mut reader, mut block) => {
                let columns: Vec<usize> = layout.key.iter().copied().chain(layout.record).collect();
                let (keys, record) = (layout.key.len(), layout.record.map(|_| layout.key.len()));
                let key = |c: usize| Step::Key(self.names[c].as_str().into());
                let mut paths: Vec<JsonPath> = columns.iter().map(|&c| key(c)).map(one_step).collect();
                let at = paths.len();
                paths.extend([layout::KIND, layout::CANONICAL, layout::ERROR].map(|c| one_step(key(layout.spec[c]))));
                // A list in scan's JSON Lines; a cell joined with `;` read as one.
                let steps = vec![key(layout.spec[layout::WARNINGS]), Step::Each];
                paths.push(JsonPath::from_steps(steps).expect("starts with a key"));
                let paths = PathSet::new(&paths);
                let opts = JsonlOptions::default();
                while let Some(raw) = block.take() {
                    let recs = jsonl::parse_block(&raw, &paths, &opts)?;
                    for r in 0..recs.len() {
                        let cell = |p: usize| String::from_utf8_lossy(recs.values(r, p).next().unwrap_or_default());
                        buf.next_row();
                        for p in 0..keys {
                            buf.push_key(recs.values(r, p).next().unwrap_or_default());
                        }
                        set(&mut buf.kind, &cell(at));
                        set(&mut buf.canonical, &cell(at + 1));
                        set(&mut buf.error, &cell(at + 2));
                        let warnings: Vec<Cow<'_, str>> = recs.values(r, at + 3).map(String::from_utf8_lossy).collect();
                        normalize_warnings(warnings.iter().map(|w| &**w), &mut buf.warnings);
                        buf.record = record.and_then(|p| cell(p).parse().ok());
                        f(&buf)?;
                    }
                    block = reader.next_block()?;
                }
            }
            Source::Columnar(Columnar::Parquet(input)) => {
                let schema = input.schema().clone();
                for g in 0..input.num_row_groups() {
                    for batch in input.read_row_group(g)? {
                        batch_rows(&name, &schema, &batch?, layout, &mut buf, &mut f)?;
                    }
                }
            }
            Source::Columnar(Columnar::Arrow(input)) => {
                let schema = input.schema().clone();
                for batch in input {
                    batch_rows(&name, &schema, &batch?, layout, &mut buf, &mut f)?;
                }
            }
        }
        Ok(buf.row)
    }
}

/// A path to one member of a record.
fn one_step(key: Step) -> JsonPath {
    JsonPath::from_steps(vec![key]).expect("starts with a key")
}

/// The columns of a JSON Lines output: its first record's keys, in order.
fn first_keys(raw: &RawLines) -> Result<Vec<String>> {
    let mut lines = raw.data.split(|&b| b == b'\n').enumerate();
    let Some((i, line)) = lines.find(|(_, l)| !l.trim_ascii().is_empty()) else {
        return Ok(Vec::new());
    };
    match serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(line) {
        Ok(record) => Ok(record.keys().cloned().collect()),
        Err(e) => anyhow::bail!(
            "{}: line {}: not a JSON object, so not a row of scan's JSON Lines output: {e}",
            raw.file,
            raw.first_line + i as u64
        ),
    }
}

/// A `kind` that is none of SPEC's kinds is a file `scan` did not write
/// (or one edited since): compared anyway, its rows would pass for
/// valid identifiers.
fn known_kind(name: &str, buf: &RowBuf) -> Result<()> {
    if buf.kind.is_empty() || crate::id::Kind::from_name(&buf.kind).is_some() {
        return Ok(());
    }
    let kinds: Vec<&str> = crate::id::Kind::ALL.iter().map(|k| k.as_str()).collect();
    anyhow::bail!(
        "{name}: row {}: column 'kind' holds {:?}, which is none of the kinds scan writes ({}): is it a scan's output?",
        buf.row,
        buf.kind,
        kinds.join(", ")
    )
}

fn set(s: &mut String, v: &str) {
    s.clear();
    s.push_str(v);
}

/// The rows of one Parquet or Arrow batch.
fn batch_rows(
    name: &str,
    schema: &SchemaRef,
    batch: &RecordBatch,
    layout: &Layout,
    buf: &mut RowBuf,
    f: &mut impl FnMut(&RowBuf) -> Result<()>,
) -> Result<()> {
    let column = |i: usize| -> Result<Cells<'_>> {
        let field = schema.field(i);
        if !readable(field.data_type()) {
            let kind = ErrorKind::ColumnType {
                column: field.name().clone(),
                found: field.data_type().to_string(),
                wanted: "one a diff reads as text (strings, bytes, numbers, booleans, lists of strings)",
                hint: String::new(),
            };
            return Err(PositionedError::new(&name.into(), Position::default(), kind).into());
        }
        Cells::new(batch.column(i), true)
    };
    let keys: Vec<Cells<'_>> = layout.key.iter().map(|&k| column(k)).collect::<Result<_>>()?;
    let [kind, canonical, error, warnings] =
        [layout::KIND, layout::CANONICAL, layout::ERROR, layout::WARNINGS].map(|c| column(layout.spec[c]));
    let (kind, canonical, error, warnings) = (kind?, canonical?, error?, warnings?);
    let record = layout.record.map(column).transpose()?;
    let mut scratch = Vec::new();
    for r in 0..batch.num_rows() {
        buf.next_row();
        for k in &keys {
            buf.push_key(text(k, r, &mut scratch).as_bytes());
        }
        set(&mut buf.kind, &text(&kind, r, &mut scratch));
        set(&mut buf.canonical, &text(&canonical, r, &mut scratch));
        set(&mut buf.error, &text(&error, r, &mut scratch));
        normalize_warnings(std::iter::once(&*text(&warnings, r, &mut scratch)), &mut buf.warnings);
        buf.record = record.as_ref().and_then(|c| text(c, r, &mut scratch).parse().ok());
        f(buf)?;
    }
    Ok(())
}

/// Cell `r` of `c` as text (invalid UTF-8 replaced), written through
/// `scratch`.
fn text<'s>(c: &Cells<'_>, r: usize, scratch: &'s mut Vec<u8>) -> Cow<'s, str> {
    scratch.clear();
    c.write(r, scratch);
    String::from_utf8_lossy(scratch)
}

/// Whether a diff reads a column of type `dt` as text.
fn readable(dt: &DataType) -> bool {
    use DataType::*;
    match dt {
        Null | Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 | Float32 | Float64 => true,
        Binary | LargeBinary | BinaryView => true,
        List(f) | LargeList(f) => is_string_type(f.data_type()),
        dt => is_string_type(dt),
    }
}
