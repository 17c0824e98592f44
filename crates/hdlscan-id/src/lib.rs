//! The identifier parser: one raw value (bytes) in, what SPEC.md says it is
//! out. Pure: no I/O, no threads, no arrow.
//!
//! ```
//! use hdlscan_id::{Parser, Options, Scratch, Rendered, Kind};
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
//!
//! # Where each section of SPEC.md is decided
//!
//! Three readers answer a value, in this order: the fast path
//! (`fast::parse_seen`: the commonest forms), its rare forms
//! (`fast::rare::read`), and the full parser (`dispatch`: every form). The
//! first two answer only what the full parser would answer; the agreement
//! suite (`fast/tests.rs`) checks it. Each rule below is one function the
//! readers share.
//!
//! | SPEC section | decided by | tested by |
//! | --- | --- | --- |
//! | §1 handles and DOIs: prefix grammar, DOI rule, case | `handle::check` (and `handle::split_bare_encoded`, `handle::split_uri_part` for `%2F`) | `handle::tests`, `tests/conformance.rs` |
//! | §1 `bad_utf8`, `control_char` | `Parser::parse_slow` (`from_utf8`), `chars::scan`, `chars::is_control` | `chars::tests` |
//! | §2 trimming and `trimmed` | `chars::trim_bytes` (`chars::trim` on text), `chars::trimmed` | `chars::tests::trim_is_trim_matches`, `fast/tests.rs` `agrees_on_unicode_at_the_ends` |
//! | §2 which form applies | `dispatch` (full), `fast::form_of` (fast) | `tests/conformance.rs`, `fast/tests.rs` |
//! | §2 bare values, `doi:` labels, `urn:doi:` | `label::bare`, `label::doi_labels`, `label::urn_doi` | `tests/conformance.rs` |
//! | §2 `hdl:` URIs, server or prefix host | `hdl_uri::parse`, `hdl_uri::names_server`, `authority::parse` | `tests/conformance.rs`, `authority::tests` |
//! | §2 `info:` URIs | `info_uri::parse`, `info_uri::other_identifier` | `info_uri::tests`, `tests/conformance.rs` |
//! | §2 resolver URLs (v3: `hdl.…`/`handle.…` hosts, older DSpace file paths, `hdl:` in the path) | `resolver::parse`, `resolver::route`, `resolver::part_head` | `resolver::tests`, `tests/conformance.rs` (`v3-forms.json`) |
//! | §2 URLs without their scheme, misspelt schemes (v3) | `resolver::is_schemeless_url`, `resolver::scheme_typo` (the fast path asks the same two: `fast::is_url`) | `resolver::tests`, `tests/conformance.rs` (`v3-forms.json`) |
//! | §2 wrapped identifiers (v3) | `info_uri::wrapped`, `other::wrapped` | `tests/conformance.rs` (`v3-forms.json`) |
//! | §2, §3 query and fragment, kept raw | `chars::split_off` | `tests/conformance.rs` |
//! | §3 columns: `canonical`, `uri`, `url` | `render::render` | `render::tests` |
//! | §3 dirt warnings and their repairs (`test_prefix` and `template_suffix` in `dirt::flag_placeholders`) | `dirt::flag`, `dirt::repair`; which warnings repair: `Warning::is_repairable` | `dirt::tests`, `tests/conformance.rs` (`v2-handle.json`, `v3-rules.json`) |
//! | §3 laws | `laws` (feature `laws`) | `tests/laws.rs`, `tests/conformance.rs` `conformance_laws` |
//! | §4 codes and their spelling | `codes` (`Kind`, `ErrorCode`, `Warning`) | `codes::tests` |
//! | §5 examples | the conformance corpus, `testdata/conformance*.json` | `tests/conformance.rs` |
//! | §6 order of the checks before the forms: `empty`, `control_char`, `formula_text`, `placeholder` | `whole::before_forms` (`whole::formula_text`, `whole::is_placeholder`) | `tests/conformance.rs` (`v2-values.json`, `v3-rules.json`) |
//! | §6 raw whitespace (with `\n`, `\r`, `\t` written as text), separators, pieces | `pieces` (`pieces::space_len`, `pieces::has_raw_space`, `pieces::Pieces`) | `pieces::tests` |
//! | §6 `multiple_values`, `wrapped_line`, `extra_text` | `whole::check` | `tests/conformance.rs` (`v2-values.json`) |
//! | §6 `publisher_url` (v3: a `doi=` parameter, a file extension dropped by its repair) | `resolver::publisher_doi`, `resolver::doi_param`, `resolver::is_publisher_url` | `resolver::tests`, `tests/conformance.rs` |
//! | §6 `unexpected_namespace` | `Parser::expected` | `tests/conformance.rs` |
//! | §6 whole-value repairs | `read_value`, `whole::repaired_as`, `Warning::is_whole_value_repair` | `tests/conformance.rs` |
//! | §6 splitting cells | `split::Split` | `tests/split.rs` |
//! | §7 changes in version 2 | (history: each change is decided where its section is) | |
//! | §8 other schemes: check characters, shapes, canonical, `url` | `other::check`, `other::ids`, `other::render` | `other::check::tests` (property tests against the standards' definitions), `tests/other.rs`, `tests/conformance.rs` (`v3-other.json`) |
//! | §8 labelled and bare forms, PubMed's tags; §6 sees them (`other::head_len`, `other::spaced_shape`, `other::piece_may_be`) | `other::parse` (`other::labels`) | `other::labels::tests`, `tests/other.rs` |
//! | §8 resolver URLs | `other::url::read`, asked by `resolver::parse` | `other::url::tests`, `tests/conformance.rs` |
//! | §8 declared shapes (`--expect`) | `other::declared` | `tests/conformance.rs` (`v3-declared-*`) |
//! | §8 on the fast path: left to `rare::read`, which reads labelled and bare values (`other::read_one`) and the schemes' resolver URLs (`other::url::reading`) as the full parser does | `other::may_be`, `other::url::claims` | `fast/tests.rs`, `tests/other.rs` (fast and full agree) |

