//! `parlor online` end to end, in plain mode through pipes, against a real `parlor serve` on a free loopback port:
//! two clients challenge each other and play a game to its end, and a client killed mid-game and started again
//! takes its seat back. Every wait is bounded.

use crate::common::BIN;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest any one expected line is waited for.
pub const WAIT: Duration = Duration::from_secs(20);

/// A `parlor serve` on 127.0.0.1 port 0, stopped when dropped.
pub struct Server {
    child: Child,
    /// Where it listens, `ws://127.0.0.1:PORT/`.
    pub url: String,
}

impl Server {
    /// Starts a server with its database in `dir` on a free port, and reads where it listens.
    pub fn start(dir: &Path) -> Server {
        Server::start_on(dir, "127.0.0.1:0")
    }

    /// Starts a server with its database in `dir` listening on `addr`, and reads where it listens.
    pub fn start_on(dir: &Path, addr: &str) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--listen", addr, "--data-dir"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start parlor serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = tx.send(first);
            }
            // Keep reading so that the server never blocks on a full pipe.
            for _ in lines {}
        });
        let first = rx
            .recv_timeout(WAIT)
            .expect("parlor serve said where it listens");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("ws://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `parlor online` in plain mode, its output gathered line by line.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Arc<Mutex<Vec<String>>>,
    /// The player's name.
    pub name: String,
}

impl Client {
    /// Starts `parlor online URL --name NAME` with its configuration and data in `dir`.
    pub fn start(url: &str, name: &str, dir: &Path) -> Client {
        Client::start_with(url, name, dir, &[])
    }

