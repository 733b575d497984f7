//! The wire protocol, version 2: one JSON object per WebSocket text message, `{"v": 2, "type": "...", ...}`.
//!
//! # Rules of every message
//! - Every message carries `"v": 2` ([`VERSION`]); a message of another version (v1 included) is refused.
//! - A client's message is at most [`MAX_MESSAGE_BYTES`] bytes, except `submit_2048` (a whole game's moves), at most
//!   [`MAX_SUBMIT_BYTES`]; a server's message is at most [`MAX_SERVER_MESSAGE_BYTES`] (lists are cut at
//!   [`LIST_LIMIT`] entries).
//! - Unknown types and unknown fields are refused; fields documented "optional" may be left out (they read as
//!   `null`/`false`/none). The one exception is a finished game's [`GameRecord`], which has a format of its own
//!   ([`RECORD_FORMAT`]): its unknown fields are ignored, and a record of a newer format is refused.
//! - Parsing never panics: whatever the text, [`ClientMessage::parse`] and [`ServerMessage::parse`] return a message
//!   or a [`ParseError`] saying what was wrong. A refused message changes nothing on the server, which answers an
//!   `error` ([`ErrorCode`]) and keeps the connection.
//!
//! # A session
//! 1. The client opens a WebSocket to the server's root (`ws://HOST:PORT/`) and sends `hello` with its name and its
//!    secret token (made once, kept in the config dir). It gets `welcome`: its rating and its games in play.
//! 2. Lobby: `lobby` answers `lobby` (players online with ratings, the open challenges to and from you, live games to
//!    watch, your place in the queue); with `"follow": true` a new `lobby` is pushed when it changes (at most once a
//!    second).
//! 3. A game starts by a `challenge` (a named player, board, time control or none, rated or not) that the other
//!    `accept`s (or `decline`s; the challenger may `cancel`), or by the rated `queue` (board and time control; the
//!    server pairs players of near rating, the band widening as they wait; `unqueue` leaves it).
//! 4. A game is a stream of numbered `event`s: 1 is `started`, then one `moved` per move, and last `ended`. Every
//!    event carries both clocks ([`Clocks`]: the remaining milliseconds when it happened and whose clock runs), so
//!    the client counts the running clock down from the moment it got the event. The client sends `move` with its
//!    own increasing `seq` (a move sent again with a `seq` already taken is ignored, so resending after a doubt is
//!    harmless), `ack`s the last event it has seen, and after a dropped connection says `hello` again and
//!    `resume`s each game from its last event number: it gets exactly the events after it, nothing lost or doubled.
//!    A player may be connected several times at once (two tabs, a phone and a laptop): every connection gets the
//!    player's events and a move from any is taken. A connection that says `hello` while a game of its player goes
//!    on is sent that game's new events once it `resume`s it (or moves, resigns or acks in it), or a second after
//!    `hello` at the latest (then from the `last_event` its `welcome` gave), so what it missed comes first.
//! 5. A game ends by the rules (goal, blockade, repetition, ply cap), resignation, time (a flag fall), a player gone
//!    past the grace period, or an abort (a side that does not make its first move within [`FIRST_MOVE_MS`], or a
//!    resignation/departure before both sides have moved). `ended` gives the winner, the reason, the final position
//!    and, for a rated game, both players' rating changes. Then either player may offer a `rematch` (colours
//!    swapped, same board and clock); the other accepts by sending `rematch` too, or `decline_rematch`.
//!    While a player has no connection open, their opponent and the game's spectators are told so (`away`, with the
//!    milliseconds left of the grace period) and told again when the player is `back`.
//! 6. Anyone may `watch` a live game from an event number (0: from the start) and gets the same numbered events as
//!    the players until the end or `unwatch`. `record` gives a finished game's whole [`GameRecord`] (enough to
//!    import it into the local history and replay it; with each move's time, [`MoveTime`], when the server kept
//!    them); `games` lists a player's last finished games. Following the lobby and watching are the connection's
//!    own: after connecting again a client asks for them again.
//! 7. Daily challenges (the day is the UTC date, `YYYY-MM-DD`): `daily_2048` gives the day's seed; the client plays
//!    with `twenty48::Game::new(Rules::default(), seed)` and sends `submit_2048` with every action (slides and
//!    undos, [`actions_to_letters`]), the score it claims, and whether hints or undo were used; the server replays
//!    them, refuses a claimed score the moves do not produce, and ranks the score it computed (games with hints or
//!    undo on the `assisted` board, the others on `plain`). `daily_mastermind` gives the day's game (the secret never
//!    leaves the server) and the guesses already scored; each `guess` is scored by the server. `leaderboard` ranks
//!    a day's board by the server's figures only.

