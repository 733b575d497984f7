//! Rooms: the games in play, each refereed by a [`Room`]. A game starts under the next number (kept in the store
//! before its start is sent), each move's progress is written before its events are sent, and its end (for a rated
//! game with both players' new ratings, once) is written before the `ended` event goes out and the room goes
//! ([`super::After`]). A room keeps how far its events are kept ([`Live::shown`]): nothing past it is sent.

use super::{After, Conn, Hub, error, referee_error};
use crate::rating;
use crate::store::{GameEnd, LiveGame, NewGame, Rated};
use parlor_online::protocol::{
    EndReason, ErrorCode, Event, RatingChange, RatingChanges, ServerMessage, Side, TimeControl,
};
use parlor_online::referee::{GameResult, Played, Room, Setup};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A game in play: its room, and the last of its events kept in the store and sent.
pub(super) struct Live {
    pub(super) room: Room,
    /// The number of its last event written and sent (0 before its start is kept).
    pub(super) shown: u64,
    /// Whether its end is being written.
    ending: bool,
    /// The moves taken and not yet shown: the number of the last event each made, and when the hub took it (for
    /// the round trip in [`crate::metrics`]).
    taken: Vec<(u64, Instant)>,
}

impl Live {
    /// The events kept after number `after` (none past [`Live::shown`]).
    pub(super) fn shown_after(&self, after: u64) -> &[Event] {
        let events = self.room.events_after(after);
        let kept = usize::try_from(self.shown.saturating_sub(after)).unwrap_or(usize::MAX);
        &events[..kept.min(events.len())]
    }

    pub(super) fn players(&self) -> [String; 2] {
        [
            self.room.name(Side::Black).to_string(),
            self.room.name(Side::White).to_string(),
        ]
    }
}

impl Hub {
    /// Rebuilds every game in play kept in the store (after a restart, at time 0 of this hub, or taken from
    /// another node at `now_ms`): its moves replayed, its clocks as of its last move (as its start wrote them,
    /// before its first move) and the side to move's running from `now_ms`, each event as it was sent live (the
    /// ratings its start showed, each move's clocks as played), each player not online here taken as gone since
    /// now, so each has the grace period to come back. A game that does not rebuild is ended as aborted (logged).
    pub(super) fn resume_games(&mut self, kept: Vec<LiveGame>, now_ms: u64) {
        for g in kept {
            match self.rebuild(&g, now_ms) {
                Some(mut room) => {
                    for side in [Side::Black, Side::White] {
                        if !self.online.contains_key(room.name(side)) {
                            room.left(side, now_ms);
                        }
                    }
                    let shown = room.last_event();
                    self.rooms.insert(
                        g.id,
                        Live {
                            room,
                            shown,
                            ending: false,
                            taken: Vec::new(),
                        },
                    );
                }
                None => {
                    tracing::error!("game {} does not rebuild: ended as aborted", g.id);
                    let aborted = GameResult {
                        winner: None,
                        reason: EndReason::Aborted,
                    };
                    let (id, moves) = (g.id, g.moves);
                    self.write(
                        format!("game {id}"),
                        move |s| s.finish_game(id, &moves, aborted, ""),
                        After::Nothing,
                    );
                }
            }
        }
    }

    /// A game in play rebuilt from what is kept of it at `now_ms` (see [`Hub::resume_games`]); none if it does not
    /// rebuild.
    pub(super) fn rebuild(&self, g: &LiveGame, now_ms: u64) -> Option<Room> {
        let dims = g.board.parse::<nocca::Dims>().ok()?;
        let setup = Setup {
            clock: g.clock,
            rated: g.rated,
            ratings: g.start_ratings.unwrap_or_else(|| {
                [
                    rating::shown(&self.exact(&g.black)),
                    rating::shown(&self.exact(&g.white)),
                ]
            }),
            rematch_of: g.rematch_of,
            first_move_ms: self.first_move_ms,
            ..Setup::casual(dims, &g.black, &g.white, self.grace_ms)
        };
        let mut room = Room::restore(setup, &g.moves, g.remaining, g.seqs, now_ms).ok()?;
        if let Some(times) = &g.times
            && !room.restore_times(times)
        {
            tracing::error!("game {}: its move times do not match its moves", g.id);
        }
        Some(room)
    }

