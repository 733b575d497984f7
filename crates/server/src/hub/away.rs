//! Players away from a game in play: when a player's last connection ends, their seat is held for the grace
//! period, and their opponent and the game's spectators are told so (`away`, with the milliseconds left) and told
//! again when the player is `back`; a connection that says `hello`, or starts to watch the game, while a player is
//! away is told too, so every client can count the grace period down. Each departure and return is logged.
//!
//! A part of the hub ([`super::Hub`]): it hooks in where a connection ends, says `hello`, starts a game or watches
//! one.

use super::{Conn, Hub, Outgoing};
use parlor_online::protocol::{ServerMessage, Side};

impl Hub {
    /// `name`'s last connection ended at `now_ms`: in each of their games in play their seat is held for the grace
    /// period, and the opponent and the spectators are told.
    pub(super) fn player_away(&mut self, name: &str, now_ms: u64) {
        let mut told: Vec<u64> = Vec::new();
        for (&game, live) in self.rooms.iter_mut() {
            let room = &mut live.room;
            // A player following the game on another node is there.
            if self.remote.contains(&(game, name.to_string())) {
                continue;
            }
            if let Some(side) = room.side_of(name)
                && !room.is_away(side)
            {
                room.left(side, now_ms);
                if room.is_away(side) {
                    told.push(game);
                }
            }
        }
        told.sort_unstable();
        for game in told {
            self.tell_away(game, now_ms);
        }
    }

    /// `name` is back (a connection said `hello` on `conn` at `now_ms`): their seats are theirs again, and where
    /// they were away their opponent and the spectators are told; `conn` is told of the opponents away in their
    /// games.
    pub(super) fn player_back(&mut self, conn: &Conn, name: &str, now_ms: u64) {
        let mut back: Vec<(u64, Side)> = Vec::new();
        let mut opponents: Vec<(u64, ServerMessage)> = Vec::new();
        for (&game, live) in self.rooms.iter_mut() {
            let room = &mut live.room;
            let Some(side) = room.side_of(name) else {
                continue;
            };
            if room.is_away(side) {
                back.push((game, side));
            }
            room.returned(side);
            if let Some(msg) = away_message(game, room, side.other(), now_ms) {
                opponents.push((game, msg));
            }
        }
        back.sort_unstable_by_key(|b| b.0);
        for (game, side) in back {
            tracing::info!(game, name, side = side.as_str(), "player back");
            self.to_others(
                game,
                side,
                &ServerMessage::Back {
                    game,
                    side,
                    name: name.to_string(),
                },
            );
        }
        opponents.sort_unstable_by_key(|o| o.0);
        for (_, msg) in opponents {
            conn.send(&msg);
        }
    }

    /// Tells `game`'s players and spectators of each of its players away at `now_ms` (logged): for a game that
    /// started with a player away, or a player just gone.
    pub(super) fn tell_away(&self, game: u64, now_ms: u64) {
        let Some(room) = self.rooms.get(&game).map(|l| &l.room) else {
            return;
        };
        for side in [Side::Black, Side::White] {
            if let Some(msg) = away_message(game, room, side, now_ms) {
                if let ServerMessage::Away { grace_ms, .. } = &msg {
                    tracing::info!(
                        game,
                        name = room.name(side),
                        side = side.as_str(),
                        grace_ms,
                        "player away: seat held"
                    );
                }
                self.to_others(game, side, &msg);
            }
        }
    }

    /// Tells `conn`, which starts to watch `game` at `now_ms`, of its players away.
    pub(super) fn tell_watcher_away(&self, conn: &Conn, game: u64, now_ms: u64) {
        let Some(room) = self.rooms.get(&game).map(|l| &l.room) else {
            return;
        };
        for side in [Side::Black, Side::White] {
            if let Some(msg) = away_message(game, room, side, now_ms) {
                conn.send(&msg);
            }
        }
    }

    /// `side` of `game` is there through another node (a connection there follows the game, or a move came from
    /// it): where their seat was held as away, the opponent and the spectators are told they are back.
    pub(super) fn remote_back(&mut self, game: u64, side: Side) {
        let Some(room) = self.rooms.get_mut(&game).map(|l| &mut l.room) else {
            return;
        };
        self.remote.insert((game, room.name(side).to_string()));
        if !room.is_away(side) {
            return;
        }
        room.returned(side);
        let name = room.name(side).to_string();
        tracing::info!(
            game,
            name,
            side = side.as_str(),
            "player back (on another node)"
        );
        self.to_others(game, side, &ServerMessage::Back { game, side, name });
    }

    /// `side` of `game` has no connection following the game on another node any more (at `now_ms`): unless they
    /// have one here, their seat is held for the grace period, and the others are told.
    pub(super) fn remote_gone(&mut self, game: u64, side: Side, now_ms: u64) {
        let Some(room) = self.rooms.get_mut(&game).map(|l| &mut l.room) else {
            return;
        };
        self.remote.remove(&(game, room.name(side).to_string()));
        if self.online.contains_key(room.name(side)) || room.is_away(side) {
            return;
        }
        room.left(side, now_ms);
        if room.is_away(side) {
            self.tell_away(game, now_ms);
        }
    }

    /// Sends `msg` about `side` of `game` to the other side's player (every connection of theirs) and to everyone
    /// watching the game.
    fn to_others(&self, game: u64, side: Side, msg: &ServerMessage) {
        let Some(room) = self.rooms.get(&game).map(|l| &l.room) else {
            return;
        };
        self.tell(room.name(side.other()), msg);
        if self.nodes {
            self.tell_followers_elsewhere(game, room.name(side), msg);
        }
        if let Some(watchers) = self.watchers.get(&game) {
            let text = msg.to_text();
            for (_, conn) in watchers.values() {
                let _ = conn.tx.send(Outgoing::Text(text.clone()));
            }
        }
    }
}

/// The `away` message of `side` in `game` at `now_ms`, if that side is away.
fn away_message(
    game: u64,
    room: &parlor_online::referee::Room,
    side: Side,
    now_ms: u64,
) -> Option<ServerMessage> {
    room.grace_left(side, now_ms)
        .map(|grace_ms| ServerMessage::Away {
            game,
            side,
            name: room.name(side).to_string(),
            grace_ms,
        })
}
