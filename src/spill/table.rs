//! Distinct keys held compactly and found exactly: every key's bytes in one
//! arena, a fixed entry per key in a `Vec` (in the order added), and a
//! `hashbrown::HashTable` of 4-byte entry numbers. Keys are compared by
//! bytes; the hash the caller made once (for the partition too) only finds
//! the slot, so equal hashes of different keys stay different entries.
//!
//! An entry may carry bytes after its key in the arena (its *tail*, such
//! as a diff's canonical), pushed with it and read back until the next
//! entry's key.
//!
//! Offsets and entry numbers are `u32`: a table holds at most [`MAX`]
//! bytes of keys and tails, and fewer than [`MAX`] keys. Past that it
//! refuses a new key (`None`), and says it takes all there is
//! ([`Table::bytes_with`]), so its user spills or splits first; tests
//! give a table a small limit to take those paths.

use hashbrown::HashTable;

/// One key: its hash, where its bytes are, and the caller's value.
#[derive(Debug, Clone, Copy)]
struct Slot<E> {
    hash: u64,
    off: u32,
    len: u32,
    value: E,
}

/// The most bytes of keys, and keys, a table holds: what `u32` offsets
/// and entry numbers reach.
pub(crate) const MAX: usize = u32::MAX as usize;

/// A table of distinct keys, each with a value `E`.
#[derive(Debug)]
pub(crate) struct Table<E> {
    slots: HashTable<u32>,
    entries: Vec<Slot<E>>,
    arena: Vec<u8>,
    /// At most [`MAX`].
    max: usize,
}

impl<E> Default for Table<E> {
    fn default() -> Self {
        Table::new(MAX)
    }
}

/// The slot hash of a key's hash: other bits than a partition's (`bucket`
/// takes the top ones), or every key of a partition would share the same
/// control byte.
#[inline]
fn slot_hash(h: u64) -> u64 {
    h.rotate_left(32)
}

/// Bytes of the hash table a slot takes: its entry number and control byte.
const SLOT_BYTES: usize = 5;

impl<E> Table<E> {
    /// Bytes of one entry, to size a table before it is made.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot<E>>() + SLOT_BYTES;

    /// A table of at most `max` bytes of keys, and keys (and never more
    /// than [`MAX`]).
    pub fn new(max: usize) -> Table<E> {
        Table {
            slots: HashTable::new(),
            entries: Vec::new(),
            arena: Vec::new(),
            max: max.min(MAX),
        }
    }

    /// Whether one more key of `bytes` (tail included) fits.
    #[inline]
    fn room(entries: &[Slot<E>], arena: &[u8], max: usize, bytes: usize) -> bool {
        entries.len() < max && bytes <= max - arena.len()
    }

