//! The server's database: `server.db` (SQLite, WAL) in its data directory. Players (name and the SHA-256 of their
//! token, never the token itself) and games: a row is written when a game starts, so no game number is ever given
//! twice, and completed with the result when it ends; a rated game's end and both players' new ratings are written
//! in one transaction, only if the game was still in play, so each rated game updates ratings exactly once.

use crate::rating::{self, Exact};
use anyhow::{Context, Result};
use parlor_online::protocol::{EndReason, RatingChanges, Side, TimeControl};
use parlor_online::referee::GameResult;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The database's file name in the data directory.
pub const DB_FILE: &str = "server.db";

/// The schema's version (SQLite's `user_version`).
const SCHEMA_VERSION: i64 = 2;

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
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it was rated.
    pub rated: bool,
    /// The rating changes it made, if rated and not aborted.
    pub ratings: Option<RatingChanges>,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// A new rated game's end: the changes shown, and both players' exact new ratings (Black's first).
#[derive(Clone, Copy, Debug)]
pub struct Rated {
    /// As the protocol shows them.
    pub changes: RatingChanges,
    /// The exact new ratings, Black's first.
    pub after: [Exact; 2],
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
             ",
        )?;
        if version < 2 {
            conn.execute_batch(
                "BEGIN;
                 ALTER TABLE players ADD COLUMN rating REAL NOT NULL DEFAULT 1500.0;
                 ALTER TABLE players ADD COLUMN deviation REAL NOT NULL DEFAULT 350.0;
                 ALTER TABLE players ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06;
                 ALTER TABLE games ADD COLUMN clock TEXT;
                 ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE games ADD COLUMN ratings TEXT;
                 PRAGMA user_version = 2;
                 COMMIT;",
            )?;
        }
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

    /// Records an untimed, unrated game that starts and returns its number (never one given before).
    pub fn start_game(&self, black: &str, white: &str, board: &str) -> Result<u64> {
        self.start_game_with(black, white, board, None, false)
    }

    /// Records a game that starts, with its time control and whether it is rated, and returns its number.
    pub fn start_game_with(
        &self,
        black: &str,
        white: &str,
        board: &str,
        clock: Option<TimeControl>,
        rated: bool,
    ) -> Result<u64> {
        self.conn.execute(
            "INSERT INTO games (black, white, board, started_unix_ms, clock, rated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                black,
                white,
                board,
                unix_ms(),
                clock.map(|c| c.to_string()),
                rated
            ],
        )?;
        Ok(u64::try_from(self.conn.last_insert_rowid())?)
    }

    /// A player's exact rating (a new player's if the name is unknown).
    pub fn rating(&self, name: &str) -> Result<Exact> {
        Ok(self
            .conn
            .query_row(
                "SELECT rating, deviation, volatility FROM players WHERE name = ?1",
                [name],
                |r| {
                    Ok(Exact {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_else(rating::new_player))
    }

    /// Every player's exact rating, best first (at most `limit`).
    pub fn ratings(&self, limit: usize) -> Result<Vec<(String, Exact)>> {
        let mut stmt = self.conn.prepare(
            "SELECT name, rating, deviation, volatility FROM players ORDER BY rating DESC, name LIMIT ?1",
        )?;
        let rows = stmt.query_map([i64::try_from(limit)?], |r| {
            Ok((
                r.get(0)?,
                Exact {
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    volatility: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records an unrated game's end (or a rated game's that changes no rating).
    pub fn finish_game(
        &self,
        id: u64,
        moves: &str,
        result: GameResult,
        position: &str,
    ) -> Result<()> {
        self.finish_rated_game(id, moves, result, position, None)
    }

    /// Records a game's end and, for a rated game, both players' new ratings, in one transaction: nothing is
    /// written unless the game was in play, so a game's ratings are applied once.
    pub fn finish_rated_game(
        &self,
        id: u64,
        moves: &str,
        result: GameResult,
        position: &str,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        let changed = tx.execute(
            "UPDATE games SET moves = ?2, winner = ?3, reason = ?4, position = ?5, ended_unix_ms = ?6,
             ratings = ?7
             WHERE id = ?1 AND reason IS NULL",
            params![
                i64::try_from(id)?,
                moves,
                result.winner.map(Side::as_str),
                result.reason.as_str(),
                position,
                unix_ms(),
                rated
                    .map(|(_, _, r)| serde_json::to_string(&r.changes))
                    .transpose()?
            ],
        )?;
        anyhow::ensure!(changed == 1, "game {id} is not a game in play");
        if let Some((black, white, r)) = rated {
            for (name, after) in [(black, r.after[0]), (white, r.after[1])] {
                tx.execute(
                    "UPDATE players SET rating = ?2, deviation = ?3, volatility = ?4 WHERE name = ?1",
                    params![name, after.rating, after.deviation, after.volatility],
                )?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Every finished game, oldest first.
    pub fn finished_games(&self) -> Result<Vec<FinishedGame>> {
        self.select("reason IS NOT NULL", None)
    }

    /// `player`'s last finished games, newest first (at most `limit`).
    pub fn games_of(&self, player: &str, limit: usize) -> Result<Vec<FinishedGame>> {
        let ids: Vec<i64> = {
            let mut stmt = self.conn.prepare(
                "SELECT id FROM games WHERE reason IS NOT NULL AND (black = ?1 OR white = ?1)
                 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![player, i64::try_from(limit)?], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let mut games = Vec::new();
        for id in ids {
            games.extend(self.select("reason IS NOT NULL AND id = ?1", Some(id))?);
        }
        Ok(games)
    }

    /// The finished game `id`, if there is one.
    pub fn finished_game(&self, id: u64) -> Result<Option<FinishedGame>> {
        Ok(self
            .select("reason IS NOT NULL AND id = ?1", Some(i64::try_from(id)?))?
            .pop())
    }

    fn select(&self, filter: &str, id: Option<i64>) -> Result<Vec<FinishedGame>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, black, white, board, moves, winner, reason, position, clock, rated, ratings,
             started_unix_ms, ended_unix_ms FROM games
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
                (
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, bool>(9)?,
                    r.get::<_, Option<String>>(10)?,
                    r.get::<_, i64>(11)?,
                    r.get::<_, Option<i64>>(12)?,
                ),
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (id, black, white, board, moves, winner, reason, position, more) = row?;
            let (clock, rated, ratings, started, ended) = more;
            let clock = clock
                .map(|c| c.parse::<TimeControl>())
                .transpose()
                .map_err(|e| anyhow::anyhow!("game {id}: clock: {e}"))?;
            let ratings = ratings
                .map(|r| serde_json::from_str::<RatingChanges>(&r))
                .transpose()
                .with_context(|| format!("game {id}: ratings"))?;
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
                clock,
                rated,
                ratings,
                started_ms: u64::try_from(started).unwrap_or(0),
                ended_ms: ended.and_then(|e| u64::try_from(e).ok()).unwrap_or(0),
            });
        }
        Ok(games)
    }
}
