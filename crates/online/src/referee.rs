//! The referee of one game: a [`Room`] over the `nocca` crate that takes moves in Parlor's notation, checks turn and
//! legality, numbers every event and keeps them, ignores a move sent again, keeps both clocks, and decides the result
//! (the rules' win or draw, resignation, time, a player gone past the grace period, an abort before both sides have
//! moved).
//!
//! Time is passed in, as milliseconds on any clock the caller keeps, so the referee reads no clock and its tests
//! are deterministic. The rules of time:
//! - Each side has [`Setup::first_move_ms`] for its first move (Black from the start, White from Black's first
//!   move); a side that does not make it in time aborts the game (nobody wins). This holds for untimed games too.
//! - With a time control, neither clock runs before both sides have made their first move; from White's first move
//!   on, the clock of the side to move runs. A side whose clock reaches zero loses on time (reason `time`); a move
//!   that comes after that is not played. After each move made on a running clock, the increment is added to the
//!   mover's clock.
//! - A player whose connection dropped keeps their seat for the grace period; their clock, if any, keeps running.
//!   Past the grace period they lose (reason `abandoned`), or, before both sides moved, the game is aborted.

use crate::protocol::{
    Clocks, EndReason, Event, EventKind, FIRST_MOVE_MS, MoveTime, Rating, RatingChanges, Side,
    TimeControl,
};
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

/// Everything a game is started with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board.
    pub dims: Dims,
    /// Black's name (Black moves first).
    pub black: String,
    /// White's name.
    pub white: String,
    /// The time control; none for an untimed game.
    pub clock: Option<TimeControl>,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// Both players' ratings at the start, Black's first.
    pub ratings: [Rating; 2],
    /// The finished game this is a rematch of, if any.
    pub rematch_of: Option<u64>,
    /// How long a dropped player's seat is held, in milliseconds.
    pub grace_ms: u64,
    /// How long each side has for its first move, in milliseconds ([`FIRST_MOVE_MS`] unless a test says less).
    pub first_move_ms: u64,
}

impl Setup {
    /// An untimed, unrated game between two new players, with the protocol's first-move limit.
    pub fn casual(dims: Dims, black: &str, white: &str, grace_ms: u64) -> Setup {
        Setup {
            dims,
            black: black.to_string(),
            white: white.to_string(),
            clock: None,
            rated: false,
            ratings: [Rating::NEW; 2],
            rematch_of: None,
            grace_ms,
            first_move_ms: FIRST_MOVE_MS,
        }
    }
}

/// One game between two named players, refereed.
#[derive(Clone, Debug)]
pub struct Room {
    setup: Setup,
    game: nocca::Game,
    events: Vec<Event>,
    last_seq: [Option<u64>; 2],
    gone_since: [Option<u64>; 2],
    result: Option<GameResult>,
    /// Each side's time left (meaningful with a time control), as of `turn_since`.
    remaining: [u64; 2],
    /// When the side to move's turn began (its clock, or its first-move limit, counts from here).
    turn_since: u64,
    /// The latest time the room was told of.
    now: u64,
    /// Each move's time (spent, and both clocks after it), in order.
    times: Vec<MoveTime>,
}

impl Room {
    /// A new untimed, unrated game on `dims` started at time 0, Black to move; its first event (number 1) says it
    /// started. A player gone longer than `grace_ms` loses (or, before both sides moved, the game is aborted).
    pub fn new(dims: Dims, black: &str, white: &str, grace_ms: u64) -> Room {
        Room::start(Setup::casual(dims, black, white, grace_ms), 0)
    }

    /// A new game as `setup` says, started at `now_ms`; its first event (number 1) says it started.
    pub fn start(setup: Setup, now_ms: u64) -> Room {
        let full = setup.clock.map_or(0, TimeControl::start_ms);
        let mut room = Room {
            game: nocca::Game::new(setup.dims, GameOptions::default()),
            events: Vec::new(),
            last_seq: [None; 2],
            gone_since: [None; 2],
            result: None,
            remaining: [full; 2],
            turn_since: now_ms,
            now: now_ms,
            times: Vec::new(),
            setup,
        };
        let s = &room.setup;
        let kind = EventKind::Started {
            black: s.black.clone(),
            white: s.white.clone(),
            board: s.dims.to_string(),
            clock: s.clock,
            rated: s.rated,
            black_rating: s.ratings[0],
            white_rating: s.ratings[1],
            rematch_of: s.rematch_of,
            clocks: room.clocks(),
        };
        room.push(kind);
        room
    }

