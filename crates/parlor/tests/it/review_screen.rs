//! The coach on the full screen, through the real binary in a pseudo-terminal: a finished game's review opened from
//! History (`c`) at 40x12 and 100x32, made in the background the first time and read back from the database the
//! next, its worst move selected with its values, best moves and note; and the end screen of a game just finished
//! saying the review's summary once it is done, with `c` opening it.

use crate::common::pty::{Key, Pty, Spawn};
use crate::review::nocca_game;
use std::path::Path;

/// The review row kept in the database of `dir` for game 1, if any.
fn kept_review(dir: &Path) -> Option<String> {
    let conn = rusqlite::Connection::open(dir.join(parlor::storage::DB_FILE)).unwrap();
    conn.query_row("SELECT review FROM reviews WHERE game_id = 1", [], |r| {
        r.get(0)
    })
    .ok()
}

/// Opens the menu's History in `p` (the line found by its words, wherever it stands in the menu: a short screen
/// scrolls to it).
pub fn open_history(p: &mut Pty) {
    p.wait_for("↑↓ choose");
    for _ in 0..12 {
        let on_history = p
            .text()
            .lines()
            .any(|l| l.contains('▸') && l.contains("History"));
        if on_history {
            p.press(Key::Enter);
            p.wait_for("Parlor · history");
            return;
        }
        p.press(Key::Down);
        // The cursor moved: wait for the screen to show where.
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    panic!("no History line in the menu: {}", p.text());
}

/// Goes back with `q` through the screens that show `on_the_way`, one after the other, then quits from the last:
/// the terminal is given back as it was.
pub fn leave(mut p: Pty, on_the_way: &[&str]) {
    for screen in on_the_way {
        p.press(Key::Char('q'));
        p.wait_for(screen);
    }
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

/// In History at `cols` x `rows`, `c` on the Nocca game: the review, once its summary shows.
fn review_from_history(dir: &Path, cols: u16, rows: u16) -> Pty {
    let mut p = Pty::spawn(Spawn::new(dir, &[]).size(cols, rows));
    open_history(&mut p);
    if cols >= 80 {
        // The hint bar offers it where it has room (a narrow one keeps the main action and the way back).
        p.wait_for("c review");
    }
    p.press(Key::Char('c'));
    p.wait_for("1 blunder: move 3");
    p
}

#[test]
fn the_review_opens_from_history_at_100x32_and_40x12_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    assert_eq!(kept_review(dir.path()), None, "not reviewed yet");

    let mut p = review_from_history(dir.path(), 100, 32);
    let s = p.wait_for("threw the win away");
    for want in [
        "Review · Nocca Nocca · game #1",
        "accuracy: black 50.0%, white 100.0%",
        "3. black b1h ?? blunder",
        "Move 3 (black): b1h",
        "?? blunder · lost 500 plies",
        "before: win in 7",
        "after: loss in 4",
        "best: b1k, a1u",
        "exact: the solved 3x3 table",
    ] {
        assert!(s.contains(want), "{want:?} at 100x32:\n{s}");
    }
    // Another move: its own details, no mark.
    p.press(Key::Up);
    let s = p.wait_for("Move 2 (white): c3b");
    assert!(s.contains("no mark"), "{s}");
    // → jumps to the next marked move.
    p.press(Key::Right);
    p.wait_for("Move 3 (black): b1h");
    leave(p, &["Parlor · history", "↑↓ choose"]);
    let kept = kept_review(dir.path()).expect("the review is kept with the game");
    assert!(kept.contains("\"blunder\""), "{kept}");

    // The next time, at 40x12: read back from the database (a changed note shows it is the kept one).
    let conn = rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    conn.execute(
        "UPDATE reviews SET review = replace(review, 'threw the win away', 'kept note') WHERE game_id = 1",
        [],
    )
    .unwrap();
    let mut p = review_from_history(dir.path(), 40, 12);
    let s = p.wait_for("Move 3 (black): b1h");
    for want in ["1 blunder: move 3", "3. black b1h ?? blunder", "▼ more"] {
        assert!(s.contains(want), "{want:?} at 40x12:\n{s}");
    }
    // The details scroll a page at a time: the rest of them, the kept note among them.
    for _ in 0..4 {
        if p.text().contains("kept note") {
            break;
        }
        p.press(Key::PageDown);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let s = p.wait_for("kept note");
    assert!(s.contains("best: b1k, a1u"), "{s}");
    leave(p, &["Parlor · history", "↑↓ choose"]);
}

#[test]
fn the_end_screen_says_the_reviews_summary_and_c_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "1"]).size(100, 32));
    p.wait_for("Score 0");
    for key in [Key::Left, Key::Right, Key::Up, Key::Down] {
        p.press(key);
    }
    p.wait_for("Moves 4");
    p.press(Key::Char('x'));
    p.wait_for("Give up?");
    p.press(Key::Char('y'));
    p.wait_for("Game over");
    // The review is made in the background and its summary shows in the end box, with the key that opens it.
    let s = p.wait_until("the review's summary", |screen| {
        let text = screen.contents();
        text.contains("· c review") && !text.contains("reviewing")
    });
    assert!(s.contains("r new game · c review · q back"), "{s}");
    p.press(Key::Char('c'));
    let s = p.wait_for("Review · 2048 · game #1");
    assert!(s.contains("accuracy: "), "{s}");
    assert!(s.contains("expectimax at depth 2"), "{s}");
    // Back on the end screen, the summary read back from the database; then the menu.
    leave(p, &["· c review", "↑↓ choose"]);
    assert!(kept_review(dir.path()).is_some(), "kept with the game");
}

