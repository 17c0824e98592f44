//! The identifier parser: one raw value (bytes) in, what SPEC.md says it is
//! out. Pure: no I/O, no threads, no arrow.
//!
//! ```
//! use hdlscan::id::{Parser, Options, Scratch, Rendered, Kind};
//! let parser = Parser::new(Options::default());
//! let (mut scratch, mut out) = (Scratch::default(), Rendered::default());
//! let p = parser.parse(b" doi:10.1045/April2006-Paskin ", &mut scratch);
//! assert_eq!(p.kind, Kind::Doi);
//! assert_eq!(p.suffix, Some("April2006-Paskin"));
//! parser.render(&p, &mut out);
//! assert_eq!(out.canonical(), Some("10.1045/april2006-paskin"));
//! ```
//!
//! `parse` borrows from the input where nothing changes and decodes into the
//! caller's `Scratch` otherwise; `render` writes into the caller's
//! `Rendered`. Reusing both across values means a batch allocates per batch,
//! not per value.

pub mod chars;
pub mod codes;
pub mod percent;

pub use codes::{ErrorCode, Kind, Warning, Warnings};

use std::sync::Arc;

/// How to parse. Built once, shared by every thread through [`Parser`].
#[derive(Debug, Clone)]
pub struct Options {
    /// Apply the repairs of SPEC §3 to `canonical`, `uri` and `url`.
    pub repair: bool,
    /// Values longer than this many bytes are `too_long` (SPEC §4).
    pub max_len: usize,
    resolvers: Vec<UserResolver>,
}

/// A resolver host the user named (`--resolver HOST[/PATH]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserResolver {
    /// Lowercase host, with `:port` when one was given.
    pub host: String,
    /// Path before the handle, `""` or like `/handle` (no trailing `/`).
    pub path: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            repair: false,
            max_len: 2048,
            resolvers: Vec::new(),
        }
    }
}

impl Options {
    /// Adds a resolver `HOST[:PORT][/PATH]` (an `http(s)://` in front is
    /// accepted and ignored).
    pub fn add_resolver(&mut self, spec: &str) -> Result<(), String> {
        let s = spec.trim();
        let s = ["https://", "http://"]
            .iter()
            .find(|p| chars::starts_with_ci(s, p))
            .map_or(s, |p| &s[p.len()..]);
        let (host, path) = match s.find('/') {
            Some(i) => (&s[..i], s[i..].trim_end_matches('/')),
            None => (s, ""),
        };
        if host.is_empty()
            || !host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]_".contains(&b))
        {
            return Err(format!(
                "--resolver {spec:?}: expected HOST[:PORT][/PATH], e.g. repository.example.edu/handle"
            ));
        }
        self.resolvers.push(UserResolver {
            host: host.to_ascii_lowercase(),
            path: path.to_string(),
        });
        Ok(())
    }

    pub fn resolvers(&self) -> &[UserResolver] {
        &self.resolvers
    }
}

/// The parser: options behind an `Arc`, so cloning one per thread is cheap.
#[derive(Debug, Clone)]
pub struct Parser {
    opts: Arc<Options>,
}

/// Reusable buffers for [`Parser::parse`].
#[derive(Debug, Default)]
pub struct Scratch {
    buf: String,
    bytes: Vec<u8>,
}

/// What a value is. Every field but `kind`, `error` and `warnings` is `None`
/// for an invalid value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parsed<'a> {
    pub kind: Kind,
    pub error: Option<ErrorCode>,
    pub warnings: Warnings,
    /// `doi`, `hdl`, or the lowercase `info:` namespace.
    pub namespace: Option<&'a str>,
    /// The handle's parts, percent-decoded, as read.
    pub prefix: Option<&'a str>,
    pub suffix: Option<&'a str>,
    /// `host[:port]` of a resolver URL or `hdl://` server, lowercase.
    pub resolver: Option<&'a str>,
    /// Raw, from URI and URL forms.
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
    /// The normalized identifier of an `info:` URI outside `hdl`/`doi`.
    pub info_identifier: Option<&'a str>,
}

/// The rendered columns of SPEC §3: `canonical`, `uri`, `url`.
#[derive(Debug, Default, Clone)]
pub struct Rendered {
    canonical: String,
    uri: String,
    url: String,
    has_url: bool,
    valid: bool,
}

impl Rendered {
    pub fn canonical(&self) -> Option<&str> {
        self.valid.then_some(self.canonical.as_str())
    }
    pub fn uri(&self) -> Option<&str> {
        self.valid.then_some(self.uri.as_str())
    }
    pub fn url(&self) -> Option<&str> {
        (self.valid && self.has_url).then_some(self.url.as_str())
    }
}

impl Parser {
    pub fn new(opts: Options) -> Parser {
        Parser {
            opts: Arc::new(opts),
        }
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Parses one raw value.
    pub fn parse<'a>(&self, raw: &'a [u8], scratch: &'a mut Scratch) -> Parsed<'a> {
        let _ = (raw, &scratch.buf, &scratch.bytes);
        todo!("parser body")
    }

    /// Renders `canonical`, `uri` and `url` of `p` into `out`.
    pub fn render(&self, p: &Parsed<'_>, out: &mut Rendered) {
        let _ = (
            p,
            &out.canonical,
            &out.uri,
            &out.url,
            out.has_url,
            out.valid,
        );
        todo!("renderer")
    }
}
