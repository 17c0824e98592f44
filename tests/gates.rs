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
        run.stderr.contains("gate FAILED: invalid>1% (is 2.5413% (77 of 3030))"),
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
        ("nope:invalid>0", "\"nope\" is not one of the chosen columns"),
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
}
