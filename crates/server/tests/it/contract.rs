//! The store's contract ([`parlor_server::Store`]), one body for each clause run on both backends: SQLite in a
//! temporary directory and PostgreSQL in a test cluster ([`crate::postgres`]; skipped, saying so, without one).
//! Everything kept reads back; a reader sees every finished write; a rated game finished twice changes ratings once,
//! also when two writers race to finish it; game numbers from two writers never collide; a database of a newer
//! server is refused; and a store opened again finds the games in play.

use crate::postgres::{Cluster, admin, cluster};
use parlor_online::protocol::{
    EndReason, MoveTime, Rating, RatingChange, RatingChanges, Side, TimeControl,
};
use parlor_online::referee::GameResult;
use parlor_server::rating::{Exact, new_player};
use parlor_server::store::{
    Daily2048, DailyGuess, GameEnd, Login, NewGame, QueuedPlayer, Ranked2048, Rated, RematchOffer,
};
use parlor_server::{PgStore, PgUrl, SqliteStore, Store, StoreError};
use std::sync::{Arc, Barrier};

/// A backend to test: a database the test owns.
pub trait Backend: Sync {
    /// A new store on the database (another connection each time).
    fn open(&self) -> Result<Box<dyn Store>, StoreError>;
    /// Marks the database as made by a server of schema `version`.
    fn set_version(&self, version: i64);
}

struct Sqlite(tempfile::TempDir);

impl Backend for Sqlite {
    fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(SqliteStore::open(self.0.path())?))
    }

    fn set_version(&self, version: i64) {
        let db =
            rusqlite::Connection::open(self.0.path().join(parlor_server::store::DB_FILE)).unwrap();
        db.pragma_update(None, "user_version", version).unwrap();
    }
}

/// A database in the test cluster (which it holds running).
pub struct Pg {
    _cluster: Arc<Cluster>,
    /// The database's URL.
    pub url: PgUrl,
}

impl Pg {
    /// A new database, or none (said) without PostgreSQL.
    pub fn new() -> Option<Pg> {
        let c = cluster()?;
        Some(Pg {
            url: c.database(),
            _cluster: c,
        })
    }
}

impl Backend for Pg {
    fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(PgStore::open(&self.url)?))
    }

    fn set_version(&self, version: i64) {
        admin(
            &self.url,
            &format!("UPDATE schema_version SET version = {version}"),
        );
    }
}

pub fn new_game(id: u64, black: &str, white: &str, rated: bool) -> NewGame {
    NewGame {
        id,
        black: black.into(),
        white: white.into(),
        board: "6x5".into(),
        clock: Some(TimeControl {
            minutes: 5,
            increment_secs: 3,
        }),
        rated,
        rematch_of: None,
        ratings: [Rating::NEW; 2],
        remaining: [300_000; 2],
    }
}

fn move_time() -> MoveTime {
    MoveTime {
        spent_ms: 1234,
        black_ms: Some(298_766),
        white_ms: Some(300_000),
    }
}

pub fn end(moves: &str) -> GameEnd {
    GameEnd {
        moves: moves.into(),
        times: Some(vec![move_time(); moves.split(' ').count()]),
        result: GameResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation,
        },
        position: "the final position".into(),
        clocks: Some([290_000, 280_500]),
    }
}

fn exact(rating: f64) -> Exact {
    Exact {
        rating,
        deviation: 290.25,
        volatility: 0.059_999,
    }
}

fn rated(black: f64, white: f64) -> Rated {
    let change = |after: f64| RatingChange {
        before: Rating::NEW,
        after: parlor_server::rating::shown(&exact(after)),
    };
    Rated {
        changes: RatingChanges {
            black: change(black),
            white: change(white),
        },
        after: [exact(black), exact(white)],
    }
}

