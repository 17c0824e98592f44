//! Paths into a JSON record: what `--column`, `--keep` and `--records`
//! name in JSON Lines input, and the tree of them that the scanner walks.
//!
//! Two spellings, one meaning:
//!
//! - **Dotted**: `doi`, `ids.doi`, `locations[].landing_page_url`. Keys are
//!   separated by `.`; `[]` after a key yields one value per element of the
//!   list found there (`a[][]` for a list of lists). A key is non-empty and
//!   holds no `.`, `[` or `]`; it may not start with `/`.
//! - **JSON Pointer** (RFC 6901), for any other key: `/a.b/c` is key `a.b`
//!   then key `c`; `~1` stands for `/` and `~0` for `~` in a key; an empty
//!   token is the empty key. A token that is exactly `[]` is "each element",
//!   as in the dotted form (so a key spelt `[]` cannot be named). Numeric
//!   tokens are keys, not list indices: hdlscan reads every element or none.
//!
//! A path starts with a key (a record is an object). [`JsonPath`]'s
//! `Display` gives the dotted form when it can spell the path, else the
//! pointer form; either parses back to the same path.

use std::fmt;

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The member of an object with this (unescaped) key.
    Key(Box<str>),
    /// Each element of a list, in order. A value that is not a list (and not
    /// null) is taken as a list of one, so a producer that writes a single
    /// value where others write a list loses nothing.
    Each,
}

/// A parsed path (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JsonPath {
    steps: Vec<Step>,
}

impl JsonPath {
    /// Parses the dotted form, or the JSON Pointer form when `s` starts
    /// with `/`.
    pub fn parse(s: &str) -> Result<JsonPath, String> {
        let steps = if s.starts_with('/') {
            parse_pointer(s)?
        } else {
            parse_dotted(s)?
        };
        match steps.first() {
            Some(Step::Key(_)) => Ok(JsonPath { steps }),
            Some(Step::Each) => Err(format!(
                "{s:?}: a path starts with a key (each record is a JSON object)"
            )),
            None => Err("an empty path".to_string()),
        }
    }

    /// `--records '[]'`: no key, the records being the elements of each
    /// document's top-level array. Shown as `[]`.
    pub fn root() -> JsonPath {
        JsonPath { steps: Vec::new() }
    }

    /// A path of keys only, from already split keys (for callers that hold
    /// them, and tests).
    pub fn from_steps(steps: Vec<Step>) -> Result<JsonPath, String> {
        match steps.first() {
            Some(Step::Key(_)) => Ok(JsonPath { steps }),
            _ => Err("a path starts with a key".to_string()),
        }
    }

    /// The steps, first to last.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// True when the path holds `[]`, so one record can give it several
    /// values (or none).
    pub fn yields_many(&self) -> bool {
        self.steps.contains(&Step::Each)
    }

    /// The keys, when the path holds no `[]` (as `--records` needs).
    pub fn keys(&self) -> Option<Vec<&str>> {
        self.steps
            .iter()
            .map(|s| match s {
                Step::Key(k) => Some(&**k),
                Step::Each => None,
            })
            .collect()
    }

    /// True when every key can be written in the dotted form.
    fn dotted_spellable(&self) -> bool {
        self.steps.iter().enumerate().all(|(i, s)| match s {
            Step::Each => true,
            Step::Key(k) => !(k.is_empty() || k.contains(['.', '[', ']']) || (i == 0 && k.starts_with('/'))),
        })
    }
}

impl std::str::FromStr for JsonPath {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        JsonPath::parse(s)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str("[]");
        }
        if self.dotted_spellable() {
            for (i, s) in self.steps.iter().enumerate() {
                match s {
                    Step::Key(k) => {
                        if i > 0 {
                            f.write_str(".")?;
                        }
                        f.write_str(k)?;
                    }
                    Step::Each => f.write_str("[]")?,
                }
            }
            return Ok(());
        }
        for s in &self.steps {
            f.write_str("/")?;
            match s {
                Step::Each => f.write_str("[]")?,
                Step::Key(k) => f.write_str(&k.replace('~', "~0").replace('/', "~1"))?,
            }
        }
        Ok(())
    }
}

