//! 200 players join the rated queue at once and are paired into 100 games played to the end, each watched by a
//! spectator: players and spectators see the same final position, each game has one result and exactly one rating
//! update, and the ratings obey Glicko-2's invariants.

use crate::client::{Client, TestServer, quick};
use crate::many::{Seen, play_out};
use nocca::Dims;
use parlor_online::protocol::{ClientMessage, EventKind, Rating, ServerMessage, Side};
use parlor_server::Store as _;
use std::collections::HashMap;
use std::time::Duration;

const PLAYERS: usize = 200;
const SPECTATORS: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_queued_players_play_rated_games_watched_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let addr = server.addr;
    let mut players = Vec::new();
    for i in 0..PLAYERS {
        players.push(tokio::spawn(async move {
            let name = format!("q{i}");
            let (mut me, _) = Client::hello(addr, &name).await;
            me.send(&ClientMessage::Queue {
                board: "4x4".into(),
                clock: None,
            })
            .await;
            assert!(matches!(me.recv().await, ServerMessage::Queued { .. }));
            let (game, start) = me.event().await;
            let EventKind::Started {
                black,
                rated,
                black_rating,
                ..
            } = start.kind
            else {
                panic!("{start:?}")
            };
            assert!(rated);
            assert_eq!(black_rating, Rating::NEW);
            let side = if black == name {
                Side::Black
            } else {
                Side::White
            };
            (
                name,
                side,
                play_out(me, game, side, Dims::new(4, 4).unwrap(), i as u64).await,
            )
        }));
    }
    // Spectators: once games are in play, each watches every tenth live game from its start.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut spectators = Vec::new();
    for s in 0..SPECTATORS {
        spectators.push(tokio::spawn(async move {
            let (mut eve, _) = Client::hello(addr, &format!("eve{s}")).await;
            eve.send(&ClientMessage::Lobby { follow: false }).await;
            let ServerMessage::Lobby { games, .. } = eve.recv().await else {
                panic!("no lobby")
            };
            let mine: Vec<u64> = games
                .iter()
                .map(|g| g.game)
                .filter(|g| *g as usize % SPECTATORS == s)
                .collect();
            let mut ends: HashMap<u64, (Option<Side>, String)> = HashMap::new();
            for &game in &mine {
                eve.send(&ClientMessage::Watch { game, after: 0 }).await;
            }
            // Each watched game: `watching`, then its events to the end.
            while ends.len() < mine.len() {
                match eve.recv().await {
                    ServerMessage::Event { game, event } => {
                        if let EventKind::Ended {
                            winner, position, ..
                        } = event.kind
                        {
                            assert!(ends.insert(game, (winner, position)).is_none());
                        }
                    }
                    ServerMessage::Watching { .. } => {}
                    other => panic!("{other:?}"),
                }
            }
            ends
        }));
    }
    let mut seen: HashMap<u64, Vec<(String, Side, Seen)>> = HashMap::new();
    for p in players {
        let (name, side, s) = tokio::time::timeout(Duration::from_secs(50), p)
            .await
            .expect("every game ends in time")
            .unwrap();
        seen.entry(s.game).or_default().push((name, side, s));
    }
    assert_eq!(seen.len(), PLAYERS / 2, "everyone was paired once");
    let mut watched = 0;
    for s in spectators {
        for (game, (winner, position)) in s.await.unwrap() {
            let sides = &seen[&game];
            assert_eq!(
                position, sides[0].2.position,
                "the spectator's final position"
            );
            let Some(EventKind::Ended { winner: w, .. }) =
                sides[0].2.events.last().map(|e| &e.kind)
            else {
                unreachable!()
            };
            assert_eq!(winner, *w);
            watched += 1;
        }
    }
    assert!(watched > 0);
    server.stop().await;

    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    assert_eq!(store.finished_games().unwrap().len(), PLAYERS / 2);
    for sides in seen.values() {
        assert_eq!(sides.len(), 2);
        assert_eq!(sides[0].2, sides[1].2, "both sides saw the same game");
        let Some(EventKind::Ended {
            winner, ratings, ..
        }) = sides[0].2.events.last().map(|e| &e.kind)
        else {
            unreachable!()
        };
        let changes = ratings.expect("a rated game's end carries the changes");
        for (name, side, _) in sides {
            let change = match side {
                Side::Black => changes.black,
                Side::White => changes.white,
            };
            assert_eq!(change.before, Rating::NEW);
            match winner {
                Some(w) if w == side => assert!(change.after.rating > 1500),
                Some(_) => assert!(change.after.rating < 1500),
                None => assert_eq!(change.after.rating, 1500),
            }
            assert!(change.after.deviation < 350);
            // Exactly one update: the kept rating is the one the end announced.
            let kept = store.rating(name).unwrap();
            assert_eq!(parlor_server::rating::shown(&kept), change.after);
        }
    }
}
