//! Fuzz the memchr CSV record reader (`src/io/csv_in/record.rs`) against the `csv`
//! crate.
//!
//! Input: byte 0 selects the delimiter (bit 0: `,` or `\t`) and quoting
//! (bit 1 set: `--no-quoting`); the rest is the CSV. Reading record after record with `record::read` (skipping
//! blank lines as `csv_in::parse_block` does) must give exactly the fields
//! and start lines of one sequential `csv` parse.
//!
//! The reader's source is included directly (it needs `memchr` and `csv`),
//! with the oracle its unit tests use (`record::oracle`, built under
//! `cfg(fuzzing)`).
//!
//! Run: `cd fuzz && cargo +nightly fuzz run record -- -max_len=512`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/io/csv_in/record.rs"]
mod record;

fuzz_target!(|input: &[u8]| {
    let Some((&sel, data)) = input.split_first() else {
        return;
    };
    let delim = if sel & 1 == 0 { b',' } else { b'\t' };
    let quoting = sel & 2 == 0;
    assert_eq!(
        record::oracle::ours(data, delim, quoting),
        record::oracle::sequential(data, delim, quoting)
    );
});
