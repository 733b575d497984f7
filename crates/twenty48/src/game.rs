//! A game in progress: board, score, status, seeded spawns, undo and replay.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::action::Action;
use crate::board::Board;
use crate::direction::Direction;
use crate::error::{ReplayError, SlideError, UndoError};
use crate::rules::Rules;
use crate::spawn::spawn;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Playing,
    /// The target tile was just reached: the player decides whether to keep going ([`Game::keep_going`], or simply
    /// slide again).
    Won,
    /// No legal move is left.
    Over,
}

/// What one accepted slide did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Points gained by merges.
    pub gained: u64,
    /// The spawned tile: (row, col, value).
    pub spawned: (usize, usize, u64),
    /// Cells holding a tile created by a merge (row-major order).
    pub merged: Vec<(usize, usize)>,
    /// True if this move created the target tile for the first time.
    pub reached_target_now: bool,
    /// True if no legal move is left after this move and its spawn.
    pub over: bool,
}

#[derive(Debug, Clone, Copy)]
struct Snapshot {
    board: Board,
    score: u64,
    status: Status,
    reached_target: bool,
    rng_word_pos: u128,
}

/// A seeded game of 2048.
///
/// Every random choice comes from a `ChaCha8Rng` seeded with the game's seed (see [`crate::spawn`] for the exact
/// draws), so the seed plus the action list replays the game exactly.
///
/// ```
/// use twenty48::{Action, Direction, Game, Rules};
///
/// let mut game = Game::new(Rules::default(), 42);
/// let dir = Direction::ALL.into_iter().find(|&d| game.board().can_slide(d)).unwrap();
/// let turn = game.slide(dir).unwrap();
/// assert_eq!(game.score(), turn.gained);
/// game.undo().unwrap();
/// let again = game.slide(dir).unwrap();
/// assert_eq!(again.spawned, turn.spawned); // undo restores the random state too
/// let replayed = Game::replay(Rules::default(), 42, game.actions()).unwrap();
/// assert_eq!(replayed.board(), game.board());
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    rules: Rules,
    seed: u64,
    rng: ChaCha8Rng,
    board: Board,
    score: u64,
    status: Status,
    reached_target: bool,
    actions: Vec<Action>,
    history: Vec<Snapshot>,
}

impl Game {
    /// A new game: an empty board and two spawned tiles.
    pub fn new(rules: Rules, seed: u64) -> Game {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Rules guarantees a valid size.
        let mut board =
            Board::new(rules.size()).unwrap_or_else(|_| unreachable!("Rules holds a valid size"));
        for _ in 0..2 {
            spawn(&mut board, &mut rng, rules.four_chance());
        }
        Game {
            rules,
            seed,
            rng,
            board,
            score: 0,
            status: Status::Playing,
            reached_target: false,
            actions: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Replays `actions` from a new game with this seed.
    pub fn replay(rules: Rules, seed: u64, actions: &[Action]) -> Result<Game, ReplayError> {
        let mut game = Game::new(rules, seed);
        for (index, &action) in actions.iter().enumerate() {
            match action {
                Action::Slide(d) => {
                    game.slide(d).map_err(|error| ReplayError::Slide {
                        index,
                        action,
                        error,
                    })?;
                }
                Action::Undo => game
                    .undo()
                    .map_err(|error| ReplayError::Undo { index, error })?,
            }
        }
        Ok(game)
    }

    /// The game's parameters.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The current score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The seed of the game's random generator.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every accepted action so far, undos included: with the seed, enough to replay the game.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Slides in effect (slides made minus slides undone).
    pub fn moves_made(&self) -> usize {
        self.history.len()
    }

    /// Number of undos made.
    pub fn undo_count(&self) -> usize {
        self.actions.iter().filter(|a| **a == Action::Undo).count()
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the target tile has been reached (stays true after keeping going).
    pub fn reached_target(&self) -> bool {
        self.reached_target
    }

    /// After a win, go on playing (status back to [`Status::Playing`]). Does nothing in any other status.
    pub fn keep_going(&mut self) {
        if self.status == Status::Won {
            self.status = Status::Playing;
        }
    }

    /// Whether there is a slide to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// Slides, spawns a tile and records the move. A slide that changes nothing is refused
    /// ([`SlideError::NoChange`]) and leaves the game untouched, as does any slide once the game is over and one
    /// whose tile or points cannot be held ([`SlideError::TileTooLarge`], [`SlideError::PointsTooLarge`]).
    /// Sliding while [`Status::Won`] keeps going implicitly.
    pub fn slide(&mut self, dir: Direction) -> Result<Turn, SlideError> {
        if self.status == Status::Over {
            return Err(SlideError::GameOver);
        }
        // A slide whose tile or points cannot be held is refused here, with its reason (RULES.md, 2048).
        let slide = self.board.try_slide(dir)?;
        if !slide.moved {
            return Err(SlideError::NoChange);
        }
        self.history.push(Snapshot {
            board: self.board,
            score: self.score,
            status: self.status,
            reached_target: self.reached_target,
            rng_word_pos: self.rng.get_word_pos(),
        });
        self.actions.push(Action::Slide(dir));
        self.board = slide.board;
        self.score = self.score.saturating_add(slide.gained);
        let spawned = spawn(&mut self.board, &mut self.rng, self.rules.four_chance())
            .unwrap_or_else(|| unreachable!("a slide that moved leaves an empty cell"));
        let reached_target_now =
            !self.reached_target && self.board.max_tile() >= self.rules.target();
        if reached_target_now {
            self.reached_target = true;
        }
        let over = self.board.is_game_over();
        self.status = if over {
            Status::Over
        } else if reached_target_now {
            Status::Won
        } else {
            Status::Playing
        };
        Ok(Turn {
            gained: slide.gained,
            spawned,
            merged: slide.merged,
            reached_target_now,
            over,
        })
    }

    /// Takes back the last slide: board, score, status and random state are restored. Recorded as [`Action::Undo`].
    pub fn undo(&mut self) -> Result<(), UndoError> {
        let snap = self.history.pop().ok_or(UndoError::NothingToUndo)?;
        self.board = snap.board;
        self.score = snap.score;
        self.status = snap.status;
        self.reached_target = snap.reached_target;
        self.rng.set_word_pos(snap.rng_word_pos);
        self.actions.push(Action::Undo);
        Ok(())
    }
}

#[cfg(test)]
mod largest_tile_tests {
    use super::*;

    /// RULES.md, 2048, "Tiles are never capped": a slide that would merge two 2^63 tiles is refused with its reason,
    /// and the game is left untouched (board, score, moves).
    #[test]
    fn a_game_refuses_a_slide_it_cannot_hold_and_stays_as_it_was() {
        let mut game = Game::new(Rules::new(3, 0.1, 2048).unwrap(), 1);
        game.board = "9223372036854775808,9223372036854775808,2/4,8,16/32,64,128"
            .parse()
            .unwrap();
        let (board, score, moves) = (*game.board(), game.score(), game.actions().len());
        assert_eq!(game.slide(Direction::Left), Err(SlideError::TileTooLarge));
        assert_eq!(
            (*game.board(), game.score(), game.actions().len()),
            (board, score, moves)
        );
        assert!(!game.can_undo());
    }
}
