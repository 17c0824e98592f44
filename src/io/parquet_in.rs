//! Parquet input: open a file, pick the identifier column, read one row group
//! at a time.
//!
//! # Accepted types
//! The chosen column must hold strings: `Utf8`, `LargeUtf8`, `Utf8View`, or a
//! `Dictionary` of one of those (any key type); or bytes (`Binary`,
//! `LargeBinary`, `BinaryView`: older Spark and Hive writers store strings
//! as BINARY without the UTF8 annotation); or nothing at all (`Null`, a
//! column of nulls only). Anything else is an error naming the column and
//! its type. The core's `strings` reads any of them.
//!
//! # Pass-through
//! Batches carry *all* columns of the file (unless projected, below), with
//! the Arrow types the Parquet reader yields (the file's embedded Arrow
//! schema if it has one). The pipeline passes them through unchanged: the
//! output schema starts with the input schema's fields as they are. The
//! Parquet and Arrow sinks write any type; the CSV/TSV sink every type but
//! unions and run-end encoded arrays, which it refuses with a clear error
//! (see `sink::text`).
//!
//! # Projection
//! [`ParquetInput::project`] narrows what is decoded to some leaf columns
//! (a run that writes no input row needs only its chosen and kept
//! columns, and of a path into a struct or list only the leaf it ends on);
//! batches then hold only the top columns with a leaf read, structs and
//! lists pruned to it. Columns are matched by name against the whole
//! schema first, so a projection never changes which column a selector
//! picks.
//!
//! # Memory
//! One row group is decoded at a time, in batches of at most
//! [`DEFAULT_BATCH_SIZE`] rows.
//!
//! # Damaged files
//! A file that is not Parquet, is truncated or has a corrupt footer fails in
//! [`ParquetInput::open`] (named as Arrow IPC, gzip, zstd, CSV's
//! look-alikes when its first bytes say so); damaged pages fail while
//! reading batches, naming the row group and its records. Every error is
//! the input layer's [`PositionedError`], naming the file. Decoding runs
//! under `catch_unwind`, so a decoder panic on malformed data also becomes
//! an error, with the panic hook kept quiet for it (`guarded`).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};

use super::arrow_in::ArrowInput;
use super::error::{ErrorKind, Position, PositionedError, RowGroup};
use super::format::Format;
use super::magic;
use super::source::{Compression, InputSpec};
use crate::strings::is_string_type;

/// What a Parquet input fails with.
pub type Result<T, E = PositionedError> = std::result::Result<T, E>;

/// Rows per decoded batch: about a CSV block's worth, which bounds what is
/// in flight (64Ki-row batches peaked at 304 MB on a 10M-row
/// Parquet-to-Parquet scan, 32Ki at 222 MB, in the same time).
pub const DEFAULT_BATCH_SIZE: usize = 32 * 1024;

/// An open Parquet file (footer parsed, nothing else read yet).
pub struct ParquetInput {
    name: Arc<str>,
    file: File,
    meta: ArrowReaderMetadata,
    /// Rows before each row group, then in all of them (from the footer).
    starts: Vec<u64>,
    batch_size: usize,
    /// The leaves to decode; `None` for all (see [`ParquetInput::project`]).
    projection: Option<ProjectionMask>,
}

impl std::fmt::Debug for ParquetInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetInput")
            .field("name", &self.name)
            .field("num_rows", &self.num_rows())
            .field("num_row_groups", &self.num_row_groups())
            .finish()
    }
}

