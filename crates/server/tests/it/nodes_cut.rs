//! A node really cut off from the database (issue 54): node A reaches PostgreSQL only through a TCP proxy on
//! loopback that the test runs (tokio) and cuts, closing every connection through it and refusing new ones, while
//! node A lives on. Node A notices (its writes and lease renewals fail), stops refereeing (it closes its games'
//! connections) and node B takes the games over; the event numbers show one referee (every event of a number the
//! same wherever it was seen, none of node A's after the cut). Once the proxy lets connections through again,
//! node A connects again and referees a new game. Skipped, saying so, without PostgreSQL ([`crate::postgres`]).
//!
//! The same again with the proxy silent instead (it takes every byte and connection and passes nothing on, as a
//! network dropping packets would): node A hears no error, and lets its games go once no renewal has answered for
//! a lease's length.
//!
//! Why a proxy: it needs no privileges (a network namespace needs root and `ip netns`), runs wherever the tests
//! do, and cuts exactly the one node's connections, the cluster and the other node untouched.

use crate::client::{Client, play, start_game, start_game_with};
use crate::contract::Pg;
use crate::kill::Spawned;
use crate::nodes::{kept, next_event, node};
use parlor_online::protocol::{ClientMessage, Event, ServerMessage, Side};
use parlor_server::{PgStore, Store};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, UnixStream};
use tokio::sync::watch;

/// The longest the cut node may take to let its games go, and another to take them: a lease (3 s), a look (1 s),
/// and a loaded machine's slack.
const NOTICE: Duration = Duration::from_secs(15);

/// What the proxy does with what passes through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Passes every byte both ways.
    Open,
    /// Closes every connection through it and refuses new ones, as an unreachable database's would fail.
    Cut,
    /// Passes nothing and says nothing: bytes sent are taken and held, connections stay open and new ones are
    /// taken but not put through, as when a network drops every packet. Held bytes go on once open again.
    Silent,
}

/// A TCP proxy on 127.0.0.1 to the cluster's Unix socket, which can be cut, silenced and healed.
struct Proxy {
    addr: SocketAddr,
    mode: Arc<watch::Sender<Mode>>,
    task: tokio::task::JoinHandle<()>,
}

/// Copies `from` to `to` while the proxy is open; holds what it read while it is silent; ends when cut, or at
/// either end's close.
async fn pipe(
    mut from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    mut mode: watch::Receiver<Mode>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = tokio::select! {
            read = from.read(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            },
            _ = mode.wait_for(|m| *m == Mode::Cut) => return,
        };
        let cut = mode
            .wait_for(|m| *m != Mode::Silent)
            .await
            .map_or(true, |m| *m == Mode::Cut);
        if cut || to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Proxy {
    async fn start(socket: PathBuf) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mode = Arc::new(watch::channel(Mode::Open).0);
        let state = Arc::clone(&mode);
        let task = tokio::spawn(async move {
            // Bounded by the test: the task is aborted when the proxy is dropped.
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let mut mode = state.subscribe();
                let socket = socket.clone();
                tokio::spawn(async move {
                    // Silent: the connection is taken and held, unanswered, until the proxy opens or is cut.
                    let cut = mode
                        .wait_for(|m| *m != Mode::Silent)
                        .await
                        .map_or(true, |m| *m == Mode::Cut);
                    if cut {
                        return;
                    }
                    let Ok(unix) = UnixStream::connect(&socket).await else {
                        return;
                    };
                    let ((tcp_in, tcp_out), (unix_in, unix_out)) =
                        (tcp.into_split(), unix.into_split());
                    tokio::select! {
                        _ = pipe(tcp_in, unix_out, mode.clone()) => {}
                        _ = pipe(unix_in, tcp_out, mode) => {}
                    }
                });
            }
        });
        Proxy { addr, mode, task }
    }

    /// Closes every connection through the proxy and refuses new ones, until [`Proxy::heal`].
    fn cut(&self) {
        self.mode.send_replace(Mode::Cut);
    }

    /// Passes nothing and says nothing, until [`Proxy::heal`].
    fn silence(&self) {
        self.mode.send_replace(Mode::Silent);
    }

    fn heal(&self) {
        self.mode.send_replace(Mode::Open);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The database's Unix socket.
fn socket(db: &Pg) -> PathBuf {
    let config = db.url.config();
    let Some(postgres::config::Host::Unix(dir)) = config.get_hosts().first() else {
        panic!("the test cluster listens on a Unix socket")
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    dir.join(format!(".s.PGSQL.{port}"))
}

/// A URL of the database through `proxy`.
fn through(db: &Pg, proxy: SocketAddr) -> String {
    let config = db.url.config();
    let name = config.get_dbname().unwrap();
    let user = config.get_user().unwrap();
    format!("postgres://{user}@{proxy}/{name}?connect_timeout=5")
}

/// Every message `c` is sent until its connection closes (bounded by `NOTICE`): the events among them. Panics if
/// it stays open.
async fn until_closed(c: &mut Client) -> Vec<(u64, Event)> {
    let deadline = Instant::now() + NOTICE;
    let mut events = Vec::new();
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_millis(200), c.next()).await {
            Ok(Some(ServerMessage::Event { game, event })) => events.push((game, event)),
            Ok(Some(_)) | Err(_) => {}
            Ok(None) => return events,
        }
    }
    panic!("{}: node A kept the connection open", c.name)
}

