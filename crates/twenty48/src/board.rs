//! The general N x N board (N from 3 to 8) and its exact slide.

use std::fmt;

use crate::bitboard;
use crate::direction::Direction;
use crate::error::{RulesError, SlideError};

/// Smallest supported board size.
pub(crate) const MIN_SIZE: usize = 3;
/// Largest supported board size.
pub(crate) const MAX_SIZE: usize = 8;
/// Largest exponent a cell may hold (2^63 is the largest tile that fits a `u64`).
pub(crate) const MAX_EXPONENT: u8 = 63;

/// An exact N x N board. Each cell holds an exponent: 0 is empty, `k` is the tile 2^k.
///
/// Tiles are never capped: 65536 (2^16) and 131072 (2^17) are represented exactly.
///
/// ```
/// use twenty48::{Board, Direction};
///
/// let board: Board = "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2".parse().unwrap();
/// let slide = board.slide(Direction::Left);
/// assert_eq!(slide.board.to_string(), "4,0,0,0/4,0,0,0/0,0,0,0/2,0,0,0");
/// assert_eq!(slide.gained, 4);
/// assert!(slide.moved);
/// assert_eq!(slide.merged, vec![(0, 0)]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    cells: [u8; MAX_SIZE * MAX_SIZE],
}

/// The outcome of sliding a board (no spawn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slide {
    /// The board after the slide.
    pub board: Board,
    /// Points gained: the sum of the values of the tiles created by merges.
    pub gained: u64,
    /// Whether anything moved or merged.
    pub moved: bool,
    /// Cells (row, col) holding a tile created by a merge during this slide, in row-major order.
    pub merged: Vec<(usize, usize)>,
}

