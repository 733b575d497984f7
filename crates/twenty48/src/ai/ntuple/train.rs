//! Training by temporal-difference learning on after-states over self-play games (TD(0), updates applied backward
//! from the end of each game, as in TDL2048).
//!
//! A game is played greedily: from each position the move with the largest `reward + V(after-state)` is taken (first
//! best in [`Direction::ALL`] order). When the game is over its after-states `a_1 .. a_T` are updated from last to
//! first: `V(a_T)` moves toward 0 (nothing follows the last after-state), then each `V(a_t)` toward
//! `r_{t+1} + V(a_{t+1})`, the reward of the next move plus the next after-state's freshly updated value, by
//! `alpha` times the error (spread evenly over the [`FEATURES`](super::FEATURES) weights).
//!
//! Game `g` (counted over the network's whole training) draws its spawns from `ChaCha8Rng::seed_from_u64(seed)` on
//! stream `g`, with the same two draws per spawn as [`crate::spawn`]. Threads take the next game number from a shared
//! counter and update the shared weights without locks, so with one thread a run is reproducible from the seed (and
//! resuming from a checkpoint continues it exactly), while with two the interleaving of updates is not.

use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::coherence::Coherence;
use super::downgrade::downgrade;
use super::network::Network;
use super::starts::Starts;
use crate::bitboard::{Bitboard, count_empty, max_exponent, tables};
use crate::direction::Direction;
use crate::spawn::unit_f64;

/// Tiles whose reaching rates are reported, as exponents: 2048, 8192, 16384, 32768.
pub(crate) const RATE_EXPONENTS: [u8; 4] = [11, 13, 14, 15];

/// How to train.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainConfig {
    /// Stop once the network has been trained on this many games in all (counting earlier sittings).
    pub games: u64,
    /// Threads playing games at once (1 or more).
    pub threads: usize,
    /// Seed of the spawns.
    pub seed: u64,
    /// Learning rate of a value: a TD error `e` moves the value by `alpha * e`.
    pub alpha: f32,
    /// Probability that a spawned tile is a 4.
    pub four_chance: f64,
    /// Games per progress report.
    pub block: u64,
    /// Share of games (0 to 1) started from a position of the pool of late-game starts, when one is given (see
    /// [`Starts`]); 0 plays every game from an empty board.
    pub restart: f64,
    /// Positions enter the pool of starts once their largest tile is at least this exponent (13: 8192).
    pub restart_tile: u8,
    /// When set, the network plays and learns through [`super::downgrade()`] from this exponent (14: 16384): moves are
    /// chosen by the values of the after-states' images and the images are what the TD steps update, so the late
    /// game's experience teaches the weights that downgraded play reads. `None`: boards are read as they are.
    pub downgrade: Option<u8>,
}

/// One position in this many of a game's positions with a large enough tile enters the pool of starts.
pub(crate) const START_STRIDE: u64 = 50;

impl Default for TrainConfig {
    /// 1,000,000 games, 2 threads, seed 1, alpha 0.1, 4s with probability 0.1, reports every 1,000 games, no restarts
    /// (from 8192 when a pool is given and `restart` set).
    fn default() -> Self {
        TrainConfig {
            games: 1_000_000,
            threads: 2,
            seed: 1,
            alpha: 0.1,
            four_chance: 0.1,
            block: 1_000,
            restart: 0.0,
            restart_tile: 13,
            downgrade: None,
        }
    }
}

/// Statistics of one block of training games (greedy play by the network as it learns). Games started from the pool
/// of late-game starts are only counted in `restarts`: the other figures are over the games played from the start.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// Games the network has been trained on, this block included.
    pub games: u64,
    /// Games in this block played from an empty board.
    pub block_games: u64,
    /// Games in this block started from the pool of late-game starts.
    pub restarts: u64,
    /// Of those, the games that reached the last of the tiles counted (32768).
    pub restarts_reached_top: u64,
    /// Sum of the block's final scores.
    pub total_score: u64,
    /// Best final score of the block.
    pub max_score: u64,
    /// Games of the block that reached each tile of 2048, 8192, 16384 and 32768.
    pub reached: [u64; 4],
    /// Moves played in the block.
    pub moves: u64,
    /// Wall time of the block in seconds.
    pub seconds: f64,
}

