//! The values of a game as the protocol writes them: sides, time controls, clocks, ratings, and a game's events.

use super::*;

/// A side of the board, as the protocol writes it (`"black"`, `"white"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        match self {
            Side::Black => 0,
            Side::White => 1,
        }
    }

    /// The protocol's word for the side.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }
}

impl From<Colour> for Side {
    fn from(c: Colour) -> Side {
        match c {
            Colour::Black => Side::Black,
            Colour::White => Side::White,
        }
    }
}

impl From<Side> for Colour {
    fn from(s: Side) -> Colour {
        match s {
            Side::Black => Colour::Black,
            Side::White => Colour::White,
        }
    }
}

/// A time control: base minutes for each side, plus seconds added after each of its moves (`5+3`). A game without
/// one (`null`) is untimed: only the first-move limit and the grace period apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Base time for each side, in minutes (0 to [`MAX_CLOCK_MINUTES`]).
    pub minutes: u32,
    /// Seconds added to a side's clock after each of its moves (0 to [`MAX_INCREMENT_SECS`]).
    pub increment_secs: u32,
}

impl TimeControl {
    /// The base time in milliseconds.
    pub fn initial_ms(self) -> u64 {
        u64::from(self.minutes) * 60_000
    }

    /// Each side's time at the start, in milliseconds: the base time, or one increment if the base is 0 (so
    /// `0+2` starts with 2 seconds).
    pub fn start_ms(self) -> u64 {
        if self.minutes == 0 {
            self.increment_ms()
        } else {
            self.initial_ms()
        }
    }

    /// The increment in milliseconds.
    pub fn increment_ms(self) -> u64 {
        u64::from(self.increment_secs) * 1000
    }

    /// Checks the bounds: minutes and increment within theirs, and not both zero.
    pub fn check(self) -> Result<(), TimeControlError> {
        if self.minutes > MAX_CLOCK_MINUTES || self.increment_secs > MAX_INCREMENT_SECS {
            return Err(TimeControlError::TooLong);
        }
        if self.minutes == 0 && self.increment_secs == 0 {
            return Err(TimeControlError::NoTime);
        }
        Ok(())
    }
}

impl std::fmt::Display for TimeControl {
    /// `minutes+seconds`, as players write it (`5+3`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.minutes, self.increment_secs)
    }
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// Not `minutes+seconds` nor `minutes`: the text as written.
    #[error("time control {0:?}: write minutes+seconds, as 5+3")]
    Syntax(String),
    /// Over [`MAX_CLOCK_MINUTES`] or [`MAX_INCREMENT_SECS`].
    #[error(
        "a time control has at most {MAX_CLOCK_MINUTES} minutes and {MAX_INCREMENT_SECS} seconds a move"
    )]
    TooLong,
    /// `0+0`.
    #[error("a time control of 0+0 leaves no time: give minutes or an increment")]
    NoTime,
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    /// `5+3` (minutes plus seconds a move) or `10` (no increment), within the bounds of [`TimeControl::check`].
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let (m, i) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| TimeControlError::Syntax(s.to_string()))
        };
        let tc = TimeControl {
            minutes: number(m)?,
            increment_secs: number(i)?,
        };
        tc.check()?;
        Ok(tc)
    }
}

/// Both clocks at an event: what each side had left when it happened, and whose clock was then running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clocks {
    /// Black's remaining time, in milliseconds.
    pub black_ms: u64,
    /// White's remaining time, in milliseconds.
    pub white_ms: u64,
    /// The side whose clock runs from this event on; none before the first move and once the game is over.
    pub running: Option<Side>,
}

/// A player's Glicko-2 rating as shown: the rating and its deviation, rounded (the server keeps the exact figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: i32,
    /// The rating deviation (350 for a new player; smaller is surer).
    pub deviation: u32,
}

impl Rating {
    /// A new player's rating: 1500, deviation 350.
    pub const NEW: Rating = Rating {
        rating: 1500,
        deviation: 350,
    };
}

