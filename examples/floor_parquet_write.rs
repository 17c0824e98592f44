//! Floor of `hdlscan scan`'s Parquet side: write ROWS rows of exactly what
//! `scan FILE.csv -c identifier -o out.parquet` writes (the CSV's columns as
//! strings, then the 13 enriched columns) through the same [`Sink`], with
//! `scan`'s writer settings ([`hdlscan::pipeline::sink_options`]), and
//! time only the writing.
//!
//! ```text
//! cargo run --release --example floor_parquet_write -- FILE.csv OUT.parquet ROWS [COLUMN]
//! ```
//!
//! Setup (untimed): the first min(ROWS, one row group) rows of FILE.csv are
//! read in `scan`'s 4 MiB blocks and turned into `scan`'s record batches
//! (real values, classified by the real parser), kept in memory. Timed:
//! creating the output, writing ROWS rows by cycling through those batches
//! (with fresh `record` numbers), and `finish` (fsync and rename). A row
//! group is at most [`PARQUET_MAX_ROW_GROUP_ROWS`] rows, so every row group
//! sees distinct values, as with the real file; the dictionaries and the
//! compressor see realistic data.
//!
//! Prints `rows=N setup_seconds=S write_seconds=W` on stdout. Peak RSS
//! includes the batches held in memory (up to one row group). Used by
//! `scripts/bench`.

use anyhow::{Context, Result, anyhow, bail};
use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use hdlscan::id::{Options, Parser, Rendered, Scratch};
use hdlscan::io::csv_in::{CsvBlockReader, CsvOptions, parse_block};
use hdlscan::io::format::Format;
use hdlscan::io::sink::{PARQUET_MAX_ROW_GROUP_ROWS, Sink};
use hdlscan::io::source::InputSpec;
use hdlscan_core::columns;
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: floor_parquet_write FILE.csv OUT.parquet ROWS [COLUMN]";
    let (Some(input), Some(output), Some(rows)) = (args.first(), args.get(1), args.get(2)) else {
        bail!("{usage}");
    };
    let rows: u64 = rows.parse().context(usage)?;
    let column = args.get(3).map_or("identifier", String::as_str);

    // Setup: scan's batches for the first row group's worth of rows.
    let setup = Instant::now();
    let opts = CsvOptions {
        block_size: 4 << 20,
        ..CsvOptions::default()
    };
    let mut reader = CsvBlockReader::open(&InputSpec::parse(input), opts)?;
    let headers = reader.headers().to_vec();
    let col = headers
        .iter()
        .position(|h| h == column)
        .ok_or_else(|| anyhow!("{input}: no column {column:?}"))?;
    let mut fields: Vec<Field> = headers.iter().map(|h| Field::new(h, DataType::Utf8, true)).collect();
    fields.extend(columns::fields("", &headers)?.iter().map(|f| f.as_ref().clone()));
    let schema = Arc::new(Schema::new(fields));
    let (ncols, popts) = (reader.ncols(), reader.parse_options());
    let want = rows.min(PARQUET_MAX_ROW_GROUP_ROWS as u64);
    let mut raws = Vec::new();
    let mut have = 0u64;
    while have < want {
        let Some(raw) = reader.next_block()? else { break };
        have += raw.nrecords;
        raws.push(raw);
    }
    if have == 0 && rows > 0 {
        bail!("{input}: no data rows");
    }
    let parser = Parser::new(Options::default());
    let pool: Vec<RecordBatch> = raws
        .par_iter()
        .map(|raw| -> Result<RecordBatch> {
            let block = parse_block(raw, ncols, popts)?;
            let n = block.nrows();
            let mut inputs: Vec<StringBuilder> = (0..ncols)
                .map(|_| StringBuilder::with_capacity(n, raw.data.len() / ncols))
                .collect();
            let mut enriched = columns::Builder::with_capacity(n);
            let (mut scratch, mut rendered) = (Scratch::default(), Rendered::default());
            for row in 0..n {
                for (c, b) in inputs.iter_mut().enumerate() {
                    b.append_value(String::from_utf8_lossy(block.field(row, c)));
                }
                let p = parser.parse(block.field(row, col), &mut scratch);
                parser.render(&p, &mut rendered);
                enriched.push(raw.first_record + row as u64, &p, &rendered);
            }
            let mut arrays: Vec<ArrayRef> = inputs
                .into_iter()
                .map(|mut b| Arc::new(b.finish()) as ArrayRef)
                .collect();
            arrays.extend(enriched.finish());
            Ok(RecordBatch::try_new(schema.clone(), arrays)?)
        })
        .collect::<Result<_>>()?;
    drop(raws);
    let setup_seconds = setup.elapsed().as_secs_f64();

    // Timed: the writing alone.
    let record_col = ncols; // `record` is the first enriched column
    let started = Instant::now();
    let mut sink = Sink::create_with(
        Path::new(output),
        Format::Parquet,
        schema.clone(),
        &[Path::new(input)],
        hdlscan::pipeline::sink_options("", false),
    )?;
    let mut written = 0u64;
    'outer: loop {
        for batch in &pool {
            if written >= rows {
                break 'outer;
            }
            let n = (batch.num_rows() as u64).min(rows - written) as usize;
            let mut cols = batch.slice(0, n).columns().to_vec();
            cols[record_col] = Arc::new(UInt64Array::from_iter_values(written + 1..=written + n as u64));
            sink.write(&RecordBatch::try_new(schema.clone(), cols)?)?;
            written += n as u64;
        }
        if pool.is_empty() {
            break;
        }
    }
    let n = sink.finish()?;
    let write_seconds = started.elapsed().as_secs_f64();
    println!("rows={n} setup_seconds={setup_seconds:.6} write_seconds={write_seconds:.6}");
    Ok(())
}
