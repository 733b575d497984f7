//! [`PgStore`]: the server's store in PostgreSQL (`--database postgres://...`), through the synchronous `postgres`
//! crate (the store runs on threads of its own, [`super::Pool`], so no second async layer is needed), without TLS
//! (a Unix socket or a private network). Its schema is SQLite's in PostgreSQL's types, migrated on opening
//! ([`schema`]); a database of a newer server is refused. Each call that writes more than one row is one
//! transaction; a rated game's end passes only while the game is in play (a conditional UPDATE whose row count is
//! checked: of two servers ending one game at once, the second waits for the first's commit and then finds it
//! ended), so its ratings change once; a game number is the games' primary key, so it is never given to two games
//! ([`StoreError::Taken`]). Readers ([`Store::reader`]) are further connections, read-only, which see every
//! committed write.

use super::{
    Daily2048, DailyGuess, FinishedGame, GameEnd, LiveGame, Login, NewGame, QueuedPlayer,
    Ranked2048, Rated, RematchOffer, Store, StoreError, name_key, token_hash, unix_ms,
};
use crate::rating::{self, Exact};
use parlor_online::protocol::{EndReason, MoveTime, RatingChanges, Side, TimeControl};
use parlor_online::referee::GameResult;
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement};
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

mod lease;
mod presence;
mod queue;
mod ranked;
mod relay;
mod schema;
mod url;

use lease::Node;

pub use url::PgUrl;

type Result<T> = std::result::Result<T, StoreError>;

/// How long connecting may take when the URL does not say (`connect_timeout`).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the database lets a connection of the server's sit in an open transaction before it ends the session
/// (`idle_in_transaction_session_timeout`): a node stopped mid-transaction (cut off without a word, paused) holds
/// its rows' locks no longer than this. Far above any gap between one transaction's statements.
pub const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(10);

/// How long data sent to the database may go unacknowledged before the connection is taken as broken
/// (`tcp_user_timeout`, when the URL does not say): a database silently out of reach (its packets dropped) fails
/// a call instead of holding the node's writer for ever.
pub const UNACKNOWLEDGED: Duration = Duration::from_secs(10);

/// The server's store in PostgreSQL.
pub struct PgStore {
    /// The connection (none only while being dropped).
    client: Option<Client>,
    url: PgUrl,
    /// This store as a node among several ([`Store::join_nodes`]): its leases.
    node: Option<Node>,
    /// Whether it is a reader (its connection read-only).
    read_only: bool,
    /// When the connection was last used.
    used: Instant,
    /// The statements of the hot paths (a move's write, its relay), prepared once on this connection.
    statements: HashMap<String, Statement>,
}

/// How long a connection may stay unused before it is checked at its next use ([`PgStore::reconnect`]).
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// How long that check may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

fn unreadable(what: impl Into<String>, why: impl std::fmt::Display) -> StoreError {
    StoreError::Unreadable {
        what: what.into(),
        why: why.to_string(),
    }
}

/// Connects to `url`, read-only if asked. The `postgres` crate runs a runtime of its own inside each call, which
/// cannot start inside another's: the connection is made on a thread of its own, so that opening works from
/// anywhere (an async task included).
fn connect(url: &PgUrl, read_only: bool) -> Result<Client> {
    let mut config = url.config().clone();
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(UNACKNOWLEDGED);
    }
    let connected = std::thread::scope(|s| {
        s.spawn(move || -> std::result::Result<Client, postgres::Error> {
            let mut client = config.connect(NoTls)?;
            client.batch_execute(&format!(
                "SET idle_in_transaction_session_timeout = {}",
                IDLE_IN_TRANSACTION.as_millis()
            ))?;
            if read_only {
                client.batch_execute("SET default_transaction_read_only = on")?;
            }
            Ok(client)
        })
        .join()
    });
    match connected {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(source)) => Err(StoreError::Connect {
            url: url.masked(),
            source,
        }),
        Err(_) => Err(StoreError::Stopped),
    }
}

impl PgStore {
    /// Connects to the database at `url` and makes or migrates its schema.
    pub fn open(url: &PgUrl) -> Result<PgStore> {
        let mut client = connect(url, false)?;
        schema::migrate(&mut client, url)?;
        Ok(PgStore {
            client: Some(client),
            url: url.clone(),
            node: None,
            read_only: false,
            used: Instant::now(),
            statements: HashMap::new(),
        })
    }

