//! Ratings by Glicko-2 (the `skillratings` crate's, with Glickman's τ = 0.5): each rated game is its own rating
//! period for both players, applied once when the game ends.

use parlor_online::protocol::{Rating, Side};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's exact rating, as the server keeps it.
pub type Exact = Glicko2Rating;

/// A new player's rating: 1500, deviation 350, volatility 0.06.
pub fn new_player() -> Exact {
    Glicko2Rating::new()
}

/// A rating as the protocol shows it (rounded).
pub fn shown(r: &Exact) -> Rating {
    Rating {
        rating: r
            .rating
            .round()
            .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32,
        deviation: r.deviation.round().clamp(0.0, f64::from(u32::MAX)) as u32,
    }
}

/// One player's rating after a rating period of `results` (each an opponent's rating before the period and the
/// player's score against them: 1 a win, 0.5 a draw, 0 a loss).
pub fn after_period(player: &Exact, results: &[(Exact, f64)]) -> Exact {
    let results: Vec<(Exact, Outcomes)> = results
        .iter()
        .map(|(opponent, score)| {
            let outcome = if *score > 0.75 {
                Outcomes::WIN
            } else if *score < 0.25 {
                Outcomes::LOSS
            } else {
                Outcomes::DRAW
            };
            (*opponent, outcome)
        })
        .collect();
    glicko2_rating_period(player, &results, &Glicko2Config::new())
}

/// Both players' ratings after a game between them (`winner` none for a draw), Black's first.
pub fn after_game(black: &Exact, white: &Exact, winner: Option<Side>) -> [Exact; 2] {
    let black_score = match winner {
        Some(Side::Black) => 1.0,
        Some(Side::White) => 0.0,
        None => 0.5,
    };
    [
        after_period(black, &[(*white, black_score)]),
        after_period(white, &[(*black, 1.0 - black_score)]),
    ]
}
