//! The real binary in plain mode, driven through pipes as a script or a screen reader would.

use crate::common::*;

#[test]
fn a_scripted_game_plays_to_game_over_and_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["2048", "--size", "3", "--seed", "9"],
        &cycle_moves(300),
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("2048 on 3x3, seed 9"), "{text}");
    assert!(text.contains("Game over: no move left"), "{text}");
    // Defect 6 of issue 9: a game from a chosen seed is recorded but never ranks.
    assert!(
        text.contains("Recorded as game #1 (played from a chosen seed: not in the best scores)."),
        "{text}"
    );
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["result"], "lost");
    assert_eq!(v[0]["seed"], 9);
    assert_eq!(v[0]["assisted"], false);
    assert_eq!(v[0]["seeded"], true);
    // The replay rebuilds the same final board.
    let r = run(dir.path(), &["replay", "1"], "");
    assert_eq!(
        unmarked(&last_board(&out(&r))),
        unmarked(&last_board(&text))
    );
}

#[test]
fn quitting_saves_and_the_next_start_continues() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(dir.path(), &["2048", "--seed", "12"], "a\nd\ns\nq\n");
    let text = out(&first);
    assert!(text.contains("Game saved."), "{text}");
    let second = run(dir.path(), &["2048"], "q\n");
    let resumed = out(&second);
    assert!(
        resumed.contains("Continuing your game in progress"),
        "{resumed}"
    );
    assert!(resumed.contains("seed 12"), "{resumed}");
    assert_eq!(
        unmarked(&last_board(&resumed)),
        unmarked(&last_board(&text))
    );
}

#[test]
fn end_of_input_saves_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "3", "--plain"], "a\nw\n");
    assert!(
        out(&o).contains("Input ended: the game is saved"),
        "{}",
        out(&o)
    );
    let menu = run(dir.path(), &[], "q\n");
    assert!(
        out(&menu).contains("c1  continue 2048 4x4"),
        "{}",
        out(&menu)
    );
}

#[test]
fn same_seed_and_inputs_give_the_same_game() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let input = cycle_moves(40);
    let oa = out(&run(a.path(), &["2048", "--seed", "77"], &input));
    let ob = out(&run(b.path(), &["2048", "--seed", "77"], &input));
    assert_eq!(oa, ob);
    let oc = out(&run(b.path(), &["2048", "--seed", "78"], &input));
    assert_ne!(
        last_board(&oa),
        last_board(&oc),
        "another seed gives another game"
    );
}

#[test]
fn bad_commands_are_refused_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "1"], "xyzzy\nu\na\n?\nq\n");
    let text = out(&o);
    assert!(
        text.contains("'xyzzy' is not a direction (up, down, left or right) (? for help)."),
        "{text}"
    );
    assert!(text.contains("Nothing to undo."), "{text}");
    assert!(text.contains("Slid left."), "{text}");
    assert!(
        text.contains("merges at most once per move"),
        "help prints the rules: {text}"
    );
    assert!(text.contains("Game saved."), "{text}");
}

#[test]
fn undo_and_give_up_record_an_assisted_game() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "5"], "a\nu\na\nd\nx\ny\n");
    let text = out(&o);
    assert!(
        text.contains("Move taken back (the game is now assisted)."),
        "{text}"
    );
    assert!(text.contains("Give up this game? [y/n]"), "{text}");
    assert!(text.contains("Given up"), "{text}");
    assert!(
        text.contains("(assisted: not in the best scores)"),
        "{text}"
    );
    let s = out(&run(dir.path(), &["scores"], ""));
    assert!(s.contains("(none ranks: assisted games"), "{s}");
}

#[test]
fn the_plain_menu_starts_a_game_and_lists_history() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["--plain"],
        "1\n9\n3\n\n\na\nx\ny\nh\nbogus\nq\n",
    );
    let text = out(&o);
    assert!(text.contains("Board size (3 to 8) [4]> "), "{text}");
    assert!(
        text.contains("'9' is not a whole number from 3 to 8"),
        "{text}"
    );
    assert!(text.contains("2048 on 3x3"), "{text}");
    assert!(text.contains("Given up"), "{text}");
    assert!(text.contains("'bogus' is not on the menu"), "{text}");
}

