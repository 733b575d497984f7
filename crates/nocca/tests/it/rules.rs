//! One test per rule of RULES.md (Nocca Nocca).

use crate::common::{mv, pos};
use nocca::{Colour, Dims, Game, GameOptions, IllegalMove, Outcome, Position, Reason};

#[test]
fn start_position_and_black_moves_first() {
    let p = Position::start(Dims::STANDARD);
    assert_eq!(
        p.to_string(),
        "b,b,b,b,b/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,w b"
    );
    assert_eq!(p.side_to_move(), Colour::Black);
    assert_eq!(p.piece_count(Colour::Black), 5);
    assert_eq!(p.piece_count(Colour::White), 5);
    let q = Position::start_with(Dims::new(4, 3).unwrap(), Colour::White);
    assert_eq!(q.to_string(), "b,b,b/-,-,-/-,-,-/w,w,w w");
}

#[test]
fn only_own_top_pieces_move() {
    let p = pos("b,w,-/-,-,-/-,-,-/-,-,w b");
    assert_eq!(
        p.check(mv("b1k")),
        Err(IllegalMove::NotYourPiece(mv("b1k").from))
    );
    assert_eq!(
        p.check(mv("c1k")),
        Err(IllegalMove::EmptySquare(mv("c1k").from))
    );
    assert_eq!(
        p.check(mv("a6k")),
        Err(IllegalMove::NotOnBoard(mv("a6k").from))
    );
    assert!(p.legal_moves().iter().all(|m| m.from == mv("a1k").from));
}

#[test]
fn step_one_square_in_eight_directions() {
    let mut p = pos("-,-,-/-,b,-/-,-,-/-,-,- b");
    let mut moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(
        moves,
        ["b2b", "b2h", "b2j", "b2k", "b2l", "b2n", "b2u", "b2y"]
    );
    p.play(mv("b2u")).unwrap();
    assert_eq!(p.to_string(), "-,-,-/-,-,-/-,-,b/-,-,- w");
}

#[test]
fn riding_on_an_opponent_piece() {
    let mut p = pos("b,w,-/-,-,-/-,-,-/-,-,w b");
    p.play(mv("a1l")).unwrap();
    assert_eq!(p.to_string(), "-,wb,-/-,-,-/-,-,-/-,-,w w");
    // White's piece under Black's is covered and cannot move.
    assert_eq!(
        p.check(mv("b1k")),
        Err(IllegalMove::Covered(mv("b1k").from))
    );
    assert!(p.legal_moves().iter().all(|m| m.from.to_string() == "c4"));
}

#[test]
fn riding_on_an_own_piece_and_on_stacks() {
    let mut p = pos("b,b,-/-,-,-/-,-,-/-,-,w b");
    p.play(mv("a1l")).unwrap();
    assert_eq!(p.to_string(), "-,bb,-/-,-,-/-,-,-/-,-,w w");
    let mut q = pos("b,wb,-/-,-,-/-,-,-/-,-,w b");
    q.play(mv("a1l")).unwrap();
    assert_eq!(q.to_string(), "-,wbb,-/-,-,-/-,-,-/-,-,w w");
    // White rides a stack topped by Black.
    let mut r = pos("-,wb,-/w,-,-/-,-,-/-,-,- w");
    r.play(mv("a2n")).unwrap();
    assert_eq!(r.to_string(), "-,wbw,-/-,-,-/-,-,-/-,-,- b");
}

#[test]
fn stacks_hold_at_most_three() {
    let mut p = pos("b,wbw,-/-,-,-/-,-,-/-,-,w b");
    let before = p;
    assert_eq!(p.play(mv("a1l")), Err(IllegalMove::FullSquare(mv("a1l"))));
    assert_eq!(p, before);
    assert!(!p.legal_moves().contains(&mv("a1l")));
    // The top piece of a full stack may still step off it.
    let q = pos("b,wbw,-/-,-,-/-,-,-/-,-,- w");
    assert!(q.is_legal(mv("b1k")));
}

#[test]
fn covered_pieces_cannot_move() {
    let p = pos("wb,-,-/-,-,-/-,-,-/-,-,w w");
    assert_eq!(
        p.check(mv("a1k")),
        Err(IllegalMove::Covered(mv("a1k").from))
    );
    let deep = pos("wbb,-,-/-,-,-/-,-,-/-,-,- w");
    assert!(!deep.has_moves());
}

#[test]
fn no_leaving_over_side_edges() {
    let p = pos("-,-,-/b,-,b/-,-,-/-,-,- b");
    for m in ["a2h", "a2y", "a2b", "c2l", "c2u", "c2n"] {
        assert_eq!(p.check(mv(m)), Err(IllegalMove::OffSideEdge(mv(m))), "{m}");
    }
    assert_eq!(p.legal_moves().len(), 10);
}

#[test]
fn no_leaving_over_own_home_row() {
    let p = pos("-,b,-/-,-,-/-,-,-/-,w,- b");
    for m in ["b1j", "b1b", "b1n"] {
        assert_eq!(p.check(mv(m)), Err(IllegalMove::OwnHomeRow(mv(m))), "{m}");
    }
    let q = p.with_side_to_move(Colour::White);
    for m in ["b4k", "b4y", "b4u"] {
        assert_eq!(q.check(mv(m)), Err(IllegalMove::OwnHomeRow(mv(m))), "{m}");
    }
}

