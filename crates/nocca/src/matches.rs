//! Engine-versus-engine matches (the level ladder).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::{Colour, Dims, Engine, Game, GameOptions, Level};

/// Result of [`play_match`], from `a`'s point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// First player level.
    pub a: Level,
    /// Second player level.
    pub b: Level,
    /// Games played.
    pub games: u32,
    /// Games won by `a`.
    pub a_wins: u32,
    /// Games won by `b`.
    pub b_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// `a`'s share of the points (win 1, draw 1/2).
    pub score_a: f64,
    /// 95% confidence interval of `score_a`: the Wilson score interval ([`wilson95`]) of `a`'s points (a draw
    /// counts half) over the games played, true for a handful of games and for a score of 0 or 1.
    pub ci95: (f64, f64),
    /// Average game length in plies (opening plies included).
    pub avg_plies: f64,
}

/// Plies of random opening before the engines take over.
pub const OPENING_PLIES: usize = 2;

/// Plays `games` games between levels `a` and `b` on the standard board with the default options, using each
/// level's node budget ([`Level::match_limits`]), so the result depends only on `seed`. Games come in pairs: both
/// games of a pair start from the same random opening of [`OPENING_PLIES`] plies (drawn from the seed), with `a`
/// as Black in the first and as White in the second. `progress(done, total)` is called after every game.
pub fn play_match(
    a: Level,
    b: Level,
    games: u32,
    seed: u64,
    progress: &mut dyn FnMut(u32, u32),
) -> MatchReport {
    let mut ea = Engine::with_table(a, seed ^ 0xA, 18);
    let mut eb = Engine::with_table(b, seed ^ 0xB, 18);
    let (mut a_wins, mut b_wins, mut draws) = (0u32, 0u32, 0u32);
    let mut points = Vec::with_capacity(games as usize);
    let mut plies = 0usize;
    for i in 0..games {
        let pair = (i / 2) as u64;
        let a_colour = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair);
        let mut game = Game::new(Dims::STANDARD, GameOptions::default());
        for _ in 0..OPENING_PLIES {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let _ = game.play(mv);
        }
        ea.new_game();
        eb.new_game();
        while !game.is_over() {
            let (engine, level) = if game.side_to_move() == a_colour {
                (&mut ea, a)
            } else {
                (&mut eb, b)
            };
            let Some(r) = engine.best_move(&game, level.match_limits()) else {
                break;
            };
            if game.play(r.mv).is_err() {
                break;
            }
        }
        plies += game.ply();
        let p = match game.outcome().and_then(|o| o.winner) {
            Some(w) if w == a_colour => {
                a_wins += 1;
                1.0
            }
            Some(_) => {
                b_wins += 1;
                0.0
            }
            None => {
                draws += 1;
                0.5
            }
        };
        points.push(p);
        progress(i + 1, games);
    }
    let n = points.len().max(1) as f64;
    let total = points.iter().sum::<f64>();
    let mean = total / n;
    MatchReport {
        a,
        b,
        games,
        a_wins,
        b_wins,
        draws,
        score_a: mean,
        ci95: wilson95(total, points.len() as f64),
        avg_plies: plies as f64 / n,
    }
}

/// The 95% Wilson score interval of a proportion seen as `successes` out of `trials` (a half success, such as a
/// drawn game's half point, is allowed): always inside 0..=1, never of zero width for a finite number of trials,
/// and `(0, 1)` with no trial at all (Wilson 1927).
pub fn wilson95(successes: f64, trials: f64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054;
    if trials <= 0.0 || !successes.is_finite() || !trials.is_finite() {
        return (0.0, 1.0);
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * trials)) / (1.0 + z2 / trials);
    let half =
        Z / (1.0 + z2 / trials) * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::wilson95;

    /// Published values (Wilson 1927; Newcombe 1998, table I): 0 of 10 is 0 to 0.2775, 1 of 2 is 0.0945 to
    /// 0.9055, 81 of 263 is 0.2553 to 0.3662.
    #[test]
    fn the_wilson_interval_matches_published_values_and_never_collapses() {
        let close =
            |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 5e-4 && (a.1 - b.1).abs() < 5e-4;
        for ((s, n), want) in [
            ((0.0, 10.0), (0.0, 0.2775)),
            ((1.0, 2.0), (0.0945, 0.9055)),
            ((81.0, 263.0), (0.2553, 0.3662)),
        ] {
            assert!(
                close(wilson95(s, n), want),
                "{s} of {n}: {:?}",
                wilson95(s, n)
            );
        }
        for (s, n) in [(0.0, 2.0), (2.0, 2.0), (1.0, 1.0), (0.0, 1.0)] {
            let (lo, hi) = wilson95(s, n);
            assert!(hi - lo > 0.1, "{s} of {n}: {lo}-{hi}");
            assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
        }
        assert_eq!(wilson95(0.0, 0.0), (0.0, 1.0));
    }
}