fn parse_dotted(s: &str) -> Result<Vec<Step>, String> {
    if s.is_empty() {
        return Err("an empty path".to_string());
    }
    let mut steps = Vec::new();
    for seg in s.split('.') {
        let key_end = seg.find(['[', ']']).unwrap_or(seg.len());
        let (key, mut rest) = seg.split_at(key_end);
        // `[]` alone: the elements of what? A list is reached by its key.
        if key.is_empty() && steps.is_empty() && rest.starts_with("[]") {
            return Err(format!(
                "{s:?}: a path starts with a key, the list's (`locations[]`); a JSON document that is one \
                 array is read with --records '[]'"
            ));
        }
        if key.is_empty() {
            return Err(format!(
                "{s:?}: an empty key (a key with `.`, `[` or `]` in it is named by a JSON Pointer, /a.b/c)"
            ));
        }
        steps.push(Step::Key(key.into()));
        while let Some(r) = rest.strip_prefix("[]") {
            steps.push(Step::Each);
            rest = r;
        }
        if !rest.is_empty() {
            return Err(format!(
                "{s:?}: only `[]` (each element) may follow a key; list indices are not read, and a key \
                 holding `[` or `]` is named by a JSON Pointer (/a[1]/b)"
            ));
        }
    }
    Ok(steps)
}

fn parse_pointer(s: &str) -> Result<Vec<Step>, String> {
    s[1..]
        .split('/')
        .map(|tok| {
            if tok == "[]" {
                return Ok(Step::Each);
            }
            let escapes_ok = (tok.match_indices('~')).all(|(i, _)| matches!(tok.as_bytes().get(i + 1), Some(b'0' | b'1')));
            if !escapes_ok {
                return Err(format!("{s:?}: `~` must be followed by 0 (for ~) or 1 (for /)"));
            }
            // `~1` first, as RFC 6901 says, so that `~01` is `~1`.
            Ok(Step::Key(tok.replace("~1", "/").replace("~0", "~").into()))
        })
        .collect()
}

/// The run's paths merged into one tree, so one walk of a record finds
/// every path's values. Node 0 is the record itself.
#[derive(Clone, Debug)]
pub struct PathSet {
    paths: Vec<JsonPath>,
    pub(super) nodes: Vec<Node>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Node {
    /// Children by key (bytes of the unescaped key).
    pub keys: Vec<(Box<[u8]>, u32)>,
    /// The child for `[]`.
    pub each: Option<u32>,
    /// Indices of the paths that end here.
    pub ends: Vec<u32>,
    /// Indices of the paths that end here or below: each gets one empty
    /// value where the walk cannot go on (a null, a missing key, a value
    /// of another type).
    pub under: Vec<u32>,
}

impl Node {
    /// The node `step` leads to from here, if a path takes it.
    pub fn child(&self, step: &Step) -> Option<u32> {
        match step {
            Step::Key(k) => self.keys.iter().find(|(n, _)| **n == *k.as_bytes()).map(|c| c.1),
            Step::Each => self.each,
        }
    }
}

impl PathSet {
    /// The tree of `paths`; path `i` is value list `i` of every record. A
    /// path given twice is found twice.
    pub fn new(paths: &[JsonPath]) -> PathSet {
        let mut nodes = vec![Node::default()];
        for (i, p) in paths.iter().enumerate() {
            let mut at = 0usize;
            for s in &p.steps {
                at = match nodes[at].child(s) {
                    Some(n) => n as usize,
                    None => {
                        let n = nodes.len() as u32;
                        nodes.push(Node::default());
                        match s {
                            Step::Key(k) => nodes[at].keys.push((k.as_bytes().into(), n)),
                            Step::Each => nodes[at].each = Some(n),
                        }
                        n as usize
                    }
                };
            }
            nodes[at].ends.push(i as u32);
        }
        // Children are numbered after their parents: fill from the leaves up.
        for n in (0..nodes.len()).rev() {
            let mut under = nodes[n].ends.clone();
            let children = nodes[n].keys.iter().map(|k| k.1).chain(nodes[n].each);
            for c in children.collect::<Vec<_>>() {
                under.extend_from_slice(&nodes[c as usize].under);
            }
            under.sort_unstable();
            nodes[n].under = under;
        }
        PathSet {
            paths: paths.to_vec(),
            nodes,
        }
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// The paths, as given.
    pub fn paths(&self) -> &[JsonPath] {
        &self.paths
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.into())
    }