    /// A game in play rebuilt after a restart, at `now_ms`: started as `setup` says, its `moves` (Parlor's
    /// notation, separated by spaces) replayed, each side's clock set to what it had left (`remaining`, Black's
    /// first; the time the server was down is not charged) and the last sequence number taken from each side restored.
    /// The side to move's clock (or first-move limit) runs from `now_ms`. Events are numbered as before; their
    /// clocks read as at the restart.
    pub fn restore(
        setup: Setup,
        moves: &str,
        remaining: [u64; 2],
        last_seq: [Option<u64>; 2],
        now_ms: u64,
    ) -> Result<Room, RefereeError> {
        let mut room = Room::start(setup, now_ms);
        for (seq, text) in (1..).zip(moves.split_whitespace()) {
            let side = Side::from(room.game.side_to_move());
            room.play(side, seq, text)?;
        }
        if room.result.is_some() {
            return Err(RefereeError::Inconsistent);
        }
        if room.setup.clock.is_some() {
            room.remaining = remaining;
        }
        room.last_seq = last_seq;
        room.turn_since = now_ms;
        Ok(room)
    }

    /// Each move's time so far, in order: how long its side took, and (timed games) both clocks after it.
    pub fn times(&self) -> &[MoveTime] {
        &self.times
    }

    /// Puts back the moves' times kept with a game in play rebuilt by [`Room::restore`] (whose replayed moves took
    /// no time): as many as there are moves, in order; if `times` does not have one for every move, they stay as
    /// replayed and false is returned.
    ///
    /// For a timed game each `moved` event then reads the clocks its move was played with (kept in its time), as
    /// it did when it was sent live, not the clocks of the replay (which took no time).
    pub fn restore_times(&mut self, times: &[MoveTime]) -> bool {
        if times.len() != self.times.len() {
            return false;
        }
        self.times = times.to_vec();
        if self.setup.clock.is_some() {
            let moved = self
                .events
                .iter_mut()
                .filter(|e| matches!(e.kind, EventKind::Moved { .. }));
            for (event, kept) in moved.zip(times) {
                if let (
                    EventKind::Moved {
                        clocks: Some(c), ..
                    },
                    Some(black_ms),
                    Some(white_ms),
                ) = (&mut event.kind, kept.black_ms, kept.white_ms)
                {
                    c.black_ms = black_ms;
                    c.white_ms = white_ms;
                }
            }
        }
        true
    }

    /// Puts back both clocks as they read when a finished game (rebuilt by [`Room::replayed_from`]) ended, kept
    /// with it (Black's first): its `ended` event then reads them, as it did when it was sent live (a game lost by
    /// leaving charged the leaver's running clock, which the moves' times do not hold). Nothing changes for an
    /// untimed game or one not over.
    pub fn restore_end_clocks(&mut self, clocks: [u64; 2]) {
        if self.setup.clock.is_none() || self.result.is_none() {
            return;
        }
        self.remaining = clocks;
        if let Some(Event {
            kind: EventKind::Ended {
                clocks: Some(c), ..
            },
            ..
        }) = self.events.last_mut()
        {
            c.black_ms = clocks[0];
            c.white_ms = clocks[1];
        }
    }

    /// Each side's time left as of the last move (Black's first); for an untimed game, zeros.
    pub fn remaining(&self) -> [u64; 2] {
        self.remaining
    }

    /// The last sequence number taken from each side (Black's first).
    pub fn last_seqs(&self) -> [Option<u64>; 2] {
        self.last_seq
    }

    /// What the game was started with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Whether the side to move's clock runs now (a time control, both sides past their first move, not over).
    fn clock_runs(&self) -> bool {
        self.setup.clock.is_some()
            && self.game.ply() >= PLIES_BEFORE_RESULT
            && self.result.is_none()
    }

    /// Both clocks as of the last event, for the events; none for an untimed game.
    fn clocks(&self) -> Option<Clocks> {
        self.setup.clock?;
        Some(Clocks {
            black_ms: self.remaining[0],
            white_ms: self.remaining[1],
            running: self
                .clock_runs()
                .then(|| Side::from(self.game.side_to_move())),
        })
    }

    /// Both clocks at `now_ms` (the running one counted down to then); none for an untimed game.
    pub fn clocks_at(&self, now_ms: u64) -> Option<Clocks> {
        let mut clocks = self.clocks()?;
        if let Some(side) = clocks.running {
            let left =
                self.remaining[side.index()].saturating_sub(now_ms.saturating_sub(self.turn_since));
            match side {
                Side::Black => clocks.black_ms = left,
                Side::White => clocks.white_ms = left,
            }
        }
        Some(clocks)
    }

