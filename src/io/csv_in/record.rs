//! One CSV record of a block, as the `csv` crate reads it (RFC 4180 with its
//! leniencies: `\r`, `\n` or `\r\n` end a record, `""` inside quotes is one
//! `"`, a quote inside an unquoted field is literal), or without quoting
//! (`--no-quoting`: every `"` literal), as it reads with `quoting(false)`.
//!
//! Most records are plain fields and a few well-formed quoted ones; those
//! are read here with memchr. Anything else (text after a closing quote, a
//! quote left open) goes to a `csv` reader started at the record, which
//! reads exactly what the sequential parse would: every record starts in
//! csv-core's start state, right after a terminator and the blank lines it
//! skips. `csv_in::tests::blocks_equal_sequential_parse` checks the two agree.

use memchr::{memchr_iter, memchr3};

/// What [`read`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// Where the record's terminator starts, or `data.len()`.
    pub end: usize,
    pub fields: usize,
    /// `\n` inside quoted fields: lines the record spans beyond its first.
    pub newlines: u64,
}

/// Where a field's bytes are: `[start, end)` in the block, or, when
/// `start` has [`COPIED`] set, in the buffer of unescaped copies.
pub type Span = [u32; 2];

/// Marks a [`Span`] into the copies. Blocks are under 2 GiB
/// (`--max-record-mib` ≤ 2047), so offsets never reach this bit.
pub const COPIED: u32 = 1 << 31;

/// Reads the record starting at `data[start]` (not a blank line), pushing
/// one [`Span`] per field. A field is read in place unless unescaping
/// changes it (`""` inside quotes, csv-core's leniencies); those bytes are
/// appended to `copies`. Without `quoting`, a `"` is a byte like any other.
pub fn read(data: &[u8], start: usize, delim: u8, quoting: bool, copies: &mut Vec<u8>, spans: &mut Vec<Span>) -> Record {
    let (copies_len, spans_len) = (copies.len(), spans.len());
    // Chosen once a record, so that a field's first byte is tested for a
    // quote only when quotes are read.
    let plain = match quoting {
        true => read_plain::<true>(data, start, delim, copies, spans),
        false => read_plain::<false>(data, start, delim, copies, spans),
    };
    if let Some(r) = plain {
        return r;
    }
    copies.truncate(copies_len);
    spans.truncate(spans_len);
    read_csv(data, start, delim, quoting, copies, spans)
}

/// The memchr path; `None` when the record needs csv-core's leniencies
/// (never without `quoting`: an unquoted field ends at its delimiter).
fn read_plain<const QUOTING: bool>(
    data: &[u8],
    start: usize,
    delim: u8,
    copies: &mut Vec<u8>,
    spans: &mut Vec<Span>,
) -> Option<Record> {
    let mut pos = start;
    let (mut fields, mut newlines) = (0, 0);
    loop {
        fields += 1;
        if QUOTING && data.get(pos) == Some(&b'"') {
            pos += 1;
            let q = closing_quote(data, pos, &mut newlines)?;
            if data.get(q + 1) != Some(&b'"') {
                spans.push([pos as u32, q as u32]);
                pos = q + 1;
            } else {
                // `""` stands for `"`: unescape into the copies.
                let from = copies.len();
                copies.extend_from_slice(&data[pos..=q]);
                pos = q + 2;
                loop {
                    let q = closing_quote(data, pos, &mut newlines)?;
                    if data.get(q + 1) == Some(&b'"') {
                        copies.extend_from_slice(&data[pos..=q]);
                        pos = q + 2;
                    } else {
                        copies.extend_from_slice(&data[pos..q]);
                        pos = q + 1;
                        break;
                    }
                }
                spans.push([from as u32 | COPIED, copies.len() as u32]);
            }
        } else {
            let end = find3(data, pos, delim, b'\n', b'\r').unwrap_or(data.len());
            spans.push([pos as u32, end as u32]);
            pos = end;
        }
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

/// The next `"` from `data[pos]`, the `\n` before it counted into
/// `newlines`; `None` when none closes the field.
#[inline]
fn closing_quote(data: &[u8], mut pos: usize, newlines: &mut u64) -> Option<usize> {
    loop {
        let i = find3(data, pos, b'"', b'\n', b'\n')?;
        if data[i] == b'"' {
            return Some(i);
        }
        *newlines += 1;
        pos = i + 1;
    }
}

/// The first of `a`, `b` or `c` in `data` from `pos`, as `memchr3` finds
/// it. Most fields are short, and `memchr3` is set up anew for each: the
/// first 64 bytes are compared here, 16 at a time, in place.
#[inline]
fn find3(data: &[u8], pos: usize, a: u8, b: u8, c: u8) -> Option<usize> {
    let mut i = pos;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86_64, and each load reads the 16 bytes
        // `data[i..i + 16]`, which the loop's test keeps in bounds.
        unsafe {
            let (a, b, c) = (_mm_set1_epi8(a as i8), _mm_set1_epi8(b as i8), _mm_set1_epi8(c as i8));
            while i + 16 <= data.len() && i < pos + 64 {
                let v = _mm_loadu_si128(data.as_ptr().add(i).cast());
                let hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a), _mm_cmpeq_epi8(v, b)), _mm_cmpeq_epi8(v, c));
                let mask = _mm_movemask_epi8(hit);
                if mask != 0 {
                    return Some(i + mask.trailing_zeros() as usize);
                }
                i += 16;
            }
        }
    }
    memchr3(a, b, c, &data[i..]).map(|j| i + j)
}

