//! `parlor review ID [--json]`: the review of a finished game (docs/REVIEW.md), computed once by its game's reviewer
//! and kept in the database with the game, so that asking again reads it back.

use crate::cli::JsonFlag;
use crate::mid::coach;
use crate::mid::review::Review;
use crate::mid::{AnyGame, Contexts};
use crate::storage::{GameRecord, Storage, Store};
use anyhow::{Result, anyhow};
use clap::Args;
use std::io::Write;

/// `parlor review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The finished game's number, as `parlor history` shows it.
    pub id: i64,
    /// Output format.
    #[command(flatten)]
    pub json: JsonFlag,
}

/// `parlor practise`.
#[derive(Debug, Args)]
pub struct PractiseArgs {
    /// The finished game's number, as `parlor history` shows it.
    pub id: i64,
    /// The move to practise from, as `parlor review ID` numbers it (from 1): the game starts from the position
    /// before it.
    #[arg(value_parser = clap::value_parser!(u64).range(1..))]
    pub r#move: u64,
}

/// The review of `record` (a game of `game`): the one kept in `store` for this engine version, or one made now by
/// the game's reviewer (progress on standard error when it is a terminal) and kept there.
pub fn review_of(
    store: &Store,
    game: &dyn AnyGame,
    record: &GameRecord,
    contexts: &Contexts,
) -> Result<Review> {
    let bar = crate::cli::progress_bar(
        record.moves.split_whitespace().count() as u64,
        "reviewing {bar:40} {pos}/{len} moves",
    );
    let made = coach::review_now(game, record, store, contexts, &mut |done, of| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let (review, not_kept) =
        made.map_err(|e| anyhow!("game #{} cannot be reviewed: {e}", record.id))?;
    if !store.read_only()
        && let Some(why) = not_kept
    {
        eprintln!("parlor: note: the review is not kept: {why}");
    }
    Ok(review)
}

/// Prints `review` as text ([`Review::text`]: one line per marked move, the summary, the accuracy) or as its JSON.
pub fn print(review: &Review, json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        writeln!(out, "{}", review.to_json())?;
    } else {
        write!(out, "{}", review.text())?;
    }
    Ok(())
}

/// Why a game of this number cannot be reviewed when it is not among the finished games.
pub fn not_found(id: i64) -> anyhow::Error {
    anyhow!(
        "no finished game #{id}: see `parlor history` (a game in progress is reviewed once it is finished)"
    )
}
