//! The online full screen names its own keys, as the settings bind them (give up on `e`, a new game on `f`),
//! never plain mode's commands; its hint bar follows the state (a challenge under the cursor, a game in play, a
//! question, a game over with a rematch offered), and its help has one heading per key table. Against a real
//! `parlor serve` and a plain-mode opponent, in a pseudo-terminal.

use crate::common::pty::{Key, Pty, Spawn};
use crate::online::{Client, Server, pick};

/// The screen's last row: the hint bar.
fn hint_bar(screen: &str) -> String {
    screen
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}

/// Waits until the screen shows every one of `texts` and its hint bar every one of `hints` (a frame is written in
/// pieces: what one piece shows, the next may not yet), and returns the screen.
fn until(p: &Pty, texts: &[&str], hints: &[&str]) -> String {
    p.wait_until(&format!("{texts:?} with {hints:?} in the bar"), |s| {
        let text = s.contents();
        let bar = hint_bar(&text);
        texts.iter().all(|t| text.contains(t)) && hints.iter().all(|h| bar.contains(h))
    })
}

/// Scrolls the help down until it shows `needle` (a bounded number of lines).
fn scroll_to(p: &mut Pty, needle: &str) {
    for _ in 0..80 {
        if p.text().contains(needle) {
            return;
        }
        p.press(Key::Down);
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    p.wait_for(needle);
}

#[test]
fn the_full_screen_names_its_keys_as_bound_and_its_hint_bar_follows_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let mut bob = Client::start(&server.url, "bob", &dir.path().join("bob"));
    bob.wait_for("connected as bob");
    let ann_dir = dir.path().join("ann");
    std::fs::create_dir_all(&ann_dir).unwrap();
    std::fs::write(
        ann_dir.join("settings.toml"),
        "[keys]\ngive-up = [\"e\"]\nnew-game = [\"f\"]\n",
    )
    .unwrap();
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
        .size(100, 40),
    );
    ann.wait_for("bob 1500");

    // A challenge: the line and the lobby name the keys, and the bar offers the answers to the one under the cursor.
    bob.send("challenge ann 3x3");
    let screen = until(
        &ann,
        &[
            "in the lobby Enter or y accepts it, n declines",
            "Challenges to you (Enter or y accepts, n declines)",
        ],
        &["Enter accept", "n decline", "q quit"],
    );
    assert!(
        !screen.contains("'accept"),
        "no plain-mode command: {screen}"
    );
    ann.press(Key::Enter);
    let line = bob.wait_for("started: bob (black) against ann (white)");
    let id: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    let mv = pick(&game);
    bob.send(&mv.to_string());
    game.play(mv).unwrap();

    // Ann's move: the bar offers the board and resigning on e, as remapped.
    let screen = until(
        &ann,
        &[&format!("Game {id}, move 2: your move")],
        &["select", "e resign", "q lobby"],
    );
    assert!(!hint_bar(&screen).contains("rematch"), "{screen}");
    // x is no longer resigning; e asks, with its answers in the bar.
    ann.press(Key::Char('x'));
    ann.press(Key::Char('e'));
    until(
        &ann,
        &[&format!(
            "Resign game {id}? y Enter resign · n Esc keep playing"
        )],
        &["y Enter resign", "n Esc keep playing"],
    );
    ann.press(Key::Char('n'));
    ann.wait_until("the question gone and the game's bar back", |s| {
        let text = s.contents();
        !text.contains("Resign game") && hint_bar(&text).contains("e resign")
    });

    // The help: a heading per table, the resign key as bound, and the words naming it.
    ann.press(Key::Char('?'));
    until(&ann, &["Lobby:", "Game:"], &[]);
    for needle in [
        "2048 today:",
        "Question:",
        "Typing:",
        "e resigns (asking first)",
    ] {
        scroll_to(&mut ann, needle);
    }
    ann.press(Key::Char('?'));
    ann.wait_for(&format!("Game {id}, move 2: your move"));

    // Bob resigns, then offers a rematch: the bar offers f (new game, remapped) to accept and n to decline.
    bob.send("resign");
    let screen = until(
        &ann,
        &[&format!("Game {id} over: ")],
        &["f rematch", "i import", "q lobby"],
    );
    assert!(!hint_bar(&screen).contains("resign"), "{screen}");
    bob.wait_for(&format!("game {id} over: "));
    bob.send("rematch");
    until(
        &ann,
        &[&format!(
            "bob offers a rematch of game {id}: f accepts, n declines"
        )],
        &["f accept the rematch", "n decline it"],
    );
    ann.press(Key::Char('n'));
    ann.wait_for(&format!("rematch of game {id} declined"));
    bob.wait_for(&format!("the rematch of game {id} was declined"));
    ann.press(Key::Char('q'));
    ann.wait_for("Your games");
    ann.press(Key::Char('q'));
    ann.finish().assert_restored_with(0);
    bob.quit();
}
