//! Fuzz the memchr CSV record reader (`src/io/record.rs`) against the `csv`
//! crate.
//!
//! Input: byte 0 selects the delimiter (bit 0: `,` or `\t`); the rest is
//! the CSV. Reading record after record with `record::read` (skipping
//! blank lines as `csv_in::parse_block` does) must give exactly the fields
//! and start lines of one sequential `csv` parse.
//!
//! The reader's source is included directly (it needs `memchr` and `csv`).
//!
//! Run: `cd fuzz && cargo +nightly fuzz run record -- -max_len=512`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/io/record.rs"]
mod record;

type Rows = Vec<(u64, Vec<Vec<u8>>)>;

fn ours(data: &[u8], delim: u8) -> Rows {
    let (mut pos, mut line, mut rows) = (0, 0u64, Vec::new());
    let (mut copies, mut spans) = (Vec::new(), Vec::new());
    loop {
        while pos < data.len() && matches!(data[pos], b'\n' | b'\r') {
            line += (data[pos] == b'\n') as u64;
            pos += 1;
        }
        if pos == data.len() {
            return rows;
        }
        copies.clear();
        spans.clear();
        let rec = record::read(data, pos, delim, &mut copies, &mut spans);
        assert_eq!(rec.fields, spans.len());
        assert!(rec.end > pos, "no progress at {pos}");
        let fields = spans
            .iter()
            .map(|&[s, e]| match s & record::COPIED {
                0 => data[s as usize..e as usize].to_vec(),
                _ => copies[(s & !record::COPIED) as usize..e as usize].to_vec(),
            })
            .collect();
        rows.push((line, fields));
        line += rec.newlines;
        pos = rec.end;
    }
}

fn sequential(data: &[u8], delim: u8) -> Rows {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .from_reader(data);
    let mut rec = csv::ByteRecord::new();
    let (mut rows, mut prev) = (Vec::new(), 0usize);
    while rdr.read_byte_record(&mut rec).unwrap() {
        let mut start = prev;
        while matches!(data[start], b'\n' | b'\r') {
            start += 1;
        }
        let line = memchr::memchr_iter(b'\n', &data[..start]).count() as u64;
        rows.push((line, rec.iter().map(<[u8]>::to_vec).collect()));
        prev = rdr.position().byte() as usize;
    }
    rows
}

fuzz_target!(|input: &[u8]| {
    let Some((&sel, data)) = input.split_first() else {
        return;
    };
    let delim = if sel & 1 == 0 { b',' } else { b'\t' };
    assert_eq!(ours(data, delim), sequential(data, delim));
});