impl Board {
    /// An empty board of `size` x `size` cells (3 to 8).
    pub fn new(size: usize) -> Result<Board, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError::BadSize(size));
        }
        Ok(Board {
            size: size as u8,
            cells: [0; MAX_SIZE * MAX_SIZE],
        })
    }

    /// Builds a board from rows of exponents (0 = empty). `None` if the rows are not square, the size is not 3..=8
    /// or an exponent exceeds 63.
    pub fn from_exponents(rows: &[Vec<u8>]) -> Option<Board> {
        let mut b = Board::new(rows.len()).ok()?;
        for (r, row) in rows.iter().enumerate() {
            if row.len() != rows.len() {
                return None;
            }
            for (c, &e) in row.iter().enumerate() {
                if e > MAX_EXPONENT {
                    return None;
                }
                b.cells[r * MAX_SIZE + c] = e;
            }
        }
        Some(b)
    }

    /// Number of rows (and of columns).
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The exponent at (row, col): 0 if empty, `k` for the tile 2^k. Panics if out of range.
    pub fn exponent(&self, row: usize, col: usize) -> u8 {
        assert!(
            row < self.size() && col < self.size(),
            "cell ({row}, {col}) outside the board"
        );
        self.cells[row * MAX_SIZE + col]
    }

    /// The tile value at (row, col), 0 if empty. Panics if out of range.
    pub fn tile(&self, row: usize, col: usize) -> u64 {
        exp_value(self.exponent(row, col))
    }

    /// Sets the exponent at (row, col) (0 empties the cell). Panics if out of range or `exp > MAX_EXPONENT`.
    pub fn set_exponent(&mut self, row: usize, col: usize, exp: u8) {
        assert!(
            row < self.size() && col < self.size(),
            "cell ({row}, {col}) outside the board"
        );
        assert!(exp <= MAX_EXPONENT, "exponent {exp} too large");
        self.cells[row * MAX_SIZE + col] = exp;
    }

    /// Empty cells (row, col) in row-major order.
    pub fn empty_cells(&self) -> Vec<(usize, usize)> {
        let n = self.size();
        (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| self.cells[r * MAX_SIZE + c] == 0)
            .collect()
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.rows().flatten().filter(|&&e| e == 0).count()
    }

    /// The largest tile value (0 on an empty board).
    pub fn max_tile(&self) -> u64 {
        exp_value(self.max_exponent())
    }

    /// The largest exponent (0 on an empty board).
    pub fn max_exponent(&self) -> u8 {
        self.rows().flatten().copied().max().unwrap_or(0)
    }

    /// The sum of all tile values (saturating).
    pub fn tile_sum(&self) -> u64 {
        self.rows()
            .flatten()
            .fold(0u64, |s, &e| s.saturating_add(exp_value(e)))
    }

    /// The rows of exponents, top to bottom.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let n = self.size();
        self.cells.chunks(MAX_SIZE).take(n).map(move |r| &r[..n])
    }

    /// True when no slide can be made: no cell is empty and no two orthogonally adjacent tiles are equal, or every
    /// slide left would make what cannot be held (see [`Board::try_slide`]).
    pub fn is_game_over(&self) -> bool {
        // A refused slide needs a 2^63 pair, or points of 2^64: at most 32 merges a slide (8x8), so some merge of
        // at least 2^59, from tiles of 2^58 or more. Below that the quick test is exact.
        if self.cells.iter().any(|&e| e >= MAX_EXPONENT - 5) {
            return !Direction::ALL.into_iter().any(|d| self.can_slide(d));
        }
        let n = self.size();
        for r in 0..n {
            for c in 0..n {
                let e = self.cells[r * MAX_SIZE + c];
                if e == 0 {
                    return false;
                }
                if c + 1 < n && self.cells[r * MAX_SIZE + c + 1] == e {
                    return false;
                }
                if r + 1 < n && self.cells[(r + 1) * MAX_SIZE + c] == e {
                    return false;
                }
            }
        }
        true
    }

    /// Whether sliding in `dir` would move or merge anything (a slide [`Board::try_slide`] refuses cannot be made).
    pub fn can_slide(&self, dir: Direction) -> bool {
        match self.to_bitboard_exact() {
            Some(b) => bitboard::slide(b, dir) != b,
            None => self.slide_general(dir).moved,
        }
    }

    /// Slides every tile in `dir` (no spawn), or says why that slide cannot be made: a merge of two 2^63 tiles
    /// (2^64 cannot be held: [`SlideError::TileTooLarge`]) or points of 2^64 or more ([`SlideError::PointsTooLarge`]).
    /// A refused slide changes nothing. This is the one place the rule is decided; [`Board::slide`] and
    /// [`Board::slid`] follow it.
    pub fn try_slide(&self, dir: Direction) -> Result<Slide, SlideError> {
        if self.to_bitboard_exact().is_some() {
            // Tiles of at most 2^15: nothing can be too large.
            return Ok(self.slide(dir));
        }
        let mut out = *self;
        let mut merged = Vec::new();
        let gained = self.slide_into(dir, &mut out, Some(&mut merged))?;
        merged.sort_unstable();
        let moved = out != *self;
        Ok(Slide {
            board: out,
            gained,
            moved,
            merged,
        })
    }

    /// Slides every tile in `dir` (no spawn). A slide [`Board::try_slide`] refuses leaves the board as it is
    /// (`moved` false, nothing gained).
    ///
    /// A 4x4 board whose exponents all fit in 4 bits (tiles up to 32768, with at most one 32768 so that no merge can
    /// overflow 4 bits) takes the table-driven [`bitboard`] path; every other board takes [`Board::slide_general`].
    /// Both give identical results.
    pub fn slide(&self, dir: Direction) -> Slide {
        match self.to_bitboard_exact() {
            Some(b) => {
                let t = bitboard::tables();
                let (after, gained, merged) = t.slide_detailed(b, dir);
                Slide {
                    board: Board::from_bitboard(after),
                    gained,
                    moved: after != b,
                    merged,
                }
            }
            None => self.slide_general(dir),
        }
    }

    /// The board after sliding in `dir` and the points gained, without the list of merged cells (no allocation).
    pub fn slid(&self, dir: Direction) -> (Board, u64) {
        match self.to_bitboard_exact() {
            Some(b) => {
                let t = bitboard::tables();
                (Board::from_bitboard(t.slide(b, dir)), t.score(b, dir))
            }
            None => {
                let mut out = *self;
                match self.slide_into(dir, &mut out, None) {
                    Ok(gained) => (out, gained),
                    Err(_) => (*self, 0),
                }
            }
        }
    }

    /// The general slide, for any size and any exponents (the reference implementation).
    pub fn slide_general(&self, dir: Direction) -> Slide {
        let mut out = *self;
        let mut merged = Vec::new();
        let Ok(gained) = self.slide_into(dir, &mut out, Some(&mut merged)) else {
            // Refused (see `try_slide`): nothing changes.
            return Slide {
                board: *self,
                gained: 0,
                moved: false,
                merged: Vec::new(),
            };
        };
        merged.sort_unstable();
        let moved = out != *self;
        Slide {
            board: out,
            gained,
            moved,
            merged,
        }
    }

    fn slide_into(
        &self,
        dir: Direction,
        out: &mut Board,
        mut merged: Option<&mut Vec<(usize, usize)>>,
    ) -> Result<u64, SlideError> {
        let n = self.size();
        out.cells = [0; MAX_SIZE * MAX_SIZE];
        let mut gained = 0u64;
        let mut points_too_large = false;
        for line in 0..n {
            // Cell k of this line, counted from the wall the tiles move toward.
            let pos = |k: usize| -> (usize, usize) {
                match dir {
                    Direction::Left => (line, k),
                    Direction::Right => (line, n - 1 - k),
                    Direction::Up => (k, line),
                    Direction::Down => (n - 1 - k, line),
                }
            };
            let mut tiles = [0u8; MAX_SIZE];
            let mut count = 0;
            for k in 0..n {
                let (r, c) = pos(k);
                let e = self.cells[r * MAX_SIZE + c];
                if e != 0 {
                    tiles[count] = e;
                    count += 1;
                }
            }
            let (mut i, mut k) = (0, 0);
            while i < count {
                let (r, c) = pos(k);
                if i + 1 < count && tiles[i] == tiles[i + 1] {
                    if tiles[i] >= MAX_EXPONENT {
                        return Err(SlideError::TileTooLarge);
                    }
                    let e = tiles[i] + 1;
                    out.cells[r * MAX_SIZE + c] = e;
                    // Points past u64 refuse the slide too, but a tile too large anywhere is the reason given.
                    match gained.checked_add(exp_value(e)) {
                        Some(g) => gained = g,
                        None => points_too_large = true,
                    }
                    if let Some(m) = merged.as_deref_mut() {
                        m.push((r, c));
                    }
                    i += 2;
                } else {
                    out.cells[r * MAX_SIZE + c] = tiles[i];
                    i += 1;
                }
                k += 1;
            }
        }
        if points_too_large {
            return Err(SlideError::PointsTooLarge);
        }
        Ok(gained)
    }

    /// The 4x4 bitboard (4 bits per cell, cell (r, c) at bits `4 * (4 * r + c)`), if this is a 4x4 board whose
    /// exponents all fit in 4 bits (tiles up to 32768).
    pub fn to_bitboard(&self) -> Option<u64> {
        if self.size != 4 {
            return None;
        }
        let mut b = 0u64;
        for r in 0..4 {
            for c in 0..4 {
                let e = self.cells[r * MAX_SIZE + c];
                if e > 15 {
                    return None;
                }
                b |= (e as u64) << (4 * (4 * r + c));
            }
        }
        Some(b)
    }

    /// Like [`Board::to_bitboard`], but also `None` when two 32768 tiles could merge into 65536, which 4 bits cannot
    /// hold: the bitboard slide is exact on every board this returns.
    pub fn to_bitboard_exact(&self) -> Option<u64> {
        let b = self.to_bitboard()?;
        let fifteens = (0..16).filter(|i| (b >> (4 * i)) & 0xF == 15).count();
        (fifteens <= 1).then_some(b)
    }

    /// The 4x4 board held by a bitboard.
    pub fn from_bitboard(b: u64) -> Board {
        let mut out = Board {
            size: 4,
            cells: [0; MAX_SIZE * MAX_SIZE],
        };
        for r in 0..4 {
            for c in 0..4 {
                out.cells[r * MAX_SIZE + c] = ((b >> (4 * (4 * r + c))) & 0xF) as u8;
            }
        }
        out
    }
}

/// The value of the tile with exponent `e` (0 for empty, saturating at `u64::MAX` beyond 2^63).
pub fn exp_value(e: u8) -> u64 {
    match e {
        0 => 0,
        1..=63 => 1u64 << e,
        _ => u64::MAX,
    }
}

impl fmt::Display for Board {
    /// The board notation: rows top to bottom joined by `/`, cells by `,`, `0` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.rows().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for (c, &e) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", exp_value(e))?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}
