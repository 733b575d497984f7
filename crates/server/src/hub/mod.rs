//! The server's state and what each client message does to it: who is online (each player with every connection
//! they have open: two tabs, a phone and a laptop), open challenges, the rated queue, rematch offers, spectators,
//! and the games in play, each a referee [`Room`](parlor_online::referee::Room). The hub is held under one lock and never waits: messages go out
//! through each connection's unbounded queue, and the store is asked by channel ([`Pool`]), never called under the
//! lock. By topic, as lichess's lila-ws splits its server: [`connections`] (hello, gone, sending), [`lobby`]
//! (challenges and the lobby), [`queue`] (the rated queue), [`rooms`] (games in play), [`rematch`], [`watch`]
//! (spectators, and finished games sent again), [`daily`] (the daily challenges, which need the store alone).
//!
//! **Written before told.** What the players are owed is written before anyone is told of it: a game's start, each
//! move's progress and its end go to the store's writer in the order they happened ([`Pool::write_then`]), and the
//! events they make are sent to the players and watchers only once their write is done ([`Hub::done`]); until then a
//! game's events past the last one written are sent to nobody (not to a connection that resumes or watches it
//! meanwhile either). A rated game's new ratings are the hub's at once (it keeps the ratings of the players it
//! knows, [`Hub::exact`]) and the store's in the same transaction as the game's end. A place in the queue, a
//! rematch offer and their withdrawals are acknowledged (`queued`, `unqueued`, `rematch_offered`,
//! `rematch_declined`) once written the same way. Reads the hub does not hold (finished games, records, the
//! dailies) are answered by the connection from the store's readers, outside the lock. A slow write thus delays
//! only the news that waits for it: every other connection goes on being answered.
//!
//! What is kept where: games, the queue and rematch offers are in the store as well as here, so a server killed and
//! started again has them back (a queued player or an offerer not back within the grace period is dropped from
//! them); open challenges and what a connection follows (the lobby, games watched) belong to the connection and end
//! with it: a client asks for them again when it connects again.

mod across;
mod away;
mod connections;
mod daily;
mod lobby;
mod nodes;
mod past;
mod queue;
mod ranked;
mod relay;
mod rematch;
mod rooms;
mod watch;

pub use across::heard;
pub use connections::{hello, register};
pub use nodes::BLOCK;
pub use queue::queue_band;
pub use relay::{refresh, started_elsewhere, take_forwarded};

use crate::Shared;
use crate::limit::{self, Bucket};
use crate::metrics::{HubCounts, Metrics};
use crate::rating::{self, Exact};
use crate::store::{self, Pool, Store, StoreError};
use connections::Link;
use lobby::Challenge;
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use parlor_online::referee::RefereeError;
use queue::Seat;
use rematch::Offer;
use rooms::Live;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
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
    /// The address it comes from (for the caps per address, [`crate::caps`]).
    pub ip: IpAddr,
    /// The server's measures (each refusal sent is counted).
    pub metrics: Arc<Metrics>,
}

impl Conn {
    /// Sends `msg`; an error is logged and counted as a refusal of its code.
    pub fn send(&self, msg: &ServerMessage) {
        if let ServerMessage::Error { code, .. } = msg {
            self.refuse_as(&format!("{code:?}"), msg);
            return;
        }
        // A connection whose writer has ended is being torn down; its player is told nothing more.
        let _ = self.tx.send(Outgoing::Text(msg.to_text()));
    }

    /// Sends the error `msg`, logged and counted as a refusal of kind `kind` (a cap's own, say, rather than the
    /// error's code).
    pub fn refuse_as(&self, kind: &str, msg: &ServerMessage) {
        if let ServerMessage::Error {
            code,
            message,
            game,
        } = msg
        {
            tracing::warn!(conn = self.id, ?code, ?game, kind, "refused: {message}");
        }
        self.metrics.refused(kind);
        let _ = self.tx.send(Outgoing::Text(msg.to_text()));
    }
}

/// What the hub does once a write it asked for is done ([`Hub::done`]).
#[derive(Debug)]
pub enum After {
    /// Nothing more.
    Nothing,
    /// A game's events through number `through` are kept: they go out.
    Events {
        /// The game.
        game: u64,
        /// Its last event kept.
        through: u64,
    },
    /// A game's start is kept (its events through `through` go out), or not: then it does not start.
    Started {
        /// The game.
        game: u64,
        /// Its last event kept.
        through: u64,
        /// When it started (hub time): a player away then is said to be, with the grace left as of it.
        at: u64,
    },
    /// A game's end is kept: its last events go out and its room goes. If the write failed, the players' ratings
    /// are put back as they were (`before`).
    Ended {
        /// The game.
        game: u64,
        /// Its last event.
        through: u64,
        /// Both players' ratings before the game, if it changed them.
        before: Option<[(String, Exact); 2]>,
    },
    /// Tell a player (each of their connections open then).
    Tell {
        /// The player.
        name: String,
        /// What they are told.
        msg: Box<ServerMessage>,
    },
    /// Tell a player wherever they are online: here, and on the other nodes.
    Relay {
        /// The player.
        name: String,
        /// What they are told.
        msg: Box<ServerMessage>,
    },
}

