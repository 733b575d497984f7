//! Perft: counting move sequences, to check move generation against known figures.

use crate::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};

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

/// What [`perft_stoppable`] reports after each first move: how many of the first moves are counted, of how many,
/// and the sequences counted so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftProgress {
    /// First moves counted.
    pub done: usize,
    /// First moves in all.
    pub total: usize,
    /// Sequences counted so far.
    pub nodes: u64,
}

/// [`perft`], first move by first move, reporting after each, and stopping early when `stop` is raised (checked
/// at every node three or more plies from the leaves, so a stop is seen within milliseconds at any depth). Returns
/// the count, the same as [`perft`], or `None` when stopped.
///
/// ```
/// use nocca::{perft, perft_stoppable, Dims, Position};
/// use std::sync::atomic::AtomicBool;
/// let start = Position::start(Dims::STANDARD);
/// let mut reports = 0;
/// let n = perft_stoppable(&start, 3, &AtomicBool::new(false), &mut |_| reports += 1);
/// assert_eq!(n, Some(perft(&start, 3)));
/// assert_eq!(reports, start.legal_moves().len());
/// ```
pub fn perft_stoppable(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(PerftProgress),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = pos.legal_moves();
    let mut nodes = 0u64;
    for (i, &mv) in moves.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        nodes += if depth == 1 {
            1
        } else if pos.is_goal_move(mv) {
            0
        } else {
            let mut child = *pos;
            child.play_unchecked(mv);
            stoppable(&child, depth - 1, stop)?
        };
        progress(PerftProgress {
            done: i + 1,
            total: moves.len(),
            nodes,
        });
    }
    Some(nodes)
}

/// [`perft`] that gives up (`None`) once `stop` is raised.
fn stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    let mut stopped = false;
    pos.for_each_step(|f, t| {
        if stopped {
            return;
        }
        let mut child = *pos;
        child.step_raw(f, t);
        match stoppable(&child, depth - 1, stop) {
            Some(n) => total += n,
            None => stopped = true,
        }
    });
    (!stopped).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dims;

    /// The stoppable count is perft's, and its first-move counts are divide's, on every board size.
    #[test]
    fn the_stoppable_count_is_perft_and_divide() {
        for (r, c) in [(3, 3), (4, 4), (6, 5)] {
            let pos = Position::start(Dims::new(r, c).unwrap());
            for depth in 0..=5 {
                let mut per_move = Vec::new();
                let mut before = 0;
                let n = perft_stoppable(&pos, depth, &AtomicBool::new(false), &mut |p| {
                    per_move.push(p.nodes - before);
                    before = p.nodes;
                });
                assert_eq!(n, Some(perft(&pos, depth)), "{r}x{c} depth {depth}");
                let divided: Vec<u64> = divide(&pos, depth).into_iter().map(|(_, n)| n).collect();
                assert_eq!(per_move, divided, "{r}x{c} depth {depth}");
            }
        }
    }

    #[test]
    fn a_raised_stop_ends_the_count() {
        let pos = Position::start(Dims::STANDARD);
        // Raised from the first report of a count that would take days: the count ends at once.
        let stop = AtomicBool::new(false);
        let mut reports = 0;
        let n = perft_stoppable(&pos, 7, &stop, &mut |_| {
            reports += 1;
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!((n, reports), (None, 1));
        assert_eq!(
            perft_stoppable(&pos, 12, &AtomicBool::new(true), &mut |_| {}),
            None
        );
    }
}
