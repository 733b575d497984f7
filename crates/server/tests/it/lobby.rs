//! The rated queue, ratings kept once per game, the lobby, challenges declined and cancelled, spectators and
//! rematches, and finished games' records.

use crate::client::{Client, TestServer, play, quick, start_game};
use parlor_online::protocol::{
    ClientMessage, EndReason, ErrorCode, EventKind, Rating, ServerMessage, Side,
};
use parlor_server::Store as _;

/// Both join the queue for 4x4 untimed; returns the game and who plays Black (the one who queued first).
async fn paired(first: &mut Client, second: &mut Client) -> u64 {
    for c in [&mut *first, &mut *second] {
        c.send(&ClientMessage::Queue {
            board: "4x4".into(),
            clock: None,
        })
        .await;
        assert!(matches!(c.recv().await, ServerMessage::Queued { .. }));
    }
    let (game, start) = first.event().await;
    let (game2, start2) = second.event().await;
    assert_eq!((game, &start), (game2, &start2));
    let EventKind::Started {
        black,
        white,
        rated,
        black_rating,
        ..
    } = start.kind
    else {
        panic!("{start:?}")
    };
    assert_eq!((black, white), (first.name.clone(), second.name.clone()));
    assert!(rated);
    assert_eq!(black_rating, Rating::NEW);
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_pairs_and_a_rated_game_updates_ratings_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = paired(&mut ann, &mut bob).await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    bob.send(&ClientMessage::Resign { game }).await;
    let mut seen = Vec::new();
    for c in [&mut ann, &mut bob] {
        let (_, end) = c.event().await;
        seen.push(end.clone());
        let EventKind::Ended {
            winner, ratings, ..
        } = end.kind
        else {
            panic!("{end:?}")
        };
        assert_eq!(winner, Some(Side::Black));
        let ratings = ratings.expect("a rated game's end has the changes");
        assert_eq!(ratings.black.before, Rating::NEW);
        assert_eq!(
            ratings.black.after,
            Rating {
                rating: 1662,
                deviation: 290
            }
        );
        assert_eq!(ratings.white.after.rating, 1338);
    }
    assert_eq!(seen[0], seen[1]);
    // Resigning again is refused and changes nothing; the ratings are kept, once.
    bob.send(&ClientMessage::Resign { game }).await;
    assert_eq!(bob.error().await, ErrorCode::NotFound);
    let (_, welcome) = Client::hello(server.addr, "carl").await;
    assert!(matches!(welcome, ServerMessage::Welcome { rating, .. } if rating == Rating::NEW));
    drop(ann);
    let (_, welcome) = Client::hello(server.addr, "ann").await;
    assert!(
        matches!(welcome, ServerMessage::Welcome { rating, .. } if rating.rating == 1662),
        "{welcome:?}"
    );
    // The record of the game carries the same changes.
    bob.send(&ClientMessage::Record { game }).await;
    let ServerMessage::Record { record } = bob.recv().await else {
        panic!("no record")
    };
    assert_eq!(
        (record.black.as_str(), record.white.as_str()),
        ("ann", "bob")
    );
    assert_eq!(record.moves, "b1k b4j");
    assert!(record.rated);
    assert_eq!(record.reason, EndReason::Resignation);
    assert!(record.ratings.is_some_and(|r| r.white.after.rating == 1338));
    assert!(record.ended_ms >= record.started_ms && record.started_ms > 0);
    server.stop().await;
    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    let ann = store.rating("ann").unwrap();
    assert!((ann.rating - 1662.3).abs() < 0.1, "{ann:?}");
    assert_eq!(store.finished_games().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_players_challenges_and_games_and_spectators_see_every_event() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let (mut eve, _) = Client::hello(server.addr, "eve").await;

    // A challenge declined, one cancelled.
    for (cancel, id) in [(false, 1u64), (true, 2)] {
        ann.send(&ClientMessage::Challenge {
            opponent: "bob".into(),
            board: "6x5".into(),
            clock: "5+3".parse().ok(),
            rated: true,
        })
        .await;
        assert!(
            matches!(ann.recv().await, ServerMessage::ChallengeSent { challenge } if challenge.challenge == id)
        );
        assert!(matches!(bob.recv().await, ServerMessage::Challenged { .. }));
        bob.send(&ClientMessage::Lobby { follow: false }).await;
        let ServerMessage::Lobby {
            online,
            players,
            challenges,
            ..
        } = bob.recv().await
        else {
            panic!("no lobby")
        };
        assert_eq!(online, 3);
        assert_eq!(players.len(), 3);
        assert_eq!(challenges.len(), 1);
        assert_eq!(
            challenges[0].clock.map(|c| c.to_string()),
            Some("5+3".into())
        );
        let (actor, other, msg) = if cancel {
            (&mut ann, &mut bob, ClientMessage::Cancel { challenge: id })
        } else {
            (&mut bob, &mut ann, ClientMessage::Decline { challenge: id })
        };
        actor.send(&msg).await;
        for c in [actor, other] {
            let ServerMessage::ChallengeClosed { challenge, reason } = c.recv().await else {
                panic!("no close")
            };
            assert_eq!(challenge, id);
            assert_eq!(reason, if cancel { "cancelled" } else { "declined" });
        }
        bob.send(&ClientMessage::Accept { challenge: id }).await;
        assert_eq!(bob.error().await, ErrorCode::NotFound);
    }

    let game = start_game(&mut ann, &mut bob, "4x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    eve.send(&ClientMessage::Lobby { follow: false }).await;
    let ServerMessage::Lobby { games, players, .. } = eve.recv().await else {
        panic!("no lobby")
    };
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].game, games[0].ply), (game, 1));
    assert!(players.iter().any(|p| p.name == "ann" && p.playing));
    assert!(players.iter().any(|p| p.name == "eve" && !p.playing));

    // Eve watches from the start: the two events so far, then each new one, the end included.
    eve.send(&ClientMessage::Watch { game, after: 0 }).await;
    assert_eq!(
        eve.recv().await,
        ServerMessage::Watching {
            game,
            last_event: 2
        }
    );
    let mut eve_saw = vec![eve.event().await.1, eve.event().await.1];
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    ann.send(&ClientMessage::Resign { game }).await;
    let (_, ann_end) = ann.event().await;
    let (_, bob_end) = bob.event().await;
    eve_saw.push(eve.event().await.1);
    eve_saw.push(eve.event().await.1);
    assert_eq!(
        eve_saw.iter().map(|e| e.n).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert_eq!(eve_saw[3], ann_end);
    assert_eq!(eve_saw[3], bob_end);

    // A rematch: offered by Bob, accepted by Ann; colours swap.
    bob.send(&ClientMessage::Rematch { game }).await;
    assert_eq!(
        ann.recv().await,
        ServerMessage::RematchOffered {
            game,
            from: "bob".into()
        }
    );
    ann.send(&ClientMessage::Rematch { game }).await;
    let (next, start) = ann.event().await;
    assert_eq!(bob.event().await, (next, start.clone()));
    assert!(next > game);
    assert!(matches!(
        start.kind,
        EventKind::Started { ref black, ref white, rematch_of: Some(g), .. }
            if black == "bob" && white == "ann" && g == game
    ));
    // A second rematch of the same game is a new offer, which Bob declines.
    ann.send(&ClientMessage::Rematch { game }).await;
    assert!(matches!(
        bob.recv().await,
        ServerMessage::RematchOffered { .. }
    ));
    bob.send(&ClientMessage::DeclineRematch { game }).await;
    assert_eq!(ann.recv().await, ServerMessage::RematchDeclined { game });

    // Ann's list of games has the finished one.
    eve.send(&ClientMessage::Games {
        player: "ann".into(),
    })
    .await;
    let ServerMessage::Games { games, .. } = eve.recv().await else {
        panic!("no games")
    };
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].game, games[0].winner, games[0].reason),
        (game, Some(Side::White), EndReason::Resignation)
    );
    server.stop().await;
}
