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
        run.stderr.contains("gate FAILED: invalid>1% (is 2.8713% (87 of 3030))"),
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
        (Some("invalid"), Some(87), Some(3030))
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
        ("nope:invalid>0", "\"nope\" is not a chosen column"),
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