/// What `c` is sent until the pong of a ping sent now: the events of `game` (anything else skipped).
async fn events_until_pong(c: &mut Client, game: u64) -> Vec<Event> {
    c.send(&ClientMessage::Ping {}).await;
    let mut events = Vec::new();
    // Bounded: what the server sends before its pong.
    for _ in 0..100 {
        match c.recv().await {
            ServerMessage::Pong {} => return events,
            ServerMessage::Event { game: g, event } if g == game => events.push(event),
            _ => {}
        }
    }
    panic!("{}: no pong", c.name)
}

/// `game`'s events from the start, as `c`'s node sends them.
async fn from_start(c: &mut Client, game: u64) -> Vec<Event> {
    c.send(&ClientMessage::Resume { game, after: 0 }).await;
    events_until_pong(c, game).await
}

/// `mover` plays `mv` (`seq`) in `game`: the event both it and `other` are sent next, the same.
async fn moved(game: u64, mover: &mut Client, other: &mut Client, seq: u64, mv: &str) -> Event {
    mover
        .send(&ClientMessage::Move {
            game,
            seq,
            mv: mv.into(),
        })
        .await;
    let e = next_event(mover, game).await;
    assert_eq!(next_event(other, game).await, e, "{}", other.name);
    e
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_the_database_stops_refereeing_and_another_takes_over() {
    cut_off(Mode::Cut).await;
}

/// The same with the database silent rather than refusing (every packet dropped): node A hears neither an answer
/// nor an error, so it lets its games go once no renewal of its leases has answered for a lease's length.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_database_falls_silent_stops_refereeing_and_another_takes_over() {
    cut_off(Mode::Silent).await;
}

