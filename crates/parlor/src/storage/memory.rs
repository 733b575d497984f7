//! A [`Storage`] that keeps its rows in memory: for a front end with nowhere to keep them yet (a browser before
//! its IndexedDB store exists) and for the core's own tests. It answers as the SQLite store does, for the sound rows
//! it can hold (it never holds a damaged row). Nothing in it outlives it: it [`Storage::keeps`] nothing.

use super::{
    Claim, ClaimError, Damaged, GameRecord, History, Outcome, Ranking, Scoreboard, StatRow, Stats,
    Storage, Tally, Unfinished, VariantTally,
};
use anyhow::Result;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::path::Path;

/// Rows in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    rows: RefCell<Rows>,
}

#[derive(Debug, Default)]
struct Rows {
    unfinished: Vec<Unfinished>,
    set_aside: Vec<super::dump::SetAside>,
    games: Vec<GameRecord>,
    /// The reviews kept: (game id, engine, JSON).
    reviews: Vec<(i64, String, String)>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// A store holding the rows of `dump` (its settings are not the store's: they are left out).
    pub fn from_dump(dump: super::dump::Dump) -> MemoryStore {
        MemoryStore {
            rows: RefCell::new(Rows {
                unfinished: dump.unfinished,
                set_aside: dump.set_aside,
                games: dump.games,
                reviews: Vec::new(),
            }),
        }
    }

    /// Every row this store holds, without settings.
    pub fn dump(&self) -> super::dump::Dump {
        let rows = self.rows.borrow();
        super::dump::Dump {
            unfinished: rows.unfinished.clone(),
            games: rows.games.clone(),
            set_aside: rows.set_aside.clone(),
            settings: None,
        }
    }

    /// The finished games of `game` and `variant` that the best scores count under `ranking`.
    fn ranked(&self, board: Scoreboard) -> Vec<GameRecord> {
        self.rows
            .borrow()
            .games
            .iter()
            .filter(|g| g.game == board.game && g.variant == board.variant)
            .filter(|g| !g.assisted && !g.seeded && !g.practice)
            .filter(|g| match board.ranking {
                Ranking::HighScore => true,
                Ranking::FewestToWin => g.result == Outcome::Won,
                Ranking::Unranked => false,
            })
            .cloned()
            .collect()
    }
}

/// Whether score `a` is better than `b` under `ranking`.
fn better(ranking: Ranking, a: i64, b: i64) -> bool {
    match ranking {
        Ranking::HighScore => a > b,
        Ranking::FewestToWin | Ranking::Unranked => a < b,
    }
}

impl Storage for MemoryStore {
    fn location(&self) -> &str {
        "memory (nothing will be kept)"
    }

    fn dir(&self) -> Option<&Path> {
        None
    }

    fn read_only(&self) -> bool {
        false
    }

    fn keeps(&self) -> bool {
        false
    }

    fn claim(&self, _session: &str) -> Result<Claim, ClaimError> {
        Ok(Claim::unshared())
    }

    fn release_claim(&self, claim: Claim) {
        drop(claim);
    }

    fn save_unfinished(&self, u: &Unfinished) -> Result<()> {
        let mut rows = self.rows.borrow_mut();
        rows.unfinished.retain(|x| x.session != u.session);
        rows.unfinished.push(u.clone());
        Ok(())
    }

