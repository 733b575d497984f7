//! Issue 24, cause 2 and the defects of the play screen: the keys named on screen are the keys that work, in this
//! variant (the hint bar comes from the variant's own key table); a key shown on an end screen works there and a
//! key that does nothing is not shown; Backspace erases what was typed and never takes back a guess; undo says
//! what it took back; the codemaker's correction shows the guess corrected; a big variant's `t` is not read as a
//! colour; the full screen says when a game in progress is held by another Parlor.

use crate::common;
use crate::common::app::*;
use parlor::games::mastermind::{Mastermind, Params as MmParams, Role};
use parlor::games::nocca::{Mode, Nocca, Params as NoccaParams};
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::KeyCode;
use parlor::storage::Store;
use parlor::tui::app::App;

/// The hint bar: the last row of the screen drawn at 100 x 24.
fn bar(app: &mut App) -> String {
    screen(app, 100, 24)
        .lines()
        .rev()
        .find(|l| !l.trim_matches(|c| c == '"' || c == ' ').is_empty())
        .unwrap_or_default()
        .to_string()
}

fn mastermind(preset: Option<&'static str>, role: Role) -> App {
    let mut p = MmParams {
        preset,
        role,
        ..MmParams::default()
    };
    if preset.is_none() {
        p.colours = 10;
        p.pegs = 8;
        p.guesses = 12;
    }
    let store = Store::in_memory().unwrap();
    let s = session::<Mastermind>(p, 5, &store);
    game_app(s, store)
}

/// Every colour key the hint bar names in a variant types a peg there, and the bar names the variant's own keys.
#[test]
fn the_hint_bar_names_the_colour_keys_of_each_variant_and_they_work() {
    for (preset, shown, keys) in [
        (Some("classic"), "1-6 RGYUKO colour", "RGYUKO123456"),
        (Some("super"), "1-8 RGYUKOPC colour", "RGYUKOPC12345678"),
        (Some("bulls-cows"), "0-9 colour", "0123456789"),
        (None, "1-9 0 ", "1234567890"),
    ] {
        let mut app = mastermind(preset, Role::Breaker);
        let b = bar(&mut app);
        assert!(b.contains(shown), "{preset:?}: {b}");
        for k in keys.chars() {
            press(&mut app, KeyCode::Char(k));
            let s = screen(&mut app, 100, 24);
            assert!(!s.contains("unknown colour"), "{preset:?} key {k}: {s}");
            press(&mut app, KeyCode::Home);
        }
    }
}

/// Defect: in a variant too big for the computer (10 colours, 8 pegs), `t` was read as a colour ("unknown colour
/// 't'"). It says there is no hint and why, and `t` is not shown.
#[test]
fn a_big_variant_says_why_there_is_no_hint() {
    let mut app = mastermind(None, Role::Breaker);
    let b = bar(&mut app);
    assert!(!b.contains("t hint") && !b.contains("p autoplay"), "{b}");
    press(&mut app, KeyCode::Char('t'));
    let s = screen(&mut app, 100, 24);
    assert!(!s.contains("unknown colour"), "{s}");
    assert!(
        s.contains("no hint here") && s.contains("possible codes"),
        "{s}"
    );
    // `p` is no key of Mastermind's play screen: a lower-case letter types its colour (here P, purple).
    press(&mut app, KeyCode::Char('p'));
    let s = screen(&mut app, 100, 24);
    let row = s
        .lines()
        .find(|l| l.contains("← your guess"))
        .expect("the guess row");
    assert!(row.contains(" P "), "{s}");
}

/// Defect: Backspace while typing a guess took back the last guess played (and marked the game assisted).
/// Backspace erases the last peg typed; with nothing typed it says so and takes nothing back; `u` undoes and
/// says what it took back.
#[test]
fn backspace_erases_the_last_peg_and_never_takes_back_a_guess() {
    let mut app = mastermind(Some("classic"), Role::Breaker);
    type_text(&mut app, "1234");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "56");
    press(&mut app, KeyCode::Backspace);
    let s = screen(&mut app, 100, 24);
    assert!(
        s.contains(" K  ·  ·  ←") || s.contains(" K [·]"),
        "the 6 is erased, the 5 kept: {s}"
    );
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    let s = screen(&mut app, 100, 24);
    assert!(s.contains("nothing typed to erase"), "{s}");
    assert!(
        s.contains("   1   R  G  Y  U"),
        "the guess played is still there: {s}"
    );
    assert!(!s.contains("assisted"), "{s}");
    press(&mut app, KeyCode::Char('u'));
    let s = screen(&mut app, 100, 24);
    assert!(
        s.contains("undo: took back") && s.contains("assisted"),
        "{s}"
    );
    assert!(!s.contains("   1   R  G  Y  U"), "{s}");
}

