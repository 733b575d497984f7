//! The two sides.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A side: Black (home row 0, moves first by default) or White (home row = the last row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The player whose home row is row 0; moves first by default.
    Black,
    /// The player whose home row is the last row.
    White,
}

impl Colour {
    /// Both colours, Black first.
    pub const ALL: [Colour; 2] = [Colour::Black, Colour::White];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// 0 for Black, 1 for White (for indexing tables).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter: `b` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Black => 'b',
            Colour::White => 'w',
        }
    }

    /// The colour for a notation letter `b`/`w` (either case).
    pub const fn from_letter(c: char) -> Option<Colour> {
        match c {
            'b' | 'B' => Some(Colour::Black),
            'w' | 'W' => Some(Colour::White),
            _ => None,
        }
    }

    /// The lower-case name, `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing a [`Colour`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown colour {0:?}: expected b, w, black or white")]
pub struct ColourParseError(pub String);

impl FromStr for Colour {
    type Err = ColourParseError;

    /// Accepts `b`, `w`, `black`, `white` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Colour::Black),
            "w" | "white" => Ok(Colour::White),
            _ => Err(ColourParseError(s.to_string())),
        }
    }
}
