//! Expectimax on the 4x4 bitboard: max nodes over moves, chance nodes over every empty cell with a 2 or a 4,
//! a probability cut-off, a shared transposition table and an optional deadline.
//!
//! Depth semantics: `depth` counts the player's moves looked ahead. A max node at depth `d` tries each move and scores
//! the resulting after-state (before the spawn) with a chance node at depth `d`; a chance node at depth 1, or whose path
//! probability is below the cut-off, returns the evaluation of the after-state; otherwise it averages, over every
//! empty cell and both tiles, the max node at depth `d - 1` of the board with that spawn. A position with no legal move
//! is worth 0 (the heuristic evaluation is positive on living positions).
//!
//! With an evaluation whose values are future points ([`Evaluate::REWARDS`], the n-tuple network), a move is worth
//! the points of its merges plus its chance node's value, at the root and inside the tree alike.

use web_time::Instant;

use crate::ai::eval::Evaluator;
use crate::ai::evaluate::Evaluate;
use crate::ai::tt::BucketTable;
use crate::bitboard::{Bitboard, Tables, count_empty, tables};
use crate::board::Board;
use crate::direction::Direction;

/// Default probability cut-off: chance nodes reached with a lower path probability are evaluated statically.
pub(crate) const DEFAULT_CUTOFF: f32 = 1e-4;

/// Chance nodes with at least this remaining depth are stored in the transposition table.
const TT_MIN_DEPTH: u32 = 2;

/// The key of a chance node under probability classes: the board salted by the octave of its path probability (the
/// exponent of the `f32`), so that a value stored where the path was improbable, and the cut-off pruned its sub-tree
/// hard, is not taken for the same board reached by a likelier path (as happens one move later, when the board is
/// nearer the root).
#[inline(always)]
fn classed_key(key: Bitboard, prob: f32) -> Bitboard {
    let octave = u64::from((prob.to_bits() >> 23) & 0xFF);
    key ^ (octave + 1).wrapping_mul(0xE703_7ED1_A0B4_28DB)
}

/// How the probability of the path to a chance node enters the transposition table. Under a probability cut-off a
/// chance node's value depends on that probability (the cut-off prunes its sub-tree the harder, the less likely the
/// path), which the board and depth alone do not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbClasses {
    /// Entries are found by board and remaining depth only: a value stored on an unlikely path, pruned hard, answers
    /// for the same board on a likely one.
    Off,
    /// The key is salted with the octave of the path probability: an entry answers only a node whose path is in
    /// the same octave.
    Same,
}

/// One search (one thread): counters, deadline and references to the shared evaluator and table.
pub struct Search<'a, E: Evaluate = Evaluator> {
    tables: &'static Tables,
    eval: &'a E,
    tt: Option<&'a BucketTable>,
    prob_classes: ProbClasses,
    p2: f32,
    p4: f32,
    cutoff: f32,
    deadline: Option<Instant>,
    check: u32,
    aborted: bool,
    depth_limited: bool,
    at_least: bool,
    /// Chance nodes expanded.
    pub nodes: u64,
    /// Static evaluations made.
    pub evals: u64,
    /// Transposition-table probes.
    pub probes: u64,
    /// Transposition-table probes that hit.
    pub hits: u64,
}

impl<'a, E: Evaluate> Search<'a, E> {
    /// A search without a transposition table, with the given evaluator, probability of a 4 and probability cut-off
    /// (0 disables the cut-off).
    pub fn new(eval: &'a E, four_chance: f64, cutoff: f32) -> Search<'a, E> {
        Search {
            tables: tables(),
            eval,
            tt: None,
            prob_classes: ProbClasses::Off,
            p2: (1.0 - four_chance) as f32,
            p4: four_chance as f32,
            cutoff,
            deadline: None,
            check: 0,
            aborted: false,
            depth_limited: false,
            at_least: false,
            nodes: 0,
            evals: 0,
            probes: 0,
            hits: 0,
        }
    }

    /// A search that shares a transposition table ([`BucketTable`]: compact entries, replaced by effort).
    pub fn with_buckets(
        eval: &'a E,
        tt: &'a BucketTable,
        four_chance: f64,
        cutoff: f32,
    ) -> Search<'a, E> {
        let mut s = Search::new(eval, four_chance, cutoff);
        s.tt = Some(tt);
        s
    }

    /// How the path probability enters the table ([`ProbClasses`]; [`ProbClasses::Off`] is the default here,
    /// [`crate::ai::Player`] chooses its own). Without a cut-off the path probability changes nothing, and the
    /// classes are not used.
    pub fn set_prob_classes(&mut self, classes: ProbClasses) {
        self.prob_classes = if self.cutoff > 0.0 {
            classes
        } else {
            ProbClasses::Off
        };
    }

    /// How the path probability enters the table in this search (see [`Search::set_prob_classes`]).
    pub fn prob_classes(&self) -> ProbClasses {
        self.prob_classes
    }

