//! Benchmarks: feedback throughput, strategy solve times, hint latency.
//!
//! `CARGO_TARGET_DIR=/work/target-mastermind cargo bench -p parlor-mastermind --bench mastermind`

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mastermind::{
    Breaker, FeedbackTable, PackedCode, Strategy, StrategyTree, Variant, feedback, solve_all,
};

fn feedback_throughput(c: &mut Criterion) {
    let codes = Variant::CLASSIC.guess_codes();
    let n = codes.len();
    let table = FeedbackTable::new(&codes);
    let packed: Vec<PackedCode> = codes.iter().map(PackedCode::new).collect();
    let mut g = c.benchmark_group("feedback-classic-all-pairs");
    g.throughput(Throughput::Elements((n * n) as u64));
    g.bench_function("table", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for i in 0..n {
                for &x in black_box(&table).row(i) {
                    sum += u64::from(x);
                }
            }
            sum
        })
    });
    g.bench_function("packed", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for a in black_box(&packed) {
                for p in &packed {
                    sum += u64::from(a.class(p));
                }
            }
            sum
        })
    });
    g.bench_function("plain", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &a in black_box(&codes) {
                for &x in &codes {
                    sum += u64::from(feedback(a, x).black);
                }
            }
            sum
        })
    });
    g.finish();
}

fn solve_times(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let no_repeat = Variant::custom(6, 4, 10, false, false).unwrap_or_default();
    for (name, v) in [
        ("seed", Variant::SEED),
        ("classic", Variant::CLASSIC),
        ("no-repeat-360", no_repeat),
    ] {
        for s in [Strategy::Knuth, Strategy::Optimal] {
            g.bench_function(format!("{name}/{s}"), |b| {
                b.iter(|| solve_all(black_box(&v), s, &mut |_, _| {}).map(|r| r.total))
            });
        }
    }
    g.finish();
}

fn hint_latency(c: &mut Criterion) {
    let mut g = c.benchmark_group("hint");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, v, secret) in [
        ("seed", Variant::SEED, "6 4 1 5"),
        ("classic", Variant::CLASSIC, "3 6 2 5"),
        ("super", Variant::SUPER, "8 1 3 3 7"),
    ] {
        let secret = v.parse_code(secret).unwrap();
        // Warm the caches (the seed/classic trees are built once per process).
        let base = Breaker::new(&v, Strategy::Knuth).unwrap();
        g.bench_function(format!("{name}/knuth/first"), |b| {
            b.iter(|| black_box(&base).next_guess())
        });
        // After one answer: off the opening, as a hint mid-game.
        let mut after = base.clone();
        let first = after.next_guess();
        after.record(first, feedback(secret, first)).unwrap();
        g.bench_function(format!("{name}/knuth/second"), |b| {
            b.iter(|| black_box(&after).next_guess())
        });
        let mut third = after.clone();
        let second = third.next_guess();
        if third.record(second, feedback(secret, second)).is_err() || third.solved().is_some() {
            continue;
        }
        g.bench_function(format!("{name}/knuth/third"), |b| {
            b.iter(|| black_box(&third).next_guess())
        });
    }
    g.finish();
}

/// A stored optimal tree: reading it back (checksum and full replay) and a lookup after three answers.
fn tree_file(c: &mut Criterion) {
    let mut g = c.benchmark_group("tree-file");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let v = Variant::CLASSIC;
    let Ok(tree) = StrategyTree::build(&v, Strategy::Optimal) else {
        return;
    };
    let bytes = tree.to_bytes();
    g.bench_function("classic/optimal/from-bytes", |b| {
        b.iter(|| StrategyTree::from_bytes(black_box(&bytes)).map(|t| t.nodes().len()))
    });
    let secret = v
        .parse_code("3 6 2 5")
        .unwrap_or_else(|_| tree.root_guess());
    let mut history = Vec::new();
    while history.len() < 3 {
        let Some(guess) = tree.guess_at(&history) else {
            break;
        };
        history.push((guess, feedback(secret, guess)));
    }
    history.pop();
    g.bench_function("classic/optimal/lookup", |b| {
        b.iter(|| tree.guess_at(black_box(&history)))
    });
    g.finish();
}

criterion_group!(
    benches,
    feedback_throughput,
    solve_times,
    hint_latency,
    tree_file
);
criterion_main!(benches);
