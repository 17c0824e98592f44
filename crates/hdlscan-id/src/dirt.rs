//! SPEC §3 "Dirt, and repair": the warnings that flag a dirty but readable
//! handle, and the repairs that `--repair` applies to `canonical`, `uri`
//! and `url`. Flagging looks at the parts as read; each repair runs only
//! when its warning was raised, so the report shows every repair made.

use super::chars::{self, is_invisible, is_unicode_dash};
use super::codes::{Warning, Warnings};
use super::handle::{self, Rule};
use super::percent;

/// `publisher_suffix` (§3 table), any case, DOIs only. Where one ends
/// another (`/full/html`, `/html`), the longer comes first: the suffix is
/// the longest one the DOI ends in. All start with `/`, so a suffix holding
/// no `/` ends in none (`may_flag_doi` relies on it; a test checks).
const PUBLISHER_SUFFIXES: [&str; 11] = [
    "/full/html",
    "/full/pdf",
    "/abstract",
    "/full",
    "/pdf",
    "/epdf",
    "/html",
    "/fulltext",
    "/meta",
    "/references",
    "/-/DCSupplemental",
];

/// The last letters of `PUBLISHER_SUFFIXES`, lowercase, a bit per letter
/// (`a` is bit 0): any other last byte rules a publisher suffix out
/// without the search. Derived from the list, so it cannot fall behind it.
const PUBLISHER_LAST: u32 = {
    let mut mask = 0u32;
    let mut i = 0;
    while i < PUBLISHER_SUFFIXES.len() {
        let s = PUBLISHER_SUFFIXES[i].as_bytes();
        let last = s[s.len() - 1].to_ascii_lowercase();
        assert!(last.is_ascii_lowercase(), "a publisher suffix ends in a letter");
        mask |= 1 << (last - b'a');
        i += 1;
    }
    mask
};
const ENTITIES: [(&str, char); 3] = [("&lt;", '<'), ("&gt;", '>'), ("&amp;", '&')];

/// Raises the §3 warnings that apply to a handle's decoded parts. The
/// repairable ones are found by running the repair chain itself, so a dirt
/// that only shows once another is repaired (`x.]/pdf`) is flagged too.
/// `internal_whitespace` is raised only for whitespace a URI or URL's
/// escapes decoded to (`decoded`): raw whitespace inside a value is SPEC
/// §6's (`extra_text`, `wrapped_line`, …) and never reaches here.
pub fn flag(
    prefix: &str,
    suffix: &str,
    is_doi: bool,
    decoded: bool,
    value: chars::Scan,
    ws: &mut Warnings,
    bufs: &mut RepairBufs,
) {
    // The suffix holds no class of byte the whole value lacks (decoding
    // aside), so a clean value skips the second scan.
    let decoded = decoded && value.percent;
    if value.non_ascii && !value.amp && !decoded {
        flag_non_ascii(prefix, suffix, is_doi, ws, bufs);
        return;
    }
    let scan = if decoded || value.non_ascii || value.amp || value.space {
        chars::scan(suffix)
    } else {
        chars::Scan::default()
    };
    // The value's space or `&` is not in the suffix (it is a label's, a
    // query's or the prefix's) and the suffix is plain ASCII: `may_flag`
    // decides, as for a value without them, since nothing below looks for
    // a space or `&` outside the suffix.
    if (value.space || value.amp)
        && !(decoded || value.non_ascii || scan.space || scan.amp)
        && !may_flag(
            prefix,
            suffix,
            is_doi,
            false,
            chars::find_byte(b'/', suffix.as_bytes()).is_some(),
        )
    {
        return;
    }
    let prefix_ascii = !(decoded || value.non_ascii) || prefix.is_ascii();
    // Decoded from `%20`, `%09`, `%C2%A0`, …: the parts of URIs and URLs
    // (and of a bare value split at `%2F`) are decoded, others taken
    // literally. No ASCII whitespace past `scan.space`.
    let inner_space =
        decoded && (scan.space || (scan.non_ascii && chars::any_non_ascii(suffix, chars::is_inner_space)));
    if inner_space {
        ws.add(Warning::InternalWhitespace);
    }
    if is_doi && has_embedded_doi(suffix) {
        ws.add(Warning::EmbeddedDoi);
    }
    flag_placeholders(prefix, suffix, ws);
    // ASCII without `&` and nothing decoded: only the truncating repairs
    // can apply (as in `chain`), and their warnings need no copy of the
    // parts; a suffix with nothing to truncate costs one round.
    if prefix_ascii && !scan.non_ascii && !scan.amp && !decoded {
        truncate_all(suffix, is_doi, ws);
        return;
    }
    // Cheap pre-check: most values have no repairable dirt at all.
    let maybe = trailing_punct_len(suffix) > 0
        || scan.non_ascii
        || !prefix_ascii
        || scan.amp
        || (decoded && (scan.percent || prefix.contains('%')))
        || (is_doi && publisher_suffix_len(suffix) > 0);
    if !maybe {
        return;
    }
    let found = chain(prefix, suffix, is_doi, decoded, bufs);
    *ws |= found;
}

/// `flag` for a value holding non-ASCII (invisible characters, dashes,
/// letters) but no `&`, read without decoding: then `chain` maps the
/// characters once and truncates (see there), and `map_chars` walks the
/// suffix once. Nothing was decoded, so no `internal_whitespace`. Few
/// values come here, when this code is cold: each pass over the text and
/// each call saved is mispredictions saved.
fn flag_non_ascii(prefix: &str, suffix: &str, is_doi: bool, ws: &mut Warnings, bufs: &mut RepairBufs) {
    bufs.suffix.clear();
    let found = map_chars(suffix, is_doi, &mut bufs.suffix);
    let invisible_prefix = !prefix.is_ascii() && chars::any_non_ascii(prefix, is_invisible);
    // An embedded DOI holds a `/`: most suffixes hold none.
    if is_doi && chars::find_byte(b'/', suffix.as_bytes()).is_some() && has_embedded_doi(suffix) {
        ws.add(Warning::EmbeddedDoi);
    }
    ws.add_if(found.invisible || invisible_prefix, Warning::InvisibleChar);
    ws.add_if(found.dash, Warning::UnicodeDash);
    flag_placeholders(prefix, suffix, ws);
    truncate_all(&bufs.suffix, is_doi, ws);
}

