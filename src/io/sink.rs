//! Output sinks: the enriched table as Parquet, CSV, TSV or Arrow IPC.
//!
//! [`Sink::create`] writes through an [`AtomicFile`]: nothing appears at the
//! target until [`Sink::finish`] succeeds, and a sink dropped before that
//! (error, panic) leaves no file behind. [`Sink::from_writer`] writes to any
//! `Write` (stdout, tests).
//!
//! # Formats
//! - **Parquet**: column chunks encoded in parallel on the rayon pool
//!   (arrow-rs's `ArrowColumnWriter` API, same output as `ArrowWriter`), zstd level [`PARQUET_ZSTD_LEVEL`], row
//!   groups of at most [`PARQUET_MAX_ROW_GROUP_ROWS`] rows (and about
//!   [`PARQUET_MAX_ROW_GROUP_BYTES`] encoded bytes, to bound memory on wide
//!   rows), dictionary encoding on (the writer falls back to plain encoding
//!   per column chunk when a dictionary grows past 1 MiB) except for string
//!   and binary columns whose first values are nearly all distinct (see
//!   `without_hopeless_dictionaries`). The Arrow schema
//!   is embedded, so Arrow readers get `Dictionary`/`List` types back.
//! - **Arrow IPC file** (`.arrow`, `.ipc`, `.feather`): `FileWriter`,
//!   uncompressed. The IPC *file* format allows one dictionary per field for
//!   the whole file, while each of our batches carries its own, so
//!   dictionary-of-string columns are written decoded, as plain `Utf8`
//!   (see [`Sink::output_schema`]).
//! - **CSV / TSV**: the `csv` crate, RFC 4180 quoting (TSV quotes fields
//!   holding a tab, quote or line break the same way). Header row = field
//!   names. Strings as they are; integers, floats and booleans in decimal
//!   (`true`/`false`); dictionaries decoded; `List<Utf8>` elements joined
//!   with `;` (an element containing `;` is not escaped); null → empty
//!   field. Other types are refused when the sink is created.
//!
//! # Errors
//! Every error names the output: "writing out.csv: no space left on device".

use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::{Result, anyhow, bail};
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, BooleanArray, GenericListArray, PrimitiveArray, RecordBatch};
use arrow_ipc::writer::FileWriter;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use rayon::prelude::*;

use super::atomic::{AtomicFile, os_reason};
use super::parquet_in::{IdColumn, StrColumn, is_string_type, to_utf8};

/// zstd level for Parquet output (see the measurements in the report /
/// `measure_parquet_settings`).
pub const PARQUET_ZSTD_LEVEL: i32 = 1;
/// Maximum rows per Parquet row group. A row group is buffered (encoded)
/// in memory until it closes, so this bounds the writer's memory; 256 Ki rows
/// is within what DuckDB (122,880) and polars (512 Ki) write themselves.
pub const PARQUET_MAX_ROW_GROUP_ROWS: usize = 256 * 1024;
/// Approximate maximum encoded bytes per Parquet row group.
pub const PARQUET_MAX_ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;

/// Output file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Parquet,
    Csv,
    Tsv,
    /// Arrow IPC file format.
    Arrow,
}

impl OutputFormat {
    /// By extension, case-insensitively: `.parquet`, `.csv`, `.tsv`,
    /// `.arrow`/`.ipc`/`.feather`. `None` for anything else.
    pub fn from_path(path: &Path) -> Option<OutputFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "parquet" => OutputFormat::Parquet,
            "csv" => OutputFormat::Csv,
            "tsv" => OutputFormat::Tsv,
            "arrow" | "ipc" | "feather" => OutputFormat::Arrow,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Parquet => "parquet",
            OutputFormat::Csv => "csv",
            OutputFormat::Tsv => "tsv",
            OutputFormat::Arrow => "arrow",
        }
    }
}

/// The Parquet writer properties hdlscan uses, with zstd at `zstd_level`
/// (clamped to zstd's range).
pub fn parquet_properties(zstd_level: i32) -> WriterProperties {
    parquet_properties_builder(parquet_zstd(zstd_level)).build()
}

/// zstd at `level`, clamped to zstd's range.
pub fn parquet_zstd(level: i32) -> Compression {
    Compression::ZSTD(ZstdLevel::try_new(level.clamp(1, 22)).expect("valid zstd level"))
}

/// hdlscan's Parquet settings with another codec, to adjust further.
pub fn parquet_properties_builder(compression: Compression) -> WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(compression)
        .set_dictionary_enabled(true)
        .set_max_row_group_row_count(Some(PARQUET_MAX_ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(PARQUET_MAX_ROW_GROUP_BYTES))
        .set_created_by(format!("hdlscan {}", env!("CARGO_PKG_VERSION")))
}

/// Tuning knobs; the defaults are what hdlscan uses.
#[derive(Debug, Clone)]
pub struct SinkOptions {
    /// Parquet writer properties (default: [`parquet_properties`] at
    /// [`PARQUET_ZSTD_LEVEL`]).
    pub parquet: WriterProperties,
    /// CSV/TSV only: the header row's first cells as bytes, in place of
    /// the field names (which are UTF-8), so a CSV input's header goes
    /// through exactly as it was.
    pub header: Vec<Vec<u8>>,
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            parquet: parquet_properties(PARQUET_ZSTD_LEVEL),
            header: Vec::new(),
        }
    }
}

/// Remembers the first I/O error of the wrapped writer, so errors that come
/// back wrapped by an encoder can be reported with the plain OS reason.
struct Capture<W> {
    inner: W,
    err: Arc<Mutex<Option<String>>>,
}

impl<W: Write> Capture<W> {
    fn note<T>(&self, r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r {
            let mut slot = self.err.lock().unwrap_or_else(|p| p.into_inner());
            if slot.is_none() {
                *slot = Some(os_reason(e));
            }
        }
        r
    }
}

impl<W: Write> Write for Capture<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        self.note(r)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = self.inner.write_all(buf);
        self.note(r)
    }
    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.note(r)
    }
}

enum Encoder<W: Write + Send> {
    Parquet(ParallelParquet<Capture<W>>),
    Arrow {
        w: FileWriter<Capture<W>>,
        schema: SchemaRef,
        decode: Vec<bool>,
    },
    Delimited(Delimited<Capture<W>>),
}

