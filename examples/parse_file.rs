//! Parses every line of a file REPS times with `Parser::parse`, for
//! instruction counts of one kind of value under callgrind (the README's
//! per-form figures): the difference between REPS = 3 and REPS = 1,
//! divided by twice the number of lines, is the cost of one parse.
//!
//! ```sh
//! cargo build --release --example parse_file
//! valgrind --tool=callgrind target/release/examples/parse_file values.txt 1
//! valgrind --tool=callgrind target/release/examples/parse_file values.txt 3
//! ```

use hdlscan::id::{Options, Parser, Scratch};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(reps)) = (args.get(1), args.get(2).and_then(|r| r.parse::<usize>().ok())) else {
        eprintln!("usage: parse_file FILE REPS");
        std::process::exit(2);
    };
    let text = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let values: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let parser = Parser::new(Options::default());
    let mut scratch = Scratch::default();
    let mut valid = 0;
    for _ in 0..reps {
        for v in &values {
            valid += parser.parse(std::hint::black_box(v), &mut scratch).error.is_none() as usize;
        }
    }
    println!("{} values x {reps}: {valid} valid", values.len());
}
