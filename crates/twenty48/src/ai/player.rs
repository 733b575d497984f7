//! The AI player: iterative deepening under a time budget or a fixed depth, one or more threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::ai::clock::Clock;
use crate::ai::eval::{Evaluator, TUNED, Weights};
use crate::ai::evaluate::Evaluate;
use crate::ai::general::GeneralSearch;
use crate::ai::ntuple::{self, DOWNGRADE_FROM, Downgraded, Network, WeightsFileError};
use crate::ai::search::{DEFAULT_CUTOFF, ProbClasses, Search};
use crate::ai::tt::BucketTable;
use crate::board::Board;
use crate::direction::Direction;
use crate::error::EvalKindError;

/// What one search thread returns: (move index, value) pairs, aborted, depth-limited, nodes, evals, probes, hits.
type ThreadResult = (Vec<(usize, f32)>, bool, bool, u64, u64, u64, u64);

/// Depth used when neither a depth nor a time budget is given.
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// Deepest iteration tried under a time budget.
const MAX_DEPTH: u32 = 40;
/// Transposition table size: 16 MiB, 2^(TT_BITS + 1) entries of 8 bytes.
const TT_BITS: u32 = 20;

/// How hard the AI thinks.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchConfig {
    /// Fixed search depth in player moves (with `ms_per_move` also set: the deepest iteration allowed).
    pub depth: Option<u32>,
    /// Time budget per move in milliseconds (iterative deepening); `None` with `depth` set: fixed depth.
    pub ms_per_move: Option<f64>,
    /// Search threads (1 or more); 2 splits the root moves over two threads.
    pub threads: usize,
}

impl SearchConfig {
    /// A fixed-depth, single-threaded configuration (deterministic).
    pub fn depth(depth: u32) -> SearchConfig {
        SearchConfig {
            depth: Some(depth),
            ms_per_move: None,
            threads: 1,
        }
    }

    /// A time-budgeted, single-threaded configuration.
    pub fn millis(ms: f64) -> SearchConfig {
        SearchConfig {
            depth: None,
            ms_per_move: Some(ms),
            threads: 1,
        }
    }
}

impl Default for SearchConfig {
    /// 20 ms per move, one thread.
    fn default() -> Self {
        SearchConfig::millis(20.0)
    }
}

/// Which evaluation the search uses on 4x4 boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The hand-made row-table heuristic ([`Evaluator`]).
    #[default]
    Heuristic,
    /// The learned n-tuple network ([`Network`]).
    Network,
}

impl std::str::FromStr for EvalKind {
    type Err = EvalKindError;

    /// `heuristic` or `network`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "heuristic" => Ok(EvalKind::Heuristic),
            "network" => Ok(EvalKind::Network),
            other => Err(EvalKindError(other.to_string())),
        }
    }
}

impl std::fmt::Display for EvalKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalKind::Heuristic => "heuristic",
            EvalKind::Network => "network",
        })
    }
}

/// How the player chooses the depth of its search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The configuration's fixed depth, or iterative deepening under its time budget.
    Iterative,
    /// nneonneo/2048-ai's rule: one search expanding `max(min, distinct - offset)` levels of spawns, where `distinct`
    /// counts the distinct tile values on the board (with `min = 3, offset = 2` exactly nneonneo's); the probability
    /// cut-off prunes the deep levels. The time budget is ignored.
    Distinct {
        /// Fewest spawn levels.
        min: u32,
        /// Subtracted from the number of distinct tiles.
        offset: u32,
    },
}

impl Policy {
    /// nneonneo/2048-ai's depth rule.
    pub const NNEONNEO: Policy = Policy::Distinct { min: 3, offset: 2 };
}

/// How long transposition-table entries live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableLife {
    /// Emptied before each root move is searched (nneonneo/2048-ai).
    RootMove,
    /// Emptied before each call to [`Player::best_move`].
    Move,
    /// Kept across moves.
    Game,
}

/// Whether a configuration is time-budgeted play (a time budget and no depth).
fn timed(cfg: &SearchConfig) -> bool {
    cfg.ms_per_move.is_some() && cfg.depth.is_none()
}

