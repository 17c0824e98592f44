//! The scanner: validates one JSON value (RFC 8259) in a byte slice and, in
//! the same pass, takes the values a [`PathSet`] names out of it. No tree
//! is built: members no path names are skipped, checked but not kept.
//!
//! What is checked is what `serde_json` checks when it skips a value
//! (`IgnoredAny`): structure, string escapes, no raw control character in a
//! string, number syntax, nesting at most [`MAX_DEPTH`] deep. Not checked,
//! as there: that strings are UTF-8 (bytes go through as they are, and the
//! classifier calls such a value `bad_utf8`, as for CSV) and that `\u`
//! escapes pair their surrogates (a lone one is written as the three bytes
//! of its code point, which are not UTF-8 either, so it is not silently
//! altered).
//!
//! What a path gives, per value found: a string unescaped; a number, `true`
//! or `false` as its JSON text; an object or a list (a path that ends on
//! one) as compact JSON text, strings as written. Every place a path
//! reaches is one value, so every list element is accounted for: where the
//! walk cannot go on (`null`, a missing key, a value of another type than
//! the next step needs) the path gets one empty value; only an empty list
//! gives none (the caller makes a record without any value one empty). A
//! key repeated in one object: the last one wins, as in `serde_json`,
//! Python and JavaScript.

use super::path::PathSet;
use super::reach::Reach;

/// Deepest nesting of objects and lists accepted (what `serde_json`
/// accepts into a `Value`), so a line of 100,000 `[` cannot overflow the
/// stack.
pub const MAX_DEPTH: u32 = 127;

/// A value at `path` was found at `bytes[start..end]` of the output buffer;
/// `path` is [`DEAD`] once a later duplicate key replaced it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub path: u32,
    pub start: usize,
    pub end: usize,
}

pub(super) const DEAD: u32 = u32::MAX;

/// Not JSON: `what` was expected at byte offset `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Syntax {
    pub at: usize,
    pub what: &'static str,
}

/// Why a record was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bad {
    Syntax(Syntax),
    /// Valid JSON, but not an object ("an array", …).
    NotObject(&'static str),
}

/// Buffers one block's records are extracted into, reused record to record.
#[derive(Debug, Default)]
pub(super) struct Out {
    /// Every value's bytes.
    pub bytes: Vec<u8>,
    /// The current record's values, in document order.
    pub entries: Vec<Entry>,
    /// Per object being walked: which named members were seen, and their
    /// entries (for the last-wins rule).
    visits: Vec<(u32, usize, usize)>,
    /// An escaped key, decoded to be compared.
    key: Vec<u8>,
    /// The places records reached, and keys beside them while `sampling`.
    pub reach: Reach,
    pub sampling: bool,
}

/// Scans `line` as one record: a JSON object, with only white space around
/// it. The values of `set`'s paths are appended to `out` (on error, `out`
/// holds partial output the caller drops).
pub(super) fn record(line: &[u8], set: &PathSet, out: &mut Out) -> Result<(), Bad> {
    let mut w = Walker {
        b: line,
        i: 0,
        set,
        out,
    };
    w.ws();
    match w.peek() {
        Some(b'{') => w.walk(0, 0).map_err(Bad::Syntax)?,
        Some(c) => {
            w.skip(0).map_err(Bad::Syntax)?;
            w.end().map_err(Bad::Syntax)?;
            return Err(Bad::NotObject(kind(c)));
        }
        None => {
            return Err(Bad::Syntax(Syntax {
                at: 0,
                what: "a JSON object",
            }));
        }
    }
    w.end().map_err(Bad::Syntax)
}

/// Skips values and reads member keys at any offset of a buffer: what
/// `--records` needs to walk a document to its array and find each
/// element's end (see `document`), with the checks and messages of
/// [`record`].
#[derive(Debug)]
pub(super) struct Skipper {
    set: PathSet,
    out: Out,
}

impl Skipper {
    pub(super) fn new() -> Skipper {
        Skipper {
            set: PathSet::new(&[]),
            out: Out::default(),
        }
    }

