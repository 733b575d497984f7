//! Timed, rated games through a real server killed with SIGKILL and started again at every stage (before the first
//! move, mid-game, at the last move): the clocks are as they were, every event sent again (to both players and to
//! a new spectator) is the one sent live, no game gets a result it did not earn, and each rated game updates both
//! ratings once.

use crate::client::{Client, start_game_with};
use crate::kill::{Spawned, spawn};
use nocca::{Dims, Game, GameOptions};
use parlor_online::protocol::{
    ClientMessage, EndReason, Event, EventKind, Rating, RatingChanges, ServerMessage, Side,
    TimeControl,
};
use parlor_server::Store;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

/// The most plies a test plays (the ply cap ends a game well before).
pub const MAX_PLIES: usize = 400;

/// The next event of `game` for `c`, passing over who is away or back (which come as players reconnect).
pub async fn next_event(c: &mut Client, game: u64) -> Event {
    loop {
        match c.recv().await {
            ServerMessage::Event { game: g, event } if g == game => return event,
            ServerMessage::Away { .. } | ServerMessage::Back { .. } => {}
            other => panic!(
                "{}: expected an event of game {game}, got {other:?}",
                c.name
            ),
        }
    }
}

/// Two players at a timed game, the events each saw live, and the game as the test mirrors it.
pub struct Table {
    pub ann: Client,
    pub bob: Client,
    pub game: u64,
    pub live: Vec<Event>,
    mirror: Game,
    seq: [u64; 2],
    rng: ChaCha8Rng,
}

