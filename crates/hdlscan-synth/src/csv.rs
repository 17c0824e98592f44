//! CSV exports: one [`Row`] a record, in the columns of a [`Layout`],
//! quoted only where needed, LF line ends.

use crate::text::{decimal, write_buffered};
use crate::{Layout, Row, Synth};
use std::io::{self, Write};

/// Appends `s` as one CSV field: quoted when it holds `,`, `"`, CR or LF or
/// starts or ends with a space or tab, `"` doubled inside.
pub fn push_field(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let needs = memchr::memchr3(b',', b'"', b'\n', b).is_some()
        || memchr::memchr(b'\r', b).is_some()
        || matches!(b.first(), Some(b' ' | b'\t'))
        || matches!(b.last(), Some(b' ' | b'\t'));
    if !needs {
        out.extend_from_slice(b);
        return;
    }
    out.push(b'"');
    let mut rest = b;
    while let Some(i) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(&rest[..=i]);
        out.push(b'"');
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// Appends the header of `layout`, LF-terminated.
pub fn push_header(out: &mut Vec<u8>, layout: &Layout) {
    for (i, name) in layout.names().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_field(out, name);
    }
    out.push(b'\n');
}

/// Appends `row` as one record in the columns of `layout`, LF-terminated.
/// No allocation.
pub fn push_row(out: &mut Vec<u8>, layout: &Layout, row: &Row) {
    for (i, column) in layout.columns().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match row.text(column) {
            Some(text) => push_field(out, text),
            None => out.extend_from_slice(decimal(row.id, &mut [0; 20]).as_bytes()),
        }
    }
    out.push(b'\n');
}

/// Writes `n_rows` rows of `synth` (ids `first_id..`), no header.
pub(crate) fn write_rows<W: Write>(
    w: &mut W,
    layout: &Layout,
    synth: &mut Synth,
    first_id: u64,
    n_rows: u64,
) -> io::Result<()> {
    let mut row = Row::default();
    write_buffered(w, first_id..first_id + n_rows, |id, buf| {
        synth.next_row(id, &mut row);
        push_row(buf, layout, &row);
    })
}

/// Writes an export: the header of `layout`, then `n_rows` rows of `synth`
/// with ids `1..=n_rows`.
pub fn write_csv<W: Write>(mut w: W, layout: &Layout, mut synth: Synth, n_rows: u64) -> io::Result<()> {
    let mut header = Vec::new();
    push_header(&mut header, layout);
    w.write_all(&header)?;
    write_rows(&mut w, layout, &mut synth, 1, n_rows)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_parses_with_the_csv_crate() {
        let mut out = Vec::new();
        write_csv(&mut out, &Layout::DSPACE, Synth::new(11), 5000).unwrap();
        let text = std::str::from_utf8(&out).unwrap();
        assert!(text.contains("\"\""), "some quotes in titles");
        let mut rd = csv::Reader::from_reader(out.as_slice());
        assert_eq!(
            rd.headers().unwrap().iter().collect::<Vec<_>>().join(","),
            "id,collection,dc.title,dc.date.issued,dc.type,dc.identifier.uri"
        );
        let mut n = 0;
        let mut multiline = 0;
        let mut s = Synth::new(11);
        let mut row = Row::default();
        for rec in rd.records() {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), 6);
            n += 1;
            s.next_row(n, &mut row);
            assert_eq!(&rec[0], n.to_string());
            assert_eq!(&rec[2], row.title);
            assert_eq!(&rec[5], row.identifier, "identifiers survive CSV unchanged");
            multiline += rec[2].contains('\n') as usize;
        }
        assert_eq!(n, 5000);
        assert!(multiline > 0);
    }
}
