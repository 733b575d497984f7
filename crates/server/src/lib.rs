//! Parlor online's server (issue 28): Nocca Nocca between named players over WebSockets, rated by Glicko-2
//! ([`rating`]), and the daily challenges judged by the server ([`daily`]).
//!
//! A client connects to `ws://HOST:PORT/`, says `hello` with its name and token (a new name is registered with its
//! token; names are unique), challenges a player who is online or joins the rated queue, and plays on the clock;
//! it may watch live games, ask for the lobby, records and leaderboards. Every message is one of
//! [`parlor_online::protocol`]'s (version 2), and every game is refereed by a [`parlor_online::referee::Room`]. A
//! player may have several connections open at once (two tabs, a phone and a laptop): each gets the player's
//! events, and a move from any is taken. A player whose last connection dropped keeps their seats for
//! the grace period ([`Config::grace`]), and their opponent and the game's spectators are told (`away`, counted
//! down by the clients, logged); a `hello` on a new connection takes the player back (`back`), and `resume` sends
//! again every event missed. Messages are rate-limited per connection and per player ([`limit`]). Players,
//! ratings, games (in play, move by move, and finished) and the dailies are kept in SQLite, or in PostgreSQL with
//! `--database postgres://...` ([`store`]), so a server killed and started again resumes its games in play; it stops cleanly on Ctrl-C or SIGTERM. The store sits behind a trait
//! ([`Store`]) and runs on threads of its own ([`Pool`]): no connection waits for a write it does not need, and
//! what a write keeps is sent only once it is written.
//!
//! The same listener answers `GET /healthz` and `GET /metrics` for the operator ([`health`], [`metrics`]), and
//! connections and new names are capped per IP address ([`caps`]); [`options`] are the command line's and the
//! environment's ways to set it all.
//!
//! [`serve`] is `parlor serve`; [`run`] serves on a listener already bound until a future completes (the tests bind
//! port 0 on loopback), and [`run_on`] does so over any [`Store`].

pub mod caps;
pub mod daily;
pub mod health;
mod hub;
pub mod limit;
pub mod liveness;
pub use liveness::{HEARTBEAT_SECS, parse_heartbeat};
pub mod log;
pub mod metrics;
pub mod nodes;
pub mod options;
pub mod ranked;
pub mod rating;
pub mod runclock;
pub mod store;
pub mod token;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::Response;
use axum::routing::get;
use caps::Caps;
use futures_util::{SinkExt, StreamExt};
use hub::{Conn, Done, Hub, Outgoing};
use limit::Bucket;
use liveness::{Beat, Liveness};
use metrics::Metrics;
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use runclock::RunClock;
use std::future::{Future, IntoFuture};
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

pub use store::{Database, FinishedGame, PgStore, PgUrl, Pool, SqliteStore, Store, StoreError};

/// Why the server could not start or stopped on a failure.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store failed to open or to load what it keeps.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log file could not be opened.
    #[error(transparent)]
    Log(#[from] log::LogError),
    /// The options contradict each other ([`options`]).
    #[error("{0}")]
    Options(String),
    /// The async runtime could not start.
    #[error("starting the server's runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be listened on.
    #[error("listening on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why not.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("serving: {0}")]
    Serve(std::io::Error),
    /// The serving task ended on a panic.
    #[error("the server's task: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// What the server's functions return.
pub type Result<T> = std::result::Result<T, ServerError>;

/// The address `parlor serve` listens on by default.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

/// Messages larger than this close the connection at the WebSocket layer; between the protocol's limit
/// ([`parlor_online::protocol::MAX_MESSAGE_BYTES`]) and this
/// they are refused with an error and the connection goes on.
const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The server's timings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// How long a dropped player's seat is held before they lose (or, before both sides moved, the game is
    /// aborted).
    pub grace: Duration,
    /// How long each side has for its first move before the game is aborted.
    pub first_move: Duration,
    /// How often the seats held and the clocks are looked at.
    pub tick: Duration,
    /// How often each connection is pinged; one that sends nothing (not even the pong) for three of these while the
    /// server runs is taken as dropped, as a network gone without a word would leave it ([`liveness`]).
    pub heartbeat: Duration,
    /// The most WebSocket connections one IP address may have open at once ([`caps`]).
    pub max_connections_per_ip: u32,
    /// The most new names one IP address may register in an hour ([`caps`]).
    pub max_registrations_per_hour: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            grace: Duration::from_secs(60),
            first_move: Duration::from_millis(parlor_online::protocol::FIRST_MOVE_MS),
            tick: Duration::from_millis(100),
            heartbeat: Duration::from_secs(15),
            max_connections_per_ip: caps::MAX_CONNECTIONS_PER_IP,
            max_registrations_per_hour: caps::MAX_REGISTRATIONS_PER_HOUR,
        }
    }
}

