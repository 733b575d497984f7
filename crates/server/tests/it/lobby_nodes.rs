//! The lobby across nodes on one PostgreSQL database (issue 54), with real node processes: the players online on
//! every node are listed everywhere (and one gone drops out within a presence's age); a challenge from a player on
//! one node to a player on another is seen there, accepted there, and its game made once and played by both; a
//! rematch offered on one node is accepted on the other; a player's away and back reach their opponent on another
//! node; a challenge across nodes is declined, cancelled, and closed when its player goes. Skipped, saying so,
//! without PostgreSQL ([`crate::postgres`]).

use crate::client::Client;
use crate::nodes::{Nodes, next_event};
use parlor_online::protocol::{
    ChallengeInfo, ClientMessage, EventKind, PlayerInfo, ServerMessage, Side,
};
use parlor_server::{PgStore, Store};
use std::time::{Duration, Instant};

/// The longest the nodes take to see each other's players: a presence written every second, read every second,
/// and a loaded machine's slack.
const SEEN: Duration = Duration::from_secs(15);

/// The next message `c` is sent that is not an away or back, nor a pushed lobby.
async fn next_said(c: &mut Client) -> ServerMessage {
    // Bounded: a few away, back and lobby messages at most come first.
    for _ in 0..50 {
        match c.recv().await {
            ServerMessage::Away { .. }
            | ServerMessage::Back { .. }
            | ServerMessage::Lobby { .. } => {}
            other => return other,
        }
    }
    panic!("{}: only away, back and lobby messages", c.name)
}

/// The lobby `c` is sent when it asks.
async fn lobby(c: &mut Client) -> (u32, Vec<PlayerInfo>, Vec<ChallengeInfo>) {
    c.send(&ClientMessage::Lobby { follow: false }).await;
    // Bounded: a few away and back messages at most come first.
    for _ in 0..50 {
        match c.recv().await {
            ServerMessage::Lobby {
                online,
                players,
                challenges,
                ..
            } => return (online, players, challenges),
            ServerMessage::Away { .. } | ServerMessage::Back { .. } => {}
            other => panic!("{}: {other:?}", c.name),
        }
    }
    panic!("{}: no lobby", c.name)
}

