//! Nocca Nocca in plain mode: the real binary through pipes.

mod common;
use common::*;

/// A two-player game that Black wins in the goal after 11 plies.
const GOAL_GAME: &[&str] = &[
    "c1k", "c6j", "c2k", "c5h", "c3k", "b5j", "c4k", "a6n", "c5k", "e6j", "c6k",
];

/// The last board printed (from its goal line to the other goal line).
fn last_board(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.contains("goal for White"))
        .expect("a board was printed");
    let start = lines[..end]
        .iter()
        .rposition(|l| l.contains("goal for Black"))
        .expect("a board top");
    lines[start..=end].join("\n")
}

#[test]
fn a_two_player_game_to_a_goal_win_with_bad_input_and_undo() {
    let dir = tempfile::tempdir().unwrap();
    // Stone then direction for the first move, with refusals on the way; an undo and a replay of the same move.
    let mut input = String::from("zz\nc3\nc6\nc1\nj\nq\nk\nc6j\nu\nc6 j\n");
    for m in &GOAL_GAME[2..] {
        input.push_str(m);
        input.push('\n');
    }
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--seed", "4"],
        &input,
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("Nocca Nocca: two players, black first."),
        "{text}"
    );
    assert!(text.contains("which stone? [a1 b1 c1 d1 e1]"), "{text}");
    assert!(
        text.contains("Refused: 'zz' is not a stone or a move"),
        "{text}"
    );
    assert!(text.contains("Refused: c3 is empty."), "{text}");
    assert!(
        text.contains("Refused: the piece on c6 is white's."),
        "{text}"
    );
    assert!(
        text.contains("which direction? [y k u h l] (y=b2 k=c2 u=d2 h=b1 l=d1"),
        "{text}"
    );
    assert!(text.contains("Refused: "), "{text}");
    assert!(text.contains("Refused: 'q' is not a direction"), "{text}");
    assert!(text.contains("Black plays c1k (c1-c2)."), "{text}");
    assert!(
        text.contains("Took back 1 ply (the game is now assisted)."),
        "{text}"
    );
    assert!(
        text.contains("Black plays c6k (c6 into the goal)."),
        "{text}"
    );
    assert!(
        text.contains("Black wins by goal after 11 plies."),
        "{text}"
    );
    assert!(
        text.contains("Recorded as game #1 (won, assisted"),
        "{text}"
    );
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["game"], "nocca");
    assert_eq!(v[0]["variant"], "two players");
    assert_eq!(v[0]["result"], "won");
    assert_eq!(v[0]["score"], 11);
    assert_eq!(v[0]["assisted"], true);
    let r = run(dir.path(), &["replay", "1"], "");
    let replay = out(&r);
    assert!(
        replay.contains("11. Black c6k (c6 into the goal)"),
        "{replay}"
    );
    assert!(
        replay.contains("End: won after 11 plies (black wins by goal)."),
        "{replay}"
    );
}

#[test]
fn an_unassisted_win_is_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let input = GOAL_GAME.join("\n") + "\n";
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--seed", "1"],
        &input,
    );
    let text = out(&o);
    assert!(
        text.contains("Recorded as game #1 (won), rank 1 among two players wins."),
        "{text}"
    );
}

#[test]
fn quit_saves_and_the_next_start_continues() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(
        dir.path(),
        &["nocca", "--mode", "two", "--first", "white"],
        "c6j\nb1\nu\nq\n",
    );
    let text = out(&first);
    assert!(text.contains("Game saved"), "{text}");
    assert!(text.contains("White plays c6j (c6-c5)."), "{text}");
    let second = run(
        dir.path(),
        &["nocca", "--mode", "two", "--first", "white"],
        "q\n",
    );
    let resumed = out(&second);
    assert!(
        resumed.contains("Continuing your game in progress"),
        "{resumed}"
    );
    assert_eq!(last_board(&resumed), last_board(&text));
    // The menu offers it too, and end of input saves.
    let third = run(dir.path(), &[], "c1\nc5j\n");
    let t = out(&third);
    assert!(t.contains("continue nocca two players"), "{t}");
    assert!(t.contains("White plays c5j (c5-c4)."), "{t}");
    assert!(t.contains("Input ended: the game is saved"), "{t}");
    let h = run(
        dir.path(),
        &["nocca", "--mode", "two", "--first", "white"],
        "",
    );
    assert!(out(&h).contains("Black to move, ply 4."), "{}", out(&h));
}

#[test]
fn a_game_against_the_beginner_through_the_pipe() {
    let dir = tempfile::tempdir().unwrap();
    // A simple-minded player: the first legal move in a fixed scan (front rows first, forward steps first).
    let mut scan = String::new();
    for row in (1..=6).rev() {
        for col in ['c', 'b', 'd', 'a', 'e'] {
            for d in ['k', 'y', 'u', 'h', 'l', 'b', 'n', 'j'] {
                scan.push_str(&format!("{col}{row}{d}\n"));
            }
        }
    }
    let input = scan.repeat(60);
    let o = run(
        dir.path(),
        &["nocca", "--level", "beginner", "--seed", "2"],
        &input,
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("you (black) against the computer (beginner), black first"),
        "{text}"
    );
    assert!(
        text.contains("The computer (beginner, white) plays"),
        "{text}"
    );
    assert!(text.contains("Recorded as game #1"), "{text}");
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["variant"], "vs beginner");
    let result = v[0]["result"].as_str().unwrap();
    assert!(["won", "lost", "draw"].contains(&result), "{result}");
}

#[test]
fn the_plain_setup_asks_the_options() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["nocca"], "1\nw\n?\nq\n");
    let text = out(&o);
    assert!(text.contains("mode: 1 two players"), "{text}");
    assert!(
        text.contains("Nocca Nocca: two players, white first."),
        "{text}"
    );
    assert!(text.contains("A square holds at most 3"), "{text}");
}
