//! Connections: a player's `hello` (their token checked by the store outside the hub's lock, then their
//! connection joined to the ones they have open), a connection gone, and sending to a player's connections and to
//! a game's players and watchers.

use super::{Conn, Hub, Outgoing, error, store_failed};
use crate::Shared;
use crate::rating;
use crate::store::{LiveGame, Login, now_unix_ms};
use parlor_online::protocol::{
    ErrorCode, Event, GameInPlay, ServerMessage, check_name, check_token,
};
use std::collections::HashMap;

/// How long a new connection's games wait for it to resume them before their events are sent to it anyway.
pub const CATCH_UP_MS: u64 = 1000;

/// One open connection of a player online.
pub(super) struct Link {
    pub(super) conn: Conn,
    /// Whether this connection follows the lobby.
    pub(super) follows: bool,
    /// The player's games in play when this connection said `hello`, whose events it is not sent yet: by game, the
    /// last event `welcome` told it of, and when. A game's events flow to it from when it resumes that game (from
    /// the event it asks), acts in it, or [`CATCH_UP_MS`] later (from the event `welcome` told it of), so that a
    /// client resuming from an older event gets the events it missed before the new ones.
    pub(super) waiting: HashMap<u64, (u64, u64)>,
}

/// A connection's first message, `hello`: the player's name and token, checked (a new name registered) by the
/// store. Returns the name on success (and has answered `welcome`); on failure the connection has been sent the
/// error.
pub async fn hello(shared: &Shared, conn: &Conn, name: &str, token: &str) -> Option<String> {
    if let Err(e) = check_name(name) {
        conn.send(&error(ErrorCode::BadName, e.to_string(), None));
        return None;
    }
    if let Err(e) = check_token(token) {
        conn.send(&error(ErrorCode::BadToken, e.to_string(), None));
        return None;
    }
    // A known player is read (beside any write going on); only a new name waits for the writer.
    let (n, t) = (name.to_string(), token.to_string());
    let known = shared
        .store
        .read(move |s| Ok((s.check_login(&n, &t)?, s.rating(&n)?)))
        .await;
    let found = match known {
        Ok((Some(login), exact)) => Ok((login, exact)),
        Ok((None, _)) => new_name(shared, conn, name, token).await?,
        Err(e) => Err(e),
    };
    let exact = logged_in(conn, name, found)?;
    welcome(shared, conn, name, exact).await;
    Some(name.to_string())
}

/// A connection's first message, `register`: a new name, given a token the server makes. Returns the name on
/// success (and has sent `registered` with the token, once the store has kept its hash, then `welcome`); on failure
/// the connection has been sent the error.
pub async fn register(shared: &Shared, conn: &Conn, name: &str) -> Option<String> {
    if let Err(e) = check_name(name) {
        conn.send(&error(ErrorCode::BadName, e.to_string(), None));
        return None;
    }
    let token = match crate::token::issue() {
        Ok(t) => t,
        Err(e) => {
            tracing::error!("registering {name}: {e}");
            conn.send(&error(
                ErrorCode::Internal,
                "the server could not make a token",
                None,
            ));
            return None;
        }
    };
    let found = match new_name(shared, conn, name, &token).await? {
        // A name already registered: its token is not this new one.
        Ok((Login::Known, exact)) => Ok((Login::WrongToken, exact)),
        other => other,
    };
    let exact = logged_in(conn, name, found)?;
    conn.send(&ServerMessage::Registered {
        name: name.to_string(),
        token,
    });
    welcome(shared, conn, name, exact).await;
    Some(name.to_string())
}

/// Welcomes `name` on `conn` ([`Hub::welcome`]): on a node, with their games in play refereed by other nodes too
/// (read from the store), which the connection follows from then on.
async fn welcome(shared: &Shared, conn: &Conn, name: &str, exact: rating::Exact) {
    let elsewhere = if shared.hub().is_node() {
        let n = name.to_string();
        shared
            .store
            .read(move |s| s.games_in_play_of(&n))
            .await
            .unwrap_or_else(|e| {
                tracing::error!("the games in play of {name}: {e}");
                Vec::new()
            })
    } else {
        Vec::new()
    };
    let now = shared.now_ms();
    shared.hub().welcome(conn, name, exact, elsewhere, now);
}

