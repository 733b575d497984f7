//! `parlor stats`: games played, won, win rate, streaks, best and average, and the charts' numbers, per game and
//! variant.

use crate::games::AnyGame;
use crate::storage::Store;
use anyhow::Result;
use clap::Args;
use std::io::Write;

/// `parlor stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Only this game (its command's name: `parlor --help` lists them).
    #[arg(long)]
    pub game: Option<String>,
    /// Print one JSON object keyed by game.
    #[arg(long)]
    pub json: bool,
}

/// Prints the statistics.
pub fn run(
    args: &StatsArgs,
    games: &[&'static dyn AnyGame],
    store: &Store,
    out: &mut dyn Write,
) -> Result<()> {
    let games: Vec<&dyn AnyGame> = match &args.game {
        Some(g) => vec![super::records::named(games, g)?],
        None => games.to_vec(),
    };
    crate::plain::stats::print(store, &games, args.json, out)
}
