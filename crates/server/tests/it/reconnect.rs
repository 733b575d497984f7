//! A connection dropped without a close: back inside the grace period the game resumes with nothing lost or
//! doubled; past it the player loses on time (before both sides moved, the game is aborted).

use crate::client::{Client, TestServer, play, quick, start_game};
use parlor_online::protocol::{
    ClientMessage, EndReason, ErrorCode, EventKind, GameInPlay, Rating, ServerMessage, Side,
};
use parlor_server::Store as _;
use std::time::{Duration, Instant};

const GRACE_MS: u64 = 1_500;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn back_inside_the_grace_period_nothing_is_lost_or_doubled() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(GRACE_MS)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;

    // Bob's network goes; Ann hears he is away, and moves meanwhile.
    bob.drop_without_close();
    let left = ann.away(game, Side::White, "bob").await;
    assert!(left <= GRACE_MS, "{left}");
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "d1k".into(),
    })
    .await;
    assert_eq!(ann.event().await.1.n, 4);

    // Bob is back (after part of the grace period) with the last event he saw: 3.
    tokio::time::sleep(Duration::from_millis(GRACE_MS / 2)).await;
    let (mut bob, welcome) = Client::hello(server.addr, "bob").await;
    assert_eq!(
        welcome,
        ServerMessage::Welcome {
            name: "bob".into(),
            rating: Rating::NEW,
            games: vec![GameInPlay {
                game,
                side: Side::White,
                opponent: "ann".into(),
                last_event: 4
            }]
        }
    );
    ann.back(game, Side::White, "bob").await;
    bob.send(&ClientMessage::Resume { game, after: 3 }).await;
    let (g, missed) = bob.event().await;
    assert_eq!((g, missed.n), (game, 4));
    assert_eq!(
        missed.kind,
        EventKind::Moved {
            by: Side::Black,
            ply: 3,
            mv: "d1k".into(),
            clocks: None,
        }
    );
    bob.send(&ClientMessage::Ack { game, event: 4 }).await;
    // His earlier move sent again (as a client unsure it arrived would) changes nothing.
    bob.send(&ClientMessage::Move {
        game,
        seq: 1,
        mv: "c6j".into(),
    })
    .await;
    // Past the grace period the seat is still his: the game goes on.
    tokio::time::sleep(Duration::from_millis(GRACE_MS + 200)).await;
    play(game, &mut bob, &mut ann, Side::White, 2, "d6j", 5).await;
    // Nothing was doubled: the next event each sees is the end, number 6.
    ann.send(&ClientMessage::Resign { game }).await;
    for c in [&mut ann, &mut bob] {
        let (g, end) = c.event().await;
        assert_eq!((g, end.n), (game, 6), "{}", c.name);
        assert!(matches!(
            end.kind,
            EventKind::Ended {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                ..
            }
        ));
    }
    server.stop().await;
    let kept = parlor_server::SqliteStore::open(dir.path())
        .unwrap()
        .finished_games()
        .unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].moves, "c1k c6j d1k d6j");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gone_past_the_grace_period_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(GRACE_MS)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "5x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b5j", 3).await;

    let gone = Instant::now();
    ann.drop_without_close();
    bob.away(game, Side::Black, "ann").await;
    let (g, end) = bob.event().await;
    let waited = gone.elapsed();
    assert_eq!((g, end.n), (game, 4));
    assert!(
        matches!(
            end.kind,
            EventKind::Ended {
                winner: Some(Side::White),
                reason: EndReason::Abandoned,
                ..
            }
        ),
        "{end:?}"
    );
    assert!(
        waited >= Duration::from_millis(GRACE_MS - 50),
        "the seat was held: {waited:?}"
    );

    // Ann back too late: no game in play, and her move is refused.
    let (mut ann, welcome) = Client::hello(server.addr, "ann").await;
    assert!(matches!(welcome, ServerMessage::Welcome { games, .. } if games.is_empty()));
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "c1k".into(),
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::NotFound);

    // Before both sides moved, leaving aborts the game.
    let next = start_game(&mut ann, &mut bob, "3x3").await;
    assert!(next > game);
    play(next, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    bob.drop_without_close();
    ann.away(next, Side::White, "bob").await;
    let (_, end) = ann.event().await;
    assert!(matches!(
        end.kind,
        EventKind::Ended {
            winner: None,
            reason: EndReason::Aborted,
            ..
        }
    ));
    server.stop().await;
    let kept = parlor_server::SqliteStore::open(dir.path())
        .unwrap()
        .finished_games()
        .unwrap();
    let reasons: Vec<_> = kept.iter().map(|k| k.result.reason).collect();
    assert_eq!(reasons, vec![EndReason::Abandoned, EndReason::Aborted]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_silent_is_taken_as_dropped_by_the_heartbeat() {
    let dir = tempfile::tempdir().unwrap();
    let config = parlor_server::Config {
        grace: Duration::from_millis(500),
        first_move: Duration::from_secs(30),
        tick: Duration::from_millis(20),
        heartbeat: Duration::from_millis(200),
        ..crate::client::raised_caps()
    };
    let server = TestServer::start(dir.path(), config).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "4x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    // Ann's side goes silent: her connection stays open but she reads nothing, so answers no ping.
    let silent = Instant::now();
    bob.away(game, Side::Black, "ann").await;
    let (_, end) = bob.event().await;
    assert!(matches!(
        end.kind,
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Abandoned,
            ..
        }
    ));
    assert!(silent.elapsed() >= Duration::from_millis(500 + 600 - 250));
    drop(ann);
    server.stop().await;
}