/// The default weights: for time-budgeted play [`Weights::NNEONNEO`] (iterative deepening reaches 4 to 6 moves at
/// 0.5 ms, where they beat `TUNED`: 134k to 150k mean against 112k over 10 games each, see `BENCHMARKS.md`);
/// `TUNED` (tuned for depth 3) for fixed depths.
pub(crate) fn default_weights(cfg: &SearchConfig) -> Weights {
    if timed(cfg) { Weights::NNEONNEO } else { TUNED }
}

/// Probability cut-off of time-budgeted play: coarser than `DEFAULT_CUTOFF`, so that iterations are cheaper and the
/// budget reaches deeper.
pub(crate) const TIMED_CUTOFF: f32 = 4e-3;
/// Share of the budget the search itself aims at by default (the rest pays for bookkeeping and overruns past the
/// deadline).
pub(crate) const BUDGET_SHARE: f64 = 0.85;

/// Number of distinct non-empty tile values on a bitboard.
fn count_distinct(b: u64) -> u32 {
    let mut seen = 0u32;
    for i in 0..16 {
        seen |= 1 << ((b >> (4 * i)) & 0xF);
    }
    (seen >> 1).count_ones()
}

/// Statistics of the last search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchStats {
    /// Deepest completed iteration.
    pub depth: u32,
    /// Chance nodes expanded (all iterations).
    pub nodes: u64,
    /// Static evaluations (all iterations).
    pub evals: u64,
    /// Transposition-table probes (all iterations).
    pub probes: u64,
    /// Transposition-table probes that hit (all iterations).
    pub hits: u64,
    /// Wall time in milliseconds.
    pub ms: f64,
    /// Values of the legal moves at the deepest completed iteration (higher is better).
    pub values: Vec<(Direction, f32)>,
}

/// An AI player. Keeps its evaluation tables and transposition table across moves.
///
/// ```
/// use twenty48::ai::{Player, SearchConfig};
/// use twenty48::Board;
///
/// let board: Board = "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2".parse().unwrap();
/// let mut player = Player::new(SearchConfig::depth(2));
/// let dir = player.best_move(&board, 0.1).unwrap();
/// assert!(board.can_slide(dir));
/// ```
pub struct Player {
    cfg: SearchConfig,
    weights: Weights,
    eval: Arc<Evaluator>,
    network: Option<Arc<Network>>,
    tt: BucketTable,
    tt_four_chance: f64,
    cutoff: f32,
    policy: Policy,
    table_life: TableLife,
    tt_at_least: bool,
    prob_classes: ProbClasses,
    stats: SearchStats,
    /// The time of timed play: the balance of earlier moves.
    clock: Clock,
    /// Asked before any search on 4x4 boards (an endgame table, [`Player::set_advice`]); off by default.
    advice: Option<Advice>,
}

/// A move for a 4x4 board (its capped bitboard) from outside the search, such as an endgame table's
/// (`parlor-lab`'s table advisor) or a distilled store's ([`crate::endgame::shipped::advice`]), or `None` to search
/// as usual.
pub type Advice = Arc<dyn Fn(u64) -> Option<Direction> + Send + Sync>;

impl Player {
    /// A player with the default weights for this configuration (see `default_weights`).
    pub fn new(cfg: SearchConfig) -> Player {
        Player::with_weights(cfg.clone(), default_weights(&cfg))
    }

    /// A player with the given evaluation weights. The probability cut-off is `TIMED_CUTOFF` for time-budgeted
    /// play, `DEFAULT_CUTOFF` otherwise.
    pub fn with_weights(cfg: SearchConfig, weights: Weights) -> Player {
        Player {
            policy: Policy::Iterative,
            cutoff: if timed(&cfg) {
                TIMED_CUTOFF
            } else {
                DEFAULT_CUTOFF
            },
            cfg,
            weights,
            eval: Arc::new(Evaluator::new(weights)),
            network: None,
            tt: BucketTable::new(TT_BITS + 1),
            tt_four_chance: f64::NAN,
            table_life: TableLife::Game,
            tt_at_least: false,
            prob_classes: ProbClasses::Same,
            stats: SearchStats::default(),
            clock: Clock::new(),
            advice: None,
        }
    }

    /// A player whose search evaluates 4x4 positions with an n-tuple network (shared, not copied). Other board sizes
    /// still use the heuristic with `default_weights`.
    pub fn with_network(cfg: SearchConfig, network: Arc<Network>) -> Player {
        let mut p = Player::new(cfg);
        p.network = Some(network);
        p
    }