#[test]
fn slide_prints_json_as_rules_md_specifies() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "2,2,2,2/4,4,8,0/2,2,2,0/0,2,2,4",
            "left",
            "4,4,0,0/8,8,0,0/4,2,0,0/4,4,0,0",
            24,
            true,
        ),
        (
            "2,2,2,0/0,0,0,0/0,0,0,0/0,0,0,0",
            "right",
            "0,0,2,4/0,0,0,0/0,0,0,0/0,0,0,0",
            4,
            true,
        ),
        (
            "4 4 2 2/. . . ./. . . ./. . . .",
            "left",
            "8,4,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
            12,
            true,
        ),
        (
            "2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
            "left",
            "2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
            0,
            false,
        ),
    ];
    for (board, dir_word, want, gained, moved) in cases {
        let o = run(
            dir.path(),
            &["2048", "slide", board, dir_word, "--json"],
            "",
        );
        assert!(o.status.success(), "{}", err(&o));
        let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(v["board"], want);
        assert_eq!(v["gained"], gained);
        assert_eq!(v["moved"], moved);
    }
}

#[test]
fn bad_arguments_fail_with_a_message_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (vec!["2048", "slide", "2,2/2", "left"], "bad board"),
        (
            vec!["2048", "slide", "2,2,0/0,0,0/0,0,3", "left"],
            "bad board",
        ),
        (
            vec!["2048", "slide", "2,2,0/0,0,0/0,0,0", "sideways"],
            "bad direction",
        ),
        (vec!["2048", "--size", "9"], "9"),
        (vec!["2048", "--size", "4294967295"], "from 3 to 8"),
        (vec!["2048", "--four-chance", "2"], "from 0 to 1"),
        (vec!["2048", "--four-chance", "NaN"], "from 0 to 1"),
        (vec!["2048", "--target", "1000"], "1000"),
        (vec!["replay", "99"], "no game #99"),
        (vec!["nonsense"], "unrecognized"),
    ] {
        let o = run(dir.path(), &args, "");
        assert!(!o.status.success(), "{args:?} should fail");
        let e = err(&o);
        assert!(e.contains(needle), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

#[test]
fn a_corrupt_database_is_reported_and_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("parlor.db"),
        b"garbage, not a database ".repeat(200),
    )
    .unwrap();
    let o = run(dir.path(), &["history"], "");
    assert!(o.status.success());
    assert!(err(&o).contains("was damaged"), "{}", err(&o));
    assert!(out(&o).contains("No finished game yet."));
    let kept = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("parlor.db.corrupt-")
        });
    assert!(kept, "the damaged file is kept aside");
}

#[test]
fn help_explains_every_option() {
    let dir = tempfile::tempdir().unwrap();
    let top = out(&run(dir.path(), &["--help"], ""));
    for word in [
        "2048",
        "history",
        "scores",
        "replay",
        "--plain",
        "--no-color",
        "--data-dir",
    ] {
        assert!(top.contains(word), "{word} missing from --help: {top}");
    }
    let g = out(&run(dir.path(), &["2048", "--help"], ""));
    for word in ["--size", "--four-chance", "--target", "--seed", "slide"] {
        assert!(g.contains(word), "{word} missing from 2048 --help: {g}");
    }
}

#[test]
fn tip_and_autoplay_in_plain_mode() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "21"], "t\np 5\np x\nq\n");
    let text = out(&o);
    assert!(text.contains("Hint: slide "), "{text}");
    assert!(text.contains("auto 5: "), "{text}");
    assert!(text.contains("Autoplay made 5 moves"), "{text}");
    assert!(text.contains("autoplay takes a number of moves"), "{text}");
    assert!(text.contains("5 moves  (assisted)"), "{text}");
}

#[test]
fn auto_is_reproducible_with_a_fixed_depth_and_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "2048", "auto", "--games", "2", "--seed", "5", "--depth", "1", "--size", "3", "--json",
    ];
    let strip = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_str(&out(o)).unwrap();
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["seed"].clone(), g["score"].clone(), g["moves"].clone()))
            .collect::<Vec<_>>()
    };
    let a = strip(&run(dir.path(), &args, ""));
    let b = strip(&run(dir.path(), &args, ""));
    assert_eq!(a, b);
    assert_eq!(a.len(), 2);
    assert_eq!(a[1].0, 6);
    let text = out(&run(
        dir.path(),
        &[
            "2048", "auto", "--games", "1", "--depth", "1", "--size", "3",
        ],
        "",
    ));
    assert!(
        text.contains("seed 1 ") && text.contains("reached:") && text.contains("moves/s"),
        "{text}"
    );
}

/// Issue 10, item 8: 2^63 + 2^63 cannot be a tile; the slide says so instead of answering a wrong board.
#[test]
fn a_merge_that_cannot_be_represented_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &[
            "2048",
            "slide",
            "9223372036854775808,9223372036854775808,0/0,0,0/0,0,0",
            "left",
            "--json",
        ],
        "",
    );
    assert!(!o.status.success(), "{}", out(&o));
    assert!(err(&o).contains("cannot hold"), "{}", err(&o));
    assert!(out(&o).is_empty(), "no board is printed: {}", out(&o));
}

