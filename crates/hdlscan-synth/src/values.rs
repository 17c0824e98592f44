//! The format of the benchmark's value files (`testdata/bench_values.txt`,
//! `testdata/bench_values_v2.txt`): one value a line, where a value may hold
//! line breaks.
//!
//! - Lines end in LF. The LF after the last line is not a value (a file that
//!   does not end in LF still has its last line read).
//! - A line that starts with `"` is a JSON string literal (RFC 8259) and the
//!   value is the string it stands for: `"10.1/x\n10.1/x"` is two DOIs on two
//!   lines.
//! - Any other line is the value's bytes as they are (an empty line is the
//!   empty value).
//!
//! Writers ([`push_value`]) quote exactly the values that hold CR or LF or
//! start with `"`, and write every other value raw; so a file of values
//! without line breaks is already in this format (`bench_values.txt` is),
//! `wc -l` counts values, and `grep` finds all but the quoted ones as they
//! are. A quoted value must be UTF-8 (JSON strings are); raw lines may hold
//! any bytes but LF.

use crate::text::write_buffered;
use crate::{Mix, Synth};
use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

/// Appends `v` as one line (LF-terminated), JSON-quoted when it holds CR or
/// LF or starts with `"`.
pub fn push_value(out: &mut Vec<u8>, v: &str) {
    if v.starts_with('"') || memchr::memchr2(b'\r', b'\n', v.as_bytes()).is_some() {
        serde_json::to_writer(&mut *out, v).expect("a str serializes");
    } else {
        out.extend_from_slice(v.as_bytes());
    }
    out.push(b'\n');
}

/// The values of `text`, in order: raw lines borrowed, quoted ones decoded.
/// A quoted line that is not one JSON string is an error naming its line
/// (1-based).
pub fn parse(text: &[u8]) -> Result<Vec<Cow<'_, [u8]>>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    // "\n" is one value, the empty one.
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, line)| {
            if line.first() == Some(&b'"') {
                serde_json::from_slice::<String>(line)
                    .map(|s| Cow::Owned(s.into_bytes()))
                    .map_err(|e| format!("line {}: not a JSON string: {e}", i + 1))
            } else {
                Ok(Cow::Borrowed(line))
            }
        })
        .collect()
}

/// Reads the file at `path` and returns its values, one allocation each, in
/// file order (as the benchmarks hold them).
pub fn read(path: impl AsRef<Path>) -> Result<Vec<Vec<u8>>, String> {
    let path = path.as_ref();
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let values = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(values.into_iter().map(Cow::into_owned).collect())
}

/// Writes `n` identifier values of `mix` generated with `seed`, one a line
/// ([`push_value`]). `write_values(w, BENCH_VALUES, BENCH_SEED, Mix::V1)`
/// is `testdata/bench_values.txt`, every line raw (no V1 value holds CR or
/// LF or starts with `"`); `write_values(w, BENCH_VALUES, BENCH_V2_SEED,
/// Mix::V2)` is `testdata/bench_values_v2.txt` (see [`crate::sample`]).
pub fn write_values<W: Write>(mut w: W, n: usize, seed: u64, mix: Mix) -> io::Result<()> {
    let mut synth = Synth::with_mix(seed, mix);
    let mut v = String::new();
    write_buffered(&mut w, 0..n as u64, |_, buf| {
        synth.next_identifier(&mut v);
        push_value(buf, &v);
    })?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(values: &[&str]) {
        let mut out = Vec::new();
        for v in values {
            push_value(&mut out, v);
        }
        let back = parse(&out).unwrap();
        assert_eq!(back.len(), values.len(), "{:?}", String::from_utf8_lossy(&out));
        for (b, v) in back.iter().zip(values) {
            assert_eq!(&b[..], v.as_bytes());
        }
        assert_eq!(
            out.iter().filter(|&&b| b == b'\n').count(),
            values.len(),
            "one line a value"
        );
    }

    #[test]
    fn values_round_trip() {
        round_trip(&[]);
        round_trip(&[""]);
        round_trip(&["", ""]);
        round_trip(&["10.1000/182", "", "N/A"]);
        round_trip(&["10.1/x\n10.1/x", "10.1136/bmjopen-2017-\r\n024355", "a\rb", "\n"]);
        round_trip(&["\"quoted\" at the start", "in \"the\" middle", "\"", "\\", "tab\there"]);
        round_trip(&["\u{AD}\u{2010}\u{A0}", "\u{1}\u{7F}\u{85}"]);
    }

    #[test]
    fn raw_lines_are_raw() {
        let mut out = Vec::new();
        push_value(&mut out, "10.1000/182");
        push_value(&mut out, "with \"quotes\" inside\\");
        push_value(&mut out, "two\nlines");
        assert_eq!(out, b"10.1000/182\nwith \"quotes\" inside\\\n\"two\\nlines\"\n");
        // No final LF: the last line is still a value.
        let v = parse(b"a\n\nb").unwrap();
        assert_eq!(v, [&b"a"[..], b"", b"b"]);
        // Raw lines may hold any byte but LF.
        let v = parse(b"\xFF\xFE\r\n").unwrap();
        assert_eq!(v, [&b"\xFF\xFE\r"[..]]);
    }

    #[test]
    fn bad_quoted_line_is_an_error() {
        let e = parse(b"ok\n\"unterminated\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        assert!(parse(b"\"a\" trailing\n").is_err());
    }

    #[test]
    fn v1_values_are_raw_lines() {
        let mut out = Vec::new();
        write_values(&mut out, 20_000, 3, Mix::V1).unwrap();
        let mut synth = Synth::new(3);
        let mut v = String::new();
        let mut raw = Vec::new();
        for _ in 0..20_000 {
            synth.next_identifier(&mut v);
            raw.extend_from_slice(v.as_bytes());
            raw.push(b'\n');
        }
        assert!(out == raw, "no V1 value is quoted");
        assert_eq!(parse(&out).unwrap().len(), 20_000);
    }
}
