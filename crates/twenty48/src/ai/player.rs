//! The AI player: iterative deepening under a time budget or a fixed depth, one or more threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::ai::clock::{Clock, StageShare};
use crate::ai::cutoff::CutoffShrink;
use crate::ai::eval::{Evaluator, TUNED, Weights};
use crate::ai::evaluate::Evaluate;
use crate::ai::general::GeneralSearch;
use crate::ai::guard::FormationGuard;
use crate::ai::ntuple::{self, DOWNGRADE_FROM, Downgraded, LateStage, Network, WeightsFileError};
use crate::ai::search::{DEFAULT_CUTOFF, ProbClasses, Search};
use crate::ai::tt::{BucketTable, TranspositionTable};
use crate::bitboard::count_empty;
use crate::board::Board;
use crate::direction::Direction;

/// What one search thread returns: (move index, value) pairs, aborted, depth-limited, nodes, evals, probes, hits.
type ThreadResult = (Vec<(usize, f32)>, bool, bool, u64, u64, u64, u64);

/// Depth used when neither a depth nor a time budget is given.
pub const DEFAULT_DEPTH: u32 = 3;
/// Deepest iteration tried under a time budget.
const MAX_DEPTH: u32 = 40;
/// Transposition table size: 2^20 slots of 16 bytes (16 MiB).
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
    type Err = String;

    /// `heuristic` or `network`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "heuristic" => Ok(EvalKind::Heuristic),
            "network" => Ok(EvalKind::Network),
            other => Err(format!(
                "unknown evaluation {other:?} (expected heuristic or network)"
            )),
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
    /// Depth by danger: one search to [`danger_depth`] of the configuration's depth (or [`DEFAULT_DEPTH`]) and the
    /// board, deeper when the board is crowded. The time budget is ignored.
    Danger,
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

/// Which transposition table the 4x4 search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableKind {
    /// One 16-byte slot per board, replaced always ([`TranspositionTable`]).
    Slots,
    /// Compact 8-byte entries in buckets of four, replaced by effort and age ([`BucketTable`]), in the same memory:
    /// the default (the same moves at fixed depths on the seeds measured, with 18% fewer positions at depth 3 and
    /// half at depth 4; see `BENCHMARKS.md`, "The search route").
    #[default]
    Buckets,
}

/// The table a player owns.
enum OwnedTable {
    Slots(TranspositionTable),
    Buckets(BucketTable),
}

impl OwnedTable {
    fn new(kind: TableKind) -> OwnedTable {
        match kind {
            TableKind::Slots => OwnedTable::Slots(TranspositionTable::new(TT_BITS)),
            // 8-byte entries: twice the entries in the same 16 MiB.
            TableKind::Buckets => OwnedTable::Buckets(BucketTable::new(TT_BITS + 1)),
        }
    }

    fn clear(&self) {
        match self {
            OwnedTable::Slots(t) => t.clear(),
            OwnedTable::Buckets(t) => t.clear(),
        }
    }

    fn new_generation(&self) {
        match self {
            OwnedTable::Slots(t) => t.new_generation(),
            OwnedTable::Buckets(t) => t.new_generation(),
        }
    }

    /// A search on this table.
    fn search<'a, E: Evaluate>(&'a self, eval: &'a E, four: f64, cutoff: f32) -> Search<'a, E> {
        match self {
            OwnedTable::Slots(t) => Search::new(eval, Some(t), four, cutoff),
            OwnedTable::Buckets(t) => Search::with_buckets(eval, t, four, cutoff),
        }
    }
}

/// The depth of [`Policy::Danger`] for a 4x4 bitboard: `base` on a middling board, one less (but not below 2) on an open
/// board (10 or more empty cells: the opening and the time after a big merge, when nothing is at stake), one more
/// with 3 or fewer empty cells, and two more with at most 1 empty cell and 8 or more distinct tiles (a crowded board
/// of many tile sizes: the position of a lost game). Crowded boards branch little, so the extra depth costs about as
/// much as the base depth on a middling board.
pub fn danger_depth(board: u64, base: u32) -> u32 {
    let empty = count_empty(board);
    let depth = match empty {
        10.. => base.saturating_sub(1).max(base.min(2)),
        4..=9 => base,
        2..=3 => base + 1,
        _ if count_distinct(board) >= 8 => base + 2,
        _ => base + 1,
    };
    depth.max(1)
}