/// The §3 warnings of a handle that stands in for a real one, as read:
/// `test_prefix`, `template_suffix`, `double_slash`. None has a repair.
fn flag_placeholders(prefix: &str, suffix: &str, ws: &mut Warnings) {
    ws.add_if(is_test_prefix(prefix), Warning::TestPrefix);
    if may_start_placeholder(suffix) {
        ws.add_if(is_template(suffix), Warning::TemplateSuffix);
        ws.add_if(suffix.starts_with('/'), Warning::DoubleSlash);
    }
}

/// `test_prefix` (§3): `123456789`, `10.5072`, `10.2999` or `10.5555`,
/// the prefixes set aside for tests and examples. Told first by their
/// last four bytes as one word, compared with the four without a branch:
/// `may_flag` asks it of every handle, and nearly every prefix fails
/// there, where a branch on the length (`10.` and four digits or not)
/// went as randomly as the values come.
#[inline(always)]
fn is_test_prefix(prefix: &str) -> bool {
    let b = prefix.as_bytes();
    let Some(&last) = b.last_chunk::<4>() else {
        return false;
    };
    let (w, lit) = (u32::from_le_bytes(last), |l: &[u8; 4]| u32::from_le_bytes(*l));
    if !((w == lit(b"5072")) | (w == lit(b"2999")) | (w == lit(b"5555")) | (w == lit(b"6789"))) {
        return false;
    }
    b == b"123456789" || (b.len() == 7 && b.starts_with(b"10.") && w != lit(b"6789"))
}

/// `template_suffix` (§3): with `.`, `-`, `_` and `/` set aside, the
/// suffix is one placeholder character (`n`, `x` in any case, `#`, `?`)
/// written at least twice (`nnnnnnn.nnnnnnn`, `XXXX`): a lone `x` is not
/// "repeated", and may be a real suffix. Most suffixes fail at their first
/// or second byte.
fn is_template(suffix: &str) -> bool {
    let (mut placeholder, mut count) = (0u8, 0usize);
    for b in suffix.bytes() {
        if matches!(b, b'.' | b'-' | b'_' | b'/') {
            continue;
        }
        let c = b.to_ascii_lowercase();
        if !matches!(c, b'n' | b'x' | b'#' | b'?') || (count > 0 && c != placeholder) {
            return false;
        }
        (placeholder, count) = (c, count + 1);
    }
    count >= 2
}

/// A cheap pre-check of `flag` for a handle read without decoding: false
/// only when `flag` would raise nothing. `look` says the value holds what
/// only `flag` reads (`&`, a space, non-ASCII), `suffix_slash` whether the
/// suffix holds a `/` (the caller knows where they are). The DOI-only dirt is
/// decided exactly (a last letter or a `/` alone lets through a tenth of
/// all DOIs), each test behind the byte it needs.
#[inline(always)]
pub fn may_flag(prefix: &str, suffix: &str, is_doi: bool, look: bool, suffix_slash: bool) -> bool {
    let last = suffix.as_bytes().last().copied().unwrap_or(0);
    look
        || droppable(last) // trailing_punct_len
        || (is_doi && suffix_slash && may_flag_doi(suffix, last))
        || is_test_prefix(prefix)
        || may_flag_placeholder(suffix)
}

/// `template_suffix` or `double_slash` applies: behind one table load of
/// the suffix's first byte, which rules out nearly every suffix, and
/// `is_template`'s walk, which stops at the first other byte (`nature…`).
#[inline(always)]
fn may_flag_placeholder(suffix: &str) -> bool {
    may_start_placeholder(suffix) && (suffix.starts_with('/') || is_template(suffix))
}

/// False when the suffix's first byte rules out `template_suffix` and
/// `double_slash` (nearly every suffix's): one table load.
#[inline(always)]
fn may_start_placeholder(suffix: &str) -> bool {
    suffix
        .as_bytes()
        .first()
        .is_some_and(|&c| EDGE_BYTE[c as usize] & FIRST_PLACEHOLDER != 0)
}

/// The DOI dirt of `may_flag` in a suffix holding a `/`, as both need: a
/// publisher suffix (behind its last letters) or an embedded DOI.
/// Inlined: both tests fail for nearly every DOI, and their walks are out
/// of line.
#[inline(always)]
fn may_flag_doi(suffix: &str, last: u8) -> bool {
    (may_end_publisher_suffix(last) && publisher_suffix_search(suffix) > 0) || has_embedded_doi(suffix)
}

/// Length of the trailing punctuation §3 flags: `.` `,` `;` `/`, and
/// closing brackets the suffix never opened, repeatedly; it may be the
/// whole suffix, which `truncations` then flags without emptying.
///
/// A closer is "opened" when an opener of its kind is still unmatched
/// before it, matching left to right and skipping closers with nothing
/// open (`a)(b)` ends in an opened `)`). Linear: the depths are taken once
/// before the trailing run, which holds no opener, and the run is walked
/// back with per-kind counts of the closers still before each position.
/// Inlined for its first test: most suffixes end in none of these.
#[inline]
fn trailing_punct_len(suffix: &str) -> usize {
    match suffix.as_bytes().last() {
        Some(&c) if droppable(c) => trailing_run_len(suffix),
        _ => 0,
    }
}

/// Punctuation `trailing_punct_len` may drop (§3 table: `.`, `,`, `;`,
/// `/`, and the closers).
#[inline(always)]
fn droppable(c: u8) -> bool {
    EDGE_BYTE[c as usize] & DROPPABLE != 0
}

