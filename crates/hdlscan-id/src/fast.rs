//! The fast path: one walk that reads the commonest forms and gives up
//! (`None`) on anything else, so `Parser::parse` runs the full parser.
//!
//! It takes ASCII values without control characters in these forms: bare
//! handles and DOIs (and the errors of bare values: `empty`, `no_slash`,
//! `bad_prefix`, …), `doi:` labels (`doubled_label` when more than one),
//! `hdl:` path URIs, `urn:doi:`, `info:doi/` and `info:hdl/`, and resolver URLs:
//! `http(s)://` on the global resolvers (any case, `/api/handles/`, `doi:`
//! inside the path), the global hosts without a scheme, and another
//! (lowercase) host's `/hdl/` and `/handle/` paths and DSpace's UI paths
//! or `not_a_resolver_url`, routed by `resolver::route` as the full
//! parser routes them; a handle part that does not start with a digit
//! (shortDOIs, `urn:doi:`, a URL written twice, whitespace), file URLs
//! and landing pages holding a DOI (`publisher_url`) are the full
//! parser's. URI and URL forms must hold no `%`.
//! A value whose only non-ASCII characters are white space trimming removes
//! (NBSP, U+3000, a BOM at its ends) is read the same way once `trim` has
//! trimmed it. A value with non-ASCII characters
//! after its prefix (invisible characters, dashes in a suffix) is read by
//! the same code once `Text::non_ascii` has proved it UTF-8.
//! One pass (`classes::of`) finds what the value holds and where its `/`
//! are; bare values, the commonest, take a short path of their own
//! (`bare`), the marked forms another (`marked`). The value is proved
//! UTF-8 by then and cut only at its ASCII bytes, so its parts are cut
//! without `str`'s char-boundary checks (`Text`).
//! Everything SPEC.md says about the handle itself (prefix grammar, DOI
//! rule, dirt warnings) is not repeated here: `handle::check` and
//! `dirt::flag` decide it, as on the full path, and `dirt::may_flag` lets a
//! clean handle skip `dirt::flag`. A value the fast path answers gets the
//! very `Parsed` the full parser would give; the `agrees_*` tests check that
//! on the conformance corpus and on generated values.

use super::chars::Scan;
use super::classes::{self, AMP, Classes, GIVE_UP, NON_ASCII, PCT, QUERY, SEP, SPACE, UNENCODED};
use super::codes::{ErrorCode, Kind, Warning, Warnings};
use super::dirt::{self, RepairBufs};
use super::handle::{self, Rule};
use super::resolver::{self, GLOBAL, Route, Scheme};
use super::{Options, Parsed, chars, other, percent, whole};

pub mod rare;

/// ASCII White_Space: what `chars::trim` removes that is one byte long.
fn is_ascii_trim(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// The form found by the value's first bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A bare value, taken literally: handles and DOIs, and what no other
    /// form claims (`N/A`, `-`, …).
    Bare,
    /// One `doi:` (or `doi `) label, then a DOI taken literally.
    Label,
    /// Two or more labels (`doubled_label`), then a DOI taken literally.
    Labels,
    /// `hdl:` path form.
    Hdl,
    /// `urn:doi:`, where a `:` may stand for the first `/`.
    UrnDoi,
    /// `info:doi/` (`true`) or `info:hdl/`.
    Info(bool),
    /// A URL; `Some(true)` for `https`, `None` when written without a scheme.
    Url(Option<bool>),
}

impl Form {
    /// URI and URL forms, whose parts would be percent-decoded: `marked`
    /// leaves them to `rare::read` and the full parser when they hold `%`.
    fn decodes(self) -> bool {
        !matches!(self, Form::Label | Form::Labels)
    }
}

/// A raw value trimmed, and the classes of its bytes: what `parse` reads
/// first, taken once, and handed to `rare::read` when `parse` gives up
/// (one value in thirty: taking them again cost it 200 instructions).
#[derive(Clone, Copy)]
pub struct Seen<'a> {
    pub t: &'a [u8],
    pub classes: Classes,
}

/// `raw` trimmed, and its classes.
#[inline(always)]
pub fn see(raw: &[u8]) -> Seen<'_> {
    let t = trim(raw);
    Seen {
        t,
        classes: classes::of(t),
    }
}

/// Reads `raw` if it is one of the forms above; `None` sends it to the
/// full parser.
#[inline(always)]
pub fn parse<'a>(raw: &'a [u8], opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    parse_seen(raw, &see(raw), opts, bufs)
}

/// `parse`, of `raw` as `see` saw it. Marked `#[inline]` so that
/// `Parser::parse`, its one caller, can inline it from any codegen unit:
/// unmarked, whether it was inlined followed how the crate fell into
/// codegen units, and an edit elsewhere in `id/mod.rs` made it a call
/// (568 → 615 instructions a value; 580 marked so).
#[inline(always)]
pub fn parse_seen<'a>(raw: &'a [u8], seen: &Seen<'a>, opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    let Seen { t, ref classes } = *seen;
    let text = if classes.acc & (GIVE_UP | NON_ASCII) == 0 {
        // SAFETY: no byte of `t` is NON_ASCII.
        unsafe { Text::ascii_unchecked(t) }
    } else {
        Text::non_ascii(t, classes.acc)?
    };
    read(text, classes, raw.len(), opts, bufs)
}

/// `raw` trimmed (SPEC §2): without the characters `chars::is_trim_char`
/// names at its ends, ASCII white space and the Unicode white space pasted
/// around values (NBSP, U+3000, a BOM). The ASCII runs are counted 16
/// bytes at a time; a non-ASCII end goes to `trim_unicode`, so a value
/// with a NBSP around it is read on the first pass, not after a pass that
/// fails (one value in 120 of the benchmark's mix, which cost 240 ns amid
/// it that way).
#[inline(always)]
pub(crate) fn trim(raw: &[u8]) -> &[u8] {
    // Most values have nothing to trim: both ends printable ASCII.
    let printable = |b: &u8| b.wrapping_sub(0x21) < 0x5F;
    if raw.first().is_some_and(printable) && raw.last().is_some_and(printable) {
        return raw;
    }
    let (mut start, mut end) = (0, raw.len());
    if let Some((lead, trail)) = classes::ascii_space_runs(raw) {
        (start, end) = (lead, raw.len() - trail);
    } else {
        while start < end && is_ascii_trim(raw[start]) {
            start += 1;
        }
        while end > start && is_ascii_trim(raw[end - 1]) {
            end -= 1;
        }
    }
    if start < end && (!raw[start].is_ascii() || !raw[end - 1].is_ascii()) {
        return trim_unicode(&raw[start..end]);
    }
    &raw[start..end]
}

/// `trim` for a value with a non-ASCII end: whole characters that
/// `chars::is_trim_char` names, ASCII or not, from both ends. Bytes that
/// are not UTF-8 stop it (the full parser reports them).
#[cold]
#[inline(never)]
fn trim_unicode(mut b: &[u8]) -> &[u8] {
    while let Some(len) = trim_char_len(b) {
        b = &b[len..];
    }
    while let Some(&x) = b.last() {
        // The start of the last character: up to two continuation bytes back.
        let len = if x.is_ascii() {
            1
        } else {
            match (1..=3).find(|&k| b.len() > k - 1 && b[b.len() - k] & 0xC0 != 0x80) {
                Some(k) if k > 1 => k,
                _ => break,
            }
        };
        if trim_char_len(&b[b.len() - len..]) != Some(len) {
            break;
        }
        b = &b[..b.len() - len];
    }
    b
}

