//! Codebreaking strategies: the four classic one-step heuristics and the optimal search.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::heuristic::Chooser;
use crate::solve::SolveError;
use crate::space::Space;
use crate::sym::Sym;
use crate::tree::{StrategyTree, build_tree};

/// A codebreaking strategy.
///
/// The heuristics score each allowed guess by how it splits the candidates (the codes still consistent
/// with every answer) into parts by feedback, a guess that could still be the secret being credited for
/// it; before scoring, with two candidates or fewer the first is played, and a candidate that splits the
/// candidates into parts of one each is played at once (the first in numeric order). Tie-break, pinned:
/// the lowest guess in numeric order. The exact scores and credits are in RULES.md ("Strategies").
///
/// [`Strategy::Knuth`] is Knuth's published rule (1976/77): the smallest largest part, a candidate preferred
/// among equals, then the lowest code; it totals 5801 guesses over the 1296 secrets of the classic game.
/// [`Strategy::KnuthSorted`] refines its ties by the next largest parts, and totals 5778.
///
/// ```
/// use mastermind::Strategy;
/// assert_eq!("expected-size".parse::<Strategy>(), Ok(Strategy::ExpectedSize));
/// assert_eq!(Strategy::Knuth.to_string(), "knuth");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Knuth's minimax as he published it: minimise the largest part; among equals a guess that could be the
    /// secret, then the lowest code.
    Knuth,
    /// Knuth's minimax with a finer tie rule: the part sizes sorted from the largest down, compared in turn
    /// (the all-black part counted as 0), then the lowest code.
    KnuthSorted,
    /// Irving's: minimise the expected size of the part left, i.e. the sum of squared part sizes.
    ExpectedSize,
    /// Neuwirth's: maximise the entropy of the split, -sum p log p.
    Entropy,
    /// Kooi's: maximise the number of non-empty parts.
    MostParts,
    /// Minimise the total (average) number of guesses over all secrets, by exhaustive search.
    Optimal,
    /// The best tree Parlor has for the variant: on Super Mastermind the tree the anytime lookahead
    /// search found, compiled into the engine ([`crate::stored_tree`]); on every other variant the same as
    /// [`Strategy::Optimal`] ([`Strategy::resolved`]). Off its tree it plays as entropy.
    Best,
}

impl Strategy {
    /// Every strategy, in a fixed order.
    pub const ALL: [Strategy; 7] = [
        Strategy::Knuth,
        Strategy::KnuthSorted,
        Strategy::ExpectedSize,
        Strategy::Entropy,
        Strategy::MostParts,
        Strategy::Optimal,
        Strategy::Best,
    ];

    /// The name used in text: `knuth`, `knuth-sorted`, `expected-size`, `entropy`, `most-parts`, `optimal`,
    /// `best`.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Knuth => "knuth",
            Strategy::KnuthSorted => "knuth-sorted",
            Strategy::ExpectedSize => "expected-size",
            Strategy::Entropy => "entropy",
            Strategy::MostParts => "most-parts",
            Strategy::Optimal => "optimal",
            Strategy::Best => "best",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown strategy name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "unknown strategy '{0}' (knuth, knuth-sorted, expected-size, entropy, most-parts, optimal, best)"
)]
pub struct StrategyParseError(pub String);

impl FromStr for Strategy {
    type Err = StrategyParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase().replace('_', "-");
        Strategy::ALL
            .into_iter()
            .find(|st| st.name() == lower)
            .ok_or_else(|| StrategyParseError(s.to_string()))
    }
}

/// The tree of a heuristic strategy over the whole space.
pub(crate) fn heuristic_tree(
    space: &Space,
    strategy: Strategy,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StrategyTree, SolveError> {
    let mut chooser = Chooser::new(space, strategy);
    let mut pick = |cands: &[u32], sym: &Sym, _depth: u32| {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(SolveError::Cancelled);
        }
        Ok(chooser.choose(cands, sym))
    };
    build_tree(space, strategy, &mut pick, progress)
}
