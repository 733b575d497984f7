//! The rows Parlor keeps: finished games, games in progress, and per-variant totals.

#[cfg(feature = "terminal")]
use rusqlite::Row;
#[cfg(feature = "terminal")]
use rusqlite::types::ValueRef;
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

#[cfg(feature = "terminal")]
impl GameRecord {
    pub(super) const COLUMNS: &'static str = "id, game, variant, options, seed, moves, score, result, assisted, started_at, ended_at, seeded";

    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<GameRecord> {
        GameRecord::read(r)?.map_err(|why| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Null, why.into())
        })
    }

    /// Reads a row of [`GameRecord::COLUMNS`]: `Err(why)` for a damaged row (see [`damage`]: its game, score,
    /// result or marks cannot be read), the same rows that statistics count as damaged (`storage/stats.rs`). Other
    /// columns of the wrong type read as stand-ins (a replay of such a record says it is damaged).
    pub(super) fn read(r: &Row<'_>) -> rusqlite::Result<Result<GameRecord, String>> {
        let text = |i: usize| -> rusqlite::Result<String> {
            Ok(match r.get_ref(i)? {
                ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                other => stand_in(other),
            })
        };
        let int = |i: usize| -> rusqlite::Result<Option<i64>> {
            Ok(match r.get_ref(i)? {
                ValueRef::Integer(v) => Some(v),
                _ => None,
            })
        };
        if let Some(why) = damage(
            r.get_ref(1)?,
            r.get_ref(6)?,
            r.get_ref(7)?,
            r.get_ref(8)?,
            r.get_ref(11)?,
        ) {
            return Ok(Err(why));
        }
        let (score, assisted, seeded) = (int(6)?.unwrap_or(0), int(8)?, int(11)?);
        let result: String = text(7)?;
        let result = Outcome::parse(&result).unwrap_or(Outcome::GaveUp);
        Ok(Ok(GameRecord {
            id: r.get(0)?,
            game: text(1)?,
            variant: text(2)?,
            options: text(3)?,
            seed: int(4)?.unwrap_or(0) as u64,
            moves: text(5)?,
            score,
            result,
            assisted: assisted.unwrap_or(0) != 0,
            started_at: int(9)?.unwrap_or(0),
            ended_at: int(10)?.unwrap_or(0),
            seeded: seeded.unwrap_or(0) != 0,
        }))
    }
}

/// The finished games a history shows, and the damaged ones it leaves out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// The games that could be read, newest first.
    pub games: Vec<GameRecord>,
    /// The damaged rows left out (all of them, not only among the newest): those of the game shown, and those
    /// whose game is unknown (in every history, whatever game it shows).
    pub left_out: Damaged,
}