    /// Abort (see [`Search::aborted`]) once this instant has passed.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.aborted = false;
    }

    /// With `true`, a table entry searched deeper than needed is a hit (as in nneonneo/2048-ai); with `false` (the
    /// default) only an entry of exactly the needed depth is.
    pub(crate) fn set_tt_at_least(&mut self, at_least: bool) {
        self.at_least = at_least;
    }

    /// Whether the deadline passed during the last search: its values are then meaningless.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether the last search stopped somewhere because of the depth (rather than the cut-off): if not, a deeper
    /// search would return the same values.
    pub(crate) fn depth_limited(&self) -> bool {
        self.depth_limited
    }

    /// The value of playing `dir` from `board` (the chance node of the after-state), or `None` if `dir` changes
    /// nothing.
    pub(crate) fn move_value(
        &mut self,
        board: Bitboard,
        dir: Direction,
        depth: u32,
    ) -> Option<f32> {
        let after = self.tables.slide(board, dir);
        (after != board)
            .then(|| self.reward(board, dir) + self.chance_node(after, depth.max(1), 1.0))
    }

    /// The points of sliding `board` in `dir` when the evaluation counts rewards, else 0.
    #[inline(always)]
    fn reward(&self, board: Bitboard, dir: Direction) -> f32 {
        if E::REWARDS {
            self.tables.score(board, dir) as f32
        } else {
            0.0
        }
    }

    /// The best move among `moves` and its value (first best in the given order), `None` if none is legal.
    pub fn best(
        &mut self,
        board: Bitboard,
        depth: u32,
        moves: &[Direction],
    ) -> Option<(Direction, f32)> {
        let mut best: Option<(Direction, f32)> = None;
        for &d in moves {
            if let Some(v) = self.move_value(board, d, depth)
                && best.is_none_or(|(_, bv)| v > bv)
            {
                best = Some((d, v));
            }
        }
        best
    }

    /// The value of a position with the player to move: the best move's value, 0 if no move is legal.
    pub(crate) fn max_node(&mut self, board: Bitboard, depth: u32, prob: f32) -> f32 {
        if depth <= 1 || prob < self.cutoff {
            return self.max_leaf(board, depth);
        }
        let after = self.after_states(board);
        // Every legal move's chance node probes the table (depth >= 2, path probability above the cut-off): fetch
        // their buckets together rather than one miss after another.
        if let Some(tt) = self.tt
            && depth >= TT_MIN_DEPTH
        {
            for &a in &after {
                if a != board {
                    tt.prefetch(self.key(a, prob));
                }
            }
        }
        let mut best = f32::NEG_INFINITY;
        for (d, after) in Direction::ALL.into_iter().zip(after) {
            if after != board {
                let v = self.reward(board, d) + self.chance_node(after, depth, prob);
                if v > best {
                    best = v;
                }
            }
        }
        if best == f32::NEG_INFINITY { 0.0 } else { best }
    }

    /// [`Search::max_node`] where every move's after-state is evaluated without a look further (as
    /// [`Search::chance_node`] does at depth 1 or below the cut-off): the four after-states are evaluated together
    /// ([`Evaluate::eval4`]), with the same values, counts and result.
    fn max_leaf(&mut self, board: Bitboard, depth: u32) -> f32 {
        let after = self.after_states(board);
        let values = self.eval.eval4(&after);
        let mut best = f32::NEG_INFINITY;
        for ((d, a), v) in Direction::ALL.into_iter().zip(after).zip(values) {
            if a != board {
                if depth <= 1 {
                    self.depth_limited = true;
                }
                self.evals += 1;
                let v = self.reward(board, d) + v;
                if v > best {
                    best = v;
                }
            }
        }
        if best == f32::NEG_INFINITY { 0.0 } else { best }
    }

    /// The boards after each move of [`Direction::ALL`] (written out: `Direction::ALL.map(..)` is left a call, not
    /// inlined, in the search's innermost loop).
    #[inline(always)]
    fn after_states(&self, board: Bitboard) -> [Bitboard; 4] {
        let t = self.tables;
        [
            t.slide(board, Direction::ALL[0]),
            t.slide(board, Direction::ALL[1]),
            t.slide(board, Direction::ALL[2]),
            t.slide(board, Direction::ALL[3]),
        ]
    }

    /// The table key of a chance node (see [`ProbClasses`]).
    #[inline(always)]
    fn key(&self, board: Bitboard, prob: f32) -> Bitboard {
        if self.prob_classes == ProbClasses::Same {
            classed_key(board, prob)
        } else {
            board
        }
    }

    /// The value of an after-state (a tile is about to spawn).
    pub fn chance_node(&mut self, board: Bitboard, depth: u32, prob: f32) -> f32 {
        if depth <= 1 || prob < self.cutoff {
            if depth <= 1 {
                self.depth_limited = true;
            }
            self.evals += 1;
            return self.eval.eval(board);
        }
        let key = self.key(board, prob);
        if depth >= TT_MIN_DEPTH {
            let found = match self.tt {
                None => None,
                Some(tt) if self.at_least => tt.probe_at_least(key, depth),
                Some(tt) => tt.probe(key, depth),
            };
            if self.tt.is_some() {
                self.probes += 1;
            }
            if let Some(v) = found {
                self.hits += 1;
                // The entry does not say whether its sub-tree stopped at the depth: assume it did, or a move whose
                // every chance node hits would end the iterative deepening early.
                self.depth_limited = true;
                return v;
            }
        }
        let nodes_before = self.nodes;
        self.nodes += 1;
        if let Some(deadline) = self.deadline {
            // A chance node at depth >= 2 costs a few microseconds with the hand-made evaluation, and a hundred or more
            // with the network (an evaluation that counts rewards: tens of scattered reads into its weights each);
            // the clock costs ~25 ns: check every 8 nodes, or every node with the network (at ~0.2 us an evaluation
            // and ~120 evaluations a node at depth 2, every 8 nodes let a search run ~0.2 ms past its deadline).
            self.check += 1;
            let every = if E::REWARDS { 0 } else { 7 };
            if (depth > 2 || self.check & every == 0) && Instant::now() >= deadline {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0.0;
        }
        let empty = count_empty(board);
        let n = empty as f32;
        let p2 = prob * self.p2 / n;
        let p4 = prob * self.p4 / n;
        let mut sum = 0f32;
        for i in 0..16 {
            if (board >> (4 * i)) & 0xF == 0 {
                let tile = 1u64 << (4 * i);
                sum += self.p2 * self.max_node(board | tile, depth - 1, p2);
                if self.p4 > 0.0 {
                    sum += self.p4 * self.max_node(board | (tile << 1), depth - 1, p4);
                }
            }
        }
        let value = sum / n;
        if !self.aborted
            && depth >= TT_MIN_DEPTH
            && let Some(tt) = self.tt
        {
            tt.store(key, depth, value, self.nodes - nodes_before);
        }
        value
    }
}

