//! What an operator reads (`GET /healthz`, `GET /metrics` on the WebSocket's own listener) and the caps per
//! address: a real server on 127.0.0.1 with real clients. The metrics read back after a few moves show them
//! (counts exact, histograms with their count); `/healthz` is 503 while the store fails; from one address the
//! connection past the cap and the registration past the cap are refused with a message, and the others play on.

use crate::client::{Client, TestServer, http_get, play, quick, start_game};
use crate::hooked::Hooked;
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage, Side};
use parlor_server::{SqliteStore, StoreError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The value of the series `series` (its whole name with labels) in a `/metrics` text.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

async fn metric(addr: std::net::SocketAddr, series: &str) -> f64 {
    let (status, text) = http_get(addr, "/metrics").await;
    assert_eq!(status, 200, "{text}");
    value(&text, series).unwrap_or_else(|| panic!("{series} not in:\n{text}"))
}

/// Waits (up to 10 s) until `series` reads `want`.
async fn metric_becomes(addr: std::net::SocketAddr, series: &str, want: f64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = metric(addr, series).await;
        if got == want {
            return;
        }
        assert!(Instant::now() < deadline, "{series} is {got}, not {want}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_show_the_moves_played_and_healthz_is_ok() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let addr = server.addr;
    let (status, body) = http_get(addr, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));

    let (mut ann, _) = Client::hello(addr, "ann").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    // Out of turn: refused, and counted by its code.
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "c2k".into(),
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::NotYourTurn);
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    play(game, &mut ann, &mut bob, Side::Black, 2, "c2k", 4).await;

    let (status, text) = http_get(addr, "/metrics").await;
    assert_eq!(status, 200);
    for (series, want) in [
        ("parlor_connections_open", 2.0),
        ("parlor_players_online", 2.0),
        ("parlor_games_in_play", 1.0),
        ("parlor_moves_total", 3.0),
        ("parlor_move_round_trip_seconds_count", 3.0),
        ("parlor_move_round_trip_seconds_bucket{le=\"+Inf\"}", 3.0),
        ("parlor_refusals_total{kind=\"NotYourTurn\"}", 1.0),
    ] {
        assert_eq!(value(&text, series), Some(want), "{series} in:\n{text}");
    }
    // Every round trip took some time and well under the 20 s a test waits.
    let sum = value(&text, "parlor_move_round_trip_seconds_sum").unwrap();
    assert!(sum > 0.0 && sum < 20.0, "{text}");
    // Two registrations, a game's start and three moves' progress at least went to the store.
    let calls = value(&text, "parlor_store_call_seconds_count").unwrap();
    assert!(calls >= 6.0, "{text}");
    assert!(text.contains("# TYPE parlor_move_round_trip_seconds histogram"));
    assert!(text.contains("# TYPE parlor_moves_total counter"));

    // A resignation ends the game: no game in play; a player gone: one online, one connection.
    bob.send(&ClientMessage::Resign { game }).await;
    let _ = (ann.event().await, bob.event().await);
    drop(bob);
    metric_becomes(addr, "parlor_connections_open", 1.0).await;
    metric_becomes(addr, "parlor_players_online", 1.0).await;
    assert_eq!(metric(addr, "parlor_games_in_play").await, 0.0);
    drop(ann);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_is_503_with_why_while_the_store_fails() {
    let dir = tempfile::tempdir().unwrap();
    let fail = Arc::new(AtomicBool::new(false));
    // The SQLite store, whose `last_game_id` (the health check's read) fails while `fail` is set, on its readers
    // as on its writer.
    let failing = Arc::clone(&fail);
    let store = Hooked {
        inner: Box::new(SqliteStore::open(dir.path()).unwrap()),
        hook: Arc::new(move |call| {
            if call == "last_game_id" && failing.load(Ordering::SeqCst) {
                return Err(StoreError::Unreadable {
                    what: "the test's store".into(),
                    why: "made to fail".into(),
                });
            }
            Ok(())
        }),
    };
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    assert_eq!(http_get(server.addr, "/healthz").await.0, 200);
    fail.store(true, Ordering::SeqCst);
    let (status, body) = http_get(server.addr, "/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with("unhealthy: the store failed"), "{body}");
    assert!(body.contains("made to fail"), "{body}");
    // The players are still served meanwhile, and the store back is health back.
    let (ann, _) = Client::hello(server.addr, "ann").await;
    fail.store(false, Ordering::SeqCst);
    let (status, body) = http_get(server.addr, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    drop(ann);
    server.stop().await;
}

/// The next message, which must be a `RateLimited` error; returns its text.
async fn rate_limited(c: &mut Client) -> String {
    match c.recv().await {
        ServerMessage::Error {
            code: ErrorCode::RateLimited,
            message,
            ..
        } => message,
        other => panic!("{}: expected RateLimited, got {other:?}", c.name),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_one_address_the_connection_and_the_registration_past_their_caps_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = parlor_server::Config {
        max_connections_per_ip: 3,
        max_registrations_per_hour: 4,
        ..quick(30_000)
    };
    let server = TestServer::start(dir.path(), config).await;
    let addr = server.addr;
    let (mut ann, _) = Client::hello(addr, "ann").await;
    let (mut bob, _) = Client::hello(addr, "bob").await;
    let (carl, _) = Client::hello(addr, "carl").await;
    // The fourth connection from 127.0.0.1 is told why and closed.
    let mut fourth = Client::connect(addr, "fourth").await;
    let why = rate_limited(&mut fourth).await;
    assert!(
        why.contains("too many connections from your address: at most 3"),
        "{why}"
    );
    assert!(fourth.next().await.is_none(), "closed after the refusal");
    // The first three play on.
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    assert_eq!(
        metric(addr, "parlor_refusals_total{kind=\"ConnectionCap\"}").await,
        1.0
    );

    // One closed leaves room for another: the fourth name registered is the cap's last.
    drop(carl);
    metric_becomes(addr, "parlor_connections_open", 2.0).await;
    let (dave, _) = Client::hello(addr, "dave").await;
    drop(dave);
    metric_becomes(addr, "parlor_connections_open", 2.0).await;
    // The fifth is refused with why; the connection stays open and may say hello with a name registered.
    let mut erin = Client::connect(addr, "erin").await;
    erin.send(&ClientMessage::Hello {
        name: "erin".into(),
        token: crate::client::token("erin"),
    })
    .await;
    let why = rate_limited(&mut erin).await;
    assert!(
        why.contains("too many new names from your address: at most 4 an hour"),
        "{why}"
    );
    erin.send(&ClientMessage::Hello {
        name: "carl".into(),
        token: crate::client::token("carl"),
    })
    .await;
    assert!(
        matches!(erin.recv().await, ServerMessage::Welcome { name, .. } if name == "carl"),
        "a registered name is welcome"
    );
    // The others play on.
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    assert_eq!(
        metric(addr, "parlor_refusals_total{kind=\"RegistrationCap\"}").await,
        1.0
    );
    drop((ann, bob, erin));
    server.stop().await;
}
