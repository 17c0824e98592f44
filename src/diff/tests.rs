//! The spill engine's suite run against the diff: a diff partitioned into
//! temporary files gives what the in-memory join gives, changes, counts
//! and duplicate-key errors alike.

use super::*;
use crate::spill::suite::{User, spill_suite};
use proptest::prelude::*;

/// A row of a scan's output: its key (`id`), `record`, and SPEC's columns
/// with the four a diff compares filled in.
fn row() -> impl Strategy<Value = (u32, String)> {
    let pick = |v: &'static [&'static str]| prop::sample::select(v);
    (
        0..60u32,
        proptest::option::of(1..100u32),
        pick(&["doi", "handle", "invalid"]),
        pick(&["", "10.1/a", "10.1/b", "10.2/é"]),
        pick(&["", "bad_prefix"]),
        pick(&["", "trimmed", "legacy_resolver;trimmed"]),
    )
        .prop_map(|(id, record, kind, canonical, error, warnings)| {
            let record = record.map(|n| n.to_string()).unwrap_or_default();
            let spec = crate::columns::SPEC.map(|s| match s {
                "kind" => kind,
                "canonical" => canonical,
                "error" => error,
                "warnings" => warnings,
                _ => "",
            });
            (id, format!("k{id},{record},{}\n", spec.join(",")))
        })
}

/// Rows with their ids made unique, unless `dups` keeps a repeat.
fn rows(dups: bool) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(row(), 0..40).prop_map(move |mut rows| {
        let mut seen = std::collections::HashSet::new();
        rows.retain(|(id, _)| dups || seen.insert(*id));
        rows.into_iter().map(|(_, line)| line).collect()
    })
}

/// OLD's and NEW's rows, written to `old.csv` and `new.csv` in `dir`.
#[derive(Debug)]
struct Files {
    dir: tempfile::TempDir,
    #[allow(dead_code, reason = "shown when a case fails")]
    rows: (Vec<String>, Vec<String>),
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
            .prop_map(|rows| {
                let dir = tempfile::tempdir().unwrap();
                let header = format!("id,record,{}\n", crate::columns::SPEC.join(","));
                for (name, rows) in [("old.csv", &rows.0), ("new.csv", &rows.1)] {
                    std::fs::write(dir.path().join(name), header.clone() + &rows.concat()).unwrap();
                }
                Files { dir, rows }
            })
            .boxed()
    }

    fn run(files: &Files, budget: Budget) -> Self::Output {
        diff(files, budget)
    }

    fn held(files: &Files) -> Self::Output {
        diff(files, Diff::BUDGET)
    }
}

spill_suite!(DiffUser);
