use super::*;

/// A game ranked by its highest score (the store knows games only by their ids).
const HIGH: &str = "a-high-score-game";
/// A game ranked by its fewest moves to a win.
const FEWEST: &str = "a-fewest-moves-game";

/// The fewest-moves game's best scores in its classic variant.
const CLASSIC: Scoreboard = Scoreboard {
    game: FEWEST,
    variant: "classic",
    ranking: Ranking::FewestToWin,
};

fn record(game: &str, variant: &str, score: i64, assisted: bool) -> GameRecord {
    GameRecord {
        id: 0,
        game: game.into(),
        variant: variant.into(),
        options: "{}".into(),
        seed: u64::MAX - 1,
        moves: "left up".into(),
        score,
        result: Outcome::Lost,
        assisted,
        seeded: false,
        practice: false,
        started_at: 1_000,
        ended_at: 2_000 + score,
    }
}

/// The scores of the best games of a variant, best first.
fn best_scores(
    store: &Store,
    game: &str,
    variant: &str,
    ranking: Ranking,
    limit: usize,
) -> Vec<i64> {
    let best = store
        .best(Scoreboard::new(game, variant, ranking), limit)
        .unwrap();
    best.iter().map(|r| r.score).collect()
}

fn unfinished(session: &str) -> Unfinished {
    Unfinished {
        session: session.into(),
        game: HIGH.into(),
        variant: "4x4".into(),
        options: "{\"size\":4}".into(),
        seed: 42,
        moves: "left".into(),
        score: 4,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 10,
        updated_at: 20,
        row: 0,
        damage: None,
    }
}

#[test]
fn fresh_store_records_and_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let mut opened = Store::open(dir.path()).unwrap();
    assert!(opened.notice.is_none());
    let store = &mut opened.store;
    store.save_unfinished(&unfinished("s1")).unwrap();
    let id = store
        .finish("s1", &record(HIGH, "4x4", 500, false))
        .unwrap();
    store.finish("s2", &record(HIGH, "4x4", 900, true)).unwrap();
    store
        .finish("s3", &record(HIGH, "4x4", 700, false))
        .unwrap();
    assert!(
        store.unfinished(None).unwrap().is_empty(),
        "finishing drops the game in progress"
    );
    let best = best_scores(store, HIGH, "4x4", Ranking::HighScore, 10);
    assert_eq!(
        best,
        vec![700, 500],
        "assisted games stay out of the best scores"
    );
    assert_eq!(
        store
            .rank(Scoreboard::new(HIGH, "4x4", Ranking::HighScore), 600)
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .best_score(Scoreboard::new(HIGH, "4x4", Ranking::HighScore))
            .unwrap(),
        Some(700)
    );
    assert_eq!(
        store
            .best_score(Scoreboard::new(HIGH, "5x5", Ranking::HighScore))
            .unwrap(),
        None
    );
    let got = store.game(id).unwrap().unwrap();
    assert_eq!(
        got.seed,
        u64::MAX - 1,
        "seeds above i64::MAX survive the round trip"
    );
    assert_eq!(got.moves, "left up");
    assert_eq!(
        store.history(None, 10).unwrap().games.len(),
        3,
        "history keeps assisted games"
    );
    let stats = store.stats(HIGH).unwrap();
    assert_eq!(stats[0].played, 3);
    assert_eq!(stats[0].assisted, 1);
}

#[test]
fn unfinished_games_are_replaced_per_session_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap().store;
        store.save_unfinished(&unfinished("a")).unwrap();
        let mut b = unfinished("b");
        b.updated_at = 30;
        store.save_unfinished(&b).unwrap();
        b.moves = "left right".into();
        b.updated_at = 40;
        store.save_unfinished(&b).unwrap();
    }
    let store = Store::open(dir.path()).unwrap().store;
    let all = store.unfinished(Some(HIGH)).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].session, "b", "newest first");
    assert_eq!(all[0].moves, "left right");
    store.discard_unfinished("a").unwrap();
    assert_eq!(store.unfinished(None).unwrap().len(), 1);
}

#[test]
fn corrupt_database_is_moved_aside_not_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let garbage = b"this is not an SQLite database, just some bytes that a crash or a bad copy left here.....";
    std::fs::write(&path, garbage.repeat(100)).unwrap();
    let opened = Store::open(dir.path()).unwrap();
    let notice = opened.notice.expect("the player is told");
    assert!(notice.contains("moved to"), "{notice}");
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read(aside[0].path()).unwrap(),
        garbage.repeat(100),
        "the old file is kept intact"
    );
    opened.store.save_unfinished(&unfinished("x")).unwrap();
    assert_eq!(
        opened.store.unfinished(None).unwrap().len(),
        1,
        "the fresh database works"
    );
}

