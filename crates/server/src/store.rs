//! The server's database: `server.db` (SQLite, WAL) in its data directory. Players (name and the SHA-256 of their
//! token, never the token itself) and games: a row is written when a game starts, so no game number is ever given
//! twice, and completed with the result when it ends.

use anyhow::{Context, Result};
use parlor_online::protocol::{EndReason, Side};
use parlor_online::referee::GameResult;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The database's file name in the data directory.
pub const DB_FILE: &str = "server.db";

/// The schema's version (SQLite's `user_version`).
const SCHEMA_VERSION: i64 = 1;

/// A finished game, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The game's number.
    pub id: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The moves, in Parlor's Nocca notation separated by spaces.
    pub moves: String,
    /// The result.
    pub result: GameResult,
    /// The final position in the `nocca` crate's text form.
    pub position: String,
}

/// What a player's `hello` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Login {
    /// A new name, now registered with this token.
    Registered,
    /// A known name with its token.
    Known,
    /// A known name with another token.
    WrongToken,
}

/// The open database.
pub struct Store {
    conn: Connection,
}

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Store {
    /// Opens (or makes) the database in `dir`, making `dir` if needed.
    pub fn open(dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
        let path = dir.join(DB_FILE);
        let conn =
            Connection::open(&path).with_context(|| format!("opening {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            anyhow::bail!(
                "{} is of a newer server (schema {version}; this one knows {SCHEMA_VERSION})",
                path.display()
            );
        }
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS players (
                 name TEXT PRIMARY KEY NOT NULL,
                 token_sha256 TEXT NOT NULL,
                 created_unix_ms INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS games (
                 id INTEGER PRIMARY KEY NOT NULL,
                 black TEXT NOT NULL,
                 white TEXT NOT NULL,
                 board TEXT NOT NULL,
                 started_unix_ms INTEGER NOT NULL,
                 moves TEXT NOT NULL DEFAULT '',
                 winner TEXT,
                 reason TEXT,
                 position TEXT,
                 ended_unix_ms INTEGER
             );
             PRAGMA user_version = 1;",
        )?;
        Ok(Store { conn })
    }

    /// Checks a player's token, registering a new name with it.
    pub fn login(&self, name: &str, token: &str) -> Result<Login> {
        let hash = token_hash(token);
        let known: Option<String> = self
            .conn
            .query_row(
                "SELECT token_sha256 FROM players WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        Ok(match known {
            Some(h) if h == hash => Login::Known,
            Some(_) => Login::WrongToken,
            None => {
                self.conn.execute(
                    "INSERT INTO players (name, token_sha256, created_unix_ms) VALUES (?1, ?2, ?3)",
                    params![name, hash, unix_ms()],
                )?;
                Login::Registered
            }
        })
    }

    /// Records a game that starts and returns its number (never one given before).
    pub fn start_game(&self, black: &str, white: &str, board: &str) -> Result<u64> {
        self.conn.execute(
            "INSERT INTO games (black, white, board, started_unix_ms) VALUES (?1, ?2, ?3, ?4)",
            params![black, white, board, unix_ms()],
        )?;
        Ok(u64::try_from(self.conn.last_insert_rowid())?)
    }

    /// Records a game's end.
    pub fn finish_game(
        &self,
        id: u64,
        moves: &str,
        result: GameResult,
        position: &str,
    ) -> Result<()> {
        let changed = self.conn.execute(
            "UPDATE games SET moves = ?2, winner = ?3, reason = ?4, position = ?5, ended_unix_ms = ?6
             WHERE id = ?1 AND reason IS NULL",
            params![
                i64::try_from(id)?,
                moves,
                result.winner.map(Side::as_str),
                result.reason.as_str(),
                position,
                unix_ms()
            ],
        )?;
        anyhow::ensure!(changed == 1, "game {id} is not a game in play");
        Ok(())
    }

    /// Every finished game, oldest first.
    pub fn finished_games(&self) -> Result<Vec<FinishedGame>> {
        self.select("reason IS NOT NULL", None)
    }

    /// The finished game `id`, if there is one.
    pub fn finished_game(&self, id: u64) -> Result<Option<FinishedGame>> {
        Ok(self
            .select("reason IS NOT NULL AND id = ?1", Some(i64::try_from(id)?))?
            .pop())
    }

    fn select(&self, filter: &str, id: Option<i64>) -> Result<Vec<FinishedGame>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, black, white, board, moves, winner, reason, position FROM games
             WHERE {filter} ORDER BY id"
        ))?;
        let params: Vec<i64> = id.into_iter().collect();
        let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, Option<String>>(7)?,
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (id, black, white, board, moves, winner, reason, position) = row?;
            let winner = match winner.as_deref() {
                None => None,
                Some("black") => Some(Side::Black),
                Some("white") => Some(Side::White),
                Some(other) => anyhow::bail!("game {id}: unknown winner {other:?}"),
            };
            let reason = EndReason::parse(&reason)
                .with_context(|| format!("game {id}: unknown reason {reason:?}"))?;
            games.push(FinishedGame {
                id: u64::try_from(id)?,
                black,
                white,
                board,
                moves,
                result: GameResult { winner, reason },
                position: position.unwrap_or_default(),
            });
        }
        Ok(games)
    }
}
