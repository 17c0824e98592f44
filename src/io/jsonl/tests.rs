//! Tests of JSON input: the committed fixtures (`testdata/jsonl/`, shaped
//! like OpenAlex, DataCite and Crossref files), blocks cut anywhere, and
//! the scanner against `serde_json`: the values it takes out against a walk
//! of `serde_json::Value`, and what it accepts against `IgnoredAny`.

use super::records::BadLine;
use super::scan::{self, Out};
use super::*;
use crate::io::error::{ErrorKind, PositionedError};
use proptest::prelude::*;
use serde_json::Value;
use std::io::{Cursor, Write};

/// One record as the tests compare it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rec {
    record: u64,
    line: u64,
    /// Per path, its values (lossy UTF-8).
    values: Vec<Vec<String>>,
}

/// Everything a reader over `data` gives.
#[derive(Debug, PartialEq, Eq)]
struct All {
    recs: Vec<Rec>,
    skipped: u64,
    bad: Vec<BadLine>,
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/testdata/jsonl/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn paths(ps: &[&str]) -> PathSet {
    PathSet::new(&ps.iter().map(|p| JsonPath::parse(p).unwrap()).collect::<Vec<_>>())
}

fn drain(mut rdr: JsonlBlockReader, set: &PathSet) -> Result<All, PositionedError> {
    let opts = rdr.options().clone();
    let mut all = All {
        recs: Vec::new(),
        skipped: 0,
        bad: Vec::new(),
    };
    let mut next_record = 1;
    while let Some(raw) = rdr.next_block()? {
        assert_eq!(raw.first_record, next_record);
        next_record += raw.nrecords;
        let b = parse_block(&raw, set, &opts)?;
        assert_eq!(b.len() as u64 + b.skipped(), raw.nrecords);
        all.skipped += b.skipped();
        all.bad.extend(b.bad_lines().iter().cloned());
        for r in 0..b.len() {
            let values = (0..set.len())
                .map(|p| {
                    assert_eq!(b.value_count(r, p), b.values(r, p).len());
                    b.values(r, p)
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                        .collect()
                })
                .collect();
            all.recs.push(Rec {
                record: b.record(r),
                line: b.line(r),
                values,
            });
        }
    }
    assert_eq!(rdr.records(), next_record - 1);
    Ok(all)
}

fn read(data: &[u8], opts: JsonlOptions, ps: &[&str]) -> Result<All, PositionedError> {
    let rdr = JsonlBlockReader::from_reader("in.jsonl", Cursor::new(data.to_vec()), opts)?;
    drain(rdr, &paths(ps))
}

fn values(all: &All, path: usize) -> Vec<Vec<String>> {
    all.recs.iter().map(|r| r.values[path].clone()).collect()
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn openalex_fixture() {
    let data = fixture("openalex_works.jsonl");
    let ps = [
        "doi",
        "ids.doi",
        "ids.openalex",
        "locations[].landing_page_url",
        "primary_location.source.issn_l",
        "related_handle",
        "title",
        "publication_year",
        "primary_location.is_oa",
        "locations[].pdf_url",
    ];
    let all = read(&data, JsonlOptions::default(), &ps).unwrap();
    let pos: Vec<(u64, u64)> = all.recs.iter().map(|r| (r.record, r.line)).collect();
    // Line 3 is blank: no record.
    assert_eq!(pos, [(1, 1), (2, 2), (3, 4), (4, 5)]);
    assert_eq!(
        values(&all, 0),
        [
            s(&["https://doi.org/10.7717/peerj.4375"]),
            s(&[""]),                                // null: one empty value
            s(&["https://doi.org/10.1000/ABC/def"]), // \u002F
            s(&["https://doi.org/10.5281/zenodo.1234567"]),
        ]
    );
    assert_eq!(values(&all, 1)[1], s(&[""]), "missing key: one empty value");
    assert_eq!(values(&all, 2)[1], s(&["https://openalex.org/W2100837269"]));
    assert_eq!(
        values(&all, 3),
        [
            s(&[
                "https://doi.org/10.7717/peerj.4375",
                "https://europepmc.org/articles/pmc5815332",
                "http://hdl.handle.net/20.500.12345/678"
            ]),
            s(&["https://hdl.handle.net/2027.42/40123"]),
            s(&[]), // an empty list: no value (the scan makes the cell one empty value)
            s(&["https://zenodo.org/record/1234567"]),
        ]
    );
    // Through a null source, a null primary_location, a null issn_l.
    assert_eq!(values(&all, 4), [s(&["2167-8359"]), s(&[""]), s(&[""]), s(&[""])]);
    // A key first seen on the last line.
    assert_eq!(
        values(&all, 5),
        [s(&[""]), s(&[""]), s(&[""]), s(&["hdl:20.500.12345/999"])]
    );
    assert_eq!(
        values(&all, 6)[1],
        s(&["Café culture in São Paulo: \u{1f4da} reading \"rooms\""])
    );
    assert_eq!(values(&all, 6)[2], s(&["Naïve approaches"]));
    assert_eq!(
        values(&all, 7),
        [s(&["2018"]), s(&["1998"]), s(&["2021"]), s(&["2023"])]
    );
    assert_eq!(values(&all, 8), [s(&["true"]), s(&["false"]), s(&[""]), s(&["true"])]);
    // Two locations without a pdf_url (null, missing): one empty value each.
    assert_eq!(values(&all, 9)[0], s(&["https://peerj.com/articles/4375.pdf", "", ""]));
}

#[test]
fn datacite_fixture() {
    let data = fixture("datacite.jsonl");
    let ps = [
        "attributes.doi",
        "attributes.identifiers[].identifier",
        "attributes.relatedIdentifiers[].relatedIdentifier",
        // An object where others write a list: a list of one.
        "attributes.rightsList[].rightsUri",
        "attributes.version",
        "attributes.titles",
    ];
    let all = read(&data, JsonlOptions::default(), &ps).unwrap();
    let r = &all.recs[0].values;
    assert_eq!(r[0], s(&["10.5061/dryad.8515"]));
    assert_eq!(r[1], s(&["https://doi.org/10.5061/dryad.8515", "ark:/13030/m5c8276f"]));
    assert_eq!(r[2], s(&["10.1371/journal.ppat.1000446", "19478877"]));
    assert_eq!(
        r[3],
        s(&["https://creativecommons.org/publicdomain/zero/1.0/legalcode"])
    );
    assert_eq!(r[4], s(&[""]));
    assert_eq!(
        r[5],
        s(&[r#"[{"title":"Data from: A new malaria agent in African hominids."}]"#])
    );
}

#[test]
fn crossref_items_document() {
    let data = fixture("crossref_items.json");
    let ps = ["DOI", "link[].URL", "relation.has-preprint[].id", "ISSN[]"];
    for block in [1, 100, 1 << 20] {
        let opts = JsonlOptions::default()
            .with_records(Some(JsonPath::parse("items").unwrap()))
            .with_block_size(block);
        let all = read(&data, opts, &ps).unwrap();
        let pos: Vec<(u64, u64)> = all.recs.iter().map(|r| (r.record, r.line)).collect();
        assert_eq!(pos, [(1, 4), (2, 11), (3, 12)], "block {block}");
        assert_eq!(
            values(&all, 0),
            [
                s(&["10.1037/0003-066x.59.1.29"]),
                s(&["10.1016/S0140-6736(20)30183-5"]),
                s(&[""])
            ]
        );
        assert_eq!(
            values(&all, 1)[0],
            s(&["http://psycnet.apa.org/journals/amp/59/1/29.pdf"])
        );
        assert_eq!(values(&all, 2)[1], s(&["10.1101/2020.01.22.20018325"]));
        assert_eq!(values(&all, 3)[0], s(&["1935-990X", "0003-066X"]));
    }
}

/// `--records` streams: the same records, lines and errors whatever the
/// reads cut (one byte at a time included), and an element longer than
/// the record limit is an error naming its record and line.
#[test]
fn records_stream_whatever_the_reads() {
    let data = fixture("crossref_items.json");
    let ps = ["DOI", "link[].URL", "ISSN[]"];
    let opts = JsonlOptions::default().with_records(Some(JsonPath::parse("items").unwrap()));
    let whole = read(&data, opts.clone(), &ps).unwrap();
    assert_eq!(whole.recs.len(), 3);
    let stream = |data: &[u8], opts: JsonlOptions, read_size: usize, ps: &[&str]| {
        let rdr =
            JsonlBlockReader::from_reader("in.jsonl", Cursor::new(data.to_vec()), opts)?.with_read_size(read_size);
        drain(rdr, &paths(ps))
    };
    for read_size in [1, 2, 3, 5, 8, 13, 64, 1000] {
        for block in [1, 100, 1 << 20] {
            let got = stream(&data, opts.clone().with_block_size(block), read_size, &ps).unwrap();
            assert_eq!(got, whole, "read {read_size}, block {block}");
        }
        let e = stream(
            b"{\"message\":\n {\"items\": [{\"DOI\": 1},\n {\"DOI\" 2}]}}",
            JsonlOptions::default().with_records(Some(JsonPath::parse("message.items").unwrap())),
            read_size,
            &["DOI"],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "in.jsonl: line 3: not valid JSON: expected ':' at byte 9 of the line",
            "read {read_size}"
        );
    }
    let long = format!(
        "{{\"items\":[{{\"DOI\":\"a\"}},\n{{\"DOI\":\"{}\"}}]}}",
        "x".repeat(100)
    );
    for read_size in [1, 7, 1000] {
        let e = stream(long.as_bytes(), opts.clone().with_max_line(50), read_size, &["DOI"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in.jsonl: record 2 (line 2): JSON value longer than the 50-byte limit of a record (raise it with \
             --max-record-mib)",
            "read {read_size}"
        );
    }
    // A long value off the path is held to the same limit.
    let off = format!("{{\"abstract\":\"{}\",\"items\":[]}}", "x".repeat(100));
    let e = stream(off.as_bytes(), opts.clone().with_max_line(50), 7, &["DOI"]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::ValueTooLong { limit: 50 }), "{e}");
    assert_eq!((e.pos().line, e.pos().record), (Some(1), None));
}

#[test]
fn records_errors() {
    let opts = |p: &str| JsonlOptions::default().with_records(Some(JsonPath::parse(p).unwrap()));
    let e = read(br#"{"items": 3}"#, opts("items"), &["DOI"]).unwrap_err();
    assert_eq!(e.to_string(), "in.jsonl: no array at items (--records): items holds a number, not an array");
    // A path that misses: the keys where it stopped, and the nearest.
    let crossref = br#"{"status":"ok","message":{"total-results":1,"items":[{"DOI":"10.1/x"}]}}"#;
    let e = read(crossref, opts("items"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: no array at items (--records); keys of the document: status, message \
         (did you mean 'message.items'?)"
    );
    // A path that reaches a value of another kind says what it holds:
    // the object around the list, a list where an object was needed.
    let e = read(crossref, opts("message"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: no array at message (--records): message holds an object, not an array; \
         its keys holding a list: items (did you mean 'message.items'?)"
    );
    let e = read(crossref, opts("message.items.DOI"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: no array at message.items.DOI (--records): message.items holds an array, not an object"
    );
    let e = read(crossref, opts("message.total-results"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: no array at message.total-results (--records): message.total-results holds a number, not an array"
    );
    let e = read(crossref, opts("message.item"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: no array at message.item (--records); keys under message: total-results, items \
         (did you mean 'message.items'?)"
    );
    // A document that is not an object holds no path: said at its line,
    // not after walking a whole top-level array.
    let e = read(b"{\"items\":[]}\n[{\"DOI\":\"10.1/x\"}]", opts("items"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: line 2: a JSON array, not a JSON object: read an array of records with --records '[]'"
    );
    let e = read(
        b"{\"message\":\n {\"items\": [{\"DOI\": 1},\n {\"DOI\" 2}]}}",
        opts("message.items"),
        &["DOI"],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: line 3: not valid JSON: expected ':' at byte 9 of the line"
    );
    // Nested keys; several documents one after another; a non-object
    // element is a bad record.
    let data = b"{\"message\":{\"items\":[{\"DOI\":\"a\"},7]}}\n{\"message\":{\"items\":[{\"DOI\":\"b\"}]}}";
    let e = read(data, opts("message.items"), &["DOI"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: record 2 (line 1): a number, not a JSON object"
    );
    let all = read(data, opts("message.items").with_skip_bad_lines(true), &["DOI"]).unwrap();
    assert_eq!(values(&all, 0), [s(&["a"]), s(&["b"])]);
    assert_eq!(all.skipped, 1);
    assert!(
        read(b"{\"items\":[]}", opts("items"), &["DOI"])
            .unwrap()
            .recs
            .is_empty()
    );
    let bad = JsonlOptions::default().with_records(Some(JsonPath::parse("a[]").unwrap()));
    assert!(matches!(
        read(b"", bad, &["x"]).unwrap_err().kind(),
        ErrorKind::BadOption(_)
    ));
}

#[test]
fn malformed_lines_error_or_skip() {
    let data = fixture("malformed.jsonl");
    let e = read(&data, JsonlOptions::default(), &["doi"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: record 2 (line 2): not valid JSON: expected a string key at byte 28 of the line"
    );
    assert_eq!((e.pos().line, e.pos().record), (Some(2), Some(2)));
    for block in [1, 30, 1 << 20] {
        let opts = JsonlOptions::default().with_skip_bad_lines(true).with_block_size(block);
        let all = read(&data, opts, &["doi"]).unwrap();
        assert_eq!(
            values(&all, 0),
            [s(&["10.1000/ok1"]), s(&["10.1000/ok2"]), s(&["10.1000/ok4"])]
        );
        let pos: Vec<(u64, u64)> = all.recs.iter().map(|r| (r.record, r.line)).collect();
        assert_eq!(pos, [(1, 1), (3, 3), (6, 6)]);
        assert_eq!(all.skipped, 3);
        let bad: Vec<(u64, &str)> = all.bad.iter().map(|b| (b.line, b.reason.as_str())).collect();
        assert_eq!(
            bad,
            [
                (2, "not valid JSON: expected a string key at byte 28 of the line"),
                (4, "an array, not a JSON object"),
                (
                    5,
                    "not valid JSON: expected the end of the line after the record at byte 23 of the line"
                ),
            ]
        );
    }
}

#[test]
fn blocks_cut_anywhere_give_the_same_records() {
    let mut data = fixture("openalex_works.jsonl");
    data.extend_from_slice(b"\r\n  \n{\"doi\":\"crlf\"}\r\n{\"doi\":\"last, no newline\"}");
    let ps = ["doi", "locations[].landing_page_url", "ids"];
    let whole = read(&data, JsonlOptions::default(), &ps).unwrap();
    assert_eq!(whole.recs.len(), 6);
    assert_eq!(whole.recs[5].line, 9);
    assert_eq!(whole.recs[5].values[0], s(&["last, no newline"]));
    for block in [1, 2, 7, 100, 1000, 3000] {
        let got = read(&data, JsonlOptions::default().with_block_size(block), &ps).unwrap();
        assert_eq!(got, whole, "block {block}");
    }
}

#[test]
fn path_ending_on_an_object_or_list_is_compact_json() {
    let line = br#"{ "ids" : { "doi" : "10.1/x" , "n" : [ 1 , 2.5e3 , true , null , "a \" b" ] } , "e" : { } }"#;
    let all = read(
        line,
        JsonlOptions::default(),
        &["ids", "ids.n", "ids.doi", "e", "ids.n[]"],
    )
    .unwrap();
    let r = &all.recs[0].values;
    assert_eq!(r[0], s(&[r#"{"doi":"10.1/x","n":[1,2.5e3,true,null,"a \" b"]}"#]));
    assert_eq!(r[1], s(&[r#"[1,2.5e3,true,null,"a \" b"]"#]));
    assert_eq!(r[2], s(&["10.1/x"]));
    assert_eq!(r[3], s(&["{}"]));
    assert_eq!(
        r[4],
        s(&["1", "2.5e3", "true", "", "a \" b"]),
        "a null element is one empty value"
    );
}

#[test]
fn escapes_keys_and_surrogates() {
    let line = br#"{"d\u006fi":"a\/b\\c\td\u00e9\ud83d\ude00","x\u002ey":1,"lone":"\ud800z","low":"\udc00"}"#;
    let all = read(line, JsonlOptions::default(), &["doi", "/x.y", "lone", "low"]).unwrap();
    let b = &all.recs[0];
    assert_eq!(b.values[0], s(&["a/b\\c\td\u{e9}\u{1f600}"]));
    assert_eq!(b.values[1], s(&["1"]));
    // Lone surrogates: bytes that are not UTF-8, so never mistaken for text.
    let set = paths(&["lone", "low"]);
    let mut out = Out::default();
    scan::record(line, &set, &mut out).unwrap();
    let bytes: Vec<&[u8]> = out.entries.iter().map(|e| &out.bytes[e.start..e.end]).collect();
    assert_eq!(bytes, [&b"\xed\xa0\x80z"[..], b"\xed\xb0\x80"]);
    assert!(std::str::from_utf8(bytes[0]).is_err());
}

#[test]
fn repeated_keys_last_wins() {
    let line = br#"{"doi":"a","ids":{"doi":"x"},"doi":"b","ids":{"doi":"y","doi":"z"},"l":[{"u":1,"u":2},{"u":3}]}"#;
    let all = read(line, JsonlOptions::default(), &["doi", "ids.doi", "l[].u", "doi"]).unwrap();
    let r = &all.recs[0].values;
    assert_eq!(r[0], s(&["b"]));
    assert_eq!(r[1], s(&["z"]));
    assert_eq!(r[2], s(&["2", "3"]));
    assert_eq!(r[3], s(&["b"]), "a path given twice");
}

/// A key three times or more: only the last counts, however often the
/// ones before it were replaced (the fuzzer's find: the second of three
/// stayed beside the third).
#[test]
fn a_key_repeated_three_times_gives_the_last() {
    let line = br#"{"doi":"a","doi":"b\u002F","x":1,"doi":"c","ids":{"doi":1,"doi":2,"doi":3,"doi":4},"l":[{"u":1,"u":2,"u":3}]}"#;
    let all = read(line, JsonlOptions::default(), &["doi", "ids.doi", "l[].u"]).unwrap();
    let r = &all.recs[0].values;
    assert_eq!(r[0], s(&["c"]));
    assert_eq!(r[1], s(&["4"]));
    assert_eq!(r[2], s(&["3"]));
}

#[test]
fn shapes_that_do_not_match() {
    // A key step on a list is a dead end (one empty value); `[]` on a
    // scalar is a list of one; `[]` on null or a missing key is a dead end;
    // both `a.b` and `a[].b` on an object.
    let line = br#"{"a":[{"b":1}],"s":"one","n":null,"o":{"b":2}}"#;
    let all = read(
        line,
        JsonlOptions::default(),
        &["a.b", "s[]", "n[]", "m[]", "o.b", "o[].b", "a[].b"],
    )
    .unwrap();
    let r = &all.recs[0].values;
    assert_eq!(r[0], s(&[""]));
    assert_eq!(r[1], s(&["one"]));
    assert_eq!(r[2], s(&[""]));
    assert_eq!(r[3], s(&[""]));
    assert_eq!(r[4], s(&["2"]));
    assert_eq!(r[5], s(&["2"]));
    assert_eq!(r[6], s(&["1"]));
}

#[test]
fn long_lines_bom_and_empty_input() {
    let data = b"{\"a\":1}\n{\"a\":\"0123456789\"}\n{\"a\":3}\n";
    for block in [1, 8, 1 << 20] {
        let opts = JsonlOptions::default().with_max_line(12).with_block_size(block);
        let e = read(data, opts, &["a"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in.jsonl: line 2: line longer than the 12-byte limit (raise it with --max-record-mib)",
            "block {block}"
        );
    }
    // The limit holds for a line not yet ended, too (the reader stops).
    let opts = JsonlOptions::default().with_max_line(12).with_block_size(4);
    let e = read(&[&b"{\"a\":1}\n"[..], &[b' '; 5000]].concat(), opts, &["a"]).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LineTooLong { limit: 12 }) && e.pos().line == Some(2),
        "{e}"
    );

    let all = read(b"\xef\xbb\xbf{\"a\":1}\n", JsonlOptions::default(), &["a"]).unwrap();
    assert_eq!(values(&all, 0), [s(&["1"])]);
    for empty in [&b""[..], b"\n\n  \r\n", b"\xef\xbb\xbf"] {
        assert!(read(empty, JsonlOptions::default(), &["a"]).unwrap().recs.is_empty());
    }
    let e = read(b"\n\n\"str\"\n", JsonlOptions::default(), &["a"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in.jsonl: record 1 (line 3): a string, not a JSON object"
    );
}

#[test]
fn nesting_limit_matches_serde_json() {
    for depth in [120, 126, 127, 128, 129, 200, 100_000] {
        let mut line = b"{\"a\":".to_vec();
        line.extend(std::iter::repeat_n(b'[', depth - 1));
        line.extend(std::iter::repeat_n(b']', depth - 1));
        line.push(b'}');
        let ours = scan::record(&line, &paths(&["a"]), &mut Out::default()).is_ok();
        // `Value`'s limit (skipping `IgnoredAny` has none).
        let theirs = serde_json::from_slice::<Value>(&line).is_ok();
        assert_eq!(ours, theirs, "depth {depth}");
    }
}

#[test]
fn compressed_and_missing_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture("openalex_works.jsonl");
    let ps = paths(&["doi", "locations[].landing_page_url"]);
    let plain = dir.path().join("w.jsonl");
    std::fs::write(&plain, &data).unwrap();
    let gz = dir.path().join("w.jsonl.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&data).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    // zstd under a name that does not say so: sniffed.
    let zst = dir.path().join("w.ndjson");
    std::fs::write(&zst, zstd::encode_all(&data[..], 3).unwrap()).unwrap();
    let mut expect = None;
    for p in [plain, gz, zst] {
        let spec = crate::io::source::InputSpec::Path(p);
        let all = drain(JsonlBlockReader::open(&spec, JsonlOptions::default()).unwrap(), &ps).unwrap();
        assert_eq!(all.recs.len(), 4);
        match &expect {
            None => expect = Some(all),
            Some(x) => assert_eq!(&all, x),
        }
    }
    let missing = crate::io::source::InputSpec::Path(dir.path().join("nope.jsonl"));
    let e = JsonlBlockReader::open(&missing, JsonlOptions::default()).err().unwrap();
    assert!(e.to_string().contains("nope.jsonl: cannot open"), "{e}");
}

// ---------------------------------------------------------------------------
// Against serde_json.

/// A path's values in `v`, by the rules of `scan`, from a `serde_json`
/// tree.
fn reference(v: &Value, steps: &[Step], out: &mut Vec<Vec<u8>>) {
    match (steps.split_first(), v) {
        // A dead end, wherever it is: one empty value.
        (_, Value::Null) => out.push(Vec::new()),
        (None, Value::String(s)) => out.push(s.as_bytes().to_vec()),
        (None, Value::Bool(b)) => out.push(b.to_string().into_bytes()),
        (None, Value::Number(n)) => out.push(n.to_string().into_bytes()),
        (None, Value::Array(_) | Value::Object(_)) => out.push(serde_json::to_vec(v).unwrap()),
        (Some((Step::Key(k), rest)), _) => match v {
            Value::Object(m) if m.contains_key(&**k) => reference(&m[&**k], rest, out),
            _ => out.push(Vec::new()),
        },
        (Some((Step::Each, rest)), Value::Array(a)) => a.iter().for_each(|x| reference(x, rest, out)),
        (Some((Step::Each, rest)), other) => reference(other, rest, out),
    }
}

const KEYS: &[&str] = &["a", "b", "doi", "a.b", "é", "\"q\\", "~/", "", "\u{1}"];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        "10\\.[0-9]{4}/[a-z\"\\\\/\n\t\u{7f}é😀]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(KEYS), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

fn record_value() -> impl Strategy<Value = Value> {
    proptest::collection::vec((proptest::sample::select(KEYS), json_value()), 0..8)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

fn json_path() -> impl Strategy<Value = JsonPath> {
    let step = prop_oneof![
        3 => proptest::sample::select(KEYS).prop_map(|k| Step::Key(k.into())),
        1 => Just(Step::Each),
    ];
    (proptest::sample::select(KEYS), proptest::collection::vec(step, 0..4)).prop_map(|(first, rest)| {
        let mut steps = vec![Step::Key(first.into())];
        steps.extend(rest);
        JsonPath::from_steps(steps).unwrap()
    })
}

/// `v` as one line: compact, or spread out with spaces.
fn to_line(v: &Value, spaced: bool) -> Vec<u8> {
    if !spaced {
        return serde_json::to_vec(v).unwrap();
    }
    // Pretty printing puts line breaks only between tokens (a string's are
    // escaped): make them spaces and tabs.
    serde_json::to_string_pretty(v)
        .unwrap()
        .replace('\n', " \t")
        .into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn values_equal_a_walk_of_serde_json_value(
        records in proptest::collection::vec((record_value(), any::<bool>()), 1..6),
        ps in proptest::collection::vec(json_path(), 1..5),
        block in 1usize..400,
    ) {
        let set = PathSet::new(&ps);
        let mut data = Vec::new();
        for (v, spaced) in &records {
            data.extend(to_line(v, *spaced));
            data.push(b'\n');
        }
        // Every path given also by its display form parses to itself.
        for p in &ps {
            prop_assert_eq!(&JsonPath::parse(&p.to_string()).unwrap(), p);
        }
        let opts = JsonlOptions::default().with_block_size(block);
        let mut rdr = JsonlBlockReader::from_reader("p.jsonl", Cursor::new(data), opts.clone()).unwrap();
        // Per record and path, the list of values.
        let mut got: Vec<Vec<Vec<u8>>> = Vec::new();
        let mut lines = Vec::new();
        while let Some(raw) = rdr.next_block().unwrap() {
            let b = parse_block(&raw, &set, &opts).unwrap();
            for r in 0..b.len() {
                lines.push(b.line(r));
                for p in 0..ps.len() {
                    got.push(b.values(r, p).map(<[u8]>::to_vec).collect());
                }
            }
        }
        let mut want = Vec::new();
        for (v, _) in &records {
            for p in &ps {
                let mut out = Vec::new();
                reference(v, p.steps(), &mut out);
                want.push(out);
            }
        }
        prop_assert_eq!(lines, (1..=records.len() as u64).collect::<Vec<_>>());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let (v, p) = (&records[i / ps.len()].0, &ps[i % ps.len()]);
            prop_assert_eq!(g, w, "path {} of {}", p, serde_json::to_string(v).unwrap());
        }
        prop_assert_eq!(got.len(), want.len());
    }

    /// `--records` gives the same records, lines and errors however the
    /// reads cut the document, dirt and all: a step cut by a read is taken
    /// again, never misread.
    #[test]
    fn records_the_same_whatever_the_reads(
        records in proptest::collection::vec((record_value(), any::<bool>()), 0..5),
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), 0u8..3, proptest::sample::select(&b"{}[],:\"\\ \n0159eE.+-tfnulx/"[..])), 0..3),
        read_size in 1usize..40,
        block in 1usize..300,
    ) {
        let mut doc = b"{\"head\":[1,{\"items\":2}],\n\"items\": [".to_vec();
        for (i, (v, spaced)) in records.iter().enumerate() {
            if i > 0 {
                doc.extend_from_slice(b",\n");
            }
            doc.extend(to_line(v, *spaced));
        }
        doc.extend_from_slice(b"] , \"tail\":null}");
        for (at, op, byte) in &edits {
            let i = at.index(doc.len() + 1);
            match op {
                0 if i < doc.len() => doc[i] = *byte,
                1 if i < doc.len() => { doc.remove(i); }
                _ => doc.insert(i, *byte),
            }
        }
        let ps = ["doi", "ids.doi", "b[]"];
        let opts = JsonlOptions::default()
            .with_records(Some(JsonPath::parse("items").unwrap()))
            .with_block_size(block);
        let whole = read(&doc, opts.clone(), &ps).map_err(|e| e.to_string());
        let rdr = JsonlBlockReader::from_reader("in.jsonl", Cursor::new(doc.clone()), opts).unwrap().with_read_size(read_size);
        let cut = drain(rdr, &paths(&ps)).map_err(|e| e.to_string());
        prop_assert_eq!(&cut, &whole, "{}", String::from_utf8_lossy(&doc));
        if edits.is_empty() {
            prop_assert_eq!(whole.unwrap().recs.len(), records.len());
        }
    }

    #[test]
    fn accepts_what_serde_json_accepts(
        v in record_value(),
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), 0u8..3, proptest::sample::select(&b"{}[],:\"\\ 0159eE.+-tfnulx/"[..])), 1..4),
    ) {
        let mut line = serde_json::to_vec(&v).unwrap();
        for (at, op, byte) in edits {
            let i = at.index(line.len() + 1);
            match op {
                0 if i < line.len() => line[i] = byte,
                1 if i < line.len() => { line.remove(i); }
                _ => line.insert(i, byte),
            }
        }
        let ours = scan::record(&line, &paths(&["a", "a.b", "b[]"]), &mut Out::default());
        let valid = serde_json::from_slice::<serde::de::IgnoredAny>(&line).is_ok();
        let object = line.iter().find(|b| !b" \t\r\n".contains(b)) == Some(&b'{');
        match ours {
            Ok(()) => prop_assert!(valid && object, "{}", String::from_utf8_lossy(&line)),
            Err(scan::Bad::NotObject(_)) => prop_assert!(valid && !object),
            Err(scan::Bad::Syntax(_)) => prop_assert!(!valid, "{}", String::from_utf8_lossy(&line)),
        }
    }
}