#[test]
fn unwritable_directory_falls_back_to_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let opened = Store::open(&file.join("sub")).unwrap();
    assert!(opened.notice.unwrap().contains("Storage unavailable"));
    opened.store.save_unfinished(&unfinished("m")).unwrap();
}

#[test]
fn two_connections_writing_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    Store::open(dir.path()).unwrap();
    let handles: Vec<_> = (0..2)
        .map(|t| {
            let path = dir.path().to_path_buf();
            std::thread::spawn(move || {
                let mut store = Store::open(&path).unwrap().store;
                for i in 0..100 {
                    let session = format!("t{t}-{i}");
                    store.save_unfinished(&unfinished(&session)).unwrap();
                    store
                        .finish(&session, &record(HIGH, "4x4", i, false))
                        .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let store = Store::open(dir.path()).unwrap().store;
    assert_eq!(store.history(None, 1000).unwrap().games.len(), 200);
    assert!(store.unfinished(None).unwrap().is_empty());
}

#[test]
fn times_format_as_utc() {
    assert_eq!(format_time(0), "1970-01-01 00:00");
    assert_eq!(format_time(1_795_000_000_000), "2026-11-18 11:06");
}

#[test]
fn games_won_in_fewer_moves_rank_first_where_that_is_the_measure() {
    let store = Store::in_memory().unwrap();
    let mut s = store;
    let mut won = |score: i64, result: Outcome| {
        let mut r = record(FEWEST, "classic", score, false);
        r.result = result;
        s.finish("x", &r).unwrap();
    };
    won(5, Outcome::Won);
    won(3, Outcome::Won);
    won(8, Outcome::Lost);
    let store = s;
    let best = best_scores(&store, FEWEST, "classic", Ranking::FewestToWin, 10);
    assert_eq!(best, vec![3, 5], "losses do not rank; fewer guesses first");
    assert_eq!(store.rank(CLASSIC, 4).unwrap(), 2);
    assert_eq!(store.best_score(CLASSIC).unwrap(), Some(3));
}

#[test]
fn seeded_games_stay_out_of_the_best_scores() {
    let mut store = Store::in_memory().unwrap();
    let mut r = record(HIGH, "4x4", 900, false);
    r.seeded = true;
    store.finish("a", &r).unwrap();
    store.finish("b", &record(HIGH, "4x4", 100, false)).unwrap();
    let best = best_scores(&store, HIGH, "4x4", Ranking::HighScore, 10);
    assert_eq!(best, vec![100]);
    assert_eq!(
        store
            .rank(Scoreboard::new(HIGH, "4x4", Ranking::HighScore), 500)
            .unwrap(),
        1
    );
}

#[test]
fn a_damaged_game_in_progress_is_set_aside_whole() {
    let mut store = Store::in_memory().unwrap();
    let u = unfinished("s");
    store.save_unfinished(&u).unwrap();
    store.set_aside(&u, "moves cannot be replayed").unwrap();
    assert!(store.unfinished(None).unwrap().is_empty());
    assert_eq!(store.set_aside_count().unwrap(), 1);
}

/// Another connection holding the database's write lock for a moment (another Parlor starting, recording or
/// migrating) must not make the database look unwritable: the store opens writable once the lock is gone.
#[test]
fn a_database_locked_for_a_moment_opens_writable() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    let path = dir.path().join(DB_FILE);
    let locker = rusqlite::Connection::open(&path).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        locker.execute_batch("COMMIT").unwrap();
    });
    let opened = Store::open(dir.path()).unwrap();
    release.join().unwrap();
    assert!(opened.notice.is_none(), "{:?}", opened.notice);
    assert!(opened.store.keeps());
}

/// Several Parlors opening the same schema-1 database at once: one migrates it, the others find it migrated; none
/// falls back to read-only or memory, and the records are all there once.
#[test]
fn a_schema_1_database_opened_by_several_at_once_is_migrated_once() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1.db");
    for _ in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&fixture, dir.path().join(DB_FILE)).unwrap();
        let openers: Vec<_> = (0..4)
            .map(|_| {
                let d = dir.path().to_path_buf();
                std::thread::spawn(move || Store::open(&d).unwrap())
            })
            .collect();
        let stores: Vec<Opened> = openers.into_iter().map(|t| t.join().unwrap()).collect();
        for o in &stores {
            assert!(o.notice.is_none(), "{:?}", o.notice);
            assert!(o.store.keeps());
        }
        let n = stores[0].store.history(None, 1000).unwrap().games.len();
        assert_eq!(n, 5, "the fixture's five games, once");
    }
}

