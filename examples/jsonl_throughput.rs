//! Throughput of the JSON Lines reader (`hdlscan::io::jsonl`) on
//! OpenAlex-like works, single thread unless said: the block reader
//! cutting lines, `parse_block` taking out `doi`, `ids.doi`,
//! `locations[].landing_page_url` and `primary_location.source.issn_l`,
//! and, for scale, serde_json on the same lines (skipping each whole with
//! `IgnoredAny`, the least any serde reader does; and building a `Value`).
//! Each figure is the fastest of PASSES passes over data in memory (the
//! steadiest figure on a shared machine).
//!
//! Without a file, the input is `hdlscan gen`'s works (`hdlscan_synth::jsonl`),
//! `lean` (as written, ~0.6 KB a line) or by default padded to the size of
//! real OpenAlex works (authorships with institutions, referenced works,
//! an abstract inverted index, concepts, counts by year: ~4 KB a line).
//!
//! ```sh
//! cargo run --release --example jsonl_throughput              # 200 MB padded, 5 passes
//! cargo run --release --example jsonl_throughput -- lean 200 5
//! cargo run --release --example jsonl_throughput -- FILE.jsonl 0 3
//! ```

use hdlscan::io::jsonl::{JsonPath, JsonlBlockReader, JsonlOptions, PathSet, RawLines, parse_block};
use hdlscan_synth::SplitMix64;
use hdlscan_synth::jsonl::Works;
use rayon::prelude::*;
use std::hint::black_box;
use std::io::{Cursor, Write};
use std::time::Instant;

const PATHS: [&str; 4] = [
    "doi",
    "ids.doi",
    "locations[].landing_page_url",
    "primary_location.source.issn_l",
];

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "in",
    "a",
    "to",
    "we",
    "is",
    "for",
    "with",
    "on",
    "data",
    "model",
    "results",
    "study",
    "analysis",
    "protein",
    "cells",
    "patients",
    "climate",
    "method",
    "effect",
    "high",
    "using",
    "between",
    "significant",
    "observed",
    "increase",
    "reduced",
    "network",
    "learning",
    "temperature",
    "species",
    "growth",
];

/// Appends realistic bulk to a work line (before its closing `}`).
fn pad(line: &mut Vec<u8>, rng: &mut SplitMix64) {
    assert_eq!(line.pop(), Some(b'\n'));
    assert_eq!(line.pop(), Some(b'}'));
    line.extend_from_slice(b",\"authorships\":[");
    for a in 0..rng.range(1, 8) {
        if a > 0 {
            line.push(b',');
        }
        let id = rng.below(1 << 40);
        let _ = write!(
            line,
            "{{\"author_position\":\"{}\",\"author\":{{\"id\":\"https://openalex.org/A{id}\",\"display_name\":\"Author {id} Name\",\"orcid\":{}}},\"institutions\":[{{\"id\":\"https://openalex.org/I{}\",\"display_name\":\"University of Somewhere \\u00e9tudes\",\"ror\":\"https://ror.org/0{:08x}\",\"country_code\":\"FR\",\"type\":\"education\",\"lineage\":[\"https://openalex.org/I{}\"]}}],\"countries\":[\"FR\"],\"is_corresponding\":{},\"raw_author_name\":\"A. Name\",\"raw_affiliation_strings\":[\"Dept. of Things, University of Somewhere, 75005 Paris, France\"]}}",
            if a == 0 { "first" } else { "middle" },
            if rng.chance(500) {
                format!("\"https://orcid.org/0000-0002-{:04}-{:04}\"", id % 10000, id % 9999)
            } else {
                "null".into()
            },
            id % 99991,
            id % 0xffff_ffff,
            id % 99991,
            a == 0
        );
    }
    line.extend_from_slice(b"],\"cited_by_count\":");
    let _ = write!(line, "{}", rng.below(500));
    line.extend_from_slice(b",\"referenced_works\":[");
    for r in 0..rng.range(0, 40) {
        if r > 0 {
            line.push(b',');
        }
        let _ = write!(line, "\"https://openalex.org/W{}\"", rng.below(5_000_000_000));
    }
    line.extend_from_slice(b"],\"abstract_inverted_index\":{");
    let words = rng.range(20, 200);
    for (i, w) in WORDS.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        let _ = write!(line, "\"{w}\":[");
        for k in 0..rng.range(1, words / 10 + 1) {
            if k > 0 {
                line.push(b',');
            }
            let _ = write!(line, "{}", rng.below(words));
        }
        line.push(b']');
    }
    line.extend_from_slice(b"},\"concepts\":[");
    for c in 0..5 {
        if c > 0 {
            line.push(b',');
        }
        let id = rng.below(1 << 32);
        let _ = write!(
            line,
            "{{\"id\":\"https://openalex.org/C{id}\",\"wikidata\":\"https://www.wikidata.org/wiki/Q{}\",\"display_name\":\"{}\",\"level\":{},\"score\":0.{}}}",
            id % 999_999,
            WORDS[c * 3],
            c % 4,
            rng.below(999_999)
        );
    }
    line.extend_from_slice(b"],\"counts_by_year\":[");
    for y in 0..rng.range(0, 10) {
        if y > 0 {
            line.push(b',');
        }
        let _ = write!(line, "{{\"year\":{},\"cited_by_count\":{}}}", 2024 - y, rng.below(50));
    }
    line.extend_from_slice(b"],\"is_retracted\":false,\"updated_date\":\"2024-01-01T00:00:00.000000\"}\n");
}