use nocca::Colour;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The protocol version this crate speaks (the `"v"` of every message).
pub const VERSION: u64 = 2;

/// The largest message, in bytes, a client may send (but see [`MAX_SUBMIT_BYTES`]).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The largest `submit_2048` message, in bytes (a whole 2048 game's actions, one letter each).
pub const MAX_SUBMIT_BYTES: usize = 60_000;

/// The largest message, in bytes, a server sends.
pub const MAX_SERVER_MESSAGE_BYTES: usize = 256 * 1024;

/// The most entries in any list the server sends (players, challenges, games, leaderboard rows).
pub const LIST_LIMIT: usize = 100;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The shortest and longest token, in characters.
pub const TOKEN_CHARS: std::ops::RangeInclusive<usize> = 16..=128;

/// How long, in milliseconds, each side has to make its first move (counted from the start for Black, from
/// Black's first move for White); past it the game is aborted, nobody winning and no rating changing.
pub const FIRST_MOVE_MS: u64 = 30_000;

/// The longest time control's base time, in minutes, and its longest increment, in seconds.
pub const MAX_CLOCK_MINUTES: u32 = 180;

/// The longest increment, in seconds per move.
pub const MAX_INCREMENT_SECS: u32 = 180;

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
    pub fn check(self) -> Result<(), String> {
        if self.minutes > MAX_CLOCK_MINUTES || self.increment_secs > MAX_INCREMENT_SECS {
            return Err(format!(
                "a time control has at most {MAX_CLOCK_MINUTES} minutes and {MAX_INCREMENT_SECS} seconds a move"
            ));
        }
        if self.minutes == 0 && self.increment_secs == 0 {
            return Err(
                "a time control of 0+0 leaves no time: give minutes or an increment".into(),
            );
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

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `5+3` (minutes plus seconds a move) or `10` (no increment), within the bounds of [`TimeControl::check`].
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let (m, i) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("time control {s:?}: write minutes+seconds, as 5+3"))
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
    /// Games played without hints or undo (Mastermind's only board).
    #[default]
    Plain,
    /// 2048 games in which hints or undo were used.
    Assisted,
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message of every connection: who this is. An unknown name is registered with its token; a known
    /// one must bring the same token. Answered by `welcome`.
    Hello {
        /// The player's name (1 to [`MAX_NAME_CHARS`] letters, digits, `_` or `-`).
        name: String,
        /// The player's secret, made and kept by the client ([`TOKEN_CHARS`] printable ASCII characters).
        token: String,
    },
    /// Ask for the lobby; answered by `lobby`.
    Lobby {
        /// Optional: keep sending `lobby` when it changes (at most once a second) until `"follow": false`.
        #[serde(default)]
        follow: bool,
    },
    /// Challenge a player who is online; they get `challenged`, you get `challenge_sent`.
    Challenge {
        /// The opponent's name.
        opponent: String,
        /// The board, `ROWSxCOLS` (`"6x5"`, any size Parlor plays).
        board: String,
        /// Optional: the time control; none for an untimed game.
        #[serde(default)]
        clock: Option<TimeControl>,
        /// Optional: whether the game changes ratings.
        #[serde(default)]
        rated: bool,
    },
    /// Accept a challenge received; the game starts (its `started` event goes to both), the challenger playing Black.
    Accept {
        /// The challenge's number.
        challenge: u64,
    },
    /// Decline a challenge received; the challenger gets `challenge_closed`.
    Decline {
        /// The challenge's number.
        challenge: u64,
    },
    /// Withdraw a challenge you made; the opponent gets `challenge_closed`.
    Cancel {
        /// The challenge's number.
        challenge: u64,
    },
    /// Join the rated queue for a board and time control (joining again replaces your place); answered by
    /// `queued`. When paired, the game's `started` event comes and you leave the queue.
    Queue {
        /// The board, `ROWSxCOLS`.
        board: String,
        /// Optional: the time control; none for untimed.
        #[serde(default)]
        clock: Option<TimeControl>,
    },
    /// Leave the queue; answered by `unqueued`.
    Unqueue {},
    /// Play a move.
    Move {
        /// The game.
        game: u64,
        /// The client's sequence number for its moves in this game, increasing; a move sent again with a number
        /// already taken is ignored.
        seq: u64,
        /// The move in Parlor's Nocca notation (`c1k`: a square and a direction letter).
        mv: String,
    },
    /// The last event number of a game the client has seen.
    Ack {
        /// The game.
        game: u64,
        /// The event number.
        event: u64,
    },
    /// Give up a game (before both sides have moved, the game is aborted instead).
    Resign {
        /// The game.
        game: u64,
    },
    /// Send again every event of a game you play (or played) after number `after` (0: all of them).
    Resume {
        /// The game.
        game: u64,
        /// The last event number the client has.
        after: u64,
    },
    /// After a finished game, offer its opponent a rematch (colours swapped, same board, clock and rating); the
    /// opponent gets `rematch_offered`. Sent by the other player it accepts the offer, and the new game starts.
    Rematch {
        /// The finished game.
        game: u64,
    },
    /// Decline a rematch offered; the other player gets `rematch_declined`.
    DeclineRematch {
        /// The finished game.
        game: u64,
    },
    /// Watch a live game: answered by `watching`, then every event after `after`, and every new one until the game
    /// ends or `unwatch`.
    Watch {
        /// The game.
        game: u64,
        /// The last event number the client has (0: all of them).
        after: u64,
    },
    /// Stop watching a game; answered by `unwatched`.
    Unwatch {
        /// The game.
        game: u64,
    },
    /// Ask for a finished game's record; answered by `record`.
    Record {
        /// The game.
        game: u64,
    },
    /// Ask for a player's last finished games (newest first, at most [`LIST_LIMIT`]); answered by `games`.
    Games {
        /// The player.
        player: String,
    },
    /// Ask for today's 2048 challenge; answered by `daily_2048`.
    #[serde(rename = "daily_2048")]
    Daily2048 {},
    /// Hand in a game of today's 2048; answered by `scored_2048`, or refused (`score_mismatch` if the moves do not
    /// produce the score claimed, `bad_actions` if they do not replay, `duplicate` if this board of the day already
    /// has your game, `bad_day` if the day is not today's).
    #[serde(rename = "submit_2048")]
    Submit2048 {
        /// The day played (`YYYY-MM-DD`, UTC), as `daily_2048` gave it.
        day: String,
        /// Every action in order, one letter each ([`actions_to_letters`]: `u`, `d`, `l`, `r` slides, `z` undo).
        actions: String,
        /// The score the client reached.
        score: u64,
        /// Whether hints were shown.
        hints: bool,
        /// Whether undo was used (must be true if `actions` holds a `z`).
        undo: bool,
    },
    /// Ask for today's Mastermind; answered by `daily_mastermind`.
    DailyMastermind {},
    /// A guess at today's Mastermind; answered by `guess_scored`, or refused (`duplicate` if guess number `n` was
    /// already scored or the same code was already guessed, `game_over` once solved or out of guesses).
    Guess {
        /// The day (`YYYY-MM-DD`, UTC), as `daily_mastermind` gave it.
        day: String,
        /// The guess's number: 1 for the first, one more than the guesses already scored.
        n: u32,
        /// The code in the `mastermind` crate's notation for the day's variant (`RGYU`, or `1234`).
        code: String,
    },
    /// Ask for a daily leaderboard; answered by `leaderboard`.
    Leaderboard {
        /// Which challenge.
        daily: Daily,
        /// Optional: the day (`YYYY-MM-DD`); today if none.
        #[serde(default)]
        day: Option<String>,
        /// Optional: which board (`plain` if none).
        #[serde(default)]
        board: Board,
    },
    /// Is the server there? Answered by `pong`, before `hello` as after it, and counted by the rate limits like any
    /// other message. A client sends it when the server has said nothing for a while: the WebSocket pings the
    /// server sends are answered by a browser without telling the page, so this is how a page hears a silent server.
    Ping {},
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

/// What kind of error the server reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message did not parse ([`ParseError`]).
    Malformed,
    /// The message was over its size limit.
    TooLarge,
    /// The first message was not `hello`, or `hello` came twice.
    NotIntroduced,
    /// The name is invalid, or taken by a player with another token.
    BadName,
    /// The token is invalid.
    BadToken,
    /// No such player online, challenge or game (for this player).
    NotFound,
    /// The board size is not one Parlor plays.
    BadBoard,
    /// The time control is out of bounds ([`TimeControl::check`]).
    BadClock,
    /// Not this player's turn.
    NotYourTurn,
    /// The move does not parse or breaks a rule.
    IllegalMove,
    /// The game (or the daily challenge) is over.
    GameOver,
    /// Not now: e.g. a challenge to a player already challenged by you, a rematch before the game ended.
    Conflict,
    /// Too many messages: slow down (the connection may be closed if it goes on).
    RateLimited,
    /// The day named is not today's (UTC), or not a date.
    BadDay,
    /// A 2048 game's actions do not parse or do not replay from the day's seed (or use undo while `undo` says
    /// not).
    BadActions,
    /// A 2048 game's actions replay to another score than the one claimed.
    ScoreMismatch,
    /// Already done: the day's board already has your game, or this guess was already scored.
    Duplicate,
    /// The server does not do this yet.
    Unsupported,
    /// The server could not do it (storage failed).
    Internal,
}