    /// Starts `parlor online URL --name NAME` with its configuration and data in `dir`, and the arguments `more`.
    pub fn start_with(url: &str, name: &str, dir: &Path, more: &[&str]) -> Client {
        let mut child = Command::new(BIN)
            .args(["online", url, "--name", name])
            .args(more)
            .arg("--config-dir")
            .arg(dir)
            .arg("--data-dir")
            .arg(dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start parlor online");
        let stdin = child.stdin.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let lines = Arc::clone(&lines);
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    lines.lock().unwrap().push(line);
                }
            });
        }
        Client {
            child,
            stdin,
            lines,
            name: name.to_string(),
        }
    }

    /// Types a line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to parlor online");
        self.stdin.flush().unwrap();
    }

    /// Every line printed so far.
    pub fn text(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// Waits until a line printed satisfies `ok`, and returns it.
    pub fn wait_line(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            if let Some(l) = self.lines.lock().unwrap().iter().find(|l| ok(l)) {
                return l.clone();
            }
            assert!(
                start.elapsed() < WAIT,
                "{}: no line {what} in {WAIT:?}; printed:\n{}",
                self.name,
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for a line containing `needle`.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_line(&format!("with {needle:?}"), |l| l.contains(needle))
    }

    /// Kills the process at once (no goodbye to the server).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Quits and waits for the process, which must exit successfully.
    pub fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{} exited with {status}", self.name);
                return;
            }
            assert!(start.elapsed() < WAIT, "{} did not quit", self.name);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A move for the side to move: a step into the goal if there is one, else the first legal move.
pub fn pick(game: &nocca::Game) -> nocca::Move {
    let pos = game.position();
    let moves = game.legal_moves();
    moves
        .iter()
        .copied()
        .find(|&m| pos.is_goal_move(m))
        .unwrap_or_else(|| moves[0])
}

/// Plays game `id` from its ply `game.ply()` to the end, each side's client typing its moves (`players[0]` is
/// Black), both waiting to see every move; returns the number of plies.
pub fn play_out(id: u64, game: &mut nocca::Game, players: &mut [&mut Client; 2]) -> usize {
    while !game.is_over() {
        assert!(
            game.ply() < 600,
            "the game should have ended by the ply cap"
        );
        let mv = pick(game);
        let side = usize::from(game.side_to_move() == nocca::Colour::White);
        players[side].send(&mv.to_string());
        game.play(mv).unwrap();
        let said = format!("game {id}: move {}: ", game.ply());
        for p in players.iter() {
            let line = p.wait_for(&said);
            assert!(
                line.ends_with(&format!("plays {mv} ({}", mv.from))
                    || line.contains(&format!("plays {mv} (")),
                "{line}"
            );
        }
    }
    game.ply()
}

/// Two players online, `ann` challenging `bob` on `board`: returns the game's number once both saw it start.
pub fn start_game(ann: &mut Client, bob: &mut Client, board: &str) -> u64 {
    ann.wait_for("connected as ann");
    bob.wait_for("connected as bob");
    ann.send(&format!("challenge bob {board}"));
    let line = bob.wait_for("challenge ");
    let id: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no challenge number in {line:?}"));
    bob.send(&format!("accept {id}"));
    let started = ann.wait_for("started: ann (black) against bob (white)");
    bob.wait_for(&started);
    started
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap()
}

/// The line saying how game `id` ended, without the player's own "(you won)" / "(you lost)".
fn result_line(c: &Client, id: u64) -> String {
    let line = c.wait_for(&format!("game {id} over: "));
    line.replace(" (you won)", "").replace(" (you lost)", "")
}

#[test]
fn two_clients_play_a_game_to_its_end_and_see_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let mut ann = Client::start(&server.url, "ann", &dir.path().join("ann"));
    let mut bob = Client::start(&server.url, "bob", &dir.path().join("bob"));
    let id = start_game(&mut ann, &mut bob, "3x3");
    ann.wait_for("you play black, and move first");
    bob.wait_for("you play white");
    // A third player finds the game in the lobby and watches it.
    let mut carl = Client::start(&server.url, "carl", &dir.path().join("carl"));
    carl.wait_for("connected as carl");
    carl.send("lobby");
    carl.wait_for(&format!("live game {id}: ann against bob on 3x3, untimed"));
    carl.wait_for("ann 1500 ±350, playing");
    carl.send(&format!("watch {id}"));
    carl.wait_for(&format!("watching game {id}"));
    carl.wait_for("you are watching");
    // Out of turn, and an illegal move, are refused by the client without a word to the server.
    bob.send("c3j");
    bob.wait_for("not your turn: ann (black) is to move");
    ann.send("a1j");
    ann.wait_for("refused: ");
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    let plies = play_out(id, &mut game, &mut [&mut ann, &mut bob]);
    let outcome = game.outcome().unwrap();
    let a = result_line(&ann, id);
    let b = result_line(&bob, id);
    assert_eq!(a, b, "both players see the same result");
    assert_eq!(result_line(&carl, id), a, "and so does the spectator");
    // The acknowledgement of the last move, sent before its end came, is no error to the players.
    assert!(!ann.text().contains("server:"), "{}", ann.text());
    assert!(!bob.text().contains("server:"), "{}", bob.text());
    for ply in 1..=plies {
        carl.wait_for(&format!("game {id}: move {ply}: "));
    }
    // The daily challenges: Mastermind's guesses are scored by the server, and its leaderboard read.
    carl.send("daily mastermind");
    carl.wait_for("Mastermind of the day ");
    carl.send("guess RGYU");
    carl.wait_line("with the server's score of guess 1", |l| {
        l.starts_with("  guess 1: RED GREEN YELLOW BLUE -> ") && l.contains(" black, ")
    });
    carl.send("leaderboard mastermind");
    carl.wait_line("with the leaderboard", |l| {
        l.starts_with("Mastermind of the day ") && l.ends_with("plain board:")
    });
    // Today's ranked 2048, dealt by the server slide by slide: its board after each slide, its score ranked.
    carl.send("daily 2048");
    carl.wait_for("plays the ranked game, dealt by the server");
    carl.send("play 2048");
    carl.wait_for("score 0");
    for slide in "asdwasdwasdwasdw".chars() {
        carl.send(&slide.to_string());
    }
    carl.send("leaderboard 2048");
    let row = carl.wait_line("with carl's score ranked", |l| {
        l.starts_with("    1. carl ")
    });
    // The ranked board lists a game from its first slide; the server answers in order, so the last score told
    // before the leaderboard (the slides typed ahead each sent once the one before is answered) is the one ranked.
    let text = carl.text();
    let before = &text[..text.find(&row).unwrap()];
    let last = before
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("score "))
        .unwrap()
        .to_string();
    assert!(
        row.contains(&format!(" {last} ")),
        "{row} after a score of {last}"
    );
    carl.quit();
    let winner = match outcome.winner {
        Some(nocca::Colour::Black) => "ann (black) wins",
        Some(nocca::Colour::White) => "bob (white) wins",
        None => "draw",
    };
    assert!(a.contains(winner), "{a} after {plies} plies");
    // The winner is told so, and the loser too.
    let (won, lost) = match outcome.winner {
        Some(nocca::Colour::Black) => (&ann, &bob),
        _ => (&bob, &ann),
    };
    if outcome.winner.is_some() {
        won.wait_for("(you won)");
        lost.wait_for("(you lost)");
    }
    // The finished game goes into the local history, once.
    bob.send("import");
    bob.wait_for(&format!("online game {id} added to the history"));
    bob.send(&format!("import {id}"));
    bob.wait_for(&format!("online game {id} is in the history already"));
    ann.quit();
    bob.quit();
    let history = Command::new(BIN)
        .args(["history", "--json", "--data-dir"])
        .arg(dir.path().join("bob"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&history.stdout);
    assert!(text.contains("\"online 3x3\""), "{text}");
    assert_eq!(text.matches("\"game\":\"nocca\"").count(), 1, "{text}");
}

