//! `scan --duplicates FILE`: the clusters of valid values sharing a
//! canonical, row for row on the DSpace fixture, against a naive grouping
//! of generated values over two inputs and two columns (with a tiny memory
//! budget, so the engine spills and re-partitions), the bad command lines,
//! and an interrupt while the file is written.
//!
//! Run: `cargo test --test tests duplicates`

use crate::scan::{Table, assert_no_temp_files, entries, p, read_json, read_parquet, scan};
use hdlscan::id::{Options, Parser, Rendered, Scratch};
use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn dspace() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/dspace/export.csv")
}

/// The DSpace export holds three records that repeat their own identifier
/// (a DOI in `dc.identifier.uri` and `dc.identifier.doi`, a handle in two
/// `dc.identifier.uri` columns): no cluster, three `repeated_in_record`.
/// Beside last month's export of the same repository, every identifier
/// is a cluster of two records, and every member is listed.
#[test]
fn dspace_clusters_are_records_sharing_an_identifier() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = dspace();
    fs::copy(&s, d.join("last-month.csv")).unwrap();
    let args = [
        "-c",
        "dc.identifier.uri*",
        "-c",
        "dc.identifier.doi",
        "--split",
        "||",
        "--keep",
        "id",
    ];
    scan(
        d,
        &[
            &[p(&s)][..],
            &args[..],
            &["--duplicates", "dups.csv", "--report", "r.json", "--report", "r.md"],
        ]
        .concat(),
    )
    .ok();
    let r = read_json(&d.join("r.json"));
    let dups = &r["duplicates"];
    assert_eq!(
        (dups["clusters"].as_u64(), dups["values_in_clusters"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        dups["repeated_in_record"],
        serde_json::json!({"values": 3, "records": 3})
    );
    assert_eq!(dups["unique_canonical"], 8);
    let md = fs::read_to_string(d.join("r.md")).unwrap();
    assert!(md.contains("| repeated in their record | 3 |"), "{md}");
    assert!(!md.contains("Largest duplicate clusters"), "{md}");
    let t = Table::from_csv(&d.join("dups.csv"), b',');
    assert!(t.rows.is_empty(), "{:?}", t.rows);

    scan(
        d,
        &[
            &[p(&s), "last-month.csv"][..],
            &args[..],
            &[
                "-o",
                "v.parquet",
                "--duplicates",
                "dups.csv",
                "--report",
                "r.json",
                "--report",
                "r.md",
                "--report",
                "r.html",
            ],
        ]
        .concat(),
    )
    .ok();
    let t = Table::from_csv(&d.join("dups.csv"), b',');
    assert_eq!(
        t.names,
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
    let rows: Vec<Vec<&str>> = (0..6)
        .map(|i| {
            [
                "cluster",
                "canonical",
                "records",
                "count",
                "input",
                "record",
                "source_column",
                "value_index",
                "first_record",
                "variant",
            ]
            .map(|c| t.get(i, c))
            .to_vec()
        })
        .collect();
    let export = p(&s);
    let doi = "10.1016/j.fcr.2019.107659";
    let want: [[&str; 10]; 6] = [
        [
            "1",
            "10568/1001",
            "2",
            "2",
            export,
            "1",
            "dc.identifier.uri",
            "1",
            "1",
            "same",
        ],
        [
            "1",
            "10568/1001",
            "2",
            "2",
            "last-month.csv",
            "6",
            "dc.identifier.uri",
            "1",
            "1",
            "same",
        ],
        ["2", doi, "2", "4", export, "1", "dc.identifier.uri", "2", "1", "same"],
        ["2", doi, "2", "4", export, "1", "dc.identifier.doi", "1", "1", "form"],
        [
            "2",
            doi,
            "2",
            "4",
            "last-month.csv",
            "6",
            "dc.identifier.uri",
            "2",
            "1",
            "same",
        ],
        [
            "2",
            doi,
            "2",
            "4",
            "last-month.csv",
            "6",
            "dc.identifier.doi",
            "1",
            "1",
            "form",
        ],
    ];
    assert_eq!(rows, want.map(|r| r.to_vec()).to_vec());
    assert_eq!(t.rows.len(), 22);
    let r = read_json(&d.join("r.json"));
    let dups = &r["duplicates"];
    assert_eq!(
        [
            "clusters",
            "records_in_clusters",
            "values_in_clusters",
            "across_inputs",
            "across_columns"
        ]
        .map(|k| dups[k].as_u64().unwrap()),
        [8, 16, 22, 8, 3]
    );
    assert_eq!(
        dups["repeated_in_record"],
        serde_json::json!({"values": 6, "records": 6})
    );
    assert_eq!(dups["file"], "dups.csv");
    assert_eq!(
        (dups["top"][1]["records"].as_u64(), dups["top"][1]["count"].as_u64()),
        (Some(2), Some(4))
    );
    // The pages show each member's record.
    let md = fs::read_to_string(d.join("r.md")).unwrap();
    assert!(
        md.contains("record 1: `https://doi.org/10.1016/j.fcr.2019.107659` (same)"),
        "{md}"
    );
    assert!(md.contains("record 6: `10.1016/j.fcr.2019.107659` (form)"), "{md}");
    let html = fs::read_to_string(d.join("r.html")).unwrap();
    assert!(html.contains("record 6: <code"), "{html}");
    // Parquet, same rows.
    scan(
        d,
        &[
            &[p(&s), "last-month.csv"][..],
            &args[..],
            &["--duplicates", "dups.parquet", "-q"],
        ]
        .concat(),
    )
    .ok();
    let (schema, batches) = read_parquet(&d.join("dups.parquet"));
    assert_eq!(Table::from_batches(&schema, &batches).rows, t.rows);
}

/// A small seeded generator: the same values in several forms, so
/// clusters hold every variant.
fn generated(seed: u64, rows: usize) -> Vec<[String; 3]> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..rows)
        .map(|i| {
            let mut cell = || {
                let n = next() % 400;
                match next() % 7 {
                    0 => format!("10.1000/ab{n}"),
                    1 => format!("https://doi.org/10.1000/AB{n}"),
                    2 => format!("doi:10.1000/ab{n}"),
                    3 => format!("hdl:1721.1/{n}"),
                    4 => format!("http://hdl.handle.net/1721.1/{n}"),
                    5 => format!("10.1000%2Fab{n}"),
                    _ => ["N/A", "", "x"][(n % 3) as usize].to_string(),
                }
            };
            [i.to_string(), cell(), cell()]
        })
        .collect()
}