/// A player online, as the lobby lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerInfo {
    /// The name.
    pub name: String,
    /// Their rating.
    pub rating: Rating,
    /// Whether they are playing a game now.
    pub playing: bool,
    /// Whether they wait in the queue.
    pub queued: bool,
}

/// An open challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeInfo {
    /// Its number (for `accept`, `decline`, `cancel`).
    pub challenge: u64,
    /// Who challenges (will play Black).
    pub from: String,
    /// Who is challenged.
    pub to: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether the game would change ratings.
    pub rated: bool,
}

/// A game in play, as the lobby lists it (to watch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveGame {
    /// The game.
    pub game: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it is rated.
    pub rated: bool,
    /// Plies played so far.
    pub ply: u32,
    /// How many watch it.
    pub spectators: u32,
}

/// Your place in the queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueEntry {
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// How long you have waited, in milliseconds.
    pub waited_ms: u64,
    /// How far from your rating an opponent may now be (the band widens as you wait).
    pub band: u32,
}

/// The format of [`GameRecord`] this crate writes and reads: its major version. A record carries it in
/// `format`, left out when it is 1 (so a record of format 1 reads the same as before the field existed).
///
/// The rule, for a record from the server: within one format, fields are only ever added, each optional, and a
/// reader ignores the fields it does not know (a newer server's record still imports into an older client's
/// history, without what it adds); a change an older reader would misread (a field removed, renamed, made required
/// or given another meaning) makes a new format, and a reader refuses a record of a newer format than its own with
/// a clear message ([`ServerMessage::parse`] reads it as an `unsupported` error) rather than importing it wrong.
/// Records written before the rule (no `format`) are format 1. Every other message keeps the protocol's strict
/// rule (unknown fields refused).
pub const RECORD_FORMAT: u32 = 1;

