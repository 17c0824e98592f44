//! CSV and TSV output: the `csv` crate, RFC 4180 quoting (TSV quotes
//! fields holding a tab, quote or line break the same way). Header row =
//! field names. Strings and bytes as they are; integers, floats and
//! booleans in decimal (`true`/`false`); dictionaries decoded; the lists of
//! strings named in `SinkOptions::joined_lists` (SPEC's `warnings` column)
//! elements joined with `;`; null → empty field. Every other type as
//! [`super::text`] writes it: dates and times in ISO 8601, decimals exact,
//! nested values, other lists of strings too, as JSON. Only unions and
//! run-end encoded columns are refused, when the sink is created.

use std::io::Write;

use anyhow::{Result, anyhow, bail};
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, BooleanArray, GenericListArray, PrimitiveArray, RecordBatch};
use arrow_schema::{DataType, Schema};

use super::text;
use crate::strings::{IdColumn, StrColumn, is_string_type};

/// Fails if a column's type cannot be written as delimited text.
pub(super) fn check_delimited_schema(schema: &Schema, label: &str) -> Result<()> {
    for f in schema.fields() {
        if !text::writable(f.data_type()) {
            bail!(
                "cannot write column '{}' of type {} to {label} as CSV/TSV; write .parquet or .arrow instead",
                f.name(),
                f.data_type()
            );
        }
    }
    Ok(())
}

/// Formats one cell of a non-string column into `out`; false for null.
pub(crate) trait CellFmt {
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

/// A column of one batch, downcast once, whose cells are written as this
/// writer writes them (`diff` reads typed outputs through it too, so a
/// Parquet cell compares equal to the CSV cell `scan` wrote for it).
pub(crate) enum Cells<'a> {
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
    /// Any other type, a cell at a time (see [`text`]).
    Text(&'a dyn Array),
    Null,
}

impl<'a> Cells<'a> {
    /// `joined`: a list of strings is written `;`-joined, not as JSON.
    pub fn new(a: &'a ArrayRef, joined: bool) -> Result<Cells<'a>> {
        use DataType::*;
        Ok(match a.data_type() {
            Null => Cells::Null,
            Binary | LargeBinary | BinaryView => Cells::Bytes(IdColumn::new(a.as_ref())?),
            Boolean => Cells::Fmt(a.as_boolean()),
            Int8 => Cells::Fmt(a.as_primitive::<Int8Type>()),
            Int16 => Cells::Fmt(a.as_primitive::<Int16Type>()),
            Int32 => Cells::Fmt(a.as_primitive::<Int32Type>()),
            Int64 => Cells::Fmt(a.as_primitive::<Int64Type>()),
            UInt8 => Cells::Fmt(a.as_primitive::<UInt8Type>()),
            UInt16 => Cells::Fmt(a.as_primitive::<UInt16Type>()),
            UInt32 => Cells::Fmt(a.as_primitive::<UInt32Type>()),
            UInt64 => Cells::Fmt(a.as_primitive::<UInt64Type>()),
            Float32 => Cells::Fmt(a.as_primitive::<Float32Type>()),
            Float64 => Cells::Fmt(a.as_primitive::<Float64Type>()),
            List(f) if joined && is_string_type(f.data_type()) => {
                let l: &GenericListArray<i32> = a.as_list();
                Cells::List {
                    offsets: l.value_offsets(),
                    nulls: l.nulls(),
                    values: StrColumn::new(l.values().as_ref())?,
                }
            }
            LargeList(f) if joined && is_string_type(f.data_type()) => {
                let l: &GenericListArray<i64> = a.as_list();
                Cells::LargeList {
                    offsets: l.value_offsets(),
                    nulls: l.nulls(),
                    values: StrColumn::new(l.values().as_ref())?,
                }
            }
            dt if is_string_type(dt) => Cells::Str(StrColumn::new(a.as_ref())?),
            _ => Cells::Text(a.as_ref()),
        })
    }

    /// Appends cell `i` to `out` (nothing for a null).
    pub fn write(&self, i: usize, out: &mut Vec<u8>) {
        match self {
            Cells::Str(s) => out.extend_from_slice(s.get_bytes(i).unwrap_or_default()),
            Cells::Bytes(b) => out.extend_from_slice(b.get_bytes(i).unwrap_or_default()),
            Cells::Null => {}
            Cells::Text(a) => {
                text::write_text(*a, i, out);
            }
            Cells::Fmt(f) => {
                f.fmt_cell(i, out);
            }
            Cells::List { offsets, nulls, values } => join_list(offsets, *nulls, values, i, out),
            Cells::LargeList { offsets, nulls, values } => join_list(offsets, *nulls, values, i, out),
        }
    }
}

pub(super) struct Delimited<W: Write> {
    w: csv::Writer<W>,
    rec: csv::ByteRecord,
    scratch: Vec<u8>,
    /// Per column: written `;`-joined (see `SinkOptions::joined_lists`).
    joined: Vec<bool>,
}

/// Separator between the elements of a joined list in CSV/TSV output.
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
    pub(super) fn new(
        w: W,
        delimiter: u8,
        schema: &Schema,
        header: &[Vec<u8>],
        joined_lists: &[usize],
    ) -> csv::Result<Self> {
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
            joined: (0..schema.fields().len()).map(|c| joined_lists.contains(&c)).collect(),
        })
    }

    pub(super) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let cols: Vec<Cells<'_>> = batch
            .columns()
            .iter()
            .enumerate()
            .map(|(c, a)| Cells::new(a, self.joined.get(c).copied().unwrap_or(false)))
            .collect::<Result<_>>()?;
        for i in 0..batch.num_rows() {
            self.rec.clear();
            for c in &cols {
                match c {
                    // Strings and bytes as they are, without a copy.
                    Cells::Str(s) => self.rec.push_field(s.get_bytes(i).unwrap_or_default()),
                    Cells::Bytes(b) => self.rec.push_field(b.get_bytes(i).unwrap_or_default()),
                    _ => {
                        self.scratch.clear();
                        c.write(i, &mut self.scratch);
                        self.rec.push_field(&self.scratch);
                    }
                }
            }
            self.w.write_byte_record(&self.rec)?;
        }
        Ok(())
    }

    pub(super) fn into_inner(self) -> Result<W> {
        self.w.into_inner().map_err(|e| anyhow!("{}", e.error()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::format::Format;
    use crate::io::sink::test_util::{pipeline_batch, pipeline_schema};
    use crate::io::sink::{Sink, SinkOptions};
    use arrow_array::StringArray;
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use std::sync::Arc;

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
        let joined = SinkOptions::default().with_joined_lists(&b.schema(), &["warnings"]);
        let mut sink = Sink::from_writer_with(Vec::new(), Format::Csv, b.schema(), "mem.csv", joined.clone()).unwrap();
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

        let mut sink = Sink::from_writer_with(Vec::new(), Format::Tsv, b.schema(), "mem.tsv", joined).unwrap();
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

        // Not named joined: the same list as JSON, `w;2` one element.
        let mut sink = Sink::from_writer(Vec::new(), Format::Csv, b.schema(), "mem.csv").unwrap();
        sink.write(&b).unwrap();
        let text = String::from_utf8(sink.finish_writer().unwrap().0).unwrap();
        let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let cells: Vec<String> = rdr.records().map(|r| r.unwrap()[13].to_string()).collect();
        assert_eq!(cells, ["[]", r#"["w0"]"#, r#"["w0",null,"w;2"]"#, "[]"]);
    }
}