/// Node A refereeing two games is cut off from the database in `how`, then healed.
async fn cut_off(how: Mode) {
    let Some(db) = Pg::new() else { return };
    let dir = tempfile::tempdir().unwrap();
    let proxy = Proxy::start(socket(&db)).await;
    let (a, addr_a): (Spawned, SocketAddr) = node(&through(&db, proxy.addr), dir.path(), 0, &[]);
    let (_b, addr_b) = node(db.url.secret(), dir.path(), 1, &[]);

    // Two games refereed by node A: one rated, two moves in; one just started. Bob follows the first from node B
    // too.
    let (mut ann, _) = Client::hello(addr_a, "ann").await;
    let (mut bob, _) = Client::hello(addr_a, "bob").await;
    let game = start_game_with(&mut ann, &mut bob, "6x5", None, true).await;
    play(game, &mut ann, &mut bob, Side::Black, 1, "c1k", 2).await;
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    let (mut carl, _) = Client::hello(addr_a, "carl").await;
    let (mut dave, _) = Client::hello(addr_a, "dave").await;
    let other = start_game(&mut carl, &mut dave, "4x4").await;
    let mut seen: Vec<(String, u64, Event)> = Vec::new();
    for e in from_start(&mut ann, game).await {
        seen.push(("ann on node A".into(), game, e));
    }
    assert_eq!(seen.len(), 3);
    let (mut bob_b, _) = Client::hello(addr_b, "bob").await;
    events_until_pong(&mut bob_b, game).await;

    // The cut. Ann, to move, sends her move to node A at once: node A cannot write it, so never sends it.
    match how {
        Mode::Cut => proxy.cut(),
        Mode::Silent => proxy.silence(),
        Mode::Open => unreachable!("a cut or a silence"),
    }
    let cut_at = Instant::now();
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "d1k".into(),
    })
    .await;
    // Node A lets both games go: it closes their connections, having sent no event since the cut.
    for c in [&mut ann, &mut bob, &mut carl, &mut dave] {
        let after = until_closed(c).await;
        assert!(
            after.is_empty(),
            "{}: node A sent {after:?} after the cut",
            c.name
        );
    }
    let noticed = cut_at.elapsed();
    assert!(lives(&a), "node A lives on");

    // Node B takes both over. Ann, connecting there, sends her move again: it is played once node B referees
    // the game, event 4, seen by Bob on node B too.
    let (mut ann, _) = Client::hello(addr_b, "ann").await;
    ann.send(&ClientMessage::Move {
        game,
        seq: 2,
        mv: "d1k".into(),
    })
    .await;
    let deadline = Instant::now() + NOTICE;
    let fourth = loop {
        assert!(
            Instant::now() < deadline,
            "node B did not take the game over"
        );
        match tokio::time::timeout(Duration::from_millis(200), ann.next()).await {
            Ok(Some(ServerMessage::Event { game: g, event })) if g == game => break event,
            Ok(Some(_)) | Err(_) => {}
            Ok(None) => panic!("node B closed Ann's connection"),
        }
    };
    let taken = cut_at.elapsed();
    eprintln!(
        "{how:?}: node A let its games go {noticed:?} after the cut; node B played the move {taken:?} after it"
    );
    assert_eq!(fourth.n, 4);
    assert_eq!(next_event(&mut bob_b, game).await, fourth);
    seen.push(("ann on node B".into(), game, fourth));
    for c in [&mut ann, &mut bob_b] {
        let all = from_start(c, game).await;
        assert_eq!(all.len(), 4, "{}: {all:?}", c.name);
        seen.extend(
            all.into_iter()
                .map(|e| (format!("{} on node B", c.name), game, e)),
        );
    }
    one_referee(&seen);
    assert_eq!(kept(&db, game), ("c1k c6j d1k".to_string(), false));

    // The other game goes on on node B too.
    let (mut carl, _) = Client::hello(addr_b, "carl").await;
    let (mut dave, _) = Client::hello(addr_b, "dave").await;
    for c in [&mut carl, &mut dave] {
        assert_eq!(from_start(c, other).await.len(), 1, "{}", c.name);
    }
    assert_eq!(moved(other, &mut carl, &mut dave, 1, "b1k").await.n, 2);

    // Healed: node A connects again and referees a new game (its number its own); node B keeps Ann's.
    proxy.heal();
    let (mut erin, _) = Client::hello(addr_a, "erin").await;
    let (mut fred, _) = Client::hello(addr_a, "fred").await;
    let deadline = Instant::now() + NOTICE;
    let fresh = loop {
        assert!(Instant::now() < deadline, "node A did not connect again");
        erin.send(&ClientMessage::Challenge {
            opponent: "fred".into(),
            board: "4x4".into(),
            clock: None,
            rated: false,
        })
        .await;
        // Bounded: the lobby's messages before the challenge.
        let challenge = 'c: {
            for _ in 0..20 {
                if let ServerMessage::Challenged { challenge } = fred.recv().await {
                    break 'c challenge.challenge;
                }
            }
            panic!("fred: no challenge")
        };
        fred.send(&ClientMessage::Accept { challenge }).await;
        // The start, or a refusal (the database not reached yet).
        let mut got = None;
        for _ in 0..20 {
            match fred.recv().await {
                ServerMessage::Event { game: g, event } if event.n == 1 => {
                    got = Some(g);
                    break;
                }
                ServerMessage::Error { .. } => break,
                _ => {}
            }
        }
        if let Some(g) = got {
            break g;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    assert!(fresh != game && fresh != other);
    // Erin's messages so far read past: her start (live, then resumed), nothing else.
    let erin_saw = from_start(&mut erin, fresh).await;
    assert!(
        !erin_saw.is_empty() && erin_saw.iter().all(|e| e.n == 1),
        "{erin_saw:?}"
    );
    assert_eq!(moved(fresh, &mut erin, &mut fred, 1, "b1k").await.n, 2);
    assert_eq!(moved(game, &mut bob_b, &mut ann, 2, "d6j").await.n, 5);
    assert_eq!(kept(&db, game), ("c1k c6j d1k d6j".to_string(), false));
}