impl Progress {
    /// Header of [`Progress::log_line`]'s columns.
    pub const LOG_HEADER: &'static str =
        "games\tmean_score\tmax_score\tp2048\tp8192\tp16384\tp32768\tmoves_per_s";

    /// Mean final score of the block.
    pub fn mean_score(&self) -> f64 {
        self.total_score as f64 / self.block_games.max(1) as f64
    }

    /// Share of the block's games that reached tile `RATE_EXPONENTS[i]`.
    pub fn rate(&self, i: usize) -> f64 {
        self.reached[i] as f64 / self.block_games.max(1) as f64
    }

    /// Moves per second of the block.
    pub(crate) fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }

    /// One tab-separated line for a training log (columns of [`Progress::LOG_HEADER`]).
    pub fn log_line(&self) -> String {
        format!(
            "{}\t{:.0}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{:.0}",
            self.games,
            self.mean_score(),
            self.max_score,
            self.rate(0),
            self.rate(1),
            self.rate(2),
            self.rate(3),
            self.moves_per_second()
        )
    }

    fn add(&mut self, g: &GameStats) {
        if g.restarted {
            self.restarts += 1;
            self.restarts_reached_top += u64::from(g.max_exponent >= RATE_EXPONENTS[3]);
            return;
        }
        self.block_games += 1;
        self.total_score += g.score;
        self.max_score = self.max_score.max(g.score);
        for (i, &e) in RATE_EXPONENTS.iter().enumerate() {
            if g.max_exponent >= e {
                self.reached[i] += 1;
            }
        }
        self.moves += g.moves;
    }

    fn merge(&mut self, o: &Progress) {
        self.block_games += o.block_games;
        self.restarts += o.restarts;
        self.restarts_reached_top += o.restarts_reached_top;
        self.total_score += o.total_score;
        self.max_score = self.max_score.max(o.max_score);
        for i in 0..4 {
            self.reached[i] += o.reached[i];
        }
        self.moves += o.moves;
    }
}

/// The outcome of one training game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GameStats {
    /// Final score.
    pub score: u64,
    /// Largest exponent reached.
    pub max_exponent: u8,
    /// Moves played.
    pub moves: u64,
    /// Whether the game started from the pool of late-game starts.
    pub restarted: bool,
}

/// Places a tile on a uniformly chosen empty cell of a bitboard (2, or 4 with probability `four_chance`), with the
/// two draws of [`crate::spawn::spawn`]. Does nothing on a full board.
pub fn spawn_bitboard(b: Bitboard, rng: &mut ChaCha8Rng, four_chance: f64) -> Bitboard {
    let n = count_empty(b) as u64;
    if n == 0 {
        return b;
    }
    let mut k = ((rng.next_u64() as u128 * n as u128) >> 64) as u64;
    let exp = if unit_f64(rng.next_u64()) < four_chance {
        2
    } else {
        1
    };
    for i in 0..16 {
        if (b >> (4 * i)) & 0xF == 0 {
            if k == 0 {
                return b | exp << (4 * i);
            }
            k -= 1;
        }
    }
    b
}

/// The greedy move on `b` by `reward + V(after-state)`: (after-state, reward, value of the after-state), `None` if no
/// move is legal. Ties go to the first in [`Direction::ALL`] order.
#[inline]
pub fn greedy_move(net: &Network, b: Bitboard) -> Option<(Bitboard, u64, f32)> {
    greedy_by(b, |a| net.eval(a))
}

/// [`greedy_move`] with the network reading after-states through [`super::downgrade()`] from `from` (as they are when
/// `None`): (after-state, reward, value of its image).
#[inline]
pub fn greedy_move_downgraded(
    net: &Network,
    b: Bitboard,
    from: Option<u8>,
) -> Option<(Bitboard, u64, f32)> {
    match from {
        None => greedy_move(net, b),
        Some(from) => greedy_by(b, |a| net.eval(downgrade(a, from).0)),
    }
}

