//! A late-stage network: weights of their own for the boards that hold a large tile, read through tile downgrading,
//! beside the network that plays the rest of the game.
//!
//! Once a board holds 16384 the shipped network reads it through [`downgrade`] as the earlier board it resembles,
//! with the weights it learned from the whole game. But the late game is tighter than the board it is read as: the
//! large tile takes a cell, and building the next one needs every smaller value at once. [`LateStage`] reads such
//! boards with a second network of the same shape, and [`train_late`] teaches it by temporal-difference learning from
//! the late game alone: each game is played greedily by the main network (which does not learn) up to its first
//! board with a tile of at least 2^`from`, or taken from a pool of late positions, and from there greedily by the
//! late network on the images, whose values it updates backward as [`super::train_game`] does. Training through
//! downgrading pulled the main network's values of real 8192 boards down (`BENCHMARKS.md`, session 9); a network of
//! its own has no such boards to spoil. With [`LateConfig::search_depth`] the late moves are chosen by an expectimax
//! search over [`LateStage`] instead, and with [`LateConfig::search_targets`] each chosen after-state learns toward
//! that search's value of it (root bootstrapping: the network is taught what a search a little deeper than itself
//! finds, on the boards a searching player meets).
//!
//! Measured (`BENCHMARKS.md`, session 27): trained at a small rate (0.0002; the shipped network's rates made late play
//! worse) for 135,000 games, it helps a depth-2 search from the first 16384 and not a depth-3 one, so the player does
//! not use one by default. Taught from a depth-2 search instead (session 28), it gets worse: with search targets
//! within 20,000 games (the target's one-ply maxima are off the player's policy), along the search player's own path
//! with the stores within 12,500. [`LateStage::eval4`](Evaluate::eval4) is the default one board at a time.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use super::coherence::Coherence;
use super::downgrade::{any_at_least, downgrade};
use super::network::Network;
use super::starts::Starts;
use super::train::{
    GameStats, Progress, START_STRIDE, TrainConfig, first_board, greedy_move,
    greedy_move_downgraded, learn_backward, learn_step, spawn_bitboard, train_blocks,
};
use crate::ai::evaluate::Evaluate;
use crate::ai::search::{DEFAULT_CUTOFF, Search};
use crate::bitboard::{Bitboard, Tables, max_exponent, tables};
use crate::direction::Direction;

/// The evaluation of a network with a late stage: boards whose largest tile has an exponent of at least `from` are
/// read by `late` through [`downgrade`], the others by `main` as they are.
pub struct LateStage<'a> {
    /// The network of the boards below the late stage.
    pub main: &'a Network,
    /// The network of the late stage (reading downgraded images).
    pub late: &'a Network,
    /// The exponent of the largest tile from which a board is in the late stage (14: 16384).
    pub from: u8,
}

impl LateStage<'_> {
    /// The value of an after-state.
    #[inline(always)]
    fn value(&self, b: Bitboard) -> f32 {
        if any_at_least(b, self.from) {
            self.late.eval(downgrade(b, self.from).0)
        } else {
            self.main.eval(b)
        }
    }
}

impl Evaluate for LateStage<'_> {
    const REWARDS: bool = true;

    #[inline(always)]
    fn eval(&self, b: Bitboard) -> f32 {
        self.value(b)
    }
}

/// How a late stage is trained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateConfig {
    /// The exponent of the largest tile from which a board is in the late stage (14: 16384).
    pub from: u8,
    /// Whether the TD targets count a move's reward in the image's points (the merges of the downgraded board, in
    /// which a tile above the gap counts half) rather than the real points: the values the late network starts with
    /// (copied from the main network, which learned the images as real boards) are in the image's points.
    pub image_rewards: bool,
    /// The depth of the expectimax search ([`Search`] over [`LateStage`], no table, cut-off [`DEFAULT_CUTOFF`]) that
    /// chooses the late moves: 1 (the default) plays greedily by the late network's value of each after-state.
    pub search_depth: u32,
    /// Whether each chosen after-state learns at once toward the search's value of it (the expectation over its
    /// spawns of the best continuation, searched `search_depth - 1` plies further), as root bootstrapping does, rather
    /// than backward along the game's path toward the next reward and after-state. Only with a `search_depth` of 2
    /// or more; the rewards are then the real points.
    pub search_targets: bool,
    /// Whether [`train_late`] keeps its pool of starts as it was given (games draw from it and add nothing), so that
    /// every restarted game begins where the pool's source began (e.g. the first 16384 of a searching player's games).
    pub fixed_pool: bool,
    /// Whether the late moves follow the compiled-in endgame stores where they hold the board, as the shipped player
    /// does ([`crate::endgame::shipped::advice`]), so that the late network learns the values of the player that will
    /// use it; when the stores cannot be read, the moves are chosen as without them.
    pub stores: bool,
}

impl Default for LateConfig {
    /// From 16384, real rewards, greedy moves without the stores, targets along the path, a pool that grows.
    fn default() -> Self {
        LateConfig {
            from: 14,
            image_rewards: false,
            search_depth: 1,
            search_targets: false,
            fixed_pool: false,
            stores: false,
        }
    }
}