/// A write done: what it was (for the log), how it went, and what follows.
#[derive(Debug)]
pub struct Done {
    what: String,
    result: Result<(), StoreError>,
    after: After,
}

/// What the hub holds when it starts: read from the store before the server serves.
struct Kept {
    secret: Option<String>,
    last_game: u64,
    /// Whether the store is shared by several nodes ([`Store::join_nodes`]), and this node's first block of game
    /// numbers.
    nodes: Option<std::ops::Range<u64>>,
    /// This node's name, if it is one.
    node: Option<String>,
    games: Vec<store::LiveGame>,
    queue: Vec<store::QueuedPlayer>,
    /// Each offer with the players of its game (none if the game is not found).
    offers: Vec<(store::RematchOffer, Option<[String; 2]>)>,
    ratings: HashMap<String, Exact>,
}

/// Everything the server holds in memory.
pub struct Hub {
    store: Pool,
    /// Where the store's writer says a write is done.
    done_tx: UnboundedSender<Done>,
    grace_ms: u64,
    first_move_ms: u64,
    /// Every player online with each of their open connections (never an empty list).
    online: HashMap<String, Vec<Link>>,
    /// The exact ratings of every player online, in a game, queued or offering a rematch: the hub's are the
    /// latest (the store's may not have a game's end yet).
    ratings: HashMap<String, Exact>,
    challenges: HashMap<u64, Challenge>,
    rooms: HashMap<u64, Live>,
    next_challenge: u64,
    /// The last game number given.
    last_game: u64,
    /// Whether this server is one node of several on its database ([`crate::nodes`]): its games are leased, and
    /// numbered from blocks the store gives it.
    nodes: bool,
    /// The game numbers reserved for this node, not yet given.
    numbers: std::collections::VecDeque<u64>,
    /// A node's queued players whose place the store no longer had (paired by another node, whose game's start
    /// may not be heard yet), and when (hub time).
    unseated: HashMap<String, u64>,
    queue: Vec<Seat>,
    /// Rematch offers, by finished game.
    rematches: HashMap<u64, Offer>,
    /// The connections watching each live game (by connection number, with the watcher's name).
    watchers: HashMap<u64, HashMap<u64, (String, Conn)>>,
    /// The games refereed by other nodes that connections here follow.
    mirrors: HashMap<u64, relay::Mirror>,
    /// This node's name among the nodes on its database (empty for a server alone).
    node: String,
    /// The players online on other nodes, as last read (by name): each one's lobby line and their nodes.
    present: HashMap<String, (parlor_online::protocol::PlayerInfo, Vec<String>)>,
    /// The challenges to or from players here held by other nodes, as told (by number).
    remote_challenges: HashMap<u64, parlor_online::protocol::ChallengeInfo>,
    /// The rematch offers to players here held by other nodes, as told (by finished game).
    remote_offers: HashMap<u64, across::OfferElsewhere>,
    /// The players of games refereed here who follow them on another node (by game): not away while there.
    remote: std::collections::HashSet<(u64, String)>,
    /// The Unix time, in milliseconds, of this hub's time 0.
    start_unix_ms: u64,
    /// The milliseconds the server was stopped since then, which its time leaves out ([`crate::runclock`]).
    stopped_ms: u64,
    /// Each player's rate limit over all their connections.
    buckets: HashMap<String, Bucket>,
    lobby_changed: bool,
    lobby_pushed_ms: u64,
    /// The server's measures (moves accepted and their round trips).
    metrics: Arc<Metrics>,
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

/// The error a client is sent when the store fails (the failure itself is logged).
fn store_failed() -> ServerMessage {
    error(ErrorCode::Internal, "the server's store failed", None)
}

impl Hub {
    /// A hub over a store, with what it keeps read back (the games in play, the queue, the rematch offers); a player
    /// gone longer than `grace_ms` loses their games, and a side that does not make its first move within
    /// `first_move_ms` aborts its game. The writes it asks for say they are done on `done_tx` (for
    /// [`Hub::done`]). Returns the hub and the server's secret for the daily seeds (none if the store could not
    /// give it: the dailies are then refused). Its moves accepted and their round trips are counted in `metrics`.
    pub async fn load(
        store: Pool,
        done_tx: UnboundedSender<Done>,
        grace_ms: u64,
        first_move_ms: u64,
        metrics: Arc<Metrics>,
    ) -> Result<(Hub, Option<String>), StoreError> {
        let kept = store.write(read_kept).await?;
        let secret = kept.secret.clone();
        let mut hub = Hub {
            store,
            done_tx,
            grace_ms,
            first_move_ms,
            online: HashMap::new(),
            ratings: kept.ratings,
            challenges: HashMap::new(),
            rooms: HashMap::new(),
            next_challenge: 1,
            last_game: kept.last_game,
            nodes: kept.nodes.is_some(),
            numbers: kept.nodes.unwrap_or_default().collect(),
            unseated: HashMap::new(),
            queue: Vec::new(),
            rematches: HashMap::new(),
            watchers: HashMap::new(),
            mirrors: HashMap::new(),
            node: kept.node.unwrap_or_default(),
            present: HashMap::new(),
            remote_challenges: HashMap::new(),
            remote_offers: HashMap::new(),
            remote: std::collections::HashSet::new(),
            start_unix_ms: store::now_unix_ms(),
            stopped_ms: 0,
            buckets: HashMap::new(),
            lobby_changed: false,
            lobby_pushed_ms: 0,
            metrics,
        };
        hub.resume_games(kept.games, 0);
        // A node's queue and offers are its own players' (the kept ones may be other nodes' players'): a node
        // starts with none.
        if !hub.nodes {
            hub.restore_queue(kept.queue);
            hub.restore_offers(kept.offers);
        }
        Ok((hub, secret))
    }

