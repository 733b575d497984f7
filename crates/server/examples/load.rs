//! A bounded loopback load test of a real `parlor-server` process: `CLIENTS` connected clients (hello said), of which
//! `2 * GAMES` play `GAMES` games at once (random legal moves after a think time, resigning at ply 60), the rest idle.
//! Prints a move's round trip (sent to the mover's own `moved` event) at the 50th, 95th and 99th percentiles, and
//! the server's resident memory before and after the clients connect (per idle connection).
//!
//! ```sh
//! cargo build --release -p parlor-server --bin parlor-server --example load
//! target/release/examples/load [CLIENTS] [GAMES] [THINK_MS]   # defaults 1000 300 100
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures_util::{SinkExt, StreamExt};
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Resident memory of a process, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

async fn send(ws: &mut Ws, msg: &ClientMessage) {
    ws.send(Message::Text(msg.to_text().into())).await.unwrap();
}

async fn recv(ws: &mut Ws) -> ServerMessage {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a message within a minute")
            .expect("the connection is open")
            .unwrap();
        if let Message::Text(t) = frame {
            return ServerMessage::parse(t.as_str()).unwrap();
        }
    }
}

async fn connect(addr: SocketAddr, name: &str) -> Ws {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/"))
        .await
        .unwrap();
    send(
        &mut ws,
        &ClientMessage::Hello {
            name: name.into(),
            token: format!("load-test-token-of-{name}"),
        },
    )
    .await;
    assert!(matches!(recv(&mut ws).await, ServerMessage::Welcome { .. }));
    ws
}

/// Plays one side of a game to its end; returns the round trips of its moves, in microseconds.
async fn play(mut ws: Ws, game: u64, me: Side, think: Duration, mut seed: u64) -> (Vec<u64>, Ws) {
    let mut board = nocca::Game::new(nocca::Dims::STANDARD, nocca::GameOptions::default());
    let mut trips = Vec::new();
    let mut seq = 0;
    let mut sent: Option<Instant> = None;
    loop {
        if sent.is_none() && !board.is_over() && Side::from(board.side_to_move()) == me {
            tokio::time::sleep(think).await;
            if board.ply() >= 60 {
                send(&mut ws, &ClientMessage::Resign { game }).await;
            } else {
                let moves = board.legal_moves();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                seq += 1;
                send(
                    &mut ws,
                    &ClientMessage::Move {
                        game,
                        seq,
                        mv: mv.to_string(),
                    },
                )
                .await;
            }
            sent = Some(Instant::now());
        }
        match recv(&mut ws).await {
            ServerMessage::Event { game: g, event } if g == game => match event.kind {
                EventKind::Moved { by, mv, .. } => {
                    if by == me
                        && let Some(t) = sent.take()
                    {
                        trips.push(u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX));
                    }
                    board.play(mv.parse().unwrap()).unwrap();
                }
                EventKind::Ended { .. } => return (trips, ws),
                EventKind::Started { .. } => {}
            },
            ServerMessage::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
}

/// A loopback load test of a real `parlor-server` process.
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
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let (clients, games) = (args.clients, args.games);
    let think = Duration::from_millis(args.think_ms);
    if 2 * games > clients {
        eprintln!(
            "load: {games} games need {} clients, not {clients}",
            2 * games
        );
        std::process::exit(2);
    }
    let server_bin = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(|p| p.parent())
        .unwrap()
        .join("parlor-server");
    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(&server_bin)
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        // Every load client comes from 127.0.0.1: the caps per address are raised past them.
        .args([
            "--max-connections-per-ip",
            "1000000",
            "--max-registrations-per-hour",
            "1000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", server_bin.display()));
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let addr: SocketAddr = line
        .split("ws://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    let pid = server.id();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let rss_before = rss_kib(pid);
        let started = Instant::now();
        let mut conns = Vec::with_capacity(clients);
        for chunk in (0..clients).collect::<Vec<_>>().chunks(50) {
            let batch: Vec<_> = chunk
                .iter()
                .map(|&i| {
                    let name = format!("p{i}");
                    tokio::spawn(async move { connect(addr, &name).await })
                })
                .collect();
            for b in batch {
                conns.push(b.await.unwrap());
            }
        }
        let connect_s = started.elapsed().as_secs_f64();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let rss_connected = rss_kib(pid);
        // Pairs: client 2k challenges 2k+1, who accepts.
        let mut pairs = Vec::new();
        let mut rest = conns.split_off(2 * games);
        let mut it = conns.into_iter();
        while let (Some(mut a), Some(mut b)) = (it.next(), it.next()) {
            let i = pairs.len();
            send(
                &mut a,
                &ClientMessage::Challenge {
                    opponent: format!("p{}", 2 * i + 1),
                    board: "6x5".into(),
                    clock: None,
                    rated: false,
                },
            )
            .await;
            let ServerMessage::Challenged { challenge } = recv(&mut b).await else {
                panic!("no challenge")
            };
            send(
                &mut b,
                &ClientMessage::Accept {
                    challenge: challenge.challenge,
                },
            )
            .await;
            let _sent = recv(&mut a).await;
            let ServerMessage::Event { game, .. } = recv(&mut a).await else {
                panic!("no start")
            };
            let _start = recv(&mut b).await;
            pairs.push((game, a, b));
        }
        let rss_playing = rss_kib(pid);
        let play_start = Instant::now();
        let mut tasks = Vec::new();
        for (i, (game, a, b)) in pairs.into_iter().enumerate() {
            let s = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            tasks.push(tokio::spawn(play(a, game, Side::Black, think, s | 1)));
            tasks.push(tokio::spawn(play(b, game, Side::White, think, (s >> 1) | 1)));
        }
        let mut trips = Vec::new();
        for t in tasks {
            trips.extend(t.await.unwrap().0);
        }
        let play_s = play_start.elapsed().as_secs_f64();
        trips.sort_unstable();
        let pct = |p: f64| trips[((trips.len() as f64 * p) as usize).min(trips.len() - 1)] as f64 / 1000.0;
        println!(
            "clients {clients} (connected in {connect_s:.1} s), games at once {games}, think {} ms",
            think.as_millis()
        );
        println!(
            "moves {} in {play_s:.1} s ({:.0}/s); round trip ms: p50 {:.2} p95 {:.2} p99 {:.2} max {:.2}",
            trips.len(),
            trips.len() as f64 / play_s,
            pct(0.50),
            pct(0.95),
            pct(0.99),
            pct(1.0)
        );
        println!(
            "server RSS KiB: started {rss_before}, {clients} connected {rss_connected} ({:.1} KiB a connection), {games} games started {rss_playing}",
            (rss_connected.saturating_sub(rss_before)) as f64 / clients as f64
        );
        for ws in &mut rest {
            let _ = ws.close(None).await;
        }
    });
    let _ = server.kill();
    let _ = server.wait();
}
