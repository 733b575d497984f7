//! Suspending the full screen (issue 25): SIGTSTP (`kill -TSTP`) or Ctrl-Z gives the terminal back before the
//! process stops (main screen, cursor shown, mouse reporting off, cooked mode), and SIGCONT takes it back and draws
//! the screen again. Checked on the emulated screen and the pty's modes, as the terminal-ending tests do.

use crate::common::pty::{Key, Pty, Spawn};
use std::path::Path;

/// A 2048 game with one move made, in the full screen.
fn one_move_in(dir: &Path) -> Pty {
    let mut p = Pty::spawn(Spawn::new(dir, &["2048", "--seed", "21"]));
    p.wait_for("Score 0");
    p.press(Key::Right);
    p.wait_for("Moves 1");
    p.wait_until("mouse reporting on", |s| {
        s.mouse_protocol_mode() != vt100::MouseProtocolMode::None
    });
    p
}

/// Stopped: the terminal must be as the shell needs it.
fn assert_given_back(p: &Pty) {
    p.wait_stopped();
    p.wait_until("the main screen, cursor shown, mouse off", |s| {
        !s.alternate_screen()
            && !s.hide_cursor()
            && s.mouse_protocol_mode() == vt100::MouseProtocolMode::None
    });
    let modes = p.modes();
    assert!(
        modes.canonical() && modes.echo() && modes.signals(),
        "raw mode still on while stopped"
    );
}

/// Continued: the full screen is back, in raw mode, drawn again with the game as it was.
fn assert_taken_back(p: &mut Pty, moves: usize) {
    let (now, next) = (format!("Moves {moves}"), format!("Moves {}", moves + 1));
    p.signal(libc::SIGCONT);
    let screen = p.wait_until("the game drawn again on the alternate screen", |s| {
        s.alternate_screen()
            && s.hide_cursor()
            && s.mouse_protocol_mode() != vt100::MouseProtocolMode::None
            && s.contents().contains(&now)
    });
    assert!(screen.contains("Score"), "{screen}");
    assert!(!p.modes().canonical(), "raw mode not taken back");
    // Keys work again.
    p.press(if moves % 2 == 1 {
        Key::Left
    } else {
        Key::Right
    });
    p.wait_for(&next);
}

#[test]
fn sigtstp_gives_the_terminal_back_and_sigcont_takes_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = one_move_in(dir.path());
    p.signal(libc::SIGTSTP);
    assert_given_back(&p);
    assert_taken_back(&mut p, 1);
    // Twice: the second suspend works like the first.
    p.signal(libc::SIGTSTP);
    assert_given_back(&p);
    assert_taken_back(&mut p, 2);
    p.press(Key::Char('q'));
    p.wait_for("Parlor · classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

#[test]
fn ctrl_z_gives_the_terminal_back_and_sigcont_takes_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = one_move_in(dir.path());
    p.press(Key::Ctrl('z'));
    assert_given_back(&p);
    assert_taken_back(&mut p, 1);
    p.press(Key::Char('q'));
    p.wait_for("Parlor · classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}