/// A table being written. See the module doc.
pub struct Sink<W: Write + Send = AtomicFile> {
    enc: Option<Encoder<W>>,
    input_schema: SchemaRef,
    output_schema: SchemaRef,
    label: String,
    err: Arc<Mutex<Option<String>>>,
    rows: u64,
}

impl Sink<AtomicFile> {
    /// Creates `path` (atomically, see [`AtomicFile`]) for `format`.
    pub fn create(path: &Path, format: OutputFormat, schema: SchemaRef) -> Result<Sink> {
        Self::create_checked(path, format, schema, &[])
    }

    /// Like [`create`](Self::create), refusing when `path` is the same file
    /// as one of `inputs`.
    pub fn create_checked(path: &Path, format: OutputFormat, schema: SchemaRef, inputs: &[&Path]) -> Result<Sink> {
        Self::create_with(path, format, schema, inputs, SinkOptions::default())
    }

    /// Like [`create_checked`](Self::create_checked), with options.
    pub fn create_with(
        path: &Path,
        format: OutputFormat,
        schema: SchemaRef,
        inputs: &[&Path],
        options: SinkOptions,
    ) -> Result<Sink> {
        // Check the schema before creating anything.
        if format == OutputFormat::Csv || format == OutputFormat::Tsv {
            check_delimited_schema(&schema, &path.display().to_string())?;
        }
        let file = AtomicFile::create(path, inputs)?;
        Sink::from_writer_with(file, format, schema, &path.display().to_string(), options)
    }

    /// Writes the end of the file, syncs it and renames it onto the target.
    /// Returns the number of rows written.
    pub fn finish(self) -> Result<u64> {
        let (file, rows) = self.finish_writer()?;
        file.commit()?; // its errors name the path
        Ok(rows)
    }
}

impl<W: Write + Send> Sink<W> {
    /// A sink writing to `w`; `label` names it in errors (e.g. the path).
    pub fn from_writer(w: W, format: OutputFormat, schema: SchemaRef, label: &str) -> Result<Sink<W>> {
        Self::from_writer_with(w, format, schema, label, SinkOptions::default())
    }

    /// Like [`from_writer`](Self::from_writer), with options.
    pub fn from_writer_with(
        w: W,
        format: OutputFormat,
        schema: SchemaRef,
        label: &str,
        options: SinkOptions,
    ) -> Result<Sink<W>> {
        let err = Arc::new(Mutex::new(None));
        let cw = Capture {
            inner: w,
            err: Arc::clone(&err),
        };
        let label = label.to_string();
        let fail = |e: &dyn std::fmt::Display| -> anyhow::Error {
            match err.lock().unwrap_or_else(|p| p.into_inner()).take() {
                Some(reason) => anyhow!("writing {label}: {reason}"),
                None => anyhow!("writing {label}: {e}"),
            }
        };
        let (enc, output_schema) = match format {
            OutputFormat::Parquet => {
                let w = ParallelParquet::new(cw, Arc::clone(&schema), options.parquet).map_err(|e| fail(&e))?;
                (Encoder::Parquet(w), Arc::clone(&schema))
            }
            OutputFormat::Arrow => {
                let decode: Vec<bool> = schema
                    .fields()
                    .iter()
                    .map(|f| matches!(f.data_type(), DataType::Dictionary(..)) && is_string_type(f.data_type()))
                    .collect();
                let fields: Vec<Field> = schema
                    .fields()
                    .iter()
                    .zip(&decode)
                    .map(|(f, &d)| {
                        if d {
                            f.as_ref().clone().with_data_type(DataType::Utf8)
                        } else {
                            f.as_ref().clone()
                        }
                    })
                    .collect();
                let out = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
                let w = FileWriter::try_new(cw, &out).map_err(|e| fail(&e))?;
                (
                    Encoder::Arrow {
                        w,
                        schema: Arc::clone(&out),
                        decode,
                    },
                    out,
                )
            }
            OutputFormat::Csv | OutputFormat::Tsv => {
                check_delimited_schema(&schema, &label)?;
                let delim = if format == OutputFormat::Tsv { b'\t' } else { b',' };
                let d = Delimited::new(cw, delim, &schema, &options.header).map_err(|e| fail(&e))?;
                (Encoder::Delimited(d), Arc::clone(&schema))
            }
        };
        Ok(Sink {
            enc: Some(enc),
            input_schema: schema,
            output_schema,
            label,
            err,
            rows: 0,
        })
    }

    /// The schema batches must have.
    pub fn schema(&self) -> &SchemaRef {
        &self.input_schema
    }

    /// The schema of the file as written (differs from [`schema`](Self::schema)
    /// only for Arrow IPC, where dictionary columns are decoded to `Utf8`).
    pub fn output_schema(&self) -> &SchemaRef {
        &self.output_schema
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    fn error(&self, e: &dyn std::fmt::Display) -> anyhow::Error {
        match self.err.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(reason) => anyhow!("writing {}: {reason}", self.label),
            None => anyhow!("writing {}: {e}", self.label),
        }
    }

