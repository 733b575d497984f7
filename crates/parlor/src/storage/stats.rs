//! Statistics over the finished games: one query reads every game of a game in the order it was played, and a
//! [`Tally`] per variant turns the rows into figures (played, won, win rate, streaks, best and average) and the
//! data of the charts (scores, results over time), in one pass.
//!
//! What counts where: every readable game counts in played, won, the win rate, the streaks and the results over
//! time, assisted and seeded ones included (they are counted apart as well, so a screen can say how many there
//! are). Best, average and the score chart count only the games the best scores count: neither assisted nor played
//! from a chosen seed, and, where the ranking counts wins (fewest guesses or plies), won. A row that cannot be read
//! (the one rule of history and statistics, `records::damage`: an unknown result, a score that is not a number)
//! counts nowhere but in `damaged`; a row whose game is unknown is no game's, and is counted apart
//! ([`Store::unknown_game`]). A practice game (started from a position of a reviewed game) is no game of scored
//! play: the stores leave it out before any tally, so it counts nowhere at all.

use super::{Outcome, Ranking};

/// One readable finished game as statistics read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatRow {
    /// The score.
    pub score: i64,
    /// The result.
    pub result: Outcome,
    /// Undo, hints or autoplay were used.
    pub assisted: bool,
    /// Played from a chosen seed.
    pub seeded: bool,
}

/// How many games ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Games won.
    pub won: u64,
    /// Games lost.
    pub lost: u64,
    /// Games drawn.
    pub drawn: u64,
    /// Games given up.
    pub gave_up: u64,
    /// Games with no win or loss of the player's (the codemaker role, two players, the computer watched).
    pub done: u64,
}

impl Outcomes {
    /// Counts the results.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a Outcome>) -> Outcomes {
        let mut count = Outcomes::default();
        for &r in results {
            count.add(r);
        }
        count
    }

    /// Counts one more game that ended so.
    pub fn add(&mut self, result: Outcome) {
        match result {
            Outcome::Won => self.won += 1,
            Outcome::Lost => self.lost += 1,
            Outcome::Draw => self.drawn += 1,
            Outcome::GaveUp => self.gave_up += 1,
            Outcome::Done => self.done += 1,
        }
    }

    /// Games won out of the games that can be won or lost (games `done` have no result of the player's), as a
    /// fraction; `None` when there is none.
    pub fn win_rate(&self) -> Option<f64> {
        let decided = self.won + self.lost + self.drawn + self.gave_up;
        (decided > 0).then(|| self.won as f64 / decided as f64)
    }
}

/// The figures of one variant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Finished games that could be read.
    pub played: u64,
    /// How they ended.
    pub outcomes: Outcomes,
    /// Of the games played, those that used undo, hints or autoplay.
    pub assisted: u64,
    /// Of the games played, those played from a chosen seed.
    pub seeded: u64,
    /// Rows that could not be read (counted nowhere else).
    pub damaged: u64,
    /// Wins in a row at the end of the history (0 when the last game was not won).
    pub current_streak: u64,
    /// The most wins in a row.
    pub longest_streak: u64,
    /// The games that best and average count (see the module's notes).
    pub ranked: u64,
    /// The best score among the ranked games (highest, or fewest to win, as the ranking says).
    pub best: Option<i64>,
    /// The average score of the ranked games.
    pub average: Option<f64>,
}

/// The running totals of one variant, fed the variant's games in the order they were played.
#[derive(Clone, Debug)]
pub struct Tally {
    pub(super) ranking: Ranking,
    figures: Figures,
    streak: u64,
    sum: i128,
    /// The scores of the ranked games, in the order they were played.
    ranked_scores: Vec<i64>,
    /// Games that would rank but were not won (fewest-to-win rankings only): the score chart's last bar.
    not_won: u64,
    /// Every readable game's result, in the order they were played.
    results: Vec<Outcome>,
}

/// What a finished tally holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Tallied {
    /// The figures.
    pub figures: Figures,
    /// The scores of the ranked games, in the order they were played.
    pub ranked_scores: Vec<i64>,
    /// Games that would have ranked had they been won (fewest-to-win rankings; 0 otherwise).
    pub not_won: u64,
    /// Every readable game's result, in the order they were played.
    pub results: Vec<Outcome>,
}

impl Tally {
    /// An empty tally for a variant ranked by `ranking`.
    pub fn new(ranking: Ranking) -> Tally {
        Tally {
            ranking,
            figures: Figures::default(),
            streak: 0,
            sum: 0,
            ranked_scores: Vec::new(),
            not_won: 0,
            results: Vec::new(),
        }
    }

