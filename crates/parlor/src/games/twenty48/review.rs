//! The review of a finished 2048 game (the coach, docs/REVIEW.md): before every slide, every legal slide's value
//! under the shipped player at a fixed depth ([`REVIEW_DEPTH`]: the learned network on 4x4, the hand-made
//! evaluation on other sizes, no endgame store so that every slide gets a value), and the chosen slide's loss
//! against the best, relative to the best's value. The marks' thresholds are RULES.md's (2048, "Reviews").
//!
//! Beside the values, every slide's chance to reach the next milestone (the power of two above the board's largest
//! tile) within [`HORIZON`] slides after it ([`chances`]): exactly 0 where the tiles cannot add up to it in that many
//! spawns, else the share of [`ROLLOUTS`] rollouts that reach it, each played by the same player at depth
//! [`ROLLOUT_DEPTH`] on spawns drawn from ChaCha8 seeded by the slide's number and the rollout's (the same draws for
//! every slide of one position), so that the review stays the same every time.

use super::{State, Twenty48};
use crate::mid::error::Error;
use crate::mid::game::Game;
use crate::mid::review::{Figure, Review, Reviewed, Thresholds, finish};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use twenty48::ai::{Player, ProbClasses, SearchConfig, TableLife};
use twenty48::{Board, Direction};

/// The depth of the review's search, in the player's moves: about 0.2 ms a slide on 4x4 (the engine optimised)
/// (BENCHMARKS.md, "Reviews"), so that a game of 10,000 slides is reviewed in seconds.
pub const REVIEW_DEPTH: u32 = 2;

/// The relative loss (the best slide's value less the chosen one's, over the best's) that marks a slide.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 0.005,
    mistake: 0.02,
    blunder: 0.08,
};

/// How many slides after a slide its chance to reach the next milestone looks ahead.
pub const HORIZON: usize = 64;

/// How many rollouts give a slide's chance to reach the next milestone (where it is not exactly 0 or 1).
pub const ROLLOUTS: u64 = 8;

/// The depth the rollouts' player searches at (the review's player, shallower: a rollout plays up to [`HORIZON`]
/// slides).
pub const ROLLOUT_DEPTH: u32 = 1;

/// The review's player at `depth`: the network on 4x4 (when it can be loaded), with no endgame store, its table
/// emptied before every slide so that a slide's values do not hang on the slides before it.
fn player(size: usize) -> Player {
    player_at(size, REVIEW_DEPTH)
}

/// [`player`] at any depth.
fn player_at(size: usize, depth: u32) -> Player {
    let cfg = SearchConfig::depth(depth);
    let mut p = match twenty48::ai::ntuple::shipped() {
        Ok(net) if size == 4 => Player::with_network(cfg, std::sync::Arc::clone(net)),
        _ => Player::new(cfg),
    };
    p.set_table(TableLife::Move, false, ProbClasses::Same);
    p
}

/// The next milestone of `board`: the power of two above its largest tile.
pub fn milestone(board: &Board) -> u64 {
    board.max_tile().max(1).saturating_mul(2)
}

