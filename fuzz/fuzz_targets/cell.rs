//! Fuzz the cell splitter (`hdlscan_id::Split`, SPEC §6 "Splitting
//! cells") with arbitrary bytes: `auto` and at DSpace's `||`.
//!
//! Checks, for every input, `laws::check_split` (shared with
//! `crates/hdlscan-id/tests/split.rs`): no panic; the pieces are in order,
//! inside the cell and never empty; what stands between them is separator;
//! a cell that is not split is one piece, itself. And each piece of an
//! `auto` split is one value: parsed again, never `multiple_values`.
#![no_main]

use hdlscan_id::{ErrorCode, Options, Parser, Scratch, Split, laws};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|cell: &[u8]| {
    let parser = Parser::new(Options::default());
    for split in [Split::Auto, Split::At(b"||".to_vec())] {
        let pieces = laws::check_split(&parser, &split, cell).unwrap_or_else(|e| panic!("{e}"));
        if split == Split::Auto && pieces.len() > 1 {
            for r in pieces {
                let mut scratch = Scratch::default();
                let p = parser.parse(&cell[r.clone()], &mut scratch);
                assert_ne!(p.error, Some(ErrorCode::MultipleValues), "{cell:?}: piece {r:?}");
            }
        }
    }
});