/// A name not known yet, registered with `token` on the store's writer: one of its address's registrations this
/// hour ([`crate::caps`]), given back if the name is not registered after all. None if the cap refused it (the
/// connection has been told).
async fn new_name(
    shared: &Shared,
    conn: &Conn,
    name: &str,
    token: &str,
) -> Option<Result<(Login, rating::Exact), crate::store::StoreError>> {
    let at = shared.now_ms();
    if !shared.caps.register(conn.ip, at) {
        conn.refuse_as(
            "RegistrationCap",
            &error(
                ErrorCode::RateLimited,
                format!(
                    "too many new names from your address: at most {} an hour (say hello with a name already registered, or try later)",
                    shared.caps.max_registrations()
                ),
                None,
            ),
        );
        return None;
    }
    let (n, t) = (name.to_string(), token.to_string());
    let written = shared
        .store
        .write(move |s| Ok((s.login(&n, &t)?, s.rating(&n)?)))
        .await;
    if !matches!(written, Ok((Login::Registered, _))) {
        shared.caps.unregister(conn.ip, at);
    }
    Some(written)
}

/// What a login found, for `name` on `conn`: the player's rating if they are in, else none (the connection has been
/// sent why).
fn logged_in(
    conn: &Conn,
    name: &str,
    found: Result<(Login, rating::Exact), crate::store::StoreError>,
) -> Option<rating::Exact> {
    match found {
        Ok((Login::Known | Login::Registered, exact)) => Some(exact),
        Ok((Login::CaseVariant, _)) => {
            conn.send(&error(
                ErrorCode::BadName,
                format!(
                    "the name {name} is taken: it differs only in case from a registered name (names are told apart without case)"
                ),
                None,
            ));
            None
        }
        Ok((Login::WrongToken, _)) => {
            conn.send(&error(
                ErrorCode::BadName,
                format!("the name {name} is taken"),
                None,
            ));
            None
        }
        Err(e) => {
            tracing::error!("login of {name}: {e}");
            conn.send(&store_failed());
            None
        }
    }
}

impl Hub {
    /// `name`, whose token the store took, on `conn` at `now_ms` with `exact` the store's rating of theirs (the
    /// hub's own, if it has one, is the newer): joins the player's open connections and is told `welcome` (with
    /// their games in play `elsewhere`, refereed by other nodes, which the connection follows from then on), their
    /// place in the queue and the rematch offers made to them.
    pub fn welcome(
        &mut self,
        conn: &Conn,
        name: &str,
        exact: rating::Exact,
        elsewhere: Vec<LiveGame>,
        now_ms: u64,
    ) {
        tracing::info!(conn = conn.id, name, "hello");
        self.ratings.entry(name.to_string()).or_insert(exact);
        // Another connection of the same player (a second tab, a phone) joins the ones already open: each gets
        // the player's events from now on.
        let waiting: HashMap<u64, (u64, u64)> = self
            .rooms
            .iter()
            .filter(|(_, l)| l.room.side_of(name).is_some())
            .map(|(&g, l)| (g, (l.shown, now_ms)))
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
        for (&game, live) in self.rooms.iter() {
            if let Some(side) = live.room.side_of(name) {
                games.push(GameInPlay {
                    game,
                    side,
                    opponent: live.room.name(side.other()).to_string(),
                    last_event: live.shown,
                });
            }
        }
        let mut followed = Vec::new();
        for g in elsewhere.iter().filter(|g| !self.rooms.contains_key(&g.id)) {
            let Some(room) = self.rebuild(g, now_ms) else {
                continue;
            };
            if let Some(side) = room.side_of(name) {
                games.push(GameInPlay {
                    game: g.id,
                    side,
                    opponent: room.name(side.other()).to_string(),
                    last_event: room.last_event(),
                });
                followed.push((g.id, room));
            }
        }
        games.sort_by_key(|g| g.game);
        conn.send(&ServerMessage::Welcome {
            name: name.to_string(),
            rating: rating::shown(&self.exact(name)),
            games,
        });
        // Their events from now on (the client resumes from what it has).
        for (game, room) in followed {
            let after = room.last_event();
            self.follow(conn, name, game, room, after, false);
        }
        self.player_back(conn, name, now_ms);
        // The player's place in the queue and the rematch offers they made, held while they were away, are theirs
        // again; this connection is told of its place and of the offers made to them.
        let now_unix = now_unix_ms();
        for seat in self.queue.iter_mut().filter(|s| s.name == name) {
            seat.absent_since = None;
            conn.send(&ServerMessage::Queued {
                entry: super::queue::queue_entry(seat, now_unix),
            });
        }
        let mut offered_to: Vec<(u64, String)> = Vec::new();
        for (&game, offer) in self.rematches.iter_mut() {
            if offer.from == name {
                offer.absent_since = None;
            } else if offer.players.iter().any(|p| p == name) {
                offered_to.push((game, offer.from.clone()));
            }
        }
        offered_to.extend(self.offers_elsewhere_to(name));
        offered_to.sort();
        for (game, from) in offered_to {
            conn.send(&ServerMessage::RematchOffered { game, from });
        }
    }

