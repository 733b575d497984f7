//! The SQLite store to and from one store text ([`super::dump`]): `parlor export` and `parlor import`, the way a
//! browser's Parlor and the terminal's share their games.
//!
//! Export writes every row: the games in progress, the finished games, and the rows set aside. A finished row that
//! does not read (the rows histories leave out and statistics count as damaged) travels as a set-aside row, whole,
//! with why. Import adds what the text holds in one transaction, so that a failure writes nothing: a finished game
//! already here (the same game, variant, seed, moves, start and end) is not added twice, so importing the same
//! file again adds nothing; a game in progress whose play session is here already is left as it is here; a
//! set-aside row that reads as a game in progress joins this store's set-aside rows, and one that does not stays in
//! the file (it is counted, never dropped silently). A text of a newer version is refused whole.

use super::dump::{Dump, Imported, SetAside};
use super::records::placeholders_for;
use super::sqlite_storage;
use super::{GameRecord, Store, Unfinished, now_ms};
use anyhow::{Context, Result};
use rusqlite::types::ValueRef;
use rusqlite::{Row, params_from_iter};
use serde_json::{Map, Value};

/// A cell as JSON, whatever its SQLite type (a blob as its bytes).
fn cell_json(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(x) => Value::from(x),
        ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::from(b.to_vec()),
    }
}

/// A whole row as a JSON object of its columns, exactly as stored.
fn row_json(r: &Row<'_>) -> rusqlite::Result<Value> {
    let stmt = r.as_ref();
    let mut out = Map::new();
    for i in 0..stmt.column_count() {
        out.insert(stmt.column_name(i)?.to_string(), cell_json(r.get_ref(i)?));
    }
    Ok(Value::Object(out))
}

/// Keeps a row that read in `dump` (in the list `list` picks), or sets the row `r` aside whole with why (`what` it
/// was).
fn keep<T>(
    dump: &mut Dump,
    read: std::result::Result<T, String>,
    r: &Row<'_>,
    what: &str,
    list: impl FnOnce(&mut Dump) -> &mut Vec<T>,
) -> Result<()> {
    match read {
        Ok(t) => list(dump).push(t),
        Err(why) => dump.set_aside.push(SetAside {
            row: row_json(r)?,
            reason: format!("{what} that does not read: {why}"),
        }),
    }
    Ok(())
}

impl Store {
    /// Every row of this store as one dump (without settings: the caller adds the settings file's text).
    pub fn export(&self) -> Result<Dump> {
        let mut dump = Dump::default();
        let unfinished = format!(
            "SELECT {} FROM unfinished ORDER BY updated_at, rowid",
            Unfinished::COLUMNS
        );
        self.each_row(&unfinished, |r| {
            let u = Unfinished::from_row(r)?;
            let read = match u.damage.clone() {
                None => Ok(u),
                Some(why) => Err(why),
            };
            keep(&mut dump, read, r, "a game in progress", |d| {
                &mut d.unfinished
            })
        })?;
        let games = format!(
            "SELECT {} FROM games ORDER BY ended_at, id",
            GameRecord::COLUMNS
        );
        self.each_row(&games, |r| {
            let read = GameRecord::read(self.known_games(), r)?;
            keep(&mut dump, read, r, "a finished game", |d| &mut d.games)
        })?;
        self.each_row("SELECT * FROM set_aside ORDER BY set_aside_at, id", |r| {
            let mut row = row_json(r)?;
            let reason = match &mut row {
                Value::Object(m) => {
                    m.remove("id");
                    m.remove("set_aside_at");
                    m.remove("reason")
                }
                _ => None,
            };
            let reason = reason
                .and_then(|r| r.as_str().map(str::to_string))
                .unwrap_or_default();
            dump.set_aside.push(SetAside { row, reason });
            Ok(())
        })?;
        Ok(dump)
    }

    /// Calls `f` with each row `sql` selects, in order.
    fn each_row(&self, sql: &str, mut f: impl FnMut(&Row<'_>) -> Result<()>) -> Result<()> {
        let mut stmt = self.conn.prepare(sql)?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            f(r)?;
        }
        Ok(())
    }

    /// Adds the rows of `dump` to this store, in one transaction (see the module's notes).
    pub fn import(&mut self, dump: &Dump) -> Result<Imported> {
        self.writable()?;
        let mut done = Imported::default();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for g in &dump.games {
            if sqlite_storage::same_game_id(&tx, g)?.is_some() {
                done.games_here += 1;
                continue;
            }
            sqlite_storage::insert_game(&tx, g)?;
            done.games += 1;
        }
        for u in &dump.unfinished {
            let added = tx.execute(
                &format!(
                    "INSERT INTO unfinished ({}) VALUES ({}) ON CONFLICT(session) DO NOTHING",
                    Unfinished::STORED,
                    placeholders_for(Unfinished::STORED)
                ),
                params_from_iter(u.stored_values()),
            )?;
            if added == 1 {
                done.unfinished += 1;
            } else {
                done.unfinished_here += 1;
            }
        }
        let set_aside = format!(
            "INSERT INTO set_aside ({}, reason, set_aside_at) VALUES ({}, ?{}, ?{})",
            Unfinished::STORED,
            placeholders_for(Unfinished::STORED),
            Unfinished::STORED.split(',').count() + 1,
            Unfinished::STORED.split(',').count() + 2,
        );
        for s in &dump.set_aside {
            match serde_json::from_value::<Unfinished>(s.row.clone()) {
                Ok(u) => {
                    let mut values = u.stored_values();
                    values.push(rusqlite::types::Value::Text(s.reason.clone()));
                    values.push(rusqlite::types::Value::Integer(now_ms()));
                    tx.execute(&set_aside, params_from_iter(values))?;
                    done.set_aside += 1;
                }
                Err(_) => done.left_in_file += 1,
            }
        }
        tx.commit().context("importing the store")?;
        Ok(done)
    }
}
