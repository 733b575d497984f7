//! Strategy totals over all secrets, against the literature.

use mastermind::{Strategy, Variant, solve_all};

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

#[test]
fn optimal_seed() {
    let r = total(Variant::SEED, Strategy::Optimal);
    assert_eq!(r.codes, 360);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo test -p mastermind --release -- --include-ignored"
)]
fn optimal_classic() {
    let r = total(Variant::CLASSIC, Strategy::Optimal);
    assert_eq!(r.total, 5625);
}
