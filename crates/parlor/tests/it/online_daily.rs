//! `parlor online` on the full screen, in a pseudo-terminal, against a real `parlor serve`: today's 2048 played on
//! the screen and handed in (the server's score the same as the screen's), a guess at today's Mastermind scored by
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
    // Today's 2048 on the screen: its board, slides by the arrows, handed in with Enter.
    dana.press(Key::Char('2'));
    dana.wait_for("· score 0 · actions 0");
    for _ in 0..4 {
        dana.press_all(&[Key::Left, Key::Down, Key::Right, Key::Up]);
    }
    // A slide that moves nothing is refused and not counted (the day's seed is the server's secret's), so the count
    // is not known here; the keys are read in order, so Enter hands in after the last of them.
    dana.press(Key::Enter);
    let screen = dana.wait_for("scored by the server: ");
    let handed = screen
        .lines()
        .find_map(|l| {
            let rest = l.split_once("handed in with ")?.1;
            rest.split_whitespace().next()?.parse::<u64>().ok()
        })
        .unwrap_or_else(|| panic!("the score handed in: {screen}"));
    assert!(
        screen.contains(&format!("scored by the server: {handed} points")),
        "the server's score is the screen's ({handed}): {screen}"
    );
    assert!(screen.contains("rank 1 on the plain board"), "{screen}");
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
        boards.contains(&format!("1. dana {handed} ")),
        "dana first on 2048's board with the server's score: {boards}"
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
