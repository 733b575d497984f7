//! The server's state and what each client message does to it: who is online (each player with every connection
//! they have open: two tabs, a phone and a laptop), open challenges, the rated queue, rematch offers, spectators,
//! and the games in play, each a referee [`Room`]. Everything here runs under one lock and never waits: messages go
//! out through each connection's unbounded queue.
//!
//! What is kept where: games, the queue and rematch offers are in the store as well as here, so a server killed and
//! started again has them back (a queued player or an offerer not back within the grace period is dropped from
//! them); open challenges and what a connection follows (the lobby, games watched) belong to the connection and end
//! with it: a client asks for them again when it connects again.

use crate::daily;
use crate::limit::{self, Bucket};
use crate::rating::{self, Exact};
use crate::store::{self, FinishedGame, Login, QueuedPlayer, Rated, RematchOffer, Store};
use parlor_online::protocol::{
    Board, ChallengeInfo, ClientMessage, Daily, EndReason, ErrorCode, Event, GameInPlay,
    GameRecord, GameSummary, LIST_LIMIT, LeaderEntry, LiveGame, PlayerInfo, QueueEntry, Rating,
    RatingChange, RatingChanges, ScoredGuess, ServerMessage, Side, TimeControl, check_name,
    check_token,
};
use parlor_online::referee::{Played, RefereeError, Room, Setup};
use std::collections::{HashMap, HashSet};
use tokio::sync::mpsc::UnboundedSender;

#[path = "away.rs"]
mod away;

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
        if let ServerMessage::Error {
            code,
            message,
            game,
        } = msg
        {
            tracing::warn!(conn = self.id, ?code, ?game, "refused: {message}");
        }
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

/// The band of ratings a queued player is paired within when they join: it widens by [`QUEUE_BAND_PER_SEC`] a
/// second waited, up to [`QUEUE_BAND_MAX`]. Two players are paired when their ratings differ by no more than the
/// wider of their bands.
pub const QUEUE_BAND_START: u32 = 100;

/// How fast the queue's band widens, in rating points a second.
pub const QUEUE_BAND_PER_SEC: u32 = 20;

/// The widest the queue's band gets.
pub const QUEUE_BAND_MAX: u32 = 1000;

/// The band a player who has waited `waited_ms` is paired within.
pub fn queue_band(waited_ms: u64) -> u32 {
    let widened = (waited_ms / 1000).saturating_mul(u64::from(QUEUE_BAND_PER_SEC));
    u32::try_from(u64::from(QUEUE_BAND_START).saturating_add(widened))
        .unwrap_or(u32::MAX)
        .min(QUEUE_BAND_MAX)
}

/// A player waiting in the queue.
struct Seat {
    name: String,
    dims: nocca::Dims,
    clock: Option<TimeControl>,
    /// When they joined (Unix milliseconds, so that it outlives a restart): the band widens from it.
    joined_unix_ms: u64,
    rating: f64,
    /// Since when (hub time) the player has had no connection: their place is held for the grace period, and not
    /// paired meanwhile.
    absent_since: Option<u64>,
}

/// How long a rematch offer stands, in milliseconds.
pub const REMATCH_OFFER_MS: u64 = 5 * 60_000;

/// A rematch offer of a finished game.
struct Offer {
    /// Who offered.
    from: String,
    /// When it lapses (Unix milliseconds).
    expires_unix_ms: u64,
    /// Since when (hub time) the offerer has had no connection: the offer is held for the grace period.
    absent_since: Option<u64>,
}

/// One open connection of a player online.
struct Link {
    conn: Conn,
    /// Whether this connection follows the lobby.
    follows: bool,
    /// The player's games in play when this connection said `hello`, whose events it is not sent yet: by game, the
    /// last event `welcome` told it of, and when. A game's events flow to it from when it resumes that game (from
    /// the event it asks), acts in it, or [`CATCH_UP_MS`] later (from the event `welcome` told it of), so that a
    /// client resuming from an older event gets the events it missed before the new ones.
    waiting: HashMap<u64, (u64, u64)>,
}

/// How long a new connection's games wait for it to resume them before their events are sent to it anyway.
pub const CATCH_UP_MS: u64 = 1000;

/// How often a followed lobby is pushed at most, in milliseconds.
const LOBBY_PUSH_MS: u64 = 1000;

/// Everything the server holds in memory.
pub struct Hub {
    store: Store,
    grace_ms: u64,
    first_move_ms: u64,
    /// Every player online with each of their open connections (never an empty list).
    online: HashMap<String, Vec<Link>>,
    challenges: HashMap<u64, Challenge>,
    rooms: HashMap<u64, Room>,
    next_challenge: u64,
    queue: Vec<Seat>,
    /// Rematch offers, by finished game.
    rematches: HashMap<u64, Offer>,
    /// The connections watching each live game (by connection number, with the watcher's name).
    watchers: HashMap<u64, HashMap<u64, (String, Conn)>>,
    /// The Unix time, in milliseconds, of this hub's time 0.
    start_unix_ms: u64,
    /// The milliseconds the server was stopped since then, which its time leaves out ([`crate::runclock`]).
    stopped_ms: u64,
    /// Each player's rate limit over all their connections.
    buckets: HashMap<String, Bucket>,
    lobby_changed: bool,
    lobby_pushed_ms: u64,
    /// The server's secret for the daily seeds (none if the store could not give it: the dailies are then refused).
    secret: Option<String>,
}

fn error(code: ErrorCode, message: impl Into<String>, game: Option<u64>) -> ServerMessage {
    ServerMessage::error(code, message, game)
}

fn boxed_error(
    code: ErrorCode,
    message: impl Into<String>,
    game: Option<u64>,
) -> Box<ServerMessage> {
    Box::new(error(code, message, game))
}