/// The `csv` crate on the record alone.
fn read_csv(data: &[u8], start: usize, delim: u8, quoting: bool, copies: &mut Vec<u8>, spans: &mut Vec<Span>) -> Record {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .quoting(quoting)
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
    for f in rec.iter() {
        let from = copies.len() as u32;
        copies.extend_from_slice(f);
        spans.push([from | COPIED, copies.len() as u32]);
    }
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

/// What the tests and the fuzz target compare: a buffer read record by
/// record with [`read`], and one sequential `csv` parse of it.
#[cfg(any(test, fuzzing))]
pub mod oracle {
    use super::*;

    /// Fields of one record, and the line (0-based) it starts on.
    pub type Rows = Vec<(u64, Vec<Vec<u8>>)>;

    /// Records of `data` read with [`read`], skipping blank lines as
    /// `csv_in::parse_block` does: (line index, fields).
    pub fn ours(data: &[u8], delim: u8, quoting: bool) -> Rows {
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
            let rec = read(data, pos, delim, quoting, &mut copies, &mut spans);
            assert_eq!(rec.fields, spans.len());
            let fields = spans
                .iter()
                .map(|&[s, e]| match s & COPIED {
                    0 => data[s as usize..e as usize].to_vec(),
                    _ => copies[(s & !COPIED) as usize..e as usize].to_vec(),
                })
                .collect();
            rows.push((line, fields));
            line += rec.newlines;
            assert!(rec.end > pos || data.is_empty(), "no progress at {pos}");
            pos = rec.end;
        }
    }

    /// One sequential `csv` parse: the oracle.
    pub fn sequential(data: &[u8], delim: u8, quoting: bool) -> Rows {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delim)
            .quoting(quoting)
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
}

#[cfg(test)]
mod tests {
    use super::oracle::{ours, sequential};
    use memchr::memchr3;
    use proptest::prelude::*;

    #[test]
    fn leniencies_match_csv() {
        for data in [
            &b"a,\"b\"\"c\",d\n"[..],
            b"\"ab\"cd,e\r\nx",
            b"a\"b,\"c\nd\",e\n\n\"open",
            b"\"\",,\r\r\n,\"x\"",
            b"a,b,",
        ] {
            assert_eq!(
                ours(data, b',', true),
                sequential(data, b',', true),
                "{:?}",
                String::from_utf8_lossy(data)
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn find3_finds_what_memchr3_finds(
            data in proptest::collection::vec(
                prop::sample::select(vec![b'a', b'a', b'a', b'a', b',', b'"', b'\n', b'\r']), 0..200),
            pos in 0usize..200,
        ) {
            let pos = pos.min(data.len());
            let want = memchr3(b',', b'\n', b'\r', &data[pos..]).map(|i| pos + i);
            prop_assert_eq!(super::find3(&data, pos, b',', b'\n', b'\r'), want);
        }

        #[test]
        fn long_fields_read_as_csv_reads_them(
            data in proptest::collection::vec(
                prop::sample::select(vec![b'a', b'a', b'a', b'a', b'a', b'a', b',', b'"', b'\n', b'\r']), 0..400),
        ) {
            prop_assert_eq!(ours(&data, b',', true), sequential(&data, b',', true));
        }

        #[test]
        fn any_bytes_read_as_csv_reads_them(
            data in proptest::collection::vec(
                prop::sample::select(vec![b'a', b',', b'\t', b'"', b'\n', b'\r', b' ']), 0..60),
            tab in any::<bool>(),
        ) {
            let delim = if tab { b'\t' } else { b',' };
            prop_assert_eq!(ours(&data, delim, true), sequential(&data, delim, true));
            prop_assert_eq!(ours(&data, delim, false), sequential(&data, delim, false));
        }
    }
}
