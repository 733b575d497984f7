//! "Practise from here" (the coach, issue 55) through the real binary: `parlor practise ID MOVE` starts a new game
//! from the position before a marked move of a reviewed game, played to its end in plain mode and recorded as
//! practice, never as a scored game (out of the best scores and the statistics, marked in the history), for every
//! game; a move number out of range or an unknown game is refused with the reason, never a panic; a practice 2048
//! board is the reviewed game's board there, and its next tile the one the game's seed stream gives.

use crate::common::*;
use crate::review::nocca_game;
use std::path::Path;

/// `parlor history --json` in `dir`: the finished games, newest first.
fn history(dir: &Path) -> Vec<serde_json::Value> {
    let o = run(dir, &["history", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str::<serde_json::Value>(&out(&o))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The review of game 1 in `dir` as JSON, which succeeds.
fn review_json(dir: &Path) -> serde_json::Value {
    let o = run(dir, &["review", "1", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str(out(&o).trim()).unwrap()
}

/// Game 2 of `dir` is a practice game (marked in the history, by its JSON and its line), and game `game`'s best
/// scores and statistics hold game 1 alone (the reviewed one).
fn assert_practice_left_out(dir: &Path, game: &str) {
    let games = history(dir);
    let practice = games.iter().find(|g| g["id"] == 2).expect("game #2");
    assert_eq!(practice["practice"], true, "{practice}");
    assert_eq!(practice["game"], game);
    let reviewed = games.iter().find(|g| g["id"] == 1).expect("game #1");
    assert_eq!(reviewed["practice"], false, "{reviewed}");
    let line = out(&run(dir, &["history"], ""));
    let practice_line = line.lines().find(|l| l.starts_with("#2 ")).unwrap_or("");
    assert!(practice_line.ends_with("practice"), "{line}");

    let stats = run(dir, &["stats", "--json"], "");
    assert!(stats.status.success(), "{}", err(&stats));
    let v: serde_json::Value = serde_json::from_str(&out(&stats)).unwrap();
    let played: u64 = v[game]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["played"].as_u64().unwrap() + x["damaged"].as_u64().unwrap())
        .sum();
    assert_eq!(played, 1, "only the reviewed game counts: {v}");
    let scores = run(dir, &["scores", "--json"], "");
    assert!(scores.status.success(), "{}", err(&scores));
    let text = out(&scores);
    assert!(
        !text.contains("\"id\":2"),
        "no practice game in the best scores: {text}"
    );
}

#[test]
fn a_nocca_blunder_is_practised_against_the_perfect_level_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    assert_eq!(review_json(dir.path())["moves"][2]["mark"], "blunder");
    // Move 3, Black's blunder b1h: this time the best, b1k, then the computer plays on for Black (`p`, a move at a
    // time) to the end.
    let input = format!("b1k\n{}", "p\n".repeat(20));
    let o = run(dir.path(), &["practise", "1", "3"], &input);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("Practice from move 3 of game #1: recorded as practice"),
        "{text}"
    );
    assert!(
        text.contains("you (black) against the computer (perfect)"),
        "{text}"
    );
    assert!(text.contains("(practice: not scored)"), "{text}");
    assert!(text.contains("Black plays b1k"), "{text}");
    assert!(
        text.contains("Recorded as game #2 (practice: not in the best scores)"),
        "{text}"
    );
    assert_practice_left_out(dir.path(), "nocca");
    let games = history(dir.path());
    let practice = games.iter().find(|g| g["id"] == 2).unwrap();
    let moves = practice["moves"].as_str().unwrap();
    assert!(
        moves.starts_with("c1y c3b b1k "),
        "the moves that led there, then the practice: {moves}"
    );
    assert_eq!(practice["options"]["level"], "perfect");
    assert_eq!(practice["result"], "won", "b1k wins in 7: {practice}");
}

#[test]
fn a_mastermind_blunder_is_practised_with_the_same_secret_and_the_guesses_before_it() {
    let dir = tempfile::tempdir().unwrap();
    // Classic, seed 5 (the secret GREEN RED ORANGE BLUE): RRGG twice, the second a blunder.
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "5"],
        "RRGG\nRRGG\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    assert_eq!(review_json(dir.path())["moves"][1]["mark"], "blunder");
    let o = run(dir.path(), &["practise", "1", "2"], "GROU\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("Guess 2 of 10"),
        "the first guess kept: {text}"
    );
    assert!(
        text.contains("Recorded as game #2 (practice: not in the best scores)"),
        "{text}"
    );
    assert_practice_left_out(dir.path(), "mastermind");
    let games = history(dir.path());
    let practice = games.iter().find(|g| g["id"] == 2).unwrap();
    assert_eq!(practice["result"], "won", "{practice}");
    assert_eq!(practice["score"], 2, "{practice}");
    assert_eq!(practice["moves"], "RRGG GROU");
}

/// The boards plain mode printed in `text`, in order (each the lines of its frame).
fn boards(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut board = String::new();
    for line in text.lines() {
        let line = line.rsplit("> ").next().unwrap_or(line);
        if line.starts_with('+') || line.starts_with('|') {
            board.push_str(line);
            board.push('\n');
        } else if !board.is_empty() {
            out.push(std::mem::take(&mut board));
        }
    }
    if !board.is_empty() {
        out.push(board);
    }
    out
}

/// A 2048 game on seed 1 whose third slide (right) is a mistake, by the review at its fixed depth.
const SLIDES: [&str; 9] = [
    "down", "right", "right", "right", "down", "up", "left", "up", "left",
];

#[test]
fn a_2048_practice_board_is_the_reviewed_board_and_its_next_tile_comes_from_the_seed_stream() {
    let dir = tempfile::tempdir().unwrap();
    let mut input: String = SLIDES.iter().map(|s| format!("{s}\n")).collect();
    input.push_str("x\ny\n");
    let o = run(dir.path(), &["2048", "--seed", "1"], &input);
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let played = boards(&out(&o));
    assert!(played.len() > SLIDES.len(), "{}", out(&o));
    let j = review_json(dir.path());
    assert_eq!(j["moves"][2]["mark"], "mistake", "{j}");

    // From move 3: the board after two slides; the game's own slide there gives the game's own next tile, and the
    // next one the game's too. Then the player gives up: the end of the practice game.
    let o = run(dir.path(), &["practise", "1", "3"], "right\nright\nx\ny\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let practised = boards(&text);
    assert_eq!(practised[0], played[2], "the board before move 3:\n{text}");
    assert_eq!(practised[1], played[3], "the same tile comes next:\n{text}");
    assert_eq!(practised[2], played[4], "and the next:\n{text}");
    assert!(text.contains("Given up"), "played to the end: {text}");
    assert!(
        text.contains("(practice: not in the best scores)"),
        "{text}"
    );
    assert_practice_left_out(dir.path(), "2048");
}

#[test]
fn a_move_number_out_of_range_and_an_unknown_game_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    let o = run(dir.path(), &["practise", "1", "4"], "");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("game #1 has 3 moves: choose a move from 1 to 3"),
        "{}",
        err(&o)
    );
    let o = run(dir.path(), &["practise", "1", "0"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("0 is not in 1.."), "{}", err(&o));
    let o = run(dir.path(), &["practise", "9", "1"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("no finished game #9"), "{}", err(&o));
    let o = run(dir.path(), &["practise", "1", "x"], "");
    assert!(!o.status.success());
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
    // Nothing was started: the history holds the reviewed game alone.
    assert_eq!(history(dir.path()).len(), 1);
}

#[test]
fn a_practice_game_where_the_computer_broke_the_code_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--role", "maker"],
        "3 0\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let o = run(dir.path(), &["practise", "1", "1"], "");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("no guess of yours to practise"),
        "{}",
        err(&o)
    );
}

