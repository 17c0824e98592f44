//! Fuzz the CSV record-boundary splitter against the `csv` crate.
//!
//! Input: byte 0 selects the delimiter (bit 0: `,` or `\t`) and quoting
//! (bit 1 set: `Splitter::unquoted`), byte 1 the chunk size the reader
//! feeds; the rest is the CSV. Checks:
//! 1. every boundary found incrementally equals the byte-by-byte oracle
//!    (with quoting; without, no quote is left open);
//! 2. cutting at every boundary and parsing each piece with `csv` gives
//!    exactly the records of one sequential parse;
//! 3. the same for block-reader style cuts (last boundary per chunk).
//!
//! The splitter source is included directly (it only needs `memchr`), so
//! this crate does not build the whole of hdlscan.
//!
//! Run: `cd fuzz && cargo +nightly fuzz run split -- -max_len=512`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/io/csv_in/boundary.rs"]
#[allow(dead_code)]
mod split;

use split::{Splitter, oracle_boundaries, quoted_csv_records};

fuzz_target!(|input: &[u8]| {
    if input.len() < 2 {
        return;
    }
    let delim = if input[0] & 1 == 0 { b',' } else { b'\t' };
    let quoting = input[0] & 2 == 0;
    let records = |d: &[u8], delim| quoted_csv_records(d, delim, quoting);
    let splitter = || match quoting {
        true => Splitter::new(delim),
        false => Splitter::new(delim).unquoted(),
    };
    let piece = input[1] as usize + 1;
    let data = &input[2..];
    let whole = records(data, delim);

    // 1 + 2: all boundaries, fed in `piece`-byte chunks.
    let mut sp = splitter();
    let mut bounds = Vec::new();
    for chunk in data.chunks(piece) {
        let mut rest = chunk;
        loop {
            let (used, b) = sp.next_boundary(rest);
            rest = &rest[used..];
            match b {
                Some(b) => bounds.push(b),
                None => break,
            }
        }
        assert!(rest.is_empty());
    }
    let end = sp.finish();
    let unclosed = end.as_ref().err().copied();
    if let Ok(b) = end {
        bounds.extend(b);
        assert_eq!(sp.records() as usize, whole.len());
    }
    match quoting {
        true => assert_eq!((bounds.clone(), unclosed), oracle_boundaries(data, delim)),
        false => assert!(unclosed.is_none()),
    }

    let mut joined = Vec::new();
    let mut start = 0;
    for b in &bounds {
        let recs = records(&data[start..b.offset as usize], delim);
        assert_eq!(recs.len(), 1);
        joined.extend(recs);
        start = b.offset as usize;
    }
    joined.extend(records(&data[start..], delim));
    assert_eq!(joined, whole);

    // 3: block-reader style.
    let mut sp = splitter();
    let mut joined = Vec::new();
    let mut start = 0;
    let mut fed = 0;
    for chunk in data.chunks(piece) {
        if let Some(b) = sp.scan(chunk) {
            joined.extend(records(&data[start..b.offset as usize], delim));
            start = b.offset as usize;
        }
        fed += chunk.len();
    }
    assert_eq!(fed, data.len());
    joined.extend(records(&data[start..], delim));
    assert_eq!(joined, whole);
});
