//! A server process paused (SIGSTOP, as a suspended laptop or a debugger leaves it) for longer than three heartbeats
//! and then woken (SIGCONT) keeps its connections: their silence was the server's own, so each gets three heartbeats
//! again from the wake (`parlor_server::liveness`); the old rule dropped every connection at the first beat after
//! waking. Its games' clocks stop with it (`parlor_server::runclock`): a side to move with less time left than the
//! pause lasted does not lose on time when the server wakes.

#![cfg(unix)]

use crate::client::Client;
use crate::client::{play, start_game_with};
use crate::kill::spawn_with;
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side, TimeControl};
use std::time::Duration;

/// Sends `sig` (`STOP`, `CONT`) to the server with the shell's own `kill` (the workspace forbids `unsafe`).
fn signal(child: &std::process::Child, sig: &str) {
    let status = std::process::Command::new("sh")
        .args(["-c", &format!("kill -{sig} {}", child.id())])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{sig} sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_paused_longer_than_three_heartbeats_keeps_its_connections_when_woken() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = spawn_with(dir.path(), &["--heartbeat", "1"]);
    let (mut ann, _) = Client::hello(addr, "ann").await;
    ann.send(&ClientMessage::Ping {}).await;
    assert_eq!(ann.recv().await, ServerMessage::Pong {});

    signal(&server, "STOP");
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    signal(&server, "CONT");
    // Long enough for the server's first beat after waking to run before anything of Ann's arrives.
    tokio::time::sleep(Duration::from_millis(400)).await;

    ann.send(&ClientMessage::Ping {}).await;
    assert_eq!(
        ann.next().await,
        Some(ServerMessage::Pong {}),
        "Ann's connection outlived the server's pause"
    );
    server.kill().unwrap();
    let _ = server.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_paused_longer_than_a_clock_has_left_does_not_end_the_game_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = spawn_with(dir.path(), &[]);
    let (mut ann, _) = Client::hello(addr, "ann").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    // 0+3: each side starts with three seconds, and gets three more a move.
    let tc = Some(TimeControl {
        minutes: 0,
        increment_secs: 3,
    });
    let game = start_game_with(&mut ann, &mut bob, "4x4", tc, false).await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;

    // Ann (Black) is to move with at most three seconds; the server stops for four and a half.
    signal(&server, "STOP");
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    signal(&server, "CONT");
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "c1k".into(),
    })
    .await;
    for c in [&mut ann, &mut bob] {
        let (g, event) = c.event().await;
        assert_eq!(g, game);
        let EventKind::Moved { clocks, .. } = event.kind else {
            panic!(
                "{}: the game went on after the pause, got {event:?}",
                c.name
            )
        };
        let clocks = clocks.unwrap();
        // Her time left, plus the increment: the pause was not taken from it.
        assert!(
            clocks.black_ms > 3_000,
            "Black's clock after her move: {clocks:?}"
        );
        assert_eq!(clocks.running, Some(Side::White));
    }
    server.kill().unwrap();
    let _ = server.wait();
}
