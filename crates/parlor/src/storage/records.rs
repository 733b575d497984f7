//! The rows Parlor keeps: finished games, games in progress, and per-variant totals.

use crate::figures::{agree, count};
#[cfg(feature = "terminal")]
use rusqlite::Row;
#[cfg(feature = "terminal")]
use rusqlite::types::{Value, ValueRef};
use std::fmt::Display;

/// Declares a kind of stored row of a game played: the fields every kind has (declared here once, with their
/// column list and how they are read, so the finished row and the unfinished one cannot drift apart), then the
/// kind's own fields. The fields stay flat (`GameRecord { game, score, .. }`), as the rows have always been built.
macro_rules! played_row {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$own_meta:meta])* pub $own:ident: $own_ty:ty,)* }) => {
        $(#[$meta])*
        pub struct $name {
            /// Which game, by its id (the name stored in the `game` column).
            pub game: String,
            /// The variant that scores are grouped by (`4x4`, `classic`, `vs expert`, ...).
            pub variant: String,
            /// The game's options as JSON, enough to rebuild it.
            pub options: String,
            /// The seed of every random choice in the game.
            pub seed: u64,
            /// The moves, in the game's own move notation, space separated.
            pub moves: String,
            /// The score, as the game counts it.
            pub score: i64,
            /// Whether undo, hints or autoplay were used.
            pub assisted: bool,
            /// Whether the player chose the seed (such games are kept out of the best scores, like assisted ones).
            pub seeded: bool,
            /// Whether it is a practice game, started from a position of a reviewed game ("practise from here"):
            /// never a scored game (out of the best scores and the statistics), shown as practice in the history.
            /// Rows written before the mark existed read as not practice.
            #[serde(default)]
            pub practice: bool,
            /// Start time, milliseconds since the Unix epoch.
            pub started_at: i64,
            $($(#[$own_meta])* pub $own: $own_ty,)*
        }

        impl $name {
            /// The row built from the columns of `played_columns!` in `cells` and the kind's own fields.
            #[cfg(feature = "terminal")]
            fn from_cells(cells: &mut Cells<'_, '_>, $($own: $own_ty),*) -> rusqlite::Result<$name> {
                Ok($name {
                    game: cells.text("game")?,
                    variant: cells.text("variant")?,
                    options: cells.text("options")?,
                    seed: cells.int("seed")? as u64,
                    moves: cells.text("moves")?,
                    score: cells.int("score")?,
                    assisted: cells.int("assisted")? != 0,
                    seeded: cells.int("seeded")? != 0,
                    practice: cells.int("practice")? != 0,
                    started_at: cells.int("started_at")?,
                    $($own,)*
                })
            }

            /// The values of `played_columns!`, in its order (the seed stored as the signed integer it bit-casts to).
            #[cfg(feature = "terminal")]
            fn played_values(&self) -> [Value; 10] {
                [
                    Value::Text(self.game.clone()),
                    Value::Text(self.variant.clone()),
                    Value::Text(self.options.clone()),
                    Value::Integer(self.seed as i64),
                    Value::Text(self.moves.clone()),
                    Value::Integer(self.score),
                    Value::Integer(self.assisted.into()),
                    Value::Integer(self.seeded.into()),
                    Value::Integer(self.practice.into()),
                    Value::Integer(self.started_at),
                ]
            }
        }
    };
}

/// The columns every kind of row has, in the order of `played_values`: the one list that every SELECT and INSERT
/// of a row builds on ([`GameRecord::COLUMNS`], [`Unfinished::STORED`]).
#[cfg(feature = "terminal")]
macro_rules! played_columns {
    () => {
        "game, variant, options, seed, moves, score, assisted, seeded, practice, started_at"
    };
}

/// `?1, ?2, ...`: one placeholder for each of the columns of a list (as `played_columns!`).
#[cfg(feature = "terminal")]
pub(super) fn placeholders_for(columns: &str) -> String {
    placeholders(columns.split(',').count())
}

/// `?1, ?2, ... ?n`.
#[cfg(feature = "terminal")]
pub(super) fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cells of one row, read by column name whatever their stored types: a cell of the wrong type reads as a
/// stand-in, and its column is named in `wrong`.
#[cfg(feature = "terminal")]
pub(super) struct Cells<'a, 'r> {
    row: &'a Row<'r>,
    wrong: Vec<&'static str>,
}

#[cfg(feature = "terminal")]
impl<'a, 'r> Cells<'a, 'r> {
    fn new(row: &'a Row<'r>) -> Self {
        Cells {
            row,
            wrong: Vec::new(),
        }
    }

    fn text(&mut self, name: &'static str) -> rusqlite::Result<String> {
        Ok(match self.row.get_ref(name)? {
            ValueRef::Text(t) => match std::str::from_utf8(t) {
                Ok(t) => t.to_string(),
                Err(_) => {
                    self.wrong.push(name);
                    String::from_utf8_lossy(t).into_owned()
                }
            },
            other => {
                self.wrong.push(name);
                stand_in(other)
            }
        })
    }

    fn int(&mut self, name: &'static str) -> rusqlite::Result<i64> {
        Ok(match self.row.get_ref(name)? {
            ValueRef::Integer(v) => v,
            _ => {
                self.wrong.push(name);
                0
            }
        })
    }

    /// What is wrong with the cells read so far, if any.
    fn damage(&self) -> Option<String> {
        (!self.wrong.is_empty()).then(|| {
            format!(
                "the stored {} {} not of the type Parlor writes",
                self.wrong.join(", "),
                agree(self.wrong.len() as u64, "is", "are")
            )
        })
    }
}

played_row! {
    /// A finished game: enough to list it, rank it and replay it.
    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct GameRecord {
        /// Row id (0 before it is stored).
        pub id: i64,
        /// How it ended.
        pub result: Outcome,
        /// End time, milliseconds since the Unix epoch.
        pub ended_at: i64,
    }
}

#[cfg(feature = "terminal")]
impl GameRecord {
    /// The columns a finished game is stored in, but its id.
    pub(super) const STORED: &'static str = concat!("result, ended_at, ", played_columns!());
    /// The columns a finished game is read from.
    pub(super) const COLUMNS: &'static str = concat!("id, result, ended_at, ", played_columns!());

    /// The values of [`GameRecord::STORED`], in its order.
    pub(super) fn stored_values(&self) -> Vec<Value> {
        let mut values = vec![
            Value::Text(self.result.as_str().into()),
            Value::Integer(self.ended_at),
        ];
        values.extend(self.played_values());
        values
    }

    pub(super) fn from_row(
        known: Option<&[String]>,
    ) -> impl Fn(&Row<'_>) -> rusqlite::Result<GameRecord> + '_ {
        move |r| {
            GameRecord::read(known, r)?.map_err(|why| {
                rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Null,
                    why.into(),
                )
            })
        }
    }

    /// Reads a row of [`GameRecord::COLUMNS`]: `Err(why)` for a damaged row (see [`damage`]: its game, score,
    /// result or marks cannot be read), the same rows that statistics count as damaged (`storage/stats.rs`). Other
    /// columns of the wrong type read as stand-ins (a replay of such a record says it is damaged).
    pub(super) fn read(
        known: Option<&[String]>,
        r: &Row<'_>,
    ) -> rusqlite::Result<Result<GameRecord, String>> {
        if let Some(why) = damage(
            known,
            r.get_ref("game")?,
            r.get_ref("score")?,
            r.get_ref("result")?,
            r.get_ref("assisted")?,
            r.get_ref("seeded")?,
        ) {
            return Ok(Err(why));
        }
        let mut cells = Cells::new(r);
        let result = Outcome::parse(&cells.text("result")?).unwrap_or(Outcome::GaveUp);
        let ended_at = cells.int("ended_at")?;
        Ok(Ok(GameRecord::from_cells(
            &mut cells,
            r.get("id")?,
            result,
            ended_at,
        )?))
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
                "{} left out ({}); {} kept in the database, and statistics count {} as damaged.",
                count(n, "damaged finished game"),
                self.left_out.reasons.join("; "),
                agree(n, "it is", "they are"),
                agree(n, "it", "them"),
            )
        })
    }
}

