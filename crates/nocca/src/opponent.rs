//! The computer's level as a player chooses it: one of the engine's four search levels, or perfect play from a
//! solved table.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::Level;

/// How the computer plays: the engine at a search [`Level`], or the [`PerfectPlayer`](crate::PerfectPlayer) on a
/// solved board. Its text form is the level's name (`beginner` ... `expert`) or `perfect`, so a saved choice of a
/// search level reads the same as a [`Level`].
///
/// ```
/// use nocca::{Level, Opponent};
/// assert_eq!("expert".parse::<Opponent>().unwrap(), Opponent::Engine(Level::Expert));
/// assert_eq!("perfect".parse::<Opponent>().unwrap(), Opponent::Perfect);
/// assert_eq!("5".parse::<Opponent>().unwrap(), Opponent::Perfect);
/// assert_eq!(Opponent::Perfect.to_string(), "perfect");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opponent {
    /// The search engine at this level.
    Engine(Level),
    /// Perfect play from the board's solved table.
    Perfect,
}

/// Error from parsing an [`Opponent`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown level {0:?}: expected beginner, casual, strong, expert, perfect or 1-5")]
pub struct OpponentParseError(pub String);

impl Opponent {
    /// Every choice, weakest first.
    pub const ALL: [Opponent; 5] = [
        Opponent::Engine(Level::Beginner),
        Opponent::Engine(Level::Casual),
        Opponent::Engine(Level::Strong),
        Opponent::Engine(Level::Expert),
        Opponent::Perfect,
    ];

    /// Lower-case name (`casual`, `perfect`).
    pub const fn name(self) -> &'static str {
        match self {
            Opponent::Engine(l) => l.name(),
            Opponent::Perfect => "perfect",
        }
    }

    /// The search level, if the engine plays.
    pub const fn level(self) -> Option<Level> {
        match self {
            Opponent::Engine(l) => Some(l),
            Opponent::Perfect => None,
        }
    }
}

impl From<Level> for Opponent {
    fn from(l: Level) -> Opponent {
        Opponent::Engine(l)
    }
}

impl PartialEq<Level> for Opponent {
    fn eq(&self, other: &Level) -> bool {
        *self == Opponent::Engine(*other)
    }
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Opponent {
    type Err = OpponentParseError;

    /// A level as [`Level`] reads it, or `perfect` (any case, a prefix such as `p`) or `5`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if t == "5" || (!t.is_empty() && "perfect".starts_with(&t)) {
            return Ok(Opponent::Perfect);
        }
        t.parse::<Level>()
            .map(Opponent::Engine)
            .map_err(|_| OpponentParseError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip() {
        for (i, o) in Opponent::ALL.into_iter().enumerate() {
            assert_eq!(o.name().parse::<Opponent>().unwrap(), o);
            assert_eq!((i + 1).to_string().parse::<Opponent>().unwrap(), o);
        }
        assert_eq!("EXP".parse::<Opponent>().unwrap(), Level::Expert);
        assert_eq!("P".parse::<Opponent>().unwrap(), Opponent::Perfect);
        for bad in ["", "0", "6", "god", "perfectly"] {
            assert!(bad.parse::<Opponent>().is_err(), "{bad}");
        }
    }
}