    fn walker<'a>(&'a mut self, b: &'a [u8], at: usize) -> Walker<'a, 'a> {
        Walker {
            b,
            i: at,
            set: &self.set,
            out: &mut self.out,
        }
    }

    /// Checks the value at `b[at..]` (white space before it allowed), at
    /// nesting `depth`; returns where it ends.
    pub(super) fn value(&mut self, b: &[u8], at: usize, depth: u32) -> Result<usize, Syntax> {
        let mut w = self.walker(b, at);
        w.skip(depth)?;
        Ok(w.i)
    }

    /// The keys of the object at `b[at..]` (checked already) whose values
    /// are lists: where `--records` may have meant to go.
    pub(super) fn lists_in(&mut self, b: &[u8], at: usize, depth: u32) -> Vec<Box<[u8]>> {
        let mut w = self.walker(b, at);
        let mut lists = Vec::new();
        w.ws();
        // A syntax error is the walk's, which checked the object already.
        let _ = w.each_list_member(depth, |_, key| lists.push(key.into()));
        lists
    }

    /// At a member's key (`b[at]` should be its `"`): the key unescaped,
    /// and where its `:` ends.
    pub(super) fn key<'k>(&mut self, b: &[u8], at: usize, key: &'k mut Vec<u8>) -> Result<(&'k [u8], usize), Syntax> {
        let mut w = self.walker(b, at);
        let (ks, ke, _) = w.key()?;
        let end = w.i;
        key.clear();
        unescape(&b[ks..ke], key);
        Ok((key, end))
    }
}

/// What a value starting with `c` is, for messages.
pub(super) fn kind(c: u8) -> &'static str {
    match c {
        b'[' => "an array",
        b'{' => "an object",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

struct Walker<'a, 'o> {
    b: &'a [u8],
    i: usize,
    set: &'a PathSet,
    out: &'o mut Out,
}

type Res<T> = Result<T, Syntax>;

const ONES: u64 = u64::MAX / 255;
const HIGHS: u64 = ONES << 7;

/// Marks (high bit of the byte) the bytes of `w` that end a run of plain
/// string bytes: `"`, `\` or a control character. The lowest mark is
/// exact (a borrow only carries upward), which is all that is used.
#[inline(always)]
fn specials(w: u64) -> u64 {
    let ctrl = w.wrapping_sub(ONES * 0x20) & !w;
    let q = w ^ (ONES * b'"' as u64);
    let quote = q.wrapping_sub(ONES) & !q;
    let s = w ^ (ONES * b'\\' as u64);
    let backslash = s.wrapping_sub(ONES) & !s;
    (ctrl | quote | backslash) & HIGHS
}

/// The end of the run of plain string bytes at `b[i..]`: the index of the
/// first `"`, `\\` or control character, or where 16 (then 8) bytes are no
/// longer left to test at once (the caller tests the rest byte by byte).
#[inline(always)]
fn plain_run(b: &[u8], mut i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    while let Some(chunk) = b.get(i..i + 16) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86_64; the load reads the 16 bytes
        // of `chunk`, unaligned.
        let marks = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            // Below 0x20, unsigned: min(v, 0x1f) == v.
            let ctrl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), ctrl))
        };
        if marks != 0 {
            return i + marks.trailing_zeros() as usize;
        }
        i += 16;
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let marks = specials(u64::from_le_bytes(chunk.try_into().unwrap()));
        if marks != 0 {
            return i + marks.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    i
}

