//! A count per key (a namespace, a prefix, a resolver host): what
//! [`Stats`](super::Stats) keeps for every valid value, so its bump is
//! on every value's path. Keys are short (`doi`, `10.1016`,
//! `hdl.handle.net`): one of up to sixteen bytes is held in its table
//! slot as two words and its length, which tell it from every other key,
//! so it is hashed by one multiply and found without reading a key's
//! bytes; a longer one is hashed and compared whole. Serialized as a map
//! from key to count, as a `HashMap` is.

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::hash::BuildHasher;

/// A count per key, in the order the keys were first counted.
#[derive(Clone)]
pub struct Tally {
    entries: Vec<(String, u64)>,
    /// Open addressing, linear probing, at most half full; a power of
    /// two long (or empty).
    slots: Vec<Slot>,
    /// Longer keys' hash.
    hasher: foldhash::fast::RandomState,
    /// Short keys' hash's seeds, drawn from `hasher`'s: crafted keys
    /// cannot be made to collide in every run.
    seeds: [u64; 2],
}

/// Keys held whole in a slot's words.
const SHORT: usize = 16;

/// A key's [`words`] and length, and its entry.
#[derive(Clone, Copy)]
struct Slot {
    words: [u64; 2],
    /// [`EMPTY`] in a free slot.
    len: u32,
    entry: u32,
}

const EMPTY: u32 = u32::MAX;

const FREE: Slot = Slot {
    words: [0, 0],
    len: EMPTY,
    entry: 0,
};

/// Words that, with its length, tell a key of up to [`SHORT`] bytes from
/// every other: the first and the last eight bytes (overlapping) of one
/// of 8 to 16, two overlapping halves of one of 4 to 7, the first,
/// middle and last byte of one of 1 to 3. A longer key's first and last
/// eight bytes.
#[inline]
fn words(k: &[u8]) -> [u64; 2] {
    let n = k.len();
    let u64_at = |i: usize| u64::from_le_bytes(k[i..i + 8].try_into().expect("eight bytes"));
    if n >= 8 {
        [u64_at(0), u64_at(n - 8)]
    } else if n >= 4 {
        let u32_at = |i: usize| u32::from_le_bytes(k[i..i + 4].try_into().expect("four bytes"));
        [u64::from(u32_at(0)) | u64::from(u32_at(n - 4)) << 32, 0]
    } else if n > 0 {
        [
            u64::from(k[0]) | u64::from(k[n / 2]) << 8 | u64::from(k[n - 1]) << 16,
            0,
        ]
    } else {
        [0, 0]
    }
}

/// The high and low halves of a full product, folded.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ (p >> 64) as u64
}

impl Default for Tally {
    fn default() -> Tally {
        let hasher = foldhash::fast::RandomState::default();
        let seeds = [hasher.hash_one(1u64), hasher.hash_one(2u64)];
        Tally {
            entries: Vec::new(),
            slots: Vec::new(),
            hasher,
            seeds,
        }
    }
}

impl Tally {
    /// The hash of a key of `words` and length `len`; `long` hashes a
    /// longer key than [`SHORT`].
    #[inline]
    fn hash(&self, words: [u64; 2], len: usize, long: impl FnOnce() -> u64) -> u64 {
        if len <= SHORT {
            folded_multiply(words[0] ^ self.seeds[0], words[1] ^ self.seeds[1] ^ len as u64)
        } else {
            long()
        }
    }

    /// Where `k` of `words` is, or would go: its slot's index, and its
    /// entry if it has one.
    #[inline]
    fn find(&self, hash: u64, words: [u64; 2], k: &[u8]) -> (usize, Option<u32>) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = hash as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.len == EMPTY {
                return (i, None);
            }
            if s.words == words
                && s.len as usize == k.len()
                && (k.len() <= SHORT || self.entries[s.entry as usize].0.as_bytes() == k)
            {
                return (i, Some(s.entry));
            }
            i = (i + 1) & mask;
        }
    }

    /// Counts `k` once.
    #[inline]
    pub fn bump(&mut self, k: &str) {
        match self.get_entry(k) {
            Some(e) => self.entries[e as usize].1 += 1,
            None => self.insert_str(k),
        }
    }

    /// Out of line, so that [`Tally::bump`] stays small where it is
    /// inlined.
    #[cold]
    #[inline(never)]
    fn insert_str(&mut self, k: &str) {
        self.insert(k.to_owned(), 1);
    }

    /// Makes `k`'s entry, counted `n`, growing the table to keep it at
    /// most half full.
    fn insert(&mut self, k: String, n: u64) {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let b = k.as_bytes();
        let w = words(b);
        let hash = self.hash(w, b.len(), || self.hasher.hash_one(b));
        let (i, found) = self.find(hash, w, b);
        debug_assert!(found.is_none());
        self.slots[i] = Slot {
            words: w,
            len: u32::try_from(b.len())
                .ok()
                .filter(|&l| l != EMPTY)
                .expect("a key under 4 GiB"),
            entry: u32::try_from(self.entries.len()).expect("fewer than 2^32 keys"),
        };
        self.entries.push((k, n));
    }

    /// Twice the slots (16 at first), every key placed again.
    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![FREE; n]);
        for s in old.into_iter().filter(|s| s.len != EMPTY) {
            let k = self.entries[s.entry as usize].0.as_bytes();
            let hash = self.hash(s.words, k.len(), || self.hasher.hash_one(k));
            let (i, _) = self.find(hash, s.words, k);
            self.slots[i] = s;
        }
    }

    /// Adds `n` to `k`'s count (merging tallies).
    pub fn add(&mut self, k: String, n: u64) {
        match self.get_entry(&k) {
            Some(e) => self.entries[e as usize].1 += n,
            None => self.insert(k, n),
        }
    }

    #[inline]
    fn get_entry(&self, k: &str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let b = k.as_bytes();
        let w = words(b);
        let hash = self.hash(w, b.len(), || self.hasher.hash_one(b));
        self.find(hash, w, b).1
    }

    /// `k`'s count, if it was counted.
    pub fn get(&self, k: &str) -> Option<u64> {
        self.get_entry(k).map(|e| self.entries[e as usize].1)
    }

    /// Every key and its count, in the order the keys were first counted.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.entries.iter().map(|(k, n)| (k.as_str(), *n))
    }

    /// Keys counted.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key was counted.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl std::ops::AddAssign<Tally> for Tally {
    fn add_assign(&mut self, o: Tally) {
        for (k, n) in o.entries {
            self.add(k, n);
        }
    }
}

