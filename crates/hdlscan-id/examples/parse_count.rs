//! Runs the criterion bench's two loops (`benches/parse.rs` in the root
//! package: `classify` is `Parser::parse` per value, `classify_render`
//! is `parse` then `render`) over every value of a file, PASSES times, for
//! counting instructions under callgrind: `passes` is out of line, so
//! `--toggle-collect` counts the loops and nothing else.
//!
//! ```sh
//! cargo build --release -p hdlscan-id --example parse_count
//! valgrind --tool=callgrind --toggle-collect='*parse_count*passes*' \
//!     target/release/examples/parse_count testdata/bench_values.txt classify 1
//! ```
//!
//! Divide the total by the number of values (printed) times PASSES. The
//! file is read as `hdlscan_synth::values` reads it: one value a
//! line, a line starting with `"` being a JSON string.

#[path = "../../../benches/shared/parse_loops.rs"]
mod parse_loops;

use parse_loops::{classify, classify_render};

use hdlscan_id::{Options, Parser, Rendered, Scratch};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(mode @ ("classify" | "classify_render")), Some(passes)) = (
        args.get(1),
        args.get(2).map(String::as_str),
        args.get(3).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: parse_count FILE classify|classify_render PASSES");
        std::process::exit(2);
    };
    let text = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let body = text.strip_suffix(b"\n").unwrap_or(&text);
    let values: Vec<Vec<u8>> = body
        .split(|&b| b == b'\n')
        .map(|line| match line.first() {
            Some(b'"') => serde_json::from_slice::<String>(line)
                .expect("a JSON string")
                .into_bytes(),
            _ => line.to_vec(),
        })
        .collect();
    let parser = Parser::new(Options::default());
    let sum = passes_of(&parser, &values, mode == "classify_render", passes);
    println!("{} values x {passes} ({sum})", values.len());
}

#[inline(never)]
fn passes_of(parser: &Parser, values: &[Vec<u8>], render: bool, passes: usize) -> usize {
    let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
    let mut sum = 0;
    for _ in 0..passes {
        sum += if render {
            classify_render(parser, values, &mut scratch, &mut out)
        } else {
            classify(parser, values, &mut scratch)
        };
    }
    sum
}
