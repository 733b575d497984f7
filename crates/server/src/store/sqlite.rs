//! [`SqliteStore`]: the server's store in SQLite, `server.db` (WAL, synchronous NORMAL, a 5 s busy timeout) in its
//! data directory, its schema migrated on opening (a database of a newer server is refused). Readers
//! ([`Store::reader`]) are further connections to the same file, read-only.

use super::{
    Daily2048, DailyGuess, FinishedGame, GameEnd, LiveGame, Login, NewGame, QueuedPlayer,
    Ranked2048, Rated, RematchOffer, Store, StoreError, token_hash, unix_ms,
};
use crate::rating::{self, Exact};
use parlor_online::protocol::{EndReason, MoveTime, RatingChanges, Side, TimeControl};
use parlor_online::referee::GameResult;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

mod ranked;
mod schema;

pub use schema::SCHEMA_VERSION;

type Result<T> = std::result::Result<T, StoreError>;

fn unreadable(what: impl Into<String>, why: impl std::fmt::Display) -> StoreError {
    StoreError::Unreadable {
        what: what.into(),
        why: why.to_string(),
    }
}

/// The database's file name in the data directory.
pub const DB_FILE: &str = "server.db";

/// The server's store in SQLite: `server.db` (WAL) in the data directory.
pub struct SqliteStore {
    conn: Connection,
}

/// A name's key, compared to tell names apart: its case folding. The protocol allows only ASCII letters, digits,
/// `_` and `-` in names (`parlor_online::protocol::check_name`), and for those Unicode case folding is ASCII
/// lowercasing (CaseFolding.txt maps no other character into or out of ASCII but `A`-`Z`; the Kelvin sign and the
/// long s, which fold to `k` and `s`, are refused in names).
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

impl SqliteStore {
    /// Opens (or makes) the database in `dir`, making `dir` if needed.
    pub fn open(dir: &Path) -> Result<SqliteStore> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            what: format!("making {}", dir.display()),
            source,
        })?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).map_err(|source| StoreError::Open {
            path: path.display().to_string(),
            source,
        })?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        schema::migrate(&conn, &path)?;
        Ok(SqliteStore { conn })
    }

    /// A second connection to the database at `path` (already opened by [`SqliteStore::open`]), for reads only.
    fn open_reader(path: &Path) -> Result<SqliteStore> {
        let conn = Connection::open(path).map_err(|source| StoreError::Open {
            path: path.display().to_string(),
            source,
        })?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "query_only", true)?;
        Ok(SqliteStore { conn })
    }

    fn select(&mut self, filter: &str, id: Option<i64>) -> Result<Vec<FinishedGame>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, black, white, board, moves, winner, reason, position, clock, rated, ratings,
             started_unix_ms, ended_unix_ms, times, start_ratings, end_clocks FROM games
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
                    r.get::<_, Option<String>>(13)?,
                ),
                (
                    r.get::<_, Option<String>>(14)?,
                    r.get::<_, Option<String>>(15)?,
                ),
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (id, black, white, board, moves, winner, reason, position, more, kept) = row?;
            let (clock, rated, ratings, started, ended, times) = more;
            let (start_ratings, end_clocks) = kept;
            let clock = clock
                .map(|c| c.parse::<TimeControl>())
                .transpose()
                .map_err(|e| unreadable(format!("game {id}: clock"), e))?;
            let ratings = ratings
                .map(|r| serde_json::from_str::<RatingChanges>(&r))
                .transpose()
                .map_err(|e| unreadable(format!("game {id}: ratings"), e))?;
            let winner = match winner.as_deref() {
                None => None,
                Some("black") => Some(Side::Black),
                Some("white") => Some(Side::White),
                Some(other) => {
                    return Err(unreadable(
                        format!("game {id}"),
                        format!("unknown winner {other:?}"),
                    ));
                }
            };
            let reason = EndReason::parse(&reason).ok_or_else(|| {
                unreadable(format!("game {id}"), format!("unknown reason {reason:?}"))
            })?;
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
                times: read_times(id, times),
                start_ratings: read_json(id, "ratings at its start", start_ratings),
                end_clocks: read_json(id, "clocks at its end", end_clocks),
            });
        }
        Ok(games)
    }
}