/// How best scores are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Highest score first, whatever the result (points, say).
    HighScore,
    /// Won games only, lowest score first (guesses or plies, say).
    FewestToWin,
    /// No best scores (the computer plays itself, two people play each other, the computer guesses your code).
    Unranked,
}

/// One table of best scores: a game's variant, and how its scores rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoreboard<'a> {
    /// The game's id.
    pub game: &'a str,
    /// The variant.
    pub variant: &'a str,
    /// How its scores rank.
    pub ranking: Ranking,
}

impl<'a> Scoreboard<'a> {
    /// The best scores of `variant` of `game`, ranked by `ranking`.
    pub fn new(game: &'a str, variant: &'a str, ranking: Ranking) -> Scoreboard<'a> {
        Scoreboard {
            game,
            variant,
            ranking,
        }
    }
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

played_row! {
    /// A game in progress, saved after every move under its play session's id.
    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Unfinished {
        /// The play session that owns this game (unique per process and game).
        pub session: String,
        /// Time of the last save (ms since the epoch).
        pub updated_at: i64,
        /// Where the row is stored (its SQLite rowid; 0 for a game not read from the database).
        #[serde(default, skip)]
        pub row: i64,
        /// What is wrong with the row as stored, when a column is not of the type Parlor writes (the values read
        /// from such columns are stand-ins): such a row is set aside, never played. `None` for a sound row.
        #[serde(default, skip)]
        pub damage: Option<String>,
    }
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
            practice: self.practice,
            started_at: self.started_at,
            ended_at: self.updated_at,
        }
    }

    /// The columns a game in progress is stored in: those of the `unfinished` table, and of the `set_aside` table
    /// but its own (`storage/open.rs`).
    #[cfg(feature = "terminal")]
    pub(super) const STORED: &'static str = concat!("session, updated_at, ", played_columns!());
    /// The columns a game in progress is read from.
    #[cfg(feature = "terminal")]
    pub(super) const COLUMNS: &'static str =
        concat!("rowid, session, updated_at, ", played_columns!());

    /// The values of [`Unfinished::STORED`], in its order.
    #[cfg(feature = "terminal")]
    pub(super) fn stored_values(&self) -> Vec<Value> {
        let mut values = vec![
            Value::Text(self.session.clone()),
            Value::Integer(self.updated_at),
        ];
        values.extend(self.played_values());
        values
    }

    /// Reads a row of [`Unfinished::COLUMNS`] whatever the types of its columns: a column of the wrong type reads
    /// as a stand-in and is named in [`Unfinished::damage`].
    #[cfg(feature = "terminal")]
    pub(super) fn from_row(r: &Row<'_>) -> rusqlite::Result<Unfinished> {
        let mut cells = Cells::new(r);
        let session = cells.text("session")?;
        let updated_at = cells.int("updated_at")?;
        // A view (a schema-1 database read through views) may have none: 0, found again by its session.
        let row = r.get::<_, Option<i64>>("rowid")?.unwrap_or(0);
        let mut u = Unfinished::from_cells(&mut cells, session, updated_at, row, None)?;
        u.damage = cells.damage();
        Ok(u)
    }
}

