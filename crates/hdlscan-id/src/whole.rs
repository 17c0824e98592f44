//! SPEC §6 "What is not one identifier": its order up to the forms of §2
//! ([`before_forms`], which every reader calls, the fast path through its
//! own `fast::before_forms` wrapper: `empty`, `control_char`,
//! `formula_text`, `placeholder`, then whether the value may be
//! several), the rows that
//! look at pieces ([`check`]: `multiple_values`, `wrapped_line`,
//! `extra_text`), and what each one's whole-value repair reads instead.
//! `publisher_url` is checked among the URL forms (`resolver.rs`),
//! `unexpected_namespace` last (`Parser::parse`); a repair is applied,
//! when the options ask for one, by `read_value` (`lib.rs`), which reads
//! what `cx.d.whole` names again.

use super::codes::{ErrorCode, Warning};
use super::pieces::{self, Cut, Pieces};
use super::{Cx, Level, Rendered, Scratch, Span, chars, label, render};

/// What SPEC §6 says of a trimmed value before the forms of §2 read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Before {
    /// One of the rows that need no look at pieces: `empty`,
    /// `control_char`, `formula_text`, `placeholder`.
    Error(ErrorCode),
    /// The value may hold raw whitespace or separators: [`check`] decides
    /// (`multiple_values`, `wrapped_line`, `extra_text`), or the forms
    /// when it finds one identifier's worth of text.
    Several,
    /// One identifier's worth of text: the forms of §2 decide.
    Forms,
}

/// What a reader found of a trimmed value before it asks [`before_forms`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Found {
    /// The value holds a control character (§1).
    pub control: bool,
    /// The value starts with a scheme or a label (`doi:`, `hdl:`, a URL):
    /// no placeholder, which is a bare value. `false` when not known.
    pub marked: bool,
}

/// SPEC §6's order up to the forms of §2, on the trimmed value `t`: `empty`;
/// `control_char`; `formula_text`; `placeholder` (what `found` rules out
/// is not looked for); then `Several` when `may_be_several` says the
/// value may hold raw whitespace or a separator. `too_long` and `bad_utf8` come before any reading
/// (`Parser::parse`, `Parser::parse_slow`); `publisher_url` is the URL
/// forms' and `unexpected_namespace` `Parser::expected`'s. Every reader
/// asks here: the full parser (`dispatch`), the fast path (`fast::read`)
/// and its rare forms (`rare::read`), each with the cheapest test of
/// `may_be_several` it has (`false` must prove one value).
#[inline(always)]
pub fn before_forms(t: &str, found: Found, may_be_several: impl FnOnce() -> bool) -> Before {
    if t.is_empty() {
        return Before::Error(ErrorCode::Empty);
    }
    if found.control {
        return Before::Error(ErrorCode::ControlChar);
    }
    if !found.marked
        && let Some(e) = bare_error(t)
    {
        return Before::Error(e);
    }
    if may_be_several() {
        return Before::Several;
    }
    Before::Forms
}

/// `formula_text`, then `placeholder`, of a bare value `t` (not empty):
/// only a value starting with `=` may be a formula, which one byte tells
/// most values (they start with a digit) before the two-byte compare.
#[inline(always)]
fn bare_error(t: &str) -> Option<ErrorCode> {
    if t.as_bytes()[0] == b'=' && formula_text(t).is_some() {
        return Some(ErrorCode::FormulaText);
    }
    is_placeholder(t).then_some(ErrorCode::Placeholder)
}

/// SPEC §6 `formula_text`: the trimmed value `t` is a spreadsheet formula
/// quoting text (`="9780525509288"`, `=""`), as spreadsheet exports write
/// numbers they must keep as text: the quoted text, which its whole-value
/// repair reads. A quote inside is left as written (spreadsheets double
/// it: `""`): no identifier holds one.
#[inline(always)]
pub fn formula_text(t: &str) -> Option<&str> {
    t.strip_prefix("=\"")?.strip_suffix('"')
}

/// SPEC §6 `placeholder`: the trimmed value `t` stands for "no
/// identifier". A bare value (no scheme, no label) with no ASCII digit and
/// no `/` (`n.a.`, `none`, `TBD`, `not yet published`, `-`, `?`), one of
/// `n/a`, `n/d`, `w/o`, `and/or` (any case), or exactly `0`. A digit-less
/// value with a `/` (`CNRI.TEST/abc`) is a handle attempt, not this.
#[inline(always)]
pub fn is_placeholder(t: &str) -> bool {
    // Most values start with a digit: then only `0` is one.
    match t.as_bytes() {
        [first, rest @ ..] if first.is_ascii_digit() => *first == b'0' && rest.is_empty(),
        _ => is_placeholder_text(t),
    }
}

