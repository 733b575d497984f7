//! Engine: wins in one, stops wins in one, agrees with a plain negamax, levels and matches run.

use crate::common::{mv, pos, random_positions};
use nocca::search::{MATE, reference_value};
use nocca::{
    Dims, Engine, Game, GameOptions, Level, Limits, Position, SearchConfig, Searcher, bench,
    play_match,
};

#[test]
fn every_level_takes_a_win_in_one() {
    // Black's c6 stands on White's home row: stepping on enters the goal.
    let p = pos("b,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,w,-,-,-/-,-,-,-,-/w,w,b,w,w b");
    for level in Level::ALL {
        for seed in 0..20 {
            let mut e = Engine::new(level, seed);
            let r = e.best_move_position(&p, &[], level.match_limits()).unwrap();
            assert!(p.is_goal_move(r.mv), "{level} seed {seed}: {}", r.mv);
            assert_eq!(r.score, MATE - 1);
        }
    }
}

#[test]
fn strong_levels_stop_a_win_in_one() {
    // White's b1 piece threatens to enter its goal; Black's only defence is to ride on it from a1 or c2.
    let p = pos("b,w,-,-,-/-,-,b,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,- b");
    for level in [Level::Casual, Level::Strong, Level::Expert] {
        let mut e = Engine::new(level, 3);
        let r = e.best_move_position(&p, &[], level.match_limits()).unwrap();
        assert!(
            ["a1l", "c2b"].contains(&r.mv.to_string().as_str()),
            "{level}: {}",
            r.mv
        );
    }
}

#[test]
fn two_threats_cannot_be_stopped() {
    let p = pos("w,-,w/-,-,-/b,-,b/-,-,- b");
    let mut s = Searcher::new(16, SearchConfig::default());
    assert_eq!(s.value(&p, 3), -(MATE - 2));
    assert_eq!(reference_value(&p, 3), -(MATE - 2));
}

#[test]
fn finds_a_forced_win_in_three() {
    // Black steps to White's home row at a square White cannot cover, then wins.
    let p = pos("b,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,b,-/w,w,-,-,- b");
    let mut e = Engine::new(Level::Expert, 0);
    let r = e.best_move_position(&p, &[], Limits::depth(5)).unwrap();
    assert_eq!(r.mate_in(), Some(3), "{r:?}");
}

fn check_agreement(configs: &[SearchConfig], positions: &[Position], max_depth: u32) {
    for (i, p) in positions.iter().enumerate() {
        if p.has_goal_move() || !p.has_moves() {
            continue;
        }
        let d = 1 + (i as u32 % max_depth);
        let want = reference_value(p, d);
        for &c in configs {
            let got = Searcher::new(16, c).value(p, d);
            assert_eq!(got, want, "{p} depth {d} config {c:?}");
        }
    }
}

#[test]
fn optimised_search_agrees_with_plain_negamax() {
    let configs = [
        SearchConfig {
            tt: false,
            ordering: false,
            tt_exact_depth: false,
        },
        SearchConfig {
            tt: false,
            ordering: true,
            tt_exact_depth: false,
        },
        SearchConfig {
            tt: true,
            ordering: true,
            tt_exact_depth: true,
        },
    ];
    let ps: Vec<Position> = random_positions(99, 100, 40)
        .into_iter()
        .step_by(7)
        .collect();
    assert!(ps.len() > 200);
    check_agreement(&configs, &ps, 4);
}

#[test]
fn engine_is_reproducible_with_node_budgets() {
    let game = Game::replay(
        Position::start(Dims::STANDARD),
        GameOptions::default(),
        "c1k c6j b1u",
    )
    .unwrap();
    for level in Level::ALL {
        let a = Engine::new(level, 42).best_move(&game, level.match_limits());
        let b = Engine::new(level, 42).best_move(&game, level.match_limits());
        assert_eq!(a, b);
        assert!(game.position().is_legal(a.unwrap().mv));
    }
}

#[test]
fn search_sees_game_history_and_finished_games() {
    // Repetition-aware search sees the game history: a repeated position scores as a draw.
    let game = Game::replay(
        Position::start(Dims::STANDARD),
        GameOptions::default(),
        "c1k c6j c2j c5k",
    )
    .unwrap();
    let mut e = Engine::new(Level::Strong, 1);
    let r = e.best_move(&game, Limits::depth(4)).unwrap();
    assert!(game.position().is_legal(r.mv));
    assert_eq!(
        Engine::new(Level::Strong, 1).best_move(&finished(), Limits::depth(2)),
        None
    );
}

fn finished() -> Game {
    let mut g = Game::from_position(pos("-,-,-/-,-,-/-,-,-/w,b,- b"), GameOptions::default());
    g.play(mv("b4k")).unwrap();
    g
}

#[test]
fn small_match_runs() {
    let mut calls = 0;
    let r = play_match(Level::Casual, Level::Beginner, 4, 5, &mut |done, total| {
        calls += 1;
        assert!(done <= total);
    });
    assert_eq!(calls, 4);
    assert_eq!(r.a_wins + r.b_wins + r.draws, 4);
    assert!(r.ci95.0 <= r.score_a && r.score_a <= r.ci95.1);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo test -p nocca --release -- --include-ignored"
)]
fn bench_is_deterministic() {
    let a = bench();
    let b = bench();
    assert_eq!(a.signature, b.signature);
    assert!(a.nodes > 0);
}
