//! The seeded random source every generator draws from, and the weighted
//! tables it picks from: the same seed gives the same draws on every
//! machine.

/// SplitMix64: small, fast, good enough for test data.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-high (bias is negligible here).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    #[inline]
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    /// One of `items`, uniformly.
    #[inline]
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Picks from a [`Table`].
    #[inline]
    pub fn from_table<T: Copy>(&mut self, t: &Table<T>) -> T {
        self.weighted_with_total(t.total, t.items)
    }

    /// Picks from `(weight, item)` pairs.
    #[inline]
    pub fn weighted<T: Copy>(&mut self, items: &[(u32, T)]) -> T {
        let total: u32 = items.iter().map(|x| x.0).sum();
        self.weighted_with_total(total, items)
    }

    /// Picks from `(weight, item)` pairs whose weights sum to `total`.
    #[inline]
    fn weighted_with_total<T: Copy>(&mut self, total: u32, items: &[(u32, T)]) -> T {
        let mut r = self.below(total as u64) as u32;
        for &(w, x) in items {
            if r < w {
                return x;
            }
            r -= w;
        }
        items[items.len() - 1].1
    }
}

/// `(weight, item)` pairs with their total, summed at compile time.
pub struct Table<T: 'static> {
    pub(crate) total: u32,
    pub(crate) items: &'static [(u32, T)],
}

pub(crate) const fn table<T>(items: &'static [(u32, T)]) -> Table<T> {
    let mut total = 0;
    let mut i = 0;
    while i < items.len() {
        total += items[i].0;
        i += 1;
    }
    Table { total, items }
}
