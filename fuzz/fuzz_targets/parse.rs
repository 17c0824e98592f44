//! Fuzz the identifier parser (`src/id/`) with arbitrary bytes, repair off.
//!
//! Checks, for every input:
//! 1. `parse` and `render` never panic (nor overflow, index out of bounds…);
//! 2. exactly one kind: the value is `invalid` exactly when it has an error
//!    code, and a valid value has a namespace, a `canonical` and a `uri`;
//! 3. SPEC §3's laws for a valid value (`src/id/laws.rs`, the same checks
//!    as `tests/laws.rs` and the regression replay in `tests/hostile.rs`).
//!
//! The parser's sources are included directly (they need only `memchr`),
//! so this crate does not build the whole of hdlscan.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/id/mod.rs"]
#[allow(dead_code)]
mod id;

use id::{Options, laws};

fuzz_target!(|input: &[u8]| {
    // Built per input: cheap next to parsing, and no state between runs.
    let (parser, again) = laws::parsers(&Options::default());
    if let Err(e) = laws::check(&parser, &again, input) {
        panic!("{e}");
    }
});
