//! A fixed-size, lock-free transposition table for chance nodes, shared by search threads.
//!
//! A slot is chosen by the board alone and holds one board's value with the remaining depth it was searched to and
//! the table's generation when it was stored. [`TranspositionTable::probe`] hits only on an exact match of board and
//! depth, so a hit returns exactly what the search would recompute (with the probability cut-off disabled; with it
//! enabled, a value computed under one path probability is reused under another, the usual approximation of
//! nneonneo/2048-ai). [`TranspositionTable::probe_at_least`] also accepts a value searched deeper, as nneonneo/2048-ai
//! does. Entries of an older generation are misses: [`TranspositionTable::new_generation`] empties the table in O(1).
//! Each slot is two `AtomicU64`: `board ^ data` and `data` (value bits, depth, generation), so a torn write is seen as
//! a miss.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::bitboard::Bitboard;

/// Generations are stored in 22 bits.
const GEN_MASK: u32 = (1 << 22) - 1;

/// The transposition table.
pub struct TranspositionTable {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
    generation: AtomicU32,
}

impl TranspositionTable {
    /// A table of `2^bits` slots (16 bytes each), allocated once.
    pub fn new(bits: u32) -> TranspositionTable {
        let n = 1usize << bits;
        let slots = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        TranspositionTable {
            slots,
            mask: n - 1,
            generation: AtomicU32::new(0),
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false (the table has at least one slot).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties the table (writes every slot).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Empties the table in O(1) by starting a new generation (a full [`TranspositionTable::clear`] every 2^22 calls).
    pub fn new_generation(&self) {
        let g = self.generation.load(Ordering::Relaxed) + 1;
        if g > GEN_MASK {
            self.clear();
        } else {
            self.generation.store(g, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn index(&self, board: Bitboard) -> usize {
        let h = board.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        ((h ^ (h >> 29)) as usize) & self.mask
    }

    /// The stored (value, depth) for this board in the current generation, if any.
    #[inline(always)]
    fn lookup(&self, board: Bitboard) -> Option<(f32, u32)> {
        let slot = &self.slots[self.index(board)];
        let key = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        // data = value bits (low 32) | depth << 32 (8 bits) | generation << 40 (22 bits) | 1 << 63 (occupied).
        let generation = self.generation.load(Ordering::Relaxed);
        (key ^ data == board && data >> 63 == 1 && ((data >> 40) as u32 & GEN_MASK) == generation)
            .then(|| (f32::from_bits(data as u32), (data >> 32) as u32 & 0xFF))
    }

    /// The stored value for (board, remaining depth), if any.
    #[inline(always)]
    pub fn probe(&self, board: Bitboard, depth: u32) -> Option<f32> {
        self.lookup(board)
            .and_then(|(v, d)| (d == depth.min(255)).then_some(v))
    }

    /// The stored value for this board searched to at least this remaining depth, if any.
    #[inline(always)]
    pub fn probe_at_least(&self, board: Bitboard, depth: u32) -> Option<f32> {
        self.lookup(board)
            .and_then(|(v, d)| (d >= depth.min(255)).then_some(v))
    }

    /// Stores a value for (board, remaining depth), replacing whatever the slot held.
    #[inline(always)]
    pub fn store(&self, board: Bitboard, depth: u32, value: f32) {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let data = value.to_bits() as u64
            | (depth.min(255) as u64) << 32
            | (generation as u64) << 40
            | 1 << 63;
        let slot = &self.slots[self.index(board)];
        slot[0].store(board ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_at_least_probes_and_generations() {
        let tt = TranspositionTable::new(8);
        tt.store(0x1234, 3, 1.5);
        assert_eq!(tt.probe(0x1234, 3), Some(1.5));
        assert_eq!(tt.probe(0x1234, 2), None);
        assert_eq!(tt.probe_at_least(0x1234, 2), Some(1.5));
        assert_eq!(tt.probe_at_least(0x1234, 4), None);
        assert_eq!(tt.probe(0x1235, 3), None);
        tt.new_generation();
        assert_eq!(tt.probe(0x1234, 3), None);
        tt.store(0x1234, 5, 2.5);
        assert_eq!(tt.probe_at_least(0x1234, 5), Some(2.5));
        tt.clear();
        assert_eq!(tt.probe_at_least(0x1234, 1), None);
    }
}
