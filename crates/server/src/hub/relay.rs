//! Games refereed by another node, followed here ([`crate::nodes`]): a mirror of each, read from the store when its
//! referee says it has new events, whose new events go to the connections here that follow it (its players who
//! resumed it here, its spectators); a move sent here is checked against the mirror and passed to the referee
//! through the store, and the referee takes the moves passed to it and plays them.

use super::{Conn, Hub, error, referee_error, watch};
use crate::Shared;
use crate::store::{Action, Forwarded, StoreError};
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage, Side};
use parlor_online::referee::{Played, Room};
use std::collections::HashMap;

/// A game refereed by another node, as last read here.
pub(super) struct Mirror {
    /// The game as last read.
    room: Room,
    /// Its last event sent to the followers.
    shown: u64,
    /// The connections following it here (by connection number): whose, and whether it watches the game (else it
    /// is one of its players').
    followers: HashMap<u64, (String, Conn, bool)>,
}

impl Mirror {
    /// The game as last read.
    pub(super) fn room(&self) -> &Room {
        &self.room
    }

    /// Sends `msg` to every follower here but `skip`'s connections.
    pub(super) fn send_but(&self, skip: &str, msg: &ServerMessage) {
        for (name, conn, _) in self.followers.values() {
            if name != skip {
                conn.send(msg);
            }
        }
    }
}

impl Hub {
    /// Whether a connection here follows `game`, refereed elsewhere.
    pub fn follows(&self, game: u64) -> bool {
        self.mirrors.contains_key(&game)
    }

    /// The games refereed elsewhere that connections here follow.
    pub fn followed(&self) -> Vec<u64> {
        self.mirrors.keys().copied().collect()
    }

    /// The games refereed here.
    pub fn refereed(&self) -> Vec<u64> {
        self.rooms.keys().copied().collect()
    }

    /// `game` as read again from the store (none: it is no game, or does not rebuild): its new events go to its
    /// followers here; a game ended (or refereed here now) is followed no more.
    pub fn relay(&mut self, game: u64, room: Option<Room>) {
        let Some(mirror) = self.mirrors.get_mut(&game) else {
            return;
        };
        let Some(room) = room else {
            self.mirrors.remove(&game);
            return;
        };
        if room.last_event() > mirror.shown {
            for event in room.events_after(mirror.shown) {
                let msg = ServerMessage::Event {
                    game,
                    event: event.clone(),
                };
                for (_, conn, _) in mirror.followers.values() {
                    conn.send(&msg);
                }
            }
            mirror.shown = room.last_event();
            mirror.room = room;
        }
        if mirror.room.result().is_some() || self.rooms.contains_key(&game) {
            self.mirrors.remove(&game);
        }
    }

    /// `conn` follows `game`, refereed elsewhere and read as `room`: it is sent its events after `after` (a
    /// spectator is first told it watches), then each new one.
    pub(super) fn follow(
        &mut self,
        conn: &Conn,
        name: &str,
        game: u64,
        room: Room,
        after: u64,
        watching: bool,
    ) {
        self.mirrors.entry(game).or_insert_with(|| Mirror {
            shown: room.last_event(),
            room: room.clone(),
            followers: HashMap::new(),
        });
        // The followers already here get what this read has that they were not sent.
        self.relay(game, Some(room));
        let Some(mirror) = self.mirrors.get_mut(&game) else {
            return;
        };
        if watching {
            conn.send(&ServerMessage::Watching {
                game,
                last_event: mirror.shown,
            });
        }
        let events = mirror.room.events_after(after);
        let kept = usize::try_from(mirror.shown.saturating_sub(after)).unwrap_or(usize::MAX);
        for event in &events[..kept.min(events.len())] {
            conn.send(&ServerMessage::Event {
                game,
                event: event.clone(),
            });
        }
        let first = !watching && !mirror.followers.values().any(|(n, _, w)| !*w && n == name);
        mirror
            .followers
            .insert(conn.id, (name.to_string(), conn.clone(), watching));
        if first {
            self.tell_referee(game, name, Action::Here);
        }
    }

    /// Connection `conn_id` follows nothing more (gone), or not `game` (unwatched). A player with no connection
    /// left following a game here is said gone to its referee.
    pub(super) fn unfollow(&mut self, conn_id: u64, game: Option<u64>) {
        let mut gone = Vec::new();
        for (g, m) in self.mirrors.iter_mut() {
            if game.is_some_and(|only| only != *g) {
                continue;
            }
            if let Some((name, _, false)) = m.followers.remove(&conn_id)
                && !m.followers.values().any(|(n, _, w)| !*w && *n == name)
            {
                gone.push((*g, name));
            }
        }
        self.mirrors.retain(|_, m| !m.followers.is_empty());
        for (g, name) in gone {
            self.tell_referee(g, &name, Action::Gone);
        }
    }

