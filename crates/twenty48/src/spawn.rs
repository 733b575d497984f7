//! The spawn rule and its random draws.
//!
//! Each spawn makes exactly two draws of `next_u64` from the game's `ChaCha8Rng`:
//! 1. the cell: the empty cells are listed in row-major order and the index is `(x * n) >> 64` (128-bit product, `n`
//!    the number of empty cells);
//! 2. the value: a 4 if `(y >> 11) / 2^53 < four_chance`, else a 2.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::board::Board;

/// Places one tile on a uniformly chosen empty cell; returns (row, col, value), or `None` if the board is full.
pub fn spawn(
    board: &mut Board,
    rng: &mut ChaCha8Rng,
    four_chance: f64,
) -> Option<(usize, usize, u64)> {
    let empty = board.empty_cells();
    if empty.is_empty() {
        return None;
    }
    let index = ((rng.next_u64() as u128 * empty.len() as u128) >> 64) as usize;
    let (r, c) = empty[index];
    let exp = if unit_f64(rng.next_u64()) < four_chance {
        2
    } else {
        1
    };
    board.set_exponent(r, c, exp);
    Some((r, c, 1 << exp))
}

/// Maps a random `u64` to a uniform float in [0, 1) with 53 bits of precision.
pub(crate) fn unit_f64(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
