//! The parser bench's two loops, shared by `benches/parse.rs` (criterion)
//! and `crates/hdlscan-id/examples/parse_count.rs` (instructions under
//! callgrind), so both measure the same code: `classify` is
//! `Parser::parse` per value, `classify_render` is `parse` then `render`
//! (`canonical`, `uri`, `url`).

use hdlscan_id::{Parser, Rendered, Scratch};
use std::hint::black_box;

/// Parses every value; returns how many are valid.
pub fn classify(parser: &Parser, values: &[Vec<u8>], scratch: &mut Scratch) -> usize {
    let mut valid = 0;
    for v in values {
        let p = parser.parse(black_box(v), scratch);
        valid += p.error.is_none() as usize;
        black_box(&p);
    }
    valid
}

/// Parses and renders every value; returns the rendered forms' length.
pub fn classify_render(parser: &Parser, values: &[Vec<u8>], scratch: &mut Scratch, out: &mut Rendered) -> usize {
    let mut len = 0;
    for v in values {
        let p = parser.parse(black_box(v), scratch);
        parser.render(&p, out);
        len += out.canonical().map_or(0, str::len) + out.uri().map_or(0, str::len) + out.url().map_or(0, str::len);
        black_box(&*out);
    }
    len
}