/// Each of `slides`' chance (0 to 1) to reach `goal` within [`HORIZON`] slides after it from `board`, slide `number`
/// of its game (the rollouts' seed), played by `player` with fours at `four`: 1 where the slide makes `goal`, exactly 0
/// where the tiles cannot add up to it (each spawn adds at most a 4), else the share of [`ROLLOUTS`] rollouts that
/// reach it.
pub fn chances(
    player: &mut Player,
    board: &Board,
    slides: &[Direction],
    goal: u64,
    four: f64,
    number: usize,
) -> Vec<f64> {
    slides
        .iter()
        .map(|&dir| {
            let (after, _) = board.slid(dir);
            if after.max_tile() >= goal {
                return 1.0;
            }
            if after.tile_sum() + 4 * (HORIZON as u64 + 1) < goal {
                return 0.0;
            }
            let reached = (0..ROLLOUTS)
                .filter(|&r| {
                    let seed = (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ r;
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut b = after;
                    twenty48::spawn(&mut b, &mut rng, four);
                    for _ in 0..HORIZON {
                        if b.max_tile() >= goal {
                            return true;
                        }
                        let Some(d) = player.best_move(&b, four) else {
                            return false;
                        };
                        b = b.slid(d).0;
                        twenty48::spawn(&mut b, &mut rng, four);
                    }
                    b.max_tile() >= goal
                })
                .count();
            reached as f64 / ROLLOUTS as f64
        })
        .collect()
}

/// Reviews the game played from `start` by `moves` (see [`Game::review`]).
pub fn review(
    start: &State,
    moves: &[Direction],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, Error> {
    let rules = start.game.rules();
    let four = rules.four_chance();
    let mut player = player(rules.size());
    let mut rollout = player_at(rules.size(), ROLLOUT_DEPTH);
    let mut state = start.clone();
    let mut reviewed = Vec::with_capacity(moves.len());
    let mut boards = Vec::with_capacity(moves.len());
    for (i, &dir) in moves.iter().enumerate() {
        let board = *state.game.board();
        player.best_move(&board, four);
        let values = player.last_stats().values.clone();
        let top = values
            .iter()
            .map(|&(_, v)| f64::from(v))
            .fold(f64::NEG_INFINITY, f64::max);
        let played = values
            .iter()
            .find(|&&(d, _)| d == dir)
            .map_or(top, |&(_, v)| f64::from(v));
        // One legal slide (or none valued): nothing to choose, no loss.
        let loss = if values.len() > 1 && top.is_finite() {
            ((top - played) / top.abs().max(1.0)).max(0.0)
        } else {
            0.0
        };
        let best = values
            .iter()
            .filter(|&&(_, v)| f64::from(v) == top)
            .map(|(d, _)| d.to_string())
            .collect();
        let mark = THRESHOLDS.mark(loss);
        let goal = milestone(&board);
        let slides: Vec<Direction> = values.iter().map(|&(d, _)| d).collect();
        let odds = chances(&mut rollout, &board, &slides, goal, four, i + 1);
        let chance_of = |d: Direction| {
            slides
                .iter()
                .position(|&s| s == d)
                .and_then(|k| odds.get(k).copied())
        };
        let best_chance = odds.iter().copied().fold(0.0, f64::max);
        reviewed.push(Reviewed {
            number: i + 1,
            side: None,
            played: dir.to_string(),
            best,
            before: format!("{top:.0}"),
            after: format!("{played:.0}"),
            loss,
            mark,
            note: if loss > 0.0 {
                format!("{:.1}% below the best slide's value", 100.0 * loss)
            } else {
                String::new()
            },
            board: String::new(),
            figures: vec![Figure {
                name: format!("chance of {goal} within {HORIZON} slides"),
                played: 100.0 * chance_of(dir).unwrap_or(best_chance),
                best: 100.0 * best_chance,
                unit: "%".into(),
            }],
        });
        boards.push(board.to_string());
        Twenty48::apply(&mut state, &dir)?;
        progress(i + 1, moves.len());
    }
    let method = format!("estimate: the player's expectimax at depth {REVIEW_DEPTH}");
    let unit = "share of the best slide's value";
    Ok(finish::<Twenty48>(reviewed, &boards, method, false, unit))
}

// The hand-checked game's figures are the network's: without the `network` feature (the core's build, the page) the
// review values slides with the hand-made evaluation, which puts that game's slide 44 only 0.1% below the best.
#[cfg(all(test, feature = "network"))]
mod tests {
    use super::*;
    use crate::mid::review::Mark;

    /// The place of the largest tile (one of a kind) if it is on the board's edge (the review's player keeps it on an
    /// edge, by a corner or beside one).
    fn corner(board: &twenty48::Board) -> Option<(usize, usize)> {
        let n = board.size();
        let top = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .max_by_key(|&(r, c)| board.tile(r, c))?;
        let unique = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| board.tile(r, c) == board.tile(top.0, top.1))
            .count()
            == 1;
        (unique && (top.0 == 0 || top.0 == n - 1 || top.1 == 0 || top.1 == n - 1)).then_some(top)
    }

    /// A game played by the review's own player for at least 30 slides (seed 3), then the first slide that takes the
    /// largest tile off its edge, into the middle, while a slide keeping it there exists: the review marks that slide a mistake
    /// at least (seed 3: slide 44, left, 2.6% below right's value), and no other slide of the game (RULES.md, 2048, "Reviews").
    #[test]
    fn a_slide_that_takes_the_largest_tile_off_its_edge_is_marked() {
        let params = super::super::Params::default();
        let start = Twenty48::new_game(&params, 3).unwrap();
        let mut state = start.clone();
        let mut p = player(4);
        let mut moves = Vec::new();
        let mut bad = None;
        while moves.len() < 400 {
            let board = *state.game.board();
            let Some(best) = p.best_move(&board, 0.1) else {
                break;
            };
            let mut dir = best;
            if moves.len() >= 30
                && let Some(c) = corner(&board)
            {
                let out = Direction::ALL.into_iter().find(|&d| {
                    board.can_slide(d) && {
                        let mut t = state.clone();
                        Twenty48::apply(&mut t, &d).is_ok()
                            && corner(t.game.board()).is_none()
                            && c != (9, 9)
                    }
                });
                if let Some(d) = out.filter(|&d| d != best) {
                    dir = d;
                    bad = Some(moves.len());
                }
            }
            Twenty48::apply(&mut state, &dir).unwrap();
            moves.push(dir);
            if bad.is_some() {
                break;
            }
        }
        let bad = bad.unwrap_or_else(|| {
            panic!(
                "no slide out of the corner in {} slides: {}",
                moves.len(),
                state.game.board()
            )
        });
        let (score, len) = (Twenty48::score(&state), state.game.board().to_string());
        let r = review(&start, &moves, &mut |_, _| {}).unwrap();
        let m = &r.moves[bad];
        assert!(m.mark >= Mark::Mistake, "{m:?}");
        assert_eq!(
            r.worst().map(|w| w.number),
            Some(bad + 1),
            "{}",
            r.summary()
        );
        assert!(!m.board.is_empty());
        assert_eq!(
            (Twenty48::score(&state), state.game.board().to_string()),
            (score, len)
        );
    }
}
