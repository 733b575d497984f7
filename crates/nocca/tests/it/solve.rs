//! The retrograde solver against plain references, its table files, and perfect play against every level.

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nocca::solve::reference::{forced_within, reachable, sweep_values};
use nocca::{
    Colour, Dims, Engine, Game, GameOptions, Level, PerfectPlayer, Position, SolveError,
    SolveOptions, Stage, Table, TableError, Value,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn solved(r: usize, c: usize) -> Table {
    Table::solve(
        Dims::new(r, c).unwrap(),
        &SolveOptions::default(),
        &mut |_| {},
    )
    .unwrap()
}

fn agrees_with_sweeps(r: usize, c: usize) {
    let table = solved(r, c);
    let positions = reachable(table.dims());
    let want = sweep_values(&positions);
    let mut seen = [0u64; 3];
    for p in &positions {
        let got = table.value(p).unwrap();
        assert_eq!(got, want[p], "{p}");
        match got {
            Value::Win(d) => {
                assert_eq!(d % 2, 1, "{p}: win in {d}");
                seen[0] += 1;
            }
            Value::Loss(d) => {
                assert_eq!(d % 2, 0, "{p}: loss in {d}");
                seen[1] += 1;
            }
            Value::Draw => seen[2] += 1,
        }
    }
    eprintln!(
        "{r}x{c}: {} reachable: {seen:?}; table {:?}",
        positions.len(),
        table.counts()
    );
}

#[test]
fn solver_agrees_with_sweeps_on_3x3() {
    agrees_with_sweeps(3, 3);
}

#[test]
#[ignore = "about a minute in release on an idle machine: cargo test -p nocca --release -- --include-ignored"]
fn solver_agrees_with_sweeps_on_3x4() {
    agrees_with_sweeps(3, 4);
}

#[test]
fn distances_agree_with_a_depth_limited_tree_search_on_3x3() {
    let table = solved(3, 3);
    let longest = table.counts().longest_win.max(table.counts().longest_loss);
    let mut memo = HashMap::new();
    let positions = reachable(table.dims());
    for p in positions.iter().step_by(37) {
        let v = table.value(p).unwrap();
        match v {
            Value::Win(d) | Value::Loss(d) => {
                assert_eq!(forced_within(p, d, &mut memo), Some(v), "{p}");
                if d > 0 {
                    assert_eq!(forced_within(p, d - 1, &mut memo), None, "{p}");
                }
            }
            Value::Draw => assert_eq!(forced_within(p, longest + 2, &mut memo), None, "{p}"),
        }
    }
}

#[test]
fn every_move_value_is_consistent_with_the_position_value() {
    let table = solved(3, 4);
    for p in common::random_positions(5, 400, 30) {
        if p.dims() != table.dims() {
            continue;
        }
        let v = table.value(&p).unwrap();
        let moves = table.move_values(&p).unwrap();
        let best = moves.iter().map(|(_, m)| m.score()).max();
        match v {
            Value::Loss(0) => assert!(moves.is_empty(), "{p}"),
            _ => assert_eq!(best, Some(v.score()), "{p}"),
        }
        let with_white = p.with_side_to_move(p.side_to_move().opponent());
        assert!(table.value(&with_white).is_ok());
    }
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nocca-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn tables_as_bytes_are_the_files_bytes_and_damage_or_a_newer_version_is_refused() {
    let table = solved(3, 3);
    let bytes = table.to_bytes();
    let path = temp_path("3x3-bytes.table");
    table.save(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let back = Table::from_bytes(&bytes, table.dims(), "kept").unwrap();
    assert_eq!(back.counts(), table.counts());
    for p in reachable(table.dims()) {
        assert_eq!(back.value(&p), table.value(&p));
    }
    let refused = |b: &[u8], dims| Table::from_bytes(b, dims, "kept").unwrap_err();
    assert!(matches!(
        refused(&bytes, Dims::new(3, 4).unwrap()),
        TableError::WrongBoard { .. }
    ));
    for at in [48, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        assert!(
            matches!(refused(&bad, table.dims()), TableError::Checksum(_)),
            "byte {at}"
        );
    }
    // A newer format version (bytes 8..12) is refused, not guessed at; so are short and foreign bytes.
    let mut newer = bytes.clone();
    newer[8] += 1;
    assert!(matches!(
        refused(&newer, table.dims()),
        TableError::NotATable(_)
    ));
    assert!(matches!(
        refused(&bytes[..bytes.len() - 1], table.dims()),
        TableError::Length(_)
    ));
    assert!(matches!(
        refused(b"hello", table.dims()),
        TableError::NotATable(_)
    ));
    assert!(
        refused(b"hello", table.dims())
            .to_string()
            .starts_with("kept: ")
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn tables_round_trip_and_damage_is_detected() {
    let table = solved(3, 3);
    let path = temp_path("3x3.table");
    table.save(&path).unwrap();
    let back = Table::load(&path, table.dims()).unwrap();
    assert_eq!(back.counts(), table.counts());
    for p in reachable(table.dims()) {
        assert_eq!(back.value(&p), table.value(&p));
    }
    // Another board.
    assert!(matches!(
        Table::load(&path, Dims::new(3, 4).unwrap()),
        Err(TableError::WrongBoard { .. })
    ));
    let bytes = std::fs::read(&path).unwrap();
    // One flipped byte anywhere in the data.
    for at in [48, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(
            matches!(
                Table::load(&path, table.dims()),
                Err(TableError::Checksum(_))
            ),
            "byte {at}"
        );
    }
    // Truncated, and not a table at all.
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    assert!(matches!(
        Table::load(&path, table.dims()),
        Err(TableError::Length(_))
    ));
    std::fs::write(&path, b"hello").unwrap();
    assert!(matches!(
        Table::load(&path, table.dims()),
        Err(TableError::NotATable(_))
    ));
    // load_or_solve replaces the damaged file.
    let dir = path.parent().unwrap();
    let good = Table::path_in(dir, table.dims());
    std::fs::write(&good, b"damaged").unwrap();
    let (t, origin) = Table::load_or_solve(dir, table.dims(), &mut |_| {}).unwrap();
    assert!(matches!(
        origin,
        nocca::Origin::Solved { rejected: Some(_) }
    ));
    assert_eq!(t.counts(), table.counts());
    let (_, origin) = Table::load_or_solve(dir, table.dims(), &mut |_| {}).unwrap();
    assert!(matches!(origin, nocca::Origin::Loaded));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_interrupted_solve_resumes_from_its_checkpoint() {
    let dims = Dims::new(4, 3).unwrap();
    let fresh = Table::solve(dims, &SolveOptions::default(), &mut |_| {}).unwrap();
    let path = temp_path("4x3.checkpoint");
    let cancel = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        checkpoint: Some(path.clone()),
        checkpoint_every: std::time::Duration::ZERO,
        cancel: Some(cancel.clone()),
    };
    let flag = cancel.clone();
    let r = Table::solve(dims, &options, &mut |p| {
        if p.stage == Stage::Round(6) {
            flag.store(true, Ordering::Relaxed);
        }
    });
    assert!(matches!(r, Err(SolveError::Cancelled(6))), "{r:?}");
    assert!(path.exists());
    cancel.store(false, Ordering::Relaxed);
    let mut stages = Vec::new();
    let resumed = Table::solve(dims, &options, &mut |p| stages.push(p.stage)).unwrap();
    assert_eq!(stages[0], Stage::Resume);
    assert!(!stages.contains(&Stage::Init) && !stages.contains(&Stage::Round(6)));
    assert!(stages.contains(&Stage::Round(7)));
    assert_eq!(resumed.counts(), fresh.counts());
    for p in reachable(dims) {
        assert_eq!(resumed.value(&p), fresh.value(&p));
    }
    assert!(
        !path.exists(),
        "the checkpoint is removed once the solve completes"
    );
}

/// Plays perfect against `level` from a few random plies; checks that a won position is won and a drawn one is
/// never lost. Returns the perfect player's results (wins, draws, losses).
fn perfect_against(table: &Arc<Table>, level: Level, games: u64, seed: u64) -> [u32; 3] {
    let mut results = [0u32; 3];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for g in 0..games {
        let perfect_colour = if g % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let mut game = Game::new(table.dims(), GameOptions::default());
        for _ in 0..rng.next_u64() % 4 {
            let moves = game.legal_moves();
            let quiet: Vec<_> = moves
                .iter()
                .filter(|&&m| !game.position().is_goal_move(m))
                .collect();
            if quiet.is_empty() {
                break;
            }
            game.play(*quiet[(rng.next_u64() % quiet.len() as u64) as usize])
                .unwrap();
        }
        let mut perfect = PerfectPlayer::new(table.clone(), seed ^ g);
        let mut engine = Engine::with_table(level, seed ^ g, 16);
        let mut best_seen: Option<Value> = None;
        while !game.is_over() {
            let mv = if game.side_to_move() == perfect_colour {
                let v = table.value(game.position()).unwrap();
                if best_seen.is_none_or(|b| v.score() > b.score()) && !matches!(v, Value::Loss(_)) {
                    best_seen = Some(v);
                }
                let mv = perfect.choose_in(&game).unwrap().unwrap();
                let after = table.move_values(game.position()).unwrap();
                let mv_value = after.iter().find(|(m, _)| *m == mv).unwrap().1;
                assert_eq!(
                    mv_value,
                    v,
                    "{}: the perfect move keeps the value",
                    game.position()
                );
                mv
            } else {
                engine.best_move(&game, level.match_limits()).unwrap().mv
            };
            game.play(mv).unwrap();
        }
        let winner = game.outcome().unwrap().winner;
        match best_seen {
            Some(Value::Win(_)) => {
                assert_eq!(winner, Some(perfect_colour), "{level}: {}", game.record())
            }
            Some(Value::Draw) => assert_ne!(
                winner,
                Some(perfect_colour.opponent()),
                "{level}: {}",
                game.record()
            ),
            _ => {}
        }
        results[match winner {
            Some(w) if w == perfect_colour => 0,
            None => 1,
            Some(_) => 2,
        }] += 1;
    }
    results
}

#[test]
fn perfect_play_keeps_won_and_drawn_positions_against_every_level() {
    for (r, c) in [(3, 3), (3, 4)] {
        let table = Arc::new(solved(r, c));
        for level in Level::ALL {
            let res = perfect_against(&table, level, 6, 11);
            eprintln!("{r}x{c} perfect vs {level}: {res:?}");
        }
    }
}

#[test]
fn positions_off_the_table_are_errors() {
    let table = solved(3, 3);
    let p: Position = "b,-,-/-,-,-/w,w,w b".parse().unwrap();
    assert!(matches!(
        table.value(&p),
        Err(nocca::ProbeError::PieceCount { .. })
    ));
    assert!(matches!(
        table.value(&Position::start(Dims::STANDARD)),
        Err(nocca::ProbeError::WrongBoard { .. })
    ));
}
