//! The whole store as one JSON text: what a browser keeps in its local storage, and what export and import carry
//! between a browser and the terminal.
//!
//! ```json
//! {"format": "parlor-store", "version": 1,
//!  "unfinished": [ ...games in progress... ], "games": [ ...finished games... ],
//!  "set_aside": [ {"row": ..., "reason": "..."} ], "settings": "theme = \"dark\"\n..."}
//! ```
//!
//! Rows are the fields of [`Unfinished`] and [`GameRecord`] by name. [`read`] takes every row it can: a row that
//! does not read (a field missing or of the wrong type) is set aside, kept whole as it was with the reason, never
//! dropped and never blocking the rest. A text of a newer version is read the same way and marked
//! ([`Loaded::newer`]): its reader must then write nothing, as the terminal opens a newer database read-only. A
//! text that is not JSON, or not this format, is refused.

use super::{GameRecord, Unfinished};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `format` every store text names.
pub const FORMAT: &str = "parlor-store";
/// The version this build writes (and the newest it reads without marking it newer).
pub const VERSION: u64 = 1;

/// A row that could not be used, kept as it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetAside {
    /// The row, exactly as it was read (or as it was stored, for a saved game that could not be resumed).
    pub row: Value,
    /// Why it was set aside.
    pub reason: String,
}

/// Everything a store holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dump {
    /// Games in progress.
    pub unfinished: Vec<Unfinished>,
    /// Finished games.
    pub games: Vec<GameRecord>,
    /// Rows set aside.
    pub set_aside: Vec<SetAside>,
    /// The settings file's text (`settings.toml`), when it travels with the store.
    pub settings: Option<String>,
}

/// A store text as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// What it holds (rows that did not read are in its `set_aside`, after the ones it already had).
    pub dump: Dump,
    /// The text's version when it is newer than [`VERSION`]: nothing may be written over it.
    pub newer: Option<u64>,
    /// How many rows were set aside while reading it.
    pub damaged: usize,
}

/// The text of `dump`, at [`VERSION`].
pub fn write(dump: &Dump) -> String {
    let mut out = serde_json::Map::new();
    out.insert("format".into(), Value::from(FORMAT));
    out.insert("version".into(), Value::from(VERSION));
    let fields = serde_json::to_value(dump).unwrap_or(Value::Null);
    if let Value::Object(fields) = fields {
        out.extend(fields);
    }
    Value::Object(out).to_string()
}

/// Reads a store text (see the module's notes); `Err` says why it is refused.
pub fn read(text: &str) -> Result<Loaded, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("not a Parlor store (not JSON: {e})"))?;
    let Value::Object(mut top) = value else {
        return Err("not a Parlor store (not a JSON object)".into());
    };
    if top.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!("not a Parlor store (no \"format\": \"{FORMAT}\")"));
    }
    let version = top
        .get("version")
        .and_then(Value::as_u64)
        .ok_or("a Parlor store without a version number")?;
    let mut kept = Kept::default();
    let set_aside_rows: Vec<SetAside> = kept.take(&mut top, "set_aside", "a set-aside row");
    let unfinished = kept.take(&mut top, "unfinished", "a game in progress");
    let games = kept.take(&mut top, "games", "a finished game");
    let Kept { damaged, set_aside } = kept;
    let set_aside = set_aside_rows.into_iter().chain(set_aside).collect();
    let settings = top
        .get("settings")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Loaded {
        dump: Dump {
            unfinished,
            games,
            set_aside,
            settings,
        },
        newer: (version > VERSION).then_some(version),
        damaged,
    })
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Finished games added.
    pub games: usize,
    /// Finished games that were here already (not added again).
    pub games_here: usize,
    /// Games in progress added.
    pub unfinished: usize,
    /// Games in progress whose play session was here already (left as they are here).
    pub unfinished_here: usize,
    /// Set-aside rows added.
    pub set_aside: usize,
    /// Set-aside rows that do not read as a game in progress, left in the file.
    pub left_in_file: usize,
}

