//! `parlor online` on the full screen, in a pseudo-terminal, against a real `parlor serve`: today's ranked 2048
//! played on the screen, dealt by the server tile by tile (its score the one ranked), a guess at today's Mastermind scored by
//! the server, and both leaderboards (2048's with the player first); and a challenge declined by a plain-mode player, which the challenger's screen
//! says. Every wait is bounded.

use crate::common::pty::{Key, Pty, Spawn};
use crate::online::{Client, Server};
use std::path::Path;

/// `parlor online` on the full screen as `name`, its configuration in `dir`.
fn full_screen(url: &str, name: &str, dir: &Path) -> Pty {
    let dir_s = dir.display().to_string();
    Pty::spawn(
        Spawn::new(
            dir,
            &["online", url, "--name", name, "--config-dir", &dir_s],
        )
        .size(100, 40),
    )
}

#[test]
fn the_full_screen_plays_the_daily_challenges_and_reads_their_leaderboards() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let mut dana = full_screen(&server.url, "dana", &dir.path().join("dana"));
    dana.wait_for("Parlor online · dana · online");
    // Today's ranked 2048 on the screen: its board, each slide sent by the arrows and its tile drawn as the server
    // places it.
    dana.press(Key::Char('2'));
    dana.wait_for("· score 0 · moves 0");
    for _ in 0..4 {
        dana.press_all(&[Key::Left, Key::Down, Key::Right, Key::Up]);
    }
    // Each answer takes the loopback's time: the game is read once its header stays the same for half a second.
    let header = |s: &str| {
        s.lines()
            .find(|l| l.contains("ranked 2048 of the day "))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let mut seen = header(&dana.text());
    for _ in 0..40 {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let now = header(&dana.text());
        if now == seen {
            break;
        }
        seen = now;
    }
    let score: u64 = seen
        .split(" · score ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("a score in {seen:?}"));
    assert!(!seen.contains("· moves 0"), "slides were played: {seen}");
    dana.press(Key::Char('q'));
    dana.wait_for(&format!("left at {score} points: the server keeps it"));
    // Today's Mastermind: a guess typed after m, scored by the server.
    dana.press(Key::Char('m'));
    dana.wait_for("Today's Mastermind: a code");
    for ch in "rgyu".chars() {
        dana.press(Key::Char(ch));
    }
    dana.press(Key::Enter);
    dana.wait_for("guess 1: RED GREEN YELLOW BLUE -> ");
    // D: both days' boards: dana's 2048 ranked by the server's score; Mastermind ranks only the solved.
    dana.press(Key::Char('D'));
    let boards = dana.wait_until("both leaderboards", |s| {
        let text = s.contents();
        text.contains("2048 of the day ")
            && text.contains(", plain board:")
            && text.contains("Mastermind of the day ")
            && text.matches(", plain board:").count() >= 2
    });
    assert!(
        boards.contains(&format!("1. dana {score} ")),
        "dana first on 2048's ranked board with the server's score: {boards}"
    );
    dana.press(Key::Char('q'));
    dana.finish().assert_restored_with(0);
}

#[test]
fn a_challenge_declined_is_said_on_the_challengers_screen() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let mut bob = Client::start(&server.url, "bob", &dir.path().join("bob"));
    bob.wait_for("connected as bob");
    let mut ann = full_screen(&server.url, "ann", &dir.path().join("ann"));
    ann.wait_for("bob 1500");
    ann.press(Key::Char('c'));
    ann.wait_for("Challenge: NAME");
    for ch in "bob 3x3 5+3".chars() {
        ann.press(Key::Char(ch));
    }
    ann.press(Key::Enter);
    ann.wait_for("Challenges sent (n cancels)");
    let line = bob.wait_for("challenge ");
    let challenge: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("a challenge number in {line:?}"));
    assert!(line.contains("from ann on 3x3, 5+3"), "{line}");
    bob.send(&format!("decline {challenge}"));
    let screen = ann.wait_for(&format!("challenge {challenge} closed: declined"));
    assert!(
        !screen.contains("Challenges sent (n cancels)"),
        "the declined challenge leaves the list: {screen}"
    );
    bob.wait_for(&format!("challenge {challenge} closed: declined"));
    ann.press(Key::Char('q'));
    ann.finish().assert_restored_with(0);
    bob.quit();
}