/// What every connection and task of a running server shares.
struct Shared {
    hub: Mutex<Hub>,
    /// The store on its threads.
    store: Pool,
    /// The server's secret for the daily seeds (none if the store could not give it: the dailies are then refused).
    secret: Option<String>,
    heartbeat: Duration,
    /// The server's running time ([`runclock`]): what game clocks, grace periods and limits count in.
    clock: RunClock,
    next_conn: AtomicU64,
    /// What `/metrics` shows.
    metrics: Arc<Metrics>,
    /// The caps per address.
    caps: Arc<Caps>,
    stop: watch::Receiver<bool>,
    /// Held by every connection; dropped by all once they have ended.
    alive: mpsc::Sender<()>,
}

impl Shared {
    fn hub(&self) -> MutexGuard<'_, Hub> {
        // A panic under the lock would leave the hub as it was between two whole messages: keep serving.
        let mut hub = self.hub.lock().unwrap_or_else(|e| e.into_inner());
        hub.set_stopped_ms(self.clock.stopped_ms());
        hub
    }

    fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }
}

/// `parlor serve`: listens on `addr`, keeps its data in `data_dir`, logs to stderr and to `server.log` there
/// ([`log`]), prints where it listens, and serves until Ctrl-C or SIGTERM.
pub fn serve(addr: SocketAddr, data_dir: &Path) -> Result<()> {
    serve_logged(addr, data_dir, Some(&data_dir.join(log::LOG_FILE)))
}

/// [`serve`] with the log file chosen: `log_file` as well as stderr, or stderr only if none.
pub fn serve_logged(addr: SocketAddr, data_dir: &Path, log_file: Option<&Path>) -> Result<()> {
    serve_with(addr, data_dir, log_file, Config::default())
}

/// [`serve_logged`] with the timings chosen (`parlor serve --heartbeat SECS` sets [`Config::heartbeat`]).
pub fn serve_with(
    addr: SocketAddr,
    data_dir: &Path,
    log_file: Option<&Path>,
    config: Config,
) -> Result<()> {
    serve_formatted(addr, data_dir, log_file, log::LogFormat::Text, config)
}

/// [`serve_with`] with the log's format chosen.
pub fn serve_formatted(
    addr: SocketAddr,
    data_dir: &Path,
    log_file: Option<&Path>,
    log_format: log::LogFormat,
    config: Config,
) -> Result<()> {
    let database = store::Database::Sqlite(data_dir.to_path_buf());
    serve_on(addr, &database, log_file, log_format, config)
}

/// [`serve_formatted`] with the database chosen, SQLite or PostgreSQL ([`options::ServeOptions::serve`] runs it).
pub fn serve_on(
    addr: SocketAddr,
    database: &store::Database,
    log_file: Option<&Path>,
    log_format: log::LogFormat,
    config: Config,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    // Refusals, failures and each game's start and end (RUST_LOG is not read).
    log::init_as(log_file, log_format)?;
    // Opened before the runtime runs anything: PostgreSQL's client blocks while it connects.
    let store = database.open()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| ServerError::Listen { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServerError::Listen { addr, source })?;
        let logs = log_file.map_or_else(String::new, |f| format!(", log in {}", f.display()));
        println!(
            "parlor serve: listening on ws://{local}/ (data in {database}{logs}); Ctrl-C stops"
        );
        tracing::info!(%database, "listening on ws://{local}/");
        run_on(listener, store, config, stop_signal()).await?;
        tracing::info!("stopped");
        println!("parlor serve: stopped");
        Ok(())
    })
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Serves on `listener` with the database in `data_dir` ([`SqliteStore`]) until `stop` completes; then closes
/// every connection (waiting up to two seconds for them) and returns once every write asked for is done. Every
/// finished game is in the database before its end is sent.
pub async fn run(
    listener: TcpListener,
    data_dir: &Path,
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let store = SqliteStore::open(data_dir)?;
    run_on(listener, Box::new(store), config, stop).await
}

