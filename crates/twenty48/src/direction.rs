//! The four slide directions.

use std::fmt;
use std::str::FromStr;

use crate::error::DirectionParseError;

/// A direction in which all tiles slide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Toward row 0 (the top).
    Up,
    /// Toward the last row (the bottom).
    Down,
    /// Toward column 0.
    Left,
    /// Toward the last column.
    Right,
}

impl Direction {
    /// All four directions, in the order up, down, left, right.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The lowercase name: `"up"`, `"down"`, `"left"` or `"right"`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    /// Index of this direction in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Direction {
    type Err = DirectionParseError;

    /// Parses `up`, `down`, `left` or `right`, ignoring case and surrounding spaces.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        Direction::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| DirectionParseError(s.to_string()))
    }
}
