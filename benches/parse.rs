//! Parser throughput on two corpora of 50,000 values from `hdlscan_synth`,
//! single thread:
//!
//! - `testdata/bench_values.txt`: the mix of SPEC version 1
//!   (`hdlscan_synth::Mix::V1`, seed `BENCH_SEED`), groups `parse_values` and
//!   `parse_bytes`;
//! - `testdata/bench_values_v2.txt`: the same mix plus SPEC version 2's
//!   dirt on about 9% of the values (`hdlscan_synth::Mix::V2`, seed
//!   `BENCH_V2_SEED`: two identifiers in a cell, glued text, wrapped lines,
//!   placeholders, shortDOI, DSpace and landing-page URLs, …), groups
//!   `parse_values_v2` and `parse_bytes_v2`.
//!
//! In each group, `classify` is `Parser::parse` per value, and
//! `classify_render` is `parse`, then `render` (`canonical`, `uri`, `url`).
//! `parse_values*` report values/s, `parse_bytes*` bytes/s (of the values,
//! as the parser sees them); one iteration is the whole file.
//! `scripts/bench-parse` runs this and prints ns/value for both corpora
//! from criterion's median estimates.
//!
//! **File format** (`hdlscan_synth::values`, which both this bench and
//! `examples/parse_file.rs` read with): one value a line, LF-terminated; a
//! line that starts with `"` is a JSON string holding the value (used for
//! the values that hold CR or LF, or start with `"`), any other line is the
//! value's bytes as they are. `bench_values.txt` has no quoted line; in
//! `bench_values_v2.txt`, `"10.1/x\n10.1/x"` is the same DOI on two lines.
//! The parser always sees the real bytes.

#[path = "shared/parse_loops.rs"]
mod parse_loops;

use parse_loops::{classify, classify_render};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hdlscan::id::{Options, Parser, Rendered, Scratch};
use hdlscan_synth::values;
use std::hint::black_box;

fn load(file: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/testdata/{file}", env!("CARGO_MANIFEST_DIR"));
    values::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Both modes on the values of `file`, in groups `parse_values{suffix}`
/// and `parse_bytes{suffix}`.
fn bench_corpus(c: &mut Criterion, file: &str, suffix: &str) {
    let values = load(file);
    let n = values.len() as u64;
    let bytes: u64 = values.iter().map(|v| v.len() as u64).sum();
    let parser = Parser::new(Options::default());
    let (mut scratch, mut out) = (Scratch::default(), Rendered::default());

    for (group, throughput) in [
        (format!("parse_values{suffix}"), Throughput::Elements(n)),
        (format!("parse_bytes{suffix}"), Throughput::Bytes(bytes)),
    ] {
        let mut g = c.benchmark_group(group);
        g.throughput(throughput);
        g.bench_function("classify", |b| {
            b.iter(|| black_box(classify(&parser, &values, &mut scratch)))
        });
        g.bench_function("classify_render", |b| {
            b.iter(|| black_box(classify_render(&parser, &values, &mut scratch, &mut out)))
        });
        g.finish();
    }
}

fn bench(c: &mut Criterion) {
    bench_corpus(c, "bench_values.txt", "");
    bench_corpus(c, "bench_values_v2.txt", "_v2");
}

criterion_group!(benches, bench);
criterion_main!(benches);
