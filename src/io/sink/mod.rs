//! Output sinks: the enriched table as Parquet, CSV, TSV, Arrow IPC or
//! JSON Lines.
//!
//! [`Sink::create`] writes through an [`AtomicFile`]: nothing appears at the
//! target until [`Sink::finish`] succeeds, and a sink dropped before that
//! (error, panic) leaves no file behind. [`Sink::from_writer`] writes to any
//! `Write` (stdout, tests).
//!
//! One file per format, each with its own encoder and tests:
//! - `parquet`: column chunks encoded in parallel, the
//!   writer properties, dictionaries off where they cannot pay.
//! - `arrow_ipc`: the Arrow IPC file, dictionary columns decoded.
//! - `delimited`: CSV and TSV; `text`: every other Arrow type as the text
//!   of a cell (ISO 8601, exact decimals, JSON for nested values).
//! - `jsonl`: JSON Lines, a row an object, cells as `text` writes them.
//!
//! # Errors
//! Every error names the output: "writing out.csv: no space left on device".

use crate::io::format::Format;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use ::parquet::file::properties::{EnabledStatistics, WriterProperties};
use ::parquet::schema::types::ColumnPath;
use anyhow::{Result, anyhow, bail};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use self::arrow_ipc::ArrowIpc;
pub(crate) use self::delimited::Cells;
use self::delimited::{Delimited, check_delimited_schema};
use self::jsonl::JsonLines;
use self::parquet::ParallelParquet;
use super::atomic::{AtomicFile, os_reason};

mod arrow_ipc;
mod delimited;
mod jsonl;
mod parquet;
#[cfg(test)]
pub(crate) mod test_util;
mod text;

// The row-group size an example times its writes against.
#[cfg(feature = "internals")]
pub use self::parquet::PARQUET_MAX_ROW_GROUP_ROWS;
pub use self::parquet::{PARQUET_ZSTD_LEVEL, parquet_properties, parquet_properties_builder, parquet_zstd};

/// Tuning knobs; the defaults are what hdlscan uses.
#[derive(Debug, Clone)]
pub struct SinkOptions {
    /// Parquet writer properties (default: `parquet_properties` at
    /// `PARQUET_ZSTD_LEVEL`).
    pub parquet: WriterProperties,
    /// CSV/TSV only: the header row's first cells as bytes, in place of
    /// the field names (which are UTF-8), so a CSV input's header goes
    /// through exactly as it was.
    pub header: Vec<Vec<u8>>,
    /// CSV/TSV only: the columns (lists of strings) written as their
    /// elements joined with `;`: SPEC's `warnings`, whose codes never hold
    /// one. Every other list, as any nested value, is written as JSON, so
    /// an element holding `;` stays one element.
    pub joined_lists: Vec<usize>,
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            parquet: parquet_properties(PARQUET_ZSTD_LEVEL),
            header: Vec::new(),
            joined_lists: Vec::new(),
        }
    }
}

