//! The board position: stacks as bitboards, side to move, move generation and the move rules.

use std::fmt;

use thiserror::Error;

use crate::moves::MoveList;
use crate::square::STRIDE;
use crate::{Colour, Dims, Dir, Move, Square, zobrist};

/// Shifts a bitboard by a signed amount (left for positive).
#[inline(always)]
pub(crate) const fn shift(bb: u64, s: i32) -> u64 {
    if s >= 0 { bb << s } else { bb >> (-s) }
}

/// The pieces on one square, bottom to top (at most 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stack {
    pieces: [Option<Colour>; 3],
    len: u8,
}

impl Stack {
    /// Number of pieces (0 to 3).
    pub fn height(&self) -> usize {
        self.len as usize
    }

    /// The top piece's colour, if any.
    pub fn top(&self) -> Option<Colour> {
        self.len
            .checked_sub(1)
            .and_then(|i| self.pieces[i as usize])
    }

    /// The colours from bottom to top.
    pub fn iter(&self) -> impl Iterator<Item = Colour> + '_ {
        self.pieces[..self.len as usize].iter().flatten().copied()
    }

    /// Whether no further piece may step on (3 pieces).
    pub fn is_full(&self) -> bool {
        self.len as usize == Position::MAX_HEIGHT
    }
}

/// A position: the stacks on every square and the side to move.
///
/// Internally, `occ[k]` holds the squares with more than `k` pieces and `white[k]` those whose piece at level `k`
/// (0 = bottom) is White, on a 64-bit layout with a stride of 8 and a spare row beyond each home row (the goals),
/// so generating the moves of one direction is a shift and a mask.
///
/// Text form (Display/FromStr, as in RULES.md): the rows from row 0 to the last separated by `/`, cells by `,`,
/// a cell `-` or its pieces bottom to top as `b`/`w`, then a space and the side to move.
///
/// ```
/// use nocca::{Dims, Position};
/// let start = Position::start(Dims::STANDARD);
/// assert_eq!(start.to_string(), "b,b,b,b,b/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,w b");
/// assert_eq!(start.legal_moves().len(), 21);
/// let mut p = start;
/// p.play("c1k".parse().unwrap()).unwrap();
/// assert_eq!(p.to_string(), "b,b,-,b,b/-,-,b,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,w w");
/// let q: Position = p.to_string().parse().unwrap();
/// assert_eq!(p, q);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    occ: [u64; 3],
    white: [u64; 3],
    board: u64,
    /// Per colour: the goal row that colour's pieces enter (beyond the opponent's home row).
    goal: [u64; 2],
    hash: u64,
    side: Colour,
    dims: Dims,
}

/// Why a move is illegal. [`Position::play`] leaves the position untouched when it returns one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The origin square is not on this board.
    #[error("{0} is not on the board")]
    NotOnBoard(Square),
    /// The origin square is empty.
    #[error("there is no piece on {0}")]
    EmptySquare(Square),
    /// Your piece is there but another piece rides on it.
    #[error("your piece on {0} is covered and cannot move")]
    Covered(Square),
    /// Only the opponent's pieces are on that square.
    #[error("the piece on top of {0} is not yours")]
    NotYourPiece(Square),
    /// The step would leave the board over a side edge.
    #[error("{0} would leave the board over the side edge")]
    OffSideEdge(Move),
    /// The step would leave the board over the mover's own home row.
    #[error("{0} would leave the board over your own home row")]
    OwnHomeRow(Move),
    /// The target square already holds three pieces.
    #[error("{0} steps onto a full square (3 pieces)")]
    FullSquare(Move),
}

