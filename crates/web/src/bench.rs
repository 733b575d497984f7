//! The engine workloads measured in the page (`parlorBench(name)`) and natively (`examples/native_bench.rs`), so
//! that the two can be compared on one machine: each is one fixed piece of work, the same in both.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The workloads by name.
pub const NAMES: [&str; 3] = ["twenty48-slides", "nocca-perft6", "mastermind-optimal"];

/// How many slides `twenty48-slides` makes.
pub const SLIDES: u64 = 1_000_000;

/// Runs the workload `name`: a number that depends on all its work (so nothing is optimised away, and the page and
/// the native run can be checked to agree), or `None` for an unknown name.
pub fn run(name: &str) -> Option<u64> {
    match name {
        "twenty48-slides" => Some(slides(SLIDES)),
        "nocca-perft6" => Some(nocca::perft(
            &nocca::Position::start(nocca::Dims::STANDARD),
            6,
        )),
        "mastermind-optimal" => {
            let variant: mastermind::Variant = "classic".parse().ok()?;
            mastermind::solve_all(&variant, mastermind::Strategy::Optimal, &mut |_, _| {})
                .ok()
                .map(|r| r.total)
        }
        _ => None,
    }
}

/// `n` slides of random 4x4 boards from seed 1 (each cell empty one time in four, else a tile up to 2^14), the four
/// directions in turn: the XOR of the boards they make.
pub fn slides(n: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let tables = twenty48::bitboard::tables();
    let mut acc = 0u64;
    let mut board = 0u64;
    for i in 0..n {
        if i % 4 == 0 {
            board = 0;
            for cell in 0..16 {
                let x = rng.next_u32();
                let e = if x % 4 == 0 { 0 } else { 1 + (x >> 8) % 14 };
                board |= u64::from(e) << (4 * cell);
            }
        }
        acc ^= tables.slide(board, twenty48::Direction::ALL[(i % 4) as usize]);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workloads_give_their_known_figures() {
        assert_eq!(
            run("nocca-perft6"),
            Some(nocca::perft(
                &nocca::Position::start(nocca::Dims::STANDARD),
                6
            ))
        );
        assert_eq!(
            run("mastermind-optimal"),
            Some(5625),
            "classic optimal total (README)"
        );
        assert_eq!(run("nope"), None);
    }

    #[test]
    fn the_slides_are_the_same_every_time() {
        assert_eq!(slides(1000), slides(1000));
        assert_ne!(slides(1000), slides(1001));
    }
}
