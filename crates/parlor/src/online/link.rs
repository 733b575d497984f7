//! The connection to the server, on a thread of its own: it connects, says `hello`, passes the server's messages
//! on through a channel, and sends what the front end asks. When the connection drops it says so, connects again
//! (waiting a little longer each time, up to a few seconds) and, once welcomed back, asks every game in play to
//! `resume` after the last event it has passed on, so that nothing is lost or doubled: events already passed on are
//! dropped, each new one is acknowledged, and a move sent but not yet seen played is sent again with the same
//! sequence number (the server ignores it if it was played).

use super::identity::Identity;
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side};
use std::collections::HashMap;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc::{Receiver, Sender, TryRecvError};

/// Where the link tells the front end what happened; `false` when nobody listens any more (the link then stops).
pub type Tell = Box<dyn Fn(Down) -> bool + Send>;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// What the link tells the front end.
#[derive(Clone, Debug, PartialEq)]
pub enum Down {
    /// Connected (again) and welcomed: the message that follows is the `welcome`.
    Connected,
    /// A message from the server (events only once each, in order).
    Message(ServerMessage),
    /// The connection dropped or could not be made; the link tries again after the time given.
    Lost {
        /// Why, in words.
        why: String,
        /// Milliseconds before the next try.
        retry_ms: u64,
    },
    /// The server refused the player's name or token: the link has stopped.
    Refused(String),
}

/// What the front end asks of the link.
#[derive(Clone, Debug)]
pub enum Up {
    /// Send a message (a move is kept until it is seen played, and sent again after a reconnection).
    Send(ClientMessage),
    /// Close the connection and end the thread.
    Quit,
}

/// How long a read waits before the link looks at the front end's requests.
const POLL: Duration = Duration::from_millis(50);

/// Silence after which the connection is taken as dead (the server pings every 15 seconds).
const SILENCE: Duration = Duration::from_secs(50);

/// The longest wait between two tries to connect.
const MAX_RETRY_MS: u64 = 3000;

/// The link's memory of the games, which outlives each connection.
#[derive(Default)]
struct Memory {
    /// The last event passed on, by game.
    seen: HashMap<u64, u64>,
    /// The player's side, by game.
    side: HashMap<u64, Side>,
    /// A move sent and not yet seen played, by game.
    pending: HashMap<u64, ClientMessage>,
    /// The games watched (asked again after a reconnection, from the last event passed on).
    watching: std::collections::BTreeSet<u64>,
    /// Whether the lobby is followed (asked again after a reconnection).
    follow_lobby: bool,
    /// The games seen ended: the server has let them go, so an acknowledgement of their last move, sent before
    /// their end came, is answered "not found", which is no news.
    ended: std::collections::BTreeSet<u64>,
}

impl Memory {
    /// Whether the event is new (and then remembers it).
    fn fresh(&mut self, me: &str, game: u64, event: &parlor_online::protocol::Event) -> bool {
        let seen = self.seen.entry(game).or_insert(0);
        if event.n <= *seen {
            return false;
        }
        *seen = event.n;
        match &event.kind {
            EventKind::Started { black, white, .. } => {
                if black == me {
                    self.side.insert(game, Side::Black);
                } else if white == me {
                    self.side.insert(game, Side::White);
                }
            }
            EventKind::Moved { by, .. } => {
                if self.side.get(&game) == Some(by) {
                    self.pending.remove(&game);
                }
            }
            EventKind::Ended { .. } => {
                self.pending.remove(&game);
                self.watching.remove(&game);
                self.ended.insert(game);
            }
        }
        true
    }
}

/// Starts the link to `url` as `identity`; returns the channels to it.
pub fn start(url: &str, identity: Identity, down: Tell) -> Sender<Up> {
    let (up_tx, up_rx) = std::sync::mpsc::channel();
    let url = url.to_string();
    std::thread::spawn(move || run(&url, &identity, &up_rx, &down));
    up_tx
}

/// How one connection ended.
enum Ended {
    /// The front end asked to quit, or is gone.
    Quit,
    /// The server refused the player.
    Refused(String),
    /// The connection dropped.
    Dropped(String),
}

