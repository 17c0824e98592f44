//! Floor of `hdlscan scan`'s CSV side: read a CSV file and cut it into
//! fields on all cores with the very reader `scan` uses
//! (`hdlscan::io::csv_in`: a reader thread cuts 4 MiB blocks at record
//! boundaries, rayon parses the blocks), without classifying anything or
//! building Arrow arrays. It touches every field of one column (the
//! identifiers) so the parse can't be skipped.
//!
//! ```text
//! cargo run --release --example floor_csv -- FILE.csv [COLUMN]
//! ```
//!
//! Prints `rows=N column_bytes=B seconds=S` on stdout (`COLUMN` is a header
//! name, default `identifier`). Used by `scripts/bench`.

use anyhow::{Context, Result, anyhow};
use hdlscan::io::csv_in::{CsvBlockReader, CsvOptions, RawBlock, parse_block};
use hdlscan::io::source::InputSpec;
use rayon::prelude::*;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().context("usage: floor_csv FILE.csv [COLUMN]")?;
    let column = args.get(1).map_or("identifier", String::as_str);
    let started = Instant::now();
    let opts = CsvOptions {
        block_size: 4 << 20, // as `scan` (--block-mib 4)
        ..CsvOptions::default()
    };
    let mut reader = CsvBlockReader::open(&InputSpec::parse(path), opts)?;
    let col = reader
        .headers()
        .iter()
        .position(|h| h == column)
        .ok_or_else(|| anyhow!("{path}: no column {column:?}"))?;
    let (ncols, popts) = (reader.ncols(), reader.parse_options());
    let threads = rayon::current_num_threads();
    let (tx, rx) = sync_channel::<Result<RawBlock>>(threads * 2);
    let producer = std::thread::spawn(move || {
        loop {
            let msg = match reader.next_block() {
                Ok(Some(raw)) => Ok(raw),
                Ok(None) => return,
                Err(e) => Err(anyhow!(e)),
            };
            let failed = msg.is_err();
            if tx.send(msg).is_err() || failed {
                return;
            }
        }
    });
    let (rows, bytes) = rx
        .into_iter()
        .par_bridge()
        .map(|raw| -> Result<(u64, u64)> {
            let raw = raw?;
            let block = parse_block(&raw, ncols, popts)?;
            let bytes: u64 = (0..block.nrows())
                .map(|r| block.field(r, col))
                .map(|f| f.len() as u64)
                .sum();
            Ok((block.nrows() as u64, bytes))
        })
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
    producer.join().map_err(|_| anyhow!("reader thread panicked"))?;
    println!(
        "rows={rows} column_bytes={bytes} seconds={:.6}",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
