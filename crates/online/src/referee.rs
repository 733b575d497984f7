//! The referee of one game: a [`Room`] over the `nocca` crate that takes moves in Parlor's notation, checks turn and
//! legality, numbers every event and keeps them, ignores a move sent again, and decides the result (the rules' win or
//! draw, resignation, a player gone past the grace period, an abort before both sides have moved).
//!
//! Time is passed in, as milliseconds on any clock the caller keeps, so the referee reads no clock and its tests
//! are deterministic.

use crate::protocol::{EndReason, Event, EventKind, Rating, Side};
use nocca::{Dims, GameOptions, Move};
use thiserror::Error;

/// Plies both sides must have played before a game can be won other than by the rules: before that, resigning or
/// leaving aborts it.
pub const PLIES_BEFORE_RESULT: usize = 2;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner; none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
}

/// Why the referee refused a move or a resignation; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RefereeError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// It is the other side's turn.
    #[error("it is {0}'s turn")]
    NotYourTurn(&'static str),
    /// The move does not parse.
    #[error("move {text:?}: {error}")]
    Unreadable {
        /// The move as sent.
        text: String,
        /// Why it does not parse.
        error: String,
    },
    /// The move breaks a rule.
    #[error("move {text:?}: {error}")]
    Illegal {
        /// The move as sent.
        text: String,
        /// The rule it breaks.
        error: String,
    },
    /// A kept game's moves do not end as its kept result says ([`Room::replayed`]).
    #[error("the moves kept do not give the result kept")]
    Inconsistent,
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// It was played: the new events (the move, and the end if it ended the game).
    Events(Vec<Event>),
    /// A move with this sequence number (or a later one) was already taken from this side: nothing changed.
    AlreadyPlayed,
}

/// One game between two named players, refereed.
#[derive(Clone, Debug)]
pub struct Room {
    names: [String; 2],
    game: nocca::Game,
    events: Vec<Event>,
    last_seq: [Option<u64>; 2],
    gone_since: [Option<u64>; 2],
    grace_ms: u64,
    result: Option<GameResult>,
}

impl Room {
    /// A new game on `dims`, Black to move; its first event (number 1) says it started. A player gone longer than
    /// `grace_ms` loses (or, before both sides moved, the game is aborted).
    pub fn new(dims: Dims, black: &str, white: &str, grace_ms: u64) -> Room {
        let mut room = Room {
            names: [black.to_string(), white.to_string()],
            game: nocca::Game::new(dims, GameOptions::default()),
            events: Vec::new(),
            last_seq: [None; 2],
            gone_since: [None; 2],
            grace_ms,
            result: None,
        };
        room.push(EventKind::Started {
            black: black.to_string(),
            white: white.to_string(),
            board: dims.to_string(),
            clock: None,
            rated: false,
            black_rating: Rating::NEW,
            white_rating: Rating::NEW,
            rematch_of: None,
            clocks: None,
        });
        room
    }

    /// A finished game rebuilt from what is kept of it (its moves and result), with the same events, numbered the
    /// same, as when it was played: to send it again to a player who asks after it ended.
    pub fn replayed(
        dims: Dims,
        black: &str,
        white: &str,
        record: &str,
        result: GameResult,
    ) -> Result<Room, RefereeError> {
        let mut room = Room::new(dims, black, white, 0);
        for (seq, text) in (1..).zip(record.split_whitespace()) {
            let side = Side::from(room.game.side_to_move());
            room.play(side, seq, text)?;
        }
        match room.result {
            None if !matches!(
                result.reason,
                EndReason::Goal | EndReason::Blockade | EndReason::Repetition | EndReason::PlyCap
            ) =>
            {
                room.end(result.winner, result.reason);
            }
            Some(r) if r == result => {}
            _ => return Err(RefereeError::Inconsistent),
        }
        Ok(room)
    }

    fn push(&mut self, kind: EventKind) -> Event {
        let event = Event {
            n: self.events.len() as u64 + 1,
            kind,
        };
        self.events.push(event.clone());
        event
    }

    /// Ends the game (once) with its `Ended` event.
    fn end(&mut self, winner: Option<Side>, reason: EndReason) -> Event {
        self.result = Some(GameResult { winner, reason });
        self.gone_since = [None; 2];
        self.push(EventKind::Ended {
            winner,
            reason,
            position: self.game.position().to_string(),
            clocks: None,
            ratings: None,
        })
    }

