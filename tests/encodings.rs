//! `--encoding`: CSV in Windows-1252 or UTF-16 read as text, decoded once
//! before records are split; bytes not valid in the encoding counted and
//! told in the summary and the report.
//!
//! Run: `cargo test --test tests encodings`

use crate::scan::{Table, read_json, scan, scan_in};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/inputs").join(name)
}

/// UTF-16LE bytes of `text`, after a byte-order mark.
fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

/// The real case: a Windows-1252 export whose no-break spaces (byte 0xA0)
/// around a DOI made it `bad_utf8`; read as Windows-1252 it is the DOI,
/// trimmed, and every other cell is UTF-8 text in the output.
#[test]
fn windows_1252_export_reads_its_doi() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = fixture("windows-1252.csv");
    let input = input.to_str().unwrap();

    scan(d, &[input, "-c", "doi", "--report", "bytes.json"]).ok();
    let r = read_json(&d.join("bytes.json"));
    assert_eq!(
        r["errors"]["bad_utf8"]["count"], 1,
        "read as UTF-8, the DOI is bad_utf8"
    );

    for label in ["windows-1252", "latin1", "CP1252"] {
        let run = scan(
            d,
            &[
                input,
                "-c",
                "doi",
                "--encoding",
                label,
                "-o",
                "text.csv",
                "--report",
                "r.json",
            ],
        )
        .ok();
        assert!(!run.stderr.contains("not valid"), "{}", run.stderr);
        let text = fs::read_to_string(d.join("text.csv")).expect("UTF-8 output");
        assert!(text.starts_with("id,title,doi,record,"), "{text}");
        let t = Table::from_csv(&d.join("text.csv"), b',');
        assert_eq!(t.get(0, "title"), "Café € 2019");
        assert_eq!(t.get(0, "doi"), "\u{a0}10.1000/xyz123\u{a0}");
        assert_eq!(
            (t.get(0, "kind"), t.get(0, "canonical"), t.get(0, "warnings")),
            ("doi", "10.1000/xyz123", "trimmed")
        );
        assert_eq!(t.get(1, "title"), "Naïve – résumé");
        assert_eq!(t.get(2, "title"), "Straße");
        let r = read_json(&d.join("r.json"));
        assert_eq!(r["run"]["options"]["encoding"], "windows-1252", "{label}");
        assert_eq!(r["valid"], 3, "{label}");
    }
}

/// UTF-16 is found by its byte-order mark, whatever `--encoding` says.
#[test]
fn utf16_with_a_bom_needs_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = fixture("utf-16le-bom.csv");
    let input = input.to_str().unwrap();
    for extra in [&[][..], &["--encoding", "windows-1252"]] {
        let mut args = vec![input, "-c", "doi", "-o", "o.csv"];
        args.extend_from_slice(extra);
        scan(d, &args).ok();
        let t = Table::from_csv(&d.join("o.csv"), b',');
        assert_eq!(t.get(0, "canonical"), "10.1000/été");
        assert_eq!(t.get(1, "canonical"), "10.1000/日本");
        assert_eq!(t.get(2, "canonical"), "1721.1/12345");
    }
    // Big-endian too, tab-separated, from stdin and gzip-compressed.
    let text = "id\tdoi\n1\t10.1000/x\n";
    let mut be = vec![0xfe, 0xff];
    be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&be).unwrap();
    fs::write(d.join("be.tsv.gz"), gz.finish().unwrap()).unwrap();
    scan(d, &["be.tsv.gz", "-c", "doi", "-o", "be.csv"]).ok();
    assert_eq!(
        Table::from_csv(&d.join("be.csv"), b',').get(0, "canonical"),
        "10.1000/x"
    );
    scan_in(d, &["-", "-d", "tab", "-c", "doi", "-o", "stdin.csv"], Some(&be)).ok();
    assert_eq!(
        Table::from_csv(&d.join("stdin.csv"), b',').get(0, "canonical"),
        "10.1000/x"
    );
}