/// One player's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingChange {
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// Both players' rating changes after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingChanges {
    /// Black's.
    pub black: RatingChange,
    /// White's.
    pub white: RatingChange,
}

/// Which daily challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Daily {
    /// 2048 of the day.
    Twenty48,
    /// Mastermind of the day.
    Mastermind,
}

/// Which leaderboard of a daily challenge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Board {
    /// The ranked board: 2048's ranked games, dealt by the server tile by tile (no hints, no undo); Mastermind's
    /// only board.
    #[default]
    Plain,
    /// 2048's unranked board: games played on the client from the day's shared seed and handed in whole
    /// (`submit_2048`), with or without hints and undo.
    Assisted,
}

/// Why a game ended, as the protocol writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A piece stepped beyond the opponent's home row.
    Goal,
    /// The side to move had no legal move and lost.
    Blockade,
    /// The same position occurred a third time (draw).
    Repetition,
    /// The ply cap was reached (draw).
    PlyCap,
    /// A player resigned.
    Resignation,
    /// A player was gone past the grace period and lost.
    Abandoned,
    /// The game ended before both sides had moved (a resignation, a departure, or a first move not made within
    /// [`FIRST_MOVE_MS`]); nobody wins.
    Aborted,
    /// A player's clock ran out and they lost.
    Time,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 8] = [
        EndReason::Goal,
        EndReason::Blockade,
        EndReason::Repetition,
        EndReason::PlyCap,
        EndReason::Resignation,
        EndReason::Abandoned,
        EndReason::Aborted,
        EndReason::Time,
    ];

    /// The protocol's word for the reason (as stored by the server).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Blockade => "blockade",
            EndReason::Repetition => "repetition",
            EndReason::PlyCap => "ply_cap",
            EndReason::Resignation => "resignation",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
            EndReason::Time => "time",
        }
    }

    /// The reason for a word written by [`EndReason::as_str`].
    pub fn parse(word: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.as_str() == word)
    }
}

impl From<nocca::Reason> for EndReason {
    fn from(r: nocca::Reason) -> EndReason {
        match r {
            nocca::Reason::Goal => EndReason::Goal,
            nocca::Reason::Blockade => EndReason::Blockade,
            nocca::Reason::Repetition => EndReason::Repetition,
            nocca::Reason::PlyCap => EndReason::PlyCap,
        }
    }
}

/// What happened in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventKind {
    /// The game started.
    Started {
        /// Black's name (Black moves first).
        black: String,
        /// White's name.
        white: String,
        /// The board, `ROWSxCOLS`.
        board: String,
        /// The time control; none for an untimed game.
        #[serde(default)]
        clock: Option<TimeControl>,
        /// Whether the game changes ratings.
        #[serde(default)]
        rated: bool,
        /// Black's rating at the start.
        black_rating: Rating,
        /// White's rating at the start.
        white_rating: Rating,
        /// The finished game this is a rematch of, if it is one.
        #[serde(default)]
        rematch_of: Option<u64>,
        /// Both clocks, full and none running; none if untimed. Neither clock runs before both sides have made
        /// their first move (each has [`FIRST_MOVE_MS`] for it instead); from White's first move on, the clock of
        /// the side to move runs.
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// A move was played.
    Moved {
        /// Who played it.
        by: Side,
        /// The ply number, 1 for the first move.
        ply: u32,
        /// The move in Parlor's Nocca notation.
        mv: String,
        /// Both clocks after it (the mover's increment added; the other side's now running); none if untimed.
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// The game ended.
    Ended {
        /// The winner, or none for a draw or an abort.
        winner: Option<Side>,
        /// Why.
        reason: EndReason,
        /// The final position in the `nocca` crate's text form.
        position: String,
        /// Both clocks at the end (none running; a flag fallen reads 0); none if untimed.
        #[serde(default)]
        clocks: Option<Clocks>,
        /// Both players' rating changes, for a rated game that was not aborted.
        #[serde(default)]
        ratings: Option<RatingChanges>,
    },
}

/// A numbered event of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Its number: 1 for the start, one more for each event after it.
    pub n: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}