thread_local! {
    /// Set while `guarded` runs a decoder step on this thread.
    static DECODING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs a step of the decoder: its error, or its panic on malformed
/// data, as the decoder's message. arrow's readers panic on some damaged
/// files (a buffer offset past its end); the panic hook is kept quiet
/// for them, so the user reads one error naming the file, not a panic
/// message and a backtrace before it.
pub(crate) fn guarded<T, E: std::fmt::Display>(step: impl FnOnce() -> std::result::Result<T, E>) -> Result<T, String> {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !DECODING.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    DECODING.with(|d| d.set(true));
    let result = catch_unwind(AssertUnwindSafe(step));
    DECODING.with(|d| d.set(false));
    let said = match result {
        Ok(r) => return r.map_err(|e| ErrorKind::columnar_message(&e)),
        Err(p) => p,
    };
    let said = (said.downcast_ref::<&str>().copied())
        .or_else(|| said.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    Err(format!("the decoder failed on malformed data: {said}"))
}

impl ParquetInput {
    /// Opens `path` and reads its footer. A file that is not Parquet is
    /// named as what its first bytes say it is (Arrow IPC, gzip, …).
    pub fn open(path: &Path) -> Result<ParquetInput> {
        let name: Arc<str> = path.display().to_string().into();
        let err = |kind| PositionedError::new(&name, Position::default(), kind);
        let file = super::source::open_file(path).map_err(|e| err(ErrorKind::Open(e)))?;
        let meta = guarded(|| ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()))
            .map_err(|message| err(not_readable(&file, message)))?;
        let mut starts = vec![0u64];
        for g in meta.metadata().row_groups() {
            starts.push(starts[starts.len() - 1].saturating_add(g.num_rows().max(0) as u64));
        }
        Ok(ParquetInput {
            name,
            file,
            starts,
            meta,
            batch_size: DEFAULT_BATCH_SIZE,
            projection: None,
        })
    }

    #[cfg(test)]
    /// Sets the number of rows per batch (default [`DEFAULT_BATCH_SIZE`]).
    pub fn with_batch_size(mut self, rows: usize) -> Self {
        self.batch_size = rows.max(1);
        self
    }

    /// The Arrow schema of the batches this input yields.
    pub fn schema(&self) -> &SchemaRef {
        self.meta.schema()
    }

    pub fn num_row_groups(&self) -> usize {
        self.meta.metadata().num_row_groups()
    }

    /// Total rows, from the footer.
    pub fn num_rows(&self) -> u64 {
        self.meta.metadata().file_metadata().num_rows().max(0) as u64
    }

    /// From now on decodes only the leaf columns `leaves`, numbered depth
    /// first over the file's schema as [`ProjectionMask::leaves`] numbers
    /// them (`nested::leaves` gives them for a column or a path). Returns,
    /// per top column of [`Self::schema`], its index in the batches, or
    /// `None` when none of its leaves is read.
    ///
    /// The leaves are counted on the Arrow schema; when that count differs
    /// from the Parquet schema's (a writer's type this reader maps
    /// otherwise), every column is read, as before: slower, never wrong.
    pub fn project(&mut self, leaves: impl IntoIterator<Item = usize>) -> Vec<Option<usize>> {
        let descr = self.meta.parquet_schema();
        let fields = self.meta.schema().fields();
        let mut per_root = vec![0usize; descr.root_schema().get_fields().len()];
        for leaf in 0..descr.num_columns() {
            per_root[descr.get_column_root_idx(leaf)] += 1;
        }
        let counted: Vec<usize> = fields
            .iter()
            .map(|f| super::nested::leaf_count(f.data_type()))
            .collect();
        if counted != per_root {
            self.projection = None;
            return (0..fields.len()).map(Some).collect();
        }
        let leaves: Vec<usize> = leaves.into_iter().filter(|&l| l < descr.num_columns()).collect();
        let mut read = vec![false; fields.len()];
        for &l in &leaves {
            read[descr.get_column_root_idx(l)] = true;
        }
        self.projection = Some(ProjectionMask::leaves(descr, leaves));
        let mut next = 0;
        read.iter()
            .map(|&r| {
                r.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    }

    /// Reads row group `i` (all columns, or those [`Self::project`] chose)
    /// as an iterator of batches of at most the batch size. Only that row
    /// group is read. Errors name the group and its records.
    pub fn read_row_group(&self, i: usize) -> Result<RowGroupBatches> {
        if i >= self.num_row_groups() {
            let message = format!("row group {i} out of range ({} row groups)", self.num_row_groups());
            return Err(PositionedError::new(&self.name, Position::default(), damaged(message)));
        }
        let pos = Position {
            record: Some(self.starts[i] + 1),
            row_group: Some(RowGroup {
                index: i,
                rows: self.starts[i + 1] - self.starts[i],
            }),
            ..Position::default()
        };
        let err = |kind| PositionedError::new(&self.name, pos.clone(), kind);
        let file = self.file.try_clone().map_err(|e| err(ErrorKind::Read(e)))?;
        let reader = guarded(|| {
            let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.meta.clone())
                .with_row_groups(vec![i])
                .with_batch_size(self.batch_size);
            match &self.projection {
                Some(mask) => builder.with_projection(mask.clone()).build(),
                None => builder.build(),
            }
        })
        .map_err(|message| err(damaged(message)))?;
        Ok(RowGroupBatches {
            reader: Some(reader),
            name: self.name.clone(),
            pos,
        })
    }
}

/// An open Parquet or Arrow IPC input: the columnar formats, whose batches
/// the pipeline reads alike.
pub enum Columnar {
    Parquet(ParquetInput),
    Arrow(ArrowInput),
}

impl Columnar {
    /// Opens `spec` as `format`, Parquet or Arrow IPC: a file, since
    /// neither is read from stdin.
    pub fn open(spec: &InputSpec, format: Format) -> anyhow::Result<Columnar> {
        let InputSpec::Path(path) = spec else {
            anyhow::bail!("{} cannot be read from stdin; give a file", format.columnar_name())
        };
        Ok(match format {
            Format::Arrow => Columnar::Arrow(ArrowInput::open(path)?),
            _ => Columnar::Parquet(ParquetInput::open(path)?),
        })
    }

    /// The file's schema.
    pub fn schema(&self) -> &SchemaRef {
        match self {
            Columnar::Parquet(pq) => pq.schema(),
            Columnar::Arrow(batches) => batches.schema(),
        }
    }
}

fn damaged(message: String) -> ErrorKind {
    ErrorKind::Columnar {
        format: Format::Parquet,
        message,
    }
}

/// Why a file whose footer did not load is not Parquet, from its first
/// bytes and its last four.
fn not_readable(file: &File, message: String) -> ErrorKind {
    let mut head = Vec::with_capacity(magic::SNIFF_LEN);
    let mut tail = [0u8; 4];
    // The footer's reads moved the file's offset.
    let mut file = file;
    if file.seek(SeekFrom::Start(0)).is_ok() {
        let _ = file.take(magic::SNIFF_LEN as u64).read_to_end(&mut head);
    }
    let ends_like_parquet =
        file.seek(SeekFrom::End(-4)).is_ok() && file.read_exact(&mut tail).is_ok() && &tail == b"PAR1";
    if head.is_empty() {
        return damaged("the file is empty".into());
    }
    if magic::is_parquet(&head) {
        return damaged(match ends_like_parquet {
            true => message,
            false => "it ends before its footer (cut short, or still being written)".into(),
        });
    }
    if magic::is_arrow_ipc(&head) {
        return ErrorKind::Looks(Format::Arrow, super::error::Misread::OtherName);
    }
    ErrorKind::NotParquet {
        format: magic::not_csv(&head),
        compressed: Compression::sniff(&head).name(),
    }
}

/// Batches of one row group; see [`ParquetInput::read_row_group`]. After an
/// error the iterator ends.
pub struct RowGroupBatches {
    reader: Option<ParquetRecordBatchReader>,
    name: Arc<str>,
    /// The row group, for errors.
    pos: Position,
}

impl Iterator for RowGroupBatches {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(next_guarded(&mut self.reader)?.map_err(|message| {
            PositionedError::new(&self.name, self.pos.clone(), damaged(message))
        }))
    }
}

/// The next batch of a columnar reader, its error or panic as the
/// decoder's message (`guarded`); after the last batch or an error the
/// reader is dropped, so it ends.
pub(crate) fn next_guarded<R>(reader: &mut Option<R>) -> Option<Result<RecordBatch, String>>
where
    R: Iterator<Item = std::result::Result<RecordBatch, arrow_schema::ArrowError>>,
{
    let r = reader.as_mut()?;
    let next = guarded(|| r.next().transpose());
    if !matches!(next, Ok(Some(_))) {
        *reader = None;
    }
    next.transpose()
}

const IDENTIFIER_TYPES: &str =
    "a string type (Utf8, LargeUtf8, Utf8View or a dictionary of strings), bytes (Binary) nor an integer";

/// Fails unless column `i` of `schema` can hold identifiers (see the
/// module doc); `source` names the file.
pub fn check_identifier_column(schema: &arrow_schema::Schema, i: usize, source: &str) -> Result<()> {
    let f = schema.field(i);
    let bytes = matches!(
        f.data_type(),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView | DataType::Null
    );
    if !is_string_type(f.data_type()) && !bytes && !f.data_type().is_integer() {
        // A struct or a list holds the identifiers one path further in.
        let name = f.name();
        let hint = match f.data_type() {
            DataType::Struct(fields) if !fields.is_empty() => {
                let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
                format!("; a path reads one of its fields: -c {name}.{} (its fields: {})", names[0], names.join(", "))
            }
            dt if crate::io::nested::list_item(dt).is_some() => format!("; a path reads its elements: -c '{name}[]'"),
            _ => String::new(),
        };
        let kind = ErrorKind::ColumnType {
            column: name.clone(),
            found: f.data_type().to_string(),
            wanted: IDENTIFIER_TYPES,
            hint,
        };
        return Err(PositionedError::new(&source.into(), Position::default(), kind));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strings::{StrColumn, to_utf8};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int8Type, UInt16Type};
    use arrow_array::{Array, DictionaryArray, Int8Array, Int64Array, LargeStringArray, StringArray, StringViewArray};
    use arrow_schema::{Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    use std::sync::Arc;

    fn write_test_file(path: &Path, rows: usize, row_group: usize) -> SchemaRef {
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Utf8, true),
            Field::new("n", DataType::Int64, false),
            Field::new("big", DataType::LargeUtf8, true),
            Field::new(
                "dict",
                DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8)),
                true,
            ),
            Field::new("view", DataType::Utf8View, true),
        ]));
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(row_group))
            .build();
        let f = File::create(path).unwrap();
        let mut w = ArrowWriter::try_new(f, schema.clone(), Some(props)).unwrap();
        let ids: StringArray = (0..rows)
            .map(|i| (i % 7 != 3).then(|| format!("10.{}/x{i}", 1000 + i % 5)))
            .collect();
        let ns = Int64Array::from_iter_values(0..rows as i64);
        let big: LargeStringArray = (0..rows).map(|i| Some(format!("L{i}"))).collect();
        let dict: DictionaryArray<UInt16Type> = (0..rows)
            .map(|i| (i % 4 != 0).then_some(["a", "b", "c"][i % 3]))
            .collect();
        let view: StringViewArray = (0..rows)
            .map(|i| (i % 2 == 0).then(|| format!("a somewhat longer view string {i}")))
            .collect();
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(ids),
                Arc::new(ns),
                Arc::new(big),
                Arc::new(dict),
                Arc::new(view),
            ],
        )
        .unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        schema
    }

    #[test]
    fn open_resolve_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("in.parquet");
        let schema = write_test_file(&p, 1000, 300);
        let input = ParquetInput::open(&p).unwrap().with_batch_size(128);
        let names: Vec<&String> = input.schema().fields().iter().map(|f| f.name()).collect();
        assert_eq!(names, ["id", "n", "big", "dict", "view"]);
        assert_eq!(input.num_rows(), 1000);
        assert_eq!(input.num_row_groups(), 4);
        assert_eq!(input.starts[4] - input.starts[3], 100);
        // The embedded Arrow schema brings the original types back.
        assert_eq!(input.schema().fields(), schema.fields());

        for c in [0, 1, 2, 3, 4] {
            check_identifier_column(input.schema(), c, "in.parquet").unwrap();
        }
        let floats = Schema::new(vec![Field::new("f", DataType::Float64, true)]);
        let err = check_identifier_column(&floats, 0, "in.parquet").unwrap_err().to_string();
        assert!(err.contains("column 'f'") && err.contains("Float64"), "{err}");

        let mut total = 0;
        let mut seen = Vec::new();
        for rg in 0..input.num_row_groups() {
            for b in input.read_row_group(rg).unwrap() {
                let b = b.unwrap();
                assert!(b.num_rows() <= 128);
                assert_eq!(b.num_columns(), 5);
                for c in [0, 2, 3, 4] {
                    let col = StrColumn::new(b.column(c).as_ref()).unwrap();
                    assert_eq!(col.iter().count(), b.num_rows());
                    let conv = to_utf8(b.column(c)).unwrap();
                    assert_eq!(conv.data_type(), &DataType::Utf8);
                    let conv = conv.as_string::<i32>();
                    for (i, v) in col.iter().enumerate() {
                        assert_eq!(v, conv.is_valid(i).then(|| conv.value(i)));
                    }
                }
                let col = StrColumn::new(b.column(0).as_ref()).unwrap();
                seen.extend(col.iter().map(|v| v.map(str::to_owned)));
                let d = StrColumn::new(b.column(3).as_ref()).unwrap();
                let n = b.column(1).as_primitive::<arrow_array::types::Int64Type>();
                for i in 0..b.num_rows() {
                    let r = n.value(i) as usize;
                    assert_eq!(d.get(i), (!r.is_multiple_of(4)).then_some(["a", "b", "c"][r % 3]));
                }
                total += b.num_rows();
            }
        }
        assert_eq!(total, 1000);
        assert_eq!(seen[3], None);
        assert_eq!(seen[8].as_deref(), Some("10.1003/x8"));
        assert!(input.read_row_group(4).is_err());
        assert!(StrColumn::new(&Int8Array::from(vec![1])).is_err());
    }

    #[test]
    fn dictionary_with_empty_values_is_all_null() {
        let d = DictionaryArray::<Int8Type>::new(
            Int8Array::from(vec![None, None]),
            Arc::new(StringArray::from(Vec::<&str>::new())),
        );
        let c = StrColumn::new(&d).unwrap();
        assert_eq!(c.iter().collect::<Vec<_>>(), [None, None]);
    }

    #[test]
    fn truncated_and_corrupt_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("good.parquet");
        write_test_file(&p, 5000, 2000);
        let bytes = std::fs::read(&p).unwrap();

        // Cut in half: the footer is gone.
        let half = dir.path().join("half.parquet");
        std::fs::write(&half, &bytes[..bytes.len() / 2]).unwrap();
        let err = ParquetInput::open(&half).unwrap_err().to_string();
        assert!(
            err.contains("half.parquet") && err.contains("not a readable Parquet"),
            "{err}"
        );

        // Empty file, and not Parquet at all.
        let empty = dir.path().join("empty.parquet");
        std::fs::write(&empty, b"").unwrap();
        let err = ParquetInput::open(&empty).unwrap_err().to_string();
        assert!(err.contains("empty.parquet"), "{err}");
        let csv = dir.path().join("data.csv");
        std::fs::write(&csv, b"a,b\n1,2\n").unwrap();
        let err = ParquetInput::open(&csv).unwrap_err().to_string();
        assert!(err.contains("data.csv"), "{err}");
        let err = ParquetInput::open(&dir.path().join("missing.parquet"))
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("missing.parquet: cannot open: no such file or directory"),
            "{err}"
        );

        // Footer intact, data pages damaged: must error (or, at worst,
        // decode garbage) but never panic out of the iterator.
        for (k, offset) in [8usize, 100, 400, 1000, bytes.len() / 3].into_iter().enumerate() {
            let mut damaged = bytes.clone();
            for b in &mut damaged[offset..offset + 64] {
                *b ^= 0x5a;
            }
            let dp = dir.path().join(format!("damaged{k}.parquet"));
            std::fs::write(&dp, &damaged).unwrap();
            let Ok(input) = ParquetInput::open(&dp) else {
                continue;
            };
            for rg in 0..input.num_row_groups() {
                match input.read_row_group(rg) {
                    Err(e) => assert!(e.to_string().contains(&format!("damaged{k}")), "{e}"),
                    Ok(batches) => {
                        for b in batches {
                            if let Err(e) = b {
                                assert!(e.to_string().contains(&format!("damaged{k}")), "{e}");
                            }
                        }
                    }
                }
            }
        }
    }
}