impl Hub {
    /// A hub over an open store; a player gone longer than `grace_ms` loses their games, and a side that does not
    /// make its first move within `first_move_ms` aborts its game.
    pub fn new(store: Store, grace_ms: u64, first_move_ms: u64) -> Hub {
        let secret = store
            .secret()
            .map_err(|e| tracing::error!("the daily challenges' secret: {e:#}"))
            .ok();
        let mut hub = Hub {
            secret,
            store,
            grace_ms,
            first_move_ms,
            online: HashMap::new(),
            challenges: HashMap::new(),
            rooms: HashMap::new(),
            next_challenge: 1,
            queue: Vec::new(),
            rematches: HashMap::new(),
            watchers: HashMap::new(),
            start_unix_ms: store::now_unix_ms(),
            stopped_ms: 0,
            buckets: HashMap::new(),
            lobby_changed: false,
            lobby_pushed_ms: 0,
        };
        hub.resume_games();
        hub.restore_queue_and_offers();
        hub
    }

    /// Hub time `now_ms` as Unix milliseconds.
    fn unix_at(&self, now_ms: u64) -> u64 {
        self.start_unix_ms
            .saturating_add(now_ms)
            .saturating_add(self.stopped_ms)
    }

    /// The server was stopped `stopped_ms` in all since this hub's time 0: hub time leaves that out, Unix time not.
    pub fn set_stopped_ms(&mut self, stopped_ms: u64) {
        self.stopped_ms = stopped_ms;
    }

    /// Puts back the queue and the rematch offers kept in the store (after a restart, at time 0 of this hub): every
    /// player in them is taken as gone since now, so has the grace period to come back; a lapsed offer is dropped.
    fn restore_queue_and_offers(&mut self) {
        match self.store.queue() {
            Ok(kept) => {
                for q in kept {
                    match q.board.parse::<nocca::Dims>() {
                        Ok(dims) => {
                            let rating = self.exact(&q.name).rating;
                            self.queue.push(Seat {
                                name: q.name,
                                dims,
                                clock: q.clock,
                                joined_unix_ms: q.joined_unix_ms,
                                rating,
                                absent_since: Some(0),
                            });
                        }
                        Err(e) => {
                            tracing::error!("queue of {}: board {:?}: {e}", q.name, q.board);
                            self.forget_seat(&q.name);
                        }
                    }
                }
            }
            Err(e) => tracing::error!("reading the queue: {e:#}"),
        }
        match self.store.offers() {
            Ok(kept) => {
                let now = self.unix_at(0);
                for o in kept {
                    if o.expires_unix_ms <= now {
                        self.forget_offer(o.game);
                        continue;
                    }
                    self.rematches.insert(
                        o.game,
                        Offer {
                            from: o.from,
                            expires_unix_ms: o.expires_unix_ms,
                            absent_since: Some(0),
                        },
                    );
                }
            }
            Err(e) => tracing::error!("reading the rematch offers: {e:#}"),
        }
    }

    /// Takes `name`'s place in the queue out of the store (logged if it fails).
    fn forget_seat(&self, name: &str) {
        if let Err(e) = self.store.queue_remove(name) {
            tracing::error!("queue of {name}: {e:#}");
        }
    }

    /// Takes the rematch offer of `game` out of the store (logged if it fails).
    fn forget_offer(&self, game: u64) {
        if let Err(e) = self.store.offer_remove(game) {
            tracing::error!("rematch offer of game {game}: {e:#}");
        }
    }

    /// Rebuilds every game in play kept in the store (after a restart, at time 0 of this hub): its moves replayed,
    /// its clocks as of its last move, both players taken as gone since now, so each has the grace period to come
    /// back. A game that does not rebuild is ended as aborted (logged).
    fn resume_games(&mut self) {
        let live = match self.store.games_in_play() {
            Ok(l) => l,
            Err(e) => {
                tracing::error!("reading the games in play: {e:#}");
                return;
            }
        };
        for g in live {
            let restored = g.board.parse::<nocca::Dims>().ok().and_then(|dims| {
                let setup = Setup {
                    clock: g.clock,
                    rated: g.rated,
                    ratings: [
                        rating::shown(&self.exact(&g.black)),
                        rating::shown(&self.exact(&g.white)),
                    ],
                    rematch_of: g.rematch_of,
                    first_move_ms: self.first_move_ms,
                    ..Setup::casual(dims, &g.black, &g.white, self.grace_ms)
                };
                Room::restore(setup, &g.moves, g.remaining, g.seqs, 0).ok()
            });
            match restored {
                Some(mut room) => {
                    if let Some(times) = &g.times
                        && !room.restore_times(times)
                    {
                        tracing::error!("game {}: its move times do not match its moves", g.id);
                    }
                    room.left(Side::Black, 0);
                    room.left(Side::White, 0);
                    self.rooms.insert(g.id, room);
                }
                None => {
                    tracing::error!("game {} does not rebuild: ended as aborted", g.id);
                    let aborted = parlor_online::referee::GameResult {
                        winner: None,
                        reason: EndReason::Aborted,
                    };
                    if let Err(e) = self.store.finish_game(g.id, &g.moves, aborted, "") {
                        tracing::error!("game {}: {e:#}", g.id);
                    }
                }
            }
        }
    }

    /// Whether `name` may send another message at `now_ms` (their bucket over all their connections).
    pub fn allow(&mut self, name: &str, now_ms: u64) -> bool {
        self.buckets
            .entry(name.to_string())
            .or_insert_with(|| Bucket::new(limit::PER_PLAYER, now_ms))
            .take(now_ms)
    }

    /// A player's exact rating (a new player's if the store fails, which is logged).
    fn exact(&self, name: &str) -> Exact {
        self.store.rating(name).unwrap_or_else(|e| {
            tracing::error!("rating of {name}: {e:#}");
            rating::new_player()
        })
    }

    /// Every connection online (to close them when the server stops).
    pub fn connections(&self) -> Vec<Conn> {
        self.online
            .values()
            .flatten()
            .map(|l| l.conn.clone())
            .collect()
    }

    /// Sends `msg` to every connection of `name` (none if they are not online).
    fn tell(&self, name: &str, msg: &ServerMessage) {
        if let Some(links) = self.online.get(name) {
            match links.as_slice() {
                [one] => one.conn.send(msg),
                many => {
                    let text = msg.to_text();
                    for l in many {
                        let _ = l.conn.tx.send(Outgoing::Text(text.clone()));
                    }
                }
            }
        }
    }

