//! Watching and finished games: a spectator of a live game gets its events kept so far and then each new one; a
//! finished game (watched, resumed or acknowledged after its end, its `record`, a player's `games`) is read from
//! the store's readers outside the hub's lock and rebuilt by the referee with the clocks kept with its moves.

use super::{Conn, Hub, error, store_failed};
use crate::Shared;
use crate::store::FinishedGame;
use parlor_online::protocol::{
    ErrorCode, GameRecord, GameSummary, LIST_LIMIT, Rating, ServerMessage,
};
use parlor_online::referee::{Room, Setup};

impl Hub {
    /// `name` watches the live game `game` on `conn` from after event `after`: its events kept so far, then each
    /// new one. False if `game` is not live (the caller looks among the finished games).
    pub(super) fn watch(&mut self, conn: &Conn, name: &str, game: u64, after: u64) -> bool {
        let Some(live) = self.rooms.get(&game) else {
            return false;
        };
        conn.send(&ServerMessage::Watching {
            game,
            last_event: live.shown,
        });
        for event in live.shown_after(after) {
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
        true
    }

    /// `conn` stops watching `game`.
    pub(super) fn unwatch(&mut self, conn: &Conn, game: u64) {
        if let Some(w) = self.watchers.get_mut(&game) {
            w.remove(&conn.id);
        }
        self.unfollow(conn.id, Some(game));
        conn.send(&ServerMessage::Unwatched { game });
    }
}

/// The finished game `game`, from the store (none if there is none or the store failed, which is logged).
pub(super) async fn finished(shared: &Shared, game: u64) -> Option<FinishedGame> {
    shared
        .store
        .read(move |s| s.finished_game(game))
        .await
        .unwrap_or_else(|e| {
            tracing::error!("reading game {game}: {e}");
            None
        })
}

/// The finished game `game` of `name`'s, rebuilt from the store with its events.
async fn kept(shared: &Shared, name: &str, game: u64) -> Option<Room> {
    finished(shared, game)
        .await
        .filter(|g| g.black == name || g.white == name)
        .and_then(|g| replay(&g))
}

/// Watching a game that is not live: a finished game's events are sent once.
pub(super) async fn watch_finished(shared: &Shared, conn: &Conn, game: u64, after: u64) {
    let Some(room) = finished(shared, game).await.and_then(|g| replay(&g)) else {
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

/// An acknowledgement of a game not in play: a game that ended is still acknowledged (the ack of its last event
/// usually arrives after the end); only an unknown game or an event not yet sent is refused.
pub(super) async fn ack_finished(shared: &Shared, conn: &Conn, name: &str, game: u64, event: u64) {
    match kept(shared, name, game).await.map(|room| room.last_event()) {
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

/// `resume` of a game not in play: a finished game of the player's has its events after `after` sent again.
pub(super) async fn resume_finished(
    shared: &Shared,
    conn: &Conn,
    name: &str,
    game: u64,
    after: u64,
) {
    let Some(room) = kept(shared, name, game).await else {
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

/// `record`: a finished game whole.
pub(super) async fn record(shared: &Shared, conn: &Conn, game: u64) {
    match finished(shared, game).await {
        Some(g) => conn.send(&ServerMessage::Record {
            record: record_of(g),
        }),
        None => conn.send(&error(
            ErrorCode::NotFound,
            format!("no finished game {game}"),
            Some(game),
        )),
    }
}

/// `games`: a player's last finished games.
pub(super) async fn games(shared: &Shared, conn: &Conn, player: String) {
    let p = player.clone();
    match shared.store.read(move |s| s.games_of(&p, LIST_LIMIT)).await {
        Ok(games) => conn.send(&ServerMessage::Games {
            player,
            games: games.into_iter().map(summary_of).collect(),
        }),
        Err(e) => {
            tracing::error!("games of {player}: {e}");
            conn.send(&store_failed());
        }
    }
}

/// A finished game rebuilt by the referee from what is kept of it, its events with the clocks kept with its moves
/// (logged if it does not rebuild).
pub(super) fn replay(g: &FinishedGame) -> Option<Room> {
    let dims = g.board.parse().ok()?;
    let setup = Setup {
        clock: g.clock,
        rated: g.rated,
        ratings: g.start_ratings.unwrap_or_else(|| {
            g.ratings
                .map_or([Rating::NEW; 2], |r| [r.black.before, r.white.before])
        }),
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
        Ok(mut room) => {
            if let Some(clocks) = g.end_clocks {
                room.restore_end_clocks(clocks);
            }
            Some(room)
        }
        Err(e) => {
            tracing::error!("game {} as kept: {e}", g.id);
            None
        }
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