#![deny(missing_docs)]

mod authority;
pub mod chars;
mod classes;
pub mod codes;
mod dirt;
mod fast;
mod handle;
mod hdl_uri;
mod info_uri;
mod label;
#[cfg(feature = "laws")]
pub mod laws;
mod other;
pub mod percent;
mod pieces;
#[cfg(test)]
mod reference;
mod render;
mod resolver;
mod split;
mod whole;

pub use codes::{ErrorCode, Kind, Warning, Warnings};
pub use split::Split;

use std::sync::Arc;

/// How to parse. Built once, shared by every thread through [`Parser`].
#[derive(Debug, Clone)]
pub struct Options {
    /// Apply the repairs of SPEC §3 to `canonical`, `uri` and `url`.
    pub repair: bool,
    /// Values longer than this many bytes are `too_long` (SPEC §4).
    pub max_len: usize,
    resolvers: Vec<UserResolver>,
    /// The namespaces a column holds (`--expect`); empty: any (SPEC §6
    /// `unexpected_namespace`).
    expect: Vec<String>,
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
            expect: Vec::new(),
        }
    }
}

impl Options {
    /// Adds a resolver `HOST[:PORT][/PATH]` (an `http(s)://` in front is
    /// accepted and ignored); see `resolver::user_resolver` for what is
    /// refused.
    pub fn add_resolver(&mut self, spec: &str) -> Result<(), String> {
        self.resolvers.push(resolver::user_resolver(spec)?);
        Ok(())
    }

    /// The local resolvers added with [`Options::add_resolver`].
    pub fn resolvers(&self) -> &[UserResolver] {
        &self.resolvers
    }