fn run(url: &str, identity: &Identity, up: &Receiver<Up>, down: &Tell) {
    let mut memory = Memory::default();
    let mut retry_ms = 250;
    loop {
        let ended = match connect(url) {
            Ok(ws) => {
                let (ended, welcomed) = session(ws, identity, &mut memory, up, down);
                if welcomed {
                    retry_ms = 250;
                }
                ended
            }
            Err(e) => Ended::Dropped(e),
        };
        match ended {
            Ended::Quit => return,
            Ended::Refused(why) => {
                let _ = down(Down::Refused(why));
                return;
            }
            Ended::Dropped(why) => {
                if !down(Down::Lost { why, retry_ms }) {
                    return;
                }
            }
        }
        // Wait, still answering a quit (moves asked meanwhile are kept and sent once back).
        let until = Instant::now() + Duration::from_millis(retry_ms);
        while Instant::now() < until {
            match up.recv_timeout(POLL) {
                Ok(Up::Quit) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                Ok(Up::Send(msg)) => keep(&mut memory, msg),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
        retry_ms = (retry_ms * 2).min(MAX_RETRY_MS);
    }
}

/// Remembers what must outlive the connection: a move until it is seen played, the games watched, whether the
/// lobby is followed.
fn note(memory: &mut Memory, msg: &ClientMessage) {
    match msg {
        ClientMessage::Move { game, .. } => {
            memory.pending.insert(*game, msg.clone());
        }
        ClientMessage::Watch { game, .. } => {
            memory.watching.insert(*game);
        }
        ClientMessage::Unwatch { game } => {
            memory.watching.remove(game);
        }
        ClientMessage::Lobby { follow } => memory.follow_lobby = *follow,
        _ => {}
    }
}

/// A message asked while disconnected: what it changes is remembered (a move is sent once back); the rest is
/// dropped (the front end said the connection is lost).
fn keep(memory: &mut Memory, msg: ClientMessage) {
    note(memory, &msg);
}

/// The host and port of a `ws://HOST:PORT/...` address.
fn host_port(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix("ws://").ok_or_else(|| {
        format!("{url}: only ws:// addresses are spoken (TLS is a reverse proxy's job)")
    })?;
    let hostport = rest.split('/').next().unwrap_or("");
    if hostport.is_empty() {
        return Err(format!("{url}: no host"));
    }
    Ok(if hostport.contains(':') && !hostport.ends_with(']') {
        hostport.to_string()
    } else {
        format!("{hostport}:80")
    })
}

/// Opens the WebSocket (a bounded wait for the TCP connection and the handshake).
fn connect(url: &str) -> Result<WebSocket<TcpStream>, String> {
    let hostport = host_port(url)?;
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| format!("{hostport}: {e}"))?
        .next()
        .ok_or_else(|| format!("{hostport}: no address"))?;
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("connecting to {hostport}: {e}"))?;
    let _ = stream.set_nodelay(true);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let (ws, _) =
        tungstenite::client(url, stream).map_err(|e| format!("handshake with {url}: {e}"))?;
    ws.get_ref()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

fn send(ws: &mut WebSocket<TcpStream>, msg: &ClientMessage) -> Result<(), String> {
    ws.send(Message::text(msg.to_text()))
        .map_err(|e| format!("sending: {e}"))
}

/// One connection, from `hello` until it ends; also says whether the server welcomed the player.
fn session(
    mut ws: WebSocket<TcpStream>,
    identity: &Identity,
    memory: &mut Memory,
    up: &Receiver<Up>,
    down: &Tell,
) -> (Ended, bool) {
    let hello = ClientMessage::Hello {
        name: identity.name.clone(),
        token: identity.token.clone(),
    };
    if let Err(e) = send(&mut ws, &hello) {
        return (Ended::Dropped(e), false);
    }
    let mut welcomed = false;
    let mut heard = Instant::now();
    loop {
        // The front end's requests first.
        loop {
            match up.try_recv() {
                Ok(Up::Send(msg)) => {
                    if !welcomed {
                        keep(memory, msg);
                        continue;
                    }
                    note(memory, &msg);
                    if let Err(e) = send(&mut ws, &msg) {
                        return (Ended::Dropped(e), welcomed);
                    }
                }
                Ok(Up::Quit) | Err(TryRecvError::Disconnected) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return (Ended::Quit, welcomed);
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        let frame = match ws.read() {
            Ok(frame) => frame,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if heard.elapsed() > SILENCE {
                    return (Ended::Dropped("the server fell silent".into()), welcomed);
                }
                continue;
            }
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                return (
                    Ended::Dropped("the server closed the connection".into()),
                    welcomed,
                );
            }
            Err(e) => return (Ended::Dropped(format!("connection lost: {e}")), welcomed),
        };
        heard = Instant::now();
        let text = match frame {
            Message::Text(t) => t,
            Message::Close(_) => {
                return (
                    Ended::Dropped("the server closed the connection".into()),
                    welcomed,
                );
            }
            _ => continue,
        };
        let msg = match ServerMessage::parse(text.as_str()) {
            Ok(m) => m,
            // A message this client cannot read is skipped (a newer server's, say).
            Err(_) => continue,
        };
        match &msg {
            ServerMessage::Welcome { games, .. } => {
                welcomed = true;
                for g in games {
                    memory.side.insert(g.game, g.side);
                }
                if !down(Down::Connected) || !down(Down::Message(msg.clone())) {
                    return (Ended::Quit, welcomed);
                }
                // Every game in play is taken up after the last event passed on, then moves not yet seen played
                // are sent again (harmless if they were).
                let resumes: Vec<ClientMessage> = games
                    .iter()
                    .map(|g| ClientMessage::Resume {
                        game: g.game,
                        after: memory.seen.get(&g.game).copied().unwrap_or(0),
                    })
                    .collect();
                let pending: Vec<ClientMessage> = memory.pending.values().cloned().collect();
                let watches: Vec<ClientMessage> = memory
                    .watching
                    .iter()
                    .map(|&game| ClientMessage::Watch {
                        game,
                        after: memory.seen.get(&game).copied().unwrap_or(0),
                    })
                    .collect();
                let lobby = memory
                    .follow_lobby
                    .then_some(ClientMessage::Lobby { follow: true });
                for m in resumes.iter().chain(&pending).chain(&watches).chain(&lobby) {
                    if let Err(e) = send(&mut ws, m) {
                        return (Ended::Dropped(e), welcomed);
                    }
                }
                continue;
            }
            ServerMessage::Error {
                code: parlor_online::protocol::ErrorCode::NotFound,
                game: Some(g),
                message,
            } if memory.ended.contains(g) && message.ends_with("in play") => continue,
            ServerMessage::Error { code, message, .. } if !welcomed => {
                use parlor_online::protocol::ErrorCode;
                if matches!(code, ErrorCode::BadName | ErrorCode::BadToken) {
                    return (Ended::Refused(message.clone()), welcomed);
                }
            }
            ServerMessage::Event { game, event } => {
                if !memory.fresh(&identity.name, *game, event) {
                    continue;
                }
                let ack = ClientMessage::Ack {
                    game: *game,
                    event: event.n,
                };
                // A game that ended is gone from the server's rooms: its end is not acknowledged (nor are the
                // events of a game watched).
                let ended = matches!(event.kind, EventKind::Ended { .. });
                let watched = !memory.side.contains_key(game);
                if !ended
                    && !watched
                    && let Err(e) = send(&mut ws, &ack)
                {
                    let _ = down(Down::Message(msg));
                    return (Ended::Dropped(e), welcomed);
                }
            }
            _ => {}
        }
        if !down(Down::Message(msg)) {
            return (Ended::Quit, welcomed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_online::protocol::Event;

    #[test]
    fn addresses_are_read_with_their_port() {
        assert_eq!(host_port("ws://127.0.0.1:7878").unwrap(), "127.0.0.1:7878");
        assert_eq!(host_port("ws://example.org/").unwrap(), "example.org:80");
        assert!(host_port("wss://example.org").is_err());
        assert!(host_port("ws://").is_err());
    }

    #[test]
    fn an_event_is_passed_on_once_and_a_move_is_kept_until_seen_played() {
        let mut m = Memory::default();
        let start = Event {
            n: 1,
            kind: EventKind::Started {
                black: "ann".into(),
                white: "bob".into(),
                board: "6x5".into(),
                clock: None,
                rated: false,
                black_rating: parlor_online::protocol::Rating::NEW,
                white_rating: parlor_online::protocol::Rating::NEW,
                rematch_of: None,
                clocks: None,
            },
        };
        assert!(m.fresh("ann", 7, &start));
        assert!(!m.fresh("ann", 7, &start));
        keep(
            &mut m,
            ClientMessage::Move {
                game: 7,
                seq: 1,
                mv: "c1k".into(),
            },
        );
        assert!(m.pending.contains_key(&7));
        let moved = |n, by| Event {
            n,
            kind: EventKind::Moved {
                by,
                ply: 1,
                mv: "c1k".into(),
                clocks: None,
            },
        };
        assert!(m.fresh("ann", 7, &moved(2, Side::White)));
        assert!(
            m.pending.contains_key(&7),
            "the opponent's move is not ours"
        );
        assert!(m.fresh("ann", 7, &moved(3, Side::Black)));
        assert!(!m.pending.contains_key(&7));
        assert!(!m.fresh("ann", 7, &moved(3, Side::Black)));
    }
}
