//! Iterative-deepening negamax alpha-beta with a transposition table, move ordering and repetition awareness.

use std::time::Duration;
use web_time::Instant;

use crate::eval::evaluate;
use crate::{Move, MoveList, Position};

/// Score of a win found at ply 0 (a win at ply p scores `MATE - p`).
pub const MATE: i32 = 30_000;
const INF: i32 = 32_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = MATE - 1_000;
const MAX_PLY: usize = 128;

/// Search limits; the search stops at whichever is reached first (at least depth 1 is always completed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Node budget (reproducible).
    pub nodes: Option<u64>,
    /// Wall-clock budget.
    pub time: Option<Duration>,
}

impl Limits {
    /// Fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Node budget.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Time budget.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move.
    pub mv: Move,
    /// Score for the side to move: positive is good; beyond ±29000 a forced win/loss (`30000 - plies`).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl SearchResult {
    /// Plies to a forced win (positive) or loss (negative), if the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= WIN_BOUND {
            Some(MATE - self.score)
        } else if self.score <= -WIN_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}

/// Which optimisations the search uses (the test reference turns them off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Use the transposition table.
    pub tt: bool,
    /// Order moves (TT move, threats, killers, history).
    pub ordering: bool,
    /// Use TT values only from searches of exactly the same depth (for exact comparisons in tests).
    pub tt_exact_depth: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            tt: true,
            ordering: true,
            tt_exact_depth: false,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i16,
    mv: u16,
    depth: u8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// A reusable searcher (holds the transposition table and ordering tables).
pub struct Searcher {
    config: SearchConfig,
    tt: Vec<TtEntry>,
    killers: [[u16; 2]; MAX_PLY],
    history: Box<[[i32; 512]; 2]>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    may_stop: bool,
    path: Vec<u64>,
    cap_left: Option<u32>,
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

impl Searcher {
    /// A searcher with a table of `2^tt_bits` entries (16 bytes each).
    pub fn new(tt_bits: u32, config: SearchConfig) -> Searcher {
        let size = if config.tt {
            1usize << tt_bits.min(26)
        } else {
            1
        };
        Searcher {
            config,
            tt: vec![TtEntry::default(); size],
            killers: [[0; 2]; MAX_PLY],
            history: Box::new([[0; 512]; 2]),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            may_stop: true,
            path: Vec::new(),
            cap_left: None,
        }
    }

    /// Forgets everything learnt (table, killers, history).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
        self.killers = [[0; 2]; MAX_PLY];
        *self.history = [[0; 512]; 2];
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn begin(&mut self, history: &[u64], limits: Limits, plies_left: Option<u32>) {
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| Instant::now() + t);
        self.path.clear();
        self.path.extend_from_slice(history);
        self.cap_left = plies_left;
        self.killers = [[0; 2]; MAX_PLY];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
    }

