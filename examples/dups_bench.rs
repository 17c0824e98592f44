//! The duplicate engine alone at scan scale: N generated valid values
//! (default 10,000,000), a tenth of them repeats of an earlier canonical,
//! pushed into blocks of 64 Ki values on rayon's pool two blocks at a time
//! (as `scan` maps its batches), appended in order, grouped, and written
//! as the duplicates file (CSV) to OUT_DIR.
//!
//! ```text
//! cargo run --release --example dups_bench -- [N] [OUT_DIR] [MEMORY_MIB]
//! ```
//!
//! Prints one line of `key=value` pairs: the engine's CPU seconds (user and
//! system, generation excluded: `engine_cpu_s`, steadier than wall time on
//! a shared machine), seconds for generating the values
//! alone (`gen_s`, a separate pass, so `push_s - gen_s` is what pushing
//! costs the workers), generating and pushing (`push_s`), appending
//! (`append_s`, main thread, spills included), `finish_s`, `write_s`, and
//! the engine's total (`engine_s`: pushing, appending, grouping, writing,
//! less generation); the summary's counts; temp bytes written; resident
//! memory after each phase (`rss_*_mb`). Peak RSS comes from the caller
//! (`/usr/bin/time -v`, see `scripts/bench-dups`).

use anyhow::Result;
use hdlscan::dups::{At, Block, Collector, Grouped, Options};
use hdlscan::id::Warnings;
use hdlscan::io::format::Format;
use hdlscan::io::sink::Sink;
use rayon::prelude::*;
use std::hash::BuildHasher;
use std::io::BufWriter;
use std::time::Instant;

const BLOCK: u64 = 64 * 1024;

/// A fixed mix of bits of `i` (splitmix64's finalizer).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The canonical id of value `i`: its own, or one in ten an earlier value's.
fn id_of(mut i: u64) -> u64 {
    loop {
        let r = mix(i);
        if i == 0 || !r.is_multiple_of(10) {
            return i;
        }
        i = (r >> 8) % i;
    }
}

/// Value `i`: its canonical and its raw form, into the buffers.
fn value(i: u64, canonical: &mut String, raw: &mut String) {
    use std::fmt::Write;
    let id = id_of(i);
    canonical.clear();
    raw.clear();
    let _ = write!(canonical, "10.{}/journal.{:08x}", 1000 + id % 9000, mix(id) as u32);
    match mix(i ^ 0x5555) % 20 {
        0..=13 => raw.push_str(canonical),
        14..=16 => {
            raw.push_str("https://doi.org/");
            raw.push_str(canonical);
        }
        17..=18 => raw.push_str(&canonical.to_uppercase()),
        _ => {
            raw.push_str("doi:");
            raw.push_str(canonical);
        }
    }
}

fn block(b: u64, n: u64, push: bool) -> (Block, u64) {
    let mut blk = if push {
        Block::with_capacity(BLOCK as usize, true)
    } else {
        Block::default()
    };
    let (mut canonical, mut raw) = (String::new(), String::new());
    let mut bytes = 0;
    for i in b * BLOCK..((b + 1) * BLOCK).min(n) {
        value(i, &mut canonical, &mut raw);
        bytes += raw.len() as u64;
        if push {
            let at = At {
                input: 0,
                record: i + 1,
                line: Some(i + 2),
                column: 0,
                value_index: 0,
            };
            blk.push(canonical.as_bytes(), at, raw.as_bytes(), Warnings::EMPTY);
        }
    }
    (blk, bytes)
}

/// CPU seconds (user and system) this process has used so far: steadier
/// than wall time on a shared machine.
fn cpu() -> f64 {
    // SAFETY: getrusage only fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// The command's allocator, so the engine's memory reads as in a scan.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// This process's resident memory in bytes (Linux: `/proc/self/statm`).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    // "size resident shared text lib data dt", in pages.
    let pages: u64 = statm.split(' ').nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(page).ok().map(|p| pages * p)
}

