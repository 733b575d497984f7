//! The client's side of the connection protocol, with no socket and no clock of its own (sans I/O): a [`Conn`] is
//! told that a socket opened, that a text came in, that the socket closed, what the front end wants sent, and the
//! time; it answers with what to send, what to tell the front end, and when to connect again. Each platform keeps
//! only its socket: the terminal's link thread over tungstenite (`link`), the page's `WebSocket`.
//!
//! What it does, whatever the socket: says `hello`; once welcomed, asks every game in play to `resume` after the
//! last event it has passed on, sends again a move not yet seen played (the server ignores a sequence number
//! already taken), watches again the games watched and follows the lobby again; passes each event on once, in
//! order, acknowledging it; keeps what is asked while disconnected; and after a drop waits a little longer each
//! time (250 ms doubling up to 3 s, back to 250 ms once welcomed).
//!
//! Liveness, whatever the socket: anything heard from the server counts (a text, and where the platform sees them
//! the server's WebSocket pings; a browser answers those itself and never shows them to the page). After
//! [`PING_MS`] of silence the client sends `ping`, which the server answers with `pong` (a server older than the
//! message answers it with an error, which is heard just as well and not shown); after [`SILENCE_MS`] of silence
//! the socket is dropped, the front end told `server silent for 45 s`, and the client connects again and resumes.
//! An attempt to connect that has not opened after [`CONNECT_MS`] is given up and tried again (where the platform
//! says when it starts one: [`Conn::dialing`]).
//!
//! A server older than a message it is sent refuses it as unknown (`unknown variant `ranked_2048``): when the
//! message is one this client speaks, the front end is told so plainly instead ([`older_server`]).

use super::identity::Identity;
use crate::tui::daily::Daily;
use parlor_online::protocol::{ClientMessage, ErrorCode, Event, EventKind, ServerMessage, Side};
use std::collections::{BTreeSet, HashMap};

/// What the connection tells the front end.
#[derive(Clone, Debug, PartialEq)]
pub enum Down {
    /// Connected (again) and welcomed: the message that follows is the `welcome`.
    Connected,
    /// A message from the server (events only once each, in order).
    Message(ServerMessage),
    /// The connection dropped or could not be made; it is tried again after the time given.
    Lost {
        /// Why, in words.
        why: String,
        /// Milliseconds before the next try.
        retry_ms: u64,
    },
    /// The server refused the player's name or token: the connection is not tried again.
    Refused(String),
}

/// What the front end asks of the connection.
#[derive(Clone, Debug)]
pub enum Up {
    /// Send a message (a move is kept until it is seen played, and sent again after a reconnection).
    Send(ClientMessage),
    /// Close the connection for good.
    Quit,
}

/// What the platform does for the [`Conn`], in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// Send this text message on the socket (a failure to send is a close: call [`Conn::closed`]).
    Send(ClientMessage),
    /// Tell the front end.
    Tell(Down),
    /// Close the socket; it has dropped for the reason given (then call [`Conn::closed`]).
    Drop(String),
    /// Close the socket and connect no more (the server refused the player; the front end has been told).
    Stop,
    /// Keep this identity where the player's is kept, before anything else: the server issued its token (at
    /// registration, the one time it sends it). If it cannot be kept, tell the front end and stop.
    Keep(Identity),
}

/// Silence after which the client asks the server whether it is there (`ping`), and again as long as it stays
/// silent.
pub const PING_MS: u64 = 15_000;

/// Silence after which the connection is taken as dead: three pings unanswered (the server, for its part, drops a
/// client silent for 45 s too).
pub const SILENCE_MS: u64 = 45_000;

/// How long an attempt to connect may take before it is given up and tried again.
pub const CONNECT_MS: u64 = 10_000;

/// The first wait before connecting again.
pub const FIRST_RETRY_MS: u64 = 250;

/// The longest wait between two tries to connect.
pub const MAX_RETRY_MS: u64 = 3000;