/// Why a finished row's `game` column is damaged (`None`: it names one of the `known` games, or is a name when
/// the store was told no games: see [`Store::knowing`](super::Store::knowing)). Such a row belongs to no game: every
/// history and every statistics count it as "damaged, game unknown", whatever game they show.
#[cfg(feature = "terminal")]
pub(super) fn game_damage(known: Option<&[String]>, game: ValueRef<'_>) -> Option<String> {
    let is_known = |g: &str| known.is_none_or(|k| k.iter().any(|id| id == g));
    match game {
        ValueRef::Text(t) if std::str::from_utf8(t).is_ok_and(is_known) => None,
        ValueRef::Text(_) => Some(format!("game unknown: '{}'", stand_in(game))),
        _ => Some("game unknown: not a name".into()),
    }
}

/// Why a finished row is damaged, from its game, score, result and marks (`None`: it can be read): the one rule
/// that history and statistics (`storage/stats.rs`) both follow.
#[cfg(feature = "terminal")]
pub(super) fn damage(
    known: Option<&[String]>,
    game: ValueRef<'_>,
    score: ValueRef<'_>,
    result: ValueRef<'_>,
    assisted: ValueRef<'_>,
    seeded: ValueRef<'_>,
) -> Option<String> {
    if let Some(why) = game_damage(known, game) {
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

/// How a finished game ended, from the point of view of the person at the keyboard. Serialized as
/// [`Outcome::as_str`] says (`"gave up"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player won (reached the target, found the code, beat the computer).
    Won,
    /// The player lost.
    Lost,
    /// Neither side won.
    Draw,
    /// The player stopped before the end.
    #[serde(rename = "gave up")]
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