/// Error from parsing a [`Position`]. The fields number rows from 0 (Black's home) and cells from 0 (the left); the
/// messages name rows from 1 and squares as RULES.md writes them (`b2`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionParseError {
    /// No space-separated side to move.
    #[error("missing side to move: expected the rows, a space, then b or w")]
    MissingSide,
    /// The side to move is not `b` or `w`.
    #[error("bad side to move {0:?}: expected b or w")]
    BadSide(String),
    /// Text after the side to move.
    #[error("unexpected text after the side to move: {0:?}")]
    Trailing(String),
    /// Number of rows outside 3..=6.
    #[error("{0} rows: a board has 3 to 6 rows separated by '/'")]
    RowCount(usize),
    /// Every row has this many cells, outside 3..=5.
    #[error("{0} columns: a board has 3 to 5 columns (cells separated by ',')")]
    ColCount(usize),
    /// A row whose length differs from row 0.
    #[error(
        "rows differ in length: row {} has {len} cell{}, row 1 has {expected}",
        row + 1,
        if *len == 1 { "" } else { "s" }
    )]
    RowLength {
        /// The row.
        row: usize,
        /// Its number of cells.
        len: usize,
        /// The number of cells in row 0.
        expected: usize,
    },
    /// An empty cell text (use `-`).
    #[error("square {} is blank: write '-' for an empty square", square_name(*row, *col))]
    BlankCell {
        /// The row.
        row: usize,
        /// The cell.
        col: usize,
    },
    /// A character other than `b`, `w` (or a lone `-`).
    #[error("square {}: bad character {ch:?} (expected b, w, or a lone -)", square_name(*row, *col))]
    BadChar {
        /// The row.
        row: usize,
        /// The cell.
        col: usize,
        /// The offending character.
        ch: char,
    },
    /// More than 3 pieces in a cell.
    #[error("square {}: {height} pieces, but a square holds at most 3", square_name(*row, *col))]
    StackTooHigh {
        /// The row.
        row: usize,
        /// The cell.
        col: usize,
        /// The number of pieces written.
        height: usize,
    },
    /// More pieces of one colour than columns.
    #[error("{count} {colour} pieces, but each side has only {max}")]
    TooManyPieces {
        /// The colour.
        colour: Colour,
        /// How many were written.
        count: usize,
        /// The number of columns.
        max: usize,
    },
}

/// A square as RULES.md names it: the column's letter, then the row from 1 (`b2` is row 1, column 1 from 0).
fn square_name(row: usize, col: usize) -> String {
    let letter = u8::try_from(col)
        .ok()
        .and_then(|c| b'a'.checked_add(c))
        .map_or('?', char::from);
    format!("{letter}{}", row + 1)
}

impl Position {
    /// A square holds at most this many pieces.
    pub const MAX_HEIGHT: usize = 3;

    /// An empty board with `side` to move.
    pub fn empty(dims: Dims, side: Colour) -> Position {
        let colmask = (1u64 << dims.cols()) - 1;
        let mut board = 0;
        for r in 0..dims.rows() {
            board |= colmask << ((r as i32 + 1) * STRIDE);
        }
        let black_goal = colmask << ((dims.rows() as i32 + 1) * STRIDE);
        let white_goal = colmask;
        Position {
            occ: [0; 3],
            white: [0; 3],
            board,
            goal: [black_goal, white_goal],
            hash: if side == Colour::White {
                zobrist::SIDE
            } else {
                0
            },
            side,
            dims,
        }
    }

    /// The start position: each side's pieces on its home row, Black to move.
    pub fn start(dims: Dims) -> Position {
        Position::start_with(dims, Colour::Black)
    }

    /// The start position with `first` to move.
    pub fn start_with(dims: Dims, first: Colour) -> Position {
        let mut p = Position::empty(dims, first);
        for c in 0..dims.cols() {
            for colour in Colour::ALL {
                if let Some(sq) = Square::new(dims.home_row(colour), c) {
                    p.push(sq, colour);
                }
            }
        }
        p
    }

    /// Puts a piece on top of a square (for setting up positions). Returns false, changing nothing, if the square
    /// is off the board or full. Does not check piece counts.
    pub fn push(&mut self, sq: Square, colour: Colour) -> bool {
        let b = 1u64 << sq.index();
        if self.board & b == 0 || self.occ[2] & b != 0 {
            return false;
        }
        let level = self.height_bits(b);
        self.put(level, b, sq.index(), colour);
        true
    }

