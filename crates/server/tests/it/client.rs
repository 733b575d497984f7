//! A test client (tokio-tungstenite) and a server on a free loopback port.

use futures_util::{SinkExt, StreamExt};
use parlor_online::protocol::{ClientMessage, Event, EventKind, ServerMessage, Side, TimeControl};
use parlor_server::Config;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest any single wait in these tests may take.
pub const WAIT: Duration = Duration::from_secs(20);

/// A server running in the current runtime.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<parlor_server::Result<()>>>,
}

impl TestServer {
    /// Starts a server on 127.0.0.1, port 0, with its database in `dir`.
    pub async fn start(dir: &Path, config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let dir: PathBuf = dir.to_path_buf();
        let task = tokio::spawn(async move {
            parlor_server::run(listener, &dir, config, async {
                let _ = stopped.await;
            })
            .await
        });
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Starts a server on 127.0.0.1, port 0, over `store`.
    pub async fn start_on(store: Box<dyn parlor_server::Store>, config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            parlor_server::run_on(listener, store, config, async {
                let _ = stopped.await;
            })
            .await
        });
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops it cleanly and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(WAIT, task)
                .await
                .expect("the server stops in time")
                .unwrap()
                .unwrap();
        }
    }
}

/// Fast timings for tests: a short grace period, looked at often.
pub fn quick(grace_ms: u64) -> Config {
    Config {
        grace: Duration::from_millis(grace_ms),
        first_move: Duration::from_secs(30),
        tick: Duration::from_millis(20),
        heartbeat: Duration::from_secs(5),
        ..raised_caps()
    }
}

/// The default timings with the caps per address raised past what any test opens: every test client comes from
/// 127.0.0.1 (the caps' own tests set theirs).
pub fn raised_caps() -> Config {
    Config {
        max_connections_per_ip: 100_000,
        max_registrations_per_hour: 100_000,
        ..Config::default()
    }
}

/// `GET path` over HTTP/1.1 from the server at `addr`: the status and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.expect("connects");
        let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("reads");
        answer
    };
    let answer = tokio::time::timeout(WAIT, exchange)
        .await
        .expect("answers in time");
    let answer = String::from_utf8(answer).expect("the answer is UTF-8");
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {answer:?}"));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    // A chunked body (axum's for a streamed one) is read back whole.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, body)
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    for _ in 0..100_000 {
        let Some((size, after)) = rest.split_once("\r\n") else {
            break;
        };
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk's size");
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

/// A connected client.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The player's name.
    pub name: String,
}

/// The token the tests give `name`.
pub fn token(name: &str) -> String {
    format!("token-of-{name}-0123456789")
}

impl Client {
    /// Connects without saying hello.
    pub async fn connect(addr: SocketAddr, name: &str) -> Client {
        let (ws, _) = tokio::time::timeout(
            WAIT,
            tokio_tungstenite::connect_async(format!("ws://{addr}/")),
        )
        .await
        .expect("connects in time")
        .expect("connects");
        Client {
            ws,
            name: name.to_string(),
        }
    }

    /// Connects and says hello; returns the welcome.
    pub async fn hello(addr: SocketAddr, name: &str) -> (Client, ServerMessage) {
        let mut c = Client::connect(addr, name).await;
        c.send(&ClientMessage::Hello {
            name: name.to_string(),
            token: token(name),
        })
        .await;
        let welcome = c.recv().await;
        assert!(
            matches!(&welcome, ServerMessage::Welcome { name: n, .. } if n == name),
            "{welcome:?}"
        );
        (c, welcome)
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMessage) {
        self.send_text(msg.to_text()).await;
    }

    /// Sends any text.
    pub async fn send_text(&mut self, text: String) {
        tokio::time::timeout(WAIT, self.ws.send(Message::Text(text.into())))
            .await
            .expect("sends in time")
            .expect("sends");
    }

    /// Sends a raw WebSocket message.
    pub async fn send_raw(&mut self, msg: Message) {
        tokio::time::timeout(WAIT, self.ws.send(msg))
            .await
            .expect("sends in time")
            .expect("sends");
    }

    /// Sends a raw WebSocket message that the server may refuse by closing the connection while it is sent (the
    /// send's own error is then expected, and ignored).
    pub async fn send_raw_refused(&mut self, msg: Message) {
        let _ = tokio::time::timeout(WAIT, self.ws.send(msg))
            .await
            .expect("sends or fails in time");
    }

