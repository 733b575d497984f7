//! The PostgreSQL store's schema: a `schema_version` table of one row, and migrations numbered as SQLite's schema
//! versions are ([`super::super::SCHEMA_VERSION`]), so that a number means the same tables on both backends. The
//! backend began at schema 5, made whole in one step; a later schema is a further step on both. Migrating holds a
//! transaction-scoped advisory lock, so that servers starting at once on one database migrate it once; a
//! database of a newer server is refused. The tables of several nodes on one database (leases, game numbers) are
//! this backend's own, as `schema_version` is: made if missing ([`super::lease`]).

use super::{PgUrl, Result};
use crate::store::{SCHEMA_VERSION, StoreError};
use postgres::Client;

/// The advisory lock's key while migrating (`parlor` in ASCII).
const MIGRATION_LOCK: i64 = 0x7061_726c_6f72;

/// Schema 5, whole: SQLite's tables, in PostgreSQL's types (BIGINT, DOUBLE PRECISION, BOOLEAN, JSONB for the values
/// kept as JSON). Names are unique after case folding (`name_key`): no database of this backend predates the rule.
const SCHEMA_5: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL DEFAULT 1500.0,
    deviation DOUBLE PRECISION NOT NULL DEFAULT 350.0,
    volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    name_key TEXT NOT NULL UNIQUE
);
CREATE INDEX players_by_rating ON players (rating DESC, name);
CREATE TABLE games (
    id BIGINT PRIMARY KEY,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    board TEXT NOT NULL,
    started_unix_ms BIGINT NOT NULL,
    moves TEXT NOT NULL DEFAULT '',
    winner TEXT,
    reason TEXT,
    position TEXT,
    ended_unix_ms BIGINT,
    clock TEXT,
    rated BOOLEAN NOT NULL DEFAULT FALSE,
    ratings JSONB,
    rematch_of BIGINT,
    black_ms BIGINT NOT NULL DEFAULT 0,
    white_ms BIGINT NOT NULL DEFAULT 0,
    black_seq BIGINT,
    white_seq BIGINT,
    times JSONB,
    start_ratings JSONB,
    end_clocks JSONB
);
CREATE INDEX games_in_play ON games (id) WHERE reason IS NULL;
CREATE INDEX games_of_black ON games (black, id);
CREATE INDEX games_of_white ON games (white, id);
CREATE TABLE queue (
    name TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    clock TEXT,
    joined_unix_ms BIGINT NOT NULL
);
CREATE TABLE rematch_offers (
    game BIGINT PRIMARY KEY,
    offerer TEXT NOT NULL,
    expires_unix_ms BIGINT NOT NULL
);
CREATE TABLE daily_2048 (
    day TEXT NOT NULL, board TEXT NOT NULL, name TEXT NOT NULL,
    score BIGINT NOT NULL, max_tile BIGINT NOT NULL, moves BIGINT NOT NULL,
    actions TEXT NOT NULL, at_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (day, board, name)
);
CREATE TABLE daily_mastermind (
    day TEXT NOT NULL, name TEXT NOT NULL, n BIGINT NOT NULL, code TEXT NOT NULL,
    black SMALLINT NOT NULL, white SMALLINT NOT NULL, solved BOOLEAN NOT NULL,
    at_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (day, name, n)
);
CREATE TABLE daily_mastermind_start (
    day TEXT NOT NULL, name TEXT NOT NULL, at_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (day, name)
);
";

/// Schema 6: the ranked 2048 of the day, dealt by the server (SQLite's schema 6).
const SCHEMA_6: &str = "
CREATE TABLE ranked_2048 (
    day TEXT NOT NULL, name TEXT NOT NULL, slides TEXT NOT NULL DEFAULT '',
    score BIGINT NOT NULL DEFAULT 0, max_tile BIGINT NOT NULL, over BOOLEAN NOT NULL DEFAULT FALSE,
    started_unix_ms BIGINT NOT NULL, at_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (day, name)
);
";

/// Each step: the schema it makes and its SQL, run in one transaction.
const MIGRATIONS: [(i64, &str); 2] = [(5, SCHEMA_5), (6, SCHEMA_6)];

/// Makes the schema, or migrates it to [`SCHEMA_VERSION`], on `client` (the database at `url`).
pub(super) fn migrate(client: &mut Client, url: &PgUrl) -> Result<()> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let found: Option<i64> = tx
        .query_opt("SELECT version FROM schema_version", &[])?
        .map(|r| r.try_get(0))
        .transpose()?;
    let version = found.unwrap_or(0);
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            path: url.masked(),
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    for (step, sql) in MIGRATIONS {
        if step > version {
            tx.batch_execute(sql)?;
        }
    }
    if found.is_none() {
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&SCHEMA_VERSION],
        )?;
    } else if version < SCHEMA_VERSION {
        tx.execute("UPDATE schema_version SET version = $1", &[&SCHEMA_VERSION])?;
    }
    tx.batch_execute(super::lease::NODE_TABLES)?;
    tx.batch_execute(super::presence::PRESENCE_TABLES)?;
    tx.commit()?;
    Ok(())
}