/// The move on `b` with the largest `reward + value(after-state)`, first in [`Direction::ALL`] order on ties.
#[inline(always)]
fn greedy_by(b: Bitboard, value: impl Fn(Bitboard) -> f32) -> Option<(Bitboard, u64, f32)> {
    let t = tables();
    let mut best: Option<(Bitboard, u64, f32)> = None;
    let mut best_total = f32::NEG_INFINITY;
    for d in Direction::ALL {
        let after = t.slide(b, d);
        if after == b {
            continue;
        }
        let reward = t.score(b, d);
        let v = value(after);
        let total = reward as f32 + v;
        if best.is_none() || total > best_total {
            best = Some((after, reward, v));
            best_total = total;
        }
    }
    best
}

/// A training game's first board: `start` when given, else an empty board with two spawns of `rng`.
pub(crate) fn first_board(
    start: Option<Bitboard>,
    rng: &mut ChaCha8Rng,
    four_chance: f64,
) -> Bitboard {
    start.unwrap_or_else(|| {
        let b = spawn_bitboard(0, rng, four_chance);
        spawn_bitboard(b, rng, four_chance)
    })
}

/// Moves `V(a)` toward `target` by `alpha` times the error; returns the new value (`V(a) + alpha * error`).
#[inline]
pub(crate) fn td_step(net: &Network, a: Bitboard, target: f32, alpha: f32) -> f32 {
    let v = net.eval(a);
    let delta = alpha * (target - v);
    net.update(a, delta);
    v + delta
}

/// Plays one greedy training game and learns from it (backward TD(0); with temporal coherence when `tc` is given).
/// The game starts from `start` when given, else from an empty board with two spawns of `rng`; every later spawn is
/// drawn from `rng`. When `pool` is given, one in [`START_STRIDE`] of the positions whose largest tile is at least
/// `cfg.restart_tile` enters it. With `cfg.downgrade` the game is played and learned through tile downgrading. `path` is
/// scratch space, reused across games.
pub(crate) fn train_game(
    net: &Network,
    tc: Option<&Coherence>,
    rng: &mut ChaCha8Rng,
    start: Option<Bitboard>,
    pool: Option<&Starts>,
    cfg: &TrainConfig,
    path: &mut Vec<(Bitboard, u64)>,
) -> GameStats {
    let (four_chance, alpha) = (cfg.four_chance, cfg.alpha);
    path.clear();
    let mut b = first_board(start, rng, four_chance);
    let mut score = 0u64;
    let mut late = 0u64;
    while let Some((after, reward, _)) = greedy_move_downgraded(net, b, cfg.downgrade) {
        if let Some(pool) = pool
            && max_exponent(b) >= cfg.restart_tile
        {
            late += 1;
            if late.is_multiple_of(START_STRIDE) {
                pool.push(b);
            }
        }
        // The image the move was chosen by (downgrading again costs a few word operations beside four evaluations).
        path.push((
            cfg.downgrade.map_or(after, |from| downgrade(after, from).0),
            reward,
        ));
        score += reward;
        b = spawn_bitboard(after, rng, four_chance);
    }
    learn_backward(net, tc, path, alpha);
    GameStats {
        score,
        max_exponent: max_exponent(b),
        moves: path.len() as u64,
        restarted: start.is_some(),
    }
}

/// The TD(0) steps of a finished game, last after-state first: `path` holds each after-state and the reward of the
/// move that follows it; the last moves toward 0, each earlier one toward the next reward plus the next after-state's
/// freshly learned value (with temporal coherence when `tc` is given).
pub(crate) fn learn_backward(
    net: &Network,
    tc: Option<&Coherence>,
    path: &[(Bitboard, u64)],
    alpha: f32,
) {
    let mut target = 0f32;
    for &(a, reward) in path.iter().rev() {
        target = reward as f32 + learn_step(net, tc, a, target, alpha);
    }
}

/// One TD step of `V(a)` toward `target`: [`td_step`], or temporal coherence's step when `tc` is given. Returns the
/// new value.
pub(crate) fn learn_step(
    net: &Network,
    tc: Option<&Coherence>,
    a: Bitboard,
    target: f32,
    alpha: f32,
) -> f32 {
    match tc {
        Some(tc) => tc.step(net, a, target, alpha),
        None => td_step(net, a, target, alpha),
    }
}

/// The random source of training game `g`.
pub fn game_rng(seed: u64, g: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(g);
    rng
}