/// Whether a configuration is time-budgeted play (a time budget and no depth).
fn timed(cfg: &SearchConfig) -> bool {
    cfg.ms_per_move.is_some() && cfg.depth.is_none()
}

/// The default weights: for time-budgeted play [`Weights::NNEONNEO`] (iterative deepening reaches 4 to 6 moves at
/// 0.5 ms, where they beat [`TUNED`]: 134k to 150k mean against 112k over 10 games each, see `BENCHMARKS.md`);
/// [`TUNED`] (tuned for depth 3) for fixed depths.
pub fn default_weights(cfg: &SearchConfig) -> Weights {
    if timed(cfg) { Weights::NNEONNEO } else { TUNED }
}

/// Probability cut-off of time-budgeted play: coarser than [`DEFAULT_CUTOFF`], so that iterations are cheaper and the
/// budget reaches deeper.
pub const TIMED_CUTOFF: f32 = 4e-3;
/// Share of the budget the search itself aims at by default (the rest pays for bookkeeping and overruns past the
/// deadline; [`Player::set_budget_share`]).
pub const BUDGET_SHARE: f64 = 0.85;

/// The corner the largest tile of `board` sits in, if it sits in one (the first corner found when several do).
pub fn largest_tile_corner(board: &Board) -> Option<(usize, usize)> {
    let n = board.size() - 1;
    let top = board.max_exponent();
    [(0, 0), (0, n), (n, 0), (n, n)]
        .into_iter()
        .find(|&(r, c)| board.exponent(r, c) == top)
}

/// Whether sliding `board` in `dir` leaves a tile of its largest value in corner `at`.
pub fn keeps_corner(board: &Board, dir: Direction, at: (usize, usize)) -> bool {
    board.slid(dir).0.exponent(at.0, at.1) >= board.max_exponent()
}

/// The moves of `legal` that keep the largest tile of `board` in its corner, when it is at least `2^from` and sits in
/// one and some legal move keeps it there; else `legal` as it is.
pub fn corner_moves(board: &Board, legal: Vec<Direction>, from: u8) -> Vec<Direction> {
    let Some(at) = largest_tile_corner(board).filter(|_| board.max_exponent() >= from) else {
        return legal;
    };
    let kept: Vec<Direction> = legal
        .iter()
        .copied()
        .filter(|&d| keeps_corner(board, d, at))
        .collect();
    if kept.is_empty() { legal } else { kept }
}

/// Number of distinct non-empty tile values on a bitboard.
pub fn count_distinct(b: u64) -> u32 {
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
    downgrade: Option<u8>,
    late: Option<Arc<Network>>,
    tt: OwnedTable,
    four_limit: Option<u32>,
    prob_classes: ProbClasses,
    tt_four_chance: f64,
    cutoff: f32,
    policy: Policy,
    table_life: TableLife,
    tt_at_least: bool,
    budget_share: f64,
    corner_lock: Option<u8>,
    /// Keeps the large tiles' formation at the root when that costs little ([`Player::set_formation_guard`]).
    formation_guard: Option<FormationGuard>,
    stats: SearchStats,
    /// The time of timed play: the balance of earlier moves and the reserve of a stage share.
    clock: Clock,
    /// How time moves from the opening to the late game ([`Player::set_stage_share`]); `None` by default.
    stage_share: Option<StageShare>,
    /// How the cut-off shrinks as iterative deepening goes deeper ([`Player::set_cutoff_shrink`]); `None` by default.
    cutoff_shrink: Option<CutoffShrink>,
    /// Asked before any search on 4x4 boards (an endgame table, [`Player::set_advice`]); off by default.
    advice: Option<Advice>,
}

/// A move for a 4x4 board (its capped bitboard) from outside the search, such as an endgame table's
/// ([`crate::endgame::Advisor`]), or `None` to search as usual.
pub type Advice = Arc<dyn Fn(u64) -> Option<Direction> + Send + Sync>;