/// Plain mode: `q` goes back at every question (a setup question, a yes/no question, Nocca's "which direction?"),
/// a choice is typed by its first letter (`m` for maker), a game in progress is discarded from the menu (recorded
/// as given up), and a game with no move is not called saved.
#[test]
fn plain_questions_go_back_with_q_take_first_letters_and_discard_games() {
    let dir = tempfile::tempdir().unwrap();
    // q at the first question of 2048's setup: back to the menu, no game started.
    let o = run(dir.path(), &["--plain"], "1\nq\nq\n");
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(!text.contains("Make 2048 to win"), "{text}");
    assert_eq!(
        text.matches("Parlor: classic thinking games").count(),
        2,
        "{text}"
    );
    // `m` for maker; q at the next question goes back.
    let text = out(&run(dir.path(), &["--plain"], "2\n\nm\nq\nq\n"));
    assert!(!text.contains("not one of"), "{text}");
    // A game with no move: quitting keeps nothing and says so.
    let text = out(&run(dir.path(), &["2048", "--seed", "5"], "q\n"));
    assert!(
        text.contains("No move made: there is nothing to keep."),
        "{text}"
    );
    assert!(!text.contains("Game saved."), "{text}");
    // A game with a move is saved; q at a yes/no question goes back and the game goes on. Left then right: on a
    // random board left alone may move nothing, but two or three tiles never block both.
    let text = out(&run(dir.path(), &["2048", "--new"], "a\nd\nx\nq\nq\n"));
    assert!(text.contains("Give up this game? [y/n]"), "{text}");
    assert!(text.contains("Carry on."), "{text}");
    assert!(text.contains("Game saved."), "{text}");
    // The menu lists it, and dN discards it after asking.
    let text = out(&run(dir.path(), &["--plain"], "d1\nn\nd1\ny\nh\nq\n"));
    assert!(text.contains("dN  discard game N"), "{text}");
    assert!(text.contains("Kept."), "{text}");
    assert!(text.contains("Discarded: recorded as game #"), "{text}");
    assert!(text.contains("gave up"), "{text}");
    let text = out(&run(dir.path(), &["--plain"], "q\n"));
    assert!(!text.contains("continue 2048"), "{text}");
}

/// Nocca's "which direction?" is a question too: q cancels the move.
#[test]
fn q_cancels_a_half_typed_nocca_move() {
    let dir = tempfile::tempdir().unwrap();
    let text = out(&run(
        dir.path(),
        &["nocca", "--mode", "two", "--seed", "1"],
        "c1\nq\nq\n",
    ));
    assert!(text.contains("Move cancelled."), "{text}");
    assert!(text.contains("No move made"), "{text}");
}

/// The 2048 hint names the move autoplay plays on the same board (one player, searching to a fixed depth): on 30
/// boards in a row, `t` then `p 1`.
#[test]
fn the_2048_hint_is_the_move_autoplay_plays() {
    let dir = tempfile::tempdir().unwrap();
    let input = "t\np 1\n".repeat(30) + "q\n";
    let o = run(dir.path(), &["2048", "--seed", "11"], &input);
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    let hints: Vec<&str> = text
        .match_indices("Hint: slide ")
        .map(|(i, m)| {
            text[i + m.len()..]
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or_default()
        })
        .collect();
    let played: Vec<&str> = text
        .match_indices("auto 1: ")
        .map(|(i, m)| {
            text[i + m.len()..]
                .lines()
                .next()
                .unwrap_or_default()
                .trim()
        })
        .collect();
    assert_eq!(hints.len(), 30, "{text}");
    assert_eq!(hints, played);
}

/// A variant with no hints (Mastermind with 10 colours and 8 pegs: more codes than the computer searches) does not
/// offer `t hint`, and `t` says why there is none instead of being read as a colour.
#[test]
fn where_there_is_no_hint_t_says_why_and_is_not_offered() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &[
            "mastermind",
            "--variant",
            "custom",
            "--colours",
            "10",
            "--pegs",
            "8",
        ],
        "t\nhint\n?\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(!text.contains("unknown colour 't'"), "{text}");
    assert_eq!(
        text.matches("No hint here: the computer would search all 100,000,000 rows of 8 pegs in 10 colours (1,814,400 of them possible codes), more than its limit of 65,536")
            .count(),
        2,
        "{text}"
    );
    assert!(!text.contains("t hint"), "not offered: {text}");
    assert!(
        text.contains("u undo, x give up, r new game, q quit, ? help"),
        "{text}"
    );
    // Where there are hints, they are offered as before.
    let o = run(dir.path(), &["mastermind", "--new"], "q\n");
    assert!(out(&o).contains("t hint"), "{}", out(&o));
}
