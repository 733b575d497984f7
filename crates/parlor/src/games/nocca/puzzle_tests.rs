//! "Learn from your mistakes" ([`crate::mid::puzzle`]) on a hand-checked game: the Nocca Nocca 3x3 game
//! `c1y c3b b1h`, whose ply 3 (b1h, Black) throws a win in 7 away (a loss in 4), best b1k or a1u (RULES.md, "Reviews";
//! `review.rs` checks the same values from the 3x3 table).

use super::{Mode, Nocca, Params, State, Tables};
use crate::mid::game::Game;
use crate::mid::puzzle::{Ended, Puzzles, Step};
use crate::mid::review::{Mark, Reviewed};

fn three() -> (Tables, Params, State) {
    let params = Params {
        mode: Mode::Two,
        board: nocca::Dims::new(3, 3).unwrap(),
        ..Default::default()
    };
    let start = Nocca::new_game(&params, 1).unwrap();
    (Tables::default(), params, start)
}

/// The game's moves, its review's puzzles, and a judge of a move tried at the first puzzle.
fn puzzles() -> (Puzzles, impl Fn(&str) -> Reviewed) {
    let (tables, params, start) = three();
    let moves = Nocca::parse_moves(&start, "c1y c3b b1h").unwrap();
    let review = Nocca::review(&tables, &params, &start, &moves, &mut |_, _| {})
        .unwrap()
        .unwrap();
    let judge = move |text: &str| {
        let mut at = start.clone();
        for mv in &moves[..2] {
            Nocca::apply(&mut at, mv).unwrap();
        }
        let mv = Nocca::parse_move(&at, text).unwrap();
        Nocca::judge(&tables, &params, &start, &moves[..2], &mv)
            .unwrap()
            .unwrap()
    };
    (Puzzles::of(&review), judge)
}

#[test]
fn the_one_marked_move_is_the_one_puzzle_with_its_position_and_best_moves() {
    let (p, _) = puzzles();
    assert_eq!(p.len(), 1);
    let (i, puzzle) = p.current().unwrap();
    assert_eq!(i, 0);
    assert_eq!(puzzle.before, 2, "the position after c1y c3b");
    assert_eq!(puzzle.number, 3);
    assert_eq!(puzzle.side.as_deref(), Some("black"));
    assert_eq!(puzzle.played, "b1h");
    assert_eq!(puzzle.mark, Mark::Blunder);
    assert_eq!(puzzle.best, ["b1k", "a1u"]);
    // Against the computer, only the player's own moves are puzzles: keeping White's leaves none here.
    let whites = p.clone().keeping(|p| p.side.as_deref() == Some("white"));
    assert!(whites.is_empty());
    assert_eq!(p.keeping(|p| p.side.as_deref() == Some("black")).len(), 1);
}

#[test]
fn a_best_move_solves_it_and_the_blunder_again_is_a_wrong_try() {
    let (mut p, judge) = puzzles();
    // Either best move is as good as the best: no mark, solved at the first try.
    for best in ["b1k", "a1u"] {
        let judged = judge(best);
        assert_eq!(judged.mark, Mark::None, "{best}: {judged:?}");
        assert_eq!(judged.after, "win in 7", "{best}");
    }
    assert_eq!(p.answer(&judge("a1u")), Some(Step::Solved(1)));
    assert_eq!(
        p.answer(&judge("b1k")),
        None,
        "a puzzle ended takes no more tries"
    );
    assert!(!p.go_on(), "no other puzzle");
    assert_eq!(p.results(), [Ended::Solved(1)]);
    assert_eq!(p.tally(), "1 of 1 solved");

    // The game's own move again: a blunder, one try left; then a best move at the second try.
    let (mut p, judge) = puzzles();
    let judged = judge("b1h");
    assert_eq!(
        (judged.before.as_str(), judged.after.as_str()),
        ("win in 7", "loss in 4")
    );
    assert_eq!(p.answer(&judged), Some(Step::TryAgain(Mark::Blunder, 1)));
    assert_eq!(p.answer(&judge("b1k")), Some(Step::Solved(2)));
}

#[test]
fn after_two_wrong_tries_the_best_moves_are_shown() {
    let (mut p, judge) = puzzles();
    let wrong = judge("b1h");
    assert_eq!(p.answer(&wrong), Some(Step::TryAgain(Mark::Blunder, 1)));
    assert_eq!(
        p.answer(&wrong),
        Some(Step::Shown(vec!["b1k".into(), "a1u".into()]))
    );
    assert!(p.waiting());
    assert!(!p.go_on());
    assert_eq!(p.results(), [Ended::Shown]);
    assert_eq!(p.tally(), "0 of 1 solved");
}
