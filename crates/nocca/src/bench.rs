//! A fixed search benchmark whose node count is a signature of the search.

use std::time::Duration;
use web_time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::search::{Limits, SearchConfig, Searcher};
use crate::{Dims, Position};

/// Result of [`bench()`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Total nodes searched.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Nodes per second.
    pub nps: f64,
    /// Signature: the total node count (changes whenever the search does).
    pub signature: u64,
}

/// Search depth used by [`bench()`].
pub const BENCH_DEPTH: u32 = 8;

/// The benchmark positions: the start and positions after fixed random playouts (from seed 2024) of 4 to 24 plies.
pub fn bench_positions() -> Vec<Position> {
    let mut out = vec![Position::start(Dims::STANDARD)];
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for plies in [4, 8, 12, 16, 20, 24] {
        let mut p = Position::start(Dims::STANDARD);
        for _ in 0..plies {
            let moves = p.legal_moves();
            let quiet: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| !p.is_goal_move(m))
                .collect();
            if quiet.is_empty() {
                break;
            }
            let m = quiet[(rng.next_u64() % quiet.len() as u64) as usize];
            p.play_unchecked(m);
            if p.has_goal_move() || !p.has_moves() {
                break;
            }
        }
        out.push(p);
    }
    out
}

/// Searches every [`bench_positions`] position to [`BENCH_DEPTH`] with a fresh searcher.
pub fn bench() -> BenchReport {
    let t = Instant::now();
    let mut nodes = 0;
    for p in bench_positions() {
        let mut s = Searcher::new(20, SearchConfig::default());
        if let Some(r) = s.search(&p, &[], None, Limits::depth(BENCH_DEPTH), 0, &mut || 0) {
            nodes += r.nodes;
        }
    }
    let elapsed = t.elapsed();
    BenchReport {
        nodes,
        elapsed,
        nps: nodes as f64 / elapsed.as_secs_f64().max(1e-9),
        signature: nodes,
    }
}
