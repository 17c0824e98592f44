//! Statistics of a run and the report made of them. `Stats` of separate
//! blocks merge with `+=` (in input order, so examples stay the earliest),
//! and the versioned JSON report and the stderr summary are rendered from
//! the merged total. The report's schema is documented in README.md.

use crate::id::{ErrorCode, Kind, Parsed, Warning};
use foldhash::HashMap;
use serde_json::{Value, json};
use std::hash::{BuildHasher, Hasher};
use std::ops::AddAssign;

/// Bumped whenever a field of the JSON report changes meaning or goes away.
pub const REPORT_VERSION: u32 = 1;
/// Examples kept per error or warning code.
pub const EXAMPLES: usize = 5;
/// Longest example value kept, in bytes (longer ones are cut, marked `…`).
const EXAMPLE_MAX: usize = 200;

/// One code's count and its first examples.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CodeStats {
    pub count: u64,
    pub examples: Vec<Example>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub record: u64,
    pub value: String,
}

impl CodeStats {
    fn add(&mut self, record: u64, raw: &[u8]) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            let cut = raw.len().min(EXAMPLE_MAX);
            let mut value = String::from_utf8_lossy(&raw[..cut]).into_owned();
            if cut < raw.len() {
                value.push('…');
            }
            self.examples.push(Example { record, value });
        }
    }
}

impl AddAssign<&CodeStats> for CodeStats {
    fn add_assign(&mut self, o: &CodeStats) {
        self.count += o.count;
        let room = EXAMPLES - self.examples.len().min(EXAMPLES);
        self.examples.extend(o.examples.iter().take(room).cloned());
    }
}

/// Hashes of canonical forms, for exact duplicate counting in bounded
/// memory. Hashes are kept in fixed-size chunks (growth never copies what is
/// held); past [`SPILL_AT`] hashes they move to [`PARTITIONS`] anonymous temp
/// files by their top bits, and counting sorts one partition at a time.
/// 8 bytes per valid value, on disk beyond the first 32 MB.
#[derive(Debug, Default)]
pub struct CanonicalSet {
    chunks: Vec<Vec<u64>>,
    spill: Option<Spill>,
    spilled: u64,
    /// What `count_unique` found, until the next push.
    unique: Option<u64>,
}

#[derive(Debug)]
struct Spill {
    parts: Vec<std::io::BufWriter<std::fs::File>>,
    error: Option<String>,
}

const CHUNK: usize = 1 << 20;
/// Hashes held in memory before spilling (8 MB).
pub const SPILL_AT: usize = 1 << 20;
const PARTITIONS: usize = 256;

impl Clone for CanonicalSet {
    /// Clones what is in memory only (a spilled set is a run's single total).
    fn clone(&self) -> Self {
        CanonicalSet {
            chunks: self.chunks.clone(),
            spill: None,
            spilled: 0,
            unique: None,
        }
    }
}

