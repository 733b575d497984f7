//! A server process paused (SIGSTOP, as a suspended laptop or a debugger leaves it) for longer than three heartbeats
//! and then woken (SIGCONT) keeps its connections: their silence was the server's own, so each gets three heartbeats
//! again from the wake (`parlor_server::liveness`); the old rule dropped every connection at the first beat after
//! waking.

#![cfg(unix)]

use crate::client::Client;
use crate::kill::spawn_with;
use parlor_online::protocol::{ClientMessage, ServerMessage};
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