    /// A player with the chosen evaluation. For [`EvalKind::Network`] the shipped network is loaded on first use
    /// ([`ntuple::shipped()`]), and with it the compiled-in endgame stores ([`crate::endgame::shipped::shipped`]),
    /// whose move is played outright on the boards they hold. When the network cannot be loaded the player falls back
    /// to the heuristic and the error is returned beside it, for the caller to show; when only the stores cannot be,
    /// the player has the network without them ([`crate::endgame::shipped::shipped`] says why).
    pub fn with_eval(
        cfg: SearchConfig,
        kind: EvalKind,
    ) -> (Player, Option<&'static WeightsFileError>) {
        match kind {
            EvalKind::Heuristic => (Player::new(cfg), None),
            EvalKind::Network => match ntuple::shipped() {
                Ok(net) => {
                    let mut player = Player::with_network(cfg, Arc::clone(net));
                    if let Ok(stores) = crate::endgame::shipped::shipped() {
                        player
                            .set_advice(Some(crate::endgame::shipped::advice(Arc::clone(stores))));
                    }
                    (player, None)
                }
                Err(e) => (Player::new(cfg), Some(e)),
            },
        }
    }

    /// Whether this player asks advice (an endgame table or store, [`Player::set_advice`]) before searching.
    pub fn has_advice(&self) -> bool {
        self.advice.is_some()
    }

    /// The evaluation this player uses on 4x4 boards.
    pub fn eval_kind(&self) -> EvalKind {
        if self.network.is_some() {
            EvalKind::Network
        } else {
            EvalKind::Heuristic
        }
    }

    /// Sets the probability cut-off (0 disables it) and clears the transposition table.
    pub fn set_cutoff(&mut self, cutoff: f32) {
        self.cutoff = cutoff;
        self.tt.clear();
    }

    /// Sets the depth policy.
    pub fn set_policy(&mut self, policy: Policy) {
        self.policy = policy;
    }

    /// Sets how long table entries live, whether an entry searched deeper than needed counts as a hit, and how the
    /// path probability enters the keys ([`ProbClasses`]: [`ProbClasses::Same`] by default, so that a value the
    /// cut-off pruned deep in one move's tree does not answer near the root a move later; [`ProbClasses::Off`] keys by
    /// the board alone, as nneonneo/2048-ai does). Clears the table.
    pub fn set_table(&mut self, life: TableLife, at_least: bool, classes: ProbClasses) {
        self.table_life = life;
        self.tt_at_least = at_least;
        self.prob_classes = classes;
        self.tt.clear();
    }

    /// Asks `advice` first on every 4x4 board and plays its move when it gives a legal one (`None`: search always,
    /// the default).
    pub fn set_advice(&mut self, advice: Option<Advice>) {
        self.advice = advice;
    }

    /// Statistics of the last [`Player::best_move`].
    pub fn last_stats(&self) -> &SearchStats {
        &self.stats
    }

