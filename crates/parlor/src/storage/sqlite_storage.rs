//! The SQLite store as the core's [`Storage`]: the queries behind each method.

use super::records::{self, damage};
use super::{
    Claim, ClaimError, Damaged, GameRecord, History, Ranking, Scoreboard, Stats, Storage, Store,
    Unfinished, VariantTally,
};
use super::{Outcome, StatRow, Tally, now_ms};
use anyhow::{Context, Result};
use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, params};

impl Storage for Store {
    /// Where the data lives, for messages.
    fn location(&self) -> &str {
        &self.location
    }

    /// The data directory, unless the database lives in memory.
    fn dir(&self) -> Option<&std::path::Path> {
        self.dir.as_deref()
    }

    /// Whether the database was opened read-only (nothing this session plays is kept).
    fn read_only(&self) -> bool {
        self.read_only
    }

    /// Whether what is written here is kept after the process ends: not in memory, not read-only. Nothing is ever
    /// called "saved" in a store that does not keep it.
    fn keeps(&self) -> bool {
        !self.read_only && self.dir.is_some()
    }

    /// Claims the game of play session `session` for this process (a lock file in the claims folder).
    fn claim(&self, session: &str) -> Result<Claim, ClaimError> {
        self.lock(session)
    }

    /// Forgets the lock file of a finished game.
    fn release_claim(&self, claim: Claim) {
        self.unlock(claim);
    }

    /// Whether another process holds the lock file of the session's game.
    fn held_elsewhere(&self, session: &str) -> bool {
        self.held(session)
    }