/// Types `guess` and Enter into the Mastermind board of `p`.
fn guess(p: &mut Pty, guess: &str) {
    for c in guess.chars() {
        p.press(Key::Char(c));
    }
    p.press(Key::Enter);
}

#[test]
fn learn_from_your_mistakes_replays_each_marked_move_as_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    // Classic, seed 5: RRGG twice. The review (the optimal tree): move 1 an inaccuracy (best RRGY), move 2 a
    // blunder (best RYRU: the same guess again gains nothing).
    let o = crate::common::run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "5"],
        "RRGG\nRRGG\nx\ny\n",
    );
    assert!(crate::common::out(&o).contains("Recorded as game #1"));
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(100, 32));
    open_history(&mut p);
    p.press(Key::Char('c'));
    p.wait_for("1 inaccuracy, 1 blunder: move 2");
    p.wait_for("p learn from your mistakes");
    p.press(Key::Char('p'));
    p.wait_for("Puzzle 1 of 2");
    p.wait_for("played in the game: RRGG ?! inaccuracy");
    // The game's own guess again: not good enough, one try left; then the best, solved at the second try.
    guess(&mut p, "RRGG");
    p.wait_for("Try again: 1 try left");
    guess(&mut p, "RRGY");
    p.wait_for("Solved at the second try");
    p.press(Key::Enter);
    p.wait_for("Puzzle 2 of 2");
    // Two wrong tries: the best is shown.
    guess(&mut p, "RRGG");
    p.wait_for("1 try left");
    guess(&mut p, "RRGG");
    p.wait_for("best: RYRU.");
    p.press(Key::Enter);
    p.wait_for("Done: 1 of 2 solved");
    leave(
        p,
        &[
            "Review · Mastermind · game #1",
            "Parlor · history",
            "↑↓ choose",
        ],
    );
}

/// A review left before it is done goes on in the background and is kept: a 2048 game of 1,000 slides (long enough
/// that its review takes seconds), its review opened from History and closed at once; History shows again at once,
/// and the review is kept while the player stays there, then opens at once, read back.
#[test]
fn a_review_left_before_it_is_done_goes_on_and_is_kept() {
    use parlor::games::twenty48::{Params, Twenty48};
    use parlor::mid::game::Game;
    use twenty48::ai::{Player, SearchConfig};
    let dir = tempfile::tempdir().unwrap();
    let mut player = Player::with_network(
        SearchConfig::depth(1),
        std::sync::Arc::clone(twenty48::ai::ntuple::shipped().unwrap()),
    );
    let mut state = Twenty48::new_game(&Params::default(), 4).unwrap();
    let mut input = String::new();
    let mut slides = 0;
    while slides < 1000 {
        let board = *state.game.board();
        let Some(slide) = player.best_move(&board, 0.1) else {
            break;
        };
        let before = board.max_tile();
        Twenty48::apply(&mut state, &slide).unwrap();
        input.push_str(&format!("{slide}\n"));
        // The target made: plain mode asks whether to keep going.
        if before < Params::default().target
            && state.game.board().max_tile() >= Params::default().target
        {
            input.push_str("y\n");
        }
        slides += 1;
    }
    assert_eq!(slides, 1000, "the player lasts 1,000 slides");
    input.push_str("x\ny\n");
    let o = crate::common::run(dir.path(), &["2048", "--seed", "4"], &input);
    assert!(
        crate::common::out(&o).contains("Recorded as game #1"),
        "{}",
        crate::common::out(&o)
    );

    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(100, 32));
    open_history(&mut p);
    p.press(Key::Char('c'));
    p.wait_for("Reviewing");
    p.press(Key::Char('q'));
    p.wait_for("Parlor · history");
    assert_eq!(kept_review(dir.path()), None, "the review was not done yet");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while kept_review(dir.path()).is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the review left behind was never kept"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let kept = kept_review(dir.path()).unwrap_or_default();
    assert!(kept.contains("\"moves\""), "{kept}");
    p.press(Key::Char('c'));
    p.wait_for("accuracy:");
    leave(p, &["Parlor · history", "↑↓ choose"]);
}