/// The connection's memory of the games, which outlives each socket, and the state of the current one.
#[derive(Debug)]
pub struct Conn {
    identity: Identity,
    /// The daily challenges this client plays, which say what their messages offer (an older server lacks it).
    dailies: Vec<Box<dyn Daily>>,
    /// The last event passed on, by game.
    seen: HashMap<u64, u64>,
    /// The player's side, by game.
    side: HashMap<u64, Side>,
    /// A move sent and not yet seen played, by game.
    pending: HashMap<u64, ClientMessage>,
    /// The games watched (asked again after a reconnection, from the last event passed on).
    watching: BTreeSet<u64>,
    /// Whether the lobby is followed (asked again after a reconnection).
    follow_lobby: bool,
    /// The games seen ended: the server has let them go, so an acknowledgement of their last move, sent before
    /// their end came, is answered "not found", which is no news.
    ended: BTreeSet<u64>,
    /// Whether a socket is open.
    open: bool,
    /// Whether the server welcomed the player on this socket.
    welcomed: bool,
    /// When the server was last heard (monotonic milliseconds).
    heard_ms: u64,
    /// When the last `ping` was sent on this socket.
    pinged_ms: Option<u64>,
    /// When the platform started opening a socket that has not opened yet.
    dialing_ms: Option<u64>,
    /// The wait before the next try.
    retry_ms: u64,
}

impl Conn {
    /// A connection for `identity`, not yet open.
    pub fn new(identity: Identity) -> Conn {
        Conn {
            identity,
            dailies: Vec::new(),
            seen: HashMap::new(),
            side: HashMap::new(),
            pending: HashMap::new(),
            watching: BTreeSet::new(),
            follow_lobby: false,
            ended: BTreeSet::new(),
            open: false,
            welcomed: false,
            heard_ms: 0,
            pinged_ms: None,
            dialing_ms: None,
            retry_ms: FIRST_RETRY_MS,
        }
    }

    /// The same, with the daily challenges the client plays: a server older than one of their messages is said to
    /// lack that challenge by name ([`older_server`]).
    #[must_use]
    pub fn with_dailies(mut self, dailies: Vec<Box<dyn Daily>>) -> Conn {
        self.dailies = dailies;
        self
    }

    /// The player.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Whether the server has welcomed the player on the open socket.
    pub fn welcomed(&self) -> bool {
        self.open && self.welcomed
    }

    /// The platform starts opening a socket at `now_ms`: if it has not opened after [`CONNECT_MS`], [`Conn::tick`]
    /// says to drop it.
    pub fn dialing(&mut self, now_ms: u64) {
        self.dialing_ms = Some(now_ms);
    }

    /// A socket opened at `now_ms`: say `hello`, or `register` the name when the identity has no token yet (the
    /// server issues it).
    pub fn opened(&mut self, now_ms: u64) -> Vec<Out> {
        self.open = true;
        self.welcomed = false;
        self.heard_ms = now_ms;
        self.pinged_ms = None;
        self.dialing_ms = None;
        let name = self.identity.name.clone();
        vec![Out::Send(if self.identity.token.is_empty() {
            ClientMessage::Register { name }
        } else {
            ClientMessage::Hello {
                name,
                token: self.identity.token.clone(),
            }
        })]
    }

    /// The front end asks to send `msg`: sent at once when welcomed; otherwise what it changes is remembered (a
    /// move is sent once back, a watch and the lobby asked again) and the rest dropped (the front end was told the
    /// connection is lost).
    pub fn ask(&mut self, msg: ClientMessage) -> Vec<Out> {
        self.note(&msg);
        if self.welcomed() {
            vec![Out::Send(msg)]
        } else {
            Vec::new()
        }
    }

    /// Something was heard on the socket at `now_ms` (a ping, say): the connection is alive.
    pub fn heard(&mut self, now_ms: u64) {
        self.heard_ms = self.heard_ms.max(now_ms);
    }

    /// The time (call it every second or so): a socket silent for [`PING_MS`] sends `ping` (once each
    /// [`PING_MS`]), one silent for [`SILENCE_MS`] is dropped, and an attempt to connect not opened after
    /// [`CONNECT_MS`] is given up.
    pub fn tick(&mut self, now_ms: u64) -> Vec<Out> {
        if !self.open {
            return match self.dialing_ms {
                Some(at) if now_ms.saturating_sub(at) >= CONNECT_MS => {
                    self.dialing_ms = None;
                    vec![Out::Drop(format!(
                        "no answer from the server in {} s",
                        CONNECT_MS / 1000
                    ))]
                }
                _ => Vec::new(),
            };
        }
        let silent = now_ms.saturating_sub(self.heard_ms);
        if silent >= SILENCE_MS {
            return vec![Out::Drop(format!(
                "server silent for {} s",
                SILENCE_MS / 1000
            ))];
        }
        let due = self
            .pinged_ms
            .is_none_or(|p| p < self.heard_ms || now_ms.saturating_sub(p) >= PING_MS);
        if silent >= PING_MS && due {
            self.pinged_ms = Some(now_ms);
            vec![Out::Send(ClientMessage::Ping {})]
        } else {
            Vec::new()
        }
    }

