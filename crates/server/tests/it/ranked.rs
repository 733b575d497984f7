//! The ranked 2048 of the day, dealt by the server tile by tile: the throwaway attack refused (the shared seed is not
//! the ranked game's, each name's game is its own, a tile is learnt only by playing its slide, a whole game handed
//! in never reaches the ranked board), a game played to its end ranked by the server's score, a game taken up after
//! the server was killed and started again on its database with the same tiles, and refused slides that change
//! nothing.

use crate::client::{Client, TestServer, quick};
use parlor_online::protocol::{
    Board, ClientMessage, Daily, ErrorCode, ServerMessage, Tile, actions_to_letters,
};
use parlor_server::ranked::ranked_seed;
use std::path::Path;
use std::time::Duration;
use twenty48::{Direction, Game, Rules, Status};

/// The most slides any game here is played for (a 2048 game ends long before).
const MAX_SLIDES: u64 = 5000;

/// A test's pause between two slides: under the server's rate of 20 messages a second per connection.
const PACE: Duration = Duration::from_millis(55);

/// A ranked game as the server dealt it.
#[derive(Clone, Debug, PartialEq)]
struct Dealt {
    day: String,
    moves: u64,
    board: twenty48::Board,
    score: u64,
    tile: Option<Tile>,
    over: bool,
    rank: Option<u32>,
}

fn dealt(msg: ServerMessage) -> Dealt {
    let ServerMessage::Dealt2048 {
        day,
        moves,
        board,
        score,
        tile,
        over,
        rank,
    } = msg
    else {
        panic!("not a ranked game: {msg:?}")
    };
    Dealt {
        day,
        moves,
        board: board.parse().expect("the board reads"),
        score,
        tile,
        over,
        rank,
    }
}

/// Starts (or takes up) today's ranked game as `c`.
async fn start(c: &mut Client) -> Dealt {
    c.send(&ClientMessage::Ranked2048 {}).await;
    dealt(c.recv().await)
}

/// The protocol's letter of a direction.
fn letter(d: Direction) -> String {
    actions_to_letters(&[twenty48::Action::Slide(d)])
}

/// Sends slide number `n`, `d`, as `c`; the server's answer.
async fn slide(c: &mut Client, day: &str, n: u64, d: Direction) -> ServerMessage {
    tokio::time::sleep(PACE).await;
    c.send(&ClientMessage::Slide2048 {
        day: day.to_string(),
        n,
        dir: letter(d),
    })
    .await;
    c.recv().await
}

/// The first of `order` that moves `board`.
fn first_moving(board: &twenty48::Board, order: [Direction; 4]) -> Option<Direction> {
    order.into_iter().find(|&d| board.can_slide(d))
}

/// The order the tests slide in: a game that ends soon.
const QUICK: [Direction; 4] = [
    Direction::Up,
    Direction::Down,
    Direction::Right,
    Direction::Left,
];

/// Plays `c`'s ranked game from `at` for up to `count` slides (or to its end): each slide's answer and the slides.
async fn play(c: &mut Client, at: &Dealt, count: u64) -> (Vec<Dealt>, Vec<Direction>) {
    let (mut now, mut seen, mut slides) = (at.clone(), Vec::new(), Vec::new());
    while !now.over && (slides.len() as u64) < count {
        let d = first_moving(&now.board, QUICK).expect("a game not over has a slide");
        now = dealt(slide(c, &at.day, now.moves + 1, d).await);
        seen.push(now.clone());
        slides.push(d);
    }
    (seen, slides)
}

/// The server's secret, as its SQLite database in `dir` keeps it.
fn kept_secret(dir: &Path) -> String {
    rusqlite::Connection::open(dir.join(parlor_server::store::DB_FILE))
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = 'secret'", [], |r| {
            r.get(0)
        })
        .unwrap()
}

