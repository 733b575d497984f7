//! Squares and the eight step directions.
//!
//! **Orientation.** Parlor draws the board with row 0 (Black's home) at the *bottom* and the last row (White's home)
//! at the top, like a chess diagram seen from Black's side. Squares are named like chess squares: a column letter
//! (`a` = column 0, at the left) and a row number counted from 1 at the bottom, so `a1` is row 0, column 0 and `c1`
//! is the middle of Black's home row on the standard board.
//!
//! Directions keep the seed's compass *as drawn on screen* (vi keys):
//!
//! ```text
//! y   k   u        k = up    (row + 1, toward White's home)
//!   \ | /          j = down  (row - 1, toward Black's home)
//! h - * - l        h = left  (column - 1), l = right (column + 1)
//!   / | \          y, u, b, n = the diagonals between them
//! b   j   n
//! ```
//!
//! (The seed prints row 0 at the top, so its `k` means row - 1; Parlor turns the picture over so that the first
//! player sits at the bottom, and keeps `k` meaning "up on the screen".) Black moves forward with `y k u`, White with
//! `b j n`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::Dims;

/// Internal bit layout: index = (row + 1) * STRIDE + col, so the rows beyond both home rows fit in a u64.
pub(crate) const STRIDE: i32 = 8;

/// A square of the board, by row (0 = Black's home row) and column (0 = left).
///
/// ```
/// use nocca::Square;
/// let s: Square = "c1".parse().unwrap();
/// assert_eq!((s.row(), s.col()), (0, 2));
/// assert_eq!(s.to_string(), "c1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `row`, `col` if both are within the largest board (6 rows, 5 columns).
    pub const fn new(row: usize, col: usize) -> Option<Square> {
        if row < Dims::MAX_ROWS && col < Dims::MAX_COLS {
            Some(Square(((row as i32 + 1) * STRIDE + col as i32) as u8))
        } else {
            None
        }
    }

    /// Row, 0 = Black's home row.
    #[inline]
    pub const fn row(self) -> usize {
        (self.0 as i32 / STRIDE - 1) as usize
    }

    /// Column, 0 = left (`a`).
    #[inline]
    pub const fn col(self) -> usize {
        (self.0 as i32 % STRIDE) as usize
    }

    /// Whether the square lies on a board of these dimensions.
    pub const fn on(self, dims: Dims) -> bool {
        self.row() < dims.rows() && self.col() < dims.cols()
    }

    /// The internal bit index.
    #[inline]
    pub(crate) const fn index(self) -> u32 {
        self.0 as u32
    }

    /// From an internal bit index (must be a valid board index).
    #[inline]
    pub(crate) const fn from_index(i: u32) -> Square {
        Square(i as u8)
    }

    /// All squares of a board, row by row from row 0.
    pub fn all(dims: Dims) -> impl Iterator<Item = Square> {
        (0..dims.rows()).flat_map(move |r| (0..dims.cols()).filter_map(move |c| Square::new(r, c)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col() as u8) as char, self.row() + 1)
    }
}

/// Error from parsing a [`Square`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad square {0:?}: expected a column letter a-e and a row number 1-6, e.g. c1")]
pub struct SquareParseError(pub String);

/// Parses `<letter><digit>` with any row digit 0..=9, returning signed (row, col); row may be -1 or beyond.
pub(crate) fn parse_coords(s: &str) -> Option<(i32, i32)> {
    let mut it = s.chars();
    let c = it.next()?.to_ascii_lowercase();
    let r = it.next()?;
    if it.next().is_some() || !c.is_ascii_lowercase() || !r.is_ascii_digit() {
        return None;
    }
    Some((r as i32 - '1' as i32, c as i32 - 'a' as i32))
}

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SquareParseError(s.to_string());
        let (r, c) = parse_coords(s.trim()).ok_or_else(err)?;
        if r < 0 || c < 0 {
            return Err(err());
        }
        Square::new(r as usize, c as usize).ok_or_else(err)
    }
}

/// One of the eight step directions, named as in the seed (see the module docs for the orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Up-left: row + 1, column - 1.
    Y,
    /// Up: row + 1.
    K,
    /// Up-right: row + 1, column + 1.
    U,
    /// Left: column - 1.
    H,
    /// Right: column + 1.
    L,
    /// Down-left: row - 1, column - 1.
    B,
    /// Down: row - 1.
    J,
    /// Down-right: row - 1, column + 1.
    N,
}

impl Dir {
    /// All eight directions in the seed's order `y k u h l b j n`.
    pub const ALL: [Dir; 8] = [
        Dir::Y,
        Dir::K,
        Dir::U,
        Dir::H,
        Dir::L,
        Dir::B,
        Dir::J,
        Dir::N,
    ];

    /// (row delta, column delta).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Y => (1, -1),
            Dir::K => (1, 0),
            Dir::U => (1, 1),
            Dir::H => (0, -1),
            Dir::L => (0, 1),
            Dir::B => (-1, -1),
            Dir::J => (-1, 0),
            Dir::N => (-1, 1),
        }
    }

    /// The direction with this (row delta, column delta), if any.
    pub fn from_delta(dr: i32, dc: i32) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == (dr, dc))
    }

    /// The seed's letter for this direction.
    pub const fn letter(self) -> char {
        match self {
            Dir::Y => 'y',
            Dir::K => 'k',
            Dir::U => 'u',
            Dir::H => 'h',
            Dir::L => 'l',
            Dir::B => 'b',
            Dir::J => 'j',
            Dir::N => 'n',
        }
    }

    /// The direction for a letter (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        let c = c.to_ascii_lowercase();
        Dir::ALL.into_iter().find(|d| d.letter() == c)
    }

    /// The opposite direction.
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::Y => Dir::N,
            Dir::K => Dir::J,
            Dir::U => Dir::B,
            Dir::H => Dir::L,
            Dir::L => Dir::H,
            Dir::B => Dir::U,
            Dir::J => Dir::K,
            Dir::N => Dir::Y,
        }
    }

    /// Bit shift of this step in the internal layout.
    #[inline]
    pub(crate) const fn shift(self) -> i32 {
        let (dr, dc) = self.delta();
        dr * STRIDE + dc
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Error from parsing a [`Dir`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad direction {0:?}: expected one of y k u h l b j n")]
pub struct DirParseError(pub String);

impl FromStr for Dir {
    type Err = DirParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let mut it = t.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Dir::from_letter(c).ok_or_else(|| DirParseError(s.to_string())),
            _ => Err(DirParseError(s.to_string())),
        }
    }
}
