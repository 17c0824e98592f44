//! The spill engine's suite run against the diff: a diff partitioned into
//! temporary files gives what the in-memory join gives, changes, counts
//! and duplicate-key errors alike.

use super::*;
use crate::spill::suite::{User, spill_suite};
use proptest::prelude::*;
use std::fmt::Write as _;

/// One row of a scan's output: its key and what a diff compares.
#[derive(Debug, Clone)]
struct Row {
    id: u32,
    record: Option<u32>,
    kind: &'static str,
    canonical: &'static str,
    error: &'static str,
    warnings: &'static str,
}

fn row() -> impl Strategy<Value = Row> {
    (
        0..60u32,
        proptest::option::of(1..100u32),
        prop::sample::select(&["doi", "handle", "invalid"][..]),
        prop::sample::select(&["", "10.1/a", "10.1/b", "10.2/é"][..]),
        prop::sample::select(&["", "bad_prefix"][..]),
        prop::sample::select(&["", "trimmed", "legacy_resolver;trimmed"][..]),
    )
        .prop_map(|(id, record, kind, canonical, error, warnings)| Row {
            id,
            record,
            kind,
            canonical,
            error,
            warnings,
        })
}

/// Rows with their ids made unique, unless `dups` keeps a repeat.
fn rows(dups: bool) -> impl Strategy<Value = Vec<Row>> {
    proptest::collection::vec(row(), 0..40).prop_map(move |mut rows| {
        if !dups {
            let mut seen = std::collections::HashSet::new();
            rows.retain(|r| seen.insert(r.id));
        }
        rows
    })
}

/// OLD's and NEW's rows, written to `old.csv` and `new.csv` in `dir`.
#[derive(Debug)]
struct Files {
    dir: tempfile::TempDir,
    #[allow(dead_code, reason = "shown when a case fails")]
    old: Vec<Row>,
    #[allow(dead_code, reason = "shown when a case fails")]
    new: Vec<Row>,
}

fn write(path: &std::path::Path, rows: &[Row]) {
    let mut out = format!("id,record,{}\n", crate::columns::SPEC.join(","));
    for r in rows {
        let record = r.record.map(|n| n.to_string()).unwrap_or_default();
        let _ = write!(out, "k{},{record}", r.id);
        for s in crate::columns::SPEC {
            out.push(',');
            out.push_str(match s {
                "kind" => r.kind,
                "canonical" => r.canonical,
                "error" => r.error,
                "warnings" => r.warnings,
                _ => "",
            });
        }
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

fn diff(files: &Files, budget: Budget) -> Result<(Vec<String>, Matched), String> {
    let keys = ["id".to_string()];
    let path = |name: &str| InputSpec::parse(files.dir.path().join(name).to_str().unwrap());
    let mut changes = Vec::new();
    Diff::new(&keys)
        .budget(budget)
        .run(&path("old.csv"), &path("new.csv"), |c| {
            changes.push(format!("{c:?}"));
            Ok(())
        })
        .map(|o| {
            (
                changes,
                Matched {
                    partitions: 0,
                    ..o.matched
                },
            )
        })
        .map_err(|e| e.to_string())
}

struct DiffUser;

impl User for DiffUser {
    type Input = Files;
    type Output = Result<(Vec<String>, Matched), String>;

    fn input() -> BoxedStrategy<Files> {
        (any::<u8>(), any::<u8>())
            .prop_flat_map(|(a, b)| (rows(a % 8 == 0), rows(b % 8 == 0)))
            .prop_map(|(old, new)| {
                let dir = tempfile::tempdir().unwrap();
                write(&dir.path().join("old.csv"), &old);
                write(&dir.path().join("new.csv"), &new);
                Files { dir, old, new }
            })
            .boxed()
    }

    fn run(files: &Files, budget: usize, partitions: usize) -> Self::Output {
        let budget = Budget {
            bytes: budget as u64,
            partitions,
            ..Budget::default()
        };
        diff(files, budget)
    }

    fn held(files: &Files) -> Self::Output {
        diff(files, Budget::default())
    }
}

spill_suite!(DiffUser);
