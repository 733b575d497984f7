//! Slide throughput: the raw 4x4 bitboard slide versus the general exact engine.
//!
//! Run: `CARGO_TARGET_DIR=/work/target-twenty48 nice cargo bench -p twenty48 --bench slide`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use twenty48::{Board, Direction, bitboard};

const N: usize = 4096;

/// Random 4x4 boards: each cell empty with probability 1/4, else an exponent 1..=14.
fn boards() -> Vec<u64> {
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

fn bench(c: &mut Criterion) {
    let bbs = boards();
    let tables = bitboard::tables();
    let mut group = c.benchmark_group("slide4x4");
    group.throughput(Throughput::Elements((N * 4) as u64));
    group.bench_function("bitboard_raw_u64", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &x in black_box(&bbs) {
                for d in Direction::ALL {
                    acc ^= tables.slide(x, d);
                }
            }
            acc
        })
    });
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
    let general: Vec<Board> = bbs.iter().map(|&x| Board::from_bitboard(x)).collect();
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
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