impl Player {
    /// A player with the default weights for this configuration (see [`default_weights`]).
    pub fn new(cfg: SearchConfig) -> Player {
        Player::with_weights(cfg.clone(), default_weights(&cfg))
    }

    /// A player with the given evaluation weights. The probability cut-off is [`TIMED_CUTOFF`] for time-budgeted
    /// play, [`DEFAULT_CUTOFF`] otherwise.
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
            downgrade: Some(DOWNGRADE_FROM),
            late: None,
            tt: OwnedTable::new(TableKind::default()),
            four_limit: None,
            prob_classes: ProbClasses::Same,
            tt_four_chance: f64::NAN,
            table_life: TableLife::Game,
            tt_at_least: false,
            budget_share: BUDGET_SHARE,
            corner_lock: None,
            formation_guard: None,
            stats: SearchStats::default(),
            clock: Clock::new(),
            stage_share: None,
            cutoff_shrink: None,
            advice: None,
        }
    }

    /// A player whose search evaluates 4x4 positions with an n-tuple network (shared, not copied). Other board sizes
    /// still use the heuristic with [`default_weights`].
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

    /// Sets the share of the time budget the search aims at on average ([`BUDGET_SHARE`] by default): from 0.1 to 1,
    /// else an error that leaves the player as it was. The search stops before an iteration it predicts will not
    /// end in time, so it spends less than its allowance: at 1 ms/move, with 16384 on the board, 0.85 spends about 84%
    /// of the budget, 0.95 about 93%, and 1 about 98%, and then the work around each search takes the rest and more
    /// (`BENCHMARKS.md`).
    pub fn set_budget_share(&mut self, share: f64) -> Result<(), String> {
        if !(0.1..=1.0).contains(&share) {
            return Err(format!("budget share: from 0.1 to 1, not {share}"));
        }
        self.budget_share = share;
        Ok(())
    }

    /// The share of the time budget the search aims at ([`Player::set_budget_share`]).
    pub fn budget_share(&self) -> f64 {
        self.budget_share
    }

    /// Moves time from the opening to the late game in timed play ([`StageShare`]); `None` (the default) spends by the
    /// board's crowding alone. A fixed depth ignores it.
    pub fn set_stage_share(&mut self, stage: Option<StageShare>) {
        self.stage_share = stage;
    }

    /// How time moves from the opening to the late game ([`Player::set_stage_share`]).
    pub fn stage_share(&self) -> Option<StageShare> {
        self.stage_share
    }

    /// The time of timed play: the balance of earlier moves and the reserve of the stage share.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Keeps the largest tile in its corner from the exponent `from` on (`None`, the default: no such rule). When the
    /// largest tile is at least `2^from` and sits in a corner, only the moves that leave a tile of its value in that
    /// corner are searched, if there is any; otherwise all legal moves are.
    pub fn set_corner_lock(&mut self, from: Option<u8>) {
        self.corner_lock = from;
    }

    /// The exponent from which the largest tile is kept in its corner ([`Player::set_corner_lock`]).
    pub fn corner_lock(&self) -> Option<u8> {
        self.corner_lock
    }

    /// Plays, among the searched moves, the best one that keeps the large tiles' formation when it is worth nearly as
    /// much as the best move ([`FormationGuard`]); `None`, the default: the best move. Moves from the advice (the
    /// endgame stores) are played as before.
    pub fn set_formation_guard(&mut self, guard: Option<FormationGuard>) {
        self.formation_guard = guard;
    }

    /// The formation guard ([`Player::set_formation_guard`]).
    pub fn formation_guard(&self) -> Option<FormationGuard> {
        self.formation_guard
    }

    /// Sets the probability cut-off (0 disables it) and clears the transposition table.
    pub fn set_cutoff(&mut self, cutoff: f32) {
        self.cutoff = cutoff;
        self.tt.clear();
    }

    /// Lets the cut-off shrink as iterative deepening on the 4x4 bitboard goes past a depth ([`CutoffShrink`]), or
    /// keeps it for every iteration (`None`, the default). Clears the transposition table.
    pub fn set_cutoff_shrink(&mut self, shrink: Option<CutoffShrink>) {
        self.cutoff_shrink = shrink;
        self.tt.clear();
    }

    /// How the cut-off shrinks with the depth ([`Player::set_cutoff_shrink`]).
    pub fn cutoff_shrink(&self) -> Option<CutoffShrink> {
        self.cutoff_shrink
    }

    /// The cut-off of the iteration at `depth` on the 4x4 bitboard, and how many octaves below the player's cut-off
    /// it is.
    fn iteration_cutoff(&self, depth: u32) -> (f32, u32) {
        match self.cutoff_shrink {
            Some(s) if self.cutoff > 0.0 => (s.cutoff(self.cutoff, depth), s.shift(depth)),
            _ => (self.cutoff, 0),
        }
    }

    /// Whether an iteration at `depth` that pruned by the cut-off somewhere leaves more to find deeper: the next
    /// iteration's cut-off is smaller.
    fn cut_shrinks_after(&self, depth: u32) -> bool {
        self.cutoff > 0.0 && self.cutoff_shrink.is_some_and(|s| depth >= s.from())
    }

    /// Sets from which largest tile (an exponent) the network reads boards through [`ntuple::downgrade()`], or `None` to
    /// read every board as it is; [`DOWNGRADE_FROM`] by default. The heuristic ignores it. Clears the transposition
    /// table.
    pub fn set_downgrade(&mut self, from: Option<u8>) {
        self.downgrade = from;
        self.tt.clear();
    }

    /// Sets a late-stage network ([`ntuple::LateStage`]): with a network and downgrading, boards whose largest tile
    /// reaches the downgrading threshold are read by it, through downgrading, instead of by the network; `None` (the
    /// default) reads every board with the network. The heuristic ignores it. Clears the transposition table.
    pub fn set_late_network(&mut self, late: Option<Arc<Network>>) {
        self.late = late;
        self.tt.clear();
    }

    /// The late-stage network, if one is set ([`Player::set_late_network`]).
    pub fn late_network(&self) -> Option<&Arc<Network>> {
        self.late.as_ref()
    }

    /// Sets the depth policy.
    pub fn set_policy(&mut self, policy: Policy) {
        self.policy = policy;
    }

    /// Sets how long table entries live and whether an entry searched deeper than needed counts as a hit.
    pub fn set_table(&mut self, life: TableLife, at_least: bool) {
        self.table_life = life;
        self.tt_at_least = at_least;
        self.tt.clear();
    }

    /// Sets which transposition table the 4x4 search uses (a new, empty one).
    pub fn set_table_kind(&mut self, kind: TableKind) {
        self.tt = OwnedTable::new(kind);
    }

    /// The transposition table the 4x4 search uses.
    pub fn table_kind(&self) -> TableKind {
        match self.tt {
            OwnedTable::Slots(_) => TableKind::Slots,
            OwnedTable::Buckets(_) => TableKind::Buckets,
        }
    }

    /// Allows at most `limit` 4-spawns on a search path (see [`Search::set_four_limit`]); `None` (the default) for no
    /// limit. Clears the transposition table.
    pub fn set_four_limit(&mut self, limit: Option<u32>) {
        self.four_limit = limit;
        self.tt.clear();
    }

    /// How table entries depend on the octave of their path probability (see [`ProbClasses`]):
    /// [`ProbClasses::Same`] by default. Kept across moves, an entry stored deep in one move's tree, where the cut-off
    /// pruned it hard, is met near the root a move later; with [`ProbClasses::Off`] it answers there with its shallow
    /// value. Clears the transposition table.
    pub fn set_prob_classes(&mut self, classes: ProbClasses) {
        self.prob_classes = classes;
        self.tt.clear();
    }

    /// How table entries depend on the octave of their path probability ([`Player::set_prob_classes`]).
    pub fn prob_classes(&self) -> ProbClasses {
        self.prob_classes
    }

    /// The depth policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.cfg
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
        let legal = match self.corner_lock {
            Some(from) => corner_moves(board, legal, from),
            None => legal,
        };
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
        if let OwnedTable::Buckets(t) = &self.tt {
            // Entries of earlier moves stay valid, but are replaced first.
            t.new_age();
        }
        // Time: part of the budget per move plus part of the balance left by earlier moves (time saved by quick
        // moves, or owed by moves that overran), so the *average* time per move tracks `ms_per_move` while the
        // dangerous positions get more, and with a stage share the late game more than the opening (see [`Clock`]).
        // Depth 1 always runs.
        let (share, stage) = (self.budget_share, self.stage_share);
        let allowance = self
            .cfg
            .ms_per_move
            .map(|ms| self.clock.begin(board, ms, share, stage));
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
            return self.finish(board, start, &legal);
        }
        if let (true, Policy::Danger) = (bb, self.policy) {
            let depth = danger_depth(
                capped_bitboard(board),
                self.cfg.depth.unwrap_or(DEFAULT_DEPTH),
            );
            if let Some((values, _)) =
                self.iterate_bitboard(board, &legal, depth, four_chance, None)
            {
                self.stats.depth = depth;
                self.stats.values = values;
            }
            return self.finish(board, start, &legal);
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
        self.finish(board, start, &legal)
    }

    /// Records the time and picks the best move from the recorded values (the formation guard's, if it has one).
    fn finish(&mut self, board: &Board, start: Instant, legal: &[Direction]) -> Option<Direction> {
        self.stats.ms = start.elapsed().as_secs_f64() * 1000.0;
        if let Some(ms) = self.cfg.ms_per_move {
            self.clock.end(self.stats.ms, ms);
        }
        if let Some(d) = self
            .formation_guard
            .and_then(|g| g.choose(board, &self.stats.values))
        {
            return Some(d);
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
        match (self.network.clone(), self.downgrade) {
            (Some(net), None) => {
                self.iterate_with(&*net, board, legal, depth, four_chance, deadline)
            }
            (Some(net), Some(from)) => match self.late.clone() {
                Some(late) => {
                    let eval = LateStage {
                        main: &net,
                        late: &late,
                        from,
                    };
                    self.iterate_with(&eval, board, legal, depth, four_chance, deadline)
                }
                None => {
                    let eval = Downgraded { net: &net, from };
                    self.iterate_with(&eval, board, legal, depth, four_chance, deadline)
                }
            },
            (None, _) => {
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
        let (cutoff, shift) = self.iteration_cutoff(depth);
        let deeper_cut = self.cut_shrinks_after(depth);
        if threads == 1 {
            let mut s = self.tt.search(eval, four_chance, cutoff);
            s.set_deadline(deadline);
            s.set_tt_at_least(self.tt_at_least);
            s.set_four_limit(self.four_limit);
            s.set_prob_classes(self.prob_classes);
            s.set_class_shift(shift);
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
            let limited = s.depth_limited() || (deeper_cut && s.cut_limited());
            return (!s.aborted()).then_some((values, limited));
        }
        let next = AtomicUsize::new(0);
        let (tt, at_least, limit, classes) = (
            &self.tt,
            self.tt_at_least,
            self.four_limit,
            self.prob_classes,
        );
        if self.table_life != TableLife::Game {
            tt.new_generation();
        }
        let results: Vec<ThreadResult> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut s = tt.search(eval, four_chance, cutoff);
                        s.set_deadline(deadline);
                        s.set_tt_at_least(at_least);
                        s.set_four_limit(limit);
                        s.set_prob_classes(classes);
                        s.set_class_shift(shift);
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
                            s.depth_limited() || (deeper_cut && s.cut_limited()),
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
pub fn capped_bitboard(board: &Board) -> u64 {
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
    fn danger_depth_grows_as_the_board_fills() {
        let bb = |s: &str| capped_bitboard(&s.parse::<Board>().unwrap_or_else(|_| unreachable!()));
        let open = bb("2,0,0,0/0,0,0,0/0,0,4,0/0,0,0,0");
        let middling = bb("2,4,8,16/0,2,4,0/8,0,4,0/2,0,0,8");
        let crowded = bb("2,4,8,16/32,2,4,8/16,0,4,2/2,8,0,8");
        let lost = bb("2,4,8,16/32,64,128,256/512,2,4,8/16,0,2,4");
        let full_few = bb("2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,0");
        assert_eq!(danger_depth(open, 3), 2);
        assert_eq!(danger_depth(open, 2), 2);
        assert_eq!(danger_depth(middling, 3), 3);
        assert_eq!(danger_depth(crowded, 3), 4);
        assert_eq!(danger_depth(lost, 3), 5);
        assert_eq!(danger_depth(full_few, 3), 4);
        assert_eq!(danger_depth(open, 1), 1);
    }

    #[test]
    fn the_corner_lock_keeps_the_largest_tile_in_its_corner_when_it_can() {
        let parse = |s: &str| s.parse::<Board>().unwrap_or_else(|_| unreachable!());
        let legal_of = |b: &Board| -> Vec<Direction> {
            Direction::ALL
                .into_iter()
                .filter(|&d| b.can_slide(d))
                .collect()
        };
        // 16384 in the top-left corner: up and left keep it there, right and down slide it out.
        let board = parse("16384,2,0,0/4,0,0,0/0,0,0,0/0,0,0,2");
        let legal = legal_of(&board);
        assert_eq!(legal.len(), 4);
        let kept = corner_moves(&board, legal.clone(), 14);
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|&d| board.slid(d).0.exponent(0, 0) == 14));
        // Below the threshold, or out of a corner, every legal move stays.
        assert_eq!(corner_moves(&board, legal.clone(), 15), legal);
        let middle = parse("2,0,0,0/0,16384,0,0/0,0,0,0/0,0,0,4");
        let legal = legal_of(&middle);
        assert_eq!(corner_moves(&middle, legal.clone(), 14), legal);
        // No legal move keeps it: all of them stay.
        let stuck = parse("16384,2,4,8/2,4,8,16/0,0,0,0/0,0,0,0");
        let legal = legal_of(&stuck);
        assert_eq!(legal, vec![Direction::Down]);
        assert_eq!(corner_moves(&stuck, legal.clone(), 14), legal);
        // The player searches only the kept moves.
        let mut p = Player::with_weights(SearchConfig::depth(2), Weights::NNEONNEO);
        assert_eq!(p.corner_lock(), None);
        p.set_corner_lock(Some(14));
        for _ in 0..3 {
            let d = p.best_move(&board, 0.1).unwrap_or_else(|| unreachable!());
            assert_eq!(board.slid(d).0.exponent(0, 0), 14);
        }
    }

    #[test]
    fn policies_and_defaults() {
        assert_eq!(
            default_weights(&SearchConfig::millis(0.5)),
            Weights::NNEONNEO
        );
        assert_eq!(default_weights(&SearchConfig::depth(3)), TUNED);
        assert_eq!(
            Player::new(SearchConfig::millis(1.0)).prob_classes(),
            ProbClasses::Same
        );
        let mut p = Player::new(SearchConfig::millis(1.0));
        assert_eq!(p.budget_share(), BUDGET_SHARE);
        for bad in [0.0, 0.05, 1.01, f64::NAN] {
            assert!(p.set_budget_share(bad).is_err(), "{bad}");
            assert_eq!(p.budget_share(), BUDGET_SHARE);
        }
        assert!(p.set_budget_share(1.0).is_ok());
        assert_eq!(p.budget_share(), 1.0);
        assert_eq!(
            Player::new(SearchConfig::depth(3)).prob_classes(),
            ProbClasses::Same
        );
        let board: Board = "2,2,0,0/0,4,0,0/0,0,8,0/0,0,0,2"
            .parse()
            .unwrap_or_else(|_| unreachable!());
        for policy in [
            Policy::Iterative,
            Policy::NNEONNEO,
            Policy::Distinct { min: 1, offset: 4 },
        ] {
            for life in [TableLife::RootMove, TableLife::Move, TableLife::Game] {
                let mut p = Player::with_weights(SearchConfig::depth(2), Weights::NNEONNEO);
                p.set_policy(policy);
                p.set_table(life, life != TableLife::Game);
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
