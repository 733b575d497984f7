//! The server's state and what each client message does to it: who is online (one connection per player, the
//! newest), open challenges, and the games in play, each a referee [`Room`]. Everything here runs under one lock
//! and never waits: messages go out through each connection's unbounded queue.

use crate::store::{Login, Store};
use parlor_online::protocol::{
    ChallengeInfo, ClientMessage, ErrorCode, Event, GameInPlay, Rating, ServerMessage, Side,
    TimeControl, check_name, check_token,
};
use parlor_online::referee::{Played, RefereeError, Room, Setup};
use std::collections::HashMap;
use tokio::sync::mpsc::UnboundedSender;

/// What a connection's writer sends.
#[derive(Debug)]
pub enum Outgoing {
    /// A message.
    Text(String),
    /// A ping (the heartbeat).
    Ping,
    /// Close the connection (another connection took the player's place, or the server stops).
    Close,
}

/// A connection's way out.
#[derive(Clone, Debug)]
pub struct Conn {
    /// The connection's number (unique while the server runs).
    pub id: u64,
    /// Its queue of messages to send.
    pub tx: UnboundedSender<Outgoing>,
}

impl Conn {
    fn send(&self, msg: &ServerMessage) {
        // A connection whose writer has ended is being torn down; its player is told nothing more.
        let _ = self.tx.send(Outgoing::Text(msg.to_text()));
    }
}

struct Challenge {
    from: String,
    to: String,
    dims: nocca::Dims,
    clock: Option<TimeControl>,
    rated: bool,
}

impl Challenge {
    fn info(&self, id: u64) -> ChallengeInfo {
        ChallengeInfo {
            challenge: id,
            from: self.from.clone(),
            to: self.to.clone(),
            board: self.dims.to_string(),
            clock: self.clock,
            rated: self.rated,
        }
    }
}

/// Everything the server holds in memory.
pub struct Hub {
    store: Store,
    grace_ms: u64,
    first_move_ms: u64,
    online: HashMap<String, Conn>,
    challenges: HashMap<u64, Challenge>,
    rooms: HashMap<u64, Room>,
    next_challenge: u64,
}

fn error(code: ErrorCode, message: impl Into<String>, game: Option<u64>) -> ServerMessage {
    ServerMessage::error(code, message, game)
}

impl Hub {
    /// A hub over an open store; a player gone longer than `grace_ms` loses their games, and a side that does not
    /// make its first move within `first_move_ms` aborts its game.
    pub fn new(store: Store, grace_ms: u64, first_move_ms: u64) -> Hub {
        Hub {
            store,
            grace_ms,
            first_move_ms,
            online: HashMap::new(),
            challenges: HashMap::new(),
            rooms: HashMap::new(),
            next_challenge: 1,
        }
    }

    /// Every connection online (to close them when the server stops).
    pub fn connections(&self) -> Vec<Conn> {
        self.online.values().cloned().collect()
    }

    /// Sends `msg` to `name` if they are online.
    fn tell(&self, name: &str, msg: &ServerMessage) {
        if let Some(conn) = self.online.get(name) {
            conn.send(msg);
        }
    }

    /// Sends a game's new events to both its players.
    fn broadcast(&self, game: u64, room: &Room, events: &[Event]) {
        for side in [Side::Black, Side::White] {
            for event in events {
                self.tell(
                    room.name(side),
                    &ServerMessage::Event {
                        game,
                        event: event.clone(),
                    },
                );
            }
        }
    }

    /// Keeps a finished game and lets its room go.
    fn finish(&mut self, game: u64) {
        let Some(room) = self.rooms.remove(&game) else {
            return;
        };
        let Some(result) = room.result() else {
            self.rooms.insert(game, room);
            return;
        };
        if let Err(e) = self
            .store
            .finish_game(game, &room.record(), result, &room.position())
        {
            eprintln!("parlor serve: game {game} could not be kept: {e:#}");
        }
    }

