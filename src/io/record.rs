//! One CSV record of a block, as the `csv` crate reads it (RFC 4180 with its
//! leniencies: `\r`, `\n` or `\r\n` end a record, `""` inside quotes is one
//! `"`, a quote inside an unquoted field is literal).
//!
//! Most records are plain fields and a few well-formed quoted ones; those
//! are read here with memchr. Anything else (text after a closing quote, a
//! quote left open) goes to a `csv` reader started at the record, which
//! reads exactly what the sequential parse would: every record starts in
//! csv-core's start state, right after a terminator and the blank lines it
//! skips. `csv_in::tests::blocks_equal_sequential_parse` checks the two agree.

use memchr::{memchr, memchr_iter, memchr3};

/// What [`read`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// Where the record's terminator starts, or `data.len()`.
    pub end: usize,
    pub fields: usize,
    /// `\n` inside quoted fields: lines the record spans beyond its first.
    pub newlines: u64,
}

/// Reads the record starting at `data[start]` (not a blank line): appends
/// its unescaped field bytes to `out` and each field's end offset (into
/// `out`) to `ends`.
pub fn read(data: &[u8], start: usize, delim: u8, out: &mut Vec<u8>, ends: &mut Vec<u32>) -> Record {
    let (out_len, ends_len) = (out.len(), ends.len());
    if let Some(r) = read_plain(data, start, delim, out, ends) {
        return r;
    }
    out.truncate(out_len);
    ends.truncate(ends_len);
    read_csv(data, start, delim, out, ends)
}

/// The memchr path; `None` when the record needs csv-core's leniencies.
fn read_plain(data: &[u8], start: usize, delim: u8, out: &mut Vec<u8>, ends: &mut Vec<u32>) -> Option<Record> {
    let mut pos = start;
    let (mut fields, mut newlines) = (0, 0);
    loop {
        fields += 1;
        if data.get(pos) == Some(&b'"') {
            pos += 1;
            loop {
                let q = pos + memchr(b'"', &data[pos..])?;
                out.extend_from_slice(&data[pos..q]);
                newlines += memchr_iter(b'\n', &data[pos..q]).count() as u64;
                if data.get(q + 1) == Some(&b'"') {
                    out.push(b'"');
                    pos = q + 2;
                } else {
                    pos = q + 1;
                    break;
                }
            }
        } else {
            let end = memchr3(delim, b'\n', b'\r', &data[pos..]).map_or(data.len(), |i| pos + i);
            out.extend_from_slice(&data[pos..end]);
            pos = end;
        }
        ends.push(out.len() as u32);
        match data.get(pos) {
            None | Some(b'\n' | b'\r') => {
                return Some(Record {
                    end: pos,
                    fields,
                    newlines,
                });
            }
            Some(&b) if b == delim => pos += 1,
            // Text after a closing quote: csv-core keeps it, leave it to csv-core.
            Some(_) => return None,
        }
    }
}

/// The `csv` crate on the record alone.
fn read_csv(data: &[u8], start: usize, delim: u8, out: &mut Vec<u8>, ends: &mut Vec<u32>) -> Record {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .from_reader(&data[start..]);
    let mut rec = csv::ByteRecord::new();
    // Reading a byte slice cannot fail, and `start` begins a record.
    if !matches!(rdr.read_byte_record(&mut rec), Ok(true)) {
        return Record {
            end: data.len(),
            fields: 0,
            newlines: 0,
        };
    }
    let base = out.len() as u32;
    out.extend_from_slice(rec.as_slice());
    ends.extend(rec.iter().scan(base, |end, f| {
        *end += f.len() as u32;
        Some(*end)
    }));
    // The csv position is past the terminator; step back onto it so the
    // caller skips it (and counts its line) as after any other record.
    let mut end = start + rdr.position().byte() as usize;
    while end > start && matches!(data[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    Record {
        end,
        fields: rec.len(),
        newlines: memchr_iter(b'\n', &data[start..end]).count() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Records of `data` read with [`read`], skipping blank lines as
    /// `csv_in::parse_block` does: (line index, fields).
    fn ours(data: &[u8], delim: u8) -> Vec<(u64, Vec<Vec<u8>>)> {
        let (mut pos, mut line, mut rows) = (0, 0u64, Vec::new());
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        loop {
            while pos < data.len() && matches!(data[pos], b'\n' | b'\r') {
                line += (data[pos] == b'\n') as u64;
                pos += 1;
            }
            if pos == data.len() {
                return rows;
            }
            out.clear();
            ends.clear();
            let rec = read(data, pos, delim, &mut out, &mut ends);
            assert_eq!(rec.fields, ends.len());
            let mut fields = Vec::new();
            let mut at = 0;
            for &e in &ends {
                fields.push(out[at..e as usize].to_vec());
                at = e as usize;
            }
            rows.push((line, fields));
            line += rec.newlines;
            assert!(rec.end > pos || data.is_empty(), "no progress at {pos}");
            pos = rec.end;
        }
    }

    /// One sequential `csv` parse: the oracle.
    fn sequential(data: &[u8], delim: u8) -> Vec<(u64, Vec<Vec<u8>>)> {
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
            let line = memchr_iter(b'\n', &data[..start]).count() as u64;
            rows.push((line, rec.iter().map(<[u8]>::to_vec).collect()));
            prev = rdr.position().byte() as usize;
        }
        rows
    }

    #[test]
    fn leniencies_match_csv() {
        for data in [
            &b"a,\"b\"\"c\",d\n"[..],
            b"\"ab\"cd,e\r\nx",
            b"a\"b,\"c\nd\",e\n\n\"open",
            b"\"\",,\r\r\n,\"x\"",
            b"a,b,",
        ] {
            assert_eq!(ours(data, b','), sequential(data, b','), "{:?}", String::from_utf8_lossy(data));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn any_bytes_read_as_csv_reads_them(
            data in proptest::collection::vec(
                prop::sample::select(vec![b'a', b',', b'\t', b'"', b'\n', b'\r', b' ']), 0..60),
            tab in any::<bool>(),
        ) {
            let delim = if tab { b'\t' } else { b',' };
            prop_assert_eq!(ours(&data, delim), sequential(&data, delim));
        }
    }
}
