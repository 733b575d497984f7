//! Moves and fixed-capacity move lists.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use thiserror::Error;

use crate::square::parse_coords;
use crate::{Dir, Square};

/// A move: the piece on top of `from` steps one square in direction `dir` (possibly into the goal).
///
/// Text form (Display): the square then the direction letter, no space: `c1k`. A goal move prints the same way
/// (`c6k` for Black on the standard board). Parsing also accepts `c1 k` and the from-to form `c1-c2`, where a goal
/// target is written as the row just beyond the board (`c6-c7` for Black, `c1-c0` for White on 6 rows).
///
/// ```
/// use nocca::{Dir, Move};
/// let m: Move = "c1-d2".parse().unwrap();
/// assert_eq!(m.dir, Dir::U);
/// assert_eq!(m.to_string(), "c1u");
/// assert_eq!("c1 u".parse::<Move>().unwrap(), m);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square the moving piece stands on.
    pub from: Square,
    /// The step direction.
    pub dir: Dir,
}

impl Move {
    /// A move from a square in a direction.
    pub const fn new(from: Square, dir: Dir) -> Move {
        Move { from, dir }
    }

    /// The target as signed (row, col); it may lie beyond a home row (the goal) or off the board.
    pub const fn target(self) -> (i32, i32) {
        let (dr, dc) = self.dir.delta();
        (self.from.row() as i32 + dr, self.from.col() as i32 + dc)
    }

    /// The target square if it is within the largest board.
    pub fn to(self) -> Option<Square> {
        let (r, c) = self.target();
        if r < 0 || c < 0 {
            return None;
        }
        Square::new(r as usize, c as usize)
    }

    /// Compact 16-bit code (for tables).
    #[inline]
    pub(crate) const fn code(self) -> u16 {
        ((self.from.index() as u16) << 3) | self.dir as u16
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.dir)
    }
}

/// Error from parsing a [`Move`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Nothing to parse.
    #[error("empty move: expected e.g. c1k, c1 k or c1-c2")]
    Empty,
    /// The starting square is not a square.
    #[error("bad square {0:?} in move: expected a column letter a-e and a row number 1-6, e.g. c1")]
    BadSquare(String),
    /// The direction is not one of the eight letters.
    #[error("bad direction {0:?} in move: expected one of y k u h l b j n")]
    BadDirection(String),
    /// A from-to move whose squares are not neighbours.
    #[error("{from} and {to} are not neighbouring squares")]
    NotAdjacent {
        /// Origin as written.
        from: String,
        /// Target as written.
        to: String,
    },
}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Accepts `c1k`, `c1 k`, `c1-c2` (and `c1 c2`); letters in either case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.is_empty() {
            return Err(MoveParseError::Empty);
        }
        let split = t.char_indices().nth(2).map_or(t.len(), |(i, _)| i);
        let (sq, rest) = t.split_at(split);
        let from: Square = sq
            .parse()
            .map_err(|_| MoveParseError::BadSquare(sq.to_string()))?;
        let rest = rest.trim_start();
        let rest = rest.strip_prefix('-').unwrap_or(rest).trim();
        if rest.chars().count() == 1 {
            let dir = rest
                .parse()
                .map_err(|_| MoveParseError::BadDirection(rest.to_string()))?;
            return Ok(Move { from, dir });
        }
        let (r, c) =
            parse_coords(rest).ok_or_else(|| MoveParseError::BadDirection(rest.to_string()))?;
        let dir = Dir::from_delta(r + 1 - (from.row() as i32 + 1), c - from.col() as i32)
            .ok_or_else(|| MoveParseError::NotAdjacent {
                from: sq.to_string(),
                to: rest.to_string(),
            })?;
        Ok(Move { from, dir })
    }
}

/// Most moves a position can have: 5 pieces on top, 8 directions each.
pub const MAX_MOVES: usize = 40;

/// A fixed-capacity list of moves (no allocation); dereferences to `[Move]`.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move {
                from: Square::from_index(8),
                dir: Dir::K,
            }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move (ignored if full, which legal generation never reaches).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if (self.len as usize) < MAX_MOVES {
            self.moves[self.len as usize] = m;
            self.len += 1;
        }
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len as usize {
            if f(self.moves[i]) {
                self.moves[n] = self.moves[i];
                n += 1;
            }
        }
        self.len = n as u8;
    }

    /// Mutable view of the moves (for ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
