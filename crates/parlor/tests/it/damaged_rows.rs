//! Rows that SQLite holds but Parlor cannot read (issue 25): a saved game with a column of the wrong type is set
//! aside like any other damaged game, never blocking its game; damaged finished games are left out of the history,
//! which says how many and why, everywhere, as the statistics count them.

use crate::common::pty::{Key, Pty, Spawn};
use crate::common::{err, out, run};
use std::path::Path;

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(parlor::storage::DB_FILE)).unwrap()
}

/// Leaves one Mastermind game unfinished (one guess made).
fn one_unfinished(dir: &Path) {
    let o = run(dir, &["mastermind"], "RGYU\nq\n");
    assert!(out(&o).contains("Game saved."), "{}", out(&o));
}

#[test]
fn a_saved_game_with_a_column_of_the_wrong_type_is_set_aside_not_blocking_its_game() {
    for (column, value) in [
        ("moves", "x'ff00fe'"),
        ("seed", "'forty-two'"),
        ("options", "x'7b7d'"),
        ("score", "1.5"),
        ("assisted", "'yes'"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        one_unfinished(dir.path());
        db(dir.path())
            .execute_batch(&format!("UPDATE unfinished SET {column} = {value}"))
            .unwrap();
        let o = run(dir.path(), &["mastermind"], "KORG\nq\n");
        let text = out(&o);
        assert!(o.status.success(), "{column}: {}", err(&o));
        assert!(
            text.contains("A damaged saved game was set aside")
                && text.contains(&format!(
                    "the stored {column} is not of the type Parlor writes"
                )),
            "{column}: {text}"
        );
        assert!(
            text.contains("Guess 1: BLACK ORANGE RED GREEN"),
            "{column}: a new game is played"
        );
        // Kept whole, exactly as stored.
        let conn = db(dir.path());
        let (kind, left): (String, i64) = conn
            .query_row(
                &format!(
                    "SELECT typeof({column}), (SELECT COUNT(*) FROM unfinished WHERE {column} = {value})
                     FROM set_aside"
                ),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_ne!(kind, "null", "{column}");
        assert_eq!(left, 0, "{column}: no longer among the games in progress");
        let same: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM set_aside WHERE {column} = {value}"),
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(same, 1, "{column}: the stored value is kept as it was");
    }
}

#[test]
fn the_plain_menu_sets_aside_a_saved_game_of_the_wrong_type() {
    let dir = tempfile::tempdir().unwrap();
    one_unfinished(dir.path());
    db(dir.path())
        .execute_batch("UPDATE unfinished SET moves = x'ff00fe'")
        .unwrap();
    let o = run(dir.path(), &[], "c1\nq\n");
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("set aside"), "{text}");
    let conn = db(dir.path());
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM set_aside", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
}

/// Three finished games, two of them then damaged (an unknown result, a score that is not a number).
fn two_damaged_of_three(dir: &Path) {
    for _ in 0..3 {
        let o = run(dir, &["mastermind", "--new"], "KORG\nx\ny\n");
        assert!(out(&o).contains("Recorded as game #"), "{}", out(&o));
    }
    db(dir)
        .execute_batch(
            "UPDATE games SET result = 'vanished' WHERE id = 1;
             UPDATE games SET score = x'00' WHERE id = 2;",
        )
        .unwrap();
}

const LEFT_OUT: &str = "2 damaged finished games left out (a score that is not a number; an unknown result 'vanished')";

#[test]
fn history_says_how_many_damaged_games_it_left_out_and_why_as_statistics_count_them() {
    let dir = tempfile::tempdir().unwrap();
    two_damaged_of_three(dir.path());
    let o = run(dir.path(), &["history"], "");
    let text = out(&o);
    assert!(text.contains(LEFT_OUT), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains("mastermind")).count(),
        1,
        "{text}"
    );
    // --json: the list on stdout, the note on stderr.
    let o = run(dir.path(), &["history", "--json"], "");
    let list: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert!(err(&o).contains(LEFT_OUT), "{}", err(&o));
    // Statistics count the same two as damaged.
    let o = run(dir.path(), &["stats", "--game", "mastermind", "--json"], "");
    let stats = out(&o);
    assert!(stats.contains("\"damaged\":2"), "{stats}");
    // The plain menu's history.
    let o = run(dir.path(), &[], "h\nq\n");
    assert!(out(&o).contains(LEFT_OUT), "{}", out(&o));
}

