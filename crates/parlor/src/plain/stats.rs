//! Statistics as text or JSON: what `parlor stats` and the plain menu's `t` print (the figures and the charts'
//! numbers of every variant, from `mid::stats`).

use crate::mid::AnyGame;
use crate::mid::stats::{game_stats, json, text, unknown_game_note};
use crate::storage::{Storage, Store};
use anyhow::Result;
use std::io::Write;

/// Prints the statistics of `games`: as text, each game's variants one after the other; as JSON, one object
/// keyed by game name (`{"ID": {"title", "score_name", "variants": [...]}, ...}`). Finished rows whose game is
/// unknown end it with a note (with `--json`, on standard error, as history's note).
pub fn print<T: AnyGame + ?Sized>(
    store: &Store,
    games: &[&T],
    as_json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let mut map = serde_json::Map::new();
    for &g in games {
        let stats = game_stats(store, g)?;
        if as_json {
            map.insert(g.id().to_string(), json(&stats));
        } else {
            for line in text(&stats) {
                writeln!(out, "{line}")?;
            }
        }
    }
    // Rows of no known game are no game's: said after every statistics, of every game or of one.
    let note = unknown_game_note(&store.unknown_game()?);
    if as_json {
        writeln!(out, "{}", serde_json::Value::Object(map))?;
        if let Some(n) = note {
            eprintln!("Note: {n}");
        }
    } else if let Some(n) = note {
        writeln!(out, "Note: {n}")?;
    }
    Ok(())
}
