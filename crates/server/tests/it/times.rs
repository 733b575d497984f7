//! Each move's time kept with its game: the time spent and both clocks after it, in SQLite and in the finished
//! game's record, and in the events of a finished game sent again (by `resume` or `watch`); a database from before
//! they were kept (schema 2) opens, and its games read with no times.

use crate::client::{Client, TestServer, play, quick, start_game_with};
use parlor_online::protocol::{ClientMessage, Event, EventKind, ServerMessage, Side, TimeControl};
use parlor_server::Store as _;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_record_has_each_moves_time_and_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let tc = Some(TimeControl {
        minutes: 1,
        increment_secs: 2,
    });
    let game = start_game_with(&mut ann, &mut bob, "6x5", tc, false).await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    // Black thinks for 400 ms on the clock.
    tokio::time::sleep(Duration::from_millis(400)).await;
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "d1k".into(),
    })
    .await;
    let (_, moved) = ann.event().await;
    let _ = bob.event().await;
    let EventKind::Moved {
        clocks: Some(after),
        ..
    } = moved.kind
    else {
        panic!("{moved:?}")
    };
    bob.send(&ClientMessage::Resign { game }).await;
    let _ = (ann.event().await, bob.event().await);

    ann.send(&ClientMessage::Record { game }).await;
    let ServerMessage::Record { record } = ann.recv().await else {
        panic!("no record")
    };
    let times = record.times.expect("the record has the moves' times");
    assert_eq!(times.len(), 3, "{times:?}");
    // The third move: at least the 400 ms waited, and the clocks after it are the ones its event carried.
    assert!((400..30_000).contains(&times[2].spent_ms), "{:?}", times[2]);
    assert_eq!(
        (times[2].black_ms, times[2].white_ms),
        (Some(after.black_ms), Some(after.white_ms))
    );
    // Black's clock: 60 s less the time spent, plus the 2 s increment.
    assert_eq!(after.black_ms, 62_000 - times[2].spent_ms);
    // The first two moves ran no clock.
    assert!(
        times[..2]
            .iter()
            .all(|t| (t.black_ms, t.white_ms) == (Some(60_000), Some(60_000)))
    );
    server.stop().await;
    let kept = parlor_server::SqliteStore::open(dir.path())
        .unwrap()
        .finished_game(game)
        .unwrap()
        .unwrap();
    assert_eq!(kept.times.as_deref(), Some(&times[..]));
}

/// Sends `mv` from `mover` and returns the events both players then get (the same), one move's worth.
async fn moved(game: u64, mover: &mut Client, other: &mut Client, seq: u64, mv: &str) -> Event {
    mover
        .send(&ClientMessage::Move {
            game,
            seq,
            mv: mv.into(),
        })
        .await;
    let (_, a) = mover.event().await;
    let (_, b) = other.event().await;
    assert_eq!(a, b);
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_events_sent_again_carry_the_clocks_it_was_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let tc = Some(TimeControl {
        minutes: 1,
        increment_secs: 2,
    });
    let game = start_game_with(&mut ann, &mut bob, "6x5", tc, false).await;
    let mut live = vec![
        moved(game, &mut ann, &mut bob, 1, "c1k").await,
        moved(game, &mut bob, &mut ann, 1, "c6j").await,
    ];
    // Both clocks run from here: Black thinks 300 ms, White 200 ms, Black 100 ms.
    for (ms, seq, mv, black) in [
        (300, 2, "d1k", true),
        (200, 2, "d6j", false),
        (100, 3, "b1k", true),
    ] {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        let (mover, other) = if black {
            (&mut ann, &mut bob)
        } else {
            (&mut bob, &mut ann)
        };
        live.push(moved(game, mover, other, seq, mv).await);
    }
    bob.send(&ClientMessage::Resign { game }).await;
    let (_, end) = ann.event().await;
    assert_eq!(bob.event().await.1, end);
    live.push(end);
    let clocks = |e: &Event| match &e.kind {
        EventKind::Moved { clocks, .. } | EventKind::Ended { clocks, .. } => clocks.unwrap(),
        other => panic!("{other:?}"),
    };
    // The game was played on a running clock: the last moves' clocks are below the start plus increments.
    assert!(clocks(&live[4]).black_ms < 64_000 - 300, "{:?}", live[4]);
    assert!(clocks(&live[3]).white_ms < 62_000 - 150, "{:?}", live[3]);

    // A spectator watching the finished game from the start gets every event again, clocks and all.
    let (mut carl, _) = Client::hello(server.addr, "carl").await;
    carl.send(&ClientMessage::Watch { game, after: 0 }).await;
    assert!(matches!(
        carl.recv().await,
        ServerMessage::Watching { game: g, last_event: 7 } if g == game
    ));
    let (_, started) = carl.event().await;
    assert_eq!(started.n, 1);
    let mut again = Vec::new();
    for _ in 0..live.len() {
        again.push(carl.event().await.1);
    }
    assert_eq!(
        again, live,
        "the events sent again are the ones played, clocks and all"
    );
    // And a player resuming it after its third event gets the rest, the same.
    bob.send(&ClientMessage::Resume { game, after: 3 }).await;
    let mut resumed = Vec::new();
    for _ in 3..7 {
        resumed.push(bob.event().await.1);
    }
    assert_eq!(resumed, live[2..]);
    server.stop().await;

    // After a restart too (the events rebuilt from the database alone).
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut dan, _) = Client::hello(server.addr, "dan").await;
    dan.send(&ClientMessage::Watch { game, after: 1 }).await;
    assert!(matches!(dan.recv().await, ServerMessage::Watching { .. }));
    let mut after_restart = Vec::new();
    for _ in 1..7 {
        after_restart.push(dan.event().await.1);
    }
    assert_eq!(after_restart, live);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_lost_on_time_is_sent_again_with_the_losers_clock_at_zero() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    // 0+1: each side starts with one second.
    let tc = Some(TimeControl {
        minutes: 0,
        increment_secs: 1,
    });
    let game = start_game_with(&mut ann, &mut bob, "6x5", tc, false).await;
    let mut live = vec![
        moved(game, &mut ann, &mut bob, 1, "c1k").await,
        moved(game, &mut bob, &mut ann, 1, "c6j").await,
    ];
    tokio::time::sleep(Duration::from_millis(150)).await;
    live.push(moved(game, &mut ann, &mut bob, 2, "d1k").await);
    // White lets its clock run out.
    let (_, end) = ann.event().await;
    assert_eq!(bob.event().await.1, end);
    assert!(
        matches!(&end.kind, EventKind::Ended { reason, winner: Some(Side::Black), clocks: Some(c), .. }
            if reason.as_str() == "time" && c.white_ms == 0),
        "{end:?}"
    );
    live.push(end);
    ann.send(&ClientMessage::Resume { game, after: 1 }).await;
    let mut again = Vec::new();
    for _ in 0..live.len() {
        again.push(ann.event().await.1);
    }
    assert_eq!(again, live);
    server.stop().await;
}