/// What a suffix's last byte allows, a bit each, for `droppable` and
/// `may_end_publisher_suffix`, and its first byte, for
/// `may_flag_placeholder`: `may_flag` asks them of every value, and one
/// table load answers each end.
static EDGE_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        if matches!(c, b'.' | b',' | b';' | b'/' | b')' | b']' | b'}') {
            t[i] |= DROPPABLE;
        }
        let letter = c.to_ascii_lowercase().wrapping_sub(b'a');
        if letter < 26 && PUBLISHER_LAST >> letter & 1 != 0 {
            t[i] |= PUBLISHER_END;
        }
        // What `is_template` sets aside or counts, and `double_slash`'s `/`.
        if matches!(
            c.to_ascii_lowercase(),
            b'n' | b'x' | b'#' | b'?' | b'.' | b'-' | b'_' | b'/'
        ) {
            t[i] |= FIRST_PLACEHOLDER;
        }
        i += 1;
    }
    t
};
const DROPPABLE: u8 = 1;
const PUBLISHER_END: u8 = 2;
const FIRST_PLACEHOLDER: u8 = 4;

/// `trailing_punct_len` of a suffix that ends in `droppable` punctuation.
#[inline(never)]
fn trailing_run_len(suffix: &str) -> usize {
    let b = suffix.as_bytes();
    let run = b.len() - b.iter().rposition(|&c| !droppable(c)).map_or(0, |i| i + 1);
    let (head, tail) = b.split_at(b.len() - run);
    // `.`, `,`, `;` and `/` alone (the usual run) need no bracket counts.
    if !tail.iter().any(|&c| closer(c).is_some()) {
        return run;
    }
    let mut depth = [0usize; 3];
    for &c in head {
        match c {
            b'(' => depth[0] += 1,
            b'[' => depth[1] += 1,
            b'{' => depth[2] += 1,
            _ => {
                if let Some(k) = closer(c) {
                    depth[k] = depth[k].saturating_sub(1);
                }
            }
        }
    }
    let mut before = [0usize; 3];
    for &c in tail {
        if let Some(k) = closer(c) {
            before[k] += 1;
        }
    }
    let mut n = 0;
    for &c in tail.iter().rev() {
        if let Some(k) = closer(c) {
            before[k] -= 1;
            // Open ones left before it: the closers before it in the run
            // each closed one (or, once none is left, stood unopened).
            if before[k] < depth[k] {
                break;
            }
        }
        n += 1;
    }
    n
}

/// Which bracket kind `c` closes: `)` 0, `]` 1, `}` 2.
fn closer(c: u8) -> Option<usize> {
    b")]}".iter().position(|&x| x == c)
}

/// Length of the publisher suffix `suffix` ends in (any case), if any:
/// a last letter none of them ends in decides it without the search.
#[inline]
fn publisher_suffix_len(suffix: &str) -> usize {
    match suffix.as_bytes().last() {
        Some(&c) if may_end_publisher_suffix(c) => publisher_suffix_search(suffix),
        _ => 0,
    }
}

/// True when a publisher suffix may end in the byte `last` (any case).
#[inline(always)]
fn may_end_publisher_suffix(last: u8) -> bool {
    EDGE_BYTE[last as usize] & PUBLISHER_END != 0
}

#[inline(never)]
fn publisher_suffix_search(suffix: &str) -> usize {
    PUBLISHER_SUFFIXES
        .iter()
        .find(|p| chars::ends_with_ci(suffix, p))
        .map_or(0, |p| p.len())
}

/// `10.` then four or more digits, optional `.digits` segments, then `/`.
#[inline(never)]
fn has_embedded_doi(suffix: &str) -> bool {
    let b = suffix.as_bytes();
    // Most suffixes hold no `10.` at all: one search says so without a
    // branch on every `.` (a suffix's dots fall anywhere, and a CPU
    // mispredicted them).
    if !chars::may_contain3(b, *b"10.") {
        return false;
    }
    (2..b.len()).filter(|&i| b[i] == b'.').any(|dot| {
        if &b[dot - 2..dot] != b"10" {
            return false;
        }
        let start = dot + 1;
        let mut j = start;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j - start < 4 {
            return false;
        }
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
            j += 1;
        }
        j < b.len() && b[j] == b'/'
    })
}

/// `invisible_char` in a normalized `info:` identifier of another
/// namespace, where every non-ASCII character is escaped (`%C2%AD`): the
/// length of the escapes of an invisible character starting at `s`.
fn invisible_escape_len(s: &[u8]) -> Option<usize> {
    let mut utf8 = [0u8; 4];
    for n in 0..utf8.len() {
        if s.get(3 * n) != Some(&b'%') {
            return None;
        }
        utf8[n] = percent::escape_at(s, 3 * n)?;
        if let Ok(t) = std::str::from_utf8(&utf8[..=n]) {
            return t.chars().next().is_some_and(is_invisible).then_some(3 * (n + 1));
        }
    }
    None
}

/// True when the normalized `info:` identifier `id` holds an invisible
/// character (escaped, as normalization leaves them).
pub fn info_has_invisible(id: &str) -> bool {
    let b = id.as_bytes();
    memchr::memchr_iter(b'%', b).any(|i| invisible_escape_len(&b[i..]).is_some())
}

/// `id` with the escapes of invisible characters removed (the repair of
/// `invisible_char` for other `info:` namespaces).
pub fn info_without_invisible(id: &str, out: &mut String) {
    let b = id.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match invisible_escape_len(&b[i..]) {
            Some(n) => i += n,
            None => {
                // Escapes and the identifier's characters are ASCII.
                out.push(b[i] as char);
                i += 1;
            }
        }
    }
}

/// Buffers for repairs, reused across values.
#[derive(Debug, Default, Clone)]
pub struct RepairBufs {
    prefix: String,
    suffix: String,
    tmp: String,
    bytes: Vec<u8>,
}

