//! Arrow IPC file output (`.arrow`, `.ipc`, `.feather`): `FileWriter`,
//! uncompressed. The IPC *file* format allows one dictionary per field for
//! the whole file, while each of our batches carries its own, so
//! dictionary-of-string columns are written decoded, as plain `Utf8`
//! (see [`super::Sink::output_schema`]).

use std::io::Write;
use std::sync::Arc;

use anyhow::Result;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_ipc::writer::FileWriter;
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::strings::{is_string_type, to_utf8};

pub(super) struct ArrowIpc<W: Write> {
    w: FileWriter<W>,
    /// The schema as written.
    schema: SchemaRef,
    /// Per column: a dictionary of strings, decoded before writing.
    decode: Vec<bool>,
}

/// The schema of the file as written for a table of `schema`, and which
/// columns are decoded.
fn output_schema(schema: &Schema) -> (SchemaRef, Vec<bool>) {
    let decode: Vec<bool> = schema
        .fields()
        .iter()
        .map(|f| matches!(f.data_type(), DataType::Dictionary(..)) && is_string_type(f.data_type()))
        .collect();
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .zip(&decode)
        .map(|(f, &d)| match d {
            true => f.as_ref().clone().with_data_type(DataType::Utf8),
            false => f.as_ref().clone(),
        })
        .collect();
    (
        Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone())),
        decode,
    )
}

impl<W: Write> ArrowIpc<W> {
    pub(super) fn new(w: W, schema: &Schema) -> Result<Self, arrow_schema::ArrowError> {
        let (schema, decode) = output_schema(schema);
        let w = FileWriter::try_new(w, &schema)?;
        Ok(ArrowIpc { w, schema, decode })
    }

    pub(super) fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    pub(super) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let cols: Vec<ArrayRef> = (batch.columns().iter().zip(&self.decode))
            .map(|(c, &d)| if d { to_utf8(c) } else { Ok(Arc::clone(c)) })
            .collect::<Result<_>>()?;
        self.w.write(&RecordBatch::try_new(Arc::clone(&self.schema), cols)?)?;
        Ok(())
    }

    pub(super) fn into_inner(self) -> Result<W, arrow_schema::ArrowError> {
        self.w.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::format::Format;
    use crate::io::sink::Sink;
    use crate::io::sink::test_util::{have_pyarrow, pipeline_batch, pipeline_schema};
    use crate::strings::to_utf8;
    use std::fs;

    #[test]
    fn arrow_ipc_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.arrow");
        let schema = pipeline_schema(1);
        let batches = [pipeline_batch(&schema, 0, 300), pipeline_batch(&schema, 301, 200)];
        let mut sink = Sink::create(&path, Format::Arrow, Arc::clone(&schema)).unwrap();
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
}
