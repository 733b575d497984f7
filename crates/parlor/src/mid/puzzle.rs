//! Learn from your mistakes: a finished game's marked moves ([`super::review::Review`]) as puzzles. Each puzzle is
//! the position before a marked move; the player plays a move there, the game's reviewer judges it
//! ([`super::game::Game::judge`]), and a move whose loss gets no mark counts as good (as good as the best, or close
//! enough). After two wrong tries the best moves are shown and the next puzzle follows. Generic: the model knows
//! moves as the game's notation and marks, and names no game.

use super::error::Error;
use super::game::{Game, Status, Turn};
use super::review::{Mark, Review, Reviewed};

/// How many wrong tries a puzzle takes before its best moves are shown.
pub const TRIES: usize = 2;

/// One puzzle: the position before a marked move.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// How many moves of the game were played before it (the position is the game after them).
    pub before: usize,
    /// The marked move's number in the game, from 1.
    pub number: usize,
    /// Who is to move (`black`), or `None` in a game for one.
    pub side: Option<String>,
    /// The move played in the game there, in the game's notation.
    pub played: String,
    /// Its mark.
    pub mark: Mark,
    /// The best moves there, in the game's notation.
    pub best: Vec<String>,
}

/// What a try at a puzzle led to.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A good move (no mark): solved, at this try (1 or 2).
    Solved(usize),
    /// Not good enough: its mark, and the tries left.
    TryAgain(Mark, usize),
    /// The last try was not good either: the best moves, shown.
    Shown(Vec<String>),
}

impl Step {
    /// What every face says of it: the move tried (`name`) as `judged`, solved, to try again, or with the best
    /// moves shown (`b1h: blunder (loss in 4). Try again: 1 try left.`).
    pub fn said(&self, name: &str, judged: &Reviewed) -> String {
        match self {
            Step::Solved(1) => format!("{name}: as good as the best ({}). Solved!", judged.after),
            Step::Solved(_) => format!(
                "{name}: as good as the best ({}). Solved at the second try.",
                judged.after
            ),
            Step::TryAgain(mark, left) => format!(
                "{name}: {} ({}). Try again: {left} {} left.",
                mark.name(),
                judged.after,
                if *left == 1 { "try" } else { "tries" }
            ),
            Step::Shown(best) => format!(
                "{name}: {} ({}). The best: {}.",
                judged.mark.name(),
                judged.after,
                best.join(", ")
            ),
        }
    }
}

/// How a puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Solved at this try.
    Solved(usize),
    /// Its best moves were shown.
    Shown,
}

/// A run of puzzles over one review's marked moves, in the game's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzles {
    list: Vec<Puzzle>,
    at: usize,
    wrong: usize,
    ended: Vec<Ended>,
}

impl Puzzles {
    /// The puzzles of `review`: one per marked move, in the game's order (none when no move is marked).
    pub fn of(review: &Review) -> Puzzles {
        let list = review
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.mark != Mark::None)
            .map(|(i, m)| Puzzle {
                before: i,
                number: m.number,
                side: m.side.clone(),
                played: m.played.clone(),
                mark: m.mark,
                best: m.best.clone(),
            })
            .collect();
        Puzzles {
            list,
            at: 0,
            wrong: 0,
            ended: Vec::new(),
        }
    }

    /// Only the puzzles `mine` keeps (the positions where the player is to move: a game against the computer
    /// leaves out the computer's marked moves).
    pub fn keeping(mut self, mine: impl Fn(&Puzzle) -> bool) -> Puzzles {
        self.list.retain(|p| mine(p));
        self
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there is none (no move was marked).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The puzzle being tried (its index, from 0), or `None` once every puzzle has ended.
    pub fn current(&self) -> Option<(usize, &Puzzle)> {
        self.list.get(self.at).map(|p| (self.at, p))
    }

    /// Whether the current puzzle has ended ([`Puzzles::go_on`] goes on), or the run is over.
    pub fn waiting(&self) -> bool {
        self.ended.len() > self.at || self.at >= self.list.len()
    }

    /// Takes the reviewer's judgement of the move tried at the current puzzle ([`super::game::Game::judge`]): no
    /// mark is solved; otherwise a try is used, and after the last the best moves are shown. Nothing while the
    /// current puzzle has already ended or the run is over (`None`).
    pub fn answer(&mut self, judged: &Reviewed) -> Option<Step> {
        if self.waiting() {
            return None;
        }
        let puzzle = self.list.get(self.at)?;
        if judged.mark == Mark::None {
            let tries = self.wrong + 1;
            self.ended.push(Ended::Solved(tries));
            return Some(Step::Solved(tries));
        }
        self.wrong += 1;
        if self.wrong >= TRIES {
            self.ended.push(Ended::Shown);
            return Some(Step::Shown(puzzle.best.clone()));
        }
        Some(Step::TryAgain(judged.mark, TRIES - self.wrong))
    }

    /// Gives up the current puzzle: its best moves are shown (as after the last wrong try).
    pub fn show(&mut self) -> Option<Vec<String>> {
        if self.waiting() {
            return None;
        }
        self.ended.push(Ended::Shown);
        self.list.get(self.at).map(|p| p.best.clone())
    }

    /// Goes on to the next puzzle once the current one has ended; returns whether there is one.
    pub fn go_on(&mut self) -> bool {
        if self.ended.len() > self.at {
            self.at += 1;
            self.wrong = 0;
        }
        self.at < self.list.len()
    }

    /// How each puzzle tried so far ended, in order.
    pub fn results(&self) -> &[Ended] {
        &self.ended
    }

    /// The puzzles of `review`, the review of game `G` played from `start` by `moves`, where the player was to
    /// move (against the computer, its own marked moves are left out: the player cannot play them); an error when
    /// the moves cannot be replayed.
    pub fn of_player<G: Game>(
        review: &Review,
        start: &G::State,
        moves: &[G::Move],
    ) -> Result<Puzzles, Error> {
        let mut at = start.clone();
        let mut players = Vec::with_capacity(moves.len());
        for mv in moves {
            players.push(G::status(&at) == Status::Playing(Turn::Player));
            G::apply(&mut at, mv)?;
        }
        Ok(Puzzles::of(review).keeping(|p| players.get(p.before).copied().unwrap_or(false)))
    }

    /// The line over the board, the same on every face: which puzzle, whose move, and what was played in the game
    /// (`Puzzle 1 of 2 · move 3 · black to move · played in the game: b1h ?? blunder`), or the tally once done.
    pub fn status(&self) -> String {
        match self.current() {
            Some((i, p)) => {
                let side = p
                    .side
                    .as_deref()
                    .map_or(String::new(), |s| format!(" · {s} to move"));
                format!(
                    "Puzzle {} of {} · move {}{side} · played in the game: {} {} {}",
                    i + 1,
                    self.len(),
                    p.number,
                    p.played,
                    p.mark.glyph(),
                    p.mark.name()
                )
            }
            None => format!("Done: {}", self.tally()),
        }
    }

    /// The run's one line: `2 of 3 solved` (so far, while it goes on).
    pub fn tally(&self) -> String {
        let solved = self
            .ended
            .iter()
            .filter(|e| matches!(e, Ended::Solved(_)))
            .count();
        format!("{solved} of {} solved", self.list.len())
    }
}