/// Whether the process `a` is still running.
fn lives(a: &Spawned) -> bool {
    std::fs::metadata(format!("/proc/{}", a.id())).is_ok()
}

/// Every event of a game seen anywhere: one event a number (so one referee numbered them), numbered from 1 on
/// without a gap.
fn one_referee(seen: &[(String, u64, Event)]) {
    let mut by_n: BTreeMap<(u64, u64), &Event> = BTreeMap::new();
    for (who, game, e) in seen {
        if let Some(first) = by_n.insert((*game, e.n), e) {
            assert_eq!(first, e, "{who}: game {game}'s event {} seen two ways", e.n);
        }
    }
    let mut last: BTreeMap<u64, u64> = BTreeMap::new();
    for (game, n) in by_n.keys() {
        let l = last.entry(*game).or_insert(0);
        assert_eq!(*n, *l + 1, "game {game}: event {n} after {l}");
        *l = *n;
    }
}

/// A node stopped inside a transaction (its game's lease row locked by a write that neither commits nor fails: the
/// node paused, or its database silent mid-write) holds no other node up: node B's look for leases passes over the
/// locked row at once instead of waiting on it, and takes the game once the database has ended the session left
/// in its transaction. The session here is ended 1.5 s after the lease runs out; the server's own connections are
/// ended after `IDLE_IN_TRANSACTION`.
#[test]
fn a_write_stopped_mid_transaction_holds_no_other_node_up() {
    let Some(db) = Pg::new() else { return };
    let open = || {
        let mut s = PgStore::open(&db.url).unwrap();
        assert!(s.join_nodes().unwrap());
        s
    };
    let (mut a, mut b) = (open(), open());
    let game = a.reserve_game_ids(100).unwrap().unwrap().start;
    a.start_game(&crate::contract::new_game(game, "ann", "bob", false))
        .unwrap();
    // A write of node A's, stopped after its fence locked the lease row.
    let mut stopped = postgres::Client::connect(db.url.secret(), postgres::NoTls).unwrap();
    stopped
        .batch_execute(&format!(
            "SET idle_in_transaction_session_timeout = {}; BEGIN;
             SELECT 1 FROM leases WHERE game = {game} FOR UPDATE;",
            (parlor_server::nodes::LEASE + Duration::from_millis(1500)).as_millis()
        ))
        .unwrap();
    // Node A's lease runs out (node A renews no more).
    std::thread::sleep(parlor_server::nodes::LEASE + Duration::from_millis(300));
    let looked = Instant::now();
    assert!(
        b.take_leases().unwrap().is_empty(),
        "the locked row is passed over"
    );
    assert!(
        looked.elapsed() < Duration::from_secs(1),
        "the look waited {:?} on the locked row",
        looked.elapsed()
    );
    // The database ends the stopped session: node B takes the game at a later look.
    let deadline = Instant::now() + NOTICE;
    let taken = loop {
        assert!(Instant::now() < deadline, "node B never took the game");
        std::thread::sleep(Duration::from_millis(200));
        let taken = b.take_leases().unwrap();
        if !taken.is_empty() {
            break taken;
        }
    };
    assert_eq!(taken.iter().map(|g| g.id).collect::<Vec<_>>(), [game]);
    assert!(
        stopped.simple_query("SELECT 1").is_err(),
        "the database ended the session left in its transaction"
    );
    assert!(a.renew_leases().unwrap().contains(&game), "node A lost it");
}
