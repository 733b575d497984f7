//! A deliberately plain reference implementation of the rules (nested vectors, the seed's logic), used by the
//! tests to cross-check the bitboard move generator. Not meant for play.

use crate::{Colour, Dims, Dir, Move, Position, Square};

/// A naive position: `board[row][col]` is the stack bottom to top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaivePosition {
    /// Stacks by row (0 = Black's home) and column.
    pub board: Vec<Vec<Vec<Colour>>>,
    /// Side to move.
    pub side: Colour,
}

impl NaivePosition {
    /// Copies a [`Position`].
    pub fn from_position(p: &Position) -> NaivePosition {
        let d = p.dims();
        let board = (0..d.rows())
            .map(|r| {
                (0..d.cols())
                    .map(|c| {
                        Square::new(r, c)
                            .map(|s| p.stack(s).iter().collect())
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect();
        NaivePosition {
            board,
            side: p.side_to_move(),
        }
    }

    fn rows(&self) -> i32 {
        self.board.len() as i32
    }

    fn cols(&self) -> i32 {
        self.board[0].len() as i32
    }

    /// Legal moves by scanning every square and direction, as the seed does.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                let st = &self.board[r as usize][c as usize];
                if st.last() != Some(&self.side) {
                    continue;
                }
                for d in Dir::ALL {
                    let (dr, dc) = d.delta();
                    let (tr, tc) = (r + dr, c + dc);
                    if tc < 0 || tc >= self.cols() {
                        continue;
                    }
                    let goal = match self.side {
                        Colour::Black => tr == self.rows(),
                        Colour::White => tr == -1,
                    };
                    let ok = goal
                        || ((0..self.rows()).contains(&tr)
                            && self.board[tr as usize][tc as usize].len() < 3);
                    if let (true, Some(sq)) = (ok, Square::new(r as usize, c as usize)) {
                        out.push(Move::new(sq, d));
                    }
                }
            }
        }
        out
    }

    /// Whether the move enters the goal.
    pub fn is_goal(&self, mv: Move) -> bool {
        let (tr, _) = mv.target();
        tr < 0 || tr >= self.rows()
    }

    /// Plays a legal move (a goal move removes the piece).
    pub fn play(&mut self, mv: Move) {
        let (r, c) = (mv.from.row(), mv.from.col());
        if let Some(piece) = self.board[r][c].pop() {
            let (tr, tc) = mv.target();
            if (0..self.rows()).contains(&tr) {
                self.board[tr as usize][tc as usize].push(piece);
            }
        }
        self.side = self.side.opponent();
    }

    /// Naive perft with the same convention as [`crate::perft()`].
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for mv in self.legal_moves() {
            if depth == 1 {
                n += 1;
            } else if !self.is_goal(mv) {
                let mut c = self.clone();
                c.play(mv);
                n += c.perft(depth - 1);
            }
        }
        n
    }

    /// Converts back to a [`Position`].
    pub fn to_position(&self) -> Position {
        let dims = Dims::new(self.board.len(), self.board[0].len()).unwrap_or_default();
        let mut p = Position::empty(dims, self.side);
        for (r, row) in self.board.iter().enumerate() {
            for (c, st) in row.iter().enumerate() {
                for &col in st {
                    if let Some(sq) = Square::new(r, c) {
                        p.push(sq, col);
                    }
                }
            }
        }
        p
    }
}
