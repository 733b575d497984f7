//! A formation: cells holding fixed large tiles, the free cells around them, and the tile to build in the free cells.
//!
//! **The fixed-tile rule.** A move is *allowed* when it changes the board and leaves every fixed cell holding its
//! fixed tile. A move that would shift a fixed tile, merge a fixed tile with anything, or merge a free tile into a
//! fixed cell is not allowed (the player may not choose it; it is not a loss in itself). A position with no allowed
//! move is a failure (success probability 0), even when the plain game could go on by breaking the formation.
//!
//! **The target.** A move whose result holds the target tile (or a larger one) in a free cell succeeds (probability 1),
//! before any spawn. Free cells of a position waiting for a move therefore always hold tiles below the target.
//!
//! **A goal cell** (`*` in the picture, at most one, a free cell): the target must be built there. A move whose result
//! holds the target (or more) in the goal cell *reaches the goal*; one that holds it only in other free cells ends the
//! position as a failure (probability 0). A reached goal is worth 1, or, when the table is *chained* to the table of
//! the next stage (whose fixed cells are this formation's and the goal cell), that table's value of the result: the
//! mean over its empty cells of the next table's values after a spawn, 1 if a free cell of the next formation holds
//! its target (`parlor-lab`'s `Solver::chained`).
//!
//! Spawns land on the empty cells, which are always free cells: a 2 with probability `1 - four_chance`, a 4 otherwise.
//!
//! A position is a [`Bitboard`]; its *key* packs only the free cells' nibbles, the first free cell (in row-major
//! order) in the most significant nibble, so that sorting keys sorts positions and a key's top bits index a layer.

use std::fmt;

use crate::bitboard::{Bitboard, Tables};
use crate::direction::Direction;

/// Why a formation or target was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormationError {
    /// The picture is not four rows of four cells separated by `/`.
    #[error(
        "a formation is four rows of four cells separated by '/' ('.' free, '*' the free goal cell, a hex digit 1-f a fixed tile's exponent), got {0:?}"
    )]
    BadPicture(String),
    /// More than one goal cell.
    #[error("a formation has at most one goal cell '*', got {0:?}")]
    TwoGoals(String),
    /// Fewer than two free cells.
    #[error("a formation needs at least two free cells")]
    TooFewFree,
    /// The target is not a power of two from 8 to 32768.
    #[error("the target must be a power of two from 8 to 32768, got {0}")]
    BadTarget(u64),
}

/// Fixed tiles, free cells and a target (see the module documentation for the rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formation {
    /// The fixed tiles' exponents at their cells, 0 in the free cells.
    fixed: Bitboard,
    /// 0xF in every fixed cell's nibble.
    fixed_mask: Bitboard,
    /// The free cells (index `4 * row + col`), ascending.
    free: Vec<u8>,
    /// The exponent of the tile to build.
    target: u8,
    /// The free cell where the target must be built, if any.
    goal: Option<u8>,
}

