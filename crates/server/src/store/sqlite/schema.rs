//! The SQLite store's schema (SQLite's `user_version`), made or migrated when the database opens; a database of a
//! newer server is refused.

use super::{Result, StoreError};
use parlor_online::protocol::TimeControl;
use rusqlite::{Connection, params};
use std::path::Path;

/// The schema's version (SQLite's `user_version`).
pub const SCHEMA_VERSION: i64 = 6;

/// Makes the schema, or migrates it to [`SCHEMA_VERSION`], on `conn` (the database at `path`).
pub(super) fn migrate(conn: &Connection, path: &Path) -> Result<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            path: path.display().to_string(),
            found: version,
            known: SCHEMA_VERSION,
        });
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
             ALTER TABLE games ADD COLUMN rematch_of INTEGER;
             ALTER TABLE games ADD COLUMN black_ms INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE games ADD COLUMN white_ms INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE games ADD COLUMN black_seq INTEGER;
             ALTER TABLE games ADD COLUMN white_seq INTEGER;
             CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
             CREATE TABLE daily_2048 (
                 day TEXT NOT NULL, board TEXT NOT NULL, name TEXT NOT NULL,
                 score INTEGER NOT NULL, max_tile INTEGER NOT NULL, moves INTEGER NOT NULL,
                 actions TEXT NOT NULL, at_unix_ms INTEGER NOT NULL,
                 PRIMARY KEY (day, board, name)
             );
             CREATE TABLE daily_mastermind (
                 day TEXT NOT NULL, name TEXT NOT NULL, n INTEGER NOT NULL, code TEXT NOT NULL,
                 black INTEGER NOT NULL, white INTEGER NOT NULL, solved INTEGER NOT NULL,
                 at_unix_ms INTEGER NOT NULL,
                 PRIMARY KEY (day, name, n)
             );
             CREATE TABLE daily_mastermind_start (
                 day TEXT NOT NULL, name TEXT NOT NULL, at_unix_ms INTEGER NOT NULL,
                 PRIMARY KEY (day, name)
             );
             PRAGMA user_version = 2;
             COMMIT;",
        )?;
    }
    if version < 3 {
        // Schema 3: each move's time (a JSON array; NULL for the games kept before), and the queue and the
        // rematch offers, which were in memory only.
        conn.execute_batch(
            "BEGIN;
             ALTER TABLE games ADD COLUMN times TEXT;
             CREATE TABLE queue (
                 name TEXT PRIMARY KEY NOT NULL, board TEXT NOT NULL, clock TEXT,
                 joined_unix_ms INTEGER NOT NULL
             );
             CREATE TABLE rematch_offers (
                 game INTEGER PRIMARY KEY NOT NULL, offerer TEXT NOT NULL,
                 expires_unix_ms INTEGER NOT NULL
             );
             PRAGMA user_version = 3;
             COMMIT;",
        )?;
    }
    if version < 4 {
        // Schema 4: the ratings each game's `started` event showed and the clocks its `ended` event showed, so
        // that a game sent again reads as it did live; and the clocks of the timed games in play that had not had
        // a move yet, which their start did not write (they read 0 and lost on time once resumed).
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(
            "ALTER TABLE games ADD COLUMN start_ratings TEXT;
             ALTER TABLE games ADD COLUMN end_clocks TEXT;",
        )?;
        let unstarted: Vec<(i64, String)> = {
            let mut stmt = tx.prepare(
                "SELECT id, clock FROM games WHERE reason IS NULL AND clock IS NOT NULL AND moves = ''",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for (id, clock) in unstarted {
            let Ok(tc) = clock.parse::<TimeControl>() else {
                continue;
            };
            let full = i64::try_from(tc.start_ms())?;
            tx.execute(
                "UPDATE games SET black_ms = ?2, white_ms = ?2 WHERE id = ?1",
                params![id, full],
            )?;
        }
        tx.pragma_update(None, "user_version", 4)?;
        tx.commit()?;
    }
    if version < 5 {
        // Schema 5: each name's case-folded key (names are ASCII letters, digits, '_' and '-', for which SQLite's
        // lower() is Unicode case folding). Names registered before that collide keep their rows (the index is not
        // unique); a new name is refused if its key is taken.
        conn.execute_batch(
            "BEGIN;
             ALTER TABLE players ADD COLUMN name_key TEXT;
             UPDATE players SET name_key = lower(name);
             CREATE INDEX players_name_key ON players (name_key);
             PRAGMA user_version = 5;
             COMMIT;",
        )?;
    }
    if version < 6 {
        // Schema 6: the ranked 2048 of the day, dealt by the server, each game's slides kept as they are played
        // (with the player's seed of the day, the whole game). The games handed in whole on the `plain` board
        // before stay in daily_2048 and still show on it.
        conn.execute_batch(
            "BEGIN;
             CREATE TABLE IF NOT EXISTS ranked_2048 (
                 day TEXT NOT NULL, name TEXT NOT NULL, slides TEXT NOT NULL DEFAULT '',
                 score INTEGER NOT NULL DEFAULT 0, max_tile INTEGER NOT NULL, over INTEGER NOT NULL DEFAULT 0,
                 started_unix_ms INTEGER NOT NULL, at_unix_ms INTEGER NOT NULL,
                 PRIMARY KEY (day, name)
             );
             PRAGMA user_version = 6;
             COMMIT;",
        )?;
    }
    Ok(())
}
