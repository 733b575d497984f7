//! The leases of a [`PgStore`](super::PgStore) that is one node of several on one database
//! ([`crate::nodes`]): a `leases` row per game in play (the node refereeing it, an epoch bumped at each takeover,
//! and an expiry in the database's time), taken when the node starts the game or finds its lease free, renewed
//! every [`RENEW`], run out [`LEASE`] after the last renewal. Every write of a game's progress or end first locks
//! its lease row and checks it is still this node's, of the same epoch and not run out ([`Node::fence`]): a node
//! that lost its lease (cut off, paused, or too slow to renew) cannot write, and a node taking leases passes over
//! a row whose write is in flight (its lock held) and takes it at a later look, reading the game with that write.

use super::{LIVE_COLUMNS, Result, live};
use crate::nodes::{LEASE, RENEW};
use crate::store::{LiveGame, StoreError};
use postgres::{Client, Statement, Transaction};
use std::collections::HashMap;
use std::time::Instant;

/// The node tables, made if missing (like `schema_version`, the PostgreSQL backend's own: SQLite serves one
/// server): the leases, and the last game number given out in blocks ([`Node::reserve`]).
pub(super) const NODE_TABLES: &str = "
CREATE TABLE IF NOT EXISTS leases (
    game BIGINT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_of_node ON leases (node);
CREATE TABLE IF NOT EXISTS game_numbers (
    one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
    last BIGINT NOT NULL
);
INSERT INTO game_numbers (one, last) VALUES (TRUE, 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS forwarded_moves (
    id BIGSERIAL PRIMARY KEY,
    game BIGINT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    seq BIGINT,
    mv TEXT
);
CREATE INDEX IF NOT EXISTS forwarded_moves_of_game ON forwarded_moves (game, id);
";

/// The check of a lease in the transaction that writes its game ([`Node::fence`]).
pub(super) const FENCE: &str = "SELECT 1 FROM leases WHERE game = $1 AND node = $2 AND epoch = $3
     AND expires_at > clock_timestamp() FOR UPDATE";

/// A notification to the other nodes ([`notify`]).
pub(super) const NOTIFY: &str = "SELECT pg_notify($1, $2)";

/// This store as a node: its name and the leases it holds.
pub(super) struct Node {
    /// The node's name, new at each start (so a node started again is another node).
    pub(super) name: String,
    /// The games whose lease this node holds, each with its epoch.
    held: HashMap<u64, i64>,
    /// When the leases were last renewed.
    renewed: Instant,
}

/// A lease's length, in seconds, as the database's interval arithmetic takes it.
fn lease_secs() -> f64 {
    LEASE.as_secs_f64()
}

impl Node {
    /// A new node, holding no lease.
    pub(super) fn new() -> Node {
        Node {
            name: crate::store::new_secret()[..16].to_string(),
            held: HashMap::new(),
            renewed: Instant::now(),
        }
    }

    /// The lease of a game this node starts, in the transaction that starts it.
    pub(super) fn lease_new(&mut self, tx: &mut Transaction<'_>, game: i64) -> Result<()> {
        tx.execute(
            "INSERT INTO leases (game, node, epoch, expires_at)
             VALUES ($1, $2, 1, clock_timestamp() + $3::FLOAT8 * INTERVAL '1 second')",
            &[&game, &self.name, &lease_secs()],
        )?;
        Ok(())
    }

    /// The game started (its transaction committed): its lease is held.
    pub(super) fn started(&mut self, game: u64) {
        self.held.insert(game, 1);
    }

    /// Checks, in the transaction that writes `game`, that its lease is still this node's (locking its row until
    /// the write commits); [`StoreError::LeaseLost`] if not (and the lease is forgotten).
    pub(super) fn fence(&mut self, tx: &mut Transaction<'_>, game: u64) -> Result<()> {
        let fence = tx.prepare(FENCE)?;
        self.fence_with(tx, &fence, game)
    }

    /// [`Node::fence`] with [`FENCE`] prepared as `fence` (once for the connection, [`super::PgStore::prepared`]).
    pub(super) fn fence_with(
        &mut self,
        tx: &mut Transaction<'_>,
        fence: &Statement,
        game: u64,
    ) -> Result<()> {
        let lost = StoreError::LeaseLost(game);
        let Some(&epoch) = self.held.get(&game) else {
            return Err(lost);
        };
        let held = tx.query_opt(fence, &[&i64::try_from(game)?, &self.name, &epoch])?;
        if held.is_none() {
            self.held.remove(&game);
            return Err(lost);
        }
        Ok(())
    }

    /// The game ended (its end and the lease's removal committed): its lease is gone.
    pub(super) fn ended(&mut self, game: u64) {
        self.held.remove(&game);
    }

    /// Renews every lease held; returns the games whose lease was lost. If the database cannot be reached for as
    /// long as a lease lasts, every lease is taken as lost (another node may have taken it by now).
    pub(super) fn renew(&mut self, db: &mut Client) -> Result<Vec<u64>> {
        let began = Instant::now();
        if self.held.is_empty() {
            self.renewed = began;
            return Ok(Vec::new());
        }
        let rows = match db.query(
            "UPDATE leases SET expires_at = clock_timestamp() + $2::FLOAT8 * INTERVAL '1 second'
             WHERE node = $1 AND expires_at > clock_timestamp() RETURNING game, epoch",
            &[&self.name, &lease_secs()],
        ) {
            Ok(rows) => rows,
            Err(e) => return self.unreachable(e.into()),
        };
        self.renewed = began;
        let mut kept = HashMap::new();
        for r in &rows {
            let game: i64 = r.try_get(0)?;
            kept.insert(u64::try_from(game)?, r.try_get::<_, i64>(1)?);
        }
        let lost: Vec<u64> = self
            .held
            .iter()
            .filter(|(g, e)| kept.get(g) != Some(e))
            .map(|(&g, _)| g)
            .collect();
        for g in &lost {
            self.held.remove(g);
        }
        Ok(lost)
    }

    /// The leases could not be renewed (`e`): every game held is lost once the database was out of reach for as
    /// long as a lease lasts but a renewal (another node may take them by then); until then, `e`.
    pub(super) fn unreachable(&mut self, e: StoreError) -> Result<Vec<u64>> {
        if self.held.is_empty() {
            return Err(e);
        }
        if self.renewed.elapsed() + RENEW >= LEASE {
            tracing::error!("renewing the leases: {e}: every game held is let go");
            return Ok(self.held.drain().map(|(g, _)| g).collect());
        }
        Err(e)
    }

    /// Takes every free lease (a game in play with none, or one released or run out, its row not locked by a
    /// write in flight), epoch bumped, and reads those games in the same transaction (after every write of the
    /// node that held them: a write in flight holds its lease row's lock until it commits).
    pub(super) fn take(&mut self, db: &mut Client) -> Result<Vec<LiveGame>> {
        let mut tx = db.transaction()?;
        // Rows locked by a write in flight (a node's fence, [`FENCE`]) are skipped, never waited for: a node
        // stopped mid-transaction (cut off silently, paused) must not hold up the others' writers; its game is
        // looked at again at the next look, once the write committed or the database ended the session
        // ([`super::IDLE_IN_TRANSACTION`]).
        tx.execute(
            "DELETE FROM leases WHERE game IN (SELECT l.game FROM leases l JOIN games g ON l.game = g.id
             WHERE g.reason IS NOT NULL FOR UPDATE OF l SKIP LOCKED)",
            &[],
        )?;
        let mut taken = tx.query(
            "INSERT INTO leases (game, node, epoch, expires_at)
             SELECT g.id, $1, 1, clock_timestamp() + $2::FLOAT8 * INTERVAL '1 second' FROM games g
             WHERE g.reason IS NULL AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.game = g.id)
             ON CONFLICT (game) DO NOTHING RETURNING game, epoch",
            &[&self.name, &lease_secs()],
        )?;
        taken.extend(tx.query(
            "UPDATE leases SET node = $1, epoch = epoch + 1,
             expires_at = clock_timestamp() + $2::FLOAT8 * INTERVAL '1 second'
             WHERE game IN (SELECT game FROM leases WHERE expires_at <= clock_timestamp()
                 FOR UPDATE SKIP LOCKED)
             RETURNING game, epoch",
            &[&self.name, &lease_secs()],
        )?);
        if taken.is_empty() {
            tx.commit()?;
            return Ok(Vec::new());
        }
        let mut leases = Vec::new();
        for r in &taken {
            leases.push((r.try_get::<_, i64>(0)?, r.try_get::<_, i64>(1)?));
        }
        let ids: Vec<i64> = leases.iter().map(|(g, _)| *g).collect();
        let rows = tx.query(
            &format!(
                "SELECT {LIVE_COLUMNS} FROM games WHERE id = ANY($1) AND reason IS NULL ORDER BY id"
            ),
            &[&ids],
        )?;
        // A game taken over is said started again: the nodes where its players follow it tell the new referee.
        for (game, _) in &leases {
            notify(&mut tx, crate::nodes::STARTED, u64::try_from(*game)?)?;
        }
        tx.commit()?;
        for (game, epoch) in leases {
            self.held.insert(u64::try_from(game)?, epoch);
        }
        let mut games = Vec::new();
        for r in &rows {
            // A game that does not read stays held (so that no node takes it again and again), logged.
            match live(r) {
                Ok(g) => games.push(g),
                Err(e) => tracing::error!("a game whose lease was taken does not read: {e}"),
            }
        }
        Ok(games)
    }

    /// Releases the lease of `game` (of every game held, if none): it runs out now, so another node takes it at
    /// its next look.
    pub(super) fn release(&mut self, db: &mut Client, game: Option<u64>) -> Result<()> {
        let one = game.map(i64::try_from).transpose()?;
        db.execute(
            "UPDATE leases SET expires_at = '-infinity' WHERE node = $1 AND ($2::BIGINT IS NULL OR game = $2)",
            &[&self.name, &one],
        )?;
        match game {
            Some(g) => {
                self.held.remove(&g);
            }
            None => self.held.clear(),
        }
        Ok(())
    }

    /// A block of `n` game numbers for this node alone: the last number given (or the largest kept, if larger)
    /// moved on by `n` under the row's lock.
    pub(super) fn reserve(db: &mut Client, n: u64) -> Result<std::ops::Range<u64>> {
        let n = i64::try_from(n)?;
        let last: i64 = db
            .query_one(
                "UPDATE game_numbers SET last = GREATEST(last, (SELECT COALESCE(MAX(id), 0) FROM games)) + $1
                 RETURNING last",
                &[&n],
            )?
            .try_get(0)?;
        Ok(u64::try_from(last - n + 1)?..u64::try_from(last + 1)?)
    }
}

/// Tells every node listening on `channel` ([`crate::nodes::EVENTS`], [`crate::nodes::STARTED`]) of `game`, in
/// the transaction that keeps what it says (delivered on its commit only).
pub(super) fn notify(tx: &mut Transaction<'_>, channel: &str, game: u64) -> Result<()> {
    tx.execute(NOTIFY, &[&channel, &game.to_string()])?;
    Ok(())
}

/// [`notify`] with [`NOTIFY`] prepared as `st`.
pub(super) fn notify_with(
    tx: &mut Transaction<'_>,
    st: &Statement,
    channel: &str,
    game: u64,
) -> Result<()> {
    tx.execute(st, &[&channel, &game.to_string()])?;
    Ok(())
}