    /// Declares that values should be of namespace `ns` (`doi`, `hdl`, a
    /// scheme of SPEC §8 such as `issn`, an `info:` namespace SPEC §2
    /// names, or `info:NAME` for another; any case), repeatable: a valid
    /// value of any other namespace becomes `unexpected_namespace` (SPEC
    /// §6), and a §8 scheme's shapes without hyphens are read (SPEC §8
    /// "declared"). Refuses what no value's namespace could be, and a bare
    /// name SPEC does not know: a typo (`dio`) would make every value
    /// `unexpected_namespace`.
    pub fn expect(&mut self, ns: &str) -> Result<(), String> {
        let lower = ns.trim().to_ascii_lowercase();
        let (name, info) = match lower.strip_prefix("info:") {
            Some(name) => (name, true),
            None => (lower.as_str(), false),
        };
        let known = other::Scheme::from_name(name).is_some() || info_uri::is_known(name);
        if !info_uri::is_namespace(name) || !(known || info) {
            let schemes: Vec<&str> = other::Scheme::ALL.iter().map(|s| s.name()).collect();
            let infos: Vec<&str> = info_uri::KNOWN
                .into_iter()
                .filter(|k| !["doi", "hdl"].contains(k) && !schemes.contains(k))
                .collect();
            return Err(format!(
                "{ns:?}: not a namespace hdlscan reads; expected doi, hdl, a scheme ({}), an info: namespace ({}), or info:NAME for another",
                schemes.join(", "),
                infos.join(", ")
            ));
        }
        let name = name.to_string();
        if !self.expect.contains(&name) {
            self.expect.push(name);
        }
        Ok(())
    }

    /// The namespaces `expect` declared, lowercase.
    pub fn expected(&self) -> &[String] {
        &self.expect
    }
}

/// The parser: options behind an `Arc`, so cloning one per thread is cheap.
#[derive(Debug, Clone)]
pub struct Parser {
    opts: Arc<Options>,
    /// The longest value `parse` reads without a look at `--expect` or
    /// `too_long`: `max_len`, or 0 with `--expect`. One compare on the
    /// path every value takes, and no load through the `Arc`.
    plain_len: usize,
}

/// Reusable buffers for [`Parser::parse`].
#[derive(Debug, Default)]
pub struct Scratch {
    buf: String,
    bytes: Vec<u8>,
    repair: dirt::RepairBufs,
    /// What a whole-value repair (SPEC §6) reads instead of the value.
    whole: String,
}

/// How much of SPEC a reading applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// A value: §1–3 and §6, with §6's whole-value repairs when asked.
    Value,
    /// What a whole-value repair left: §1–3 and §6, no repair again.
    Repaired,
    /// A piece of a value (§6 "is an identifier"): §1–3 only.
    Forms,
}

/// What a value is. Every field but `kind`, `error` and `warnings` is `None`
/// for an invalid value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// SPEC §3's `kind`.
    pub kind: Kind,
    /// The error code of an invalid value (SPEC §4).
    pub error: Option<ErrorCode>,
    /// The warnings, valid or not (SPEC §4).
    pub warnings: Warnings,
    /// `doi`, `hdl`, or the lowercase `info:` namespace.
    pub namespace: Option<&'a str>,
    /// The handle's prefix, percent-decoded, as read.
    pub prefix: Option<&'a str>,
    /// The handle's suffix, percent-decoded, as read.
    pub suffix: Option<&'a str>,
    /// `host[:port]` of a resolver URL or `hdl://` server, lowercase.
    pub resolver: Option<&'a str>,
    /// The query of a URI or URL form, raw.
    pub query: Option<&'a str>,
    /// The fragment of a URI or URL form, raw.
    pub fragment: Option<&'a str>,
    /// The normalized identifier of an `info:` URI outside `hdl`/`doi`,
    /// or of a scheme of SPEC §8 (`9780306406157` for `isbn`), as its
    /// canonical writes it after `scheme:`.
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
    repair: dirt::RepairBufs,
}

impl Rendered {
    /// SPEC §3's `canonical`; `None` for an invalid value.
    pub fn canonical(&self) -> Option<&str> {
        self.valid.then_some(self.canonical.as_str())
    }
    /// `None` for the identifiers of SPEC §8, which have no `uri`.
    pub fn uri(&self) -> Option<&str> {
        (self.valid && !self.uri.is_empty()).then_some(self.uri.as_str())
    }
    /// SPEC §3's `url`; `None` for an invalid value or one without a
    /// resolver URL.
    pub fn url(&self) -> Option<&str> {
        (self.valid && self.has_url).then_some(self.url.as_str())
    }
}