    /// The socket closed, failed, or could not be opened, for the reason `why`: the front end is told, and the
    /// platform connects again after the milliseconds returned.
    pub fn closed(&mut self, why: impl Into<String>) -> (Vec<Out>, u64) {
        if self.open && self.welcomed {
            self.retry_ms = FIRST_RETRY_MS;
        }
        self.open = false;
        self.welcomed = false;
        self.dialing_ms = None;
        let wait = self.retry_ms;
        self.retry_ms = (wait * 2).min(MAX_RETRY_MS);
        (
            vec![Out::Tell(Down::Lost {
                why: why.into(),
                retry_ms: wait,
            })],
            wait,
        )
    }

    /// A text message came in at `now_ms`.
    pub fn text(&mut self, text: &str, now_ms: u64) -> Vec<Out> {
        self.heard(now_ms);
        let Ok(msg) = ServerMessage::parse(text) else {
            // A message this client cannot read is skipped (a newer server's, say).
            return Vec::new();
        };
        match &msg {
            // The token the server issued, kept before anything else; once one is held, no other replaces it.
            ServerMessage::Registered { name, token } if self.identity.token.is_empty() => {
                self.identity.name.clone_from(name);
                self.identity.token.clone_from(token);
                vec![Out::Keep(self.identity.clone())]
            }
            ServerMessage::Registered { .. } => Vec::new(),
            ServerMessage::Welcome { games, .. } => {
                self.welcomed = true;
                for g in games {
                    self.side.insert(g.game, g.side);
                }
                let mut out = vec![
                    Out::Tell(Down::Connected),
                    Out::Tell(Down::Message(msg.clone())),
                ];
                // Every game in play is taken up after the last event passed on, then moves not yet seen played
                // are sent again (harmless if they were).
                out.extend(games.iter().map(|g| {
                    Out::Send(ClientMessage::Resume {
                        game: g.game,
                        after: self.seen.get(&g.game).copied().unwrap_or(0),
                    })
                }));
                let mut pending: Vec<(&u64, &ClientMessage)> = self.pending.iter().collect();
                pending.sort_by_key(|(g, _)| **g);
                out.extend(pending.into_iter().map(|(_, m)| Out::Send(m.clone())));
                out.extend(self.watching.iter().map(|&game| {
                    Out::Send(ClientMessage::Watch {
                        game,
                        after: self.seen.get(&game).copied().unwrap_or(0),
                    })
                }));
                if self.follow_lobby {
                    out.push(Out::Send(ClientMessage::Lobby { follow: true }));
                }
                out
            }
            ServerMessage::Error {
                code: ErrorCode::NotFound,
                game: Some(g),
                message,
            } if self.ended.contains(g) && message.ends_with("in play") => Vec::new(),
            // The answer to `ping` is only heard (above), not shown; so is a server's older than the message, which
            // refuses it as unknown.
            ServerMessage::Pong {} => Vec::new(),
            ServerMessage::Error {
                code: ErrorCode::Malformed,
                message,
                game: None,
            } if self.pinged_ms.is_some() && message.contains("unknown variant `ping`") => {
                Vec::new()
            }
            ServerMessage::Error { code, message, .. }
                if !self.welcomed && matches!(code, ErrorCode::BadName | ErrorCode::BadToken) =>
            {
                vec![Out::Tell(Down::Refused(message.clone())), Out::Stop]
            }
            // A server older than `register` issues no token: said, and not tried again.
            ServerMessage::Error {
                code: ErrorCode::Malformed,
                message,
                ..
            } if !self.welcomed && message.contains("unknown variant `register`") => {
                vec![
                    Out::Tell(Down::Refused(
                        "this server is older than Parlor's registration (it issues no tokens): a new name cannot \
                         register there; update the server"
                            .to_string(),
                    )),
                    Out::Stop,
                ]
            }
            // A server older than a message this client sent: said plainly.
            ServerMessage::Error {
                code: ErrorCode::Malformed,
                message,
                game,
            } if older_server(message, &self.dailies).is_some() => {
                let plain = older_server(message, &self.dailies).unwrap_or_default();
                vec![Out::Tell(Down::Message(ServerMessage::Error {
                    code: ErrorCode::Malformed,
                    message: plain,
                    game: *game,
                }))]
            }
            ServerMessage::Event { game, event } => {
                let game = *game;
                if !self.fresh(game, event) {
                    return Vec::new();
                }
                // A game that ended is gone from the server's rooms: its end is not acknowledged (nor are the
                // events of a game watched).
                let ended = matches!(event.kind, EventKind::Ended { .. });
                let watched = !self.side.contains_key(&game);
                let ack = (!ended && !watched).then_some(Out::Send(ClientMessage::Ack {
                    game,
                    event: event.n,
                }));
                let mut out = vec![Out::Tell(Down::Message(msg))];
                out.extend(ack);
                out
            }
            _ => vec![Out::Tell(Down::Message(msg))],
        }
    }

