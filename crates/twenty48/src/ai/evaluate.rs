//! What the search needs from an evaluation: a value for a 4x4 after-state.

use crate::ai::eval::Evaluator;
use crate::ai::ntuple::Network;
use crate::bitboard::Bitboard;

/// A static evaluation of after-states on the 4x4 bitboard, shared by search threads.
pub trait Evaluate: Sync {
    /// Whether values are expected future points, so that a move is worth its reward (points of its merges) plus the
    /// value of its after-state. When false (a heuristic score), a move is worth the value of its after-state alone.
    const REWARDS: bool;

    /// The value of an after-state (higher is better).
    fn eval(&self, b: Bitboard) -> f32;

    /// The values of four after-states (the four moves from one board, where the search evaluates without looking
    /// further), each exactly as [`Evaluate::eval`] gives it. An evaluation that waits on memory reads the four
    /// boards' weights together. (Written out: `b.map(..)` is left a call, not inlined, in the search's innermost
    /// loop.)
    #[inline(always)]
    fn eval4(&self, b: &[Bitboard; 4]) -> [f32; 4] {
        [
            self.eval(b[0]),
            self.eval(b[1]),
            self.eval(b[2]),
            self.eval(b[3]),
        ]
    }
}

impl Evaluate for Evaluator {
    const REWARDS: bool = false;

    #[inline(always)]
    fn eval(&self, b: Bitboard) -> f32 {
        Evaluator::eval(self, b)
    }
}

impl Evaluate for Network {
    const REWARDS: bool = true;

    #[inline(always)]
    fn eval(&self, b: Bitboard) -> f32 {
        Network::eval(self, b)
    }

    #[inline(always)]
    fn eval4(&self, b: &[Bitboard; 4]) -> [f32; 4] {
        Network::eval4(self, b)
    }
}
