//! `hdlscan bench`: parser throughput on this machine, to size jobs.
//!
//! Generates N identifiers of the realistic mix (`hdlscan_synth`) into one
//! contiguous buffer with an offset table (no allocation per value), then
//! times parse-only and parse+render, on one thread and on all threads
//! (rayon over chunks of [`CHUNK`] values, each chunk with its own
//! `Scratch` and `Rendered`), and reports the median of `--runs` runs.
//! No I/O is timed: this is the ceiling of `scan`, not its speed.

use super::ParserArgs;
use anyhow::{Result, bail};
use hdlscan::id::{Parser, Rendered, Scratch};
use hdlscan_synth::Synth;
use hdlscan_synth::sample::BENCH_SEED;
use rayon::prelude::*;
use serde_json::json;
use std::hint::black_box;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const EXAMPLES: &str = "\
Examples:
  hdlscan bench                        # 2,000,000 values, 1 thread and all threads
  hdlscan bench --values 500000 -j 4   # smaller, 1 and 4 threads
  hdlscan bench --json > bench.json    # machine-readable
  hdlscan bench --repair               # with repairs on, as `scan --repair`

Columns: mode (parse: classify and split; parse+render: also canonical,
uri and url), threads, values/s, MB/s (of identifier text), ns/value
(wall-clock time per value: with several threads, the inverse of the
throughput), speedup over one thread. `scan` adds CSV/Parquet reading and
writing on top of parse+render.";

/// Values per unit of parallel work.
const CHUNK: usize = 4096;

#[derive(clap::Args, Debug)]
#[command(about = "Measure parser throughput on this machine (in memory, no I/O)", after_help = EXAMPLES)]
pub struct BenchArgs {
    /// Number of identifier values to generate and parse.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub values: usize,
    /// Seed of the generator.
    #[arg(long, value_name = "S", default_value_t = BENCH_SEED)]
    pub seed: u64,
    /// Threads of the parallel runs [default: all cores]; 1 thread is
    /// always measured too.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Timed runs per measurement; the median is reported.
    #[arg(long, value_name = "R", default_value_t = 3)]
    pub runs: usize,
    /// Print JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub parser: ParserArgs,
}

/// N values in one buffer: value `i` is `bytes[ends[i]..ends[i + 1]]`.
struct Values {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Values {
    fn generate(n: usize, seed: u64) -> Values {
        let mut synth = Synth::new(seed);
        let mut v = String::new();
        let mut bytes = Vec::with_capacity(n * 48);
        let mut ends = Vec::with_capacity(n + 1);
        ends.push(0);
        for _ in 0..n {
            synth.next_identifier(&mut v);
            bytes.extend_from_slice(v.as_bytes());
            ends.push(bytes.len());
        }
        Values { bytes, ends }
    }

    fn len(&self) -> usize {
        self.ends.len() - 1
    }

    fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.ends[i]..self.ends[i + 1]]
    }
}

/// What a measurement times: parse only (`false`), or parse and render.
const MODES: [(&str, bool); 2] = [("parse", false), ("parse+render", true)];

/// One chunk of values; returns a checksum so nothing is optimized away.
fn run_chunk(parser: &Parser, values: &Values, range: std::ops::Range<usize>, render: bool) -> u64 {
    let mut scratch = Scratch::default();
    let mut out = Rendered::default();
    let mut sum = 0u64;
    for i in range {
        let p = parser.parse(black_box(values.get(i)), &mut scratch);
        sum += p.error.is_none() as u64 + p.prefix.map_or(0, str::len) as u64;
        if render {
            parser.render(&p, &mut out);
            sum += out.canonical().map_or(0, str::len) as u64
                + out.uri().map_or(0, str::len) as u64
                + out.url().map_or(0, str::len) as u64;
        }
    }
    black_box(sum)
}

/// One timed pass over every value on `pool`; seconds and checksum.
fn timed_pass(pool: &rayon::ThreadPool, parser: &Parser, values: &Values, render: bool) -> (f64, u64) {
    let n = values.len();
    let chunks = n.div_ceil(CHUNK);
    let started = Instant::now();
    let sum = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| run_chunk(parser, values, c * CHUNK..((c + 1) * CHUNK).min(n), render))
            .sum::<u64>()
    });
    (started.elapsed().as_secs_f64(), sum)
}

/// The result of one (mode, threads) measurement: each run's seconds,
/// and their median.
struct Measurement {
    mode: &'static str,
    threads: usize,
    seconds: Vec<f64>,
    median: f64,
}

