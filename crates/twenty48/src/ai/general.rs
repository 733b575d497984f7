//! A plain expectimax on the exact [`Board`] of any size (3x3 to 8x8, or 4x4 boards beyond 4-bit tiles): the same
//! depth and cut-off semantics as the bitboard search, the same line features evaluated directly, no table.

use web_time::Instant;

use crate::ai::eval::{Powers, Weights};
use crate::board::{Board, MAX_SIZE};
use crate::direction::Direction;

/// An expectimax search on general boards.
pub(crate) struct GeneralSearch<'a> {
    weights: &'a Weights,
    powers: Powers,
    p2: f32,
    p4: f32,
    cutoff: f32,
    deadline: Option<Instant>,
    aborted: bool,
    depth_limited: bool,
    /// Chance nodes expanded.
    pub nodes: u64,
    /// Static evaluations made.
    pub evals: u64,
}

impl<'a> GeneralSearch<'a> {
    /// A search with these weights, probability of a 4 and cut-off (0 disables it).
    pub(crate) fn new(weights: &'a Weights, four_chance: f64, cutoff: f32) -> GeneralSearch<'a> {
        GeneralSearch {
            weights,
            powers: Powers::new(weights),
            p2: (1.0 - four_chance) as f32,
            p4: four_chance as f32,
            cutoff,
            deadline: None,
            aborted: false,
            depth_limited: false,
            nodes: 0,
            evals: 0,
        }
    }

    /// Abort once this instant has passed.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.aborted = false;
        self.depth_limited = false;
    }

    /// Whether the deadline passed during the last search.
    pub(crate) fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether the last search was cut anywhere by its depth.
    pub(crate) fn depth_limited(&self) -> bool {
        self.depth_limited
    }

    /// The evaluation: line features summed over rows and columns.
    pub(crate) fn eval(&self, b: &Board) -> f32 {
        let n = b.size();
        let mut total = 0f32;
        let mut line = [0u8; MAX_SIZE];
        for i in 0..n {
            for (k, cell) in line.iter_mut().take(n).enumerate() {
                *cell = b.exponent(i, k);
            }
            total += self.weights.line_with(&line[..n], &self.powers);
            for (k, cell) in line.iter_mut().take(n).enumerate() {
                *cell = b.exponent(k, i);
            }
            total += self.weights.line_with(&line[..n], &self.powers);
        }
        total
    }

    /// Values of the legal moves among `moves` at this depth.
    pub(crate) fn root(
        &mut self,
        b: &Board,
        depth: u32,
        moves: &[Direction],
    ) -> Vec<(Direction, f32)> {
        moves
            .iter()
            .filter_map(|&d| {
                let (after, _) = b.slid(d);
                (after != *b).then(|| (d, self.chance(&after, depth.max(1), 1.0)))
            })
            .collect()
    }

    fn max(&mut self, b: &Board, depth: u32, prob: f32) -> f32 {
        let mut best = 0f32;
        for d in Direction::ALL {
            let (after, _) = b.slid(d);
            if after != *b {
                let v = self.chance(&after, depth, prob);
                if v > best {
                    best = v;
                }
            }
        }
        best
    }

    fn chance(&mut self, b: &Board, depth: u32, prob: f32) -> f32 {
        if depth <= 1 || prob < self.cutoff {
            self.depth_limited |= depth <= 1;
            self.evals += 1;
            return self.eval(b);
        }
        self.nodes += 1;
        if let Some(deadline) = self.deadline
            && self.nodes & 63 == 0
            && Instant::now() >= deadline
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        let cells = b.empty_cells();
        let n = cells.len() as f32;
        let (p2, p4) = (prob * self.p2 / n, prob * self.p4 / n);
        let mut sum = 0f32;
        for (r, c) in cells {
            let mut next = *b;
            next.set_exponent(r, c, 1);
            sum += self.p2 * self.max(&next, depth - 1, p2);
            if self.p4 > 0.0 {
                next.set_exponent(r, c, 2);
                sum += self.p4 * self.max(&next, depth - 1, p4);
            }
        }
        sum / n
    }
}