    /// Saves (inserts or replaces) the game in progress of one play session, whatever the database holds for it.
    /// Play goes through [`Store::save_game`], which never brings back a game finished elsewhere.
    fn save_unfinished(&self, u: &Unfinished) -> Result<()> {
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

    /// Saves the game in progress of one play session as its player last left it: `held` is the moves its saved
    /// row holds (`None`: no row yet, and one is made). Returns `false`, writing nothing, when the row is no longer
    /// what this player left (finished, set aside or played on by another Parlor): the game is no longer this
    /// player's to save.
    fn save_game(&self, u: &Unfinished, held: Option<&str>) -> Result<bool> {
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
    fn unfinished(&self, game: Option<&str>) -> Result<Vec<Unfinished>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {} FROM unfinished WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC",
            Unfinished::COLUMNS
        ))?;
        let rows = stmt.query_map(params![game], Unfinished::from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The game in progress of one play session, read now (`None` when it is no longer unfinished).
    fn unfinished_session(&self, session: &str) -> Result<Option<Unfinished>> {
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
    fn discard_unfinished(&self, session: &str) -> Result<()> {
        self.writable()?;
        self.conn.execute(
            "DELETE FROM unfinished WHERE session = ?1",
            params![session],
        )?;
        Ok(())
    }

    /// Forgets the saved row of a game taken back to no move, if it still holds `held` (the moves its player last
    /// saved); a row changed since is another Parlor's and stays.
    fn discard_game(&self, session: &str, held: &str) -> Result<()> {
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
    fn set_aside(&mut self, u: &Unfinished, reason: &str) -> Result<()> {
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
    fn set_aside_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM set_aside", [], |r| r.get(0))?)
    }

    /// The moves column of a session's in-progress row, whatever the rest of the row holds: what
    /// [`Storage::finish`] hands [`Store::finish_game`], which records the game in one transaction.
    fn held_moves(&self, session: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT moves FROM unfinished WHERE session = ?1",
                params![session],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records a finished game and drops its in-progress copy, in one transaction that records nothing when the game
    /// is no longer unfinished as its player left it: `held` is the moves its saved row holds (`None`: it has no
    /// row, and none may have appeared). Returns the new game's id, or `None` when nothing was recorded because
    /// another Parlor finished, set aside or played on the game meanwhile.
    fn add_once(&mut self, record: &GameRecord) -> Result<(i64, bool)> {
        self.writable()?;
        // One immediate transaction: the look and the write are one step for every program on the database.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        if let Some(id) = same_game_id(&tx, record)? {
            return Ok((id, false));
        }
        let id = insert_game(&tx, record)?;
        tx.commit().context("recording the imported game")?;
        Ok((id, true))
    }

    fn finish_game(
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
        let id = insert_game(&tx, record)?;
        tx.commit().context("recording the finished game")?;
        Ok(Some(id))
    }

    /// Finished games, newest first, optionally of one game only: at most `limit` readable ones, and the damaged
    /// rows left out (all of them) with why. A row whose game is unknown is left out of every history, counted
    /// whatever game is shown (it could be any game's), as statistics count it.
    fn history(&self, game: Option<&str>, limit: usize) -> Result<History> {
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
    fn unknown_game(&self) -> Result<Damaged> {
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
    /// neither assisted, nor played from a chosen seed, nor practice.
    fn best(&self, board: Scoreboard, limit: usize) -> Result<Vec<GameRecord>> {
        let (filter, order) = board.ranking.sql();
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {} FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 AND practice = 0 {filter}
             ORDER BY score {order}, ended_at ASC, id ASC LIMIT ?3",
            GameRecord::COLUMNS
        ))?;
        let rows = stmt.query_map(
            params![board.game, board.variant, limit as i64],
            GameRecord::from_row(self.known_games()),
        )?;
        Ok(rows.filter_map(|r| r.ok()).collect())
    }

    /// The variants of a game that have finished games of scored play (practice left out), most played first.
    fn variants(&self, game: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT variant FROM games WHERE game = ?1 AND practice = 0 GROUP BY variant
             ORDER BY COUNT(*) DESC, variant",
        )?;
        let rows = stmt.query_map(params![game], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The options of one recorded game of a variant (to learn how the variant ranks).
    fn variant_options(&self, game: &str, variant: &str) -> Result<Option<String>> {
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
    fn rank(&self, board: Scoreboard, score: i64) -> Result<usize> {
        let (filter, order) = board.ranking.sql();
        let cmp = if order == "DESC" { ">" } else { "<" };
        let better: i64 = self.conn.query_row(
            &format!(
                "SELECT COUNT(*) FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 AND practice = 0 {filter}
                 AND score {cmp} ?3"
            ),
            params![board.game, board.variant, score],
            |r| r.get(0),
        )?;
        Ok(better as usize + 1)
    }

    /// The best ranked score of a variant, if any game was finished.
    fn best_score(&self, board: Scoreboard) -> Result<Option<i64>> {
        let (filter, order) = board.ranking.sql();
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT {}(score) FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 AND practice = 0
                     {filter}",
                    if order == "DESC" { "MAX" } else { "MIN" },
                ),
                params![board.game, board.variant],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()?
            .flatten())
    }

    /// The review of finished game `id` by `engine` kept in the database (its JSON), if there is one. A database
    /// without the table (opened read-only as an older schema) has none.
    fn review(&self, id: i64, engine: &str) -> Option<String> {
        self.conn
            .query_row(
                "SELECT review FROM reviews WHERE game_id = ?1 AND engine = ?2",
                params![id, engine],
                |r| r.get(0),
            )
            .optional()
            .ok()
            .flatten()
    }

    /// Keeps the review of finished game `id` by `engine` (its JSON), replacing one kept before.
    fn save_review(&self, id: i64, engine: &str, json: &str) -> Result<()> {
        self.writable()?;
        self.conn
            .execute(
                "INSERT INTO reviews (game_id, engine, review) VALUES (?1, ?2, ?3)
                 ON CONFLICT(game_id, engine) DO UPDATE SET review = excluded.review",
                params![id, engine, json],
            )
            .context("keeping the review")?;
        Ok(())
    }

    /// One finished game by id.
    fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        let known = self.known_games();
        let read = self
            .conn
            .query_row(
                &format!("SELECT {} FROM games WHERE id = ?1", GameRecord::COLUMNS),
                params![id],
                |r| GameRecord::read(known, r),
            )
            .optional()?;
        match read {
            None => Ok(None),
            Some(Ok(record)) => Ok(Some(record)),
            // The same rule and words as the history's: the row is left as it is, and counted as damaged.
            Some(Err(why)) => anyhow::bail!(
                "game #{id} is damaged ({why}) and cannot be replayed: it is set aside (left out of the history), \
                 kept in the database as it is, and statistics count it as damaged"
            ),
        }
    }

    /// Totals per variant of one game: games played, results, best and average score (practice games left out).
    fn stats(&self, game: &str) -> Result<Vec<Stats>> {
        let mut stmt = self.conn.prepare(
            "SELECT variant, COUNT(*), SUM(result = 'won'), SUM(result = 'lost'), SUM(result = 'draw'),
                    MAX(CASE WHEN assisted = 0 AND seeded = 0 THEN score END), AVG(score), SUM(assisted),
                    SUM(result = 'gave up')
             FROM games WHERE game = ?1 AND practice = 0 GROUP BY variant ORDER BY COUNT(*) DESC, variant",
        )?;
        let rows = stmt.query_map(params![game], Stats::from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Tallies every finished game of `game`, variant by variant, most played variant first (then by name).
    /// `ranking` tells how a variant ranks from its newest game's options. One query, read once, answered from the
    /// covering index `games_stats` in its order (no sort, no table row read); practice games are left out by the
    /// index of their ids (`games_practice`, `storage/open.rs`).
    fn tally(&self, game: &str, ranking: &dyn Fn(&str) -> Ranking) -> Result<Vec<VariantTally>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT variant, game, score, result, assisted, seeded FROM games WHERE game = ?1
                 AND id NOT IN (SELECT id FROM games WHERE practice != 0)
                 ORDER BY variant, ended_at, id",
            )
            .context("reading the statistics")?;
        let mut rows = stmt.query(params![game])?;
        let mut out: Vec<VariantTally> = Vec::new();
        // The variant being read, its newest game's options, and its tally.
        let mut current: Option<(String, String, Tally)> = None;
        let finish = |(variant, options, tally): (String, String, Tally)| VariantTally {
            ranking: tally.ranking,
            tallied: tally.finish(),
            options,
            variant,
        };
        while let Some(r) = rows.next()? {
            let variant = match r.get_ref(0)? {
                ValueRef::Text(t) => String::from_utf8_lossy(t),
                _ => "?".into(),
            };
            if current.as_ref().is_none_or(|(v, _, _)| *v != variant) {
                out.extend(current.take().map(finish));
                let variant = variant.into_owned();
                let options = self
                    .variant_options(game, &variant)
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                let tally = Tally::new(ranking(&options));
                current = Some((variant, options, tally));
            }
            let Some((_, _, tally)) = current.as_mut() else {
                continue;
            };
            let (game, score, result) = (r.get_ref(1)?, r.get_ref(2)?, r.get_ref(3)?);
            let (assisted, seeded) = (r.get_ref(4)?, r.get_ref(5)?);
            if damage(self.known_games(), game, score, result, assisted, seeded).is_some() {
                tally.add_damaged();
                continue;
            }
            // Read as `damage` has just checked: a number, a known result, two numbers.
            let int = |v: ValueRef| v.as_i64().unwrap_or(0);
            let result = result
                .as_str()
                .ok()
                .and_then(Outcome::parse)
                .unwrap_or(Outcome::GaveUp);
            tally.add(StatRow {
                score: int(score),
                result,
                assisted: int(assisted) != 0,
                seeded: int(seeded) != 0,
            });
        }
        out.extend(current.take().map(finish));
        out.sort_by(|a, b| {
            let played = |t: &VariantTally| t.tallied.figures.played + t.tallied.figures.damaged;
            played(b)
                .cmp(&played(a))
                .then_with(|| a.variant.cmp(&b.variant))
        });
        Ok(out)
    }

    /// The newest `limit` games of a variant that the best scores count (neither assisted, seeded nor practice), newest
    /// first: the games a chart rebuilds to look at their final position. Unreadable rows are skipped.
    fn recent_clean(&self, game: &str, variant: &str, limit: usize) -> Result<Vec<GameRecord>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {} FROM games WHERE game = ?1 AND variant = ?2 AND assisted = 0 AND seeded = 0 AND practice = 0
             ORDER BY ended_at DESC, id DESC LIMIT ?3",
            GameRecord::COLUMNS
        ))?;
        let rows = stmt.query_map(
            params![game, variant, i64::try_from(limit).unwrap_or(i64::MAX)],
            GameRecord::from_row(self.known_games()),
        )?;
        Ok(rows.filter_map(|r| r.ok()).collect())
    }
}

/// The id of a finished game that is the same game as `g` ([`super::dump::same_game`]: game, variant, seed, moves,
/// start and end), the oldest if several.
pub(super) fn same_game_id(conn: &rusqlite::Connection, g: &GameRecord) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT id FROM games WHERE game = ?1 AND variant = ?2 AND seed = ?3 AND moves = ?4
             AND started_at = ?5 AND ended_at = ?6 ORDER BY id LIMIT 1",
            params![
                g.game,
                g.variant,
                g.seed as i64,
                g.moves,
                g.started_at,
                g.ended_at
            ],
            |r| r.get(0),
        )
        .optional()?)
}

/// Inserts the finished game `g` (a new id: the one it holds is not written) and returns its id.
pub(super) fn insert_game(conn: &rusqlite::Connection, g: &GameRecord) -> Result<i64> {
    conn.execute(
        &format!(
            "INSERT INTO games ({}) VALUES ({})",
            GameRecord::STORED,
            records::placeholders_for(GameRecord::STORED)
        ),
        rusqlite::params_from_iter(g.stored_values()),
    )?;
    Ok(conn.last_insert_rowid())
}