    /// A connection's first message, `hello`: the player's name and token. Returns the name on success (and has
    /// answered `welcome`); on failure the connection has been sent the error.
    pub fn hello(&mut self, conn: &Conn, name: &str, token: &str) -> Option<String> {
        if let Err(e) = check_name(name) {
            conn.send(&error(ErrorCode::BadName, e, None));
            return None;
        }
        if let Err(e) = check_token(token) {
            conn.send(&error(ErrorCode::BadToken, e, None));
            return None;
        }
        match self.store.login(name, token) {
            Ok(Login::Known | Login::Registered) => {}
            Ok(Login::WrongToken) => {
                conn.send(&error(
                    ErrorCode::BadName,
                    format!("the name {name} is taken"),
                    None,
                ));
                return None;
            }
            Err(e) => {
                eprintln!("parlor serve: login of {name}: {e:#}");
                conn.send(&error(
                    ErrorCode::Internal,
                    "the server's store failed",
                    None,
                ));
                return None;
            }
        }
        if let Some(old) = self.online.insert(name.to_string(), conn.clone())
            && old.id != conn.id
        {
            let _ = old.tx.send(Outgoing::Close);
        }
        let mut games: Vec<GameInPlay> = Vec::new();
        for (&game, room) in self.rooms.iter_mut() {
            if let Some(side) = room.side_of(name) {
                room.returned(side);
                games.push(GameInPlay {
                    game,
                    side,
                    opponent: room.name(side.other()).to_string(),
                    last_event: room.last_event(),
                });
            }
        }
        games.sort_by_key(|g| g.game);
        conn.send(&ServerMessage::Welcome {
            name: name.to_string(),
            rating: Rating::NEW,
            games,
        });
        Some(name.to_string())
    }

    /// A connection of `name` ended at `now_ms`: if it was their current one, they are gone, and their seats are
    /// held for the grace period.
    pub fn gone(&mut self, name: &str, conn_id: u64, now_ms: u64) {
        if self.online.get(name).is_none_or(|c| c.id != conn_id) {
            return;
        }
        self.online.remove(name);
        self.challenges
            .retain(|_, c| c.from != name && c.to != name);
        for room in self.rooms.values_mut() {
            if let Some(side) = room.side_of(name) {
                room.left(side, now_ms);
            }
        }
    }

    /// Ends the games of players gone past the grace period at `now_ms`.
    pub fn tick(&mut self, now_ms: u64) {
        let due: Vec<u64> = self
            .rooms
            .iter()
            .filter(|(_, r)| r.deadline().is_some_and(|d| d <= now_ms))
            .map(|(&g, _)| g)
            .collect();
        for game in due {
            let ended = self.rooms.get_mut(&game).and_then(|r| r.tick(now_ms));
            if let (Some(event), Some(room)) = (ended, self.rooms.get(&game)) {
                self.broadcast(game, room, &[event]);
                self.finish(game);
            }
        }
    }

    /// The room of `game` with `name`'s side in it, or the error to send.
    fn seat(&mut self, name: &str, game: u64) -> Result<(&mut Room, Side), Box<ServerMessage>> {
        self.rooms
            .get_mut(&game)
            .and_then(|room| room.side_of(name).map(|side| (room, side)))
            .ok_or_else(|| {
                Box::new(error(
                    ErrorCode::NotFound,
                    format!("you play no game {game} in play"),
                    Some(game),
                ))
            })
    }

    /// A message from the player `name` on `conn`, arrived at `now_ms`.
    pub fn handle(&mut self, conn: &Conn, name: &str, msg: ClientMessage, now_ms: u64) {
        match msg {
            ClientMessage::Hello { .. } => conn.send(&error(
                ErrorCode::NotIntroduced,
                "hello was already said on this connection",
                None,
            )),
            ClientMessage::Challenge {
                opponent,
                board,
                clock,
                rated,
            } => self.challenge(conn, name, &opponent, &board, clock, rated),
            ClientMessage::Accept { challenge } => self.accept(conn, name, challenge, now_ms),
            ClientMessage::Move { game, seq, mv } => {
                let played = match self.seat(name, game) {
                    Ok((room, side)) => room.play_at(side, seq, &mv, now_ms),
                    Err(e) => return conn.send(&e),
                };
                match played {
                    Ok(Played::Events(events)) => self.after(game, &events),
                    Ok(Played::AlreadyPlayed) => {}
                    Err(e) => conn.send(&referee_error(e, game)),
                }
            }
            ClientMessage::Resign { game } => {
                let resigned = match self.seat(name, game) {
                    Ok((room, side)) => room.resign(side),
                    Err(e) => return conn.send(&e),
                };
                match resigned {
                    Ok(event) => self.after(game, &[event]),
                    Err(e) => conn.send(&referee_error(e, game)),
                }
            }
            ClientMessage::Ack { game, event } => match self.seat(name, game) {
                Ok((room, _)) if event > room.last_event() => conn.send(&error(
                    ErrorCode::NotFound,
                    format!("game {game} has no event {event} yet"),
                    Some(game),
                )),
                Ok(_) => {}
                Err(e) => conn.send(&e),
            },
            ClientMessage::Resume { game, after } => {
                let live = self.rooms.get(&game).filter(|r| r.side_of(name).is_some());
                let kept = match live {
                    Some(_) => None,
                    None => self.kept(name, game),
                };
                let Some(room) = live.or(kept.as_ref()) else {
                    return conn.send(&error(
                        ErrorCode::NotFound,
                        format!("you play no game {game}"),
                        Some(game),
                    ));
                };
                for event in room.events_after(after) {
                    conn.send(&ServerMessage::Event {
                        game,
                        event: event.clone(),
                    });
                }
            }
            other => conn.send(&error(
                ErrorCode::Unsupported,
                format!(
                    "this server does not do {:?} yet",
                    other.to_text().split('"').nth(5).unwrap_or("that")
                ),
                None,
            )),
        }
    }