impl std::fmt::Display for Imported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::figures::{agree, count, count_as};
        write!(
            f,
            "{} added ({} already here), {} added ({} already here), {} added",
            count(self.games as u64, "finished game"),
            self.games_here,
            count_as(
                self.unfinished as u64,
                "game in progress",
                "games in progress"
            ),
            self.unfinished_here,
            count(self.set_aside as u64, "set-aside row"),
        )?;
        if self.left_in_file > 0 {
            write!(
                f,
                " ({} that {} not read as a game {} in the file only)",
                count(self.left_in_file as u64, "set-aside row"),
                agree(self.left_in_file as u64, "does", "do"),
                agree(self.left_in_file as u64, "stays", "stay"),
            )?;
        }
        Ok(())
    }
}

/// Whether two finished games are the same game: the same game, variant, seed, moves, start and end (an import
/// never adds a game that is already there).
pub fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    let key = |g: &GameRecord| (g.seed, g.started_at, g.ended_at);
    a.game == b.game && a.variant == b.variant && a.moves == b.moves && key(a) == key(b)
}

/// Adds the rows of `from` to `into` as an import does (README, Where data lives): a finished game already there
/// ([`same_game`]) is not added again, a game in progress whose play session is there already is left as it is,
/// set-aside rows are added; the settings are not touched. New finished games get ids after the highest there.
pub fn merge(into: &mut Dump, from: Dump) -> Imported {
    let mut next_id = into.games.iter().map(|g| g.id).max().unwrap_or(0);
    let (games, games_here) = add_new(&mut into.games, from.games, same_game, |g| {
        next_id += 1;
        g.id = next_id;
    });
    let (unfinished, unfinished_here) = add_new(
        &mut into.unfinished,
        from.unfinished,
        |a, b| a.session == b.session,
        |_| {},
    );
    let set_aside = from.set_aside.len();
    into.set_aside.extend(from.set_aside);
    Imported {
        games,
        games_here,
        unfinished,
        unfinished_here,
        set_aside,
        left_in_file: 0,
    }
}

/// Adds each row of `from` that `same` finds nowhere in `into`, after `fresh` readies it: (how many were added, how
/// many were there already).
fn add_new<T>(
    into: &mut Vec<T>,
    from: Vec<T>,
    same: impl Fn(&T, &T) -> bool,
    mut fresh: impl FnMut(&mut T),
) -> (usize, usize) {
    let (mut added, mut here) = (0, 0);
    for mut row in from {
        if into.iter().any(|old| same(old, &row)) {
            here += 1;
        } else {
            fresh(&mut row);
            into.push(row);
            added += 1;
        }
    }
    (added, here)
}

/// The rows that did not read while reading a store text.
#[derive(Default)]
struct Kept {
    /// How many.
    damaged: usize,
    /// Each, whole, with why.
    set_aside: Vec<SetAside>,
}

impl Kept {
    /// The rows under `key` that read as `T`; the others (`what`, for the reason) are set aside.
    fn take<T: serde::de::DeserializeOwned>(
        &mut self,
        top: &mut serde_json::Map<String, Value>,
        key: &str,
        what: &str,
    ) -> Vec<T> {
        let mut out = Vec::new();
        for row in rows(top, key) {
            match serde_json::from_value::<T>(row.clone()) {
                Ok(t) => out.push(t),
                Err(e) => {
                    self.damaged += 1;
                    self.set_aside.push(SetAside {
                        row,
                        reason: format!("{what} that does not read: {e}"),
                    });
                }
            }
        }
        out
    }
}

