//! What the CSV input tests share: readers over bytes, every row read
//! back with its position, compressed fixtures.

use std::io::{self, Write};
use std::path::Path;

use super::{CsvBlockReader, CsvOptions, parse_block};
use crate::io::error::PositionedError;
use crate::io::source::InputSpec;

pub(super) fn opts() -> CsvOptions {
    CsvOptions::default()
}

pub(super) fn small(block: usize) -> CsvOptions {
    CsvOptions {
        block_size: block,
        ..opts()
    }
}

pub(super) fn reader(data: &[u8], o: CsvOptions) -> Result<CsvBlockReader, PositionedError> {
    CsvBlockReader::from_reader("data.csv", io::Cursor::new(data.to_vec()), o)
}

/// All rows as (record, line, byte, fields), plus padded count.
#[allow(clippy::type_complexity)]
pub(super) fn read_all(rdr: &mut CsvBlockReader) -> Result<(Vec<(u64, u64, u64, Vec<Vec<u8>>)>, u64), PositionedError> {
    let (mut rows, mut padded) = (Vec::new(), 0);
    let mut next_record = 1;
    while let Some(raw) = rdr.next_block()? {
        assert_eq!(raw.first_record, next_record);
        next_record += raw.nrecords;
        let b = parse_block(&raw, rdr.ncols(), rdr.parse_options())?;
        assert_eq!(b.nrows() as u64, raw.nrecords);
        padded += b.padded_rows();
        for r in 0..b.nrows() {
            let fields = (0..rdr.ncols()).map(|c| b.field(r, c).to_vec()).collect();
            rows.push((b.record_number(r), b.line(r), b.byte(r), fields));
        }
    }
    Ok((rows, padded))
}

pub(super) fn fields(rows: &[(u64, u64, u64, Vec<Vec<u8>>)]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.3.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect())
        .collect()
}

pub(super) fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> InputSpec {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    InputSpec::Path(p)
}

pub(super) fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}
