//! One player, several connections (two tabs, a phone and a laptop): every connection gets the player's
//! challenges and game events, each once and in order; a move from any is taken, and one sent again from another is
//! harmless; the seat is held while one connection is alive, and the grace period starts when the last one drops.
//! What a connection follows (the lobby, a game watched) is its own.

use crate::client::{Client, TestServer, quick};
use parlor_online::protocol::{ClientMessage, EndReason, Event, EventKind, ServerMessage, Side};
use std::time::{Duration, Instant};

const GRACE_MS: u64 = 600;

/// Sends `mv` from `from` and checks every one of `all` sees it as event `n` (and nothing else first).
async fn moved(from: usize, all: &mut [&mut Client], game: u64, seq: u64, mv: &str, n: u64) {
    all[from]
        .send(&ClientMessage::Move {
            game,
            seq,
            mv: mv.into(),
        })
        .await;
    for c in all.iter_mut() {
        let (g, event) = c.event().await;
        assert_eq!((g, event.n), (game, n), "{}", c.name);
        assert!(
            matches!(&event.kind, EventKind::Moved { mv: m, .. } if m == mv),
            "{}: {event:?}",
            c.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_connection_of_a_player_gets_the_events_and_a_move_from_any_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(GRACE_MS)).await;
    let (mut laptop, _) = Client::hello(server.addr, "ann").await;
    let (mut phone, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;

    // Bob challenges Ann: both her connections are told; she accepts on the phone.
    bob.send(&ClientMessage::Challenge {
        opponent: "ann".into(),
        board: "6x5".into(),
        clock: None,
        rated: false,
    })
    .await;
    let mut ids = Vec::new();
    for c in [&mut laptop, &mut phone] {
        match c.recv().await {
            ServerMessage::Challenged { challenge } => ids.push(challenge.challenge),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(ids[0], ids[1]);
    assert!(matches!(
        bob.recv().await,
        ServerMessage::ChallengeSent { .. }
    ));
    phone
        .send(&ClientMessage::Accept { challenge: ids[0] })
        .await;
    let mut game = 0;
    for c in [&mut bob, &mut laptop, &mut phone] {
        let (g, start) = c.event().await;
        assert_eq!(start.n, 1, "{}", c.name);
        assert!(matches!(start.kind, EventKind::Started { ref white, .. } if white == "ann"));
        game = g;
    }

    // Bob (Black) moves; Ann answers from the laptop, then from the phone: every connection sees each move once.
    let mut all = [&mut bob, &mut laptop, &mut phone];
    moved(0, &mut all, game, 1, "c1k", 2).await;
    moved(1, &mut all, game, 1, "c6j", 3).await;
    moved(0, &mut all, game, 2, "d1k", 4).await;
    moved(2, &mut all, game, 2, "d6j", 5).await;
    // The laptop, unsure its move arrived, sends it again: nothing happens (the next event anyone sees is 6).
    laptop
        .send(&ClientMessage::Move {
            game,
            seq: 1,
            mv: "c6j".into(),
        })
        .await;

    // The laptop's network goes; the phone holds the seat past the grace period and the game goes on.
    laptop.drop_without_close();
    tokio::time::sleep(Duration::from_millis(GRACE_MS + 300)).await;
    let mut two = [&mut bob, &mut phone];
    moved(0, &mut two, game, 3, "e1k", 6).await;

    // A third connection (a new tab) takes the game up from event 3: it gets 4, 5 and 6, once each.
    let (mut tab, welcome) = Client::hello(server.addr, "ann").await;
    let ServerMessage::Welcome { games, .. } = welcome else {
        panic!("{welcome:?}")
    };
    assert_eq!((games.len(), games[0].last_event), (1, 6));
    tab.send(&ClientMessage::Resume { game, after: 3 }).await;
    let got: Vec<u64> = {
        let mut got = Vec::new();
        for _ in 0..3 {
            let (g, e) = tab.event().await;
            assert_eq!(g, game);
            got.push(e.n);
        }
        got
    };
    assert_eq!(got, [4, 5, 6]);
    let mut three = [&mut bob, &mut phone, &mut tab];
    moved(2, &mut three, game, 3, "e6j", 7).await;

    // The phone closes; the tab is still there: no end. Then the tab's network goes too: the grace period starts
    // from the last connection's going, and then Ann loses.
    drop(phone);
    tokio::time::sleep(Duration::from_millis(GRACE_MS + 300)).await;
    let mut two = [&mut bob, &mut tab];
    moved(0, &mut two, game, 4, "b1k", 8).await;
    let last_gone = Instant::now();
    tab.drop_without_close();
    // Only the last connection's going makes Ann away.
    bob.away(game, Side::White, "ann").await;
    let (_, end) = bob.event().await;
    assert!(last_gone.elapsed() >= Duration::from_millis(GRACE_MS - 50));
    assert_eq!(end.n, 9);
    assert!(
        matches!(
            end.kind,
            EventKind::Ended {
                winner: Some(Side::Black),
                reason: EndReason::Abandoned,
                ..
            }
        ),
        "{end:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_the_lobby_and_watching_are_each_connections_own() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(5_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let (mut follows, _) = Client::hello(server.addr, "carl").await;
    let (mut quiet, _) = Client::hello(server.addr, "carl").await;
    follows.send(&ClientMessage::Lobby { follow: true }).await;
    assert!(matches!(follows.recv().await, ServerMessage::Lobby { .. }));
    let game = crate::client::start_game(&mut ann, &mut bob, "4x4").await;
    // The following connection is pushed the lobby with the new game; the other, which did not ask, hears nothing
    // until it watches, and then only the game's events.
    let deadline = Instant::now() + crate::client::WAIT;
    loop {
        assert!(Instant::now() < deadline, "no lobby with the game");
        match follows.recv().await {
            ServerMessage::Lobby { games, online, .. } if games.iter().any(|g| g.game == game) => {
                assert_eq!(online, 3, "players online, not connections");
                break;
            }
            ServerMessage::Lobby { .. } => continue,
            other => panic!("{other:?}"),
        }
    }
    quiet.send(&ClientMessage::Watch { game, after: 0 }).await;
    assert!(matches!(quiet.recv().await, ServerMessage::Watching { .. }));
    assert_eq!(quiet.event().await.1.n, 1);
    ann.send(&ClientMessage::Move {
        game,
        seq: 1,
        mv: "b1k".into(),
    })
    .await;
    let seen: Vec<Event> = vec![
        quiet.event().await.1,
        ann.event().await.1,
        bob.event().await.1,
    ];
    assert!(seen.iter().all(|e| e.n == 2));
    // The following connection got no event of the game (it did not watch): its next message is a lobby.
    assert!(matches!(follows.recv().await, ServerMessage::Lobby { .. }));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_connection_gets_the_missed_events_before_the_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(5_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = crate::client::start_game(&mut ann, &mut bob, "6x5").await;
    let mut two = [&mut ann, &mut bob];
    moved(0, &mut two, game, 1, "c1k", 2).await;
    moved(1, &mut two, game, 1, "c6j", 3).await;

    // Bob opens a tab that last saw event 1; before it asks to resume, Ann moves (event 4).
    let (mut tab, welcome) = Client::hello(server.addr, "bob").await;
    assert!(
        matches!(welcome, ServerMessage::Welcome { ref games, .. } if games[0].last_event == 3)
    );
    let mut two = [&mut ann, &mut bob];
    moved(0, &mut two, game, 2, "d1k", 4).await;
    tab.send(&ClientMessage::Resume { game, after: 1 }).await;
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(tab.event().await.1.n);
    }
    assert_eq!(got, [2, 3, 4], "in order, none twice");
    // From then on it gets each new event as the others do.
    let mut three = [&mut ann, &mut bob, &mut tab];
    moved(2, &mut three, game, 2, "d6j", 5).await;

    // A connection that never resumes still gets the game's events, from the one after what `welcome` said, within
    // a second or so.
    let (mut passive, _) = Client::hello(server.addr, "ann").await;
    let mut three = [&mut ann, &mut bob, &mut tab];
    moved(0, &mut three, game, 3, "e1k", 6).await;
    let (g, e) = passive.event().await;
    assert_eq!((g, e.n), (game, 6));
    moved(
        1,
        &mut [&mut ann, &mut bob, &mut tab, &mut passive],
        game,
        3,
        "e6j",
        7,
    )
    .await;
    server.stop().await;
}