#[test]
fn a_database_from_before_times_opens_and_its_games_have_none() {
    let dir = tempfile::tempdir().unwrap();
    {
        // Schema 2 as the session-14 server made it, with one finished game and one in play.
        let db =
            rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE)).unwrap();
        db.execute_batch(
            "CREATE TABLE players (name TEXT PRIMARY KEY NOT NULL, token_sha256 TEXT NOT NULL,
                 created_unix_ms INTEGER NOT NULL, rating REAL NOT NULL DEFAULT 1500.0,
                 deviation REAL NOT NULL DEFAULT 350.0, volatility REAL NOT NULL DEFAULT 0.06);
             CREATE TABLE games (id INTEGER PRIMARY KEY NOT NULL, black TEXT NOT NULL, white TEXT NOT NULL,
                 board TEXT NOT NULL, started_unix_ms INTEGER NOT NULL, moves TEXT NOT NULL DEFAULT '',
                 winner TEXT, reason TEXT, position TEXT, ended_unix_ms INTEGER, clock TEXT,
                 rated INTEGER NOT NULL DEFAULT 0, ratings TEXT, rematch_of INTEGER,
                 black_ms INTEGER NOT NULL DEFAULT 0, white_ms INTEGER NOT NULL DEFAULT 0,
                 black_seq INTEGER, white_seq INTEGER);
             CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
             INSERT INTO games (id, black, white, board, started_unix_ms, moves, winner, reason, position,
                 ended_unix_ms) VALUES (1, 'ann', 'bob', '4x4', 1, 'b1k b4j', 'white', 'resignation', 'p', 2);
             INSERT INTO games (id, black, white, board, started_unix_ms, moves, black_seq, white_seq)
                 VALUES (2, 'ann', 'bob', '4x4', 3, 'b1k', 1, NULL);
             PRAGMA user_version = 2;",
        )
        .unwrap();
    }
    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    let old = store.finished_game(1).unwrap().unwrap();
    assert_eq!((old.moves.as_str(), old.times), ("b1k b4j", None));
    let live = store.games_in_play().unwrap();
    assert_eq!((live.len(), live[0].times.clone()), (1, None));
    // The game in play goes on with times from now: its record then has one a move.
    let t = |spent_ms| parlor_online::protocol::MoveTime {
        spent_ms,
        black_ms: None,
        white_ms: None,
    };
    store
        .save_progress(2, "b1k b4j", &[t(0), t(700)], [0, 0], [Some(1), Some(1)])
        .unwrap();
    assert_eq!(
        store.games_in_play().unwrap()[0].times,
        Some(vec![t(0), t(700)])
    );
    let user_version: i64 =
        rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE))
            .unwrap()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
    assert_eq!(user_version, parlor_server::store::SCHEMA_VERSION);
}