impl History {
    /// What to tell the player about the rows left out, if any.
    pub fn note(&self) -> Option<String> {
        let n = self.left_out.count;
        (n > 0).then(|| {
            format!(
                "{n} damaged finished game{} left out ({}); {} kept in the database, and statistics count {} as \
                 damaged.",
                if n == 1 { "" } else { "s" },
                self.left_out.reasons.join("; "),
                if n == 1 { "it is" } else { "they are" },
                if n == 1 { "it" } else { "them" },
            )
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

#[cfg(feature = "terminal")]
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
    /// Where the row is stored (its SQLite rowid; 0 for a game not read from the database).
    pub row: i64,
    /// What is wrong with the row as stored, when a column is not of the type Parlor writes (the values read from
    /// such columns are stand-ins): such a row is set aside, never played. `None` for a sound row.
    pub damage: Option<String>,
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

    #[cfg(feature = "terminal")]
    pub(super) const COLUMNS: &'static str = "rowid, session, game, variant, options, seed, moves, score, assisted, started_at, updated_at, seeded";

    /// Reads a row of [`Unfinished::COLUMNS`] whatever the types of its columns: a column of the wrong type reads
    /// as a stand-in and is named in [`Unfinished::damage`].
    #[cfg(feature = "terminal")]
    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<Unfinished> {
        let mut wrong: Vec<&'static str> = Vec::new();
        let mut text = |i: usize, name: &'static str| -> rusqlite::Result<String> {
            Ok(match r.get_ref(i)? {
                ValueRef::Text(t) => match std::str::from_utf8(t) {
                    Ok(t) => t.to_string(),
                    Err(_) => {
                        wrong.push(name);
                        String::from_utf8_lossy(t).into_owned()
                    }
                },
                other => {
                    wrong.push(name);
                    stand_in(other)
                }
            })
        };
        let session = text(1, "session")?;
        let game = text(2, "game")?;
        let variant = text(3, "variant")?;
        let options = text(4, "options")?;
        let moves = text(6, "moves")?;
        let mut int = |i: usize, name: &'static str| -> rusqlite::Result<i64> {
            Ok(match r.get_ref(i)? {
                ValueRef::Integer(v) => v,
                _ => {
                    wrong.push(name);
                    0
                }
            })
        };
        let seed = int(5, "seed")? as u64;
        let score = int(7, "score")?;
        let assisted = int(8, "assisted")? != 0;
        let started_at = int(9, "started_at")?;
        let updated_at = int(10, "updated_at")?;
        let seeded = int(11, "seeded")? != 0;
        let damage = (!wrong.is_empty()).then(|| {
            format!(
                "the stored {} {} not of the type Parlor writes",
                wrong.join(", "),
                if wrong.len() == 1 { "is" } else { "are" }
            )
        });
        Ok(Unfinished {
            // A view (a schema-1 database read through views) may have none: 0, found again by its session.
            row: r.get::<_, Option<i64>>(0)?.unwrap_or(0),
            session,
            game,
            variant,
            options,
            seed,
            moves,
            score,
            assisted,
            seeded,
            started_at,
            updated_at,
            damage,
        })
    }
}

/// The games whose finished rows Parlor reads, by the name stored in the `game` column (kept equal to the
/// registry's games by a test in `registry.rs`).
pub const GAME_IDS: [&str; 3] = ["2048", "mastermind", "nocca"];

/// Why a finished row's `game` column is damaged (`None`: it names one of [`GAME_IDS`]). Such a row belongs to no
/// game: every history and every statistics count it as "damaged, game unknown", whatever game they show.
#[cfg(feature = "terminal")]
pub(super) fn game_damage(game: ValueRef<'_>) -> Option<String> {
    match game {
        ValueRef::Text(t) if std::str::from_utf8(t).is_ok_and(|g| GAME_IDS.contains(&g)) => None,
        ValueRef::Text(_) => Some(format!("game unknown: '{}'", stand_in(game))),
        _ => Some("game unknown: not a name".into()),
    }
}

/// Why a finished row is damaged, from its game, score, result and marks (`None`: it can be read): the one rule
/// that history and statistics (`storage/stats.rs`) both follow.
#[cfg(feature = "terminal")]
pub(super) fn damage(
    game: ValueRef<'_>,
    score: ValueRef<'_>,
    result: ValueRef<'_>,
    assisted: ValueRef<'_>,
    seeded: ValueRef<'_>,
) -> Option<String> {
    if let Some(why) = game_damage(game) {
        return Some(why);
    }
    if !matches!(score, ValueRef::Integer(_)) {
        return Some("a score that is not a number".into());
    }
    let known = match result {
        ValueRef::Text(t) => std::str::from_utf8(t)
            .ok()
            .and_then(Outcome::parse)
            .is_some(),
        _ => false,
    };
    if !known {
        return Some(format!("an unknown result '{}'", stand_in(result)));
    }
    if !matches!(
        (assisted, seeded),
        (ValueRef::Integer(_), ValueRef::Integer(_))
    ) {
        return Some("an assisted or seeded mark that is not a number".into());
    }
    None
}

/// Damaged finished rows left out of a list or a count: how many, and why (each reason once).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Damaged {
    /// How many rows.
    pub count: u64,
    /// Why, each reason once, in the order first met.
    pub reasons: Vec<String>,
}

impl Damaged {
    /// Counts one more damaged row.
    pub fn add(&mut self, why: String) {
        self.count += 1;
        if !self.reasons.contains(&why) {
            self.reasons.push(why);
        }
    }
}

/// A printable stand-in for a value of the wrong type (for lists and messages only; the row itself is kept as it is).
#[cfg(feature = "terminal")]
fn stand_in(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "?".into(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
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

#[cfg(feature = "terminal")]
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