/// Everything kept reads back as it was written.
pub fn everything_kept_reads_back(b: &dyn Backend) {
    let mut s = b.open().unwrap();
    assert_eq!(s.login("ann", "t-ann").unwrap(), Login::Registered);
    assert_eq!(s.login("ann", "t-ann").unwrap(), Login::Known);
    assert_eq!(s.login("ann", "other").unwrap(), Login::WrongToken);
    assert_eq!(s.login("ANN", "t-ANN").unwrap(), Login::CaseVariant);
    assert_eq!(s.check_login("ANN", "t-ANN").unwrap(), None);
    assert_eq!(s.check_login("ann", "t-ann").unwrap(), Some(Login::Known));
    assert_eq!(s.login("bob", "t-bob").unwrap(), Login::Registered);
    let secret = s.secret().unwrap();
    assert_eq!(secret.len(), 64);
    assert_eq!(s.secret().unwrap(), secret, "made once and kept");
    assert_eq!(s.rating("nobody").unwrap(), new_player());

    assert_eq!(s.last_game_id().unwrap(), 0);
    s.start_game(&new_game(1, "ann", "bob", true)).unwrap();
    let times = vec![move_time(); 2];
    s.save_progress(1, "b1k b5j", &times, [299_000, 298_000], [Some(1), Some(1)])
        .unwrap();
    let live = s.games_in_play().unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(
        (live[0].moves.as_str(), live[0].remaining, live[0].seqs),
        ("b1k b5j", [299_000, 298_000], [Some(1), Some(1)])
    );
    assert_eq!(live[0].times.as_ref(), Some(&times));
    assert_eq!(live[0].start_ratings, Some([Rating::NEW; 2]));
    assert_eq!(s.last_game_id().unwrap(), 1);
    let r = rated(1662.31, 1337.69);
    s.finish_rated_game(1, &end("b1k b5j a1k"), Some(("ann", "bob", r)))
        .unwrap();
    assert!(s.games_in_play().unwrap().is_empty());
    let g = s.finished_game(1).unwrap().unwrap();
    assert_eq!((g.black.as_str(), g.white.as_str()), ("ann", "bob"));
    assert_eq!(g.moves, "b1k b5j a1k");
    assert_eq!(g.result, end("").result);
    assert_eq!(g.position, "the final position");
    assert_eq!(g.clock, new_game(1, "", "", true).clock);
    assert!(g.rated);
    assert_eq!(g.ratings, Some(r.changes));
    assert_eq!(g.times.map(|t| t.len()), Some(3));
    assert_eq!(g.start_ratings, Some([Rating::NEW; 2]));
    assert_eq!(g.end_clocks, Some([290_000, 280_500]));
    assert!(g.ended_ms >= g.started_ms && g.started_ms > 0);
    assert_eq!(
        s.rating("ann").unwrap(),
        exact(1662.31),
        "exactly as written"
    );
    assert_eq!(s.rating("bob").unwrap(), exact(1337.69));
    let best = s.ratings(10).unwrap();
    assert_eq!(
        best.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["ann", "bob"]
    );
    // An unrated game, finished; the lists of games.
    s.start_game(&NewGame {
        clock: None,
        ..new_game(2, "bob", "ann", false)
    })
    .unwrap();
    s.finish_game(
        2,
        "a1k",
        GameResult {
            winner: None,
            reason: EndReason::Aborted,
        },
        "p",
    )
    .unwrap();
    assert_eq!(
        s.finished_games()
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(
        s.games_of("ann", 10)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        [2, 1],
        "newest first"
    );
    assert_eq!(s.games_of("ann", 1).unwrap().len(), 1);
    assert!(s.games_of("carl", 10).unwrap().is_empty());
    assert_eq!(s.finished_game(2).unwrap().unwrap().clock, None);
    assert_eq!(s.finished_game(3).unwrap(), None);
    // A number given once is refused again.
    assert!(matches!(
        s.start_game(&new_game(2, "ann", "bob", false)),
        Err(StoreError::Taken(2))
    ));

    // The queue: replaced, longest waiting first, removed.
    let seat = |name: &str, at: u64| QueuedPlayer {
        name: name.into(),
        board: "4x4".into(),
        clock: None,
        joined_unix_ms: at,
    };
    s.queue_put(&seat("bob", 20)).unwrap();
    s.queue_put(&seat("ann", 30)).unwrap();
    s.queue_put(&QueuedPlayer {
        clock: Some(TimeControl {
            minutes: 1,
            increment_secs: 1,
        }),
        ..seat("ann", 10)
    })
    .unwrap();
    let q = s.queue().unwrap();
    assert_eq!(
        q.iter()
            .map(|p| (p.name.as_str(), p.joined_unix_ms))
            .collect::<Vec<_>>(),
        [("ann", 10), ("bob", 20)]
    );
    assert!(q[0].clock.is_some());
    s.queue_remove("ann").unwrap();
    assert_eq!(s.queue().unwrap(), [seat("bob", 20)]);

    // Rematch offers: one a game, replaced, removed.
    let offer = |game: u64, from: &str| RematchOffer {
        game,
        from: from.into(),
        expires_unix_ms: 99,
    };
    s.offer_put(&offer(1, "ann")).unwrap();
    s.offer_put(&offer(1, "bob")).unwrap();
    s.offer_put(&offer(2, "ann")).unwrap();
    assert_eq!(s.offers().unwrap(), [offer(1, "bob"), offer(2, "ann")]);
    s.offer_remove(1).unwrap();
    assert_eq!(s.offers().unwrap(), [offer(2, "ann")]);

    // The dailies.
    let day = "2026-12-03";
    let game = |name: &str, score: u64| Daily2048 {
        day: day.into(),
        board: "plain".into(),
        name: name.into(),
        score,
        max_tile: 256,
        moves: 300,
        actions: "udlr".into(),
    };
    assert!(s.add_2048(&game("ann", 3000)).unwrap());
    assert!(!s.add_2048(&game("ann", 9000)).unwrap(), "one a player");
    assert!(s.add_2048(&game("bob", 5000)).unwrap());
    assert_eq!(
        s.board_2048(day, "plain", 10).unwrap(),
        [
            ("bob".into(), 5000, 256, 300),
            ("ann".into(), 3000, 256, 300)
        ]
    );
    assert!(s.board_2048(day, "assisted", 10).unwrap().is_empty());
    assert_eq!(s.better_2048(day, "plain", 3000).unwrap(), 1);
    // A ranked game: started once, each slide kept only on the slides it was played on, and on the plain board.
    assert_eq!(s.ranked_2048(day, "cid").unwrap(), None);
    s.start_ranked_2048(day, "cid", 4).unwrap();
    let ranked = |slides: &str, score: u64, over: bool| Ranked2048 {
        day: day.into(),
        name: "cid".into(),
        slides: slides.into(),
        score,
        max_tile: 4,
        over,
    };
    assert_eq!(
        s.ranked_2048(day, "cid").unwrap(),
        Some(ranked("", 0, false))
    );
    assert!(s.slide_ranked_2048("", &ranked("l", 4000, false)).unwrap());
    assert!(
        !s.slide_ranked_2048("", &ranked("r", 8000, false)).unwrap(),
        "played on slides no longer kept"
    );
    s.start_ranked_2048(day, "cid", 2).unwrap();
    assert_eq!(
        s.ranked_2048(day, "cid").unwrap(),
        Some(ranked("l", 4000, false)),
        "started once"
    );
    assert!(s.slide_ranked_2048("l", &ranked("lu", 4004, true)).unwrap());
    assert!(
        !s.slide_ranked_2048("lu", &ranked("lud", 4008, true))
            .unwrap(),
        "over"
    );
    assert_eq!(
        s.board_2048(day, "plain", 10).unwrap(),
        [
            ("bob".into(), 5000, 256, 300),
            ("cid".into(), 4004, 4, 2),
            ("ann".into(), 3000, 256, 300)
        ]
    );
    assert!(s.board_2048(day, "assisted", 10).unwrap().is_empty());
    assert_eq!(s.better_2048(day, "plain", 3000).unwrap(), 2);
    assert_eq!(s.better_2048(day, "assisted", 0).unwrap(), 0);
    s.start_mastermind(day, "ann").unwrap();
    s.start_mastermind(day, "ann").unwrap();
    let guess = |n: u32, code: &str, black: u8, solved: bool| DailyGuess {
        day: day.into(),
        name: "ann".into(),
        n,
        code: code.into(),
        black,
        white: 1,
        solved,
    };
    assert!(s.add_guess(&guess(1, "RGBY", 1, false)).unwrap());
    assert!(!s.add_guess(&guess(1, "RGBY", 1, false)).unwrap());
    assert!(s.add_guess(&guess(2, "RRGG", 4, true)).unwrap());
    assert_eq!(
        s.mastermind_of(day, "ann").unwrap(),
        [("RGBY".into(), 1, 1), ("RRGG".into(), 4, 1)]
    );
    let board = s.board_mastermind(day, 10).unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!((board[0].0.as_str(), board[0].1), ("ann", 2));
}

/// A reader is another connection that sees every write finished before it reads.
pub fn a_reader_sees_every_finished_write(b: &dyn Backend) {
    let mut s = b.open().unwrap();
    let mut r = s.reader().unwrap().expect("this backend has readers");
    for i in 1..=20 {
        s.start_game(&new_game(i, "ann", "bob", false)).unwrap();
        assert_eq!(r.last_game_id().unwrap(), i);
    }
    assert_eq!(r.games_in_play().unwrap().len(), 20);
}

/// A rated game finished twice changes ratings once: the second end is refused and writes nothing.
pub fn a_rated_game_finished_twice_changes_ratings_once(b: &dyn Backend) {
    let mut s = b.open().unwrap();
    s.login("ann", "a").unwrap();
    s.login("bob", "b").unwrap();
    s.start_game(&new_game(1, "ann", "bob", true)).unwrap();
    s.finish_rated_game(1, &end("a1k"), Some(("ann", "bob", rated(1600.0, 1400.0))))
        .unwrap();
    let again = s.finish_rated_game(
        1,
        &end("a1k b2j"),
        Some(("ann", "bob", rated(1700.0, 1300.0))),
    );
    assert!(matches!(again, Err(StoreError::NotInPlay(1))), "{again:?}");
    assert_eq!(s.rating("ann").unwrap(), exact(1600.0));
    assert_eq!(s.rating("bob").unwrap(), exact(1400.0));
    assert_eq!(s.finished_game(1).unwrap().unwrap().moves, "a1k");
    // Unknown games are not in play either.
    assert!(matches!(
        s.finish_rated_game(9, &end("a1k"), Some(("ann", "bob", rated(1.0, 2.0)))),
        Err(StoreError::NotInPlay(9))
    ));
    assert_eq!(s.rating("ann").unwrap(), exact(1600.0));
}

/// Two writers (two stores on one database, on two threads) race to finish the same rated games: of each, exactly
/// one wins, and the ratings are the winner's.
pub fn two_writers_racing_to_finish_a_rated_game_one_wins(b: &dyn Backend) {
    const GAMES: u64 = 10;
    let mut s = b.open().unwrap();
    for n in ["ann", "bob"] {
        s.login(n, n).unwrap();
    }
    let mut writers = [b.open().unwrap(), b.open().unwrap()];
    for game in 1..=GAMES {
        s.start_game(&new_game(game, "ann", "bob", true)).unwrap();
        let barrier = Barrier::new(2);
        let wins: Vec<bool> = std::thread::scope(|scope| {
            let handles: Vec<_> = writers
                .iter_mut()
                .enumerate()
                .map(|(i, w)| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        let ratings = rated(1500.0 + (i as f64 + 1.0) * game as f64, 1500.0);
                        barrier.wait();
                        match w.finish_rated_game(game, &end("a1k"), Some(("ann", "bob", ratings)))
                        {
                            Ok(()) => true,
                            Err(StoreError::NotInPlay(g)) if g == game => false,
                            Err(e) => panic!("writer {i}: {e}"),
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            wins.iter().filter(|w| **w).count(),
            1,
            "game {game}: {wins:?}"
        );
        let winner = wins.iter().position(|w| *w).unwrap();
        let expected = 1500.0 + (winner as f64 + 1.0) * game as f64;
        assert_eq!(s.rating("ann").unwrap(), exact(expected), "game {game}");
        let kept = s.finished_game(game).unwrap().unwrap();
        assert_eq!(kept.ratings, Some(rated(expected, 1500.0).changes));
    }
}

/// Two writers each numbering games from the largest number kept: no number is ever given to two games (the
/// second start of a number is refused, [`StoreError::Taken`], and that writer takes the next).
pub fn game_numbers_from_two_writers_never_collide(b: &dyn Backend) {
    const EACH: usize = 25;
    let writers = [b.open().unwrap(), b.open().unwrap()];
    let started: Vec<Vec<u64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = writers
            .into_iter()
            .enumerate()
            .map(|(i, mut w)| {
                scope.spawn(move || {
                    let name = format!("w{i}");
                    let mut mine = Vec::new();
                    // Bounded: each try either starts a game or finds its number taken by the other writer.
                    for _ in 0..EACH * 4 {
                        if mine.len() == EACH {
                            break;
                        }
                        let id = w.last_game_id().unwrap() + 1;
                        match w.start_game(&new_game(id, &name, "x", false)) {
                            Ok(()) => mine.push(id),
                            Err(StoreError::Taken(t)) if t == id => {}
                            Err(e) => panic!("{name}: {e}"),
                        }
                    }
                    assert_eq!(mine.len(), EACH, "{name}");
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<u64> = started.concat();
    all.sort_unstable();
    assert_eq!(
        all,
        (1..=2 * EACH as u64).collect::<Vec<_>>(),
        "each number once"
    );
    let mut s = b.open().unwrap();
    let kept = s.games_in_play().unwrap();
    assert_eq!(kept.len(), 2 * EACH);
    for g in kept {
        let writer = started.iter().position(|m| m.contains(&g.id)).unwrap();
        assert_eq!(
            g.black,
            format!("w{writer}"),
            "game {} is its writer's",
            g.id
        );
    }
}

/// A database of a newer server is refused, and nothing in it changes.
pub fn a_newer_schema_is_refused(b: &dyn Backend) {
    b.open().unwrap().login("ann", "a").unwrap();
    b.set_version(parlor_server::store::SCHEMA_VERSION + 1);
    match b.open() {
        Err(StoreError::Newer { found, known, .. }) => {
            assert_eq!(
                (found, known),
                (known + 1, parlor_server::store::SCHEMA_VERSION)
            );
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a newer database opened"),
    }
    b.set_version(parlor_server::store::SCHEMA_VERSION);
    assert_eq!(b.open().unwrap().login("ann", "a").unwrap(), Login::Known);
}

/// A store opened again on the same database (a restarted server) finds the games in play as last kept.
pub fn a_store_opened_again_finds_the_games_in_play(b: &dyn Backend) {
    let before = {
        let mut s = b.open().unwrap();
        for id in 1..=3 {
            s.start_game(&new_game(id, "ann", "bob", id != 2)).unwrap();
        }
        s.save_progress(
            3,
            "b1k",
            &[move_time()],
            [297_000, 300_000],
            [Some(4), None],
        )
        .unwrap();
        s.finish_game(
            1,
            "",
            GameResult {
                winner: None,
                reason: EndReason::Aborted,
            },
            "",
        )
        .unwrap();
        s.games_in_play().unwrap()
    };
    let mut again = b.open().unwrap();
    let after = again.games_in_play().unwrap();
    assert_eq!(after, before);
    assert_eq!(after.iter().map(|g| g.id).collect::<Vec<_>>(), [2, 3]);
    assert_eq!(after[1].remaining, [297_000, 300_000]);
    assert_eq!(after[1].seqs, [Some(4), None]);
    assert_eq!(again.last_game_id().unwrap(), 3);
}

/// Each clause as a test on each backend.
macro_rules! on_both {
    ($($clause:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $clause() {
                    super::$clause(&super::Sqlite(tempfile::tempdir().unwrap()));
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $clause() {
                    if let Some(b) = super::Pg::new() {
                        super::$clause(&b);
                    }
                }
            )*
        }
    };
}

on_both!(
    everything_kept_reads_back,
    a_reader_sees_every_finished_write,
    a_rated_game_finished_twice_changes_ratings_once,
    two_writers_racing_to_finish_a_rated_game_one_wins,
    game_numbers_from_two_writers_never_collide,
    a_newer_schema_is_refused,
    a_store_opened_again_finds_the_games_in_play,
);