/// The rows under `key`: an array's items, or the value itself when it is something else (set aside then).
fn rows(top: &mut serde_json::Map<String, Value>, key: &str) -> Vec<Value> {
    match top.remove(key) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => vec![other],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::Outcome;

    fn unfinished(session: &str) -> Unfinished {
        Unfinished {
            game: "patience".into(),
            variant: "4x4".into(),
            options: "{\"size\":4}".into(),
            seed: u64::MAX - 3,
            moves: "l u r".into(),
            score: 16,
            assisted: false,
            seeded: true,
            practice: false,
            started_at: 1_700_000_000_000,
            session: session.into(),
            updated_at: 1_700_000_000_500,
            row: 0,
            damage: None,
        }
    }

    fn sample() -> Dump {
        Dump {
            unfinished: vec![unfinished("s1")],
            games: vec![unfinished("s0").into_record(Outcome::GaveUp)],
            set_aside: vec![SetAside {
                row: serde_json::json!({"game": 7}),
                reason: "old damage".into(),
            }],
            settings: Some("theme = \"dark\"\n".into()),
        }
    }

    #[test]
    fn a_dump_reads_back_as_written() {
        let text = write(&sample());
        assert!(text.contains("\"format\":\"parlor-store\"") && text.contains("\"version\":1"));
        assert!(text.contains("\"result\":\"gave up\""));
        let loaded = read(&text).unwrap();
        assert_eq!(loaded.dump, sample());
        assert_eq!(loaded.newer, None);
        assert_eq!(loaded.damaged, 0);
    }

    #[test]
    fn a_merge_adds_no_game_twice_and_leaves_games_in_progress_here_alone() {
        let mut here = sample();
        here.unfinished[0].moves = "l".into();
        let mut other = unfinished("s9").into_record(Outcome::Won);
        other.ended_at += 1;
        let mut from = sample();
        from.games.push(other.clone());
        from.unfinished.push(unfinished("s2"));
        let done = merge(&mut here, from);
        assert_eq!(
            done,
            Imported {
                games: 1,
                games_here: 1,
                unfinished: 1,
                unfinished_here: 1,
                set_aside: 1,
                left_in_file: 0,
            }
        );
        assert_eq!(here.games.len(), 2);
        assert_eq!(
            here.games[1].id,
            here.games[0].id + 1,
            "a new id after the highest"
        );
        assert!(same_game(&here.games[1], &other));
        assert_eq!(
            here.unfinished[0].moves, "l",
            "the game in progress here is kept as it is"
        );
        assert_eq!(here.unfinished[1].session, "s2");
        assert_eq!(here.set_aside.len(), 2, "set-aside rows are never dropped");
        assert_eq!(here.settings, sample().settings, "settings untouched");
        assert_eq!(
            done.to_string(),
            "1 finished game added (1 already here), 1 game in progress added (1 already here), 1 set-aside row \
             added"
        );
    }

    #[test]
    fn a_newer_version_is_read_but_marked() {
        let text = write(&sample()).replace("\"version\":1", "\"version\":2");
        let loaded = read(&text).unwrap();
        assert_eq!(loaded.newer, Some(2));
        assert_eq!(loaded.dump.unfinished.len(), 1);
    }

    #[test]
    fn a_damaged_row_is_set_aside_whole_and_the_rest_read() {
        let mut value: Value = serde_json::from_str(&write(&sample())).unwrap();
        let bad = serde_json::json!({"game": "patience", "moves": 12});
        value["unfinished"]
            .as_array_mut()
            .unwrap()
            .push(bad.clone());
        value["games"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!("nonsense"));
        let loaded = read(&value.to_string()).unwrap();
        assert_eq!(loaded.damaged, 2);
        assert_eq!(loaded.dump.unfinished, vec![unfinished("s1")]);
        assert_eq!(loaded.dump.games.len(), 1);
        assert_eq!(loaded.dump.set_aside.len(), 3);
        assert_eq!(loaded.dump.set_aside[1].row, bad);
        assert!(
            loaded.dump.set_aside[1]
                .reason
                .starts_with("a game in progress that does not read"),
            "{}",
            loaded.dump.set_aside[1].reason
        );
    }

    #[test]
    fn other_texts_are_refused() {
        assert!(read("not json").unwrap_err().contains("not JSON"));
        assert!(read("[1,2]").unwrap_err().contains("not a JSON object"));
        assert!(
            read("{\"format\":\"other\",\"version\":1}")
                .unwrap_err()
                .contains("no \"format\"")
        );
        assert!(
            read("{\"format\":\"parlor-store\"}")
                .unwrap_err()
                .contains("without a version")
        );
    }
}
