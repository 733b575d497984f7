//! Recorded player actions: slides and undos.

use std::fmt;
use std::str::FromStr;

use crate::direction::Direction;
use crate::error::ActionParseError;

/// One recorded action of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A slide that changed the board.
    Slide(Direction),
    /// An undo of the last slide.
    Undo,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Slide(d) => d.fmt(f),
            Action::Undo => f.write_str("undo"),
        }
    }
}

impl FromStr for Action {
    type Err = ActionParseError;

    /// `up`, `down`, `left`, `right` or `undo`, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("undo") {
            return Ok(Action::Undo);
        }
        s.parse::<Direction>()
            .map(Action::Slide)
            .map_err(|_| ActionParseError {
                position: 1,
                text: s.to_string(),
            })
    }
}

impl From<Direction> for Action {
    fn from(d: Direction) -> Self {
        Action::Slide(d)
    }
}

/// Formats actions separated by single spaces, e.g. `"up left undo down"`.
pub fn format_actions(actions: &[Action]) -> String {
    actions
        .iter()
        .map(Action::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a whitespace-separated action list (the inverse of [`format_actions`]); the error names the 1-based
/// position of the first bad word.
///
/// ```
/// use twenty48::{format_actions, parse_actions};
///
/// let actions = parse_actions("up LEFT undo down").unwrap();
/// assert_eq!(format_actions(&actions), "up left undo down");
/// assert_eq!(parse_actions("up sideways").unwrap_err().position, 2);
/// ```
pub fn parse_actions(s: &str) -> Result<Vec<Action>, ActionParseError> {
    s.split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            w.parse().map_err(|_| ActionParseError {
                position: i + 1,
                text: w.to_string(),
            })
        })
        .collect()
}