/// Bytes not valid in the encoding become U+FFFD, and the summary and the
/// report say how many, in which input.
#[test]
fn malformed_bytes_are_counted_and_told() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A lone surrogate, and half a code unit at the end.
    let mut bytes = utf16le("id,doi\n1,10.1000/a");
    bytes.extend_from_slice(&0xdc00u16.to_le_bytes());
    bytes.extend_from_slice(&utf16le("\n2,10.1000/b")[2..]);
    bytes.push(b'x');
    fs::write(d.join("bad16.csv"), &bytes).unwrap();
    let run = scan(d, &["bad16.csv", "-c", "doi", "-o", "o.csv", "--report", "r.json"]).ok();
    let note = "bad16.csv: 2 byte sequences were not valid UTF-16LE; each was read as U+FFFD";
    assert!(run.stderr.contains(note), "{}", run.stderr);
    let r = read_json(&d.join("r.json"));
    assert!(
        r["notes"].as_array().unwrap().iter().any(|n| n == note),
        "{}",
        r["notes"]
    );
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!(t.get(0, "doi"), "10.1000/a\u{fffd}");
    assert_eq!(t.get(1, "doi"), "10.1000/b\u{fffd}");
}

#[test]
fn bad_labels_and_parquet_input_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.csv"), "doi\n10.1000/x\n").unwrap();
    scan(d, &["in.csv", "-c", "doi", "--encoding", "ebcdic"]).usage_error(&["ebcdic", "windows-1252"]);
    fs::write(d.join("in.parquet"), b"PAR1").unwrap();
    scan(d, &["in.parquet", "-c", "doi", "--encoding", "latin1"])
        .usage_error(&["--encoding applies to CSV/TSV input only"]);
}

/// The report counts a decoded input in the file's own bytes: a UTF-16
/// file's, not the half as many of its UTF-8 text, and a windows-1252
/// file's, not the more its accents take in UTF-8; gzip'd, the bytes
/// after decompression, as for any compressed input.
#[test]
fn decoded_inputs_count_the_files_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = "id,title,doi\n".to_string() + &"1,Café – résumé,10.1000/été\n".repeat(1000);
    fs::write(d.join("utf16.csv"), utf16le(&text)).unwrap();
    let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
    fs::write(d.join("latin.csv"), &latin).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&utf16le(&text)).unwrap();
    fs::write(d.join("utf16.csv.gz"), gz.finish().unwrap()).unwrap();
    for (file, extra, bytes) in [
        ("utf16.csv", None, utf16le(&text).len()),
        ("latin.csv", Some("windows-1252"), latin.len()),
        ("utf16.csv.gz", None, utf16le(&text).len()),
    ] {
        let mut args = vec![file, "-c", "doi", "--report", "r.json", "-q"];
        if let Some(label) = extra {
            args.extend(["--encoding", label]);
        }
        scan(d, &args).ok();
        let r = read_json(&d.join("r.json"));
        assert_eq!(r["valid"], 1000, "{file}");
        assert_eq!(r["run"]["inputs"][0]["bytes"], bytes as u64, "{file}");
        assert_eq!(r["run"]["input_bytes"], bytes as u64, "{file}");
        assert_ne!(bytes, text.len(), "{file}: the text's length would pass too");
    }
}

/// A real OpenAPC export (ULB Münster 2021, `;`-separated Windows-1252)
/// names its columns `doi` + byte 0xA0: read as UTF-8, that byte is no
/// white space to trim, so `-c doi` matches nothing, and the error says to
/// give --encoding; with it, `doi` is found by the trimmed rule.
#[test]
fn a_header_that_is_not_utf8_suggests_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("in.csv"),
        b"institution\xa0;doi\xa0;url \nWWU M\xfcnster;https://doi.org/10.3389/fpsyg.2020.572744;\n",
    )
    .unwrap();
    scan(d, &["in.csv", "-d", ";", "-c", "doi"]).usage_error(&["no column named 'doi'", "--encoding windows-1252"]);
    scan(
        d,
        &[
            "in.csv",
            "-d",
            ";",
            "-c",
            "doi",
            "--encoding",
            "windows-1252",
            "-o",
            "o.csv",
        ],
    )
    .ok();
    let t = Table::from_csv(&d.join("o.csv"), b',');
    assert_eq!(t.get(0, "doi\u{a0}"), "https://doi.org/10.3389/fpsyg.2020.572744");
    assert_eq!(t.get(0, "canonical"), "10.3389/fpsyg.2020.572744");
}