    fn check_limits(&mut self) {
        if !self.may_stop {
            return;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    fn is_repetition(&self, key: u64) -> bool {
        // The last entry is the parent (other side to move); same-side positions are 2, 4, ... back.
        self.path.iter().rev().skip(1).step_by(2).any(|&k| k == key)
    }

    /// Fixed-depth value of a position (no history), for tests and analysis.
    pub fn value(&mut self, pos: &Position, depth: u32) -> i32 {
        self.begin(&[], Limits::default(), None);
        self.may_stop = true;
        self.negamax(pos, depth as i32, 0, -INF, INF).0
    }

    /// Moves that matter at a node: all legal moves, or only those covering a single opponent threat.
    /// `Err(score)` if the node is decided (blockade or unstoppable threats).
    fn node_moves(pos: &Position, ply: i32) -> Result<MoveList, i32> {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Err(-(MATE - ply));
        }
        let threats = pos.goal_threats(pos.side_to_move().opponent());
        if threats != 0 {
            if threats.count_ones() >= 2 {
                return Err(-(MATE - (ply + 2)));
            }
            let t = threats.trailing_zeros() as i32;
            moves.retain(|m| m.from.index() as i32 + m.dir.shift() == t);
            if moves.is_empty() {
                return Err(-(MATE - (ply + 2)));
            }
        }
        Ok(moves)
    }

    /// Terminal checks shared by all nodes: ply cap, goal in one, repetition.
    fn early(&self, pos: &Position, ply: i32) -> Option<(i32, bool)> {
        if let Some(left) = self.cap_left
            && ply >= left as i32
        {
            return Some((0, true));
        }
        if pos.has_goal_move() {
            return Some((MATE - (ply + 1), false));
        }
        if ply > 0 && self.is_repetition(pos.hash()) {
            return Some((0, true));
        }
        None
    }

    fn order(&self, pos: &Position, moves: &mut MoveList, tt_move: u16, ply: usize) {
        let side = pos.side_to_move();
        let opp_tops = pos.tops(side.opponent());
        let threat_row = pos.row_mask(pos.dims().home_row(side.opponent()) as i32);
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let hist = &self.history[side.index()];
        let score = |m: Move| -> i64 {
            let c = m.code();
            if c == tt_move {
                return 1 << 40;
            }
            let t = m.from.index() as i32 + m.dir.shift();
            let tb = if (0..64).contains(&t) { 1u64 << t } else { 0 };
            let mut s = hist[c as usize] as i64;
            if tb & threat_row != 0 {
                s += 1 << 34;
            }
            if tb & opp_tops != 0 {
                s += 1 << 33;
            }
            if c == killers[0] {
                s += 1 << 32;
            } else if c == killers[1] {
                s += 1 << 31;
            }
            s
        };
        moves
            .as_mut_slice()
            .sort_by_cached_key(|&m| std::cmp::Reverse(score(m)));
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return (0, true);
        }
        if let Some(r) = self.early(pos, ply) {
            return r;
        }
        if depth <= 0 || ply as usize >= MAX_PLY - 1 {
            return (evaluate(pos), false);
        }
        let mut moves = match Self::node_moves(pos, ply) {
            Ok(m) => m,
            Err(s) => return (s, false),
        };
        let key = pos.hash();
        let mut tt_move = 0;
        if self.config.tt {
            let e = self.tt[key as usize & (self.tt.len() - 1)];
            if e.key == key && e.bound != 0 {
                tt_move = e.mv;
                let usable = if self.config.tt_exact_depth {
                    e.depth as i32 == depth
                } else {
                    e.depth as i32 >= depth
                };
                if usable {
                    let s = from_tt(e.score as i32, ply);
                    if e.bound == EXACT
                        || (e.bound == LOWER && s >= beta)
                        || (e.bound == UPPER && s <= alpha)
                    {
                        return (s, false);
                    }
                }
            }
        }
        if self.config.ordering && moves.len() > 1 {
            self.order(pos, &mut moves, tt_move, ply as usize);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_mv = 0u16;
        let mut rep = false;
        self.path.push(key);
        for &mv in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let (v, r) = self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if self.stopped {
                self.path.pop();
                return (0, true);
            }
            let v = -v;
            rep |= r;
            if v > best {
                best = v;
                best_mv = mv.code();
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if self.config.ordering {
                    let p = (ply as usize).min(MAX_PLY - 1);
                    if self.killers[p][0] != best_mv {
                        self.killers[p][1] = self.killers[p][0];
                        self.killers[p][0] = best_mv;
                    }
                    let h = &mut self.history[pos.side_to_move().index()][best_mv as usize];
                    *h = (*h + depth * depth).min(1 << 24);
                }
                break;
            }
        }
        self.path.pop();
        if self.config.tt && !rep {
            let bound = if best <= alpha0 {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            let idx = key as usize & (self.tt.len() - 1);
            self.tt[idx] = TtEntry {
                key,
                score: to_tt(best, ply) as i16,
                mv: best_mv,
                depth: depth.clamp(0, 255) as u8,
                bound,
            };
        }
        (best, rep)
    }

    /// Iterative deepening from `pos`; `history` holds the hashes of the game's earlier positions (oldest first)
    /// and `plies_left` the plies until the ply cap. With `noise > 0`, every root move gets an exact score and a
    /// random offset in `-noise..=noise` drawn from `rng` before the best is chosen (weaker, human-like play).
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        plies_left: Option<u32>,
        limits: Limits,
        noise: i32,
        rng: &mut dyn FnMut() -> u64,
    ) -> Option<SearchResult> {
        self.begin(history, limits, plies_left);
        let all = pos.legal_moves();
        if all.is_empty() {
            return None;
        }
        // A win in one is always taken.
        if let Some(&g) = all.iter().find(|&&m| pos.is_goal_move(m)) {
            return Some(SearchResult {
                mv: g,
                score: MATE - 1,
                depth: 1,
                nodes: 1,
            });
        }
        let moves = Self::node_moves(pos, 0).unwrap_or(all);
        let mut root: Vec<(Move, i32)> = moves.iter().map(|&m| (m, 0)).collect();
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 2).max(1) as i32;
        let mut best: Option<SearchResult> = None;
        let key = pos.hash();
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            self.path.push(key);
            let mut done = true;
            self.may_stop = depth > 1;
            for entry in root.iter_mut() {
                let mut child = *pos;
                child.play_unchecked(entry.0);
                let a = if noise > 0 { -INF } else { alpha };
                let (v, _) = self.negamax(&child, depth - 1, 1, -INF, -a);
                if self.stopped {
                    done = false;
                    break;
                }
                entry.1 = -v;
                alpha = alpha.max(-v);
            }
            self.path.pop();
            self.may_stop = true;
            if !done {
                break;
            }
            // Stable sort keeps earlier order among equals; moves that failed low keep their bound as a score.
            root.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let (mv, score) = if noise > 0 {
                let noisy = |s: i32, r: u64| {
                    if s.abs() >= WIN_BOUND {
                        s
                    } else {
                        s + (r % (2 * noise as u64 + 1)) as i32 - noise
                    }
                };
                let mut pick = root[0];
                let mut pick_v = i32::MIN;
                for &(m, s) in &root {
                    let v = noisy(s, rng());
                    if v > pick_v {
                        pick_v = v;
                        pick = (m, s);
                    }
                }
                pick
            } else {
                root[0]
            };
            best = Some(SearchResult {
                mv,
                score,
                depth: depth as u32,
                nodes: self.nodes,
            });
            if score.abs() >= WIN_BOUND || self.stopped {
                break;
            }
        }
        if let Some(b) = best.as_mut() {
            b.nodes = self.nodes;
        }
        best
    }
}

