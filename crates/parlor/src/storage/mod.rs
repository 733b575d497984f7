//! Scores, history and games in progress: the rows (core), the [`Storage`] interface the core asks them through
//! (core), and the terminal's embedded SQLite database that implements it (feature `terminal`).
//!
//! The database lives in one file (`parlor.db`) in the data directory. It is opened in WAL mode with a busy
//! timeout, and every write is one short transaction, so two `parlor` processes can record games at once without
//! losing each other's rows. A file that is not a database or fails SQLite's integrity check is moved aside (never
//! deleted) and a fresh database is started; the caller gets a notice to show the player.

mod api;
mod claim;
mod memory;
#[cfg(feature = "terminal")]
mod open;
mod records;
#[cfg(feature = "terminal")]
mod sqlite_storage;
mod stats;

pub use api::Storage;
pub use claim::{Claim, ClaimError};
pub use memory::MemoryStore;
#[cfg(feature = "terminal")]
pub use open::{DB_FILE, Opened};
pub use records::{Damaged, GameRecord, History, Outcome, Ranking, Stats, Unfinished};
pub use stats::{Figures, StatRow, Tallied, Tally, VariantTally};

#[cfg(feature = "terminal")]
use anyhow::{Context, Result};
#[cfg(feature = "terminal")]
use rusqlite::{Connection, OptionalExtension, params};

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

    /// Where the data lives, for messages.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The data directory, unless the database lives in memory.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.dir.as_deref()
    }

    /// Whether the database was opened read-only (nothing this session plays is kept).
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// Whether what is written here is kept after the process ends: not in memory, not read-only. Nothing is ever
    /// called "saved" in a store that does not keep it.
    pub fn keeps(&self) -> bool {
        !self.read_only && self.dir.is_some()
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

    /// Saves (inserts or replaces) the game in progress of one play session, whatever the database holds for it.
    /// Play goes through [`Store::save_game`], which never brings back a game finished elsewhere.
    pub fn save_unfinished(&self, u: &Unfinished) -> Result<()> {
        self.writable()?;
        // A session keeps its game and its start; the rest is the game as it is now.
        let update: Vec<String> = Unfinished::STORED
            .split(", ")
            .filter(|c| !["session", "game", "started_at"].contains(c))
            .map(|c| format!("{c} = excluded.{c}"))
            .collect();
        self.insert_unfinished(u, &format!("DO UPDATE SET {}", update.join(", ")))?;
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

    /// Saves the game in progress of one play session as its player last left it: `held` is the moves its saved
    /// row holds (`None`: no row yet, and one is made). Returns `false`, writing nothing, when the row is no longer
    /// what this player left (finished, set aside or played on by another Parlor): the game is no longer this
    /// player's to save.
    pub fn save_game(&self, u: &Unfinished, held: Option<&str>) -> Result<bool> {
        self.writable()?;
        let changed = match held {
            None => self.insert_unfinished(u, "DO NOTHING")?,
            Some(held) => self
                .conn
                .execute(
                    "UPDATE unfinished SET moves = ?2, score = ?3, assisted = ?4, updated_at = ?5
                     WHERE session = ?1 AND moves = ?6",
                    params![u.session, u.moves, u.score, u.assisted, u.updated_at, held],
                )
                .context("saving the game in progress")?,
        };
        Ok(changed == 1)
    }

    /// The games in progress, newest first, optionally of one game only. A row whose columns are not of the types
    /// Parlor writes is read as far as it can be, with [`Unfinished::damage`] saying what is wrong (set it aside).
    pub fn unfinished(&self, game: Option<&str>) -> Result<Vec<Unfinished>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {} FROM unfinished WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC",
            Unfinished::COLUMNS
        ))?;
        let rows = stmt.query_map(params![game], Unfinished::from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The game in progress of one play session, read now (`None` when it is no longer unfinished).
    pub fn unfinished_session(&self, session: &str) -> Result<Option<Unfinished>> {
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT {} FROM unfinished WHERE session = ?1",
                    Unfinished::COLUMNS
                ),
                params![session],
                Unfinished::from_row,
            )
            .optional()?)
    }

    /// Forgets a game in progress without recording it (for a game with no move made).
    pub fn discard_unfinished(&self, session: &str) -> Result<()> {
        self.writable()?;
        self.conn.execute(
            "DELETE FROM unfinished WHERE session = ?1",
            params![session],
        )?;
        Ok(())
    }

    /// Forgets the saved row of a game taken back to no move, if it still holds `held` (the moves its player last
    /// saved); a row changed since is another Parlor's and stays.
    pub fn discard_game(&self, session: &str, held: &str) -> Result<()> {
        self.writable()?;
        self.conn.execute(
            "DELETE FROM unfinished WHERE session = ?1 AND moves = ?2",
            params![session, held],
        )?;
        Ok(())
    }

    /// Sets a damaged game in progress aside: its stored row moves, whole and exactly as stored (whatever the types
    /// of its columns), to the `set_aside` table with the reason, so that it no longer blocks anything and is never
    /// lost. The row is found by [`Unfinished::row`] (by its session when it was not read from the database). A row
    /// that is no longer there (finished meanwhile by another Parlor) is left as it is.
    pub fn set_aside(&mut self, u: &Unfinished, reason: &str) -> Result<()> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            &format!(
                "INSERT INTO set_aside ({0}, reason, set_aside_at) SELECT {0}, ?2, ?3
                 FROM unfinished WHERE CASE WHEN ?1 = 0 THEN session = ?4 ELSE rowid = ?1 END",
                Unfinished::STORED
            ),
            params![u.row, reason, now_ms(), u.session],
        )?;
        tx.execute(
            "DELETE FROM unfinished WHERE CASE WHEN ?1 = 0 THEN session = ?2 ELSE rowid = ?1 END",
            params![u.row, u.session],
        )?;
        tx.commit().context("setting the damaged game aside")?;
        Ok(())
    }

    /// How many damaged games have been set aside.
    pub fn set_aside_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM set_aside", [], |r| r.get(0))?)
    }

    /// Records a finished game and drops its in-progress copy, in one transaction. Returns the new game's id.
    /// Whatever the in-progress row holds; play goes through [`Store::finish_game`], which records a game once.
    pub fn finish(&mut self, session: &str, record: &GameRecord) -> Result<i64> {
        let held: Option<String> = self
            .conn
            .query_row(
                "SELECT moves FROM unfinished WHERE session = ?1",
                params![session],
                |r| r.get(0),
            )
            .optional()?;
        self.finish_game(session, held.as_deref(), record)?
            .ok_or_else(|| anyhow::anyhow!("the game changed while it was being recorded"))
    }

    /// Records a finished game and drops its in-progress copy, in one transaction that records nothing when the game
    /// is no longer unfinished as its player left it: `held` is the moves its saved row holds (`None`: it has no
    /// row, and none may have appeared). Returns the new game's id, or `None` when nothing was recorded because
    /// another Parlor finished, set aside or played on the game meanwhile.
    pub fn finish_game(
        &mut self,
        session: &str,
        held: Option<&str>,
        record: &GameRecord,
    ) -> Result<Option<i64>> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let gone = match held {
            Some(held) => {
                tx.execute(
                    "DELETE FROM unfinished WHERE session = ?1 AND moves = ?2",
                    params![session, held],
                )? != 1
            }
            None => {
                tx.query_row(
                    "SELECT COUNT(*) FROM unfinished WHERE session = ?1",
                    params![session],
                    |r| r.get::<_, i64>(0),
                )? != 0
            }
        };
        if gone {
            // Dropping the transaction rolls it back: nothing is written.
            return Ok(None);
        }
        tx.execute(
            &format!(
                "INSERT INTO games ({}) VALUES ({})",
                GameRecord::STORED,
                records::placeholders_for(GameRecord::STORED)
            ),
            rusqlite::params_from_iter(record.stored_values()),
        )?;
        let id = tx.last_insert_rowid();
        tx.commit().context("recording the finished game")?;
        Ok(Some(id))
    }

    /// Finished games, newest first, optionally of one game only: at most `limit` readable ones, and the damaged
    /// rows left out (all of them) with why. A row whose game is unknown is left out of every history, counted
    /// whatever game is shown (it could be any game's), as statistics count it.
    pub fn history(&self, game: Option<&str>, limit: usize) -> Result<History> {
        // The marks of every row first (small columns only), then the newest readable rows in full.
        let mut stmt = self.conn.prepare(
            "SELECT id, game, score, result, assisted, seeded FROM games ORDER BY ended_at DESC, id DESC",
        )?;
        let mut rows = stmt.query([])?;
        let mut out = History::default();
        let mut ids = Vec::new();
        while let Some(r) = rows.next()? {
            let known = self.known_games();
            let shown = records::game_damage(known, r.get_ref(1)?).is_some()
                || game.is_none_or(|g| r.get_ref(1).ok().and_then(|v| v.as_str().ok()) == Some(g));
            if !shown {
                continue;
            }
            let why = records::damage(
                known,
                r.get_ref(1)?,
                r.get_ref(2)?,
                r.get_ref(3)?,
                r.get_ref(4)?,
                r.get_ref(5)?,
            );
            match why {
                None if ids.len() < limit => ids.push(r.get::<_, i64>(0)?),
                None => {}
                Some(why) => out.left_out.add(why),
            }
        }
        let mut one = self.conn.prepare_cached(&format!(
            "SELECT {} FROM games WHERE id = ?1",
            GameRecord::COLUMNS
        ))?;
        for id in ids {
            // A row changed meanwhile by another Parlor is read as it is now.
            match one
                .query_row(params![id], |r| GameRecord::read(self.known_games(), r))
                .optional()?
            {
                Some(Ok(g)) => out.games.push(g),
                Some(Err(why)) => out.left_out.add(why),
                None => {}
            }
        }
        Ok(out)
    }

    /// The finished rows whose game is unknown (see [`History`]): no game's statistics hold them, so every
    /// statistics say them apart, as "damaged, game unknown" (newest first, as history meets them).
    pub fn unknown_game(&self) -> Result<Damaged> {
        let known = self.known_games();
        // Told no games, the store reads a row of any name: only a row whose game is no name is unknown.
        let names = known.map_or("typeof(game) = 'text'".to_string(), |k| {
            format!("game IN ({})", records::placeholders(k.len()))
        });
        let mut stmt = self.conn.prepare(&format!(
            "SELECT game FROM games WHERE typeof(game) != 'text' OR NOT ({names})
             ORDER BY ended_at DESC, id DESC"
        ))?;
        let mut rows = stmt.query(rusqlite::params_from_iter(known.unwrap_or_default()))?;
        let mut out = Damaged::default();
        while let Some(r) = rows.next()? {
            if let Some(why) = records::game_damage(known, r.get_ref(0)?) {
                out.add(why);
            }
        }
        Ok(out)
    }

    /// The best scores of one game and variant, best first (earlier games first among equals): games that are
    /// neither assisted nor played from a chosen seed.
    pub fn best(
        &self,
        game: &str,
        variant: &str,
        ranking: Ranking,
        limit: usize,
    ) -> Result<Vec<GameRecord>> {
        let (filter, order) = ranking.sql();
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {} FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 {filter}
             ORDER BY score {order}, ended_at ASC, id ASC LIMIT ?3",
            GameRecord::COLUMNS
        ))?;
        let rows = stmt.query_map(
            params![game, variant, limit as i64],
            GameRecord::from_row(self.known_games()),
        )?;
        Ok(rows.filter_map(|r| r.ok()).collect())
    }

    /// The variants of a game that have unassisted finished games, most played first.
    pub fn variants(&self, game: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT variant FROM games WHERE game = ?1 GROUP BY variant ORDER BY COUNT(*) DESC, variant",
        )?;
        let rows = stmt.query_map(params![game], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The options of one recorded game of a variant (to learn how the variant ranks).
    pub fn variant_options(&self, game: &str, variant: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT options FROM games WHERE game = ?1 AND variant = ?2 ORDER BY id DESC LIMIT 1",
                params![game, variant],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The 1-based rank that a ranked score would take among the best scores of its variant.
    pub fn rank(&self, game: &str, variant: &str, ranking: Ranking, score: i64) -> Result<usize> {
        let (filter, order) = ranking.sql();
        let cmp = if order == "DESC" { ">" } else { "<" };
        let better: i64 = self.conn.query_row(
            &format!(
                "SELECT COUNT(*) FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 {filter}
                 AND score {cmp} ?3"
            ),
            params![game, variant, score],
            |r| r.get(0),
        )?;
        Ok(better as usize + 1)
    }

    /// The best ranked score of a variant, if any game was finished.
    pub fn best_score(&self, game: &str, variant: &str, ranking: Ranking) -> Result<Option<i64>> {
        let (filter, order) = ranking.sql();
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT {}(score) FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0
                     {filter}",
                    if order == "DESC" { "MAX" } else { "MIN" },
                ),
                params![game, variant],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()?
            .flatten())
    }

    /// One finished game by id.
    pub fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        Ok(self
            .conn
            .query_row(
                &format!("SELECT {} FROM games WHERE id = ?1", GameRecord::COLUMNS),
                params![id],
                GameRecord::from_row(self.known_games()),
            )
            .optional()?)
    }

    /// Totals per variant of one game: games played, results, best and average score.
    pub fn stats(&self, game: &str) -> Result<Vec<Stats>> {
        let mut stmt = self.conn.prepare(
            "SELECT variant, COUNT(*), SUM(result = 'won'), SUM(result = 'lost'), SUM(result = 'draw'),
                    MAX(CASE WHEN assisted = 0 AND seeded = 0 THEN score END), AVG(score), SUM(assisted),
                    SUM(result = 'gave up')
             FROM games WHERE game = ?1 GROUP BY variant ORDER BY COUNT(*) DESC, variant",
        )?;
        let rows = stmt.query_map(params![game], Stats::from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
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
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests;
