//! Strategy totals over all secrets, against the literature.

use mastermind::{Breaker, Strategy, Variant, feedback, solve_all};

fn total(v: Variant, s: Strategy) -> mastermind::SolveReport {
    let t = std::time::Instant::now();
    let r = solve_all(&v, s, &mut |_, _| {}).unwrap();
    eprintln!("{v} {s}: {r} in {:?}", t.elapsed());
    r
}

/// Knuth's rule as he published it ("The computer as master mind", J. Recreational Mathematics 9, 1976/77):
/// the guess whose largest part is smallest, a candidate among equals, then the lowest code; first guess
/// 1122 (`RRGG`), every secret within 5 guesses, 5801 in all (average 4.476).
#[test]
fn knuth_classic() {
    let r = total(Variant::CLASSIC, Strategy::Knuth);
    assert_eq!((r.total, r.codes, r.max), (5801, 1296, 5));
    let first = Breaker::new(&Variant::CLASSIC, Strategy::Knuth)
        .unwrap()
        .next_guess();
    assert_eq!(
        Variant::CLASSIC
            .format_code(&first, mastermind::CodeStyle::Symbols)
            .to_string(),
        "RRGG"
    );
}

/// Knuth's minimax with the finer tie rule of RULES.md ("Strategies": parts compared from the largest
/// down, the all-black part counted as 0, then numeric order): mastermind-strategy's `minmax` gives 5778
/// as here.
#[test]
fn knuth_sorted_classic() {
    let r = total(Variant::CLASSIC, Strategy::KnuthSorted);
    assert_eq!((r.total, r.max), (5778, 5));
    assert_eq!(r.histogram, vec![0, 1, 6, 54, 572, 663]);
}

/// Knuth's published rule on Bulls and Cows (the figure the earlier plain-score rule of this crate gave).
#[test]
fn knuth_bulls_and_cows() {
    assert_eq!(total(Variant::BULLS_COWS, Strategy::Knuth).total, 27139);
}

#[test]
fn expected_size_classic() {
    assert_eq!(total(Variant::CLASSIC, Strategy::ExpectedSize).total, 5696);
}

#[test]
fn entropy_classic() {
    assert_eq!(total(Variant::CLASSIC, Strategy::Entropy).total, 5719);
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
        Strategy::KnuthSorted,
        Strategy::ExpectedSize,
        Strategy::Entropy,
        Strategy::MostParts,
    ]
    .into_iter()
    .map(|s| total(Variant::SEED, s).total)
    .collect();
    assert_eq!(totals, vec![1484, 1453, 1437, 1452]);
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

const HEURISTICS: [Strategy; 4] = [
    Strategy::KnuthSorted,
    Strategy::ExpectedSize,
    Strategy::Entropy,
    Strategy::MostParts,
];

/// Totals of the four heuristics (knuth-sorted, expected-size, entropy, most-parts) under the rule of RULES.md
/// ("Computer strategies"), measured with this code; `solve_all` replays every secret against each
/// tree. Beside them, mastermind-strategy's totals for the same rules (`mmstrat -r RULES -s minmax |
/// minavg | entropy | parts -S`, see BENCHMARKS.md): never worse.
fn check_oracle(v: Variant, want: [u64; 4], anchor: [u64; 4]) {
    for ((s, want), anchor) in HEURISTICS.into_iter().zip(want).zip(anchor) {
        let r = total(v, s);
        assert_eq!(r.total, want, "{v} {s}");
        assert_eq!(r.codes, v.secret_count(), "{v} {s}");
        assert!(r.total <= anchor, "{v} {s}: {} above {anchor}", r.total);
    }
}

#[test]
fn heuristics_oracle_classic() {
    check_oracle(
        Variant::CLASSIC,
        [5778, 5696, 5719, 5668],
        [5778, 5696, 5719, 5668],
    );
}

#[test]
fn heuristics_oracle_bulls_and_cows() {
    check_oracle(
        Variant::BULLS_COWS,
        [27030, 26551, 26407, 26751],
        [27030, 26551, 26409, 26751],
    );
}

#[test]
fn heuristics_oracle_four_by_seven() {
    check_oracle(
        Variant::custom(7, 4, 10, true, true).unwrap(),
        [11491, 11409, 11364, 11388],
        [11491, 11409, 11364, 11388],
    );
}

/// Super Mastermind (32,768 secrets): seconds each in a release build, minutes in a debug one.
/// `cargo test --release -p parlor-mastermind --test it -- strategies:: --include-ignored`
#[test]
#[ignore]
fn heuristics_oracle_super() {
    check_oracle(
        Variant::SUPER,
        [182409, 180287, 179796, 181834],
        [182409, 180287, 179797, 181834],
    );
}

/// 6 pegs and 6 colours (46,656 secrets), the large custom variant of BENCHMARKS.md (issue 30): seconds each
/// in a release build. `cargo test --release -p parlor-mastermind --test it -- strategies:: --include-ignored`
#[test]
#[ignore]
fn heuristics_oracle_six_by_six() {
    check_oracle(
        Variant::custom(6, 6, 12, true, true).unwrap(),
        [247843, 243144, 242447, 244470],
        [247843, 243144, 242465, 244470],
    );
}