impl CanonicalSet {
    pub fn push(&mut self, canonical: &str) {
        let mut h = foldhash::quality::FixedState::with_seed(0x0068_646c_7363_616e).build_hasher();
        h.write(canonical.as_bytes());
        let v = h.finish();
        self.unique = None;
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(v),
            _ => {
                let mut c = Vec::with_capacity(CHUNK.min(4096));
                c.push(v);
                self.chunks.push(c);
            }
        }
    }

    fn in_memory(&self) -> u64 {
        self.chunks.iter().map(|c| c.len() as u64).sum()
    }

    pub fn len(&self) -> u64 {
        self.in_memory() + self.spilled
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the in-memory hashes to the partition files. On an I/O error
    /// the hashes stay in memory (and the error is kept for the report).
    fn spill_now(&mut self) {
        use std::io::Write;
        if self.spill.is_none() {
            let parts: std::io::Result<Vec<_>> = (0..PARTITIONS)
                .map(|_| tempfile::tempfile().map(|f| std::io::BufWriter::with_capacity(8192, f)))
                .collect();
            match parts {
                Ok(parts) => self.spill = Some(Spill { parts, error: None }),
                Err(_) => return,
            }
        }
        let Some(spill) = self.spill.as_mut() else { return };
        if spill.error.is_some() {
            return;
        }
        for c in &self.chunks {
            for &h in c {
                if let Err(e) = spill.parts[(h >> 56) as usize].write_all(&h.to_le_bytes()) {
                    spill.error = Some(e.to_string());
                    return;
                }
            }
        }
        self.spilled += self.in_memory();
        self.chunks.clear();
    }

    /// The number of distinct hashes; counted once, then remembered until
    /// the next push (so a run can count while its output is being synced).
    pub fn count_unique(&mut self) -> anyhow::Result<u64> {
        if let Some(u) = self.unique {
            return Ok(u);
        }
        let u = self.count()?;
        self.unique = Some(u);
        Ok(u)
    }

    fn count(&mut self) -> anyhow::Result<u64> {
        use rayon::prelude::*;
        use std::io::{Read, Seek, Write};
        if self.spill.is_some() {
            self.spill_now();
        }
        let Some(spill) = self.spill.take() else {
            // All in memory: sort each chunk, then merge them.
            self.chunks.par_iter_mut().for_each(|c| c.sort_unstable());
            return Ok(merge_count(&self.chunks));
        };
        if let Some(e) = spill.error {
            anyhow::bail!("counting duplicates: writing temporary files failed: {e}");
        }
        // Partitions hold disjoint hashes (by their top byte): counted
        // apart, in parallel, one partition's hashes in memory per thread.
        spill
            .parts
            .into_par_iter()
            .map(|part| {
                let mut f = part
                    .into_inner()
                    .map_err(|e| anyhow::anyhow!("counting duplicates: {}", e.error()))?;
                f.flush()?;
                f.seek(std::io::SeekFrom::Start(0))?;
                let mut buf = Vec::new();
                f.read_to_end(&mut buf)?;
                let mut hashes: Vec<u64> = buf
                    .chunks_exact(8)
                    .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
                    .collect();
                hashes.sort_unstable();
                hashes.dedup();
                Ok(hashes.len() as u64)
            })
            .sum()
    }

    fn append(&mut self, o: &mut CanonicalSet) {
        self.unique = None;
        // Top up the last partial chunk first, so chunks stay full and few.
        for mut c in o.chunks.drain(..) {
            if let Some(last) = self.chunks.last_mut() {
                let room = CHUNK - last.len();
                if room > 0 {
                    let n = room.min(c.len());
                    last.extend(c.drain(..n));
                }
            }
            if !c.is_empty() {
                self.chunks.push(c);
            }
        }
        if self.in_memory() > SPILL_AT as u64 {
            self.spill_now();
        }
    }
}

/// Distinct values across sorted chunks, merged without a second copy.
fn merge_count(chunks: &[Vec<u64>]) -> u64 {
    let mut heads: Vec<usize> = vec![0; chunks.len()];
    let mut unique = 0u64;
    let mut last: Option<u64> = None;
    loop {
        let mut best: Option<(u64, usize)> = None;
        for (i, c) in chunks.iter().enumerate() {
            if let Some(&v) = c.get(heads[i])
                && best.is_none_or(|(b, _)| v < b)
            {
                best = Some((v, i));
            }
        }
        let Some((v, i)) = best else { break };
        heads[i] += 1;
        if last != Some(v) {
            unique += 1;
            last = Some(v);
        }
    }
    unique
}

/// Everything counted about a set of values.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Data records read.
    pub rows: u64,
    /// Values classified (a null Parquet cell counts, as `empty`).
    pub values: u64,
    pub by_kind: [u64; Kind::ALL.len()],
    pub errors: Vec<CodeStats>,
    pub warnings: Vec<CodeStats>,
    pub namespaces: HashMap<String, u64>,
    pub prefixes: HashMap<String, u64>,
    pub resolvers: HashMap<String, u64>,
    pub canonicals: CanonicalSet,
    /// Input cells, the identifier column's included, whose invalid UTF-8
    /// was replaced (U+FFFD) in Parquet/Arrow output.
    pub lossy_cells: u64,
    /// Short rows padded with empty fields (`--allow-short-rows`).
    pub padded_rows: u64,
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            errors: vec![CodeStats::default(); ErrorCode::ALL.len()],
            warnings: vec![CodeStats::default(); Warning::ALL.len()],
            ..Default::default()
        }
    }

    /// Counts one classified value. `canonical` is the rendered canonical
    /// form (`None` for invalid values).
    pub fn record(&mut self, record: u64, raw: &[u8], p: &Parsed<'_>, canonical: Option<&str>) {
        self.values += 1;
        self.by_kind[p.kind as usize] += 1;
        if let Some(e) = p.error {
            self.errors[e as usize].add(record, raw);
        }
        for w in p.warnings.iter() {
            self.warnings[w as usize].add(record, raw);
        }
        if let Some(ns) = p.namespace {
            bump(&mut self.namespaces, ns);
        }
        if let Some(r) = p.resolver {
            bump(&mut self.resolvers, r);
        }
        if let Some(c) = canonical {
            if p.prefix.is_some()
                && let Some((prefix, _)) = c.split_once('/')
            {
                bump(&mut self.prefixes, prefix);
            }
            self.canonicals.push(c);
        }
    }
}

