//! The SQLite store as the core's [`Storage`]: every method is the store's own method of the same name.

use super::{
    Claim, ClaimError, Damaged, GameRecord, History, Ranking, Stats, Storage, Store, Unfinished,
    VariantTally,
};
use anyhow::Result;
use std::path::Path;

impl Storage for Store {
    fn location(&self) -> &str {
        Store::location(self)
    }

    fn dir(&self) -> Option<&Path> {
        Store::dir(self)
    }

    fn read_only(&self) -> bool {
        Store::read_only(self)
    }

    fn keeps(&self) -> bool {
        Store::keeps(self)
    }

    fn claim(&self, session: &str) -> Result<Claim, ClaimError> {
        Store::claim(self, session)
    }

    fn release_claim(&self, claim: Claim) {
        Store::release_claim(self, claim);
    }

    fn save_unfinished(&self, u: &Unfinished) -> Result<()> {
        Store::save_unfinished(self, u)
    }

    fn save_game(&self, u: &Unfinished, held: Option<&str>) -> Result<bool> {
        Store::save_game(self, u, held)
    }

    fn unfinished(&self, game: Option<&str>) -> Result<Vec<Unfinished>> {
        Store::unfinished(self, game)
    }

    fn unfinished_session(&self, session: &str) -> Result<Option<Unfinished>> {
        Store::unfinished_session(self, session)
    }

    fn discard_unfinished(&self, session: &str) -> Result<()> {
        Store::discard_unfinished(self, session)
    }

    fn discard_game(&self, session: &str, held: &str) -> Result<()> {
        Store::discard_game(self, session, held)
    }

    fn set_aside(&mut self, u: &Unfinished, reason: &str) -> Result<()> {
        Store::set_aside(self, u, reason)
    }

    fn set_aside_count(&self) -> Result<i64> {
        Store::set_aside_count(self)
    }

    fn finish(&mut self, session: &str, record: &GameRecord) -> Result<i64> {
        Store::finish(self, session, record)
    }

    fn finish_game(
        &mut self,
        session: &str,
        held: Option<&str>,
        record: &GameRecord,
    ) -> Result<Option<i64>> {
        Store::finish_game(self, session, held, record)
    }

    fn history(&self, game: Option<&str>, limit: usize) -> Result<History> {
        Store::history(self, game, limit)
    }

    fn unknown_game(&self) -> Result<Damaged> {
        Store::unknown_game(self)
    }

    fn best(
        &self,
        game: &str,
        variant: &str,
        ranking: Ranking,
        limit: usize,
    ) -> Result<Vec<GameRecord>> {
        Store::best(self, game, variant, ranking, limit)
    }

    fn variants(&self, game: &str) -> Result<Vec<String>> {
        Store::variants(self, game)
    }

    fn variant_options(&self, game: &str, variant: &str) -> Result<Option<String>> {
        Store::variant_options(self, game, variant)
    }

    fn rank(&self, game: &str, variant: &str, ranking: Ranking, score: i64) -> Result<usize> {
        Store::rank(self, game, variant, ranking, score)
    }

    fn best_score(&self, game: &str, variant: &str, ranking: Ranking) -> Result<Option<i64>> {
        Store::best_score(self, game, variant, ranking)
    }

    fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        Store::game(self, id)
    }

    fn stats(&self, game: &str) -> Result<Vec<Stats>> {
        Store::stats(self, game)
    }

    fn tally(&self, game: &str, ranking: &dyn Fn(&str) -> Ranking) -> Result<Vec<VariantTally>> {
        Store::tally(self, game, ranking)
    }

    fn recent_clean(&self, game: &str, variant: &str, limit: usize) -> Result<Vec<GameRecord>> {
        Store::recent_clean(self, game, variant, limit)
    }
}
