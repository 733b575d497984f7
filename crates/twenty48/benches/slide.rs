//! Slide throughput: the raw 4x4 bitboard slide versus the general exact engine.
//!
//! Two sets of 4096 boards: `played` boards are positions from seeded games of a depth-1 player (the kind of board the
//! search slides: a few large tiles, many repeated rows), and `uniform` boards have every cell empty with probability
//! 1/4, else an exponent 1..=14 (a stress case: nearly every row is distinct, so the tables miss the cache).
//!
//! Run: `cargo bench -p parlor-2048 --bench slide`

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use twenty48::{Board, Direction, bitboard};

const N: usize = 4096;

/// Random 4x4 boards: each cell empty with probability 1/4, else an exponent 1..=14.
fn uniform_boards() -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(2048);
    (0..N)
        .map(|_| {
            let mut b = 0u64;
            for i in 0..16 {
                let x = rng.next_u32();
                let e = if x % 4 == 0 { 0 } else { 1 + (x >> 8) % 14 } as u64;
                b |= e << (4 * i);
            }
            b
        })
        .collect()
}

/// All four slides of every board, through the 4x4 tables.
fn bench_bitboard(group: &mut BenchmarkGroup<'_, WallTime>, boards: &[u64]) {
    let tables = bitboard::tables();
    group.bench_function("bitboard_raw_u64", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &x in black_box(boards) {
                for d in Direction::ALL {
                    acc ^= tables.slide(x, d);
                }
            }
            acc
        })
    });
}

/// All four slides of every board, through the general engine: `Board::slide_general` always, and with `dispatch`
/// also `Board::slide` (which takes the bitboard path when it can).
fn bench_general(group: &mut BenchmarkGroup<'_, WallTime>, boards: &[u64], dispatch: bool) {
    let general: Vec<Board> = boards.iter().map(|&x| Board::from_bitboard(x)).collect();
    group.bench_function("board_slide_general", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for x in black_box(&general) {
                for d in Direction::ALL {
                    acc ^= x.slide_general(d).gained;
                }
            }
            acc
        })
    });
    if dispatch {
        group.bench_function("board_slide_dispatch", |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for x in black_box(&general) {
                    for d in Direction::ALL {
                        acc ^= x.slide(d).gained;
                    }
                }
                acc
            })
        });
    }
}

fn bench(c: &mut Criterion) {
    let played = common::played_boards(N, 1, 1);
    let mut group = c.benchmark_group("slide4x4_played");
    group.throughput(Throughput::Elements((N * 4) as u64));
    bench_bitboard(&mut group, &played);
    bench_general(&mut group, &played, false);
    group.finish();

    let bbs = uniform_boards();
    let tables = bitboard::tables();
    let mut group = c.benchmark_group("slide4x4_uniform");
    group.throughput(Throughput::Elements((N * 4) as u64));
    bench_bitboard(&mut group, &bbs);
    group.bench_function("bitboard_left_right_only", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &x in black_box(&bbs) {
                acc ^= tables.slide(x, Direction::Left) ^ tables.slide(x, Direction::Right);
                acc ^= tables.slide(x.rotate_left(4), Direction::Left)
                    ^ tables.slide(x.rotate_left(4), Direction::Right);
            }
            acc
        })
    });
    bench_general(&mut group, &bbs, true);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
