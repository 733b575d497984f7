//! Search speed: positions evaluated per second by the bitboard expectimax on a fixed set of mid-game boards.
//!
//! Run: `cargo bench -p twenty48 --bench search`

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twenty48::Direction;
use twenty48::ai::search::Search;
use twenty48::ai::tt::TranspositionTable;
use twenty48::ai::{Evaluator, Weights};

/// 32 boards taken every 50 moves from depth-2 games (seeds 1, 2, ...).
fn boards() -> Vec<u64> {
    common::played_boards(32, 2, 50)
}

fn bench(c: &mut Criterion) {
    let boards = boards();
    let eval = Evaluator::new(Weights::default());
    let tt = TranspositionTable::new(20);
    for depth in [2u32, 3] {
        // Count the positions once to set the throughput (evaluations + expanded chance nodes, no table).
        let mut s = Search::new(&eval, None, 0.1, 1e-4);
        for &b in &boards {
            s.best(b, depth, &Direction::ALL);
        }
        let positions = s.evals + s.nodes;
        let mut group = c.benchmark_group(format!("search_depth{depth}"));
        group.throughput(Throughput::Elements(positions));
        group.sample_size(10);
        group.bench_function("no_tt", |bch| {
            bch.iter(|| {
                let mut s = Search::new(&eval, None, 0.1, 1e-4);
                for &b in black_box(&boards) {
                    black_box(s.best(b, depth, &Direction::ALL));
                }
            })
        });
        group.bench_function("tt_cleared_each_board", |bch| {
            bch.iter(|| {
                for &b in black_box(&boards) {
                    tt.clear();
                    let mut s = Search::new(&eval, Some(&tt), 0.1, 1e-4);
                    black_box(s.best(b, depth, &Direction::ALL));
                }
            })
        });
        group.finish();
    }
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("evaluate", |bch| {
        bch.iter(|| {
            black_box(&boards)
                .iter()
                .map(|&b| eval.eval(b))
                .sum::<f32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