    /// Fills in both players' rating changes in the `Ended` event of a finished rated game that was not aborted
    /// (once). Returns the event as it now reads.
    pub fn rate(&mut self, changes: RatingChanges) -> Option<Event> {
        let result = self.result?;
        if !self.setup.rated || result.reason == EndReason::Aborted {
            return None;
        }
        let last = self.events.last_mut()?;
        match &mut last.kind {
            EventKind::Ended { ratings, .. } if ratings.is_none() => {
                *ratings = Some(changes);
                Some(last.clone())
            }
            _ => None,
        }
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
        Room::replayed_from(
            Setup::casual(dims, black, white, 0),
            record,
            result,
            None,
            None,
        )
    }

    /// A finished game rebuilt as [`Room::replayed`] does, from its whole setup (time control, rated, the ratings
    /// at its start), with its rating changes, if it made any, in its `Ended` event.
    ///
    /// With the moves' `times` as they were kept (one a move, in order), each `moved` event carries the clocks the
    /// game had after that move, as it did when it was played, and [`Room::times`] gives them back; the `ended`
    /// event carries the clocks after the last move (for a game lost on time, the loser's at zero; for one lost by
    /// leaving, the time the leaver's clock ran after the last move is not kept and is not counted). Without them
    /// (a game kept before the times were, or `times` not one a move, which is ignored), the clocks read as if every
    /// move took no time.
    pub fn replayed_from(
        setup: Setup,
        record: &str,
        result: GameResult,
        ratings: Option<RatingChanges>,
        times: Option<&[MoveTime]>,
    ) -> Result<Room, RefereeError> {
        let mut room = Room::start(setup, 0);
        let moves: Vec<&str> = record.split_whitespace().collect();
        let times = times.filter(|t| t.len() == moves.len());
        for (i, text) in moves.iter().enumerate() {
            let side = Side::from(room.game.side_to_move());
            let before = room.events.len();
            room.play(side, i as u64 + 1, text)?;
            if let Some(kept) = times.map(|t| t[i]) {
                room.keep_clocks(kept, before);
            }
        }
        if let Some(t) = times {
            room.times = t.to_vec();
        }
        match room.result {
            None if !matches!(
                result.reason,
                EndReason::Goal | EndReason::Blockade | EndReason::Repetition | EndReason::PlyCap
            ) =>
            {
                if result.reason == EndReason::Time
                    && room.setup.clock.is_some()
                    && let Some(winner) = result.winner
                {
                    room.remaining[winner.other().index()] = 0;
                }
                room.end(result.winner, result.reason);
            }
            Some(r) if r == result => {}
            _ => return Err(RefereeError::Inconsistent),
        }
        if let Some(changes) = ratings {
            room.rate(changes);
        }
        Ok(room)
    }