    /// Board dimensions.
    #[inline]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    /// The same position with another side to move.
    pub fn with_side_to_move(mut self, side: Colour) -> Position {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist::SIDE;
        }
        self
    }

    /// Zobrist hash (stack contents and side to move; fixed keys, so portable).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The stack on a square (empty if off the board).
    pub fn stack(&self, sq: Square) -> Stack {
        let b = 1u64 << sq.index();
        let mut s = Stack::default();
        if self.board & b == 0 {
            return s;
        }
        for k in 0..3 {
            if self.occ[k] & b != 0 {
                s.pieces[k] = Some(if self.white[k] & b != 0 {
                    Colour::White
                } else {
                    Colour::Black
                });
                s.len += 1;
            }
        }
        s
    }

    /// Number of pieces of a colour on the board.
    pub fn piece_count(&self, c: Colour) -> usize {
        (0..3)
            .map(|k| {
                let w = self.white[k];
                (match c {
                    Colour::White => w,
                    Colour::Black => self.occ[k] & !w,
                })
                .count_ones() as usize
            })
            .sum()
    }

    #[inline(always)]
    fn height_bits(&self, b: u64) -> usize {
        ((self.occ[0] & b != 0) as usize)
            + ((self.occ[1] & b != 0) as usize)
            + ((self.occ[2] & b != 0) as usize)
    }

    #[inline(always)]
    fn put(&mut self, level: usize, b: u64, idx: u32, colour: Colour) {
        self.occ[level] |= b;
        if colour == Colour::White {
            self.white[level] |= b;
        }
        self.hash ^= zobrist::piece(level, colour.index(), idx);
    }

    /// Squares whose top piece is White.
    #[inline(always)]
    pub(crate) fn tops_white(&self) -> u64 {
        (self.white[0] & !self.occ[1]) | (self.white[1] & !self.occ[2]) | self.white[2]
    }

    /// Squares whose top piece is Black.
    #[inline(always)]
    pub(crate) fn tops_black(&self) -> u64 {
        ((self.occ[0] & !self.white[0]) & !self.occ[1])
            | ((self.occ[1] & !self.white[1]) & !self.occ[2])
            | (self.occ[2] & !self.white[2])
    }

    /// Squares topped by a piece of `c` (internal layout).
    #[inline(always)]
    pub(crate) fn tops(&self, c: Colour) -> u64 {
        match c {
            Colour::Black => self.tops_black(),
            Colour::White => self.tops_white(),
        }
    }

    /// Internal masks: occupancy by level, white by level.
    #[inline(always)]
    pub(crate) fn levels(&self) -> (&[u64; 3], &[u64; 3]) {
        (&self.occ, &self.white)
    }

    /// Board mask (internal layout).
    #[inline(always)]
    pub(crate) fn board_mask(&self) -> u64 {
        self.board
    }

    /// The internal row mask of a board row (`row` may be -1 or `rows`, the goal rows).
    #[inline(always)]
    pub(crate) fn row_mask(&self, row: i32) -> u64 {
        ((1u64 << self.dims.cols()) - 1) << ((row + 1) * STRIDE)
    }

    /// Squares that `c` may step onto (not full, on the board) or its goal row.
    #[inline(always)]
    fn targets(&self, c: Colour) -> u64 {
        (self.board & !self.occ[2]) | self.goal[c.index()]
    }

    /// Squares from which `c` can step into its goal right now (its tops on the opponent's home row).
    #[inline(always)]
    pub(crate) fn goal_threats(&self, c: Colour) -> u64 {
        self.tops(c) & self.row_mask(self.dims.home_row(c.opponent()) as i32)
    }

    /// Whether the side to move can step into its goal (and so win) this move.
    #[inline]
    pub fn has_goal_move(&self) -> bool {
        self.goal_threats(self.side) != 0
    }

    /// Whether this move steps into the goal (assumes it is legal).
    #[inline]
    pub fn is_goal_move(&self, mv: Move) -> bool {
        let t = mv.from.index() as i32 + mv.dir.shift();
        (0..64).contains(&t) && self.goal[self.side.index()] & (1u64 << t) != 0
    }

    /// All legal moves of the side to move, direction by direction.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let mine = self.tops(self.side);
        let ok = self.targets(self.side);
        for d in Dir::ALL {
            let s = d.shift();
            let mut t = shift(mine, s) & ok;
            while t != 0 {
                let to = t.trailing_zeros() as i32;
                t &= t - 1;
                list.push(Move::new(Square::from_index((to - s) as u32), d));
            }
        }
        list
    }

    /// The number of legal moves (fast: one shift and popcount per direction).
    #[inline]
    pub fn count_moves(&self) -> usize {
        let mine = self.tops(self.side);
        let ok = self.targets(self.side);
        let mut n = 0;
        for d in Dir::ALL {
            n += (shift(mine, d.shift()) & ok).count_ones();
        }
        n as usize
    }

    /// Whether the side to move has at least one legal move.
    #[inline]
    pub fn has_moves(&self) -> bool {
        let mine = self.tops(self.side);
        let ok = self.targets(self.side);
        Dir::ALL
            .into_iter()
            .any(|d| shift(mine, d.shift()) & ok != 0)
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let from = mv.from;
        let fb = 1u64 << from.index();
        if self.board & fb == 0 {
            return Err(IllegalMove::NotOnBoard(from));
        }
        if self.occ[0] & fb == 0 {
            return Err(IllegalMove::EmptySquare(from));
        }
        if self.tops(self.side) & fb == 0 {
            let mine_below = self.stack(from).iter().any(|c| c == self.side);
            return Err(if mine_below {
                IllegalMove::Covered(from)
            } else {
                IllegalMove::NotYourPiece(from)
            });
        }
        let (r, c) = mv.target();
        if c < 0 || c >= self.dims.cols() as i32 {
            return Err(IllegalMove::OffSideEdge(mv));
        }
        let beyond_own = match self.side {
            Colour::Black => r < 0,
            Colour::White => r >= self.dims.rows() as i32,
        };
        if beyond_own {
            return Err(IllegalMove::OwnHomeRow(mv));
        }
        if (0..self.dims.rows() as i32).contains(&r) {
            let tb = 1u64 << (from.index() as i32 + mv.dir.shift());
            if self.occ[2] & tb != 0 {
                return Err(IllegalMove::FullSquare(mv));
            }
        }
        Ok(())
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Plays a legal move; on an illegal one returns the reason and changes nothing.
    ///
    /// A goal move takes the piece off the board into the goal and passes the turn; the game is then over (the
    /// mover has won), which [`crate::Game`] records. Check [`Position::is_goal_move`] first if you play on a bare
    /// position.
    ///
    /// ```
    /// use nocca::{Dims, IllegalMove, Position};
    /// let mut p = Position::start(Dims::STANDARD);
    /// let before = p;
    /// assert!(matches!(p.play("a1h".parse().unwrap()), Err(IllegalMove::OffSideEdge(_))));
    /// assert_eq!(p, before);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// The position after a move, or why it is illegal.
    pub fn after(&self, mv: Move) -> Result<Position, IllegalMove> {
        let mut p = *self;
        p.play(mv)?;
        Ok(p)
    }

    /// Calls `f(from, to)` (internal bit indices) for every legal non-goal move of the side to move.
    #[inline(always)]
    pub(crate) fn for_each_step(&self, mut f: impl FnMut(u32, u32)) {
        let mine = self.tops(self.side);
        let ok = self.board & !self.occ[2];
        for d in Dir::ALL {
            let s = d.shift();
            let mut t = shift(mine, s) & ok;
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                f((to as i32 - s) as u32, to);
            }
        }
    }

    /// Plays a non-goal step between internal indices (no checks).
    #[inline(always)]
    pub(crate) fn step_raw(&mut self, f: u32, t: u32) {
        let fb = 1u64 << f;
        let tb = 1u64 << t;
        let level = self.height_bits(fb) - 1;
        let colour = self.side;
        self.occ[level] &= !fb;
        self.white[level] &= !fb;
        let tl = self.height_bits(tb);
        self.occ[tl] |= tb;
        if colour == Colour::White {
            self.white[tl] |= tb;
        }
        self.hash ^= zobrist::piece(level, colour.index(), f)
            ^ zobrist::piece(tl, colour.index(), t)
            ^ zobrist::SIDE;
        self.side = colour.opponent();
    }

    /// Plays a move without checking it. The move must be legal (e.g. from [`Position::legal_moves`]); an illegal
    /// one leaves the position inconsistent (never unsafe).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let f = mv.from.index();
        let fb = 1u64 << f;
        let level = self.height_bits(fb) - 1;
        let colour = self.side;
        self.occ[level] &= !fb;
        self.white[level] &= !fb;
        self.hash ^= zobrist::piece(level, colour.index(), f);
        let t = (f as i32 + mv.dir.shift()) as u32;
        let tb = 1u64 << t;
        if self.board & tb != 0 {
            let tl = self.height_bits(tb);
            self.put(tl, tb, t, colour);
        }
        self.side = colour.opponent();
        self.hash ^= zobrist::SIDE;
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.dims.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.dims.cols() {
                if c > 0 {
                    f.write_str(",")?;
                }
                let st = Square::new(r, c).map(|s| self.stack(s)).unwrap_or_default();
                if st.height() == 0 {
                    f.write_str("-")?;
                }
                for p in st.iter() {
                    write!(f, "{}", p.letter())?;
                }
            }
        }
        write!(f, " {}", self.side.letter())
    }
}