/// `is_placeholder` of a value that does not start with a digit.
#[inline(never)]
fn is_placeholder_text(t: &str) -> bool {
    let b = t.as_bytes();
    if chars::any_digit(b) {
        return false;
    }
    if b.contains(&b'/') {
        return ["n/a", "n/d", "w/o", "and/or"]
            .iter()
            .any(|w| t.eq_ignore_ascii_case(w));
    }
    label::scheme_of(t).is_none() && label::doi_labels(t).0 == 0
}

/// The rows of SPEC §6's table after `placeholder`, on the trimmed value
/// `t` (a slice of `cx.input`): the error, with `cx.d.whole` set to what
/// its repair would read when it has one; `Ok` when the value is one
/// identifier's worth of text and the forms of §2 decide.
pub fn check<'a>(cx: &mut Cx<'a>, t: &'a str) -> Result<(), ErrorCode> {
    let space = pieces::has_raw_space(t, cx.opts);
    if !space && !pieces::may_be_several(t.as_bytes()) {
        return Ok(());
    }
    let mut piece = Piece::new(cx.opts);
    if let Some(first_id) = multiple(&mut piece, t) {
        if let Some(p) = first_id {
            cx.d.whole = cx.span_of(p);
        }
        return Err(ErrorCode::MultipleValues);
    }
    if !space {
        return Ok(());
    }
    if let Some((before, after)) = wrapped(t) {
        let after_is_one =
            pieces::could_hold_identifier(after.as_bytes()) && (pieces::is_link(after) || piece.is_identifier(after));
        if !pieces::has_space(after) && !after_is_one {
            // A second line that repeats the end of the first is the
            // same text twice, not the rest of it: joining would make a
            // DOI that does not exist.
            if !before.ends_with(after) {
                let start = cx.buf.len();
                cx.buf.push_str(before);
                cx.buf.push_str(after);
                cx.d.whole = Span::Buf(start as u32, cx.buf.len() as u32);
            }
            return Err(ErrorCode::WrappedLine);
        }
    }
    if cx.opts.repair {
        cx.d.whole = extra_text_repair(&mut piece, t, cx.opts).map_or(Span::None, |w| cx.span_of(w));
    }
    Err(ErrorCode::ExtraText)
}

/// SPEC §6 `multiple_values`: two or more pieces of `t` are identifiers
/// or links. `Some` when they are, holding the first identifier's piece
/// when a repair is asked and every identifier shares its canonical.
fn multiple<'a>(piece: &mut Piece<'_>, t: &'a str) -> Option<Option<&'a str>> {
    let opts = piece.opts;
    // A piece is read only when it could be an identifier or a link at
    // all (`pieces::could_hold_identifier`): most pieces of dirty values
    // are words, and reading each would cost a parse. Counting them first
    // would walk the pieces twice where two are found.
    if pieces::at_most_one_candidate(t.as_bytes()) {
        return None;
    }
    let mut found = 0;
    let mut first_id: Option<&'a str> = None;
    let mut one_canonical = true;
    let mut canonical = String::new();
    for r in Pieces::new(t, Cut::All, opts) {
        // Two found decide it, unless a repair must know whether all
        // identifiers share one canonical.
        if found >= 2 && !(opts.repair && one_canonical) {
            break;
        }
        let p = &t[r];
        if !pieces::could_hold_identifier(p.as_bytes()) {
            continue;
        }
        // Without a repair to make, no canonical is compared.
        if !opts.repair {
            found += (piece.is_identifier(p) || pieces::is_link(p)) as usize;
            continue;
        }
        let id = piece.canonical(p);
        if id.is_some() || pieces::is_link(p) {
            found += 1;
        }
        if let Some(c) = id {
            match first_id {
                None => {
                    first_id = Some(p);
                    canonical.push_str(c);
                }
                Some(_) => one_canonical &= canonical == c,
            }
        }
    }
    (found >= 2).then_some(first_id.filter(|_| one_canonical))
}

/// What [`check`] answers for a trimmed value `t` without a line break,
/// read without repairs: `multiple_values`, else `extra_text` when `space`
/// (it holds raw whitespace, `pieces::has_raw_space`), else `None`: one
/// identifier's worth of text, for the forms. `fast::rare::read` asks it
/// of the ASCII values it finds may be several, sparing them the full
/// parser.
pub fn several(t: &str, opts: &super::Options, space: bool) -> Option<ErrorCode> {
    debug_assert!(!opts.repair && line_break(t, 0).is_none());
    match multiple(&mut Piece::new(opts), t) {
        Some(_) => Some(ErrorCode::MultipleValues),
        None => space.then_some(ErrorCode::ExtraText),
    }
}

