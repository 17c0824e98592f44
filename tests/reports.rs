//! The report's three printers, JSON, Markdown and HTML, from one run:
//! the same figures in each, values from the data escaped (HTML) and
//! shown with invisible characters as escapes, and a page of bounded size
//! whatever the input.
//!
//! Run: `cargo test --test tests reports`

use crate::scan::{SAMPLE_ID, p, read_json, sample, scan};
use std::fs;

#[test]
fn json_markdown_and_html_tell_the_same_figures() {
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
            "--report",
            "r.md",
            "--report",
            "r.html",
            "--warn-if",
            "invalid>1%",
        ],
    )
    .ok();
    drop(run);
    let j = read_json(&d.join("r.json"));
    let md = fs::read_to_string(d.join("r.md")).unwrap();
    let html = fs::read_to_string(d.join("r.html")).unwrap();
    assert!(md.starts_with("# hdlscan report: WARN"), "{}", &md[..100]);
    for k in ["records", "values", "present", "valid"] {
        let row = format!("| {k} | {} |", j[k]);
        assert!(md.contains(&row), "markdown lacks {row}");
        let cell = format!("<td>{k}</td><td class=\"n\">{}</td>", j[k]);
        assert!(html.contains(&cell), "html lacks {cell}");
    }
    let placeholders = j["errors"]["placeholder"]["count"].as_u64().unwrap();
    assert!(md.contains(&format!("| `placeholder` | {placeholders} |")));
    // The order the issue gives: verdict and gates, totals, kinds, codes,
    // prefixes, hosts, then the run.
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?}"));
    assert!(at("| gate |") < at("## Totals") && at("## Totals") < at("## By kind"));
    assert!(at("## By kind") < at("## Errors") && at("## Errors") < at("## Warnings"));
    assert!(at("## Warnings") < at("## Top prefixes") && at("## Resolver hosts") < at("## Run"));
    // Invisible characters in examples are shown as escapes.
    assert!(md.contains("\\u200b") && html.contains("\\u200b"));
    assert!(!md.contains('\u{200b}') && !html.contains('\u{200b}'));
    // Self-contained: no script, no network.
    for fetch in ["<script", "<link", " src=", " href=", "url(", "@import"] {
        assert!(!html.contains(fetch), "the page loads something: {fetch}");
    }
    assert!(html.contains("<svg") && html.contains("<title>By kind</title>"));
    // The JSON reads back into the typed model, whole: `--baseline` and
    // `diff --old-report` read it so.
    let back: hdlscan::Report = serde_json::from_value(j.clone()).unwrap();
    assert_eq!(back.to_json(), j, "the report reads back as it was written");
}

#[test]
fn html_escapes_every_value_from_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "10.1000/<b>x</b>",
        "'><svg onload=alert(1)>",
    ];
    let mut csv = String::from("\"<i>id</i>\",doi\n");
    for (i, h) in hostile.iter().enumerate() {
        csv.push_str(&format!("{i},\"{}\"\n", h.replace('"', "\"\"")));
    }
    fs::write(d.join("in.csv"), csv).unwrap();
    scan(
        d,
        &[
            "in.csv",
            "-c",
            "doi",
            "-c",
            "<i>id</i>",
            "--report",
            "r.html",
            "--report",
            "r.md",
        ],
    )
    .ok();
    let html = fs::read_to_string(d.join("r.html")).unwrap();
    for bad in ["<script", "<img", "<svg onload", "<b>", "<i>"] {
        assert!(!html.contains(bad), "unescaped {bad:?} in the page");
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("&lt;i&gt;id&lt;/i&gt;"), "a column name is data too");
}

#[test]
fn pages_stay_small_on_wide_and_varied_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 3,000 columns, each cell a URL on its own host: every list is long.
    let n = 3000;
    let header: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    let mut rows = String::new();
    for r in 0..4 {
        let row: Vec<String> = (0..n)
            .map(|i| format!("https://repo{i}-{r}.example.org/handle/1721.1/{i}x{}", "y".repeat(150)))
            .collect();
        rows.push_str(&row.join(","));
        rows.push('\n');
    }
    fs::write(d.join("in.csv"), format!("{}\n{rows}", header.join(","))).unwrap();
    scan(
        d,
        &["in.csv", "-c", "*", "--report", "r.md", "--report", "r.html", "-q"],
    )
    .ok();
    for f in ["r.md", "r.html"] {
        let len = fs::metadata(d.join(f)).unwrap().len();
        assert!(len < 1 << 20, "{f}: {len} bytes");
        let text = fs::read_to_string(d.join(f)).unwrap();
        assert!(
            text.contains("more columns") && text.contains("more rows"),
            "{f} says what it left out"
        );
    }
}

/// Where the fix is known the report says it: bytes that are not UTF-8
/// (an Excel export's no-break space after a DOI, in Windows-1252) name
/// `--encoding windows-1252`, and DSpace's `||` cells name `--split '||'`;
/// given those, no note.
#[test]
fn hints_name_the_flag_that_fixes_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("in.csv"),
        b"id,dc.identifier.doi\n1,10.1/a||10.1/b\n2,10.1/x\xa0\n3,10.1/y\n",
    )
    .unwrap();
    let run = scan(d, &["in.csv", "-c", "dc.identifier.doi", "--report", "r.json"]);
    let encoding = "column \"dc.identifier.doi\": 1 values are not UTF-8 (bad_utf8): if the file is Windows-1252 or \
                    Latin-1, try `--encoding windows-1252`";
    let split = "column \"dc.identifier.doi\": 1 values hold several identifiers joined by `||` (multiple_values): \
                 add `--split '||'`";
    let notes = read_json(&d.join("r.json"))["notes"].clone();
    assert_eq!(notes, serde_json::json!([encoding, split]));
    assert!(run.stderr.contains(&format!("note: {encoding}")), "{}", run.stderr);
    assert!(run.stderr.contains(&format!("note: {split}")), "{}", run.stderr);
    scan(
        d,
        &[
            "in.csv",
            "-c",
            "dc.identifier.doi",
            "--encoding",
            "windows-1252",
            "--split",
            "||",
            "--report",
            "r.json",
        ],
    )
    .ok();
    assert_eq!(read_json(&d.join("r.json"))["notes"], serde_json::json!([]));
}