    /// Makes the connection again if it was lost (the database restarted, or cut off and back): an error if it
    /// cannot be made now (the next call tries again). A connection is read only during a call, so one that was
    /// idle for [`IDLE_CHECK`] may have been closed meanwhile without knowing it: it is asked first
    /// (`is_valid`, one round trip), so that the call goes to a fresh one rather than fail.
    fn reconnect(&mut self) -> Result<()> {
        let idle = self.used.elapsed() >= IDLE_CHECK;
        self.used = Instant::now();
        let lost = match self.client.as_mut() {
            Some(c) if c.is_closed() => true,
            Some(c) if idle => c.is_valid(CHECK_TIMEOUT).is_err(),
            _ => false,
        };
        if lost {
            tracing::warn!("the connection to the database was lost: connecting again");
            let fresh = connect(&self.url, self.read_only)?;
            tracing::info!("connected to the database again");
            self.client = Some(fresh);
            self.statements.clear();
        }
        Ok(())
    }

    /// `sql` prepared on this connection (once: a statement prepared is kept until the connection is made again),
    /// so that running it takes one round trip, not two, and the database plans it once.
    fn prepared(&mut self, sql: &str) -> Result<Statement> {
        self.reconnect()?;
        if let Some(st) = self.statements.get(sql) {
            return Ok(st.clone());
        }
        let st = self
            .client
            .as_mut()
            .ok_or(StoreError::Stopped)?
            .prepare(sql)?;
        self.statements.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    fn db(&mut self) -> Result<&mut Client> {
        self.reconnect()?;
        self.client.as_mut().ok_or(StoreError::Stopped)
    }

    /// The connection and, if this store is a node, its leases.
    fn parts(&mut self) -> Result<(&mut Client, Option<&mut Node>)> {
        self.reconnect()?;
        let client = self.client.as_mut().ok_or(StoreError::Stopped)?;
        Ok((client, self.node.as_mut()))
    }

    fn select(
        &mut self,
        filter: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<FinishedGame>> {
        let rows = self.db()?.query(
            &format!(
                "SELECT id, black, white, board, moves, winner, reason, position, clock, rated, ratings,
                 started_unix_ms, ended_unix_ms, times, start_ratings, end_clocks FROM games
                 WHERE reason IS NOT NULL AND {filter}"
            ),
            params,
        )?;
        rows.iter().map(finished).collect()
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // The connection's runtime cannot be dropped inside another's (a store dropped in an async task): it is
        // dropped on a thread of its own then.
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::Builder::new()
                .name("parlor-store-close".into())
                .spawn(move || drop(client));
        }
    }
}

fn finished(r: &Row) -> Result<FinishedGame> {
    let id: i64 = r.try_get(0)?;
    let winner: Option<String> = r.try_get(5)?;
    let reason: String = r.try_get(6)?;
    let clock = read_clock(id, r.try_get(8)?)?;
    let ratings = r
        .try_get::<_, Option<Value>>(10)?
        .map(serde_json::from_value::<RatingChanges>)
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
    let reason = EndReason::parse(&reason)
        .ok_or_else(|| unreadable(format!("game {id}"), format!("unknown reason {reason:?}")))?;
    let started: i64 = r.try_get(11)?;
    let ended: Option<i64> = r.try_get(12)?;
    Ok(FinishedGame {
        id: u64::try_from(id)?,
        black: r.try_get(1)?,
        white: r.try_get(2)?,
        board: r.try_get(3)?,
        moves: r.try_get(4)?,
        result: GameResult { winner, reason },
        position: r.try_get::<_, Option<String>>(7)?.unwrap_or_default(),
        clock,
        rated: r.try_get(9)?,
        ratings,
        started_ms: u64::try_from(started).unwrap_or(0),
        ended_ms: ended.and_then(|e| u64::try_from(e).ok()).unwrap_or(0),
        times: read_json(id, "move times", r.try_get(13)?),
        start_ratings: read_json(id, "ratings at its start", r.try_get(14)?),
        end_clocks: read_json(id, "clocks at its end", r.try_get(15)?),
    })
}

/// The columns [`live`] reads, in its order.
const LIVE_COLUMNS: &str = "id, black, white, board, clock, rated, rematch_of, moves, black_ms, white_ms, \
    black_seq, white_seq, times, start_ratings";

fn live(r: &Row) -> Result<LiveGame> {
    let id: i64 = r.try_get(0)?;
    let rematch_of: Option<i64> = r.try_get(6)?;
    let b: i64 = r.try_get(8)?;
    let w: i64 = r.try_get(9)?;
    let seq = |s: Option<i64>| s.and_then(|s| u64::try_from(s).ok());
    Ok(LiveGame {
        id: u64::try_from(id)?,
        black: r.try_get(1)?,
        white: r.try_get(2)?,
        board: r.try_get(3)?,
        clock: read_clock(id, r.try_get(4)?)?,
        rated: r.try_get(5)?,
        rematch_of: rematch_of.and_then(|g| u64::try_from(g).ok()),
        moves: r.try_get(7)?,
        remaining: [u64::try_from(b).unwrap_or(0), u64::try_from(w).unwrap_or(0)],
        seqs: [seq(r.try_get(10)?), seq(r.try_get(11)?)],
        times: read_json(id, "move times", r.try_get(12)?),
        start_ratings: read_json(id, "ratings at its start", r.try_get(13)?),
    })
}

fn read_clock(id: i64, clock: Option<String>) -> Result<Option<TimeControl>> {
    clock
        .map(|c| c.parse::<TimeControl>())
        .transpose()
        .map_err(|e| unreadable(format!("game {id}: clock"), e))
}

/// A game's value kept as JSON (NULL: none; unreadable: none, logged).
fn read_json<T: serde::de::DeserializeOwned>(
    id: i64,
    what: &str,
    value: Option<Value>,
) -> Option<T> {
    serde_json::from_value(value?)
        .map_err(|e| tracing::error!("game {id}: its {what} are unreadable: {e}"))
        .ok()
}

fn json<T: serde::Serialize>(value: &T) -> Result<Value> {
    Ok(serde_json::to_value(value)?)
}

fn count(n: i64) -> Result<u64> {
    Ok(u64::try_from(n)?)
}

impl Store for PgStore {
    fn reader(&self) -> Result<Option<Box<dyn Store>>> {
        Ok(Some(Box::new(PgStore {
            client: Some(connect(&self.url, true)?),
            url: self.url.clone(),
            node: None,
            read_only: true,
            used: Instant::now(),
            statements: HashMap::new(),
        })))
    }