/// Trains `net` until it has seen `cfg.games` games, calling `on_block` after every `cfg.block` games with the block's
/// statistics (the network's game count already advanced); training stops early when `on_block` returns false.
/// Between blocks no thread is running, so `on_block` may save the network (see [`super::save`]).
///
/// ```
/// use twenty48::ai::ntuple::{Network, TrainConfig, train};
///
/// let net = Network::new(0.0);
/// let cfg = TrainConfig { games: 4, threads: 1, block: 2, ..TrainConfig::default() };
/// let mut blocks = 0;
/// train(&net, &cfg, |_, p| { blocks += 1; assert_eq!(p.block_games, 2); true });
/// assert_eq!((blocks, net.games()), (2, 4));
/// ```
pub fn train(net: &Network, cfg: &TrainConfig, on_block: impl FnMut(&Network, &Progress) -> bool) {
    train_with(net, None, None, cfg, on_block)
}

/// [`train`], with temporal coherence learning when `tc` is given (see [`Coherence`]; `cfg.alpha` is then the meta
/// rate that each weight's own rate multiplies, 1.0 in Jaśkowski's runs), and with late-game starts when `starts` is
/// given: game `g` then first draws whether it restarts (with probability `cfg.restart`) and which board of the pool
/// it takes, from its own random source. Between blocks no thread is running, so `on_block` may save `tc` and
/// `starts` too.
pub fn train_with(
    net: &Network,
    tc: Option<&Coherence>,
    starts: Option<&Starts>,
    cfg: &TrainConfig,
    on_block: impl FnMut(&Network, &Progress) -> bool,
) {
    train_blocks(net, starts, cfg, on_block, |rng, start, path| {
        train_game(net, tc, rng, start, starts, cfg, path)
    })
}

/// The block loop of [`train_with`], for any way of playing and learning from one game: `game` gets the game's
/// random source, its start from the pool (drawn as [`train_with`] says) and scratch space. Between blocks no thread
/// is running, so `on_block` may save.
pub(crate) fn train_blocks(
    net: &Network,
    starts: Option<&Starts>,
    cfg: &TrainConfig,
    mut on_block: impl FnMut(&Network, &Progress) -> bool,
    game: impl Fn(&mut ChaCha8Rng, Option<Bitboard>, &mut Vec<(Bitboard, u64)>) -> GameStats + Sync,
) {
    let threads = cfg.threads.max(1);
    let block = cfg.block.max(1);
    let game = &game;
    while net.games() < cfg.games {
        let start = Instant::now();
        let first = net.games();
        let end = first + block.min(cfg.games - first);
        let next = AtomicU64::new(first);
        let parts: Vec<Progress> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut part = Progress::default();
                        let mut path = Vec::with_capacity(1 << 14);
                        loop {
                            let g = next.fetch_add(1, Ordering::Relaxed);
                            if g >= end {
                                break;
                            }
                            let mut rng = game_rng(cfg.seed, g);
                            let start = match starts {
                                Some(pool)
                                    if cfg.restart > 0.0
                                        && unit_f64(rng.next_u64()) < cfg.restart =>
                                {
                                    pool.pick(rng.next_u64())
                                }
                                _ => None,
                            };
                            let stats = game(&mut rng, start, &mut path);
                            part.add(&stats);
                        }
                        part
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut progress = Progress::default();
        for p in &parts {
            progress.merge(p);
        }
        net.set_games(end);
        progress.games = end;
        progress.seconds = start.elapsed().as_secs_f64();
        if !on_block(net, &progress) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarted_games_count_apart_with_those_that_reached_32768() {
        let game = |max_exponent, restarted| GameStats {
            score: 1000,
            max_exponent,
            moves: 10,
            restarted,
        };
        let (mut a, mut b) = (Progress::default(), Progress::default());
        a.add(&game(15, true));
        a.add(&game(14, true));
        a.add(&game(15, false));
        b.add(&game(16, true));
        a.merge(&b);
        assert_eq!((a.restarts, a.restarts_reached_top), (3, 2));
        // The other figures are over the fresh game alone.
        assert_eq!((a.block_games, a.reached[3], a.moves), (1, 1, 10));
    }
}