/// [`run`] on any store: it runs on threads of its own ([`Pool`]), never on the async path.
pub async fn run_on(
    listener: TcpListener,
    store: Box<dyn Store>,
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let metrics = Arc::new(Metrics::default());
    let store = Pool::start_measured(store, Some(Arc::clone(&metrics)))?;
    let grace_ms = u64::try_from(config.grace.as_millis()).unwrap_or(u64::MAX);
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Done>();
    let (hub, secret) = Hub::load(
        store.clone(),
        done_tx,
        grace_ms,
        u64::try_from(config.first_move.as_millis()).unwrap_or(u64::MAX),
        Arc::clone(&metrics),
    )
    .await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let shared = Arc::new(Shared {
        hub: Mutex::new(hub),
        store: store.clone(),
        secret,
        heartbeat: config.heartbeat,
        clock: RunClock::new(config.tick),
        next_conn: AtomicU64::new(1),
        metrics,
        caps: Arc::new(Caps::new(
            config.max_connections_per_ip,
            config.max_registrations_per_hour,
        )),
        stop: stop_rx.clone(),
        alive: alive_tx,
    });

    let ticker = {
        let shared = Arc::clone(&shared);
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(config.tick);
            loop {
                tokio::select! {
                    _ = every.tick() => {
                        let now = shared.now_ms();
                        shared.hub().tick(now);
                    }
                    // A write done: what waited for it (a game's events, an acknowledgement) goes out.
                    Some(done) = done_rx.recv() => shared.hub().done(done),
                    _ = stop.changed() => break,
                }
            }
        })
    };

    // One node of several on the database: its leases renewed and taken over every second, and what the other
    // nodes say heard.
    let mut node = Vec::new();
    if shared.hub().is_node() {
        let (news_tx, news_rx) = mpsc::unbounded_channel();
        let listening = news_tx.clone();
        store.write(move |s| s.listen(listening)).await?;
        node.push(tokio::spawn(nodes::relay(
            Arc::clone(&shared),
            news_rx,
            stop_rx.clone(),
        )));
        node.push(tokio::spawn(nodes::run(
            Arc::clone(&shared),
            stop_rx.clone(),
            news_tx,
        )));
    }

    let app = Router::new()
        .route("/", get(upgrade))
        .route("/healthz", get(health::healthz))
        .route("/metrics", get(health::metrics))
        .with_state(Arc::clone(&shared));
    let mut stop_serving = stop_rx.clone();
    // Each connection's peer address, for the caps per address.
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let _ = stop_serving.changed().await;
    })
    .into_future();
    let server = tokio::spawn(served);
    stop.await;
    let _ = stop_tx.send(true);
    for conn in shared.hub().connections() {
        let _ = conn.tx.send(Outgoing::Close);
    }
    let _ = ticker.await;
    for task in node {
        let _ = task.await;
    }
    let served = server.await;
    // Every connection holds a clone of `alive`: once the last has ended, recv() sees the channel closed.
    let alive = Arc::clone(&shared);
    drop(shared);
    drop(alive);
    let _ = tokio::time::timeout(Duration::from_secs(2), alive_rx.recv()).await;
    // Every write asked for is done before the server says it has stopped; a node then lets its games go to the
    // others at once (its leases released after its last write).
    store.flush().await?;
    store.write(|s| s.release_leases(None)).await?;
    served?.map_err(ServerError::Serve)?;
    Ok(())
}

async fn upgrade(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    // Small buffers (the defaults are 128 KiB each way): a connection's messages are small, and an idle connection's
    // memory is what bounds how many one server holds.
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| connection(shared, socket, peer.ip()))
}

/// Counts a connection open in the metrics until dropped.
struct Counted(Arc<Metrics>);

