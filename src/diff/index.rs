//! OLD's rows held for the join, compactly: every row's key and canonical
//! in one byte arena, a fixed 56-byte [`Entry`] per row in a `Vec` (in
//! OLD's order, which is then `removed`'s), and an open-addressing table of
//! 8-byte slots (a 32-bit hash tag and the entry's index) at most 7/8 full.
//! A row takes 56 bytes and 9 to 18 of table besides its key and
//! canonical, where a `HashMap` of boxed keys and canonicals took three
//! times as much (README, `hdlscan diff`).
//!
//! The keys NEW adds are appended after OLD's, so that a second NEW row
//! with one of them is found as a duplicate too.

use std::hash::BuildHasher;

/// One row: where its key and canonical are in the arena, and what a diff
/// compares (codes as [`super::row::Vocab`] ids).
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    at: u64,
    key_len: u32,
    canonical_len: u32,
    /// `scan`'s record; 0 when unknown.
    pub record: u64,
    /// The NEW row that had this key (0: none yet), and its record, to
    /// name both rows of a key NEW holds twice.
    pub matched: u64,
    pub matched_record: u64,
    pub kind: u32,
    pub error: u32,
    pub warnings: u32,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 56);

/// The values of a row to add.
#[derive(Debug, Clone, Copy, Default)]
pub struct Values<'a> {
    pub canonical: &'a str,
    pub record: u64,
    pub kind: u32,
    pub error: u32,
    pub warnings: u32,
}

pub struct Index {
    arena: Vec<u8>,
    entries: Vec<Entry>,
    /// 0 for empty, else the tag in the high half and index + 1 in the low.
    slots: Vec<u64>,
    hasher: foldhash::fast::RandomState,
}

impl Default for Index {
    fn default() -> Self {
        Index {
            arena: Vec::new(),
            entries: Vec::new(),
            slots: vec![0; 1024],
            hasher: foldhash::fast::RandomState::default(),
        }
    }
}

impl Index {
    fn tag(&self, key: &[u8]) -> u32 {
        let h = self.hasher.hash_one(key);
        (h >> 32) as u32 ^ h as u32
    }

    /// The heap memory held once a row of `bytes` (key and canonical) is
    /// pushed: the arena, entries and table as allocated, any of them
    /// grown (doubled, as `Vec` grows) when full. Asked before the push,
    /// so a budget is kept before a doubling rather than found passed
    /// after it.
    pub fn heap_bytes_with(&self, bytes: usize) -> u64 {
        fn cap(len: usize, cap: usize, add: usize) -> usize {
            if len + add > cap { (cap * 2).max(len + add) } else { cap }
        }
        let arena = cap(self.arena.len(), self.arena.capacity(), bytes);
        let entries = cap(self.entries.len(), self.entries.capacity(), 1);
        let slots = if (self.entries.len() + 1) * 8 > self.slots.len() * 7 {
            self.slots.len() * 2
        } else {
            self.slots.len()
        };
        (arena + entries * size_of::<Entry>() + slots * 8) as u64
    }

    pub fn entry(&self, i: usize) -> &Entry {
        &self.entries[i]
    }

    pub fn entry_mut(&mut self, i: usize) -> &mut Entry {
        &mut self.entries[i]
    }

    pub fn key(&self, e: &Entry) -> &[u8] {
        &self.arena[e.at as usize..e.at as usize + e.key_len as usize]
    }

    pub fn canonical(&self, e: &Entry) -> &str {
        let start = e.at as usize + e.key_len as usize;
        // Pushed as a `&str`: always UTF-8.
        std::str::from_utf8(&self.arena[start..start + e.canonical_len as usize]).unwrap_or_default()
    }

    /// The index of `key`'s entry.
    pub fn find(&self, key: &[u8]) -> Option<usize> {
        let tag = self.tag(key);
        let mask = self.slots.len() - 1;
        let mut at = tag as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return None;
            }
            let i = (slot as u32 - 1) as usize;
            if (slot >> 32) as u32 == tag && self.key(&self.entries[i]) == key {
                return Some(i);
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds `key`, which must not be there yet; returns its index.
    pub fn push(&mut self, key: &[u8], v: Values<'_>) -> usize {
        if (self.entries.len() + 1) * 8 > self.slots.len() * 7 {
            self.grow();
        }
        let i = self.entries.len();
        assert!(i < u32::MAX as usize, "fewer than 4 billion rows");
        self.entries.push(Entry {
            at: self.arena.len() as u64,
            key_len: u32::try_from(key.len()).expect("a key under 4 GiB"),
            canonical_len: u32::try_from(v.canonical.len()).expect("a canonical under 4 GiB"),
            record: v.record,
            matched: 0,
            matched_record: 0,
            kind: v.kind,
            error: v.error,
            warnings: v.warnings,
        });
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(v.canonical.as_bytes());
        let tag = self.tag(key);
        self.place(tag, i);
        i
    }

    fn place(&mut self, tag: u32, i: usize) {
        let mask = self.slots.len() - 1;
        let mut at = tag as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = (u64::from(tag) << 32) | (i as u64 + 1);
    }

    fn grow(&mut self) {
        let wider = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, wider);
        for slot in old.into_iter().filter(|s| *s != 0) {
            self.place((slot >> 32) as u32, (slot as u32 - 1) as usize);
        }
    }

    /// Entries in the order they were pushed.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_was_pushed_through_growth() {
        let mut ix = Index::default();
        let keys: Vec<String> = (0..10_000).map(|i| format!("key{i}")).collect();
        for (n, k) in keys.iter().enumerate() {
            assert_eq!(ix.find(k.as_bytes()), None);
            let canonical = format!("10.1/{n}");
            let i = ix.push(
                k.as_bytes(),
                Values {
                    canonical: &canonical,
                    record: n as u64 + 1,
                    ..Values::default()
                },
            );
            assert_eq!(i, n);
        }
        for (n, k) in keys.iter().enumerate() {
            let i = ix.find(k.as_bytes()).unwrap();
            assert_eq!(i, n);
            let e = ix.entry(i);
            assert_eq!(
                (ix.key(e), ix.canonical(e), e.record),
                (k.as_bytes(), format!("10.1/{n}").as_str(), n as u64 + 1)
            );
        }
        assert_eq!(ix.find(b"key10000"), None);
        assert_eq!(ix.find(b""), None);
        assert_eq!(ix.iter().count(), 10_000);
    }
}