    /// A result for a game left early: before both sides moved nobody wins.
    fn early_or(&self, winner: Side, reason: EndReason) -> (Option<Side>, EndReason) {
        if self.game.ply() < PLIES_BEFORE_RESULT {
            (None, EndReason::Aborted)
        } else {
            (Some(winner), reason)
        }
    }

    /// Plays `side`'s move `text` sent with the client's sequence number `seq`.
    pub fn play(&mut self, side: Side, seq: u64, text: &str) -> Result<Played, RefereeError> {
        if self.last_seq[side.index()].is_some_and(|last| seq <= last) {
            return Ok(Played::AlreadyPlayed);
        }
        if self.result.is_some() {
            return Err(RefereeError::GameOver);
        }
        let to_move = Side::from(self.game.side_to_move());
        if to_move != side {
            return Err(RefereeError::NotYourTurn(to_move.as_str()));
        }
        let mv: Move =
            text.parse()
                .map_err(|e: nocca::MoveParseError| RefereeError::Unreadable {
                    text: text.chars().take(16).collect(),
                    error: e.to_string(),
                })?;
        let outcome = self.game.play(mv).map_err(|e| RefereeError::Illegal {
            text: text.to_string(),
            error: e.to_string(),
        })?;
        self.last_seq[side.index()] = Some(seq);
        let mut events = vec![self.push(EventKind::Moved {
            by: side,
            ply: self.game.ply() as u32,
            mv: mv.to_string(),
            clocks: None,
        })];
        if let Some(o) = outcome {
            events.push(self.end(o.winner.map(Side::from), o.reason.into()));
        }
        Ok(Played::Events(events))
    }

    /// `side` resigns: the other side wins, or, before both sides moved, the game is aborted.
    pub fn resign(&mut self, side: Side) -> Result<Event, RefereeError> {
        if self.result.is_some() {
            return Err(RefereeError::GameOver);
        }
        let (winner, reason) = self.early_or(side.other(), EndReason::Resignation);
        Ok(self.end(winner, reason))
    }

    /// `side`'s connection dropped at `now_ms`: its seat is held for the grace period (see [`Room::tick`]).
    pub fn left(&mut self, side: Side, now_ms: u64) {
        if self.result.is_none() && self.gone_since[side.index()].is_none() {
            self.gone_since[side.index()] = Some(now_ms);
        }
    }

    /// `side` is back: its seat is kept.
    pub fn returned(&mut self, side: Side) {
        self.gone_since[side.index()] = None;
    }

    /// When (in the caller's milliseconds) a player gone will have been gone past the grace period, if one is.
    pub fn deadline(&self) -> Option<u64> {
        self.gone_since
            .iter()
            .flatten()
            .map(|t| t.saturating_add(self.grace_ms))
            .min()
    }

    /// Decides the game of a player gone past the grace period at `now_ms` (the one gone first loses; before both
    /// sides moved, the game is aborted). Returns the `Ended` event, if it ended now.
    pub fn tick(&mut self, now_ms: u64) -> Option<Event> {
        if self.result.is_some() {
            return None;
        }
        let gone = [Side::Black, Side::White]
            .into_iter()
            .filter_map(|s| self.gone_since[s.index()].map(|t| (t, s)))
            .filter(|(t, _)| now_ms >= t.saturating_add(self.grace_ms))
            .min_by_key(|(t, s)| (*t, s.index()))?;
        let (winner, reason) = self.early_or(gone.1.other(), EndReason::Abandoned);
        Some(self.end(winner, reason))
    }

    /// Every event after number `n` (all of them for 0; none past the last).
    pub fn events_after(&self, n: u64) -> &[Event] {
        let from = usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(self.events.len());
        &self.events[from..]
    }

    /// The number of the last event.
    pub fn last_event(&self) -> u64 {
        self.events.len() as u64
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The name of the player on `side`.
    pub fn name(&self, side: Side) -> &str {
        &self.names[side.index()]
    }

    /// The side `name` plays, if they play in this game.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        [Side::Black, Side::White]
            .into_iter()
            .find(|s| self.names[s.index()] == name)
    }

    /// The board size.
    pub fn dims(&self) -> Dims {
        self.game.position().dims()
    }

    /// The moves played, in Parlor's notation separated by spaces.
    pub fn record(&self) -> String {
        self.game.record()
    }

    /// The current position in the `nocca` crate's text form.
    pub fn position(&self) -> String {
        self.game.position().to_string()
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.game.ply()
    }
}