fn write_csv(path: &Path, rows: &[[String; 3]]) {
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record(["id", "a", "b"]).unwrap();
    for r in rows {
        w.write_record(r).unwrap();
    }
}

/// A cluster member as the naive grouping keeps it: input, record,
/// column, value.
type Member = (String, u64, &'static str, String);

#[test]
fn clusters_equal_a_naive_grouping_across_inputs_and_columns_under_a_tiny_budget() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (one, two) = (generated(7, 1500), generated(11, 1200));
    write_csv(&d.join("one.csv"), &one);
    write_csv(&d.join("two.csv"), &two);
    scan(
        d,
        &[
            "one.csv",
            "two.csv",
            "-c",
            "a",
            "-c",
            "b",
            "--duplicates",
            "dups.csv",
            "--dups-memory-kib",
            "4",
            "--report",
            "r.json",
            "-q",
        ],
    )
    .ok();
    // The naive grouping: every valid value in input order, by canonical.
    let parser = Parser::new(Options::default());
    let (mut sc, mut r) = (Scratch::default(), Rendered::default());
    let mut groups: Vec<(String, Vec<Member>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut record = 0u64;
    for (input, rows) in [("one.csv", &one), ("two.csv", &two)] {
        for row in rows.iter() {
            record += 1;
            for (col, v) in [("a", &row[1]), ("b", &row[2])] {
                let parsed = parser.parse(v.as_bytes(), &mut sc);
                parser.render(&parsed, &mut r);
                let Some(c) = r.canonical() else { continue };
                let i = *index.entry(c.to_string()).or_insert_with(|| {
                    groups.push((c.to_string(), Vec::new()));
                    groups.len() - 1
                });
                groups[i].1.push((input.to_string(), record, col, v.clone()));
            }
        }
    }
    // A cluster is a canonical of two records or more; clusters by their
    // records, then first appearance (groups are in that order).
    let records = |m: &[Member]| {
        let mut r: Vec<(&str, u64)> = m.iter().map(|m| (m.0.as_str(), m.1)).collect();
        r.dedup();
        r.len()
    };
    let mut clusters: Vec<&(String, Vec<Member>)> = groups.iter().filter(|g| records(&g.1) > 1).collect();
    clusters.sort_by_key(|g| std::cmp::Reverse(records(&g.1)));
    let mut want = Vec::new();
    for (n, (canonical, members)) in clusters.iter().enumerate() {
        for (input, rec, col, value) in members {
            let first = members[0].1.to_string();
            want.push(vec![
                (n + 1).to_string(),
                canonical.clone(),
                records(members).to_string(),
                members.len().to_string(),
                input.clone(),
                rec.to_string(),
                col.to_string(),
                value.clone(),
                first,
            ]);
        }
    }
    let t = Table::from_csv(&d.join("dups.csv"), b',');
    let got: Vec<Vec<String>> = (0..t.rows.len())
        .map(|i| {
            [
                "cluster",
                "canonical",
                "records",
                "count",
                "input",
                "record",
                "source_column",
                "value",
                "first_record",
            ]
            .map(|c| t.get(i, c).to_string())
            .to_vec()
        })
        .collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "row {i}");
    }
    // A member equal byte for byte to its cluster's first is `same`.
    for i in 0..t.rows.len() {
        let first = (0..t.rows.len())
            .find(|&j| t.get(j, "cluster") == t.get(i, "cluster"))
            .unwrap();
        assert_eq!(
            t.get(i, "variant") == "same",
            t.get(i, "value") == t.get(first, "value"),
            "row {i}"
        );
    }
    let r = read_json(&d.join("r.json"));
    let dups = &r["duplicates"];
    assert_eq!(dups["clusters"].as_u64(), Some(clusters.len() as u64));
    assert_eq!(dups["values_in_clusters"].as_u64(), Some(want.len() as u64));
    let across = |key: fn(&Member) -> String| {
        clusters
            .iter()
            .filter(|c| c.1.iter().map(key).collect::<std::collections::HashSet<_>>().len() > 1)
            .count() as u64
    };
    assert_eq!(dups["across_inputs"].as_u64(), Some(across(|m| m.0.clone())));
    assert_eq!(dups["across_columns"].as_u64(), Some(across(|m| m.2.to_string())));
    assert_eq!(dups["top"].as_array().unwrap().len(), clusters.len().min(20));
    assert_eq!(dups["top"][0]["canonical"].as_str(), Some(clusters[0].0.as_str()));
    assert_eq!(
        dups["top"][0]["members"].as_array().unwrap().len(),
        clusters[0].1.len().min(10)
    );
}