    /// Sends a game's new events to both its players and everyone watching it.
    fn broadcast(&self, game: u64, room: &Room, events: &[Event]) {
        for event in events {
            let msg = ServerMessage::Event {
                game,
                event: event.clone(),
            };
            let text = msg.to_text();
            for name in [room.name(Side::Black), room.name(Side::White)] {
                for l in self.online.get(name).into_iter().flatten() {
                    if !l.waiting.contains_key(&game) {
                        let _ = l.conn.tx.send(Outgoing::Text(text.clone()));
                    }
                }
            }
            if let Some(watchers) = self.watchers.get(&game) {
                for (_, conn) in watchers.values() {
                    let _ = conn.tx.send(Outgoing::Text(text.clone()));
                }
            }
        }
    }

    /// Sends a game's events from number `first` on (its players and watchers), and if it ended: rates it (a rated
    /// game not aborted), keeps it, and lets its room go. The rating changes are in the `ended` event sent, and the
    /// store writes the end and the new ratings together, once.
    fn after(&mut self, game: u64, first: u64) {
        let Some(room) = self.rooms.get_mut(&game) else {
            return;
        };
        self.lobby_changed = true;
        let Some(result) = room.result() else {
            if let Err(e) = self.store.save_progress(
                game,
                &room.record(),
                room.times(),
                room.remaining(),
                room.last_seqs(),
            ) {
                tracing::error!("game {game}: its progress could not be kept: {e:#}");
            }
            let events = room.events_after(first.saturating_sub(1)).to_vec();
            if let Some(room) = self.rooms.get(&game) {
                self.broadcast(game, room, &events);
            }
            return;
        };
        let setup = room.setup().clone();
        let rated = if setup.rated && result.reason != EndReason::Aborted {
            let before = [self.exact(&setup.black), self.exact(&setup.white)];
            let after = rating::after_game(&before[0], &before[1], result.winner);
            let change = |i: usize| RatingChange {
                before: rating::shown(&before[i]),
                after: rating::shown(&after[i]),
            };
            let changes = RatingChanges {
                black: change(0),
                white: change(1),
            };
            Some(Rated { changes, after })
        } else {
            None
        };
        let Some(mut room) = self.rooms.remove(&game) else {
            return;
        };
        if let Some(r) = &rated {
            room.rate(r.changes);
        }
        tracing::info!(
            game,
            winner = result.winner.map_or("none", Side::as_str),
            reason = result.reason.as_str(),
            ply = room.ply(),
            "game ended"
        );
        if let Err(e) = self.store.finish_rated_game(
            game,
            &room.record(),
            Some(room.times()),
            result,
            &room.position(),
            rated.map(|r| (setup.black.as_str(), setup.white.as_str(), r)),
        ) {
            tracing::error!("game {game} could not be kept: {e:#}");
        }
        let events = room.events_after(first.saturating_sub(1)).to_vec();
        self.broadcast(game, &room, &events);
        self.watchers.remove(&game);
    }

