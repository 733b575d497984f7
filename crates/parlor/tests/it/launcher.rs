//! The one launcher, for every game: Continue and `--new`, claims on games in progress, discarding, damaged saved
//! games set aside, chosen seeds kept out of the best scores, and databases written by the previous release.

use crate::common::app::{menu_app, press, screen};
use crate::common::*;
use parlor::input::KeyCode;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Defect 4 of issue 9: two processes could open the same game in progress. A game is claimed by the process
/// playing it; a second one is told and gets a new game, and the game is recorded once.
#[test]
fn a_game_in_progress_is_played_by_one_process_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(dir.path(), &["2048"], "a\nd\nq\n");
    assert!(out(&first).contains("Game saved."), "{}", out(&first));
    let mut holder = parlor(dir.path(), &["2048"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(holder.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("Continuing your game in progress") {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "the first process continues the game"
        );
    }
    let second = run(dir.path(), &["2048"], "q\n");
    let text = out(&second);
    assert!(
        text.contains("being played in another Parlor: a new game starts"),
        "{text}"
    );
    let mut stdin = holder.stdin.take().unwrap();
    stdin.write_all(b"x\ny\n").unwrap();
    drop(stdin);
    assert!(holder.wait().unwrap().success());
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "recorded once: {v}");
}

/// Defect 3 of issue 9: `--new` starts another game and the first stays under Continue, for every game; the menu
/// lists every game in progress, not only the newest three.
#[test]
fn new_leaves_the_old_game_under_continue_and_the_menu_lists_them_all() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..5 {
        let o = run(dir.path(), &["2048", "--new"], "a\nd\nq\n");
        assert!(out(&o).contains("Game saved."), "{}", out(&o));
    }
    let menu = out(&run(dir.path(), &[], "q\n"));
    for i in 1..=5 {
        assert!(menu.contains(&format!("c{i}  continue 2048 4x4")), "{menu}");
    }
    let store = parlor::storage::Store::open(dir.path()).unwrap().store;
    let mut app = menu_app(store);
    let s = screen(&mut app, 100, 30);
    assert_eq!(s.matches("Continue 2048 4x4").count(), 5, "{s}");
}

/// Defect 3 of issue 9: a game in progress can be discarded from the menu, after a question; it is recorded as
/// given up (kept in the history), not deleted.
#[test]
fn discarding_a_game_asks_first_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), &["2048"], "a\nd\nq\n");
    let store = parlor::storage::Store::open(dir.path()).unwrap().store;
    let mut app = menu_app(store);
    press(&mut app, KeyCode::Char('d'));
    let asked = screen(&mut app, 100, 24);
    assert!(
        asked.contains("Discard the 2048 game 4x4? y yes · n no"),
        "{asked}"
    );
    press(&mut app, KeyCode::Char('n'));
    assert!(screen(&mut app, 100, 24).contains("Continue 2048"));
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    let after = screen(&mut app, 100, 24);
    assert!(!after.contains("Continue 2048"), "{after}");
    assert!(after.contains("recorded as given up"), "{after}");
    drop(app);
    let h = out(&run(dir.path(), &["history", "--json"], ""));
    let v: serde_json::Value = serde_json::from_str(&h).unwrap();
    assert_eq!(v[0]["result"], "gave up");
}

/// Issue 10, item 4 (done here because the launcher was rebuilt): a damaged saved game never blocks start-up; it
/// is set aside (kept) and the player is told in one line.
#[test]
fn a_damaged_saved_game_is_set_aside_and_play_goes_on() {
    for damage in [
        "UPDATE unfinished SET moves = 'left banana right'",
        "UPDATE unfinished SET options = 'not json'",
        "UPDATE unfinished SET options = '{\"size\":99,\"four_chance\":0.1,\"target\":2048}'",
        "UPDATE unfinished SET moves = 'left left left left left left left left left left left left'",
    ] {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), &["2048", "--seed", "4"], "a\nq\n");
        let conn = rusqlite::Connection::open(dir.path().join("parlor.db")).unwrap();
        conn.execute_batch(damage).unwrap();
        drop(conn);
        let o = run(dir.path(), &["2048"], "q\n");
        assert!(o.status.success(), "{damage}: {}", err(&o));
        let text = out(&o);
        assert!(
            text.contains("A damaged saved game was set aside"),
            "{damage}: {text}"
        );
        assert!(text.contains("2048 on 4x4"), "a new game starts: {text}");
        let conn = rusqlite::Connection::open(dir.path().join("parlor.db")).unwrap();
        let kept: i64 = conn
            .query_row("SELECT COUNT(*) FROM set_aside", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, 1, "{damage}: the damaged row is kept");
    }
}

/// Defect 6 of issue 9: give up once, replay the same seed and rank first: no more. A chosen seed is marked.
#[test]
fn games_from_a_chosen_seed_never_rank() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["2048", "--size", "3", "--seed", "9"],
        &cycle_moves(300),
    );
    assert!(out(&o).contains("played from a chosen seed"), "{}", out(&o));
    let s = out(&run(dir.path(), &["scores", "--json"], ""));
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["2048"]["3x3"].as_array().unwrap().len(), 0, "{v}");
}

