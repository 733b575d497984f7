//! The PostgreSQL store's ranked 2048 of the day (schema 6), as SQLite's (`store::sqlite`'s `ranked`): each game's
//! slides kept as they are played, a slide kept only if the game's kept slides are still the ones it was played on
//! (a conditional UPDATE, so of two servers taking a slide of one game at once, one is kept), and the day's boards.

use super::{Result, count, unix_ms};
use crate::store::{RANKED_BOARD, Ranked2048};
use postgres::Client;

/// A day's 2048 board's rows, as one query's source (`$1` the day, `$2` the board, `$3` the ranked board's word).
const BOARD_ROWS: &str =
    "SELECT name, score, max_tile, moves, at_unix_ms FROM daily_2048 WHERE day = $1 AND board = $2
     UNION ALL
     SELECT name, score, max_tile, length(slides)::BIGINT, at_unix_ms FROM ranked_2048
     WHERE day = $1 AND $2 = $3 AND slides <> ''";

pub(super) fn get(db: &mut Client, day: &str, name: &str) -> Result<Option<Ranked2048>> {
    let row = db.query_opt(
        "SELECT slides, score, max_tile, over FROM ranked_2048 WHERE day = $1 AND name = $2",
        &[&day, &name],
    )?;
    let Some(r) = row else {
        return Ok(None);
    };
    Ok(Some(Ranked2048 {
        day: day.to_string(),
        name: name.to_string(),
        slides: r.try_get(0)?,
        score: count(r.try_get(1)?)?,
        max_tile: count(r.try_get(2)?)?,
        over: r.try_get(3)?,
    }))
}

pub(super) fn start(db: &mut Client, day: &str, name: &str, max_tile: u64) -> Result<()> {
    let now = unix_ms();
    db.execute(
        "INSERT INTO ranked_2048 (day, name, max_tile, started_unix_ms, at_unix_ms) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT DO NOTHING",
        &[&day, &name, &i64::try_from(max_tile)?, &now],
    )?;
    Ok(())
}

pub(super) fn slide(db: &mut Client, before: &str, game: &Ranked2048) -> Result<bool> {
    let changed = db.execute(
        "UPDATE ranked_2048 SET slides = $3, score = $4, max_tile = $5, over = $6, at_unix_ms = $7
         WHERE day = $1 AND name = $2 AND slides = $8 AND NOT over",
        &[
            &game.day,
            &game.name,
            &game.slides,
            &i64::try_from(game.score)?,
            &i64::try_from(game.max_tile)?,
            &game.over,
            &unix_ms(),
            &before,
        ],
    )?;
    Ok(changed == 1)
}

pub(super) fn board(
    db: &mut Client,
    day: &str,
    board: &str,
    limit: usize,
) -> Result<Vec<(String, u64, u64, u64)>> {
    let rows = db.query(
        &format!(
            "SELECT name, score, max_tile, moves FROM ({BOARD_ROWS}) AS rows
             ORDER BY score DESC, moves ASC, at_unix_ms ASC LIMIT $4"
        ),
        &[&day, &board, &RANKED_BOARD, &i64::try_from(limit)?],
    )?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get(0)?,
                count(r.try_get(1)?)?,
                count(r.try_get(2)?)?,
                count(r.try_get(3)?)?,
            ))
        })
        .collect()
}

pub(super) fn better(db: &mut Client, day: &str, board: &str, score: u64) -> Result<u64> {
    let n: i64 = db
        .query_one(
            &format!("SELECT COUNT(*) FROM ({BOARD_ROWS}) AS rows WHERE score > $4"),
            &[&day, &board, &RANKED_BOARD, &i64::try_from(score)?],
        )?
        .try_get(0)?;
    count(n)
}