    /// Starts a game under the next number: its room now, its start kept and then sent to both
    /// ([`After::Started`]). Returns its number.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start_room(
        &mut self,
        black: &str,
        white: &str,
        dims: nocca::Dims,
        clock: Option<TimeControl>,
        rated: bool,
        rematch_of: Option<u64>,
        now_ms: u64,
    ) -> u64 {
        let game = self.next_number();
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
        let ratings = setup.ratings;
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
        let kept = NewGame {
            id: game,
            black: black.to_string(),
            white: white.to_string(),
            board: dims.to_string(),
            clock,
            rated,
            rematch_of,
            ratings,
            remaining: room.remaining(),
        };
        let through = room.last_event();
        self.write(
            format!("game {game} could not start"),
            move |s| s.start_game(&kept),
            After::Started {
                game,
                through,
                at: now_ms,
            },
        );
        self.rooms.insert(
            game,
            Live {
                room,
                shown: 0,
                ending: false,
                taken: Vec::new(),
            },
        );
        self.lobby_changed = true;
        game
    }

    /// A game whose start could not be kept does not start: its room goes and both players are told.
    pub(super) fn not_started(&mut self, game: u64) {
        let Some(live) = self.rooms.remove(&game) else {
            return;
        };
        self.watchers.remove(&game);
        self.lobby_changed = true;
        for name in live.players() {
            self.tell(
                &name,
                &error(
                    ErrorCode::Internal,
                    "the game could not start: the server's store failed",
                    None,
                ),
            );
            self.forget_rating(&name);
        }
    }

    /// Sends a game's events kept through `through` that were not sent yet.
    pub(super) fn show(&mut self, game: u64, through: u64) {
        let Some(live) = self.rooms.get_mut(&game) else {
            return;
        };
        if through <= live.shown {
            return;
        }
        let from = live.shown;
        live.shown = through.min(live.room.last_event());
        let shown = live.shown;
        let sent = Instant::now();
        for (_, at) in live.taken.iter().filter(|(n, _)| *n <= shown) {
            self.metrics
                .move_round_trip
                .observe(sent.saturating_duration_since(*at));
        }
        live.taken.retain(|(n, _)| *n > shown);
        let Some(live) = self.rooms.get(&game) else {
            return;
        };
        let events = live.shown_after(from).to_vec();
        let players = live.players();
        self.broadcast(game, [&players[0], &players[1]], &events);
    }

    /// A game whose end is kept: whoever waited for its events gets them, its watchers are let go, and so is its
    /// room.
    pub(super) fn close_room(&mut self, game: u64) {
        self.catch_up_all(game);
        let Some(live) = self.rooms.remove(&game) else {
            return;
        };
        self.watchers.remove(&game);
        self.remote.retain(|(g, _)| *g != game);
        self.lobby_changed = true;
        for name in live.players() {
            self.forget_rating(&name);
        }
    }

    /// After a game's new events: keeps its progress, or, if it ended, rates it (a rated game not aborted) and
    /// keeps its end; its events go out once written. The rating changes are in the `ended` event sent, and the
    /// store writes the end and the new ratings together, once.
    fn after(&mut self, game: u64) {
        self.lobby_changed = true;
        let Some(live) = self.rooms.get(&game) else {
            return;
        };
        if live.ending {
            return;
        }
        let Some(result) = live.room.result() else {
            let room = &live.room;
            let (moves, times) = (room.record(), room.times().to_vec());
            let (remaining, seqs) = (room.remaining(), room.last_seqs());
            let through = room.last_event();
            self.write(
                format!("game {game}: its progress could not be kept"),
                move |s| s.save_progress(game, &moves, &times, remaining, seqs),
                After::Events { game, through },
            );
            return;
        };
        let setup = live.room.setup().clone();
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
            Some((Rated { changes, after }, before))
        } else {
            None
        };
        let Some(live) = self.rooms.get_mut(&game) else {
            return;
        };
        live.ending = true;
        if let Some((r, _)) = &rated {
            live.room.rate(r.changes);
        }
        let room = &live.room;
        tracing::info!(
            game,
            winner = result.winner.map_or("none", Side::as_str),
            reason = result.reason.as_str(),
            ply = room.ply(),
            "game ended"
        );
        let end = GameEnd {
            moves: room.record(),
            times: Some(room.times().to_vec()),
            result,
            position: room.position(),
            clocks: setup.clock.map(|_| room.remaining()),
        };
        let through = room.last_event();
        let (black, white) = (setup.black.clone(), setup.white.clone());
        let before = rated
            .as_ref()
            .map(|(_, b)| [(setup.black.clone(), b[0]), (setup.white.clone(), b[1])]);
        let rated = rated.map(|(r, _)| r);
        if let Some(r) = &rated {
            self.ratings.insert(black.clone(), r.after[0]);
            self.ratings.insert(white.clone(), r.after[1]);
        }
        self.write(
            format!("game {game} could not be kept"),
            move |s| {
                s.finish_rated_game(
                    game,
                    &end,
                    rated.map(|r| (black.as_str(), white.as_str(), r)),
                )
            },
            After::Ended {
                game,
                through,
                before,
            },
        );
    }

    /// The room of `game` with `name`'s side in it, or the error to send.
    fn seat(&mut self, name: &str, game: u64) -> Result<(&mut Room, Side), Box<ServerMessage>> {
        self.rooms
            .get_mut(&game)
            .and_then(|l| l.room.side_of(name).map(|side| (&mut l.room, side)))
            .ok_or_else(|| {
                Box::new(error(
                    ErrorCode::NotFound,
                    format!("you play no game {game} in play"),
                    Some(game),
                ))
            })
    }

    /// `name` moves in `game` (sequence number `seq`).
    pub(super) fn play(
        &mut self,
        conn: &Conn,
        name: &str,
        game: u64,
        seq: u64,
        mv: &str,
        now_ms: u64,
    ) {
        if let Err(e) = self.play_as(name, game, seq, mv, now_ms) {
            conn.send(&e);
        }
    }

    /// `name` moves in `game` (sequence number `seq`), from a connection here or passed on by another node; the
    /// error to send if refused.
    pub(super) fn play_as(
        &mut self,
        name: &str,
        game: u64,
        seq: u64,
        mv: &str,
        now_ms: u64,
    ) -> Result<(), Box<ServerMessage>> {
        let taken = Instant::now();
        let (room, side) = self.seat(name, game)?;
        match room.play_at(side, seq, mv, now_ms) {
            Ok(Played::Events(events)) => {
                if !events.is_empty() {
                    self.metrics.moves.fetch_add(1, Ordering::Relaxed);
                    if let Some(live) = self.rooms.get_mut(&game) {
                        let last = live.room.last_event();
                        live.taken.push((last, taken));
                    }
                    self.after(game);
                }
                Ok(())
            }
            Ok(Played::AlreadyPlayed) => Ok(()),
            Err(e) => Err(Box::new(referee_error(e, game))),
        }
    }

    /// `name` resigns `game`.
    pub(super) fn resign(&mut self, conn: &Conn, name: &str, game: u64) {
        if let Err(e) = self.resign_as(name, game) {
            conn.send(&e);
        }
    }

    /// `name` resigns `game`, from a connection here or passed on by another node; the error to send if refused.
    pub(super) fn resign_as(&mut self, name: &str, game: u64) -> Result<(), Box<ServerMessage>> {
        let (room, side) = self.seat(name, game)?;
        match room.resign(side) {
            Ok(_) => {
                self.after(game);
                Ok(())
            }
            Err(e) => Err(Box::new(referee_error(e, game))),
        }
    }

    /// `name` acknowledges `event` of `game`, if it is a game of theirs in play (else false: the caller looks among
    /// their finished games). Only an event not yet sent is refused.
    pub(super) fn ack(&mut self, conn: &Conn, name: &str, game: u64, event: u64) -> bool {
        let Some(live) = self
            .rooms
            .get(&game)
            .filter(|l| l.room.side_of(name).is_some())
        else {
            return false;
        };
        if event > live.shown {
            conn.send(&error(
                ErrorCode::NotFound,
                format!("game {game} has no event {event} yet"),
                Some(game),
            ));
        }
        true
    }

    /// Sends `name` the events of their game in play `game` kept after `after` (false if it is not one: the
    /// caller looks among their finished games).
    pub(super) fn resume(&mut self, conn: &Conn, name: &str, game: u64, after: u64) -> bool {
        let Some(live) = self
            .rooms
            .get(&game)
            .filter(|l| l.room.side_of(name).is_some())
        else {
            return false;
        };
        for event in live.shown_after(after) {
            conn.send(&ServerMessage::Event {
                game,
                event: event.clone(),
            });
        }
        true
    }

    /// Ends the games that time or a player gone past the grace period decides at `now_ms`.
    pub(super) fn tick_rooms(&mut self, now_ms: u64) {
        let due: Vec<u64> = self
            .rooms
            .iter()
            .filter(|(_, l)| l.room.result().is_none())
            .filter(|(_, l)| l.room.deadline().is_some_and(|d| d <= now_ms))
            .map(|(&g, _)| g)
            .collect();
        for game in due {
            let ended = self.rooms.get_mut(&game).and_then(|l| l.room.tick(now_ms));
            if ended.is_some() {
                self.after(game);
            }
        }
    }
}
