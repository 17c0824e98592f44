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
/// `null` too), and the keys no path names that objects there had; and
/// the lists a record held at its top level or one object down, each
/// with the keys of its first element (a document's records may be one
/// of them).
#[derive(Clone, Debug, Default)]
pub struct Reach {
    seen: Vec<bool>,
    keys: Vec<Vec<Box<[u8]>>>,
    lists: Vec<SampledList>,
}

/// A list a record held off the paths (`data`, `message.items`): its
/// path of keys and the keys of its first element, an object.
#[derive(Clone, Debug)]
struct SampledList {
    path: Vec<Box<[u8]>>,
    element_keys: Vec<Box<[u8]>>,
}

/// A path that no record reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreached {
    /// Its index among the run's paths.
    pub path: usize,
    /// Where it stopped and what was there instead.
    pub reason: String,
    /// Stopped at a record's top level: the paths of the lists there or
    /// one object down whose first element had the key missed (or one
    /// near it): a document whose records are that list. Those of the top
    /// level first.
    pub lists: Vec<Vec<String>>,
}

impl Reach {
    pub(super) fn new(nodes: usize) -> Reach {
        Reach {
            seen: vec![false; nodes],
            keys: vec![Vec::new(); nodes],
            lists: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn saw(&mut self, node: u32) {
        if let Some(s) = self.seen.get_mut(node as usize) {
            *s = true;
        }
    }

    /// An object at `node` had `key`, which no path names.
    pub(super) fn sample_key(&mut self, node: u32, key: &[u8]) {
        if let Some(keys) = self.keys.get_mut(node as usize) {
            add_key(keys, key);
        }
    }

    /// A record held a list at `path` (off the paths) whose first element
    /// had `element_keys`.
    pub(super) fn sample_list(&mut self, path: &[&[u8]], element_keys: &[Box<[u8]>]) {
        let i = match self.lists.iter().position(|l| l.path.iter().map(|k| &**k).eq(path.iter().copied())) {
            Some(i) => i,
            None if self.lists.len() < KEYS_KEPT => {
                let path = path.iter().map(|&k| k.into()).collect();
                self.lists.push(SampledList {
                    path,
                    element_keys: Vec::new(),
                });
                self.lists.len() - 1
            }
            None => return,
        };
        for k in element_keys {
            add_key(&mut self.lists[i].element_keys, k);
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
            for k in keys {
                self.sample_key(node as u32, &k);
            }
        }
        for l in other.lists {
            self.sample_list(&l.path.iter().map(|k| &**k).collect::<Vec<_>>(), &l.element_keys);
        }
    }

    /// The first path of `set` that no record reached, with where it
    /// stopped: the key no record had beside those seen there (and the
    /// nearest of them), or the list that was always empty.
    pub fn first_unreached(&self, set: &PathSet) -> Option<Unreached> {
        let text = |k: &[u8]| String::from_utf8_lossy(k).into_owned();
        if self.seen.len() != set.nodes.len() {
            // No record was read: nothing to judge.
            return None;
        }
        for (i, path) in set.paths().iter().enumerate() {
            let mut at = 0u32;
            for (j, step) in path.steps().iter().enumerate() {
                let node = &set.nodes[at as usize];
                let child = node.child(step).expect("the tree holds every path");
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
                        let seen = node.keys.iter().filter(|(_, c)| self.seen[*c as usize]);
                        let keys: Vec<String> =
                            seen.map(|(n, _)| n).chain(&self.keys[at as usize]).map(|k| text(k)).collect();
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
                let lists = match step {
                    Step::Key(k) if j == 0 => self.lists_holding(k),
                    _ => Vec::new(),
                };
                return Some(Unreached { path: i, reason, lists });
            }
        }
        None
    }

    /// The lists sampled whose first element had `key` or one near it,
    /// those of the top level first.
    fn lists_holding(&self, key: &str) -> Vec<Vec<String>> {
        let text = |k: &[u8]| String::from_utf8_lossy(k).into_owned();
        let mut lists: Vec<&SampledList> = (self.lists.iter())
            .filter(|l| {
                let keys: Vec<String> = l.element_keys.iter().map(|k| text(k)).collect();
                crate::select::nearest(&keys, key).is_some()
            })
            .collect();
        lists.sort_by_key(|l| l.path.len());
        lists.iter().map(|l| l.path.iter().map(|k| text(k)).collect()).collect()
    }
}

/// Adds `key` to `keys`, once, up to `KEYS_KEPT`.
fn add_key(keys: &mut Vec<Box<[u8]>>, key: &[u8]) {
    if keys.len() < KEYS_KEPT && !keys.iter().any(|k| **k == *key) {
        keys.push(key.into());
    }
}
