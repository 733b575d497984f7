//! `parlor history`, `parlor scores` and `parlor replay`.

use crate::mid::AnyGame;
use crate::storage::{GameRecord, Storage, Store};
use anyhow::{Context, Result, anyhow};
use clap::Args;
use std::io::Write;

/// `parlor history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only this game (its command's name: `parlor --help` lists them).
    #[arg(long)]
    pub game: Option<String>,
    /// How many games to list (1 to 100000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub limit: u32,
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
}

/// `parlor scores`.
#[derive(Debug, Args)]
pub struct ScoresArgs {
    /// Only this game (its command's name; default: every game).
    #[arg(long)]
    pub game: Option<String>,
    /// The variant, e.g. 4x4 (default: every variant; needs --game).
    #[arg(long, requires = "game")]
    pub variant: Option<String>,
    /// How many scores per variant (1 to 100000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub limit: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `parlor replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game's id, as `parlor history` shows it.
    pub id: i64,
    /// Pause between moves in plain mode, in milliseconds (0 to 10000).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub delay_ms: u64,
}

/// What `parlor history`, `parlor scores` and `parlor stats` read and where they print: every game, the store and
/// the output.
pub struct Report<'a> {
    /// Every game, in menu order.
    pub games: &'a [&'static dyn AnyGame],
    /// The database.
    pub store: &'a Store,
    /// Where the report goes (standard output).
    pub out: &'a mut dyn Write,
}

/// Prints the history.
pub fn history(args: &HistoryArgs, r: Report) -> Result<()> {
    if let Some(g) = &args.game {
        named(r.games, g)?;
    }
    let limit = args.limit as usize;
    crate::plain::records::history(
        r.store,
        r.games,
        args.game.as_deref(),
        limit,
        args.json,
        r.out,
    )
}

/// Prints the best scores.
pub fn scores(args: &ScoresArgs, r: Report) -> Result<()> {
    let limit = args.limit as usize;
    match &args.game {
        None => {
            crate::plain::records::scores_of_every_game(r.store, r.games, limit, args.json, r.out)
        }
        Some(name) => {
            let game = named(r.games, name)?;
            let variant = args.variant.as_deref();
            crate::plain::records::scores(r.store, game, variant, limit, args.json, r.out)
        }
    }
}

/// The game whose command is `name`, or an error naming the games there are.
pub fn named(games: &[&'static dyn AnyGame], name: &str) -> Result<&'static dyn AnyGame> {
    crate::mid::find(games, name)
        .ok_or_else(|| anyhow!("no game '{name}': {}", crate::mid::names(games)))
}

/// Looks up a game for replay.
pub fn find(store: &Store, id: i64) -> Result<GameRecord> {
    store
        .game(id)
        .context("reading the history")?
        .ok_or_else(|| anyhow!("no game #{id}: see `parlor history`"))
}
