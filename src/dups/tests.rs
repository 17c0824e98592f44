//! The engine against a naive in-memory grouping written here: every row
//! of the duplicates file and the summary, with the default budget and with
//! one so small that every path (spill, split, streamed partition, many
//! runs, merge passes) is taken.

use super::group::EngineStats;
use super::*;
use crate::at::At;
use crate::clusters::{Summary, TopCluster, TopMember};
use crate::id::{Warning, Warnings};
use crate::io::format::Format;
use crate::io::sink::Sink;
use crate::spill::Budget;
use crate::variant::variant;
use proptest::prelude::*;
use std::collections::HashMap;

/// One valid value as a worker would push it.
#[derive(Debug, Clone)]
struct Value {
    canonical: String,
    at: At,
    value: String,
    warnings: Warnings,
}

/// One row of the duplicates file, read back from CSV.
#[derive(Debug, Clone, PartialEq)]
struct OutRow {
    cluster: u64,
    canonical: String,
    records: u64,
    count: u64,
    input: String,
    record: u64,
    line: Option<u64>,
    column: String,
    value_index: u32,
    value: String,
    first_record: u64,
    variant: String,
}

const INPUTS: [&str; 2] = ["a.csv", "b.csv"];
const COLUMNS: [&str; 2] = ["doi", "related"];

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| s.to_string()).collect()
}

/// Options that make every path run on a few hundred values.
fn tiny() -> Options {
    Options {
        budget: Budget::new(4096, 4),
        ..Options::default()
    }
}

/// What the engine gives: summary, stats and rows. Blocks end after each
/// index in `cuts` (and at the end).
fn engine(
    values: &[Value],
    cuts: &[usize],
    opts: Options,
    hash: Option<fn(&[u8]) -> u64>,
) -> (Summary, EngineStats, Vec<OutRow>) {
    let g = grouped(values, cuts, opts, hash);
    let summary = g.summary().clone();
    let stats = *g.stats();
    let mut sink = Sink::from_writer(Vec::new(), Format::Csv, Grouped::schema(), "dups.csv").unwrap();
    let written = g.write(&mut sink, &names(&INPUTS), &names(&COLUMNS)).unwrap();
    let (bytes, rows) = sink.finish_writer().unwrap();
    assert_eq!(written, rows);
    (summary, stats, read_csv(&bytes))
}

fn read_csv(bytes: &[u8]) -> Vec<OutRow> {
    let mut r = csv::Reader::from_reader(bytes);
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "cluster",
            "canonical",
            "records",
            "count",
            "input",
            "record",
            "line",
            "source_column",
            "value_index",
            "value",
            "first_record",
            "variant"
        ]
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let n = |i: usize| rec[i].parse::<u64>().unwrap();
            OutRow {
                cluster: n(0),
                canonical: rec[1].to_string(),
                records: n(2),
                count: n(3),
                input: rec[4].to_string(),
                record: n(5),
                line: (!rec[6].is_empty()).then(|| n(6)),
                column: rec[7].to_string(),
                value_index: n(8) as u32,
                value: rec[9].to_string(),
                first_record: n(10),
                variant: rec[11].to_string(),
            }
        })
        .collect()
}

/// The distinct records among `g`'s values.
fn records_of(values: &[Value], g: &[usize]) -> u64 {
    let mut r: Vec<(u32, u64)> = g.iter().map(|&i| (values[i].at.input, values[i].at.record)).collect();
    r.sort();
    r.dedup();
    r.len() as u64
}

