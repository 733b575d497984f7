//! Clocks through the server: a timed game lost on time with nobody touching it, and a game aborted because a first
//! move was not made in time.

use crate::client::{Client, TestServer, quick, start_game_with};
use parlor_online::protocol::{
    ClientMessage, Clocks, EndReason, EventKind, ServerMessage, Side, TimeControl,
};
use parlor_server::Store as _;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_side_whose_clock_runs_out_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    // 0+1: each side starts with one second.
    let tc = Some(TimeControl {
        minutes: 0,
        increment_secs: 1,
    });
    let game = start_game_with(&mut ann, &mut bob, "4x4", tc, false).await;
    for (seq, mover, mv) in [(1, Side::Black, "b1k"), (1, Side::White, "b4j")] {
        let client = if mover == Side::Black {
            &mut ann
        } else {
            &mut bob
        };
        client
            .send(&ClientMessage::Move {
                game,
                seq,
                mv: mv.into(),
            })
            .await;
        for c in [&mut ann, &mut bob] {
            let (_, event) = c.event().await;
            let EventKind::Moved { clocks, .. } = event.kind else {
                panic!("{event:?}")
            };
            let running = (mover == Side::White).then_some(Side::Black);
            assert_eq!(
                clocks,
                Some(Clocks {
                    black_ms: 1_000,
                    white_ms: 1_000,
                    running
                })
            );
        }
    }
    // Ann (Black) does not move: her second runs out.
    let waited = Instant::now();
    for c in [&mut ann, &mut bob] {
        let (g, event) = c.event().await;
        assert_eq!(g, game);
        let EventKind::Ended {
            winner,
            reason,
            clocks,
            ..
        } = event.kind
        else {
            panic!("{event:?}")
        };
        assert_eq!((winner, reason), (Some(Side::White), EndReason::Time));
        assert_eq!(
            clocks,
            Some(Clocks {
                black_ms: 0,
                white_ms: 1_000,
                running: None
            })
        );
    }
    assert!(waited.elapsed() < Duration::from_secs(10));
    // Her move now is refused: the game is over.
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "c1k".into(),
    })
    .await;
    assert!(matches!(ann.recv().await, ServerMessage::Error { .. }));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_move_not_made_in_time_aborts_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let config = parlor_server::Config {
        first_move: Duration::from_millis(300),
        ..quick(30_000)
    };
    let server = TestServer::start(dir.path(), config).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game_with(&mut ann, &mut bob, "6x5", None, true).await;
    for c in [&mut ann, &mut bob] {
        let (g, event) = c.event().await;
        assert_eq!(g, game);
        assert!(
            matches!(
                event.kind,
                EventKind::Ended {
                    winner: None,
                    reason: EndReason::Aborted,
                    ratings: None,
                    ..
                }
            ),
            "{event:?}"
        );
    }
    server.stop().await;
    let kept = parlor_server::SqliteStore::open(dir.path())
        .unwrap()
        .finished_game(game)
        .unwrap()
        .unwrap();
    assert_eq!(kept.result.reason, EndReason::Aborted);
}
