//! Replays `testdata/conformance.json` and `testdata/conformance/*.json`
//! (the conformance corpus of SPEC.md)
//! against the parser, in the spirit of rust-url's `urltestdata.json`.
//!
//! Each case names an `input` (or `input_hex` for bytes that are not UTF-8),
//! optional `options` (`repair`, `max_len`, `resolvers`, `expect`) and an `expect`
//! object. A key absent from `expect` is not checked; `null` means the field
//! must be absent; `warnings` is compared as an exact set.
//!
//! Every mismatch of every case is collected and reported together. Cases
//! listed in `testdata/conformance_xfail.txt` are known failures: they must
//! still fail, and the test fails when one starts passing, so the list
//! shrinks as the parser is fixed.
//!
//! Run: `cargo test -p hdlscan-id --test conformance`

use hdlscan_id::{ErrorCode, Kind, Options, Parser, Rendered, Scratch, Warning, laws};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Once;

/// The corpus must not silently shrink: cases beyond the SPEC §5 table.
const MIN_OWN_CASES: usize = 300;

/// Every key `expect` may hold.
const FIELDS: &[&str] = &[
    "kind",
    "error",
    "warnings",
    "namespace",
    "prefix",
    "suffix",
    "resolver",
    "query",
    "fragment",
    "info_identifier",
    "canonical",
    "uri",
    "url",
];

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

/// The cases of `testdata/conformance.json` (SPEC v1's corpus and the §5
/// rows), then of each file in `testdata/conformance/` by name (SPEC v2's
/// cases, a file per section), all in one list.
fn load_corpus() -> Vec<Value> {
    let mut files = vec![testdata("conformance.json")];
    let dir = testdata("conformance");
    let mut more: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    more.sort();
    files.extend(more);
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let more = doc
            .get("cases")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("{}: no \"cases\" array", path.display()));
        cases.extend(more.iter().cloned());
    }
    cases
}

/// `id -> reason` from the xfail list: one id per line, then the reason;
/// blank lines and lines starting with `#` are ignored.
fn load_xfail() -> BTreeMap<String, String> {
    let path = testdata("conformance_xfail.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        assert!(
            out.insert(id.to_string(), reason.trim().to_string()).is_none(),
            "conformance_xfail.txt lists {id} twice"
        );
    }
    out
}