    /// The move the AI plays on `board` when a spawned tile is a 4 with probability `four_chance`; `None` only when no
    /// move is legal. Always a move that changes the board.
    pub fn best_move(&mut self, board: &Board, four_chance: f64) -> Option<Direction> {
        let start = Instant::now();
        let legal: Vec<Direction> = Direction::ALL
            .into_iter()
            .filter(|&d| board.can_slide(d))
            .collect();
        self.stats = SearchStats::default();
        match legal.len() {
            0 => return None,
            1 => {
                self.stats.values = vec![(legal[0], 0.0)];
                return Some(legal[0]);
            }
            _ => {}
        }
        if let Some(advice) = &self.advice
            && board.size() == 4
            && let Some(d) = advice(capped_bitboard(board)).filter(|d| legal.contains(d))
        {
            self.stats.values = vec![(d, 0.0)];
            self.stats.ms = start.elapsed().as_secs_f64() * 1000.0;
            return Some(d);
        }
        let four_chance = four_chance.clamp(0.0, 1.0);
        if four_chance.to_bits() != self.tt_four_chance.to_bits() {
            self.tt.clear();
            self.tt_four_chance = four_chance;
        }
        // Entries of earlier moves stay valid, but are replaced first.
        self.tt.new_age();
        // Time: part of the budget per move plus part of the balance left by earlier moves (time saved by quick
        // moves, or owed by moves that overran), so the *average* time per move tracks `ms_per_move` while the
        // dangerous positions get more (see `Clock`).
        // Depth 1 always runs.
        let allowance = self
            .cfg
            .ms_per_move
            .map(|ms| self.clock.begin(board, ms, BUDGET_SHARE));
        let budget = allowance.map(|ms| Duration::from_secs_f64(ms / 1000.0));
        let max_depth = match (self.cfg.depth, budget) {
            (Some(d), _) => d.max(1),
            (None, Some(_)) => MAX_DEPTH,
            (None, None) => DEFAULT_DEPTH,
        };
        let bb = board.size() == 4;
        if let (true, Policy::Distinct { min, offset }) = (bb, self.policy) {
            let levels = count_distinct(capped_bitboard(board))
                .saturating_sub(offset)
                .max(min);
            if let Some((values, _)) =
                self.iterate_bitboard(board, &legal, levels + 1, four_chance, None)
            {
                self.stats.depth = levels + 1;
                self.stats.values = values;
            }
            return self.finish(start, &legal);
        }
        let mut last_time: Option<Duration> = None;
        let mut growth = 8.0f64;
        for depth in 1..=max_depth {
            if let (Some(budget), Some(last)) = (budget, last_time) {
                let predicted = last.mul_f64(growth);
                if start.elapsed() + predicted > budget {
                    break;
                }
            }
            let deadline = if depth > 1 {
                budget.map(|b| start + b)
            } else {
                None
            };
            let t0 = Instant::now();
            let outcome = if bb {
                self.iterate_bitboard(board, &legal, depth, four_chance, deadline)
            } else {
                self.iterate_general(board, &legal, depth, four_chance, deadline)
            };
            let Some((values, limited)) = outcome else {
                break;
            };
            self.stats.depth = depth;
            self.stats.values = values;
            let t = t0.elapsed();
            if let Some(last) = last_time
                && last > Duration::from_micros(20)
            {
                growth = (t.as_secs_f64() / last.as_secs_f64()).clamp(2.0, 100.0);
            }
            last_time = Some(t);
            if !limited {
                break;
            }
        }
        self.finish(start, &legal)
    }