    /// A connection of `name` ended at `now_ms`: what it watched ends with it; if it was their last one, they are
    /// gone: their challenges close, and their seats in games, their place in the queue and their rematch offers
    /// are held for the grace period.
    pub fn gone(&mut self, name: &str, conn_id: u64, now_ms: u64) {
        self.unfollow(conn_id, None);
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
        self.left_here(name);
        for seat in self.queue.iter_mut().filter(|s| s.name == name) {
            seat.absent_since = Some(now_ms);
        }
        for offer in self.rematches.values_mut().filter(|o| o.from == name) {
            offer.absent_since = Some(now_ms);
        }
        self.player_away(name, now_ms);
        self.forget_rating(name);
    }

    /// Sends `msg` to every connection of `name` (none if they are not online).
    pub(super) fn tell(&self, name: &str, msg: &ServerMessage) {
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

    /// Sends a game's new events to both its players (each connection not waiting for it) and everyone watching
    /// it.
    pub(super) fn broadcast(&self, game: u64, players: [&str; 2], events: &[Event]) {
        for event in events {
            let msg = ServerMessage::Event {
                game,
                event: event.clone(),
            };
            let text = msg.to_text();
            for name in players {
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

    /// Lets `game`'s events flow to `name`'s connection `conn_id` if they were waiting for it (see [`Link`]): with
    /// `resumed` (it asked to resume) nothing more is sent here; else it is first sent the events kept after the
    /// last one `welcome` told it of.
    pub(super) fn catch_up(&mut self, name: &str, conn_id: u64, game: u64, resumed: bool) {
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
        if let Some(live) = self.rooms.get(&game) {
            for event in live.shown_after(told) {
                conn.send(&ServerMessage::Event {
                    game,
                    event: event.clone(),
                });
            }
        }
    }

    /// Lets the events of every game a connection has waited for [`CATCH_UP_MS`] flow to it.
    pub(super) fn tick_catch_up(&mut self, now_ms: u64) {
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
    }

    /// Lets every connection waiting for `game`, whose room is about to go, have its events now.
    pub(super) fn catch_up_all(&mut self, game: u64) {
        let waiting: Vec<(String, u64)> = self
            .online
            .iter()
            .flat_map(|(name, links)| {
                links
                    .iter()
                    .filter(|l| l.waiting.contains_key(&game))
                    .map(|l| (name.clone(), l.conn.id))
            })
            .collect();
        for (name, conn_id) in waiting {
            self.catch_up(&name, conn_id, game, false);
        }
    }
}
