//! Out-of-turn, illegal, malformed, unintroduced and oversized messages are refused with errors, and the server
//! goes on: the same connection plays on, and a connection closed for a giant frame leaves the others untouched.

use crate::client::{Client, TestServer, play, quick, start_game, token};
use parlor_online::protocol::{ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, ServerMessage, Side};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_are_refused_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;

    // Before hello: nothing but hello is taken.
    let mut stranger = Client::connect(server.addr, "stranger").await;
    stranger.send(&ClientMessage::Resign { game: 1 }).await;
    assert_eq!(stranger.error().await, ErrorCode::NotIntroduced);
    for (name, tok, code) in [
        ("bad name!", token("x"), ErrorCode::BadName),
        ("eve", "short".to_string(), ErrorCode::BadToken),
    ] {
        stranger
            .send(&ClientMessage::Hello {
                name: name.into(),
                token: tok,
            })
            .await;
        assert_eq!(stranger.error().await, code);
    }

    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    // A known name with another token is refused.
    stranger
        .send(&ClientMessage::Hello {
            name: "ann".into(),
            token: "another-token-entirely".into(),
        })
        .await;
    assert_eq!(stranger.error().await, ErrorCode::BadName);

    ann.send(&ClientMessage::Challenge {
        opponent: "bob".into(),
        board: "9x9".into(),
        clock: None,
        rated: false,
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::BadBoard);
    ann.send(&ClientMessage::Challenge {
        opponent: "nobody".into(),
        board: "6x5".into(),
        clock: None,
        rated: false,
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::NotFound);
    bob.send(&ClientMessage::Accept { challenge: 77 }).await;
    assert_eq!(bob.error().await, ErrorCode::NotFound);

    let game = start_game(&mut ann, &mut bob, "6x5").await;
    let refused: Vec<(String, ErrorCode)> = vec![
        ("not json".into(), ErrorCode::Malformed),
        ("[1,2,3]".into(), ErrorCode::Malformed),
        (r#"{"type":"resign","game":1}"#.into(), ErrorCode::Malformed),
        (
            r#"{"v":1,"type":"resign","game":1}"#.into(),
            ErrorCode::Malformed,
        ),
        (r#"{"v":2,"type":"fly"}"#.into(), ErrorCode::Malformed),
        (
            format!(
                r#"{{"v":2,"type":"move","game":{game},"seq":1,"mv":"{}"}}"#,
                "x".repeat(MAX_MESSAGE_BYTES)
            ),
            ErrorCode::TooLarge,
        ),
        (
            ClientMessage::Move {
                game,
                seq: 1,
                mv: "zz9".into(),
            }
            .to_text(),
            ErrorCode::IllegalMove,
        ),
        (
            ClientMessage::Move {
                game,
                seq: 1,
                mv: "c1j".into(),
            }
            .to_text(),
            ErrorCode::IllegalMove,
        ),
        (
            ClientMessage::Move {
                game: game + 100,
                seq: 1,
                mv: "c1k".into(),
            }
            .to_text(),
            ErrorCode::NotFound,
        ),
        (
            ClientMessage::Hello {
                name: "ann".into(),
                token: token("ann"),
            }
            .to_text(),
            ErrorCode::NotIntroduced,
        ),
        (
            ClientMessage::Ack { game, event: 99 }.to_text(),
            ErrorCode::NotFound,
        ),
    ];
    for (text, code) in refused {
        ann.send_text(text.clone()).await;
        assert_eq!(ann.error().await, code, "{text:.80}");
    }
    ann.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(ann.error().await, ErrorCode::Malformed);
    // Out of turn: White first.
    bob.send(&ClientMessage::Move {
        game,
        seq: 1,
        mv: "c6j".into(),
    })
    .await;
    assert_eq!(bob.error().await, ErrorCode::NotYourTurn);

    // A frame far over any limit closes that connection only.
    let mut giant = Client::connect(server.addr, "giant").await;
    giant
        .send_raw_refused(Message::Text("x".repeat(1 << 20).into()))
        .await;
    assert!(
        giant.next().await.is_none(),
        "the giant's connection is closed"
    );

    // The game goes on, as if nothing had been sent.
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    ann.send(&ClientMessage::Resign { game }).await;
    assert_eq!(bob.event().await.1.n, 4);
    // The ack of the ending, arriving after the game ended, is taken quietly; only an event never sent is refused
    // (so the first answer bob gets is about event 5, not 4).
    bob.send(&ClientMessage::Ack { game, event: 4 }).await;
    bob.send(&ClientMessage::Ack { game, event: 5 }).await;
    match bob.recv().await {
        ServerMessage::Error { code, message, .. } => {
            assert_eq!(code, ErrorCode::NotFound);
            assert!(message.contains("no event 5"), "{message}");
        }
        other => panic!("expected an error about event 5, got {other:?}"),
    }
    bob.send(&ClientMessage::Resign { game }).await;
    assert_eq!(bob.error().await, ErrorCode::NotFound);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_and_closed_while_others_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    let (mut flooder, _) = Client::hello(server.addr, "flood").await;
    // A burst past the connection's bucket: the first 39 are answered (each an error: no such game; the hello took
    // a token), then one rate-limit error, and the rest dropped.
    let ack = ClientMessage::Ack {
        game: 999,
        event: 1,
    }
    .to_text();
    for _ in 0..200 {
        flooder.send_text(ack.clone()).await;
    }
    let mut answered = 0;
    loop {
        match flooder.error().await {
            ErrorCode::NotFound => answered += 1,
            ErrorCode::RateLimited => break,
            other => panic!("{other:?}"),
        }
        assert!(answered <= 45, "the bucket holds 40 (the hello took one)");
    }
    assert!(answered >= 39, "{answered}");
    // Nothing more: the rest of the burst was dropped unanswered.
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(300), flooder.next())
            .await
            .is_err()
    );
    // The players are not slowed.
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    // After a rest the flooder is served again.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    while let Ok(Some(_)) =
        tokio::time::timeout(std::time::Duration::from_millis(100), flooder.next()).await
    {}
    flooder.send_text(ack.clone()).await;
    assert_eq!(flooder.error().await, ErrorCode::NotFound);
    // A flood that goes on is closed.
    for _ in 0..1_200 {
        flooder
            .send_raw_refused(Message::Text(ack.clone().into()))
            .await;
    }
    // Bounded in time, not only in messages: the server's heartbeat pings would keep an open connection talking.
    let closed = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        while flooder.next().await.is_some() {}
    })
    .await;
    assert!(closed.is_ok(), "the flooding connection is closed");
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    server.stop().await;
}