/// A deliberately plain expectimax (the reference for tests): the exact general engine for slides, no table, no
/// deadline, the same depth and cut-off semantics and the same order of floating-point operations. Returns the best
/// move and its value, `None` if no move is legal.
pub fn naive_expectimax<E: Evaluate>(
    board: &Board,
    depth: u32,
    four_chance: f64,
    cutoff: f32,
    eval: &E,
) -> Option<(Direction, f32)> {
    /// What every node of the reference shares.
    struct Ctx<'e> {
        w: (f32, f32),
        rewards: bool,
        cutoff: f32,
        ev: &'e dyn Fn(&Board) -> f32,
    }
    fn chance(b: &Board, depth: u32, prob: f32, cx: &Ctx) -> f32 {
        if depth <= 1 || prob < cx.cutoff {
            return (cx.ev)(b);
        }
        let cells = b.empty_cells();
        let n = cells.len() as f32;
        let (p2, p4) = (prob * cx.w.0 / n, prob * cx.w.1 / n);
        let mut sum = 0f32;
        for (r, c) in cells {
            let mut two = *b;
            two.set_exponent(r, c, 1);
            sum += cx.w.0 * max(&two, depth - 1, p2, cx);
            if cx.w.1 > 0.0 {
                let mut four = *b;
                four.set_exponent(r, c, 2);
                sum += cx.w.1 * max(&four, depth - 1, p4, cx);
            }
        }
        sum / n
    }
    fn max(b: &Board, depth: u32, prob: f32, cx: &Ctx) -> f32 {
        let mut best: Option<f32> = None;
        for d in Direction::ALL {
            let s = b.slide_general(d);
            if s.moved {
                let v = reward(&s, cx.rewards) + chance(&s.board, depth, prob, cx);
                if best.is_none_or(|bv| v > bv) {
                    best = Some(v);
                }
            }
        }
        best.unwrap_or(0.0)
    }
    fn reward(s: &crate::board::Slide, rewards: bool) -> f32 {
        if rewards { s.gained as f32 } else { 0.0 }
    }
    let value_of =
        |b: &Board| eval.eval(b.to_bitboard().unwrap_or_else(|| unreachable!("4x4 board")));
    let cx = Ctx {
        w: ((1.0 - four_chance) as f32, four_chance as f32),
        rewards: E::REWARDS,
        cutoff,
        ev: &value_of,
    };
    let mut best: Option<(Direction, f32)> = None;
    for d in Direction::ALL {
        let s = board.slide_general(d);
        if s.moved {
            let v = reward(&s, cx.rewards) + chance(&s.board, depth.max(1), 1.0, &cx);
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((d, v));
            }
        }
    }
    best
}
