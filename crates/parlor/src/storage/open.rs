//! Opening the database: pragmas, schema, and what to do with a file that is not a healthy database.

use super::{SCHEMA_VERSION, Store, now_ms};
use anyhow::{Result, bail};
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The database file's name inside the data directory.
pub const DB_FILE: &str = "parlor.db";

/// An opened store and anything the player should be told about how it was opened.
pub struct Opened {
    /// The store to use.
    pub store: Store,
    /// A message for the player (a database moved aside, or storage unavailable), if any.
    pub notice: Option<String>,
}

/// Why a database file could not be used.
enum Failure {
    /// Not a database, or damaged: move it aside and start afresh.
    Corrupt(String),
    /// Another Parlor holds a lock for a moment (two starting at once): try again.
    Busy(String),
    /// Anything else (permissions, a newer schema, I/O): leave the file alone.
    Other(String),
}

/// The columns of a game in progress after its session (`unfinished` and `set_aside`), in the order of the
/// tables created since schema 1 (see `Unfinished::STORED` for the list read and written).
macro_rules! unfinished_columns {
    () => {
        "game TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    moves TEXT NOT NULL,
    score INTEGER NOT NULL,
    assisted INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0,
    practice INTEGER NOT NULL DEFAULT 0"
    };
}

/// The table of damaged games in progress set aside: the row of `unfinished` as it was, with why and when. One
/// definition for the file's table and for the stand-in a read-only schema-1 database gets.
macro_rules! set_aside_table {
    () => {
        concat!(
            "set_aside (id INTEGER PRIMARY KEY, session TEXT NOT NULL, ",
            unfinished_columns!(),
            ", reason TEXT NOT NULL, set_aside_at INTEGER NOT NULL)"
        )
    };
}