/// Plays one training game and teaches the late network from its late part: from `start` when given (a board of
/// the pool, already in the late stage), else from an empty board played greedily by `main` (no learning) until its
/// largest tile reaches 2^`from`; then greedily by `late` on the images of [`downgrade`] from `from` (or by a search
/// over [`LateStage`], [`LateConfig::search_depth`]; the endgame stores' move first with [`LateConfig::stores`]), whose
/// values are updated backward along the game's path, or each
/// at once toward its search value ([`LateConfig::search_targets`]), with temporal coherence when `tc` is given. The
/// first late board of a game from an empty board, and one in [`START_STRIDE`] of its later boards, enter `pool`.
#[allow(clippy::too_many_arguments)]
pub fn train_late_game(
    main: &Network,
    late: &Network,
    how: LateConfig,
    tc: Option<&Coherence>,
    rng: &mut ChaCha8Rng,
    start: Option<Bitboard>,
    pool: Option<&Starts>,
    cfg: &TrainConfig,
    path: &mut Vec<(Bitboard, u64)>,
) -> GameStats {
    let (four_chance, from) = (cfg.four_chance, how.from);
    path.clear();
    let mut score = 0u64;
    let mut moves = 0u64;
    let mut b = first_board(start, rng, four_chance);
    while !any_at_least(b, from) {
        let Some((after, reward, _)) = greedy_move(main, b) else {
            return GameStats {
                score,
                max_exponent: max_exponent(b),
                moves,
                restarted: false,
            };
        };
        score += reward;
        moves += 1;
        b = spawn_bitboard(after, rng, four_chance);
    }
    if start.is_none()
        && let Some(pool) = pool
    {
        pool.push(b);
    }
    let t = tables();
    let stage = LateStage { main, late, from };
    let mut search =
        (how.search_depth > 1).then(|| Search::new(&stage, None, four_chance, DEFAULT_CUTOFF));
    let advice = how
        .stores
        .then(|| crate::endgame::shipped::shipped().ok())
        .flatten()
        .map(|stores| crate::endgame::shipped::advice(Arc::clone(stores)));
    let mut late_moves = 0u64;
    loop {
        // The move, its reward, and the search's value of its after-state when a search chose it or is its target.
        let advised = advice
            .as_ref()
            .and_then(|advice| advice(b))
            .filter(|&d| t.slide(b, d) != b);
        let chosen = match (advised, search.as_mut()) {
            (None, None) => {
                greedy_move_downgraded(late, b, Some(from)).map(|(a, r, _)| (a, r, None))
            }
            (None, Some(s)) => s.best(b, how.search_depth, &Direction::ALL).map(|(d, v)| {
                let reward = t.score(b, d);
                (t.slide(b, d), reward, Some(v - reward as f32))
            }),
            (Some(d), s) => {
                let reward = t.score(b, d);
                // Searched only when it is to be the target.
                let value = s
                    .filter(|_| how.search_targets)
                    .and_then(|s| s.move_value(b, d, how.search_depth));
                Some((t.slide(b, d), reward, value.map(|v| v - reward as f32)))
            }
        };
        let Some((after, reward, searched)) = chosen else {
            break;
        };
        late_moves += 1;
        if let Some(pool) = pool
            && late_moves.is_multiple_of(START_STRIDE)
        {
            pool.push(b);
        }
        let image = downgrade(after, from).0;
        match searched {
            Some(target) if how.search_targets => {
                learn_step(late, tc, image, target, cfg.alpha);
            }
            _ => {
                let learned_reward = if how.image_rewards {
                    image_reward(t, b, after, from)
                } else {
                    reward
                };
                path.push((image, learned_reward));
            }
        }
        score += reward;
        b = spawn_bitboard(after, rng, four_chance);
    }
    learn_backward(late, tc, path, cfg.alpha);
    GameStats {
        score,
        max_exponent: max_exponent(b),
        moves: moves + late_moves,
        restarted: start.is_some(),
    }
}

/// The points of the move from `b` to `after` on `b`'s image under [`downgrade`] from `from`: the image slid the
/// same way (the direction found by sliding `b`), its merges' points.
fn image_reward(t: &Tables, b: Bitboard, after: Bitboard, from: u8) -> u64 {
    let image = downgrade(b, from).0;
    Direction::ALL
        .into_iter()
        .find(|&d| t.slide(b, d) == after)
        .map_or(0, |d| t.score(image, d))
}

/// Trains `late`, the late stage beside `main`, until it has seen `cfg.games` games (see
/// [`train_late_game`]), with [`super::train_with`]'s blocks, threads, random sources and draws from `starts`
/// (`cfg.restart` of the games start from the pool; `cfg.restart_tile` and `cfg.downgrade` are not used). The games add
/// boards to `starts` unless [`LateConfig::fixed_pool`] is set.
pub fn train_late(
    main: &Network,
    late: &Network,
    how: LateConfig,
    tc: Option<&Coherence>,
    starts: Option<&Starts>,
    cfg: &TrainConfig,
    on_block: impl FnMut(&Network, &Progress) -> bool,
) {
    let grows = starts.filter(|_| !how.fixed_pool);
    train_blocks(late, starts, cfg, on_block, |rng, start, path| {
        train_late_game(main, late, how, tc, rng, start, grows, cfg, path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(text: &str) -> Bitboard {
        text.parse::<crate::Board>()
            .ok()
            .and_then(|b| b.to_bitboard())
            .unwrap_or_default()
    }

    #[test]
    fn image_rewards_count_the_tiles_above_the_gap_at_half() {
        let t = tables();
        // 16384, two 8192s, no 4096: the image halves both values (8192, two 4096s), so the merge counts 8192.
        let b = bits("16384,8192,8192,0/2,0,0,0/0,0,0,0/0,0,0,0");
        let after = t.slide(b, Direction::Left);
        assert_eq!(t.score(b, Direction::Left), 16384);
        assert_eq!(image_reward(t, b, after, 14), 8192);
        // Two 4096s below the gap (no 8192): their merge counts as it is.
        let b = bits("16384,0,0,0/4096,4096,0,0/2,0,0,0/0,0,0,0");
        let after = t.slide(b, Direction::Left);
        assert_eq!(image_reward(t, b, after, 14), 8192);
        // No move leads there: nothing.
        assert_eq!(image_reward(t, b, b, 14), 0);
    }
}
