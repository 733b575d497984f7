//! `ping`, the application-level liveness message (a browser answers the server's WebSocket pings without telling
//! the page, so the page asks with `ping` when the server has been silent): answered with `pong` before and after
//! `hello`, in order with the other answers, and counted by the rate limits like any other message, so a flood of
//! pings is limited and closed as any flood is, while a game goes on.

use crate::client::{Client, TestServer, play, quick, start_game};
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage, Side};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_is_answered_with_a_pong_and_a_flood_of_pings_is_limited() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;

    // Before hello: answered (a client that never got its welcome still hears the server), and nothing else is.
    let mut early = Client::connect(server.addr, "early").await;
    early.send(&ClientMessage::Ping {}).await;
    assert_eq!(early.recv().await, ServerMessage::Pong {});
    early.send(&ClientMessage::Resign { game: 1 }).await;
    assert_eq!(early.error().await, ErrorCode::NotIntroduced);

    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    // After hello, in a game: answered in order with the rest.
    ann.send(&ClientMessage::Ping {}).await;
    ann.send(&ClientMessage::Ack {
        game: 999,
        event: 1,
    })
    .await;
    ann.send(&ClientMessage::Ping {}).await;
    assert_eq!(ann.recv().await, ServerMessage::Pong {});
    assert_eq!(ann.error().await, ErrorCode::NotFound);
    assert_eq!(ann.recv().await, ServerMessage::Pong {});
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;

    // A burst of pings: as many pongs as the connection's bucket holds (40, less the hello's token), one rate-limit
    // error, and the rest dropped unanswered.
    let (mut pinger, _) = Client::hello(server.addr, "pinger").await;
    let ping = ClientMessage::Ping {}.to_text();
    for _ in 0..200 {
        pinger.send_text(ping.clone()).await;
    }
    let mut pongs = 0;
    loop {
        match pinger.recv().await {
            ServerMessage::Pong {} => pongs += 1,
            ServerMessage::Error {
                code: ErrorCode::RateLimited,
                ..
            } => break,
            other => panic!("{other:?}"),
        }
        assert!(pongs <= 45, "the bucket holds 40 (the hello took one)");
    }
    assert!(pongs >= 39, "{pongs}");
    assert!(
        tokio::time::timeout(Duration::from_millis(300), pinger.next())
            .await
            .is_err(),
        "the rest of the burst is dropped unanswered"
    );
    // The players are not slowed.
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    // A flood of pings that goes on is closed like any flood.
    for _ in 0..1_200 {
        pinger
            .send_raw_refused(Message::Text(ping.clone().into()))
            .await;
    }
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        while pinger.next().await.is_some() {}
    })
    .await;
    assert!(closed.is_ok(), "the flooding connection is closed");
    play(game, &mut ann, &mut bob, Side::Black, 2, "c2k", 4).await;
    server.stop().await;
}
