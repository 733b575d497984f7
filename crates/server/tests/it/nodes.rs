//! Several server processes (nodes) on one PostgreSQL database (issue 54): the node refereeing a game killed with
//! SIGKILL mid-game, another serves the same events at once, takes the lease, and plays the move sent meanwhile,
//! no clock charged for the gap; a node stopped with SIGTERM lets its game go at once; a node paused past its
//! lease (as one cut off from the database) never sends an event again; players and spectators on three nodes see
//! every event the same, with one end and one rating update, and a player's presence on another node is the
//! referee's (also after a takeover); the queue pairs players across nodes, each once; a store that lost a lease
//! can write nothing of the game, and game numbers from two nodes never collide. Skipped, saying so, without
//! PostgreSQL ([`crate::postgres`]).

use crate::client::{Client, play, start_game, start_game_with};
use crate::contract::Pg;
use crate::env::start;
use crate::kill::Spawned;
use parlor_online::protocol::{
    ClientMessage, ErrorCode, Event, EventKind, ServerMessage, Side, TimeControl,
};
use parlor_server::{PgStore, Store, StoreError};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest a takeover may take: a lease (3 s) run out, the next look (1 s), and a loaded machine's slack.
const TAKEOVER: Duration = Duration::from_secs(15);

/// Nodes started on one new database, each killed when dropped; none (said) without PostgreSQL.
pub struct Nodes {
    pub db: Pg,
    /// Each node's data directory and stderr.
    _dir: tempfile::TempDir,
    pub nodes: Vec<(Spawned, SocketAddr)>,
}

impl Nodes {
    pub fn start(n: usize) -> Option<Nodes> {
        Nodes::start_with(n, &[])
    }

    /// [`Nodes::start`], each node given the arguments `more` as well.
    pub fn start_with(n: usize, more: &[&str]) -> Option<Nodes> {
        let db = Pg::new()?;
        let dir = tempfile::tempdir().unwrap();
        let url = db.url.secret().to_string();
        let nodes = (0..n).map(|i| node(&url, dir.path(), i, more)).collect();
        Some(Nodes {
            db,
            _dir: dir,
            nodes,
        })
    }

    /// Where node `i` listens.
    pub fn addr(&self, i: usize) -> SocketAddr {
        self.nodes[i].1
    }

    /// Node `i`'s process.
    pub fn process(&mut self, i: usize) -> &mut Spawned {
        &mut self.nodes[i].0
    }
}

/// Starts node `i` on the database at `url`, with the arguments `more` too; its stderr in `dir`.
pub fn node(url: &str, dir: &Path, i: usize, more: &[&str]) -> (Spawned, SocketAddr) {
    let data = dir.join(format!("node{i}"));
    let mut args = vec!["--data-dir", data.to_str().unwrap(), "--database", url];
    args.extend_from_slice(more);
    start(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:0"),
            ("PARLOR_NO_LOG_FILE", "1"),
        ],
        &args,
        &dir.join(format!("node{i}.txt")),
    )
}

fn ten_minutes() -> Option<TimeControl> {
    Some(TimeControl {
        minutes: 10,
        increment_secs: 0,
    })
}

/// What `c` is sent until its `pong`: the events, and whether the game was not found.
pub(crate) async fn until_pong(c: &mut Client) -> (Vec<(u64, Event)>, bool) {
    c.send(&ClientMessage::Ping {}).await;
    let (mut events, mut not_found) = (Vec::new(), false);
    // Bounded: every message the server sends before its pong, each within the client's wait.
    for _ in 0..1000 {
        match c.recv().await {
            ServerMessage::Pong {} => return (events, not_found),
            ServerMessage::Event { game, event } => events.push((game, event)),
            ServerMessage::Error {
                code: ErrorCode::NotFound,
                ..
            } => not_found = true,
            // Away and back: who is connected where is not what these tests look at.
            ServerMessage::Away { .. } | ServerMessage::Back { .. } => {}
            other => panic!("{}: {other:?}", c.name),
        }
    }
    panic!("{}: no pong", c.name)
}

