//! A fixed-size, lock-free transposition table for chance nodes, shared by search threads ([`BucketTable`]): 8-byte
//! entries with a signature, the depth and the sub-tree's effort, in buckets of four, replaced by effort and age. A
//! probe hits only on an exact match of key and depth, so a hit returns exactly what the search would recompute (with
//! the probability cut-off disabled); `BucketTable::probe_at_least` also accepts a value searched deeper, as
//! nneonneo/2048-ai does.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Bit layout of a [`BucketTable`] entry: the value's `f32` bits (0..32), the remaining depth (32..36), the log2 of
/// the sub-tree's effort (36..41), the age (41..44) and the signature (44..64).
const VALUE_BITS: u32 = 32;
const DEPTH_SHIFT: u32 = VALUE_BITS;
const EFFORT_SHIFT: u32 = 36;
const AGE_SHIFT: u32 = 41;
const SIG_SHIFT: u32 = 44;
/// Deepest remaining depth a [`BucketTable`] entry holds (4 bits); deeper nodes are not stored.
pub(crate) const BUCKET_MAX_DEPTH: u32 = 15;
/// Entries per bucket (a bucket is 32 bytes: two to a 64-byte cache line).
pub(crate) const BUCKET_ENTRIES: usize = 4;

/// Four entries of 64 bits, 32-byte aligned so that a bucket never straddles a cache line.
#[repr(align(32))]
struct Bucket([AtomicU64; BUCKET_ENTRIES]);

/// A transposition table of compact entries (Stockfish's layout, adapted to expectimax): each entry packs in one
/// 64-bit word the value (`f32`, exact), the remaining depth (4 bits), the sub-tree's effort (log2 of the chance nodes
/// expanded under it, 5 bits), an age (3 bits) and a 20-bit signature of the key; a key selects a bucket of
/// four entries with the low bits of a 64-bit mix of the key and checks the signature in its top bits, so
/// 20 + log2(buckets) bits of the mix must match (a false hit has a chance of about 2^-20 per probe and per entry in
/// its bucket: the price of twice the entries in the same memory, as in chess engines).
///
/// A store replaces an entry of the same key and depth, else the entry worth least: an empty one, else the one of least
/// effort less twice its age in moves (`BucketTable::new_age`), so the costly sub-trees stay. An entry is one atomic
/// word, so a write is never seen torn: lock-free among threads.
/// [`BucketTable::new_generation`] empties the table in O(1) by changing the salt mixed into every key (entries of
/// older generations then miss, and go first since they are older).
pub struct BucketTable {
    buckets: Box<[Bucket]>,
    mask: usize,
    salt: AtomicU64,
    age: AtomicU32,
}

/// A bijective 64-bit mix (the MurmurHash3 finaliser).
#[inline(always)]
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// The 5-bit effort class of a sub-tree that expanded `nodes` chance nodes: the bit length of `nodes`, at most 31.
#[inline(always)]
pub(crate) fn effort_class(nodes: u64) -> u32 {
    (64 - nodes.leading_zeros()).min(31)
}

impl BucketTable {
    /// A table of `2^bits` entries (8 bytes each, in buckets of four), allocated once; at least one
    /// bucket.
    pub fn new(bits: u32) -> BucketTable {
        let n = (1usize << bits) / BUCKET_ENTRIES;
        let n = n.max(1);
        let buckets = (0..n)
            .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
            .collect();
        BucketTable {
            buckets,
            mask: n - 1,
            salt: AtomicU64::new(0),
            age: AtomicU32::new(0),
        }
    }

