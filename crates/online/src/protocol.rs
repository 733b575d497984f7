//! The wire protocol, version 1: one JSON object per WebSocket text message, `{"v": 1, "type": "...", ...}`.
//!
//! Client to server ([`ClientMessage`]): `hello` (name and token), `challenge` a named player on a board size,
//! `accept` a challenge, `move` (with the client's own sequence number, so a resent move is harmless), `ack` (the last
//! event number seen), `resign`, `resume` (send again every event of a game after number N).
//!
//! Server to client ([`ServerMessage`]): `welcome`, `challenged`, `challenge_sent`, numbered game `event`s (game
//! started, move played, game ended with its reason) and `error`s. Every event of a game has a number, 1 for the
//! start and one more for each event after it; a client that has seen up to N asks to `resume` after N and gets
//! exactly N+1, N+2, ...
//!
//! Parsing never panics: a message over [`MAX_MESSAGE_BYTES`], not JSON, not an object, of another version, of an
//! unknown type or with fields of the wrong kind is refused with a [`ParseError`] saying which.

use nocca::Colour;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The protocol version this crate speaks (the `"v"` of every message).
pub const VERSION: u64 = 1;

/// The largest message, in bytes, either side accepts.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The shortest and longest token, in characters.
pub const TOKEN_CHARS: std::ops::RangeInclusive<usize> = 16..=128;

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

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message of every connection: who this is. An unknown name is registered with its token; a known
    /// one must bring the same token.
    Hello {
        /// The player's name (1 to [`MAX_NAME_CHARS`] letters, digits, `_` or `-`).
        name: String,
        /// The player's secret, made and kept by the client ([`TOKEN_CHARS`] printable ASCII characters).
        token: String,
    },
    /// Challenge a player who is online to a game on a board size (`"6x5"`, any size Parlor plays).
    Challenge {
        /// The opponent's name.
        opponent: String,
        /// The board, `ROWSxCOLS`.
        board: String,
    },
    /// Accept a challenge received; the game starts, the challenger playing Black.
    Accept {
        /// The challenge's number (from `challenged`).
        challenge: u64,
    },
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
    /// Send again every event of a game after number `after` (0: all of them).
    Resume {
        /// The game.
        game: u64,
        /// The last event number the client has.
        after: u64,
    },
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
    /// A player was gone past the grace period and lost on time.
    Abandoned,
    /// The game ended before both sides had moved; nobody wins.
    Aborted,
}

impl EndReason {
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
        }
    }

    /// The reason for a word written by [`EndReason::as_str`].
    pub fn parse(word: &str) -> Option<EndReason> {
        [
            EndReason::Goal,
            EndReason::Blockade,
            EndReason::Repetition,
            EndReason::PlyCap,
            EndReason::Resignation,
            EndReason::Abandoned,
            EndReason::Aborted,
        ]
        .into_iter()
        .find(|r| r.as_str() == word)
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
    },
    /// A move was played.
    Moved {
        /// Who played it.
        by: Side,
        /// The ply number, 1 for the first move.
        ply: u32,
        /// The move in Parlor's Nocca notation.
        mv: String,
    },
    /// The game ended.
    Ended {
        /// The winner, or none for a draw or an abort.
        winner: Option<Side>,
        /// Why.
        reason: EndReason,
        /// The final position in the `nocca` crate's text form.
        position: String,
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
    /// The message was over [`MAX_MESSAGE_BYTES`].
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
    /// Not this player's turn.
    NotYourTurn,
    /// The move does not parse or breaks a rule.
    IllegalMove,
    /// The game is over.
    GameOver,
    /// The server could not do it (storage failed).
    Internal,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to `hello`: the player's games in play (to resume).
    Welcome {
        /// The name, as registered.
        name: String,
        /// The games in play, with the number of their last event.
        games: Vec<GameInPlay>,
    },
    /// A player challenged you.
    Challenged {
        /// The challenge's number (for `accept`).
        challenge: u64,
        /// Who.
        from: String,
        /// The board, `ROWSxCOLS`.
        board: String,
    },
    /// Your challenge was passed on.
    ChallengeSent {
        /// The challenge's number.
        challenge: u64,
        /// To whom.
        to: String,
        /// The board, `ROWSxCOLS`.
        board: String,
    },
    /// An event of a game.
    Event {
        /// The game.
        game: u64,
        /// The event.
        event: Event,
    },
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
    /// The number of the game's last event.
    pub last_event: u64,
}

/// Why a message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Over the size limit.
    #[error("message of {0} bytes: the limit is {MAX_MESSAGE_BYTES}")]
    TooLarge(usize),
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
            ParseError::TooLarge(_) => ErrorCode::TooLarge,
            _ => ErrorCode::Malformed,
        }
    }
}

/// Reads a message: checks the size, the JSON, the version, then the fields.
fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ParseError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ParseError::TooLarge(text.len()));
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
    serde_json::from_value(serde_json::Value::Object(map))
        .map_err(|e| ParseError::Invalid(e.to_string()))
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
    /// Parses a client's message.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        parse(text)
    }

    /// The message as sent on the wire.
    pub fn to_text(&self) -> String {
        write(self)
    }
}

impl ServerMessage {
    /// Parses a server's message.
    pub fn parse(text: &str) -> Result<ServerMessage, ParseError> {
        parse(text)
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
