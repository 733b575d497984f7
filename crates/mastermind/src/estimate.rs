//! A rough estimate, made before starting, of the CPU time a strategy's tree takes to build: front ends use it to
//! refuse up front a solve that would run for minutes or hours (unless asked to run it anyway).
//!
//! The model is fitted to measured solves (release build, one core; `BENCHMARKS.md`), not derived: heuristics
//! score the allowed guesses against the candidates node by node, so their time grows about as guesses x secrets
//! (Super Mastermind's Knuth tree, 32768 x 32768, takes about 1.1 s since issue 30); the exact search grows far
//! faster and is interpolated between measured sizes (log-log), then extrapolated with the last measured slope.

use crate::strategy::Strategy;
use crate::variant::Variant;

/// Seconds per (guess, secret) pair of the space for the knuth tree (Super Mastermind 1.07 s CPU, 6 pegs and 6
/// colours 2.77 s; `BENCHMARKS.md`, issue 30).
const KNUTH_SECONDS_PER_PAIR: f64 = 1.2e-9;

/// The same for the other heuristics (Super Mastermind 0.55 to 0.71 s CPU, 6 pegs and 6 colours 1.08 to 1.61 s).
const HEURISTIC_SECONDS_PER_PAIR: f64 = 7e-10;

/// Measured exact solves: (secrets, CPU seconds). 360: the no-repeat secret preset (`seed`, 0.015 s); 1296:
/// classic (0.07 s); 2401: 4 pegs and 7 colours (5 s); 5040: Bulls and Cows (103 to 113 s, on one core in
/// effect). Measured after the issue-14 search work (`BENCHMARKS.md`).
const OPTIMAL_MEASURED: [(f64, f64); 4] = [
    (360.0, 0.015),
    (1296.0, 0.07),
    (2401.0, 5.0),
    (5040.0, 110.0),
];

/// The estimated CPU time, in seconds, of building `strategy`'s tree for `variant` (a rough figure: within a
/// small factor on the measured variants, an order of magnitude elsewhere).
///
/// ```
/// use mastermind::{Strategy, Variant, estimated_solve_seconds};
/// assert!(estimated_solve_seconds(&Variant::CLASSIC, Strategy::Optimal) < 1.0);
/// let bulls = Variant::preset("bulls-cows").unwrap();
/// assert!(estimated_solve_seconds(&bulls, Strategy::Optimal) > 60.0);
/// ```
pub fn estimated_solve_seconds(variant: &Variant, strategy: Strategy) -> f64 {
    match strategy.resolved(variant) {
        // Read from the engine, not built.
        Strategy::Best => 0.0,
        Strategy::Optimal => interpolate(&OPTIMAL_MEASURED, variant.secret_count() as f64),
        _ => {
            let guesses = variant.guess_count() as f64;
            let secrets = variant.secret_count() as f64;
            let per_pair = if matches!(strategy, Strategy::Knuth | Strategy::KnuthSorted) {
                KNUTH_SECONDS_PER_PAIR
            } else {
                HEURISTIC_SECONDS_PER_PAIR
            };
            per_pair * guesses * secrets
        }
    }
}

/// Piecewise log-log interpolation through `points` (sorted by x), extrapolated with the nearest segment's slope.
fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    let x = x.max(1.0);
    let i = points
        .windows(2)
        .position(|w| x <= w[1].0)
        .unwrap_or(points.len() - 2);
    let ((x0, y0), (x1, y1)) = (points[i], points[i + 1]);
    let slope = (y1.ln() - y0.ln()) / (x1.ln() - x0.ln());
    (y0.ln() + slope * (x.ln() - x0.ln())).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_passes_through_the_measured_solves_and_grows_with_the_space() {
        for (codes, seconds) in OPTIMAL_MEASURED {
            let e = interpolate(&OPTIMAL_MEASURED, codes);
            assert!(
                (e - seconds).abs() < 1e-9 * seconds.max(1.0),
                "{codes}: {e}"
            );
        }
        let mut last = 0.0;
        for codes in (2..70_000).step_by(97) {
            let e = interpolate(&OPTIMAL_MEASURED, codes as f64);
            assert!(e.is_finite() && e > last, "{codes}: {e} after {last}");
            last = e;
        }
    }

    #[test]
    fn the_presets_fall_where_they_were_measured() {
        let bulls = Variant::preset("bulls-cows").unwrap();
        let sup = Variant::preset("super").unwrap();
        let four_seven = Variant::custom(7, 4, 10, true, true).unwrap();
        assert!(estimated_solve_seconds(&Variant::CLASSIC, Strategy::Optimal) < 1.0);
        assert!(estimated_solve_seconds(&Variant::default(), Strategy::Optimal) < 1.0);
        let e = estimated_solve_seconds(&four_seven, Strategy::Optimal);
        assert!((2.0..20.0).contains(&e), "4x7: {e}");
        // Bulls and Cows: about 110 s, so over the front end's 60 s limit.
        let e = estimated_solve_seconds(&bulls, Strategy::Optimal);
        assert!((60.0..1000.0).contains(&e), "bulls and cows: {e}");
        let e = estimated_solve_seconds(&sup, Strategy::Knuth);
        assert!((0.5..3.0).contains(&e), "super, knuth: {e}");
        assert!(estimated_solve_seconds(&bulls, Strategy::Entropy) < 2.0);
        assert!(estimated_solve_seconds(&Variant::CLASSIC, Strategy::Knuth) < 0.1);
    }
}
