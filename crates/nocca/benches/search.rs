//! Search speed on the fixed bench positions: `cargo bench -p nocca --bench search`.
//! Nodes per second = the node count printed first divided by the measured time.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nocca::bench::bench_positions;
use nocca::{Limits, SearchConfig, Searcher};

fn bench_search(c: &mut Criterion) {
    let positions = bench_positions();
    let depth = 7;
    let run = |positions: &[nocca::Position]| {
        let mut nodes = 0;
        for p in positions {
            let mut s = Searcher::new(18, SearchConfig::default());
            nodes += s
                .search(p, &[], None, Limits::depth(depth), 0, &mut || 0)
                .map_or(0, |r| r.nodes);
        }
        nodes
    };
    println!(
        "search bench: {} nodes per iteration (depth {depth})",
        run(&positions)
    );
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function(format!("bench positions depth {depth}"), |b| {
        b.iter(|| run(black_box(&positions)))
    });
    g.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
