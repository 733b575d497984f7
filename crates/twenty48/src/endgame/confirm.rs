//! A short search confirming the table's move (issue 29: "on a hit, a short search confirms the move").
//!
//! Instead of playing the table's best move outright, the player searches a short depth in which a leaf (an
//! after-state) that the table covers is valued by its success probability `p` in the evaluation's own units, and every
//! other leaf by the evaluation. **The scale**: success is worth what the evaluation says the position is worth now
//! (`W`, the best over the legal moves of the move's points plus its after-state's value, looked at one move deep),
//! failure 0, so a covered leaf is worth `p * W`. Inside the formation the leaves are exact: one move deep the search
//! finds the table's best value among the moves that keep the formation; deeper, the points of merges and moves that
//! leave the formation further down count too. What it adds is the choice to leave the formation (a move the table
//! does not allow, valued by the evaluation) when the evaluation values that above `p * W`.

use crate::ai::evaluate::Evaluate;
use crate::ai::search::{DEFAULT_CUTOFF, Search};
use crate::bitboard::{Bitboard, tables};
use crate::direction::Direction;
use crate::endgame::play::Advisor;

/// An evaluation that values after-states the table covers by `scale` times their success probability and all
/// others by `inner`.
pub struct TableEval<'a, E: Evaluate> {
    /// The table.
    pub advisor: &'a Advisor,
    /// The evaluation of the leaves the table does not cover.
    pub inner: &'a E,
    /// The value of a certain success in `inner`'s units.
    pub scale: f32,
}

impl<E: Evaluate> Evaluate for TableEval<'_, E> {
    const REWARDS: bool = E::REWARDS;

    #[inline]
    fn eval(&self, b: Bitboard) -> f32 {
        match self.advisor.after_value(b) {
            Some(p) => self.scale * p,
            None => self.inner.eval(b),
        }
    }
}

/// The scale of [`TableEval`] on `board` (player to move): the best over the moves of the move's points (when the
/// evaluation counts rewards) plus the evaluation of its after-state; 0 when no move changes the board.
pub fn scale_of<E: Evaluate>(eval: &E, board: Bitboard) -> f32 {
    let t = tables();
    let mut best = f32::NEG_INFINITY;
    for d in Direction::ALL {
        let after = t.slide(board, d);
        if after != board {
            let reward = if E::REWARDS {
                t.score(board, d) as f32
            } else {
                0.0
            };
            best = best.max(reward + eval.eval(after));
        }
    }
    if best.is_finite() { best.max(0.0) } else { 0.0 }
}

/// The confirming search on `board` (a capped bitboard, player to move): expectimax to `depth` moves with
/// [`TableEval`] at the leaves (scale [`scale_of`]), no transposition table (its values are on another scale than the
/// player's own search), the default probability cut-off. The best move and its value, `None` when no move changes
/// the board.
pub fn confirm<E: Evaluate>(
    advisor: &Advisor,
    eval: &E,
    board: Bitboard,
    depth: u32,
    four_chance: f64,
) -> Option<(Direction, f32)> {
    let te = TableEval {
        advisor,
        inner: eval,
        scale: scale_of(eval, board),
    };
    let mut search = Search::new(&te, None, four_chance, DEFAULT_CUTOFF);
    search.best(board, depth, &Direction::ALL)
}