    /// Appends `batch`, whose columns must have the types of
    /// [`schema`](Self::schema) (names are not checked). After a write
    /// error (other than a schema mismatch) the sink is dead: later writes
    /// and `finish` fail, and a file sink's temporary file is already gone.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let expected = self.input_schema.fields();
        if batch.num_columns() != expected.len()
            || batch
                .columns()
                .iter()
                .zip(expected.iter())
                .any(|(c, f)| c.data_type() != f.data_type())
        {
            bail!(
                "writing {}: batch schema {:?} does not match the output schema {:?}",
                self.label,
                batch.schema().fields(),
                expected
            );
        }
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let Some(enc) = self.enc.as_mut() else {
            bail!("writing {}: an earlier write failed", self.label);
        };
        let res = match enc {
            Encoder::Parquet(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::Arrow { w, schema, decode } => {
                let cols: Result<Vec<ArrayRef>> = batch
                    .columns()
                    .iter()
                    .zip(decode.iter())
                    .map(|(c, &d)| if d { to_utf8(c) } else { Ok(Arc::clone(c)) })
                    .collect();
                match cols.and_then(|cols| Ok(RecordBatch::try_new(Arc::clone(schema), cols)?)) {
                    Ok(b) => w.write(&b).map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }
            Encoder::Delimited(d) => d.write(batch).map_err(|e| e.to_string()),
        };
        if let Err(e) = res {
            // The encoder's state is unknown now: drop it (and with it the
            // temporary file) so the sink can never be finished.
            self.enc = None;
            return Err(self.error(&e));
        }
        self.rows += batch.num_rows() as u64;
        Ok(())
    }

    /// Writes the end of the stream and returns the writer and the number
    /// of rows written (for [`Sink::from_writer`]; a file sink uses
    /// [`Sink::finish`]).
    pub fn finish_writer(mut self) -> Result<(W, u64)> {
        let Some(enc) = self.enc.take() else {
            bail!("writing {}: an earlier write failed", self.label);
        };
        let res = match enc {
            Encoder::Parquet(w) => w.into_inner().map_err(|e| e.to_string()),
            Encoder::Arrow { w, .. } => w.into_inner().map_err(|e| e.to_string()),
            Encoder::Delimited(d) => d.into_inner().map_err(|e| e.to_string()),
        };
        let mut cw = res.map_err(|e| self.error(&e))?;
        cw.flush().map_err(|e| self.error(&e))?;
        Ok((cw.inner, self.rows))
    }
}

// ---------------------------------------------------------------------------
// Parquet, column chunks encoded in parallel

/// Like `ArrowWriter`, but each batch's column chunks are encoded on the
/// rayon pool, one task per leaf column (arrow-rs's `ArrowColumnWriter`
/// API). Row groups are cut at the same limits as `ArrowWriter` would
/// (`max_row_group_row_count`, `max_row_group_bytes`). The file writer
/// comes from `ArrowWriter::into_serialized_writer`, so the Arrow schema is
/// embedded exactly as `ArrowWriter` embeds it.
struct ParallelParquet<W: Write + Send> {
    /// The output and its settings until the first batch, which tunes them
    /// (see [`without_hopeless_dictionaries`]); then the open file.
    state: ParquetState<W>,
    schema: SchemaRef,
    /// Column writers of the row group in progress.
    writers: Option<Vec<ArrowColumnWriter>>,
    rows_in_group: usize,
    max_rows: usize,
    max_bytes: usize,
}

enum ParquetState<W: Write + Send> {
    Pending(W, WriterProperties),
    Open(SerializedFileWriter<W>, ArrowRowGroupWriterFactory),
    /// Only while switching from `Pending` to `Open`.
    Switching,
}

impl<W: Write + Send> ParallelParquet<W> {
    fn new(w: W, schema: SchemaRef, props: WriterProperties) -> parquet::errors::Result<Self> {
        // Refuse a schema Parquet cannot hold now, not at the first batch.
        ArrowWriter::try_new(io::sink(), Arc::clone(&schema), Some(props.clone()))?;
        let max_rows = props.max_row_group_row_count().unwrap_or(usize::MAX).max(1);
        let max_bytes = props.max_row_group_bytes().unwrap_or(usize::MAX).max(1);
        Ok(ParallelParquet {
            state: ParquetState::Pending(w, props),
            schema,
            writers: None,
            rows_in_group: 0,
            max_rows,
            max_bytes,
        })
    }

    /// The open file, opened first if need be, with settings tuned by
    /// `first` (the first batch).
    fn open(
        &mut self,
        first: Option<&RecordBatch>,
    ) -> parquet::errors::Result<(&mut SerializedFileWriter<W>, &ArrowRowGroupWriterFactory)> {
        if let ParquetState::Pending(..) = self.state {
            let ParquetState::Pending(w, mut props) = std::mem::replace(&mut self.state, ParquetState::Switching)
            else {
                unreachable!("checked above")
            };
            if let Some(batch) = first {
                props = without_hopeless_dictionaries(props, batch);
            }
            let (file, factory) =
                ArrowWriter::try_new(w, Arc::clone(&self.schema), Some(props))?.into_serialized_writer()?;
            self.state = ParquetState::Open(file, factory);
        }
        match &mut self.state {
            ParquetState::Open(file, factory) => Ok((file, factory)),
            _ => Err(parquet::errors::ParquetError::General(
                "the Parquet writer failed to open".into(),
            )),
        }
    }