/// A scan whose duplicates spill (a 4 KiB budget: a temporary file for
/// each of 512 partitions) under a limit of 64 open files: once with a
/// higher hard limit, which the command raises the soft one to, once with
/// the hard limit at 64 too, where the spill takes fewer partitions. Both
/// write the file a run without a limit writes; before, both stopped with
/// "too many open files" (macOS starts processes at 256).
#[cfg(unix)]
#[test]
fn a_low_open_file_limit_still_groups_duplicates() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_csv(&d.join("in.csv"), &generated(5, 3000));
    let run = |out: &str, limit: Option<(u64, bool)>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hdlscan"));
        cmd.current_dir(d).args([
            "scan",
            "in.csv",
            "-c",
            "a",
            "-c",
            "b",
            "--duplicates",
            out,
            "--dups-memory-kib",
            "4",
            "-q",
        ]);
        if let Some((soft, hard_too)) = limit {
            // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    let mut r = libc::rlimit {
                        rlim_cur: 0,
                        rlim_max: 0,
                    };
                    libc::getrlimit(libc::RLIMIT_NOFILE, &mut r);
                    r.rlim_cur = soft;
                    if hard_too {
                        r.rlim_max = soft;
                    }
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{limit:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run("free.csv", None);
    run("soft.csv", Some((64, false)));
    run("hard.csv", Some((64, true)));
    let free = fs::read_to_string(d.join("free.csv")).unwrap();
    assert!(free.lines().count() > 100, "{free}");
    assert_eq!(fs::read_to_string(d.join("soft.csv")).unwrap(), free);
    assert_eq!(fs::read_to_string(d.join("hard.csv")).unwrap(), free);
}

