//! Error types of the 2048 engine.

use thiserror::Error;

use crate::action::Action;

/// A direction name that is not `up`, `down`, `left` or `right`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown direction {0:?} (expected up, down, left or right)")]
pub struct DirectionParseError(pub String);

/// An action that is not a direction or `undo`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown action {text:?} at position {position} (expected up, down, left, right or undo)")]
pub struct ActionParseError {
    /// 1-based position of the bad word in the action list (1 for a single action).
    pub position: usize,
    /// The word that could not be parsed.
    pub text: String,
}

/// Invalid game parameters.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RulesError {
    /// The board size is outside 3..=8.
    #[error("board size {0} is not supported (expected 3 to 8)")]
    BadSize(usize),
    /// The probability of a 4 is not within 0..=1.
    #[error("probability of a 4 must be between 0 and 1, got {0}")]
    BadFourChance(f64),
    /// The target is not a power of two of at least 8.
    #[error("target tile must be a power of two of at least 8, got {0}")]
    BadTarget(u64),
}

/// Why a single cell of the board notation was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CellError {
    /// The cell is empty (e.g. `2,,4`).
    #[error("empty cell")]
    Missing,
    /// Not a number, `0` or `.`.
    #[error("not a number")]
    NotANumber,
    /// A number that is not a power of two of at least 2.
    #[error("not a power of two of at least 2")]
    NotATile,
}

/// A board in the `2,2,0,0/0,4,0,0/...` notation that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardParseError {
    /// The text holds no rows at all.
    #[error("empty board")]
    Empty,
    /// The number of rows is not a supported board size.
    #[error("{0} rows: a board must have 3 to 8 rows")]
    BadSize(usize),
    /// A row does not have as many cells as the board has rows.
    #[error("row {row} has {found} cells, expected {expected}")]
    RowLength {
        /// 1-based row number.
        row: usize,
        /// Cells found in that row.
        found: usize,
        /// Cells expected (the number of rows).
        expected: usize,
    },
    /// One cell is not a tile, `0` or `.`.
    #[error("row {row}, cell {col}: {text:?}: {reason}")]
    BadCell {
        /// 1-based row number.
        row: usize,
        /// 1-based cell number within the row.
        col: usize,
        /// The offending text.
        text: String,
        /// Why it was refused.
        reason: CellError,
    },
}

/// A slide that the game refuses; the game is left untouched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SlideError {
    /// Nothing would move or merge: not a turn.
    #[error("nothing moves in that direction")]
    NoChange,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A merge would make a tile above 2^63, the largest a tile can be (RULES.md, 2048): the slide is refused.
    #[error(
        "that slide would merge two 2^63 tiles into 2^64, which a tile cannot hold (the largest is 2^63): it is refused"
    )]
    TileTooLarge,
    /// The slide's points would pass 2^64 - 1, the most a score can hold: the slide is refused.
    #[error("that slide would score 2^64 points or more, which a score cannot hold: it is refused")]
    PointsTooLarge,
}

/// An undo that is not possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum UndoError {
    /// No move has been made since the start (or all were undone).
    #[error("nothing to undo")]
    NothingToUndo,
}

/// A recorded action list that cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// A slide was refused.
    #[error("action {index} ({action}): {error}")]
    Slide {
        /// 0-based index in the action list.
        index: usize,
        /// The action.
        action: Action,
        /// Why it was refused.
        error: SlideError,
    },
    /// An undo was refused.
    #[error("action {index} (undo): {error}")]
    Undo {
        /// 0-based index in the action list.
        index: usize,
        /// Why it was refused.
        error: UndoError,
    },
}

/// An evaluation name that is not `heuristic` or `network`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown evaluation {0:?} (expected heuristic or network)")]
pub struct EvalKindError(pub String);

/// Stage thresholds a network cannot have (see [`crate::ai::ntuple::check_stages`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StagesError {
    /// More than four stages (three thresholds).
    #[error("{0} stages, at most {max} are allowed", max = crate::ai::ntuple::MAX_STAGES)]
    TooMany(usize),
    /// A threshold that is not an exponent from 1 to 15.
    #[error("stage thresholds {0:?}: each is an exponent from 1 to 15")]
    OutOfRange(Vec<u8>),
    /// Thresholds that do not rise strictly.
    #[error("stage thresholds {0:?} must rise strictly")]
    NotRising(Vec<u8>),
}
