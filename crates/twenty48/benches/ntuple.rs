//! Evaluation speed of the n-tuple network beside the row-table heuristic, and a fixed-depth search with each.
//!
//! Run: `cargo bench -p parlor-2048 --bench ntuple`. The network's weights do not change its speed (the same cells are
//! read whatever they hold), so a zero network is used unless `PARLOR_2048_WEIGHTS` names a weights file.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twenty48::Direction;
use twenty48::ai::Search;
use twenty48::ai::ntuple::{self, DOWNGRADE_FROM, Downgraded, Network};
use twenty48::ai::{Evaluate, Evaluator, Weights};

fn network() -> Network {
    match std::env::var_os(ntuple::WEIGHTS_ENV) {
        Some(path) => ntuple::load(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{e}")),
        None => Network::new(0.0),
    }
}

fn search<E: Evaluate>(eval: &E, boards: &[u64], depth: u32) -> f32 {
    let mut s = Search::new(eval, 0.1, 1e-4);
    boards
        .iter()
        .filter_map(|&b| s.best(b, depth, &Direction::ALL).map(|(_, v)| v))
        .sum()
}

fn bench(c: &mut Criterion) {
    // Every 4th position of depth-1 games: 4096 boards for the evaluation, 32 for the search.
    let boards = common::played_boards(4096, 1, 4);
    let heuristic = Evaluator::new(Weights::default());
    let net = network();
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("heuristic", |bch| {
        bch.iter(|| {
            black_box(&boards)
                .iter()
                .map(|&b| heuristic.eval(b))
                .sum::<f32>()
        })
    });
    group.bench_function("network", |bch| {
        bch.iter(|| black_box(&boards).iter().map(|&b| net.eval(b)).sum::<f32>())
    });
    // What the player evaluates by default: the network reading boards through tile downgrading.
    let downgraded = Downgraded {
        net: &net,
        from: DOWNGRADE_FROM,
    };
    group.bench_function("network_downgraded", |bch| {
        bch.iter(|| {
            black_box(&boards)
                .iter()
                .map(|&b| downgraded.eval(b))
                .sum::<f32>()
        })
    });
    group.finish();

    let few: Vec<u64> = boards.iter().step_by(128).copied().collect();
    let mut group = c.benchmark_group("search_depth2");
    group.sample_size(10);
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function("heuristic", |bch| {
        bch.iter(|| search(&heuristic, black_box(&few), 2))
    });
    group.bench_function("network", |bch| {
        bch.iter(|| search(&net, black_box(&few), 2))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
