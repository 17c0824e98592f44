//! Formats told apart by content: a file named .csv (or .parquet, or read
//! from stdin) that is a spreadsheet, an old Office file, PDF, HTML, JSON or
//! JSON Lines is named for what it is, with what to do, plain or
//! compressed, and nothing is written.
//!
//! Run: `cargo test --test tests formats_in`

use crate::scan::{entries, scan, scan_in};
use std::fs;
use std::io::Write;

/// A file's first bytes and what the error must say of them.
struct Seed {
    what: &'static str,
    bytes: &'static [u8],
    says: &'static [&'static str],
}

const SEEDS: &[Seed] = &[
    Seed {
        what: "xlsx",
        bytes: b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00[Content_Types].xml",
        says: &["a ZIP archive that holds no spreadsheet", "save it as CSV"],
    },
    Seed {
        what: "xls",
        bytes: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00\x00\x00",
        says: &["an Office file that is no Excel workbook", "save it as CSV"],
    },
    Seed {
        what: "pdf",
        bytes: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n",
        says: &["a PDF document", "as CSV"],
    },
    Seed {
        what: "html",
        bytes: b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n",
        says: &["an HTML page", "download the export again"],
    },
    Seed {
        what: "json",
        bytes: b"[\n  {\"id\": 1, \"doi\": \"10.1000/x\"},\n  {\"id\": 2, \"doi\": \"10.1000/y\"}\n]\n",
        says: &["this is JSON,", "--input-format jsonl"],
    },
    Seed {
        what: "jsonl",
        bytes: b"{\"id\": 1, \"doi\": \"10.1000/x\"}\n{\"id\": 2, \"doi\": \"10.1000/y\"}\n",
        says: &[
            "this is JSON Lines,",
            "read it with --input-format jsonl (or name it .jsonl)",
        ],
    },
];

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

#[test]
fn a_csv_name_on_another_format_is_named_for_what_it_is() {
    for seed in SEEDS {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let name = format!("export-{}.csv", seed.what);
        fs::write(d.join(&name), seed.bytes).unwrap();
        let msg = scan(d, &[&name, "-c", "doi", "-o", "out.csv"]).fails_with(seed.says);
        assert!(msg.starts_with(&format!("hdlscan: {name}: this is ")), "{msg}");
        assert!(msg.contains(", not CSV: "), "{msg}");
        assert!(!msg.contains("compressed"), "{msg}");
        assert!(
            !msg.contains("fields") && !msg.contains("header"),
            "{}: {msg}",
            seed.what
        );

        // Whatever the name says, stdin included; but a .json or .jsonl
        // name is read as JSON.
        let other = format!("export.{}", seed.what);
        fs::write(d.join(&other), seed.bytes).unwrap();
        match seed.what {
            "json" => {
                drop(scan(d, &[&other, "-c", "doi"]).fails_with(&["a JSON array over several lines", "--records '[]'"]))
            }
            "jsonl" => drop(scan(d, &[&other, "-c", "doi", "-q"]).ok()),
            _ => drop(scan(d, &[&other, "-c", "doi"]).fails_with(seed.says)),
        }
        scan_in(d, &["-", "-c", "doi"], Some(seed.bytes)).fails_with(&[&["<stdin>"][..], seed.says].concat());

        // Compressed whole: decompressed, then named, with its codec.
        let gz_name = format!("{name}.gz");
        fs::write(d.join(&gz_name), gzip(seed.bytes)).unwrap();
        scan(d, &[&gz_name, "-c", "doi"]).fails_with(&[&["gzip-compressed, not CSV"][..], seed.says].concat());
        let zst_name = format!("{name}.zst");
        fs::write(d.join(&zst_name), zstd::encode_all(seed.bytes, 3).unwrap()).unwrap();
        scan(d, &[&zst_name, "-c", "doi"]).fails_with(&[&["zstd-compressed, not CSV"][..], seed.says].concat());

        // Named .parquet, it is not "a corrupt footer" either.
        let pq_name = format!("{}.parquet", seed.what);
        fs::write(d.join(&pq_name), seed.bytes).unwrap();
        let msg = scan(d, &[&pq_name, "-c", "doi"]).fails_with(seed.says);
        assert!(msg.contains("not Parquet") && !msg.contains("footer"), "{msg}");

        let mut left = entries(d);
        left.retain(|n| !n.starts_with("export") && !n.ends_with(".parquet"));
        assert!(left.is_empty(), "{}: written: {left:?}", seed.what);
    }
}

/// CSV that opens like JSON or mentions HTML is still CSV.
#[test]
fn csv_that_merely_looks_like_them_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (i, text) in [
        "[id],[doi]\n1,10.1000/x\n",
        "{id},doi\n1,10.1000/x\n",
        "id,doi\n<html>,10.1000/x\n",
    ]
    .iter()
    .enumerate()
    {
        let name = format!("in{i}.csv");
        fs::write(d.join(&name), text).unwrap();
        scan(d, &[&name, "-c", "2", "-q"]).ok();
    }
}