/// The naive grouping: everything in memory, in the plainest way. A
/// cluster is a canonical of two records or more; a record holding a
/// canonical twice repeats it.
fn naive(values: &[Value], opts: &Options) -> (Summary, Vec<OutRow>) {
    let mut in_record: HashMap<(u32, u64, &str), u64> = HashMap::new();
    for v in values {
        *in_record.entry((v.at.input, v.at.record, &v.canonical)).or_default() += 1;
    }
    let mut repeating: Vec<(u32, u64)> = in_record
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|((input, record, _), _)| (*input, *record))
        .collect();
    repeating.sort();
    repeating.dedup();
    let repeated_in_record = crate::clusters::Repeated {
        values: in_record.values().map(|n| n - 1).sum(),
        records: repeating.len() as u64,
    };
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let g = *index.entry(&v.canonical).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let unique = groups.len() as u64;
    let mut clusters: Vec<Vec<usize>> = groups.into_iter().filter(|g| records_of(values, g) >= 2).collect();
    clusters.sort_by_key(|g| (std::cmp::Reverse(records_of(values, g)), g[0]));
    let distinct = |g: &[usize], f: &dyn Fn(&Value) -> u32| {
        let mut s: Vec<u32> = g.iter().map(|&i| f(&values[i])).collect();
        s.sort();
        s.dedup();
        s.len() > 1
    };
    let variant_of = |m: &Value, f: &Value| {
        variant(
            m.value.as_bytes(),
            m.warnings,
            f.value.as_bytes(),
            f.warnings,
            opts.repair,
        )
    };
    let mut rows = Vec::new();
    let mut top = Vec::new();
    for (n, g) in clusters.iter().enumerate() {
        let f = &values[g[0]];
        for &i in g {
            let m = &values[i];
            rows.push(OutRow {
                cluster: n as u64 + 1,
                canonical: m.canonical.clone(),
                records: records_of(values, g),
                count: g.len() as u64,
                input: INPUTS[m.at.input as usize].to_string(),
                record: m.at.record,
                line: m.at.line,
                column: COLUMNS[m.at.column as usize].to_string(),
                value_index: m.at.value_index,
                value: m.value.clone(),
                first_record: f.at.record,
                variant: variant_of(m, f).as_str().to_string(),
            });
        }
        if n < opts.top {
            top.push(TopCluster {
                canonical: f.canonical.clone(),
                count: g.len() as u64,
                records: records_of(values, g),
                first: f.at,
                members: g
                    .iter()
                    .take(opts.top_members)
                    .map(|&i| TopMember {
                        at: values[i].at,
                        value: values[i].value.clone(),
                        variant: variant_of(&values[i], f),
                    })
                    .collect(),
            });
        }
    }
    let summary = Summary {
        values: values.len() as u64,
        unique,
        clusters: clusters.len() as u64,
        values_in_clusters: clusters.iter().map(|g| g.len() as u64).sum(),
        records_in_clusters: clusters.iter().map(|g| records_of(values, g)).sum(),
        repeated_in_record,
        across_inputs: clusters.iter().filter(|g| distinct(g, &|v| v.at.input)).count() as u64,
        across_columns: clusters.iter().filter(|g| distinct(g, &|v| v.at.column)).count() as u64,
        top,
    };
    (summary, rows)
}

/// A value of canonical `id` (a few hundred repeat, the rest are alone)
/// written in one of the forms exports hold.
#[derive(Debug, Clone, Copy)]
struct Seed {
    id: u32,
    form: u8,
    input: u32,
    column: u32,
    value_index: u32,
    has_line: bool,
}

fn values_of(seeds: &[Seed]) -> Vec<Value> {
    let mut record = [0u64; 2];
    let mut last: Option<(u32, u64)> = None;
    seeds
        .iter()
        .enumerate()
        .map(|(i, s)| {
            // Records only grow within an input; several values may share
            // one, and come together (as a scan reads them): a value of
            // index 1 or more is of the record before, whatever its input.
            let (input, rec) = match last {
                Some(l) if s.value_index > 0 => l,
                _ => {
                    record[s.input as usize] += 1;
                    (s.input, record[s.input as usize])
                }
            };
            last = Some((input, rec));
            let id = if s.id >= 1000 { 1_000_000 + i as u32 } else { s.id };
            let prefix = 1000 + id % 7;
            let canonical = format!("10.{prefix}/abc.{id}");
            let (value, warnings): (String, &[Warning]) = match s.form {
                0 => (canonical.clone(), &[]),
                1 => (canonical.to_uppercase(), &[]),
                2 => (format!("https://doi.org/{canonical}"), &[]),
                3 => (format!("doi:{canonical}"), &[]),
                4 => (format!("10.{prefix}%2Fabc.{id}"), &[Warning::EncodedSeparator]),
                5 => (format!("{canonical}."), &[Warning::TrailingPunct]),
                _ => (format!(" {canonical}"), &[Warning::Trimmed]),
            };
            Value {
                canonical,
                at: At {
                    input,
                    record: rec,
                    line: s.has_line.then_some(rec + 1),
                    column: s.column,
                    value_index: s.value_index,
                },
                value,
                warnings: warnings.iter().copied().collect(),
            }
        })
        .collect()
}

