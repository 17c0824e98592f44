//! Fuzz the identifier parser (`src/id/`) with arbitrary bytes, repair off.
//!
//! Checks, for every input:
//! 1. `parse` and `render` never panic (nor overflow, index out of bounds…);
//! 2. exactly one kind: the value is `invalid` exactly when it has an error
//!    code, and a valid value has a namespace, a `canonical` and a `uri`;
//! 3. SPEC §3's laws for a valid value: parsing its `uri`, and its `url`
//!    when it has one, gives back the same `canonical`, and re-rendering
//!    gives the same `uri` / `url` (normalizing twice changes nothing);
//!    parsing its `canonical` gives it back too, when the canonical is an
//!    `info:` URI or its first prefix segment is all digits and the suffix
//!    neither starts nor ends with a character the parser trims (white
//!    space, U+200B, U+FEFF) — the same conditions as `tests/laws.rs`.
//!
//! The parser's sources are included directly (they need only `memchr`),
//! so this crate does not build the whole of hdlscan.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/id/mod.rs"]
#[allow(dead_code)]
mod id;

use id::{Kind, Options, Parser, Rendered, Scratch};

/// What a law compares, owned.
#[derive(Debug, PartialEq)]
struct Seen {
    kind: Kind,
    canonical: Option<String>,
    uri: Option<String>,
    url: Option<String>,
}

fn see(parser: &Parser, v: &[u8]) -> Seen {
    let mut scratch = Scratch::default();
    let mut out = Rendered::default();
    let p = parser.parse(v, &mut scratch);
    assert_eq!(p.kind == Kind::Invalid, p.error.is_some(), "one kind: {p:?}");
    if p.kind != Kind::Invalid {
        assert!(p.namespace.is_some(), "valid without a namespace: {p:?}");
        assert_eq!(p.prefix.is_some(), p.suffix.is_some(), "{p:?}");
        assert!(p.prefix.is_some() || p.info_identifier.is_some(), "{p:?}");
    }
    parser.render(&p, &mut out);
    let seen = Seen {
        kind: p.kind,
        canonical: out.canonical().map(str::to_owned),
        uri: out.uri().map(str::to_owned),
        url: out.url().map(str::to_owned),
    };
    assert_eq!(
        seen.kind != Kind::Invalid,
        seen.canonical.is_some(),
        "{p:?} rendered {seen:?}"
    );
    assert_eq!(seen.canonical.is_some(), seen.uri.is_some(), "{p:?} rendered {seen:?}");
    seen
}

fn trimmable_edge(s: &str) -> bool {
    s.starts_with(id::chars::is_trim_char) || s.ends_with(id::chars::is_trim_char)
}

fuzz_target!(|input: &[u8]| {
    let first = see(&Parser::new(Options::default()), input);
    let Some(canonical) = first.canonical.as_deref() else {
        return;
    };
    // Rendering can lengthen a value past the length limit (escapes triple
    // bytes); the laws are about syntax, so read the rendered forms back
    // without a limit.
    let mut unlimited = Options::default();
    unlimited.max_len = usize::MAX;
    let parser = Parser::new(unlimited);
    let uri = first.uri.as_deref().unwrap();
    let via_uri = see(&parser, uri.as_bytes());
    assert_eq!(via_uri.canonical.as_deref(), Some(canonical), "uri {uri:?}");
    assert_eq!(via_uri.uri.as_deref(), Some(uri), "uri twice");
    if let Some(url) = first.url.as_deref() {
        let via_url = see(&parser, url.as_bytes());
        assert_eq!(via_url.canonical.as_deref(), Some(canonical), "url {url:?}");
        assert_eq!(via_url.url.as_deref(), Some(url), "url twice");
    }
    let suffix = canonical.split_once('/').map_or("", |(_, s)| s);
    let first_segment = canonical.split(['.', '/']).next().unwrap_or("");
    let numeric = !first_segment.is_empty() && first_segment.bytes().all(|b| b.is_ascii_digit());
    if (numeric && !trimmable_edge(suffix)) || canonical.starts_with("info:") {
        let again = see(&parser, canonical.as_bytes());
        assert_eq!(again.canonical.as_deref(), Some(canonical), "canonical {canonical:?}");
    }
});