impl std::ops::Index<&str> for Tally {
    type Output = u64;

    fn index(&self, k: &str) -> &u64 {
        &self.entries[self.get_entry(k).expect("a key counted") as usize].1
    }
}

/// Equal when they count the same keys the same, whatever the order the
/// keys came in.
impl PartialEq for Tally {
    fn eq(&self, o: &Tally) -> bool {
        self.len() == o.len() && self.iter().all(|(k, n)| o.get(k) == Some(n))
    }
}

impl std::fmt::Debug for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(String, u64)> for Tally {
    fn from_iter<I: IntoIterator<Item = (String, u64)>>(it: I) -> Tally {
        let mut t = Tally::default();
        for (k, n) in it {
            t.add(k, n);
        }
        t
    }
}

impl Serialize for Tally {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Tally {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tally, D::Error> {
        struct Counts;
        impl<'de> Visitor<'de> for Counts {
            type Value = Tally;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map of keys to counts")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Tally, A::Error> {
                let mut t = Tally::default();
                while let Some((k, n)) = m.next_entry::<String, u64>()? {
                    t.add(k, n);
                }
                Ok(t)
            }
        }
        d.deserialize_map(Counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_lengths_tell_short_keys_apart() {
        // Every key of up to 3 bytes over a small alphabet, and keys of 4
        // to 16 bytes that differ from one another in one byte: distinct
        // (words, length).
        let alphabet = [b'a', b'b', b'/', 0xff];
        let mut keys: Vec<Vec<u8>> = vec![Vec::new()];
        for n in 1..=3 {
            let mut k = vec![0usize; n];
            loop {
                keys.push(k.iter().map(|&i| alphabet[i]).collect());
                let Some(j) = k.iter().rposition(|&i| i + 1 < alphabet.len()) else {
                    break;
                };
                k[j] += 1;
                k[j + 1..].iter_mut().for_each(|i| *i = 0);
            }
        }
        for n in 4..=SHORT {
            for at in 0..n {
                let mut k = vec![b'x'; n];
                keys.push(k.clone());
                k[at] = b'y';
                keys.push(k);
            }
        }
        keys.sort();
        keys.dedup();
        let mut seen = std::collections::HashSet::new();
        for k in &keys {
            assert!(seen.insert((words(k), k.len())), "{k:?}");
        }
    }

    #[test]
    fn counts_as_a_map_does() {
        let keys = [
            "doi",
            "hdl",
            "doi",
            "10.1016",
            "10.1017",
            "doi.org",
            "dx.doi.org",
            "hdl.handle.net",
            "a",
            "b",
            "ab",
            "ba",
            "",
            "10.1016",
            "hdl.handle.net",
            "hdl.handle.nex",
            "hdl.handle.net.",
            "k1",
            "k2",
            "k3",
            "k4",
            "k5",
            "k6",
            "k7",
            "k8",
            "k9",
            "doi",
            "10.1000/a",
            "10.1000/b",
            "repository.example.edu",
            "repository.example.org",
            "repository.exampl.edu",
            "x-repository.example.edu",
            "10.1000/abcdefgh",
            "10.1000/abcdefgi",
        ];
        let mut want = std::collections::HashMap::new();
        let mut t = Tally::default();
        for round in 0..3 {
            for k in keys.iter().skip(round) {
                *want.entry(k.to_string()).or_insert(0u64) += 1;
                t.bump(k);
            }
        }
        assert_eq!(t.len(), want.len());
        for (k, n) in &want {
            assert_eq!(t.get(k), Some(*n), "{k}");
            assert_eq!(t[k.as_str()], *n);
        }
        let back: Tally = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        let mut merged: Tally = want.iter().take(3).map(|(k, n)| (k.clone(), *n)).collect();
        merged += want.iter().skip(3).map(|(k, n)| (k.clone(), *n)).collect();
        assert_eq!(merged, t);
    }
}
