//! Parser throughput on `testdata/bench_values.txt` (50,000 values from
//! `hdlscan::synth`, one per line), single thread:
//!
//! - `classify`: `Parser::parse` per value;
//! - `classify_render`: `parse`, then `render` (`canonical`, `uri`, `url`).
//!
//! Group `parse_values` reports values/s, `parse_bytes` bytes/s; one
//! iteration is the whole file. `scripts/bench-parse` runs this and prints
//! ns/value from criterion's median estimates.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hdlscan::id::{Options, Parser, Rendered, Scratch};
use std::hint::black_box;

fn load() -> Vec<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/bench_values.txt");
    let text = std::fs::read(path).expect("testdata/bench_values.txt");
    text.split(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect::<Vec<_>>()
        .split_last()
        .map_or_else(Vec::new, |(last, rest)| {
            // The file ends in LF: drop the empty piece after it.
            let mut v = rest.to_vec();
            if !last.is_empty() {
                v.push(last.clone());
            }
            v
        })
}

fn classify(parser: &Parser, values: &[Vec<u8>], scratch: &mut Scratch) -> usize {
    let mut valid = 0;
    for v in values {
        let p = parser.parse(black_box(v), scratch);
        valid += p.error.is_none() as usize;
        black_box(&p);
    }
    valid
}

fn classify_render(parser: &Parser, values: &[Vec<u8>], scratch: &mut Scratch, out: &mut Rendered) -> usize {
    let mut len = 0;
    for v in values {
        let p = parser.parse(black_box(v), scratch);
        parser.render(&p, out);
        len += out.canonical().map_or(0, str::len) + out.uri().map_or(0, str::len) + out.url().map_or(0, str::len);
        black_box(&*out);
    }
    len
}

fn bench(c: &mut Criterion) {
    let values = load();
    let n = values.len() as u64;
    let bytes: u64 = values.iter().map(|v| v.len() as u64).sum();
    let parser = Parser::new(Options::default());
    let (mut scratch, mut out) = (Scratch::default(), Rendered::default());

    for (group, throughput) in [
        ("parse_values", Throughput::Elements(n)),
        ("parse_bytes", Throughput::Bytes(bytes)),
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

criterion_group!(benches, bench);
criterion_main!(benches);
