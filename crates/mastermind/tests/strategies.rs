//! Strategy totals over all secrets, against the literature.

use mastermind::{Breaker, Strategy, Variant, feedback, solve_all};

fn total(v: Variant, s: Strategy) -> mastermind::SolveReport {
    let t = std::time::Instant::now();
    let r = solve_all(&v, s, &mut |_, _| {}).unwrap();
    eprintln!("{v} {s}: {r} in {:?}", t.elapsed());
    r
}

#[test]
fn knuth_classic() {
    let r = total(Variant::CLASSIC, Strategy::Knuth);
    assert_eq!((r.total, r.max), (5801, 5));
    assert_eq!(r.histogram, vec![0, 1, 6, 62, 533, 694]);
}

#[test]
fn expected_size_classic() {
    assert_eq!(total(Variant::CLASSIC, Strategy::ExpectedSize).total, 5696);
}

#[test]
fn entropy_classic() {
    assert_eq!(total(Variant::CLASSIC, Strategy::Entropy).total, 5722);
}

#[test]
fn most_parts_classic() {
    assert_eq!(total(Variant::CLASSIC, Strategy::MostParts).total, 5668);
}

/// Computed here (no literature figure for the seed's rules: secret without repeats, guesses with);
/// the search is checked against a plain exhaustive minimum on small variants in `optimal_oracle.rs`.
#[test]
fn optimal_seed() {
    let r = total(Variant::SEED, Strategy::Optimal);
    assert_eq!((r.total, r.codes, r.max), (1435, 360, 5));
}

#[test]
fn heuristics_seed() {
    let totals: Vec<u64> = [
        Strategy::Knuth,
        Strategy::ExpectedSize,
        Strategy::Entropy,
        Strategy::MostParts,
    ]
    .into_iter()
    .map(|s| total(Variant::SEED, s).total)
    .collect();
    assert_eq!(totals, vec![1485, 1453, 1440, 1452]);
}

/// Koyama and Lai (1993): 5625, average 4.340, at most 6 guesses.
#[test]
fn optimal_classic() {
    let r = total(Variant::CLASSIC, Strategy::Optimal);
    assert_eq!((r.total, r.max), (5625, 6));
    assert_eq!(r.histogram.iter().sum::<u64>(), 1296);
}

/// The breaker follows the optimal tree: every classic secret in at most 6 guesses, 5625 in all.
#[test]
fn breaker_optimal_classic_finds_every_secret() {
    let v = Variant::CLASSIC;
    let base = Breaker::new(&v, Strategy::Optimal).unwrap();
    let mut sum = 0;
    for secret in v.secrets() {
        let mut b = base.clone();
        for n in 1..=6u64 {
            let g = b.next_guess();
            let fb = feedback(secret, g);
            b.record(g, fb).unwrap();
            if fb.is_win(4) {
                sum += n;
                break;
            }
            assert!(n < 6, "{secret:?} not found in 6");
        }
    }
    assert_eq!(sum, 5625);
}