/// Defect: the hint bar still offered u, t and p after a 2048 game ended. On an end screen the bar names only
/// what works there, and each works.
#[test]
fn the_end_screen_names_only_the_keys_that_work_there() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 3, &store);
    s.resign(&mut store);
    let mut app = game_app(s, store);
    let b = bar(&mut app);
    assert!(b.contains("r new game") && b.contains("q back"), "{b}");
    for gone in ["u undo", "t hint", "p autoplay", "←↓↑→"] {
        assert!(!b.contains(gone), "{gone} on the end screen: {b}");
    }
    press(&mut app, KeyCode::Char('r'));
    let s = screen(&mut app, 100, 24);
    assert!(!s.contains("Game over"), "r starts a new game: {s}");
    // And for the other games, the same.
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Nocca>(
        NoccaParams {
            mode: Mode::Two,
            ..NoccaParams::default()
        },
        3,
        &store,
    );
    s.resign(&mut store);
    let mut app = game_app(s, store);
    let b = bar(&mut app);
    assert!(!b.contains("undo") && !b.contains("values"), "{b}");
    press(&mut app, KeyCode::Char('q'));
    assert!(
        screen(&mut app, 100, 24).contains("New game: 2048"),
        "q goes back"
    );
}

/// Every entry of the hint bar of every game's play screen names keys that do something there (no "does nothing
/// here"), in several variants.
#[test]
fn every_key_in_the_hint_bar_does_something() {
    let apps: Vec<(&str, App)> = vec![
        ("classic", mastermind(Some("classic"), Role::Breaker)),
        ("bulls-cows", mastermind(Some("bulls-cows"), Role::Breaker)),
        ("custom", mastermind(None, Role::Breaker)),
        ("codemaker", mastermind(Some("classic"), Role::Maker)),
        ("2048", {
            let store = Store::in_memory().unwrap();
            let s = session::<Twenty48>(Params::default(), 3, &store);
            game_app(s, store)
        }),
        ("nocca", {
            let store = Store::in_memory().unwrap();
            let s = session::<Nocca>(
                NoccaParams {
                    mode: Mode::Two,
                    ..NoccaParams::default()
                },
                3,
                &store,
            );
            game_app(s, store)
        }),
    ];
    for (name, mut app) in apps {
        let b = bar(&mut app);
        for entry in b.trim_matches('"').split(" · ") {
            let key = entry.split(' ').next().unwrap_or("");
            // Single keys only (ranges and arrows are checked above or by the games' own tests).
            let code = match key {
                "Enter" => KeyCode::Enter,
                k if k.chars().count() == 1 => KeyCode::Char(k.chars().next().unwrap()),
                _ => continue,
            };
            if matches!(
                code,
                KeyCode::Char('q') | KeyCode::Char('?') | KeyCode::Char('x') | KeyCode::Char('r')
            ) {
                continue;
            }
            press(&mut app, code);
            let s = screen(&mut app, 100, 24);
            assert!(!s.contains("does nothing here"), "{name}: {entry}: {s}");
        }
    }
}

/// Defect: while an earlier answer was corrected, "Guess:" showed the computer's newest guess, and the row of the
/// guess waiting for an answer disappeared.
#[test]
fn the_codemakers_correction_shows_the_guess_corrected_and_keeps_the_waiting_row() {
    let mut app = mastermind(Some("classic"), Role::Maker);
    press(&mut app, KeyCode::Enter);
    let _ = wait_until(&mut app, |s| s.contains("answer this guess"));
    type_text(&mut app, "1 1");
    press(&mut app, KeyCode::Enter);
    let _ = wait_until(&mut app, |s| s.contains("answer this guess"));
    press(&mut app, KeyCode::Up);
    let s = screen(&mut app, 80, 24);
    assert!(
        s.contains("answer this guess"),
        "the waiting row stays: {s}"
    );
    assert!(s.contains("Guess 1:"), "{s}");
    assert!(s.contains("Correct answer 1"), "{s}");
}

/// Defect: `parlor 2048` on the full screen started a new game silently when the game in progress was held by
/// another Parlor; plain mode said so. The full screen says it too, on the play screen.
#[test]
fn the_full_screen_says_when_the_game_in_progress_is_held_elsewhere() {
    use crate::common::pty::{Pty, Spawn};
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let first = common::run(dir.path(), &["2048"], "a\nd\nq\n");
    assert!(
        common::out(&first).contains("Game saved."),
        "{}",
        common::out(&first)
    );
    let mut holder = common::parlor(dir.path(), &["2048"])
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
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048"]).size(100, 30));
    let s = p.wait_for("another Parlor");
    assert!(s.contains("a new game starts"), "{s}");
    p.press(common::pty::Key::Char('q'));
    p.press(common::pty::Key::Char('q'));
    let _ = p.finish();
    let _ = holder.kill();
    let _ = holder.wait();
}

fn nocca(params: NoccaParams) -> App {
    let store = Store::in_memory().unwrap();
    let s = session::<Nocca>(params, 3, &store);
    game_app(s, store)
}

