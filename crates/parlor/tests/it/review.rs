//! `parlor review`: a game played in plain mode through the real binary, then reviewed as text and JSON, read back
//! from the database the second time; unknown numbers and damaged rows refused.

use crate::common::*;
use std::path::Path;

/// A Nocca Nocca 3x3 game for two in which Black throws a won position away at ply 3 (b1h: win in 7 before, loss
/// in 4 after, by the 3x3 table; `games/nocca/review.rs` checks the same values), then White gives up.
pub fn nocca_game(dir: &Path) {
    let o = run(
        dir,
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\nb1h\nx\ny\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
}

/// `parlor review 1` in `dir`, which succeeds: its text.
fn reviewed(dir: &Path) -> String {
    let o = run(dir, &["review", "1"], "");
    assert!(o.status.success(), "{}", err(&o));
    out(&o)
}

/// `parlor review 1 --json` in `dir`, which succeeds: its JSON.
fn reviewed_json(dir: &Path) -> serde_json::Value {
    let o = run(dir, &["review", "1", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str(out(&o).trim()).unwrap()
}

#[test]
fn a_nocca_game_played_in_plain_mode_is_reviewed_as_text_and_json_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    let text = reviewed(dir.path());
    assert!(
        text.contains(
            "move 3 (black) b1h: blunder · win in 7 → loss in 4 · best b1k, a1u · threw the win away"
        ),
        "{text}"
    );
    assert!(text.contains("1 blunder: move 3"), "{text}");
    assert!(
        text.contains("accuracy: black 50.0%, white 100.0%"),
        "{text}"
    );

    let j = reviewed_json(dir.path());
    assert_eq!(j["schema"], 1);
    assert_eq!(j["game"], "1");
    assert_eq!(j["exact"], true);
    assert_eq!(j["moves"][2]["mark"], "blunder");
    assert_eq!(j["moves"][2]["before"], "win in 7");
    assert_eq!(j["moves"][0]["mark"], "none");

    // Kept with the game: the row is there, and a changed kept review is what the next review reads back.
    let conn = rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    let kept: String = conn
        .query_row("SELECT review FROM reviews WHERE game_id = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(kept.contains("\"blunder\""), "{kept}");
    conn.execute(
        "UPDATE reviews SET review = replace(review, 'threw the win away', 'kept note') WHERE game_id = 1",
        [],
    )
    .unwrap();
    let text = out(&run(dir.path(), &["review", "1"], ""));
    assert!(
        text.contains("kept note"),
        "read back from the database: {text}"
    );

    // The review changed nothing of the game: the history line is the same.
    let history = out(&run(dir.path(), &["history"], ""));
    assert!(history.contains("gave up  plies       3"), "{history}");
}

#[test]
fn an_unknown_game_and_a_damaged_row_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["review", "3"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("no finished game #3"), "{}", err(&o));

    nocca_game(dir.path());
    let conn = rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    conn.execute("UPDATE games SET moves = 'c1y zz9' WHERE id = 1", [])
        .unwrap();
    let o = run(dir.path(), &["review", "1"], "");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("game #1 cannot be reviewed"),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("panicked"), "{}", err(&o));

    conn.execute("UPDATE games SET result = 'vanished' WHERE id = 1", [])
        .unwrap();
    let o = run(dir.path(), &["review", "1"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("damaged"), "{}", err(&o));
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
}

#[test]
fn a_2048_game_played_in_plain_mode_is_reviewed_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["2048", "--seed", "1"],
        "left\nright\nup\ndown\nleft\nup\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let text = reviewed(dir.path());
    assert!(text.contains("game #1 · parlor-2048"), "{text}");
    assert!(text.contains("expectimax at depth 2"), "{text}");
    assert!(text.contains("accuracy: "), "{text}");
    let j = reviewed_json(dir.path());
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(6));
    assert_eq!(j["moves"][0]["played"], "left");
    assert_eq!(j["exact"], false);
}

#[test]
fn a_mastermind_game_played_in_plain_mode_is_reviewed_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "5"],
        "RRGG\nRRGG\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let text = reviewed(dir.path());
    // The same guess twice gains nothing: a blunder, and it could not be the secret.
    assert!(text.contains("move 2 RRGG: blunder"), "{text}");
    assert!(
        text.contains("0.00 bits gained; it could not be the secret"),
        "{text}"
    );
    assert!(text.contains("exact: the optimal strategy tree"), "{text}");
    let j = reviewed_json(dir.path());
    assert_eq!(j["unit"], "guesses");
    assert_eq!(j["moves"][1]["mark"], "blunder");
    let loss = j["moves"][1]["loss"].as_f64().unwrap();
    assert!((loss - 1.0).abs() < 1e-9, "{loss}");
}

#[test]
fn plain_mode_reviews_at_a_games_end_and_at_the_menu_as_parlor_review_prints() {
    let dir = tempfile::tempdir().unwrap();
    // At the game's end, `review`: the same text as `parlor review 1`.
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\nb1h\nx\ny\nreview\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let played = out(&o);
    assert!(
        played.contains("review: the engine's review of game #1; Enter goes on> "),
        "{played}"
    );
    let text = reviewed(dir.path());
    assert!(text.contains("1 blunder: move 3"), "{text}");
    assert!(
        played.contains(&text),
        "plain:\n{played}\nparlor review:\n{text}"
    );

    // At the menu, `v 1` (read back from the database); `v` alone says what it takes.
    let o = run(dir.path(), &[], "v 1\nv\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    let menu = out(&o);
    assert!(menu.contains("v N  review game #N"), "{menu}");
    assert!(
        menu.contains(&text),
        "menu:\n{menu}\nparlor review:\n{text}"
    );
    assert!(menu.contains("review takes a game's number"), "{menu}");
    let o = run(dir.path(), &[], "v 9\nq\n");
    assert!(out(&o).contains("No finished game #9"), "{}", out(&o));
}

#[test]
fn a_line_other_than_review_at_a_games_end_goes_on_to_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    // A game left after two plies, continued from the plain menu (`c1`) and given up there: `h`, typed at the
    // end's question, is the menu's.
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\n",
    );
    assert!(out(&o).contains("the game is saved"), "{}", out(&o));
    let o = run(dir.path(), &[], "c1\nb1h\nx\ny\nh\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let after = text
        .split("Enter goes on> ")
        .nth(1)
        .unwrap_or_else(|| panic!("no end question: {text}"));
    assert!(
        after.contains("gave up  plies       3"),
        "the history: {text}"
    );
    assert!(!after.contains("not on the menu"), "{text}");
}