fn record_format_1() -> u32 {
    1
}

fn is_record_format_1(format: &u32) -> bool {
    *format == 1
}

/// A finished game's whole record: enough to replay it and import it into the local history. Unknown fields are
/// ignored (see [`RECORD_FORMAT`] for the rule).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Optional: the record's format ([`RECORD_FORMAT`]); left out, and read as 1 when absent.
    #[serde(
        default = "record_format_1",
        skip_serializing_if = "is_record_format_1"
    )]
    pub format: u32,
    /// The game.
    pub game: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it was rated.
    pub rated: bool,
    /// The moves in Parlor's Nocca notation, separated by single spaces (as `nocca::Game::record` writes them;
    /// replay them from the start position of `board`).
    pub moves: String,
    /// The winner, or none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// The final position in the `nocca` crate's text form.
    pub position: String,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
    /// Both players' rating changes, if it changed ratings.
    pub ratings: Option<RatingChanges>,
    /// Optional (added in session 15; left out by older servers and for games kept before it): each move's time,
    /// one entry per move of `moves`, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<Vec<MoveTime>>,
}

/// One move's time in a finished game's record: how long its side took over it and, for a timed game, both clocks
/// right after it (the increment added). Part of the record: unknown fields are ignored ([`RECORD_FORMAT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveTime {
    /// Milliseconds from the end of the previous move (or the game's start) to this move, as the server measured
    /// them (the time a restarted server was down is not counted).
    pub spent_ms: u64,
    /// Optional: Black's remaining time after the move, in milliseconds; absent for an untimed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<u64>,
    /// Optional: White's remaining time after the move, in milliseconds; absent for an untimed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<u64>,
}