fn bump(m: &mut HashMap<String, u64>, k: &str) {
    match m.get_mut(k) {
        Some(n) => *n += 1,
        None => {
            m.insert(k.to_owned(), 1);
        }
    }
}

impl AddAssign<Stats> for Stats {
    fn add_assign(&mut self, mut o: Stats) {
        self.rows += o.rows;
        self.values += o.values;
        for (a, b) in self.by_kind.iter_mut().zip(o.by_kind) {
            *a += b;
        }
        for (a, b) in self.errors.iter_mut().zip(&o.errors) {
            *a += b;
        }
        for (a, b) in self.warnings.iter_mut().zip(&o.warnings) {
            *a += b;
        }
        for (map, other) in [
            (&mut self.namespaces, &mut o.namespaces),
            (&mut self.prefixes, &mut o.prefixes),
            (&mut self.resolvers, &mut o.resolvers),
        ] {
            for (k, v) in other.drain() {
                *map.entry(k).or_insert(0) += v;
            }
        }
        self.canonicals.append(&mut o.canonicals);
        self.lossy_cells += o.lossy_cells;
        self.padded_rows += o.padded_rows;
    }
}

/// One input file as the report lists it.
#[derive(Debug, Clone)]
pub struct InputInfo {
    pub path: String,
    pub format: String,
    pub bytes: u64,
    pub rows: u64,
}

/// A finished run: its stats and what it was run on.
pub struct Report {
    pub inputs: Vec<InputInfo>,
    pub column: String,
    pub output: Option<String>,
    pub options: Value,
    pub stats: Stats,
    pub unique_canonical: u64,
    pub elapsed_seconds: f64,
}

impl Report {
    /// Finishes `stats` into a report (counts the distinct canonicals).
    pub fn new(
        inputs: Vec<InputInfo>,
        column: String,
        output: Option<String>,
        options: Value,
        mut stats: Stats,
        elapsed_seconds: f64,
    ) -> anyhow::Result<Report> {
        let unique_canonical = stats.canonicals.count_unique()?;
        Ok(Report {
            inputs,
            column,
            output,
            options,
            stats,
            unique_canonical,
            elapsed_seconds,
        })
    }

    pub fn input_bytes(&self) -> u64 {
        self.inputs.iter().map(|i| i.bytes).sum()
    }

    pub fn valid_values(&self) -> u64 {
        self.stats.values - self.stats.by_kind[Kind::Invalid as usize]
    }

    pub fn duplicate_values(&self) -> u64 {
        self.stats.canonicals.len() - self.unique_canonical
    }