    /// A connection's first message, `hello`: the player's name and token. Returns the name on success (and has
    /// answered `welcome`); on failure the connection has been sent the error.
    pub fn hello(&mut self, conn: &Conn, name: &str, token: &str, now_ms: u64) -> Option<String> {
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
                tracing::error!("login of {name}: {e:#}");
                conn.send(&error(
                    ErrorCode::Internal,
                    "the server's store failed",
                    None,
                ));
                return None;
            }
        }
        tracing::info!(conn = conn.id, name, "hello");
        // Another connection of the same player (a second tab, a phone) joins the ones already open: each gets
        // the player's events from now on.
        let waiting: HashMap<u64, (u64, u64)> = self
            .rooms
            .iter()
            .filter(|(_, r)| r.side_of(name).is_some())
            .map(|(&g, r)| (g, (r.last_event(), now_ms)))
            .collect();
        let links = self.online.entry(name.to_string()).or_default();
        if !links.iter().any(|l| l.conn.id == conn.id) {
            links.push(Link {
                conn: conn.clone(),
                follows: false,
                waiting,
            });
        }
        self.lobby_changed = true;
        let mut games: Vec<GameInPlay> = Vec::new();
        for (&game, room) in self.rooms.iter() {
            if let Some(side) = room.side_of(name) {
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
            rating: rating::shown(&self.exact(name)),
            games,
        });
        self.player_back(conn, name, now_ms);
        // The player's place in the queue and the rematch offers they made, held while they were away, are theirs
        // again; this connection is told of its place and of the offers made to them.
        let now_unix = store::now_unix_ms();
        for seat in self.queue.iter_mut().filter(|s| s.name == name) {
            seat.absent_since = None;
            conn.send(&ServerMessage::Queued {
                entry: queue_entry(seat, now_unix),
            });
        }
        let mut offered_to: Vec<(u64, String)> = Vec::new();
        for (&game, offer) in self.rematches.iter_mut() {
            if offer.from == name {
                offer.absent_since = None;
            } else {
                offered_to.push((game, offer.from.clone()));
            }
        }
        offered_to.sort();
        for (game, from) in offered_to {
            if self
                .finished(game)
                .is_some_and(|g| g.black == name || g.white == name)
            {
                conn.send(&ServerMessage::RematchOffered { game, from });
            }
        }
        Some(name.to_string())
    }

    /// A connection of `name` ended at `now_ms`: what it watched ends with it; if it was their last one, they are
    /// gone: their challenges close, and their seats in games, their place in the queue and their rematch offers
    /// are held for the grace period.
    pub fn gone(&mut self, name: &str, conn_id: u64, now_ms: u64) {
        let Some(links) = self.online.get_mut(name) else {
            return;
        };
        let before = links.len();
        links.retain(|l| l.conn.id != conn_id);
        if links.len() == before {
            return;
        }
        for w in self.watchers.values_mut() {
            w.remove(&conn_id);
        }
        self.lobby_changed = true;
        if !links.is_empty() {
            return;
        }
        self.online.remove(name);
        self.buckets.remove(name);
        self.lobby_changed = true;
        let closed: Vec<(u64, String)> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.from == name || c.to == name)
            .map(|(&id, c)| {
                (
                    id,
                    if c.from == name {
                        c.to.clone()
                    } else {
                        c.from.clone()
                    },
                )
            })
            .collect();
        for (id, other) in closed {
            self.challenges.remove(&id);
            self.tell(
                &other,
                &ServerMessage::ChallengeClosed {
                    challenge: id,
                    reason: "gone".into(),
                },
            );
        }
        for seat in self.queue.iter_mut().filter(|s| s.name == name) {
            seat.absent_since = Some(now_ms);
        }
        for offer in self.rematches.values_mut().filter(|o| o.from == name) {
            offer.absent_since = Some(now_ms);
        }
        self.player_away(name, now_ms);
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
            if let Some(event) = ended {
                self.after(game, event.n);
            }
        }
        // Places in the queue and rematch offers of players gone past the grace period, and lapsed offers, go.
        let grace = self.grace_ms;
        let past = |since: Option<u64>| since.is_some_and(|t| now_ms >= t.saturating_add(grace));
        let left: Vec<String> = self
            .queue
            .iter()
            .filter(|s| past(s.absent_since))
            .map(|s| s.name.clone())
            .collect();
        for name in left {
            self.queue.retain(|s| s.name != name);
            self.forget_seat(&name);
            self.lobby_changed = true;
        }
        let now_unix = self.unix_at(now_ms);
        let lapsed: Vec<u64> = self
            .rematches
            .iter()
            .filter(|(_, o)| past(o.absent_since) || o.expires_unix_ms <= now_unix)
            .map(|(&g, _)| g)
            .collect();
        for game in lapsed {
            self.rematches.remove(&game);
            self.forget_offer(game);
        }
        self.pair(now_ms);
        let mut late: Vec<(String, u64, u64)> = Vec::new();
        for (name, links) in &self.online {
            for l in links {
                for (&game, &(_, since)) in &l.waiting {
                    if now_ms >= since.saturating_add(CATCH_UP_MS) {
                        late.push((name.clone(), l.conn.id, game));
                    }
                }
            }
        }
        for (name, conn_id, game) in late {
            self.catch_up(&name, conn_id, game, false);
        }
        if self.lobby_changed && now_ms >= self.lobby_pushed_ms.saturating_add(LOBBY_PUSH_MS) {
            self.lobby_changed = false;
            self.lobby_pushed_ms = now_ms;
            let followers: Vec<String> = self
                .online
                .iter()
                .filter(|(_, links)| links.iter().any(|l| l.follows))
                .map(|(n, _)| n.clone())
                .collect();
            for name in followers {
                let text = self.lobby(&name, now_ms).to_text();
                for l in self.online.get(&name).into_iter().flatten() {
                    if l.follows {
                        let _ = l.conn.tx.send(Outgoing::Text(text.clone()));
                    }
                }
            }
        }
    }

    /// Lets `game`'s events flow to `name`'s connection `conn_id` if they were waiting for it (see [`Link`]): with
    /// `resumed` (it asked to resume) nothing more is sent here; else it is first sent the events after the last
    /// one `welcome` told it of.
    fn catch_up(&mut self, name: &str, conn_id: u64, game: u64, resumed: bool) {
        let Some(link) = self
            .online
            .get_mut(name)
            .and_then(|links| links.iter_mut().find(|l| l.conn.id == conn_id))
        else {
            return;
        };
        let Some((told, _)) = link.waiting.remove(&game) else {
            return;
        };
        if resumed {
            return;
        }
        let conn = link.conn.clone();
        let kept;
        let room = match self.rooms.get(&game) {
            Some(r) => r,
            None => match self.kept(name, game) {
                Some(r) => {
                    kept = r;
                    &kept
                }
                None => return,
            },
        };
        for event in room.events_after(told) {
            conn.send(&ServerMessage::Event {
                game,
                event: event.clone(),
            });
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
        // A connection acting in a game whose events wait for it gets them first.
        match &msg {
            ClientMessage::Move { game, .. }
            | ClientMessage::Resign { game }
            | ClientMessage::Ack { game, .. } => self.catch_up(name, conn.id, *game, false),
            ClientMessage::Resume { game, .. } => self.catch_up(name, conn.id, *game, true),
            _ => {}
        }
        match msg {
            ClientMessage::Hello { .. } => conn.send(&error(
                ErrorCode::NotIntroduced,
                "hello was already said on this connection",
                None,
            )),
            // Answered by the connection before it reaches the hub (`pong`).
            ClientMessage::Ping {} => conn.send(&ServerMessage::Pong {}),
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
                    Ok(Played::Events(events)) => {
                        if let Some(first) = events.first() {
                            self.after(game, first.n);
                        }
                    }
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
                    Ok(event) => self.after(game, event.n),
                    Err(e) => conn.send(&referee_error(e, game)),
                }
            }
            ClientMessage::Ack { game, event } => {
                // A game that ended is still acknowledged (the ack of its last event usually arrives after the
                // end): it is looked up among the player's finished games, and only an unknown game or an event
                // not yet sent is refused.
                let live = self.rooms.get(&game).filter(|r| r.side_of(name).is_some());
                let last = match live {
                    Some(room) => Some(room.last_event()),
                    None => self.kept(name, game).map(|room| room.last_event()),
                };
                match last {
                    Some(last) if event > last => conn.send(&error(
                        ErrorCode::NotFound,
                        format!("game {game} has no event {event} yet"),
                        Some(game),
                    )),
                    Some(_) => {}
                    None => conn.send(&error(
                        ErrorCode::NotFound,
                        format!("you play no game {game}"),
                        Some(game),
                    )),
                }
            }
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
            ClientMessage::Lobby { follow } => {
                // Following is this connection's: another tab of the same player follows or not as it asks.
                if let Some(link) = self
                    .online
                    .get_mut(name)
                    .and_then(|links| links.iter_mut().find(|l| l.conn.id == conn.id))
                {
                    link.follows = follow;
                }
                conn.send(&self.lobby(name, now_ms));
            }
            ClientMessage::Decline { challenge } => self.close(conn, name, challenge, false),
            ClientMessage::Cancel { challenge } => self.close(conn, name, challenge, true),
            ClientMessage::Queue { board, clock } => {
                self.join_queue(conn, name, &board, clock, now_ms)
            }
            ClientMessage::Unqueue {} => {
                self.queue.retain(|s| s.name != name);
                self.forget_seat(name);
                self.lobby_changed = true;
                self.tell(name, &ServerMessage::Unqueued {});
            }
            ClientMessage::Rematch { game } => self.rematch(conn, name, game, now_ms),
            ClientMessage::DeclineRematch { game } => {
                if self.rematches.get(&game).is_some_and(|o| o.from != name)
                    && let Some(offer) = self.rematches.remove(&game)
                {
                    self.forget_offer(game);
                    self.tell(&offer.from, &ServerMessage::RematchDeclined { game });
                } else {
                    conn.send(&error(
                        ErrorCode::NotFound,
                        format!("no rematch of game {game} offered to you"),
                        Some(game),
                    ));
                }
            }
            ClientMessage::Watch { game, after } => {
                self.watch(conn, name, game, after);
                self.tell_watcher_away(conn, game, now_ms);
            }
            ClientMessage::Unwatch { game } => {
                if let Some(w) = self.watchers.get_mut(&game) {
                    w.remove(&conn.id);
                }
                conn.send(&ServerMessage::Unwatched { game });
            }
            ClientMessage::Record { game } => match self.finished(game) {
                Some(g) => conn.send(&ServerMessage::Record {
                    record: record_of(g),
                }),
                None => conn.send(&error(
                    ErrorCode::NotFound,
                    format!("no finished game {game}"),
                    Some(game),
                )),
            },
            ClientMessage::Games { player } => match self.store.games_of(&player, LIST_LIMIT) {
                Ok(games) => conn.send(&ServerMessage::Games {
                    player,
                    games: games.into_iter().map(summary_of).collect(),
                }),
                Err(e) => {
                    tracing::error!("games of {player}: {e:#}");
                    conn.send(&error(
                        ErrorCode::Internal,
                        "the server's store failed",
                        None,
                    ));
                }
            },
            ClientMessage::Daily2048 {} => match self.seed("2048", &daily::today()) {
                Ok((day, seed)) => conn.send(&ServerMessage::Daily2048 { day, seed }),
                Err(e) => conn.send(&e),
            },
            ClientMessage::Submit2048 {
                day,
                actions,
                score,
                hints,
                undo,
            } => match self.submit_2048(name, &day, &actions, score, hints, undo) {
                Ok(m) => conn.send(&m),
                Err(e) => conn.send(&e),
            },
            ClientMessage::DailyMastermind {} => match self.daily_mastermind(name) {
                Ok(m) => conn.send(&m),
                Err(e) => conn.send(&e),
            },
            ClientMessage::Guess { day, n, code } => match self.guess(name, &day, n, &code) {
                Ok(m) => conn.send(&m),
                Err(e) => conn.send(&e),
            },
            ClientMessage::Leaderboard { daily, day, board } => {
                let day = day.unwrap_or_else(daily::today);
                match self.leaderboard(daily, &day, board) {
                    Ok(entries) => conn.send(&ServerMessage::Leaderboard {
                        daily,
                        day,
                        board,
                        entries,
                    }),
                    Err(e) => conn.send(&e),
                }
            }
        }
    }

    /// Today's seed for `what` (`2048` or `mastermind`), if `day` is today.
    fn seed(&self, what: &str, day: &str) -> Result<(String, u64), Box<ServerMessage>> {
        let today = daily::today();
        if day != today {
            return Err(boxed_error(
                ErrorCode::BadDay,
                format!("{day:.12} is not today ({today}, UTC)"),
                None,
            ));
        }
        let Some(secret) = &self.secret else {
            return Err(boxed_error(
                ErrorCode::Internal,
                "the daily challenges are off",
                None,
            ));
        };
        Ok((today, daily::seed(secret, what, day)))
    }

    /// Judges and keeps a day's 2048 game: the `scored_2048` answer, or the error to send.
    fn submit_2048(
        &mut self,
        name: &str,
        day: &str,
        actions: &str,
        claimed: u64,
        hints: bool,
        undo: bool,
    ) -> Result<ServerMessage, Box<ServerMessage>> {
        let (day, seed) = self.seed("2048", day)?;
        let scored = daily::score_2048(seed, actions, claimed, hints, undo)
            .map_err(|(code, message)| boxed_error(code, message, None))?;
        let board = board_word(scored.board);
        let internal = |e: anyhow::Error| {
            tracing::error!("keeping a 2048 game of {name}: {e:#}");
            boxed_error(ErrorCode::Internal, "the server's store failed", None)
        };
        let added = self
            .store
            .add_2048(
                &day,
                board,
                name,
                scored.score,
                scored.max_tile,
                scored.moves,
                actions,
            )
            .map_err(internal)?;
        if !added {
            return Err(boxed_error(
                ErrorCode::Duplicate,
                format!("the {board} board of {day} already has your game"),
                None,
            ));
        }
        let better = self
            .store
            .better_2048(&day, board, scored.score)
            .map_err(internal)?;
        Ok(ServerMessage::Scored2048 {
            day,
            board: scored.board,
            score: scored.score,
            max_tile: scored.max_tile,
            moves: scored.moves,
            rank: u32::try_from(better + 1).unwrap_or(u32::MAX),
        })
    }

    /// Today's Mastermind for `name`, with their guesses so far.
    fn daily_mastermind(&self, name: &str) -> Result<ServerMessage, Box<ServerMessage>> {
        let (day, _) = self.seed("mastermind", &daily::today())?;
        let internal = |e: anyhow::Error| {
            tracing::error!("today's Mastermind of {name}: {e:#}");
            boxed_error(ErrorCode::Internal, "the server's store failed", None)
        };
        self.store.start_mastermind(&day, name).map_err(internal)?;
        let guesses = self.store.mastermind_of(&day, name).map_err(internal)?;
        let pegs = mastermind_variant_pegs();
        let solved = guesses.iter().any(|g| g.1 == pegs);
        let allowed = daily::mastermind_variant().guesses() as usize;
        let over = solved || guesses.len() >= allowed;
        Ok(ServerMessage::DailyMastermind {
            day,
            variant: daily::MASTERMIND_VARIANT.into(),
            guesses: guesses
                .into_iter()
                .zip(1..)
                .map(|((code, black, white), n)| ScoredGuess {
                    n,
                    code,
                    black,
                    white,
                })
                .collect(),
            solved,
            over,
        })
    }

    /// Scores `name`'s guess number `n` at the day's Mastermind.
    fn guess(
        &self,
        name: &str,
        day: &str,
        n: u32,
        code: &str,
    ) -> Result<ServerMessage, Box<ServerMessage>> {
        let (day, seed) = self.seed("mastermind", day)?;
        let internal = |e: anyhow::Error| {
            tracing::error!("a Mastermind guess of {name}: {e:#}");
            boxed_error(ErrorCode::Internal, "the server's store failed", None)
        };
        let earlier = self.store.mastermind_of(&day, name).map_err(internal)?;
        let next = u32::try_from(earlier.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        if n < next {
            return Err(boxed_error(
                ErrorCode::Duplicate,
                format!("guess {n} was already scored (send daily_mastermind to see it)"),
                None,
            ));
        }
        if n > next {
            return Err(boxed_error(
                ErrorCode::Conflict,
                format!("the next guess is number {next}, not {n}"),
                None,
            ));
        }
        let texts: Vec<String> = earlier.iter().map(|g| g.0.clone()).collect();
        let daily::Guessed {
            code: written,
            black,
            white,
            solved,
            left,
        } = daily::score_guess(seed, &texts, code)
            .map_err(|(code, message)| boxed_error(code, message, None))?;
        self.store.start_mastermind(&day, name).map_err(internal)?;
        if !self
            .store
            .add_guess(&day, name, n, &written, black, white, solved)
            .map_err(internal)?
        {
            return Err(boxed_error(
                ErrorCode::Duplicate,
                format!("guess {n} was already scored"),
                None,
            ));
        }
        Ok(ServerMessage::GuessScored {
            day,
            guess: ScoredGuess {
                n,
                code: written,
                black,
                white,
            },
            solved,
            left,
        })
    }

    /// A day's leaderboard, ranked by the server's figures; ties share a rank.
    fn leaderboard(
        &self,
        which: Daily,
        day: &str,
        board: Board,
    ) -> Result<Vec<LeaderEntry>, Box<ServerMessage>> {
        let internal = |e: anyhow::Error| {
            tracing::error!("a leaderboard of {day}: {e:#}");
            boxed_error(ErrorCode::Internal, "the server's store failed", None)
        };
        let entry = |name, score, max_tile, detail| LeaderEntry {
            rank: 0,
            name,
            score,
            max_tile,
            detail,
        };
        // Each row with its ranking key: lower is better.
        let mut rows: Vec<(LeaderEntry, (u64, u64))> = match which {
            Daily::Twenty48 => self
                .store
                .board_2048(day, board_word(board), LIST_LIMIT)
                .map_err(internal)?
                .into_iter()
                .map(|(n, score, tile, moves)| {
                    (entry(n, score, Some(tile), moves), (u64::MAX - score, 0))
                })
                .collect(),
            Daily::Mastermind if board == Board::Assisted => Vec::new(),
            Daily::Mastermind => self
                .store
                .board_mastermind(day, LIST_LIMIT)
                .map_err(internal)?
                .into_iter()
                .map(|(n, guesses, took)| (entry(n, guesses, None, took), (guesses, took)))
                .collect(),
        };
        for i in 0..rows.len() {
            rows[i].0.rank = if i > 0 && rows[i - 1].1 == rows[i].1 {
                rows[i - 1].0.rank
            } else {
                u32::try_from(i + 1).unwrap_or(u32::MAX)
            };
        }
        let entries: Vec<LeaderEntry> = rows.into_iter().map(|(e, _)| e).collect();
        Ok(entries)
    }

    /// The finished game `game`, from the database.
    fn finished(&self, game: u64) -> Option<FinishedGame> {
        self.store.finished_game(game).unwrap_or_else(|e| {
            tracing::error!("reading game {game}: {e:#}");
            None
        })
    }

    /// The lobby as `name` sees it at `now_ms`.
    fn lobby(&self, name: &str, now_ms: u64) -> ServerMessage {
        let playing: HashSet<&str> = self
            .rooms
            .values()
            .flat_map(|r| [r.name(Side::Black), r.name(Side::White)])
            .collect();
        let queued: HashSet<&str> = self
            .queue
            .iter()
            .filter(|s| s.absent_since.is_none())
            .map(|s| s.name.as_str())
            .collect();
        let mut players: Vec<(f64, PlayerInfo)> = self
            .online
            .keys()
            .map(|n| {
                let exact = self.exact(n);
                (
                    exact.rating,
                    PlayerInfo {
                        name: n.clone(),
                        rating: rating::shown(&exact),
                        playing: playing.contains(n.as_str()),
                        queued: queued.contains(n.as_str()),
                    },
                )
            })
            .collect();
        players.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
        let mut challenges: Vec<ChallengeInfo> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.from == name || c.to == name)
            .map(|(&id, c)| c.info(id))
            .collect();
        challenges.sort_by_key(|c| c.challenge);
        challenges.truncate(LIST_LIMIT);
        let mut games: Vec<LiveGame> = self
            .rooms
            .iter()
            .map(|(&game, r)| LiveGame {
                game,
                black: r.name(Side::Black).to_string(),
                white: r.name(Side::White).to_string(),
                board: r.dims().to_string(),
                clock: r.setup().clock,
                rated: r.setup().rated,
                ply: u32::try_from(r.ply()).unwrap_or(u32::MAX),
                spectators: self.watchers.get(&game).map_or(0, |w| {
                    let names: HashSet<&str> = w.values().map(|(n, _)| n.as_str()).collect();
                    u32::try_from(names.len()).unwrap_or(u32::MAX)
                }),
            })
            .collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.game));
        games.truncate(LIST_LIMIT);
        ServerMessage::Lobby {
            online: u32::try_from(self.online.len()).unwrap_or(u32::MAX),
            players: players.into_iter().take(LIST_LIMIT).map(|p| p.1).collect(),
            challenges,
            games,
            queue: self
                .queue
                .iter()
                .find(|s| s.name == name)
                .map(|s| queue_entry(s, self.unix_at(now_ms))),
        }
    }

    /// `name` declines (or, `cancel`, withdraws) a challenge.
    fn close(&mut self, conn: &Conn, name: &str, challenge: u64, cancel: bool) {
        let mine = self
            .challenges
            .get(&challenge)
            .is_some_and(|c| if cancel { c.from == name } else { c.to == name });
        let Some(c) = mine.then(|| self.challenges.remove(&challenge)).flatten() else {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!(
                    "no challenge {challenge} {} you",
                    if cancel { "from" } else { "to" }
                ),
                None,
            ));
        };
        self.lobby_changed = true;
        let reason = if cancel { "cancelled" } else { "declined" };
        let closed = ServerMessage::ChallengeClosed {
            challenge,
            reason: reason.into(),
        };
        self.tell(if cancel { &c.to } else { &c.from }, &closed);
        conn.send(&closed);
    }

    fn join_queue(
        &mut self,
        conn: &Conn,
        name: &str,
        board: &str,
        clock: Option<TimeControl>,
        now_ms: u64,
    ) {
        let dims = match game_terms(board, clock) {
            Ok(d) => d,
            Err(e) => return conn.send(&e),
        };
        self.queue.retain(|s| s.name != name);
        let joined_unix_ms = self.unix_at(now_ms);
        let seat = Seat {
            name: name.to_string(),
            dims,
            clock,
            joined_unix_ms,
            rating: self.exact(name).rating,
            absent_since: None,
        };
        if let Err(e) = self.store.queue_put(&QueuedPlayer {
            name: name.to_string(),
            board: dims.to_string(),
            clock,
            joined_unix_ms,
        }) {
            tracing::error!("queue of {name}: {e:#}");
        }
        // Every connection of the player is told (the one that asked, and their other tabs).
        self.tell(
            name,
            &ServerMessage::Queued {
                entry: queue_entry(&seat, joined_unix_ms),
            },
        );
        self.queue.push(seat);
        self.lobby_changed = true;
        self.pair(now_ms);
    }

    /// Pairs the queue: oldest first, each with the nearest-rated player waiting for the same board and clock
    /// within the wider of their bands; the one who waited longer plays Black.
    fn pair(&mut self, now_ms: u64) {
        let now_unix = self.unix_at(now_ms);
        let mut i = 0;
        while i < self.queue.len() {
            let a = &self.queue[i];
            if a.absent_since.is_some() {
                i += 1;
                continue;
            }
            let best = self
                .queue
                .iter()
                .enumerate()
                .skip(i + 1)
                .filter(|(_, b)| b.absent_since.is_none() && b.dims == a.dims && b.clock == a.clock)
                .map(|(j, b)| (j, (a.rating - b.rating).abs(), b))
                .filter(|(_, diff, b)| {
                    let band = queue_band(now_unix.saturating_sub(a.joined_unix_ms))
                        .max(queue_band(now_unix.saturating_sub(b.joined_unix_ms)));
                    *diff <= f64::from(band)
                })
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(j, _, _)| j);
            let Some(j) = best else {
                i += 1;
                continue;
            };
            // j > i: remove j first so i stays put.
            let b = self.queue.remove(j);
            let a = self.queue.remove(i);
            self.forget_seat(&a.name);
            self.forget_seat(&b.name);
            self.lobby_changed = true;
            self.start_room(&a.name, &b.name, a.dims, a.clock, true, None, now_ms);
        }
    }

    /// Starts a game: its number from the store, its room, its start sent to both. Returns the game, or none if the
    /// store failed (logged).
    #[allow(clippy::too_many_arguments)]
    fn start_room(
        &mut self,
        black: &str,
        white: &str,
        dims: nocca::Dims,
        clock: Option<TimeControl>,
        rated: bool,
        rematch_of: Option<u64>,
        now_ms: u64,
    ) -> Option<u64> {
        let game = match self
            .store
            .start_game_with(black, white, &dims.to_string(), clock, rated)
        {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("a game could not start: {e:#}");
                return None;
            }
        };
        let setup = Setup {
            clock,
            rated,
            ratings: [
                rating::shown(&self.exact(black)),
                rating::shown(&self.exact(white)),
            ],
            rematch_of,
            first_move_ms: self.first_move_ms,
            ..Setup::casual(dims, black, white, self.grace_ms)
        };
        let mut room = Room::start(setup, now_ms);
        // A player with no connection open (a rematch accepted while the offerer is away) has the grace period.
        for side in [Side::Black, Side::White] {
            if !self.online.contains_key(room.name(side)) {
                room.left(side, now_ms);
            }
        }
        tracing::info!(
            game,
            black,
            white,
            board = %dims,
            clock = clock.map(|c| c.to_string()),
            rated,
            "game started"
        );
        if let Some(of) = rematch_of
            && let Err(e) = self.store.set_rematch_of(game, of)
        {
            tracing::error!("game {game}: {e:#}");
        }
        let start = room.events_after(0).to_vec();
        self.broadcast(game, &room, &start);
        self.rooms.insert(game, room);
        self.tell_away(game, now_ms);
        self.lobby_changed = true;
        Some(game)
    }

    /// `name` offers (or, if the opponent offered, accepts) a rematch of the finished game `game`.
    fn rematch(&mut self, conn: &Conn, name: &str, game: u64, now_ms: u64) {
        let Some(g) = self
            .finished(game)
            .filter(|g| g.black == name || g.white == name)
        else {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("you played no finished game {game}"),
                Some(game),
            ));
        };
        let opponent = if g.black == name { &g.white } else { &g.black };
        match self.rematches.get(&game).map(|o| o.from.as_str()) {
            Some(offerer) if offerer == opponent => {
                self.rematches.remove(&game);
                self.forget_offer(game);
                let Ok(dims) = g.board.parse::<nocca::Dims>() else {
                    return conn.send(&error(
                        ErrorCode::Internal,
                        "a kept board is unreadable",
                        None,
                    ));
                };
                // Colours swapped.
                if self
                    .start_room(
                        &g.white,
                        &g.black,
                        dims,
                        g.clock,
                        g.rated,
                        Some(game),
                        now_ms,
                    )
                    .is_none()
                {
                    conn.send(&error(
                        ErrorCode::Internal,
                        "the server's store failed",
                        None,
                    ));
                }
            }
            Some(_) => conn.send(&error(
                ErrorCode::Conflict,
                format!("you already offered a rematch of game {game}"),
                Some(game),
            )),
            None => {
                if !self.online.contains_key(opponent.as_str()) {
                    return conn.send(&error(
                        ErrorCode::NotFound,
                        format!("{opponent} is not online"),
                        Some(game),
                    ));
                }
                let offer = Offer {
                    from: name.to_string(),
                    expires_unix_ms: self.unix_at(now_ms).saturating_add(REMATCH_OFFER_MS),
                    absent_since: None,
                };
                if let Err(e) = self.store.offer_put(&RematchOffer {
                    game,
                    from: name.to_string(),
                    expires_unix_ms: offer.expires_unix_ms,
                }) {
                    tracing::error!("rematch offer of game {game}: {e:#}");
                }
                self.rematches.insert(game, offer);
                self.tell(
                    opponent,
                    &ServerMessage::RematchOffered {
                        game,
                        from: name.to_string(),
                    },
                );
            }
        }
    }

    /// `name` watches `game` from after event `after`: a live game's events go on coming; a finished game's are
    /// sent once.
    fn watch(&mut self, conn: &Conn, name: &str, game: u64, after: u64) {
        if let Some(room) = self.rooms.get(&game) {
            conn.send(&ServerMessage::Watching {
                game,
                last_event: room.last_event(),
            });
            for event in room.events_after(after) {
                conn.send(&ServerMessage::Event {
                    game,
                    event: event.clone(),
                });
            }
            self.watchers
                .entry(game)
                .or_default()
                .insert(conn.id, (name.to_string(), conn.clone()));
            self.lobby_changed = true;
            return;
        }
        let Some(room) = self.finished(game).and_then(|g| replay(&g)) else {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("no game {game}"),
                Some(game),
            ));
        };
        conn.send(&ServerMessage::Watching {
            game,
            last_event: room.last_event(),
        });
        for event in room.events_after(after) {
            conn.send(&ServerMessage::Event {
                game,
                event: event.clone(),
            });
        }
    }

    /// The finished game `game` of `name`'s, rebuilt from the database with its events.
    fn kept(&self, name: &str, game: u64) -> Option<Room> {
        self.finished(game)
            .filter(|g| g.black == name || g.white == name)
            .and_then(|g| replay(&g))
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
        let dims = match game_terms(board, clock) {
            Ok(d) => d,
            Err(e) => return conn.send(&e),
        };
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
        let (from, to, dims, clock, rated) =
            (c.from.clone(), c.to.clone(), c.dims, c.clock, c.rated);
        if self
            .start_room(&from, &to, dims, clock, rated, None, now_ms)
            .is_none()
        {
            return conn.send(&error(
                ErrorCode::Internal,
                "the server's store failed",
                None,
            ));
        }
        self.challenges.remove(&challenge);
    }
}