/// Checks that `seen` (the answers to `slides`) are the engine's game of `seed`: each board, score and tile.
fn check_against_engine(seed: u64, slides: &[Direction], seen: &[Dealt]) {
    let mut game = Game::new(Rules::default(), seed);
    for (i, (&d, s)) in slides.iter().zip(seen).enumerate() {
        let turn = game.slide(d).unwrap();
        let (row, col, value) = turn.spawned;
        let tile = Tile {
            row: row as u32,
            col: col as u32,
            value,
        };
        assert_eq!(s.tile, Some(tile), "slide {}'s tile", i + 1);
        assert_eq!((&s.board, s.score), (game.board(), game.score()));
        assert_eq!(s.moves, i as u64 + 1);
        assert_eq!(s.over, game.status() == Status::Over);
    }
}

/// The tiles a list of answers placed.
fn tiles(seen: &[Dealt]) -> Vec<Option<Tile>> {
    seen.iter().map(|d| d.tile).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_throwaway_attack_on_the_ranked_2048_learns_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut main, _) = Client::hello(server.addr, "mainacct").await;
    let (mut scout, _) = Client::hello(server.addr, "scout1").await;

    // The day's shared seed (the unranked board's) is not the ranked game's: its start is not the one dealt.
    main.send(&ClientMessage::Daily2048 {}).await;
    let ServerMessage::Daily2048 { seed: shared, .. } = main.recv().await else {
        panic!("no daily")
    };
    let first = start(&mut main).await;
    assert_eq!(
        (first.moves, first.score, first.tile, first.over),
        (0, 0, None, false)
    );
    assert_eq!(first.board.empty_cells().len(), 14, "two start tiles");

    // The scout plays ten slides of its own game, the main account ten of its own by the same rule: other tiles.
    let scout_start = start(&mut scout).await;
    let (scouted, scout_slides) = play(&mut scout, &scout_start, 10).await;
    let (main_seen, main_slides) = play(&mut main, &first, 10).await;
    assert_eq!(main_seen.len(), 10);
    assert_ne!(
        (scout_start.board, tiles(&scouted)),
        (first.board, tiles(&main_seen)),
        "each name's ranked game is its own"
    );

    // A tile is learnt only by playing its slide: the same slide again gives the same tile, another direction
    // under a number already played is refused and tells nothing, and a slide ahead is refused.
    let played = main_seen.len() as u64;
    let last = main_slides[main_slides.len() - 1];
    let again = dealt(slide(&mut main, &first.day, played, last).await);
    assert_eq!(&again, main_seen.last().unwrap());
    let other = Direction::ALL.into_iter().find(|&d| d != last).unwrap();
    let ServerMessage::Error { code, .. } = slide(&mut main, &first.day, played, other).await
    else {
        panic!("another direction under a number played is refused")
    };
    assert_eq!(code, ErrorCode::Duplicate);
    let ServerMessage::Error { code, .. } = slide(&mut main, &first.day, played + 2, other).await
    else {
        panic!("a slide ahead is refused")
    };
    assert_eq!(code, ErrorCode::Conflict);

    // Each game is its player's seed's, which the server keeps: not the shared seed, nor another name's.
    let secret = kept_secret(dir.path());
    let main_seed = ranked_seed(&secret, &first.day, "mainacct");
    check_against_engine(main_seed, &main_slides, &main_seen);
    check_against_engine(
        ranked_seed(&secret, &first.day, "scout1"),
        &scout_slides,
        &scouted,
    );
    assert_ne!(main_seed, shared);
    assert_ne!(Game::new(Rules::default(), shared).board(), &first.board);

    // A whole game handed in without undo or hints, the old way, goes on the unranked board, never the ranked one.
    let mut offline = Game::new(Rules::default(), shared);
    let mut actions = Vec::new();
    while let Some(d) = first_moving(offline.board(), QUICK) {
        offline.slide(d).unwrap();
        actions.push(twenty48::Action::Slide(d));
    }
    scout
        .send(&ClientMessage::Submit2048 {
            day: first.day.clone(),
            actions: actions_to_letters(&actions),
            score: offline.score(),
            hints: false,
            undo: false,
        })
        .await;
    let ServerMessage::Scored2048 { board, .. } = scout.recv().await else {
        panic!("not scored")
    };
    assert_eq!(board, Board::Assisted);
    scout
        .send(&ClientMessage::Leaderboard {
            daily: Daily::Twenty48,
            day: None,
            board: Board::Plain,
        })
        .await;
    let ServerMessage::Leaderboard { entries, .. } = scout.recv().await else {
        panic!("no leaderboard")
    };
    let mut ranked: Vec<(&str, u64)> = entries.iter().map(|e| (e.name.as_str(), e.score)).collect();
    ranked.sort();
    assert_eq!(
        ranked,
        [
            ("mainacct", main_seen.last().unwrap().score),
            ("scout1", scouted.last().unwrap().score)
        ],
        "the ranked board holds the games the server dealt, each with the server's score"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ranked_2048_played_to_its_end_ranks_with_the_servers_score_once_a_day() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let first = start(&mut ann).await;
    let (seen, slides) = play(&mut ann, &first, MAX_SLIDES).await;
    let end = seen.last().unwrap().clone();
    assert!(end.over, "played to its end");
    assert_eq!(end.rank, Some(1));
    assert!(seen[..seen.len() - 1].iter().all(|d| d.rank.is_none()));
    let secret = kept_secret(dir.path());
    check_against_engine(ranked_seed(&secret, &first.day, "ann"), &slides, &seen);

    // Over: no slide is taken, and asking again gives the same game (one ranked game a day), with its rank.
    let d = Direction::ALL[0];
    let ServerMessage::Error { code, .. } = slide(&mut ann, &first.day, end.moves + 1, d).await
    else {
        panic!("a slide after the end is refused")
    };
    assert_eq!(code, ErrorCode::GameOver);
    let again = start(&mut ann).await;
    assert_eq!(
        (
            again.moves,
            again.score,
            again.board,
            again.over,
            again.rank
        ),
        (end.moves, end.score, end.board, true, Some(1))
    );
    ann.send(&ClientMessage::Leaderboard {
        daily: Daily::Twenty48,
        day: Some(first.day.clone()),
        board: Board::Plain,
    })
    .await;
    let ServerMessage::Leaderboard { entries, .. } = ann.recv().await else {
        panic!("no leaderboard")
    };
    let rows: Vec<(u32, &str, u64, Option<u64>, u64)> = entries
        .iter()
        .map(|e| (e.rank, e.name.as_str(), e.score, e.max_tile, e.detail))
        .collect();
    assert_eq!(
        rows,
        [(1, "ann", end.score, Some(end.board.max_tile()), end.moves)]
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_slide_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    // Before the game is started there is nothing to slide.
    let ServerMessage::Error { code, .. } =
        slide(&mut ann, &parlor_server::daily::today(), 1, Direction::Left).await
    else {
        panic!("no game to slide")
    };
    assert_eq!(code, ErrorCode::NotFound);
    let first = start(&mut ann).await;
    let (_, _) = play(&mut ann, &first, 3).await;
    let before = start(&mut ann).await;
    let next = before.moves + 1;
    let mut refusals = Vec::new();
    if let Some(stuck) = Direction::ALL
        .into_iter()
        .find(|&d| !before.board.can_slide(d))
    {
        refusals.push((
            slide(&mut ann, &before.day, next, stuck).await,
            ErrorCode::IllegalMove,
        ));
    }
    let d = first_moving(&before.board, QUICK).unwrap();
    refusals.push((
        slide(&mut ann, "2001-01-01", next, d).await,
        ErrorCode::BadDay,
    ));
    refusals.push((
        slide(&mut ann, &before.day, next + 1, d).await,
        ErrorCode::Conflict,
    ));
    refusals.push((
        slide(&mut ann, &before.day, 0, d).await,
        ErrorCode::Conflict,
    ));
    tokio::time::sleep(PACE).await;
    ann.send(&ClientMessage::Slide2048 {
        day: before.day.clone(),
        n: next,
        dir: "z".into(),
    })
    .await;
    refusals.push((ann.recv().await, ErrorCode::IllegalMove));
    for (answer, expected) in refusals {
        let ServerMessage::Error { code, .. } = answer else {
            panic!("not refused: {answer:?}")
        };
        assert_eq!(code, expected);
    }
    assert_eq!(start(&mut ann).await, before, "nothing changed");
    // The game goes on from where it was.
    let after = dealt(slide(&mut ann, &before.day, next, d).await);
    assert_eq!(after.moves, next);
    server.stop().await;
}

#[test]
fn a_ranked_2048_taken_up_after_the_server_was_killed_goes_on_with_the_same_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let first = crate::restart::runtime();
    let (start_of, seen, slides, server) = first.block_on(async {
        let server = TestServer::start(dir.path(), quick(30_000)).await;
        let (mut ann, _) = Client::hello(server.addr, "ann").await;
        let at = start(&mut ann).await;
        let (seen, slides) = play(&mut ann, &at, 12).await;
        (at, seen, slides, server)
    });
    // Kill: the runtime goes with every task in it, no stop, no close (the server's handle outlives it).
    drop(first);
    drop(server);

    let second = crate::restart::runtime();
    second.block_on(async {
        let server = TestServer::start(dir.path(), quick(30_000)).await;
        let (mut ann, _) = Client::hello(server.addr, "ann").await;
        let taken_up = start(&mut ann).await;
        let last = seen.last().unwrap();
        assert_eq!(
            (taken_up.moves, &taken_up.board, taken_up.score),
            (last.moves, &last.board, last.score),
            "the game as it was"
        );
        let (more, more_slides) = play(&mut ann, &taken_up, 12).await;
        let all: Vec<Dealt> = seen.iter().chain(&more).cloned().collect();
        let all_slides: Vec<Direction> = slides.iter().chain(&more_slides).copied().collect();
        let secret = kept_secret(dir.path());
        check_against_engine(
            ranked_seed(&secret, &start_of.day, "ann"),
            &all_slides,
            &all,
        );
        server.stop().await;
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ranked_2048_on_postgres_goes_on_after_a_restart_with_the_same_tiles() {
    use crate::pg_server::blocking;
    use parlor_server::{PgStore, Store};
    let Some(db) = crate::contract::Pg::new() else {
        return;
    };
    let url = db.url.clone();
    let store = blocking(|| PgStore::open(&url)).unwrap();
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let at = start(&mut ann).await;
    let (seen, slides) = play(&mut ann, &at, 8).await;
    drop(ann);
    server.stop().await;

    let url = db.url.clone();
    let store = blocking(|| PgStore::open(&url)).unwrap();
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let taken_up = start(&mut ann).await;
    assert_eq!(
        &taken_up.board,
        &seen.last().unwrap().board,
        "the game as it was"
    );
    let (more, more_slides) = play(&mut ann, &taken_up, 8).await;
    server.stop().await;
    let url = db.url.clone();
    let secret = blocking(move || PgStore::open(&url).unwrap().secret().unwrap());
    let all: Vec<Dealt> = seen.iter().chain(&more).cloned().collect();
    let all_slides: Vec<Direction> = slides.iter().chain(&more_slides).copied().collect();
    check_against_engine(ranked_seed(&secret, &at.day, "ann"), &all_slides, &all);
}

#[test]
fn a_database_of_schema_5_gets_the_ranked_games_and_keeps_its_plain_board() {
    use parlor_server::Store as _;
    use parlor_server::store::Daily2048;
    let dir = tempfile::tempdir().unwrap();
    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    let day = "2026-12-01";
    // A game handed in whole on the plain board, as a server of schema 5 ranked it.
    let old = Daily2048 {
        day: day.into(),
        board: "plain".into(),
        name: "ann".into(),
        score: 1200,
        max_tile: 128,
        moves: 150,
        actions: "l".repeat(150),
    };
    assert!(store.add_2048(&old).unwrap());
    drop(store);
    let db = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE)).unwrap();
    db.execute_batch("DROP TABLE ranked_2048; PRAGMA user_version = 5;")
        .unwrap();
    drop(db);
    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    store.start_ranked_2048(day, "bob", 4).unwrap();
    let mut bob = store.ranked_2048(day, "bob").unwrap().unwrap();
    bob.slides = "u".into();
    bob.score = 4;
    assert!(store.slide_ranked_2048("", &bob).unwrap());
    assert_eq!(
        store.board_2048(day, "plain", 10).unwrap(),
        [("ann".into(), 1200, 128, 150), ("bob".into(), 4, 4, 1)]
    );
    let version: i64 = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE))
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, parlor_server::store::SCHEMA_VERSION);
}