#[test]
fn f_on_the_review_screen_practises_from_the_selected_marked_move() {
    use crate::common::pty::{Key, Pty, Spawn};
    use crate::review_screen::{leave, open_history};
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(100, 32));
    open_history(&mut p);
    p.press(Key::Char('c'));
    p.wait_for("1 blunder: move 3");
    // The worst move is selected: f starts the practice game from the position before it.
    let s = p.wait_for("Move 3 (black): b1h");
    assert!(s.contains("· f practise ·"), "named in the hint bar: {s}");
    p.press(Key::Char('f'));
    let s = p.wait_for("practice");
    assert!(s.contains("Plies 2"), "the position before move 3: {s}");
    assert!(s.contains("vs perfect 3x3"), "{s}");
    p.press(Key::Char('x'));
    p.wait_for("Give up?");
    p.press(Key::Char('y'));
    p.wait_for("Given up");
    leave(
        p,
        &[
            "Review · Nocca Nocca · game #1",
            "Parlor · history",
            "↑↓ choose",
        ],
    );
    let games = history(dir.path());
    let practice = games.iter().find(|g| g["id"] == 2).expect("game #2");
    assert_eq!(practice["practice"], true, "{practice}");
    assert_eq!(practice["moves"], "c1y c3b", "{practice}");
}

#[test]
fn parlor_practise_on_a_terminal_opens_the_full_screen_game() {
    use crate::common::pty::{Key, Pty, Spawn};
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["practise", "1", "3"]).size(100, 32));
    let s = p.wait_for("Practice from move 3 of game #1");
    for want in ["vs perfect 3x3", "Plies 2", "practice"] {
        assert!(s.contains(want), "{want:?}: {s}");
    }
    // q leaves the game (saved, as any game) for the menu; q again quits.
    p.press(Key::Char('q'));
    p.wait_for("↑↓ choose");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}
