//! The HTML report in a real browser: headless Chromium renders the
//! sample's report to a screenshot and to its DOM text, and the figures of
//! the JSON report must be in the text. `.ci/run` installs Debian's
//! Chromium and sets `HDLSCAN_REQUIRE_CHROMIUM`, so there a missing
//! browser fails the test; elsewhere it prints a note and passes.
//!
//! Run: `cargo test --test tests browser`

use crate::scan::{SAMPLE_ID, p, read_json, sample, scan};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("HDLSCAN_REQUIRE_CHROMIUM").is_none(),
            "Chromium is required here but not found"
        );
        eprintln!("note: no Chromium on this machine; the browser test is skipped (.ci/run installs it)");
    }
    found
}

/// Runs headless Chromium on `page` with `args`; returns stdout.
fn headless(browser: &str, page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text a reader sees: the DOM without its tags and entities.
fn text_of(dom: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in dom.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_sample_report_renders_with_its_figures() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = sample();
    scan(
        d,
        &[
            p(&s),
            "-c",
            SAMPLE_ID,
            "--report",
            "r.html",
            "--report",
            "r.json",
            "--fail-if",
            "invalid>1%",
            "-q",
        ],
    );
    let page = d.join("r.html");
    let shot = d.join("shot.png");
    headless(
        browser,
        &page,
        &["--window-size=1100,2400", &format!("--screenshot={}", shot.display())],
    );
    let png = fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "a screenshot of a drawn page ({} bytes)",
        png.len()
    );
    let text = text_of(&headless(browser, &page, &["--dump-dom"]));
    let j = read_json(&d.join("r.json"));
    assert!(text.contains("FAIL"), "the verdict");
    for k in ["records", "values", "present", "valid"] {
        let n = j[k].as_u64().unwrap().to_string();
        assert!(text.contains(&format!("{k} {n}")), "the page's text lacks {k} {n}");
    }
    for (code, c) in j["errors"].as_object().unwrap() {
        assert!(text.contains(code.as_str()), "{code}");
        assert!(text.contains(&c["count"].to_string()), "{code}'s count");
    }
    assert!(text.contains("2.5413% (77 of 3030)"), "the gate's value");
}
