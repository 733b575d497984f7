//! Slide throughput: the raw 4x4 bitboard slide versus the general exact engine.
//!
//! Two sets of 4096 boards: `played` boards are positions from seeded games of a depth-1 player (the kind of board the
//! search slides: a few large tiles, many repeated rows), and `uniform` boards have every cell empty with probability
//! 1/4, else an exponent 1..=14 (a stress case: nearly every row is distinct, so the tables miss the cache).
//!
//! Run: `CARGO_TARGET_DIR=/work/target-twenty48 nice cargo bench -p twenty48 --bench slide`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use twenty48::ai::{Player, SearchConfig};
use twenty48::{Board, Direction, Game, Rules, Status, bitboard};

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

/// Every position from seeded games of a depth-1 player (seeds 1, 2, ...), until there are `N`.
fn played_boards() -> Vec<u64> {
    let mut out = Vec::with_capacity(N);
    let mut seed = 1;
    while out.len() < N {
        let mut game = Game::new(Rules::default(), seed);
        let mut p = Player::new(SearchConfig::depth(1));
        while game.status() != Status::Over && out.len() < N {
            game.keep_going();
            let Some(d) = p.best_move(game.board(), 0.1) else {
                break;
            };
            let _ = game.slide(d);
            if let Some(b) = game.board().to_bitboard() {
                out.push(b);
            }
        }
        seed += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let tables = bitboard::tables();
    let played = played_boards();
    let mut group = c.benchmark_group("slide4x4_played");
    group.throughput(Throughput::Elements((N * 4) as u64));
    group.bench_function("bitboard_raw_u64", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &x in black_box(&played) {
                for d in Direction::ALL {
                    acc ^= tables.slide(x, d);
                }
            }
            acc
        })
    });
    let general: Vec<Board> = played.iter().map(|&x| Board::from_bitboard(x)).collect();
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
    group.finish();

    let bbs = uniform_boards();
    let mut group = c.benchmark_group("slide4x4_uniform");
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
