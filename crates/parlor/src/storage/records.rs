//! The rows Parlor keeps: finished games, games in progress, and per-variant totals.

use rusqlite::Row;
use std::fmt::Display;

/// A finished game: enough to list it, rank it and replay it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Row id (0 before it is stored).
    pub id: i64,
    /// Which game: `2048`, `mastermind` or `nocca`.
    pub game: String,
    /// The variant that scores are grouped by (`4x4`, `classic`, `vs expert`, ...).
    pub variant: String,
    /// The game's options as JSON, enough to rebuild it.
    pub options: String,
    /// The seed of every random choice in the game.
    pub seed: u64,
    /// The moves, in the game's own move notation, space separated.
    pub moves: String,
    /// The score (2048: points; Mastermind: guesses used; Nocca: plies).
    pub score: i64,
    /// How it ended.
    pub result: Outcome,
    /// Whether undo or hints were used.
    pub assisted: bool,
    /// Whether the player chose the seed (such games are kept out of the best scores, like assisted ones).
    pub seeded: bool,
    /// Start time, milliseconds since the Unix epoch.
    pub started_at: i64,
    /// End time, milliseconds since the Unix epoch.
    pub ended_at: i64,
}

impl GameRecord {
    pub(super) const COLUMNS: &'static str = "id, game, variant, options, seed, moves, score, result, assisted, started_at, ended_at, seeded";

    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<GameRecord> {
        Ok(GameRecord {
            id: r.get(0)?,
            game: r.get(1)?,
            variant: r.get(2)?,
            options: r.get(3)?,
            seed: r.get::<_, i64>(4)? as u64,
            moves: r.get(5)?,
            score: r.get(6)?,
            result: {
                let text: String = r.get(7)?;
                Outcome::parse(&text).ok_or_else(|| {
                    rusqlite::Error::FromSqlConversionFailure(
                        7,
                        rusqlite::types::Type::Text,
                        format!("unknown result '{text}'").into(),
                    )
                })?
            },
            assisted: r.get(8)?,
            started_at: r.get(9)?,
            ended_at: r.get(10)?,
            seeded: r.get(11)?,
        })
    }
}

/// How best scores are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Highest score first, whatever the result (2048's points).
    HighScore,
    /// Won games only, lowest score first (Mastermind's guesses, Nocca's plies).
    FewestToWin,
    /// No best scores (the computer plays itself, two people play each other, the computer guesses your code).
    Unranked,
}

impl Ranking {
    /// (extra WHERE condition, ORDER BY direction).
    pub(super) fn sql(self) -> (&'static str, &'static str) {
        match self {
            Ranking::HighScore => ("", "DESC"),
            Ranking::FewestToWin => ("AND result = 'won'", "ASC"),
            Ranking::Unranked => ("AND 0", "ASC"),
        }
    }
}

/// A game in progress, saved after every move under its play session's id.
#[derive(Clone, Debug, PartialEq)]
pub struct Unfinished {
    /// The play session that owns this game (unique per process and game).
    pub session: String,
    /// Which game.
    pub game: String,
    /// The variant, as in [`GameRecord::variant`].
    pub variant: String,
    /// Options as JSON.
    pub options: String,
    /// Seed.
    pub seed: u64,
    /// Moves so far.
    pub moves: String,
    /// Score so far.
    pub score: i64,
    /// Whether undo or hints were used so far.
    pub assisted: bool,
    /// Whether the player chose the seed.
    pub seeded: bool,
    /// Start time (ms since the epoch).
    pub started_at: i64,
    /// Time of the last save (ms since the epoch).
    pub updated_at: i64,
}

impl Unfinished {
    /// The finished-game record of this game, ended with `result` at its last save.
    pub fn into_record(self, result: Outcome) -> GameRecord {
        GameRecord {
            id: 0,
            game: self.game,
            variant: self.variant,
            options: self.options,
            seed: self.seed,
            moves: self.moves,
            score: self.score,
            result,
            assisted: self.assisted,
            seeded: self.seeded,
            started_at: self.started_at,
            ended_at: self.updated_at,
        }
    }

    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<Unfinished> {
        Ok(Unfinished {
            session: r.get(0)?,
            game: r.get(1)?,
            variant: r.get(2)?,
            options: r.get(3)?,
            seed: r.get::<_, i64>(4)? as u64,
            moves: r.get(5)?,
            score: r.get(6)?,
            assisted: r.get(7)?,
            started_at: r.get(8)?,
            updated_at: r.get(9)?,
            seeded: r.get(10)?,
        })
    }
}

/// Totals for one variant of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// The variant.
    pub variant: String,
    /// Finished games.
    pub played: i64,
    /// Games won.
    pub won: i64,
    /// Games lost.
    pub lost: i64,
    /// Games drawn.
    pub drawn: i64,
    /// Games given up.
    pub gave_up: i64,
    /// Best unassisted score, if any.
    pub best: Option<i64>,
    /// Average score.
    pub average: f64,
    /// Games in which undo or hints were used.
    pub assisted: i64,
}

impl Stats {
    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<Stats> {
        Ok(Stats {
            variant: r.get(0)?,
            played: r.get(1)?,
            won: r.get::<_, Option<i64>>(2)?.unwrap_or(0),
            lost: r.get::<_, Option<i64>>(3)?.unwrap_or(0),
            drawn: r.get::<_, Option<i64>>(4)?.unwrap_or(0),
            best: r.get(5)?,
            average: r.get::<_, Option<f64>>(6)?.unwrap_or(0.0),
            assisted: r.get::<_, Option<i64>>(7)?.unwrap_or(0),
            gave_up: r.get::<_, Option<i64>>(8)?.unwrap_or(0),
        })
    }
}

/// How a finished game ended, from the point of view of the person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player won (2048: the target tile reached; Mastermind: the code found; Nocca: the computer beaten).
    Won,
    /// The player lost.
    Lost,
    /// Neither side won.
    Draw,
    /// The player stopped before the end.
    GaveUp,
    /// The game ended with no win or loss for the player: the computer guessed the player's code, two people
    /// played each other, or the computer played itself. The game's own ending line says what happened.
    Done,
}

impl Outcome {
    /// Every outcome, in the order statistics list them.
    pub const ALL: [Outcome; 5] = [
        Outcome::Won,
        Outcome::Lost,
        Outcome::Draw,
        Outcome::GaveUp,
        Outcome::Done,
    ];

    /// The word stored in the database and printed by `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Draw => "draw",
            Outcome::GaveUp => "gave up",
            Outcome::Done => "done",
        }
    }

    /// Reads a word written by [`Outcome::as_str`].
    pub fn parse(s: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

impl Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