/// A finished game rebuilt by the referee from what is kept of it, its events with the clocks kept with its moves
/// (logged if it does not rebuild).
fn replay(g: &FinishedGame) -> Option<Room> {
    let dims = g.board.parse().ok()?;
    let setup = Setup {
        clock: g.clock,
        rated: g.rated,
        ratings: g
            .ratings
            .map_or([Rating::NEW; 2], |r| [r.black.before, r.white.before]),
        ..Setup::casual(dims, &g.black, &g.white, 0)
    };
    if let Some(times) = &g.times
        && times.len() != g.moves.split_whitespace().count()
    {
        tracing::error!(
            "game {}: its move times do not match its moves (sent again without them)",
            g.id
        );
    }
    match Room::replayed_from(setup, &g.moves, g.result, g.ratings, g.times.as_deref()) {
        Ok(room) => Some(room),
        Err(e) => {
            tracing::error!("game {} as kept: {e}", g.id);
            None
        }
    }
}

/// A seat's place in the queue as shown at `now_unix_ms`.
fn queue_entry(seat: &Seat, now_unix_ms: u64) -> QueueEntry {
    let waited_ms = now_unix_ms.saturating_sub(seat.joined_unix_ms);
    QueueEntry {
        board: seat.dims.to_string(),
        clock: seat.clock,
        waited_ms,
        band: queue_band(waited_ms),
    }
}