const SCHEMA: &str = concat!("
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    moves TEXT NOT NULL,
    score INTEGER NOT NULL,
    result TEXT NOT NULL,
    assisted INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0,
    practice INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_best ON games (game, variant, assisted, score);
CREATE INDEX IF NOT EXISTS games_ended ON games (ended_at);
-- Statistics read every game of a game in this order, from the index alone (storage/stats.rs). Created on open
-- for databases of every version, so it needs no migration; an older Parlor simply keeps it up to date.
CREATE INDEX IF NOT EXISTS games_stats ON games (game, variant, ended_at, id, score, result, assisted, seeded);
CREATE TABLE IF NOT EXISTS unfinished (session TEXT PRIMARY KEY, ", unfinished_columns!(), ");
CREATE TABLE IF NOT EXISTS ", set_aside_table!(), ";
-- The reviews of finished games (the coach, docs/REVIEW.md), one per game and engine version, as their JSON. Created
-- on open for databases of every version, as the index above: an older Parlor leaves it alone and still opens the
-- file, so it needs no new schema version.
CREATE TABLE IF NOT EXISTS reviews (
    game_id INTEGER NOT NULL,
    engine TEXT NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (game_id, engine)
);
");

/// The schema-1 rows whose result becomes `done` in schema 2: games with no win or loss of the player's (the
/// codemaker role, two players, the computer watched), as schema 1 named their games and variants. One rule for the
/// migration and for the views that read a schema-1 database as it is. The condition is data, kept in
/// `schema_1_done.sql`: it describes rows written by schema 1 (their game ids and variant names as they were then),
/// fixed for good whatever the registry holds now; no game's code is behind it.
macro_rules! done_in_schema_2 {
    () => {
        include_str!("schema_1_done.sql")
    };
}

/// Schema 1 to 2: the `seeded` mark, the table of damaged games set aside, and results as the typed outcome.
const MIGRATE_1_TO_2: &str = concat!(
    "
ALTER TABLE games ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE unfinished ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;
UPDATE games SET result = 'done' WHERE ",
    done_in_schema_2!(),
    ";
"
);

/// The tables that hold the practice mark (`practice`, a game played from a position of a reviewed game: never
/// scored). The mark came after schema 2 and needs no new schema version, as the `reviews` table: a database that
/// lacks it gets the column (0, not practice, for every row there) when this Parlor opens it, and an older Parlor
/// still opens the file and writes its rows without the mark (0). Practice games are also marked `seeded` (they
/// are played from the reviewed game's seed), so an older Parlor keeps them out of its best scores too.
const PRACTICE_TABLES: [&str; 3] = ["games", "unfinished", "set_aside"];

/// The index of the practice games (few): the statistics read every game of a game from the covering index
/// `games_stats` and leave out the ids this one lists (`storage/sqlite_storage.rs`). Made once the `practice`
/// column is there.
const PRACTICE_INDEX: &str =
    "CREATE INDEX IF NOT EXISTS games_practice ON games (id) WHERE practice != 0;";

/// Whether `table` has a column named `column`.
fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    let mut stmt = conn.prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
    for name in names {
        if name? == column {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Adds the `practice` column to the tables of a database that lacks it ([`PRACTICE_TABLES`]), in one
/// transaction that looks again inside it (another Parlor opening the file at once may have added it), then makes
/// the index of practice games ([`PRACTICE_INDEX`]). Writes nothing when all is there.
fn add_practice(conn: &Connection) -> rusqlite::Result<()> {
    let missing = |conn: &Connection| -> rusqlite::Result<Vec<&'static str>> {
        let mut out = Vec::new();
        for t in PRACTICE_TABLES {
            if !has_column(conn, t, "practice")? {
                out.push(t);
            }
        }
        Ok(out)
    };
    if !missing(conn)?.is_empty() {
        immediately(conn, || {
            for t in missing(conn)? {
                conn.execute_batch(&format!(
                    "ALTER TABLE {t} ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;"
                ))?;
            }
            Ok(())
        })?;
    }
    conn.execute_batch(PRACTICE_INDEX)
}

/// Runs `change` in one immediate transaction on `conn`: committed if it succeeds, else rolled back (nothing of it
/// is written) and its error returned.
fn immediately(
    conn: &Connection,
    change: impl FnOnce() -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    match change() {
        Ok(()) => conn.execute_batch("COMMIT"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Sets the pragmas and creates the schema on a fresh or existing connection.
pub(super) fn prepare(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(10))?;
    // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a crashed or killed process still loses
    // nothing (the WAL is written before each commit returns); only a power cut could lose the last moves. This
    // keeps the save after every move well inside a frame.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version == 1 {
        // One transaction: a migration that fails half-way leaves the version-1 database as it was. The version is
        // read again inside it: another Parlor opening the same file at once may have migrated it meanwhile.
        immediately(conn, || {
            let again: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
            if again == 1 {
                conn.execute_batch(&format!(
                    "{MIGRATE_1_TO_2} {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION};"
                ))?;
            }
            Ok(())
        })?;
    } else {
        // Every statement is `IF NOT EXISTS`: nothing is written when the schema is there, so opening a database
        // takes no write lock (two Parlors starting at once do not wait on each other).
        conn.execute_batch(SCHEMA)?;
        if version != SCHEMA_VERSION {
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
    }
    add_practice(conn)
}

fn classify(e: rusqlite::Error) -> Failure {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
            Failure::Corrupt(e.to_string())
        }
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Failure::Busy(e.to_string()),
        _ => Failure::Other(e.to_string()),
    }
}

fn try_open(path: &Path) -> std::result::Result<Connection, Failure> {
    let conn = Connection::open(path).map_err(classify)?;
    conn.busy_timeout(Duration::from_secs(10))
        .map_err(classify)?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(classify)?;
    if version > SCHEMA_VERSION {
        return Err(Failure::Other(format!(
            "it was written by a newer Parlor (schema {version}, this one knows {SCHEMA_VERSION})"
        )));
    }
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(classify)?;
    if check != "ok" {
        return Err(Failure::Corrupt(format!("integrity check failed: {check}")));
    }
    // WAL lets readers and a writer work at once; it is a property of the file, so set it once here.
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .map_err(classify)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Failure::Other(format!(
            "could not switch to WAL mode (got {mode})"
        )));
    }
    prepare(&conn).map_err(classify)?;
    Ok(conn)
}

/// [`try_open`], tried again for up to three seconds while another Parlor holds a lock (two starting at once, one
/// migrating): a moment's contention must not make a database look unwritable.
fn try_open_patiently(path: &Path) -> std::result::Result<Connection, Failure> {
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    let mut pause = Duration::from_millis(5);
    loop {
        match try_open(path) {
            Err(Failure::Busy(_)) if std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            other => return other,
        }
    }
}