/// The repairs of §3, each found on the text the previous ones left, run
/// until none applies; returns the warnings raised. The repaired parts are
/// left in `bufs` (see `repaired`). `decode_again` allows the
/// `double_encoded` step (URI and URL forms only).
fn chain(prefix: &str, suffix: &str, is_doi: bool, decode_again: bool, bufs: &mut RepairBufs) -> Warnings {
    let RepairBufs {
        prefix: p,
        suffix: s,
        tmp,
        bytes,
    } = bufs;
    let mut ws = Warnings::EMPTY;
    p.clear();
    s.clear();
    // Without `&` and a second decoding, no round decodes anything: the
    // first maps the characters, which leaves nothing a second map would
    // change, and every round truncates. So: one map, then the truncations
    // until none applies, with no copy per round (ASCII text: no map).
    if !decode_again && !has_amp(suffix) {
        let (in_prefix, in_suffix) = (map_chars(prefix, false, p), map_chars(suffix, is_doi, s));
        let kept = truncate_all(s, is_doi, &mut ws);
        s.truncate(kept);
        ws.add_if(in_prefix.invisible || in_suffix.invisible, Warning::InvisibleChar);
        ws.add_if(in_suffix.dash, Warning::UnicodeDash);
        return ws;
    }
    p.push_str(prefix);
    s.push_str(suffix);
    for _ in 0..ROUNDS {
        let mut changed = false;
        if decode_again {
            // Kept only where it leaves a readable handle: UTF-8, no control
            // characters, no `/` inside the prefix.
            for (part, is_prefix) in [(&mut *p, true), (&mut *s, false)] {
                if !percent::has_escape(part) {
                    continue;
                }
                ws.add(Warning::DoubleEncoded);
                percent::decode_lenient_into(part, bytes);
                if let Ok(d) = std::str::from_utf8(bytes)
                    && !chars::scan(d).control
                    && !(is_prefix && d.contains('/'))
                {
                    d.clone_into(part);
                    changed = true;
                }
            }
        }
        let entity = has_amp(s) && has_entity(s, is_doi);
        if entity {
            ws.add(Warning::HtmlEntity);
            decode_entities(s, tmp, is_doi);
            std::mem::swap(s, tmp);
            changed = true;
        }
        // Invisible characters (both parts) and Unicode dashes (a DOI's
        // suffix), which are not ASCII, in one pass over each part.
        let (mut invisible, mut dash) = (false, false);
        for (part, dashes) in [(&mut *p, false), (&mut *s, is_doi)] {
            // ASCII has nothing to map: no copy.
            if part.is_ascii() {
                continue;
            }
            tmp.clear();
            let found = map_chars(part, dashes, tmp);
            if found.invisible || found.dash {
                std::mem::swap(part, tmp);
                changed = true;
            }
            (invisible, dash) = (invisible || found.invisible, dash || found.dash);
        }
        ws.add_if(invisible, Warning::InvisibleChar);
        ws.add_if(dash, Warning::UnicodeDash);
        // An entity decoded may leave another whose `;` ends the suffix
        // (`&amp;lt;` gives `&lt;`): the next round decodes it before any
        // trailing punctuation is dropped.
        let kept = if entity {
            s.len()
        } else {
            truncations(s, is_doi, &mut ws)
        };
        if kept < s.len() {
            s.truncate(kept);
            changed = true;
        }
        if !changed {
            break;
        }
    }
    ws
}

/// What `map_chars` found in a part.
#[derive(Debug, Default, Clone, Copy)]
struct Found {
    invisible: bool,
    dash: bool,
}

/// The character repairs of §3 on `part`, written to `out`: invisible
/// characters dropped (`invisible_char`) and, when `dashes` (a DOI's
/// suffix), each run of dashes made one `-` (`unicode_dash`). Returns what
/// it found: one walk of the characters serves `flag_non_ascii` and
/// `chain`.
fn map_chars(part: &str, dashes: bool, out: &mut String) -> Found {
    let b = part.as_bytes();
    let mut found = Found::default();
    let mut run = DashRun::default();
    let mut i = 0;
    while i < b.len() {
        // ASCII is neither a dash nor invisible, but for `-`: copied a
        // stretch at a time, up to the next non-ASCII character. Most of a
        // non-ASCII suffix is ASCII, pushed a stretch at a time rather than
        // a character at a time, and not stopped at each `-`. A run of ASCII `-` inside the stretch is the DOI's
        // own, as written (`DashRun`); those just before the character
        // may join its run, so the stretch stops before them.
        let plain = if b[i].is_ascii() && !(dashes && b[i] == b'-') {
            let mut end = chars::next_non_ascii(b, i);
            while dashes && b[end - 1] == b'-' {
                end -= 1;
            }
            end
        } else {
            i
        };
        if plain > i {
            run.flush(out);
            out.push_str(&part[i..plain]);
            i = plain;
            continue;
        }
        let c = part[i..].chars().next().unwrap_or_default();
        i += c.len_utf8();
        if dashes && (c == '-' || is_unicode_dash(c)) {
            found.dash |= c != '-';
            run.dash(c != '-');
        } else if is_invisible(c) {
            found.invisible = true;
            run.gap = true;
        } else {
            run.flush(out);
            out.push(c);
        }
    }
    run.flush(out);
    found
}

/// SPEC §3 `unicode_dash`: "a run of dashes (ASCII `-` among them) with
/// only invisible characters between is one dash". A run is dashes (`-`,
/// U+2010–U+2015, U+2212) one after another, with nothing but invisible
/// characters between two of them; invisible characters before its first
/// dash or after its last are not in it (they are removed, as anywhere).
/// It becomes one `-` when it holds a Unicode dash or an invisible
/// character: `-` U+00AD U+2010 is `-`, never `--`, and so is `-` U+00AD
/// `-` (a soft hyphen between two hyphens is a line break's). A run of
/// ASCII `-` alone is the DOI's own (`a--b`) and stays as written: it is
/// not dirt. The row is a DOI's, so are runs: a handle's dashes stay as
/// written, its invisible characters removed (`1234/a-` U+00AD `-b` is
/// `1234/a--b`).
#[derive(Default)]
struct DashRun {
    /// Dashes in the run so far.
    dashes: usize,
    /// An invisible character since the last dash (or before the first).
    gap: bool,
    /// The run holds a Unicode dash, or an invisible character between two
    /// of its dashes: it becomes one `-`.
    collapse: bool,
}