/// The length of the character `b` starts with, if it is UTF-8 and one
/// `chars::is_trim_char` names. Decoded here rather than by
/// `std::str::from_utf8`, whose general code cost a trimmed character
/// about 45 instructions: no trim character takes four bytes, and a
/// sequence of two or three is UTF-8 when its continuation bytes are and
/// it is neither overlong nor a surrogate.
fn trim_char_len(b: &[u8]) -> Option<usize> {
    let cont = |i: usize| b.get(i).filter(|&&c| c & 0xC0 == 0x80).map(|&c| u32::from(c & 0x3F));
    let (code, len) = match *b.first()? {
        x @ 0x00..=0x7F => (u32::from(x), 1),
        x @ 0xC2..=0xDF => ((u32::from(x) & 0x1F) << 6 | cont(1)?, 2),
        x @ 0xE0..=0xEF => ((u32::from(x) & 0x0F) << 12 | cont(1)? << 6 | cont(2)?, 3),
        _ => return None,
    };
    // `from_u32` refuses surrogates; below U+0800, three bytes are overlong.
    let c = char::from_u32(code).filter(|_| len < 3 || code >= 0x800)?;
    chars::is_trim_char(c).then_some(len)
}

/// The trimmed value `t`, in whichever form it has.
#[inline(always)]
fn read<'a>(
    t: Text<'a>,
    classes: &Classes,
    raw_len: usize,
    opts: &Options,
    bufs: &mut RepairBufs,
) -> Option<Parsed<'a>> {
    let mut ws = Warnings::EMPTY;
    if t.len() != raw_len {
        ws.add(Warning::Trimmed);
    }
    let tb = t.bytes();
    let Some(&first) = tb.first() else {
        return Some(Parsed::invalid(ErrorCode::Empty, ws));
    };
    // A bare value starting with a digit is read as such whatever hosts the
    // user added; anything else could be one of their URLs.
    if first.is_ascii_digit() {
        if tb.len() == 1 && whole::is_placeholder(t.s) {
            return Some(Parsed::invalid(ErrorCode::Placeholder, ws));
        }
        // Not `.then(|| bare(..))`: the closure is a function of its own,
        // which the compiler left out of line once `Parser::parse` had a
        // second caller of `fast::parse` (39 instructions a value).
        if !bare_readable(t, classes) {
            return None;
        }
        return Some(bare(t, classes, ws, bufs));
    }
    if !opts.resolvers().is_empty() {
        return None;
    }
    match form_of(tb, classes)? {
        (Form::Bare, _) if whole::is_placeholder(t.s) => Some(Parsed::invalid(ErrorCode::Placeholder, ws)),
        (Form::Bare, _) if bare_readable(t, classes) => Some(bare(t, classes, ws, bufs)),
        (Form::Bare, _) => None,
        // What `marked` leaves, before `one_value`: SPEC §6's look at
        // a SICI DOI holding `%` cost 700 instructions, and `rare::read`
        // takes it again.
        (form, _) if form.decodes() && classes.acc & PCT != 0 => None,
        // With repairs on, a landing page is read again as its DOI: the
        // full parser's.
        (form, at) if one_value(t, classes, form) => marked(t, classes, form, at, ws, bufs)
            .filter(|p| !(opts.repair && p.error == Some(ErrorCode::PublisherUrl))),
        _ => None,
    }
}

/// False when SPEC §6 may have a say, which the full parser decides: the
/// value holds a space (but for a label's, which `marked` tells from a
/// space in the handle, `without_label_space`) or separator bytes that
/// may cut it into two identifiers. Raw whitespace of other kinds never
/// comes here: tab, CR and LF are `GIVE_UP`, and `Text::non_ascii`
/// refuses Unicode white space.
#[inline(always)]
fn one_value(t: Text<'_>, classes: &Classes, form: Form) -> bool {
    let raw_space = (classes.acc & SPACE != 0) & !matches!(form, Form::Label | Form::Labels);
    !(raw_space || (classes.may_separate(t.bytes()) && classes.may_be_several(t.bytes())))
}

/// A trimmed value proved UTF-8: ASCII by the class pass alone (nearly
/// every value), or by `non_ascii`. The fast path cuts it only where its
/// own ASCII bytes stand (after a head it matched, at a `/`, `?` or `#`,
/// at its ends), which are char boundaries, so `cut` slices without the
/// checks `str` slicing makes at both ends. Values holding non-ASCII take
/// the same code as ASCII ones: a path of their own would be cold when
/// one came (one value in seventy), and its misses in the instruction
/// cache cost more than its reading (440 ns such a value amid the
/// benchmark's mix, against 160 ns alone).
/// Whether it holds non-ASCII is its classes' `NON_ASCII`, which every
/// step has at hand.
#[derive(Clone, Copy)]
struct Text<'a> {
    s: &'a str,
}

impl<'a> Text<'a> {
    /// Safety: every byte of `b` must be ASCII.
    #[inline(always)]
    unsafe fn ascii_unchecked(b: &'a [u8]) -> Self {
        debug_assert!(b.is_ascii());
        Text {
            // SAFETY: ASCII is UTF-8.
            s: unsafe { std::str::from_utf8_unchecked(b) },
        }
    }

    /// `t` (trimmed) holding non-ASCII or control characters (`acc`, its
    /// classes): readable when it is UTF-8 without control characters (C0
    /// and DEL are GIVE_UP; the C1 controls are encoded in two bytes) and
    /// its ends are ASCII (a non-ASCII end may be Unicode white space to
    /// trim, but not one `trim` removes). Out of line, so the ASCII path keeps
    /// its registers.
    #[cold]
    #[inline(never)]
    fn non_ascii(t: &'a [u8], acc: u8) -> Option<Self> {
        if acc & GIVE_UP != 0 || !t.first()?.is_ascii() || !t.last()?.is_ascii() {
            return None;
        }
        // White space inside is raw (SPEC §6): the full parser's.
        if !chars::is_utf8_without_c1_or_space(t) {
            return None;
        }
        // SAFETY: `t` is UTF-8 (above).
        Some(Text {
            s: unsafe { std::str::from_utf8_unchecked(t) },
        })
    }

    /// True when `self[..i]` is ASCII. In a value holding non-ASCII, the
    /// label, scheme, host and prefix must not, or the full parser could
    /// read them otherwise (a Unicode space after a `doi` label): only the
    /// suffix, query and fragment may.
    #[inline(always)]
    fn ascii_before(self, classes: &Classes, i: usize) -> bool {
        classes.acc & NON_ASCII == 0 || self.bytes()[..i].is_ascii()
    }

    /// `ascii_before` the prefix's end in a bare value: its first `/`, or
    /// its end when it has none.
    #[inline(always)]
    fn prefix_ascii(self, classes: &Classes) -> bool {
        classes.acc & NON_ASCII == 0
            || self.ascii_before(
                classes,
                classes.slash(self.bytes(), 0, self.len()).unwrap_or(self.len()),
            )
    }

    fn bytes(self) -> &'a [u8] {
        self.s.as_bytes()
    }

    fn len(self) -> usize {
        self.s.len()
    }

    /// `self[a..b]`, where `a` and `b` are the ends or the places of ASCII
    /// bytes.
    #[inline(always)]
    fn cut(self, a: usize, b: usize) -> &'a str {
        debug_assert!(self.s.is_char_boundary(a) && self.s.is_char_boundary(b));
        let part = &self.bytes()[a..b];
        // SAFETY: `self.s` is UTF-8 and `a`, `b` char boundaries (above).
        unsafe { std::str::from_utf8_unchecked(part) }
    }
}

/// A bare value (SPEC §2), the commonest form: the handle as written, with
/// the prefix rule of values without a scheme. Inlined, and apart from the
/// other forms, so this path keeps its few values in registers. `None`
/// for a value without `/` that holds a `%`: it may be split at a `%2F`
/// and its suffix decoded (`handle::split_bare_encoded`), the full
/// parser's.
#[inline(always)]
fn bare<'a>(t: Text<'a>, classes: &Classes, mut ws: Warnings, bufs: &mut RepairBufs) -> Parsed<'a> {
    let acc = classes.acc;
    let Some(slash) = classes.slash(t.bytes(), 0, t.len()) else {
        return Parsed::invalid(ErrorCode::NoSlash, ws);
    };
    let (prefix, suffix) = (t.cut(0, slash), t.cut(slash + 1, t.len()));
    let is_doi = match handle::check(prefix, suffix, Rule::Numeric, &mut ws) {
        Ok(is_doi) => is_doi,
        Err(e) => return Parsed::invalid(e, ws),
    };
    let suffix_slash = classes.slash(t.bytes(), slash + 1, t.len()).is_some();
    flag_dirt(prefix, suffix, is_doi, acc, suffix_slash, &mut ws, bufs);
    let kind = if is_doi { Kind::Doi } else { Kind::Handle };
    handle_parsed(kind, prefix, suffix, is_doi, ws)
}

