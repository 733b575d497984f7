//! The coach's reviews of finished games (docs/REVIEW.md), each game's reviewer called as `parlor review` calls it:
//! Mastermind classic and Super, Nocca Nocca 4x4 once its table is built, 2048 4x4 at the review's depth on a fixed
//! game of 500 slides. Run with `cargo bench -p parlor --bench review`; the targets are in BENCHMARKS.md ("Reviews").
//!
//! The long 2048 game (the 10,000-slide target) is measured once, not sampled: `PARLOR_REVIEW_LONG=10000 cargo bench
//! -p parlor --bench review -- --list` plays a game of that many slides (seeds from 1 until one lasts, the review's
//! player at depth 2), then prints the review's wall time and how often its progress was told.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ::mastermind::{Breaker, Strategy, Variant};
use criterion::{Criterion, criterion_group, criterion_main};
use parlor::games::mastermind::{self as mm, Mastermind, Play, Role};
use parlor::games::nocca::{self, Nocca};
use parlor::games::twenty48::{self, Twenty48};
use parlor::mid::game::{Game, Purpose, Status};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A codebreaker game of `v` from `seed`, guessed by the Knuth strategy (some guesses off the optimal tree's).
fn mastermind_game(v: Variant, seed: u64) -> (mm::State, Vec<mm::Move>) {
    let params = mm::Params::of(v, Role::Breaker);
    let start = Mastermind::new_game(&params, seed).unwrap();
    let mut state = start.clone();
    let mut breaker = Breaker::new(&v, Strategy::Knuth).unwrap();
    let mut moves = Vec::new();
    while matches!(Mastermind::status(&state), Status::Playing(_)) && moves.len() < 12 {
        let guess = breaker.next_guess();
        let mv = mm::Move::new(Play::Guess(guess), v);
        Mastermind::apply(&mut state, &mv).unwrap();
        moves.push(mv);
        let &(g, fb) = state.history().last().unwrap();
        if breaker.record(g, fb).is_err() {
            break;
        }
    }
    (start, moves)
}

/// A Nocca Nocca 4x4 game of the computer against itself at the beginner level (it makes mistakes to mark).
fn nocca_game(tables: &nocca::Tables) -> (nocca::State, Vec<::nocca::Move>, nocca::Params) {
    let params = nocca::Params {
        mode: nocca::Mode::Watch,
        level: ::nocca::Opponent::Engine(::nocca::Level::Beginner),
        board: ::nocca::Dims::new(4, 4).unwrap(),
        ..Default::default()
    };
    let start = Nocca::new_game(&params, 7).unwrap();
    let mut thinker = Nocca::thinker(&params, tables);
    let mut state = start.clone();
    let mut moves = Vec::new();
    let stop = AtomicBool::new(false);
    while matches!(Nocca::status(&state), Status::Playing(_)) && moves.len() < 200 {
        let mv = Nocca::think(&mut thinker, &state, Purpose::Opponent, &stop).unwrap();
        Nocca::apply(&mut state, &mv).unwrap();
        moves.push(mv);
    }
    (start, moves, params)
}

/// A 2048 4x4 game of up to `slides` slides played by the review's player from `seed` (to its end, if sooner).
fn twenty48_game(seed: u64, slides: usize) -> (twenty48::State, Vec<::twenty48::Direction>) {
    let params = twenty48::Params::default();
    let start = Twenty48::new_game(&params, seed).unwrap();
    let mut player = ::twenty48::ai::Player::with_network(
        ::twenty48::ai::SearchConfig::depth(twenty48::review::REVIEW_DEPTH),
        std::sync::Arc::clone(::twenty48::ai::ntuple::shipped().unwrap()),
    );
    let mut state = start.clone();
    let mut moves = Vec::new();
    while moves.len() < slides {
        let Some(dir) = player.best_move(state.game.board(), 0.1) else {
            break;
        };
        Twenty48::apply(&mut state, &dir).unwrap();
        moves.push(dir);
    }
    (start, moves)
}

/// Measures the review of a 2048 game of `slides` slides once and prints it.
fn long_2048(slides: usize) {
    let (start, moves) = (1..)
        .map(|seed| (seed, twenty48_game(seed, slides)))
        .find(|(_, (_, moves))| moves.len() >= slides)
        .map(|(seed, game)| {
            eprintln!("2048: seed {seed}, {} slides", game.1.len());
            game
        })
        .unwrap();
    let mut told = 0usize;
    let t = Instant::now();
    let review = Twenty48::review(
        &(),
        &twenty48::Params::default(),
        &start,
        &moves,
        &mut |_, _| told += 1,
    )
    .unwrap()
    .unwrap();
    eprintln!(
        "review of {} slides at depth {}: {:.1} s wall, progress told {told} times; {}",
        moves.len(),
        twenty48::review::REVIEW_DEPTH,
        t.elapsed().as_secs_f64(),
        review.summary()
    );
}

fn reviews(c: &mut Criterion) {
    if let Some(n) = std::env::var("PARLOR_REVIEW_LONG")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        long_2048(n);
        return;
    }
    let mut group = c.benchmark_group("review");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));

    for (name, v) in [("classic", Variant::CLASSIC), ("super", Variant::SUPER)] {
        let (start, moves) = mastermind_game(v, 11);
        let params = mm::Params::of(v, Role::Breaker);
        let ctx = Mastermind::context(None);
        // The trees and spaces the reviewer reads are made once, as in a run that reviewed before.
        Mastermind::review(&ctx, &params, &start, &moves, &mut |_, _| {});
        group.bench_function(format!("mastermind {name}, {} guesses", moves.len()), |b| {
            b.iter(|| Mastermind::review(&ctx, &params, &start, black_box(&moves), &mut |_, _| {}))
        });
    }

    let tables = Nocca::context(None);
    let (start, moves, params) = nocca_game(&tables);
    // The 4x4 table is solved on the first review (in memory: no data directory), then kept for the run.
    Nocca::review(&tables, &params, &start, &moves, &mut |_, _| {});
    group.bench_function(format!("nocca 4x4, {} plies", moves.len()), |b| {
        b.iter(|| Nocca::review(&tables, &params, &start, black_box(&moves), &mut |_, _| {}))
    });

    let (start, moves) = twenty48_game(5, 500);
    let params = twenty48::Params::default();
    group.bench_function(format!("2048 4x4, {} slides", moves.len()), |b| {
        b.iter(|| Twenty48::review(&(), &params, &start, black_box(&moves), &mut |_, _| {}))
    });
    group.finish();
}

criterion_group!(benches, reviews);
criterion_main!(benches);
