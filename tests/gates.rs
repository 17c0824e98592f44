//! `scan --fail-if` / `--warn-if`: judged after the run, output and report
//! written either way, exit status 3 when a `--fail-if` holds, 2 for an
//! expression or column that cannot be judged (and nothing written).
//!
//! Run: `cargo test --test tests gates`

use crate::scan::{SAMPLE_ID, assert_no_temp_files, entries, p, read_json, sample, scan};

#[test]
fn a_failed_gate_exits_3_after_writing_everything() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    let run = scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "-o",
            "out.csv",
            "--report",
            "r.json",
            "--fail-if",
            "invalid>1%",
            "--warn-if",
            "legacy_resolver>5%",
            "--fail-if",
            "records<10",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("gate FAILED: invalid>1% (is 2.54% (77 of 3030))"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("gate warning: legacy_resolver>5%"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("records<10"),
        "a gate that does not hold is not named: {}",
        run.stderr
    );
    assert_eq!(entries(d), ["out.csv", "r.json"]);
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["verdict"], "fail");
    let g = &r["gates"][0];
    assert_eq!(
        (g["metric"].as_str(), g["count"].as_u64(), g["denominator"].as_u64()),
        (Some("invalid"), Some(77), Some(3030))
    );
    assert_eq!(
        (g["holds"].as_bool(), g["unit"].as_str()),
        (Some(true), Some("percent"))
    );
    // --fail-if gates first, then --warn-if, each in command-line order.
    assert_eq!(r["gates"][1]["holds"], false);
    assert_eq!(r["gates"][2]["severity"], "warn");
}

#[test]
fn a_warning_gate_alone_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    let run = scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "--report",
            "r.json",
            "--warn-if",
            "placeholder>=61",
            "--fail-if",
            "dc.identifier.uri:valid_of_present<0.95",
        ],
    )
    .ok();
    assert!(run.stderr.contains("gate warning: placeholder>=61"), "{}", run.stderr);
    assert_eq!(read_json(&d.join("r.json"))["verdict"], "warn");
}

#[test]
fn gates_that_cannot_be_judged_are_usage_errors_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    for (gate, needle) in [
        ("invalidd>1", "unknown metric \"invalidd\""),
        ("invalid=1", "OP"),
        ("records>1%", "a count"),
        ("nope:invalid>0", "no column named 'nope' in the chosen columns"),
    ] {
        scan(
            d,
            &[
                p(&s),
                "-c",
                SAMPLE_ID,
                "-o",
                "out.csv",
                "--report",
                "r.json",
                "--fail-if",
                gate,
            ],
        )
        .usage_error(&[needle]);
        assert!(entries(d).is_empty(), "{gate}: {:?}", entries(d));
    }
    assert_no_temp_files(d);
}

/// A typo in a metric names the metric meant, and the list of metrics
/// names each once (`empty` and `placeholder` are totals and codes).
#[test]
fn an_unknown_metric_names_the_nearest_and_lists_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    let err = scan(d, &[p(&s), "-c", SAMPLE_ID, "--fail-if", "invalidd>1%"])
        .usage_error(&["unknown metric \"invalidd\" (did you mean 'invalid'?); metrics are: "]);
    let list = err.split("metrics are: ").nth(1).unwrap().trim();
    let names: Vec<&str> = list.split(", ").collect();
    for name in ["empty", "placeholder", "invalid", "extra_text", "legacy_resolver"] {
        assert_eq!(names.iter().filter(|n| **n == name).count(), 1, "{name} in {list}");
    }
    scan(d, &[p(&s), "-c", SAMPLE_ID, "--warn-if", "legacy_resolvr>5%"])
        .usage_error(&["(did you mean 'legacy_resolver'?)"]);
}