    /// Counts the next game.
    pub fn add(&mut self, row: StatRow) {
        let (score, result) = (row.score, row.result);
        let f = &mut self.figures;
        f.played += 1;
        f.assisted += u64::from(row.assisted);
        f.seeded += u64::from(row.seeded);
        f.outcomes.add(result);
        if result == Outcome::Won {
            self.streak += 1;
            f.longest_streak = f.longest_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        f.current_streak = self.streak;
        self.results.push(result);
        let clean = !row.assisted && !row.seeded;
        let ranks = clean
            && match self.ranking {
                Ranking::HighScore => true,
                Ranking::FewestToWin => result == Outcome::Won,
                Ranking::Unranked => false,
            };
        if ranks {
            f.ranked += 1;
            self.sum += i128::from(score);
            f.best = Some(match (f.best, self.ranking) {
                (Some(b), Ranking::FewestToWin) => b.min(score),
                (Some(b), _) => b.max(score),
                (None, _) => score,
            });
            self.ranked_scores.push(score);
        } else if clean && self.ranking == Ranking::FewestToWin {
            self.not_won += 1;
        }
    }

    /// Counts a row that cannot be read (`records::damage`).
    pub fn add_damaged(&mut self) {
        self.figures.damaged += 1;
    }

    /// The figures and the charts' data.
    pub fn finish(mut self) -> Tallied {
        if self.figures.ranked > 0 {
            self.figures.average = Some(self.sum as f64 / self.figures.ranked as f64);
        }
        Tallied {
            figures: self.figures,
            ranked_scores: self.ranked_scores,
            not_won: self.not_won,
            results: self.results,
        }
    }
}

/// The games of one variant, tallied.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantTally {
    /// The variant.
    pub variant: String,
    /// How its best scores rank.
    pub ranking: Ranking,
    /// The options of its newest game (JSON), to learn its charts.
    pub options: String,
    /// The tally.
    pub tallied: Tallied,
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests {
    use super::*;
    use crate::storage::{GameRecord, Storage, Store};

    fn record(variant: &str, score: i64, result: Outcome, ended_at: i64) -> GameRecord {
        GameRecord {
            id: 0,
            game: "guesswork".into(),
            variant: variant.into(),
            options: "{}".into(),
            seed: 7,
            moves: String::new(),
            score,
            result,
            assisted: false,
            seeded: false,
            practice: false,
            started_at: ended_at - 10,
            ended_at,
        }
    }

    fn store_with(records: &[GameRecord]) -> Store {
        let mut store = Store::in_memory().unwrap();
        for (i, r) in records.iter().enumerate() {
            store.finish(&format!("s{i}"), r).unwrap();
        }
        store
    }

    fn fewest(_: &str) -> Ranking {
        Ranking::FewestToWin
    }

    fn figures(store: &Store, variant: &str) -> Figures {
        let all = store.tally("guesswork", &fewest).unwrap();
        all.into_iter()
            .find(|t| t.variant == variant)
            .map(|t| t.tallied.figures)
            .unwrap()
    }

    #[test]
    fn an_empty_history_has_no_variant() {
        let store = Store::in_memory().unwrap();
        assert!(store.tally("guesswork", &fewest).unwrap().is_empty());
    }

    #[test]
    fn one_game() {
        let store = store_with(&[record("classic", 5, Outcome::Won, 100)]);
        let f = figures(&store, "classic");
        assert_eq!(
            f,
            Figures {
                played: 1,
                outcomes: Outcomes {
                    won: 1,
                    ..Outcomes::default()
                },
                current_streak: 1,
                longest_streak: 1,
                ranked: 1,
                best: Some(5),
                average: Some(5.0),
                ..Figures::default()
            }
        );
        assert_eq!(f.outcomes.win_rate(), Some(1.0));
    }

    #[test]
    fn streaks_follow_the_order_games_ended_not_the_order_they_were_stored() {
        use Outcome::*;
        // Stored out of order: the tally sorts by end time.
        let store = store_with(&[
            record("classic", 4, Won, 50),
            record("classic", 6, Won, 10),
            record("classic", 10, Lost, 30),
            record("classic", 5, Won, 20),
            record("classic", 3, Won, 40),
            record("classic", 7, GaveUp, 60),
            record("classic", 6, Won, 70),
        ]);
        // In end order: W W L W W G W -> longest 2, current 1.
        let f = figures(&store, "classic");
        assert_eq!(
            (
                f.played,
                f.outcomes.won,
                f.outcomes.lost,
                f.outcomes.gave_up
            ),
            (7, 5, 1, 1)
        );
        assert_eq!((f.current_streak, f.longest_streak), (1, 2));
        assert_eq!(f.outcomes.win_rate(), Some(5.0 / 7.0));
        assert_eq!(f.best, Some(3), "fewest guesses to win");
        assert_eq!(f.average, Some((6 + 5 + 3 + 4 + 6) as f64 / 5.0));
        let t = store.tally("guesswork", &fewest).unwrap();
        assert_eq!(t[0].tallied.ranked_scores, vec![6, 5, 3, 4, 6]);
        assert_eq!(t[0].tallied.not_won, 2);
    }

    #[test]
    fn assisted_and_seeded_games_are_played_and_won_but_not_ranked() {
        let mut assisted = record("classic", 2, Outcome::Won, 10);
        assisted.assisted = true;
        let mut seeded = record("classic", 3, Outcome::Won, 20);
        seeded.seeded = true;
        let store = store_with(&[assisted, seeded, record("classic", 6, Outcome::Won, 30)]);
        let f = figures(&store, "classic");
        assert_eq!(
            (f.played, f.outcomes.won, f.assisted, f.seeded),
            (3, 3, 1, 1)
        );
        assert_eq!((f.current_streak, f.longest_streak), (3, 3));
        assert_eq!((f.ranked, f.best), (1, Some(6)));
    }

    #[test]
    fn high_scores_rank_every_clean_game_and_unranked_variants_none() {
        let store = store_with(&[
            record("4x4", 100, Outcome::Lost, 10),
            record("4x4", 300, Outcome::Won, 20),
            record("maker", 4, Outcome::Done, 30),
        ]);
        let ranking = |o: &str| {
            if o == "maker" {
                Ranking::Unranked
            } else {
                Ranking::HighScore
            }
        };
        // The options of both variants are "{}": rank by variant through a store of distinct options instead.
        store
            .conn
            .execute("UPDATE games SET options = variant", [])
            .unwrap();
        let t = store.tally("guesswork", &ranking).unwrap();
        let f = &t
            .iter()
            .find(|t| t.variant == "4x4")
            .unwrap()
            .tallied
            .figures;
        assert_eq!((f.ranked, f.best, f.average), (2, Some(300), Some(200.0)));
        let m = &t.iter().find(|t| t.variant == "maker").unwrap().tallied;
        assert_eq!(
            (m.figures.played, m.figures.outcomes.done, m.figures.ranked),
            (1, 1, 0)
        );
        assert_eq!(m.figures.outcomes.win_rate(), None, "no game could be won");
        assert_eq!((m.figures.best, m.figures.average), (None, None));
        assert_eq!(m.ranked_scores, Vec::<i64>::new());
    }

    #[test]
    fn a_damaged_row_counts_only_as_damaged() {
        let store = store_with(&[
            record("classic", 5, Outcome::Won, 10),
            record("classic", 4, Outcome::Won, 30),
        ]);
        // Between the two wins, a row with an unknown result and one whose score is text.
        store
            .conn
            .execute_batch(
                "INSERT INTO games (game, variant, options, seed, moves, score, result, assisted, started_at,
                   ended_at) VALUES ('guesswork', 'classic', '{}', 1, '', 3, 'banana', 0, 0, 15);
                 INSERT INTO games (game, variant, options, seed, moves, score, result, assisted, started_at,
                   ended_at) VALUES ('guesswork', 'classic', '{}', 1, '', 'lots', 'won', 0, 0, 20);
                 INSERT INTO games (game, variant, options, seed, moves, score, result, assisted, started_at,
                   ended_at) VALUES ('guesswork', 'classic', '{}', 1, '', 2, 'lost', 'x', 0, 25);",
            )
            .unwrap();
        let f = figures(&store, "classic");
        assert_eq!((f.played, f.outcomes.won, f.damaged), (2, 2, 3));
        assert_eq!((f.current_streak, f.longest_streak), (2, 2));
        assert_eq!(f.best, Some(4));
    }

    #[test]
    fn variants_come_most_played_first() {
        let store = store_with(&[
            record("b", 5, Outcome::Won, 10),
            record("a", 5, Outcome::Won, 20),
            record("c", 5, Outcome::Won, 30),
            record("c", 5, Outcome::Won, 40),
        ]);
        let names: Vec<String> = store
            .tally("guesswork", &fewest)
            .unwrap()
            .into_iter()
            .map(|t| t.variant)
            .collect();
        assert_eq!(names, ["c", "a", "b"]);
    }

    #[test]
    fn recent_clean_games_are_newest_first_without_assisted_ones() {
        let mut assisted = record("classic", 2, Outcome::Won, 40);
        assisted.assisted = true;
        let store = store_with(&[
            record("classic", 5, Outcome::Won, 10),
            assisted,
            record("classic", 4, Outcome::Lost, 30),
        ]);
        let scores: Vec<i64> = store
            .recent_clean("guesswork", "classic", 10)
            .unwrap()
            .iter()
            .map(|r| r.score)
            .collect();
        assert_eq!(scores, [4, 5]);
        assert_eq!(
            store.recent_clean("guesswork", "classic", 1).unwrap().len(),
            1
        );
    }
}