/// A finished game in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game (for `record`).
    pub game: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// Whether it was rated.
    pub rated: bool,
    /// The winner, or none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// A Mastermind guess and the server's score of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoredGuess {
    /// The guess's number, 1 for the first.
    pub n: u32,
    /// The code guessed, as the server reads it.
    pub code: String,
    /// Pegs of the right colour in the right place.
    pub black: u8,
    /// Pegs of a right colour in a wrong place.
    pub white: u8,
}

/// A row of a daily leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderEntry {
    /// The rank, 1 for the best (ties share a rank).
    pub rank: u32,
    /// The player.
    pub name: String,
    /// 2048: the score the server computed (higher is better). Mastermind: the guesses used to solve it (fewer is
    /// better; only solved games are ranked).
    pub score: u64,
    /// 2048: the largest tile; Mastermind: none.
    pub max_tile: Option<u64>,
    /// 2048: the slides played. Mastermind: milliseconds from the first `daily_mastermind` to the solving guess
    /// (the tie-break: sooner is better).
    pub detail: u64,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to `hello`: the player's rating and games in play (to resume).
    Welcome {
        /// The name, as registered.
        name: String,
        /// The player's rating.
        rating: Rating,
        /// The games in play, with the number of their last event.
        games: Vec<GameInPlay>,
    },
    /// The lobby.
    Lobby {
        /// How many players are online (the list may be cut at [`LIST_LIMIT`]).
        online: u32,
        /// Players online, best rated first.
        players: Vec<PlayerInfo>,
        /// Open challenges to and from you.
        challenges: Vec<ChallengeInfo>,
        /// Live games, newest first.
        games: Vec<LiveGame>,
        /// Your place in the queue, if you wait in it.
        queue: Option<QueueEntry>,
    },
    /// A player challenged you.
    Challenged {
        /// The challenge.
        challenge: ChallengeInfo,
    },
    /// Your challenge was passed on.
    ChallengeSent {
        /// The challenge.
        challenge: ChallengeInfo,
    },
    /// A challenge to or from you is no longer open: declined or cancelled (both players get this, the one who did
    /// it as the answer), or a player left. An accepted challenge gets no `challenge_closed`: the game's `started`
    /// event says it.
    ChallengeClosed {
        /// The challenge's number.
        challenge: u64,
        /// Why: `declined`, `cancelled`, or `gone` (a player left).
        reason: String,
    },
    /// You wait in the queue.
    Queued {
        /// Your place.
        entry: QueueEntry,
    },
    /// You left the queue (by `unqueue`, or because a connection of yours ended).
    Unqueued {},
    /// An event of a game (you play it or watch it).
    Event {
        /// The game.
        game: u64,
        /// The event.
        event: Event,
    },
    /// Your opponent in a finished game offers a rematch (send `rematch` to accept, `decline_rematch` to decline).
    RematchOffered {
        /// The finished game.
        game: u64,
        /// Who offers.
        from: String,
    },
    /// Your rematch offer was declined (or its player left).
    RematchDeclined {
        /// The finished game.
        game: u64,
    },
    /// You watch a game; its events follow.
    Watching {
        /// The game.
        game: u64,
        /// The number of its last event now.
        last_event: u64,
    },
    /// You no longer watch a game.
    Unwatched {
        /// The game.
        game: u64,
    },
    /// A finished game's record.
    Record {
        /// The record.
        record: GameRecord,
    },
    /// A player's last finished games, newest first.
    Games {
        /// The player.
        player: String,
        /// The games (at most [`LIST_LIMIT`]).
        games: Vec<GameSummary>,
    },
    /// Today's 2048.
    #[serde(rename = "daily_2048")]
    Daily2048 {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The seed: play `twenty48::Game::new(twenty48::Rules::default(), seed)`.
        seed: u64,
    },
    /// A 2048 game handed in, as the server scored it.
    #[serde(rename = "scored_2048")]
    Scored2048 {
        /// The day.
        day: String,
        /// The board it is ranked on.
        board: Board,
        /// The score the server computed.
        score: u64,
        /// The largest tile.
        max_tile: u64,
        /// The slides played.
        moves: u64,
        /// Its rank on the board now.
        rank: u32,
    },
    /// Today's Mastermind, with your guesses so far.
    DailyMastermind {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The `mastermind` crate's variant (`classic`: 6 colours, 4 pegs, 10 guesses, repeats allowed).
        variant: String,
        /// Your guesses so far, scored.
        guesses: Vec<ScoredGuess>,
        /// Whether you solved it.
        solved: bool,
        /// Whether your game is over (solved or out of guesses).
        over: bool,
    },
    /// A Mastermind guess, scored.
    GuessScored {
        /// The day.
        day: String,
        /// The guess and its score.
        guess: ScoredGuess,
        /// Whether it solved the code.
        solved: bool,
        /// Guesses left.
        left: u32,
    },
    /// A daily leaderboard.
    Leaderboard {
        /// Which challenge.
        daily: Daily,
        /// The day.
        day: String,
        /// Which board.
        board: Board,
        /// Its rows, best first (at most [`LIST_LIMIT`]).
        entries: Vec<LeaderEntry>,
    },
    /// A player of a game in play has no connection open any more (their network dropped, or they left): their
    /// seat is held for `grace_ms` more, then they lose (reason `abandoned`; before both sides moved the game is
    /// aborted). Sent to their opponent and to everyone watching the game, when it happens, and to a connection
    /// that says `hello` or starts to `watch` the game while the player is still away. A client that does not know
    /// this message skips it (added within version 2: nothing else changes).
    Away {
        /// The game.
        game: u64,
        /// The side of the player away.
        side: Side,
        /// Their name.
        name: String,
        /// The milliseconds left before they lose the game, counted from when this message was sent.
        grace_ms: u64,
    },
    /// A player who was [`ServerMessage::Away`] is back in the game; sent to the same connections.
    Back {
        /// The game.
        game: u64,
        /// The side of the player back.
        side: Side,
        /// Their name.
        name: String,
    },
    /// The answer to `ping`: the server is there.
    Pong {},
    /// A message was refused; nothing changed.
    Error {
        /// The kind of error.
        code: ErrorCode,
        /// What was wrong, in words.
        message: String,
        /// The game it concerns, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<u64>,
    },
}

