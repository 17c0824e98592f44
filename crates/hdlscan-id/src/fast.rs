//! The fast path: one walk that reads the commonest forms of SPEC §2 and
//! gives up (`None`) on anything else, so `Parser::parse` runs the full
//! parser. It owns no rule of SPEC: trimming (`chars::trim_bytes`), the
//! order of §6 (`whole::before_forms`), the handle (§1, `handle::check`)
//! and its dirt (§3, `dirt::flag`) are asked where the full parser asks
//! them; what it owns is the reading of the forms by byte classes.
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
//! (NBSP, U+3000, a BOM at its ends) is read the same way once trimmed. A
//! value with non-ASCII characters after its prefix (invisible characters,
//! dashes in a suffix) is read by the same code once `Text::non_ascii`
//! has proved it UTF-8.
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
use super::whole::{self, Before, Found};
use super::{Options, Parsed, chars, other, percent};

pub mod rare;

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
/// first, taken once, and handed to `rare::read` when `parse` gives up,
/// so that it need not take them again.
#[derive(Clone, Copy)]
pub struct Seen<'a> {
    pub t: &'a [u8],
    /// `trimmed` when trimming removed anything.
    pub trimmed: Warnings,
    pub classes: Classes,
}

/// `raw` trimmed, and its classes.
#[inline(always)]
pub fn see(raw: &[u8]) -> Seen<'_> {
    let t = chars::trim_bytes(raw);
    Seen {
        t,
        trimmed: chars::trimmed(raw, t),
        classes: classes::of(t),
    }
}

/// Reads `raw` if it is one of the forms above; `None` sends it to the
/// full parser.
#[inline(always)]
pub fn parse<'a>(raw: &'a [u8], opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    parse_seen(&see(raw), opts, bufs)
}

/// `parse`, of a value as `see` saw it. Always inlined, so that
/// `Parser::parse` keeps the fast path in its own body whichever codegen
/// unit each falls into.
#[inline(always)]
pub fn parse_seen<'a>(seen: &Seen<'a>, opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    let Seen {
        t,
        trimmed,
        ref classes,
    } = *seen;
    let text = if classes.acc & (GIVE_UP | NON_ASCII) == 0 {
        // SAFETY: no byte of `t` is NON_ASCII.
        unsafe { Text::ascii_unchecked(t) }
    } else {
        Text::non_ascii(t, classes.acc)?
    };
    read(text, classes, trimmed, opts, bufs)
}

/// The trimmed value `t`, in whichever form it has.
#[inline(always)]
fn read<'a>(t: Text<'a>, classes: &Classes, ws: Warnings, opts: &Options, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    let tb = t.bytes();
    // A bare value starting with a digit is read as such whatever hosts the
    // user added; anything else could be one of their URLs.
    if tb.first().is_some_and(u8::is_ascii_digit) {
        return bare_value(t, classes, ws, bufs);
    }
    if !opts.resolvers().is_empty() && !tb.is_empty() {
        return None;
    }
    // A marked form ending in a PubMed tag (`…[pmc]`) is read as tagged
    // by the full parser (SPEC §8, `other::parse`), whatever stands
    // before the tag.
    if tb.last() == Some(&b']') {
        return None;
    }
    match form_of(tb, classes)? {
        (Form::Bare, _) => bare_value(t, classes, ws, bufs),
        // Marked forms holding `%` are `rare::read`'s, which asks SPEC §6
        // itself: asking here too would make a SICI DOI's costly look
        // twice.
        (form, _) if form.decodes() && classes.acc & PCT != 0 => None,
        (form, at) => {
            if let Err(answer) = before_forms(t, classes, form, ws) {
                return answer;
            }
            // With repairs on, a landing page is read again as its DOI:
            // the full parser's.
            marked(t, classes, form, at, ws, bufs)
                .filter(|p| !(opts.repair && p.error == Some(ErrorCode::PublisherUrl)))
        }
    }
}

/// A bare value: SPEC §6's first rows, then `bare` when it may read it.
#[inline(always)]
fn bare_value<'a>(t: Text<'a>, classes: &Classes, ws: Warnings, bufs: &mut RepairBufs) -> Option<Parsed<'a>> {
    if let Err(answer) = before_forms(t, classes, Form::Bare, ws) {
        return answer;
    }
    // Not `.then(|| bare(..))`: the closure would be a function of its
    // own, which the compiler may leave out of line.
    if !bare_readable(t, classes) {
        return None;
    }
    let p = bare(t, classes, ws, bufs);
    // A URL without its scheme or with a misspelt one (SPEC v3 §2) is
    // no handle: the full parser's.
    if p.error.is_some() && is_url(t) {
        return None;
    }
    Some(p)
}