/// Plain negamax (no pruning, no table, no ordering) with the same node rules, evaluation and repetition handling
/// as [`Searcher`]: the reference the optimised search is tested against. Exponential: keep `depth` small.
pub fn reference_value(pos: &Position, depth: u32) -> i32 {
    fn go(pos: &Position, depth: i32, ply: i32, path: &mut Vec<u64>) -> i32 {
        if pos.has_goal_move() {
            return MATE - (ply + 1);
        }
        if ply > 0
            && path
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&k| k == pos.hash())
        {
            return 0;
        }
        if depth <= 0 {
            return evaluate(pos);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -(MATE - ply);
        }
        path.push(pos.hash());
        let mut best = -INF;
        for &mv in moves.iter() {
            let mut c = *pos;
            c.play_unchecked(mv);
            best = best.max(-go(&c, depth - 1, ply + 1, path));
        }
        path.pop();
        best
    }
    go(pos, depth as i32, 0, &mut Vec::new())
}

/// Static evaluation of a position for the side to move (exposed for analysis and tests).
pub fn static_eval(pos: &Position) -> i32 {
    evaluate(pos)
}

/// Number of terms of [`eval_features`].
pub const EVAL_FEATURES: usize = crate::eval::FEATURES;

/// The terms the static evaluation weighs, for the side to move (exposed to fit the weights, e.g. with
/// `parlor-lab fit_eval`): the differences (side to move minus opponent) of the top pieces 1 to 5 steps from the goal,
/// pinned enemy pieces, buried own pieces, tops of full stacks and mobility; 1 if the opponent has a goal threat
/// that cannot be covered; and 1 (the tempo).
pub fn eval_features(pos: &Position) -> [i32; EVAL_FEATURES] {
    crate::eval::features(pos)
}