impl DashRun {
    fn dash(&mut self, unicode: bool) {
        self.collapse |= unicode || (self.gap && self.dashes > 0);
        self.gap = false;
        self.dashes += 1;
    }

    /// Writes the run ended by another character (or the end) to `out`.
    /// Most characters end no run: nothing is called for them (an
    /// `extend` the compiler may leave out of line costs a call a
    /// character).
    #[inline(always)]
    fn flush(&mut self, out: &mut String) {
        if self.dashes > 0 {
            let n = if self.collapse { 1 } else { self.dashes };
            for _ in 0..n {
                out.push('-');
            }
        }
        *self = DashRun::default();
    }
}

/// Rounds of the repair chain. Each step shrinks the text or maps
/// characters once, so a few rounds reach the fixed point; the bound only
/// guards against a mistake here.
const ROUNDS: usize = 8;

/// The truncating repairs alone, round after round until none applies:
/// all of `chain` for ASCII text without `&` and nothing to decode again.
/// Returns the length `suffix` keeps.
fn truncate_all(suffix: &str, is_doi: bool, ws: &mut Warnings) -> usize {
    let mut end = suffix.len();
    for _ in 0..ROUNDS {
        let kept = truncations(&suffix[..end], is_doi, ws);
        if kept == end {
            break;
        }
        end = kept;
    }
    end
}

/// The truncating steps of one round: a publisher suffix (DOIs), then
/// trailing punctuation. Returns the length `s` keeps. Inlined in
/// `truncate_all`, whose one round on most suffixes is a few tests.
#[inline]
fn truncations(s: &str, is_doi: bool, ws: &mut Warnings) -> usize {
    let mut end = s.len();
    if is_doi {
        let n = publisher_suffix_len(s);
        if n > 0 {
            ws.add(Warning::PublisherSuffix);
            // Never the whole suffix: `10.1000//abstract` is flagged and
            // left as read, as trailing punctuation is below.
            if n < end {
                end -= n;
            }
        }
    }
    let n = trailing_punct_len(&s[..end]);
    if n > 0 {
        ws.add(Warning::TrailingPunct);
        // Never the whole suffix: `10.1000/.` is flagged and left as read.
        end = (end - n).max(1);
    }
    end
}

/// The entity `rest` starts with: its length and character. In a DOI in
/// any case (`&LT;`), since the DOI is compared lowercased and a repair
/// must find on the first run what the second would.
fn entity_at(rest: &str, any_case: bool) -> Option<(usize, char)> {
    ENTITIES
        .iter()
        .find(|(e, _)| {
            if any_case {
                chars::starts_with_ci(rest, e)
            } else {
                rest.starts_with(e)
            }
        })
        .map(|(e, c)| (e.len(), *c))
}

/// True when `s` holds a `&` (a word at a time: these are short).
fn has_amp(s: &str) -> bool {
    chars::find_byte(b'&', s.as_bytes()).is_some()
}

fn has_entity(s: &str, any_case: bool) -> bool {
    memchr::memchr_iter(b'&', s.as_bytes()).any(|i| entity_at(&s[i..], any_case).is_some())
}

