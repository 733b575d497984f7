//! The coach on the page, natively (no worker: the reviews and judgements are made at once): the hand-checked
//! Nocca Nocca 3x3 game `c1y c3b b1h` (ply 3, b1h, throws a win in 7 away, best b1k or a1u: the core's
//! `games/nocca/review.rs` checks the same values) reviewed on its end screen and its review screen, kept with the
//! game, and its one puzzle solved by taps on the board; every game's finished game reviewed through its face.

use crate::faces::play::Playing;
use crate::faces::review::{Asked, ReviewScreen};
use crate::faces::*;
use crate::store::{MapPersist, WebStore};
use parlor::mid::coach::{Coach, engine_of};
use parlor::storage::Storage;
use std::rc::Rc;

fn store() -> WebStore {
    WebStore::open(Rc::new(MapPersist::default()), 0).store
}

/// The `data-act` of the control whose accessible name starts with `label` in `html`.
fn act_of(html: &str, label: &str) -> String {
    let at = html
        .find(&format!("aria-label=\"{label}"))
        .unwrap_or_else(|| panic!("no control {label}: {html}"));
    let open = html[..at].rfind('<').unwrap();
    let tag = &html[open..at];
    let from = tag.find("data-act=\"").unwrap() + 10;
    tag[from..].chars().take_while(|&c| c != '"').collect()
}

/// Plays `moves` (each a square to select and one to move to) by taps on a face's board.
fn tap_moves(p: &mut dyn Playing, moves: &[(&str, &str)]) {
    for (from, to) in moves {
        let act = act_of(&p.html(), &format!("Select {from}:"));
        p.act(&act);
        let act = act_of(&p.html(), &format!("Move to {to}"));
        p.act(&act);
    }
}

/// The hand-checked game, played by taps on a two-player 3x3 board and given up: the play screen and its store.
fn blundered() -> (Box<dyn Playing>, WebStore) {
    let store = store();
    let contexts = contexts();
    let face = find("nocca").unwrap();
    let values = [("mode", "two"), ("board", "3x3")].map(|(k, v)| (k.to_string(), v.to_string()));
    let chosen = face.any().params_from(&values, &contexts);
    assert!(chosen.refused.is_empty(), "{:?}", chosen.refused);
    let mut p = face
        .start(&chosen.json, Some(1), &store, &contexts)
        .unwrap();
    // c1y, c3b, b1h.
    tap_moves(&mut *p, &[("c1", "b2"), ("c3", "b2"), ("b1", "a1")]);
    p.act("giveup");
    p.act("yes");
    let record = store.history(Some("nocca"), 1).unwrap().games;
    assert_eq!(record[0].moves, "c1y c3b b1h", "{:?}", record);
    (p, store)
}

#[test]
fn the_blunder_is_on_the_end_screen_and_the_review_screen_and_kept_with_the_game() {
    let (mut p, store) = blundered();
    let id = p.recorded().expect("recorded");
    let record = store.game(id).unwrap().unwrap();
    let face = find("nocca").unwrap();
    let mut coach = crate::coach::review(face.any(), &record, &store);
    assert!(
        coach.poll(&store),
        "made at once without a worker, collected at the first poll"
    );
    let review = coach
        .review()
        .expect("made at once without a worker")
        .clone();
    assert_eq!(review.summary(), "1 blunder: move 3");
    assert_eq!(review.accuracy_line(), "black 50.0%, white 100.0%");

    // The end screen shows the summary and offers the review.
    p.coach(Some((coach.line(), true)));
    let end = p.html();
    assert!(end.contains("1 blunder: move 3"), "{end}");
    assert!(end.contains("data-act=\"review\""), "{end}");

    // The review screen opens on the worst move, with its values and best moves, and every move listed.
    let mut screen = ReviewScreen::new(id, face.any().title(), true);
    let html = screen.html(&coach);
    assert!(html.contains("Review · Nocca Nocca · game #1"), "{html}");
    assert!(
        html.contains("Move 3 · black: b1h <span id=\"mark\">?? blunder</span>"),
        "{html}"
    );
    assert!(html.contains("win in 7 → loss in 4"), "{html}");
    assert!(html.contains("best: b1k, a1u"), "{html}");
    assert!(html.contains("threw the win away"), "{html}");
    assert!(html.contains("data-act=\"v:learn\""), "{html}");
    assert_eq!(screen.selected(), 2);
    assert_eq!(screen.act("v:prev", Some(&review)), Asked::Stay);
    assert_eq!(screen.selected(), 1);
    assert_eq!(screen.key("n", Some(&review)), Asked::Stay);
    assert_eq!(screen.selected(), 2, "n: the next marked move");
    assert_eq!(screen.act("v:sel:9", Some(&review)), Asked::Stay);
    assert_eq!(screen.selected(), 2, "no move 10: nothing changes");
    assert_eq!(screen.key("p", Some(&review)), Asked::Learn);
    assert_eq!(screen.key("q", Some(&review)), Asked::Back);

    // Kept with the game: a second review is read back, not made.
    let engine = engine_of(face.any());
    assert!(store.review(id, &engine).is_some(), "kept");
    let again = Coach::start_with(face.any(), &record, &store, |_| {
        panic!("a kept review is not made again")
    });
    assert_eq!(again.review(), Some(&review));
}

