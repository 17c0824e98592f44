//! Regenerates the committed test data from `hdlscan_synth`:
//!
//! ```text
//! cargo run --release --example gen_sample                 # testdata/sample_export.csv, bench_values.txt, bench_values_v2.txt
//! cargo run --release --example gen_sample -- csv N [SEED] # N generated rows to stdout, timing on stderr
//! cargo run --release --example gen_sample -- values N [SEED] # N values, one per line, to stdout
//! cargo run --release --example gen_sample -- values-v2 N [SEED] # N values of Mix::V2 (hdlscan_synth::values format)
//! ```

use hdlscan_synth::sample::{BENCH_SEED, BENCH_V2_SEED, BENCH_VALUES, write_sample_csv};
use hdlscan_synth::values::write_values;
use hdlscan_synth::{Layout, Mix, Synth, csv};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::time::Instant;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |s| {
            let s = s.trim_start_matches("0x");
            u64::from_str_radix(s, if args[i].starts_with("0x") { 16 } else { 10 }).expect("a number")
        })
    };
    match args.first().map(String::as_str) {
        None => {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
            std::fs::create_dir_all(&dir)?;
            write_sample_csv(BufWriter::new(File::create(dir.join("sample_export.csv"))?))?;
            let values = |name: &str, seed, mix| {
                write_values(BufWriter::new(File::create(dir.join(name))?), BENCH_VALUES, seed, mix)
            };
            values("bench_values.txt", BENCH_SEED, Mix::V1)?;
            values("bench_values_v2.txt", BENCH_V2_SEED, Mix::V2)?;
            eprintln!(
                "wrote {}/sample_export.csv, bench_values.txt and bench_values_v2.txt",
                dir.display()
            );
        }
        Some("csv") => {
            let (n, seed) = (num(1, 1_000_000), num(2, 1));
            let t = Instant::now();
            let out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
            csv::write_csv(out, &Layout::DSPACE, Synth::new(seed), n)?;
            let s = t.elapsed().as_secs_f64();
            eprintln!("{n} rows in {s:.2} s ({:.0} rows/s)", n as f64 / s);
        }
        Some("values") => {
            let (n, seed) = (num(1, 50_000), num(2, 1));
            write_values(BufWriter::new(io::stdout().lock()), n as usize, seed, Mix::V1)?;
        }
        Some("values-v2") => {
            let (n, seed) = (num(1, 50_000), num(2, 1));
            write_values(BufWriter::new(io::stdout().lock()), n as usize, seed, Mix::V2)?;
        }
        Some(other) => {
            eprintln!(
                "unknown mode {other:?}: expected no argument, `csv N [SEED]`, `values N [SEED]` or `values-v2 N [SEED]`"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