#[test]
fn baseline_changes_and_change_gates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    let all = std::fs::read_to_string(&s).unwrap();
    // Last night: the export without its last 500 lines.
    let lines: Vec<&str> = all.lines().collect();
    std::fs::write(d.join("old.csv"), lines[..lines.len() - 500].join("\n") + "\n").unwrap();
    scan(d, &["old.csv", "-c", SAMPLE_ID, "--report", "audit.json", "-q"]).ok();
    let then = read_json(&d.join("audit.json"));
    // Tonight: the whole export, replacing the report it compares with.
    let run = scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "--baseline",
            "audit.json",
            "--report",
            "audit.json",
            "--report",
            "audit.md",
            "--fail-if",
            "change:invalid>0",
            "--warn-if",
            "change:records<0",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let now = read_json(&d.join("audit.json"));
    let c = &now["changes"];
    assert_eq!(
        (c["same_tool"].as_bool(), c["same_options"].as_bool()),
        (Some(true), Some(true))
    );
    let metric = |name: &str| {
        c["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == name)
            .unwrap()
            .clone()
    };
    let inv = |r: &serde_json::Value| r["present"].as_u64().unwrap() - r["valid"].as_u64().unwrap();
    assert_eq!(metric("invalid")["then"].as_f64(), Some(inv(&then) as f64));
    assert_eq!(
        metric("invalid")["change"].as_f64(),
        Some(inv(&now) as f64 - inv(&then) as f64)
    );
    assert_eq!(metric("records")["now"], now["records"].as_f64().unwrap());
    let g = &now["gates"][0];
    assert_eq!(
        (g["holds"].as_bool(), g["then"].as_f64()),
        (Some(true), Some(inv(&then) as f64))
    );
    assert_eq!(now["gates"][1]["holds"], false, "records grew");
    assert!(
        std::fs::read_to_string(d.join("audit.md"))
            .unwrap()
            .contains("## Since `audit.json`")
    );
    // A change gate needs a baseline; a baseline must be a v2 report.
    scan(d, &[p(&s), "-c", SAMPLE_ID, "--fail-if", "change:invalid>0"]).usage_error(&["--baseline"]);
    std::fs::write(d.join("v1.json"), r#"{"version": 1, "rows": 3}"#).unwrap();
    scan(d, &[p(&s), "-c", SAMPLE_ID, "--baseline", "v1.json"]).fails_with(&["v1.json", "schema version 1"]);
    scan(d, &[p(&s), "-c", SAMPLE_ID, "--baseline", "old.csv"]).fails_with(&["old.csv", "not a JSON report"]);
    std::fs::write(d.join("other.json"), r#"{"doi": "10.1000/182"}"#).unwrap();
    let msg =
        scan(d, &[p(&s), "-c", SAMPLE_ID, "--baseline", "other.json"]).fails_with(&["other.json", "not a JSON report"]);
    assert!(!msg.contains("version 0"), "{msg}");
    // diff's JSON report, kept beside scan's by a nightly job, is named as
    // what it is, not as a scan report of an old version to run again.
    scan(d, &["old.csv", "-c", SAMPLE_ID, "-o", "old-out.csv", "-q"]).ok();
    let diff = std::process::Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(d)
        .args(["diff", "old-out.csv", "old-out.csv", "--key", "record"])
        .args(["--report", "changes.json", "-q"])
        .status()
        .unwrap();
    assert!(diff.success());
    let run = scan(d, &[p(&s), "-c", SAMPLE_ID, "--baseline", "changes.json"]);
    let msg = run.fails_with(&["changes.json", "hdlscan diff", "scan --report"]);
    assert!(!msg.contains("schema version"), "{msg}");
}

/// A change gate judged against a baseline made with other options
/// (`--repair` on one night only) says so on stderr, in the summary and in
/// `-q`'s one line: the change may be the options', not the data's.
#[test]
fn a_baseline_made_otherwise_is_said_beside_a_failed_change_gate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    scan(
        d,
        &[p(&s), "-c", SAMPLE_ID, "--repair", "--report", "repaired.json", "-q"],
    )
    .ok();
    scan(d, &[p(&s), "-c", SAMPLE_ID, "--report", "plain.json", "-q"]).ok();
    let note = "note: repaired.json: the baseline was made by hdlscan";
    let tonight = |baseline: &str, quiet: bool| {
        let mut args = vec![
            p(&s),
            "-c",
            SAMPLE_ID,
            "--baseline",
            baseline,
            "--fail-if",
            "change:invalid>0",
        ];
        if quiet {
            args.push("-q");
        }
        let run = scan(d, &args);
        assert_eq!(run.code, 3, "{}", run.stderr);
        run.stderr
    };
    let summary = tonight("repaired.json", false);
    assert!(summary.contains(&format!("\n  {note}")), "{summary}");
    assert!(
        summary.contains("with other options; a change may be theirs"),
        "{summary}"
    );
    let quiet = tonight("repaired.json", true);
    assert!(quiet.starts_with("hdlscan: gate FAILED: change:invalid>0"), "{quiet}");
    assert!(quiet.contains(&format!("; {note}")), "{quiet}");
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
    // The same options: no note.
    let run = scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "--baseline",
            "plain.json",
            "--fail-if",
            "change:invalid<0",
        ],
    );
    assert!(!run.stderr.contains("a change may be theirs"), "{}", run.stderr);
    // Another column chosen tonight: every change of the totals may be the
    // column's, so it is said as other options are.
    let run = scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "-c",
            "dc.title",
            "--baseline",
            "plain.json",
            "--fail-if",
            "change:values>0",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("with other options; a change may be theirs"),
        "{}",
        run.stderr
    );
}

fn nightly() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/nightly")
}