fn decode_entities(s: &str, out: &mut String, any_case: bool) {
    out.clear();
    let mut rest = s;
    while let Some(i) = chars::find_byte(b'&', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match entity_at(rest, any_case) {
            Some((len, c)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// The parts with every §3 repair applied. A repair never makes a valid
/// value invalid or changes whether it is a DOI (an emptied suffix, say):
/// then the value is left as read.
pub fn repair<'b>(
    prefix: &str,
    suffix: &str,
    ws: Warnings,
    is_doi: bool,
    bufs: &'b mut RepairBufs,
) -> (&'b str, &'b str) {
    chain(prefix, suffix, is_doi, ws.contains(Warning::DoubleEncoded), bufs);
    if handle::check(&bufs.prefix, &bufs.suffix, Rule::Any, &mut Warnings::default()) != Ok(is_doi) {
        prefix.clone_into(&mut bufs.prefix);
        suffix.clone_into(&mut bufs.suffix);
    }
    (bufs.prefix.as_str(), bufs.suffix.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The warnings `flag` raises; `decoded`: as if the parts were decoded
    /// from a value holding escapes.
    fn flags(prefix: &str, suffix: &str, decoded: bool) -> Vec<&'static str> {
        let mut ws = Warnings::EMPTY;
        let mut value = chars::scan(&format!("{prefix}/{suffix}"));
        value.percent |= decoded;
        flag(
            prefix,
            suffix,
            prefix.starts_with("10."),
            decoded,
            value,
            &mut ws,
            &mut RepairBufs::default(),
        );
        ws.iter().map(|w| w.as_str()).collect()
    }

    #[test]
    fn trailing_punct_respects_brackets_it_opened() {
        assert_eq!(trailing_punct_len("TAO.2009.05.25.02(IWNOP)"), 0);
        assert_eq!(trailing_punct_len("182)."), 2);
        assert_eq!(trailing_punct_len("a]"), 1);
        assert_eq!(trailing_punct_len("."), 1);
        // A `)` closing the group before it was opened, even after an
        // unmatched one (the audit's `a)(b)`).
        assert_eq!(trailing_punct_len("a)(b)"), 0);
        assert_eq!(trailing_punct_len(")(x)"), 0);
        assert_eq!(trailing_punct_len("(a))(b)"), 0);
        assert_eq!(trailing_punct_len("x(y)z)"), 1);
        assert_eq!(trailing_punct_len("a(b]).;"), 2);
        assert_eq!(trailing_punct_len("(a.)"), 0);
        assert_eq!(trailing_punct_len("a.)"), 2);
        assert_eq!(trailing_punct_len("((x)))"), 1);
        assert_eq!(trailing_punct_len("((x))))"), 2);
        // `/` too (SPEC v2), alone or in a run with the others.
        assert_eq!(trailing_punct_len("182/"), 1);
        assert_eq!(trailing_punct_len("a/b//"), 2);
        assert_eq!(trailing_punct_len("(a)/."), 2);
        assert_eq!(trailing_punct_len("a/b"), 0);
        // The whole suffix is flagged, though never dropped whole.
        assert_eq!(flags("10.1000", ".", false), ["trailing_punct"]);
        assert_eq!(flags("10.1000", "182.", false), ["trailing_punct"]);
        assert_eq!(flags("10.1000", "182/", false), ["trailing_punct"]);
        // A suffix starting with `/` is `double_slash` too (SPEC v3).
        assert_eq!(flags("1234", "/", false), ["trailing_punct", "double_slash"]);
        // `may_flag` lets a `/` end through, for DOIs and handles alike.
        assert!(may_flag("10.1000", "182/", true, false, true));
        assert!(may_flag("1234", "5/", false, false, true));
    }

    /// SPEC §3's rule read literally: drop `.` `,` `;` `/` from the end, and a
    /// closer when matching left to right up to it (closers with nothing
    /// open skipped) leaves it unmatched. Quadratic, obviously right.
    fn naive_trailing_punct_len(s: &str) -> usize {
        let b = s.as_bytes();
        let mut end = b.len();
        while end > 0 {
            let c = b[end - 1];
            if !matches!(c, b'.' | b',' | b';' | b'/') {
                let Some(k) = b")]}".iter().position(|&x| x == c) else {
                    break;
                };
                let (open, close) = (b"([{"[k], c);
                let mut depth = 0;
                let mut matched = false;
                for &x in &b[..end] {
                    if x == open {
                        depth += 1;
                    } else if x == close {
                        matched = depth > 0;
                        depth -= matched as usize;
                    }
                }
                if matched {
                    break;
                }
            }
            end -= 1;
        }
        b.len() - end
    }

    /// `has_embedded_doi` as its doc comment says it, at every `10.`.
    fn naive_has_embedded_doi(s: &str) -> bool {
        let b = s.as_bytes();
        (0..b.len()).filter(|&i| b[i..].starts_with(b"10.")).any(|i| {
            let rest = &b[i + 3..];
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            let more = rest.iter().take_while(|c| c.is_ascii_digit() || **c == b'.').count();
            digits >= 4 && rest.get(more) == Some(&b'/')
        })
    }

    proptest::proptest! {
        #[test]
        fn embedded_doi_matches_naive(s in "[10./a]{0,24}|x?10[.]1234[.0-9]{0,4}/y?") {
            proptest::prop_assert_eq!(has_embedded_doi(&s), naive_has_embedded_doi(&s), "{:?}", s);
        }

        #[test]
        fn trailing_punct_matches_naive(s in "[()\\[\\]{}.,;/ab]{0,16}") {
            proptest::prop_assert_eq!(trailing_punct_len(&s), naive_trailing_punct_len(&s), "{:?}", s);
        }
    }

    /// `may_flag_doi` looks for a publisher suffix only behind these last
    /// letters, and only in a suffix holding a `/`.
    #[test]
    fn publisher_suffixes_end_in_the_letters_may_flag_knows() {
        for p in PUBLISHER_SUFFIXES {
            assert!(p.starts_with('/'), "{p}");
            let last = p.as_bytes()[p.len() - 1];
            assert!(may_end_publisher_suffix(last), "{p}");
            assert!(may_end_publisher_suffix(last.to_ascii_uppercase()), "{p}");
        }
        let letters: String = (b'a'..=b'z')
            .filter(|&c| may_end_publisher_suffix(c))
            .map(char::from)
            .collect();
        assert_eq!(letters, "aflst");
        for b in [b'B', b'/', b'.', 0, 0xFF, b'z' + 1, b'a' - 1, b'Z' + 1, b'A' - 1] {
            assert!(!may_end_publisher_suffix(b), "{b}");
        }
    }

    /// SPEC v2's list, any case, the longest first, DOIs only.
    #[test]
    fn publisher_suffixes_of_spec_v2() {
        for (suffix, len) in [
            ("x/abstract", 9),
            ("x/FULL", 5),
            ("x/pdf", 4),
            ("x/epdf", 5),
            ("x/html", 5),
            ("x/full/html", 10),
            ("x/Full/PDF", 9),
            ("x/fulltext", 9),
            ("x/meta", 5),
            ("x/references", 11),
            ("x/-/DCSupplemental", 17),
            ("x/-/dcsupplemental", 17),
            ("x/xhtml", 0),
            ("x/beta", 0),
            ("xpdf", 0),
            ("x/-DCSupplemental", 0),
        ] {
            assert_eq!(publisher_suffix_len(suffix), len, "{suffix}");
            let want: &[&str] = if len > 0 { &["publisher_suffix"] } else { &[] };
            assert_eq!(flags("10.1000", suffix, false), want, "{suffix}");
            assert_eq!(flags("1234", suffix, false), Vec::<&str>::new(), "{suffix}");
            // Starting with a letter no template starts with: `may_flag`
            // decides by the publisher suffix alone.
            let suffix = suffix.replacen('x', "a", 1);
            assert_eq!(
                may_flag("10.1000", &suffix, true, false, suffix.contains('/')),
                len > 0,
                "{suffix}"
            );
        }
        let mut b = RepairBufs::default();
        let ws: Warnings = [Warning::PublisherSuffix, Warning::TrailingPunct].into_iter().collect();
        assert_eq!(repair("10.1", "x/-/DCSupplemental.", ws, true, &mut b), ("10.1", "x"));
        assert_eq!(repair("10.1", "x/full/html/", ws, true, &mut b), ("10.1", "x"));
        // Never the whole suffix: the longest match is the whole of it.
        assert_eq!(repair("10.1", "/full/html", ws, true, &mut b), ("10.1", "/full/html"));
    }

    #[test]
    fn each_dirt_is_flagged() {
        assert_eq!(flags("10.1000", "a\u{2013}b", false), ["unicode_dash"]);
        assert_eq!(flags("1234", "a\u{2013}b", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "a\u{200B}b", false), ["invisible_char"]);
        assert_eq!(flags("10.1000", "a&lt;b", false), ["html_entity"]);
        assert!(info_has_invisible("a%C2%ADb"));
        assert!(info_has_invisible("%EF%BB%BF"));
        assert!(!info_has_invisible("a%C3%A9b%2Fc%"));
        let mut out = String::new();
        info_without_invisible("a%C2%ADb%E2%80%8Bc%C3%A9", &mut out);
        assert_eq!(out, "abc%C3%A9");
        // A DOI is lowercased whole, so `&LT;` is an entity in one; a
        // handle's suffix keeps its case.
        assert_eq!(flags("10.1000", "a&LT;b", false), ["html_entity"]);
        assert_eq!(flags("1234", "a&LT;b", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "x/abstract", false), ["publisher_suffix"]);
        assert_eq!(flags("10.1000", "x%41", true), ["double_encoded"]);
        assert_eq!(flags("10.1000", "x%41", false), Vec::<&str>::new());
        assert_eq!(flags("10.1000", "x10.1234/y", false), ["embedded_doi"]);
        assert_eq!(flags("10.1000", "x10.12/y", false), Vec::<&str>::new());
        // Whitespace decoded from escapes only: raw whitespace is SPEC §6's.
        for ws in [" ", "\t", "\n", "\r", "\u{A0}", "\u{3000}"] {
            let suffix = format!("a{ws}b");
            assert_eq!(flags("10.1000", &suffix, true), ["internal_whitespace"], "{ws:?}");
            assert_eq!(flags("10.1000", &suffix, false), Vec::<&str>::new(), "{ws:?}");
        }
        assert_eq!(flags("10.5072", "x", false), ["test_prefix"]);
        // SPEC v3: 10.5555, placeholder suffixes, a suffix after `//`; none
        // is repaired.
        assert_eq!(flags("10.5555", "x", false), ["test_prefix"]);
        for prefix in ["123456789", "10.5072", "10.2999", "10.5555"] {
            assert!(is_test_prefix(prefix), "{prefix}");
        }
        for prefix in [
            "",
            "10",
            "5072",
            "10.6789",
            "11.5072",
            "10.15072",
            "0123456789",
            "12346789",
            "10.5072.",
        ] {
            assert!(!is_test_prefix(prefix), "{prefix}");
        }
        assert_eq!(flags("10.1145", "nnnnnnn.nnnnnnn", false), ["template_suffix"]);
        assert_eq!(flags("1234", "#-#_#", false), ["template_suffix"]);
        assert_eq!(flags("1234", "x\u{AD}x", false), ["invisible_char"]);
        assert_eq!(flags("10.1037", "/0022-3514", false), ["double_slash"]);
        for suffix in ["x", "xn", "n1", "next", "-", "."] {
            assert!(!is_template(suffix), "{suffix}");
        }
    }

    proptest::proptest! {
        /// `may_flag` lets through every suffix `template_suffix` or
        /// `double_slash` may flag.
        #[test]
        fn may_flag_lets_placeholders_through(suffix in "[nNxX#?./_a1-]{1,8}") {
            if is_template(&suffix) || suffix.starts_with('/') {
                proptest::prop_assert!(may_flag("1234", &suffix, false, false, suffix.contains('/')));
            }
        }
    }

    #[test]
    fn repairs_chain_in_order() {
        let mut b = RepairBufs::default();
        let ws: Warnings = [
            Warning::HtmlEntity,
            Warning::InvisibleChar,
            Warning::UnicodeDash,
            Warning::TrailingPunct,
        ]
        .into_iter()
        .collect();
        let (p, s) = repair("10.1\u{AD}000", "a&lt;b\u{2010}c\u{200B}.", ws, true, &mut b);
        assert_eq!((p, s), ("10.1000", "a<b-c"));
        let ws: Warnings = [Warning::PublisherSuffix].into_iter().collect();
        assert_eq!(repair("10.1", "x/PDF", ws, true, &mut b), ("10.1", "x"));
        let ws: Warnings = [Warning::DoubleEncoded].into_iter().collect();
        assert_eq!(repair("10.1", "a%2Fb", ws, true, &mut b), ("10.1", "a/b"));
    }

    #[test]
    fn dirt_exposed_by_another_repair_is_flagged_and_repaired() {
        assert_eq!(
            flags("10.1000", "A]/pdf", false),
            ["trailing_punct", "publisher_suffix"]
        );
        let mut b = RepairBufs::default();
        let ws: Warnings = [Warning::PublisherSuffix, Warning::TrailingPunct].into_iter().collect();
        assert_eq!(repair("10.1000", "x/pdf.", ws, true, &mut b), ("10.1000", "x"));
    }

    proptest::proptest! {
        /// One map then the truncating rounds give what the general rounds
        /// give: with `decode_again` and no `%`, the general loop runs and
        /// its decoding step does nothing.
        #[test]
        fn map_then_truncating_rounds_match_the_general_chain(
            suffix in "[a-zA-Z0-9./;,()\\[\\]{}\u{AD}\u{200B}\u{2013}\u{2212}\u{E9}-]{0,12}(/pdf|/full|/abstract|/epdf|/full/html|/meta|/-/DCSupplemental)?[.,;/)\\]}\u{AD}-]{0,3}(/PDF)?[.\u{2060}]?",
            prefix in "10[.\u{AD}]1\u{200B}?000|1234",
            is_doi in proptest::bool::ANY,
        ) {
            let (mut fast, mut general) = (RepairBufs::default(), RepairBufs::default());
            let a = chain(&prefix, &suffix, is_doi, false, &mut fast);
            let b = chain(&prefix, &suffix, is_doi, true, &mut general);
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(&fast.suffix, &general.suffix);
            proptest::prop_assert_eq!(&fast.prefix, &general.prefix);
        }
    }

    /// §3's character repairs as SPEC words them: at each dash, the run is
    /// the longest stretch of dashes and invisible characters that ends in
    /// a dash; it is one `-` when it holds anything but `-`. Invisible
    /// characters elsewhere are dropped; without `dashes` (handles,
    /// prefixes), that is all.
    fn naive_map(s: &str, dashes: bool) -> String {
        let is_dash = |c: char| c == '-' || is_unicode_dash(c);
        let cs: Vec<char> = s.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            if dashes && is_dash(c) {
                let mut end = i + 1;
                for (j, &d) in cs.iter().enumerate().skip(i + 1) {
                    if is_dash(d) {
                        end = j + 1;
                    } else if !is_invisible(d) {
                        break;
                    }
                }
                let run = &cs[i..end];
                if run.iter().all(|&c| c == '-') {
                    out.extend(run);
                } else {
                    out.push('-');
                }
                i = end;
            } else {
                if !is_invisible(c) {
                    out.push(c);
                }
                i += 1;
            }
        }
        out
    }

    #[test]
    fn dash_runs_are_one_dash() {
        for (s, want) in [
            ("a-\u{AD}\u{2010}b", "a-b"),
            ("a-\u{AD}b", "a-b"),
            ("a\u{2010}\u{2010}b", "a-b"),
            ("a-\u{AD}-b", "a-b"),
            ("a\u{2013}-\u{200B}\u{2212}b", "a-b"),
            ("a--b", "a--b"),
            ("a--\u{AD}b", "a--b"),
            ("a\u{AD}--b", "a--b"),
            ("a-b\u{2013}c", "a-b-c"),
            ("\u{2010}", "-"),
        ] {
            let mut out = String::new();
            map_chars(s, true, &mut out);
            assert_eq!(out, want, "{s:?}");
        }
        let mut out = String::new();
        map_chars("a-\u{AD}-b\u{2013}", false, &mut out);
        assert_eq!(out, "a--b\u{2013}", "a handle's dashes are not mapped");
        assert_eq!(flags("10.1000", "x-\u{AD}-y", false), ["invisible_char"]);
        assert_eq!(flags("10.1000", "x-\u{2010}y", false), ["unicode_dash"]);
        let mut b = RepairBufs::default();
        let ws: Warnings = [Warning::InvisibleChar].into_iter().collect();
        assert_eq!(repair("10.1000", "x-\u{AD}-y", ws, true, &mut b), ("10.1000", "x-y"));
    }

    proptest::proptest! {
        /// `map_chars` is §3's character repairs as `naive_map` words
        /// them, and finds what it says it found.
        #[test]
        fn map_chars_is_the_char_map(
            s in "[a-z0-9 ./-]{0,20}([\u{AD}\u{A0}\u{2013}\u{2212}\u{200B}\u{3000}é日😀-]{0,3}[a-z0-9./-]{0,12}){0,3}",
            dashes in proptest::bool::ANY,
        ) {
            let mut out = String::new();
            let found = map_chars(&s, dashes, &mut out);
            proptest::prop_assert_eq!(out, naive_map(&s, dashes));
            proptest::prop_assert_eq!(found.invisible, s.chars().any(is_invisible));
            proptest::prop_assert_eq!(found.dash, dashes && s.chars().any(is_unicode_dash));
        }

        /// A DOI's dash repair never makes `--` out of a run holding a
        /// Unicode dash or an invisible character: every `--` it leaves
        /// was written so, two ASCII `-` side by side.
        #[test]
        fn dash_runs_never_become_double(
            s in "[a\u{AD}\u{200B}\u{2060}\u{FEFF}\u{2010}-\u{2015}\u{2212}-]{0,16}",
        ) {
            let mut out = String::new();
            map_chars(&s, true, &mut out);
            let dashes = out.matches('-').count();
            let runs = out.split(|c| c != '-').filter(|r| !r.is_empty()).count();
            if !s.contains("--") {
                proptest::prop_assert!(!out.contains("--"), "{:?} -> {:?}", s, out);
            }
            // As many `-` as runs, but for the ASCII `--` written so.
            let written = s.as_bytes().windows(2).filter(|w| w == b"--").count();
            proptest::prop_assert!(dashes - runs <= written, "{:?} -> {:?}", s, out);
            proptest::prop_assert!(out.chars().all(|c| c == '-' || c == 'a'));
        }
    }

    proptest::proptest! {
        /// `flag_non_ascii` raises what the general steps raise: with
        /// `decoded` and no `%`, `flag` takes them and decodes nothing.
        #[test]
        /// No whitespace: raw, it never reaches `flag` (SPEC §6), and
        /// decoded it is `internal_whitespace`, which the undecoded path
        /// rightly never raises.
        fn non_ascii_flags_match_the_general_steps(
            suffix in "[a-zA-Z0-9./;,()\\[\\]{}\u{AD}\u{200B}\u{2013}\u{2212}\u{E9}\u{2060}-]{0,14}(/pdf|/full|/html|/-/DCSupplemental|10[.]1234/x)?[.,;/)\\]}\u{AD}-]{0,3}[.\u{FEFF}]?",
            prefix in "10[.\u{AD}]1\u{200B}?000|1234|10[.]5072|123456789",
            is_doi in proptest::bool::ANY,
        ) {
            let value = chars::Scan { non_ascii: true, ..chars::Scan::default() };
            let (mut a, mut b) = (Warnings::EMPTY, Warnings::EMPTY);
            let mut bufs = RepairBufs::default();
            flag(&prefix, &suffix, is_doi, false, value, &mut a, &mut bufs);
            let general = chars::Scan { percent: true, ..value };
            flag(&prefix, &suffix, is_doi, true, general, &mut b, &mut bufs);
            proptest::prop_assert_eq!(a, b, "{:?} {:?}", prefix, suffix);
        }
    }

    #[test]
    fn repair_never_empties_a_suffix() {
        let mut b = RepairBufs::default();
        let ws: Warnings = [Warning::InvisibleChar].into_iter().collect();
        assert_eq!(repair("1", "\u{AD}", ws, false, &mut b), ("1", "\u{AD}"));
    }
}