    /// The next message from the server, or `None` once the connection is closed.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no message in time", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    return Some(
                        ServerMessage::parse(text.as_str()).expect("the server's message parses"),
                    );
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return None,
                Some(Ok(other)) => panic!("{}: unexpected frame {other:?}", self.name),
            }
        }
    }

    /// The next message from the server (which must come).
    pub async fn recv(&mut self) -> ServerMessage {
        match self.next().await {
            Some(m) => m,
            None => panic!("{}: the connection closed", self.name),
        }
    }

    /// The next message, which must be an event of a game.
    pub async fn event(&mut self) -> (u64, Event) {
        match self.recv().await {
            ServerMessage::Event { game, event } => (game, event),
            other => panic!("{}: expected an event, got {other:?}", self.name),
        }
    }

    /// Waits until the server has handled every message this client sent: a `ping` is answered in the order the
    /// connection reads its messages, so the `pong` comes after whatever they made the server send.
    pub async fn settled(&mut self) {
        self.send(&ClientMessage::Ping {}).await;
        let msg = self.recv().await;
        assert_eq!(
            msg,
            ServerMessage::Pong {},
            "{}: before the pong",
            self.name
        );
    }

    /// The next message, which must be an error; returns its code.
    pub async fn error(&mut self) -> parlor_online::protocol::ErrorCode {
        match self.recv().await {
            ServerMessage::Error { code, .. } => code,
            other => panic!("{}: expected an error, got {other:?}", self.name),
        }
    }

    /// The next message, which must say that `name` (on `side` of `game`) is away; returns the grace period left.
    pub async fn away(&mut self, game: u64, side: Side, name: &str) -> u64 {
        match self.recv().await {
            ServerMessage::Away {
                game: g,
                side: s,
                name: n,
                grace_ms,
            } if g == game && s == side && n == name => grace_ms,
            other => panic!("{}: expected {name} away, got {other:?}", self.name),
        }
    }

    /// The next message, which must say that `name` (on `side` of `game`) is back.
    pub async fn back(&mut self, game: u64, side: Side, name: &str) {
        let msg = self.recv().await;
        assert_eq!(
            msg,
            ServerMessage::Back {
                game,
                side,
                name: name.to_string()
            },
            "{}",
            self.name
        );
    }

    /// Drops the connection without a close (as a lost network does).
    pub fn drop_without_close(self) {
        drop(self.ws);
    }
}

/// `black` challenges `white` on `board` and `white` accepts; both have seen the start. Returns the game.
pub async fn start_game(black: &mut Client, white: &mut Client, board: &str) -> u64 {
    start_game_with(black, white, board, None, false).await
}

/// `black` challenges `white` on `board` with a time control and rated or not, and `white` accepts; both have seen
/// the start. Returns the game.
pub async fn start_game_with(
    black: &mut Client,
    white: &mut Client,
    board: &str,
    clock: Option<TimeControl>,
    rated: bool,
) -> u64 {
    black
        .send(&ClientMessage::Challenge {
            opponent: white.name.clone(),
            board: board.to_string(),
            clock,
            rated,
        })
        .await;
    let challenge = match white.recv().await {
        ServerMessage::Challenged { challenge } => {
            assert_eq!(challenge.from, black.name);
            assert_eq!(challenge.to, white.name);
            challenge.challenge
        }
        other => panic!("expected a challenge, got {other:?}"),
    };
    assert!(matches!(
        black.recv().await,
        ServerMessage::ChallengeSent { challenge: c } if c.challenge == challenge
    ));
    white.send(&ClientMessage::Accept { challenge }).await;
    let (game, first) = black.event().await;
    let (game2, first2) = white.event().await;
    assert_eq!(game, game2);
    assert_eq!(first, first2);
    assert_eq!(first.n, 1);
    assert!(
        matches!(&first.kind, EventKind::Started { black: b, clock: c, rated: r, .. } if *b == black.name && *c == clock && *r == rated)
    );
    game
}

/// Plays `mv` for `side` with `seq` and checks both players see it as event `n`.
pub async fn play(
    game: u64,
    mover: &mut Client,
    other: &mut Client,
    side: Side,
    seq: u64,
    mv: &str,
    n: u64,
) {
    mover
        .send(&ClientMessage::Move {
            game,
            seq,
            mv: mv.to_string(),
        })
        .await;
    for c in [mover, other] {
        let (g, event) = c.event().await;
        assert_eq!((g, event.n), (game, n), "{}", c.name);
        // The clocks (if timed) are the clock tests' business.
        let EventKind::Moved {
            by, ply, mv: got, ..
        } = &event.kind
        else {
            panic!("{}: {event:?}", c.name)
        };
        assert_eq!((*by, *ply, got.as_str()), (side, (n - 1) as u32, mv));
    }
}
