//! `parlor stats`: games played, won, win rate, streaks, best and average, and the charts' numbers, per game and
//! variant.

use crate::storage::Store;
use anyhow::{Result, anyhow};
use clap::Args;
use std::io::Write;

/// `parlor stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Only this game (2048, mastermind, nocca).
    #[arg(long)]
    pub game: Option<String>,
    /// Print one JSON object keyed by game.
    #[arg(long)]
    pub json: bool,
}

/// Prints the statistics.
pub fn run(args: &StatsArgs, store: &Store, out: &mut dyn Write) -> Result<()> {
    let games: Vec<&dyn crate::games::AnyGame> = match &args.game {
        Some(g) => vec![
            crate::registry::find(g)
                .ok_or_else(|| anyhow!("no game '{g}': {}", crate::registry::names()))?,
        ],
        None => crate::registry::GAMES.iter().map(|&g| g as _).collect(),
    };
    crate::plain::stats::print(store, &games, args.json, out)
}