/// True when `bare` may read `t`: its prefix is ASCII (`Text::prefix_ascii`),
/// SPEC §6 has no say (`one_value`), and it holds a `/` or no `%` (a
/// `%2F` split is `rare::encoded_bare`'s).
#[inline(always)]
fn bare_readable(t: Text<'_>, classes: &Classes) -> bool {
    let b = t.bytes();
    let slash = classes.slash(b, 0, t.len());
    t.prefix_ascii(classes)
        && one_value(t, classes, Form::Bare)
        && (classes.acc & PCT == 0 || slash.is_some())
        // SPEC §8's bare shapes hold no `/` but an old arXiv id's (a
        // value not starting with a digit), or end in a tag: the full
        // parser's.
        && !((slash.is_none() || !b[0].is_ascii_digit() || b[b.len() - 1] == b']') && other::may_be(b))
}

/// The handle's dirt (SPEC §3), by `dirt::flag`, when `dirt::may_flag`
/// says there can be any (always for a value holding `&`, a space or
/// non-ASCII).
#[inline(always)]
fn flag_dirt(
    prefix: &str,
    suffix: &str,
    is_doi: bool,
    acc: u8,
    suffix_slash: bool,
    ws: &mut Warnings,
    bufs: &mut RepairBufs,
) {
    if dirt::may_flag(
        prefix,
        suffix,
        is_doi,
        acc & (AMP | SPACE | NON_ASCII) != 0,
        suffix_slash,
    ) {
        let scan = Scan {
            amp: acc & AMP != 0,
            space: acc & SPACE != 0,
            non_ascii: acc & NON_ASCII != 0,
            ..Scan::default()
        };
        dirt::flag(prefix, suffix, is_doi, false, scan, ws, bufs);
    }
}

/// A valid handle's `Parsed`, but for the parts of URIs and URLs.
#[inline(always)]
fn handle_parsed<'a>(kind: Kind, prefix: &'a str, suffix: &'a str, is_doi: bool, warnings: Warnings) -> Parsed<'a> {
    Parsed {
        kind,
        error: None,
        warnings,
        namespace: Some(if is_doi { "doi" } else { "hdl" }),
        prefix: Some(prefix),
        suffix: Some(suffix),
        resolver: None,
        query: None,
        fragment: None,
        info_identifier: None,
    }
}

/// The forms marked by their first bytes (labels, URIs, URLs), whose
/// handle starts at `at`. (`parse` gives `Form::Bare` to `bare`: it is
/// matched below with the DOI labels only to keep the matches whole.)
#[inline(always)]
fn marked<'a>(
    t: Text<'a>,
    classes: &Classes,
    form: Form,
    at: usize,
    mut ws: Warnings,
    bufs: &mut RepairBufs,
) -> Option<Parsed<'a>> {
    let acc = classes.acc;
    if let Form::Url(scheme) = form
        && acc & (PCT | QUERY) == 0
        && let Some((from, host, host_ws)) = known_host(t.bytes(), at)
    {
        let mut ws = ws;
        ws.add_some(scheme_warning(scheme));
        ws.add_some(host_ws);
        // No `?` or `#`: the value's classes are the handle's.
        ws.add_if(acc & UNENCODED != 0, Warning::UnencodedChars);
        let slash = classes.slash(t.bytes(), from, t.len())?;
        let parsed = handle_split(t, classes, from, slash, t.len(), Rule::Any, Kind::ResolverUrl, ws, bufs)?;
        return Some(Parsed {
            resolver: Some(host),
            ..parsed
        });
    }
    let mut rest = t.cut(at, t.len());
    // `hdl: 1234/5`: whitespace the full parser skips (SPEC §2).
    if form == Form::Hdl && acc & SPACE != 0 && resolver::skipped_space(rest) > 0 {
        return None;
    }
    let (mut query, mut fragment, mut resolver) = (None, None, None);
    let mut rule = match form {
        Form::Bare | Form::Label | Form::Labels | Form::UrnDoi | Form::Info(true) => Rule::Doi,
        Form::Hdl | Form::Info(false) => Rule::Any,
        Form::Url(_) => Rule::Any, // set by the host below
    };
    if form == Form::Labels {
        ws.add(Warning::DoubledLabel);
    }
    if form.decodes() {
        if acc & PCT != 0 {
            return None;
        }
        let unencoded;
        if acc & QUERY != 0 {
            // A URN has no query or fragment: the full parser flags them.
            if form == Form::UrnDoi {
                return None;
            }
            let (r, f) = split_off(rest, b'#');
            let r = if let Form::Info(_) = form {
                r
            } else {
                let (r, q) = split_off(r, b'?');
                query = q;
                r
            };
            (rest, fragment) = (r, f);
            unencoded = None;
        } else {
            // No `?` or `#`: the head (scheme, label, host) holds only
            // path characters, so the value's classes are the parts'.
            unencoded = Some(acc & UNENCODED != 0);
        }
        if let Form::Url(scheme) = form {
            let url = url_parts(t, classes, at, rest.len(), scheme)?;
            let (host, part) = match url {
                Ok(p) => p,
                Err(e) => return Some(Parsed::invalid(e, ws)),
            };
            resolver = Some(host.name);
            rule = host.rule;
            rest = part;
            ws |= host.warnings;
        }
        let unencoded = unencoded.unwrap_or_else(|| {
            let handle = match form {
                Form::Info(_) => percent::has_outside(rest, &percent::INFO_RAW),
                _ => percent::has_unencoded(rest),
            };
            handle || [query, fragment].iter().flatten().any(|p| percent::has_unencoded(p))
        });
        if unencoded {
            ws.add(Warning::UnencodedChars);
        }
    }
    // Where `rest` is in `t`: the `/` are known by their place in `t`.
    let from = rest.as_ptr() as usize - t.bytes().as_ptr() as usize;
    let kind = match form {
        Form::Bare | Form::Label | Form::Labels | Form::UrnDoi => Kind::Doi,
        Form::Hdl => Kind::HdlUri,
        Form::Info(_) => Kind::InfoUri,
        Form::Url(_) => Kind::ResolverUrl,
    };
    // A label's space is not the handle's: dirt looks at the handle's.
    let label_space = matches!(form, Form::Label | Form::Labels) && acc & SPACE != 0;
    let classes = &if label_space {
        classes.with_acc(without_label_space(acc, &t.bytes()[from..])?)
    } else {
        *classes
    };
    let to = from + rest.len();
    let slash = classes.slash(t.bytes(), from, to);
    // `urn:doi:10.1000:182`: a `:` before the first `/` splits.
    let sep = match form {
        Form::UrnDoi => match chars::find_byte(b':', rest.as_bytes()) {
            Some(c) if slash.is_none_or(|s| from + c < s) => from + c,
            _ => slash?,
        },
        _ => slash?,
    };
    let parsed = handle_split(t, classes, from, sep, to, rule, kind, ws, bufs)?;
    Some(Parsed {
        resolver,
        query,
        fragment,
        ..parsed
    })
}