    /// Records the time and picks the best move from the recorded values.
    fn finish(&mut self, start: Instant, legal: &[Direction]) -> Option<Direction> {
        self.stats.ms = start.elapsed().as_secs_f64() * 1000.0;
        if let Some(ms) = self.cfg.ms_per_move {
            self.clock.end(self.stats.ms, ms);
        }
        let mut best: Option<(Direction, f32)> = None;
        for &(d, v) in &self.stats.values {
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((d, v));
            }
        }
        best.map(|(d, _)| d).or(Some(legal[0]))
    }

    /// One iteration on the 4x4 bitboard. `None` if the deadline passed.
    fn iterate_bitboard(
        &mut self,
        board: &Board,
        legal: &[Direction],
        depth: u32,
        four_chance: f64,
        deadline: Option<Instant>,
    ) -> Option<(Vec<(Direction, f32)>, bool)> {
        match self.network.clone() {
            Some(net) => {
                let eval = Downgraded {
                    net: &net,
                    from: DOWNGRADE_FROM,
                };
                self.iterate_with(&eval, board, legal, depth, four_chance, deadline)
            }
            None => {
                let eval = Arc::clone(&self.eval);
                self.iterate_with(&*eval, board, legal, depth, four_chance, deadline)
            }
        }
    }

    /// [`Player::iterate_bitboard`] with this evaluation.
    fn iterate_with<E: Evaluate>(
        &mut self,
        eval: &E,
        board: &Board,
        legal: &[Direction],
        depth: u32,
        four_chance: f64,
        deadline: Option<Instant>,
    ) -> Option<(Vec<(Direction, f32)>, bool)> {
        let b = capped_bitboard(board);
        // Root moves come from the exact board: a capped tile may look mergeable to the bitboard when it is not.
        let threads = self.cfg.threads.clamp(1, legal.len());
        let cutoff = self.cutoff;
        if threads == 1 {
            let mut s = Search::with_buckets(eval, &self.tt, four_chance, cutoff);
            s.set_deadline(deadline);
            s.set_tt_at_least(self.tt_at_least);
            s.set_prob_classes(self.prob_classes);
            let (tt, life) = (&self.tt, self.table_life);
            if life == TableLife::Move {
                tt.new_generation();
            }
            let values: Vec<(Direction, f32)> = legal
                .iter()
                .filter_map(|&d| {
                    if life == TableLife::RootMove {
                        tt.new_generation();
                    }
                    s.move_value(b, d, depth).map(|v| (d, v))
                })
                .collect();
            self.stats.nodes += s.nodes;
            self.stats.evals += s.evals;
            self.stats.probes += s.probes;
            self.stats.hits += s.hits;
            let limited = s.depth_limited();
            return (!s.aborted()).then_some((values, limited));
        }
        let next = AtomicUsize::new(0);
        let (tt, at_least, classes) = (&self.tt, self.tt_at_least, self.prob_classes);
        if self.table_life != TableLife::Game {
            tt.new_generation();
        }
        let results: Vec<ThreadResult> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut s = Search::with_buckets(eval, tt, four_chance, cutoff);
                        s.set_deadline(deadline);
                        s.set_tt_at_least(at_least);
                        s.set_prob_classes(classes);
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= legal.len() {
                                break;
                            }
                            if let Some(v) = s.move_value(b, legal[i], depth) {
                                out.push((i, v));
                            }
                        }
                        (
                            out,
                            s.aborted(),
                            s.depth_limited(),
                            s.nodes,
                            s.evals,
                            s.probes,
                            s.hits,
                        )
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut values: Vec<(usize, f32)> = Vec::new();
        let (mut aborted, mut limited) = (results.len() != threads, false);
        for (out, a, l, nodes, evals, probes, hits) in results {
            values.extend(out);
            aborted |= a;
            limited |= l;
            self.stats.nodes += nodes;
            self.stats.evals += evals;
            self.stats.probes += probes;
            self.stats.hits += hits;
        }
        values.sort_by_key(|&(i, _)| i);
        let values = values.into_iter().map(|(i, v)| (legal[i], v)).collect();
        (!aborted).then_some((values, limited))
    }

    /// One iteration on a general board. `None` if the deadline passed.
    fn iterate_general(
        &mut self,
        board: &Board,
        legal: &[Direction],
        depth: u32,
        four_chance: f64,
        deadline: Option<Instant>,
    ) -> Option<(Vec<(Direction, f32)>, bool)> {
        let mut s = GeneralSearch::new(&self.weights, four_chance, self.cutoff);
        s.set_deadline(deadline);
        let values = s.root(board, depth, legal);
        self.stats.nodes += s.nodes;
        self.stats.evals += s.evals;
        (!s.aborted()).then_some((values, s.depth_limited()))
    }
}

/// The 4x4 board as a bitboard with exponents above 15 capped at 15 (the search may cap; the game stays exact).
pub(crate) fn capped_bitboard(board: &Board) -> u64 {
    let mut b = 0u64;
    for r in 0..4 {
        for c in 0..4 {
            b |= (board.exponent(r, c).min(15) as u64) << (4 * (4 * r + c));
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_tiles_are_counted() {
        assert_eq!(count_distinct(0), 0);
        assert_eq!(count_distinct(0x0000_0000_0000_1121), 2);
        assert_eq!(count_distinct(0xFEDC_BA98_7654_3210), 15);
    }

    #[test]
    fn policies_and_defaults() {
        assert_eq!(
            default_weights(&SearchConfig::millis(0.5)),
            Weights::NNEONNEO
        );
        assert_eq!(default_weights(&SearchConfig::depth(3)), TUNED);
        let board: Board = "2,2,0,0/0,4,0,0/0,0,8,0/0,0,0,2"
            .parse()
            .unwrap_or_else(|_| unreachable!());
        for policy in [
            Policy::Iterative,
            Policy::NNEONNEO,
            Policy::Distinct { min: 1, offset: 4 },
        ] {
            for (life, classes) in [
                (TableLife::RootMove, ProbClasses::Off),
                (TableLife::Move, ProbClasses::Same),
                (TableLife::Game, ProbClasses::Same),
            ] {
                let mut p = Player::with_weights(SearchConfig::depth(2), Weights::NNEONNEO);
                p.set_policy(policy);
                p.set_table(life, life != TableLife::Game, classes);
                let d = p.best_move(&board, 0.1);
                assert!(d.is_some_and(|d| board.can_slide(d)));
                if policy == Policy::NNEONNEO {
                    // 4 distinct tiles: max(3, 4 - 2) = 3 levels of spawns = 4 moves.
                    assert_eq!(p.last_stats().depth, 4);
                }
            }
        }
    }
}
