//! The protocol's version and limits, and the rules of names and tokens.

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

/// Why a name was refused ([`check_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum NameError {
    /// Empty, or longer than [`MAX_NAME_CHARS`].
    #[error("a name has 1 to {MAX_NAME_CHARS} characters")]
    Length,
    /// A character other than an ASCII letter, a digit, `_` or `-`.
    #[error("a name has only letters, digits, '_' and '-'")]
    Characters,
}

/// Why a token was refused ([`check_token`]): not [`TOKEN_CHARS`] printable ASCII characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("a token has {} to {} printable ASCII characters", TOKEN_CHARS.start(), TOKEN_CHARS.end())]
pub struct TokenError;

/// Checks a player's name: 1 to [`MAX_NAME_CHARS`] ASCII letters, digits, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(NameError::Length);
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(NameError::Characters);
    }
    Ok(())
}

/// Checks a token: [`TOKEN_CHARS`] printable ASCII characters (no spaces).
pub fn check_token(token: &str) -> Result<(), TokenError> {
    if !TOKEN_CHARS.contains(&token.len()) || !token.chars().all(|c| c.is_ascii_graphic()) {
        return Err(TokenError);
    }
    Ok(())
}