/// `extra_text`'s repair: the one word of `t` that is an identifier,
/// unless the text beside it may be the rest of it (a DOI broken by a
/// stray space).
fn extra_text_repair<'a>(piece: &mut Piece<'_>, t: &'a str, opts: &super::Options) -> Option<&'a str> {
    let words: Vec<&'a str> = Pieces::new(t, Cut::Whitespace, opts).map(|r| &t[r]).collect();
    let mut ids = (0..words.len())
        .filter(|&i| pieces::could_hold_identifier(words[i].as_bytes()) && piece.is_identifier(words[i]));
    let (Some(i), None) = (ids.next(), ids.next()) else {
        return None;
    };
    let word = words[i];
    let broken = word.ends_with(['-', '_', '/'])
        || words
            .get(i + 1)
            .is_some_and(|next| next.bytes().any(|c| c.is_ascii_digit()));
    (!broken).then_some(word)
}

/// The two lines of `t` when it holds exactly one line break (LF, CR,
/// CRLF, U+2028 or U+2029, or one written as text: `\n`, `\r`, `\r\n`,
/// any case, as `pieces::space_len` reads them),
/// each without the whitespace around the break.
fn wrapped(t: &str) -> Option<(&str, &str)> {
    let (i, len) = line_break(t, 0)?;
    let rest = &t[i + len..];
    if line_break(rest, 0).is_some() {
        return None;
    }
    Some((pieces::trim_end_space(&t[..i]), pieces::trim_start_space(rest)))
}

/// The first line break of `t` from byte `from` on: where it starts and
/// its length (CRLF, and `\r\n` written as text, are one break).
fn line_break(t: &str, from: usize) -> Option<(usize, usize)> {
    let b = t.as_bytes();
    let i = from + t[from..].find(['\n', '\r', '\u{2028}', '\u{2029}', '\\'])?;
    let len = match &b[i..] {
        [b'\r', b'\n', ..] => 2,
        [b'\\', b'r' | b'R', b'\\', b'n' | b'N', ..] => 4,
        [b'\\', b'n' | b'r' | b'N' | b'R', ..] => 2,
        [b'\\', ..] => return line_break(t, i + 1),
        _ => t[i..].chars().next()?.len_utf8(),
    };
    Some((i, len))
}

/// A piece read alone under SPEC §1–3 (no §6: a piece is never several),
/// with buffers of its own, since the value's are in use.
struct Piece<'o> {
    opts: &'o super::Options,
    scratch: Scratch,
    out: Rendered,
}

impl<'o> Piece<'o> {
    fn new(opts: &'o super::Options) -> Piece<'o> {
        Piece {
            opts,
            scratch: Scratch::default(),
            out: Rendered::default(),
        }
    }

    /// The canonical of `piece` (trimmed first), when it is an identifier.
    fn canonical(&mut self, piece: &str) -> Option<&str> {
        let p = read_piece(piece, self.opts, &mut self.scratch)?;
        render::render(&p, self.opts.repair, &mut self.out);
        self.out.canonical()
    }

    /// True when `piece` (trimmed first) is an identifier.
    fn is_identifier(&mut self, piece: &str) -> bool {
        read_piece(piece, self.opts, &mut self.scratch).is_some()
    }
}

/// `piece` read alone (SPEC §6 "is an identifier"), when it is one.
fn read_piece<'a>(piece: &'a str, opts: &super::Options, scratch: &'a mut Scratch) -> Option<super::Parsed<'a>> {
    // The fast path first: it answers only what §6 has no say in, and a
    // piece holds no separator, so its answer is the forms'. A cell of
    // DSpace's `a||b` reads its pieces at the fast path's speed.
    let p = match super::fast::parse(piece.as_bytes(), opts, &mut scratch.repair) {
        Some(p) => p,
        None => super::read_value(piece, scratch, opts, Level::Forms),
    };
    p.error.is_none().then_some(p)
}

/// The warning a repaired value keeps for SPEC §6's `error` (the same
/// name: the dirt was there), when the error has a whole-value repair.
pub fn repaired_as(error: ErrorCode) -> Option<Warning> {
    Warning::from_name(error.as_str()).filter(|w| w.is_whole_value_repair())
}