    /// The finished game `game` of `name`'s, rebuilt from the database with its events.
    fn kept(&self, name: &str, game: u64) -> Option<Room> {
        let g = match self.store.finished_game(game) {
            Ok(g) => g?,
            Err(e) => {
                eprintln!("parlor serve: reading game {game}: {e:#}");
                return None;
            }
        };
        if g.black != name && g.white != name {
            return None;
        }
        let dims = g.board.parse().ok()?;
        match Room::replayed(dims, &g.black, &g.white, &g.moves, g.result) {
            Ok(room) => Some(room),
            Err(e) => {
                eprintln!("parlor serve: game {game} as kept: {e}");
                None
            }
        }
    }

    /// Sends a game's new events, and keeps it if it ended.
    fn after(&mut self, game: u64, events: &[Event]) {
        if let Some(room) = self.rooms.get(&game) {
            self.broadcast(game, room, events);
            if room.result().is_some() {
                self.finish(game);
            }
        }
    }

    fn challenge(
        &mut self,
        conn: &Conn,
        name: &str,
        opponent: &str,
        board: &str,
        clock: Option<TimeControl>,
        rated: bool,
    ) {
        let dims = match board.parse::<nocca::Dims>() {
            Ok(d) => d,
            Err(e) => return conn.send(&error(ErrorCode::BadBoard, e.to_string(), None)),
        };
        if let Some(Err(e)) = clock.map(TimeControl::check) {
            return conn.send(&error(ErrorCode::BadClock, e, None));
        }
        if opponent == name || !self.online.contains_key(opponent) {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("no other player {opponent:?} online"),
                None,
            ));
        }
        let id = self.next_challenge;
        self.next_challenge += 1;
        let c = Challenge {
            from: name.to_string(),
            to: opponent.to_string(),
            dims,
            clock,
            rated,
        };
        let info = c.info(id);
        self.challenges.insert(id, c);
        self.tell(
            opponent,
            &ServerMessage::Challenged {
                challenge: info.clone(),
            },
        );
        conn.send(&ServerMessage::ChallengeSent { challenge: info });
    }

    fn accept(&mut self, conn: &Conn, name: &str, challenge: u64, now_ms: u64) {
        let Some(c) = self.challenges.get(&challenge).filter(|c| c.to == name) else {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("no challenge {challenge} to you"),
                None,
            ));
        };
        let board = c.dims.to_string();
        let game = match self.store.start_game(&c.from, &c.to, &board) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("parlor serve: a game could not start: {e:#}");
                return conn.send(&error(
                    ErrorCode::Internal,
                    "the server's store failed",
                    None,
                ));
            }
        };
        let Some(c) = self.challenges.remove(&challenge) else {
            return;
        };
        let setup = Setup {
            clock: c.clock,
            rated: c.rated,
            first_move_ms: self.first_move_ms,
            ..Setup::casual(c.dims, &c.from, &c.to, self.grace_ms)
        };
        let room = Room::start(setup, now_ms);
        let start = room.events_after(0).to_vec();
        self.broadcast(game, &room, &start);
        self.rooms.insert(game, room);
    }
}

fn referee_error(e: RefereeError, game: u64) -> ServerMessage {
    let code = match e {
        RefereeError::GameOver => ErrorCode::GameOver,
        RefereeError::NotYourTurn(_) => ErrorCode::NotYourTurn,
        RefereeError::Unreadable { .. } | RefereeError::Illegal { .. } => ErrorCode::IllegalMove,
        RefereeError::Inconsistent => ErrorCode::Internal,
    };
    error(code, e.to_string(), Some(game))
}