impl Formation {
    /// A formation from a picture of four rows separated by `/`: `.` a free cell, a hex digit `1`-`f` a fixed tile of
    /// that exponent (`b` = 2048, `f` = 32768); the target is a tile value (`256`).
    ///
    /// ```
    /// use twenty48::endgame::Formation;
    ///
    /// // The top two rows hold a snake of large tiles; build a 256 in the bottom eight cells.
    /// let f = Formation::parse("fedc/89ab/..../....", 256).unwrap();
    /// assert_eq!(f.free_cells().len(), 8);
    /// assert_eq!(f.to_string(), "fedc/89ab/..../.... 256");
    /// assert!(Formation::parse("fedc/89ab/..../...", 256).is_err());
    /// ```
    pub fn parse(picture: &str, target: u64) -> Result<Formation, FormationError> {
        let bad = || FormationError::BadPicture(picture.to_string());
        let rows: Vec<&str> = picture.trim().split('/').collect();
        if rows.len() != 4 {
            return Err(bad());
        }
        let (mut fixed, mut fixed_mask, mut free, mut goal) = (0u64, 0u64, Vec::new(), None);
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != 4 {
                return Err(bad());
            }
            for (c, ch) in cells.into_iter().enumerate() {
                let cell = 4 * r + c;
                match ch {
                    '.' => free.push(cell as u8),
                    '*' if goal.is_none() => {
                        goal = Some(cell as u8);
                        free.push(cell as u8);
                    }
                    '*' => return Err(FormationError::TwoGoals(picture.to_string())),
                    _ => {
                        let e = ch.to_digit(16).filter(|&e| e >= 1).ok_or_else(bad)?;
                        fixed |= (e as u64) << (4 * cell);
                        fixed_mask |= 0xF << (4 * cell);
                    }
                }
            }
        }
        if free.len() < 2 {
            return Err(FormationError::TooFewFree);
        }
        if !(8..=32768).contains(&target) || !target.is_power_of_two() {
            return Err(FormationError::BadTarget(target));
        }
        Ok(Formation {
            fixed,
            fixed_mask,
            free,
            target: target.trailing_zeros() as u8,
            goal,
        })
    }

    /// The fixed tiles (exponents at their cells, 0 elsewhere).
    pub fn fixed(&self) -> Bitboard {
        self.fixed
    }

    /// 0xF in every fixed cell's nibble.
    pub fn fixed_mask(&self) -> Bitboard {
        self.fixed_mask
    }

    /// The free cells (`4 * row + col`), ascending.
    pub fn free_cells(&self) -> &[u8] {
        &self.free
    }

    /// The exponent of the target tile.
    pub(crate) fn target_exponent(&self) -> u8 {
        self.target
    }

    /// The goal cell (`4 * row + col`), if the formation has one.
    pub fn goal(&self) -> Option<u8> {
        self.goal
    }

    /// True when `board` holds the fixed tiles in their cells and only tiles below the target in the free cells.
    pub fn holds(&self, board: Bitboard) -> bool {
        board & self.fixed_mask == self.fixed
            && self
                .free
                .iter()
                .all(|&c| ((board >> (4 * c)) & 0xF) < self.target as u64)
    }

    /// The key of a position: the free cells' nibbles, the first free cell most significant.
    #[inline]
    pub fn key(&self, board: Bitboard) -> u64 {
        let mut k = 0;
        for &c in &self.free {
            k = k << 4 | (board >> (4 * c)) & 0xF;
        }
        k
    }

    /// The position of a key (the inverse of [`Formation::key`]).
    #[inline]
    pub fn board(&self, key: u64) -> Bitboard {
        let n = self.free.len();
        let mut b = self.fixed;
        for (i, &c) in self.free.iter().enumerate() {
            b |= ((key >> (4 * (n - 1 - i))) & 0xF) << (4 * c);
        }
        b
    }

    /// The shift of free cell number `i` (in [`Formation::free_cells`] order) inside a key.
    #[inline]
    pub fn key_shift(&self, i: usize) -> u32 {
        4 * (self.free.len() - 1 - i) as u32
    }

    /// The sum of the free cells' tiles of a key.
    pub fn key_sum(&self, key: u64) -> u32 {
        (0..self.free.len())
            .map(|i| match (key >> (4 * i)) & 0xF {
                0 => 0,
                e => 1u32 << e,
            })
            .sum()
    }

    /// True when a key's free cells hold the target or a larger tile.
    #[inline]
    pub fn key_reaches_target(&self, key: u64) -> bool {
        (0..self.free.len()).any(|i| ((key >> (4 * i)) & 0xF) >= self.target as u64)
    }

    /// True when a key that reaches the target ([`Formation::key_reaches_target`]) reaches the goal: the goal cell holds
    /// the target or more, or the formation has no goal cell.
    #[inline]
    pub fn key_reaches_goal(&self, key: u64) -> bool {
        self.goal.is_none_or(|g| {
            let i = self.free.iter().position(|&c| c == g).unwrap_or(0);
            (key >> self.key_shift(i)) & 0xF >= self.target as u64
        })
    }

    /// The result of `dir` on `board` when the fixed-tile rule allows it, else `None`.
    #[inline]
    pub fn allowed(&self, tables: &Tables, board: Bitboard, dir: Direction) -> Option<Bitboard> {
        let after = tables.slide(board, dir);
        (after != board && after & self.fixed_mask == self.fixed).then_some(after)
    }

    /// The starting positions: every placement of two tiles (each a 2 or a 4) in two free cells, as a fresh game on
    /// the free area, with each one's probability (the two spawns of a new game: cells uniform, tiles 2 or 4).
    pub fn starts(&self, four_chance: f64) -> Vec<(Bitboard, f64)> {
        let n = self.free.len();
        let pairs = (n * (n - 1) / 2) as f64;
        let mut out = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for (ei, pi) in [(1u64, 1.0 - four_chance), (2, four_chance)] {
                    for (ej, pj) in [(1u64, 1.0 - four_chance), (2, four_chance)] {
                        let b = self.fixed
                            | ei << (4 * self.free[i] as u32)
                            | ej << (4 * self.free[j] as u32);
                        out.push((b, pi * pj / pairs));
                    }
                }
            }
        }
        out
    }

    /// A number that changes with the formation and target (it guards checkpoints against another formation's).
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::endgame::checksum::Checksum::new();
        h.add(self.fixed);
        h.add(self.fixed_mask);
        h.add(self.target as u64);
        if let Some(g) = self.goal {
            // Formations without a goal keep the fingerprint of the folders built before goals existed.
            h.add(0x60A1_0000 | g as u64);
        }
        h.finish()
    }
}

impl fmt::Display for Formation {
    /// The picture [`Formation::parse`] reads, then the target (`fedc/89ab/..../.... 256`).
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..4 {
            if r > 0 {
                write!(out, "/")?;
            }
            for c in 0..4 {
                let cell = 4 * r + c;
                match (self.fixed >> (4 * cell)) & 0xF {
                    0 if self.goal == Some(cell as u8) => write!(out, "*")?,
                    0 => write!(out, ".")?,
                    e => write!(out, "{e:x}")?,
                }
            }
        }
        write!(out, " {}", 1u64 << self.target)
    }
}
