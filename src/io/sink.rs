//! Output sinks: the enriched table as Parquet, CSV, TSV or Arrow IPC.
//!
//! [`Sink::create`] writes through an [`AtomicFile`]: nothing appears at the
//! target until [`Sink::finish`] succeeds, and a sink dropped before that
//! (error, panic) leaves no file behind. [`Sink::from_writer`] writes to any
//! `Write` (stdout, tests).
//!
//! # Formats
//! - **Parquet**: `ArrowWriter`, zstd level [`PARQUET_ZSTD_LEVEL`], row
//!   groups of at most [`PARQUET_MAX_ROW_GROUP_ROWS`] rows (and about
//!   [`PARQUET_MAX_ROW_GROUP_BYTES`] encoded bytes, to bound memory on wide
//!   rows), dictionary encoding on (the writer falls back to plain encoding
//!   per column chunk when a dictionary grows past 1 MiB). The Arrow schema
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
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{WriterProperties, WriterVersion};

use super::atomic::{AtomicFile, os_reason};
use super::parquet_in::{StrColumn, is_string_type, to_utf8};

/// zstd level for Parquet output (see the measurements in the report /
/// `measure_parquet_settings`).
pub const PARQUET_ZSTD_LEVEL: i32 = 1;
/// Maximum rows per Parquet row group (arrow-rs's default, 1 Mi rows).
pub const PARQUET_MAX_ROW_GROUP_ROWS: usize = 1024 * 1024;
/// Approximate maximum encoded bytes per Parquet row group.
pub const PARQUET_MAX_ROW_GROUP_BYTES: usize = 256 * 1024 * 1024;

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

/// The Parquet writer properties hdlscan uses.
pub fn parquet_properties(zstd_level: i32) -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(zstd_level).expect("valid zstd level"),
        ))
        .set_dictionary_enabled(true)
        .set_max_row_group_row_count(Some(PARQUET_MAX_ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(PARQUET_MAX_ROW_GROUP_BYTES))
        .set_created_by(format!("hdlscan {}", env!("CARGO_PKG_VERSION")))
        .build()
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
    Parquet(ArrowWriter<Capture<W>>),
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
    pub fn create_checked(
        path: &Path,
        format: OutputFormat,
        schema: SchemaRef,
        inputs: &[&Path],
    ) -> Result<Sink> {
        // Check the schema before creating anything.
        if format == OutputFormat::Csv || format == OutputFormat::Tsv {
            check_delimited_schema(&schema, &path.display().to_string())?;
        }
        let file = AtomicFile::create(path, inputs)?;
        Sink::from_writer(file, format, schema, &path.display().to_string())
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
    pub fn from_writer(
        w: W,
        format: OutputFormat,
        schema: SchemaRef,
        label: &str,
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
                let w = ArrowWriter::try_new(
                    cw,
                    Arc::clone(&schema),
                    Some(parquet_properties(PARQUET_ZSTD_LEVEL)),
                )
                .map_err(|e| fail(&e))?;
                (Encoder::Parquet(w), Arc::clone(&schema))
            }
            OutputFormat::Arrow => {
                let decode: Vec<bool> = schema
                    .fields()
                    .iter()
                    .map(|f| {
                        matches!(f.data_type(), DataType::Dictionary(..))
                            && is_string_type(f.data_type())
                    })
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
                let delim = if format == OutputFormat::Tsv {
                    b'\t'
                } else {
                    b','
                };
                let d = Delimited::new(cw, delim, &schema).map_err(|e| fail(&e))?;
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
    /// [`schema`](Self::schema) (names are not checked).
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
        let res = match self
            .enc
            .as_mut()
            .expect("sink used after an error in finish")
        {
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
        res.map_err(|e| self.error(&e))?;
        self.rows += batch.num_rows() as u64;
        Ok(())
    }

    /// Writes the end of the stream and returns the writer and the number
    /// of rows written (for [`Sink::from_writer`]; a file sink uses
    /// [`Sink::finish`]).
    pub fn finish_writer(mut self) -> Result<(W, u64)> {
        let enc = self.enc.take().expect("finish called twice");
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
        Null | Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64
        | Float32 | Float64 => true,
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
    fn new(w: W, delimiter: u8, schema: &Schema) -> csv::Result<Self> {
        let mut w = csv::WriterBuilder::new()
            .delimiter(delimiter)
            .buffer_capacity(256 * 1024)
            .from_writer(w);
        let mut rec = csv::ByteRecord::new();
        for f in schema.fields() {
            rec.push_field(f.name().as_bytes());
        }
        w.write_byte_record(&rec)?;
        Ok(Delimited {
            w,
            rec,
            scratch: Vec::with_capacity(256),
        })
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let cols: Vec<Col<'_>> = batch
            .columns()
            .iter()
            .map(Col::new)
            .collect::<Result<_>>()?;
        for i in 0..batch.num_rows() {
            self.rec.clear();
            for c in &cols {
                match c {
                    Col::Str(s) => self.rec.push_field(s.get_bytes(i).unwrap_or_default()),
                    Col::Null => self.rec.push_field(b""),
                    Col::Fmt(f) => {
                        self.scratch.clear();
                        f.fmt_cell(i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                    Col::List {
                        offsets,
                        nulls,
                        values,
                    } => {
                        self.scratch.clear();
                        join_list(offsets, *nulls, values, i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                    Col::LargeList {
                        offsets,
                        nulls,
                        values,
                    } => {
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