#[test]
fn bad_duplicates_targets_are_usage_errors_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::copy(dspace(), d.join("in.csv")).unwrap();
    let base = ["in.csv", "-c", "dc.identifier.doi"];
    for (extra, needle) in [
        (&["--duplicates", "in.csv"][..], "same file as input"),
        (
            &["-o", "o.csv", "--duplicates", "./o.csv"][..],
            "names the output file o.csv",
        ),
        (
            &["--report", "r.json", "--duplicates", "r.json"][..],
            "names the report file",
        ),
        (&["--duplicates", "d.xlsx"][..], "unknown format"),
    ] {
        scan(d, &[&base[..], extra].concat()).usage_error(&["--duplicates", needle]);
        assert_eq!(entries(d), ["in.csv"], "{extra:?}");
    }
    // The message names every format the file can have, as the help does.
    scan(d, &[&base[..], &["--duplicates", "d.txt"]].concat())
        .usage_error(&[".csv", ".tsv", ".parquet", ".arrow", ".jsonl"]);
}

/// `--duplicates` writes the same rows in each format its help names, the
/// Arrow and JSON Lines of `-o` among them.
#[test]
fn duplicates_in_arrow_and_json_lines_hold_the_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::copy(dspace(), d.join("in.csv")).unwrap();
    fs::copy(dspace(), d.join("last-month.csv")).unwrap();
    let base = ["in.csv", "last-month.csv", "-c", "dc.identifier.uri*", "-q"];
    for name in ["d.csv", "d.jsonl", "d.arrow"] {
        scan(d, &[&base[..], &["--duplicates", name]].concat()).ok();
    }
    let csv = Table::from_csv(&d.join("d.csv"), b',');
    assert!(!csv.rows.is_empty());
    let jsonl = fs::read_to_string(d.join("d.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), csv.rows.len());
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["canonical"], csv.get(0, "canonical"));
    let (_, batches) = crate::scan::read_ipc(&d.join("d.arrow"));
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), csv.rows.len());
}

#[test]
fn an_interrupt_while_writing_duplicates_leaves_nothing() {
    // The pause hook exists in debug builds only (the binary is built with
    // the tests' profile).
    if !cfg!(debug_assertions) {
        eprintln!("note: skipping an_interrupt_while_writing_duplicates_leaves_nothing: needs a debug build");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::copy(dspace(), d.join("in.csv")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(d)
        .args([
            "scan",
            "in.csv",
            "-c",
            "dc.identifier.*",
            "--split",
            "-o",
            "o.csv",
            "--duplicates",
            "dups.csv",
            "--report",
            "r.json",
        ])
        .env("HDLSCAN_TEST_PAUSE", "writing duplicates")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    // Wait for the pause's line, then interrupt.
    let mut seen = Vec::new();
    let start = Instant::now();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("test pause: writing duplicates") {
        let n = stderr.read(&mut buf).unwrap();
        assert!(
            n > 0 && start.elapsed() < Duration::from_secs(60),
            "no pause: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(
        entries(d).iter().any(|n| n.starts_with(".dups.csv.hdlscan-tmp")),
        "{:?}",
        entries(d)
    );
    assert!(
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    let mut rest = String::new();
    let _ = stderr.read_to_string(&mut rest);
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted; no output written"), "{rest}");
    assert_eq!(entries(d), ["in.csv"]);
    assert_no_temp_files(d);
}