/// Resumes `game` from the start on `c` (on a node that does not referee it, from what the referee kept), trying
/// again while it is not found (bounded by [`TAKEOVER`]): its events.
async fn resume_from_start(c: &mut Client, game: u64) -> Vec<Event> {
    let deadline = Instant::now() + TAKEOVER;
    loop {
        c.send(&ClientMessage::Resume { game, after: 0 }).await;
        let (events, not_found) = until_pong(c).await;
        if !events.is_empty() {
            assert!(events.iter().all(|(g, _)| *g == game), "{events:?}");
            return events.into_iter().map(|(_, e)| e).collect();
        }
        assert!(not_found, "{}: neither events nor an error", c.name);
        assert!(Instant::now() < deadline, "game {game} was not found");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sends `mv` (sequence number `seq`) in `game` from `c`.
async fn send_move(c: &mut Client, game: u64, seq: u64, mv: &str) {
    c.send(&ClientMessage::Move {
        game,
        seq,
        mv: mv.into(),
    })
    .await;
}

/// The next event of `game` `c` is sent (away and back skipped).
pub async fn next_event(c: &mut Client, game: u64) -> Event {
    // Bounded: a few away and back messages at most come first.
    for _ in 0..20 {
        match c.recv().await {
            ServerMessage::Event { game: g, event } if g == game => return event,
            ServerMessage::Away { .. } | ServerMessage::Back { .. } => {}
            other => panic!("{}: {other:?}", c.name),
        }
    }
    panic!("{}: no event", c.name)
}

fn clocks(e: &Event) -> (u64, u64) {
    match &e.kind {
        EventKind::Moved {
            clocks: Some(c), ..
        } => (c.black_ms, c.white_ms),
        other => panic!("{other:?}"),
    }
}

/// The game `id` as kept: its moves, and whether it has ended.
pub fn kept(db: &Pg, id: u64) -> (String, bool) {
    let url = db.url.clone();
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut store = PgStore::open(&url).unwrap();
            if let Some(g) = store.finished_game(id).unwrap() {
                return (g.moves, true);
            }
            let live = store.games_in_play().unwrap();
            let g = live.into_iter().find(|g| g.id == id).expect("kept");
            (g.moves, false)
        })
        .join()
        .unwrap()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_game_has_its_game_go_on_on_another_with_every_event_once() {
    let Some(mut n) = Nodes::start(2) else { return };
    let (addr_a, addr_b) = (n.addr(0), n.addr(1));
    let (mut ann, _) = Client::hello(addr_a, "ann").await;
    let (mut bob, _) = Client::hello(addr_a, "bob").await;
    let game = start_game_with(&mut ann, &mut bob, "6x5", ten_minutes(), false).await;
    // A game on the other node at the same time: numbered apart.
    let (mut carl, _) = Client::hello(addr_b, "carl").await;
    let (mut dave, _) = Client::hello(addr_b, "dave").await;
    let other = start_game(&mut carl, &mut dave, "4x4").await;
    assert_ne!(game, other);
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    play(game, &mut ann, &mut bob, Side::Black, 2, "d1k", 4).await;
    ann.send(&ClientMessage::Resume { game, after: 0 }).await;
    let (seen, _) = until_pong(&mut ann).await;
    let seen: Vec<Event> = seen.into_iter().map(|(_, e)| e).collect();
    assert_eq!(seen.iter().map(|e| e.n).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let (_, white_before) = clocks(&seen[3]);

    // SIGKILL mid-game, White to move: nothing is released; the lease runs out and node B takes it.
    n.process(0).kill().unwrap();
    n.process(0).wait().unwrap();
    let killed = Instant::now();
    drop((ann, bob));
    let (mut ann, welcome) = Client::hello(addr_b, "ann").await;
    let (mut bob, _) = Client::hello(addr_b, "bob").await;
    // Node B lists the game, and serves them its events from the store at once, before it takes the lease.
    let ServerMessage::Welcome { games, .. } = welcome else {
        panic!("{welcome:?}")
    };
    assert_eq!(
        games
            .iter()
            .map(|g| (g.game, g.side, g.last_event))
            .collect::<Vec<_>>(),
        [(game, Side::Black, 4)]
    );
    let resumed = resume_from_start(&mut ann, game).await;
    let resumed_bob = resume_from_start(&mut bob, game).await;
    // Every event once, in order, as node A sent it.
    assert_eq!(resumed, seen);
    assert_eq!(resumed_bob, seen);

    // White's move, sent to node B before it referees the game, is passed on and played once B takes the lease
    // over: White's clock is charged only from the takeover on.
    send_move(&mut bob, game, 2, "d6j").await;
    let fifth = next_event(&mut bob, game).await;
    let since_kill = killed.elapsed().as_millis() as u64;
    assert_eq!(next_event(&mut ann, game).await, fifth);
    assert_eq!(fifth.n, 5);
    let (_, white_after) = clocks(&fifth);
    let charged = white_before - white_after;
    // The lease was renewed at most a second before the kill and lasts three: two seconds at least were not
    // White's to pay.
    eprintln!("the move played {since_kill} ms after SIGKILL; White charged {charged} ms");
    assert!(
        charged + 1500 < since_kill,
        "charged {charged} ms of the {since_kill} ms since the kill"
    );
    bob.send(&ClientMessage::Resign { game }).await;
    let end = next_event(&mut bob, game).await;
    assert_eq!(next_event(&mut ann, game).await, end);
    assert!(matches!(end.kind, EventKind::Ended { .. }), "{end:?}");
    assert_eq!(end.n, 6);
    assert_eq!(kept(&n.db, game), ("c1k c6j d1k d6j".to_string(), true));
    // Node B's own game was never interrupted.
    play(other, &mut carl, &mut dave, Side::Black, 1, "b1k", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_with_sigterm_lets_its_games_go_at_once() {
    let Some(mut n) = Nodes::start(2) else { return };
    let (addr_a, addr_b) = (n.addr(0), n.addr(1));
    let (mut ann, _) = Client::hello(addr_a, "ann").await;
    let (mut bob, _) = Client::hello(addr_a, "bob").await;
    let game = start_game(&mut ann, &mut bob, "4x4").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "b1k", 2).await;
    drop((ann, bob));
    let (mut ann, _) = Client::hello(addr_b, "ann").await;
    let (mut bob, _) = Client::hello(addr_b, "bob").await;
    assert_eq!(
        resume_from_start(&mut bob, game)
            .await
            .iter()
            .map(|e| e.n)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    let a = n.process(0);
    let status = std::process::Command::new("kill")
        .args(["-TERM", &a.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + TAKEOVER;
    // Bounded: the node drains and exits.
    while a.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the node did not stop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let exited = Instant::now();
    // Bob's move waits for a referee: node B, at its next look, since node A released the lease as it stopped (a
    // lease run out would have lasted two seconds more at least).
    send_move(&mut bob, game, 1, "b4j").await;
    let moved = next_event(&mut bob, game).await;
    let took = exited.elapsed();
    assert_eq!(next_event(&mut ann, game).await, moved);
    assert_eq!(moved.n, 3);
    eprintln!("the move played {took:?} after the node stopped");
    assert!(
        took < parlor_server::nodes::LEASE - parlor_server::nodes::RENEW,
        "played {took:?} after the node stopped"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_paused_past_its_lease_never_referees_again() {
    let Some(n) = Nodes::start(2) else { return };
    let (addr_a, addr_b) = (n.addr(0), n.addr(1));
    let a = n.nodes[0].0.id();
    let (mut ann, _) = Client::hello(addr_a, "ann").await;
    let (mut bob, _) = Client::hello(addr_a, "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    // Node A stops answering anyone, the database included (SIGSTOP), past its lease.
    let signal = |sig: &str| {
        let status = std::process::Command::new("kill")
            .args([sig, &a.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    };
    signal("-STOP");
    let (mut ann2, _) = Client::hello(addr_b, "ann").await;
    let (mut bob2, _) = Client::hello(addr_b, "bob").await;
    let resumed = resume_from_start(&mut bob2, game).await;
    assert_eq!(resumed.iter().map(|e| e.n).collect::<Vec<_>>(), [1, 2]);
    play(game, &mut bob2, &mut ann2, Side::White, 1, "c6j", 3).await;
    // Bob's old connection to node A sends another White move for the same turn, read once A wakes.
    send_move(&mut bob, game, 1, "d6j").await;
    signal("-CONT");
    // Node A never sends an event 3 (or later) of its own: it finds its lease lost and lets the game go (closing
    // the game's connections), or its write of the move is refused.
    for c in [&mut bob, &mut ann] {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_millis(500), c.next()).await {
                Ok(Some(ServerMessage::Event { event, .. })) => {
                    panic!("{}: node A sent {event:?}", c.name)
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(_) => {}
            }
        }
    }
    // The game is node B's: its moves as B played them, and it goes on there.
    assert_eq!(kept(&n.db, game), ("c1k c6j".to_string(), false));
    play(game, &mut ann2, &mut bob2, Side::Black, 2, "d1k", 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_on_three_nodes_see_every_event_the_same() {
    let Some(n) = Nodes::start(3) else { return };
    let addr = |i: usize| n.addr(i);
    let (mut ann, _) = Client::hello(addr(0), "ann").await;
    let (mut bob, _) = Client::hello(addr(0), "bob").await;
    let game = start_game_with(&mut ann, &mut bob, "6x5", ten_minutes(), true).await;
    // Bob goes on from node B, Carl watches on node C and Dave on node B; Ann stays on node A, the referee.
    drop(bob);
    assert!(ann.away(game, Side::White, "bob").await > 0);
    // Node A held Bob's seat as away; once he follows the game on node B, A has him back.
    let (mut bob, _) = Client::hello(addr(1), "bob").await;
    ann.back(game, Side::White, "bob").await;
    bob.send(&ClientMessage::Resume { game, after: 0 }).await;
    let (from_b, _) = until_pong(&mut bob).await;
    assert_eq!(from_b.len(), 1, "{from_b:?}");
    let mut watchers = Vec::new();
    // Carl on node C, Dave on node B.
    for (name, i) in [("carl", 2), ("dave", 1)] {
        let (mut w, _) = Client::hello(addr(i), name).await;
        w.send(&ClientMessage::Watch { game, after: 0 }).await;
        assert_eq!(
            w.recv().await,
            ServerMessage::Watching {
                game,
                last_event: 1
            }
        );
        let start = next_event(&mut w, game).await;
        assert_eq!(start, from_b[0].1, "{name} sees the start as Bob does");
        watchers.push(w);
    }
    let (mut carl, mut dave) = (watchers.remove(0), watchers.remove(0));
    let mut seen: Vec<Vec<Event>> = vec![Vec::new(); 4];
    let moves = [
        (Side::Black, 1, "c1k"),
        (Side::White, 1, "c6j"),
        (Side::Black, 2, "d1k"),
        (Side::White, 2, "d6j"),
    ];
    for (i, (side, seq, mv)) in moves.into_iter().enumerate() {
        let mover = if side == Side::Black {
            &mut ann
        } else {
            &mut bob
        };
        send_move(mover, game, seq, mv).await;
        let n = i as u64 + 2;
        let mut all = [&mut ann, &mut bob, &mut carl, &mut dave];
        for (c, got) in all.iter_mut().zip(seen.iter_mut()) {
            let event = next_event(c, game).await;
            assert_eq!(event.n, n, "{}", c.name);
            got.push(event);
        }
    }
    // Bob leaves node B (his seat held as away on node A) and comes back on node C, whence he resigns: one end,
    // with one rating update, seen the same everywhere.
    drop(bob);
    assert!(ann.away(game, Side::White, "bob").await > 0);
    let (mut bob, _) = Client::hello(addr(2), "bob").await;
    ann.back(game, Side::White, "bob").await;
    bob.send(&ClientMessage::Resign { game }).await;
    let mut all = [&mut ann, &mut bob, &mut carl, &mut dave];
    for (c, got) in all.iter_mut().zip(seen.iter_mut()) {
        let event = next_event(c, game).await;
        assert!(
            matches!(
                event.kind,
                EventKind::Ended {
                    ratings: Some(_),
                    ..
                }
            ),
            "{}: {event:?}",
            c.name
        );
        got.push(event);
    }
    for s in &seen[1..] {
        assert_eq!(s, &seen[0]);
    }
    assert_eq!(kept(&n.db, game), ("c1k c6j d1k d6j".to_string(), true));
    // The ratings were updated once: as the end event says.
    let EventKind::Ended {
        ratings: Some(changes),
        ..
    } = seen[0][4].kind.clone()
    else {
        unreachable!()
    };
    let url = n.db.url.clone();
    let now = std::thread::scope(|s| {
        s.spawn(move || {
            let mut store = PgStore::open(&url).unwrap();
            ["ann", "bob"].map(|n| parlor_server::rating::shown(&store.rating(n).unwrap()))
        })
        .join()
        .unwrap()
    });
    assert_eq!(now, [changes.black.after, changes.white.after]);
}

#[test]
fn a_store_that_lost_a_lease_cannot_write_the_game() {
    let Some(db) = Pg::new() else { return };
    let open = || {
        let mut s = PgStore::open(&db.url).unwrap();
        assert!(s.join_nodes().unwrap());
        s
    };
    let (mut a, mut b) = (open(), open());
    // Each node's numbers are its own.
    let mine = a.reserve_game_ids(100).unwrap().unwrap();
    let theirs = b.reserve_game_ids(100).unwrap().unwrap();
    assert!(
        mine.end <= theirs.start || theirs.end <= mine.start,
        "{mine:?} {theirs:?}"
    );
    let game = mine.start;
    a.start_game(&crate::contract::new_game(game, "ann", "bob", false))
        .unwrap();
    let times = |n| {
        vec![
            parlor_online::protocol::MoveTime {
                spent_ms: 1,
                black_ms: None,
                white_ms: None
            };
            n
        ]
    };
    a.save_progress(game, "c1k", &times(1), [0, 0], [Some(1), None])
        .unwrap();
    assert!(b.take_leases().unwrap().is_empty(), "node A holds it");
    assert!(a.renew_leases().unwrap().is_empty());
    // Node A goes silent past its lease (cut off, or paused): node B takes the game, as A kept it.
    std::thread::sleep(parlor_server::nodes::LEASE + Duration::from_millis(300));
    let taken = b.take_leases().unwrap();
    assert_eq!(
        taken
            .iter()
            .map(|g| (g.id, g.moves.as_str()))
            .collect::<Vec<_>>(),
        [(game, "c1k")]
    );
    b.save_progress(game, "c1k c6j", &times(2), [0, 0], [Some(1), Some(1)])
        .unwrap();
    // Node A, back, can write nothing more of it: neither a move nor an end, and its renewal says it lost it.
    let refused = a.save_progress(game, "c1k d6j", &times(2), [0, 0], [Some(1), Some(1)]);
    assert!(
        matches!(refused, Err(StoreError::LeaseLost(g)) if g == game),
        "{refused:?}"
    );
    let ended = a.finish_rated_game(game, &crate::contract::end("c1k d6j"), None);
    assert!(
        matches!(ended, Err(StoreError::LeaseLost(g)) if g == game),
        "{ended:?}"
    );
    assert_eq!(kept(&db, game), ("c1k c6j".to_string(), false));
    // Released, a lease is taken at once; its game's end removes it.
    b.release_leases(None).unwrap();
    assert_eq!(a.take_leases().unwrap().len(), 1);
    assert!(b.renew_leases().unwrap().is_empty(), "B had released it");
    a.finish_rated_game(game, &crate::contract::end("c1k c6j"), None)
        .unwrap();
    assert_eq!(kept(&db, game), ("c1k c6j".to_string(), true));
    assert!(b.take_leases().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_pairs_players_across_nodes_each_once() {
    let Some(n) = Nodes::start(3) else { return };
    // Ann on node A, Bob on node B, Carl and Dave on node C: all queue for the same game at once.
    let mut players = Vec::new();
    for (name, i) in [("ann", 0), ("bob", 1), ("carl", 2), ("dave", 2)] {
        let (mut c, _) = Client::hello(n.addr(i), name).await;
        c.send(&ClientMessage::Queue {
            board: "4x4".into(),
            clock: None,
        })
        .await;
        assert!(
            matches!(c.recv().await, ServerMessage::Queued { .. }),
            "{name}"
        );
        players.push(c);
    }
    // Each is paired once: their game's start, Black and White one another's.
    let mut starts = Vec::new();
    for c in players.iter_mut() {
        let (game, start) = loop {
            match c.recv().await {
                ServerMessage::Event { game, event } => break (game, event),
                ServerMessage::Away { .. } | ServerMessage::Back { .. } => {}
                other => panic!("{}: {other:?}", c.name),
            }
        };
        let EventKind::Started {
            black,
            white,
            rated: true,
            ..
        } = &start.kind
        else {
            panic!("{}: {start:?}", c.name)
        };
        assert!(
            c.name == *black || c.name == *white,
            "{}: {start:?}",
            c.name
        );
        starts.push((game, black.clone(), white.clone()));
    }
    let mut games: Vec<u64> = starts.iter().map(|s| s.0).collect();
    games.sort_unstable();
    games.dedup();
    assert_eq!(games.len(), 2, "two games: {starts:?}");
    for game in &games {
        let of: Vec<_> = starts.iter().filter(|s| s.0 == *game).collect();
        assert_eq!(of.len(), 2, "{starts:?}");
        assert_eq!(of[0], of[1], "both players see the same start");
    }
    // Each game goes on, wherever its players are: Black's move seen by both.
    for game in games {
        let (_, black, _) = starts.iter().find(|s| s.0 == game).unwrap().clone();
        let b = players.iter().position(|c| c.name == black).unwrap();
        let w = (0..4).find(|&i| i != b && starts[i].0 == game).unwrap();
        send_move(&mut players[b], game, 1, "b1k").await;
        for i in [b, w] {
            let event = next_event(&mut players[i], game).await;
            assert_eq!(event.n, 2, "{}", players[i].name);
        }
    }
    // Nobody is paired again: nothing more comes to anyone.
    for c in players.iter_mut() {
        let (events, _) = until_pong(c).await;
        assert!(events.is_empty(), "{}: {events:?}", c.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_taken_over_knows_its_players_on_other_nodes() {
    let Some(mut n) = Nodes::start(3) else { return };
    let (mut ann, _) = Client::hello(n.addr(0), "ann").await;
    let (mut bob, _) = Client::hello(n.addr(0), "bob").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;
    // Bob goes on from node C; node A, the referee, has him there.
    drop(bob);
    assert!(ann.away(game, Side::White, "bob").await > 0);
    let (mut bob, _) = Client::hello(n.addr(2), "bob").await;
    ann.back(game, Side::White, "bob").await;
    // Node A is killed; Ann comes back on node B. Node B or node C takes the game over, and is told the player on
    // the other node is there: that player's opponent hears them away (the takeover) and then back.
    n.process(0).kill().unwrap();
    n.process(0).wait().unwrap();
    drop(ann);
    let (mut ann, _) = Client::hello(n.addr(1), "ann").await;
    let deadline = Instant::now() + TAKEOVER;
    // Bounded: within a takeover's time.
    'back: loop {
        for c in [&mut ann, &mut bob] {
            assert!(Instant::now() < deadline, "nobody is back");
            match tokio::time::timeout(Duration::from_millis(200), c.next()).await {
                Ok(Some(ServerMessage::Back { name, .. })) => {
                    assert_ne!(name, c.name);
                    break 'back;
                }
                Ok(Some(ServerMessage::Away { .. })) | Err(_) => {}
                other => panic!("{}: {other:?}", c.name),
            }
        }
    }
    // The game goes on between node B and node C.
    send_move(&mut ann, game, 1, "c1k").await;
    let moved = next_event(&mut ann, game).await;
    assert_eq!(next_event(&mut bob, game).await, moved);
    assert_eq!(moved.n, 2);
    send_move(&mut bob, game, 1, "c6j").await;
    let moved = next_event(&mut bob, game).await;
    assert_eq!(next_event(&mut ann, game).await, moved);
    assert_eq!(moved.n, 3);
}
