//! A player whose connection drops is said to be away, with the grace period left, to their opponent and the
//! game's spectators, and said to be back when they are; a connection that comes (a `hello`, a `watch`) while a
//! player is away is told too. Past the grace period the game ends as before.

use crate::client::{Client, TestServer, play, quick, start_game};
use parlor_online::protocol::{ClientMessage, EndReason, EventKind, ServerMessage, Side};
use std::time::Duration;

const GRACE_MS: u64 = 3_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_and_the_spectators_hear_a_player_away_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(GRACE_MS)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let (mut carl, _) = Client::hello(server.addr, "carl").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    carl.send(&ClientMessage::Watch { game, after: 0 }).await;
    assert!(matches!(carl.recv().await, ServerMessage::Watching { .. }));
    assert_eq!(carl.event().await.1.n, 1);
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    for n in [2, 3] {
        assert_eq!(carl.event().await.1.n, n);
    }

    // Bob's network goes: Ann and Carl hear it, with (nearly) the whole grace period left.
    bob.drop_without_close();
    for c in [&mut ann, &mut carl] {
        let left = c.away(game, Side::White, "bob").await;
        assert!(left <= GRACE_MS && left > GRACE_MS - 1_000, "{left}");
    }
    // Dave comes to watch while Bob is away: he is told, with less left.
    let (mut dave, _) = Client::hello(server.addr, "dave").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    dave.send(&ClientMessage::Watch { game, after: 3 }).await;
    assert!(matches!(dave.recv().await, ServerMessage::Watching { .. }));
    let left = dave.away(game, Side::White, "bob").await;
    assert!(left < GRACE_MS - 200, "{left}");
    // Ann opens a second connection (a phone): it is told that her opponent is away, after its welcome.
    let (mut phone, _) = Client::hello(server.addr, "ann").await;
    let left = phone.away(game, Side::White, "bob").await;
    assert!(left < GRACE_MS - 200, "{left}");

    // Bob is back inside the grace period: every connection of Ann's and both spectators hear it.
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    for c in [&mut ann, &mut phone, &mut carl, &mut dave] {
        c.back(game, Side::White, "bob").await;
    }
    // Past the grace period the game goes on: nothing more was said about Bob, and the next thing is a move.
    tokio::time::sleep(Duration::from_millis(GRACE_MS + 200)).await;
    bob.send(&ClientMessage::Resume { game, after: 3 }).await;
    // Nothing was missed, so the resume is answered by nothing; the move must not race it (else event 4 comes
    // twice: once live, once as asked).
    bob.settled().await;
    play(game, &mut ann, &mut bob, Side::Black, 2, "d1k", 4).await;
    assert_eq!(phone.event().await.1.n, 4);
    for c in [&mut carl, &mut dave] {
        assert_eq!(c.event().await.1.n, 4, "{}", c.name);
    }

    // Now Ann goes (both her connections): Bob hears it once, and past the grace period Ann loses.
    drop(phone);
    tokio::time::sleep(Duration::from_millis(200)).await;
    ann.drop_without_close();
    let left = bob.away(game, Side::Black, "ann").await;
    assert!(left <= GRACE_MS, "{left}");
    let (g, end) = bob.event().await;
    assert_eq!((g, end.n), (game, 5));
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
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_that_starts_with_its_offerer_away_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(GRACE_MS)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game(&mut ann, &mut bob, "4x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    ann.send(&ClientMessage::Resign { game }).await;
    for c in [&mut ann, &mut bob] {
        assert_eq!(c.event().await.1.n, 4);
    }
    ann.send(&ClientMessage::Rematch { game }).await;
    assert!(matches!(
        bob.recv().await,
        ServerMessage::RematchOffered { .. }
    ));
    // Ann leaves; Bob accepts within the grace period: the new game starts, and he hears that Ann is away.
    ann.drop_without_close();
    tokio::time::sleep(Duration::from_millis(200)).await;
    bob.send(&ClientMessage::Rematch { game }).await;
    let (second, start) = bob.event().await;
    assert!(matches!(start.kind, EventKind::Started { .. }), "{start:?}");
    let left = bob.away(second, Side::White, "ann").await;
    assert!(left <= GRACE_MS, "{left}");
    server.stop().await;
}