/// The handle `t[from..to]` of a marked form, split at `sep` (its first
/// `/`, known by its place in `t`, or `urn:doi:`'s `:`), read by `rule`,
/// as `kind`: the end every marked form shares. Its errors are left to
/// the full parser (other forms than bare may have warned before reaching
/// it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn handle_split<'a>(
    t: Text<'a>,
    classes: &Classes,
    from: usize,
    sep: usize,
    to: usize,
    rule: Rule,
    kind: Kind,
    mut ws: Warnings,
    bufs: &mut RepairBufs,
) -> Option<Parsed<'a>> {
    if !t.ascii_before(classes, sep) {
        return None;
    }
    let (prefix, suffix) = (t.cut(from, sep), t.cut(sep + 1, to));
    let is_doi = handle::check(prefix, suffix, rule, &mut ws).ok()?;
    let suffix_slash = classes.slash(t.bytes(), sep + 1, to).is_some();
    flag_dirt(prefix, suffix, is_doi, classes.acc, suffix_slash, &mut ws, bufs);
    Some(handle_parsed(kind, prefix, suffix, is_doi, ws))
}

/// What a resolver URL's scheme raises (`Form::Url`'s: `Some(true)` for
/// `https`, `None` when written without one), as `Scheme::warning` says.
#[inline(always)]
fn scheme_warning(scheme: Option<bool>) -> Option<Warning> {
    match scheme {
        Some(true) => Scheme::Https,
        Some(false) => Scheme::Http,
        None => Scheme::Missing,
    }
    .warning()
}

/// `acc` without `SPACE`, for a value whose space is its label's; `None`
/// when `handle` holds a space, which is raw (SPEC §6: the full parser's).
/// Out of line: a value in forty.
#[cold]
#[inline(never)]
fn without_label_space(acc: u8, handle: &[u8]) -> Option<u8> {
    chars::find_byte(b' ', handle).is_none().then_some(acc & !SPACE)
}

/// The global hosts most URLs name, lowercase, with the `/` after them:
/// `t[at..]` starting with one of them, then a digit, is read by `marked`
/// without `url_parts` and its general steps (a port, user info, another
/// host, `api/handles/`, a `doi:` in the path: none can apply). Nor can
/// any rule of `resolver::parse` for what stands before a handle: a handle
/// part starting with a digit holds no whitespace or label there, is no
/// URL written again (no global host starts with a digit; users' hosts
/// turn the fast path off), no `urn:doi:`, and, holding a `/`, no
/// shortDOI.
#[inline(always)]
fn known_host(t: &[u8], at: usize) -> Option<(usize, &'static str, Option<Warning>)> {
    // The sixteen bytes from `at` hold the longest head and the digit
    // after it (shorter values take `url_parts`). Which host it is, is
    // told by compares whose results are added, not branched on: the
    // three hosts come as randomly as the values' forms.
    let w = t.get(at..at + 16)?;
    let word = |i: usize| u64::from_le_bytes(w[i..i + 8].try_into().unwrap());
    let lit = |b: &[u8]| b.iter().rev().fold(0u64, |w, &c| w << 8 | c as u64);
    let (lo, hi) = (word(0), word(8));
    let doi = lo == lit(b"doi.org/");
    let hdl = (lo == lit(b"hdl.hand")) & (hi & 0x00FF_FFFF_FFFF_FFFF == lit(b"le.net/"));
    let dx = (lo == lit(b"dx.doi.o")) & (hi & 0xFF_FFFF == lit(b"rg/"));
    let len = 8 * doi as usize + 15 * hdl as usize + 11 * dx as usize;
    let host = DOI_ORG * doi as usize + DX_DOI_ORG * dx as usize + HDL_HANDLE_NET * hdl as usize;
    let (name, warning) = GLOBAL[host];
    (len > 0 && w[len].is_ascii_digit()).then_some((at + len, name, warning))
}

/// `known_host`'s hosts in GLOBAL, checked when compiled.
const HDL_HANDLE_NET: usize = 0;
const DOI_ORG: usize = 1;
const DX_DOI_ORG: usize = 2;
const _: () = assert!(
    bytes_eq(GLOBAL[HDL_HANDLE_NET].0.as_bytes(), b"hdl.handle.net")
        && bytes_eq(GLOBAL[DOI_ORG].0.as_bytes(), b"doi.org")
        && bytes_eq(GLOBAL[DX_DOI_ORG].0.as_bytes(), b"dx.doi.org")
);

/// `a == b`, for constants.
const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Which form `t` (trimmed, ASCII, not starting with a digit) has, and the
/// offset of its handle part (for URLs, of the authority).
#[inline(always)]
fn form_of(t: &[u8], classes: &Classes) -> Option<(Form, usize)> {
    if classes.acc & (SEP | SPACE) == 0 {
        // No scheme, no label: a URL without a scheme on a global host, or
        // (no `.` before the first `/`, so no host at all) a bare value.
        let slash = classes.slash(t, 0, t.len());
        let head = &t[..slash.unwrap_or(t.len())];
        if !head.contains(&b'.') {
            return Some((Form::Bare, 0));
        }
        return global_without_scheme(head, slash);
    }
    // The heads are compared as one word: the first eight bytes, folded.
    let head = Head::of(t);
    // One comparison picks the only heads the first letter allows.
    match head.first() {
        b'd' if head.starts(&DOI) && matches!(t.get(3), Some(b':' | b' ')) => {
            // One `doi:` or `doi ` label, then spaces, then the DOI.
            let mut i = 3;
            i += (t[i] == b':') as usize;
            while t.get(i) == Some(&b' ') {
                i += 1;
            }
            match *t.get(i)? {
                b'0'..=b'9' => Some((Form::Label, i)),
                b'd' | b'D' => more_labels(t, i),
                _ => None,
            }
        }
        b'h' if head.starts(&HDL) => (t.get(4).is_some_and(|&c| c != b'/')).then_some((Form::Hdl, 4)),
        b'h' if head.starts(&HTTPS) => Some((Form::Url(Some(true)), 8)),
        b'h' if head.starts(&HTTP) => Some((Form::Url(Some(false)), 7)),
        b'i' if head.starts(&INFO_DOI) && t.get(8) == Some(&b'/') => Some((Form::Info(true), 9)),
        b'u' if head.starts(&URN_DOI) => Some((Form::UrnDoi, 8)),
        b'i' if head.starts(&INFO_HDL) && t.get(8) == Some(&b'/') => Some((Form::Info(false), 9)),
        // A global host without a scheme, whose handle holds a separator
        // byte (`doi.org/10.1/x,`, a SICI DOI's `:` and `;`).
        _ => global_with_separator(t, classes),
    }
}

/// A URL without a scheme when `head`, what stands before the value's
/// first `/` (at `slash`), names a global resolver.
#[inline(always)]
fn global_without_scheme(head: &[u8], slash: Option<usize>) -> Option<(Form, usize)> {
    (slash.is_some() && is_global(head)).then_some((Form::Url(None), 0))
}

/// `global_without_scheme` for a value holding a separator byte or a
/// space that no head claims (`doi.org/10.1/x,`, a SICI DOI's `:` and `;`
/// after a host). Out of line: one value in a hundred, and inlined, it
/// cost the others 5 instructions each in the registers and inlining it
/// moved.
#[cold]
#[inline(never)]
fn global_with_separator(t: &[u8], classes: &Classes) -> Option<(Form, usize)> {
    let slash = classes.slash(t, 0, t.len());
    global_without_scheme(&t[..slash.unwrap_or(t.len())], slash)
}

/// True when `host` names a global resolver (`GLOBAL`, any case). Most
/// such hosts are written as there: they are compared exactly first
/// (folding the case a byte at a time cost such a value 180
/// instructions). Out of line: one value in fifty asks.
#[inline(never)]
fn is_global(host: &[u8]) -> bool {
    GLOBAL.iter().any(|(h, _)| host == h.as_bytes())
        || GLOBAL.iter().any(|(h, _)| host.eq_ignore_ascii_case(h.as_bytes()))
}

