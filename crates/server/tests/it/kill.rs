//! A real server process killed with SIGKILL mid-game and started again on the same database: every finished game
//! is kept, and a game in play resumes where it was (its moves, its clocks as of its last move, the same event
//! numbers), both players getting the grace period from the restart to come back; the rated queue (with each
//! player's time of joining) and rematch offers are back too.

use crate::client::{Client, play, start_game, start_game_with};
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side, TimeControl};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `parlor-server` process of a test, killed when dropped: a test that fails (or is stopped) midway leaves no
/// server running, even one it had stopped with SIGSTOP.
pub struct Spawned(pub Child);

impl std::ops::Deref for Spawned {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Spawned {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `parlor-server` on a free loopback port with its data in `dir`; returns it and where it listens.
pub fn spawn(dir: &Path) -> (Spawned, SocketAddr) {
    spawn_with(dir, &[])
}

/// [`spawn`] with more arguments (`--heartbeat 1`).
pub fn spawn_with(dir: &Path, more: &[&str]) -> (Spawned, SocketAddr) {
    let mut child = Spawned(
        Command::new(env!("CARGO_BIN_EXE_parlor-server"))
            .args(["--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server says where it listens");
    let addr = line
        .split("ws://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    (child, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_with_sigkill_keeps_finished_games_and_resumes_games_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let (mut first, addr) = spawn(dir.path());
    let (mut ann, _) = Client::hello(addr, "ann").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    let done = start_game(&mut ann, &mut bob, "4x4").await;
    play(done, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(done, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    ann.send(&ClientMessage::Resign { game: done }).await;
    let _ = (ann.event().await, bob.event().await);
    // Ann offers a rematch, and Carl joins the rated queue, alone on 5x5.
    ann.send(&ClientMessage::Rematch { game: done }).await;
    assert_eq!(
        bob.recv().await,
        ServerMessage::RematchOffered {
            game: done,
            from: "ann".into()
        }
    );
    let (mut carl, _) = Client::hello(addr, "carl").await;
    carl.send(&ClientMessage::Queue {
        board: "5x5".into(),
        clock: None,
    })
    .await;
    assert!(matches!(carl.recv().await, ServerMessage::Queued { .. }));
    let queued = Instant::now();
    let tc = Some(TimeControl {
        minutes: 10,
        increment_secs: 0,
    });
    let live = start_game_with(&mut ann, &mut bob, "6x5", tc, false).await;
    play(live, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(live, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    play(live, &mut ann, &mut bob, Side::Black, 2, "d1k", 4).await;
    // SIGKILL: nothing is closed or flushed by the server.
    first.kill().unwrap();
    first.wait().unwrap();
    drop((ann, bob, carl));

    let (mut second, addr) = spawn(dir.path());
    let (mut bob, welcome) = Client::hello(addr, "bob").await;
    let ServerMessage::Welcome { games, .. } = welcome else {
        panic!("{welcome:?}")
    };
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        (games[0].game, games[0].side, games[0].last_event),
        (live, Side::White, 4)
    );
    // Ann is not back yet: Bob is told she is away, her seat held from the restart.
    let left = bob.away(live, Side::Black, "ann").await;
    assert!(left > 50_000 && left <= 60_000, "{left}");
    // Ann's rematch offer is still there, and Bob is told of it again.
    assert_eq!(
        bob.recv().await,
        ServerMessage::RematchOffered {
            game: done,
            from: "ann".into()
        }
    );
    // Resumed from the start: the same four events, numbered the same.
    bob.send(&ClientMessage::Resume {
        game: live,
        after: 0,
    })
    .await;
    let mut moves = Vec::new();
    for n in 1..=4 {
        let (g, event) = bob.event().await;
        assert_eq!((g, event.n), (live, n));
        if let EventKind::Moved { mv, .. } = event.kind {
            moves.push(mv);
        }
    }
    assert_eq!(moves, ["c1k", "c6j", "d1k"]);
    // The game goes on: White's move is taken, with White's clock as it was.
    let (mut ann, _) = Client::hello(addr, "ann").await;
    bob.back(live, Side::Black, "ann").await;
    bob.send(&ClientMessage::Move {
        game: live,
        seq: 2,
        mv: "d6j".into(),
    })
    .await;
    for c in [&mut bob, &mut ann] {
        let (g, event) = c.event().await;
        assert_eq!((g, event.n), (live, 5));
        let EventKind::Moved { clocks, .. } = event.kind else {
            panic!("{event:?}")
        };
        let clocks = clocks.unwrap();
        assert!(
            clocks.black_ms <= 600_000 && clocks.black_ms > 590_000,
            "{clocks:?}"
        );
        assert!(
            clocks.white_ms <= 600_000 && clocks.white_ms > 590_000,
            "{clocks:?}"
        );
    }
    // The game finished before the kill is kept whole.
    ann.send(&ClientMessage::Record { game: done }).await;
    let ServerMessage::Record { record } = ann.recv().await else {
        panic!("no record")
    };
    assert_eq!(record.moves, "b1k b4j");
    assert_eq!(record.winner, Some(Side::White));
    assert_eq!(record.times.map(|t| t.len()), Some(2));

    // Carl is back in the queue, his wait counted from when he joined before the kill; Dave joins and they pair.
    let (mut carl, _) = Client::hello(addr, "carl").await;
    let ServerMessage::Queued { entry } = carl.recv().await else {
        panic!("Carl's place in the queue")
    };
    assert_eq!(entry.board, "5x5");
    let waited = u64::try_from(queued.elapsed().as_millis()).unwrap();
    assert!(
        entry.waited_ms + 100 >= waited,
        "{entry:?} after {waited} ms"
    );
    let (mut dave, _) = Client::hello(addr, "dave").await;
    dave.send(&ClientMessage::Queue {
        board: "5x5".into(),
        clock: None,
    })
    .await;
    assert!(matches!(dave.recv().await, ServerMessage::Queued { .. }));
    for c in [&mut carl, &mut dave] {
        let (_, start) = c.event().await;
        // Carl waited longer: he plays Black.
        assert!(
            matches!(&start.kind, EventKind::Started { black, rated: true, .. } if black == "carl"),
            "{start:?}"
        );
    }

    // Bob accepts the rematch offered before the kill: it starts, colours swapped.
    bob.send(&ClientMessage::Rematch { game: done }).await;
    for c in [&mut bob, &mut ann] {
        let (g, start) = c.event().await;
        assert!(g > live);
        assert!(
            matches!(&start.kind, EventKind::Started { black, rematch_of, .. } if black == "bob" && *rematch_of == Some(done)),
            "{start:?}"
        );
    }
    second.kill().unwrap();
    second.wait().unwrap();
}
