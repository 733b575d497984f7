//! Statistics over 100,000 finished games: the one pass that tallies a game, and everything the screen and
//! `parlor stats` read (the pass, the charts, and for 2048 the newest 1000 games rebuilt for their highest tile).
//! Run with `cargo bench -p parlor --bench stats`. The database is built once in `target/stats-bench/` (40,000
//! 2048 games, 40,000 Mastermind games, 20,000 Nocca games) and kept, so that the real binary can be timed on it:
//! `time target/release/parlor --data-dir target/stats-bench stats --json > /dev/null`.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use parlor::games::mastermind::Mastermind;
use parlor::games::nocca::{self, Nocca};
use parlor::games::twenty48::{self, Twenty48};
use parlor::mid::game::Game;
use parlor::mid::session::{Seed, Session};
use parlor::mid::stats::game_stats;
use parlor::storage::{GameRecord, Outcome, Storage, Store};
use std::path::PathBuf;

const GAMES: i64 = 100_000;

/// Real 2048 games (moves in a fixed rotation to the end), to be copied: the highest-tile chart rebuilds them.
fn real_2048(n: u64) -> Vec<GameRecord> {
    let mut store = Store::in_memory().expect("memory");
    let order = [
        ::twenty48::Direction::Left,
        ::twenty48::Direction::Down,
        ::twenty48::Direction::Right,
        ::twenty48::Direction::Up,
    ];
    for seed in 0..n {
        let seed = Seed {
            value: seed,
            chosen: false,
        };
        let mut s: Session<Twenty48> =
            Session::new(twenty48::Params::default(), seed, &store).expect("a game");
        let mut i = 0;
        while s.ended().is_none() {
            let _ = s.play(order[i % 4], &mut store);
            i += 1;
        }
    }
    store
        .history(Some("2048"), n as usize)
        .expect("history")
        .games
}

fn record<G: Game>(params: &G::Params, score: i64, result: Outcome, at: i64) -> GameRecord {
    GameRecord {
        id: 0,
        game: G::ID.into(),
        variant: G::variant(params),
        options: G::params_to_json(params),
        seed: at as u64,
        moves: String::new(),
        score,
        result,
        assisted: at % 17 == 0,
        seeded: false,
        practice: false,
        started_at: at * 1000 - 60_000,
        ended_at: at * 1000,
    }
}

/// The database of 100,000 games, built on first use.
fn database() -> Store {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/stats-bench");
    let mut store = Store::open(&dir).expect("open").store;
    if store.history(None, 1).expect("history").games.is_empty() {
        let real = real_2048(50);
        let mm = parlor::games::mastermind::Params::default();
        let levels = [
            nocca::Params::default(),
            nocca::Params {
                level: ::nocca::Level::Strong.into(),
                ..nocca::Params::default()
            },
        ];
        for at in 0..GAMES {
            // A cheap, fixed mix: 2048, Mastermind, Mastermind, 2048, Nocca.
            let r = match at % 5 {
                0 | 3 => {
                    let mut r = real[(at as usize / 5) % real.len()].clone();
                    r.ended_at = at * 1000;
                    r
                }
                1 | 2 => {
                    let guesses = 3 + (at * 7919) % 8;
                    let result = if guesses > 8 {
                        Outcome::Lost
                    } else {
                        Outcome::Won
                    };
                    record::<Mastermind>(&mm, guesses, result, at)
                }
                _ => {
                    let result = [Outcome::Won, Outcome::Lost, Outcome::GaveUp][(at % 3) as usize];
                    record::<Nocca>(&levels[(at % 2) as usize], 20 + at % 30, result, at)
                }
            };
            store.finish("bench", &r).expect("record");
        }
    }
    store
}

fn stats(c: &mut Criterion) {
    let store = database();
    let games = parlor::registry::GAMES;
    for g in games {
        let id = g.id();
        c.bench_function(&format!("tally {id} (one pass)"), |b| {
            b.iter(|| store.tally(id, &|o: &str| g.ranking(o)).expect("tally"))
        });
        c.bench_function(&format!("statistics of {id} (pass and charts)"), |b| {
            b.iter(|| game_stats(&store, *g).expect("stats"))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = stats
}
criterion_main!(benches);