fn seed_strategy(ids: u32) -> impl Strategy<Value = Seed> {
    (
        prop_oneof![0..ids, Just(1000u32)],
        0..7u8,
        0..2u32,
        0..2u32,
        prop_oneof![3 => Just(0u32), 1 => 1..3u32],
        any::<bool>(),
    )
        .prop_map(|(id, form, input, column, value_index, has_line)| Seed {
            id,
            form,
            input,
            column,
            value_index,
            has_line,
        })
}

fn check(values: &[Value], cuts: &[usize], opts: Options, hash: Option<fn(&[u8]) -> u64>) -> EngineStats {
    let (want_summary, want_rows) = naive(values, &opts);
    let (summary, stats, rows) = engine(values, cuts, opts.clone(), hash);
    assert_eq!(rows.len(), want_rows.len());
    for (i, (got, want)) in rows.iter().zip(&want_rows).enumerate() {
        assert_eq!(got, want, "row {i}");
    }
    assert_eq!(summary, want_summary);
    // Without the file, the same summary (its rows are not made).
    assert_eq!(summary_only(values, cuts, opts, hash), want_summary);
    stats
}

/// `values` collected (blocks end after each index in `cuts` that ends a
/// record: a record is in one block, as a scan pushes it) and grouped.
fn grouped(values: &[Value], cuts: &[usize], opts: Options, hash: Option<fn(&[u8]) -> u64>) -> Grouped {
    grouped_keeping(values, cuts, opts, hash, false)
}

/// `grouped`, its blocks keeping every value in its body when `keep`
/// (`Collector::keeping_values`: a run beside an output).
fn grouped_keeping(
    values: &[Value],
    cuts: &[usize],
    opts: Options,
    hash: Option<fn(&[u8]) -> u64>,
    keep: bool,
) -> Grouped {
    let file = opts.file || keep;
    let mut c = Collector::new(opts);
    if keep {
        c = c.keeping_values();
    }
    if let Some(h) = hash {
        c = c.with_hash(h);
    }
    let mut block = Block::with_capacity(0, file);
    let record = |v: &Value| (v.at.input, v.at.record);
    for (i, v) in values.iter().enumerate() {
        block.push(v.canonical.as_bytes(), v.at, v.value.as_bytes(), v.warnings);
        if cuts.contains(&i) && values.get(i + 1).is_none_or(|n| record(n) != record(v)) {
            c.append(std::mem::replace(&mut block, Block::with_capacity(0, file))).unwrap();
        }
    }
    c.append(block).unwrap();
    assert_eq!(c.len(), values.len() as u64);
    c.finish().unwrap()
}

/// The summary of a grouping whose file is not wanted (`Options::file`).
fn summary_only(values: &[Value], cuts: &[usize], opts: Options, hash: Option<fn(&[u8]) -> u64>) -> Summary {
    let g = grouped(values, cuts, Options { file: false, ..opts }, hash);
    assert_eq!(g.stats().runs, 0, "rows made for no file: {:?}", g.stats());
    g.summary().clone()
}

/// Values as blocks end (after each index in `cuts`), and the options
/// that vary what is shown.
#[derive(Debug)]
struct Input {
    values: Vec<Value>,
    cuts: Vec<usize>,
    repair: bool,
    top: usize,
}

impl Input {
    fn options(&self) -> Options {
        Options {
            repair: self.repair,
            top: self.top,
            top_members: 3,
            ..Options::default()
        }
    }
}

