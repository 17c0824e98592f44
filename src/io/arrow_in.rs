//! Arrow IPC input: the file format (`ARROW1`: what `scan -o out.arrow`,
//! pyarrow's `ipc.new_file` and Feather v2 write) and the stream format
//! (`ipc.new_stream`), told apart by their first bytes whatever the name.
//!
//! Batches come as the file holds them, every column with its Arrow type,
//! so the pipeline treats them as it treats Parquet's (`Work::Batch`):
//! the same accepted identifier types (`parquet_in::check_identifier_column`),
//! the same paths into structs and lists. A run that writes no input row
//! keeps only its chosen and kept top-level columns of each batch.
//!
//! Every error is the input layer's [`PositionedError`], naming the file
//! and, while reading, the record the failing batch starts at. Decoding
//! runs under `catch_unwind` (`parquet_in::guarded`), so a decoder panic on
//! a damaged file becomes an error too.

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_schema::{ArrowError, SchemaRef};

use super::error::{ErrorKind, Position, PositionedError, Misread};
use super::format::Format;
use super::magic;
use super::parquet_in::{guarded, next_guarded};
use super::source::Compression;

/// What an Arrow IPC input fails with.
pub type Result<T, E = PositionedError> = std::result::Result<T, E>;

/// An open Arrow IPC file: its schema read, no batch yet.
pub struct ArrowInput {
    name: Arc<str>,
    reader: Option<Box<dyn Iterator<Item = std::result::Result<RecordBatch, ArrowError>> + Send>>,
    schema: SchemaRef,
    /// Records in the batches read so far.
    records: u64,
}

impl ArrowInput {
    /// Opens `path`, in either IPC format, and reads its schema.
    pub fn open(path: &Path) -> Result<ArrowInput> {
        let name: Arc<str> = path.display().to_string().into();
        let err = |kind| PositionedError::new(&name, Position::default(), kind);
        let mut file = super::source::open_file(path).map_err(|e| err(ErrorKind::Open(e)))?;
        let mut head = Vec::with_capacity(magic::HEAD_LEN);
        (&mut file)
            .take(magic::HEAD_LEN as u64)
            .read_to_end(&mut head)
            .map_err(|e| err(ErrorKind::Read(e)))?;
        file.seek(SeekFrom::Start(0)).map_err(|e| err(ErrorKind::Read(e)))?;
        // Named as Arrow (`.arrow`, `.arrow.gz`) but not: what it is.
        if !magic::is_arrow_ipc(&head) {
            if let Some(c) = Compression::sniff(&head).name() {
                return Err(err(ErrorKind::Compressed(Format::Arrow, c)));
            }
            if magic::is_parquet(&head) {
                return Err(err(ErrorKind::Looks(Format::Parquet, Misread::OtherName)));
            }
            // Feather's first version (before Arrow 0.17) is no IPC format.
            if head.starts_with(b"FEA1") {
                let message = "it is a Feather version 1 file; rewrite it as version 2 (pyarrow: \
                               feather.write_feather(feather.read_table(path), new_path))";
                return Err(err(damaged(message.into())));
            }
        }
        let is_file = head.starts_with(b"ARROW1");
        // The file format ends in its footer and `ARROW1` again: without
        // them it was cut short, which arrow's message ("does not contain
        // correct footer") leaves the user to work out.
        if is_file && !ends_with_magic(&mut file) {
            return Err(err(damaged(ENDS_EARLY.into())));
        }
        // A stream opens with its schema: a continuation marker, the
        // message's length, the message. Cut inside it, arrow says
        // "Unexpected end of stream: expected N metadata bytes, got M".
        if !is_file && let Some(len) = schema_message_len(&head) {
            let size = file.metadata().map_err(|e| err(ErrorKind::Read(e)))?.len();
            if size < magic::HEAD_LEN as u64 + len {
                return Err(err(damaged(ENDS_EARLY.into())));
            }
        }
        let reader = guarded(|| -> std::result::Result<Box<dyn RecordBatchReader + Send>, ArrowError> {
            Ok(if is_file {
                Box::new(FileReader::try_new_buffered(file, None)?)
            } else {
                Box::new(StreamReader::try_new(BufReader::new(file), None)?)
            })
        })
        .map_err(|message| err(damaged(message)))?;
        let schema = reader.schema();
        // A stream has no footer: cut inside a batch, its read ends early.
        let batches = reader.map(|batch| match batch {
            Err(ArrowError::IoError(_, e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(ArrowError::ExternalError(ENDS_EARLY.into()))
            }
            other => other,
        });
        Ok(ArrowInput {
            name,
            schema,
            reader: Some(Box::new(batches)),
            records: 0,
        })
    }

    /// The file's schema.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }
}

impl Iterator for ArrowInput {
    type Item = Result<RecordBatch>;

    /// The next batch; after an error the iterator ends.
    fn next(&mut self) -> Option<Self::Item> {
        Some(match next_guarded(&mut self.reader)? {
            Ok(batch) => {
                self.records += batch.num_rows() as u64;
                Ok(batch)
            }
            Err(message) => {
                let pos = Position {
                    record: Some(self.records + 1),
                    ..Position::default()
                };
                Err(PositionedError::new(&self.name, pos, damaged(message)))
            }
        })
    }
}

/// Why a file or stream that ends too soon is not read.
const ENDS_EARLY: &str = "it ends early (cut short, or still being written)";

/// True when `file` ends in the file format's closing `ARROW1`; its
/// offset is back at the start.
fn ends_with_magic(file: &mut std::fs::File) -> bool {
    // The magic, padding, the footer's length and the magic again.
    const SHORTEST: u64 = 6 + 2 + 4 + 6;
    let mut tail = [0u8; 6];
    let read = file.seek(SeekFrom::End(0)).is_ok_and(|len| len >= SHORTEST)
        && file.seek(SeekFrom::End(-6)).is_ok()
        && file.read_exact(&mut tail).is_ok();
    file.seek(SeekFrom::Start(0)).is_ok() && read && &tail == b"ARROW1"
}

/// The length of a stream's first message, after its continuation marker
/// (streams of Arrow 0.15 and later open with one).
fn schema_message_len(head: &[u8]) -> Option<u64> {
    let (marker, len) = (head.get(..4)?, head.get(4..8)?);
    (marker == [0xff; 4]).then(|| u64::from(u32::from_le_bytes(len.try_into().unwrap_or_default())))
}

fn damaged(message: String) -> ErrorKind {
    ErrorKind::Columnar {
        format: Format::Arrow,
        message,
    }
}
