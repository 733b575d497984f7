//! Perft figures from RULES.md, and the bitboard generator against the naive reference.

use crate::common::{ALL_DIMS, random_positions};
use nocca::naive::NaivePosition;
use nocca::{Dims, Position, divide, perft};
use proptest::prelude::*;

const START: [u64; 7] = [21, 441, 9240, 193_600, 4_166_360, 89_656_695, 1_993_211_816];

#[test]
fn perft_start_depths_1_to_5() {
    let p = Position::start(Dims::STANDARD);
    assert_eq!(perft(&p, 0), 1);
    for d in 1..=5 {
        assert_eq!(perft(&p, d), START[d as usize - 1], "depth {d}");
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo test -p nocca --release -- --include-ignored"
)]
fn perft_start_depth_6() {
    assert_eq!(perft(&Position::start(Dims::STANDARD), 6), START[5]);
}

#[test]
#[ignore = "slow (seconds in release): cargo test -p nocca --release -- --include-ignored perft_start_depth_7"]
fn perft_start_depth_7() {
    assert_eq!(perft(&Position::start(Dims::STANDARD), 7), START[6]);
}

#[test]
fn divide_sums_to_perft() {
    let p = Position::start(Dims::STANDARD);
    for d in 1..=4 {
        let parts = divide(&p, d);
        assert_eq!(parts.len(), 21);
        assert_eq!(parts.iter().map(|x| x.1).sum::<u64>(), perft(&p, d));
    }
}

#[test]
fn perft_matches_naive_on_every_board_size() {
    for (r, c) in ALL_DIMS {
        let p = Position::start(Dims::new(r, c).unwrap());
        let n = NaivePosition::from_position(&p);
        let depth = if r * c <= 12 { 5 } else { 4 };
        assert_eq!(perft(&p, depth), n.perft(depth), "{r}x{c}");
    }
}

fn agree(p: &Position) {
    let n = NaivePosition::from_position(p);
    let mut fast: Vec<_> = p.legal_moves().to_vec();
    let mut slow = n.legal_moves();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "{p}");
    assert_eq!(p.count_moves(), slow.len());
    assert_eq!(p.has_moves(), !slow.is_empty());
    assert_eq!(p.has_goal_move(), slow.iter().any(|&m| n.is_goal(m)), "{p}");
    for &m in &slow {
        assert!(p.is_legal(m));
        assert_eq!(p.is_goal_move(m), n.is_goal(m));
        let mut a = *p;
        a.play_unchecked(m);
        let mut b = n.clone();
        b.play(m);
        assert_eq!(a, b.to_position(), "{p} {m}");
        assert_eq!(a.hash(), b.to_position().hash());
    }
    // Every other (square, direction) is refused by `check`.
    for sq in nocca::Square::all(p.dims()) {
        for d in nocca::Dir::ALL {
            let m = nocca::Move::new(sq, d);
            assert_eq!(p.is_legal(m), slow.contains(&m), "{p} {m}");
        }
    }
}

#[test]
fn generator_matches_naive_on_random_playouts() {
    let ps = random_positions(7, 400, 80);
    assert!(ps.len() > 5_000);
    for p in &ps {
        agree(p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn generator_matches_naive_prop(dims in 0usize..12, choices in proptest::collection::vec(any::<u16>(), 0..60)) {
        let (r, c) = ALL_DIMS[dims];
        let mut p = Position::start(Dims::new(r, c).unwrap());
        for ch in choices {
            agree(&p);
            let quiet: Vec<_> = p.legal_moves().iter().copied().filter(|&m| !p.is_goal_move(m)).collect();
            if quiet.is_empty() {
                break;
            }
            p.play_unchecked(quiet[ch as usize % quiet.len()]);
        }
    }
}
