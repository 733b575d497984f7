//! The log file beside the database: a real server process logs every refusal and each game's start and end to
//! `server.log` in its data directory (as well as stderr), line by line, so it is there even after SIGKILL; and
//! each player away from a game in play and back.

use crate::client::{Client, play, start_game};
use crate::kill::spawn;
use parlor_online::protocol::{ClientMessage, ErrorCode, Side};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_each_games_start_and_end_and_a_player_away_are_in_the_log_file() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = spawn(dir.path());
    let (mut ann, _) = Client::hello(addr, "ann").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    // A hostile message: not JSON at all.
    ann.send_text("{\"v\":2,\"type\":\"move\",<<<".into()).await;
    assert_eq!(ann.error().await, ErrorCode::Malformed);
    let game = start_game(&mut ann, &mut bob, "4x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    // Out of turn.
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "c1k".into(),
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::NotYourTurn);
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    // Bob's network goes, and he comes back.
    bob.drop_without_close();
    ann.away(game, Side::White, "bob").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    ann.back(game, Side::White, "bob").await;
    bob.send(&ClientMessage::Resign { game }).await;
    let _ = (ann.event().await, bob.event().await);

    // Killed outright: what was logged is in the file already.
    server.kill().unwrap();
    server.wait().unwrap();
    let path = dir.path().join(parlor_server::log::LOG_FILE);
    let wanted = [
        "listening on ws://".to_string(),
        "hello conn=1 name=\"ann\"".to_string(),
        "code=Malformed".to_string(),
        "code=NotYourTurn".to_string(),
        format!("game started game={game} black=\"ann\" white=\"bob\" board=4x4"),
        format!("player away: seat held game={game} name=\"bob\" side=\"white\" grace_ms="),
        format!("player back game={game} name=\"bob\" side=\"white\""),
        format!("game ended game={game} winner=\"black\" reason=\"resignation\" ply=2"),
    ];
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = std::fs::read_to_string(&path).unwrap_or_default();
        if wanted.iter().all(|w| log.contains(w.as_str())) || Instant::now() > deadline {
            break log;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for w in &wanted {
        assert!(log.contains(w.as_str()), "{w:?} not in the log:\n{log}");
    }
    // Plain text: no colour codes in the file.
    assert!(!log.contains('\u{1b}'), "{log}");
}