#[test]
fn a_client_killed_mid_game_and_started_again_takes_its_seat_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let bob_dir = dir.path().join("bob");
    let mut ann = Client::start(&server.url, "ann", &dir.path().join("ann"));
    let mut bob = Client::start(&server.url, "bob", &bob_dir);
    let id = start_game(&mut ann, &mut bob, "4x4");
    let mut game = nocca::Game::new("4x4".parse().unwrap(), nocca::GameOptions::default());
    // Two plies each way, then bob is killed while it is his turn.
    for _ in 0..3 {
        let mv = pick(&game);
        let side = usize::from(game.side_to_move() == nocca::Colour::White);
        [&mut ann, &mut bob][side].send(&mv.to_string());
        game.play(mv).unwrap();
        let said = format!("game {id}: move {}: ", game.ply());
        ann.wait_for(&said);
        bob.wait_for(&said);
    }
    bob.kill();
    // Ann may play nothing meanwhile: it is bob's turn.
    let mut bob = Client::start(&server.url, "bob", &bob_dir);
    bob.wait_for(&format!(
        "game {id} in play as white against ann: taking it up"
    ));
    // Every event comes again, once each: the three moves so far, then bob's turn.
    bob.wait_for(&format!("game {id}: move 3: "));
    bob.wait_for(&format!("game {id}: your move (white)"));
    for ply in 1..=3 {
        let n = bob
            .text()
            .matches(&format!("game {id}: move {ply}: "))
            .count();
        assert_eq!(n, 1, "move {ply} told once:\n{}", bob.text());
    }
    let plies = play_out(id, &mut game, &mut [&mut ann, &mut bob]);
    assert!(plies > 3);
    assert_eq!(result_line(&ann, id), result_line(&bob, id));
    // A rematch: offered by one, accepted by the other, colours swapped.
    ann.send("rematch");
    bob.wait_for(&format!("ann offers a rematch of game {id}"));
    bob.send("rematch");
    let again = format!(
        "started: bob (black) against ann (white) on 4x4, untimed (a rematch of game {id})"
    );
    ann.wait_for(&again);
    bob.wait_for(&again);
    // The rated queue pairs them too.
    ann.send("queue 3x3 5+3");
    ann.wait_for("in the rated queue for 3x3, 5+3");
    bob.send("queue 3x3 5+3");
    let rated = "started: ann (black) against bob (white) on 3x3, 5+3, rated";
    let started = bob.wait_line(&format!("with {rated:?}"), |l| {
        l.contains(rated)
            || l.contains("started: bob (black) against ann (white) on 3x3, 5+3, rated")
    });
    ann.wait_for(&started);
    ann.wait_for("clocks: ");
    ann.quit();
    bob.quit();
}

#[test]
fn a_dropped_connection_is_told_and_taken_up_again_when_the_server_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("server");
    let server = Server::start(&data);
    let mut ann = Client::start(&server.url, "ann", &dir.path().join("ann"));
    ann.wait_for("connected as ann");
    // The server goes away without a word, and comes back on the same port and database.
    let url = server.url.clone();
    drop(server);
    ann.wait_for("connection lost (");
    let addr = url
        .trim_start_matches("ws://")
        .trim_end_matches('/')
        .to_string();
    let _again = Server::start_on(&data, &addr);
    ann.wait_for("connection back: taking the games up where they were");
    ann.send("lobby");
    ann.wait_for("ann 1500 ±350");
    ann.quit();
}
