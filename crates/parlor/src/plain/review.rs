//! Plain mode's review of a finished game: the same text as `parlor review ID` ([`crate::mid::review::Review::text`]),
//! kept with the game as everywhere ([`crate::mid::coach::review_now`]). Asked for at a game's end (`review`) and at
//! the menu (`v N`).

use super::Io;
use crate::mid::{AnyGame, coach, find};
use crate::storage::{Storage, Store};
use anyhow::Result;

/// The words that ask for the review at a game's end and at the menu.
pub const WORDS: &[&str] = &["v", "review"];

/// Prints the review of finished game `id`, a game of one of `games`, or why there is none.
pub fn print<T: AnyGame + ?Sized>(io: &mut Io, games: &[&T], store: &Store, id: i64) -> Result<()> {
    let record = match store.game(id) {
        Ok(Some(record)) => record,
        Ok(None) => return io.say(format!("No finished game #{id}: h lists the history.")),
        Err(e) => return io.say(format!("Game #{id} cannot be reviewed: {e:#}.")),
    };
    let Some(game) = find(games, &record.game) else {
        return io.say(format!(
            "This Parlor cannot review a game of {}.",
            record.game
        ));
    };
    match coach::review_now(game, &record, store, &io.contexts, &mut |_, _| {}) {
        Ok((review, not_kept)) => {
            write!(io.out, "{}", review.text())?;
            if let Some(why) = not_kept.filter(|_| !store.read_only()) {
                io.say(format!("Note: the review is not kept: {why}."))?;
            }
            Ok(())
        }
        Err(why) => io.say(format!("Game #{id} cannot be reviewed: {why}.")),
    }
}
