//! `parlor stats`: games played, won, win rate, streaks, best and average, and the charts' numbers, per game and
//! variant.

use crate::mid::AnyGame;
use anyhow::Result;
use clap::Args;

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
pub fn run(args: &StatsArgs, r: super::records::Report) -> Result<()> {
    let games: Vec<&dyn AnyGame> = match &args.game {
        Some(g) => vec![super::records::named(r.games, g)?],
        None => r.games.to_vec(),
    };
    crate::plain::stats::print(r.store, &games, args.json, r.out)
}