    /// Games taken over here: their followers here are sent what they were not sent yet, the spectators become
    /// this node's watchers, and the players get their events as players here do.
    pub(super) fn mirrors_taken(&mut self, games: &[u64]) {
        for game in games {
            let (Some(mirror), Some(live)) = (self.mirrors.remove(game), self.rooms.get(game))
            else {
                continue;
            };
            for event in live.shown_after(mirror.shown) {
                let msg = ServerMessage::Event {
                    game: *game,
                    event: event.clone(),
                };
                for (_, conn, _) in mirror.followers.values() {
                    conn.send(&msg);
                }
            }
            let watchers = self.watchers.entry(*game).or_default();
            for (id, (name, conn, watching)) in mirror.followers {
                if watching {
                    watchers.insert(id, (name, conn));
                }
            }
        }
    }

    /// A move (or resignation) of `name`'s sent here for `game`, refereed elsewhere and read as `room`: checked
    /// against it (a refusal sent at once), and the connection made to follow the game. Returns what to pass to
    /// the referee, if anything.
    fn check_forward(
        &mut self,
        conn: &Conn,
        name: &str,
        game: u64,
        room: Room,
        msg: &ClientMessage,
        now_ms: u64,
    ) -> Option<Forwarded> {
        let Some(side) = room.side_of(name) else {
            conn.send(&error(
                ErrorCode::NotFound,
                format!("you play no game {game} in play"),
                Some(game),
            ));
            return None;
        };
        let mut tried = self
            .mirrors
            .get(&game)
            .map_or_else(|| room.clone(), |m| m.room.clone());
        let forwarded = match msg {
            ClientMessage::Move { seq, mv, .. } => match tried.play_at(side, *seq, mv, now_ms) {
                Ok(Played::Events(_)) => Some(Forwarded {
                    name: name.to_string(),
                    action: Action::Move {
                        seq: *seq,
                        mv: mv.clone(),
                    },
                }),
                Ok(Played::AlreadyPlayed) => None,
                Err(e) => {
                    conn.send(&referee_error(e, game));
                    None
                }
            },
            _ => match tried.resign(side) {
                Ok(_) => Some(Forwarded {
                    name: name.to_string(),
                    action: Action::Resign,
                }),
                Err(e) => {
                    conn.send(&referee_error(e, game));
                    None
                }
            },
        };
        let after = self
            .mirrors
            .get(&game)
            .map_or(room.last_event(), |m| m.shown);
        self.follow(conn, name, game, room, after, false);
        forwarded
    }

    /// The actions passed to `game`, refereed here, done in the order they were passed (a refusal told to the
    /// player's connections here, if any, and logged).
    fn play_forwarded(&mut self, game: u64, moves: Vec<Forwarded>, now_ms: u64) {
        for f in moves {
            let Some(side) = self.rooms.get(&game).and_then(|l| l.room.side_of(&f.name)) else {
                continue;
            };
            let done = match &f.action {
                Action::Move { seq, mv } => {
                    // A player who moves through another node is there.
                    self.remote_back(game, side);
                    self.play_as(&f.name, game, *seq, mv, now_ms)
                }
                Action::Resign => self.resign_as(&f.name, game),
                Action::Here => {
                    self.remote_back(game, side);
                    Ok(())
                }
                Action::Gone => {
                    self.remote_gone(game, side, now_ms);
                    Ok(())
                }
            };
            if let Err(e) = done {
                tracing::warn!(game, name = f.name, "a move passed on is refused: {e:?}");
                self.tell(&f.name, &e);
            }
        }
    }

    /// Tells `game`'s referee (a node that just took it over) again of each of its players following it here.
    fn here_again(&self, game: u64) {
        let Some(mirror) = self.mirrors.get(&game) else {
            return;
        };
        let mut names: Vec<&String> = mirror
            .followers
            .values()
            .filter(|(_, _, watching)| !watching)
            .map(|(n, _, _)| n)
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            self.tell_referee(game, name, Action::Here);
        }
    }

    /// Tells `game`'s referee (through the store) that `name` is there (`Here`) or gone (`Gone`) on this node.
    fn tell_referee(&self, game: u64, name: &str, action: Action) {
        let f = Forwarded {
            name: name.to_string(),
            action,
        };
        self.write(
            format!("game {game}: telling its referee of {name}"),
            move |s| s.forward(game, &f),
            super::After::Nothing,
        );
    }
}