/// A game in play, as `welcome` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameInPlay {
    /// The game.
    pub game: u64,
    /// The player's side.
    pub side: Side,
    /// The opponent's name.
    pub opponent: String,
    /// The number of the game's last event.
    pub last_event: u64,
}

/// Why a message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Over the size limit: the message's bytes and the limit.
    #[error("message of {0} bytes: the limit is {1}")]
    TooLarge(usize, usize),
    /// Not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotObject,
    /// No `"v"`, or not a number.
    #[error("no protocol version (\"v\": {VERSION})")]
    NoVersion,
    /// Another version.
    #[error("protocol version {0}: this side speaks version {VERSION}")]
    Version(u64),
    /// An object of the right version, but not a message of this kind.
    #[error("not a valid message: {0}")]
    Invalid(String),
}

impl ParseError {
    /// The error code the server answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            ParseError::TooLarge(..) => ErrorCode::TooLarge,
            _ => ErrorCode::Malformed,
        }
    }
}

/// Reads a message: checks the size against `limit`, the JSON, the version, then the fields.
fn parse<T: serde::de::DeserializeOwned>(text: &str, limit: usize) -> Result<T, ParseError> {
    serde_json::from_value(serde_json::Value::Object(object(text, limit)?))
        .map_err(|e| ParseError::Invalid(e.to_string()))
}

/// A message's object with its version checked and taken out: the size against `limit`, the JSON, the version.
fn object(
    text: &str,
    limit: usize,
) -> Result<serde_json::Map<String, serde_json::Value>, ParseError> {
    if text.len() > limit {
        return Err(ParseError::TooLarge(text.len(), limit));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ParseError::NotJson(e.to_string()))?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(ParseError::NotObject);
    };
    match map.remove("v").as_ref().map(serde_json::Value::as_u64) {
        Some(Some(VERSION)) => {}
        Some(Some(v)) => return Err(ParseError::Version(v)),
        _ => return Err(ParseError::NoVersion),
    }
    Ok(map)
}

