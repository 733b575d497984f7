//! The server killed (its runtime dropped, nothing closed) and started again on the same database: every finished
//! game is kept, tokens are remembered, and game numbers are never given twice.

use crate::client::{Client, TestServer, play, quick, start_game, token};
use parlor_online::protocol::{ClientMessage, EndReason, ErrorCode, EventKind, Side};
use parlor_server::FinishedGame;
use parlor_server::Store as _;
use std::time::Duration;

/// A runtime of its own, to be dropped as a kill drops the server's.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_killed_server_restarted_keeps_every_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let first = runtime();
    let (finished, in_play) = first.block_on(async {
        let server = TestServer::start(dir.path(), quick(30_000)).await;
        let (mut ann, _) = Client::hello(server.addr, "ann").await;
        let (mut bob, _) = Client::hello(server.addr, "bob").await;
        let mut finished = Vec::new();
        for board in ["3x3", "4x4", "6x5"] {
            let game = start_game(&mut ann, &mut bob, board).await;
            play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
            play(
                game,
                &mut bob,
                &mut ann,
                Side::White,
                1,
                "b3j".replace('3', &board[..1]).as_str(),
                3,
            )
            .await;
            bob.send(&ClientMessage::Resign { game }).await;
            for c in [&mut ann, &mut bob] {
                let (_, end) = c.event().await;
                let EventKind::Ended { position, .. } = end.kind else {
                    panic!("{end:?}")
                };
                if c.name == "ann" {
                    finished.push((game, board, position));
                }
            }
        }
        // One game left in play when the server dies.
        let in_play = start_game(&mut ann, &mut bob, "4x3").await;
        (finished, in_play)
    });
    // Kill: the runtime goes with every task in it, no stop, no close.
    drop(first);

    let second = runtime();
    second.block_on(async {
        let kept: Vec<FinishedGame> = parlor_server::SqliteStore::open(dir.path())
            .unwrap()
            .finished_games()
            .unwrap();
        assert_eq!(kept.len(), finished.len());
        for (k, (game, board, position)) in kept.iter().zip(&finished) {
            assert_eq!(k.id, *game);
            assert_eq!(k.board, *board);
            assert_eq!(k.position, *position);
            assert_eq!(k.black, "ann");
            assert_eq!(k.result.winner, Some(Side::Black));
            assert_eq!(k.result.reason, EndReason::Resignation);
            assert_eq!(k.moves.split(' ').count(), 2);
        }

        let server = TestServer::start(dir.path(), quick(30_000)).await;
        // The token is remembered: another one is refused for the same name.
        let mut thief = Client::connect(server.addr, "thief").await;
        thief
            .send(&ClientMessage::Hello {
                name: "ann".into(),
                token: token("someone-else"),
            })
            .await;
        assert_eq!(thief.error().await, ErrorCode::BadName);
        let (mut ann, _) = Client::hello(server.addr, "ann").await;
        // The game in play waits for both: Ann, back first, is told Bob is away, then that he is back.
        ann.away(in_play, Side::White, "bob").await;
        let (mut bob, _) = Client::hello(server.addr, "bob").await;
        ann.back(in_play, Side::White, "bob").await;
        // A game finished before the kill is sent again whole: start, two moves, the end in its final position.
        let (old, _, position) = &finished[0];
        bob.send(&ClientMessage::Resume {
            game: *old,
            after: 0,
        })
        .await;
        let mut kinds = Vec::new();
        for n in 1..=4 {
            let (g, event) = bob.event().await;
            assert_eq!((g, event.n), (*old, n));
            kinds.push(event.kind);
        }
        assert!(matches!(&kinds[3], EventKind::Ended { position: p, .. } if p == position));
        let game = start_game(&mut ann, &mut bob, "3x3").await;
        assert!(game > in_play, "game numbers are never given twice");
        tokio::time::timeout(Duration::from_secs(20), server.stop())
            .await
            .unwrap();
    });
}