/// After a first label, at `i`: more `doi:` or `doi ` labels, each
/// followed by spaces, then the DOI (other white space: the full parser's).
#[cold]
#[inline(never)]
fn more_labels(t: &[u8], mut i: usize) -> Option<(Form, usize)> {
    let mut more = false;
    while t.len() >= i + 4 && t[i..i + 3].eq_ignore_ascii_case(b"doi") && matches!(t[i + 3], b':' | b' ') {
        i += 4;
        more = true;
        while t.get(i) == Some(&b' ') {
            i += 1;
        }
    }
    (more && t.get(i)?.is_ascii_digit()).then_some((Form::Labels, i))
}

/// A head the value may start with, as a little-endian word and the mask
/// of its bytes (at most eight: `info:doi/` is `info:doi` and a `/`).
struct Lit {
    word: u64,
    mask: u64,
    len: usize,
}

impl Lit {
    const fn new(lit: &[u8]) -> Lit {
        assert!(lit.len() <= 8);
        let mut word = 0u64;
        let mut i = 0;
        while i < lit.len() {
            // Lowercase letters, `:` and `/`: bytes `Head` folding leaves be.
            assert!(lit[i] & 0x20 != 0 && !lit[i].is_ascii_uppercase());
            word |= (lit[i] as u64) << (8 * i);
            i += 1;
        }
        let mask = if lit.len() == 8 {
            !0
        } else {
            (1u64 << (8 * lit.len())) - 1
        };
        Lit {
            word,
            mask,
            len: lit.len(),
        }
    }
}

const DOI: Lit = Lit::new(b"doi");
const HDL: Lit = Lit::new(b"hdl:");
const HTTPS: Lit = Lit::new(b"https://");
const HTTP: Lit = Lit::new(b"http://");
const INFO_DOI: Lit = Lit::new(b"info:doi");
const INFO_HDL: Lit = Lit::new(b"info:hdl");
const URN_DOI: Lit = Lit::new(b"urn:doi:");

/// The first eight bytes of a value (zero past its end) with `0x20` OR-ed
/// into each: that lowercases the ASCII letters, and on the bytes the fast
/// path reads (no control characters) it makes no other byte equal to a
/// letter, `:` or `/` of the heads above, so one masked compare is
/// `eq_ignore_ascii_case` of up to eight bytes.
struct Head {
    folded: u64,
    len: usize,
}

impl Head {
    fn of(t: &[u8]) -> Head {
        let word = match t.first_chunk::<8>() {
            Some(w) => u64::from_le_bytes(*w),
            None => t.iter().rev().fold(0, |w, &b| w << 8 | b as u64),
        };
        Head {
            folded: word | 0x2020_2020_2020_2020,
            len: t.len(),
        }
    }

    fn first(&self) -> u8 {
        self.folded as u8
    }

    fn starts(&self, lit: &Lit) -> bool {
        self.len >= lit.len && self.folded & lit.mask == lit.word
    }
}

const HOST_UPPER: u8 = 1;
const HOST_OTHER: u8 = 2;

static HOST_CLASS: [u8; 256] = {
    let mut t = [HOST_OTHER; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        if b.is_ascii_uppercase() {
            t[i] = HOST_UPPER;
        } else if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
            t[i] = 0;
        }
        i += 1;
    }
    t
};

/// What a resolver URL's host brings: its lowercase name, the prefix rule,
/// and its warnings (with the scheme's).
struct Host<'a> {
    name: &'a str,
    rule: Rule,
    warnings: Warnings,
}

/// Splits `host/path` of a URL, `t[at..at + len]` (query and fragment
/// split off), routed by `resolver::route`: the host and the handle part,
/// or `not_a_resolver_url`; `None` for what the full parser must read
/// (ports, user info, upper case outside the global hosts, a file URL, a
/// landing page's DOI, a handle part not starting with a digit).
fn url_parts<'a>(
    t: Text<'a>,
    classes: &Classes,
    at: usize,
    len: usize,
    scheme: Option<bool>,
) -> Option<Result<(Host<'a>, &'a str), ErrorCode>> {
    let slash = classes.slash(t.bytes(), at, at + len)?;
    let (host, path) = (t.cut(at, slash), t.cut(slash, at + len));
    // A global host as written in `GLOBAL` (most URLs) needs no look at its
    // bytes; any other host must hold letters, digits, `.` and `-` only (no
    // port, user info or IP literal), and upper case only if global.
    let exact = GLOBAL.iter().position(|(h, _)| *h == host);
    let class = if exact.is_some() {
        0
    } else {
        host.bytes().fold(0, |acc, c| acc | HOST_CLASS[c as usize])
    };
    if host.is_empty() || class & HOST_OTHER != 0 {
        return None;
    }
    let mut warnings = Warnings::EMPTY;
    warnings.add_some(scheme_warning(scheme));
    // `resolver::route`, without its second look for a global host: a
    // host in lower case that is none as written is none in any case.
    let route = match exact {
        Some(g) => resolver::route_global(g, path),
        None if class & HOST_UPPER == 0 => resolver::route_local(path),
        None => resolver::route(host, path),
    };
    let (name, part, rule) = match route {
        Route::Global { host, api, part } => {
            let (name, w) = GLOBAL[host];
            if let Some(w) = w {
                warnings.add(w);
            }
            if api {
                warnings.add(Warning::ApiUrl);
            }
            (name, part, Rule::Any)
        }
        _ if class & HOST_UPPER != 0 => return None,
        // A UI path's segments before the handle are `unencoded_chars`'s
        // too, which `marked` looks for in the handle part only (none
        // holds one when the value holds none: no look then).
        Route::Local { part, file: false }
            if classes.acc & UNENCODED == 0 || !percent::has_unencoded(&path[..path.len() - part.len()]) =>
        {
            warnings.add(Warning::LocalResolver);
            (host, part, Rule::Numeric)
        }
        // A landing page holding a DOI is `publisher_url` (its repair
        // reads the full parser's draft: `read` leaves it then).
        // A resolver of SPEC §8: the full parser's.
        Route::None if other::url::claims(host, path) => return None,
        Route::None => {
            return Some(Err(match resolver::publisher_doi(path) {
                Some(_) => ErrorCode::PublisherUrl,
                None => ErrorCode::NotAResolverUrl,
            }));
        }
        _ => return None,
    };
    // What `resolver::parse` reads before a handle that does not start
    // with a digit (whitespace, a URL written again, the DOI proxy's
    // paths) is its own; `doi:` labels (escaped ones hold `%`: not here)
    // are read alike.
    let head = resolver::part_head(part);
    let handle = &part[head.at..];
    if head.space > 0 || !handle.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if head.labels > 0 {
        warnings.add(Warning::DoubledLabel);
    }
    Some(Ok((Host { name, rule, warnings }, handle)))
}