    fn secret(&mut self) -> Result<String> {
        let db = self.db()?;
        if let Some(row) = db.query_opt("SELECT value FROM meta WHERE key = 'secret'", &[])? {
            return Ok(row.try_get(0)?);
        }
        let secret = super::new_secret();
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING",
            &[&secret],
        )?;
        Ok(db
            .query_one("SELECT value FROM meta WHERE key = 'secret'", &[])?
            .try_get(0)?)
    }

    fn login(&mut self, name: &str, token: &str) -> Result<Login> {
        let hash = token_hash(token);
        let db = self.db()?;
        let known = |db: &mut Client| -> Result<Option<Login>> {
            let row = db.query_opt("SELECT token_sha256 FROM players WHERE name = $1", &[&name])?;
            Ok(match row {
                Some(r) if r.try_get::<_, String>(0)? == hash => Some(Login::Known),
                Some(_) => Some(Login::WrongToken),
                None => None,
            })
        };
        if let Some(login) = known(db)? {
            return Ok(login);
        }
        // Either unique key taken (the name, or its case folding) leaves the row out: a second server registering
        // the same name, or a case variant, at the same moment finds it taken.
        let added = db.execute(
            "INSERT INTO players (name, token_sha256, created_unix_ms, name_key) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            &[&name, &hash, &unix_ms(), &name_key(name)],
        )?;
        if added == 1 {
            return Ok(Login::Registered);
        }
        Ok(known(db)?.unwrap_or(Login::CaseVariant))
    }

    fn check_login(&mut self, name: &str, token: &str) -> Result<Option<Login>> {
        let row = self
            .db()?
            .query_opt("SELECT token_sha256 FROM players WHERE name = $1", &[&name])?;
        Ok(match row {
            Some(r) if r.try_get::<_, String>(0)? == token_hash(token) => Some(Login::Known),
            Some(_) => Some(Login::WrongToken),
            None => None,
        })
    }