    pub fn to_json(&self) -> Value {
        let s = &self.stats;
        let codes = |names: &[&str], stats: &[CodeStats]| -> Value {
            let mut m = serde_json::Map::new();
            for (name, c) in names.iter().zip(stats) {
                if c.count > 0 {
                    let ex: Vec<Value> = c
                        .examples
                        .iter()
                        .map(|e| json!({"record": e.record, "value": e.value}))
                        .collect();
                    m.insert((*name).to_string(), json!({"count": c.count, "examples": ex}));
                }
            }
            Value::Object(m)
        };
        let error_names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        let warning_names: Vec<&str> = Warning::ALL.iter().map(|c| c.as_str()).collect();
        let by_kind: serde_json::Map<String, Value> = Kind::ALL
            .iter()
            .map(|k| (k.as_str().to_string(), json!(s.by_kind[*k as usize])))
            .collect();
        let secs = self.elapsed_seconds.max(1e-9);
        json!({
            "version": REPORT_VERSION,
            "tool": format!("hdlscan {}", env!("CARGO_PKG_VERSION")),
            "inputs": self.inputs.iter().map(|i| json!({
                "path": i.path, "format": i.format, "bytes": i.bytes, "rows": i.rows,
            })).collect::<Vec<_>>(),
            "column": self.column,
            "output": self.output,
            "options": self.options,
            "rows": s.rows,
            "values": s.values,
            "valid": self.valid_values(),
            "by_kind": by_kind,
            "by_namespace": sorted_counts(&s.namespaces, usize::MAX)
                .into_iter().map(|(k, v)| (k, json!(v))).collect::<serde_json::Map<_, _>>(),
            "errors": codes(&error_names, &s.errors),
            "warnings": codes(&warning_names, &s.warnings),
            "top_prefixes": sorted_counts(&s.prefixes, 20).into_iter()
                .map(|(p, c)| json!({"prefix": p, "count": c})).collect::<Vec<_>>(),
            "resolvers": sorted_counts(&s.resolvers, usize::MAX)
                .into_iter().map(|(k, v)| (k, json!(v))).collect::<serde_json::Map<_, _>>(),
            "unique_canonical": self.unique_canonical,
            "duplicate_values": self.duplicate_values(),
            "lossy_cells": s.lossy_cells,
            "padded_rows": s.padded_rows,
            "input_bytes": self.input_bytes(),
            "elapsed_seconds": (self.elapsed_seconds * 1000.0).round() / 1000.0,
            "rows_per_second": (s.rows as f64 / secs).round(),
            "mb_per_second": ((self.input_bytes() as f64 / 1e6 / secs) * 10.0).round() / 10.0,
        })
    }

    /// The short human summary for stderr.
    pub fn summary(&self) -> String {
        let s = &self.stats;
        let mut out = String::new();
        let pct = |n: u64| {
            if s.values == 0 {
                0.0
            } else {
                n as f64 * 100.0 / s.values as f64
            }
        };
        let secs = self.elapsed_seconds.max(1e-9);
        out.push_str(&format!(
            "hdlscan: {} rows, {} valid ({:.1}%), {} invalid, {} unique, {} duplicates; {:.2}s, {:.0} rows/s, {:.1} MB/s\n",
            s.rows,
            self.valid_values(),
            pct(self.valid_values()),
            s.by_kind[Kind::Invalid as usize],
            self.unique_canonical,
            self.duplicate_values(),
            self.elapsed_seconds,
            s.rows as f64 / secs,
            self.input_bytes() as f64 / 1e6 / secs,
        ));
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| s.by_kind[**k as usize] > 0)
            .map(|k| format!("{} {}", k.as_str(), s.by_kind[*k as usize]))
            .collect();
        out.push_str(&format!("  kinds: {}\n", kinds.join(", ")));
        let mut errs: Vec<(ErrorCode, &CodeStats)> = ErrorCode::ALL
            .iter()
            .map(|e| (*e, &s.errors[*e as usize]))
            .filter(|(_, c)| c.count > 0)
            .collect();
        errs.sort_by_key(|e| std::cmp::Reverse(e.1.count));
        for (e, c) in errs.iter().take(5) {
            let ex: Vec<String> = c
                .examples
                .iter()
                .take(2)
                .map(|x| format!("record {}: {:?}", x.record, x.value))
                .collect();
            out.push_str(&format!(
                "  error {:<20} {:>10}  e.g. {}\n",
                e.as_str(),
                c.count,
                ex.join(", ")
            ));
        }
        let mut warns: Vec<(Warning, u64)> = Warning::ALL
            .iter()
            .map(|w| (*w, s.warnings[*w as usize].count))
            .filter(|(_, n)| *n > 0)
            .collect();
        warns.sort_by_key(|w| std::cmp::Reverse(w.1));
        if !warns.is_empty() {
            let w: Vec<String> = warns
                .iter()
                .take(6)
                .map(|(w, n)| format!("{} {}", w.as_str(), n))
                .collect();
            out.push_str(&format!("  warnings: {}\n", w.join(", ")));
        }
        if s.lossy_cells > 0 {
            out.push_str(&format!(
                "  note: {} input cells held invalid UTF-8, replaced by U+FFFD in the output\n",
                s.lossy_cells
            ));
        }
        out
    }
}

