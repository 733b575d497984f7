//! Perft from the start position: `cargo bench -p nocca --bench perft`.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nocca::{Dims, Position, perft};

fn bench_perft(c: &mut Criterion) {
    let start = Position::start(Dims::STANDARD);
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for depth in [5, 6] {
        g.bench_function(format!("start depth {depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
