//! Perft: counting move sequences, to check move generation against known figures.

use crate::{Move, Position};

/// The number of move sequences of exactly `depth` plies from `pos`. A goal move ends the game, so it counts only
/// as the last ply; a side without moves ends the sequence too (counted 0 below depth). `perft(p, 0)` is 1.
///
/// ```
/// use nocca::{perft, Dims, Position};
/// let start = Position::start(Dims::STANDARD);
/// assert_eq!(perft(&start, 3), 9240);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => inner(pos, depth),
    }
}

fn inner(pos: &Position, depth: u32) -> u64 {
    let mut total = 0;
    // Goal moves end the game: they count only as a last ply, so only steps on the board recurse.
    pos.for_each_step(|f, t| {
        let mut child = *pos;
        child.step_raw(f, t);
        total += if depth == 2 {
            child.count_moves() as u64
        } else {
            inner(&child, depth - 1)
        };
    });
    total
}

/// Perft split by first move, in generation order: (move, sequences starting with it).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let n = if depth == 1 {
                1
            } else if pos.is_goal_move(mv) {
                0
            } else {
                let mut child = *pos;
                child.play_unchecked(mv);
                perft(&child, depth - 1)
            };
            (mv, n)
        })
        .collect()
}
