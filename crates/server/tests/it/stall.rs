//! A store whose write stalls (a slow disk, a database busy elsewhere) stalls only what waits for that write: the
//! server's store runs on threads of its own and its hub never holds its lock across a store call. While a move's
//! progress takes three seconds to write, another player gets their pong, the lobby, a player's games and a welcome
//! on a new connection at once; the move's event reaches both players only once it is written.

use crate::client::{Client, TestServer, play, quick, start_game};
use crate::hooked::Hooked;
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side};
use parlor_server::{SqliteStore, Store};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the stalled write takes.
const STALL: Duration = Duration::from_secs(3);

/// The longest an answer that waits for no write may take while the write stalls (well under [`STALL`]).
const PROMPT: Duration = Duration::from_millis(1000);

/// Sends `msg` on `client` and waits for the answer, which must come within [`PROMPT`].
async fn prompt(client: &mut Client, msg: &ClientMessage) -> ServerMessage {
    let asked = Instant::now();
    client.send(msg).await;
    let answer = tokio::time::timeout(PROMPT, client.recv())
        .await
        .unwrap_or_else(|_| panic!("{}: no answer to {msg:?} within {PROMPT:?}", client.name));
    assert!(asked.elapsed() < PROMPT);
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_write_stalls_no_other_connection_and_its_event_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let stall = Arc::new(Mutex::new(None));
    // The SQLite store, with a switch that makes the next game's progress take [`STALL`] to write.
    let stalled: Arc<Mutex<Option<Duration>>> = Arc::clone(&stall);
    let store = Hooked {
        inner: Box::new(SqliteStore::open(dir.path()).unwrap()),
        hook: Arc::new(move |call| {
            if call == "save_progress" {
                let once = stalled.lock().unwrap().take();
                if let Some(d) = once {
                    std::thread::sleep(d);
                }
            }
            Ok(())
        }),
    };
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let (mut cat, _) = Client::hello(server.addr, "cat").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;

    // Ann's move: its progress takes STALL to write.
    *stall.lock().unwrap() = Some(STALL);
    let moved = Instant::now();
    ann.send(&ClientMessage::Move {
        game,
        seq: 1,
        mv: "c1k".into(),
    })
    .await;
    // Meanwhile everyone else is answered at once: a pong, the lobby (with the game in it), a player's games, and
    // a welcome on a new connection (a known player is read, not written).
    assert_eq!(
        prompt(&mut cat, &ClientMessage::Ping {}).await,
        ServerMessage::Pong {}
    );
    match prompt(&mut cat, &ClientMessage::Lobby { follow: false }).await {
        ServerMessage::Lobby { online, games, .. } => {
            assert_eq!(online, 3);
            assert_eq!(games.iter().map(|g| g.game).collect::<Vec<_>>(), [game]);
        }
        other => panic!("{other:?}"),
    }
    match prompt(
        &mut cat,
        &ClientMessage::Games {
            player: "ann".into(),
        },
    )
    .await
    {
        ServerMessage::Games { player, games } => {
            assert_eq!((player.as_str(), games.len()), ("ann", 0))
        }
        other => panic!("{other:?}"),
    }
    let mut again = Client::connect(server.addr, "cat").await;
    match prompt(
        &mut again,
        &ClientMessage::Hello {
            name: "cat".into(),
            token: crate::client::token("cat"),
        },
    )
    .await
    {
        ServerMessage::Welcome { name, .. } => assert_eq!(name, "cat"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        prompt(&mut bob, &ClientMessage::Ping {}).await,
        ServerMessage::Pong {}
    );
    assert!(
        moved.elapsed() < STALL,
        "every answer came before the stalled write ended"
    );

    // The move's event reaches both players once its write is done, not before.
    for c in [&mut ann, &mut bob] {
        let (g, event) = c.event().await;
        assert_eq!((g, event.n), (game, 2));
        assert!(matches!(
            &event.kind,
            EventKind::Moved {
                by: Side::Black,
                ..
            }
        ));
        assert!(
            moved.elapsed() >= STALL,
            "{}: the move was sent before it was written",
            c.name
        );
    }
    // The game goes on as usual.
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    server.stop().await;
    let kept = SqliteStore::open(dir.path())
        .unwrap()
        .games_in_play()
        .unwrap();
    assert_eq!(
        kept.iter()
            .map(|g| (g.id, g.moves.as_str()))
            .collect::<Vec<_>>(),
        [(game, "c1k c6j")]
    );
}