fn input() -> impl Strategy<Value = Input> {
    (
        proptest::collection::vec(seed_strategy(40), 0..400),
        proptest::collection::vec(0..400usize, 0..10),
        any::<bool>(),
        0..4usize,
    )
        .prop_map(|(seeds, cuts, repair, top)| Input {
            values: values_of(&seeds),
            cuts,
            repair,
            top,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn engine_matches_naive_grouping(input in input()) {
        // Grouped in memory, its rows made only when written: no run by then.
        let stats = check(&input.values, &input.cuts, input.options(), None);
        prop_assert_eq!((stats.temp_bytes(), stats.runs), (0, 0));
    }

    /// Without a file, values kept in their bodies (a run beside an
    /// output) give the summary, top members' values included, that
    /// values kept apart give (an audit), spilled or not.
    #[test]
    fn values_kept_or_apart_give_one_summary(input in input()) {
        let opts = Options { file: false, ..input.options() };
        let apart = grouped(&input.values, &input.cuts, opts.clone(), None);
        let kept = grouped_keeping(&input.values, &input.cuts, opts, None, true);
        prop_assert_eq!(apart.summary(), kept.summary());
        prop_assert_eq!(kept.stats().runs, 0);
    }
}

struct Dups;

impl crate::spill::suite::User for Dups {
    type Input = Input;
    type Output = (Summary, Vec<OutRow>);

    fn input() -> BoxedStrategy<Input> {
        input().boxed()
    }

    fn run(input: &Input, budget: Budget) -> Self::Output {
        let opts = Options {
            budget,
            ..input.options()
        };
        let (summary, _, rows) = engine(&input.values, &input.cuts, opts.clone(), None);
        assert_eq!(summary_only(&input.values, &input.cuts, opts, None), summary);
        (summary, rows)
    }

    fn held(input: &Input) -> Self::Output {
        let (summary, _, rows) = engine(&input.values, &input.cuts, input.options(), None);
        (summary, rows)
    }
}

crate::spill::suite::spill_suite!(Dups);

/// A block keeps its values apart exactly when the collector wants no
/// file: the other kind is refused, not misread.
#[test]
fn blocks_of_the_other_kind_are_refused() {
    for file in [true, false] {
        let mut b = Block::with_capacity(1, !file);
        let v = plain("10.1000/1", 0, 1, 0, 1);
        b.push(v.canonical.as_bytes(), v.at, v.value.as_bytes(), v.warnings);
        let mut c = Collector::new(Options { file, ..Options::default() });
        assert!(c.append(b).is_err());
    }
}

/// One input with every path of the tiny budget taken, each asserted.
#[test]
fn tiny_budget_takes_every_path() {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let seeds: Vec<Seed> = (0..6000)
        .map(|i| Seed {
            // One canonical in ten is the heavy one: its partition holds
            // more records than fit, and few distinct canonicals.
            id: match next(10) {
                0 => 7,
                1..=3 => next(300) as u32,
                _ => 1000,
            },
            form: next(7) as u8,
            input: next(2) as u32,
            column: next(2) as u32,
            value_index: (i % 5 == 4) as u32,
            has_line: next(4) > 0,
        })
        .collect();
    let values = values_of(&seeds);
    let cuts: Vec<usize> = (0..values.len()).step_by(97).collect();
    let stats = check(&values, &cuts, Options { repair: true, ..tiny() }, None);
    assert!(stats.spilled_bytes > 0, "{stats:?}");
    assert!(stats.repartitions > 0, "{stats:?}");
    assert!(stats.streamed_partitions > 0, "{stats:?}");
    // More runs than partitions with clusters: runs were cut for memory,
    // and the final merge needed passes (the spill suite tests the passes alone).
    assert!(stats.runs > 100, "{stats:?}");
    assert!(stats.run_bytes > 0, "{stats:?}");
}

/// Partitions too large for a thread's share of the budget but within the
/// whole budget are counted as they are, not split again (a split writes
/// and reads each once more), and group as the naive grouping does.
#[test]
fn partitions_within_the_budget_are_not_split_again() {
    let values: Vec<Value> = (0..4000)
        .map(|i| plain(&format!("10.1000/{}", i % 1500), i % 2, u64::from(i), 0, 0))
        .collect();
    let opts = Options {
        budget: Budget::new(64 << 10, 4),
        ..Options::default()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let stats = pool.install(|| check(&values, &[1000, 2000, 3000], opts, None));
    assert!(stats.spilled_bytes > 4 * (64 << 10) / 4, "{stats:?}");
    assert_eq!(stats.repartitions, 0, "{stats:?}");
}

fn same_hash(_: &[u8]) -> u64 {
    0x5555_5555_5555_5555
}

#[test]
fn equal_hashes_never_merge_clusters() {
    let at = |record| At {
        record,
        ..At::default()
    };
    for opts in [Options::default(), tiny()] {
        let mut c = Collector::new(opts).with_hash(same_hash);
        let mut b = Block::default();
        for (i, v) in ["10.1/a", "10.1/b", "10.1/a", "10.1/b", "10.1/c"].iter().enumerate() {
            b.push(v.as_bytes(), at(i as u64), v.as_bytes(), Warnings::EMPTY);
        }
        c.append(b).unwrap();
        let s = c.finish().unwrap().summary().clone();
        assert_eq!((s.unique, s.clusters, s.values_in_clusters), (3, 2, 4));
        assert_eq!(
            s.top.iter().map(|t| t.canonical.as_str()).collect::<Vec<_>>(),
            ["10.1/a", "10.1/b"]
        );
    }
    // And on generated values, every row as the naive grouping has it.
    let seeds: Vec<Seed> = (0..800)
        .map(|i| Seed {
            id: if i % 2 == 0 { i % 37 } else { 1000 },
            form: (i % 7) as u8,
            input: i % 2,
            column: 0,
            value_index: 0,
            has_line: false,
        })
        .collect();
    let values = values_of(&seeds);
    check(&values, &[100, 400], Options::default(), Some(same_hash));
    let stats = check(&values, &[100, 400], tiny(), Some(same_hash));
    assert!(stats.repartitions > 0, "{stats:?}");
}

/// Tables that fill long before memory does: the partitions are split
/// until each fits, and the rows are the naive grouping's. Where no split
/// can help (one canonical longer than a table holds), an error names the
/// limit.
#[test]
fn a_full_table_splits_its_partition_or_is_an_error() {
    let mut values: Vec<Value> = (0..600)
        .map(|i| plain(&format!("10.1000/{}", i % 150), i % 2, u64::from(i), 0, 0))
        .collect();
    let small = Options {
        budget: Budget::new(64 << 20, 4).with_table_max(256),
        ..Options::default()
    };
    let stats = check(&values, &[200], small.clone(), None);
    assert!(stats.repartitions > 0 && stats.temp_bytes() > 0, "{stats:?}");
    values.push(plain(&format!("10.1000/{}", "x".repeat(300)), 0, 600, 0, 0));
    let mut c = Collector::new(small);
    let mut b = Block::default();
    for v in &values {
        b.push(v.canonical.as_bytes(), v.at, v.value.as_bytes(), v.warnings);
    }
    c.append(b).unwrap();
    let err = c
        .finish()
        .err()
        .expect("no table holds a 308-byte canonical in 256 bytes");
    assert_eq!(
        err.to_string(),
        "grouping duplicates: more distinct keys in one partition than a table holds (4 GiB of them)"
    );
}

/// A value written as its canonical, read at that place.
fn plain(canonical: &str, input: u32, record: u64, column: u32, value_index: u32) -> Value {
    Value {
        canonical: canonical.to_string(),
        at: At {
            input,
            record,
            line: Some(record + 1),
            column,
            value_index,
        },
        value: canonical.to_string(),
        warnings: Warnings::EMPTY,
    }
}

#[test]
fn across_inputs_and_columns() {
    let v = |c, input, record, column| plain(c, input, record, column, 1);
    let values = [
        v("10.1/both-inputs", 0, 1, 0),
        v("10.1/both-inputs", 1, 1, 0),
        v("10.1/both-columns", 0, 2, 0),
        v("10.1/both-columns", 0, 3, 1),
        v("10.1/both", 0, 4, 0),
        v("10.1/both", 1, 4, 1),
        v("10.1/neither", 1, 5, 1),
        v("10.1/neither", 1, 6, 1),
        v("10.1/alone", 0, 7, 1),
    ];
    let (s, _, rows) = engine(&values, &[], Options::default(), None);
    assert_eq!((s.clusters, s.across_inputs, s.across_columns), (4, 2, 2));
    assert_eq!(
        (s.values, s.unique, s.values_in_clusters, s.records_in_clusters),
        (9, 5, 8, 8)
    );
    assert!(rows.iter().all(|r| r.canonical != "10.1/alone"));
    check(&values, &[], tiny(), None);
}

/// A DSpace export's record holds its DOI in `dc.identifier.uri` and in
/// `dc.identifier.doi`: the record is consistent, not a duplicate. Only
/// another record holding the DOI makes a cluster, of two records.
#[test]
fn a_record_repeating_its_identifier_is_no_cluster() {
    let v = |c, record, column, value_index| plain(c, 0, record, column, value_index);
    let values = [
        // Record 1: a handle, and its DOI in both columns.
        v("1721.1/5", 1, 0, 1),
        v("10.1016/j.fcr.2019.107659", 1, 0, 2),
        v("10.1016/j.fcr.2019.107659", 1, 1, 1),
        // Record 2: its DOI twice, and no other record has it.
        v("10.1111/gcb.13809", 2, 0, 2),
        v("10.1111/gcb.13809", 2, 1, 1),
        // Record 3: record 1's DOI: the one duplicate.
        v("10.1016/j.fcr.2019.107659", 3, 1, 1),
    ];
    let (s, _, rows) = engine(&values, &[], Options::default(), None);
    assert_eq!((s.clusters, s.records_in_clusters, s.values_in_clusters), (1, 2, 3));
    assert_eq!(
        s.repeated_in_record,
        crate::clusters::Repeated { values: 2, records: 2 }
    );
    assert_eq!(s.top[0].records, 2);
    // Every member is listed, record 1's two values too.
    let got: Vec<(u64, &str, u64, u64)> = rows
        .iter()
        .map(|r| (r.record, r.column.as_str(), r.records, r.count))
        .collect();
    assert_eq!(got, [(1, "doi", 2, 3), (1, "related", 2, 3), (3, "related", 2, 3)]);
    check(&values, &[2], tiny(), None);
}

#[test]
fn one_member_is_no_cluster_and_nothing_is_nothing() {
    let (s, stats, rows) = engine(&[], &[], Options::default(), None);
    assert_eq!(s, Summary::default());
    assert_eq!(stats, EngineStats::default());
    assert!(rows.is_empty());

    let values = values_of(&[Seed {
        id: 3,
        form: 2,
        input: 0,
        column: 0,
        value_index: 0,
        has_line: true,
    }]);
    let (s, _, rows) = engine(&values, &[], Options::default(), None);
    assert_eq!((s.values, s.unique, s.clusters, s.values_in_clusters), (1, 1, 0, 0));
    assert!(s.top.is_empty() && rows.is_empty());
}

#[test]
fn rows_show_first_record_and_variants() {
    let v = |record, value: &str, warnings: &[Warning]| Value {
        canonical: "10.1000/abc".to_string(),
        at: At {
            input: 0,
            record,
            line: None,
            column: 0,
            value_index: 0,
        },
        value: value.to_string(),
        warnings: warnings.iter().copied().collect(),
    };
    let values = [
        v(5, "10.1000/abc", &[]),
        v(6, "10.1000/ABC", &[]),
        v(7, "https://doi.org/10.1000/abc", &[]),
        v(8, "10.1000%2Fabc", &[Warning::EncodedSeparator]),
        v(9, "10.1000/abc.", &[Warning::TrailingPunct]),
        v(10, "10.1000/abc", &[]),
    ];
    let opts = Options {
        repair: true,
        ..Options::default()
    };
    let (s, _, rows) = engine(&values, &[2], opts, None);
    let got: Vec<(u64, u64, &str)> = rows
        .iter()
        .map(|r| (r.record, r.first_record, r.variant.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (5, 5, "same"),
            (6, 5, "case"),
            (7, 5, "form"),
            (8, 5, "encoding"),
            (9, 5, "repair"),
            (10, 5, "same")
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.cluster == 1 && r.count == 6 && r.records == 6 && r.line.is_none())
    );
    assert_eq!(s.top[0].members.len(), 6);
    assert_eq!(s.top[0].first.record, 5);
}

#[test]
fn long_values_are_cut_in_the_top_only() {
    let long = format!("https://doi.org/10.1000/{}", "x".repeat(300));
    let canonical = format!("10.1000/{}", "x".repeat(300));
    let values: Vec<Value> = (0..2)
        .map(|i| Value {
            canonical: canonical.clone(),
            at: At {
                record: i,
                ..At::default()
            },
            value: long.clone(),
            warnings: Warnings::EMPTY,
        })
        .collect();
    let (s, _, rows) = engine(&values, &[], Options::default(), None);
    assert_eq!(rows[0].value, long);
    let shown = &s.top[0].members[0].value;
    assert!(shown.ends_with('…') && shown.len() == 200 + '…'.len_utf8(), "{shown}");
}

/// A real full file system: a 256 KiB tmpfs for the temporary files.
/// Needs mount privileges; skipped (with a message) without them.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_is_an_error_not_a_count() {
    struct Mount(std::path::PathBuf);
    impl Drop for Mount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let ok = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mnt)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipping full_disk_is_an_error_not_a_count: cannot mount a tmpfs here");
        return;
    }
    let _guard = Mount(mnt.clone());
    let opts = Options {
        budget: Budget::new(64 << 10, 512).with_temp_dir(Some(mnt.clone())),
        ..Options::default()
    };
    let mut c = Collector::new(opts);
    let mut err = None;
    for k in 0..200u64 {
        let mut b = Block::default();
        for i in 0..1000u64 {
            let v = format!("10.1000/{}", (k * 1000 + i) % 150_000);
            let at = At {
                record: k * 1000 + i,
                ..At::default()
            };
            b.push(v.as_bytes(), at, v.as_bytes(), Warnings::EMPTY);
        }
        if let Err(e) = c.append(b) {
            err = Some(e.to_string());
            break;
        }
    }
    let err = match err {
        Some(e) => {
            // A collector that failed refuses to count.
            assert!(c.append(Block::default()).is_err());
            assert_eq!(c.finish().err().unwrap().to_string(), e);
            e
        }
        None => c.finish().err().expect("200k values cannot fit 256 KiB").to_string(),
    };
    assert_eq!(
        err,
        format!(
            "grouping duplicates: writing temporary files in {} failed: no space left on device \
             (--temp-dir DIR, or TMPDIR, puts them on another disk)",
            mnt.display()
        )
    );
    // Anonymous files: nothing is left once the collector is gone.
    assert_eq!(std::fs::read_dir(&mnt).unwrap().count(), 0);
}

