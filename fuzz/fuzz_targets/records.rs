//! Fuzz `--records` (`src/io/jsonl/document.rs` and the reader around it:
//! a JSON document streamed to the array at a path, element by element)
//! with arbitrary documents, read a few bytes at a time.
//!
//! Input: byte 0 sets how many bytes each read of the source returns
//! (1 to 64), byte 1 the block size; the rest is the document, read with
//! `--records items` and the paths `doi` and `b[]`. Checks: no panic; the
//! records, their lines and values, and the error if any, are the same
//! however the reads cut the document (a step cut short is taken again,
//! never misread), and the same as one read of it whole; a document that
//! `serde_json` reads as an object whose one `items` key holds a list of
//! objects gives exactly that many records, each with the `doi` a walk of
//! it gives (when a string).
//!
//! Depends on the main crate with its `internals` feature, behind the
//! fuzz crate's `records` feature (the other targets build without it):
//! its first build compiles arrow and parquet.
//!
//! Run: `cd fuzz && cargo +nightly fuzz run records --features records -- -max_len=1024`.
#![no_main]

use hdlscan::io::jsonl::{JsonPath, JsonlBlockReader, JsonlOptions, PathSet, parse_block};
use libfuzzer_sys::fuzz_target;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use std::io::{Cursor, Read};

/// A source that gives at most `n` bytes a read.
struct Trickle {
    data: Cursor<Vec<u8>>,
    n: usize,
}

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.n);
        self.data.read(&mut buf[..n])
    }
}

/// Per record: its number, line and each path's values; or the error.
type Records = Result<Vec<(u64, u64, Vec<Vec<Vec<u8>>>)>, String>;

fn read_all(src: impl Read + Send + 'static, opts: &JsonlOptions, set: &PathSet) -> Records {
    let mut rdr = JsonlBlockReader::from_reader("in.json", src, opts.clone()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while let Some(raw) = rdr.next_block().map_err(|e| e.to_string())? {
        let b = parse_block(&raw, set, opts).map_err(|e| e.to_string())?;
        for r in 0..b.len() {
            let values = (0..set.len())
                .map(|p| b.values(r, p).map(<[u8]>::to_vec).collect())
                .collect();
            out.push((b.record(r), b.line(r), values));
        }
    }
    Ok(out)
}

/// How many times the top-level object holds the key `items`: a
/// `serde_json::Value` keeps only the last.
struct ItemsKeys;

impl<'de> Visitor<'de> for ItemsKeys {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        let mut n = 0;
        while let Some(key) = map.next_key::<String>()? {
            n += (key == "items") as usize;
            map.next_value::<IgnoredAny>()?;
        }
        Ok(n)
    }
}

fn items_keys(doc: &[u8]) -> Option<usize> {
    let mut de = serde_json::Deserializer::from_slice(doc);
    serde::Deserializer::deserialize_map(&mut de, ItemsKeys).ok()
}

fuzz_target!(|input: &[u8]| {
    let [chunk, block, doc @ ..] = input else {
        return;
    };
    let paths = [JsonPath::parse("doi").unwrap(), JsonPath::parse("b[]").unwrap()];
    let set = PathSet::new(&paths);
    let opts = JsonlOptions {
        block_size: 1 + *block as usize * 8,
        ..JsonlOptions::default().with_records(Some(JsonPath::parse("items").unwrap()))
    };
    let whole = read_all(Cursor::new(doc.to_vec()), &opts, &set);
    let n = 1 + (*chunk as usize % 64);
    let cut = read_all(
        Trickle {
            data: Cursor::new(doc.to_vec()),
            n,
        },
        &opts,
        &set,
    );
    assert_eq!(
        cut,
        whole,
        "read {n} bytes at a time: {:?}",
        String::from_utf8_lossy(doc)
    );
    let Ok(records) = whole else {
        return;
    };
    let Ok(Value::Object(top)) = serde_json::from_slice::<Value>(doc) else {
        return;
    };
    let Some(Value::Array(items)) = top.get("items") else {
        return;
    };
    if items_keys(doc) != Some(1) || !items.iter().all(Value::is_object) {
        return;
    }
    assert_eq!(records.len(), items.len(), "{:?}", String::from_utf8_lossy(doc));
    for ((_, _, values), item) in records.iter().zip(items) {
        match item.get("doi") {
            Some(Value::String(s)) => {
                assert_eq!(values[0], [s.as_bytes().to_vec()], "{:?}", String::from_utf8_lossy(doc))
            }
            None | Some(Value::Null) => assert_eq!(values[0], [Vec::<u8>::new()], "{:?}", String::from_utf8_lossy(doc)),
            Some(_) => {}
        }
    }
});
