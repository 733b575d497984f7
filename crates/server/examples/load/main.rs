//! A bounded loopback load test of real `parlor-server` processes, in two setups run one after the other: several
//! nodes on a PostgreSQL cluster the tool starts in a temporary directory (initdb, pg_ctl on a free port of
//! 127.0.0.1; stopped and removed after), then one server on SQLite. In each, `CLIENTS` connected clients (hello
//! said) spread over the nodes, of which `2 * GAMES` play `GAMES` untimed games at once (random legal moves after a
//! think time, resigning at ply 60), the rest idle. Each game is challenged and accepted on one node (its referee,
//! the games dealt round the nodes); with several nodes its White then follows it from the next node (connecting
//! there, its first connection closed), so White's moves are passed to the referee through the database and
//! White's events relayed back. Prints, for each setup, a move's round trip (sent to the mover's own `moved`
//! event) at the 50th, 95th and 99th percentiles, for every move and for the relayed and direct ones apart; and
//! for each node its resident memory and, from its `/metrics` over the play, its store calls' and moves' times.
//!
//! ```sh
//! cargo build --release -p parlor-server --bin parlor-server --example load
//! target/release/examples/load [CLIENTS] [GAMES] [THINK_MS]   # defaults 1000 300 100; --help for the rest
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod clients;
mod cluster;
mod node;

use clients::{Ws, connect, idle, play, start_game};
use node::{Hist, Node};
use parlor_online::protocol::Side;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A loopback load test of real `parlor-server` processes: several nodes on PostgreSQL, then one on SQLite.
#[derive(clap::Parser, Debug)]
#[command(name = "load")]
struct Args {
    /// Clients connected (hello said).
    #[arg(default_value_t = 1000)]
    clients: usize,
    /// Games played at once by two clients each (at most half the clients).
    #[arg(default_value_t = 300)]
    games: usize,
    /// Each move's think time, in milliseconds.
    #[arg(default_value_t = 100)]
    think_ms: u64,
    /// How many nodes share the PostgreSQL database (0: PostgreSQL is not run).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(0..=16))]
    nodes: u16,
    /// Skip the run on SQLite.
    #[arg(long)]
    no_sqlite: bool,
    /// PostgreSQL's `synchronous_commit` for the cluster (`on`, PostgreSQL's default, flushes the WAL at each
    /// commit; `off` is what SQLite's `synchronous = NORMAL` in WAL mode, the server's, compares with).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    synchronous_commit: String,
    /// The directory of PostgreSQL's `initdb` and `pg_ctl` (default: PATH's, else the newest
    /// /usr/lib/postgresql/*/bin).
    #[arg(long, value_name = "DIR")]
    pg_bin: Option<PathBuf>,
}

/// What one setup measured.
struct Outcome {
    label: String,
    connect_s: f64,
    play_s: f64,
    /// Each move's round trip in microseconds, and whether it was relayed.
    trips: Vec<(u64, bool)>,
    /// Each node's resident memory (KiB) at its start, with the clients connected, and with the games started.
    rss: Vec<[u64; 3]>,
    /// Each node's store calls and moves' round trips inside it, over the play.
    store: Vec<node::Summary>,
    moves: Vec<node::Summary>,
}

/// The value at quantile `q` of sorted `v`, in milliseconds.
fn pct(v: &[u64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() as f64 * q) as usize).min(v.len() - 1)] as f64 / 1000.0
}