/// `parlor scores` shows every game that has finished games (as `history` and `stats` do); `--game` one of them;
/// `--json` keys the games, then the variants.
#[test]
fn scores_show_every_game_unless_one_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let s = out(&run(dir.path(), &["scores"], ""));
    assert_eq!(s.trim(), "No finished game yet.");
    run(
        dir.path(),
        &["2048", "--size", "3", "--seed", "9"],
        &cycle_moves(300),
    );
    run(
        dir.path(),
        &["mastermind", "--seed", "4"],
        "1 2 3 4\nx\ny\n",
    );
    let s = out(&run(dir.path(), &["scores"], ""));
    assert!(s.contains("2048 3x3"), "{s}");
    assert!(s.contains("Mastermind seed"), "{s}");
    assert!(
        !s.contains("Nocca"),
        "a game never played is not listed: {s}"
    );
    let s = out(&run(dir.path(), &["scores", "--game", "mastermind"], ""));
    assert!(s.contains("Mastermind seed") && !s.contains("2048"), "{s}");
    let s = out(&run(dir.path(), &["scores", "--json"], ""));
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert!(v["2048"]["3x3"].is_array(), "{v}");
    assert!(v["mastermind"]["seed"].is_array(), "{v}");
    assert_eq!(v["nocca"], serde_json::json!({}), "{v}");
    let s = out(&run(
        dir.path(),
        &["scores", "--game", "2048", "--json"],
        "",
    ));
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert!(v["3x3"].is_array(), "{v}");
    // The history names what each score counts (RULES.md, Words): guesses for Mastermind, the score for 2048.
    let h = out(&run(dir.path(), &["history"], ""));
    let mm = h
        .lines()
        .find(|l| l.contains("mastermind"))
        .unwrap_or_default();
    assert!(mm.contains(" guesses ") && !mm.contains(" score "), "{h}");
    let t48 = h.lines().find(|l| l.contains("2048")).unwrap_or_default();
    assert!(t48.contains(" score "), "{h}");
    let o = run(dir.path(), &["scores", "--variant", "3x3"], "");
    assert!(
        !o.status.success() && err(&o).contains("--game"),
        "{}",
        err(&o)
    );
}

/// Defect 7 of issue 9: plain mode acted at once on `r` and the give-up key; both ask first now.
#[test]
fn plain_mode_asks_before_ending_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "2"], "a\nr\nn\nx\nn\nq\n");
    let text = out(&o);
    assert!(
        text.contains("Start a new game? This one is recorded as given up. [y/n]"),
        "{text}"
    );
    assert!(text.contains("Give up this game? [y/n]"), "{text}");
    assert!(text.contains("Game saved."), "{text}");
    let h = out(&run(dir.path(), &["history"], ""));
    assert!(
        h.contains("No finished game yet."),
        "nothing was ended: {h}"
    );
}

/// Issue 10, item 3: one invalid UTF-8 byte ended plain mode. Such a line is refused and reading goes on.
#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = parlor(dir.path(), &["2048", "--plain", "--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a\n\xff\nd\nq\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("Slid right."),
        "the line after the bad one is read: {text}"
    );
    assert!(text.contains("Game saved."), "{text}");
}

/// A database written by the previous release (schema 1) is migrated on open and every record is found, with
/// results as the typed outcome: the codemaker game and the watched Nocca game become `done`.
#[test]
fn a_database_of_the_previous_release_is_migrated_and_keeps_every_record() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1.db"),
        dir.path().join("parlor.db"),
    )
    .unwrap();
    let h = run(dir.path(), &["history", "--json"], "");
    assert!(h.status.success(), "{}", err(&h));
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    let games = v.as_array().unwrap();
    assert_eq!(games.len(), 5, "{v}");
    let result = |id: i64| {
        games
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["result"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(result(1), "lost");
    assert_eq!(result(2), "gave up");
    assert_eq!(result(3), "done", "a watched game is nobody's win");
    assert_eq!(result(4), "gave up");
    assert_eq!(
        result(5),
        "done",
        "the computer finding your code is not your loss"
    );
    let conn = rusqlite::Connection::open(dir.path().join("parlor.db")).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 2);
    let unfinished: i64 = conn
        .query_row("SELECT COUNT(*) FROM unfinished", [], |r| r.get(0))
        .unwrap();
    assert_eq!(unfinished, 3, "the games in progress are kept");
    // The 2048 game in progress (5x5, three moves) continues.
    let o = run(dir.path(), &["2048", "--size", "5"], "q\n");
    let text = out(&o);
    assert!(text.contains("Continuing your game in progress"), "{text}");
    assert!(text.contains("3 moves"), "{text}");
    // Old 2048 records hold `undo` words: the replay folds them.
    let r = run(dir.path(), &["replay", "2"], "");
    assert!(r.status.success(), "{}", err(&r));
}
