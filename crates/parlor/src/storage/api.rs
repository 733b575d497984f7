//! What the core asks of storage: the one interface sessions, screens and statistics use, whatever keeps the rows.
//!
//! The terminal implements it with SQLite (`Store`, under the `terminal` feature); a browser front end
//! would implement it over IndexedDB or localStorage, an online server over its database. The SQLite store's
//! implementation (`sqlite_storage.rs`) documents each method in full.

use super::{
    Claim, ClaimError, Damaged, GameRecord, History, Ranking, Scoreboard, Stats, Unfinished,
    VariantTally,
};
use anyhow::Result;
use std::path::Path;

/// Scores, history and games in progress, as the core reads and writes them.
pub trait Storage {
    /// Where the data lives, for messages.
    fn location(&self) -> &str;
    /// The data directory, unless the data lives in memory (or somewhere that is not a directory).
    fn dir(&self) -> Option<&Path>;
    /// Whether nothing is written (a database opened read-only).
    fn read_only(&self) -> bool;
    /// Whether what is written is kept after the program ends: nothing is ever called "saved" where it is not.
    fn keeps(&self) -> bool;

    /// Claims the game of play session `session` for this program: one player at a time plays a game.
    fn claim(&self, session: &str) -> Result<Claim, ClaimError>;
    /// Forgets the claim of a finished game (called while the claim is still held).
    fn release_claim(&self, claim: Claim);
    /// Whether another program holds the claim on the game of play session `session` now (another Parlor window
    /// plays it), as far as this storage can tell; looking claims nothing. `false` where nobody else can play.
    fn held_elsewhere(&self, _session: &str) -> bool {
        false
    }

    /// Saves (inserts or replaces) the game in progress of one play session, whatever is stored for it.
    fn save_unfinished(&self, u: &Unfinished) -> Result<()>;
    /// Saves the game in progress as its player last left it (`held`: the moves its saved row holds); `false` when
    /// the row is no longer this player's to save.
    fn save_game(&self, u: &Unfinished, held: Option<&str>) -> Result<bool>;
    /// The games in progress, newest first, optionally of one game only.
    fn unfinished(&self, game: Option<&str>) -> Result<Vec<Unfinished>>;
    /// The game in progress of one play session, read now (`None` when it is no longer unfinished).
    fn unfinished_session(&self, session: &str) -> Result<Option<Unfinished>>;
    /// Forgets a game in progress without recording it.
    fn discard_unfinished(&self, session: &str) -> Result<()>;
    /// Forgets the saved row of a game taken back to no move, if it still holds `held`.
    fn discard_game(&self, session: &str, held: &str) -> Result<()>;
    /// Sets a damaged game in progress aside (kept, never deleted), with the reason.
    fn set_aside(&mut self, u: &Unfinished, reason: &str) -> Result<()>;
    /// How many damaged games have been set aside.
    fn set_aside_count(&self) -> Result<i64>;

    /// The moves the saved row of a play session holds, if it has one.
    fn held_moves(&self, session: &str) -> Result<Option<String>>;
    /// Records a finished game and drops its in-progress copy, whatever that copy holds. Returns the new id.
    fn finish(&mut self, session: &str, record: &GameRecord) -> Result<i64> {
        let held = self.held_moves(session)?;
        self.finish_game(session, held.as_deref(), record)?
            .ok_or_else(|| anyhow::anyhow!("the game changed while it was being recorded"))
    }
    /// Records a finished game once, if it is still unfinished as its player left it (`held`); `None` when
    /// nothing was recorded.
    fn finish_game(
        &mut self,
        session: &str,
        held: Option<&str>,
        record: &GameRecord,
    ) -> Result<Option<i64>>;

    /// Records a finished game that comes from elsewhere (an online game's import) unless the history holds the same
    /// game already ([`super::dump::same_game`]): `(id, true)` when it was added now, `(id of the one there, false)`
    /// otherwise. A store that other programs write at the same time makes the look and the write one step, so two
    /// imports of the same game at once record it once; this default, for stores only one program writes, looks
    /// then writes.
    fn add_once(&mut self, record: &GameRecord) -> Result<(i64, bool)> {
        let here = self
            .history(Some(&record.game), usize::MAX)?
            .games
            .into_iter()
            .find(|h| super::dump::same_game(h, record));
        if let Some(h) = here {
            return Ok((h.id, false));
        }
        // A play session no game in progress has: nothing unfinished to drop.
        let id = self
            .finish_game(&format!("add-once-{}", record.seed), None, record)?
            .ok_or_else(|| anyhow::anyhow!("the history changed meanwhile: not recorded"))?;
        Ok((id, true))
    }
    /// Finished games, newest first, at most `limit` readable ones, with the damaged rows left out and counted.
    fn history(&self, game: Option<&str>, limit: usize) -> Result<History>;
    /// The finished rows whose game is unknown.
    fn unknown_game(&self) -> Result<Damaged>;
    /// The best scores of one game and variant, best first.
    fn best(&self, board: Scoreboard, limit: usize) -> Result<Vec<GameRecord>>;
    /// The variants of a game that have finished games, most played first.
    fn variants(&self, game: &str) -> Result<Vec<String>>;
    /// The options of one recorded game of a variant.
    fn variant_options(&self, game: &str, variant: &str) -> Result<Option<String>>;
    /// The 1-based rank a ranked score would take among the best scores of its variant.
    fn rank(&self, board: Scoreboard, score: i64) -> Result<usize>;
    /// The best ranked score of a variant, if any game was finished.
    fn best_score(&self, board: Scoreboard) -> Result<Option<i64>>;
    /// One finished game by id.
    fn game(&self, id: i64) -> Result<Option<GameRecord>>;
    /// The review of finished game `id` by `engine` kept with it (its JSON, docs/REVIEW.md), if there is one. A
    /// store that keeps no reviews has none.
    fn review(&self, _id: i64, _engine: &str) -> Option<String> {
        None
    }
    /// Keeps the review of finished game `id` by `engine` (its JSON), replacing one kept before; an error where it
    /// cannot be kept (this default: a store that keeps no reviews).
    fn save_review(&self, _id: i64, _engine: &str, _json: &str) -> Result<()> {
        anyhow::bail!("{} keeps no reviews", self.location())
    }
    /// Totals per variant of one game.
    fn stats(&self, game: &str) -> Result<Vec<Stats>>;
    /// Tallies every finished game of `game`, variant by variant (`ranking`: how a variant ranks, from options).
    fn tally(&self, game: &str, ranking: &dyn Fn(&str) -> Ranking) -> Result<Vec<VariantTally>>;
    /// The newest `limit` games of a variant that the best scores count, newest first.
    fn recent_clean(&self, game: &str, variant: &str, limit: usize) -> Result<Vec<GameRecord>>;
}