#[test]
fn goal_straight_and_diagonal_wins_at_once() {
    let p = pos("-,-,-/-,-,-/-,-,-/w,b,- b");
    for m in ["b4k", "b4y", "b4u"] {
        assert!(p.is_legal(mv(m)) && p.is_goal_move(mv(m)), "{m}");
        let mut g = Game::from_position(p, GameOptions::default());
        let out = g.play(mv(m)).unwrap();
        assert_eq!(
            out,
            Some(Outcome {
                winner: Some(Colour::Black),
                reason: Reason::Goal
            })
        );
        assert!(g.legal_moves().is_empty());
        assert!(g.play(mv("a4j")).is_err());
    }
    assert!(p.has_goal_move());
    // The column must stay on the board.
    let edge = pos("-,-,-/-,-,-/-,-,-/b,-,- b");
    assert_eq!(
        edge.check(mv("a4y")),
        Err(IllegalMove::OffSideEdge(mv("a4y")))
    );
    // White enters its goal beyond row 0, straight or diagonal.
    let w = pos("-,w,-/-,-,-/-,-,-/-,-,b w");
    for m in ["b1j", "b1b", "b1n"] {
        assert!(w.is_goal_move(mv(m)));
        let mut g = Game::from_position(w, GameOptions::default());
        assert_eq!(g.play(mv(m)).unwrap().unwrap().winner, Some(Colour::White));
    }
    // Stepping toward its own home row is never a goal move.
    assert!(!pos("-,-,-/-,-,-/-,-,-/w,b,- w").is_goal_move(mv("a4j")));
}

#[test]
fn blockade_all_pieces_ridden_on() {
    let mut g = Game::from_position(pos("bw,bw,-/-,b,-/-,-,w w"), GameOptions::default());
    assert_eq!(g.outcome(), None);
    let out = g.play(mv("c3b")).unwrap();
    assert_eq!(
        out,
        Some(Outcome {
            winner: Some(Colour::White),
            reason: Reason::Blockade
        })
    );
}

#[test]
fn blockade_by_edges_and_full_stacks() {
    // Black's only free piece sits in a corner of its home row, boxed in by full stacks.
    let p = pos("b,bbw,-,-,-/bww,wbw,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,- b");
    assert!(p.legal_moves().is_empty());
    let g = Game::from_position(p, GameOptions::default());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Colour::White),
            reason: Reason::Blockade
        })
    );
}

#[test]
fn threefold_repetition_draws() {
    let shuffle = "c1k c6j c2j c5k";
    let mut g = Game::new(Dims::STANDARD, GameOptions::default());
    for (i, m) in format!("{shuffle} {shuffle}")
        .split_whitespace()
        .enumerate()
    {
        let out = g.play(mv(m)).unwrap();
        if i < 7 {
            assert_eq!(out, None, "ply {}", i + 1);
        } else {
            assert_eq!(
                out,
                Some(Outcome {
                    winner: None,
                    reason: Reason::Repetition
                })
            );
        }
    }
    assert_eq!(g.repetitions(), 3);
    let opts = GameOptions {
        repetition_draw: false,
        ..GameOptions::default()
    };
    let g2 = Game::replay(
        Position::start(Dims::STANDARD),
        opts,
        &format!("{shuffle} {shuffle} {shuffle}"),
    )
    .unwrap();
    assert_eq!(g2.outcome(), None);
}

#[test]
fn ply_cap_draws() {
    let opts = GameOptions {
        repetition_draw: true,
        ply_cap: Some(4),
    };
    let g = Game::replay(Position::start(Dims::STANDARD), opts, "a1k a6j a2k a5j").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::PlyCap
        })
    );
    assert_eq!(GameOptions::default().ply_cap, Some(500));
    let none = GameOptions {
        repetition_draw: true,
        ply_cap: None,
    };
    assert_eq!(
        Game::replay(Position::start(Dims::STANDARD), none, "a1k a6j a2k a5j")
            .unwrap()
            .outcome(),
        None
    );
}

#[test]
fn illegal_moves_leave_the_game_untouched_and_undo_works() {
    let mut g = Game::new(Dims::STANDARD, GameOptions::default());
    g.play(mv("c1k")).unwrap();
    let before = *g.position();
    assert!(g.play(mv("c1k")).is_err());
    assert_eq!(*g.position(), before);
    assert_eq!(g.ply(), 1);
    assert_eq!(g.undo(), Some(mv("c1k")));
    assert_eq!(*g.position(), Position::start(Dims::STANDARD));
    assert_eq!(g.undo(), None);
    // Undo after a goal reopens the game.
    let mut w = Game::from_position(pos("-,-,-/-,-,-/-,-,-/w,b,- b"), GameOptions::default());
    w.play(mv("b4k")).unwrap();
    assert!(w.is_over());
    w.undo();
    assert!(!w.is_over());
}
