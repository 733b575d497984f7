//! A fixed-size, lock-free transposition table for chance nodes, shared by search threads.
//!
//! An entry is keyed by the board *and* the remaining depth, and a probe hits only on an exact match of both, so a hit
//! returns exactly what the search would recompute (with the probability cut-off disabled; with it enabled, a value
//! computed under one path probability is reused under another, the usual approximation of nneonneo/2048-ai).
//! Each slot is two `AtomicU64`: `board ^ data` and `data` (value bits and depth), so a torn write is seen as a miss.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::bitboard::Bitboard;

/// The transposition table.
pub struct TranspositionTable {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of `2^bits` slots (16 bytes each), allocated once.
    pub fn new(bits: u32) -> TranspositionTable {
        let n = 1usize << bits;
        let slots = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        TranspositionTable { slots, mask: n - 1 }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false (the table has at least one slot).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn index(&self, board: Bitboard, depth: u32) -> usize {
        let h = (board ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        ((h ^ (h >> 32)) as usize) & self.mask
    }

    /// The stored value for (board, remaining depth), if any.
    #[inline(always)]
    pub fn probe(&self, board: Bitboard, depth: u32) -> Option<f32> {
        let slot = &self.slots[self.index(board, depth)];
        let key = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        // data = value bits (low 32) | depth << 32 | 1 << 63 (occupied).
        if key ^ data == board && data >> 63 == 1 && ((data >> 32) as u32 & 0x7FFF_FFFF) == depth {
            Some(f32::from_bits(data as u32))
        } else {
            None
        }
    }

    /// Stores a value for (board, remaining depth), replacing whatever the slot held.
    #[inline(always)]
    pub fn store(&self, board: Bitboard, depth: u32, value: f32) {
        let data = value.to_bits() as u64 | ((depth as u64 & 0x7FFF_FFFF) << 32) | 1 << 63;
        let slot = &self.slots[self.index(board, depth)];
        slot[0].store(board ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}
