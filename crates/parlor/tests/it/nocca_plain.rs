//! Nocca Nocca in plain mode: the real binary through pipes.

use crate::common::*;

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
    let mut input = String::from("zz\nc3\nc6\nc1\nj\nc1\n\nc1\nk\nc6j\nu\nc6 j\n");
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
    assert!(text.contains("which piece? [a1 b1 c1 d1 e1]"), "{text}");
    assert!(
        text.contains("Refused: 'zz' is not a square or a move"),
        "{text}"
    );
    assert!(text.contains("Refused: c3 is empty"), "{text}");
    assert!(
        text.contains("Refused: the piece on c6 is white's"),
        "{text}"
    );
    assert!(
        text.contains("which direction? [y k u h l] (y=b2 k=c2 u=d2 h=b1 l=d1"),
        "{text}"
    );
    assert!(
        text.contains("Refused: c1j would leave the board over your own home row."),
        "{text}"
    );
    assert!(
        text.contains("No move made: choose another piece."),
        "{text}"
    );
    assert!(text.contains("Black plays c1k (c1-c2)."), "{text}");
    assert!(
        text.contains("Move taken back (the game is now assisted)."),
        "{text}"
    );
    assert!(
        text.contains("Black plays c6k (c6 into the goal)."),
        "{text}"
    );
    // Two players: the ending names the winner; the game is recorded as done, not as the keyboard's win.
    assert!(
        text.contains("Black reached the goal in 11 plies. Plies 11."),
        "{text}"
    );
    assert!(text.contains("Recorded as game #1 (not ranked"), "{text}");
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["game"], "nocca");
    assert_eq!(v[0]["variant"], "two players");
    assert_eq!(v[0]["result"], "done");
    assert_eq!(v[0]["score"], 11);
    assert_eq!(v[0]["assisted"], true);
    assert_eq!(v[0]["moves"], "c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k");
    let r = run(dir.path(), &["replay", "1"], "");
    let replay = out(&r);
    assert!(replay.contains("11. c6k   plies 11"), "{replay}");
    assert!(
        replay.contains("End: done (Black reached the goal in 11 plies), plies 11."),
        "{replay}"
    );
}

#[test]
fn an_unassisted_two_player_game_is_recorded_but_not_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let input = GOAL_GAME.join("\n") + "\n";
    let o = run(dir.path(), &["nocca", "--mode", "two"], &input);
    let text = out(&o);
    assert!(
        text.contains("Recorded as game #1 (not ranked: not in the best scores)."),
        "{text}"
    );
    let s = run(dir.path(), &["scores", "--game", "nocca"], "");
    assert!(
        out(&s).contains("Nocca Nocca two players\n  (these games have no best scores)"),
        "{}",
        out(&s)
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
    assert!(text.contains("Black plays b1u (b1-c2)."), "{text}");
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
    // The menu offers it too, with the plies and whose turn it is (issue 9, defect 5: it said "score 2 · 2 moves");
    // end of input saves.
    let third = run(dir.path(), &[], "c1\nc5j\n");
    let t = out(&third);
    assert!(
        t.contains("continue nocca two players · ply 2 · White to move"),
        "{t}"
    );
    assert!(!t.contains("score 2"), "{t}");
    assert!(t.contains("White plays c5j (c5-c4)."), "{t}");
    assert!(t.contains("Input ended: the game is saved"), "{t}");
    let h = run(
        dir.path(),
        &["nocca", "--mode", "two", "--first", "white"],
        "",
    );
    assert!(out(&h).contains("Ply 3 · Black to move"), "{}", out(&h));
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
    assert!(text.contains("The computer plays "), "{text}");
    assert!(text.contains("White plays "), "{text}");
    assert!(text.contains("Recorded as game #1"), "{text}");
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["variant"], "vs beginner");
    let result = v[0]["result"].as_str().unwrap();
    assert!(["won", "lost", "draw"].contains(&result), "{result}");
}

#[test]
fn undo_against_the_computer_takes_back_the_answer_too() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "--level", "beginner", "--seed", "5"],
        "c1k\nu\nq\n",
    );
    let text = out(&o);
    assert!(text.contains("Black plays c1k (c1-c2)."), "{text}");
    assert!(text.contains("The computer plays "), "{text}");
    assert!(text.contains("Ply 2 · Black to move"), "{text}");
    assert!(
        text.contains("Move taken back (the game is now assisted).\n"),
        "{text}"
    );
    assert!(text.contains("Ply 0 · Black to move  (assisted)"), "{text}");
}

#[test]
fn the_plain_setup_asks_the_settings_and_a_small_board_is_its_own_variant() {
    let dir = tempfile::tempdir().unwrap();
    // From the plain menu: Nocca Nocca (by name), two players, Enter for the rest but White first, on 3x3; then help.
    let o = run(dir.path(), &[], "nocca\ntwo\nwhite\n3x3\n?\nq\nq\n");
    let text = out(&o);
    assert!(
        text.contains("Players (two, computer, watch) [against the computer]> "),
        "{text}"
    );
    assert!(
        text.contains("Nocca Nocca: two players, white first, on 3x3."),
        "{text}"
    );
    assert!(text.contains("A square holds at most 3"), "{text}");
    assert!(text.contains("which piece? [a3 b3 c3]"), "{text}");
    // A whole 3x3 game: Black rides on White's home row, then steps into the goal.
    let moves = "a1k\nc3j\na2k\nc2j\na3k\n";
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--board", "3x3"],
        moves,
    );
    let text = out(&o);
    assert!(text.contains("Black reached the goal in 5 plies"), "{text}");
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["variant"], "two players 3x3");
    assert_eq!(v[0]["options"]["board"], "3x3");
}

/// The plain board draws what the help promises: each square's pieces bottom to top, the top piece (the one that
/// can move) in capitals, the pieces under it in small letters.
#[test]
fn the_plain_board_shows_the_top_piece_in_capitals_as_the_help_says() {
    let dir = tempfile::tempdir().unwrap();
    // Black climbs to c3 and steps onto the white piece that came down to c4: a black piece riding on a white one.
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--seed", "4"],
        "c1k\nc6j\nc2k\nc5j\nc3k\n?\nq\n",
    );
    let text = out(&o);
    let board = last_board(&text);
    assert!(
        board.contains(" 4  ___   ___   wB_*  ___   ___  4"),
        "{board}"
    );
    assert!(
        board.contains(" 1  B__   B__   ___   B__   B__  1"),
        "{board}"
    );
    // Every square of every board printed: small letters under one capital, or empty.
    let mut cells = 0;
    for line in text
        .lines()
        .filter(|l| l.contains("__") || l.contains("_*"))
    {
        for cell in line
            .split_whitespace()
            .filter(|w| w.contains('_') || w.len() > 2)
        {
            let pieces: String = cell.chars().filter(|c| "bwBW".contains(*c)).collect();
            if let Some((top, under)) = pieces.chars().collect::<Vec<_>>().split_last() {
                assert!(top.is_ascii_uppercase(), "{cell} in {line}");
                assert!(
                    under.iter().all(char::is_ascii_lowercase),
                    "{cell} in {line}"
                );
                cells += 1;
            }
        }
    }
    assert!(cells > 50, "{cells} cells read");
    // The help says so, in plain mode's own letters.
    assert!(
        text.contains("the top piece (the one that can move) in capitals: 'b w B' on the full screen, 'bwB' in plain mode"),
        "{text}"
    );
}
