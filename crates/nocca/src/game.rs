//! A game: position, history, outcome (goal, blockade, repetition, ply cap), undo and records.

use std::fmt;

use thiserror::Error;

use crate::{Colour, Dims, IllegalMove, Move, MoveList, MoveParseError, Position};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A piece stepped into the goal.
    Goal,
    /// The side to move had no legal move and lost.
    Blockade,
    /// The same position with the same side to move occurred for the third time (draw).
    Repetition,
    /// The ply cap was reached (draw).
    PlyCap,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Goal => "goal",
            Reason::Blockade => "blockade",
            Reason::Repetition => "threefold repetition",
            Reason::PlyCap => "ply cap",
        })
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Colour>,
    /// How the game ended.
    pub reason: Reason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

/// Game options (the house rules for draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOptions {
    /// Draw when a position (with the same side to move) occurs for the third time. Default: on.
    pub repetition_draw: bool,
    /// Draw after this many plies; `None` for no cap. Default: 500.
    pub ply_cap: Option<u32>,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            repetition_draw: true,
            ply_cap: Some(500),
        }
    }
}

/// Error from [`Game::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move breaks a rule.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// Error from [`Game::replay`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// A move text does not parse.
    #[error("move {index} ({text:?}): {error}")]
    Parse {
        /// 1-based index in the record.
        index: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: MoveParseError,
    },
    /// A move cannot be played.
    #[error("move {index} ({text:?}): {error}")]
    Play {
        /// 1-based index in the record.
        index: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: PlayError,
    },
}

/// A game in progress or finished.
///
/// ```
/// use nocca::{Dims, Game, GameOptions};
/// let mut g = Game::new(Dims::STANDARD, GameOptions::default());
/// g.play("c1k".parse().unwrap()).unwrap();
/// g.play("c6j".parse().unwrap()).unwrap();
/// assert_eq!(g.record(), "c1k c6j");
/// let again = Game::replay(*g.start(), GameOptions::default(), &g.record()).unwrap();
/// assert_eq!(again.position(), g.position());
/// g.undo();
/// assert_eq!(g.record(), "c1k");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    options: GameOptions,
    /// positions[0] is the start; positions[i] follows moves[i - 1].
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the start position, Black to move.
    pub fn new(dims: Dims, options: GameOptions) -> Game {
        Game::from_position(Position::start(dims), options)
    }

    /// A game starting from any position (checked for blockade at once).
    pub fn from_position(start: Position, options: GameOptions) -> Game {
        let mut g = Game {
            options,
            positions: vec![start],
            moves: Vec::new(),
            outcome: None,
        };
        g.outcome = g.judge(None);
        g
    }

    /// Replays a record (moves in their text form separated by whitespace) from a start position.
    pub fn replay(
        start: Position,
        options: GameOptions,
        record: &str,
    ) -> Result<Game, ReplayError> {
        let mut g = Game::from_position(start, options);
        for (i, text) in record.split_whitespace().enumerate() {
            let mv: Move = text.parse().map_err(|error| ReplayError::Parse {
                index: i + 1,
                text: text.to_string(),
                error,
            })?;
            g.play(mv).map_err(|error| ReplayError::Play {
                index: i + 1,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(g)
    }

    /// The options.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The current position (after a goal move, the scoring piece is gone).
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position so far, start first, current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Colour {
        self.position().side_to_move()
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Legal moves (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How many times the current position (with its side to move) has occurred, this one included.
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        self.positions.iter().filter(|p| *p == cur).count()
    }

    /// Plays a move; returns the outcome if it ended the game. On error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::GameOver(o));
        }
        let pos = *self.position();
        pos.check(mv)?;
        let goal = pos.is_goal_move(mv);
        let mut next = pos;
        next.play_unchecked(mv);
        self.positions.push(next);
        self.moves.push(mv);
        self.outcome = self.judge(goal.then_some(pos.side_to_move()));
        Ok(self.outcome)
    }

    fn judge(&self, goal_by: Option<Colour>) -> Option<Outcome> {
        if let Some(c) = goal_by {
            return Some(Outcome {
                winner: Some(c),
                reason: Reason::Goal,
            });
        }
        let pos = self.position();
        if !pos.has_moves() {
            return Some(Outcome {
                winner: Some(pos.side_to_move().opponent()),
                reason: Reason::Blockade,
            });
        }
        if self.options.repetition_draw && self.repetitions() >= 3 {
            return Some(Outcome {
                winner: None,
                reason: Reason::Repetition,
            });
        }
        if let Some(cap) = self.options.ply_cap
            && self.moves.len() >= cap as usize
        {
            return Some(Outcome {
                winner: None,
                reason: Reason::PlyCap,
            });
        }
        None
    }

    /// Takes back the last move (also after the game ended); returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.outcome = self.judge(None);
        Some(mv)
    }

    /// The moves as text, separated by single spaces (see [`Move`]'s Display).
    pub fn record(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Hashes of the positions before the current one (for repetition-aware search).
    pub fn history_hashes(&self) -> Vec<u64> {
        let n = self.positions.len();
        self.positions[..n.saturating_sub(1)]
            .iter()
            .map(|p| p.hash())
            .collect()
    }
}
