//! Games: records replay exactly, undo restores, outcomes are consistent.

use nocca::{Dims, Engine, Game, GameOptions, Level, Limits, Position, Reason, hint};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn record_replays_and_undo_restores(rows in 3usize..=6, cols in 3usize..=5, choices in proptest::collection::vec(any::<u16>(), 0..120)) {
        let dims = Dims::new(rows, cols).unwrap();
        let opts = GameOptions { repetition_draw: true, ply_cap: Some(100) };
        let mut g = Game::new(dims, opts);
        for ch in choices {
            let moves = g.legal_moves();
            if moves.is_empty() {
                prop_assert!(g.is_over());
                break;
            }
            g.play(moves[ch as usize % moves.len()]).unwrap();
        }
        let again = Game::replay(Position::start(dims), opts, &g.record()).unwrap();
        prop_assert_eq!(again.positions(), g.positions());
        prop_assert_eq!(again.outcome(), g.outcome());
        if let Some(o) = g.outcome() {
            match o.reason {
                Reason::Goal | Reason::Blockade => prop_assert!(o.winner.is_some()),
                Reason::Repetition => prop_assert_eq!(g.repetitions(), 3),
                Reason::PlyCap => prop_assert_eq!(g.ply(), 100),
            }
        }
        while g.undo().is_some() {}
        prop_assert_eq!(*g.position(), Position::start(dims));
        prop_assert_eq!(g.outcome(), None);
    }
}

#[test]
fn replay_errors_name_the_move() {
    let start = Position::start(Dims::STANDARD);
    let e = Game::replay(start, GameOptions::default(), "c1k zz").unwrap_err();
    assert!(e.to_string().starts_with("move 2 (\"zz\")"), "{e}");
    let e = Game::replay(start, GameOptions::default(), "c1k c1k").unwrap_err();
    assert!(e.to_string().contains("move 2"), "{e}");
}

#[test]
fn engines_finish_a_game_and_hint_gives_a_legal_move() {
    let mut g = Game::new(Dims::new(4, 4).unwrap(), GameOptions::default());
    let mut black = Engine::new(Level::Casual, 1);
    let mut white = Engine::new(Level::Beginner, 2);
    while !g.is_over() {
        let h = hint(&g, Limits::depth(3)).unwrap();
        assert!(g.position().is_legal(h.mv));
        let e = if g.ply().is_multiple_of(2) {
            &mut black
        } else {
            &mut white
        };
        let r = e.best_move(&g, Limits::nodes(3_000)).unwrap();
        g.play(r.mv).unwrap();
    }
    assert!(g.outcome().is_some());
    assert!(hint(&g, Limits::depth(2)).is_none());
}