fn record_of(g: FinishedGame) -> GameRecord {
    GameRecord {
        format: parlor_online::protocol::RECORD_FORMAT,
        game: g.id,
        black: g.black,
        white: g.white,
        board: g.board,
        clock: g.clock,
        rated: g.rated,
        moves: g.moves,
        winner: g.result.winner,
        reason: g.result.reason,
        position: g.position,
        started_ms: g.started_ms,
        ended_ms: g.ended_ms,
        ratings: g.ratings,
        times: g.times,
    }
}

fn summary_of(g: FinishedGame) -> GameSummary {
    GameSummary {
        game: g.id,
        black: g.black,
        white: g.white,
        board: g.board,
        rated: g.rated,
        winner: g.result.winner,
        reason: g.result.reason,
        ended_ms: g.ended_ms,
    }
}

/// The store's word for a daily board.
fn board_word(board: Board) -> &'static str {
    match board {
        Board::Plain => "plain",
        Board::Assisted => "assisted",
    }
}

/// The pegs of the day's Mastermind (a guess with as many black pegs solved it).
fn mastermind_variant_pegs() -> u8 {
    daily::mastermind_variant().pegs()
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

/// A game's board and time control as asked (a challenge or the queue): the board's dimensions, or the error to send.
fn game_terms(board: &str, clock: Option<TimeControl>) -> Result<nocca::Dims, Box<ServerMessage>> {
    let dims = board
        .parse::<nocca::Dims>()
        .map_err(|e| Box::new(error(ErrorCode::BadBoard, e.to_string(), None)))?;
    if let Some(Err(e)) = clock.map(TimeControl::check) {
        return Err(Box::new(error(ErrorCode::BadClock, e, None)));
    }
    Ok(dims)
}