impl Store for SqliteStore {
    fn reader(&self) -> Result<Option<Box<dyn Store>>> {
        let Some(path) = self.conn.path().filter(|p| !p.is_empty()) else {
            return Ok(None);
        };
        Ok(Some(Box::new(SqliteStore::open_reader(Path::new(path))?)))
    }

    fn secret(&mut self) -> Result<String> {
        let known: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'secret'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(s) = known {
            return Ok(s);
        }
        let secret = super::new_secret();
        self.conn.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('secret', ?1)",
            [&secret],
        )?;
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'secret'", [], |r| {
                r.get(0)
            })?)
    }

    fn add_2048(&mut self, game: &Daily2048) -> Result<bool> {
        let added = self.conn.execute(
            "INSERT OR IGNORE INTO daily_2048 (day, board, name, score, max_tile, moves, actions, at_unix_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game.day,
                game.board,
                game.name,
                i64::try_from(game.score)?,
                i64::try_from(game.max_tile)?,
                i64::try_from(game.moves)?,
                game.actions,
                unix_ms()
            ],
        )?;
        Ok(added == 1)
    }

    fn ranked_2048(&mut self, day: &str, name: &str) -> Result<Option<Ranked2048>> {
        ranked::get(&self.conn, day, name)
    }

    fn start_ranked_2048(&mut self, day: &str, name: &str, max_tile: u64) -> Result<()> {
        ranked::start(&self.conn, day, name, max_tile)
    }

    fn slide_ranked_2048(&mut self, before: &str, game: &Ranked2048) -> Result<bool> {
        ranked::slide(&self.conn, before, game)
    }

    fn board_2048(
        &mut self,
        day: &str,
        board: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64, u64)>> {
        ranked::board(&self.conn, day, board, limit)
    }

    fn better_2048(&mut self, day: &str, board: &str, score: u64) -> Result<u64> {
        ranked::better(&self.conn, day, board, score)
    }

    fn mastermind_of(&mut self, day: &str, name: &str) -> Result<Vec<(String, u8, u8)>> {
        let mut stmt = self.conn.prepare(
            "SELECT code, black, white FROM daily_mastermind WHERE day = ?1 AND name = ?2 ORDER BY n",
        )?;
        let rows = stmt.query_map(params![day, name], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, u8>(1)?,
                r.get::<_, u8>(2)?,
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    fn start_mastermind(&mut self, day: &str, name: &str) -> Result<()> {
        self.conn.execute(
            "INSERT OR IGNORE INTO daily_mastermind_start (day, name, at_unix_ms) VALUES (?1, ?2, ?3)",
            params![day, name, unix_ms()],
        )?;
        Ok(())
    }

    fn add_guess(&mut self, guess: &DailyGuess) -> Result<bool> {
        let g = guess;
        let added = self.conn.execute(
            "INSERT OR IGNORE INTO daily_mastermind (day, name, n, code, black, white, solved, at_unix_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![g.day, g.name, g.n, g.code, g.black, g.white, g.solved, unix_ms()],
        )?;
        Ok(added == 1)
    }

    fn board_mastermind(&mut self, day: &str, limit: usize) -> Result<Vec<(String, u64, u64)>> {
        let mut stmt = self.conn.prepare(
            "SELECT g.name, g.n, g.at_unix_ms - COALESCE(s.at_unix_ms, g.at_unix_ms) AS took
             FROM daily_mastermind g LEFT JOIN daily_mastermind_start s ON s.day = g.day AND s.name = g.name
             WHERE g.day = ?1 AND g.solved = 1 ORDER BY g.n ASC, took ASC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![day, i64::try_from(limit)?], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (n, g, t) = row?;
            out.push((n, u64::try_from(g)?, u64::try_from(t.max(0))?));
        }
        Ok(out)
    }

    fn login(&mut self, name: &str, token: &str) -> Result<Login> {
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
                let key = name_key(name);
                let variant: Option<String> = self
                    .conn
                    .query_row(
                        "SELECT name FROM players WHERE name_key = ?1 LIMIT 1",
                        [&key],
                        |r| r.get(0),
                    )
                    .optional()?;
                if variant.is_some() {
                    return Ok(Login::CaseVariant);
                }
                self.conn.execute(
                    "INSERT INTO players (name, token_sha256, created_unix_ms, name_key)
                     VALUES (?1, ?2, ?3, ?4)",
                    params![name, hash, unix_ms(), key],
                )?;
                Login::Registered
            }
        })
    }

    fn check_login(&mut self, name: &str, token: &str) -> Result<Option<Login>> {
        let known: Option<String> = self
            .conn
            .query_row(
                "SELECT token_sha256 FROM players WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        Ok(known.map(|h| {
            if h == token_hash(token) {
                Login::Known
            } else {
                Login::WrongToken
            }
        }))
    }

    fn last_game_id(&mut self) -> Result<u64> {
        let last: Option<i64> = self
            .conn
            .query_row("SELECT MAX(id) FROM games", [], |r| r.get(0))?;
        Ok(u64::try_from(last.unwrap_or(0))?)
    }

    fn start_game(&mut self, game: &NewGame) -> Result<()> {
        let started = self.conn.execute(
            "INSERT INTO games (id, black, white, board, started_unix_ms, clock, rated, rematch_of,
             black_ms, white_ms, start_ratings)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                i64::try_from(game.id)?,
                game.black,
                game.white,
                game.board,
                unix_ms(),
                game.clock.map(|c| c.to_string()),
                game.rated,
                game.rematch_of.map(i64::try_from).transpose()?,
                i64::try_from(game.remaining[0])?,
                i64::try_from(game.remaining[1])?,
                serde_json::to_string(&game.ratings)?
            ],
        );
        match started {
            Ok(_) => Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                Err(StoreError::Taken(game.id))
            }
            Err(e) => Err(e.into()),
        }
    }

    fn save_progress(
        &mut self,
        id: u64,
        moves: &str,
        times: &[MoveTime],
        remaining: [u64; 2],
        seqs: [Option<u64>; 2],
    ) -> Result<()> {
        let seq = |s: Option<u64>| s.map(i64::try_from).transpose();
        self.conn.execute(
            "UPDATE games SET moves = ?2, black_ms = ?3, white_ms = ?4, black_seq = ?5, white_seq = ?6,
             times = ?7
             WHERE id = ?1 AND reason IS NULL",
            params![
                i64::try_from(id)?,
                moves,
                i64::try_from(remaining[0])?,
                i64::try_from(remaining[1])?,
                seq(seqs[0])?,
                seq(seqs[1])?,
                serde_json::to_string(times)?
            ],
        )?;
        Ok(())
    }

    fn games_in_play(&mut self) -> Result<Vec<LiveGame>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, black, white, board, clock, rated, rematch_of, moves, black_ms, white_ms, black_seq, white_seq,
             times, start_ratings FROM games WHERE reason IS NULL ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                (
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ),
                (
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, bool>(5)?,
                    r.get::<_, Option<i64>>(6)?,
                    r.get::<_, String>(7)?,
                ),
                (
                    r.get::<_, i64>(8)?,
                    r.get::<_, i64>(9)?,
                    r.get::<_, Option<i64>>(10)?,
                    r.get::<_, Option<i64>>(11)?,
                ),
                (
                    r.get::<_, Option<String>>(12)?,
                    r.get::<_, Option<String>>(13)?,
                ),
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (
                (id, black, white, board),
                (clock, rated, rematch_of, moves),
                (b, w, bs, ws),
                (times, start_ratings),
            ) = row?;
            let clock = clock
                .map(|c| c.parse::<TimeControl>())
                .transpose()
                .map_err(|e| unreadable(format!("game {id}: clock"), e))?;
            let seq = |s: Option<i64>| s.and_then(|s| u64::try_from(s).ok());
            games.push(LiveGame {
                id: u64::try_from(id)?,
                black,
                white,
                board,
                clock,
                rated,
                rematch_of: rematch_of.and_then(|g| u64::try_from(g).ok()),
                moves,
                remaining: [u64::try_from(b).unwrap_or(0), u64::try_from(w).unwrap_or(0)],
                seqs: [seq(bs), seq(ws)],
                times: read_times(id, times),
                start_ratings: read_json(id, "ratings at its start", start_ratings),
            });
        }
        Ok(games)
    }

    fn rating(&mut self, name: &str) -> Result<Exact> {
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

    fn ratings(&mut self, limit: usize) -> Result<Vec<(String, Exact)>> {
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

    fn finish_rated_game(
        &mut self,
        id: u64,
        end: &GameEnd,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        let changed = tx.execute(
            "UPDATE games SET moves = ?2, winner = ?3, reason = ?4, position = ?5, ended_unix_ms = ?6,
             ratings = ?7, times = COALESCE(?8, times), end_clocks = ?9
             WHERE id = ?1 AND reason IS NULL",
            params![
                i64::try_from(id)?,
                end.moves,
                end.result.winner.map(Side::as_str),
                end.result.reason.as_str(),
                end.position,
                unix_ms(),
                rated
                    .map(|(_, _, r)| serde_json::to_string(&r.changes))
                    .transpose()?,
                end.times.as_ref().map(serde_json::to_string).transpose()?,
                end.clocks.as_ref().map(serde_json::to_string).transpose()?
            ],
        )?;
        if changed != 1 {
            return Err(StoreError::NotInPlay(id));
        }
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

    fn finished_games(&mut self) -> Result<Vec<FinishedGame>> {
        self.select("reason IS NOT NULL", None)
    }

    fn games_of(&mut self, player: &str, limit: usize) -> Result<Vec<FinishedGame>> {
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

    fn finished_game(&mut self, id: u64) -> Result<Option<FinishedGame>> {
        Ok(self
            .select("reason IS NOT NULL AND id = ?1", Some(i64::try_from(id)?))?
            .pop())
    }

    fn queue_put(&mut self, q: &QueuedPlayer) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO queue (name, board, clock, joined_unix_ms) VALUES (?1, ?2, ?3, ?4)",
            params![
                q.name,
                q.board,
                q.clock.map(|c| c.to_string()),
                i64::try_from(q.joined_unix_ms)?
            ],
        )?;
        Ok(())
    }

    fn queue_remove(&mut self, name: &str) -> Result<()> {
        self.conn
            .execute("DELETE FROM queue WHERE name = ?1", [name])?;
        Ok(())
    }

    fn queue(&mut self) -> Result<Vec<QueuedPlayer>> {
        let mut stmt = self.conn.prepare(
            "SELECT name, board, clock, joined_unix_ms FROM queue ORDER BY joined_unix_ms, name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (name, board, clock, joined) = row?;
            let clock = clock
                .map(|c| c.parse::<TimeControl>())
                .transpose()
                .map_err(|e| unreadable(format!("queue of {name}: clock"), e))?;
            out.push(QueuedPlayer {
                name,
                board,
                clock,
                joined_unix_ms: u64::try_from(joined).unwrap_or(0),
            });
        }
        Ok(out)
    }

    fn offer_put(&mut self, o: &RematchOffer) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO rematch_offers (game, offerer, expires_unix_ms) VALUES (?1, ?2, ?3)",
            params![
                i64::try_from(o.game)?,
                o.from,
                i64::try_from(o.expires_unix_ms)?
            ],
        )?;
        Ok(())
    }

    fn offer_remove(&mut self, game: u64) -> Result<()> {
        self.conn.execute(
            "DELETE FROM rematch_offers WHERE game = ?1",
            [i64::try_from(game)?],
        )?;
        Ok(())
    }

    fn offers(&mut self) -> Result<Vec<RematchOffer>> {
        let mut stmt = self
            .conn
            .prepare("SELECT game, offerer, expires_unix_ms FROM rematch_offers ORDER BY game")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (game, from, expires) = row?;
            out.push(RematchOffer {
                game: u64::try_from(game)?,
                from,
                expires_unix_ms: u64::try_from(expires).unwrap_or(0),
            });
        }
        Ok(out)
    }
}

/// A game's kept move times (NULL before schema 3: none; unreadable: none, logged).
fn read_times(id: i64, times: Option<String>) -> Option<Vec<MoveTime>> {
    read_json(id, "move times", times)
}

/// A game's value kept as JSON (NULL: none; unreadable: none, logged): its move times, the ratings at its start
/// (a `[Rating; 2]`), the clocks at its end.
fn read_json<T: serde::de::DeserializeOwned>(
    id: i64,
    what: &str,
    text: Option<String>,
) -> Option<T> {
    let text = text?;
    serde_json::from_str(&text)
        .map_err(|e| tracing::error!("game {id}: its {what} are unreadable: {e}"))
        .ok()
}
