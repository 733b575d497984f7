//! Playing out every secret of a variant with a strategy: the report and its errors.

use std::fmt;

use thiserror::Error;

use crate::strategy::Strategy;
use crate::tree::StrategyTree;
use crate::variant::Variant;

/// The figures of a strategy over all secrets of a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// Guesses used, summed over all secrets.
    pub total: u64,
    /// Number of secrets.
    pub codes: u64,
    /// `total / codes`.
    pub average: f64,
    /// The most guesses any secret needs.
    pub max: u32,
    /// `histogram[k]` = number of secrets found with exactly `k` guesses (`histogram[0]` is 0).
    pub histogram: Vec<u64>,
}

impl SolveReport {
    pub(crate) fn new(total: u64, codes: u64, max: u32, mut histogram: Vec<u64>) -> SolveReport {
        histogram.truncate(max as usize + 1);
        histogram.resize(max as usize + 1, 0);
        let average = if codes == 0 {
            0.0
        } else {
            total as f64 / codes as f64
        };
        SolveReport {
            total,
            codes,
            average,
            max,
            histogram,
        }
    }
}

impl fmt::Display for SolveReport {
    /// `total 5801 over 1296 codes, average 4.476, max 5, histogram [0, 1, 6, 62, 533, 694]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "total {} over {} codes, average {:.3}, max {}, histogram {:?}",
            self.total, self.codes, self.average, self.max, self.histogram
        )
    }
}

/// Why a strategy could not be computed or failed its check.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The variant has too many codes for this computation.
    #[error("the variant has {codes} codes, more than the {limit} this computation handles")]
    TooLarge {
        /// codes in the variant
        codes: u64,
        /// the limit
        limit: u64,
    },
    /// No strategy finds every secret within the variant's guesses.
    #[error("no strategy finds every secret within {guesses} guesses")]
    Infeasible {
        /// the variant's guess limit
        guesses: u32,
    },
    /// A strategy chose a guess that tells nothing (internal error).
    #[error("internal error: guess {guess} does not split the candidates")]
    NoProgress {
        /// the guess
        guess: String,
    },
    /// The replay could not follow the tree for a secret (internal error).
    #[error("internal error: secret {secret}: {reason}")]
    Broken {
        /// the secret
        secret: String,
        /// what went wrong
        reason: String,
    },
    /// The computation was stopped through its cancellation flag before it finished.
    #[error("the computation was cancelled")]
    Cancelled,
    /// The best tree compiled into the engine cannot be read (a damaged build), or none is kept for
    /// the variant.
    #[error("no stored best tree: {0}")]
    NoStoredTree(String),
    /// The replay disagrees with what the solver claimed (internal error).
    #[error("internal error: the solver claimed {claimed} but the replay gives {replayed}")]
    Mismatch {
        /// the solver's figures
        claimed: String,
        /// the replay's figures
        replayed: String,
    },
}

/// Plays out every secret of `variant` with `strategy`: builds the strategy tree, replays each secret
/// against it with the plain feedback function, and checks the totals against the tree's claim.
///
/// `progress(done, total)` is called now and then. Heuristics handle up to 65536 codes (Super
/// Mastermind takes seconds); the optimal search handles up to 6000 codes and honours the guess limit.
/// A heuristic's `max` may exceed the variant's guess limit (see [`SolveReport::max`]).
///
/// ```
/// use mastermind::{solve_all, Strategy, Variant};
/// let r = solve_all(&Variant::CLASSIC, Strategy::Knuth, &mut |_, _| {}).unwrap();
/// assert_eq!((r.total, r.codes, r.max), (5801, 1296, 5));
/// assert_eq!(r.histogram, vec![0, 1, 6, 62, 533, 694]);
/// ```
pub fn solve_all(
    variant: &Variant,
    strategy: Strategy,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<SolveReport, SolveError> {
    StrategyTree::build_with_progress(variant, strategy, progress)?.verify()
}