fn generate(mb: usize, padded: bool) -> Vec<u8> {
    let mut works = Works::new(1);
    let mut rng = SplitMix64::new(99);
    let mut data = Vec::with_capacity(mb << 20);
    let mut line = Vec::new();
    let mut id = 1;
    while data.len() < mb << 20 {
        line.clear();
        works.next_work(id, &mut line);
        if padded {
            pad(&mut line, &mut rng);
        }
        data.extend_from_slice(&line);
        id += 1;
    }
    data
}

fn best<T>(passes: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..passes {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.unwrap())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("padded", String::as_str);
    let mb: usize = args.get(1).map_or(200, |s| s.parse().expect("MB"));
    let passes: usize = args.get(2).map_or(5, |s| s.parse().expect("passes"));
    let data = match what {
        "padded" => generate(mb, true),
        "lean" => generate(mb, false),
        file => std::fs::read(file).expect("read the file"),
    };
    let lines = memchr::memchr_iter(b'\n', &data).count();
    let size = data.len() as f64 / 1e6;
    println!(
        "input: {what}, {size:.0} MB, {lines} lines, {:.0} bytes a line; best of {passes} passes",
        data.len() as f64 / lines.max(1) as f64
    );
    let rate = |secs: f64| format!("{:7.0} MB/s {:6.2} M lines/s", size / secs, lines as f64 / secs / 1e6);

    let opts = JsonlOptions::default();
    let shared: std::sync::Arc<[u8]> = data.clone().into();
    let (secs, raws) = best(passes, || {
        let mut rdr = JsonlBlockReader::from_reader("bench", Cursor::new(shared.clone()), opts.clone()).unwrap();
        let mut raws: Vec<RawLines> = Vec::new();
        while let Some(r) = rdr.next_block().unwrap() {
            raws.push(r);
        }
        raws
    });
    println!("block reader (cut, count):        {}", rate(secs));

    let paths: Vec<JsonPath> = PATHS.iter().map(|p| JsonPath::parse(p).unwrap()).collect();
    let set = PathSet::new(&paths);
    let (secs, values) = best(passes, || {
        raws.iter()
            .map(|r| {
                let b = parse_block(r, &set, &opts).unwrap();
                (0..b.len())
                    .map(|i| (0..set.len()).map(|p| b.value_count(i, p)).sum::<usize>())
                    .sum::<usize>()
            })
            .sum::<usize>()
    });
    println!("parse_block, 4 paths:             {} ({values} values)", rate(secs));

    let one = PathSet::new(&paths[..1]);
    let (secs, _) = best(passes, || {
        raws.iter()
            .map(|r| parse_block(r, &one, &opts).unwrap().len())
            .sum::<usize>()
    });
    println!("parse_block, doi only:            {}", rate(secs));

    let (secs, _) = best(passes, || {
        raws.par_iter()
            .map(|r| parse_block(r, &set, &opts).unwrap().len())
            .sum::<usize>()
    });
    println!(
        "parse_block, 4 paths, rayon ({}):  {}",
        rayon::current_num_threads(),
        rate(secs)
    );

    let (secs, _) = best(passes, || {
        for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(line).unwrap());
        }
    });
    println!("serde_json IgnoredAny (skip all): {}", rate(secs));

    let (secs, _) = best(passes.min(2), || {
        for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            black_box(serde_json::from_slice::<serde_json::Value>(line).unwrap());
        }
    });
    println!("serde_json Value (full tree):     {}", rate(secs));
}
