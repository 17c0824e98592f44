//! Parquet output: column chunks encoded in parallel on the rayon pool
//! (arrow-rs's `ArrowColumnWriter` API, same output as `ArrowWriter`), zstd
//! level [`PARQUET_ZSTD_LEVEL`], row groups of at most
//! [`PARQUET_MAX_ROW_GROUP_ROWS`] rows (and about
//! [`PARQUET_MAX_ROW_GROUP_BYTES`] encoded bytes, to bound memory on wide
//! rows), dictionary encoding on (the writer falls back to plain encoding
//! per column chunk when a dictionary grows past 1 MiB) except for string
//! and binary columns whose first values are nearly all distinct (plain)
//! and integer columns whose first values ascend (deltas; see
//! `tuned_by_sample`). The Arrow schema is embedded, so Arrow readers get
//! `Dictionary`/`List` types back.

use std::io::{self, Write};
use std::sync::Arc;

use std::collections::HashSet;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrowPrimitiveType, RecordBatch};
use arrow_schema::{DataType, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;

use crate::strings::IdColumn;

/// zstd level for Parquet output (see the measurements in the report /
/// `measure_parquet_settings`).
pub const PARQUET_ZSTD_LEVEL: i32 = 1;
/// Maximum rows per Parquet row group. A row group is buffered (encoded)
/// in memory until it closes, so this bounds the writer's memory; 256 Ki rows
/// is within what DuckDB (122,880) and polars (512 Ki) write themselves.
pub const PARQUET_MAX_ROW_GROUP_ROWS: usize = 256 * 1024;
/// Approximate maximum encoded bytes per Parquet row group.
pub const PARQUET_MAX_ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;

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

/// Like `ArrowWriter`, but each batch's column chunks are encoded on the
/// rayon pool, one task per leaf column (arrow-rs's `ArrowColumnWriter`
/// API). Row groups are cut at the same limits as `ArrowWriter` would
/// (`max_row_group_row_count`, `max_row_group_bytes`). The file writer
/// comes from `ArrowWriter::into_serialized_writer`, so the Arrow schema is
/// embedded exactly as `ArrowWriter` embeds it.
pub(super) struct ParallelParquet<W: Write + Send> {
    /// The output and its settings until the first batch, which tunes them
    /// (see [`tuned_by_sample`]); then the open file.
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
    pub(super) fn new(w: W, schema: SchemaRef, props: WriterProperties) -> parquet::errors::Result<Self> {
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
                props = tuned_by_sample(props, batch);
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

    pub(super) fn write(&mut self, batch: &RecordBatch) -> parquet::errors::Result<()> {
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

    pub(super) fn into_inner(mut self) -> parquet::errors::Result<W> {
        self.flush()?;
        self.open(None)?;
        match self.state {
            ParquetState::Open(file, _) => file.into_inner(),
            _ => unreachable!("opened above"),
        }
    }
}

/// Of the first batch's values, how many rows of each column are sampled to
/// choose its encoding.
const SAMPLE_ROWS: usize = 4096;

/// Fewest sampled values that decide anything.
const SAMPLE_MIN: usize = 256;

/// Each column's encoding, chosen from the first batch's values (see
/// [`Sample`]); a file's other settings are kept.
fn tuned_by_sample(props: WriterProperties, batch: &RecordBatch) -> WriterProperties {
    let mut tuned = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        let path = ColumnPath::from(field.name().as_str());
        match Sample::of(column.as_ref()) {
            Some(Sample::Distinct) if props.dictionary_enabled(&path) => tuned.push((path, None)),
            Some(Sample::Ascending) => tuned.push((path, Some(Encoding::DELTA_BINARY_PACKED))),
            _ => {}
        }
    }
    if tuned.is_empty() {
        return props;
    }
    let mut b = props.into_builder();
    for (path, encoding) in tuned {
        b = b.set_column_dictionary_enabled(path.clone(), false);
        if let Some(e) = encoding {
            b = b.set_column_encoding(path, e);
        }
    }
    b.build()
}

/// What a column's sampled values say about its best encoding.
#[derive(Debug, PartialEq)]
enum Sample {
    /// Strings or bytes 90% or more distinct (record ids, titles, the raw
    /// identifiers): written plain. parquet-rs would hash and intern each
    /// value of every row group until the dictionary passes its page limit
    /// (1 MiB), then write the rest plain all the same.
    Distinct,
    /// Integers that never go down (`record`, row numbers, sorted keys):
    /// written as deltas (`DELTA_BINARY_PACKED`), a few bits a value, which
    /// zstd then has next to nothing to do on; plain, each is 8 bytes
    /// for zstd to read.
    Ascending,
}

impl Sample {
    fn of(column: &dyn Array) -> Option<Sample> {
        use arrow_array::types::*;
        match column.data_type() {
            DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView => {
                let values = IdColumn::new(column).ok()?;
                let sampled: Vec<&[u8]> = (0..column.len().min(SAMPLE_ROWS))
                    .filter_map(|i| values.get_bytes(i))
                    .collect();
                let distinct = sampled.iter().collect::<HashSet<_>>().len();
                (sampled.len() >= SAMPLE_MIN && distinct * 10 >= sampled.len() * 9).then_some(Sample::Distinct)
            }
            DataType::Int8 => ascending::<Int8Type>(column),
            DataType::Int16 => ascending::<Int16Type>(column),
            DataType::Int32 => ascending::<Int32Type>(column),
            DataType::Int64 => ascending::<Int64Type>(column),
            DataType::UInt8 => ascending::<UInt8Type>(column),
            DataType::UInt16 => ascending::<UInt16Type>(column),
            DataType::UInt32 => ascending::<UInt32Type>(column),
            DataType::UInt64 => ascending::<UInt64Type>(column),
            _ => None,
        }
    }
}

fn ascending<T: ArrowPrimitiveType>(column: &dyn Array) -> Option<Sample> {
    let values = column.as_primitive_opt::<T>()?;
    let present: Vec<T::Native> = values.slice(0, values.len().min(SAMPLE_ROWS)).iter().flatten().collect();
    (present.len() >= SAMPLE_MIN && present.is_sorted()).then_some(Sample::Ascending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::format::Format;
    use crate::io::parquet_in::ParquetInput;
    use crate::io::sink::test_util::{pipeline_batch, pipeline_schema, run_check_parquet};
    use crate::io::sink::{Sink, SinkOptions};
    use arrow_array::{ArrayRef, StringArray};
    use std::fs;

    #[test]
    fn parquet_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.parquet");
        let schema = pipeline_schema(2);
        let b1 = pipeline_batch(&schema, 0, 1000);
        let b2 = pipeline_batch(&schema, 1000, 500);
        let mut sink = Sink::create(&path, Format::Parquet, Arc::clone(&schema)).unwrap();
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
        let tuned = tuned_by_sample(props(), &batches[0]);
        let mut w = ArrowWriter::try_new(&mut reference, Arc::clone(&schema), Some(tuned)).unwrap();
        for b in &batches {
            w.write(b).unwrap();
        }
        w.close().unwrap();
        let opts = SinkOptions {
            parquet: props(),
            ..SinkOptions::default()
        };
        let mut sink = Sink::from_writer_with(Vec::new(), Format::Parquet, Arc::clone(&schema), "m", opts).unwrap();
        for b in &batches {
            sink.write(b).unwrap();
        }
        let (ours, rows) = sink.finish_writer().unwrap();
        assert_eq!(rows, 3500);
        assert!(ours == reference, "parallel output differs from ArrowWriter's");
    }

    /// Dictionaries stay on where values repeat, or where too few values
    /// were seen to tell, and on columns that are neither bytes nor
    /// ascending integers; ascending integers are written as deltas.
    #[test]
    fn encodings_chosen_by_sample() {
        use arrow_array::{BinaryArray, Int32Array, Int64Array, UInt64Array};
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
            (
                "record",
                Arc::new(UInt64Array::from_iter_values((1..=n as u64).map(|i| i / 3))),
            ),
            (
                "gaps",
                Arc::new(Int32Array::from_iter((0..n as i32).map(|i| (i % 7 != 0).then_some(i)))),
            ),
            ("num", Arc::new(Int64Array::from_iter_values((0..n).map(|i| i % 10)))),
        ])
        .unwrap();
        let path = |name: &str| ColumnPath::from(name);
        let on = |props: &WriterProperties, name: &str| props.dictionary_enabled(&path(name));
        let tuned = tuned_by_sample(parquet_properties(1), &batch);
        assert!(!on(&tuned, "id") && !on(&tuned, "raw"));
        assert!(on(&tuned, "kind") && on(&tuned, "most") && on(&tuned, "num"));
        for ascending in ["record", "gaps"] {
            assert!(!on(&tuned, ascending), "{ascending}");
            assert_eq!(tuned.encoding(&path(ascending)), Some(Encoding::DELTA_BINARY_PACKED));
        }
        assert_eq!(tuned.encoding(&path("num")), None);
        let few = tuned_by_sample(parquet_properties(1), &batch.slice(0, 255));
        assert!(on(&few, "id") && on(&few, "record"));
        // A file's other settings survive.
        assert_eq!(tuned.compression(&path("id")), parquet_zstd(1));
    }

    /// Deltas read back exactly, whatever follows the sample: values going
    /// down, nulls, the extremes of the type.
    #[test]
    fn ascending_integers_round_trip() {
        use arrow_array::UInt64Array;
        use arrow_schema::{Field, Schema};
        let schema = Arc::new(Schema::new(vec![Field::new("record", DataType::UInt64, true)]));
        let column =
            |v: Vec<Option<u64>>| RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(UInt64Array::from(v))]);
        let batches = [
            column((0..5000).map(Some).collect()).unwrap(),
            column(vec![Some(u64::MAX), Some(3), None, Some(0), Some(u64::MAX / 2)]).unwrap(),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.parquet");
        let mut sink = Sink::create(&path, Format::Parquet, Arc::clone(&schema)).unwrap();
        for b in &batches {
            sink.write(b).unwrap();
        }
        sink.finish().unwrap();
        let file = fs::File::open(&path).unwrap();
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let encodings = reader.metadata().row_group(0).column(0).encodings().collect::<Vec<_>>();
        assert!(encodings.contains(&Encoding::DELTA_BINARY_PACKED), "{encodings:?}");
        let got: Vec<RecordBatch> = reader.build().unwrap().map(|b| b.unwrap()).collect();
        assert_eq!(
            arrow_select::concat::concat_batches(&schema, &got).unwrap(),
            arrow_select::concat::concat_batches(&schema, &batches).unwrap()
        );
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
        let mut sink = Sink::create_with(&path, Format::Parquet, Arc::clone(&schema), &[], opts).unwrap();
        for k in 0..4 {
            sink.write(&pipeline_batch(&schema, k * 1000, 1000)).unwrap();
        }
        assert_eq!(sink.finish().unwrap(), 4000);
        assert_eq!(ParquetInput::open(&path).unwrap().num_row_groups(), 3);
        run_check_parquet(&path, 4000);
    }
}