    #[test]
    fn dotted() {
        assert_eq!(JsonPath::parse("doi").unwrap().steps(), [key("doi")]);
        assert_eq!(JsonPath::parse("ids.doi").unwrap().steps(), [key("ids"), key("doi")]);
        let p = JsonPath::parse("locations[].landing_page_url").unwrap();
        assert_eq!(p.steps(), [key("locations"), Step::Each, key("landing_page_url")]);
        assert!(p.yields_many());
        assert!(!JsonPath::parse("ids.doi").unwrap().yields_many());
        assert_eq!(
            JsonPath::parse("a[][].b c").unwrap().steps(),
            [key("a"), Step::Each, Step::Each, key("b c")]
        );
        for bad in [
            "", ".", "a.", ".a", "a..b", "a[0]", "a[", "a]", "a[]b", "[]", "[].a", "a.[]",
        ] {
            assert!(JsonPath::parse(bad).is_err(), "{bad:?}");
        }
        // `[]` first names the list it needs, not an empty key.
        for bad in ["[]", "[].a"] {
            let e = JsonPath::parse(bad).unwrap_err();
            assert!(e.contains("a path starts with a key, the list's"), "{e}");
        }
    }

    #[test]
    fn pointer() {
        assert_eq!(JsonPath::parse("/a.b/c").unwrap().steps(), [key("a.b"), key("c")]);
        assert_eq!(
            JsonPath::parse("/a~1b/~0x~01").unwrap().steps(),
            [key("a/b"), key("~x~1")]
        );
        assert_eq!(JsonPath::parse("/").unwrap().steps(), [key("")]);
        assert_eq!(JsonPath::parse("/a//b").unwrap().steps(), [key("a"), key(""), key("b")]);
        assert_eq!(
            JsonPath::parse("/locations/[]/url").unwrap().steps(),
            [key("locations"), Step::Each, key("url")]
        );
        assert_eq!(JsonPath::parse("/a/0").unwrap().steps(), [key("a"), key("0")]);
        for bad in ["/a~2", "/a~", "/[]/a"] {
            assert!(JsonPath::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn display_round_trips() {
        for (s, shown) in [
            ("doi", "doi"),
            ("/doi", "doi"),
            ("locations[].landing_page_url", "locations[].landing_page_url"),
            ("/locations/[]/x", "locations[].x"),
            ("/a.b/c", "/a.b/c"),
            ("/a~1b/[]", "a/b[]"),
            ("/a.b/[]", "/a.b/[]"),
            ("/~0/x", "~.x"),
            ("/", "/"),
            ("/a[1]", "/a[1]"),
            ("//x", "//x"),
            ("/~1x/y", "/~1x/y"),
        ] {
            let p = JsonPath::parse(s).unwrap();
            assert_eq!(p.to_string(), shown, "{s:?}");
            assert_eq!(JsonPath::parse(shown).unwrap(), p, "{s:?}");
        }
    }

    #[test]
    fn tree_shares_prefixes() {
        let paths: Vec<JsonPath> = ["ids.doi", "ids", "ids.openalex", "doi", "ids.doi"]
            .iter()
            .map(|s| JsonPath::parse(s).unwrap())
            .collect();
        let set = PathSet::new(&paths);
        // root, ids, ids.doi, ids.openalex, doi
        assert_eq!(set.nodes.len(), 5);
        assert_eq!(set.nodes[0].keys.len(), 2);
        assert_eq!(set.nodes[2].ends, [0, 4]);
        assert_eq!(set.nodes[1].ends, [1]);
    }
}