    fn rating(&mut self, name: &str) -> Result<Exact> {
        let row = self.db()?.query_opt(
            "SELECT rating, deviation, volatility FROM players WHERE name = $1",
            &[&name],
        )?;
        Ok(match row {
            Some(r) => Exact {
                rating: r.try_get(0)?,
                deviation: r.try_get(1)?,
                volatility: r.try_get(2)?,
            },
            None => rating::new_player(),
        })
    }

    fn ratings(&mut self, limit: usize) -> Result<Vec<(String, Exact)>> {
        let rows = self.db()?.query(
            "SELECT name, rating, deviation, volatility FROM players ORDER BY rating DESC, name LIMIT $1",
            &[&i64::try_from(limit)?],
        )?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    Exact {
                        rating: r.try_get(1)?,
                        deviation: r.try_get(2)?,
                        volatility: r.try_get(3)?,
                    },
                ))
            })
            .collect()
    }

    fn last_game_id(&mut self) -> Result<u64> {
        let last: Option<i64> = self
            .db()?
            .query_one("SELECT MAX(id) FROM games", &[])?
            .try_get(0)?;
        count(last.unwrap_or(0))
    }

    fn start_game(&mut self, game: &NewGame) -> Result<()> {
        let id = i64::try_from(game.id)?;
        let (db, mut node) = self.parts()?;
        let mut tx = db.transaction()?;
        let started = tx.execute(
            "INSERT INTO games (id, black, white, board, started_unix_ms, clock, rated, rematch_of,
             black_ms, white_ms, start_ratings)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            &[
                &id,
                &game.black,
                &game.white,
                &game.board,
                &unix_ms(),
                &game.clock.map(|c| c.to_string()),
                &game.rated,
                &game.rematch_of.map(i64::try_from).transpose()?,
                &i64::try_from(game.remaining[0])?,
                &i64::try_from(game.remaining[1])?,
                &json(&game.ratings)?,
            ],
        );
        match started {
            Ok(_) => {}
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                return Err(StoreError::Taken(game.id));
            }
            Err(e) => return Err(e.into()),
        }
        // A node's game is leased from its start, in the same transaction: no node ever finds it without one.
        if let Some(node) = node.as_deref_mut() {
            node.lease_new(&mut tx, id)?;
            lease::notify(&mut tx, crate::nodes::STARTED, game.id)?;
        }
        tx.commit()?;
        if let Some(node) = node {
            node.started(game.id);
        }
        Ok(())
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
        let update = self.prepared(
            "UPDATE games SET moves = $2, black_ms = $3, white_ms = $4, black_seq = $5, white_seq = $6,
             times = $7
             WHERE id = $1 AND reason IS NULL",
        )?;
        let noded = self.node.is_some();
        let fence = noded.then(|| self.prepared(lease::FENCE)).transpose()?;
        let notify = noded.then(|| self.prepared(lease::NOTIFY)).transpose()?;
        let (db, node) = self.parts()?;
        let mut tx = db.transaction()?;
        if let (Some(node), Some(fence)) = (node, &fence) {
            node.fence_with(&mut tx, fence, id)?;
        }
        tx.execute(
            &update,
            &[
                &i64::try_from(id)?,
                &moves,
                &i64::try_from(remaining[0])?,
                &i64::try_from(remaining[1])?,
                &seq(seqs[0])?,
                &seq(seqs[1])?,
                &json(&times)?,
            ],
        )?;
        if let Some(notify) = &notify {
            lease::notify_with(&mut tx, notify, crate::nodes::EVENTS, id)?;
        }
        tx.commit()?;
        Ok(())
    }

    fn finish_rated_game(
        &mut self,
        id: u64,
        end: &GameEnd,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<()> {
        let ratings = rated.map(|(_, _, r)| json(&r.changes)).transpose()?;
        let times = end.times.as_ref().map(json).transpose()?;
        let clocks = end.clocks.as_ref().map(json).transpose()?;
        let (db, mut node) = self.parts()?;
        let mut tx = db.transaction()?;
        if let Some(node) = node.as_deref_mut() {
            node.fence(&mut tx, id)?;
        }
        // Of two servers ending the game at once, the second's UPDATE waits for the first's commit, then finds
        // the game ended and changes no row.
        let changed = tx.execute(
            "UPDATE games SET moves = $2, winner = $3, reason = $4, position = $5, ended_unix_ms = $6,
             ratings = $7, times = COALESCE($8, times), end_clocks = $9
             WHERE id = $1 AND reason IS NULL",
            &[
                &i64::try_from(id)?,
                &end.moves,
                &end.result.winner.map(Side::as_str),
                &end.result.reason.as_str(),
                &end.position,
                &unix_ms(),
                &ratings,
                &times,
                &clocks,
            ],
        )?;
        if changed != 1 {
            // Dropped, the transaction rolls back.
            return Err(StoreError::NotInPlay(id));
        }
        if let Some((black, white, r)) = rated {
            // In the names' order, so that two games ending at once with a player in common cannot deadlock.
            let mut both = [(black, r.after[0]), (white, r.after[1])];
            both.sort_by(|a, b| a.0.cmp(b.0));
            for (name, after) in both {
                tx.execute(
                    "UPDATE players SET rating = $2, deviation = $3, volatility = $4 WHERE name = $1",
                    &[&name, &after.rating, &after.deviation, &after.volatility],
                )?;
            }
        }
        if let Some(node) = node {
            tx.execute("DELETE FROM leases WHERE game = $1", &[&i64::try_from(id)?])?;
            tx.execute(
                "DELETE FROM forwarded_moves WHERE game = $1",
                &[&i64::try_from(id)?],
            )?;
            lease::notify(&mut tx, crate::nodes::EVENTS, id)?;
            tx.commit()?;
            node.ended(id);
            return Ok(());
        }
        tx.commit()?;
        Ok(())
    }

    fn join_nodes(&mut self) -> Result<bool> {
        let node = Node::new();
        tracing::info!(node = node.name, "one node of several on the database");
        self.node = Some(node);
        Ok(true)
    }

    fn reserve_game_ids(&mut self, n: u64) -> Result<Option<std::ops::Range<u64>>> {
        if self.node.is_none() {
            return Ok(None);
        }
        Ok(Some(Node::reserve(self.db()?, n)?))
    }

    fn take_leases(&mut self) -> Result<Vec<LiveGame>> {
        match self.parts()? {
            (db, Some(node)) => node.take(db),
            (_, None) => Ok(Vec::new()),
        }
    }

    fn renew_leases(&mut self) -> Result<Vec<u64>> {
        // A connection that cannot be made again counts as a renewal failed (every lease let go once that lasts).
        let reached = self.reconnect();
        match (reached, self.client.as_mut(), self.node.as_mut()) {
            (_, _, None) => Ok(Vec::new()),
            (Ok(()), Some(db), Some(node)) => node.renew(db),
            (Err(e), _, Some(node)) => node.unreachable(e),
            (Ok(()), None, Some(_)) => Err(StoreError::Stopped),
        }
    }

    fn release_leases(&mut self, game: Option<u64>) -> Result<()> {
        match self.parts()? {
            (db, Some(node)) => node.release(db, game),
            (_, None) => Ok(()),
        }
    }

    fn listen(&self, news: tokio::sync::mpsc::UnboundedSender<crate::nodes::News>) -> Result<bool> {
        if self.node.is_none() {
            return Ok(false);
        }
        relay::listen(&self.url, news)?;
        Ok(true)
    }

    fn node_name(&self) -> Option<String> {
        self.node.as_ref().map(|n| n.name.clone())
    }

    fn presence(
        &mut self,
        mine: &[parlor_online::protocol::PlayerInfo],
    ) -> Result<Vec<(String, parlor_online::protocol::PlayerInfo)>> {
        match self.parts()? {
            (db, Some(node)) => presence::heartbeat(db, &node.name, mine),
            (_, None) => Ok(Vec::new()),
        }
    }

    fn notice(&mut self, text: &str) -> Result<()> {
        presence::notice(self.db()?, text)
    }

    fn challenge_number(&mut self) -> Result<Option<u64>> {
        presence::challenge_number(self.db()?).map(Some)
    }

    fn games_in_play_of(&mut self, name: &str) -> Result<Vec<LiveGame>> {
        let rows = self.db()?.query(
            &format!(
                "SELECT {LIVE_COLUMNS} FROM games WHERE reason IS NULL AND (black = $1 OR white = $1)
                 ORDER BY id"
            ),
            &[&name],
        )?;
        rows.iter().map(live).collect()
    }

    fn game_in_play(&mut self, id: u64) -> Result<Option<LiveGame>> {
        let select = self.prepared(&format!(
            "SELECT {LIVE_COLUMNS} FROM games WHERE id = $1 AND reason IS NULL"
        ))?;
        let row = self.db()?.query_opt(&select, &[&i64::try_from(id)?])?;
        row.as_ref().map(live).transpose()
    }

    fn forward(&mut self, game: u64, action: &super::Forwarded) -> Result<()> {
        let insert = self.prepared(relay::FORWARD)?;
        let notify = self.prepared(lease::NOTIFY)?;
        relay::forward(self.db()?, [&insert, &notify], game, action)
    }

    fn take_forwarded(&mut self, game: u64) -> Result<Vec<super::Forwarded>> {
        // Only the referee takes them: a node that lost the lease (and does not know yet) leaves them to the one
        // that has it.
        let take = self.prepared(relay::TAKE)?;
        let fence = self
            .node
            .is_some()
            .then(|| self.prepared(lease::FENCE))
            .transpose()?;
        let (db, node) = self.parts()?;
        let mut tx = db.transaction()?;
        if let (Some(node), Some(fence)) = (node, &fence) {
            node.fence_with(&mut tx, fence, game)?;
        }
        let moves = relay::take(&mut tx, &take, game)?;
        tx.commit()?;
        Ok(moves)
    }

    fn games_in_play(&mut self) -> Result<Vec<LiveGame>> {
        let rows = self.db()?.query(
            &format!("SELECT {LIVE_COLUMNS} FROM games WHERE reason IS NULL ORDER BY id"),
            &[],
        )?;
        rows.iter().map(live).collect()
    }

    fn finished_games(&mut self) -> Result<Vec<FinishedGame>> {
        self.select("TRUE ORDER BY id", &[])
    }

    fn games_of(&mut self, player: &str, limit: usize) -> Result<Vec<FinishedGame>> {
        self.select(
            "(black = $1 OR white = $1) ORDER BY id DESC LIMIT $2",
            &[&player, &i64::try_from(limit)?],
        )
    }

    fn finished_game(&mut self, id: u64) -> Result<Option<FinishedGame>> {
        Ok(self.select("id = $1", &[&i64::try_from(id)?])?.pop())
    }

    fn queue_put(&mut self, q: &QueuedPlayer) -> Result<()> {
        self.db()?.execute(
            "INSERT INTO queue (name, board, clock, joined_unix_ms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (name) DO UPDATE SET board = EXCLUDED.board, clock = EXCLUDED.clock,
             joined_unix_ms = EXCLUDED.joined_unix_ms",
            &[
                &q.name,
                &q.board,
                &q.clock.map(|c| c.to_string()),
                &i64::try_from(q.joined_unix_ms)?,
            ],
        )?;
        Ok(())
    }

    fn queue_remove(&mut self, name: &str) -> Result<()> {
        self.db()?
            .execute("DELETE FROM queue WHERE name = $1", &[&name])?;
        Ok(())
    }

    fn queue(&mut self) -> Result<Vec<QueuedPlayer>> {
        let rows = self.db()?.query(
            "SELECT name, board, clock, joined_unix_ms FROM queue ORDER BY joined_unix_ms, name",
            &[],
        )?;
        rows.iter().map(queue::queued).collect()
    }

    fn pair_queued(&mut self, name: &str, rating: f64, now_unix_ms: u64) -> Result<super::Pairing> {
        if self.node.is_none() {
            return Ok(super::Pairing::Waiting);
        }
        queue::pair(self.db()?, name, rating, now_unix_ms)
    }

    fn offer_put(&mut self, o: &RematchOffer) -> Result<()> {
        self.db()?.execute(
            "INSERT INTO rematch_offers (game, offerer, expires_unix_ms) VALUES ($1, $2, $3)
             ON CONFLICT (game) DO UPDATE SET offerer = EXCLUDED.offerer,
             expires_unix_ms = EXCLUDED.expires_unix_ms",
            &[
                &i64::try_from(o.game)?,
                &o.from,
                &i64::try_from(o.expires_unix_ms)?,
            ],
        )?;
        Ok(())
    }

    fn offer_remove(&mut self, game: u64) -> Result<()> {
        self.db()?.execute(
            "DELETE FROM rematch_offers WHERE game = $1",
            &[&i64::try_from(game)?],
        )?;
        Ok(())
    }

    fn offers(&mut self) -> Result<Vec<RematchOffer>> {
        let rows = self.db()?.query(
            "SELECT game, offerer, expires_unix_ms FROM rematch_offers ORDER BY game",
            &[],
        )?;
        rows.iter()
            .map(|r| {
                let expires: i64 = r.try_get(2)?;
                Ok(RematchOffer {
                    game: count(r.try_get(0)?)?,
                    from: r.try_get(1)?,
                    expires_unix_ms: u64::try_from(expires).unwrap_or(0),
                })
            })
            .collect()
    }

    fn add_2048(&mut self, game: &Daily2048) -> Result<bool> {
        let added = self.db()?.execute(
            "INSERT INTO daily_2048 (day, board, name, score, max_tile, moves, actions, at_unix_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            &[
                &game.day,
                &game.board,
                &game.name,
                &i64::try_from(game.score)?,
                &i64::try_from(game.max_tile)?,
                &i64::try_from(game.moves)?,
                &game.actions,
                &unix_ms(),
            ],
        )?;
        Ok(added == 1)
    }

    fn ranked_2048(&mut self, day: &str, name: &str) -> Result<Option<Ranked2048>> {
        ranked::get(self.db()?, day, name)
    }

    fn start_ranked_2048(&mut self, day: &str, name: &str, max_tile: u64) -> Result<()> {
        ranked::start(self.db()?, day, name, max_tile)
    }

    fn slide_ranked_2048(&mut self, before: &str, game: &Ranked2048) -> Result<bool> {
        ranked::slide(self.db()?, before, game)
    }

    fn board_2048(
        &mut self,
        day: &str,
        board: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64, u64)>> {
        ranked::board(self.db()?, day, board, limit)
    }

    fn better_2048(&mut self, day: &str, board: &str, score: u64) -> Result<u64> {
        ranked::better(self.db()?, day, board, score)
    }

    fn mastermind_of(&mut self, day: &str, name: &str) -> Result<Vec<(String, u8, u8)>> {
        let rows = self.db()?.query(
            "SELECT code, black, white FROM daily_mastermind WHERE day = $1 AND name = $2 ORDER BY n",
            &[&day, &name],
        )?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    u8::try_from(r.try_get::<_, i16>(1)?)?,
                    u8::try_from(r.try_get::<_, i16>(2)?)?,
                ))
            })
            .collect()
    }

    fn start_mastermind(&mut self, day: &str, name: &str) -> Result<()> {
        self.db()?.execute(
            "INSERT INTO daily_mastermind_start (day, name, at_unix_ms) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            &[&day, &name, &unix_ms()],
        )?;
        Ok(())
    }

    fn add_guess(&mut self, guess: &DailyGuess) -> Result<bool> {
        let g = guess;
        let added = self.db()?.execute(
            "INSERT INTO daily_mastermind (day, name, n, code, black, white, solved, at_unix_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            &[
                &g.day,
                &g.name,
                &i64::from(g.n),
                &g.code,
                &i16::from(g.black),
                &i16::from(g.white),
                &g.solved,
                &unix_ms(),
            ],
        )?;
        Ok(added == 1)
    }

    fn board_mastermind(&mut self, day: &str, limit: usize) -> Result<Vec<(String, u64, u64)>> {
        let rows = self.db()?.query(
            "SELECT g.name, g.n, g.at_unix_ms - COALESCE(s.at_unix_ms, g.at_unix_ms) AS took
             FROM daily_mastermind g LEFT JOIN daily_mastermind_start s ON s.day = g.day AND s.name = g.name
             WHERE g.day = $1 AND g.solved ORDER BY g.n ASC, took ASC LIMIT $2",
            &[&day, &i64::try_from(limit)?],
        )?;
        rows.iter()
            .map(|r| {
                let took: i64 = r.try_get(2)?;
                Ok((r.try_get(0)?, count(r.try_get(1)?)?, count(took.max(0))?))
            })
            .collect()
    }
}