impl Walker<'_, '_> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    #[inline(never)]
    fn err<T>(&self, what: &'static str) -> Res<T> {
        Err(Syntax { at: self.i, what })
    }

    /// Only white space is left.
    fn end(&mut self) -> Res<()> {
        self.ws();
        if self.i != self.b.len() {
            return self.err("the end of the line after the record");
        }
        Ok(())
    }

    /// Past the `,` between members or elements (true), or the closing
    /// bracket (false).
    #[inline(always)]
    fn next_or_close(&mut self, close: u8, what: &'static str) -> Res<bool> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                self.ws();
                Ok(true)
            }
            Some(c) if c == close => {
                self.i += 1;
                Ok(false)
            }
            _ => self.err(what),
        }
    }

    /// At `{` or `[`: past it and any white space; true if the container is
    /// empty (and then past its close too).
    #[inline(always)]
    fn open(&mut self, depth: u32, close: u8) -> Res<bool> {
        if depth >= MAX_DEPTH {
            return self.err("nesting at most 127 deep");
        }
        self.i += 1;
        self.ws();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// At a key's `"`: past the key and its `:`; the key's raw bytes
    /// (between the quotes) and whether they hold an escape.
    #[inline(always)]
    fn key(&mut self) -> Res<(usize, usize, bool)> {
        if self.peek() != Some(b'"') {
            return self.err("a string key");
        }
        self.i += 1;
        let start = self.i;
        let escaped = self.string()?;
        let end = self.i - 1;
        self.ws();
        if self.peek() != Some(b':') {
            return self.err("':'");
        }
        self.i += 1;
        Ok((start, end, escaped))
    }

    /// Skips one value, checking it. Scalars are handled inline, so a list
    /// of numbers or an object of strings costs no call per element.
    #[inline(always)]
    fn skip(&mut self, depth: u32) -> Res<()> {
        self.ws();
        match self.peek() {
            Some(b'"') => {
                self.i += 1;
                self.string().map(|_| ())
            }
            Some(b'{') => self.skip_object(depth),
            Some(b'[') => self.skip_array(depth),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.err("a value"),
        }
    }

    #[inline(never)]
    fn skip_object(&mut self, depth: u32) -> Res<()> {
        if self.open(depth, b'}')? {
            return Ok(());
        }
        loop {
            self.key()?;
            self.skip(depth + 1)?;
            if !self.next_or_close(b'}', "',' or '}'")? {
                return Ok(());
            }
        }
    }

    /// Skips the value of a record's top-level key `key` while sampling,
    /// sampling the lists it is or holds one object down (a document's
    /// records may be one: DataCite's `{"data": [...]}`, Crossref's API's
    /// `{"message": {"items": [...]}}`).
    #[cold]
    #[inline(never)]
    fn sample_lists(&mut self, key: &[u8], depth: u32) -> Res<()> {
        self.ws();
        match self.peek() {
            Some(b'[') => {
                let element_keys = self.first_element_keys(depth);
                self.out.reach.sample_list(&[key], &element_keys);
            }
            Some(b'{') => {
                return self.each_list_member(depth, |w, list| {
                    let element_keys = w.first_element_keys(depth + 1);
                    w.out.reach.sample_list(&[key, list], &element_keys);
                });
            }
            _ => {}
        }
        self.skip(depth)
    }

    /// Walks the object at `self.i` (at `depth`) to its end, calling `f`
    /// with each member whose value is a list, `self.i` at its `[`, and
    /// the member's (unescaped) key.
    fn each_list_member(&mut self, depth: u32, mut f: impl FnMut(&mut Self, &[u8])) -> Res<()> {
        let b = self.b;
        if self.open(depth, b'}')? {
            return Ok(());
        }
        loop {
            let (ks, ke, escaped) = self.key()?;
            self.ws();
            if !escaped && self.peek() == Some(b'[') {
                f(self, &b[ks..ke]);
            }
            self.skip(depth + 1)?;
            if !self.next_or_close(b'}', "',' or '}'")? {
                return Ok(());
            }
        }
    }

    /// The keys of the first element of the list at `self.i`, if an object
    /// (unescaped keys only), read without moving past the list: `skip`
    /// then checks it.
    fn first_element_keys(&mut self, depth: u32) -> Vec<Box<[u8]>> {
        let at = self.i;
        let mut keys = Vec::new();
        let mut read = |w: &mut Self| -> Res<()> {
            w.i += 1;
            w.ws();
            if w.peek() != Some(b'{') || w.open(depth + 1, b'}')? {
                return Ok(());
            }
            loop {
                let (ks, ke, escaped) = w.key()?;
                if !escaped {
                    keys.push(w.b[ks..ke].into());
                }
                w.skip(depth + 2)?;
                if !w.next_or_close(b'}', "',' or '}'")? {
                    return Ok(());
                }
            }
        };
        // A syntax error is `skip`'s to report, where the walk goes on.
        let _ = read(self);
        self.i = at;
        keys
    }

    #[inline(never)]
    fn skip_array(&mut self, depth: u32) -> Res<()> {
        if self.open(depth, b']')? {
            return Ok(());
        }
        loop {
            self.skip(depth + 1)?;
            if !self.next_or_close(b']', "',' or ']'")? {
                return Ok(());
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Res<()> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            self.err("true, false or null")
        }
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.b.get(self.i) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    #[inline(always)]
    fn number(&mut self) -> Res<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("a digit"),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return self.err("a digit after '.'");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("a digit in the exponent");
            }
        }
        Ok(())
    }

    /// Past an opening `"`: skips to past the closing one. True when the
    /// string holds an escape.
    #[inline]
    fn string(&mut self) -> Res<bool> {
        let b = self.b;
        let mut i = self.i;
        let mut escaped = false;
        loop {
            i = plain_run(b, i);
            match b.get(i) {
                Some(b'"') => {
                    self.i = i + 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    match b.get(i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                        Some(b'u') if b.get(i + 2..i + 6).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) => {
                            i += 6
                        }
                        _ => {
                            self.i = i;
                            return self
                                .err("an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and 4 hex digits)");
                        }
                    }
                }
                Some(0..=0x1f) => {
                    self.i = i;
                    return self.err("no control character in a string (they are written escaped)");
                }
                Some(_) => i += 1,
                None => {
                    self.i = i;
                    return self.err("a closing '\"'");
                }
            }
        }
    }

    /// One value, under tree node `node`: its children looked for, its
    /// value kept if paths end there.
    fn walk(&mut self, node: u32, depth: u32) -> Res<()> {
        self.ws();
        let start = self.i;
        let set = self.set;
        let n = &set.nodes[node as usize];
        self.out.reach.saw(node);
        let c = self.peek();
        if c == Some(b'n') {
            // A dead end for every path through here, its own included.
            self.skip(depth)?;
            self.empties(&n.under);
            return Ok(());
        }
        let is_object = c == Some(b'{');
        match (c, n.each) {
            (Some(b'{'), _) if !n.keys.is_empty() => {
                self.object(node, depth)?;
                if let Some(each) = n.each {
                    // Both `a.b` and `a[].c` are asked for and `a` is an
                    // object: it is also a list of one.
                    let end = self.i;
                    self.i = start;
                    self.walk(each, depth)?;
                    debug_assert_eq!(self.i, end);
                }
            }
            (Some(b'['), Some(each)) => self.array(each, depth)?,
            (_, None) => self.skip(depth)?,
            // A lone value where a list was expected: a list of one.
            (_, Some(each)) => self.walk(each, depth)?,
        }
        if !is_object {
            // Keys asked of a list or a scalar: dead ends.
            for &(_, child) in &n.keys {
                self.empties(&set.nodes[child as usize].under);
            }
        }
        if !n.ends.is_empty() {
            self.emit(node, start, c.unwrap_or(b'n'));
        }
        Ok(())
    }

    /// One empty value for each of `paths`, marked a dead end (`null`, a
    /// missing key) by a start past its end: read as empty, but a kept
    /// column (`--keep`) writes it null, not "".
    fn empties(&mut self, paths: &[u32]) {
        let at = self.out.bytes.len();
        for &path in paths {
            self.out.entries.push(Entry {
                path,
                start: at + 1,
                end: at,
            });
        }
    }

    fn object(&mut self, node: u32, depth: u32) -> Res<()> {
        let set = self.set;
        let n = &set.nodes[node as usize];
        let frame = self.out.visits.len();
        let mut more = !self.open(depth, b'}')?;
        while more {
            let (ks, ke, escaped) = self.key()?;
            let name = if escaped {
                self.out.key.clear();
                unescape(&self.b[ks..ke], &mut self.out.key);
                &self.out.key[..]
            } else {
                &self.b[ks..ke]
            };
            match n.keys.iter().find(|(k, _)| **k == *name) {
                None => {
                    if self.out.sampling {
                        self.out.reach.sample_key(node, name);
                        if node == 0 {
                            let key = name.to_vec();
                            self.sample_lists(&key, depth + 1)?;
                            more = self.next_or_close(b'}', "',' or '}'")?;
                            continue;
                        }
                    }
                    self.skip(depth + 1)?
                }
                Some(&(_, child)) => {
                    // A key seen before in this object: its values die, and
                    // its visit becomes this one's, so a third occurrence
                    // kills the second's values, not the first's again.
                    let seen = self.out.visits[frame..].iter().position(|v| v.0 == child).map(|i| frame + i);
                    if let Some(v) = seen {
                        let (_, s, e) = self.out.visits[v];
                        for entry in &mut self.out.entries[s..e] {
                            entry.path = DEAD;
                        }
                    }
                    let first = self.out.entries.len();
                    self.walk(child, depth + 1)?;
                    let visit = (child, first, self.out.entries.len());
                    match seen {
                        Some(v) => self.out.visits[v] = visit,
                        None => self.out.visits.push(visit),
                    }
                }
            }
            more = self.next_or_close(b'}', "',' or '}'")?;
        }
        // Keys asked for but missing: dead ends.
        for &(_, child) in &n.keys {
            if !self.out.visits[frame..].iter().any(|v| v.0 == child) {
                self.empties(&set.nodes[child as usize].under);
            }
        }
        self.out.visits.truncate(frame);
        Ok(())
    }

    fn array(&mut self, each: u32, depth: u32) -> Res<()> {
        if self.open(depth, b']')? {
            return Ok(());
        }
        loop {
            self.walk(each, depth + 1)?;
            if !self.next_or_close(b']', "',' or ']'")? {
                return Ok(());
            }
        }
    }

    /// Keeps the value just walked (`start..self.i`, first byte `c`) for
    /// the paths ending at `node`.
    fn emit(&mut self, node: u32, start: usize, c: u8) {
        let raw = &self.b[start..self.i];
        let bytes = &mut self.out.bytes;
        let from = bytes.len();
        match c {
            b'n' => return,
            b'"' => unescape(&raw[1..raw.len() - 1], bytes),
            b'{' | b'[' => compact(raw, bytes),
            _ => bytes.extend_from_slice(raw),
        }
        let to = bytes.len();
        for &path in &self.set.nodes[node as usize].ends {
            self.out.entries.push(Entry {
                path,
                start: from,
                end: to,
            });
        }
    }
}