impl Table {
    /// Ann (Black) challenges Bob on `board` with `clock`, rated, and Bob accepts.
    pub async fn start(addr: SocketAddr, board: &str, clock: TimeControl, seed: u64) -> Table {
        let (mut ann, _) = Client::hello(addr, "ann").await;
        let (mut bob, _) = Client::hello(addr, "bob").await;
        let game = start_game_with(&mut ann, &mut bob, board, Some(clock), true).await;
        let dims: Dims = board.parse().unwrap();
        // The start both saw, asked for again before the kill (the start is not kept by the client helper).
        ann.send(&ClientMessage::Resume { game, after: 0 }).await;
        let start = next_event(&mut ann, game).await;
        assert_eq!(start.n, 1);
        Table {
            ann,
            bob,
            game,
            live: vec![start],
            mirror: Game::new(dims, GameOptions::default()),
            seq: [0; 2],
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Both players again, on a new server at `addr` (each saying hello); whether Ann's welcome lists the game
    /// as in play.
    pub async fn reconnect(&mut self, addr: SocketAddr) -> bool {
        let (ann, welcome) = Client::hello(addr, "ann").await;
        self.ann = ann;
        self.bob = Client::hello(addr, "bob").await.0;
        let ServerMessage::Welcome { games, .. } = welcome else {
            unreachable!()
        };
        games.iter().any(|g| g.game == self.game)
    }

    /// A random legal move for the side to move; whether it would end the game.
    pub fn pick(&mut self) -> (String, bool) {
        let moves = self.mirror.legal_moves();
        let mv = moves[self.rng.next_u32() as usize % moves.len()];
        let mut after = self.mirror.clone();
        after.play(mv).unwrap();
        (mv.to_string(), after.is_over())
    }

    /// Sends `mv` for the side to move (a new sequence number, or the last one again if `again`).
    pub async fn send(&mut self, mv: &str, again: bool) {
        let side = Side::from(self.mirror.side_to_move());
        if !again {
            self.seq[side.index()] += 1;
        }
        let c = match side {
            Side::Black => &mut self.ann,
            Side::White => &mut self.bob,
        };
        c.send(&ClientMessage::Move {
            game: self.game,
            seq: self.seq[side.index()],
            mv: mv.to_string(),
        })
        .await;
    }

    /// The events that follow a move sent: the same on both connections, kept as seen live; true if the game
    /// ended.
    pub async fn take_events(&mut self) -> bool {
        let moved = next_event(&mut self.ann, self.game).await;
        assert_eq!(next_event(&mut self.bob, self.game).await, moved);
        assert_eq!(moved.n, self.live.len() as u64 + 1, "numbered in order");
        let EventKind::Moved { mv, .. } = &moved.kind else {
            panic!("a move's event: {moved:?}")
        };
        self.mirror.play(mv.parse().unwrap()).unwrap();
        self.live.push(moved);
        if !self.mirror.is_over() {
            return false;
        }
        let ended = next_event(&mut self.ann, self.game).await;
        assert_eq!(next_event(&mut self.bob, self.game).await, ended);
        assert!(matches!(ended.kind, EventKind::Ended { .. }), "{ended:?}");
        self.live.push(ended);
        true
    }

    /// Plays one random legal move after `pause`; true if it ended the game.
    pub async fn step(&mut self, pause: Duration) -> bool {
        tokio::time::sleep(pause).await;
        let (mv, _) = self.pick();
        self.send(&mv, false).await;
        self.take_events().await
    }

    /// Both players and a new spectator ask for every event again: each gets exactly the events seen live.
    pub async fn all_sent_again(&mut self, addr: SocketAddr) {
        let game = self.game;
        for c in [&mut self.ann, &mut self.bob] {
            c.send(&ClientMessage::Resume { game, after: 0 }).await;
            for seen in &self.live {
                assert_eq!(&next_event(c, game).await, seen, "{} resumed", c.name);
            }
        }
        let (mut carl, _) = Client::hello(addr, "carl").await;
        carl.send(&ClientMessage::Watch { game, after: 0 }).await;
        match carl.recv().await {
            ServerMessage::Watching { last_event, .. } => {
                assert_eq!(last_event, self.live.len() as u64);
            }
            other => panic!("carl: {other:?}"),
        }
        for seen in &self.live {
            assert_eq!(&next_event(&mut carl, game).await, seen, "carl watching");
        }
    }
}

/// The clocks an event shows.
pub fn clocks_of(e: &Event) -> (u64, u64) {
    let c = match &e.kind {
        EventKind::Started { clocks, .. }
        | EventKind::Moved { clocks, .. }
        | EventKind::Ended { clocks, .. } => clocks.unwrap(),
    };
    (c.black_ms, c.white_ms)
}

/// A game's rating changes, from its `ended` event.
pub fn changes_of(e: &Event) -> RatingChanges {
    match &e.kind {
        EventKind::Ended {
            ratings: Some(r), ..
        } => *r,
        other => panic!("a rated end: {other:?}"),
    }
}

/// Stops the server with SIGKILL.
pub fn kill(mut server: Spawned) {
    server.kill().unwrap();
    server.wait().unwrap();
}

/// The server is stopped: its database holds one finished game, `game`, and Ann's and Bob's ratings are the ones
/// its end showed, from new players' (so applied once).
fn rated_once(dir: &Path, game: u64, changes: RatingChanges) {
    let mut store = parlor_server::SqliteStore::open(dir).unwrap();
    let finished = store.finished_games().unwrap();
    assert_eq!(
        finished.iter().map(|g| g.id).collect::<Vec<_>>(),
        [game],
        "one game, finished once"
    );
    assert_eq!(finished[0].ratings, Some(changes));
    assert_eq!(changes.black.before, Rating::NEW);
    assert_eq!(changes.white.before, Rating::NEW);
    let mut shown = |name: &str| parlor_server::rating::shown(&store.rating(name).unwrap());
    assert_eq!(shown("ann"), changes.black.after);
    assert_eq!(shown("bob"), changes.white.after);
    assert!(store.games_in_play().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_killed_before_its_first_move_comes_back_with_its_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let (first, addr) = spawn(dir.path());
    let clock = TimeControl {
        minutes: 5,
        increment_secs: 0,
    };
    let mut t = Table::start(addr, "6x5", clock, 1).await;
    assert_eq!(clocks_of(&t.live[0]), (300_000, 300_000));
    kill(first);

    let (second, addr) = spawn(dir.path());
    assert!(t.reconnect(addr).await, "in play");
    t.all_sent_again(addr).await;
    // Black and White make their first moves: the clocks are full, nobody loses on time.
    for _ in 0..2 {
        assert!(!t.step(Duration::from_millis(50)).await);
        assert_eq!(clocks_of(t.live.last().unwrap()), (300_000, 300_000));
    }
    // Two more moves on running clocks, then Black resigns: White wins by resignation, not on time.
    for _ in 0..2 {
        assert!(!t.step(Duration::from_millis(50)).await);
        let (b, w) = clocks_of(t.live.last().unwrap());
        assert!(b > 290_000 && w > 290_000, "{b} {w}");
    }
    t.ann.send(&ClientMessage::Resign { game: t.game }).await;
    let ended = next_event(&mut t.ann, t.game).await;
    assert_eq!(next_event(&mut t.bob, t.game).await, ended);
    let EventKind::Ended { winner, reason, .. } = &ended.kind else {
        panic!("{ended:?}")
    };
    assert_eq!(
        (*winner, *reason),
        (Some(Side::White), EndReason::Resignation)
    );
    let changes = changes_of(&ended);
    t.live.push(ended);
    kill(second);
    rated_once(dir.path(), t.game, changes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_killed_mid_game_sends_its_events_again_as_played() {
    let dir = tempfile::tempdir().unwrap();
    let (first, addr) = spawn(dir.path());
    let clock = TimeControl {
        minutes: 1,
        increment_secs: 1,
    };
    let mut t = Table::start(addr, "6x5", clock, 2).await;
    // Six moves, each after a pause of its own, so each move's clocks differ from an instant replay's.
    for i in 0..6u64 {
        assert!(!t.step(Duration::from_millis(40 + 30 * i)).await);
    }
    let before_kill = clocks_of(t.live.last().unwrap());
    // Two increments each, less the time each side took: below what a replay taking no time would read.
    assert!(
        before_kill.0 < 62_000 && before_kill.1 < 62_000,
        "{before_kill:?}"
    );
    kill(first);

    let (second, addr) = spawn(dir.path());
    assert!(t.reconnect(addr).await, "in play");
    t.all_sent_again(addr).await;
    // The game goes on from the clocks as they were, to its end by the rules.
    let mut ended = false;
    for _ in 0..MAX_PLIES {
        if t.step(Duration::ZERO).await {
            ended = true;
            break;
        }
    }
    assert!(ended, "the game ends within {MAX_PLIES} plies");
    let first_after = clocks_of(&t.live[7]);
    assert!(
        first_after.0 <= before_kill.0 + 1_000 && first_after.1 <= before_kill.1 + 1_000,
        "{before_kill:?} then {first_after:?}"
    );
    let end = t.live.last().unwrap().clone();
    let EventKind::Ended { reason, .. } = &end.kind else {
        panic!("{end:?}")
    };
    assert!(
        matches!(
            reason,
            EndReason::Goal | EndReason::Blockade | EndReason::Repetition | EndReason::PlyCap
        ),
        "a result by the rules, not {reason:?}"
    );
    // Killed once more after the end: the finished game is sent again as it was played.
    kill(second);
    let (third, addr) = spawn(dir.path());
    assert!(!t.reconnect(addr).await, "finished");
    t.all_sent_again(addr).await;
    kill(third);
    rated_once(dir.path(), t.game, changes_of(&end));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_killed_at_its_last_move_ends_once() {
    let dir = tempfile::tempdir().unwrap();
    let (first, addr) = spawn(dir.path());
    let clock = TimeControl {
        minutes: 3,
        increment_secs: 2,
    };
    let mut t = Table::start(addr, "4x4", clock, 3).await;
    // Random moves until the next one would end the game; that one is sent and the server killed at once.
    let mut last = None;
    for _ in 0..MAX_PLIES {
        let (mv, ends) = t.pick();
        if ends && t.live.len() > 3 {
            last = Some(mv);
            break;
        }
        t.send(&mv, false).await;
        assert!(!t.take_events().await);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let last = last.expect("a game's last move within the plies played");
    t.send(&last, false).await;
    kill(first);

    let (second, addr) = spawn(dir.path());
    let game = t.game;
    if t.reconnect(addr).await {
        // The kill came before the last move was kept: the game is as it was before it, and the player sends it
        // again under the same number.
        eprintln!("killed before the last move was kept: sent again");
        t.all_sent_again(addr).await;
        t.send(&last, true).await;
    } else {
        // It was kept (and the game ended, rated) before the kill: both players ask for what they missed.
        eprintln!("killed after the last move was kept: resumed");
        let after = t.live.len() as u64;
        for c in [&mut t.ann, &mut t.bob] {
            c.send(&ClientMessage::Resume { game, after }).await;
        }
    }
    assert!(t.take_events().await, "the last move ends the game");
    let end = t.live.last().unwrap().clone();
    kill(second);

    let (third, addr) = spawn(dir.path());
    assert!(!t.reconnect(addr).await, "finished");
    t.all_sent_again(addr).await;
    kill(third);
    rated_once(dir.path(), t.game, changes_of(&end));
}

#[test]
fn a_database_whose_unstarted_timed_game_kept_no_clocks_gets_them_on_opening() {
    let dir = tempfile::tempdir().unwrap();
    {
        // A timed game in play with no move yet, as a server of schema 3 kept it: clocks 0 and 0.
        let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
        store
            .start_game(&parlor_server::store::NewGame {
                id: 1,
                black: "ann".into(),
                white: "bob".into(),
                board: "6x5".into(),
                clock: Some(TimeControl {
                    minutes: 5,
                    increment_secs: 3,
                }),
                rated: true,
                rematch_of: None,
                ratings: [Rating::NEW; 2],
                remaining: [300_000; 2],
            })
            .unwrap();
    }
    let db = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE)).unwrap();
    db.execute_batch(
        "UPDATE games SET black_ms = 0, white_ms = 0;
         ALTER TABLE games DROP COLUMN start_ratings;
         ALTER TABLE games DROP COLUMN end_clocks;
         DROP INDEX players_name_key;
         ALTER TABLE players DROP COLUMN name_key;
         PRAGMA user_version = 3;",
    )
    .unwrap();
    drop(db);
    let mut store = parlor_server::SqliteStore::open(dir.path()).unwrap();
    let games = store.games_in_play().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].remaining, [300_000, 300_000]);
    assert_eq!(games[0].start_ratings, None);
}
