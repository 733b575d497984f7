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
    /// 95% confidence interval of `score_a` (normal approximation over per-game points).
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
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|p| (p - mean) * (p - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    MatchReport {
        a,
        b,
        games,
        a_wins,
        b_wins,
        draws,
        score_a: mean,
        ci95: ((mean - half).max(0.0), (mean + half).min(1.0)),
        avg_plies: plies as f64 / n,
    }
}
