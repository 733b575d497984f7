//! What the nodes on one database share of their lobbies ([`crate::nodes`]): who is online on each (a `presence`
//! row per node and player, written again every [`RENEW`](crate::nodes::RENEW) and read by the other nodes while it
//! is at most [`PRESENCE`] old, so a node gone drops out of the others' lobbies within that), notices for players
//! and games followed on other nodes (`parlor_notices`, [`crate::nodes::NOTICES`]), and challenge numbers no two
//! nodes give (a sequence).

use super::{Result, unreadable};
use crate::nodes::{NOTICES, PRESENCE};
use parlor_online::protocol::PlayerInfo;
use postgres::Client;

/// The tables of the shared lobby, made if missing (the PostgreSQL backend's own, as the leases are).
pub(super) const PRESENCE_TABLES: &str = "
CREATE TABLE IF NOT EXISTS presence (
    node TEXT NOT NULL,
    name TEXT NOT NULL,
    info JSONB NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (node, name)
);
CREATE SEQUENCE IF NOT EXISTS challenge_numbers;
";

/// Rows of nodes gone are deleted once this old (by any node, each row by one: locked rows are passed over).
const GONE_SECS: f64 = 60.0;

/// Writes `node`'s players online (`mine`) as its only rows, seen now; returns every other node's players seen
/// within [`PRESENCE`], with their node.
pub(super) fn heartbeat(
    db: &mut Client,
    node: &str,
    mine: &[PlayerInfo],
) -> Result<Vec<(String, PlayerInfo)>> {
    let infos = serde_json::to_value(mine).map_err(|e| unreadable("the players online", e))?;
    let mut tx = db.transaction()?;
    tx.execute("DELETE FROM presence WHERE node = $1", &[&node])?;
    tx.execute(
        "DELETE FROM presence WHERE ctid IN (SELECT ctid FROM presence
         WHERE seen_at < clock_timestamp() - $1::FLOAT8 * INTERVAL '1 second' FOR UPDATE SKIP LOCKED)",
        &[&GONE_SECS],
    )?;
    tx.execute(
        "INSERT INTO presence (node, name, info, seen_at)
         SELECT $1, e->>'name', e, clock_timestamp() FROM jsonb_array_elements($2::JSONB) AS e",
        &[&node, &infos],
    )?;
    let rows = tx.query(
        "SELECT node, info FROM presence
         WHERE node <> $1 AND seen_at > clock_timestamp() - $2::FLOAT8 * INTERVAL '1 second'",
        &[&node, &PRESENCE.as_secs_f64()],
    )?;
    tx.commit()?;
    let mut others = Vec::with_capacity(rows.len());
    for r in &rows {
        let node: String = r.try_get(0)?;
        let info: serde_json::Value = r.try_get(1)?;
        match serde_json::from_value::<PlayerInfo>(info) {
            Ok(p) => others.push((node, p)),
            Err(e) => tracing::error!(node, "a player online does not read: {e}"),
        }
    }
    Ok(others)
}

/// Says `text` (a notice, [`crate::nodes::NOTICES`]) to every node listening.
pub(super) fn notice(db: &mut Client, text: &str) -> Result<()> {
    db.execute("SELECT pg_notify($1, $2)", &[&NOTICES, &text])?;
    Ok(())
}

/// A challenge number no other node gives.
pub(super) fn challenge_number(db: &mut Client) -> Result<u64> {
    let n: i64 = db
        .query_one("SELECT nextval('challenge_numbers')", &[])?
        .try_get(0)?;
    Ok(u64::try_from(n)?)
}