fn mb(b: Option<u64>) -> String {
    b.map_or("?".into(), |b| format!("{:.0}", b as f64 / 1e6))
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().map_or(Ok(10_000_000), |s| s.parse())?;
    let out_dir = args.get(1).map_or_else(std::env::temp_dir, Into::into);
    let memory_mib: usize = args.get(2).map_or(Ok(64), |s| s.parse())?;
    let blocks = n.div_ceil(BLOCK);

    // Generation alone, for the baseline.
    let (t, c0) = (Instant::now(), cpu());
    let raw_bytes: u64 = (0..blocks).into_par_iter().map(|b| block(b, n, false).1).sum();
    let gen_s = t.elapsed().as_secs_f64();
    let c1 = cpu();
    let gen_cpu = c1 - c0;

    let defaults = Options::default();
    let opts = Options {
        budget: defaults.budget.with_memory(memory_mib << 20),
        ..defaults
    };
    let mut c = Collector::new(opts);
    let (mut push_s, mut append_s) = (0.0, 0.0);
    for pair in (0..blocks).collect::<Vec<_>>().chunks(2) {
        let t = Instant::now();
        let done: Vec<Block> = pair.par_iter().map(|&b| block(b, n, true).0).collect();
        push_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        for b in done {
            c.append(b)?;
        }
        append_s += t.elapsed().as_secs_f64();
    }
    let spilled = c.spilled();
    let rss_collected = resident_bytes();
    let c2 = cpu();

    let t = Instant::now();
    let g = c.finish()?;
    let finish_s = t.elapsed().as_secs_f64();
    let rss_grouped = resident_bytes();
    let s = g.summary().clone();
    let stats = *g.stats();

    let path = out_dir.join("dups_bench.csv");
    let t = Instant::now();
    let file = BufWriter::with_capacity(1 << 20, std::fs::File::create(&path)?);
    let mut sink = Sink::from_writer(file, Format::Csv, Grouped::schema(), &path.display().to_string())?;
    let rows = g.write(&mut sink, &["in.csv".to_string()], &["identifier".to_string()])?;
    let (file, _) = sink.finish_writer()?;
    drop(file);
    let write_s = t.elapsed().as_secs_f64();
    let c3 = cpu();
    let out_bytes = std::fs::metadata(&path)?.len();
    // The file's fingerprint, untimed: runs at different budgets (which
    // take different paths) must write the same bytes.
    let out_hash = {
        use std::hash::Hasher;
        use std::io::Read;
        let mut h = foldhash::quality::FixedState::with_seed(1).build_hasher();
        let mut f = std::fs::File::open(&path)?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break h.finish();
            }
            h.write(&buf[..n]);
        }
    };
    std::fs::remove_file(&path)?;

    println!(
        "values={n} raw_mb={:.0} engine_cpu_s={:.2} collect_cpu_s={:.2} group_write_cpu_s={:.2} gen_cpu_s={gen_cpu:.2} gen_s={gen_s:.2} push_s={push_s:.2} append_s={append_s:.2} finish_s={finish_s:.2} \
         write_s={write_s:.2} engine_s={:.2} unique={} clusters={} values_in_clusters={} rows={rows} out_mb={:.0} out_hash={out_hash:016x} \
         spilled_mb={:.0} temp_mb={:.0} repartitions={} streamed={} runs={} rss_collected_mb={} rss_grouped_mb={} \
         rss_end_mb={}",
        raw_bytes as f64 / 1e6,
        // Pushing's generation, as measured alone, is not the engine's.
        (c3 - c1) - gen_cpu,
        (c2 - c1) - gen_cpu,
        c3 - c2,
        push_s - gen_s + append_s + finish_s + write_s,
        s.unique,
        s.clusters,
        s.values_in_clusters,
        out_bytes as f64 / 1e6,
        spilled as f64 / 1e6,
        stats.temp_bytes() as f64 / 1e6,
        stats.repartitions,
        stats.streamed_partitions,
        stats.runs,
        mb(rss_collected),
        mb(rss_grouped),
        mb(resident_bytes()),
    );
    Ok(())
}
