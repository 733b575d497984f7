//! The look and feel of the full screen in a real pseudo-terminal (`common::pty`): a screen too small for its
//! board takes no key but quit and help, and a key pressed during a 2048 animation acts at once.

use crate::common::pty::{Key, Pty, Spawn};
use parlor::storage::Storage;
use std::path::Path;

/// The moves of each game in progress saved in `dir`.
fn saved_moves(dir: &Path) -> Vec<String> {
    parlor::storage::Store::open(dir)
        .unwrap()
        .store
        .unfinished(None)
        .unwrap()
        .into_iter()
        .map(|g| g.moves)
        .collect()
}

/// Issue 10, item 9: while the screen is too small to show the board, no key reaches the game (nothing is played
/// blind): only help and quit work. The test waits for the screen before each step: keys are sent once "terminal
/// too small" shows, and the help opening proves every key before it was read (keys are read in order).
#[test]
fn a_screen_too_small_takes_no_key_but_quit_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "4"]));
    p.wait_for("Score 0");
    p.press(Key::Left);
    p.wait_for("Moves 1");
    assert_eq!(saved_moves(dir.path()), vec!["left".to_string()]);
    p.resize(30, 8);
    p.wait_for("terminal too small");
    for k in [
        Key::Left,
        Key::Right,
        Key::Up,
        Key::Down,
        Key::Char('u'),
        Key::Char('r'),
        Key::Char('x'),
        Key::Enter,
    ] {
        p.press(k);
    }
    p.press(Key::Char('?'));
    p.wait_for("Help: 2048");
    assert_eq!(
        saved_moves(dir.path()),
        vec!["left".to_string()],
        "no move, undo or new game was taken while the board was hidden"
    );
    p.press(Key::Char('?'));
    p.wait_for("terminal too small");
    // Back to a size that fits: the board shows the one move made.
    p.resize(80, 24);
    // The whole frame is drawn once its last row (the hint bar) is on screen.
    let text = p.wait_until("the board again", |s| {
        let t = s.contents();
        t.contains("Score") && t.contains("? help")
    });
    assert!(text.contains("Moves 1"), "{text}");
    assert!(
        !text.contains("Game over") && !text.contains("Give up?"),
        "{text}"
    );
    p.resize(30, 8);
    p.wait_for("terminal too small");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
    assert_eq!(
        saved_moves(dir.path()),
        vec!["left".to_string()],
        "the game is kept as it was"
    );
}

/// The rows of the 2048 board on the screen (from its top border to its bottom one).
fn board_rows(text: &str) -> String {
    text.lines()
        .skip_while(|l| !l.contains('┌'))
        .take_while(|l| !l.contains('└'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 11: a key pressed during an animation finishes it at once and acts. The animation is lengthened to a
/// minute (a test hook) so that the keys surely land in the middle of it.
#[test]
fn a_key_pressed_mid_animation_finishes_it_and_acts_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(
        Spawn::new(dir.path(), &["2048", "--seed", "4"]).env("PARLOR_TEST_ANIMATION_MS", "60000"),
    );
    // The first frame is whole once its last row (the hint bar) is on screen.
    let start = p.wait_until("the first frame", |s| {
        let t = s.contents();
        t.contains("Score 0") && t.contains("? help")
    });
    p.press(Key::Left);
    let moving = p.wait_for("Moves 1");
    // The move is made (and saved) at once; the board still shows its first frame: the tiles where they were.
    assert_eq!(board_rows(&moving), board_rows(&start), "{moving}");
    assert!(!board_rows(&moving).contains('+'), "{moving}");
    assert_eq!(saved_moves(dir.path()), vec!["left".to_string()]);
    // Any key ends the animation: the board after the move shows, its new tile marked.
    p.press(Key::Char('z'));
    p.wait_until("the board after the move, its new tile marked", |s| {
        let t = s.contents();
        t.contains("does nothing here") && board_rows(&t).contains('+')
    });
    // A move in the middle of the next animation acts at once.
    p.press(Key::Right);
    p.wait_for("Moves 2");
    p.press(Key::Down);
    p.wait_for("Moves 3");
    p.press(Key::Char('q'));
    p.wait_for("classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
    assert_eq!(saved_moves(dir.path()), vec!["left right down".to_string()]);
}

/// `--no-animation`: the board after a move shows with the move.
#[test]
fn no_animation_shows_the_board_after_the_move_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(
        Spawn::new(dir.path(), &["2048", "--seed", "4", "--no-animation"])
            .env("PARLOR_TEST_ANIMATION_MS", "60000"),
    );
    p.wait_for("Score 0");
    p.press(Key::Left);
    p.wait_until("the new tile marked with the move", |s| {
        let t = s.contents();
        t.contains("Moves 1") && board_rows(&t).contains('+')
    });
    p.press(Key::Char('q'));
    p.wait_for("classic thinking games");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

/// The same, with the terminal enlarged right after the keys, before the program has read them: the keys were
/// typed at the "too small" screen, so none reaches the game. A pseudo-terminal hands typed bytes on
/// asynchronously, so the resize (a signal) can overtake them: the program refuses keys for a moment after the
/// board shows again ([`parlor::tui::app::BLIND_GRACE`]). And a key arriving with the resize is not left unread
/// (crossterm's `use-dev-tty` source polls level-triggered; its default edge-triggered source could leave such a
/// key in the terminal until the next one came).
#[test]
fn keys_typed_while_too_small_are_refused_even_if_the_terminal_grows_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "4"]));
    p.wait_for("Score 0");
    p.press(Key::Left);
    p.wait_for("Moves 1");
    p.resize(30, 8);
    p.wait_for("terminal too small");
    p.press_all(&[Key::Right, Key::Up, Key::Down, Key::Left]);
    p.resize(80, 24);
    // `?` after the resize: once its help shows, every key before it has been read.
    p.press(Key::Char('?'));
    p.wait_for("Help: 2048");
    assert_eq!(saved_moves(dir.path()), vec!["left".to_string()]);
    p.press(Key::Char('?'));
    let text = p.wait_until("the board again", |s| {
        let t = s.contents();
        t.contains("Score") && t.contains("? help") && !t.contains("Help: 2048")
    });
    assert!(text.contains("Moves 1"), "{text}");
    // Ctrl-C quits from anywhere (`q` just after the board came back would still be the "too small" quit).
    p.press(Key::Ctrl('c'));
    p.finish().assert_restored_with(0);
    assert_eq!(saved_moves(dir.path()), vec!["left".to_string()]);
}