impl Parser {
    /// A parser with these options; cheap to clone and share across threads.
    pub fn new(opts: Options) -> Parser {
        let plain_len = if opts.expect.is_empty() { opts.max_len } else { 0 };
        Parser {
            opts: Arc::new(opts),
            plain_len,
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Parses one raw value (SPEC §1, §2): classifies it, splits and decodes
    /// it, and collects its error or warnings. Allocates nothing once
    /// `scratch` has grown to the size of the values seen.
    pub fn parse<'a>(&self, raw: &'a [u8], scratch: &'a mut Scratch) -> Parsed<'a> {
        scratch.buf.clear();
        if raw.len() > self.plain_len {
            return self.parse_checked(raw, scratch);
        }
        // The fast path proves a value ASCII as it reads it, so only values
        // holding other bytes are validated as UTF-8.
        let seen = fast::see(raw);
        if let Some(p) = fast::parse_seen(&seen, &self.opts, &mut scratch.repair) {
            return p;
        }
        self.parse_rest(raw, &seen, scratch)
    }

    /// `parse` of a value longer than `plain_len`: `too_long`, or (what
    /// else is longer than a `plain_len` of 0) read with `--expect`.
    #[cold]
    #[inline(never)]
    fn parse_checked<'a>(&self, raw: &'a [u8], scratch: &'a mut Scratch) -> Parsed<'a> {
        // §6: trimming comes before too_long, so a value padded to a fixed
        // width (a CHAR(4000) column) is judged on what it holds, and
        // white space alone is `empty`. Only a long value is trimmed here.
        if raw.len() > self.opts.max_len && chars::trim_bytes(raw).len() > self.opts.max_len {
            return Parsed::invalid(ErrorCode::TooLong, Warnings::EMPTY);
        }
        // `--expect` changes the answer: a `Parsed` passed through one
        // more binding or returned from two places is copied, so values
        // read with it take a path of their own.
        if !self.opts.expect.is_empty() {
            return self.parse_expecting(raw, scratch);
        }
        let seen = fast::see(raw);
        match fast::parse_seen(&seen, &self.opts, &mut scratch.repair) {
            Some(p) => p,
            None => self.parse_slow(raw, &seen, scratch),
        }
    }

    /// `parse` with `--expect`: the same reading, then `expected`. Out of
    /// line, so that `parse` returns the fast path's answer in place.
    #[cold]
    #[inline(never)]
    fn parse_expecting<'a>(&self, raw: &'a [u8], scratch: &'a mut Scratch) -> Parsed<'a> {
        // SPEC §8 "declared": the shapes of a declared scheme.
        if let Some((reading, warnings)) = other::declared::read(&self.opts.expect, raw) {
            return other::parsed(reading, warnings, &mut scratch.buf);
        }
        let seen = fast::see(raw);
        let mut p = match fast::parse_seen(&seen, &self.opts, &mut scratch.repair) {
            Some(p) => p,
            None => self.parse_slow(raw, &seen, scratch),
        };
        self.expected(&mut p);
        p
    }

    /// SPEC §6 `unexpected_namespace`, last, on a valid value: an invalid
    /// value that keeps the namespace found.
    #[cold]
    #[inline(never)]
    fn expected(&self, p: &mut Parsed<'_>) {
        if let Some(ns) = p.namespace
            && p.error.is_none()
            && !self.opts.expect.iter().any(|e| e == ns)
        {
            *p = Parsed {
                namespace: Some(ns),
                ..Parsed::invalid(ErrorCode::UnexpectedNamespace, p.warnings)
            };
        }
    }

    /// What the fast path leaves: the rarer forms `fast::rare` reads, then
    /// the full parser. Out of line, so that `parse` keeps its registers
    /// for the fast path.
    #[cold]
    #[inline(never)]
    fn parse_rest<'a>(&self, raw: &'a [u8], seen: &fast::Seen<'a>, scratch: &'a mut Scratch) -> Parsed<'a> {
        self.parse_slow(raw, seen, scratch)
    }