#[test]
fn the_puzzle_of_the_blunder_takes_a_wrong_try_then_is_solved_by_taps() {
    let (p, store) = blundered();
    let id = p.recorded().unwrap();
    let record = store.game(id).unwrap().unwrap();
    let face = find("nocca").unwrap();
    let mut coach = crate::coach::review(face.any(), &record, &store);
    coach.poll(&store);
    let review = coach.review().unwrap().clone();
    let mut z = face.puzzles(&record, &review, &store, &contexts()).unwrap();
    let html = z.html();
    assert!(
        html.contains(
            "Puzzle 1 of 1 · move 3 · black to move · played in the game: b1h ?? blunder"
        ),
        "{html}"
    );
    // The blunder again: one try left.
    let act = act_of(&html, "Select b1:");
    z.act(&act);
    let act = act_of(&z.html(), "Move to a1");
    z.act(&act);
    assert!(!z.busy(), "judged at once without a worker");
    let html = z.html();
    assert!(
        html.contains("b1h: blunder (loss in 4). Try again: 1 try left."),
        "{html}"
    );
    // A best move: solved at the second try.
    let act = act_of(&html, "Select b1:");
    z.act(&act);
    let act = act_of(&z.html(), "Move to b2");
    z.act(&act);
    let html = z.html();
    assert!(
        html.contains("b1k: as good as the best (win in 7). Solved at the second try."),
        "{html}"
    );
    assert!(html.contains("1 of 1 solved"), "{html}");
    assert!(
        !html.contains("data-act=\"b:sel:"),
        "an ended puzzle takes no move"
    );
    z.act("z:next");
    assert!(z.html().contains("Done: 1 of 1 solved."), "{}", z.html());
    assert_eq!(z.act("z:back"), play::Go::Menu);
}

#[test]
fn every_game_finished_on_the_page_is_reviewed_through_its_face() {
    for face in FACES {
        let store = store();
        let contexts = contexts();
        let chosen = face.any().params_from(&[], &contexts);
        let mut p = face
            .start(&chosen.json, Some(3), &store, &contexts)
            .unwrap();
        p.act("hint");
        for key in ["ArrowLeft", "ArrowUp", "ArrowRight"] {
            p.key(key);
        }
        p.act("giveup");
        p.act("yes");
        let Some(id) = p.recorded() else {
            // A game with no move is not recorded: nothing to review.
            continue;
        };
        let record = store.game(id).unwrap().unwrap();
        let mut coach = crate::coach::review(face.any(), &record, &store);
        coach.poll(&store);
        let line = coach.line();
        assert!(coach.review().is_some(), "{}: {line}", face.any().id());
        let html = ReviewScreen::new(id, face.any().title(), false).html(&coach);
        assert!(html.contains("id=\"summary\""), "{html}");
        assert!(html.contains(&line), "{html}");
    }
}