impl Hub {
    /// `game`, started by another node and read as `room`: each of its players queued here (or whose place the
    /// store no longer had) was paired by it: no longer queued here, each of their connections not following it
    /// yet follows it from its start.
    fn join_started(&mut self, game: u64, room: Room) {
        for side in [Side::Black, Side::White] {
            let name = room.name(side).to_string();
            let queued = self.queue.iter().any(|s| s.name == name);
            if !queued && self.unseated.remove(&name).is_none() {
                continue;
            }
            self.queue.retain(|s| s.name != name);
            self.lobby_changed = true;
            let following = |id: u64| {
                self.mirrors
                    .get(&game)
                    .is_some_and(|m| m.followers.contains_key(&id))
            };
            let conns: Vec<Conn> = self
                .online
                .get(&name)
                .into_iter()
                .flatten()
                .filter(|l| !following(l.conn.id))
                .map(|l| l.conn.clone())
                .collect();
            for conn in conns {
                self.follow(&conn, &name, game, room.clone(), 0, false);
            }
        }
    }
}

/// `game` started (or taken over) by a node: if another, its players following it here are said there again, and
/// its players queued here are told ([`Hub::join_started`]).
pub async fn started_elsewhere(shared: &Shared, game: u64) {
    {
        let hub = shared.hub();
        if hub.rooms.contains_key(&game) {
            return;
        }
        // Taken over by another node: it is told again who is here.
        hub.here_again(game);
    }
    if let Some(room) = elsewhere(shared, game).await {
        shared.hub().join_started(game, room);
    }
}

/// `game` as kept (finished or in play), rebuilt: none if it is no game or does not rebuild.
async fn read(shared: &Shared, game: u64) -> Option<Room> {
    // In play first (what a game followed is, but once): a game ending between the two reads is then found
    // finished by the second.
    let live = shared
        .store
        .read(move |s| s.game_in_play(game))
        .await
        .map_err(|e| tracing::error!("reading game {game}: {e}"))
        .ok()
        .flatten();
    if let Some(live) = live {
        let now = shared.now_ms();
        return shared.hub().rebuild(&live, now);
    }
    watch::replay(&watch::finished(shared, game).await?)
}

/// `game`, followed here, read again: its new events go to its followers.
pub async fn refresh(shared: &Shared, game: u64) {
    let room = read(shared, game).await;
    shared.hub().relay(game, room);
}

/// Takes the moves passed to `game` if it is refereed here, and plays them.
pub async fn take_forwarded(shared: &Shared, game: u64) {
    if !shared.hub().rooms.contains_key(&game) {
        return;
    }
    match shared.store.write(move |s| s.take_forwarded(game)).await {
        Ok(moves) if !moves.is_empty() => {
            let now = shared.now_ms();
            shared.hub().play_forwarded(game, moves, now);
        }
        Ok(_) => {}
        Err(StoreError::LeaseLost(_)) => shared.hub().lose(&[game]),
        Err(e) => tracing::error!("game {game}: taking the moves passed on: {e}"),
    }
}

/// A game in play refereed by another node, read for a connection here that asks for it (`watch`, `resume`, a
/// move): none if it is not one.
async fn elsewhere(shared: &Shared, game: u64) -> Option<Room> {
    if !shared.hub().is_node() {
        return None;
    }
    read(shared, game).await.filter(|r| r.result().is_none())
}

/// `conn` of `name`'s follows `game`, refereed elsewhere, from after event `after`: as a spectator (`watching`)
/// or as one of its players resuming it. False if it is not a game in play (of theirs, for a player).
pub(super) async fn follow_elsewhere(
    shared: &Shared,
    conn: &Conn,
    name: &str,
    game: u64,
    after: u64,
    watching: bool,
) -> bool {
    let Some(room) = elsewhere(shared, game).await else {
        return false;
    };
    if !watching && room.side_of(name).is_none() {
        return false;
    }
    shared.hub().follow(conn, name, game, room, after, watching);
    true
}

/// `name`'s move or resignation `msg` in `game`, refereed elsewhere (or nowhere: then refused), passed to the
/// referee.
pub(super) async fn forward(
    shared: &Shared,
    conn: &Conn,
    name: &str,
    game: u64,
    msg: ClientMessage,
) {
    // A game followed here is checked against its mirror, read at its last event (no read of the store per move).
    let mirrored = shared.hub().mirrors.get(&game).map(|m| m.room.clone());
    let room = match mirrored {
        Some(room) => Some(room),
        None => elsewhere(shared, game).await,
    };
    let Some(room) = room else {
        return conn.send(&error(
            ErrorCode::NotFound,
            format!("you play no game {game} in play"),
            Some(game),
        ));
    };
    let now = shared.now_ms();
    let Some(action) = shared
        .hub()
        .check_forward(conn, name, game, room, &msg, now)
    else {
        return;
    };
    if let Err(e) = shared.store.write(move |s| s.forward(game, &action)).await {
        tracing::error!("game {game}: passing a move on: {e}");
        conn.send(&super::store_failed());
    }
}