    /// `parse_rest`'s reading, which `parse_expecting` shares.
    #[inline(always)]
    fn parse_slow<'a>(&self, raw: &'a [u8], seen: &fast::Seen<'a>, scratch: &'a mut Scratch) -> Parsed<'a> {
        let scratch = match fast::rare::read(seen, &self.opts, scratch) {
            Ok(p) => return p,
            Err(scratch) => scratch,
        };
        let Ok(input) = std::str::from_utf8(raw) else {
            return Parsed::invalid(ErrorCode::BadUtf8, Warnings::EMPTY);
        };
        self.parse_full(input, scratch)
    }

    /// The full parser alone, with `--expect`'s steps as `parse` takes
    /// them: what `parse`, fast path and all, must agree with (the laws).
    #[cfg(any(test, feature = "laws"))]
    fn parse_full_expecting<'a>(&self, input: &'a str, scratch: &'a mut Scratch) -> Parsed<'a> {
        if self.opts.expect.is_empty() {
            return self.parse_full(input, scratch);
        }
        if let Some((reading, warnings)) = other::declared::read(&self.opts.expect, input.as_bytes()) {
            return other::parsed(reading, warnings, &mut scratch.buf);
        }
        let mut p = self.parse_full(input, scratch);
        self.expected(&mut p);
        p
    }

    /// The full parser, every form of SPEC §2; `parse` comes here when the
    /// fast path gives up.
    fn parse_full<'a>(&self, input: &'a str, scratch: &'a mut Scratch) -> Parsed<'a> {
        read_value(input, scratch, &self.opts, Level::Value)
    }

    /// Renders `canonical`, `uri` and `url` of `p` into `out` (SPEC §3),
    /// applying repairs when the options say so.
    pub fn render(&self, p: &Parsed<'_>, out: &mut Rendered) {
        render::render(p, self.opts.repair, out);
    }

    /// `render`'s `canonical` alone, for a caller that needs neither
    /// `uri` nor `url` (an audit): `out.uri()` and `out.url()` are then
    /// `None`.
    pub fn render_canonical(&self, p: &Parsed<'_>, out: &mut Rendered) {
        render::render_canonical(p, self.opts.repair, out);
    }
}

impl<'a> Parsed<'a> {
    fn invalid(error: ErrorCode, warnings: Warnings) -> Parsed<'a> {
        Parsed {
            kind: Kind::Invalid,
            error: Some(error),
            warnings,
            namespace: None,
            prefix: None,
            suffix: None,
            resolver: None,
            query: None,
            fragment: None,
            info_identifier: None,
        }
    }

    /// True for DOIs in any form (SPEC §3 `namespace`).
    pub fn is_doi(&self) -> bool {
        self.namespace == Some("doi")
    }
}

/// Where a piece of the result lives: in the input (nothing changed), in
/// the scratch buffer (decoded or normalized), or a literal.
#[derive(Debug, Clone, Copy, Default)]
enum Span {
    #[default]
    None,
    In(u32, u32),
    Buf(u32, u32),
    Lit(&'static str),
}

impl Span {
    fn get<'a>(self, input: &'a str, buf: &'a str) -> Option<&'a str> {
        match self {
            Span::None => None,
            Span::In(a, b) => Some(&input[a as usize..b as usize]),
            Span::Buf(a, b) => Some(&buf[a as usize..b as usize]),
            Span::Lit(s) => Some(s),
        }
    }
}

/// The result under construction.
#[derive(Debug, Default)]
struct Draft {
    kind: Option<Kind>,
    warnings: Warnings,
    namespace: Span,
    prefix: Span,
    suffix: Span,
    resolver: Span,
    query: Span,
    fragment: Span,
    info_id: Span,
    /// With an error of SPEC §6 that has a whole-value repair
    /// (`publisher_url`'s DOI): the text to read instead.
    whole: Span,
}

impl Draft {
    fn finish<'a>(self, input: &'a str, buf: &'a str) -> Parsed<'a> {
        Parsed {
            kind: self.kind.unwrap_or(Kind::Invalid),
            error: None,
            warnings: self.warnings,
            namespace: self.namespace.get(input, buf),
            prefix: self.prefix.get(input, buf),
            suffix: self.suffix.get(input, buf),
            resolver: self.resolver.get(input, buf),
            query: self.query.get(input, buf),
            fragment: self.fragment.get(input, buf),
            info_identifier: self.info_id.get(input, buf),
        }
    }
}

/// Parsing context: the whole (UTF-8) input, the scratch buffers, the draft.
struct Cx<'a> {
    input: &'a str,
    buf: &'a mut String,
    bytes: &'a mut Vec<u8>,
    repair: &'a mut dirt::RepairBufs,
    opts: &'a Options,
    level: Level,
    /// Byte classes of the whole trimmed value: what no part of it holds
    /// need not be looked for again.
    scan: chars::Scan,
    d: Draft,
}

