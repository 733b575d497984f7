//! The real binary in a pseudo-terminal (`common::pty`: portable-pty and the vt100 emulator, no outside program):
//! start, move, undo, help, resize, quit; and every way the full-screen interface can end (`q`, Ctrl-C as a key,
//! SIGINT, SIGQUIT, SIGTERM, SIGHUP, the terminal closing, a panic) gives the terminal back: line discipline as
//! before (echo, canonical input), main screen, cursor shown, mouse reporting off, and the game in progress kept.

use crate::common::pty::{Key, Pty, Spawn};
use parlor::storage::Storage;
use std::path::Path;

/// The games in progress saved in `dir`, as (seed, moves).
fn unfinished(dir: &Path) -> Vec<(u64, String)> {
    parlor::storage::Store::open(dir)
        .unwrap()
        .store
        .unfinished(None)
        .unwrap()
        .into_iter()
        .map(|g| (g.seed, g.moves))
        .collect()
}

/// Starts 2048 with `seed`, makes one move to the right and waits for it to be shown.
fn one_move_in(dir: &Path, seed: &str) -> Pty {
    let mut p = Pty::spawn(Spawn::new(dir, &["2048", "--seed", seed]));
    p.wait_for("Score 0");
    p.press(Key::Right);
    p.wait_for("Moves 1");
    p
}

#[test]
fn play_undo_help_quit_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "3"]));
    p.wait_for("Score 0");
    // Text and modes are written separately: wait for each mode rather than sample it once.
    p.wait_until("the alternate screen", |s| s.alternate_screen());
    p.wait_until("the cursor hidden", |s| s.hide_cursor());
    p.wait_until("mouse capture on (the default)", |s| {
        s.mouse_protocol_mode() != vt100::MouseProtocolMode::None
    });
    p.press(Key::Left);
    p.wait_for("Moves 1");
    p.press(Key::Down);
    p.wait_for("Moves 2");
    p.press(Key::Char('u'));
    p.wait_for("assisted");
    p.press(Key::Char('?'));
    p.wait_for("Help: 2048");
    p.press(Key::Char('?'));
    p.wait_until("the help closed", |s| !s.contents().contains("Help: 2048"));
    p.press(Key::Char('q'));
    p.wait_for("Parlor · classic thinking games");
    p.press(Key::Char('?'));
    p.wait_for("Help:");
    p.press(Key::Esc);
    p.wait_until("the menu's help closed", |s| {
        !s.contents().contains("Help:")
    });
    p.press(Key::Char('q'));
    let end = p.finish();
    end.assert_restored_with(0);
    assert_eq!(unfinished(dir.path()).len(), 1, "the game is kept");
}

#[test]
fn no_mouse_leaves_mouse_reporting_off() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["--no-mouse"]));
    p.wait_for("Parlor · classic thinking games");
    // The first frame is complete once the cursor is hidden; mouse capture would have been asked for before it.
    p.wait_until("the first frame drawn", |s| s.hide_cursor());
    p.with_screen(|s| {
        assert!(s.alternate_screen());
        assert_eq!(s.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    });
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

#[test]
fn resize_shows_too_small_and_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "4"]));
    p.wait_for("Score 0");
    p.resize(30, 8);
    p.wait_for("terminal too small");
    p.resize(80, 24);
    p.wait_for("Score 0");
    p.press(Key::Char('q'));
    p.wait_for("Parlor · classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

#[test]
fn starts_too_small_then_grows() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "4"]).size(20, 6));
    p.wait_for("too small");
    p.resize(100, 30);
    p.wait_for("Score 0");
    p.press(Key::Char('q'));
    p.wait_for("Parlor · classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

#[test]
fn ctrl_c_key_quits_restores_and_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = one_move_in(dir.path(), "5");
    p.press(Key::Ctrl('c'));
    p.finish().assert_restored_with(0);
    assert_eq!(unfinished(dir.path()), vec![(5, "right".to_string())]);
}

/// `signal` sent to the program mid-game ends it cleanly: terminal restored, game kept.
fn signal_quits_cleanly(signal: i32, seed: &str) {
    let dir = tempfile::tempdir().unwrap();
    let p = one_move_in(dir.path(), seed);
    p.signal(signal);
    p.finish().assert_restored_with(0);
    assert_eq!(
        unfinished(dir.path()),
        vec![(seed.parse().unwrap(), "right".to_string())]
    );
}

#[test]
fn sigint_quits_cleanly() {
    signal_quits_cleanly(libc::SIGINT, "11");
}

#[test]
fn sigquit_quits_cleanly() {
    signal_quits_cleanly(libc::SIGQUIT, "12");
}

#[test]
fn sigterm_quits_cleanly() {
    signal_quits_cleanly(libc::SIGTERM, "13");
}

#[test]
fn sighup_quits_cleanly() {
    signal_quits_cleanly(libc::SIGHUP, "14");
}

#[test]
fn sigterm_in_the_menu_quits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let p = Pty::spawn(Spawn::new(dir.path(), &[]));
    p.wait_for("Parlor · classic thinking games");
    p.signal(libc::SIGTERM);
    p.finish().assert_restored_with(0);
}

#[test]
fn a_panic_restores_the_terminal_and_shows_its_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut p =
        Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "6"]).env("PARLOR_TEST_PANIC", "1"));
    p.wait_for("Score 0");
    p.press(Key::F(12));
    let end = p.finish();
    end.assert_restored_with(101);
    assert!(
        end.text().contains("test panic requested"),
        "the panic message is on the main screen:\n{}",
        end.text()
    );
}

#[test]
fn closing_the_terminal_ends_the_process_and_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "8"]));
    p.wait_for("Score 0");
    p.press(Key::Up);
    p.wait_for("Moves 1");
    p.close_terminal();
    let exit = p.wait_exit();
    assert!(
        exit.signal.is_none() || exit.signal.as_deref() == Some("Hangup"),
        "{exit:?}"
    );
    assert_eq!(unfinished(dir.path()), vec![(8, "up".to_string())]);
}

/// Issue 10, item 9: a terminal that cannot move its cursor (`TERM=dumb`) gets plain mode, not the full screen.
#[test]
fn term_dumb_plays_in_plain_mode() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "3"]).env("TERM", "dumb"));
    p.wait_for("2048 on 4x4, seed 3");
    p.wait_until("no alternate screen", |s| !s.alternate_screen());
    p.press_all(&[Key::Left, Key::Enter]);
    p.press_all(&[Key::Char('q'), Key::Enter]);
    // No move was made (an arrow is no plain command): nothing is kept, and plain mode says so (issue 24).
    p.wait_for("No move made: there is nothing to keep.");
}