/// Opens an existing database for reading only; a database of schema 1 is read through temporary views that
/// look like schema 2 (nothing is migrated, nothing is written). Tries a normal read-only connection first, then
/// an immutable one (which needs no lock file: a read-only directory holding a database in WAL mode).
fn try_open_read_only(path: &Path) -> std::result::Result<Connection, String> {
    if !path.is_file() {
        return Err(format!("{} does not exist", path.display()));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
    let probe = |conn: Connection| -> rusqlite::Result<Connection> {
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        Ok(conn)
    };
    let conn = Connection::open_with_flags(path, flags)
        .and_then(probe)
        .or_else(|_| Connection::open_with_flags(immutable_uri(path), flags).and_then(probe))
        .map_err(|e| e.to_string())?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if version == 1 {
        conn.execute_batch(READ_SCHEMA_1_AS_2)
            .map_err(|e| e.to_string())?;
    } else if !has_column(&conn, "games", "practice").map_err(|e| e.to_string())? {
        conn.execute_batch(READ_WITHOUT_PRACTICE)
            .map_err(|e| e.to_string())?;
    }
    Ok(conn)
}

/// Temporary views (they shadow the file's tables, which stay untouched) that show a schema-1 database as schema 2,
/// with the same result mapping as [`MIGRATE_1_TO_2`].
const READ_SCHEMA_1_AS_2: &str = concat!("
CREATE TEMP VIEW games AS SELECT id, game, variant, options, seed, moves, score,
    CASE WHEN ", done_in_schema_2!(), " THEN 'done' ELSE result END AS result,
    assisted, started_at, ended_at, 0 AS seeded, 0 AS practice FROM main.games;
CREATE TEMP VIEW unfinished AS SELECT rowid AS rowid, session, game, variant, options, seed, moves, score, assisted, started_at,
    updated_at, 0 AS seeded, 0 AS practice FROM main.unfinished;
CREATE TEMP TABLE ", set_aside_table!(), ";
");

/// Temporary views that show a database without the practice mark (schema 2 before it, opened read-only: nothing
/// can be added to it) with the mark, 0 for every row.
const READ_WITHOUT_PRACTICE: &str = "
CREATE TEMP VIEW games AS SELECT *, 0 AS practice FROM main.games;
CREATE TEMP VIEW unfinished AS SELECT rowid AS rowid, *, 0 AS practice FROM main.unfinished;
CREATE TEMP VIEW set_aside AS SELECT *, 0 AS practice FROM main.set_aside;
";

/// `file:` URI of `path` opened as immutable (no locks, no WAL), with the characters URIs reserve escaped.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(char::from(*b))
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// Moves a damaged database (and its WAL and shared-memory files) aside, returning the new name.
fn move_aside(path: &Path) -> Result<PathBuf> {
    let stamp = now_ms();
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".corrupt-{stamp}"));
    let aside = PathBuf::from(aside);
    if aside.exists() {
        bail!("{} already exists", aside.display());
    }
    std::fs::rename(path, &aside)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        let side = PathBuf::from(side);
        if side.exists() {
            let mut to = aside.as_os_str().to_owned();
            to.push(suffix);
            std::fs::rename(&side, PathBuf::from(to))?;
        }
    }
    Ok(aside)
}

impl Store {
    /// Opens an existing database file for reading only: nothing is ever written to it (writes are refused), and a
    /// database of an older schema is read as it is, without migrating it.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        let conn = try_open_read_only(path).map_err(anyhow::Error::msg)?;
        Ok(Store::with(conn, path.display().to_string(), None, true))
    }

    /// Opens (or creates) the database in `dir`. Never fails: when the file cannot be used, the returned notice says
    /// why and what was done, and the store is a fresh database (after moving a damaged one aside) or, if even that
    /// is impossible, an in-memory one.
    pub fn open(dir: &Path) -> Result<Opened> {
        let path = dir.join(DB_FILE);
        let location = path.display().to_string();
        let fallback = |why: String| -> Result<Opened> {
            Ok(Opened {
                store: Store::in_memory()?,
                notice: Some(format!(
                    "Storage unavailable: {why}. This session's games will not be kept."
                )),
            })
        };
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fallback(format!("cannot create {}: {e}", dir.display()));
        }
        match try_open_patiently(&path) {
            Ok(conn) => Ok(Opened {
                store: Store::with(conn, location, Some(dir.to_path_buf()), false),
                notice: None,
            }),
            Err(Failure::Other(why) | Failure::Busy(why)) => match Store::open_read_only(&path) {
                // The file is there and readable, but cannot be written (a read-only file or directory, or a newer
                // Parlor's schema): show what it holds, write nothing.
                Ok(store) => Ok(Opened {
                    notice: Some(format!(
                        "The database {location} is open read-only ({why}): its games are shown, but nothing \
                         played in this session will be kept."
                    )),
                    store,
                }),
                Err(_) => fallback(format!("cannot use {location}: {why}")),
            },
            Err(Failure::Corrupt(why)) => {
                let aside = match move_aside(&path) {
                    Ok(aside) => aside,
                    Err(e) => {
                        return fallback(format!(
                            "{location} is damaged ({why}) and could not be moved aside ({e})"
                        ));
                    }
                };
                match try_open_patiently(&path) {
                    Ok(conn) => Ok(Opened {
                        notice: Some(format!(
                            "The database {location} was damaged ({why}). It was moved to {} and a fresh one was started.",
                            aside.display()
                        )),
                        store: Store::with(conn, location, Some(dir.to_path_buf()), false),
                    }),
                    Err(Failure::Corrupt(e) | Failure::Other(e) | Failure::Busy(e)) => {
                        fallback(format!(
                            "{location} was damaged and moved to {}, but a fresh one could not be created: {e}",
                            aside.display()
                        ))
                    }
                }
            }
        }
    }
}