/// Asks `c`'s lobby until `names` are exactly the players it lists (bounded by [`SEEN`]): how long it took.
async fn lobby_lists(c: &mut Client, names: &[&str]) -> Duration {
    let began = Instant::now();
    loop {
        let (online, players, _) = lobby(c).await;
        let mut listed: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        listed.sort_unstable();
        if listed == names {
            assert_eq!(online as usize, names.len(), "{}: {players:?}", c.name);
            return began.elapsed();
        }
        assert!(
            began.elapsed() < SEEN,
            "{}: lists {listed:?}, not {names:?}",
            c.name
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `from` challenges `to` (on another node): the challenge both are told of.
async fn challenge(from: &mut Client, to: &mut Client) -> ChallengeInfo {
    from.send(&ClientMessage::Challenge {
        opponent: to.name.clone(),
        board: "4x4".into(),
        clock: None,
        rated: false,
    })
    .await;
    let ServerMessage::ChallengeSent { challenge: sent } = next_said(from).await else {
        panic!("{}: no challenge sent", from.name)
    };
    let ServerMessage::Challenged { challenge: told } = next_said(to).await else {
        panic!("{}: not challenged", to.name)
    };
    assert_eq!(sent, told);
    assert_eq!(
        (sent.from.as_str(), sent.to.as_str()),
        (from.name.as_str(), to.name.as_str())
    );
    sent
}

/// The start both `a` and `b` see next: the game, Black and White.
async fn started(a: &mut Client, b: &mut Client) -> (u64, String, String) {
    let mut seen = Vec::new();
    for c in [a, b] {
        let ServerMessage::Event { game, event } = next_said(c).await else {
            panic!("{}: no start", c.name)
        };
        let EventKind::Started { black, white, .. } = &event.kind else {
            panic!("{}: {event:?}", c.name)
        };
        assert_eq!(event.n, 1);
        seen.push((game, black.clone(), white.clone()));
    }
    assert_eq!(seen[0], seen[1], "both see the same start");
    seen.remove(0)
}

/// The games kept in the database, finished or in play: (number, Black, White).
fn kept_games(n: &Nodes) -> Vec<(u64, String, String)> {
    let url = n.db.url.clone();
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut store = PgStore::open(&url).unwrap();
            let mut all: Vec<(u64, String, String)> = store
                .finished_games()
                .unwrap()
                .into_iter()
                .map(|g| (g.id, g.black, g.white))
                .chain(
                    store
                        .games_in_play()
                        .unwrap()
                        .into_iter()
                        .map(|g| (g.id, g.black, g.white)),
                )
                .collect();
            all.sort_unstable();
            all
        })
        .join()
        .unwrap()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_and_a_rematch_across_nodes_make_one_game_each_and_away_is_heard_there() {
    let Some(n) = Nodes::start(2) else { return };
    let (mut ann, _) = Client::hello(n.addr(0), "ann").await;
    let (mut bob, _) = Client::hello(n.addr(1), "bob").await;
    // Each node's lobby lists the players of both.
    let took = lobby_lists(&mut ann, &["ann", "bob"]).await;
    lobby_lists(&mut bob, &["ann", "bob"]).await;
    eprintln!("node A listed bob of node B after {took:?}");
    // Ann (node A) challenges Bob (node B): Bob sees it in his lobby too, and accepts it on node B.
    let c = challenge(&mut ann, &mut bob).await;
    let (_, _, challenges) = lobby(&mut bob).await;
    assert_eq!(challenges, vec![c.clone()]);
    bob.send(&ClientMessage::Accept {
        challenge: c.challenge,
    })
    .await;
    let (game, black, white) = started(&mut ann, &mut bob).await;
    assert_eq!((black.as_str(), white.as_str()), ("ann", "bob"));
    // Both play it: Black's move on node A, White's on node B, each seen by both.
    for (seq, mv, side) in [(1, "b1k", Side::Black), (1, "b4j", Side::White)] {
        let mover = if side == Side::Black {
            &mut ann
        } else {
            &mut bob
        };
        mover
            .send(&ClientMessage::Move {
                game,
                seq,
                mv: mv.into(),
            })
            .await;
        let seen = next_event(&mut ann, game).await;
        assert_eq!(next_event(&mut bob, game).await, seen);
        assert!(
            matches!(&seen.kind, EventKind::Moved { by, .. } if *by == side),
            "{seen:?}"
        );
    }
    // Bob resigns on node B; both see the end.
    bob.send(&ClientMessage::Resign { game }).await;
    let end = next_event(&mut ann, game).await;
    assert_eq!(next_event(&mut bob, game).await, end);
    assert!(matches!(end.kind, EventKind::Ended { .. }), "{end:?}");
    // The challenge is gone from both lobbies.
    assert!(lobby(&mut ann).await.2.is_empty());
    assert!(lobby(&mut bob).await.2.is_empty());
    // Bob offers a rematch on node B; Ann, told on node A, accepts it there: one game, colours swapped.
    bob.send(&ClientMessage::Rematch { game }).await;
    assert_eq!(
        next_said(&mut ann).await,
        ServerMessage::RematchOffered {
            game,
            from: "bob".into()
        }
    );
    ann.send(&ClientMessage::Rematch { game }).await;
    let (again, black, white) = started(&mut ann, &mut bob).await;
    assert_eq!((black.as_str(), white.as_str()), ("bob", "ann"));
    assert_ne!(again, game);
    // Exactly the two games were made.
    let games = kept_games(&n);
    assert_eq!(
        games,
        vec![
            (game, "ann".into(), "bob".into()),
            (again, "bob".into(), "ann".into())
        ],
    );
    // The rematch is refereed by node B; Bob leaves it: Ann, on node A, hears him away, then back.
    drop(bob);
    let deadline = Instant::now() + SEEN;
    // Bounded: within a presence's time.
    loop {
        assert!(Instant::now() < deadline, "ann never heard bob away");
        match tokio::time::timeout(Duration::from_millis(200), ann.next()).await {
            Ok(Some(ServerMessage::Away {
                game: g,
                side,
                name,
                grace_ms,
            })) => {
                assert_eq!((g, side, name.as_str()), (again, Side::Black, "bob"));
                assert!(grace_ms > 0);
                break;
            }
            Ok(Some(ServerMessage::Back { .. } | ServerMessage::Lobby { .. })) | Err(_) => {}
            other => panic!("ann: {other:?}"),
        }
    }
    let (mut bob, _) = Client::hello(n.addr(1), "bob").await;
    ann.back(again, Side::Black, "bob").await;
    // The game goes on.
    bob.send(&ClientMessage::Move {
        game: again,
        seq: 1,
        mv: "b1k".into(),
    })
    .await;
    let seen = next_event(&mut ann, again).await;
    assert_eq!(next_event(&mut bob, again).await, seen);
    assert_eq!(seen.n, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_across_nodes_are_declined_cancelled_and_closed_when_a_player_goes() {
    let Some(n) = Nodes::start(2) else { return };
    let (mut ann, _) = Client::hello(n.addr(0), "ann").await;
    let (mut bob, _) = Client::hello(n.addr(1), "bob").await;
    lobby_lists(&mut ann, &["ann", "bob"]).await;
    lobby_lists(&mut bob, &["ann", "bob"]).await;
    // Declined on node B: both are told.
    let c = challenge(&mut ann, &mut bob).await;
    bob.send(&ClientMessage::Decline {
        challenge: c.challenge,
    })
    .await;
    for p in [&mut ann, &mut bob] {
        assert_eq!(
            next_said(p).await,
            ServerMessage::ChallengeClosed {
                challenge: c.challenge,
                reason: "declined".into()
            },
            "{}",
            p.name
        );
    }
    // Cancelled by its challenger on node B: both are told; a challenge of node B's numbered apart from node A's.
    let c2 = challenge(&mut bob, &mut ann).await;
    assert_ne!(c2.challenge, c.challenge);
    bob.send(&ClientMessage::Cancel {
        challenge: c2.challenge,
    })
    .await;
    for p in [&mut ann, &mut bob] {
        assert_eq!(
            next_said(p).await,
            ServerMessage::ChallengeClosed {
                challenge: c2.challenge,
                reason: "cancelled".into()
            },
            "{}",
            p.name
        );
    }
    // Closed when its challenged player goes from node B (and is online nowhere): the challenger is told.
    let c3 = challenge(&mut ann, &mut bob).await;
    drop(bob);
    assert_eq!(
        next_said(&mut ann).await,
        ServerMessage::ChallengeClosed {
            challenge: c3.challenge,
            reason: "gone".into()
        }
    );
    // And Bob drops out of node A's lobby within a presence's age.
    let took = lobby_lists(&mut ann, &["ann"]).await;
    eprintln!("node A dropped bob of node B after {took:?}");
    // Nobody on no node: a challenge to Bob is refused.
    ann.send(&ClientMessage::Challenge {
        opponent: "bob".into(),
        board: "4x4".into(),
        clock: None,
        rated: false,
    })
    .await;
    assert!(matches!(
        next_said(&mut ann).await,
        ServerMessage::Error { .. }
    ));
    assert!(kept_games(&n).is_empty());
}
