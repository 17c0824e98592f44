//! [`Walk`]: `--records` over JSON documents as they stream in. It walks
//! each document (several may follow one another) member by member to the
//! array at the path of keys (Crossref's `{"items": [...]}`,
//! `message.items`), and gives each element's byte range, checked, as it is
//! found; members off the path are checked and skipped, and a document
//! that is not an object is an error. No I/O: the reader
//! (`reader`) owns the buffer, refills it when the walk asks for more, and
//! drops what the walk has passed, so memory is one block and one element
//! whatever the document's size.
//!
//! A step that runs out of bytes is taken again, from its start, once more
//! are read: each step is one key, one punctuation mark or one whole value,
//! and the reader at least doubles what it holds of a long one, so the
//! retries stay linear in the input.

use super::scan::{Skipper, Syntax};

/// What the walk expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A document, or the end of the input.
    Document,
    /// In an object on the path, after its `{`: a key or `}`.
    KeyOrClose,
    /// In an object on the path, after a `,`: a key.
    Key,
    /// The value of a member; `matched` when its key is the path's next.
    Value { matched: bool },
    /// After a member: `,` or `}`.
    AfterMember,
    /// In the records array, after its `[`: an element or `]`.
    ElementOrClose,
    /// In the records array, after a `,`: an element.
    Element,
    /// After an element: `,` or `]`.
    AfterElement,
}

/// What [`Walk::next`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// An element at `buf[start..end]`, checked as JSON.
    Element { start: usize, end: usize },
    /// The bytes ran out mid-step: read more, keeping `buf[from..]`
    /// (everything before it is passed and may be dropped).
    More { from: usize },
    /// The input ended after a whole document.
    End,
    /// A document at `buf[at]` is not an object, so holds no path: an
    /// error at once, rather than after walking it to its end (a whole
    /// array of records, perhaps, read without --records).
    NotAnObject { at: usize, found: &'static str },
}

/// A walk through documents to the records array at a path of keys.
#[derive(Debug)]
pub(super) struct Walk {
    keys: Vec<Vec<u8>>,
    expect: Expect,
    /// The object the walk is in, as its depth on the path: in the object
    /// at depth `d` the walk looks for `keys[d]`.
    depth: usize,
    /// Where in the buffer the walk is; everything before is passed.
    pos: usize,
    /// Records arrays found so far.
    arrays: u64,
    skipper: Skipper,
    key: Vec<u8>,
    /// Keys met off the path in the deepest object on it the walk
    /// entered, and that depth: what an error names when no array is
    /// found (`--records item` beside `items`).
    off_path: (usize, Vec<Box<[u8]>>),
    /// Of those keys, the ones holding an object, each with the keys
    /// there that hold a list (Crossref's API: `message` and `items`).
    lists_below: Vec<[Box<[u8]>; 2]>,
    /// The last key met off the path, whose value is being walked.
    last_off_key: Box<[u8]>,
    /// The first value on the path that was not what the path needs
    /// there (`--records message` on Crossref's `{"message": {...}}`):
    /// how many keys lead to it, what it is, and, an object, its keys
    /// holding a list.
    held: Option<Held>,
}

/// A value on the `--records` path that is not the array (at its end) or
/// the object (before) the path needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Held {
    /// How many of the path's keys lead to it.
    pub keys: usize,
    /// What it is: "an object", "a number", …
    pub found: &'static str,
    /// An object's keys that hold a list.
    pub lists: Vec<String>,
}

/// Keys off the path kept for the error.
const OFF_PATH_KEPT: usize = 50;

/// A syntax error this close to the end of the bytes read may be a token
/// cut by the read (a `\u` escape is 6 bytes, `false` 5), not an error.
const CUT_TOKEN: usize = 8;

impl Walk {
    pub(super) fn new(keys: Vec<Vec<u8>>) -> Walk {
        Walk {
            keys,
            expect: Expect::Document,
            depth: 0,
            pos: 0,
            arrays: 0,
            skipper: Skipper::new(),
            key: Vec::new(),
            off_path: (0, Vec::new()),
            lists_below: Vec::new(),
            last_off_key: Box::default(),
            held: None,
        }
    }

    /// The first value on the path that was not what the path needs.
    pub(super) fn held(&self) -> Option<&Held> {
        self.held.as_ref()
    }

    /// Keys met off the path in the deepest object on it the walk
    /// entered, how many of the path's keys lead there, and the paths of
    /// two keys from there that hold a list.
    pub(super) fn off_path(&self) -> (usize, Vec<String>, Vec<[String; 2]>) {
        let text = |k: &[u8]| String::from_utf8_lossy(k).into_owned();
        let (depth, keys) = &self.off_path;
        let below = self.lists_below.iter().map(|[a, b]| [text(a), text(b)]).collect();
        (*depth, keys.iter().map(|k| text(k)).collect(), below)
    }