/// A collection that never spilled but whose table would not fit beside
/// it is spilled at `finish` and grouped by partitions: at some budget of
/// this sweep, and with the same rows whatever the budget.
#[test]
fn held_blocks_whose_table_does_not_fit_are_spilled_at_finish() {
    // Short canonicals: little to hold, much table per value.
    let values: Vec<Value> = (0..600u64)
        .map(|i| {
            let c = format!("1/{}", if i % 5 == 0 { i % 7 } else { i });
            Value {
                canonical: c.clone(),
                at: At {
                    record: i,
                    ..At::default()
                },
                value: c,
                warnings: Warnings::EMPTY,
            }
        })
        .collect();
    let mut fell_back = 0;
    for memory in (8 << 10..96 << 10).step_by(2 << 10) {
        let opts = Options {
            budget: Budget::new(memory, 4),
            ..Options::default()
        };
        let (want_summary, want_rows) = naive(&values, &opts);
        let mut c = Collector::new(opts);
        let mut b = Block::default();
        for v in &values {
            b.push(v.canonical.as_bytes(), v.at, v.value.as_bytes(), v.warnings);
        }
        c.append(b).unwrap();
        let collected_spill = c.spilled();
        let g = c.finish().unwrap();
        if collected_spill == 0 && g.stats().spilled_bytes > 0 {
            fell_back += 1;
        }
        assert_eq!(g.summary(), &want_summary, "{memory}");
        let mut sink = Sink::from_writer(Vec::new(), Format::Csv, Grouped::schema(), "dups.csv").unwrap();
        g.write(&mut sink, &names(&INPUTS), &names(&COLUMNS)).unwrap();
        assert_eq!(read_csv(&sink.finish_writer().unwrap().0), want_rows, "{memory}");
    }
    assert!(fell_back > 0);
}