/// Runs one setup on `nodes`.
async fn measure(label: String, nodes: &[Node], args: &Args) -> Outcome {
    let n = nodes.len();
    let (clients, games) = (args.clients, args.games);
    let think = Duration::from_millis(args.think_ms);
    let addrs: Vec<_> = nodes.iter().map(|x| x.addr).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rss_start: Vec<u64> = nodes.iter().map(Node::rss_kib).collect();
    // Client 2k and 2k+1 play game k, on node k mod n; an idle client i is on node i mod n.
    let home = |i: usize| if i < 2 * games { (i / 2) % n } else { i % n };
    let started = Instant::now();
    let mut conns: Vec<Ws> = Vec::with_capacity(clients);
    for chunk in (0..clients).collect::<Vec<_>>().chunks(50) {
        let batch: Vec<_> = chunk
            .iter()
            .map(|&i| {
                let addr = addrs[home(i)];
                tokio::spawn(async move { connect(addr, &format!("p{i}")).await.0 })
            })
            .collect();
        for b in batch {
            conns.push(b.await.unwrap());
        }
    }
    let connect_s = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_connected: Vec<u64> = nodes.iter().map(Node::rss_kib).collect();
    let rest = conns.split_off(2 * games);
    let idlers: Vec<_> = rest.into_iter().map(|ws| tokio::spawn(idle(ws))).collect();
    // The games, challenged and accepted on their referee's node, 50 at a time.
    let mut players: Vec<(u64, Ws, Ws)> = Vec::with_capacity(games);
    let mut it = conns.into_iter();
    let mut k = 0;
    while k < games {
        let mut batch = Vec::new();
        while k < games && batch.len() < 50 {
            let (mut a, mut b) = (it.next().unwrap(), it.next().unwrap());
            let white = format!("p{}", 2 * k + 1);
            batch.push(tokio::spawn(async move {
                let game = start_game(&mut a, &mut b, &white, false).await;
                (game, a, b)
            }));
            k += 1;
        }
        for b in batch {
            players.push(b.await.unwrap());
        }
    }
    // With several nodes, each White follows its game from the next node: a connection there (whose welcome
    // lists the game), then the first one closed.
    if n > 1 {
        let mut moved = Vec::with_capacity(games);
        for (k, chunk) in players.chunks_mut(50).enumerate() {
            let batch: Vec<_> = (0..chunk.len())
                .map(|j| {
                    let i = 50 * k + j;
                    let (game, addr) = (chunk[j].0, addrs[(home(2 * i) + 1) % n]);
                    tokio::spawn(async move {
                        let (ws, listed) = connect(addr, &format!("p{}", 2 * i + 1)).await;
                        assert!(listed.contains(&game), "game {game} not in {listed:?}");
                        ws
                    })
                })
                .collect();
            for b in batch {
                moved.push(b.await.unwrap());
            }
        }
        for (p, mut ws) in players.iter_mut().zip(moved) {
            std::mem::swap(&mut p.2, &mut ws);
            let _ = futures_util::SinkExt::close(&mut ws).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let rss_playing: Vec<u64> = nodes.iter().map(Node::rss_kib).collect();
    let mut before = Vec::new();
    for x in nodes {
        before.push(x.metrics().await);
    }
    let play_start = Instant::now();
    let mut tasks = Vec::new();
    for (i, (game, a, b)) in players.into_iter().enumerate() {
        let s = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
        tasks.push((
            false,
            tokio::spawn(play(a, game, Side::Black, think, s | 1)),
        ));
        tasks.push((
            n > 1,
            tokio::spawn(play(b, game, Side::White, think, (s >> 1) | 1)),
        ));
    }
    let mut trips = Vec::new();
    let mut done = Vec::new();
    for (relayed, t) in tasks {
        let (times, ws) = t.await.unwrap();
        trips.extend(times.into_iter().map(|t| (t, relayed)));
        done.push(ws);
    }
    let play_s = play_start.elapsed().as_secs_f64();
    let (mut store, mut moves) = (Vec::new(), Vec::new());
    for (x, before) in nodes.iter().zip(&before) {
        let after = x.metrics().await;
        let of = |name: &str| {
            Hist::read(&after, name)
                .since(&Hist::read(before, name))
                .summary()
        };
        store.push(of("parlor_store_call_seconds"));
        moves.push(of("parlor_move_round_trip_seconds"));
    }
    for mut ws in done {
        let _ = futures_util::SinkExt::close(&mut ws).await;
    }
    for i in idlers {
        i.abort();
    }
    let rss = (0..n)
        .map(|i| [rss_start[i], rss_connected[i], rss_playing[i]])
        .collect();
    Outcome {
        label,
        connect_s,
        play_s,
        trips,
        rss,
        store,
        moves,
    }
}

/// Prints an outcome's tables.
fn print(o: &Outcome, args: &Args) {
    println!(
        "\n{}: clients {} (connected in {:.1} s), games at once {}, think {} ms, played in {:.1} s",
        o.label, args.clients, o.connect_s, args.games, args.think_ms, o.play_s
    );
    println!("| moves | count | per second | p50 ms | p95 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|---|");
    let mut rows = vec![(
        "every move",
        o.trips.iter().map(|t| t.0).collect::<Vec<_>>(),
    )];
    if o.trips.iter().any(|t| t.1) {
        for (what, relayed) in [("relayed (White's)", true), ("direct (Black's)", false)] {
            rows.push((
                what,
                o.trips
                    .iter()
                    .filter(|t| t.1 == relayed)
                    .map(|t| t.0)
                    .collect(),
            ));
        }
    }
    for (what, mut v) in rows {
        v.sort_unstable();
        println!(
            "| {what} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} |",
            v.len(),
            v.len() as f64 / o.play_s,
            pct(&v, 0.50),
            pct(&v, 0.95),
            pct(&v, 0.99),
            pct(&v, 1.0)
        );
    }
    println!(
        "| node | RSS KiB started / connected / playing | store calls | mean ms | p50 under ms | p99 under ms | moves in the server: p50 / p99 under ms |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, ((r, s), m)) in o.rss.iter().zip(&o.store).zip(&o.moves).enumerate() {
        println!(
            "| {i} | {} / {} / {} | {} | {:.3} | {} | {} | {} / {} |",
            r[0], r[1], r[2], s.count, s.mean_ms, s.p50_ms, s.p99_ms, m.p50_ms, m.p99_ms
        );
    }
}

/// The load average, as `/proc/loadavg` says it.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if 2 * args.games > args.clients {
        eprintln!(
            "load: {} games need {} clients, not {}",
            args.games,
            2 * args.games,
            args.clients
        );
        std::process::exit(2);
    }
    if let Err(e) = run(&args) {
        eprintln!("load: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let bin: PathBuf = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .parent()
        .and_then(Path::parent)
        .ok_or("no directory above the tool's")?
        .join("parlor-server");
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    println!("load average at the start: {}", loadavg());
    let mut outcomes = Vec::new();
    if args.nodes > 0 {
        let pg = cluster::find_bin(args.pg_bin.as_deref())?;
        let cluster = cluster::Cluster::start(pg, args.synchronous_commit == "on")?;
        let url = cluster.url("parlor");
        let mut nodes = Vec::new();
        for i in 0..args.nodes {
            let data = dir.path().join(format!("pg-node{i}"));
            let err = dir.path().join(format!("pg-node{i}.txt"));
            nodes.push(Node::start(&bin, &data, Some(&url), &err)?);
        }
        let label = format!(
            "{} nodes on PostgreSQL (synchronous_commit {})",
            args.nodes, args.synchronous_commit
        );
        outcomes.push(runtime.block_on(measure(label, &nodes, args)));
        drop(nodes);
        drop(cluster);
        println!("load average after PostgreSQL: {}", loadavg());
    }
    if !args.no_sqlite {
        let data = dir.path().join("sqlite-node");
        let node = Node::start(&bin, &data, None, &dir.path().join("sqlite-node.txt"))?;
        let nodes = [node];
        outcomes.push(runtime.block_on(measure("one node on SQLite".into(), &nodes, args)));
        println!("load average after SQLite: {}", loadavg());
    }
    for o in &outcomes {
        print(o, args);
    }
    Ok(())
}