    /// Remembers what must outlive the socket: a move until it is seen played, the games watched, whether the
    /// lobby is followed.
    fn note(&mut self, msg: &ClientMessage) {
        match msg {
            ClientMessage::Move { game, .. } => {
                self.pending.insert(*game, msg.clone());
            }
            ClientMessage::Watch { game, .. } => {
                self.watching.insert(*game);
            }
            ClientMessage::Unwatch { game } => {
                self.watching.remove(game);
            }
            ClientMessage::Lobby { follow } => self.follow_lobby = *follow,
            _ => {}
        }
    }

    /// Whether the event is new (and then remembers it).
    fn fresh(&mut self, game: u64, event: &Event) -> bool {
        let seen = self.seen.entry(game).or_insert(0);
        if event.n <= *seen {
            return false;
        }
        *seen = event.n;
        match &event.kind {
            EventKind::Started { black, white, .. } => {
                if *black == self.identity.name {
                    self.side.insert(game, Side::Black);
                } else if *white == self.identity.name {
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

/// What to say of a server's refusal `message` if it refused, as unknown, a message type this client speaks
/// (`unknown variant `ranked_2048``, as serde says it): that the server is older and does not offer it. None for any
/// other refusal.
pub fn older_server(message: &str, dailies: &[Box<dyn Daily>]) -> Option<String> {
    let (_, rest) = message.split_once("unknown variant `")?;
    let (kind, _) = rest.split_once('`')?;
    // A type this client knows parses, or fails on its fields; only a type unknown here too says so.
    let probe = format!(
        "{{\"v\":{},\"type\":{}}}",
        parlor_online::protocol::VERSION,
        serde_json::to_string(kind).ok()?
    );
    if let Err(e) = ClientMessage::parse(&probe)
        && e.to_string().contains("unknown variant")
    {
        return None;
    }
    // The daily challenge that sends it says what it is; past days and the rest are the protocol's.
    let what = dailies
        .iter()
        .find_map(|d| d.offers(kind))
        .unwrap_or(match kind {
            "past_day" => "past days' games and seeds",
            _ => "what was asked",
        });
    Some(format!(
        "this server is older than this Parlor and does not offer {what} (it does not know `{kind}`); \
         its operator can update it"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_online::protocol::Rating;

    fn ann() -> Conn {
        Conn::new(Identity {
            name: "ann".into(),
            token: "a-secret-of-16-chars-or-more".into(),
        })
    }

    fn event_text(game: u64, n: u64, kind: EventKind) -> String {
        ServerMessage::Event {
            game,
            event: Event { n, kind },
        }
        .to_text()
    }

    fn started() -> EventKind {
        EventKind::Started {
            black: "ann".into(),
            white: "bob".into(),
            board: "6x5".into(),
            clock: None,
            rated: false,
            black_rating: Rating::NEW,
            white_rating: Rating::NEW,
            rematch_of: None,
            clocks: None,
        }
    }

    fn moved(by: Side) -> EventKind {
        EventKind::Moved {
            by,
            ply: 1,
            mv: "c1k".into(),
            clocks: None,
        }
    }

    fn welcome(games: &[u64]) -> String {
        ServerMessage::Welcome {
            name: "ann".into(),
            rating: Rating::NEW,
            games: games
                .iter()
                .map(|&game| parlor_online::protocol::GameInPlay {
                    game,
                    side: Side::Black,
                    opponent: "bob".into(),
                    last_event: 3,
                })
                .collect(),
        }
        .to_text()
    }

    fn sent(out: &[Out]) -> Vec<ClientMessage> {
        out.iter()
            .filter_map(|o| match o {
                Out::Send(m) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_new_identity_registers_and_keeps_the_token_the_server_issued_before_anything_else() {
        let mut c = Conn::new(Identity {
            name: "ann".into(),
            token: String::new(),
        });
        assert_eq!(
            c.opened(0),
            [Out::Send(ClientMessage::Register { name: "ann".into() })]
        );
        let issued = "0123456789abcdef0123456789abcdef";
        let registered = ServerMessage::Registered {
            name: "ann".into(),
            token: issued.into(),
        };
        let kept = Identity {
            name: "ann".into(),
            token: issued.into(),
        };
        assert_eq!(c.text(&registered.to_text(), 1), [Out::Keep(kept.clone())]);
        assert_eq!(c.identity(), &kept);
        // Welcomed; the next socket says hello with the token, and a second `registered` changes nothing.
        assert!(matches!(
            c.text(&welcome(&[]), 2)[0],
            Out::Tell(Down::Connected)
        ));
        assert!(c.text(&registered.to_text(), 3).is_empty());
        let _ = c.closed("dropped");
        assert_eq!(
            c.opened(4),
            [Out::Send(ClientMessage::Hello {
                name: "ann".into(),
                token: issued.into()
            })]
        );
    }

    #[test]
    fn a_server_older_than_registration_is_said_and_not_tried_again() {
        let mut c = Conn::new(Identity {
            name: "ann".into(),
            token: String::new(),
        });
        c.opened(0);
        let old = ServerMessage::error(
            ErrorCode::Malformed,
            "not a valid message: unknown variant `register`, expected one of `hello`, `lobby`",
            None,
        );
        let out = c.text(&old.to_text(), 1);
        assert!(
            matches!(&out[..], [Out::Tell(Down::Refused(why)), Out::Stop] if why.contains("older")),
            "{out:?}"
        );
    }

    #[test]
    fn an_event_is_passed_on_once_acknowledged_and_a_move_kept_until_seen_played() {
        let mut c = ann();
        assert!(matches!(
            c.opened(0)[..],
            [Out::Send(ClientMessage::Hello { .. })]
        ));
        let out = c.text(&welcome(&[]), 1);
        assert_eq!(out[0], Out::Tell(Down::Connected));
        assert!(c.welcomed());
        let out = c.text(&event_text(7, 1, started()), 2);
        assert_eq!(
            sent(&out),
            [ClientMessage::Ack { game: 7, event: 1 }],
            "a player's event is acknowledged"
        );
        assert!(
            c.text(&event_text(7, 1, started()), 3).is_empty(),
            "told once"
        );
        let mv = ClientMessage::Move {
            game: 7,
            seq: 1,
            mv: "c1k".into(),
        };
        assert_eq!(sent(&c.ask(mv)).len(), 1);
        c.text(&event_text(7, 2, moved(Side::White)), 4);
        assert!(
            c.pending.contains_key(&7),
            "the opponent's move is not ours"
        );
        c.text(&event_text(7, 3, moved(Side::Black)), 5);
        assert!(!c.pending.contains_key(&7));
    }

    #[test]
    fn a_drop_is_retried_with_a_growing_wait_and_the_games_resumed_where_they_were() {
        let mut c = ann();
        c.opened(0);
        c.text(&welcome(&[]), 0);
        c.ask(ClientMessage::Lobby { follow: true });
        c.text(&event_text(7, 1, started()), 0);
        c.text(&event_text(7, 2, moved(Side::White)), 0);
        let (out, wait) = c.closed("gone");
        assert_eq!(wait, FIRST_RETRY_MS);
        assert!(matches!(
            &out[..],
            [Out::Tell(Down::Lost { retry_ms: 250, .. })]
        ));
        // A move asked while away is kept, not sent.
        let mv = ClientMessage::Move {
            game: 7,
            seq: 2,
            mv: "c1k".into(),
        };
        assert!(c.ask(mv.clone()).is_empty());
        // Tries that fail wait longer each time, up to the most.
        let waits: Vec<u64> = (0..5).map(|_| c.closed("refused").1).collect();
        assert_eq!(waits, [500, 1000, 2000, 3000, 3000]);
        c.opened(10);
        let out = c.text(&welcome(&[7]), 11);
        assert_eq!(
            sent(&out),
            [
                ClientMessage::Resume { game: 7, after: 2 },
                mv,
                ClientMessage::Lobby { follow: true }
            ]
        );
        // Welcomed again: the next drop waits the least again.
        assert_eq!(c.closed("gone").1, FIRST_RETRY_MS);
    }

    /// The core's clock, moved by hand.
    struct Manual(std::sync::atomic::AtomicU64);

    impl crate::host::Clock for Manual {
        fn unix_nanos(&self) -> u128 {
            0
        }

        fn monotonic_ms(&self) -> u64 {
            self.0.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    impl Manual {
        fn at(&self, ms: u64) -> u64 {
            self.0.store(ms, std::sync::atomic::Ordering::Relaxed);
            crate::host::Clock::monotonic_ms(self)
        }
    }

    #[test]
    fn a_silent_server_is_pinged_then_dropped_and_the_game_resumed_with_nothing_lost_or_doubled() {
        let clock = Manual(1_000.into());
        let t0 = clock.at(1_000);
        let mut c = ann();
        c.opened(t0);
        c.text(&welcome(&[]), t0);
        c.text(&event_text(7, 1, started()), t0);
        c.text(&event_text(7, 2, moved(Side::White)), t0);
        // Silence: a ping after 15 s, once; another 15 s later.
        assert!(c.tick(clock.at(t0 + PING_MS - 1)).is_empty());
        assert_eq!(
            sent(&c.tick(clock.at(t0 + PING_MS))),
            [ClientMessage::Ping {}]
        );
        assert!(c.tick(clock.at(t0 + PING_MS + 1_000)).is_empty());
        assert_eq!(
            sent(&c.tick(clock.at(t0 + 2 * PING_MS))),
            [ClientMessage::Ping {}]
        );
        // The pong is heard, not shown: the silence starts again from it.
        let pong = clock.at(t0 + 2 * PING_MS + 500);
        assert!(c.text(&ServerMessage::Pong {}.to_text(), pong).is_empty());
        assert!(c.tick(clock.at(t0 + SILENCE_MS)).is_empty());
        assert_eq!(
            sent(&c.tick(clock.at(pong + PING_MS))),
            [ClientMessage::Ping {}]
        );
        assert_eq!(
            sent(&c.tick(clock.at(pong + 2 * PING_MS))),
            [ClientMessage::Ping {}]
        );
        assert!(c.tick(clock.at(pong + SILENCE_MS - 1)).is_empty());
        // 45 s with nothing heard: dropped, and the front end told why.
        let out = c.tick(clock.at(pong + SILENCE_MS));
        assert_eq!(out, [Out::Drop("server silent for 45 s".into())]);
        let (out, wait) = c.closed("server silent for 45 s");
        assert_eq!(wait, FIRST_RETRY_MS, "it was welcomed: the shortest wait");
        assert!(
            matches!(&out[..], [Out::Tell(Down::Lost { why, .. })] if why == "server silent for 45 s")
        );
        // Closed, it neither pings nor drops again.
        assert!(c.tick(clock.at(pong + 10 * SILENCE_MS)).is_empty());
        // A move made meanwhile is kept and sent once back, after the resume from the last event.
        let mv = ClientMessage::Move {
            game: 7,
            seq: 2,
            mv: "c1k".into(),
        };
        assert!(c.ask(mv.clone()).is_empty());
        let back = clock.at(pong + 11 * SILENCE_MS);
        c.opened(back);
        let out = c.text(&welcome(&[7]), back);
        assert_eq!(
            sent(&out),
            [ClientMessage::Resume { game: 7, after: 2 }, mv]
        );
        // Events the server sends again are passed on once: the one already seen is not.
        assert!(
            c.text(&event_text(7, 2, moved(Side::White)), back)
                .is_empty()
        );
        assert_eq!(
            c.text(&event_text(7, 3, moved(Side::Black)), back).len(),
            2,
            "told and acknowledged"
        );
        assert!(!c.pending.contains_key(&7), "the move is seen played");
        // The new socket's silence counts from its opening.
        assert!(c.tick(clock.at(back + PING_MS - 1)).is_empty());
        assert_eq!(
            sent(&c.tick(clock.at(back + PING_MS))),
            [ClientMessage::Ping {}]
        );
    }

    #[test]
    fn a_server_older_than_ping_answers_it_with_an_error_which_is_heard_and_not_shown() {
        let mut c = ann();
        c.opened(0);
        c.text(&welcome(&[]), 0);
        let old = ServerMessage::Error {
            code: ErrorCode::Malformed,
            message:
                "not a valid message: unknown variant `ping`, expected one of `hello`, `lobby`"
                    .into(),
            game: None,
        };
        // That is how the protocol refuses a type it does not know (an older server's, `ping`).
        let unknown = ClientMessage::parse(r#"{"v":2,"type":"pinG"}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown variant `pinG`"),
            "{unknown}"
        );
        // Before any ping, such an error is news (shown).
        assert_eq!(c.text(&old.to_text(), 1).len(), 1);
        assert_eq!(sent(&c.tick(PING_MS + 1)), [ClientMessage::Ping {}]);
        assert!(c.text(&old.to_text(), PING_MS + 2).is_empty());
        // ... and counts as heard: 45 s after the opening, another ping and no drop.
        assert_eq!(sent(&c.tick(SILENCE_MS + 1)), [ClientMessage::Ping {}]);
        assert_eq!(
            c.tick(PING_MS + 2 + SILENCE_MS),
            [Out::Drop("server silent for 45 s".into())]
        );
        // Other errors are shown as ever.
        let other = ServerMessage::Error {
            code: ErrorCode::Malformed,
            message: "not JSON".into(),
            game: None,
        };
        assert_eq!(c.text(&other.to_text(), PING_MS + 3).len(), 1);
    }

    #[test]
    fn a_server_older_than_a_message_this_client_speaks_is_said_plainly() {
        let dailies = crate::registry::online()
            .dailies
            .iter()
            .map(|d| d.fresh())
            .collect();
        let mut c = ann().with_dailies(dailies);
        c.opened(0);
        c.text(&welcome(&[]), 0);
        let refused = |kind: &str| ServerMessage::Error {
            code: ErrorCode::Malformed,
            message: format!(
                "not a valid message: unknown variant `{kind}`, expected one of `hello`, `lobby`"
            ),
            game: None,
        };
        let said = |out: Vec<Out>| match &out[..] {
            [Out::Tell(Down::Message(ServerMessage::Error { message, .. }))] => message.clone(),
            other => panic!("{other:?}"),
        };
        let ranked = said(c.text(&refused("ranked_2048").to_text(), 1));
        assert_eq!(
            ranked,
            "this server is older than this Parlor and does not offer the ranked 2048 of the day (it does not \
             know `ranked_2048`); its operator can update it"
        );
        let other = said(c.text(&refused("past_day").to_text(), 2));
        assert!(
            other.contains("does not offer past days' games and seeds"),
            "{other}"
        );
        // A type this client does not speak either is no sign of an older server: shown as it came.
        let strange = said(c.text(&refused("shuffle").to_text(), 3));
        assert!(strange.contains("unknown variant `shuffle`"), "{strange}");
        assert_eq!(older_server("the server's store failed", &[]), None);
    }

    #[test]
    fn an_attempt_to_connect_that_never_opens_is_given_up_and_a_refused_name_stops() {
        let mut c = ann();
        c.dialing(1_000);
        assert!(c.tick(1_000 + CONNECT_MS - 1).is_empty());
        assert_eq!(
            c.tick(1_000 + CONNECT_MS),
            [Out::Drop("no answer from the server in 10 s".into())]
        );
        assert!(c.tick(1_000 + 2 * CONNECT_MS).is_empty(), "given up once");
        let (_, wait) = c.closed("no answer from the server in 10 s");
        assert_eq!(wait, FIRST_RETRY_MS);
        // One that opens is not given up.
        c.dialing(50_000);
        c.opened(51_000);
        assert!(c.tick(50_000 + CONNECT_MS).is_empty());
        let refused = ServerMessage::Error {
            code: ErrorCode::BadToken,
            message: "wrong token".into(),
            game: None,
        };
        let out = c.text(&refused.to_text(), 52_000);
        assert_eq!(
            out,
            [Out::Tell(Down::Refused("wrong token".into())), Out::Stop]
        );
    }
}
