//! Helpers shared by the integration tests (the module `common` of `main.rs`, used as `crate::common`).
#![allow(dead_code)]

use nocca::{Dims, Move, Position};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

pub fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

pub fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

pub const ALL_DIMS: [(usize, usize); 12] = [
    (3, 3),
    (3, 4),
    (3, 5),
    (4, 3),
    (4, 4),
    (4, 5),
    (5, 3),
    (5, 4),
    (5, 5),
    (6, 3),
    (6, 4),
    (6, 5),
];

/// Positions reached by seeded random playouts (goal moves never played), on varied board sizes.
pub fn random_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let (r, c) = ALL_DIMS[g % ALL_DIMS.len()];
        let mut p = Position::start(Dims::new(r, c).unwrap());
        let plies = (rng.next_u64() % max_plies as u64) as usize + 1;
        for _ in 0..plies {
            out.push(p);
            let quiet: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| !p.is_goal_move(m))
                .collect();
            if quiet.is_empty() {
                break;
            }
            p.play_unchecked(quiet[(rng.next_u64() % quiet.len() as u64) as usize]);
        }
        out.push(p);
    }
    out
}
