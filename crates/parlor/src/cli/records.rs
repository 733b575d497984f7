//! `parlor history`, `parlor scores` and `parlor replay`.

use crate::storage::{GameRecord, Store, format_time};
use anyhow::{Context, Result, anyhow};
use clap::Args;
use std::io::Write;

/// `parlor history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only this game (2048, mastermind, nocca).
    #[arg(long)]
    pub game: Option<String>,
    /// How many games to list.
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
}

/// `parlor scores`.
#[derive(Debug, Args)]
pub struct ScoresArgs {
    /// The game (default 2048).
    #[arg(long, default_value = "2048")]
    pub game: String,
    /// The variant, e.g. 4x4 (default: every variant).
    #[arg(long)]
    pub variant: Option<String>,
    /// How many scores per variant.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `parlor replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game's id, as `parlor history` shows it.
    pub id: i64,
    /// Pause between moves in plain mode, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
}

fn record_json(r: &GameRecord) -> serde_json::Value {
    serde_json::json!({
        "id": r.id, "game": r.game, "variant": r.variant,
        "options": serde_json::from_str::<serde_json::Value>(&r.options).unwrap_or(serde_json::Value::Null),
        "seed": r.seed, "moves": r.moves, "score": r.score, "result": r.result, "assisted": r.assisted,
        "started_at": format_time(r.started_at), "ended_at": format_time(r.ended_at),
    })
}

/// Prints the history.
pub fn history(args: &HistoryArgs, store: &Store, out: &mut dyn Write) -> Result<()> {
    let games = store.history(args.game.as_deref(), args.limit)?;
    if args.json {
        let all: Vec<_> = games.iter().map(record_json).collect();
        writeln!(out, "{}", serde_json::Value::Array(all))?;
    } else if games.is_empty() {
        writeln!(out, "No finished game yet.")?;
    } else {
        for r in &games {
            writeln!(out, "{}", crate::tui::records::record_line(r))?;
        }
    }
    Ok(())
}

/// Prints the best scores.
pub fn scores(args: &ScoresArgs, store: &Store, out: &mut dyn Write) -> Result<()> {
    let variants = match &args.variant {
        Some(v) => vec![v.clone()],
        None => store.variants(&args.game)?,
    };
    let mut json = serde_json::Map::new();
    for v in &variants {
        let best = store.best(&args.game, v, args.limit)?;
        if args.json {
            json.insert(v.clone(), best.iter().map(record_json).collect());
            continue;
        }
        writeln!(out, "{} {v}", args.game)?;
        if best.is_empty() {
            writeln!(out, "  (no unassisted game)")?;
        }
        for (i, r) in best.iter().enumerate() {
            writeln!(
                out,
                "  {:>2}. {:>8}  {:<8} {}  #{}",
                i + 1,
                r.score,
                r.result,
                format_time(r.ended_at),
                r.id
            )?;
        }
    }
    if args.json {
        writeln!(out, "{}", serde_json::Value::Object(json))?;
    } else if variants.is_empty() {
        writeln!(out, "No finished {} game yet.", args.game)?;
    }
    Ok(())
}

/// Looks up a game for replay.
pub fn find(store: &Store, id: i64) -> Result<GameRecord> {
    store
        .game(id)
        .context("reading the history")?
        .ok_or_else(|| anyhow!("no game #{id}: see `parlor history`"))
}
