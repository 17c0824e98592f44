//! [`Reach`]: which places of the run's paths any record reached, and a
//! sample of the keys records had there. A path that reaches nothing in
//! any record (`-c dooi`) is a typo, not a column of empty values; since
//! records stream, that is known only once all are read, and the error
//! names the nearest key seen, as `select` names the nearest header.

use super::path::{PathSet, Step};
use crate::io::describe_columns;

/// Records at the start of each block whose keys are sampled: enough to
/// name the keys a typo missed, at no cost to the rest of the block.
pub(super) const SAMPLED: usize = 8;

/// Distinct keys kept per place.
const KEYS_KEPT: usize = 200;

/// Per node of a [`PathSet`]: whether a record had a value there (a
/// `null` too), and the keys no path names that objects there had, each
/// with whether it held a list.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    seen: Vec<bool>,
    keys: Vec<Vec<(Box<[u8]>, bool)>>,
    /// Keys of a record's top level whose object held a list, with that
    /// list's key (Crossref's API: `{"message": {"items": [...]}}`).
    nested_lists: Vec<[Box<[u8]>; 2]>,
}

/// A path that no record reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreached {
    /// Its index among the run's paths.
    pub path: usize,
    /// Where it stopped and what was there instead.
    pub reason: String,
    /// Stopped at a record's top level: the paths of keys seen there that
    /// held a list, or held an object holding one (a document whose
    /// records are the list there), those of the top level first.
    pub lists: Vec<Vec<String>>,
}

impl Reach {
    pub(super) fn new(nodes: usize) -> Reach {
        Reach {
            seen: vec![false; nodes],
            keys: vec![Vec::new(); nodes],
            nested_lists: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn saw(&mut self, node: u32) {
        if let Some(s) = self.seen.get_mut(node as usize) {
            *s = true;
        }
    }

    /// An object at `node` had `key`, which no path names (`list`: its
    /// value was a list).
    pub(super) fn sample_key(&mut self, node: u32, key: &[u8], list: bool) {
        let Some(keys) = self.keys.get_mut(node as usize) else {
            return;
        };
        match keys.iter().position(|(k, _)| **k == *key) {
            Some(i) => keys[i].1 |= list,
            None if keys.len() < KEYS_KEPT => keys.push((key.into(), list)),
            None => {}
        }
    }

    /// A record's top-level object under `parent` had `key` holding a list.
    pub(super) fn sample_nested_list(&mut self, parent: &[u8], key: &[u8]) {
        let new = !self.nested_lists.iter().any(|[p, k]| **p == *parent && **k == *key);
        if new && self.nested_lists.len() < KEYS_KEPT {
            self.nested_lists.push([parent.into(), key.into()]);
        }
    }

    /// Adds what another block saw.
    pub fn merge(&mut self, other: Reach) {
        if self.seen.is_empty() {
            *self = other;
            return;
        }
        for (a, b) in self.seen.iter_mut().zip(other.seen) {
            *a |= b;
        }
        for (node, keys) in other.keys.into_iter().enumerate() {
            for (k, list) in keys {
                self.sample_key(node as u32, &k, list);
            }
        }
        for [parent, key] in other.nested_lists {
            self.sample_nested_list(&parent, &key);
        }
    }

    /// The paths of `set` that no record reached, each with where it
    /// stopped: the key no record had beside those seen there (and the
    /// nearest of them), or the list that was always empty.
    pub fn unreached(&self, set: &PathSet) -> Vec<Unreached> {
        let mut out = Vec::new();
        if self.seen.len() != set.nodes.len() {
            // No record was read: nothing to judge.
            return out;
        }
        for (i, path) in set.paths().iter().enumerate() {
            let mut at = 0u32;
            for (j, step) in path.steps().iter().enumerate() {
                let node = &set.nodes[at as usize];
                let child = match step {
                    Step::Key(k) => node.keys.iter().find(|(n, _)| **n == *k.as_bytes()).map(|c| c.1),
                    Step::Each => node.each,
                }
                .expect("the tree holds every path");
                if self.seen[child as usize] {
                    at = child;
                    continue;
                }
                let above = super::JsonPath::from_steps(path.steps()[..j].to_vec()).ok();
                let under = above.as_ref().map_or(String::new(), |p| format!(" under {p}"));
                let reason = match step {
                    Step::Each => format!(
                        "{} is an empty list (or null) in every record",
                        above.expect("a key first")
                    ),
                    Step::Key(k) => {
                        // Keys of paths seen there, then the sampled others.
                        let mut keys: Vec<String> = node
                            .keys
                            .iter()
                            .filter(|(_, c)| self.seen[*c as usize])
                            .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
                            .collect();
                        keys.extend(
                            self.keys[at as usize]
                                .iter()
                                .map(|(k, _)| String::from_utf8_lossy(k).into_owned()),
                        );
                        let hint = crate::select::nearest(&keys, k).map_or(String::new(), |near| {
                            let mut steps = path.steps().to_vec();
                            steps[j] = Step::Key(near.into());
                            let fixed = super::JsonPath::from_steps(steps).map_or(String::new(), |p| p.to_string());
                            crate::select::suggestion(&fixed)
                        });
                        match keys.is_empty() {
                            true => format!("no record has the key '{k}'{under}, nor an object with any key there"),
                            false => format!(
                                "no record has the key '{k}'{under}{hint}; keys seen there: {}",
                                describe_columns(keys.iter().map(String::as_str))
                            ),
                        }
                    }
                };
                let text = |k: &[u8]| String::from_utf8_lossy(k).into_owned();
                let lists = match j {
                    0 => (self.keys[at as usize].iter())
                        .filter(|(_, list)| *list)
                        .map(|(k, _)| vec![text(k)])
                        .chain(self.nested_lists.iter().map(|[p, k]| vec![text(p), text(k)]))
                        .collect(),
                    _ => Vec::new(),
                };
                out.push(Unreached { path: i, reason, lists });
                break;
            }
        }
        out
    }
}