#[test]
fn a_history_of_damaged_games_only_does_not_say_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    two_damaged_of_three(dir.path());
    db(dir.path())
        .execute_batch("UPDATE games SET seeded = 'no' WHERE id = 3")
        .unwrap();
    let o = run(dir.path(), &["history"], "");
    let text = out(&o);
    assert!(!text.contains("No finished game yet"), "{text}");
    assert!(text.contains("3 damaged finished games left out"), "{text}");
}

#[test]
fn the_full_screen_history_says_how_many_damaged_games_it_left_out() {
    let dir = tempfile::tempdir().unwrap();
    two_damaged_of_three(dir.path());
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(100, 30));
    p.wait_for("History and replays");
    // The menu: three new games, Online, best scores, statistics, then History.
    for _ in 0..6 {
        p.press(Key::Down);
    }
    p.press(Key::Enter);
    let screen = p.wait_for("left out");
    assert!(
        screen.contains("2 damaged finished games left out"),
        "{screen}"
    );
    p.press(Key::Esc);
    p.wait_for("History and replays");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

/// A row whose `game` column is damaged belongs to no game: every history and every statistics, of every game or
/// of one, count it as "damaged, game unknown", so the totals of `history` and `stats` always agree.
#[test]
fn a_row_whose_game_is_damaged_is_counted_alike_by_history_and_statistics() {
    let dir = tempfile::tempdir().unwrap();
    two_damaged_of_three(dir.path());
    for _ in 0..3 {
        let o = run(dir.path(), &["2048", "--new"], "a\nd\nw\ns\nx\ny\n");
        assert!(out(&o).contains("Recorded as game #"), "{}", out(&o));
    }
    // Games 4 and 5 (2048 games): one named as no game, one whose name is not text at all; game 6 is sound.
    db(dir.path())
        .execute_batch(
            "UPDATE games SET game = 'chess' WHERE id = 4;
             UPDATE games SET game = x'ff' WHERE id = 5;",
        )
        .unwrap();
    const UNKNOWN: &str = "game unknown: not a name; game unknown: 'chess'";
    // Whatever game is shown, the two rows of no game are counted, once each.
    for (args, damaged) in [
        (&["history"][..], 4),
        (&["history", "--game", "mastermind"][..], 4),
    ] {
        let text = out(&run(dir.path(), args, ""));
        assert!(
            text.contains(&format!("{damaged} damaged finished games left out"))
                && text.contains(UNKNOWN),
            "{args:?}: {text}"
        );
    }
    let text = out(&run(dir.path(), &["history", "--game", "2048"], ""));
    assert!(
        text.contains(
            "2 damaged finished games left out (game unknown: not a name; game unknown: 'chess')"
        ),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.contains("2048")).count(),
        1,
        "{text}"
    );
    // Statistics: the same two, said apart from every game's figures, of every game or of one.
    for args in [
        &["stats"][..],
        &["stats", "--game", "mastermind"],
        &["stats", "--game", "2048"],
    ] {
        let text = out(&run(dir.path(), args, ""));
        assert!(
            text.contains(&format!(
                "Damaged, game unknown: 2 finished games counted under no game ({UNKNOWN})"
            )),
            "{args:?}: {text}"
        );
    }
    let o = run(dir.path(), &["stats", "--json"], "");
    let stats: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(stats["mastermind"]["variants"][0]["damaged"], 2);
    assert_eq!(stats["mastermind"]["variants"][0]["played"], 1);
    assert_eq!(stats["2048"]["variants"][0]["played"], 1);
    assert_eq!(stats["2048"]["variants"][0]["damaged"], 0);
    assert!(err(&o).contains("Damaged, game unknown: 2"), "{}", err(&o));
    // The totals agree: history's readable and left out = statistics' played, damaged and game unknown.
    let o = run(dir.path(), &["history", "--json"], "");
    let list: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 2, "games 3 and 6");
    assert!(
        err(&o).contains("4 damaged finished games left out"),
        "{}",
        err(&o)
    );
    // The plain menu's statistics and the full screen's say it too.
    let o = run(dir.path(), &[], "t\nq\n");
    assert!(out(&o).contains("Damaged, game unknown: 2"), "{}", out(&o));
}
