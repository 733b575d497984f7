//! The engine workloads measured in the page (`parlorBench(name)`) and natively (`examples/native_bench.rs`), so
//! that the two can be compared on one machine: each is one fixed piece of work, the same in both.

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
///
/// The boards come from SplitMix64, a generator of a few integer operations per number, so that the figure is the
/// slides' and not the generator's (a ChaCha generator, used before, cost more than the slides themselves, and far
/// more in the page, where it has no vector instructions).
pub fn slides(n: u64) -> u64 {
    let mut state = 1u64;
    let tables = twenty48::bitboard::tables();
    let mut acc = 0u64;
    let mut board = 0u64;
    for i in 0..n {
        if i % 4 == 0 {
            board = 0;
            let mut bits = splitmix64(&mut state);
            for cell in 0..16 {
                if cell == 8 {
                    bits = splitmix64(&mut state);
                }
                // 8 bits a cell: 2 for empty or not, 6 for the exponent (1 to 14).
                let x = (bits >> (8 * (cell % 8))) & 0xff;
                let e = if x & 3 == 0 { 0 } else { 1 + (x >> 2) % 14 };
                board |= e << (4 * cell);
            }
        }
        acc ^= tables.slide(board, twenty48::Direction::ALL[(i % 4) as usize]);
    }
    acc
}

/// The next number of SplitMix64 (Steele, Lea and Flood 2014).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
            "classic optimal total (docs/ENGINES.md)"
        );
        assert_eq!(run("nope"), None);
    }

    #[test]
    fn the_slides_are_the_same_every_time() {
        assert_eq!(slides(1000), slides(1000));
        assert_ne!(slides(1000), slides(1001));
    }

    #[test]
    fn splitmix64_gives_its_published_first_numbers() {
        // The reference implementation's first outputs from seed 0.
        let mut state = 0u64;
        assert_eq!(splitmix64(&mut state), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut state), 0x6e78_9e6a_a1b9_65f4);
    }
}
