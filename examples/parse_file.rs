//! Parses every value of a file PASSES times with `Parser::parse`, and
//! prints the fastest pass and the median in ns a value. With `sorted`
//! last, the values are sorted first, so that values of one form follow
//! each other: the difference from the file's order is what the branches
//! the CPU mispredicts on a mix of forms cost.
//!
//! The file is read as the criterion bench reads its corpora
//! (`hdlscan_synth::values`): one value a line, a line starting with
//! `"` being a JSON string (a value holding CR or LF, as in
//! `testdata/bench_values_v2.txt`); the LF ending the last line is not a
//! value.
//!
//! Three uses. Timing two builds against each other: on a shared, noisy
//! machine the fastest of many short passes is the steadiest figure
//! (`scripts/bench-parse` gives criterion's estimates for the README).
//! Counting instructions for one kind of value under callgrind (the
//! README's per-form figures): the difference between PASSES = 3 and
//! PASSES = 1, divided by twice the number of lines, is the cost of one
//! parse. Measuring what mispredicted branches cost: the file's order
//! against `sorted`.
//!
//! ```sh
//! cargo build --release --example parse_file
//! target/release/examples/parse_file testdata/bench_values.txt 200
//! valgrind --tool=callgrind target/release/examples/parse_file values.txt 1
//! valgrind --tool=callgrind target/release/examples/parse_file values.txt 3
//! target/release/examples/parse_file testdata/bench_values.txt 200 sorted
//! target/release/examples/parse_file testdata/bench_values_v2.txt 200
//! ```

use hdlscan::id::{Options, Parser, Scratch};
use hdlscan_synth::values;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(passes), sorted @ (None | Some("sorted"))) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
        args.get(3).map(String::as_str),
    ) else {
        eprintln!("usage: parse_file FILE PASSES [sorted]");
        std::process::exit(2);
    };
    let text = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let mut lines = values::parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    if sorted.is_some() {
        lines.sort_unstable();
    }
    // One allocation a value, as the criterion benchmark holds them, made
    // in the order parsed: sorted values lie in memory in their order too.
    let values: Vec<Vec<u8>> = lines.iter().map(|v| v.to_vec()).collect();
    drop(lines);
    let parser = Parser::new(Options::default());
    let mut scratch = Scratch::default();
    let mut times = Vec::with_capacity(passes);
    let mut valid = 0;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        for v in &values {
            valid += parser.parse(std::hint::black_box(v), &mut scratch).error.is_none() as usize;
        }
        times.push(start.elapsed().as_nanos() as f64 / values.len() as f64);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} values x {}: fastest {:.2} ns, median {:.2} ns a value ({valid} valid)",
        values.len(),
        times.len(),
        times[0],
        times[times.len() / 2]
    );
}
