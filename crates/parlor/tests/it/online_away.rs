//! An opponent whose connection drops, against a real `parlor serve`: plain mode and the full screen say that they
//! are away with the grace period left, the full screen counts it down, and both say when they are back.

use crate::common::pty::{Pty, Spawn};
use crate::online::{Client, Server, pick, start_game};

/// The seconds left that the screen shows in "away, N s left", if it shows it.
fn seconds_left(screen: &str) -> Option<u64> {
    let (_, rest) = screen.split_once("away, ")?;
    rest.split_once(" s left")?.0.trim().parse().ok()
}

#[test]
fn plain_mode_says_an_opponent_away_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let bob_dir = dir.path().join("bob");
    let mut ann = Client::start(&server.url, "ann", &dir.path().join("ann"));
    let mut bob = Client::start(&server.url, "bob", &bob_dir);
    let id = start_game(&mut ann, &mut bob, "4x4");
    let mut game = nocca::Game::new("4x4".parse().unwrap(), nocca::GameOptions::default());
    let mv = pick(&game);
    ann.send(&mv.to_string());
    game.play(mv).unwrap();
    bob.wait_for(&format!("game {id}: move 1: "));
    bob.kill();
    // The server holds bob's seat for its grace period (60 s): ann is told, with the time left.
    let line = ann.wait_for(&format!("game {id}: opponent bob (white) away, "));
    let left = seconds_left(&line).unwrap_or_else(|| panic!("{line}"));
    assert!((55..=60).contains(&left), "{line}");
    assert!(line.ends_with(" s left to come back"), "{line}");
    let mut bob = Client::start(&server.url, "bob", &bob_dir);
    bob.wait_for(&format!("game {id} in play as white against ann"));
    ann.wait_for(&format!("game {id}: opponent bob (white) back"));
    // Bob, back, plays on; nothing says he is away any more.
    bob.wait_for(&format!("game {id}: your move (white)"));
    let mv = pick(&game);
    bob.send(&mv.to_string());
    ann.wait_for(&format!("game {id}: move 2: "));
    assert_eq!(
        ann.text().matches("opponent bob (white) away").count(),
        1,
        "{}",
        ann.text()
    );
    ann.quit();
    bob.quit();
}

#[test]
fn the_full_screen_counts_an_opponent_away_down_and_says_they_are_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let bob_dir = dir.path().join("bob");
    let mut bob = Client::start(&server.url, "bob", &bob_dir);
    bob.wait_for("connected as bob");
    let ann_dir = dir.path().join("ann");
    let ann_dir_s = ann_dir.display().to_string();
    let mut ann = Pty::spawn(
        Spawn::new(
            &ann_dir,
            &[
                "online",
                &server.url,
                "--name",
                "ann",
                "--config-dir",
                &ann_dir_s,
            ],
        )
        .size(100, 30),
    );
    ann.wait_for("bob 1500");
    bob.send("challenge ann 3x3");
    ann.wait_for("bob challenges you on 3x3");
    ann.press(crate::common::pty::Key::Enter);
    let line = bob.wait_for("started: bob (black) against ann (white)");
    let id: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    ann.wait_for(&format!("Game {id}, move 1: waiting for bob"));
    bob.kill();
    // On the game, a line of its own counts bob's grace period down, second by second.
    let first = ann.wait_for("Opponent bob (black) away, ");
    let shown = seconds_left(&first).unwrap_or_else(|| panic!("{first}"));
    assert!((55..=60).contains(&shown), "{first}");
    ann.wait_until("the count going down", |s| {
        seconds_left(&s.contents()).is_some_and(|n| n < shown)
    });
    // The lobby's row of the game says it too.
    ann.press(crate::common::pty::Key::Char('\t'));
    let lobby = ann.wait_for("Your games");
    assert!(
        lobby.contains("opponent bob (black) away, "),
        "the lobby: {lobby}"
    );
    ann.press(crate::common::pty::Key::Char('\t'));
    ann.wait_for(&format!("Game {id}, move 1: waiting for bob"));
    let _bob = Client::start(&server.url, "bob", &bob_dir);
    let back = ann.wait_for(&format!("game {id}: opponent bob (black) back"));
    assert!(!back.contains("away, "), "the count is gone: {back}");
    ann.press(crate::common::pty::Key::Char('q'));
    ann.wait_for("Your games");
    ann.press(crate::common::pty::Key::Char('q'));
    ann.finish().assert_restored_with(0);
}
