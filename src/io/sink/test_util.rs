//! What the sink tests share: a synthetic enriched table, a writer that
//! fills up, and the checks by other tools.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::types::{Int8Type, Int32Type};
use arrow_array::{ArrayRef, DictionaryArray, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

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

/// Accepts `room` bytes, then fails like a full disk.
pub(crate) struct FullAfter {
    pub(crate) room: usize,
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
