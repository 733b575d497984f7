//! Scores, history and games in progress: the rows (core), the [`Storage`] interface the core asks them through
//! (core), and the terminal's embedded SQLite database that implements it (feature `terminal`).
//!
//! The database lives in one file (`parlor.db`) in the data directory. It is opened in WAL mode with a busy
//! timeout, and every write is one short transaction, so two `parlor` processes can record games at once without
//! losing each other's rows. A file that is not a database or fails SQLite's integrity check is moved aside (never
//! deleted) and a fresh database is started; the caller gets a notice to show the player.

mod api;
mod claim;
pub mod dump;
mod memory;
#[cfg(feature = "terminal")]
mod open;
mod records;
#[cfg(feature = "terminal")]
mod sqlite_storage;
mod stats;
#[cfg(feature = "terminal")]
mod transfer;

pub use api::Storage;
pub use claim::{Claim, ClaimError};
pub use memory::MemoryStore;
#[cfg(feature = "terminal")]
pub use open::{DB_FILE, Opened};
pub use records::{Damaged, GameRecord, History, Outcome, Ranking, Scoreboard, Stats, Unfinished};
pub use stats::{Figures, Outcomes, StatRow, Tallied, Tally, VariantTally};

#[cfg(feature = "terminal")]
use anyhow::{Context, Result};
#[cfg(feature = "terminal")]
use rusqlite::Connection;

/// The schema version this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = 2;

/// An open Parlor database.
#[cfg(feature = "terminal")]
pub struct Store {
    conn: Connection,
    location: String,
    /// The data directory (claims on games in progress live there); `None` for a database in memory.
    dir: Option<std::path::PathBuf>,
    /// Opened read-only: nothing is written, and callers say so.
    read_only: bool,
    /// The ids of the games whose finished rows are read (see [`Store::knowing`]); `None`: any name.
    known: Option<Vec<String>>,
}

#[cfg(feature = "terminal")]
impl Store {
    /// A database that lives only in memory: used when the data directory cannot be written.
    pub fn in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory()?;
        open::prepare(&conn)?;
        Ok(Store::with(
            conn,
            "memory (nothing will be kept)".into(),
            None,
            false,
        ))
    }

    /// A store on an open connection, told no games yet.
    fn with(
        conn: Connection,
        location: String,
        dir: Option<std::path::PathBuf>,
        read_only: bool,
    ) -> Store {
        Store {
            conn,
            location,
            dir,
            read_only,
            known: None,
        }
    }

    /// Tells the store the games it keeps, by their ids (the caller's registry): a finished row of any other game
    /// is damaged, "game unknown", and counted apart by every history and statistics. A store told nothing reads a
    /// row of any game name.
    pub fn knowing<S: Into<String>>(mut self, games: impl IntoIterator<Item = S>) -> Store {
        self.known = Some(games.into_iter().map(Into::into).collect());
        self
    }

    /// The games this store was told it keeps ([`Store::knowing`]), if it was.
    pub fn known_games(&self) -> Option<&[String]> {
        self.known.as_deref()
    }

    /// Refuses a write to a database opened read-only.
    fn writable(&self) -> Result<()> {
        if self.read_only {
            anyhow::bail!(
                "the database {} is open read-only: nothing is written",
                self.location
            );
        }
        Ok(())
    }

    /// Inserts the row of a game in progress; `on_conflict` says what an existing row of its session gets (an
    /// `ON CONFLICT(session)` action). Returns how many rows changed.
    fn insert_unfinished(&self, u: &Unfinished, on_conflict: &str) -> Result<usize> {
        self.conn
            .execute(
                &format!(
                    "INSERT INTO unfinished ({}) VALUES ({}) ON CONFLICT(session) {on_conflict}",
                    Unfinished::STORED,
                    records::placeholders_for(Unfinished::STORED),
                ),
                rusqlite::params_from_iter(u.stored_values()),
            )
            .context("saving the game in progress")
    }
}

/// Milliseconds since the Unix epoch, for timestamps.
pub fn now_ms() -> i64 {
    i64::try_from(crate::host::clock().unix_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// A timestamp as `YYYY-MM-DD HH:MM` (UTC), for lists.
pub fn format_time(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (year, month, day) = parlor_online::protocol::civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests;