    /// `key`, met in the object at `self.depth`, is not the path's.
    fn note_off_path(&mut self, key: &[u8]) {
        let (depth, keys) = &mut self.off_path;
        if self.depth > *depth {
            (*depth, *keys) = (self.depth, Vec::new());
            self.lists_below.clear();
        }
        if self.depth == *depth && keys.len() < OFF_PATH_KEPT && !keys.iter().any(|k| **k == *key) {
            keys.push(key.into());
        }
        self.last_off_key = key.into();
    }

    /// Records arrays found so far.
    pub(super) fn arrays(&self) -> u64 {
        self.arrays
    }

    /// Whether the walk is at or in an element (so an error is in a record).
    pub(super) fn in_element(&self) -> bool {
        matches!(self.expect, Expect::Element | Expect::ElementOrClose)
    }

    /// The caller dropped `buf[..n]` (all passed: `n` is at most the
    /// `from` of the last [`Event::More`]).
    pub(super) fn shift(&mut self, n: usize) {
        self.pos = self.pos.saturating_sub(n);
    }

    /// Walks `buf` from where the last call stopped to the next element,
    /// the end of the bytes read (`eof`: of the input) or a syntax error
    /// (its offset in `buf`).
    pub(super) fn next(&mut self, buf: &[u8], eof: bool) -> Result<Event, Syntax> {
        loop {
            let mut p = self.pos;
            while let Some(b' ' | b'\t' | b'\r' | b'\n') = buf.get(p) {
                p += 1;
            }
            self.pos = p;
            let c = buf.get(p).copied();
            if c.is_none() && !eof {
                return Ok(Event::More { from: p });
            }
            let records_at = self.keys.len().saturating_sub(1);
            match (self.expect, c) {
                (Expect::Document, None) => return Ok(Event::End),
                (Expect::Document, Some(b'{')) if !self.keys.is_empty() => {
                    self.pos += 1;
                    self.depth = 0;
                    self.expect = Expect::KeyOrClose;
                }
                (Expect::Document, Some(b'[')) if self.keys.is_empty() => self.open_array(),
                (Expect::Document, Some(c)) => {
                    return Ok(Event::NotAnObject {
                        at: p,
                        found: super::scan::kind(c),
                    });
                }
                (Expect::KeyOrClose, Some(b'}')) | (Expect::AfterMember, Some(b'}')) => self.close_object(),
                (Expect::KeyOrClose | Expect::Key, _) => {
                    let at = self.pos;
                    match self.skipper.key(buf, at, &mut self.key) {
                        Ok((key, end)) => {
                            let matched = self.keys.get(self.depth).is_some_and(|k| k[..] == *key);
                            if !matched {
                                let key = key.to_vec();
                                self.note_off_path(&key);
                            }
                            self.pos = end;
                            self.expect = Expect::Value { matched };
                        }
                        Err(e) if !eof && e.at + CUT_TOKEN >= buf.len() => return Ok(Event::More { from: at }),
                        Err(e) => return Err(e),
                    }
                }
                (Expect::Value { matched: true }, Some(b'[')) if self.depth == records_at => self.open_array(),
                (Expect::Value { matched: true }, Some(b'{')) if self.depth < records_at => {
                    self.pos += 1;
                    self.depth += 1;
                    self.expect = Expect::KeyOrClose;
                }
                (Expect::Value { matched }, c) => match self.value(buf, eof, self.depth as u32 + 1)? {
                    Some(end) => {
                        if matched {
                            self.note_held(buf, p);
                        } else if c == Some(b'{') && self.depth == self.off_path.0 {
                            self.note_lists_below(buf, p);
                        }
                        self.pos = end;
                        self.expect = Expect::AfterMember;
                    }
                    None => return Ok(Event::More { from: p }),
                },
                (Expect::AfterMember, Some(b',')) => {
                    self.pos += 1;
                    self.expect = Expect::Key;
                }
                (Expect::AfterMember, _) => {
                    return Err(Syntax {
                        at: p,
                        what: "',' or '}'",
                    });
                }
                (Expect::ElementOrClose | Expect::AfterElement, Some(b']')) => self.close_array(),
                (Expect::ElementOrClose | Expect::Element, _) => {
                    // As deep as the old whole-document walk had it: one
                    // level per key, the array, the element.
                    match self.value(buf, eof, self.keys.len() as u32 + 1)? {
                        Some(end) => {
                            self.pos = end;
                            self.expect = Expect::AfterElement;
                            return Ok(Event::Element { start: p, end });
                        }
                        None => return Ok(Event::More { from: p }),
                    }
                }
                (Expect::AfterElement, Some(b',')) => {
                    self.pos += 1;
                    self.expect = Expect::Element;
                }
                (Expect::AfterElement, _) => {
                    return Err(Syntax {
                        at: p,
                        what: "',' or ']'",
                    });
                }
            }
        }
    }

