//! One layer: the sorted keys of every position whose free tiles sum to the same number, with an index on the keys'
//! top bits so that finding a key costs one index read and a short binary search.

use twenty48::Direction;
use twenty48::bitboard::Tables;
use twenty48::endgame::Formation;

/// The sorted, distinct keys of one layer and their index.
#[derive(Debug, Clone, Default)]
pub struct Layer {
    keys: Vec<u64>,
    /// `index[p]..index[p + 1]` is the range of keys whose top bits are `p`.
    index: Vec<u32>,
    shift: u32,
}

impl Layer {
    /// A layer of `keys` (sorted and made distinct here) of `key_bits`-bit keys.
    pub fn new(mut keys: Vec<u64>, key_bits: u32) -> Layer {
        keys.sort_unstable();
        keys.dedup();
        keys.shrink_to_fit();
        // About one index entry per key, at most 2^22 (16 MB).
        let want = (usize::BITS - keys.len().leading_zeros()).clamp(1, 22);
        let bits = want.min(key_bits);
        let shift = key_bits - bits;
        let mut index = vec![0u32; (1usize << bits) + 1];
        for &k in &keys {
            index[(k >> shift) as usize + 1] += 1;
        }
        for p in 1..index.len() {
            index[p] += index[p - 1];
        }
        Layer { keys, index, shift }
    }

    /// The keys, ascending.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when the layer holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Where `key` is in [`Layer::keys`], if it is there.
    #[inline]
    pub fn position(&self, key: u64) -> Option<usize> {
        let p = (key >> self.shift) as usize;
        let (lo, hi) = (*self.index.get(p)? as usize, self.index[p + 1] as usize);
        self.keys[lo..hi].binary_search(&key).ok().map(|i| lo + i)
    }

    /// Bytes held (keys and index).
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.index.capacity() * 4
    }
}

/// Appends to `out` the key of every position reached from a position of `from` by an allowed move that does not
/// reach the target, then a spawn of the tile of exponent `spawn` in an empty cell. `out` is sorted and made distinct
/// whenever it passes `limit` entries (the limit doubles when that frees less than half).
pub fn expand(
    formation: &Formation,
    tables: &Tables,
    from: &Layer,
    spawn: u64,
    out: &mut Vec<u64>,
    limit: &mut usize,
) {
    let n = formation.free_cells().len();
    for &key in from.keys() {
        let board = formation.board(key);
        for dir in Direction::ALL {
            let Some(after) = formation.allowed(tables, board, dir) else {
                continue;
            };
            let ak = formation.key(after);
            if formation.key_reaches_target(ak) {
                continue;
            }
            for i in 0..n {
                let shift = formation.key_shift(i);
                if (ak >> shift) & 0xF == 0 {
                    out.push(ak | spawn << shift);
                }
            }
        }
        if out.len() > *limit {
            out.sort_unstable();
            out.dedup();
            if out.len() > *limit / 2 {
                *limit *= 2;
            }
        }
    }
}
