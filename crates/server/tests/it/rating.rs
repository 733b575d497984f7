//! Glicko-2's invariants on the server's rating module, and Glickman's worked example.

use parlor_online::protocol::Side;
use parlor_server::rating::{Exact, after_game, after_period, new_player, shown};

fn r(rating: f64, deviation: f64, volatility: f64) -> Exact {
    Exact {
        rating,
        deviation,
        volatility,
    }
}

/// Glickman, "Example of the Glicko-2 system" (2013): a 1500 player (RD 200, σ 0.06) beats a 1400 (RD 30) and loses
/// to a 1550 (RD 100) and a 1700 (RD 300): r' = 1464.06, RD' = 151.52, σ' = 0.05999 (τ = 0.5).
#[test]
fn glickmans_worked_example() {
    let player = r(1500.0, 200.0, 0.06);
    let after = after_period(
        &player,
        &[
            (r(1400.0, 30.0, 0.06), 1.0),
            (r(1550.0, 100.0, 0.06), 0.0),
            (r(1700.0, 300.0, 0.06), 0.0),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

/// Whoever wins, the winner rises and the loser falls; deviations shrink for players whose rating is not yet sure.
/// (Not for a sure one: Glicko-2 first widens the deviation by the volatility, and one game against a much weaker
/// or much stronger player tells less than that: 1800 with RD 60 against 1400 ends with RD 60.6, which the last
/// pair checks.)
#[test]
fn the_winner_rises_the_loser_falls_and_both_deviations_shrink() {
    let pairs = [
        (new_player(), new_player()),
        (r(1600.0, 150.0, 0.06), r(1450.0, 200.0, 0.06)),
        (r(1500.0, 90.0, 0.06), r(1550.0, 80.0, 0.06)),
    ];
    for (black, white) in pairs {
        for winner in [Side::Black, Side::White] {
            let [b, w] = after_game(&black, &white, Some(winner));
            let (won, lost, won_before, lost_before) = match winner {
                Side::Black => (b, w, black, white),
                Side::White => (w, b, white, black),
            };
            assert!(won.rating > won_before.rating, "{won:?} {won_before:?}");
            assert!(lost.rating < lost_before.rating, "{lost:?} {lost_before:?}");
            assert!(won.deviation < won_before.deviation);
            assert!(lost.deviation < lost_before.deviation);
        }
    }
    let [sure, _] = after_game(
        &r(1800.0, 60.0, 0.06),
        &r(1400.0, 120.0, 0.06),
        Some(Side::Black),
    );
    assert!(sure.rating > 1800.0);
    assert!((sure.deviation - 60.6).abs() < 0.05, "{sure:?}");
}

#[test]
fn between_equals_the_changes_mirror_and_a_draw_changes_no_rating() {
    let [b, w] = after_game(&new_player(), &new_player(), Some(Side::Black));
    // Equal ratings and deviations: what one gains the other loses (the sum stays 3000).
    assert!((b.rating + w.rating - 3000.0).abs() < 1e-9);
    assert_eq!(shown(&b).rating, 1662);
    assert_eq!(shown(&w).rating, 1338);
    assert_eq!(shown(&b).deviation, 290);
    let [b, w] = after_game(&new_player(), &new_player(), None);
    assert!((b.rating - 1500.0).abs() < 1e-9 && (w.rating - 1500.0).abs() < 1e-9);
    assert!(b.deviation < 350.0);
    // An upset moves ratings more than an expected result.
    let strong = r(1800.0, 80.0, 0.06);
    let weak = r(1400.0, 80.0, 0.06);
    let [expected, _] = after_game(&strong, &weak, Some(Side::Black));
    let [upset, _] = after_game(&strong, &weak, Some(Side::White));
    assert!(strong.rating - upset.rating > expected.rating - strong.rating);
}
