//! History and best scores as text or JSON: what `parlor history`, `parlor scores` and the plain menu print.

use crate::mid::AnyGame;
use crate::mid::record::{record_json, record_line};
use crate::storage::{Scoreboard, Storage, Store, format_time};
use anyhow::Result;
use std::io::Write;

/// Prints the newest finished games (of one game, or all), and how many damaged ones were left out and why (with
/// `--json`, on standard error: the JSON stays the list of games).
pub fn history<T: AnyGame + ?Sized>(
    store: &Store,
    games: &[&T],
    game: Option<&str>,
    limit: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let history = store.history(game, limit)?;
    let note = history.note();
    if json {
        let all: Vec<_> = history.games.iter().map(record_json).collect();
        writeln!(out, "{}", serde_json::Value::Array(all))?;
        if let Some(n) = note {
            eprintln!("Note: {n}");
        }
        return Ok(());
    }
    if history.games.is_empty() && note.is_none() {
        writeln!(out, "{}", crate::mid::record::nothing_to_show(store))?;
    }
    for r in &history.games {
        writeln!(out, "{}", record_line(r, games))?;
    }
    if let Some(n) = note {
        writeln!(out, "Note: {n}")?;
    }
    Ok(())
}

/// Prints the best scores of every game that has finished games (`--json`: one object keyed by game, then by
/// variant), or says there is none yet.
pub fn scores_of_every_game(
    store: &Store,
    games: &[&dyn AnyGame],
    limit: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let mut map = serde_json::Map::new();
    let mut shown = 0;
    for &game in games {
        if store.variants(game.id())?.is_empty() {
            if json {
                map.insert(
                    game.id().to_string(),
                    serde_json::Value::Object(Default::default()),
                );
            }
            continue;
        }
        if json {
            map.insert(
                game.id().to_string(),
                scores_json(store, game, None, limit)?,
            );
        } else {
            if shown > 0 {
                writeln!(out)?;
            }
            scores(store, game, None, limit, false, out)?;
        }
        shown += 1;
    }
    if json {
        writeln!(out, "{}", serde_json::Value::Object(map))?;
    } else if shown == 0 {
        writeln!(out, "No finished game yet.")?;
    }
    Ok(())
}

/// The best scores of one game as JSON: an object keyed by variant.
fn scores_json(
    store: &Store,
    game: &dyn AnyGame,
    variant: Option<&str>,
    limit: usize,
) -> Result<serde_json::Value> {
    let variants = match variant {
        Some(v) => vec![v.to_string()],
        None => store.variants(game.id())?,
    };
    let mut map = serde_json::Map::new();
    for v in &variants {
        let options = store.variant_options(game.id(), v)?.unwrap_or_default();
        let best = store.best(Scoreboard::new(game.id(), v, game.ranking(&options)), limit)?;
        map.insert(v.clone(), best.iter().map(record_json).collect());
    }
    Ok(serde_json::Value::Object(map))
}

/// Prints the best scores of one game, for one variant or all of them.
pub fn scores(
    store: &Store,
    game: &dyn AnyGame,
    variant: Option<&str>,
    limit: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    if json {
        writeln!(out, "{}", scores_json(store, game, variant, limit)?)?;
        return Ok(());
    }
    let variants = match variant {
        Some(v) => vec![v.to_string()],
        None => store.variants(game.id())?,
    };
    for v in &variants {
        let options = store.variant_options(game.id(), v)?.unwrap_or_default();
        let ranking = game.ranking(&options);
        let best = store.best(Scoreboard::new(game.id(), v, ranking), limit)?;
        writeln!(out, "{} {v}", game.title())?;
        if ranking == crate::storage::Ranking::Unranked {
            writeln!(out, "  (these games have no best scores)")?;
        } else if best.is_empty() {
            writeln!(
                out,
                "  (none ranks: assisted games, games from a chosen seed and, where wins count, lost games stay out)"
            )?;
        }
        for (i, r) in best.iter().enumerate() {
            writeln!(
                out,
                "  {:>2}. {:>8} {:<8} {:<8} {}  #{}",
                i + 1,
                r.score,
                game.score_name(),
                r.result.as_str(),
                format_time(r.ended_at),
                r.id
            )?;
        }
    }
    if variants.is_empty() {
        writeln!(out, "No finished {} game yet.", game.title())?;
    }
    Ok(())
}