/// SPEC §6 up to the forms (`whole::before_forms`) for a value of `form`:
/// `Ok` when the form may read it, else the answer (`None`: the full
/// parser's, which looks at its pieces).
/// Always inlined, its answer built in place: a box would cost an
/// allocation on the path every value takes.
#[inline(always)]
#[allow(clippy::result_large_err)]
fn before_forms<'a>(t: Text<'a>, classes: &Classes, form: Form, ws: Warnings) -> Result<(), Option<Parsed<'a>>> {
    // Classes without `GIVE_UP`: no control character.
    let found = Found {
        control: false,
        marked: form != Form::Bare,
    };
    match whole::before_forms(t.s, found, || !one_value(t, classes, form)) {
        // Its whole-value repair is the full parser's.
        Before::Error(ErrorCode::FormulaText) => Err(None),
        Before::Error(e) => Err(Some(Parsed::invalid(e, ws))),
        Before::Several => Err(None),
        Before::Forms => Ok(()),
    }
}

/// False when SPEC §6 may have a say, which the full parser decides: the
/// value holds a space (but for a label's, which `marked` tells from a
/// space in the handle, `without_label_space`) or separator bytes that
/// may cut it into two identifiers. Raw whitespace of other kinds never
/// comes here: tab, CR and LF are `GIVE_UP`, and so is the `\` of one
/// written as text (`\n`), and `Text::non_ascii` refuses Unicode white
/// space.
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
/// one came, and its misses in the instruction cache would cost more
/// than its reading.
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
    let suffix_slash = classes.slash_after(t.bytes(), slash);
    flag_dirt(prefix, suffix, is_doi, acc, suffix_slash, &mut ws, bufs);
    let kind = if is_doi { Kind::Doi } else { Kind::Handle };
    handle_parsed(kind, prefix, suffix, is_doi, ws)
}

/// True when the bare value `t` that `bare` found no handle is a URL
/// (SPEC v3 §2: without its scheme, `resolver::is_schemeless_url`, or
/// with a misspelt one, `resolver::scheme_typo`). Out of line: rare.
#[cold]
#[inline(never)]
fn is_url(t: Text<'_>) -> bool {
    resolver::is_schemeless_url(t.s) || resolver::scheme_typo(t.s).is_some()
}

/// True when `bare` may read `t`, one value by SPEC §6: its prefix is
/// ASCII (`Text::prefix_ascii`), it holds a `/` or no `%` (a `%2F`
/// split is `rare::encoded_bare`'s), and it is none of SPEC §8's bare
/// shapes, which hold no `/` but an old arXiv id's (a value not starting
/// with a digit), or end in a tag: those are the full parser's.
#[inline(always)]
fn bare_readable(t: Text<'_>, classes: &Classes) -> bool {
    t.prefix_ascii(classes)
        && (classes.acc & PCT == 0 || classes.slash(t.bytes(), 0, t.len()).is_some())
        && !may_be_other(t, classes)
}

/// `other::may_be`, asked only of what could be one of SPEC §8's bare
/// values: a short value without `/` (or not starting with a digit: an
/// old arXiv id), or one ending in a tag's `]`.
#[inline(always)]
fn may_be_other(t: Text<'_>, classes: &Classes) -> bool {
    let b = t.bytes();
    // Most bare values start with a digit and hold a `/`: told first.
    let shape = (!classes.has_slash_masked() || !b[0].is_ascii_digit()) && b.len() <= 64;
    (shape || b[b.len() - 1] == b']') && other::may_be(b)
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
    // One `handle_split` for both ways to the handle: a second copy of it
    // inlined here took the instruction cache from the common forms.
    let split = if let Form::Url(scheme) = form
        && acc & (PCT | QUERY) == 0
        && let Some((from, host, host_ws)) = known_host(t.bytes(), at)
    {
        ws.add_some(scheme_warning(scheme));
        ws.add_some(host_ws);
        // No `?` or `#`: the value's classes are the handle's.
        ws.add_if(acc & UNENCODED != 0, Warning::UnencodedChars);
        Split {
            from,
            sep: classes.slash(t.bytes(), from, t.len())?,
            to: t.len(),
            rule: Rule::Any,
            kind: Kind::ResolverUrl,
            acc,
            ws,
            resolver: Some(host),
            query: None,
            fragment: None,
        }
    } else {
        match marked_split(t, classes, form, at, ws)? {
            Ok(split) => split,
            Err((e, ws)) => return Some(Parsed::invalid(e, ws)),
        }
    };
    let Split {
        from,
        sep,
        to,
        rule,
        kind,
        acc,
        ws,
        ..
    } = split;
    let parsed = handle_split(t, classes, acc, from, sep, to, rule, kind, ws, bufs)?;
    Some(Parsed {
        resolver: split.resolver,
        query: split.query,
        fragment: split.fragment,
        ..parsed
    })
}

/// Where a marked form's handle is in `t`, and what `handle_split` reads
/// it by; its parts outside the handle, and the warnings so far.
struct Split<'a> {
    from: usize,
    sep: usize,
    to: usize,
    rule: Rule,
    kind: Kind,
    /// The handle's classes, OR-ed (a label's space taken out).
    acc: u8,
    ws: Warnings,
    resolver: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// `marked`'s reading of the forms but a known host's URL: their heads,