impl<'a> Cx<'a> {
    fn warn(&mut self, w: Warning) {
        self.d.warnings.add(w);
    }

    /// The span of `sub`, which must be a sub-slice of the input.
    fn span_of(&self, sub: &str) -> Span {
        let start = sub.as_ptr() as usize - self.input.as_ptr() as usize;
        debug_assert!(start + sub.len() <= self.input.len());
        Span::In(start as u32, (start + sub.len()) as u32)
    }

    /// The span of `sub` lowercased (ASCII): the input itself when already
    /// lowercase, else a lowercase copy in the scratch buffer.
    fn lowercase(&mut self, sub: &'a str) -> Span {
        if !sub.bytes().any(|b| b.is_ascii_uppercase()) {
            return self.span_of(sub);
        }
        let start = self.buf.len();
        self.buf.push_str(sub);
        self.buf[start..].make_ascii_lowercase();
        Span::Buf(start as u32, self.buf.len() as u32)
    }

    /// A handle part: as it is for bare values, percent-decoded once for URI
    /// and URL forms (SPEC §2 "Splitting URIs and URLs").
    fn part(&mut self, raw: &'a str, decode: bool) -> Result<Span, ErrorCode> {
        if !decode || !self.scan.percent {
            return Ok(self.span_of(raw));
        }
        Ok(match decode_part(raw, self.bytes, self.buf)? {
            None => self.span_of(raw),
            Some((a, b)) => Span::Buf(a as u32, b as u32),
        })
    }

    /// Flags `unencoded_chars` when a URI component holds a byte it should
    /// have percent-encoded.
    fn check_encoded(&mut self, parts: &[Option<&str>]) {
        let unencoded = parts.iter().flatten().any(|p| percent::has_unencoded(p));
        self.d.warnings.add_if(unencoded, Warning::UnencodedChars);
    }
}

/// The full parser at `level`: every form of SPEC §2, and at
/// `Level::Value` SPEC §6 with its whole-value repairs when the options
/// ask for repairs: a value whose §6 error has one is read as what the
/// repair leaves, when that is valid, and keeps the error's name as a
/// warning (SPEC §6 "Whole-value repairs").
fn read_value<'a>(input: &'a str, scratch: &'a mut Scratch, opts: &Options, level: Level) -> Parsed<'a> {
    let Scratch {
        buf,
        bytes,
        repair,
        whole,
    } = scratch;
    buf.clear();
    let (d, result) = read(input, buf, bytes, repair, opts, level);
    let Err(e) = result else {
        let buf: &'a String = buf;
        return d.finish(input, buf);
    };
    if level == Level::Value
        && opts.repair
        && let Some(code) = whole::repaired_as(e)
        && let Some(text) = d.whole.get(input, buf)
    {
        text.clone_into(whole);
        buf.clear();
        let whole: &'a String = whole;
        let (again, result) = read(whole, buf, bytes, repair, opts, Level::Repaired);
        if result.is_ok() {
            let buf: &'a String = buf;
            let mut p = again.finish(whole, buf);
            p.warnings |= d.warnings;
            p.warnings.add(code);
            return p;
        }
    }
    // SPEC §6: §8's errors keep the namespace found.
    let namespace = match e {
        ErrorCode::BadCheckDigit | ErrorCode::BadPid => d.namespace.get(input, buf),
        _ => None,
    };
    Parsed {
        namespace,
        ..Parsed::invalid(e, d.warnings)
    }
}