    /// The object at `buf[at..]`, the value of the key off the path just
    /// noted: its keys holding a list, for the error when no array is
    /// found. Off the hot path: only objects beside the path come here.
    #[cold]
    fn note_lists_below(&mut self, buf: &[u8], at: usize) {
        let parent = self.last_off_key.clone();
        for key in self.skipper.lists_in(buf, at, self.depth as u32 + 1) {
            if self.lists_below.len() < OFF_PATH_KEPT && !self.lists_below.iter().any(|[p, k]| *p == parent && *k == key) {
                self.lists_below.push([parent.clone(), key]);
            }
        }
    }

    /// The value at `buf[at..]`, whole in `buf`, has the path's key but
    /// is not the array or object the path needs there. Off the hot
    /// path: a document comes here once at most.
    #[cold]
    fn note_held(&mut self, buf: &[u8], at: usize) {
        if self.held.is_some() {
            return;
        }
        let lists = match buf[at] {
            b'{' => self.skipper.lists_in(buf, at, self.depth as u32 + 1),
            _ => Vec::new(),
        };
        self.held = Some(Held {
            keys: self.depth + 1,
            found: super::scan::kind(buf[at]),
            lists: lists.iter().map(|k| String::from_utf8_lossy(k).into_owned()).collect(),
        });
    }

    /// The value at `self.pos`, checked: where it ends, or `None` when the
    /// bytes read may end inside it.
    fn value(&mut self, buf: &[u8], eof: bool, depth: u32) -> Result<Option<usize>, Syntax> {
        match self.skipper.value(buf, self.pos, depth) {
            // A number may go on in the next read.
            Ok(end) if end == buf.len() && !eof => Ok(None),
            Ok(end) => Ok(Some(end)),
            Err(e) if !eof && e.at + CUT_TOKEN >= buf.len() => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn open_array(&mut self) {
        self.pos += 1;
        self.arrays += 1;
        self.expect = Expect::ElementOrClose;
    }

    fn close_array(&mut self) {
        self.pos += 1;
        self.expect = match self.keys.is_empty() {
            true => Expect::Document,
            false => Expect::AfterMember,
        };
    }

    fn close_object(&mut self) {
        self.pos += 1;
        match self.depth {
            0 => self.expect = Expect::Document,
            d => {
                self.depth = d - 1;
                self.expect = Expect::AfterMember;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element of `doc` fed `step` bytes at a time, as the reader
    /// would (dropping what was passed).
    fn elements(doc: &[u8], keys: &[&str], step: usize) -> Result<Vec<String>, Syntax> {
        let mut walk = Walk::new(keys.iter().map(|k| k.as_bytes().to_vec()).collect());
        let (mut buf, mut fed, mut dropped, mut out) = (Vec::new(), 0, 0, Vec::new());
        loop {
            match walk.next(&buf, fed == doc.len()).map_err(|e| Syntax {
                at: e.at + dropped,
                what: e.what,
            })? {
                Event::Element { start, end } => out.push(String::from_utf8_lossy(&buf[start..end]).into_owned()),
                Event::More { from } => {
                    buf.drain(..from);
                    walk.shift(from);
                    dropped += from;
                    let n = step.min(doc.len() - fed);
                    buf.extend_from_slice(&doc[fed..fed + n]);
                    fed += n;
                }
                Event::End => return Ok(out),
                Event::NotAnObject { at, .. } => {
                    return Err(Syntax {
                        at: at + dropped,
                        what: "an object",
                    });
                }
            }
        }
    }

    #[test]
    fn elements_whatever_the_reads() {
        let doc = br#" {"status":"ok","message":{"facets":{"a":[1,{"items":[9]}]},"items":[{"DOI":"10.1/a\u00e9"}, 12345 ,{"x":[true,false,null]}],"n":-1.5e3},"items":[{"not":"this"}]}
{"message":{"items":[]}} {"message":{"items":[ "s" ]}}"#;
        let want = [
            r#"{"DOI":"10.1/a\u00e9"}"#,
            "12345",
            r#"{"x":[true,false,null]}"#,
            r#""s""#,
        ];
        for step in 1..=doc.len() {
            assert_eq!(elements(doc, &["message", "items"], step).unwrap(), want, "step {step}");
        }
    }

    #[test]
    fn errors_at_their_offset_whatever_the_reads() {
        for (doc, at, what) in [
            (&br#"{"items":[{"a":1} {"b":2}]}"#[..], 18, "',' or ']'"),
            (br#"{"items":[{"a" 1}]}"#, 15, "':'"),
            (br#"{"x":tru,"items":[]}"#, 5, "true, false or null"),
            (br#"{"items":[1,]}"#, 12, "a value"),
            (br#"{"items":[1"#, 11, "',' or ']'"),
            (br#"{"items":[]} [{"items":[]}]"#, 13, "an object"),
            (
                br#"{"items":[{"a":"\u12"}]}"#,
                16,
                "an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and 4 hex digits)",
            ),
        ] {
            for step in [1, 3, 7, 100] {
                let e = elements(doc, &["items"], step).unwrap_err();
                assert_eq!(
                    (e.at, e.what),
                    (at, what),
                    "{} step {step}",
                    String::from_utf8_lossy(doc)
                );
            }
        }
    }
}