fn hex_decode(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(s.len().is_multiple_of(2), "odd-length input_hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|_| panic!("bad input_hex {s:?}")))
        .collect()
}

/// Structural problems of a case (bad keys, unknown code names): these are
/// corpus bugs and fail the test outright, xfail or not.
fn lint_case(case: &Value, problems: &mut Vec<String>) {
    let id = case.get("id").and_then(Value::as_str).unwrap_or("<no id>");
    let Some(obj) = case.as_object() else {
        problems.push(format!("{id}: case is not an object"));
        return;
    };
    for k in obj.keys() {
        if !["id", "input", "input_hex", "options", "expect", "note"].contains(&k.as_str()) {
            problems.push(format!("{id}: unknown case key {k:?}"));
        }
    }
    if obj.contains_key("input") == obj.contains_key("input_hex") {
        problems.push(format!("{id}: exactly one of input / input_hex is required"));
    }
    if let Some(o) = obj.get("options") {
        for (k, v) in o.as_object().into_iter().flatten() {
            let ok = match k.as_str() {
                "repair" => v.is_boolean(),
                "max_len" => v.is_u64(),
                "resolvers" | "expect" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
                _ => false,
            };
            if !ok {
                problems.push(format!("{id}: bad option {k:?} = {v}"));
            }
        }
    }
    let Some(exp) = obj.get("expect").and_then(Value::as_object) else {
        problems.push(format!("{id}: no expect object"));
        return;
    };
    for (k, v) in exp {
        if !FIELDS.contains(&k.as_str()) {
            problems.push(format!("{id}: unknown expect key {k:?}"));
            continue;
        }
        match k.as_str() {
            "kind" => {
                if v.as_str().and_then(Kind::from_name).is_none() {
                    problems.push(format!("{id}: unknown kind {v}"));
                }
            }
            "error" => {
                if !v.is_null() && v.as_str().and_then(ErrorCode::from_name).is_none() {
                    problems.push(format!("{id}: unknown error code {v}"));
                }
            }
            "warnings" => match v.as_array() {
                Some(ws) => {
                    for w in ws {
                        if w.as_str().and_then(Warning::from_name).is_none() {
                            problems.push(format!("{id}: unknown warning code {w}"));
                        }
                    }
                }
                None => problems.push(format!("{id}: warnings must be an array")),
            },
            _ => {
                if !v.is_null() && !v.is_string() {
                    problems.push(format!("{id}: {k} must be a string or null"));
                }
            }
        }
    }
}

fn build_parser(opts: Option<&Map<String, Value>>) -> Result<Parser, String> {
    let mut o = Options::default();
    if let Some(m) = opts {
        if let Some(r) = m.get("repair").and_then(Value::as_bool) {
            o.repair = r;
        }
        if let Some(n) = m.get("max_len").and_then(Value::as_u64) {
            o.max_len = n as usize;
        }
        for r in m.get("resolvers").and_then(Value::as_array).into_iter().flatten() {
            o.add_resolver(r.as_str().unwrap_or_default())?;
        }
        for ns in m.get("expect").and_then(Value::as_array).into_iter().flatten() {
            o.expect(ns.as_str().unwrap_or_default())?;
        }
    }
    Ok(Parser::new(o))
}

/// What the parser gives for one case, as JSON values keyed like `expect`.
fn actual(parser: &Parser, input: &[u8]) -> BTreeMap<&'static str, Value> {
    let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
    let p = parser.parse(input, &mut scratch);
    parser.render(&p, &mut out);
    let s = |v: Option<&str>| v.map_or(Value::Null, |x| Value::String(x.to_string()));
    let mut m = BTreeMap::new();
    m.insert("kind", Value::String(p.kind.as_str().to_string()));
    m.insert("error", s(p.error.map(|e| e.as_str())));
    m.insert(
        "warnings",
        Value::Array(
            p.warnings
                .iter()
                .map(|w| Value::String(w.as_str().to_string()))
                .collect(),
        ),
    );
    m.insert("namespace", s(p.namespace));
    m.insert("prefix", s(p.prefix));
    m.insert("suffix", s(p.suffix));
    m.insert("resolver", s(p.resolver));
    m.insert("query", s(p.query));
    m.insert("fragment", s(p.fragment));
    m.insert("info_identifier", s(p.info_identifier));
    m.insert("canonical", s(out.canonical()));
    m.insert("uri", s(out.uri()));
    m.insert("url", s(out.url()));
    m
}

/// At most 200 characters of `s`, for readable reports.
fn short(s: &str) -> String {
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…({} chars)", &s[..i], s.chars().count()),
        None => s.to_string(),
    }
}

fn warning_set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str().map(str::to_string))
        .collect()
}

thread_local!(static QUIET_PANICS: Cell<bool> = const { Cell::new(false) });

/// A parser panic is recorded as a mismatch of its case; keep the default
/// hook from printing a message (and backtrace) per case, on this thread only.
fn quiet_panics_on_this_thread() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET_PANICS.with(Cell::get) {
                prev(info)
            }
        }));
    });
}

/// The mismatches of one case: `(field, expected, got)`.
fn run_case(case: &Value) -> Vec<(String, String, String)> {
    let input = match (
        case.get("input").and_then(Value::as_str),
        case.get("input_hex").and_then(Value::as_str),
    ) {
        (Some(s), _) => s.as_bytes().to_vec(),
        (None, Some(h)) => hex_decode(h),
        _ => unreachable!("linted"),
    };
    let parser = match build_parser(case.get("options").and_then(Value::as_object)) {
        Ok(p) => p,
        Err(e) => return vec![("options".into(), "resolvers accepted".into(), e)],
    };
    QUIET_PANICS.with(|q| q.set(true));
    let got = catch_unwind(AssertUnwindSafe(|| actual(&parser, &input)));
    QUIET_PANICS.with(|q| q.set(false));
    let got = match got {
        Ok(g) => g,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            return vec![("<panic>".into(), "no panic".into(), msg)];
        }
    };
    let mut bad = Vec::new();
    for (k, want) in case["expect"].as_object().expect("linted") {
        let have = &got[k.as_str()];
        let same = if k == "warnings" {
            warning_set(want) == warning_set(have)
        } else {
            want == have
        };
        if !same {
            bad.push((k.clone(), want.to_string(), have.to_string()));
        }
    }
    bad
}