/// The median of `xs`, not empty.
fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// What `nproc` and `/proc/cpuinfo` say about the machine.
struct Machine {
    /// Cores this process may use (`nproc`).
    nproc: usize,
    cpu_model: String,
    /// MemTotal in MB, when known.
    memory_mb: Option<u64>,
}

impl Machine {
    fn detect() -> Machine {
        let nproc = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = ["model name", "Hardware", "cpu model", "Model"]
            .iter()
            .find_map(|key| {
                cpuinfo.lines().find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
                })
            })
            .unwrap_or_else(|| "unknown".to_string());
        let memory_mb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|kb| kb / 1024)
        });
        Machine {
            nproc,
            cpu_model,
            memory_mb,
        }
    }
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    for (flag, n) in [("--values", args.values), ("--runs", args.runs)] {
        if n == 0 {
            return Err(super::Usage(format!("{flag} must be at least 1")).into());
        }
    }
    let machine = Machine::detect();
    let threads = args.threads.map_or(machine.nproc, usize::from).max(1);
    let parser = args.parser.build()?;

    let started = Instant::now();
    let values = Values::generate(args.values, args.seed);
    let gen_seconds = started.elapsed().as_secs_f64();
    let n = values.len();
    let bytes = values.bytes.len();

    let thread_counts = if threads > 1 { vec![1, threads] } else { vec![1] };
    let mut results = Vec::new();
    for (mode, render) in MODES {
        for &t in &thread_counts {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build()?;
            let mut seconds = Vec::with_capacity(args.runs);
            let mut check = None;
            for _ in 0..args.runs {
                let (s, sum) = timed_pass(&pool, &parser, &values, render);
                // Every run must do the same work.
                if *check.get_or_insert(sum) != sum {
                    bail!("internal error: checksums differ between runs");
                }
                seconds.push(s);
            }
            results.push(Measurement {
                mode,
                threads: t,
                median: median(&seconds),
                seconds,
            });
        }
    }

    let single = |mode| {
        results
            .iter()
            .find(|m| m.mode == mode && m.threads == 1)
            .map_or(f64::NAN, |m| m.median)
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<_> = results
            .iter()
            .map(|m| {
                let s = m.median;
                json!({
                    "mode": m.mode,
                    "threads": m.threads,
                    "median_seconds": s,
                    "best_seconds": m.seconds.iter().copied().fold(f64::INFINITY, f64::min),
                    "seconds": m.seconds,
                    "values_per_second": n as f64 / s,
                    "mb_per_second": bytes as f64 / s / 1e6,
                    "ns_per_value": s * 1e9 / n as f64,
                    "speedup": single(m.mode) / s,
                })
            })
            .collect();
        let doc = json!({
            "tool": concat!("hdlscan ", env!("CARGO_PKG_VERSION")),
            "values": n,
            "bytes": bytes,
            "mean_bytes_per_value": bytes as f64 / n as f64,
            "seed": args.seed,
            "runs": args.runs,
            "repair": args.parser.repair,
            "generate_seconds": gen_seconds,
            "machine": {
                "nproc": machine.nproc,
                "cpu_model": machine.cpu_model,
                "memory_mb": machine.memory_mb,
            },
            "results": rows,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        writeln!(
            out,
            "hdlscan bench: {n} values, {:.1} MB (mean {:.1} bytes/value), seed {}, repair {}, median of {} run(s)",
            bytes as f64 / 1e6,
            bytes as f64 / n as f64,
            args.seed,
            if args.parser.repair { "on" } else { "off" },
            args.runs
        )?;
        writeln!(
            out,
            "machine: nproc {}, CPU {}, memory {}",
            machine.nproc,
            machine.cpu_model,
            machine.memory_mb.map_or("unknown".to_string(), |m| format!("{m} MB"))
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "{:<14} {:>7} {:>14} {:>10} {:>10} {:>8}",
            "mode", "threads", "values/s", "MB/s", "ns/value", "speedup"
        )?;
        for m in &results {
            let s = m.median;
            writeln!(
                out,
                "{:<14} {:>7} {:>14} {:>10.1} {:>10.1} {:>7.2}x",
                m.mode,
                m.threads,
                group_thousands(n as f64 / s),
                bytes as f64 / s / 1e6,
                s * 1e9 / n as f64,
                single(m.mode) / s
            )?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "ns/value is wall-clock time per value (with several threads, the inverse of throughput). \
             No I/O is timed; `scan` adds reading and writing."
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `1234567.8` → `1,234,568`.
fn group_thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