    /// Asks the store's writer for `call` (`what` names it in the log if it fails); once it is done, [`Hub::done`]
    /// does `after`.
    fn write<F>(&self, what: String, call: F, after: After)
    where
        F: FnOnce(&mut dyn Store) -> Result<(), StoreError> + Send + 'static,
    {
        let done = self.done_tx.clone();
        self.store.write_then(call, move |result| {
            // The hub gone (the server stopped), nobody is left to tell.
            let _ = done.send(Done {
                what,
                result,
                after,
            });
        });
    }

    /// A write asked for is done: what waited for it follows.
    pub fn done(&mut self, done: Done) {
        let ok = match &done.result {
            Ok(()) => true,
            Err(e) => {
                tracing::error!("{}: {e}", done.what);
                false
            }
        };
        match done.after {
            After::Nothing => {}
            // A node whose write failed (its lease lost, or the database cut off) referees the game no more: its
            // events past the last kept are sent to nobody, and another node takes it from the store.
            After::Events { game, .. } if !ok && self.nodes => self.let_go(game),
            After::Ended { game, before, .. } if !ok && self.nodes => {
                self.put_back(before);
                self.let_go(game);
            }
            After::Events { game, through } => self.show(game, through),
            After::Started { game, through, at } => {
                if ok {
                    self.show(game, through);
                    self.tell_away(game, at);
                } else {
                    self.not_started(game);
                }
            }
            After::Ended {
                game,
                through,
                before,
            } => {
                if !ok {
                    self.put_back(before);
                }
                self.show(game, through);
                self.close_room(game);
            }
            After::Tell { name, msg } => self.tell(&name, &msg),
            After::Relay { name, msg } => self.tell_anywhere(&name, &msg),
        }
    }