/// Writes a message with its version first, then its fields in their declared order.
fn write<T: Serialize>(msg: &T) -> String {
    // Serialising these plain enums of strings and numbers cannot fail, and each is an object with a "type".
    let body = serde_json::to_string(msg).unwrap_or_default();
    match body.strip_prefix('{') {
        Some(rest) => format!("{{\"v\":{VERSION},{rest}"),
        None => format!("{{\"v\":{VERSION}}}"),
    }
}

impl ClientMessage {
    /// Parses a client's message: at most [`MAX_MESSAGE_BYTES`], or [`MAX_SUBMIT_BYTES`] for `submit_2048`.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        let msg = parse(text, MAX_SUBMIT_BYTES)?;
        if text.len() > MAX_MESSAGE_BYTES && !matches!(msg, ClientMessage::Submit2048 { .. }) {
            return Err(ParseError::TooLarge(text.len(), MAX_MESSAGE_BYTES));
        }
        Ok(msg)
    }

    /// The message as sent on the wire.
    pub fn to_text(&self) -> String {
        write(self)
    }
}

impl ServerMessage {
    /// Parses a server's message (at most [`MAX_SERVER_MESSAGE_BYTES`]). A `record` of a newer format than
    /// [`RECORD_FORMAT`] is not read: it parses as an `unsupported` [`ServerMessage::Error`] about its game that
    /// says so (the server never sends that error itself).
    pub fn parse(text: &str) -> Result<ServerMessage, ParseError> {
        let map = object(text, MAX_SERVER_MESSAGE_BYTES)?;
        if map.get("type").and_then(serde_json::Value::as_str) == Some("record")
            && let Some(record) = map.get("record")
            && let Some(format) = record.get("format").and_then(serde_json::Value::as_u64)
            && format > u64::from(RECORD_FORMAT)
        {
            let game = record.get("game").and_then(serde_json::Value::as_u64);
            let which = game.map_or_else(String::new, |g| format!("game {g}'s "));
            return Ok(ServerMessage::error(
                ErrorCode::Unsupported,
                format!(
                    "{which}record is of format {format}, newer than this client reads (format \
                     {RECORD_FORMAT}): update Parlor to read it"
                ),
                game,
            ));
        }
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| ParseError::Invalid(e.to_string()))
    }

    /// The message as sent on the wire.
    pub fn to_text(&self) -> String {
        write(self)
    }

    /// An error message.
    pub fn error(code: ErrorCode, message: impl Into<String>, game: Option<u64>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
            game,
        }
    }
}

/// Checks a player's name: 1 to [`MAX_NAME_CHARS`] ASCII letters, digits, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("a name has 1 to {MAX_NAME_CHARS} characters"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("a name has only letters, digits, '_' and '-'".into());
    }
    Ok(())
}

/// Checks a token: [`TOKEN_CHARS`] printable ASCII characters (no spaces).
pub fn check_token(token: &str) -> Result<(), String> {
    if !TOKEN_CHARS.contains(&token.len()) || !token.chars().all(|c| c.is_ascii_graphic()) {
        return Err(format!(
            "a token has {} to {} printable ASCII characters",
            TOKEN_CHARS.start(),
            TOKEN_CHARS.end()
        ));
    }
    Ok(())
}

/// Writes 2048 actions one letter each, as `submit_2048` carries them: `u`, `d`, `l`, `r` for the slides, `z` for
/// an undo.
pub fn actions_to_letters(actions: &[twenty48::Action]) -> String {
    use twenty48::{Action, Direction};
    actions
        .iter()
        .map(|a| match a {
            Action::Slide(Direction::Up) => 'u',
            Action::Slide(Direction::Down) => 'd',
            Action::Slide(Direction::Left) => 'l',
            Action::Slide(Direction::Right) => 'r',
            Action::Undo => 'z',
        })
        .collect()
}

/// Reads 2048 actions written by [`actions_to_letters`]; the error names the first letter that is not one (its
/// 1-based position).
pub fn letters_to_actions(letters: &str) -> Result<Vec<twenty48::Action>, String> {
    use twenty48::{Action, Direction};
    letters
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            'u' => Ok(Action::Slide(Direction::Up)),
            'd' => Ok(Action::Slide(Direction::Down)),
            'l' => Ok(Action::Slide(Direction::Left)),
            'r' => Ok(Action::Slide(Direction::Right)),
            'z' => Ok(Action::Undo),
            other => Err(format!(
                "action {} is {other:?}: actions are u, d, l, r (slides) and z (undo)",
                i + 1
            )),
        })
        .collect()
}