impl std::str::FromStr for Position {
    type Err = PositionParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        use PositionParseError as E;
        let mut parts = s.split_whitespace();
        let board = parts.next().ok_or(E::MissingSide)?;
        let side_txt = parts.next().ok_or(E::MissingSide)?;
        if let Some(extra) = parts.next() {
            return Err(E::Trailing(extra.to_string()));
        }
        let side = match side_txt {
            "b" | "B" => Colour::Black,
            "w" | "W" => Colour::White,
            _ => return Err(E::BadSide(side_txt.to_string())),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if !(Dims::MIN_ROWS..=Dims::MAX_ROWS).contains(&rows.len()) {
            return Err(E::RowCount(rows.len()));
        }
        let cols = rows[0].split(',').count();
        // Rows of different lengths are named as such before any count is judged.
        if let Some((r, len)) = rows
            .iter()
            .map(|row| row.split(',').count())
            .enumerate()
            .find(|&(_, len)| len != cols)
        {
            return Err(E::RowLength {
                row: r,
                len,
                expected: cols,
            });
        }
        if !(Dims::MIN_COLS..=Dims::MAX_COLS).contains(&cols) {
            return Err(E::ColCount(cols));
        }
        let dims = Dims::new(rows.len(), cols).map_err(|_| E::RowCount(rows.len()))?;
        let mut p = Position::empty(dims, side);
        let mut counts = [0usize; 2];
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = row.split(',').collect();
            if cells.len() != cols {
                return Err(E::RowLength {
                    row: r,
                    len: cells.len(),
                    expected: cols,
                });
            }
            for (c, cell) in cells.iter().enumerate() {
                if cell.is_empty() {
                    return Err(E::BlankCell { row: r, col: c });
                }
                if *cell == "-" {
                    continue;
                }
                let mut height = 0;
                for ch in cell.chars() {
                    let colour =
                        Colour::from_letter(ch).ok_or(E::BadChar { row: r, col: c, ch })?;
                    height += 1;
                    if height > Position::MAX_HEIGHT {
                        return Err(E::StackTooHigh {
                            row: r,
                            col: c,
                            height: cell.chars().count(),
                        });
                    }
                    counts[colour.index()] += 1;
                    if let Some(sq) = Square::new(r, c) {
                        p.push(sq, colour);
                    }
                }
            }
        }
        for colour in Colour::ALL {
            if counts[colour.index()] > cols {
                return Err(E::TooManyPieces {
                    colour,
                    count: counts[colour.index()],
                    max: cols,
                });
            }
        }
        Ok(p)
    }
}