    /// Sets both clocks to a replayed move's kept ones (a timed game's), in the room and in the events pushed since
    /// event index `from` (the move's, and the end's if it ended the game); whose clock runs is left as replayed.
    fn keep_clocks(&mut self, kept: MoveTime, from: usize) {
        let (Some(black_ms), Some(white_ms)) = (kept.black_ms, kept.white_ms) else {
            return;
        };
        if self.setup.clock.is_none() {
            return;
        }
        self.remaining = [black_ms, white_ms];
        for event in &mut self.events[from..] {
            if let EventKind::Moved {
                clocks: Some(c), ..
            }
            | EventKind::Ended {
                clocks: Some(c), ..
            } = &mut event.kind
            {
                c.black_ms = black_ms;
                c.white_ms = white_ms;
            }
        }
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
            clocks: self.clocks(),
            ratings: None,
        })
    }

    /// When the side to move's time (its clock, or its first-move limit) runs out, if it can.
    fn time_deadline(&self) -> Option<u64> {
        if self.result.is_some() {
            return None;
        }
        if self.game.ply() < PLIES_BEFORE_RESULT {
            return Some(self.turn_since.saturating_add(self.setup.first_move_ms));
        }
        let side = Side::from(self.game.side_to_move());
        self.clock_runs()
            .then(|| self.turn_since.saturating_add(self.remaining[side.index()]))
    }

    /// A result for a game left early: before both sides moved nobody wins.
    fn early_or(&self, winner: Side, reason: EndReason) -> (Option<Side>, EndReason) {
        if self.game.ply() < PLIES_BEFORE_RESULT {
            (None, EndReason::Aborted)
        } else {
            (Some(winner), reason)
        }
    }

    /// Plays `side`'s move `text` sent with the client's sequence number `seq`, at the time of the last event or
    /// tick (no time passing: for untimed games and tests; see [`Room::play_at`]).
    pub fn play(&mut self, side: Side, seq: u64, text: &str) -> Result<Played, RefereeError> {
        self.play_at(side, seq, text, self.now)
    }

    /// Plays `side`'s move `text` sent with the client's sequence number `seq`, arrived at `now_ms`. If the side to
    /// move's time ran out before then, the move is not played: the game ends on time (or is aborted, for a
    /// first move not made in time), and the events say so.
    pub fn play_at(
        &mut self,
        side: Side,
        seq: u64,
        text: &str,
        now_ms: u64,
    ) -> Result<Played, RefereeError> {
        if self.last_seq[side.index()].is_some_and(|last| seq <= last) {
            return Ok(Played::AlreadyPlayed);
        }
        if self.result.is_some() {
            return Err(RefereeError::GameOver);
        }
        let now_ms = now_ms.max(self.now);
        if let Some(ended) = self.tick(now_ms) {
            return Ok(Played::Events(vec![ended]));
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
        // The mover's clock ran if both sides had moved before this move.
        if self.setup.clock.is_some() && self.game.ply() > PLIES_BEFORE_RESULT {
            let spent = now_ms.saturating_sub(self.turn_since);
            let increment = self.setup.clock.map_or(0, TimeControl::increment_ms);
            let left = &mut self.remaining[side.index()];
            *left = left.saturating_sub(spent).saturating_add(increment);
        }
        let spent_ms = now_ms.saturating_sub(self.turn_since);
        self.turn_since = now_ms;
        let timed = self.setup.clock.is_some();
        self.times.push(MoveTime {
            spent_ms,
            black_ms: timed.then_some(self.remaining[0]),
            white_ms: timed.then_some(self.remaining[1]),
        });
        let mut events = vec![self.push(EventKind::Moved {
            by: side,
            ply: self.game.ply() as u32,
            mv: mv.to_string(),
            clocks: self.clocks(),
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

    /// Whether `side` is away (its connection dropped, its seat held) in a game in play.
    pub fn is_away(&self, side: Side) -> bool {
        self.result.is_none() && self.gone_since[side.index()].is_some()
    }

    /// The milliseconds left at `now_ms` of the grace period of `side`, away; none if it is not away.
    pub fn grace_left(&self, side: Side, now_ms: u64) -> Option<u64> {
        if !self.is_away(side) {
            return None;
        }
        self.gone_since[side.index()]
            .map(|t| t.saturating_add(self.setup.grace_ms).saturating_sub(now_ms))
    }

    /// When (in the caller's milliseconds) the game will end unless something happens first: a player gone past the
    /// grace period, a first move not made in time, or the running clock at zero.
    pub fn deadline(&self) -> Option<u64> {
        let grace = self.setup.grace_ms;
        self.gone_since
            .iter()
            .flatten()
            .map(|t| t.saturating_add(grace))
            .chain(self.time_deadline())
            .min()
    }

    /// Decides the game at `now_ms` if time decides it: the side to move's clock at zero (it loses on time) or its
    /// first move not made in time (aborted), else a player gone past the grace period (the one gone first loses;
    /// before both sides moved, the game is aborted). Whichever came first wins out. Returns the `Ended` event, if
    /// it ended now.
    pub fn tick(&mut self, now_ms: u64) -> Option<Event> {
        if self.result.is_some() {
            return None;
        }
        self.now = self.now.max(now_ms);
        let grace = self.setup.grace_ms;
        let gone = [Side::Black, Side::White]
            .into_iter()
            .filter_map(|s| self.gone_since[s.index()].map(|t| (t.saturating_add(grace), s)))
            .filter(|(due, _)| now_ms >= *due)
            .min_by_key(|(due, s)| (*due, s.index()));
        let timed_out = self.time_deadline().filter(|due| now_ms >= *due);
        match (timed_out, gone) {
            (Some(due), g) if g.is_none_or(|(gone_due, _)| due <= gone_due) => {
                let side = Side::from(self.game.side_to_move());
                if self.game.ply() < PLIES_BEFORE_RESULT {
                    Some(self.end(None, EndReason::Aborted))
                } else {
                    self.remaining[side.index()] = 0;
                    self.turn_since = due;
                    Some(self.end(Some(side.other()), EndReason::Time))
                }
            }
            (_, Some((_, side))) => {
                if self.clock_runs() {
                    let mover = Side::from(self.game.side_to_move());
                    let left = &mut self.remaining[mover.index()];
                    *left = left.saturating_sub(now_ms.saturating_sub(self.turn_since));
                }
                let (winner, reason) = self.early_or(side.other(), EndReason::Abandoned);
                Some(self.end(winner, reason))
            }
            _ => None,
        }
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
        match side {
            Side::Black => &self.setup.black,
            Side::White => &self.setup.white,
        }
    }

    /// The side `name` plays, if they play in this game.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        [Side::Black, Side::White]
            .into_iter()
            .find(|&s| self.name(s) == name)
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
