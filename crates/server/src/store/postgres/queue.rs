//! The rated queue of several nodes on one database ([`crate::nodes`]): a node pairs one of its queued players
//! with anyone kept in the queue, in one transaction that locks both places (`FOR UPDATE SKIP LOCKED`: a place
//! another node is pairing now is passed over) and takes both out, so no player is ever paired twice.

use super::{Result, unreadable};
use crate::hub::queue_band;
use crate::rating::Exact;
use crate::store::{Pairing, QueuedPlayer};
use parlor_online::protocol::TimeControl;
use postgres::{Client, Row};

/// A kept place in the queue: name, board, clock, when joined (the columns in this order).
pub(super) fn queued(r: &Row) -> Result<QueuedPlayer> {
    let name: String = r.try_get(0)?;
    let clock = r
        .try_get::<_, Option<String>>(2)?
        .map(|c| c.parse::<TimeControl>())
        .transpose()
        .map_err(|e| unreadable(format!("queue of {name}: clock"), e))?;
    let joined: i64 = r.try_get(3)?;
    Ok(QueuedPlayer {
        board: r.try_get(1)?,
        clock,
        joined_unix_ms: u64::try_from(joined).unwrap_or(0),
        name,
    })
}

/// Pairs `name` (rated `rating`) as [`crate::store::Store::pair_queued`] says.
pub(super) fn pair(db: &mut Client, name: &str, rating: f64, now_unix_ms: u64) -> Result<Pairing> {
    let mut tx = db.transaction()?;
    let Some(mine) = tx.query_opt(
        "SELECT name, board, clock, joined_unix_ms FROM queue WHERE name = $1 FOR UPDATE SKIP LOCKED",
        &[&name],
    )?
    else {
        // Gone, or locked by a node pairing it now (which then takes it out, or lets it go for the next look).
        let kept = tx.query_opt("SELECT 1 FROM queue WHERE name = $1", &[&name])?;
        return Ok(if kept.is_some() {
            Pairing::Waiting
        } else {
            Pairing::Gone
        });
    };
    let me = queued(&mine)?;
    let rows = tx.query(
        "SELECT q.name, q.board, q.clock, q.joined_unix_ms, p.rating, p.deviation, p.volatility
         FROM queue q JOIN players p ON p.name = q.name
         WHERE q.name <> $1 AND q.board = $2 AND q.clock IS NOT DISTINCT FROM $3
         ORDER BY q.joined_unix_ms, q.name FOR UPDATE OF q SKIP LOCKED",
        &[&name, &me.board, &me.clock.map(|c| c.to_string())],
    )?;
    let waited = |q: &QueuedPlayer| queue_band(now_unix_ms.saturating_sub(q.joined_unix_ms));
    let mut best: Option<(f64, QueuedPlayer, Exact)> = None;
    for r in &rows {
        let other = queued(r)?;
        let exact = Exact {
            rating: r.try_get(4)?,
            deviation: r.try_get(5)?,
            volatility: r.try_get(6)?,
        };
        let diff = (rating - exact.rating).abs();
        let band = waited(&me).max(waited(&other));
        if diff <= f64::from(band) && best.as_ref().is_none_or(|(d, _, _)| diff < *d) {
            best = Some((diff, other, exact));
        }
    }
    let Some((_, opponent, rating)) = best else {
        return Ok(Pairing::Waiting);
    };
    tx.execute(
        "DELETE FROM queue WHERE name = $1 OR name = $2",
        &[&name, &opponent.name],
    )?;
    tx.commit()?;
    Ok(Pairing::Paired {
        me,
        opponent,
        rating,
    })
}
