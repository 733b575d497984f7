//! A real board read in a formation: it matches under any of the board's eight symmetries when the formation's fixed
//! cells hold tiles of at least the target, no two side by side equal (so none of them can merge or be merged into,
//! and a table's rule is the game's), and the free cells hold tiles below the target. A table's value does not depend
//! on which large tiles those are, so the board is read with the formation's own fixed tiles.

use crate::bitboard::{Bitboard, transpose};
use crate::direction::Direction;
use crate::endgame::formation::Formation;

/// Mirrors each row (column c to 3 - c).
fn flip_h(b: Bitboard) -> Bitboard {
    ((b & 0x000F_000F_000F_000F) << 12)
        | ((b & 0x00F0_00F0_00F0_00F0) << 4)
        | ((b & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((b & 0xF000_F000_F000_F000) >> 12)
}

/// Mirrors the rows (row r to 3 - r).
fn flip_v(b: Bitboard) -> Bitboard {
    (b << 48)
        | ((b << 16) & 0x0000_FFFF_0000_0000)
        | ((b >> 16) & 0x0000_0000_FFFF_0000)
        | (b >> 48)
}

/// Symmetry `k` (0..8) of the board: mirror the rows' cells if bit 0, mirror the rows if bit 1, then transpose if
/// bit 2.
pub fn symmetry(b: Bitboard, k: usize) -> Bitboard {
    let b = if k & 1 != 0 { flip_h(b) } else { b };
    let b = if k & 2 != 0 { flip_v(b) } else { b };
    if k & 4 != 0 { transpose(b) } else { b }
}

/// For each symmetry `k`, the direction on the real board of each direction on the symmetric board (by
/// [`Direction::index`]): `symmetry(slide(b, maps[k][d]), k) == slide(symmetry(b, k), d)`.
pub(crate) fn direction_maps() -> [[Direction; 4]; 8] {
    // One tile at (1, 2): its four slides end in four different places, so each direction is told apart.
    let probe: Bitboard = 1 << (4 * 6);
    let mut maps = [[Direction::Left; 4]; 8];
    for (k, map) in maps.iter_mut().enumerate() {
        for d in Direction::ALL {
            let want = crate::bitboard::slide(symmetry(probe, k), d);
            if let Some(real) = Direction::ALL
                .into_iter()
                .find(|&r| symmetry(crate::bitboard::slide(probe, r), k) == want)
            {
                map[d.index()] = real;
            }
        }
    }
    maps
}

/// `board` read in formation `f` under symmetry `k` (with the formation's own fixed tiles) when its fixed cells match
/// (each holding a tile of at least the target, no two side by side equal), with whether a free cell holds the target
/// or more.
pub fn read_in(f: &Formation, board: Bitboard, k: usize) -> Option<(Bitboard, bool)> {
    let s = symmetry(board, k);
    let target = f.target_exponent() as u64;
    let fixed = f.fixed_mask();
    let mut reached = false;
    for cell in 0..16 {
        let e = (s >> (4 * cell)) & 0xF;
        let is_fixed = (fixed >> (4 * cell)) & 0xF != 0;
        if !is_fixed {
            reached |= e >= target;
            continue;
        }
        if e < target {
            return None;
        }
        let right = cell % 4 < 3 && (fixed >> (4 * (cell + 1))) & 0xF != 0;
        if right && (s >> (4 * (cell + 1))) & 0xF == e {
            return None;
        }
        let below = cell < 12 && (fixed >> (4 * (cell + 4))) & 0xF != 0;
        if below && (s >> (4 * (cell + 4))) & 0xF == e {
            return None;
        }
    }
    Some(((s & !fixed) | f.fixed(), reached))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::slide;

    #[test]
    fn symmetries_carry_the_moves() {
        let maps = direction_maps();
        let generic = 0x0123_4567_89AB_CDEFu64;
        let images: std::collections::HashSet<u64> = (0..8).map(|k| symmetry(generic, k)).collect();
        assert_eq!(images.len(), 8, "eight different symmetries");
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Small exponents, some cells empty.
            let b = x & 0x3333_3333_3333_3333;
            for (k, map) in maps.iter().enumerate() {
                for d in Direction::ALL {
                    assert_eq!(
                        symmetry(slide(b, map[d.index()]), k),
                        slide(symmetry(b, k), d),
                        "{b:016x} symmetry {k} {d:?}"
                    );
                }
            }
        }
    }
}