/// Appends the string whose raw (checked) bytes between the quotes are
/// `raw`, escapes decoded. A `\u` surrogate without its pair is written as
/// the 3 bytes its code point would take, which no UTF-8 reader accepts.
pub(super) fn unescape(raw: &[u8], out: &mut Vec<u8>) {
    let mut rest = raw;
    while let Some(at) = memchr::memchr(b'\\', rest) {
        out.extend_from_slice(&rest[..at]);
        let e = rest[at + 1];
        rest = &rest[at + 2..];
        let byte = match e {
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let mut cp = hex4(rest);
                rest = &rest[4..];
                if (0xd800..0xdc00).contains(&cp) && rest.len() >= 6 && rest.starts_with(b"\\u") {
                    let low = hex4(&rest[2..]);
                    if (0xdc00..0xe000).contains(&low) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                        rest = &rest[6..];
                    }
                }
                push_code_point(cp, out);
                continue;
            }
            other => other, // `"`, `\`, `/`
        };
        out.push(byte);
    }
    out.extend_from_slice(rest);
}

fn hex4(h: &[u8]) -> u32 {
    h[..4].iter().fold(0, |acc, &d| {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            _ => d - b'A' + 10,
        };
        acc << 4 | v as u32
    })
}

/// UTF-8 encoding, surrogates included (as generalized UTF-8).
fn push_code_point(cp: u32, out: &mut Vec<u8>) {
    match cp {
        0..=0x7f => out.push(cp as u8),
        0x80..=0x7ff => out.extend_from_slice(&[0xc0 | (cp >> 6) as u8, 0x80 | (cp & 0x3f) as u8]),
        0x800..=0xffff => out.extend_from_slice(&[
            0xe0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(&[
            0xf0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3f) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
    }
}

/// Appends checked JSON `raw` without its insignificant white space.
fn compact(raw: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'"' => {
                let start = i;
                i += 1;
                loop {
                    match raw[i] {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                i += 1;
                out.extend_from_slice(&raw[start..i]);
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn plain_run_stops_at_the_first_special_byte(
            bytes in proptest::collection::vec(prop_oneof![8 => 0x20u8..=0xff, 1 => Just(b'"'), 1 => Just(b'\\'), 1 => 0u8..0x20], 0..80),
            from in 0usize..80,
        ) {
            let from = from.min(bytes.len());
            let got = super::plain_run(&bytes, from);
            let special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
            // Stops at the first special byte, or where fewer than 8 bytes
            // are left to test at once, never past either.
            let first = bytes[from..].iter().position(|&b| special(b)).map(|p| from + p);
            match first {
                Some(f) => prop_assert!(got == f || (got < f && bytes.len() - got < 8), "{got} {f}"),
                None => prop_assert!(got <= bytes.len() && bytes.len() - got < 8),
            }
            prop_assert!(bytes[from..got].iter().all(|&b| !special(b)));
        }
    }
}
