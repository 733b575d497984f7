//! The SQLite store's ranked 2048 of the day (schema 6): each game's slides, kept as they are played, and the
//! day's boards, the ranked one (`plain`) drawn from these games.

use super::{Result, unix_ms};
use crate::store::{RANKED_BOARD, Ranked2048};
use rusqlite::{Connection, OptionalExtension, params};

/// A day's 2048 board's rows with their ranking keys, as one query's source: the games handed in whole on `board`
/// and, for the ranked board, the day's ranked games (`?1` the day, `?2` the board).
const BOARD_ROWS: &str =
    "SELECT name, score, max_tile, moves, at_unix_ms FROM daily_2048 WHERE day = ?1 AND board = ?2
     UNION ALL
     SELECT name, score, max_tile, length(slides), at_unix_ms FROM ranked_2048
     WHERE day = ?1 AND ?2 = ?3 AND slides <> ''";

pub(super) fn get(conn: &Connection, day: &str, name: &str) -> Result<Option<Ranked2048>> {
    let row = conn
        .query_row(
            "SELECT slides, score, max_tile, over FROM ranked_2048 WHERE day = ?1 AND name = ?2",
            params![day, name],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, bool>(3)?,
                ))
            },
        )
        .optional()?;
    let Some((slides, score, max_tile, over)) = row else {
        return Ok(None);
    };
    Ok(Some(Ranked2048 {
        day: day.to_string(),
        name: name.to_string(),
        slides,
        score: u64::try_from(score)?,
        max_tile: u64::try_from(max_tile)?,
        over,
    }))
}

pub(super) fn start(conn: &Connection, day: &str, name: &str, max_tile: u64) -> Result<()> {
    let now = unix_ms();
    conn.execute(
        "INSERT OR IGNORE INTO ranked_2048 (day, name, max_tile, started_unix_ms, at_unix_ms)
         VALUES (?1, ?2, ?3, ?4, ?4)",
        params![day, name, i64::try_from(max_tile)?, now],
    )?;
    Ok(())
}

pub(super) fn slide(conn: &Connection, before: &str, game: &Ranked2048) -> Result<bool> {
    let changed = conn.execute(
        "UPDATE ranked_2048 SET slides = ?3, score = ?4, max_tile = ?5, over = ?6, at_unix_ms = ?7
         WHERE day = ?1 AND name = ?2 AND slides = ?8 AND over = 0",
        params![
            game.day,
            game.name,
            game.slides,
            i64::try_from(game.score)?,
            i64::try_from(game.max_tile)?,
            game.over,
            unix_ms(),
            before
        ],
    )?;
    Ok(changed == 1)
}

pub(super) fn board(
    conn: &Connection,
    day: &str,
    board: &str,
    limit: usize,
) -> Result<Vec<(String, u64, u64, u64)>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT name, score, max_tile, moves FROM ({BOARD_ROWS})
         ORDER BY score DESC, moves ASC, at_unix_ms ASC LIMIT ?4"
    ))?;
    let rows = stmt.query_map(
        params![day, board, RANKED_BOARD, i64::try_from(limit)?],
        |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
            ))
        },
    )?;
    let mut out = Vec::new();
    for row in rows {
        let (n, s, t, m) = row?;
        out.push((n, u64::try_from(s)?, u64::try_from(t)?, u64::try_from(m)?));
    }
    Ok(out)
}

pub(super) fn better(conn: &Connection, day: &str, board: &str, score: u64) -> Result<u64> {
    let n: i64 = conn.query_row(
        &format!("SELECT COUNT(*) FROM ({BOARD_ROWS}) WHERE score > ?4"),
        params![day, board, RANKED_BOARD, i64::try_from(score)?],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n)?)
}