impl SinkOptions {
    /// The defaults, but Parquet writes no dictionary for the
    /// `no_dictionary` columns and no statistics for the `no_statistics`
    /// ones (columns whose values are nearly all distinct, or whose
    /// statistics prune nothing).
    pub fn parquet_without(
        no_dictionary: impl IntoIterator<Item = String>,
        no_statistics: impl IntoIterator<Item = String>,
    ) -> SinkOptions {
        let mut props = parquet_properties_builder(parquet_zstd(PARQUET_ZSTD_LEVEL));
        for name in no_dictionary {
            props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
        for name in no_statistics {
            props = props.set_column_statistics_enabled(ColumnPath::from(name), EnabledStatistics::None);
        }
        SinkOptions {
            parquet: props.build(),
            ..SinkOptions::default()
        }
    }

    /// Sets [`SinkOptions::joined_lists`] to the columns of `schema` named
    /// `names` (SPEC's `warnings` as the run named it), each the last of
    /// that name: the added columns come after the input's.
    pub fn with_joined_lists(mut self, schema: &arrow_schema::Schema, names: &[&str]) -> Self {
        let fields = schema.fields();
        self.joined_lists = names
            .iter()
            .filter_map(|n| fields.iter().rposition(|f| f.name() == n))
            .collect();
        self
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
            slot.get_or_insert_with(|| os_reason(e));
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

/// Writing `label` failed with `e`: said with the OS reason [`Capture`]
/// kept, when there is one, rather than as an encoder wrapped it.
fn failure(err: &Mutex<Option<String>>, label: &str, e: &dyn std::fmt::Display) -> anyhow::Error {
    match err.lock().unwrap_or_else(|p| p.into_inner()).take() {
        Some(reason) => anyhow!("writing {label}: {reason}"),
        None => anyhow!("writing {label}: {e}"),
    }
}

enum Encoder<W: Write + Send> {
    Parquet(ParallelParquet<Capture<W>>),
    Arrow(ArrowIpc<Capture<W>>),
    Delimited(Delimited<Capture<W>>),
    JsonLines(JsonLines<Capture<W>>),
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
    pub fn create(path: &Path, format: Format, schema: SchemaRef) -> Result<Sink> {
        Self::create_with(path, format, schema, &[], SinkOptions::default())
    }

    /// Like [`create`](Self::create), with options, refusing when `path`
    /// is the same file as one of `inputs`.
    pub fn create_with(
        path: &Path,
        format: Format,
        schema: SchemaRef,
        inputs: &[&Path],
        options: SinkOptions,
    ) -> Result<Sink> {
        // Check the schema before creating anything.
        if matches!(format, Format::Csv | Format::Tsv | Format::Jsonl) {
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
    pub fn from_writer(w: W, format: Format, schema: SchemaRef, label: &str) -> Result<Sink<W>> {
        Self::from_writer_with(w, format, schema, label, SinkOptions::default())
    }

    /// Like [`from_writer`](Self::from_writer), with options.
    pub fn from_writer_with(
        w: W,
        format: Format,
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
        let fail = |e: &dyn std::fmt::Display| failure(&err, &label, e);
        let (enc, output_schema) = match format {
            Format::Parquet => {
                let w = ParallelParquet::new(cw, Arc::clone(&schema), options.parquet).map_err(|e| fail(&e))?;
                (Encoder::Parquet(w), Arc::clone(&schema))
            }
            Format::Arrow => {
                let w = ArrowIpc::new(cw, &schema).map_err(|e| fail(&e))?;
                let out = Arc::clone(w.schema());
                (Encoder::Arrow(w), out)
            }
            Format::Csv | Format::Tsv => {
                check_delimited_schema(&schema, &label)?;
                let delim = format.delimiter();
                let d =
                    Delimited::new(cw, delim, &schema, &options.header, &options.joined_lists).map_err(|e| fail(&e))?;
                (Encoder::Delimited(d), Arc::clone(&schema))
            }
            Format::Jsonl => {
                check_delimited_schema(&schema, &label)?;
                (Encoder::JsonLines(JsonLines::new(cw, &schema)), Arc::clone(&schema))
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

    fn error(&self, e: &dyn std::fmt::Display) -> anyhow::Error {
        failure(&self.err, &self.label, e)
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
            Encoder::Arrow(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::Delimited(d) => d.write(batch).map_err(|e| e.to_string()),
            Encoder::JsonLines(j) => j.write(batch).map_err(|e| e.to_string()),
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
            Encoder::Arrow(w) => w.into_inner().map_err(|e| e.to_string()),
            Encoder::Delimited(d) => d.into_inner().map_err(|e| e.to_string()),
            Encoder::JsonLines(j) => j.into_inner().map_err(|e| e.to_string()),
        };
        let mut cw = res.map_err(|e| self.error(&e))?;
        cw.flush().map_err(|e| self.error(&e))?;
        Ok((cw.inner, self.rows))
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::{FullAfter, pipeline_batch, pipeline_schema};
    use super::*;
    use crate::io::parquet_in::ParquetInput;
    use ::parquet::arrow::ArrowWriter;
    use ::parquet::basic::{Compression, ZstdLevel};
    use arrow_schema::{DataType, Field, Schema};
    use std::fs;

    #[test]
    fn empty_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let schema = pipeline_schema(1);
        for (name, fmt) in [
            ("e.parquet", Format::Parquet),
            ("e.csv", Format::Csv),
            ("e.arrow", Format::Arrow),
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
        let mut sink = Sink::from_writer(Vec::new(), Format::Parquet, Arc::clone(&schema), "x.parquet").unwrap();
        let other = pipeline_batch(&pipeline_schema(2), 0, 3);
        let err = sink.write(&other).unwrap_err().to_string();
        assert!(err.starts_with("writing x.parquet: batch schema"), "{err}");

        let union = DataType::Union(arrow_schema::UnionFields::empty(), arrow_schema::UnionMode::Sparse);
        let s = Arc::new(Schema::new(vec![Field::new("either", union, true)]));
        let dir = tempfile::tempdir().unwrap();
        let err = Sink::create(&dir.path().join("o.csv"), Format::Csv, s)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("column 'either'") && err.contains("Union"), "{err}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn write_errors_name_the_output_and_reason() {
        let schema = pipeline_schema(1);
        for fmt in [Format::Parquet, Format::Csv, Format::Tsv, Format::Arrow] {
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
        let mut sink = Sink::from_writer(w, Format::Csv, Arc::clone(&schema), "o").unwrap();
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
        for fmt in [Format::Parquet, Format::Csv, Format::Arrow] {
            let path = dir.path().join(format!("out.{}", fmt.name()));
            let mut sink = Sink::create(&path, fmt, Arc::clone(&schema)).unwrap();
            sink.write(&pipeline_batch(&schema, 0, 5000)).unwrap();
            drop(sink);
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "{fmt:?}");
        }
        // An existing output is kept until the new one is complete.
        let path = dir.path().join("keep.csv");
        fs::write(&path, "old").unwrap();
        let mut sink = Sink::create(&path, Format::Csv, Arc::clone(&schema)).unwrap();
        sink.write(&pipeline_batch(&schema, 0, 10)).unwrap();
        drop(sink);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        // And refusal to overwrite an input.
        let err = Sink::create_with(&path, Format::Csv, schema, &[&path], SinkOptions::default())
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
        let err = Sink::create(Path::new("/sys/out.csv"), Format::Csv, schema)
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
        for fmt in [Format::Csv, Format::Parquet, Format::Arrow] {
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
        let mut cases: Vec<(String, Format, SinkOptions)> = Vec::new();
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
            cases.push((name.into(), Format::Parquet, opts));
        }
        let opts = SinkOptions {
            parquet: parquet_properties_builder(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
                .set_dictionary_enabled(false)
                .build(),
            ..SinkOptions::default()
        };
        cases.push(("parquet zstd(1) no dict".into(), Format::Parquet, opts));
        cases.push(("csv".into(), Format::Csv, SinkOptions::default()));
        cases.push(("arrow ipc".into(), Format::Arrow, SinkOptions::default()));
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