/// One reading of `input` by the full parser: the draft, and the error
/// that ended it.
fn read(
    input: &str,
    buf: &mut String,
    bytes: &mut Vec<u8>,
    repair: &mut dirt::RepairBufs,
    opts: &Options,
    level: Level,
) -> (Draft, Result<(), ErrorCode>) {
    let mut cx = Cx {
        input,
        buf,
        bytes,
        repair,
        opts,
        level,
        scan: chars::Scan::default(),
        d: Draft::default(),
    };
    let result = dispatch(&mut cx);
    (cx.d, result)
}

/// A handle part of a URI or URL percent-decoded once (SPEC §2 "Splitting
/// URIs and URLs"), through `bytes`, and appended to `buf`: its range there,
/// or `None` when it holds no escape and stays as written. Decoded bytes
/// must be UTF-8 without control characters. `Cx::part` and the fast
/// path's `rare::read` share it.
fn decode_part(raw: &str, bytes: &mut Vec<u8>, buf: &mut String) -> Result<Option<(usize, usize)>, ErrorCode> {
    if chars::find_byte(b'%', raw.as_bytes()).is_none() {
        return Ok(None);
    }
    percent::decode_into(raw, bytes)?;
    let s = std::str::from_utf8(bytes).map_err(|_| ErrorCode::BadUtf8)?;
    if chars::scan(s).control {
        return Err(ErrorCode::ControlChar);
    }
    let start = buf.len();
    buf.push_str(s);
    Ok(Some((start, buf.len())))
}

/// Trims, rejects what no form accepts, and hands the value to the one form
/// that applies (SPEC §2).
fn dispatch(cx: &mut Cx<'_>) -> Result<(), ErrorCode> {
    let input = cx.input;
    let t = chars::trim(input);
    cx.d.warnings |= chars::trimmed(input.as_bytes(), t.as_bytes());
    cx.scan = chars::scan(t);
    // A piece (`Level::Forms`) is one value by definition; `whole::check`
    // tells the others exactly.
    let found = whole::Found {
        control: cx.scan.control,
        marked: false,
    };
    // A §8 label, read once for the steps below that ask.
    let lab = other::label(t);
    // A value of SPEC §8 whose groups are joined by spaces is one value.
    match whole::before_forms(t, found, || cx.level != Level::Forms && !other::spaced_shape(t, lab)) {
        whole::Before::Error(e) => {
            // `formula_text`'s repair reads the quoted text.
            if let Some(quoted) = whole::formula_text(t).filter(|_| e == ErrorCode::FormulaText) {
                cx.d.whole = cx.span_of(quoted);
            }
            return Err(e);
        }
        whole::Before::Several => whole::check(cx, t)?,
        whole::Before::Forms => {}
    }
    if let Some(read) = other::parse(cx, t, lab) {
        return read;
    }
    if let Some(doi) = other::doi_tag(t) {
        return label::labelled(cx, doi);
    }
    let first = t.as_bytes()[0];
    if first.is_ascii_digit() && !resolver::is_schemeless_url(t) {
        // Most values are bare handles and DOIs; no scheme starts with a
        // digit, but a host may (`3dprint.com/…`).
        return label::bare(cx, t);
    }
    if chars::starts_with_ci(t, "hdl:") {
        return hdl_uri::parse(cx, &t[4..]);
    }
    if chars::starts_with_ci(t, "info:") {
        return info_uri::parse(cx, &t[5..]);
    }
    if let Some(url) = resolver::UrlStart::detect(t, cx.opts) {
        return resolver::parse(cx, url);
    }
    if let Some((https, at)) = resolver::scheme_typo(t) {
        // Its whole-value repair reads the value with the scheme written right.
        let start = cx.buf.len();
        cx.buf.push_str(if https { "https://" } else { "http://" });
        cx.buf.push_str(&t[at..]);
        cx.d.whole = Span::Buf(start as u32, cx.buf.len() as u32);
        return Err(ErrorCode::SchemeTypo);
    }
    if chars::starts_with_ci(t, "urn:doi:") {
        return label::urn_doi(cx, &t[8..]);
    }
    if let Some(rest) = label::strip_doi_labels(cx, t) {
        return label::labelled(cx, rest);
    }
    if let Some(scheme) = label::scheme_of(t) {
        return Err(
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
                ErrorCode::BadUri
            } else {
                ErrorCode::UnsupportedScheme
            },
        );
    }
    label::bare(cx, t)
}
