//! `parlor online` on the full screen, in a pseudo-terminal, against a plain-mode opponent and a real
//! `parlor serve`: the lobby lists the opponent, a challenge is typed, the game is played to its end with the
//! board's keys (cursor, Enter, the number-pad digits), both sides see the same result, and the finished game is
//! imported into the local history with `i`.

use crate::common::pty::{Key, Pty, Spawn};
use crate::online::{Client, Server, pick};

/// The digit that steps a selected piece the way of the move's direction letter (number-pad layout).
fn digit(mv: nocca::Move) -> char {
    match mv.to_string().chars().last().unwrap() {
        'y' => '7',
        'k' => '8',
        'u' => '9',
        'h' => '4',
        'l' => '6',
        'b' => '1',
        'j' => '2',
        'n' => '3',
        other => panic!("no direction {other}"),
    }
}

#[test]
fn the_full_screen_plays_a_game_against_a_plain_client_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let mut bob = Client::start(&server.url, "bob", &dir.path().join("bob"));
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
        .size(100, 40),
    );
    ann.wait_for("Parlor online · ann · online");
    // The lobby, followed, lists bob with his rating.
    ann.wait_for("bob 1500");
    ann.press(Key::Char('c'));
    ann.wait_for("Challenge: NAME");
    for ch in "bob 3x3".chars() {
        ann.press(Key::Char(ch));
    }
    ann.press(Key::Enter);
    let line = bob.wait_for("challenge ");
    let challenge = line.split_whitespace().nth(1).unwrap().to_string();
    bob.send(&format!("accept {challenge}"));
    let screen = ann.wait_for("your move");
    assert!(screen.contains("ann (black, 1500)"), "{screen}");
    assert!(screen.contains("bob (white, 1500)"), "{screen}");
    assert!(
        screen.contains("goal for Black"),
        "the local board: {screen}"
    );
    let id: u64 = bob
        .wait_for("started: ann (black) against bob (white)")
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    // Where the cursor stands: the middle of Black's home row until it first moves.
    let mut cursor = (0i32, 1i32);
    while !game.is_over() {
        assert!(game.ply() < 600);
        let mv = pick(&game);
        if game.side_to_move() == nocca::Colour::Black {
            ann.wait_for(&format!("move {}: your move", game.ply() + 1));
            let (r, c) = (mv.from.row() as i32, mv.from.col() as i32);
            while cursor.0 < r {
                ann.press(Key::Up);
                cursor.0 += 1;
            }
            while cursor.0 > r {
                ann.press(Key::Down);
                cursor.0 -= 1;
            }
            while cursor.1 < c {
                ann.press(Key::Right);
                cursor.1 += 1;
            }
            while cursor.1 > c {
                ann.press(Key::Left);
                cursor.1 -= 1;
            }
            ann.press(Key::Enter);
            ann.wait_for(&format!("{} selected", mv.from));
            ann.press(Key::Char(digit(mv)));
        } else {
            bob.wait_for(&format!("game {id}: your move (white)"));
            bob.send(&mv.to_string());
        }
        game.play(mv).unwrap();
        bob.wait_for(&format!("game {id}: move {}: ", game.ply()));
    }
    let screen = ann.wait_for(&format!("Game {id} over: "));
    let result = screen
        .lines()
        .find_map(|l| {
            l.split_once(&format!("Game {id} over: "))
                .map(|(_, r)| r.trim().to_string())
        })
        .unwrap();
    let told = bob.wait_for(&format!("game {id} over: "));
    assert!(told.contains(&result), "bob: {told}; ann: {result}");
    // The finished game goes into ann's local history.
    ann.press(Key::Char('i'));
    ann.wait_for(&format!("online game {id} added to the history"));
    ann.press(Key::Char('q'));
    ann.wait_for("Your games");
    ann.press(Key::Char('q'));
    ann.finish().assert_restored_with(0);
    bob.quit();
}