/// The nightly job of a DSpace repository: tonight one DOI of last night's
/// export became `N/A`. Nothing became invalid (a placeholder is not an
/// invalid identifier), so `change:invalid>0` passes; the gates on what was
/// lost fail, a pattern selects the DOI columns as `-c` does, and `-q`
/// still says why in one line.
#[test]
fn a_doi_that_became_n_a_fails_the_nightly_gates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = nightly();
    let columns = ["-c", "dc.identifier.uri*", "-c", "dc.identifier.doi*", "--split", "||"];
    let last = n.join("last-night.csv");
    scan(
        d,
        &[&[p(&last)][..], &columns[..], &["--report", "audit.json", "-q"]].concat(),
    )
    .ok();
    let tonight = n.join("tonight.csv");
    let gates = [
        "--fail-if",
        "change:invalid>0",
        "--fail-if",
        "change:valid<0",
        "--fail-if",
        "change:dc.identifier.d*:placeholder>0",
        "--warn-if",
        "change:clusters<0",
    ];
    let args = [
        &[p(&tonight)][..],
        &columns[..],
        &["--baseline", "audit.json", "--report", "now.json", "--report", "now.md"],
        &gates[..],
    ]
    .concat();
    let run = scan(d, &[&args[..], &["-q"]].concat());
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        "hdlscan: gate FAILED: change:valid<0 (is -1 since the baseline's 8); \
         gate FAILED: change:dc.identifier.d*:placeholder>0 (is +1 since the baseline's 0)"
    );
    let r = read_json(&d.join("now.json"));
    let holds: Vec<bool> = r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["holds"].as_bool().unwrap())
        .collect();
    assert_eq!(holds, [false, true, true, true]);
    assert_eq!(r["gates"][2]["column"], "dc.identifier.d*");
    let metric = |name: &str| {
        let m = r["changes"]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == name)
            .unwrap();
        (m["then"].as_f64().unwrap(), m["now"].as_f64().unwrap())
    };
    for (name, then, now) in [
        ("records", 4.0, 4.0),
        ("values", 9.0, 9.0),
        ("present", 8.0, 7.0),
        ("empty", 1.0, 1.0),
        ("placeholder", 0.0, 1.0),
        ("valid", 8.0, 7.0),
        ("invalid", 0.0, 0.0),
        ("clusters", 1.0, 0.0),
        ("repeated_in_record", 1.0, 1.0),
    ] {
        assert_eq!(metric(name), (then, now), "{name}");
    }
    let md = std::fs::read_to_string(d.join("now.md")).unwrap();
    assert!(md.contains("| placeholder | 0 | 1 | +1 |"), "{md}");
    // Without -q, the summary gives the three apart.
    let run = scan(d, &args);
    assert!(
        run.stderr.contains(
            "1 empty (11.11%), 1 placeholder (11.11%), 7 present (77.78%): 7 valid (100.00%), 0 invalid (0.00%)"
        ),
        "{}",
        run.stderr
    );
}

/// A baseline written by the previous report version (2, committed as
/// `main` wrote it) is still read: its totals are the same counts.
#[test]
fn a_version_2_baseline_is_still_compared() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = nightly();
    std::fs::copy(n.join("audit-v2.json"), d.join("audit.json")).unwrap();
    let tonight = n.join("tonight.csv");
    let run = scan(
        d,
        &[
            p(&tonight),
            "-c",
            "dc.identifier.uri*",
            "-c",
            "dc.identifier.doi*",
            "--split",
            "||",
            "--baseline",
            "audit.json",
            "--report",
            "now.json",
            "--fail-if",
            "change:placeholder>0",
            "-q",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let r = read_json(&d.join("now.json"));
    let c = &r["changes"];
    assert_eq!(c["same_tool"], false, "another report version");
    let m: Vec<(String, f64, f64)> = c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["metric"].as_str().unwrap().to_string(),
                m["then"].as_f64().unwrap(),
                m["now"].as_f64().unwrap(),
            )
        })
        .collect();
    for want in [
        ("valid", 8.0, 7.0),
        ("empty", 1.0, 1.0),
        ("placeholder", 0.0, 1.0),
        ("invalid", 0.0, 0.0),
    ] {
        assert!(m.contains(&(want.0.to_string(), want.1, want.2)), "{want:?} in {m:?}");
    }
}