/// Missing: Nocca's watch mode had no speed nor pause keys. `p` pauses and goes on, `+` and `-` change the pace,
/// and the bar and help say so.
#[test]
fn watch_mode_pauses_and_changes_pace() {
    let mut app = nocca(NoccaParams {
        mode: Mode::Watch,
        board: "3x3".parse().unwrap(),
        ..NoccaParams::default()
    });
    let b = bar(&mut app);
    assert!(b.contains("p pause or go on"), "{b}");
    press(&mut app, KeyCode::Char('+'));
    assert!(screen(&mut app, 100, 24).contains("watching at 200 ms/move"));
    press(&mut app, KeyCode::Char('p'));
    assert!(screen(&mut app, 100, 24).contains("paused: p goes on"));
    let before = screen(&mut app, 100, 24);
    for _ in 0..30 {
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let plies = |s: &str| {
        s.lines()
            .find(|l| l.contains("Plies"))
            .unwrap_or("")
            .to_string()
    };
    // A move already being thought of when p was pressed may still land; none after it.
    let paused = plies(&screen(&mut app, 100, 24));
    for _ in 0..30 {
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        paused,
        plies(&screen(&mut app, 100, 24)),
        "paused: {before}"
    );
    press(&mut app, KeyCode::Char('p'));
    let s = wait_until(&mut app, |s| plies(s) != paused || s.contains("Game over"));
    assert!(!s.contains("paused"), "{s}");
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 100, 40);
    assert!(
        help.contains("pause or go on") && help.contains("faster"),
        "{help}"
    );
}

/// Missing: `v` on a board without a solved table did nothing ("does nothing here"); it says why.
#[test]
fn values_on_an_unsolved_board_say_why_there_are_none() {
    let mut app = nocca(NoccaParams {
        mode: Mode::Two,
        ..NoccaParams::default()
    });
    assert!(!bar(&mut app).contains("values"));
    press(&mut app, KeyCode::Char('v'));
    let s = screen(&mut app, 100, 24);
    assert!(s.contains("no values on this board"), "{s}");
    assert!(!s.contains("does nothing"), "{s}");
}

/// `v` in a two-player game on a board without a table says why without speaking of a level (none is played):
/// not "perfect level: ... choose another level".
#[test]
fn values_on_an_unsolved_board_speak_of_the_table_not_of_a_level() {
    let mut app = nocca(NoccaParams {
        mode: Mode::Two,
        ..NoccaParams::default()
    });
    press(&mut app, KeyCode::Char('v'));
    let s = screen(&mut app, 100, 24);
    assert!(
        s.contains("no values on this board: exact values need its solved table (no 6x5 table"),
        "{s}"
    );
    assert!(
        !s.contains("perfect level") && !s.contains("another level"),
        "{s}"
    );
}

/// Defects: the exact hint ran two sentences together and its move list was cut; the full screen moves with
/// digits but `v` listed plain mode's letters. The hint is whole sentences naming squares and the digit to press,
/// and `v` lists every move by its digit.
#[test]
fn the_exact_hint_and_the_values_use_the_screens_own_notation() {
    let mut app = nocca(NoccaParams {
        mode: Mode::Two,
        board: "3x3".parse().unwrap(),
        ..NoccaParams::default()
    });
    press(&mut app, KeyCode::Char('t'));
    let s = wait_until(&mut app, |s| s.contains("(exact)"));
    let hint: String = s
        .lines()
        .skip_while(|l| !l.contains("hint"))
        .take(3)
        .map(|l| l.trim_matches(|c| c == '"' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(hint.contains("→") && hint.contains("(select "), "{hint}");
    assert!(
        hint.contains(". Black to move: ") && hint.contains("(exact); v lists every move's value"),
        "{hint}"
    );
    press(&mut app, KeyCode::Char('v'));
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("Each piece, then the digit of each step"), "{s}");
    for letter_move in ["a1k", "b1k", "c1k", "a1u", "b1y"] {
        assert!(
            !s.contains(letter_move),
            "{letter_move} in plain notation: {s}"
        );
    }
    let values = s
        .lines()
        .find(|l| l.contains("a1: "))
        .unwrap_or_else(|| panic!("a1's moves listed: {s}"));
    assert!(
        [
            "8\u{a0}W", "8\u{a0}L", "8\u{a0}D", "9\u{a0}W", "9\u{a0}L", "9\u{a0}D"
        ]
        .iter()
        .any(|m| values.contains(m)),
        "{values}"
    );
}

/// A codemaker typing the hidden code was shown the answering keys (`2 1 / RRW answer`, `↑↓ pick the answer to
/// fix`), which do nothing then. The bar names what works at that moment; the help names each variant's colour
/// keys.
#[test]
fn the_codemaker_typing_the_code_is_shown_the_keys_of_the_code() {
    let mut app = mastermind(Some("classic"), Role::Maker);
    let b = bar(&mut app);
    assert!(
        b.contains("1-6 RGYUKO colour") && b.contains("Enter hide the code"),
        "{b}"
    );
    assert!(!b.contains("RRW") && !b.contains("↑↓"), "{b}");
    press(&mut app, KeyCode::Enter);
    let b = bar(&mut app);
    assert!(b.contains("2 1 / RRW answer"), "{b}");
    let mut app = mastermind(Some("super"), Role::Breaker);
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 100, 40);
    assert!(help.contains("R G Y U K O P C or 1-8"), "{help}");
}
