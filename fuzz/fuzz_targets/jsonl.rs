//! Fuzz the JSON Lines scanner (`src/io/jsonl/scan.rs`: one record
//! checked and its paths' values taken out in one pass) with arbitrary
//! bytes, against `serde_json`.
//!
//! Checks, for every line: no panic; the line is accepted exactly when
//! `serde_json` accepts it (skipping it as `IgnoredAny`, which, like the
//! scanner, does not check that strings are UTF-8) and it is an object; a
//! valid non-object is `NotObject`; only nesting deeper than the scanner's
//! limit is refused beyond that. On an accepted line that `serde_json`
//! also reads into a `Value` (UTF-8 strings), each path's values are the
//! ones a walk of that `Value` gives by the scanner's rules (a string
//! unescaped, a number or `true`/`false` as written, a dead end one empty
//! value, `[]` a value per element): paths ending on an object or a list
//! are left out, since the scanner writes those as compact JSON text with
//! their escapes and repeated keys as written.
//!
//! The same bytes, when UTF-8, are also a `--column` path: parsing one
//! never panics, and a path that parses is written back (`Display`) as
//! text that parses to it again.
//!
//! The scanner's source is included directly, with the two helpers its
//! error hints use (from `hdlscan-core`), so the target builds without
//! arrow or parquet.
//!
//! Run: `cd fuzz && cargo +nightly fuzz run jsonl -- -max_len=512`.
#![no_main]
#![allow(dead_code)]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[path = "../../src/io/jsonl/path.rs"]
mod path;
#[path = "../../src/io/jsonl/reach.rs"]
mod reach;
#[path = "../../src/io/jsonl/scan.rs"]
mod scan;

/// What the scanner's error hints name by `crate::` paths, as the main
/// crate lays them out.
mod io {
    pub use hdlscan_core::select::describe_columns;
}

mod select {
    pub use hdlscan_core::select::{nearest, suggestion};
}

/// `scan::record` of `line`, and its values in path order.
fn scanned(line: &[u8], set: &PathSet) -> (Result<(), Bad>, Vec<(u32, Vec<u8>)>) {
    let mut out = scan::Out::default();
    let ours = scan::record(line, set, &mut out);
    // Document order to path order, as `parse_block` does.
    out.entries.sort_by_key(|e| e.path);
    let values = out
        .entries
        .iter()
        .map(|e| (e.path, out.bytes[e.start.min(e.end)..e.end].to_vec()))
        .collect();
    (ours, values)
}

use path::{JsonPath, PathSet, Step};
use scan::Bad;

const PATHS: &[&str] = &["a", "doi", "a.b", "b[]", "b[].c", "a.b[].doi"];

/// A path's values in `v` by the scanner's rules, or `None` where one
/// ends on an object or a list. A number is as `serde_json` keeps it
/// (`arbitrary_precision`: as written, but for how its exponent is marked).
fn reference(v: &Value, steps: &[Step], out: &mut Vec<Vec<u8>>) -> Option<()> {
    match (steps.split_first(), v) {
        (_, Value::Null) => out.push(Vec::new()),
        (None, Value::String(s)) => out.push(s.as_bytes().to_vec()),
        (None, Value::Bool(b)) => out.push(b.to_string().into_bytes()),
        (None, Value::Number(n)) => out.push(n.to_string().into_bytes()),
        (None, Value::Array(_) | Value::Object(_)) => return None,
        (Some((Step::Key(k), rest)), _) => match v {
            Value::Object(m) if m.contains_key(&**k) => reference(&m[&**k], rest, out)?,
            _ => out.push(Vec::new()),
        },
        (Some((Step::Each, rest)), Value::Array(a)) => {
            for x in a {
                reference(x, rest, out)?;
            }
        }
        (Some((Step::Each, rest)), other) => reference(other, rest, out)?,
    }
    Some(())
}

fuzz_target!(|line: &[u8]| {
    if let Ok(text) = std::str::from_utf8(line)
        && let Ok(p) = JsonPath::parse(text)
    {
        let again = JsonPath::parse(&p.to_string());
        assert_eq!(again.as_ref(), Ok(&p), "{text:?} written as {:?}", p.to_string());
    }
    let paths: Vec<JsonPath> = PATHS.iter().map(|p| JsonPath::parse(p).unwrap()).collect();
    let set = PathSet::new(&paths);
    let (ours, values) = scanned(line, &set);
    let valid = serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok();
    let object = line.iter().find(|b| !b" \t\r\n".contains(b)) == Some(&b'{');
    match &ours {
        Ok(()) => assert!(valid && object, "accepted: {:?}", String::from_utf8_lossy(line)),
        Err(Bad::NotObject(_)) => assert!(valid && !object, "not an object: {:?}", String::from_utf8_lossy(line)),
        Err(Bad::Syntax(s)) if s.what.starts_with("nesting") => {}
        Err(Bad::Syntax(s)) => assert!(!valid, "refused ({s:?}): {:?}", String::from_utf8_lossy(line)),
    }
    if ours.is_err() {
        return;
    }
    let Ok(v) = serde_json::from_slice::<Value>(line) else {
        return;
    };
    for (p, path) in paths.iter().enumerate() {
        let mut want = Vec::new();
        if reference(&v, path.steps(), &mut want).is_none() {
            continue;
        }
        let got: Vec<&Vec<u8>> = values.iter().filter(|(q, _)| *q == p as u32).map(|(_, v)| v).collect();
        let want: Vec<&Vec<u8>> = want.iter().collect();
        // A number's exponent is written `E` or `e`, with or without `+`;
        // the scanner keeps it as written, `serde_json` writes `e` and `+`.
        let number = |v: &[u8]| v.first().is_some_and(|c| c.is_ascii_digit() || *c == b'-');
        let exponent = |v: &[u8]| String::from_utf8_lossy(v).to_ascii_lowercase().replace("e+", "e");
        let same = got.len() == want.len()
            && got
                .iter()
                .zip(&want)
                .all(|(g, w)| g == w || (number(w) && exponent(g) == exponent(w)));
        if same {
            continue;
        }
        assert_eq!(got, want, "path {path} of {:?}", String::from_utf8_lossy(line));
    }
});
