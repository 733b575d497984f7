//! The server on PostgreSQL: a rated game played to its end by two clients, the server started again on the same
//! database, the game's record and ratings read back; and the real binary, `parlor-server --database URL` (or
//! `PARLOR_DATABASE`), healthy on the test cluster, a URL that is not PostgreSQL's refused with why, and the
//! password never printed. Skipped, saying so, without PostgreSQL ([`crate::postgres`]).

use crate::client::{Client, TestServer, http_get, play, quick, start_game_with, token};
use crate::contract::Pg;
use crate::env::{refused, start};
use parlor_online::protocol::{ClientMessage, EndReason, ErrorCode, EventKind, Rating, Side};
use parlor_server::{PgStore, Store};

/// Runs `f` on a thread of its own: the `postgres` client blocks, which an async task must not.
pub fn blocking<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_on_postgres_is_kept_through_a_restart() {
    let Some(db) = Pg::new() else { return };
    let url = db.url.clone();
    let store = blocking(|| PgStore::open(&url)).unwrap();
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let game = start_game_with(&mut ann, &mut bob, "4x4", None, true).await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "b4j", 3).await;
    bob.send(&ClientMessage::Resign { game }).await;
    let mut ends = Vec::new();
    for c in [&mut ann, &mut bob] {
        let (g, end) = c.event().await;
        assert_eq!((g, end.n), (game, 4));
        ends.push(end);
    }
    assert_eq!(ends[0], ends[1]);
    let EventKind::Ended {
        winner,
        reason,
        ratings: Some(changes),
        ..
    } = ends[0].kind.clone()
    else {
        panic!("{:?}", ends[0])
    };
    assert_eq!(
        (winner, reason),
        (Some(Side::Black), EndReason::Resignation)
    );
    assert_eq!(changes.black.before, Rating::NEW);
    assert!(changes.black.after.rating > changes.white.after.rating);
    // A game left in play over the restart.
    let in_play = start_game_with(&mut ann, &mut bob, "3x3", None, false).await;
    drop((ann, bob));
    server.stop().await;

    let url = db.url.clone();
    let store = blocking(|| PgStore::open(&url)).unwrap();
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    // The token is remembered: another is refused for the name.
    let mut thief = Client::connect(server.addr, "thief").await;
    thief
        .send(&ClientMessage::Hello {
            name: "ann".into(),
            token: token("someone-else"),
        })
        .await;
    assert_eq!(thief.error().await, ErrorCode::BadName);
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    ann.away(in_play, Side::White, "bob").await;
    // The finished game is sent again as it was played.
    ann.send(&ClientMessage::Resume { game, after: 0 }).await;
    for n in 1..=4 {
        let (g, event) = ann.event().await;
        assert_eq!((g, event.n), (game, n));
        if n == 4 {
            assert_eq!(event, ends[0], "its end as it was sent live");
        }
    }
    server.stop().await;

    let url = db.url.clone();
    blocking(move || {
        let mut store = PgStore::open(&url).unwrap();
        let kept = store.finished_game(game).unwrap().expect("kept");
        assert!(kept.rated);
        assert_eq!(kept.ratings, Some(changes));
        assert_eq!(kept.moves, "b1k b4j");
        assert_eq!(kept.result.winner, Some(Side::Black));
        let shown = |store: &mut PgStore, name: &str| {
            parlor_server::rating::shown(&store.rating(name).unwrap())
        };
        assert_eq!(shown(&mut store, "ann"), changes.black.after);
        assert_eq!(shown(&mut store, "bob"), changes.white.after);
        let live = store.games_in_play().unwrap();
        assert_eq!(live.iter().map(|g| g.id).collect::<Vec<_>>(), [in_play]);
        assert!(in_play > game);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_on_postgres_is_healthy_and_a_bad_url_is_refused() {
    let Some(db) = Pg::new() else { return };
    let dir = tempfile::tempdir().unwrap();
    let stderr = dir.path().join("stderr.txt");
    let data = dir.path().join("data");
    let data_s = data.to_str().unwrap();
    let url = db.url.secret().to_string();
    let (server, addr) = start(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:0"),
            ("PARLOR_NO_LOG_FILE", "1"),
        ],
        &["--data-dir", data_s, "--database", &url],
        &stderr,
    );
    let (status, body) = http_get(addr, "/healthz").await;
    assert_eq!(status, 200, "{body}");
    let (_ann, _) = Client::hello(addr, "ann").await;
    drop(server);
    assert!(
        !data.join(parlor_server::store::DB_FILE).exists(),
        "nothing kept in SQLite"
    );
    let url2 = db.url.clone();
    let known = blocking(move || {
        PgStore::open(&url2)
            .unwrap()
            .check_login("ann", &token("ann"))
            .unwrap()
    });
    assert!(known.is_some(), "ann is kept in PostgreSQL");

    // From the variable, with a password (which trust takes and ignores): healthy, and the password in no line.
    let with_password = url.replacen("parlor@", "parlor:hunter2-secret@", 1);
    let (server, addr) = start(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:0"),
            ("PARLOR_NO_LOG_FILE", "1"),
            ("PARLOR_DATABASE", &with_password),
        ],
        &["--data-dir", data_s],
        &stderr,
    );
    let (status, _) = http_get(addr, "/healthz").await;
    assert_eq!(status, 200);
    drop(server);
    let said = std::fs::read_to_string(&stderr).unwrap();
    assert!(!said.contains("hunter2"), "{said}");

    // Not PostgreSQL's: refused where it is parsed, from the flag or the variable, the password masked.
    for (vars, args) in [
        (vec![], vec!["--database", "mysql://u:hunter2@h/db"]),
        (vec![("PARLOR_DATABASE", "mysql://u:hunter2@h/db")], vec![]),
        (vec![], vec!["--database", "server.db"]),
    ] {
        let (code, said) = refused(&vars, &args, dir.path());
        assert_eq!(code, 2, "{said}");
        assert!(said.contains("is not a database URL"), "{said}");
        assert!(said.contains("postgres://"), "{said}");
        assert!(!said.contains("hunter2"), "{said}");
        if !vars.is_empty() {
            assert!(said.contains("PARLOR_DATABASE"), "{said}");
        }
    }
    // PostgreSQL's, but no server there: the server says it could not connect, the password masked, and exits.
    let nowhere = "postgres://parlor:hunter2@127.0.0.1:1/parlor?connect_timeout=5";
    let (code, said) = refused(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:0"),
            ("PARLOR_NO_LOG_FILE", "1"),
        ],
        &["--data-dir", data_s, "--database", nowhere],
        dir.path(),
    );
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("connecting to postgres://parlor:****@127.0.0.1:1/parlor"),
        "{said}"
    );
    assert!(!said.contains("hunter2"), "{said}");
}