/// A gate's COLUMN takes `-c`'s selectors: a header with a no-break space
/// is found trimmed, a pattern sums its columns.
#[test]
fn gate_columns_are_selected_as_columns_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("in.csv"), "id,doi\u{a0},DOI2\n1,10.1/x,N/A\n2,,10.1/y\n").unwrap();
    let r = |gate: &str| {
        let run = scan(
            d,
            &[
                "in.csv",
                "-c",
                "2",
                "-c",
                "3",
                "--report",
                "r.json",
                "-q",
                "--fail-if",
                gate,
            ],
        );
        assert_ne!(run.code, 2, "{gate}: {}", run.stderr);
        let r = read_json(&d.join("r.json"));
        (
            r["gates"][0]["count"].as_u64().unwrap(),
            r["gates"][0]["holds"].as_bool().unwrap(),
        )
    };
    assert_eq!(r("doi:empty>0"), (1, true));
    assert_eq!(r("doi2:placeholder>0"), (1, true));
    assert_eq!(r("d*:valid<3"), (1, true));
    assert_eq!(r("*:present>=2"), (2, true));
}

/// How the input was read is gated as the totals are: a nightly job that
/// skips bad JSON lines or pads short rows can fail when it had to
/// (`skipped_lines>0` was an unknown metric though the README said every
/// total is one).
#[test]
fn reading_counts_are_run_gates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("in.jsonl"),
        "{\"id\":\"10.1/a\"}\nnot json\n{\"id\":\"10.1/b\"}\n",
    )
    .unwrap();
    std::fs::write(d.join("in.csv"), "a,id\n1,10.1/a\n2\n").unwrap();
    let run = scan(
        d,
        &[
            "in.jsonl",
            "-c",
            "id",
            "--skip-bad-lines",
            "--report",
            "r.json",
            "--fail-if",
            "skipped_lines>0",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("gate FAILED: skipped_lines>0 (is 1)"),
        "{}",
        run.stderr
    );
    assert_eq!(read_json(&d.join("r.json"))["gates"][0]["metric"], "skipped_lines");
    let run = scan(
        d,
        &[
            "in.csv",
            "-c",
            "id",
            "--ragged",
            "pad",
            "--fail-if",
            "padded_rows>=2",
            "--warn-if",
            "padded_rows>0",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("gate warning: padded_rows>0"), "{}", run.stderr);
    scan(
        d,
        &["in.csv", "-c", "id", "--ragged", "pad", "--fail-if", "lossy_cells>0"],
    )
    .ok();
    // Counts of the run: no share, no column.
    scan(d, &["in.csv", "-c", "id", "--fail-if", "padded_rows>1%"]).usage_error(&["padded_rows is a count"]);
    scan(d, &["in.csv", "-c", "id", "--fail-if", "id:lossy_cells>0"]).usage_error(&["counted for the run"]);
}

/// A nightly job that adds a column with its own `change:` gate: the
/// column held nothing in the baseline, so its whole count is the change,
/// judged and said beside the baseline's other columns. It was a usage
/// error that wrote nothing, so the report the next night compares with
/// never got the column and the job failed the same way every night.
#[test]
fn a_column_new_since_the_baseline_starts_from_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("in.csv"),
        "id,url\n10.1/a,10.1/a x\n10.1/b,https://doi.org/10.1/b\n",
    )
    .unwrap();
    scan(d, &["in.csv", "-c", "id", "--report", "night1.json", "-q"]).ok();
    let gate = ["--fail-if", "change:url:invalid>0", "--warn-if", "change:id:invalid>0"];
    let night2 = |baseline: &str, report: &str| {
        let mut args = vec![
            "in.csv",
            "-c",
            "id",
            "-c",
            "url",
            "--baseline",
            baseline,
            "--report",
            report,
        ];
        args.extend(gate);
        scan(d, &args)
    };
    let run = night2("night1.json", "night2.json");
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("gate FAILED: change:url:invalid>0"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("a change may be theirs"), "{}", run.stderr);
    let r = read_json(&d.join("night2.json"));
    assert_eq!(
        (r["gates"][0]["then"].as_f64(), r["gates"][0]["value"].as_f64()),
        (Some(0.0), Some(1.0))
    );
    assert_eq!(r["gates"][1]["holds"], false);
    // The next night compares with a report that has the column.
    let run = night2("night2.json", "night3.json");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A `change:` gate with a percentage compares shares, in percentage
/// points: the line says so, with both shares (it said `+33.333333 since
/// the baseline's 0`, which read as a count).
#[test]
fn a_change_of_a_share_is_said_in_points() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("then.csv"), "id\n10.1/a\n10.1/b\n10.1/c\n").unwrap();
    std::fs::write(d.join("now.csv"), "id\n10.1/a\n10.1/b\n10.1/c d\n").unwrap();
    scan(d, &["then.csv", "-c", "id", "--report", "then.json", "-q"]).ok();
    let run = scan(
        d,
        &[
            "now.csv",
            "-c",
            "id",
            "--baseline",
            "then.json",
            "--fail-if",
            "change:invalid>10%",
            "-q",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("gate FAILED: change:invalid>10% (is +33.33 points since the baseline's 0.00%, now 33.33%)"),
        "{}",
        run.stderr
    );
}