#[test]
fn conformance_corpus() {
    let cases = load_corpus();
    let xfail = load_xfail();

    let mut problems = Vec::new();
    let mut ids = BTreeSet::new();
    for case in &cases {
        lint_case(case, &mut problems);
        let id = case.get("id").and_then(Value::as_str).unwrap_or("");
        if id.is_empty() {
            problems.push(format!("case without id: {case}"));
        } else if !ids.insert(id.to_string()) {
            problems.push(format!("duplicate id {id}"));
        }
    }
    for id in xfail.keys() {
        if !ids.contains(id) {
            problems.push(format!("conformance_xfail.txt lists {id}, which is not in the corpus"));
        }
    }
    let own = ids.iter().filter(|id| !id.starts_with("spec-5-")).count();
    if own < MIN_OWN_CASES {
        problems.push(format!(
            "only {own} cases beyond spec-5-*; the corpus must keep at least {MIN_OWN_CASES}"
        ));
    }
    assert!(problems.is_empty(), "corpus problems:\n  {}", problems.join("\n  "));

    quiet_panics_on_this_thread();
    let mut report = String::new();
    let (mut failed, mut xfailed, mut passed) = (0, 0, 0);
    let mut unexpected_passes = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let bad = run_case(case);
        match (bad.is_empty(), xfail.contains_key(id)) {
            (true, false) => passed += 1,
            (true, true) => unexpected_passes.push(id),
            (false, true) => xfailed += 1,
            (false, false) => {
                failed += 1;
                let input = short(
                    &case
                        .get("input")
                        .map_or_else(|| format!("hex {}", case["input_hex"]), |v| v.to_string()),
                );
                let opts = case.get("options").map_or(String::new(), |o| format!(" options {o}"));
                let _ = writeln!(report, "{id}: input {input}{opts}");
                for (field, want, have) in bad {
                    let _ = writeln!(report, "    {field}: expected {}, got {}", short(&want), short(&have));
                }
            }
        }
    }
    for id in &unexpected_passes {
        let _ = writeln!(
            report,
            "{id}: passes but is listed in conformance_xfail.txt; remove it from the list"
        );
    }
    eprintln!(
        "conformance: {} cases, {passed} pass, {failed} fail, {xfailed} expected failures, {} unexpected passes",
        cases.len(),
        unexpected_passes.len()
    );
    assert!(
        failed == 0 && unexpected_passes.is_empty(),
        "conformance: {failed} failing case(s), {} unexpected pass(es):\n{report}",
        unexpected_passes.len()
    );
}

/// SPEC §3's laws (`hdlscan_id::laws::check`, shared with the property
/// tests and the fuzz target), over every corpus input the parser finds
/// valid, with default options plus the case's resolvers (the laws are
/// stated without repair).
#[test]
fn conformance_laws() {
    quiet_panics_on_this_thread();
    let mut report = String::new();
    let mut checked = 0;
    for case in load_corpus() {
        let id = case["id"].as_str().unwrap_or("?").to_string();
        let input = match case.get("input").and_then(Value::as_str) {
            Some(s) => s.as_bytes().to_vec(),
            None => continue,
        };
        let mut opts = case
            .get("options")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        opts.remove("repair");
        opts.remove("max_len");
        let Ok(parser) = build_parser(Some(&opts)) else {
            continue;
        };
        // The re-parse has no length limit: a value at the limit renders a
        // longer uri/url, which the law cannot be about.
        opts.insert("max_len".into(), Value::from(u64::MAX));
        let Ok(reparser) = build_parser(Some(&opts)) else {
            continue;
        };
        QUIET_PANICS.with(|q| q.set(true));
        let r = catch_unwind(AssertUnwindSafe(|| {
            if actual(&parser, &input)["kind"] == "invalid" {
                return None;
            }
            Some(
                laws::check(&parser, &reparser, &input)
                    .err()
                    .map(|e| format!("    {e}"))
                    .into_iter()
                    .collect::<Vec<_>>(),
            )
        }));
        QUIET_PANICS.with(|q| q.set(false));
        match r {
            Ok(None) => {}
            Ok(Some(bad)) => {
                checked += 1;
                if !bad.is_empty() {
                    let input = short(&format!("{:?}", String::from_utf8_lossy(&input)));
                    let _ = writeln!(report, "{id}: input {input}\n{}", bad.join("\n"));
                }
            }
            Err(_) => {
                let _ = writeln!(report, "{id}: parser panicked");
            }
        }
    }
    eprintln!("conformance laws: {checked} valid values checked");
    assert!(report.is_empty(), "SPEC §3 laws broken:\n{report}");
}