    #[cfg(test)]
    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.buckets.len() * BUCKET_ENTRIES
    }

    /// Empties the table (writes every entry).
    pub(crate) fn clear(&self) {
        for b in self.buckets.iter() {
            for e in &b.0 {
                e.store(0, Ordering::Relaxed);
            }
        }
        self.salt.store(0, Ordering::Relaxed);
        self.age.store(0, Ordering::Relaxed);
    }

    /// Empties the table in O(1): a new salt makes every stored key a miss (up to the signature's false hits).
    pub fn new_generation(&self) {
        let s = self.salt.load(Ordering::Relaxed);
        self.salt
            .store(s.wrapping_add(0x9E37_79B9_7F4A_7C15) | 1, Ordering::Relaxed);
        self.new_age();
    }

    /// Ages every entry by one step (they stay valid; older entries are replaced first). Call once a move.
    pub(crate) fn new_age(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 7, Ordering::Relaxed);
    }

    /// The bucket and signature of a key.
    #[inline(always)]
    fn locate(&self, key: u64) -> (&Bucket, u64) {
        let h = mix(key ^ self.salt.load(Ordering::Relaxed));
        (&self.buckets[(h as usize) & self.mask], h >> SIG_SHIFT)
    }

    /// Asks the processor to bring the bucket of `key` into the cache, so that a probe of it soon after does not wait
    /// on memory (a max node's four chance nodes are probed one after another; their buckets are fetched together).
    /// Changes nothing else.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let (bucket, _) = self.locate(key);
            let p: *const i8 = (bucket as *const Bucket).cast();
            #[allow(unsafe_code)]
            // SAFETY: a prefetch is a hint that reads nothing and cannot fault; `p` points into the table anyway, and
            // SSE, the one feature it needs, is part of every x86_64 processor.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored value for (key, remaining depth), if any (a store replaces an entry of the same key and depth: there
    /// is at most one).
    #[inline(always)]
    pub(crate) fn probe(&self, key: u64, depth: u32) -> Option<f32> {
        let (bucket, sig) = self.locate(key);
        for e in &bucket.0 {
            let e = e.load(Ordering::Relaxed);
            if e != 0 && e >> SIG_SHIFT == sig && (e >> DEPTH_SHIFT) & 0xF == u64::from(depth) {
                return Some(f32::from_bits(e as u32));
            }
        }
        None
    }

    /// The stored value for this key searched to at least this remaining depth, if any: of several, the deepest
    /// (nneonneo/2048-ai keeps one entry a board, overwritten only by a deeper search of it), so that the value does not
    /// depend on where in its bucket each entry happens to be.
    #[inline(always)]
    pub(crate) fn probe_at_least(&self, key: u64, depth: u32) -> Option<f32> {
        let (bucket, sig) = self.locate(key);
        let mut best: Option<(u64, f32)> = None;
        for e in &bucket.0 {
            let e = e.load(Ordering::Relaxed);
            let d = (e >> DEPTH_SHIFT) & 0xF;
            if e != 0
                && e >> SIG_SHIFT == sig
                && d >= u64::from(depth)
                && best.is_none_or(|(bd, _)| d > bd)
            {
                best = Some((d, f32::from_bits(e as u32)));
            }
        }
        best.map(|(_, v)| v)
    }

    /// Stores a value for (key, remaining depth) whose sub-tree expanded `nodes` chance nodes (see the type's
    /// replacement rule). Depths above [`BUCKET_MAX_DEPTH`] are not stored.
    #[inline(always)]
    pub(crate) fn store(&self, key: u64, depth: u32, value: f32, nodes: u64) {
        if depth > BUCKET_MAX_DEPTH {
            return;
        }
        let (bucket, sig) = self.locate(key);
        let age = self.age.load(Ordering::Relaxed) as u64;
        let entry = value.to_bits() as u64
            | (depth as u64) << DEPTH_SHIFT
            | (effort_class(nodes) as u64) << EFFORT_SHIFT
            | age << AGE_SHIFT
            | sig << SIG_SHIFT;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.0.iter().enumerate() {
            let old = e.load(Ordering::Relaxed);
            if old == 0 || (old >> SIG_SHIFT == sig && (old >> DEPTH_SHIFT) & 0xF == depth as u64) {
                victim = i;
                break;
            }
            let effort = ((old >> EFFORT_SHIFT) & 31) as i32;
            let old_age = ((age + 8 - ((old >> AGE_SHIFT) & 7)) & 7) as i32;
            let worth = effort - 2 * old_age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        bucket.0[victim].store(entry, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Keys that fall in the bucket of `key` with other signatures, in rising order from `key + 1`.
    fn bucket_mates(tt: &BucketTable, key: u64, n: usize) -> Vec<u64> {
        let (bucket, sig) = tt.locate(key);
        let mut mates: Vec<u64> = Vec::new();
        let mut k = key;
        while mates.len() < n {
            k = k.wrapping_add(1);
            let (b, s) = tt.locate(k);
            if std::ptr::eq(b, bucket) && s != sig && mates.iter().all(|&m| tt.locate(m).1 != s) {
                mates.push(k);
            }
        }
        mates
    }

    proptest! {
        /// A stored entry is found with its exact value at its depth (and by an at-least probe of a lower depth),
        /// not at another depth.
        #[test]
        fn a_stored_entry_is_found(key in any::<u64>(), depth in 2u32..=BUCKET_MAX_DEPTH, value in any::<f32>(), nodes in any::<u64>()) {
            let tt = BucketTable::new(10);
            tt.store(key, depth, value, nodes);
            prop_assert_eq!(tt.probe(key, depth).map(f32::to_bits), Some(value.to_bits()));
            prop_assert_eq!(tt.probe(key, depth + 1), None);
            prop_assert_eq!(tt.probe(key, depth - 1), None);
            prop_assert_eq!(tt.probe_at_least(key, depth - 1).map(f32::to_bits), Some(value.to_bits()));
            prop_assert_eq!(tt.probe_at_least(key, depth + 1), None);
            tt.new_generation();
            prop_assert_eq!(tt.probe(key, depth), None);
        }

        /// A key of the same bucket with another signature is a miss, and both keys keep their own values.
        #[test]
        fn a_colliding_key_is_a_miss(key in any::<u64>(), v in -1e6f32..1e6, w in -1e6f32..1e6) {
            let tt = BucketTable::new(4);
            let other = bucket_mates(&tt, key, 1)[0];
            tt.store(key, 3, v, 100);
            prop_assert_eq!(tt.probe(other, 3), None);
            prop_assert_eq!(tt.probe_at_least(other, 2), None);
            tt.store(other, 3, w, 100);
            prop_assert_eq!(tt.probe(key, 3), Some(v));
            prop_assert_eq!(tt.probe(other, 3), Some(w));
        }

        /// In a full bucket a new entry replaces the entry of least effort; the costlier ones stay.
        #[test]
        fn replacement_keeps_the_costlier_entries(key in any::<u64>(), classes in proptest::sample::subsequence((1u32..=30).collect::<Vec<_>>(), 4), order in Just([0usize, 1, 2, 3]).prop_shuffle()) {
            let tt = BucketTable::new(4);
            let keys = bucket_mates(&tt, key, 5);
            for &i in &order {
                tt.store(keys[i], 4, i as f32, 1u64 << (classes[i] - 1));
            }
            tt.store(keys[4], 4, 4.0, 1);
            let cheapest = (0..4).min_by_key(|&i| classes[i]).unwrap_or(0);
            for (i, &k) in keys[..4].iter().enumerate() {
                let expected = (i != cheapest).then_some(i as f32);
                prop_assert_eq!(tt.probe(k, 4), expected);
            }
            prop_assert_eq!(tt.probe(keys[4], 4), Some(4.0));
        }
    }

    #[test]
    fn old_entries_go_before_costly_ones_and_a_key_replaces_itself() {
        let tt = BucketTable::new(4);
        let keys = bucket_mates(&tt, 77, 5);
        // An expensive entry (effort class 20) five moves old is worth 20 - 10 = 10: less than a fresh class-12 entry.
        tt.store(keys[0], 5, 0.5, 1 << 19);
        for _ in 0..5 {
            tt.new_age();
        }
        for (i, &k) in keys[1..4].iter().enumerate() {
            tt.store(k, 5, 1.0 + i as f32, 1 << 11);
        }
        tt.store(keys[4], 5, 9.0, 1);
        assert_eq!(tt.probe(keys[0], 5), None);
        for (i, &k) in keys[1..5].iter().enumerate() {
            assert_eq!(
                tt.probe(k, 5),
                Some(if i == 3 { 9.0 } else { 1.0 + i as f32 })
            );
        }
        // The same key and depth is overwritten in place, whatever its effort.
        tt.store(keys[1], 5, 7.0, 1);
        assert_eq!(tt.probe(keys[1], 5), Some(7.0));
        assert_eq!(tt.probe(keys[2], 5), Some(2.0));
        // Too deep for 4 bits: not stored.
        tt.store(keys[2], BUCKET_MAX_DEPTH + 1, 3.0, 1);
        assert_eq!(tt.probe(keys[2], BUCKET_MAX_DEPTH + 1), None);
        tt.clear();
        assert_eq!(tt.probe(keys[1], 5), None);
    }

    #[test]
    fn an_at_least_probe_takes_the_deepest_entry_of_its_key() {
        for order in [[3u32, 5, 4], [5, 3, 4], [4, 3, 5]] {
            let tt = BucketTable::new(10);
            for d in order {
                tt.store(77, d, d as f32, 1);
            }
            assert_eq!(tt.probe_at_least(77, 2), Some(5.0), "{order:?}");
            assert_eq!(tt.probe_at_least(77, 5), Some(5.0), "{order:?}");
            assert_eq!(tt.probe_at_least(77, 6), None, "{order:?}");
            assert_eq!(tt.probe(77, 3), Some(3.0), "{order:?}");
        }
    }

    #[test]
    fn effort_classes_are_bit_lengths() {
        assert_eq!(effort_class(0), 0);
        assert_eq!(effort_class(1), 1);
        assert_eq!(effort_class(1000), 10);
        assert_eq!(effort_class(u64::MAX), 31);
        assert_eq!(BucketTable::new(10).len(), 1024);
    }
}
