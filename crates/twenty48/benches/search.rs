//! Search speed: positions evaluated per second by the bitboard expectimax on a fixed set of mid-game boards.
//!
//! Run: `cargo bench -p parlor-2048 --bench search`
//!
//! Each depth is searched without a table and with the bucket table, emptied in O(1) before each board (a new
//! generation); the throughput counts the positions of the search without a table, so the table's hits show as
//! speed. The hit rates of one pass are printed first.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twenty48::Direction;
use twenty48::ai::BucketTable;
use twenty48::ai::Search;
use twenty48::ai::{Evaluator, Weights};

/// 32 boards taken every 50 moves from depth-2 games (seeds 1, 2, ...).
fn boards() -> Vec<u64> {
    common::played_boards(32, 2, 50)
}

fn bench(c: &mut Criterion) {
    let boards = boards();
    let eval = Evaluator::new(Weights::default());
    // 16 MiB: 2^21 entries of 8 bytes, as the player's.
    let buckets = BucketTable::new(21);
    for depth in [2u32, 3, 4] {
        let name = format!("search_depth{depth}");
        // Count the positions once to set the throughput (evaluations + expanded chance nodes, no table).
        let mut s = Search::new(&eval, 0.1, 1e-4);
        for &b in &boards {
            s.best(b, depth, &Direction::ALL);
        }
        let positions = s.evals + s.nodes;
        // Hit rates of one pass, each board searched with an emptied table (a new generation).
        let mut s = Search::with_buckets(&eval, &buckets, 0.1, 1e-4);
        for &b in &boards {
            buckets.new_generation();
            s.best(b, depth, &Direction::ALL);
        }
        eprintln!(
            "{name}: {positions} positions without a table, {} with it; {} probes, {} hits ({:.1}%)",
            s.evals + s.nodes,
            s.probes,
            s.hits,
            100.0 * s.hits as f64 / s.probes.max(1) as f64
        );
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(positions));
        group.sample_size(10);
        group.bench_function("no_tt", |bch| {
            bch.iter(|| {
                let mut s = Search::new(&eval, 0.1, 1e-4);
                for &b in black_box(&boards) {
                    black_box(s.best(b, depth, &Direction::ALL));
                }
            })
        });
        group.bench_function("buckets_new_generation_each_board", |bch| {
            bch.iter(|| {
                for &b in black_box(&boards) {
                    buckets.new_generation();
                    let mut s = Search::with_buckets(&eval, &buckets, 0.1, 1e-4);
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
