//! Fuzz the identifier parser (`crates/hdlscan-id`) with arbitrary bytes,
//! repair off and on (SPEC §6's whole-value repairs read a value again).
//!
//! Checks, for every input:
//! 1. `parse` and `render` never panic (nor overflow, index out of bounds…);
//! 2. exactly one kind: the value is `invalid` exactly when it has an error
//!    code, and a valid value has a namespace, a `canonical` and a `uri`;
//! 3. SPEC §3's laws for a valid value (`crates/hdlscan-id/src/laws.rs`, the same checks
//!    as `tests/laws.rs` and the regression replay in `tests/hostile.rs`).
//!
//! The parser is its own crate (`crates/hdlscan-id`, memchr only), so this
//! target does not build the whole of hdlscan.
#![no_main]

use libfuzzer_sys::fuzz_target;

use hdlscan_id::laws;

fuzz_target!(|input: &[u8]| {
    if let Err(e) = laws::check_both(input) {
        panic!("{e}");
    }
});