/// Counts sorted by count (descending), then key, at most `n`.
fn sorted_counts(m: &HashMap<String, u64>, n: usize) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = m.iter().map(|(k, c)| (k.clone(), *c)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::{Options, Parser, Rendered, Scratch};

    fn stats_of(values: &[&str], first_record: u64) -> Stats {
        let parser = Parser::new(Options::default());
        let (mut sc, mut r) = (Scratch::default(), Rendered::default());
        let mut st = Stats::new();
        for (i, v) in values.iter().enumerate() {
            let p = parser.parse(v.as_bytes(), &mut sc);
            parser.render(&p, &mut r);
            st.rows += 1;
            st.record(first_record + i as u64, v.as_bytes(), &p, r.canonical());
        }
        st
    }

    #[test]
    fn merged_stats_equal_stats_of_the_whole() {
        let vals = [
            "10.1000/A",
            "https://doi.org/10.1000/a",
            "N/A",
            "1721.1/5",
            "hdl:1721.1/5",
            "x",
            "N/A",
        ];
        let whole = Report::new(vec![], "c".into(), None, json!({}), stats_of(&vals, 1), 1.0).unwrap();
        let mut merged = stats_of(&vals[..3], 1);
        merged += stats_of(&vals[3..], 4);
        let merged = Report::new(vec![], "c".into(), None, json!({}), merged, 1.0).unwrap();
        let (mut a, mut b) = (whole.to_json(), merged.to_json());
        for j in [&mut a, &mut b] {
            j.as_object_mut().unwrap().remove("elapsed_seconds");
        }
        assert_eq!(a, b);
        assert_eq!(whole.unique_canonical, 2);
        assert_eq!(whole.duplicate_values(), 2);
        assert_eq!(a["by_kind"]["invalid"], 3);
        assert_eq!(a["errors"]["placeholder"]["count"], 3);
        assert_eq!(a["errors"]["placeholder"]["examples"][2]["record"], 7);
        assert_eq!(a["top_prefixes"][0]["prefix"], "10.1000");
        assert_eq!(a["resolvers"]["doi.org"], 1);
    }

    #[test]
    fn examples_keep_the_first_five() {
        let vals = ["N/A"; 12];
        let mut st = stats_of(&vals[..3], 1);
        st += stats_of(&vals[3..], 4);
        let ex: Vec<u64> = st.errors[ErrorCode::Placeholder as usize]
            .examples
            .iter()
            .map(|e| e.record)
            .collect();
        assert_eq!(ex, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn unique_count_across_chunks() {
        let mut set = CanonicalSet::default();
        for i in 0..(CHUNK + 10) {
            set.push(&format!("10.1/{}", i % (CHUNK / 2)));
        }
        assert_eq!(set.count_unique().unwrap(), (CHUNK / 2) as u64);
    }

    #[test]
    fn unique_count_after_spilling_to_disk() {
        // Blocks merged with += spill once the total passes SPILL_AT.
        let mut total = CanonicalSet::default();
        let distinct = SPILL_AT / 2 + 12345;
        for block in 0..12 {
            let mut b = CanonicalSet::default();
            for i in 0..(SPILL_AT / 6) {
                b.push(&format!("{}", (block * (SPILL_AT / 6) + i) % distinct));
            }
            total.append(&mut b);
        }
        assert!(total.spilled > 0, "the set should have spilled");
        assert_eq!(total.len(), 12 * (SPILL_AT / 6) as u64);
        assert!(total.in_memory() <= SPILL_AT as u64 + CHUNK as u64);
        assert_eq!(total.count_unique().unwrap(), distinct as u64);
        // Counting consumed the partition files: a second count (the report
        // after the pipeline's) must give the same number, not recount.
        assert_eq!(total.count_unique().unwrap(), distinct as u64);
        assert_eq!(total.len(), 12 * (SPILL_AT / 6) as u64);
    }

    #[test]
    fn unique_count_is_recounted_after_a_push() {
        let mut set = CanonicalSet::default();
        set.push("10.1/a");
        set.push("10.1/a");
        assert_eq!(set.count_unique().unwrap(), 1);
        set.push("10.1/b");
        assert_eq!(set.count_unique().unwrap(), 2);
        let mut more = CanonicalSet::default();
        more.push("10.1/c");
        set.append(&mut more);
        assert_eq!(set.count_unique().unwrap(), 3);
    }
}
