//! The memo of a search: the node results kept by candidate set, one thread's own or shared in locked shards.

use super::MEMO_CAP;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::hash::Hasher;
use std::sync::Arc;

/// A small fast hasher (FxHash) for the memo.
#[derive(Default, Clone, Copy)]
pub(super) struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Entry {
    Exact(u32, u32),
    Lower(u32),
}

/// A memo key: guesses left, the symmetry group's fingerprint (0 on one thread, see [`Sym::fingerprint`]),
/// the candidates.
pub(super) type Key = (u8, u64, Vec<u32>);
pub(super) type Map = HashMap<Key, Entry, BuildHasherDefault<Fx>>;

/// Locked parts of a memo shared between threads (a key's part chosen by its hash).
pub(super) const SHARDS: usize = 64;

/// The memo of a search: its own, or shared by the threads searching one problem.
pub(super) enum Memo {
    Local(Map),
    Shared(Arc<SharedMemo>),
}

/// A memo shared between threads: [`SHARDS`] maps, each behind its own lock.
pub(super) struct SharedMemo {
    shards: Vec<std::sync::Mutex<Map>>,
}

impl SharedMemo {
    pub(super) fn new() -> SharedMemo {
        SharedMemo {
            shards: (0..SHARDS).map(|_| Default::default()).collect(),
        }
    }

    pub(super) fn shard(&self, key: &Key) -> std::sync::MutexGuard<'_, Map> {
        use std::hash::BuildHasher;
        let i = (BuildHasherDefault::<Fx>::default().hash_one(key) >> 58) as usize % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Memo {
    pub(super) fn get(&self, key: &Key) -> Option<Entry> {
        match self {
            Memo::Local(m) => m.get(key).copied(),
            Memo::Shared(m) => m.shard(key).get(key).copied(),
        }
    }

    pub(super) fn insert(&mut self, key: Key, entry: Entry) {
        match self {
            Memo::Local(m) => {
                if m.len() >= MEMO_CAP {
                    m.clear();
                }
                m.insert(key, entry);
            }
            Memo::Shared(m) => {
                let mut shard = m.shard(&key);
                if shard.len() >= MEMO_CAP / SHARDS {
                    shard.clear();
                }
                // Another thread may have stored the same node meanwhile: an exact cost is kept,
                // and of two lower bounds the higher.
                let entry = match (shard.get(&key), entry) {
                    (Some(&Entry::Exact(v, g)), _) => Entry::Exact(v, g),
                    (Some(&Entry::Lower(a)), Entry::Lower(b)) => Entry::Lower(a.max(b)),
                    (_, e) => e,
                };
                shard.insert(key, entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shared memo keeps an exact entry over a later lower bound, and the higher of two bounds.
    #[test]
    fn shared_memo_keeps_the_stronger_entry() {
        let mut memo = Memo::Shared(Arc::new(SharedMemo::new()));
        let key: Key = (3, 0, vec![1, 2, 3]);
        memo.insert(key.clone(), Entry::Lower(10));
        memo.insert(key.clone(), Entry::Lower(8));
        assert!(matches!(memo.get(&key), Some(Entry::Lower(10))));
        memo.insert(key.clone(), Entry::Exact(12, 7));
        memo.insert(key.clone(), Entry::Lower(11));
        assert!(matches!(memo.get(&key), Some(Entry::Exact(12, 7))));
        assert!(memo.get(&(2, 0, vec![1, 2, 3])).is_none());
    }
}
