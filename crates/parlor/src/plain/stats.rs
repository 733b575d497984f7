//! Statistics as text or JSON: what `parlor stats` and the plain menu's `t` print (the figures and the charts'
//! numbers of every variant, from `games::stats`).

use crate::games::AnyGame;
use crate::games::stats::{game_stats, json, text};
use crate::storage::Store;
use anyhow::Result;
use std::io::Write;

/// Prints the statistics of `games`: as text, each game's variants one after the other; as JSON, one object
/// keyed by game name (`{"2048": {"title", "score_name", "variants": [...]}, ...}`).
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
    if as_json {
        writeln!(out, "{}", serde_json::Value::Object(map))?;
    }
    Ok(())
}