    fn write(&mut self, batch: &RecordBatch) -> parquet::errors::Result<()> {
        let mut rest = batch.clone();
        while rest.num_rows() > 0 {
            if self.writers.is_none() {
                let (file, factory) = self.open(Some(batch))?;
                let writers = factory.create_column_writers(file.flushed_row_groups().len())?;
                self.writers = Some(writers);
                self.rows_in_group = 0;
            }
            let room = self.max_rows - self.rows_in_group;
            let part = if rest.num_rows() > room {
                let head = rest.slice(0, room);
                rest = rest.slice(room, rest.num_rows() - room);
                head
            } else {
                std::mem::replace(&mut rest, batch.slice(0, 0))
            };
            let mut leaves = Vec::with_capacity(self.schema.fields().len());
            for (field, col) in self.schema.fields().iter().zip(part.columns()) {
                leaves.extend(compute_leaves(field, col)?);
            }
            let writers = self.writers.as_mut().expect("row group in progress");
            writers
                .par_iter_mut()
                .zip(leaves.into_par_iter())
                .try_for_each(|(w, leaf)| w.write(&leaf))?;
            self.rows_in_group += part.num_rows();
            let bytes: usize = writers.iter().map(|w| w.get_estimated_total_bytes()).sum();
            if self.rows_in_group >= self.max_rows || bytes >= self.max_bytes {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> parquet::errors::Result<()> {
        let Some(writers) = self.writers.take() else {
            return Ok(());
        };
        let chunks: Vec<ArrowColumnChunk> = writers
            .into_par_iter()
            .map(|w| w.close())
            .collect::<parquet::errors::Result<_>>()?;
        let (file, _) = self.open(None)?;
        let mut rg = file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut rg)?;
        }
        rg.close()?;
        Ok(())
    }

    fn into_inner(mut self) -> parquet::errors::Result<W> {
        self.flush()?;
        self.open(None)?;
        match self.state {
            ParquetState::Open(file, _) => file.into_inner(),
            _ => unreachable!("opened above"),
        }
    }
}

/// Of the first batch's values, how many rows of each column are sampled to
/// decide its dictionary.
const DICTIONARY_SAMPLE_ROWS: usize = 4096;

/// Dictionary encoding off for every plain string or binary column whose
/// sampled values are 90% or more distinct (record ids, titles, the raw
/// identifiers): parquet-rs would hash and intern each value of every row
/// group until the dictionary passes its page limit (1 MiB), then write the
/// rest plain all the same. On the benchmark export this took a tenth of
/// the writer's CPU, for a file 1% larger. Too few values (under 256 in the
/// sample) decide nothing.
fn without_hopeless_dictionaries(props: WriterProperties, batch: &RecordBatch) -> WriterProperties {
    let mut hopeless = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        let plain_bytes = matches!(
            field.data_type(),
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
        );
        let path = parquet::schema::types::ColumnPath::from(field.name().as_str());
        if !plain_bytes || !props.dictionary_enabled(&path) {
            continue;
        }
        let Ok(values) = IdColumn::new(column.as_ref()) else {
            continue;
        };
        let rows = column.len().min(DICTIONARY_SAMPLE_ROWS);
        let mut seen = std::collections::HashSet::with_capacity(rows);
        let mut sampled = 0usize;
        for v in (0..rows).filter_map(|i| values.get_bytes(i)) {
            sampled += 1;
            seen.insert(v);
        }
        if sampled >= 256 && seen.len() * 10 >= sampled * 9 {
            hopeless.push(path);
        }
    }
    if hopeless.is_empty() {
        return props;
    }
    let mut b = props.into_builder();
    for path in hopeless {
        b = b.set_column_dictionary_enabled(path, false);
    }
    b.build()
}

// ---------------------------------------------------------------------------
// CSV / TSV

/// Fails if a column's type cannot be written as delimited text.
fn check_delimited_schema(schema: &Schema, label: &str) -> Result<()> {
    for f in schema.fields() {
        if !delimited_type_ok(f.data_type()) {
            bail!(
                "cannot write column '{}' of type {} to {label} as CSV/TSV; write .parquet or .arrow instead",
                f.name(),
                f.data_type()
            );
        }
    }
    Ok(())
}

fn delimited_type_ok(dt: &DataType) -> bool {
    use DataType::*;
    match dt {
        Null | Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 | Float32 | Float64 => true,
        // Bytes are written as they are: CSV is bytes.
        Binary | LargeBinary | BinaryView => true,
        List(f) | LargeList(f) => is_string_type(f.data_type()),
        dt => is_string_type(dt),
    }
}

/// Formats one cell of a non-string column into `out`; false for null.
trait CellFmt {
    fn fmt_cell(&self, i: usize, out: &mut Vec<u8>) -> bool;
}

impl<T: ArrowPrimitiveType> CellFmt for PrimitiveArray<T>
where
    T::Native: std::fmt::Display,
{
    #[inline]
    fn fmt_cell(&self, i: usize, out: &mut Vec<u8>) -> bool {
        if self.is_null(i) {
            return false;
        }
        let _ = write!(out, "{}", self.value(i));
        true
    }
}

impl CellFmt for BooleanArray {
    #[inline]
    fn fmt_cell(&self, i: usize, out: &mut Vec<u8>) -> bool {
        if self.is_null(i) {
            return false;
        }
        out.extend_from_slice(if self.value(i) { b"true" } else { b"false" });
        true
    }
}

/// A column of one batch, downcast once.
enum Col<'a> {
    Str(StrColumn<'a>),
    Bytes(IdColumn<'a>),
    List {
        offsets: &'a [i32],
        nulls: Option<&'a arrow_buffer::NullBuffer>,
        values: StrColumn<'a>,
    },
    LargeList {
        offsets: &'a [i64],
        nulls: Option<&'a arrow_buffer::NullBuffer>,
        values: StrColumn<'a>,
    },
    Fmt(&'a dyn CellFmt),
    Null,
}

impl<'a> Col<'a> {
    fn new(a: &'a ArrayRef) -> Result<Col<'a>> {
        use DataType::*;
        Ok(match a.data_type() {
            Null => Col::Null,
            Binary | LargeBinary | BinaryView => Col::Bytes(IdColumn::new(a.as_ref())?),
            Boolean => Col::Fmt(a.as_boolean()),
            Int8 => Col::Fmt(a.as_primitive::<Int8Type>()),
            Int16 => Col::Fmt(a.as_primitive::<Int16Type>()),
            Int32 => Col::Fmt(a.as_primitive::<Int32Type>()),
            Int64 => Col::Fmt(a.as_primitive::<Int64Type>()),
            UInt8 => Col::Fmt(a.as_primitive::<UInt8Type>()),
            UInt16 => Col::Fmt(a.as_primitive::<UInt16Type>()),
            UInt32 => Col::Fmt(a.as_primitive::<UInt32Type>()),
            UInt64 => Col::Fmt(a.as_primitive::<UInt64Type>()),
            Float32 => Col::Fmt(a.as_primitive::<Float32Type>()),
            Float64 => Col::Fmt(a.as_primitive::<Float64Type>()),
            List(_) => {
                let l: &GenericListArray<i32> = a.as_list();
                Col::List {
                    offsets: l.value_offsets(),
                    nulls: l.nulls(),
                    values: StrColumn::new(l.values().as_ref())?,
                }
            }
            LargeList(_) => {
                let l: &GenericListArray<i64> = a.as_list();
                Col::LargeList {
                    offsets: l.value_offsets(),
                    nulls: l.nulls(),
                    values: StrColumn::new(l.values().as_ref())?,
                }
            }
            _ => Col::Str(StrColumn::new(a.as_ref())?),
        })
    }
}

struct Delimited<W: Write> {
    w: csv::Writer<W>,
    rec: csv::ByteRecord,
    scratch: Vec<u8>,
}

/// Separator between the elements of a list in CSV/TSV output.
pub const LIST_SEPARATOR: u8 = b';';

fn join_list<O: Copy + TryInto<usize>>(
    offsets: &[O],
    nulls: Option<&arrow_buffer::NullBuffer>,
    values: &StrColumn<'_>,
    i: usize,
    out: &mut Vec<u8>,
) {
    if nulls.is_some_and(|n| n.is_null(i)) {
        return;
    }
    let (Ok(start), Ok(end)) = (offsets[i].try_into(), offsets[i + 1].try_into()) else {
        return;
    };
    for j in start..end {
        if j > start {
            out.push(LIST_SEPARATOR);
        }
        if let Some(v) = values.get_bytes(j) {
            out.extend_from_slice(v);
        }
    }
}

impl<W: Write> Delimited<W> {
    fn new(w: W, delimiter: u8, schema: &Schema, header: &[Vec<u8>]) -> csv::Result<Self> {
        let mut w = csv::WriterBuilder::new()
            .delimiter(delimiter)
            .buffer_capacity(256 * 1024)
            .from_writer(w);
        let mut rec = csv::ByteRecord::new();
        for (i, f) in schema.fields().iter().enumerate() {
            rec.push_field(header.get(i).map_or(f.name().as_bytes(), Vec::as_slice));
        }
        w.write_byte_record(&rec)?;
        Ok(Delimited {
            w,
            rec,
            scratch: Vec::with_capacity(256),
        })
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let cols: Vec<Col<'_>> = batch.columns().iter().map(Col::new).collect::<Result<_>>()?;
        for i in 0..batch.num_rows() {
            self.rec.clear();
            for c in &cols {
                match c {
                    Col::Str(s) => self.rec.push_field(s.get_bytes(i).unwrap_or_default()),
                    Col::Bytes(b) => self.rec.push_field(b.get_bytes(i).unwrap_or_default()),
                    Col::Null => self.rec.push_field(b""),
                    Col::Fmt(f) => {
                        self.scratch.clear();
                        f.fmt_cell(i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                    Col::List { offsets, nulls, values } => {
                        self.scratch.clear();
                        join_list(offsets, *nulls, values, i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                    Col::LargeList { offsets, nulls, values } => {
                        self.scratch.clear();
                        join_list(offsets, *nulls, values, i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                }
            }
            self.w.write_byte_record(&self.rec)?;
        }
        Ok(())
    }

    fn into_inner(self) -> Result<W> {
        self.w.into_inner().map_err(|e| anyhow!("{}", e.error()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::io::parquet_in::ParquetInput;
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{DictionaryArray, StringArray, UInt64Array};
    use std::fs;

    /// The schema the pipeline produces, with `n_inputs` input columns.
    pub(crate) fn pipeline_schema(n_inputs: usize) -> SchemaRef {
        let inputs: Vec<String> = (0..n_inputs).map(|i| format!("in{i}")).collect();
        let mut fields: Vec<Field> = inputs.iter().map(|n| Field::new(n, DataType::Utf8, true)).collect();
        let added = crate::columns::fields("", &inputs).expect("no clash");
        fields.extend(added.iter().map(|f| f.as_ref().clone()));
        Arc::new(Schema::new(fields))
    }

    /// Rows `start..start+n` of a synthetic enriched table. Each batch gets
    /// its own dictionaries (as the pipeline's would).
    pub(crate) fn pipeline_batch(schema: &SchemaRef, start: u64, n: usize) -> RecordBatch {
        let n_inputs = schema.fields().len() - 13;
        let mut cols: Vec<ArrayRef> = Vec::new();
        for c in 0..n_inputs {
            let a: StringArray = (0..n as u64)
                .map(|i| {
                    let r = start + i;
                    match (r + c as u64) % 11 {
                        0 => None,
                        1 => Some(format!("has,comma \"quoted\" {r}")),
                        2 => Some(String::new()),
                        _ => Some(format!("10.{}/abc.{r}.{c}", 1000 + r % 97)),
                    }
                })
                .collect();
            cols.push(Arc::new(a));
        }
        cols.push(Arc::new(UInt64Array::from_iter_values(start..start + n as u64)));
        // Per-batch dictionaries: the value order depends on `start`.
        let kinds = ["doi", "handle", "url", "invalid"];
        let kind: DictionaryArray<Int8Type> = (0..n as u64)
            .map(|i| Some(kinds[((start + i) * 7 % 4 + start % 3) as usize % 4]))
            .collect();
        cols.push(Arc::new(kind));
        let ns: Vec<Option<String>> = (0..n as u64)
            .map(|i| {
                let r = start + i;
                (!r.is_multiple_of(5)).then(|| format!("{}", 10 + r % 13))
            })
            .collect();
        let ns: DictionaryArray<Int32Type> = ns.iter().map(|s| s.as_deref()).collect();
        cols.push(Arc::new(ns));
        for k in 0..8u64 {
            let a: StringArray = (0..n as u64)
                .map(|i| {
                    let r = start + i;
                    (!(r + k).is_multiple_of(3)).then(|| format!("v{k}-{r}"))
                })
                .collect();
            cols.push(Arc::new(a));
        }
        let err: DictionaryArray<Int8Type> = (0..n as u64)
            .map(|i| (start + i).is_multiple_of(4).then_some("bad-prefix"))
            .collect();
        cols.push(Arc::new(err));
        let mut lb = ListBuilder::new(StringBuilder::new());
        for i in 0..n as u64 {
            let r = start + i;
            for w in 0..(r % 3) {
                lb.values().append_value(format!("w{w}"));
            }
            lb.append(true);
        }
        cols.push(Arc::new(lb.finish()));
        RecordBatch::try_new(Arc::clone(schema), cols).unwrap()
    }

    #[test]
    fn format_from_path() {
        let f = |p: &str| OutputFormat::from_path(Path::new(p));
        assert_eq!(f("a/b.parquet"), Some(OutputFormat::Parquet));
        assert_eq!(f("x.CSV"), Some(OutputFormat::Csv));
        assert_eq!(f("x.tsv"), Some(OutputFormat::Tsv));
        assert_eq!(f("x.arrow"), Some(OutputFormat::Arrow));
        assert_eq!(f("x.ipc"), Some(OutputFormat::Arrow));
        assert_eq!(f("x.feather"), Some(OutputFormat::Arrow));
        assert_eq!(f("x.json"), None);
        assert_eq!(f("parquet"), None);
    }

    #[test]
    fn parquet_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.parquet");
        let schema = pipeline_schema(2);
        let b1 = pipeline_batch(&schema, 0, 1000);
        let b2 = pipeline_batch(&schema, 1000, 500);
        let mut sink = Sink::create(&path, OutputFormat::Parquet, Arc::clone(&schema)).unwrap();
        sink.write(&b1).unwrap();
        assert!(!path.exists());
        sink.write(&b2).unwrap();
        assert_eq!(sink.finish().unwrap(), 1500);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);

        let input = ParquetInput::open(&path).unwrap().with_batch_size(1000);
        assert_eq!(input.num_rows(), 1500);
        assert_eq!(input.num_row_groups(), 1);
        assert_eq!(input.schema().fields(), schema.fields());
        let got: Vec<RecordBatch> = input.read_row_group(0).unwrap().map(|b| b.unwrap()).collect();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], b1);
        assert_eq!(got[1], b2);
    }

    /// The parallel encoder produces the very bytes `ArrowWriter` does.
    #[test]
    fn parallel_parquet_matches_arrow_writer() {
        let schema = pipeline_schema(2);
        let batches: Vec<RecordBatch> = (0..5).map(|k| pipeline_batch(&schema, k * 700, 700)).collect();
        let props = || {
            parquet_properties_builder(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
                .set_max_row_group_row_count(Some(1000))
                .build()
        };
        let mut reference = Vec::new();
        let tuned = without_hopeless_dictionaries(props(), &batches[0]);
        let mut w = ArrowWriter::try_new(&mut reference, Arc::clone(&schema), Some(tuned)).unwrap();
        for b in &batches {
            w.write(b).unwrap();
        }
        w.close().unwrap();
        let opts = SinkOptions {
            parquet: props(),
            ..SinkOptions::default()
        };
        let mut sink =
            Sink::from_writer_with(Vec::new(), OutputFormat::Parquet, Arc::clone(&schema), "m", opts).unwrap();
        for b in &batches {
            sink.write(b).unwrap();
        }
        let (ours, rows) = sink.finish_writer().unwrap();
        assert_eq!(rows, 3500);
        assert!(ours == reference, "parallel output differs from ArrowWriter's");
    }

    /// Dictionaries stay on where values repeat, or where too few values
    /// were seen to tell, and on columns that are not plain bytes.
    #[test]
    fn dictionaries_off_only_where_values_are_distinct() {
        use arrow_array::{BinaryArray, Int64Array};
        use parquet::schema::types::ColumnPath;
        let n = 1000i64;
        let text = |f: fn(i64) -> String| Arc::new(StringArray::from_iter_values((0..n).map(f))) as ArrayRef;
        let batch = RecordBatch::try_from_iter([
            ("id", text(|i| format!("r{i}"))),
            ("kind", text(|i| ["a", "b"][i as usize % 2].to_string())),
            (
                "raw",
                Arc::new(BinaryArray::from_iter_values((0..n).map(|i| i.to_le_bytes()))),
            ),
            ("most", text(|i| (i % 890).to_string())), // 89% distinct: below the line
            ("num", Arc::new(Int64Array::from_iter_values(0..n))),
        ])
        .unwrap();
        let on = |props: &WriterProperties, name: &str| props.dictionary_enabled(&ColumnPath::from(name));
        let tuned = without_hopeless_dictionaries(parquet_properties(1), &batch);
        assert!(!on(&tuned, "id") && !on(&tuned, "raw"));
        assert!(on(&tuned, "kind") && on(&tuned, "most") && on(&tuned, "num"));
        let few = without_hopeless_dictionaries(parquet_properties(1), &batch.slice(0, 255));
        assert!(on(&few, "id"));
        // A file's other settings survive.
        assert_eq!(tuned.compression(&ColumnPath::from("id")), parquet_zstd(1));
    }

    #[test]
    fn arrow_ipc_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.arrow");
        let schema = pipeline_schema(1);
        let batches = [pipeline_batch(&schema, 0, 300), pipeline_batch(&schema, 301, 200)];
        let mut sink = Sink::create(&path, OutputFormat::Arrow, Arc::clone(&schema)).unwrap();
        for b in &batches {
            sink.write(b).unwrap();
        }
        let out_schema = Arc::clone(sink.output_schema());
        assert_eq!(out_schema.field_with_name("kind").unwrap().data_type(), &DataType::Utf8);
        assert_eq!(sink.finish().unwrap(), 500);

        let reader = arrow_ipc::reader::FileReader::try_new(fs::File::open(&path).unwrap(), None).unwrap();
        assert_eq!(reader.schema(), out_schema);
        let got: Vec<RecordBatch> = reader.map(|b| b.unwrap()).collect();
        assert_eq!(got.len(), 2);
        if have_pyarrow("pyarrow check of the Arrow IPC file") {
            let out = std::process::Command::new("python3")
                .args([
                    "-c",
                    "import sys, pyarrow as pa; t = pa.ipc.open_file(sys.argv[1]).read_all(); \
                     assert t.num_rows == 500, t.num_rows; print(t.schema)",
                ])
                .arg(&path)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
        for (g, b) in got.iter().zip(&batches) {
            for (i, (gc, bc)) in g.columns().iter().zip(b.columns()).enumerate() {
                if matches!(bc.data_type(), DataType::Dictionary(..)) {
                    assert_eq!(gc, &to_utf8(bc).unwrap(), "column {i}");
                } else {
                    assert_eq!(gc, bc, "column {i}");
                }
            }
        }
    }

    fn small_batch() -> RecordBatch {
        let schema = pipeline_schema(1);
        let mut b = pipeline_batch(&schema, 0, 4);
        // Make row 3's list null-free but with an empty element, and give
        // the input a line break.
        let input: StringArray = vec![Some("a\nb"), None, Some("x\ty"), Some("plain")]
            .into_iter()
            .collect();
        let mut cols = b.columns().to_vec();
        cols[0] = Arc::new(input);
        let mut lb = ListBuilder::new(StringBuilder::new());
        lb.append(true); // empty
        lb.values().append_value("w0");
        lb.append(true);
        lb.values().append_value("w0");
        lb.values().append_null();
        lb.values().append_value("w;2");
        lb.append(true);
        lb.append(true);
        cols[schema.fields().len() - 1] = Arc::new(lb.finish());
        b = RecordBatch::try_new(schema, cols).unwrap();
        b
    }

    #[test]
    fn csv_and_tsv_text() {
        let b = small_batch();
        let mut sink = Sink::from_writer(Vec::new(), OutputFormat::Csv, b.schema(), "mem.csv").unwrap();
        sink.write(&b).unwrap();
        let (out, rows) = sink.finish_writer().unwrap();
        assert_eq!(rows, 4);
        let text = String::from_utf8(out).unwrap();
        let expected = "\
in0,record,kind,namespace,prefix,suffix,canonical,uri,url,resolver,query,fragment,error,warnings
\"a\nb\",0,doi,,,v1-0,v2-0,,v4-0,v5-0,,v7-0,bad-prefix,
,1,invalid,11,v0-1,v1-1,,v3-1,v4-1,,v6-1,v7-1,,w0
x\ty,2,url,12,v0-2,,v2-2,v3-2,,v5-2,v6-2,,,w0;;w;2
plain,3,handle,13,,v1-3,v2-3,,v4-3,v5-3,,v7-3,,
";
        assert_eq!(text, expected);

        let mut sink = Sink::from_writer(Vec::new(), OutputFormat::Tsv, b.schema(), "mem.tsv").unwrap();
        sink.write(&b).unwrap();
        let text = String::from_utf8(sink.finish_writer().unwrap().0).unwrap();
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(lines[0].starts_with("in0\trecord\tkind\t"));
        assert!(text.contains("\"x\ty\"\t2\turl\t12\t"), "{text}");

        // Parse back with the csv crate: same cells.
        let mut rdr = csv::ReaderBuilder::new().from_reader(expected.as_bytes());
        let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), 4);
        assert_eq!(&recs[0][0], "a\nb");
        assert_eq!(&recs[2][13], "w0;;w;2");
    }

    #[test]
    fn empty_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let schema = pipeline_schema(1);
        for (name, fmt) in [
            ("e.parquet", OutputFormat::Parquet),
            ("e.csv", OutputFormat::Csv),
            ("e.arrow", OutputFormat::Arrow),
        ] {
            let path = dir.path().join(name);
            let mut sink = Sink::create(&path, fmt, Arc::clone(&schema)).unwrap();
            sink.write(&RecordBatch::new_empty(Arc::clone(&schema))).unwrap();
            assert_eq!(sink.finish().unwrap(), 0);
            assert!(path.exists());
        }
        let input = ParquetInput::open(&dir.path().join("e.parquet")).unwrap();
        assert_eq!(input.num_rows(), 0);
        let text = fs::read_to_string(dir.path().join("e.csv")).unwrap();
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn wrong_batch_schema_and_unsupported_csv_type() {
        let schema = pipeline_schema(1);
        let mut sink = Sink::from_writer(Vec::new(), OutputFormat::Parquet, Arc::clone(&schema), "x.parquet").unwrap();
        let other = pipeline_batch(&pipeline_schema(2), 0, 3);
        let err = sink.write(&other).unwrap_err().to_string();
        assert!(err.starts_with("writing x.parquet: batch schema"), "{err}");

        let s = Arc::new(Schema::new(vec![Field::new("when", DataType::Date32, true)]));
        let dir = tempfile::tempdir().unwrap();
        let err = Sink::create(&dir.path().join("o.csv"), OutputFormat::Csv, s)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("column 'when'") && err.contains("Date32"), "{err}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Accepts `room` bytes, then fails like a full disk.
    struct FullAfter {
        room: usize,
    }

    impl Write for FullAfter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from_raw_os_error(28)); // ENOSPC
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_errors_name_the_output_and_reason() {
        let schema = pipeline_schema(1);
        for fmt in [
            OutputFormat::Parquet,
            OutputFormat::Csv,
            OutputFormat::Tsv,
            OutputFormat::Arrow,
        ] {
            for room in [0, 10, 5000] {
                let res = (|| -> Result<u64> {
                    let w = FullAfter { room };
                    let mut sink = Sink::from_writer(w, fmt, Arc::clone(&schema), "out.csv")?;
                    for k in 0..4 {
                        sink.write(&pipeline_batch(&schema, k * 2000, 2000))?;
                    }
                    Ok(sink.finish_writer()?.1)
                })();
                let err = res.unwrap_err().to_string();
                assert_eq!(err, "writing out.csv: no space left on device", "{fmt:?} {room}");
            }
        }
    }

    #[test]
    fn failed_sink_cannot_be_finished() {
        let schema = pipeline_schema(1);
        let w = FullAfter { room: 100 };
        let mut sink = Sink::from_writer(w, OutputFormat::Csv, Arc::clone(&schema), "o").unwrap();
        let b = pipeline_batch(&schema, 0, 100_000);
        assert!(sink.write(&b).is_err());
        let err = sink.write(&b).unwrap_err().to_string();
        assert_eq!(err, "writing o: an earlier write failed");
        assert!(sink.finish_writer().is_err());
    }

    #[test]
    fn send_bounds() {
        fn is_send<T: Send>() {}
        is_send::<Sink>();
        is_send::<crate::io::parquet_in::ParquetInput>();
        is_send::<crate::io::parquet_in::RowGroupBatches>();
    }

    #[test]
    fn dropped_sink_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let schema = pipeline_schema(1);
        for fmt in [OutputFormat::Parquet, OutputFormat::Csv, OutputFormat::Arrow] {
            let path = dir.path().join(format!("out.{}", fmt.name()));
            let mut sink = Sink::create(&path, fmt, Arc::clone(&schema)).unwrap();
            sink.write(&pipeline_batch(&schema, 0, 5000)).unwrap();
            drop(sink);
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "{fmt:?}");
        }
        // An existing output is kept until the new one is complete.
        let path = dir.path().join("keep.csv");
        fs::write(&path, "old").unwrap();
        let mut sink = Sink::create(&path, OutputFormat::Csv, Arc::clone(&schema)).unwrap();
        sink.write(&pipeline_batch(&schema, 0, 10)).unwrap();
        drop(sink);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        // And refusal to overwrite an input.
        let err = Sink::create_checked(&path, OutputFormat::Csv, schema, &[&path])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("same file as input"), "{err}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn unwritable_directory_error() {
        let schema = pipeline_schema(1);
        // Not writable even for root.
        let err = Sink::create(Path::new("/sys/out.csv"), OutputFormat::Csv, schema)
            .err()
            .unwrap()
            .to_string();
        assert!(err.starts_with("cannot create output in /sys: "), "{err}");
    }

    /// A real full file system: a 256 KiB tmpfs. Needs mount privileges;
    /// skipped (with a message) without them.
    #[cfg(target_os = "linux")]
    #[test]
    fn full_device() {
        struct Mount(std::path::PathBuf);
        impl Drop for Mount {
            fn drop(&mut self) {
                let _ = std::process::Command::new("umount").arg(&self.0).status();
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let mnt = dir.path().join("small");
        fs::create_dir(&mnt).unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(&mnt)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipping full_device: cannot mount a tmpfs here");
            return;
        }
        let _guard = Mount(mnt.clone());
        let schema = pipeline_schema(2);
        for fmt in [OutputFormat::Csv, OutputFormat::Parquet, OutputFormat::Arrow] {
            let path = mnt.join(format!("out.{}", fmt.name()));
            let res = (|| -> Result<u64> {
                let mut sink = Sink::create(&path, fmt, Arc::clone(&schema))?;
                for k in 0..20 {
                    sink.write(&pipeline_batch(&schema, k * 5000, 5000))?;
                }
                sink.finish()
            })();
            let err = res.unwrap_err().to_string();
            assert_eq!(
                err,
                format!("writing {}: no space left on device", path.display()),
                "{fmt:?}"
            );
            assert_eq!(fs::read_dir(&mnt).unwrap().count(), 0, "{fmt:?}");
        }
    }

    /// Whether python3 with pyarrow is there; without it, panics when `CI`
    /// is set and prints a skip message for `what` otherwise.
    pub(crate) fn have_pyarrow(what: &str) -> bool {
        let ok = std::process::Command::new("python3")
            .args(["-c", "import pyarrow"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            if std::env::var_os("CI").is_some() {
                panic!("python3 with pyarrow is required in CI (pip install pyarrow duckdb polars)");
            }
            eprintln!("skipping {what}: python3 with pyarrow not available");
        }
        ok
    }

    /// Runs scripts/check_parquet.py on `path`. Without python3 + pyarrow:
    /// fails when `CI` is set, else prints a skip message and returns.
    pub(crate) fn run_check_parquet(path: &Path, rows: u64) {
        if !have_pyarrow("check_parquet.py") {
            return;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_parquet.py");
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg(path)
            .args(["--expect-rows", &rows.to_string()])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "check_parquet.py failed:\n{text}");
        eprintln!("{text}");
    }

    #[test]
    fn parquet_readable_by_other_tools() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("check.parquet");
        let schema = pipeline_schema(2);
        // Small row groups, so several of them (and dictionaries that differ
        // per row group) are exercised.
        let opts = SinkOptions {
            parquet: parquet_properties_builder(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
                .set_max_row_group_row_count(Some(1500))
                .build(),
            ..SinkOptions::default()
        };
        let mut sink = Sink::create_with(&path, OutputFormat::Parquet, Arc::clone(&schema), &[], opts).unwrap();
        for k in 0..4 {
            sink.write(&pipeline_batch(&schema, k * 1000, 1000)).unwrap();
        }
        assert_eq!(sink.finish().unwrap(), 4000);
        assert_eq!(ParquetInput::open(&path).unwrap().num_row_groups(), 3);
        run_check_parquet(&path, 4000);
    }

    /// Speed and size of the output formats for 1M rows x 20 columns.
    /// `cargo test --release --lib measure_sinks -- --ignored --nocapture`
    #[test]
    #[ignore = "measurement, run by hand in release mode"]
    fn measure_sinks() {
        let dir = tempfile::tempdir_in(std::env::var("MEASURE_DIR").unwrap_or(".".into())).unwrap();
        let schema = pipeline_schema(7);
        assert_eq!(schema.fields().len(), 20);
        let batches: Vec<RecordBatch> = (0..16).map(|k| pipeline_batch(&schema, k * 65536, 65536)).collect();
        let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
        let mem: usize = batches.iter().map(|b| b.get_array_memory_size()).sum();
        eprintln!("{rows} rows x 20 columns, {:.1} MB in Arrow memory", mem as f64 / 1e6);
        let mut cases: Vec<(String, OutputFormat, SinkOptions)> = Vec::new();
        for (name, c) in [
            ("parquet uncompressed", Compression::UNCOMPRESSED),
            ("parquet snappy", Compression::SNAPPY),
            ("parquet zstd(1)", Compression::ZSTD(ZstdLevel::try_new(1).unwrap())),
            ("parquet zstd(3)", Compression::ZSTD(ZstdLevel::try_new(3).unwrap())),
            ("parquet zstd(6)", Compression::ZSTD(ZstdLevel::try_new(6).unwrap())),
        ] {
            let opts = SinkOptions {
                parquet: parquet_properties_builder(c).build(),
                ..SinkOptions::default()
            };
            cases.push((name.into(), OutputFormat::Parquet, opts));
        }
        let opts = SinkOptions {
            parquet: parquet_properties_builder(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
                .set_dictionary_enabled(false)
                .build(),
            ..SinkOptions::default()
        };
        cases.push(("parquet zstd(1) no dict".into(), OutputFormat::Parquet, opts));
        cases.push(("csv".into(), OutputFormat::Csv, SinkOptions::default()));
        cases.push(("arrow ipc".into(), OutputFormat::Arrow, SinkOptions::default()));
        {
            // The serial ArrowWriter, for comparison with the parallel encoder.
            let path = dir.path().join("serial.parquet");
            let t = std::time::Instant::now();
            let f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
            let mut w = ArrowWriter::try_new(f, Arc::clone(&schema), Some(parquet_properties(1))).unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            w.close().unwrap();
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "{:>24}: {secs:6.2} s, {:7.1} MB/s of Arrow data, {:7.2} M rows/s, file {:7.1} MB",
                "serial ArrowWriter zstd1",
                mem as f64 / 1e6 / secs,
                rows as f64 / 1e6 / secs,
                fs::metadata(&path).unwrap().len() as f64 / 1e6
            );
        }
        for (name, fmt, opts) in cases {
            let path = dir.path().join(format!("m.{}", fmt.name()));
            let t = std::time::Instant::now();
            let mut sink = Sink::create_with(&path, fmt, Arc::clone(&schema), &[], opts).unwrap();
            for b in &batches {
                sink.write(b).unwrap();
            }
            sink.finish().unwrap();
            let secs = t.elapsed().as_secs_f64();
            let size = fs::metadata(&path).unwrap().len();
            eprintln!(
                "{name:>24}: {secs:6.2} s, {:7.1} MB/s of Arrow data, {:7.2} M rows/s, file {:7.1} MB",
                mem as f64 / 1e6 / secs,
                rows as f64 / 1e6 / secs,
                size as f64 / 1e6
            );
        }
    }
}