fn split_off(s: &str, sep: u8) -> (&str, Option<&str>) {
    match s.bytes().position(|c| c == sep) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Options, Parser, Scratch};
    use proptest::prelude::*;

    /// Every option set whose answers could differ: repair changes no
    /// parse, a user resolver turns the fast path off for non-bare forms.
    fn parsers() -> Vec<Parser> {
        let mut with_host = Options::default();
        with_host.add_resolver("repo.example.edu/handle").unwrap();
        let short = Options {
            max_len: 24,
            ..Options::default()
        };
        [Options::default(), with_host, short]
            .into_iter()
            .map(Parser::new)
            .collect()
    }

    /// Whenever the fast path answers, the full parser gives the same answer.
    fn agree(parser: &Parser, input: &str) -> Result<bool, String> {
        let mut bufs = Default::default();
        let mut scratch = Scratch::default();
        let mut escaped_scratch = Scratch::default();
        let escaped_scratch = &mut escaped_scratch;
        // As `Parser::parse` calls them: then `rare::read` on what the
        // fast path left.
        let raw = input.as_bytes();
        let fast = super::parse(raw, &parser.opts, &mut bufs)
            .or_else(move || super::rare::read(raw, &super::see(raw), &parser.opts, escaped_scratch).ok());
        let full = parser.parse_full(input, &mut scratch);
        let Some(fast) = fast else {
            // Left to the full parser: `parse` must get there (and not go
            // round its retry for ever).
            if input.len() <= parser.opts.max_len && parser.parse(raw, &mut Scratch::default()) != full {
                return Err(format!("{input:?}: parse differs from the full parser"));
            }
            return Ok(false);
        };
        if fast != full {
            return Err(format!("{input:?}:\n fast {fast:?}\n full {full:?}"));
        }
        // And `parse` (length limit first) agrees with both.
        if input.len() <= parser.opts.max_len && parser.parse(input.as_bytes(), &mut scratch) != fast {
            return Err(format!("{input:?}: parse differs"));
        }
        Ok(true)
    }

    /// The inputs of `testdata/conformance.json` and of each file in
    /// `testdata/conformance/`.
    fn corpus_inputs() -> Vec<String> {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = vec![data.join("conformance.json")];
        let dir = std::fs::read_dir(data.join("conformance")).unwrap();
        let json = |p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "json");
        files.extend(dir.map(|e| e.unwrap().path()).filter(json));
        let mut inputs = Vec::new();
        for file in files {
            let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let cases = doc["cases"].as_array().unwrap().iter();
            inputs.extend(cases.filter_map(|c| c["input"].as_str().map(str::to_owned)));
        }
        inputs
    }

    #[test]
    fn agrees_with_full_parser_on_corpus_and_bench_values() {
        let mut inputs = corpus_inputs();
        let bench = include_str!("../../../testdata/bench_values.txt");
        inputs.extend(bench.lines().map(str::to_owned));
        let mut answered = 0;
        for parser in parsers() {
            for input in &inputs {
                answered += agree(&parser, input).unwrap_or_else(|e| panic!("{e}")) as usize;
            }
        }
        // The fast path must actually carry the common forms.
        assert!(answered > inputs.len(), "fast path answered only {answered}");
    }

    /// Heads with nothing after them (`doi` once indexed past its end).
    #[test]
    fn agrees_on_bare_heads() {
        for v in [
            "doi",
            "DOI",
            "doi:",
            "doi ",
            "hdl:",
            "hdl",
            "info:doi",
            "info:doi/",
            "https://",
            "http://doi.org",
            "",
        ] {
            for parser in parsers() {
                agree(&parser, v).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }

    /// Every character trimming removes, and some it does not (invisible
    /// characters, dashes, other non-ASCII), at either end or both, around
    /// every form the fast path reads.
    #[test]
    fn agrees_on_unicode_at_the_ends() {
        let ends: Vec<String> = (0..=0x3000u32)
            .chain([0xFEFF, 0xFFFD, 0x1F600])
            .filter_map(char::from_u32)
            .filter(|&c| c.is_whitespace() || super::chars::is_trim_char(c) || !c.is_ascii())
            .filter(|&c| c.is_whitespace() || c as u32 >= 0x2000 || (c as u32).is_multiple_of(7))
            .map(String::from)
            .chain(["\u{A0} ", " \u{FEFF}", "\u{3000}\u{A0}", "\u{200B}\u{200D}"].map(str::to_owned))
            .collect();
        let bodies = [
            "10.1000/182",
            "doi:10.1000/182",
            "https://doi.org/10.1000/182",
            "hdl:20.500.12345/6",
            "info:doi/10.1000/182",
            "x.org/hdl/1721.1/5",
            "10.1000/a\u{A0}b",
            "10.1000/a-",
            "",
        ];
        for parser in parsers() {
            for body in bodies {
                for e in &ends {
                    for v in [format!("{e}{body}"), format!("{body}{e}"), format!("{e}{body}{e}")] {
                        agree(&parser, &v).unwrap_or_else(|e| panic!("{e}"));
                    }
                }
            }
        }
        // The fast path takes them, not only agrees by leaving them.
        let taken = agree(&parsers()[0], "\u{FEFF}\u{A0}10.1000/182 \u{3000}");
        assert_eq!(taken, Ok(true));
    }

    /// Non-ASCII inside every form the fast path reads (invisible
    /// characters, dashes, inner white space, C1 controls, letters, in the
    /// prefix, the suffix, a host, a query and a fragment): the fast path
    /// reads what stands after the prefix and leaves the rest, and agrees
    /// with the full parser on all of it.
    #[test]
    fn agrees_on_unicode_inside() {
        let inner = [
            "\u{AD}",
            "\u{200B}",
            "\u{2060}",
            "\u{FEFF}",
            "\u{2013}",
            "\u{2212}",
            "\u{A0}",
            "\u{3000}",
            "\u{85}",
            "\u{9F}",
            "é",
            "日",
            "\u{1F600}",
            "\u{FFFD}",
        ];
        let bodies = [
            "10.1000/182x",
            "doi:10.1000/182x",
            "DOI 10.1000/182x",
            "https://doi.org/10.1000/182x",
            "http://hdl.handle.net/api/handles/1721.1/5x",
            "hdl:20.500.12345/6x",
            "info:doi/10.1000/182x",
            "info:hdl/1234/5x",
            "urn:doi:10.1000/182x",
            "urn:doi:10.1000:182/x",
            "x.org/hdl/1721.1/5x",
            "https://doi.org/10.1000/a?q=1#f",
            "doi.org/10.1000/a.",
        ];
        for parser in parsers() {
            for body in bodies {
                for c in inner {
                    for i in (1..body.len()).filter(|&i| body.is_char_boundary(i)) {
                        let v = format!("{}{c}{}", &body[..i], &body[i..]);
                        agree(&parser, &v).unwrap_or_else(|e| panic!("{e}"));
                    }
                }
            }
        }
        // Taken after the prefix, left before it.
        let parser = &parsers()[0];
        let taken = [
            "https://doi.org/10.1000/18\u{200B}2",
            "doi: 10.1000/a\u{2013}b",
            "10.1000/\u{AD}x",
        ];
        let left = [
            "10.10\u{AD}00/182",
            "doi:\u{A0}10.1000/182",
            "https://d\u{F6}i.org/10.1/2",
        ];
        taken_and_left(parser, &taken, &left);
    }

    /// `agree` on each value, which the fast path (or `rare::read`) must
    /// take (`taken`) or leave to the full parser (`left`).
    fn taken_and_left(parser: &Parser, taken: &[&str], left: &[&str]) {
        for (values, want) in [(taken, true), (left, false)] {
            for v in values {
                assert_eq!(agree(parser, v), Ok(want), "{v}");
            }
        }
    }

    /// Percent-encoded handles in URLs on the known hosts: taken by
    /// `escaped_url` (SICI DOIs, an encoded separator, a double encoding,
    /// the errors of splitting and checking), or left to the full parser
    /// (a part that does not decode, a query, a label in the path).
    #[test]
    fn escaped_urls_are_taken_or_left() {
        let parser = &parsers()[0];
        let taken = [
            "https://doi.org/10.1002/(SICI)1750-9952(199911)37:9%3C598::AID-JPS5%3E3.0.CO;2-J",
            "http://hdl.handle.net/10023%2f20045",
            " doi.org/10.1038%2Fs41556-009-01202-1",
            "https://dx.doi.org/10.1016%2f1860-7526(88)50759-6.",
            "https://doi.org/10.1000/a%2541",
            "https://doi.org/10.1000/caf%C3%A9",
            "https://doi.org/10.1000/a%20b/pdf",
            "https://doi.org/10.1000/%3C%3E\"",
            // Errors: a `/` in the prefix once decoded, no separator, an
            // empty suffix.
            "https://doi.org/10.1000%2Fx/y",
            "https://doi.org/10%2E1234",
            "https://doi.org/10.1000%2F",
            "http://hdl.handle.net/20.500.12345%252F7104",
            // Hosts `url_parts` routes: other global ones, upper case,
            // another host's `/handle/` and UI paths, the API's path, an
            // escaped label.
            "https://www.doi.org/10.1/x%41",
            "HTTP://HDL.HANDLE.NET/1721.1%2F111156",
            "https://handle.stage.datacite.org/10.1175/1520-0400(1990)018%3C3033:NKBTAX%3E2.0.CO;2",
            "https://repo.example.edu/handle/1721.1%2f51301",
            "https://ir.lib.example.ac.jp/handle/123456789%252F6112",
            "https://repo.example.edu/xmlui/handle/1721.1%2F5",
            "https://repo.example.edu/handle/1721.1/5%20",
            "https://hdl.handle.net/api/handles/1721.1%2F5",
            "https://doi.org/doi%3A10.1/x%41",
        ];
        let left = [
            "https://doi.org/10.1000/%ZZ",
            "https://doi.org/10.1000/a%00",
            "https://doi.org/10.1000/a%C2%85",
            "https://doi.org/10.1000/a%FF",
            "https://doi.org/10.1/x?y%41",
            "https://doi.org/10.1/x#%41",
            "https://doi.org:443/10.1/x%41",
            "www.doi.org/10.1/x%41",
            "http://arrow.resolver.example.gov:2641/hdl/1959.4%2F67512",
            "https://Repo.Example.edu/handle/1%2F2",
            "https://repo.example.edu/bitstream/handle/1721.1/5/a%20b.pdf",
            "https://repo.example.edu/items/10.1%2Fx",
            "https://doi.org/%20doi:10.1/x",
            // Not a resolver's: the full parser says what it is.
            "http://repo.example.edu/handle/abc%2F5",
        ];
        taken_and_left(parser, &taken, &left);
        // A host the user adds could be any of them: the full parser's.
        assert_eq!(agree(&parsers()[1], "https://doi.org/10.1/x%41"), Ok(false));
    }

    /// The other forms `rare::read` takes (other `info:` namespaces as
    /// written, `hdl://` with a numeric host, a server or a port, other
    /// hosts' URLs with a port, the plain errors of values without `/`),
    /// and neighbours of theirs it must leave.
    #[test]
    fn rare_forms_are_taken_or_left() {
        let parser = &parsers()[0];
        let taken = [
            "info:pmid/14890380",
            "INFO:lccn/2021817118",
            "info:ofi/fmt:kev:mtx:journal",
            "info:ark/13030/xd00fgacjr",
            "info:foo/x",
            "info:pmid/12a",
            "info:sici/3356-4301(19810727)12:8<>1.0.TX;2-9",
            "info:sici/2492-5862(19881208)177:3%3C%3E1.0.TX;2-M",
            "info:x/a%41%2f%ZZ",
            "info:x/a%00",
            "info:x/%2541",
            "doi:abc",
            "DOI abc",
            "doi doi x",
            // No valid prefix before the `%2F`: `no_slash` (SPEC §2).
            "DOI:DOI:10.x%2Fj.compstruct",
            "abc%2Fdef",
            "10.1007%41%2Fx",
            "doi:%2Fx",
            "doi: ",
            "hdl://123456789/4231",
            "hdl://20.500.11850/593138/x.",
            "hdl://10.1000/182",
            "hdl://32.49.208.92/1959.4/15150",
            "hdl://hs.example.org:2641/20.500.11820/2a1de423",
            "hdl://1.2.3.4:/1/2",
            "hdl://h:1/10.1000/x.",
            "http://arrow.resolver.example.gov:2641/hdl/20.500.11820/63c6e333",
            "https://repo.example.edu:443/handle/1721.1/5",
            "http://repo.example.edu:80/handle/1721.1/5",
            "https://repo.example.edu:/hdl/1721.1/5",
            // SPEC §6 extra_text, no two pieces that could be identifiers.
            "http://repo.example.edu:443/handle/1721.1/5 x",
            "10.1000/182 see also",
            "DOI:DOI:10.1016%2Fj.compstruct",
            " \tdoi:10.48550%2FarXiv.1604.21027 \t",
            "12345%2fabc",
            "https:x",
            "n.a.",
        ];
        let left = [
            "info:PMID/1",
            "info:pmid/1#f",
            "info:pmid",
            "info:abc",
            "hdl://1.2.3.4/x",
            "hdl://123:80/x",
            "hdl://H:1/1/2",
            "hdl://h:123456/1/2",
            "hdl://[::1]:80/1/2",
            "hdl://h:1/1/2?q",
            "https://doi.org:443/10.1/x",
            "https://repo.example.edu:8080/handle/doi:10.1/x",
            "https://Repo.example.edu:8080/handle/1/x",
            "https://u@repo.example.edu:8080/handle/1/x",
            "https://repo.example.edu:8080/handle/1",
            "https://repo.example.edu:8080/items/1721.1/5",
            "hdl://hs.example.org/1/2",
            // SPEC §6: two pieces that could be identifiers.
            "10.1000/182 10.1000/183",
            "hdl:///x",
            "hdl://1/x?q",
            "hdl:abc",
            "urn:doi:abc",
            // Split at `%2F` after a valid prefix, a suffix that does not
            // decode (SPEC §2): the full parser's.
            "10.1007%2Fa%ZZ",
            "10.1007%2F",
            // SPEC §8's values are the full parser's.
            " urn:isbn:9785967673786 ",
            "PMID: 21517381",
            "ISBN 978-1-824-68942-9",
            "1932-6203",
            "33604029[pmid]",
            "hep-th/9901001",
            "https://orcid.org/0000-0002-1825-0097",
        ];
        taken_and_left(parser, &taken, &left);
    }

    /// SPEC v2's URL forms (`resolver.rs`): the fast path takes the ones
    /// `resolver::route` and `resolver::part_head` decide alike for it
    /// (DSpace's UI paths, other hosts' pages), and leaves those whose
    /// handle part does not start with a digit, file URLs and landing
    /// pages holding a DOI.
    #[test]
    fn v2_url_forms_are_taken_or_left() {
        let parser = &parsers()[0];
        let taken = [
            "https://repo.example.edu/xmlui/handle/1721.1/77",
            "http://repo.example.edu/jspui/handle/1721.1/77?show=full",
            "https://repo.example.edu/a/b/handle/doi:10.1/x",
            "https://repo.example.edu:8080/xmlui/handle/1721.1/77",
            "https://repo.example.edu/handle/abc/def",
            "https://repo.example.edu/hdl/cnri.test/x",
            "https://example.com/paper/1",
            "https://journals.example.org/doi/10.1000",
            "https://doi.org/doi:10.1000/182?x",
            // publisher_url, repair off.
            "https://journals.example.org/doi/full/10.1000/182",
            "https://example.com/10.1000/182?x",
        ];
        let left = [
            "https://doi.org/abcde",
            "doi.org/abcde",
            "https://doi.org/1abc",
            "https://doi.org/1abc?x",
            "https://doi.org/urn:doi:10.1000:182",
            "https://doi.org/urn:doi:10.1000/182",
            "https://doi.org/https://doi.org/10.1000/182",
            "http://dx.doi.org/doi.org/10.1/x",
            "https://doi.org/doi.org/10.1/x?q",
            "https://doi.org/ 10.1000/x",
            "https://repo.example.edu/handle/ 1721.1/5?q",
            "hdl: 1234/5",
            "https://repo.example.edu/bitstream/handle/1721.1/77/a.pdf",
            "https://repo.example.edu/bitstream/handle/1721.1/77/a.pdf?sequence=1",
            "https://repo.example.edu:8080/bitstream/handle/1721.1/77/a.pdf",
            "https://repo.example.edu/a\"b/handle/1721.1/5?q",
            "https://repo.example.edu/handle/10",
        ];
        taken_and_left(parser, &taken, &left);
        // With repair on, a landing page reads as its DOI: left.
        let repair = Parser::new(Options {
            repair: true,
            ..Options::default()
        });
        taken_and_left(&repair, &[], &["https://journals.example.org/doi/full/10.1000/182"]);
    }

    proptest! {
        /// `trim` is `chars::trim` (SPEC §2) on text, whatever mix of
        /// ASCII and Unicode white space stands at the ends.
        #[test]
        fn trim_is_chars_trim(
            lead in "[ \t\r\n\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{200B}\u{2028}\u{202F}\u{205F}\u{3000}\u{FEFF}\u{AD}\u{2013}]{0,4}",
            body in "[a-z0-9./é\u{A0}\u{2013}]{0,20}",
            tail in "[ \t\r\n\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{200B}\u{2028}\u{202F}\u{205F}\u{3000}\u{FEFF}\u{AD}\u{2013}é]{0,4}",
        ) {
            let v = format!("{lead}{body}{tail}");
            prop_assert_eq!(super::trim(v.as_bytes()), super::super::chars::trim(&v).as_bytes());
        }
    }

    /// SPEC v2's rules about the handle and its dirt (`handle::check`,
    /// `dirt::flag`, `handle::split_bare_encoded`): what the fast path
    /// takes it answers as the full parser does, and a value it must not
    /// answer (a `%2F` split, decoded) it leaves.
    #[test]
    fn agrees_on_v2_handle_rules() {
        let parser = &parsers()[0];
        let taken = [
            "10.1000/182/",
            "https://doi.org/10.1000/182/",
            "doi:10.1/x/-/DCSupplemental.",
            "10.1/x/full/html",
            "10.1/x/META",
            "10.1000/x-\u{AD}-y",
            "10.1000/a\u{2010}\u{2010}b",
            "0.5555/x1",
            "0.NA/x",
            "0.na/x",
            "0/x",
            "00/x",
            "hdl:0042/x",
            "abc%2Fdef",
            "10.1007",
            "10.1000/a%2Fb",
            // The %2F split, by `rare::encoded_bare`.
            "10.1007%2FBF01451751",
            "doi:10.1007%2FBF01451751",
            "DOI: doi:10.1007%2fBF01451751",
            "10.1007%2Fa%20b",
        ];
        let left = ["10.1007%2f", "10.1007%2Fa%ZZ", "10.1000/a\tb", "hdl:12%2034/5"];
        taken_and_left(parser, &taken, &left);
    }

    /// Bytes that are not UTF-8 at an end stay the full parser's
    /// (`bad_utf8`), however much of them looks like a trim character.
    #[test]
    fn leaves_bad_utf8_at_the_ends() {
        let parser = Parser::new(Options::default());
        let mut scratch = Scratch::default();
        for v in [
            &b"\xC210.1000/182"[..],
            b"\xA010.1000/182",
            b"10.1000/182\xC2",
            b"10.1000/182\xA0",
            b"10.1000/182\xE3\x80",
            b"10.1000/182\x80\x80",
            b"10.1000/182\x80\x80\x80\x80",
            b"\xE2\x80 10.1000/182",
            b"\xED\xA0\x80 10.1000/182",
            b"\xF0\x80\x80\x80 10.1000/182",
            b"\xC2\xA0\xC2",
            b"\xC2",
        ] {
            assert!(
                super::parse(v, &parser.opts, &mut Default::default()).is_none(),
                "{v:?}"
            );
            assert_eq!(
                parser.parse(v, &mut scratch).error,
                Some(super::super::ErrorCode::BadUtf8)
            );
        }
    }

    /// Values built from the pieces the fast path looks at: labels, schemes,
    /// hosts, prefixes, and suffix bytes that raise warnings.
    fn shaped() -> impl Strategy<Value = String> {
        let head = prop::sample::select(vec![
            "",
            " ",
            "\u{A0}",
            "\u{FEFF}",
            "\u{3000} ",
            "\u{200B}doi:",
            "\u{2003}https://doi.org/",
            "doi:",
            "DOI: ",
            "doi ",
            "doi:doi:",
            "DOI: doi ",
            "doi doi:",
            "doi:doi:doi:",
            "doi: \tdoi:",
            "doi :doi:",
            "doi:doi",
            "hdl:",
            "HDL:",
            "hdl://",
            "hdl:/",
            "hdl://hs.example.org:2641/",
            "hdl://1.2.3.4/",
            "hdl://20.500.1/",
            "http://x.org:8080/hdl/",
            "https://x.org:443/handle/",
            "info:lccn/",
            "info:sici/",
            "info:X/",
            "https://doi.org/",
            "http://dx.doi.org/",
            "HTTPS://DOI.ORG/",
            "https://hdl.handle.net/",
            "https://www.doi.org/",
            "https://repo.example.edu/handle/",
            "http://x.org/hdl/",
            "https://doi.org:443/",
            "doi.org/",
            "https://handle.test.datacite.org/",
            "https://doi.org/api/handles/",
            "https://doi.org/doi:",
            "info:doi/",
            "INFO:HDL/",
            "info:hdl/",
            "info:pmid/",
            "info:doi",
            "DX.DOI.ORG/",
            "hdl.handle.net/",
            "repo.example.edu/handle/",
            "x.org/hdl/",
            "https://X.org/handle/",
            "https://example.com/paper/",
            "https://doi.org/api/handles/doi:",
            "http://doi.org",
            "https://doi.org?",
            "N",
            "n/",
            "-",
            "TBD ",
            "x.y/",
            "urn:doi:",
            "URN:doi:",
            "urn:doi:10.1000:",
            "urn:doi:doi:",
            "pmid: ",
            "/",
            "?",
            "doi.org?/",
            "https://doi.org/DOI:doi:",
            "https://doi.org/https://doi.org/",
            "http://dx.doi.org/doi.org/",
            "https://doi.org/ ",
            "https://doi.org/urn:doi:",
            "https://doi.org/a",
            "https://x.org/xmlui/handle/",
            "https://x.org/bitstream/handle/",
            "https://x.org:1/jspui/handle/",
            "https://x.org/doi/",
            "https://x.org/a\"/handle/",
            "hdl: ",
        ]);
        let prefix = "(10|10\\.[0-9]{1,5}|0\\.NA|0\\.(na|TYPE|0|[0-9]{1,4}|[a-z]{1,3})|00?[0-9]{0,3}|123456789|10\\.5072|10\\.2999|[0-9]{1,5}(\\.[0-9]{1,3})?|[a-z]{1,3}|10\\.1\u{AD}0|1\u{200B}2|)";
        let suffix = "[a-zA-Z0-9./;:()<>\\[\\]{}&%?#@ ,_|\u{AD}\u{200B}\u{2013}\u{2212}\u{A0}\u{85}é日-]{0,14}";
        let tail = prop::sample::select(vec![
            "",
            " ",
            "\t",
            ".",
            ")",
            "]",
            "}",
            ",",
            ";",
            "/pdf",
            "/EPDF",
            "/Full",
            "/abstract",
            "&lt;",
            "&amp;",
            "10.1234/x",
            "#f",
            "?q",
            "\u{A0}",
            "\u{3000}",
            "\u{FEFF}",
            " \u{200B}",
            "\u{2028}\t",
            "\u{AD}",
            "/",
            "//",
            ")/",
            "/html",
            "/full/html",
            "/Full/PDF",
            "/fulltext",
            "/meta",
            "/references",
            "/-/DCSupplemental",
            "/-/DCSupplemental.",
            "%2Fx",
            "%2f",
            "%2Fa%20b",
            "%2Fa%ZZ",
            "-\u{AD}-",
            "\u{2010}\u{2010}",
            "a\tb",
            "a\r\nb",
        ]);
        (head, prefix, prop::bool::ANY, suffix, tail)
            .prop_map(|(h, p, slash, s, t)| format!("{h}{p}{}{s}{t}", if slash { "/" } else { "" }))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn agrees_on_shaped_values(v in shaped()) {
            for parser in parsers() {
                agree(&parser, &v).map_err(TestCaseError::fail)?;
            }
        }

        #[test]
        fn agrees_on_any_string(v in "\\PC{0,30}") {
            for parser in parsers() {
                agree(&parser, &v).map_err(TestCaseError::fail)?;
            }
        }
    }
}