    /// Memory held.
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * SLOT_BYTES
            + self.entries.capacity() * std::mem::size_of::<Slot<E>>()
            + self.arena.capacity()
    }

    /// Memory held once one more key of `bytes` (tail included) is pushed:
    /// the arena, entries and slots grown as they grow when full. Asked
    /// before the push, so a budget is kept before a growth rather than
    /// found passed after it. Past the table's limit, all there is.
    pub fn bytes_with(&self, bytes: usize) -> usize {
        if !Self::room(&self.entries, &self.arena, self.max, bytes) {
            return usize::MAX;
        }
        let arena = if self.arena.capacity() - self.arena.len() < bytes {
            self.arena.capacity() + self.arena.capacity() / 2 + bytes
        } else {
            self.arena.capacity()
        };
        let entries = if self.entries.len() == self.entries.capacity() {
            (self.entries.capacity() * 2).max(4)
        } else {
            self.entries.capacity()
        };
        let slots = if self.entries.len() == self.slots.capacity() {
            (self.slots.capacity() * 2).max(3) + 1
        } else {
            self.slots.capacity()
        };
        slots * SLOT_BYTES + entries * std::mem::size_of::<Slot<E>>() + arena
    }

    /// Room for `n` keys, so the table does not grow (and rehash) key by key.
    pub fn reserve(&mut self, n: usize) {
        let entries = &self.entries;
        self.slots.reserve(n, |&j| slot_hash(entries[j as usize].hash));
        self.entries.reserve(n);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry of `key` (whose hash is `hash`).
    #[inline]
    pub fn find(&self, hash: u64, key: &[u8]) -> Option<usize> {
        self.slots
            .find(slot_hash(hash), |&i| {
                let e = &self.entries[i as usize];
                e.hash == hash && self.key_of(e) == key
            })
            .map(|&i| i as usize)
    }

    /// The entry of `key`, made with `value()` when new; and whether it
    /// was. `None`: the key is new and the table is full.
    #[inline]
    pub fn find_or_push(&mut self, hash: u64, key: &[u8], value: impl FnOnce() -> E) -> Option<(usize, bool)> {
        use hashbrown::hash_table::Entry;
        let Table {
            slots,
            entries,
            arena,
            max,
        } = self;
        // One probe finds the key or the empty slot for a new one.
        let entry = slots.entry(
            slot_hash(hash),
            |&i| {
                let e = &entries[i as usize];
                e.hash == hash && Self::bytes_at(arena, e) == key
            },
            |&j| slot_hash(entries[j as usize].hash),
        );
        match entry {
            Entry::Occupied(o) => Some((*o.get() as usize, false)),
            Entry::Vacant(v) => {
                if !Self::room(entries, arena, *max, key.len()) {
                    return None;
                }
                let i = entries.len();
                v.insert(i as u32);
                Self::append(entries, arena, hash, key, &[], value());
                Some((i, true))
            }
        }
    }

    /// Adds `key`, which must not be there yet, with `tail` after it.
    /// `None`: the table is full.
    pub fn push(&mut self, hash: u64, key: &[u8], tail: &[u8], value: E) -> Option<usize> {
        if !Self::room(&self.entries, &self.arena, self.max, key.len() + tail.len()) {
            return None;
        }
        let i = self.entries.len();
        let entries = &self.entries;
        self.slots
            .insert_unique(slot_hash(hash), i as u32, |&j| slot_hash(entries[j as usize].hash));
        Self::append(&mut self.entries, &mut self.arena, hash, key, tail, value);
        Some(i)
    }

    /// Appends an entry the table has room for: its offset and length fit
    /// a `u32`, as [`room`](Self::room) made sure.
    fn append(entries: &mut Vec<Slot<E>>, arena: &mut Vec<u8>, hash: u64, key: &[u8], tail: &[u8], value: E) {
        entries.push(Slot {
            hash,
            off: arena.len() as u32,
            len: key.len() as u32,
            value,
        });
        // Grown by half, not doubled: keys are much of a table, and a
        // doubling would pass a budget long before the keys need it.
        let n = key.len() + tail.len();
        if arena.capacity() - arena.len() < n {
            arena.reserve_exact(arena.capacity() / 2 + n);
        }
        arena.extend_from_slice(key);
        arena.extend_from_slice(tail);
    }

    #[inline]
    fn bytes_at<'a>(arena: &'a [u8], e: &Slot<E>) -> &'a [u8] {
        &arena[e.off as usize..e.off as usize + e.len as usize]
    }

    #[inline]
    fn key_of(&self, e: &Slot<E>) -> &[u8] {
        Self::bytes_at(&self.arena, e)
    }

    /// Entry `i`'s key.
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        self.key_of(&self.entries[i])
    }

    /// Entry `i`'s tail: the bytes pushed after its key.
    pub fn tail(&self, i: usize) -> &[u8] {
        let e = &self.entries[i];
        let end = self.entries.get(i + 1).map_or(self.arena.len(), |n| n.off as usize);
        &self.arena[e.off as usize + e.len as usize..end]
    }

    #[inline]
    pub fn get(&self, i: usize) -> &E {
        &self.entries[i].value
    }

    #[inline]
    pub fn get_mut(&mut self, i: usize) -> &mut E {
        &mut self.entries[i].value
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut E> {
        self.entries.iter_mut().map(|e| &mut e.value)
    }
}
