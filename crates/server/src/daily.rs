//! The daily challenges, judged by the server: 2048 of the day (ranked: dealt tile by tile by the server,
//! [`crate::ranked`]; unranked: the server gives the day's seed, replays the actions it is sent with the `twenty48`
//! engine and ranks the score it computes on the unranked board) and Mastermind of the day (each player's
//! secret, drawn from the day's seed and the player's name, never leaves the server; each guess is scored here). The day is the UTC date; each day's
//! seeds come from a secret the server keeps in its database, so nobody can know a day's game before it comes.

use parlor_online::protocol::{Board, ErrorCode, letters_to_actions};
use sha2::{Digest, Sha256};

/// The day's Mastermind variant (the `mastermind` crate's preset name).
pub const MASTERMIND_VARIANT: &str = "classic";

/// The UTC date of `unix_ms`, `YYYY-MM-DD` (the protocol's day, [`parlor_online::protocol::utc_day`]).
pub fn day_of(unix_ms: u64) -> String {
    parlor_online::protocol::utc_day(unix_ms)
}

/// Today, `YYYY-MM-DD` (UTC).
pub fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    day_of(ms)
}

/// The seed of a day's game (`what`: `2048` or `mastermind`) under the server's secret.
pub fn seed(secret: &str, what: &str, day: &str) -> u64 {
    let digest = Sha256::digest(format!("{secret}/{what}/{day}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The seed of `name`'s Mastermind of `day` under the server's secret: each player has a secret of their own, drawn
/// at random and uniformly from the variant's codes (as the day's would be), so a secret solved under one name tells
/// nothing of another name's. Names are keyed after case folding (`store::name_key`), so one player keeps one
/// secret whatever the case they log in with.
pub fn mastermind_seed(secret: &str, day: &str, name: &str) -> u64 {
    seed(
        secret,
        "mastermind",
        &format!("{day}/{}", crate::store::name_key(name)),
    )
}

/// Why a daily game or guess was refused: the protocol's error code and what the player is told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refused {
    /// The error's code.
    pub code: ErrorCode,
    /// What the player is told.
    pub message: String,
}

impl Refused {
    fn new(code: ErrorCode, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
        }
    }
}

/// A 2048 game as the server scored it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The board it goes on.
    pub board: Board,
    /// The score the replay reached.
    pub score: u64,
    /// The largest tile.
    pub max_tile: u64,
    /// The slides that stand (undone ones not counted).
    pub moves: u64,
}

/// Replays a 2048 game from `seed` with the standard rules and checks what the client claims: the actions must
/// read and replay, an undo must be declared, and the score must be the replay's. A game handed in whole goes on the
/// unranked board (`assisted`), whatever it used: the ranked board (`plain`) is fed only by the games the server
/// deals tile by tile ([`crate::ranked`]), since a client that knows the seed knows every tile to come.
pub fn score_2048(seed: u64, letters: &str, claimed: u64, undo: bool) -> Result<Scored, Refused> {
    let actions = letters_to_actions(letters)
        .map_err(|e| Refused::new(ErrorCode::BadActions, e.to_string()))?;
    if !undo && actions.contains(&twenty48::Action::Undo) {
        return Err(Refused::new(
            ErrorCode::BadActions,
            "the actions undo a move, but the game says undo was not used",
        ));
    }
    let game = twenty48::Game::replay(twenty48::Rules::default(), seed, &actions).map_err(|e| {
        Refused::new(
            ErrorCode::BadActions,
            format!("the actions do not replay: {e}"),
        )
    })?;
    if game.score() != claimed {
        return Err(Refused::new(
            ErrorCode::ScoreMismatch,
            format!(
                "the actions score {}, not the {claimed} claimed",
                game.score()
            ),
        ));
    }
    Ok(Scored {
        board: Board::Assisted,
        score: game.score(),
        max_tile: game.board().max_tile(),
        moves: u64::try_from(game.moves_made()).unwrap_or(u64::MAX),
    })
}

/// The day's Mastermind variant.
pub fn mastermind_variant() -> mastermind::Variant {
    mastermind::Variant::CLASSIC
}

/// A Mastermind guess as the server scored it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guessed {
    /// The guess as the server writes it.
    pub code: String,
    /// Pegs of the right colour in the right place.
    pub black: u8,
    /// Pegs of a right colour in a wrong place.
    pub white: u8,
    /// Whether it solved the code.
    pub solved: bool,
    /// Guesses left.
    pub left: u32,
}

/// One Mastermind guess scored against the day's secret, after the guesses already made (texts as the server wrote
/// them).
pub fn score_guess(seed: u64, earlier: &[String], text: &str) -> Result<Guessed, Refused> {
    let variant = mastermind_variant();
    let mut game =
        mastermind::Game::replay_text(variant, seed, &earlier.join(";")).map_err(|e| {
            Refused::new(
                ErrorCode::Internal,
                format!("the guesses kept do not replay: {e}"),
            )
        })?;
    if game.status() != mastermind::Status::Playing {
        return Err(Refused::new(
            ErrorCode::GameOver,
            format!("today's game is over: {}", game.status()),
        ));
    }
    let code = variant
        .parse_code(text)
        .map_err(|e| Refused::new(ErrorCode::IllegalMove, e.to_string()))?;
    if game.history().iter().any(|(g, _)| *g == code) {
        return Err(Refused::new(
            ErrorCode::Duplicate,
            "that code was already guessed",
        ));
    }
    let feedback = game
        .guess(code)
        .map_err(|e| Refused::new(ErrorCode::IllegalMove, e.to_string()))?;
    Ok(Guessed {
        code: variant.display(&code).to_string(),
        black: feedback.black,
        white: feedback.white,
        solved: game.status() == mastermind::Status::Won,
        left: game.guesses_left(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_has_its_own_mastermind_seed_whatever_its_case() {
        let day = "2026-12-03";
        let scout = mastermind_seed("kept", day, "scout1");
        assert_ne!(scout, mastermind_seed("kept", day, "mainacct"));
        assert_ne!(scout, seed("kept", "mastermind", day));
        assert_ne!(scout, mastermind_seed("kept", "2026-12-04", "scout1"));
        assert_ne!(scout, mastermind_seed("other", day, "scout1"));
        assert_eq!(scout, mastermind_seed("kept", day, "SCOUT1"));
    }
}
