//! A past day's games through `parlor online` against a real `parlor serve`: yesterday's ranked 2048 and
//! Mastermind of a player, kept in the server's database as the server keeps them, are said by plain mode's `past`
//! (the seed, the slides and the score; the secret and the guesses), and the deal it names is the same game: the
//! slides played in `parlor 2048 --seed S` reach the server's score. Every wait is bounded.

use crate::common::BIN;
use crate::online::{Client, Server};
use parlor_online::protocol::{actions_to_letters, utc_day};
use parlor_server::daily::{mastermind_seed, score_guess};
use parlor_server::ranked::ranked_seed;
use parlor_server::store::{DailyGuess, Ranked2048, now_unix_ms};
use parlor_server::{SqliteStore, Store};
use std::io::Write;
use std::process::{Command, Stdio};
use twenty48::{Action, Direction};

/// Keeps `name`'s ranked 2048 of `day` (up to 20 slides, the first of left, down, right, up that moves) and one
/// Mastermind guess in the store in `dir`, as the server keeps them: the slides and the score.
fn keep_a_day(dir: &std::path::Path, day: &str, name: &str) -> (Vec<Direction>, u64) {
    let mut store = SqliteStore::open(dir).unwrap();
    let secret = store.secret().unwrap();
    let mut game = twenty48::Game::new(twenty48::Rules::default(), ranked_seed(&secret, day, name));
    store
        .start_ranked_2048(day, name, game.board().max_tile())
        .unwrap();
    let mut slides = Vec::new();
    'play: while slides.len() < 20 {
        for d in [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ] {
            if game.slide(d).is_ok() {
                slides.push(d);
                continue 'play;
            }
        }
        break;
    }
    let actions: Vec<Action> = slides.iter().map(|&d| Action::Slide(d)).collect();
    let kept = Ranked2048 {
        day: day.into(),
        name: name.into(),
        slides: actions_to_letters(&actions),
        score: game.score(),
        max_tile: game.board().max_tile(),
        over: false,
    };
    assert!(store.slide_ranked_2048("", &kept).unwrap());
    store.start_mastermind(day, name).unwrap();
    let scored = score_guess(mastermind_seed(&secret, day, name), &[], "RGYU").unwrap();
    assert!(
        store
            .add_guess(&DailyGuess {
                day: day.into(),
                name: name.into(),
                n: 1,
                code: scored.code,
                black: scored.black,
                white: scored.white,
                solved: scored.solved,
            })
            .unwrap()
    );
    (slides, game.score())
}

#[test]
fn past_says_yesterdays_seeds_and_its_deal_plays_again_locally() {
    let dir = tempfile::tempdir().unwrap();
    let server_dir = dir.path().join("server");
    std::fs::create_dir_all(&server_dir).unwrap();
    let yesterday = utc_day(now_unix_ms() - 86_400_000);
    let (slides, score) = keep_a_day(&server_dir, &yesterday, "ann");
    let server = Server::start(&server_dir);
    let mut ann = Client::start(&server.url, "ann", &dir.path().join("ann"));
    ann.wait_for("connected as ann");
    ann.send("past");
    let line = ann.wait_for(&format!("ranked 2048 of {yesterday}: "));
    assert!(
        line.contains(&format!("{} slides, {score} points", slides.len())),
        "{line}"
    );
    let seed: u64 = line
        .split("parlor 2048 --seed ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in {line}"));
    let secret = ann.wait_for(&format!(
        "Mastermind of {yesterday} (classic): the secret was "
    ));
    assert!(secret.contains("1 guesses made"), "{secret}");
    // Today's is refused by the server, plainly.
    ann.send(&format!("past {}", utc_day(now_unix_ms())));
    ann.wait_for("is not over yet");
    ann.quit();

    // The deal named is the same game: the slides played locally reach the server's score.
    let local = dir.path().join("local");
    let mut child = Command::new(BIN)
        .args(["2048", "--seed", &seed.to_string(), "--plain", "--data-dir"])
        .arg(&local)
        .arg("--config-dir")
        .arg(&local)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for d in &slides {
        input.push_str(match d {
            Direction::Up => "up\n",
            Direction::Down => "down\n",
            Direction::Left => "left\n",
            Direction::Right => "right\n",
        });
    }
    input.push_str("q\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.starts_with("Score "))
        .unwrap_or_else(|| panic!("no score in:\n{text}"));
    assert!(
        last.starts_with(&format!("Score {score} · {} moves", slides.len())),
        "{last}"
    );
}