    /// Puts back the players' ratings from before a game whose end could not be kept.
    fn put_back(&mut self, before: Option<[(String, Exact); 2]>) {
        for (name, exact) in before.into_iter().flatten() {
            self.ratings.insert(name, exact);
        }
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

    /// Whether `name` may send another message at `now_ms` (their bucket over all their connections).
    pub fn allow(&mut self, name: &str, now_ms: u64) -> bool {
        self.buckets
            .entry(name.to_string())
            .or_insert_with(|| Bucket::new(limit::PER_PLAYER, now_ms))
            .take(now_ms)
    }

    /// A player's exact rating as the hub knows it (a new player's if it does not, which it always does for a
    /// player online, in a game, queued or offering).
    fn exact(&self, name: &str) -> Exact {
        self.ratings
            .get(name)
            .copied()
            .unwrap_or_else(rating::new_player)
    }

    /// Forgets `name`'s rating if the hub needs it no more (they are not online, in a game, queued or offering):
    /// the store has it, every game's end that changed it written.
    fn forget_rating(&mut self, name: &str) {
        let needed = self.online.contains_key(name)
            || self.rooms.values().any(|l| l.room.side_of(name).is_some())
            || self.queue.iter().any(|s| s.name == name)
            || self.rematches.values().any(|o| o.from == name);
        if !needed {
            self.ratings.remove(name);
        }
    }

    /// The players online and the games in play, for the metrics.
    pub fn counts(&self) -> HubCounts {
        HubCounts {
            players_online: self.online.len(),
            games_in_play: self.rooms.len(),
        }
    }

    /// Every connection online (to close them when the server stops).
    pub fn connections(&self) -> Vec<Conn> {
        self.online
            .values()
            .flatten()
            .map(|l| l.conn.clone())
            .collect()
    }

    /// Ends the games of players gone past the grace period at `now_ms`, drops the places in the queue and the
    /// offers held past it, pairs the queue, lets the events of new connections' games flow, and pushes the lobby.
    pub fn tick(&mut self, now_ms: u64) {
        self.tick_rooms(now_ms);
        self.tick_queue(now_ms);
        self.tick_offers(now_ms);
        self.pair(now_ms);
        self.tick_catch_up(now_ms);
        self.push_lobby(now_ms);
    }

    /// A message from the player `name` on `conn`, arrived at `now_ms`. Returns the message back if it is answered
    /// from the store rather than from the hub ([`answer`]: records, the dailies, finished games).
    pub fn handle(
        &mut self,
        conn: &Conn,
        name: &str,
        msg: ClientMessage,
        now_ms: u64,
    ) -> Option<ClientMessage> {
        // A connection acting in a game whose events wait for it gets them first.
        match &msg {
            ClientMessage::Move { game, .. }
            | ClientMessage::Resign { game }
            | ClientMessage::Ack { game, .. } => self.catch_up(name, conn.id, *game, false),
            ClientMessage::Resume { game, .. } => self.catch_up(name, conn.id, *game, true),
            _ => {}
        }
        // A move or resignation in a game another node referees is passed to it, outside the lock; a node's
        // challenge is numbered by the store first.
        if let ClientMessage::Move { game, .. } | ClientMessage::Resign { game } = &msg
            && self.nodes
            && !self.rooms.contains_key(game)
        {
            return Some(msg);
        }
        if matches!(msg, ClientMessage::Challenge { .. }) && self.nodes {
            return Some(msg);
        }
        match msg {
            ClientMessage::Hello { .. } | ClientMessage::Register { .. } => conn.send(&error(
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
            } => self.challenge(conn, name, &opponent, &board, clock, rated, None),
            ClientMessage::Accept { challenge } => self.accept(conn, name, challenge, now_ms),
            ClientMessage::Decline { challenge } => self.close(conn, name, challenge, false),
            ClientMessage::Cancel { challenge } => self.close(conn, name, challenge, true),
            ClientMessage::Lobby { follow } => self.follow_lobby(conn, name, follow, now_ms),
            ClientMessage::Move { game, seq, mv } => self.play(conn, name, game, seq, &mv, now_ms),
            ClientMessage::Resign { game } => self.resign(conn, name, game),
            ClientMessage::Ack { game, event } => {
                if !self.ack(conn, name, game, event) {
                    return Some(ClientMessage::Ack { game, event });
                }
            }
            ClientMessage::Resume { game, after } => {
                if !self.resume(conn, name, game, after) {
                    return Some(ClientMessage::Resume { game, after });
                }
            }
            ClientMessage::Queue { board, clock } => {
                self.join_queue(conn, name, &board, clock, now_ms)
            }
            ClientMessage::Unqueue {} => self.unqueue(name),
            ClientMessage::DeclineRematch { game } => self.decline_rematch(conn, name, game),
            ClientMessage::Watch { game, after } => {
                if !self.watch(conn, name, game, after) {
                    return Some(ClientMessage::Watch { game, after });
                }
                self.tell_watcher_away(conn, game, now_ms);
            }
            ClientMessage::Unwatch { game } => self.unwatch(conn, game),
            msg @ (ClientMessage::Rematch { .. }
            | ClientMessage::Record { .. }
            | ClientMessage::Games { .. }
            | ClientMessage::Daily2048 {}
            | ClientMessage::Submit2048 { .. }
            | ClientMessage::Ranked2048 {}
            | ClientMessage::Slide2048 { .. }
            | ClientMessage::DailyMastermind {}
            | ClientMessage::Guess { .. }
            | ClientMessage::PastDay { .. }
            | ClientMessage::Leaderboard { .. }) => return Some(msg),
        }
        None
    }
}

/// Answers a message of `name`'s on `conn` that the hub left to the store ([`Hub::handle`]): read (or written)
/// outside the hub's lock, then, for a rematch, back to the hub.
pub async fn answer(shared: &Shared, conn: &Conn, name: &str, msg: ClientMessage) {
    match msg {
        ClientMessage::Rematch { game } => {
            let finished = watch::finished(shared, game).await;
            let now = shared.now_ms();
            shared.hub().rematch(conn, name, game, finished, now);
        }
        ClientMessage::Ack { game, event } => {
            watch::ack_finished(shared, conn, name, game, event).await
        }
        ClientMessage::Resume { game, after } => {
            if !relay::follow_elsewhere(shared, conn, name, game, after, false).await {
                watch::resume_finished(shared, conn, name, game, after).await
            }
        }
        ClientMessage::Watch { game, after } => {
            if !relay::follow_elsewhere(shared, conn, name, game, after, true).await {
                watch::watch_finished(shared, conn, game, after).await
            }
        }
        ClientMessage::Move { game, .. } | ClientMessage::Resign { game } => {
            relay::forward(shared, conn, name, game, msg).await
        }
        ClientMessage::Challenge {
            opponent,
            board,
            clock,
            rated,
        } => match shared.store.write(|s| s.challenge_number()).await {
            Ok(number) => shared
                .hub()
                .challenge(conn, name, &opponent, &board, clock, rated, number),
            Err(e) => {
                tracing::error!("numbering a challenge of {name}'s: {e}");
                conn.send(&store_failed());
            }
        },
        ClientMessage::Record { game } => watch::record(shared, conn, game).await,
        ClientMessage::Games { player } => watch::games(shared, conn, player).await,
        other => daily::answer(shared, conn, name, other).await,
    }
}

/// Reads what a hub starting over `store` holds.
fn read_kept(store: &mut dyn Store) -> Result<Kept, StoreError> {
    let secret = store
        .secret()
        .map_err(|e| tracing::error!("the daily challenges' secret: {e}"))
        .ok();
    let last_game = store.last_game_id()?;
    let nodes = if store.join_nodes()? {
        Some(
            store
                .reserve_game_ids(nodes::BLOCK)?
                .unwrap_or(last_game + 1..last_game + 1),
        )
    } else {
        None
    };
    // A node referees only the games whose lease it takes; a server alone, every game in play.
    let in_play = if nodes.is_some() {
        store.take_leases()
    } else {
        store.games_in_play()
    };
    let games = in_play.unwrap_or_else(|e| {
        tracing::error!("reading the games in play: {e}");
        Vec::new()
    });
    let queue = store.queue().unwrap_or_else(|e| {
        tracing::error!("reading the queue: {e}");
        Vec::new()
    });
    let offers = match store.offers() {
        Ok(offers) => offers
            .into_iter()
            .map(|o| {
                let players = store
                    .finished_game(o.game)
                    .map_err(|e| tracing::error!("reading game {}: {e}", o.game))
                    .ok()
                    .flatten()
                    .map(|g| [g.black, g.white]);
                (o, players)
            })
            .collect(),
        Err(e) => {
            tracing::error!("reading the rematch offers: {e}");
            Vec::new()
        }
    };
    let mut ratings = HashMap::new();
    let names = games
        .iter()
        .flat_map(|g| [g.black.clone(), g.white.clone()])
        .chain(queue.iter().map(|q| q.name.clone()))
        .chain(offers.iter().map(|(o, _)| o.from.clone()));
    for name in names {
        if let std::collections::hash_map::Entry::Vacant(entry) = ratings.entry(name) {
            let exact = store.rating(entry.key()).unwrap_or_else(|e| {
                tracing::error!("rating of {}: {e}", entry.key());
                rating::new_player()
            });
            entry.insert(exact);
        }
    }
    Ok(Kept {
        secret,
        last_game,
        node: store.node_name(),
        nodes,
        games,
        queue,
        offers,
        ratings,
    })
}

/// The error a referee's refusal in `game` is sent as.
fn referee_error(e: RefereeError, game: u64) -> ServerMessage {
    let code = match e {
        RefereeError::GameOver => ErrorCode::GameOver,
        RefereeError::NotYourTurn(_) => ErrorCode::NotYourTurn,
        RefereeError::Unreadable { .. } | RefereeError::Illegal { .. } => ErrorCode::IllegalMove,
        RefereeError::Inconsistent => ErrorCode::Internal,
    };
    error(code, e.to_string(), Some(game))
}