impl Counted {
    fn new(metrics: &Arc<Metrics>) -> Counted {
        metrics.connections.fetch_add(1, Ordering::Relaxed);
        Counted(Arc::clone(metrics))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One client's connection from `ip`: a writer draining its queue, and this reader. A connection past its
/// address's cap ([`caps`]) is told why and closed.
async fn connection(shared: Arc<Shared>, socket: WebSocket, ip: IpAddr) {
    let _alive = shared.alive.clone();
    let _counted = Counted::new(&shared.metrics);
    let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let conn = Conn {
        id,
        tx,
        ip,
        metrics: Arc::clone(&shared.metrics),
    };
    let opened = shared.caps.open(ip);
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            match out {
                Outgoing::Text(text) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Outgoing::Ping => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
                Outgoing::Close => {
                    let _ = sink.send(Message::Close(None)).await;
                    break;
                }
            }
        }
    });

    let Some(_opened) = opened else {
        conn.refuse_as(
            "ConnectionCap",
            &ServerMessage::error(
                ErrorCode::RateLimited,
                format!(
                    "too many connections from your address: at most {} open at once (close another first)",
                    shared.caps.max_connections()
                ),
                None,
            ),
        );
        let _ = conn.tx.send(Outgoing::Close);
        drop(conn);
        let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
        return;
    };
    let mut stop = shared.stop.clone();
    let mut name: Option<String> = None;
    let mut bucket = Bucket::new(limit::PER_CONNECTION, shared.now_ms());
    // Messages refused for the rate since the client last kept to it for a whole second (a message allowed now and
    // then, as the bucket refills, does not reset it: a flood that goes on is closed however fast it arrives).
    let mut refused = 0u32;
    let mut refused_ms: Option<u64> = None;
    let mut warned_ms: Option<u64> = None;
    let mut heartbeat = tokio::time::interval(shared.heartbeat);
    // After a pause of the whole server, one beat rather than a burst of the beats missed.
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut liveness = Liveness::new(shared.heartbeat, Instant::now());
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = stop.changed() => break,
            _ = heartbeat.tick() => {
                if liveness.beat(Instant::now()) == Beat::Drop {
                    break;
                }
                let _ = conn.tx.send(Outgoing::Ping);
                continue;
            }
        };
        liveness.heard(Instant::now());
        let text = match frame {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                send(
                    &conn,
                    ErrorCode::Malformed,
                    "binary messages are not part of the protocol",
                );
                continue;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
        };
        let now = shared.now_ms();
        let allowed = bucket.take(now)
            && match &name {
                Some(n) => shared.hub().allow(n, now),
                None => true,
            };
        if !allowed {
            refused += 1;
            refused_ms = Some(now);
            if refused >= limit::CLOSE_AFTER_REFUSED {
                tracing::warn!(conn = id, ?name, "closed: flooding past the rate limit");
                let _ = conn.tx.send(Outgoing::Close);
                break;
            }
            // One error a second tells a client to slow down; the rest are dropped unanswered.
            if warned_ms.is_none_or(|w| now >= w.saturating_add(1000)) {
                warned_ms = Some(now);
                send(
                    &conn,
                    ErrorCode::RateLimited,
                    "too many messages: slow down (this one was dropped)",
                );
            }
            continue;
        }
        if refused_ms.is_none_or(|r| now >= r.saturating_add(1000)) {
            refused = 0;
        }
        let msg = match ClientMessage::parse(text.as_str()) {
            Ok(msg) => msg,
            Err(e) => {
                send(&conn, e.code(), &e.to_string());
                continue;
            }
        };
        if msg == (ClientMessage::Ping {}) {
            // Liveness: answered at once, introduced or not (the rate limits above counted it).
            let _ = conn
                .tx
                .send(Outgoing::Text(ServerMessage::Pong {}.to_text()));
            continue;
        }
        match (&name, msg) {
            (None, ClientMessage::Hello { name: n, token }) => {
                name = hub::hello(&shared, &conn, &n, &token).await;
            }
            (None, ClientMessage::Register { name: n }) => {
                name = hub::register(&shared, &conn, &n).await;
            }
            (None, _) => send(&conn, ErrorCode::NotIntroduced, "say hello first"),
            (Some(n), msg) => {
                let now = shared.now_ms();
                let rest = shared.hub().handle(&conn, n, msg, now);
                // What the hub left to the store is answered outside its lock.
                if let Some(msg) = rest {
                    hub::answer(&shared, &conn, n, msg).await;
                }
            }
        }
    }
    if let Some(n) = &name {
        let now = shared.now_ms();
        shared.hub().gone(n, id, now);
    }
    drop(conn);
    // The writer ends once its queue is empty and closed (every clone of `conn.tx` is gone from the hub).
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
}

fn send(conn: &Conn, code: ErrorCode, message: &str) {
    conn.send(&ServerMessage::error(code, message, None));
}