/// Issue 55: practice games never count in the statistics or the best scores. A store of any finished rows, some
/// of them practice, tells the same figures (tallies, totals, variants, best scores, ranks, the games a chart
/// reads) as a store of the same rows without the practice ones, in SQLite and in memory alike.
mod practice_rows {
    use super::*;
    use proptest::prelude::*;

    /// One finished row: (variant, score, result, assisted, seeded, practice), the `i`th to end.
    type Row = (usize, i64, usize, bool, bool, bool);

    const VARIANTS: [&str; 2] = ["classic", "super"];

    fn row(i: usize, (variant, score, result, assisted, seeded, practice): Row) -> GameRecord {
        let mut r = record(FEWEST, VARIANTS[variant], score, assisted);
        r.options = format!("{{\"variant\":{variant}}}");
        r.result = Outcome::ALL[result];
        // As sessions mark them: a practice game is played from the reviewed game's seed.
        r.seeded = seeded || practice;
        r.practice = practice;
        r.ended_at = 10_000 + i as i64;
        r
    }

    /// Everything the statistics and the best scores say of the game in `store`.
    fn figures(store: &dyn Storage) -> String {
        let ranking = |_: &str| Ranking::FewestToWin;
        let mut out = format!(
            "{:?}\n{:?}\n{:?}\n",
            store.tally(FEWEST, &ranking).unwrap(),
            store.stats(FEWEST).unwrap(),
            store.variants(FEWEST).unwrap()
        );
        for v in VARIANTS {
            let board = Scoreboard::new(FEWEST, v, Ranking::FewestToWin);
            let scores = |games: Vec<GameRecord>| -> Vec<(i64, i64)> {
                games.iter().map(|g| (g.score, g.ended_at)).collect()
            };
            out.push_str(&format!(
                "{v}: {:?} {:?} {:?} {:?}\n",
                scores(store.best(board, 100).unwrap()),
                store.best_score(board).unwrap(),
                store.rank(board, 7).unwrap(),
                scores(store.recent_clean(FEWEST, v, 100).unwrap()),
            ));
        }
        out
    }

    fn filled(store: &mut dyn Storage, rows: &[GameRecord]) {
        for r in rows {
            store.finish("s", r).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn practice_rows_never_count_in_statistics_or_best_scores(
            rows in prop::collection::vec(
                (0..2usize, 1..15i64, 0..5usize, any::<bool>(), any::<bool>(), any::<bool>()),
                0..24,
            )
        ) {
            let all: Vec<GameRecord> = rows.iter().enumerate().map(|(i, &r)| row(i, r)).collect();
            let scored: Vec<GameRecord> = all.iter().filter(|g| !g.practice).cloned().collect();
            let (mut with, mut without) = (Store::in_memory().unwrap(), Store::in_memory().unwrap());
            filled(&mut with, &all);
            filled(&mut without, &scored);
            prop_assert_eq!(figures(&with), figures(&without));
            let (mut with, mut without) = (MemoryStore::new(), MemoryStore::new());
            filled(&mut with, &all);
            filled(&mut without, &scored);
            prop_assert_eq!(figures(&with), figures(&without));
            // The history still holds every game, the practice ones marked.
            let history = with.history(Some(FEWEST), usize::MAX).unwrap().games;
            prop_assert_eq!(history.iter().filter(|g| g.practice).count(), all.len() - scored.len());
        }
    }

    /// An older database (its tables made without the mark, as schema 2 made them) gets the mark when it opens,
    /// every row there not practice; opened read-only it reads the same, through views.
    #[test]
    fn a_database_without_the_mark_gets_it_and_reads_every_row_as_scored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(open::DB_FILE);
        {
            let mut store = Store::open(dir.path()).unwrap().store;
            store.finish("a", &record(HIGH, "4x4", 100, false)).unwrap();
        }
        // The file as schema 2 left it: the column dropped again (SQLite 3.35 drops columns).
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP INDEX games_practice;
             ALTER TABLE games DROP COLUMN practice;
             ALTER TABLE unfinished DROP COLUMN practice;
             ALTER TABLE set_aside DROP COLUMN practice;",
        )
        .unwrap();
        drop(conn);
        let read_only = Store::open_read_only(&path).unwrap();
        let games = read_only.history(None, 10).unwrap().games;
        assert_eq!(games.len(), 1);
        assert!(!games[0].practice);
        assert_eq!(
            best_scores(&read_only, HIGH, "4x4", Ranking::HighScore, 10),
            vec![100]
        );
        drop(read_only);
        let store = Store::open(dir.path()).unwrap().store;
        let games = store.history(None, 10).unwrap().games;
        assert_eq!(games.len(), 1);
        assert!(!games[0].practice);
        let conn = rusqlite::Connection::open(&path).unwrap();
        let practice: i64 = conn
            .query_row("SELECT practice FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(practice, 0);
    }
}