/// query, fragment and URL parts, then where the handle is; `Err`, the
/// error of a URL `url_parts` answers.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn marked_split<'a>(
    t: Text<'a>,
    classes: &Classes,
    form: Form,
    at: usize,
    mut ws: Warnings,
) -> Option<Result<Split<'a>, (ErrorCode, Warnings)>> {
    let acc = classes.acc;
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
            let (r, f) = chars::split_off(rest, b'#');
            let r = if let Form::Info(_) = form {
                r
            } else {
                let (r, q) = chars::split_off(r, b'?');
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
            let url = url_parts(t, classes, at, rest.len(), scheme, query)?;
            let (host, part) = match url {
                Ok(p) => p,
                Err(e) => return Some(Err((e, ws))),
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
    let acc = if label_space {
        without_label_space(acc, &t.bytes()[from..])?
    } else {
        acc
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
    Some(Ok(Split {
        from,
        sep,
        to,
        rule,
        kind,
        acc,
        ws,
        resolver,
        query,
        fragment,
    }))
}

/// The handle `t[from..to]` of a marked form, split at `sep` (its first
/// `/`, known by its place in `t`, or `urn:doi:`'s `:`), read by `rule`,
/// as `kind`, with `acc` the handle's classes OR-ed (a label's space
/// taken out): the end every marked form shares. Its errors are left to
/// the full parser (other forms than bare may have warned before reaching
/// it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn handle_split<'a>(
    t: Text<'a>,
    classes: &Classes,
    acc: u8,
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
    let suffix_slash = match to == t.len() {
        true => classes.slash_after(t.bytes(), sep),
        false => classes.slash(t.bytes(), sep + 1, to).is_some(),
    };
    flag_dirt(prefix, suffix, is_doi, acc, suffix_slash, &mut ws, bufs);
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
/// Out of line: rare.
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
        // URLs, many times commoner than `hdl:`, are told first.
        b'h' if head.starts(&HTTPS) => Some((Form::Url(Some(true)), 8)),
        b'h' if head.starts(&HTTP) => Some((Form::Url(Some(false)), 7)),
        b'h' if head.starts(&HDL) => (t.get(4).is_some_and(|&c| c != b'/')).then_some((Form::Hdl, 4)),
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
/// after a host). Out of line: rare, and inlined it would take the
/// registers of the common forms.
#[cold]
#[inline(never)]
fn global_with_separator(t: &[u8], classes: &Classes) -> Option<(Form, usize)> {
    let slash = classes.slash(t, 0, t.len());
    global_without_scheme(&t[..slash.unwrap_or(t.len())], slash)
}

/// True when `host` names a global resolver (`GLOBAL`, any case). Most
/// such hosts are written as there: they are compared exactly first,
/// before folding the case a byte at a time. Out of line: few values
/// ask.
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

/// `host`'s place in `GLOBAL`, spelt as it is there: told by its length,
/// then one compare of constants. Written out rather than a search of
/// `GLOBAL`, which the compiler leaves a call (and `memcmp`) or not as
/// `Parser::parse`'s size decides; `globals_as_written` checks the two agree.
#[inline(always)]
fn global_as_written(host: &str) -> Option<usize> {
    match host {
        "hdl.handle.net" => Some(0),
        "doi.org" => Some(1),
        "dx.doi.org" => Some(2),
        "www.doi.org" => Some(3),
        "handle.stage.datacite.org" => Some(4),
        "handle.test.datacite.org" => Some(5),
        _ => None,
    }
}

/// Splits `host/path` of a URL, `t[at..at + len]` (query and fragment
/// split off; `query`, its query), routed by `resolver::route`: the host
/// and the handle part, or `not_a_resolver_url` or `publisher_url`;
/// `None` for what the full parser must read (ports, user info, upper
/// case outside the global hosts, a file URL, a handle part not starting
/// with a digit). Inlined: its call, and its answer returned through
/// memory, cost a URL on another host about as much as its routing.
#[inline(always)]
fn url_parts<'a>(
    t: Text<'a>,
    classes: &Classes,
    at: usize,
    len: usize,
    scheme: Option<bool>,
    query: Option<&str>,
) -> Option<Result<(Host<'a>, &'a str), ErrorCode>> {
    let slash = classes.slash(t.bytes(), at, at + len)?;
    let (host, path) = (t.cut(at, slash), t.cut(slash, at + len));
    // A global host as written in `GLOBAL` (most URLs) needs no look at its
    // bytes; any other host must hold letters, digits, `.` and `-` only (no
    // port, user info or IP literal), and upper case only if global.
    let exact = global_as_written(host);
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
        None if class & HOST_UPPER == 0 => resolver::route_local(host, path),
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
            return Some(Err(match resolver::is_publisher_url(path, query) {
                true => ErrorCode::PublisherUrl,
                false => ErrorCode::NotAResolverUrl,
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

#[cfg(test)]
mod tests;