    fn save_game(&self, u: &Unfinished, held: Option<&str>) -> Result<bool> {
        let mut rows = self.rows.borrow_mut();
        let at = rows.unfinished.iter().position(|x| x.session == u.session);
        match (held, at) {
            (None, None) => {
                rows.unfinished.push(u.clone());
                Ok(true)
            }
            (Some(held), Some(i)) if rows.unfinished[i].moves == held => {
                let row = &mut rows.unfinished[i];
                row.moves.clone_from(&u.moves);
                row.score = u.score;
                row.assisted = u.assisted;
                row.updated_at = u.updated_at;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn unfinished(&self, game: Option<&str>) -> Result<Vec<Unfinished>> {
        let rows = self.rows.borrow();
        // Newest first; among equal times, the later saved first (as SQLite's rowid order).
        let mut out: Vec<(usize, Unfinished)> = rows
            .unfinished
            .iter()
            .enumerate()
            .filter(|(_, u)| game.is_none_or(|g| u.game == g))
            .map(|(i, u)| (i, u.clone()))
            .collect();
        out.sort_by_key(|(i, u)| (Reverse(u.updated_at), Reverse(*i)));
        Ok(out.into_iter().map(|(_, u)| u).collect())
    }

    fn unfinished_session(&self, session: &str) -> Result<Option<Unfinished>> {
        Ok(self
            .rows
            .borrow()
            .unfinished
            .iter()
            .find(|u| u.session == session)
            .cloned())
    }

    fn discard_unfinished(&self, session: &str) -> Result<()> {
        self.rows
            .borrow_mut()
            .unfinished
            .retain(|u| u.session != session);
        Ok(())
    }

    fn discard_game(&self, session: &str, held: &str) -> Result<()> {
        self.rows
            .borrow_mut()
            .unfinished
            .retain(|u| !(u.session == session && u.moves == held));
        Ok(())
    }

    fn set_aside(&mut self, u: &Unfinished, reason: &str) -> Result<()> {
        let rows = self.rows.get_mut();
        if let Some(i) = rows.unfinished.iter().position(|x| x.session == u.session) {
            let row = rows.unfinished.remove(i);
            rows.set_aside.push(super::dump::SetAside {
                row: serde_json::to_value(&row).unwrap_or(serde_json::Value::Null),
                reason: reason.to_string(),
            });
        }
        Ok(())
    }

    fn set_aside_count(&self) -> Result<i64> {
        Ok(self.rows.borrow().set_aside.len() as i64)
    }

    fn held_moves(&self, session: &str) -> Result<Option<String>> {
        Ok(self.unfinished_session(session)?.map(|u| u.moves))
    }

    fn finish_game(
        &mut self,
        session: &str,
        held: Option<&str>,
        record: &GameRecord,
    ) -> Result<Option<i64>> {
        let rows = self.rows.get_mut();
        let at = rows.unfinished.iter().position(|u| u.session == session);
        match (held, at) {
            (Some(held), Some(i)) if rows.unfinished[i].moves == held => {
                rows.unfinished.remove(i);
            }
            (None, None) => {}
            _ => return Ok(None),
        }
        let id = rows.games.iter().map(|g| g.id).max().unwrap_or(0) + 1;
        rows.games.push(GameRecord {
            id,
            ..record.clone()
        });
        Ok(Some(id))
    }

    fn history(&self, game: Option<&str>, limit: usize) -> Result<History> {
        let mut games: Vec<GameRecord> = self
            .rows
            .borrow()
            .games
            .iter()
            .filter(|g| game.is_none_or(|name| g.game == name))
            .cloned()
            .collect();
        games.sort_by_key(|g| (Reverse(g.ended_at), Reverse(g.id)));
        games.truncate(limit);
        Ok(History {
            games,
            left_out: Damaged::default(),
        })
    }

    fn unknown_game(&self) -> Result<Damaged> {
        Ok(Damaged::default())
    }

    fn best(&self, board: Scoreboard, limit: usize) -> Result<Vec<GameRecord>> {
        let mut games = self.ranked(board);
        games.sort_by(|a, b| {
            let by_score = match board.ranking {
                Ranking::HighScore => b.score.cmp(&a.score),
                Ranking::FewestToWin | Ranking::Unranked => a.score.cmp(&b.score),
            };
            by_score.then((a.ended_at, a.id).cmp(&(b.ended_at, b.id)))
        });
        games.truncate(limit);
        Ok(games)
    }

    fn variants(&self, game: &str) -> Result<Vec<String>> {
        let rows = self.rows.borrow();
        let mut counts: Vec<(String, usize)> = Vec::new();
        for g in rows.games.iter().filter(|g| g.game == game && !g.practice) {
            match counts.iter_mut().find(|(v, _)| *v == g.variant) {
                Some((_, n)) => *n += 1,
                None => counts.push((g.variant.clone(), 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(counts.into_iter().map(|(v, _)| v).collect())
    }

    fn variant_options(&self, game: &str, variant: &str) -> Result<Option<String>> {
        Ok(self
            .rows
            .borrow()
            .games
            .iter()
            .filter(|g| g.game == game && g.variant == variant)
            .max_by_key(|g| g.id)
            .map(|g| g.options.clone()))
    }

    fn rank(&self, board: Scoreboard, score: i64) -> Result<usize> {
        let ahead = self
            .ranked(board)
            .iter()
            .filter(|g| better(board.ranking, g.score, score))
            .count();
        Ok(ahead + 1)
    }

    fn best_score(&self, board: Scoreboard) -> Result<Option<i64>> {
        Ok(self
            .ranked(board)
            .iter()
            .map(|g| g.score)
            .reduce(|a, b| if better(board.ranking, b, a) { b } else { a }))
    }

    fn review(&self, id: i64, engine: &str) -> Option<String> {
        self.rows
            .borrow()
            .reviews
            .iter()
            .find(|(i, e, _)| *i == id && e == engine)
            .map(|(_, _, json)| json.clone())
    }

    fn save_review(&self, id: i64, engine: &str, json: &str) -> Result<()> {
        let mut rows = self.rows.borrow_mut();
        rows.reviews.retain(|(i, e, _)| !(*i == id && e == engine));
        rows.reviews
            .push((id, engine.to_string(), json.to_string()));
        Ok(())
    }

    fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        Ok(self
            .rows
            .borrow()
            .games
            .iter()
            .find(|g| g.id == id)
            .cloned())
    }

    fn stats(&self, game: &str) -> Result<Vec<Stats>> {
        let rows = self.rows.borrow();
        let mut out = Vec::new();
        for variant in self.variants(game)? {
            let of: Vec<&GameRecord> = rows
                .games
                .iter()
                .filter(|g| g.game == game && g.variant == variant && !g.practice)
                .collect();
            let count = |o: Outcome| of.iter().filter(|g| g.result == o).count() as i64;
            let played = of.len() as i64;
            out.push(Stats {
                played,
                won: count(Outcome::Won),
                lost: count(Outcome::Lost),
                drawn: count(Outcome::Draw),
                gave_up: count(Outcome::GaveUp),
                best: of
                    .iter()
                    .filter(|g| !g.assisted && !g.seeded)
                    .map(|g| g.score)
                    .max(),
                average: of.iter().map(|g| g.score as f64).sum::<f64>() / played.max(1) as f64,
                assisted: of.iter().filter(|g| g.assisted).count() as i64,
                variant,
            });
        }
        Ok(out)
    }

    fn tally(&self, game: &str, ranking: &dyn Fn(&str) -> Ranking) -> Result<Vec<VariantTally>> {
        let mut out = Vec::new();
        for variant in self.variants(game)? {
            let options = self.variant_options(game, &variant)?.unwrap_or_default();
            let mut of: Vec<GameRecord> = self
                .rows
                .borrow()
                .games
                .iter()
                .filter(|g| g.game == game && g.variant == variant && !g.practice)
                .cloned()
                .collect();
            of.sort_by_key(|g| (g.ended_at, g.id));
            let mut tally = Tally::new(ranking(&options));
            for g in of {
                tally.add(StatRow {
                    score: g.score,
                    result: g.result,
                    assisted: g.assisted,
                    seeded: g.seeded,
                });
            }
            out.push(VariantTally {
                ranking: ranking(&options),
                tallied: tally.finish(),
                options,
                variant,
            });
        }
        Ok(out)
    }

    fn recent_clean(&self, game: &str, variant: &str, limit: usize) -> Result<Vec<GameRecord>> {
        let mut games: Vec<GameRecord> = self
            .rows
            .borrow()
            .games
            .iter()
            .filter(|g| {
                g.game == game && g.variant == variant && !g.assisted && !g.seeded && !g.practice
            })
            .cloned()
            .collect();
        games.sort_by_key(|g| (Reverse(g.ended_at), Reverse(g.id)));
        games.truncate(limit);
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game ranked by its fewest moves to a win (the store knows games only by their ids).
    const FEWEST: &str = "a-fewest-moves-game";

    /// The fewest-moves game's best scores in its classic variant.
    const CLASSIC: Scoreboard = Scoreboard {
        game: FEWEST,
        variant: "classic",
        ranking: Ranking::FewestToWin,
    };

    fn record(
        variant: &str,
        score: i64,
        result: Outcome,
        assisted: bool,
        ended_at: i64,
    ) -> GameRecord {
        GameRecord {
            id: 0,
            game: FEWEST.into(),
            variant: variant.into(),
            options: format!("{{\"v\":\"{variant}\",\"at\":{ended_at}}}"),
            seed: 7,
            moves: String::new(),
            score,
            result,
            assisted,
            seeded: false,
            practice: false,
            started_at: ended_at - 10,
            ended_at,
        }
    }

    /// The same finished games in any store.
    fn fill(store: &mut dyn Storage) {
        let games = [
            record("classic", 5, Outcome::Won, false, 100),
            record("classic", 4, Outcome::Won, false, 200),
            record("classic", 4, Outcome::Won, false, 150),
            record("classic", 3, Outcome::Won, true, 300),
            record("classic", 9, Outcome::Lost, false, 400),
            record("super", 7, Outcome::Won, false, 250),
        ];
        for (i, g) in games.iter().enumerate() {
            store.finish(&format!("s-{i}"), g).unwrap();
        }
    }

    #[test]
    fn a_game_changed_elsewhere_is_not_recorded() {
        let mut store = MemoryStore::new();
        let mut u = record("classic", 5, Outcome::Won, false, 100);
        u.moves = "a".into();
        let unfinished = Unfinished {
            session: "s".into(),
            game: u.game.clone(),
            variant: u.variant.clone(),
            options: u.options.clone(),
            seed: 1,
            moves: "a b".into(),
            score: 0,
            assisted: false,
            seeded: false,
            practice: false,
            started_at: 0,
            updated_at: 0,
            row: 0,
            damage: None,
        };
        assert!(store.save_game(&unfinished, None).unwrap());
        assert!(!store.save_game(&unfinished, None).unwrap(), "made once");
        assert!(
            !store.save_game(&unfinished, Some("a")).unwrap(),
            "not as left"
        );
        assert_eq!(store.finish_game("s", Some("a"), &u).unwrap(), None);
        assert!(store.finish_game("s", Some("a b"), &u).unwrap().is_some());
    }

    #[test]
    fn rankings_and_lists_answer_as_memory_says() {
        let mut store = MemoryStore::new();
        fill(&mut store);
        let best = store.best(CLASSIC, 10).unwrap();
        let scores: Vec<i64> = best.iter().map(|g| g.score).collect();
        assert_eq!(
            scores,
            [4, 4, 5],
            "the assisted 3 and the lost 9 rank nowhere"
        );
        assert_eq!(best[0].ended_at, 150, "the earlier of equals first");
        assert_eq!(store.rank(CLASSIC, 4).unwrap(), 1);
        assert_eq!(
            store.variants(FEWEST).unwrap(),
            ["classic".to_string(), "super".to_string()]
        );
        let tallies = store.tally(FEWEST, &|_| Ranking::FewestToWin).unwrap();
        assert_eq!(tallies[0].tallied.figures.played, 5);
    }

    /// Where the SQLite store can be made, both stores answer alike for the same sound rows.
    #[cfg(feature = "terminal")]
    #[test]
    fn memory_answers_as_sqlite_does() {
        /// The same games as [`CLASSIC`] ranked by the highest score instead.
        const CLASSIC_BY_SCORE: Scoreboard = Scoreboard {
            ranking: Ranking::HighScore,
            ..CLASSIC
        };
        let mut sqlite = crate::storage::Store::in_memory().unwrap();
        let mut memory = MemoryStore::new();
        fill(&mut sqlite);
        fill(&mut memory);
        let stores: [&dyn Storage; 2] = [&sqlite, &memory];
        let [a, b] = stores.map(|s| {
            let ranking = &|_: &str| Ranking::FewestToWin;
            (
                s.history(Some(FEWEST), 3).unwrap(),
                s.best(CLASSIC, 10).unwrap(),
                s.best(CLASSIC_BY_SCORE, 10).unwrap(),
                s.rank(CLASSIC_BY_SCORE, 5).unwrap(),
                s.best_score(CLASSIC).unwrap(),
                s.variants(FEWEST).unwrap(),
                s.variant_options(FEWEST, "classic").unwrap(),
                s.stats(FEWEST).unwrap(),
                s.tally(FEWEST, ranking).unwrap(),
                s.recent_clean(FEWEST, "classic", 2).unwrap(),
                s.game(2).unwrap(),
            )
        });
        assert_eq!(a, b);
        // Reviews: kept by game and engine, the newest replacing the one before, none for another engine.
        let [a, b] = stores.map(|s| {
            s.save_review(2, "engine 1", "{\"first\":1}").unwrap();
            s.save_review(2, "engine 1", "{\"second\":2}").unwrap();
            (s.review(2, "engine 1"), s.review(2, "engine 2"))
        });
        assert_eq!(a, (Some("{\"second\":2}".to_string()), None));
        assert_eq!(a, b);
    }
}
