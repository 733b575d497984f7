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
/// the lowest guess in numeric order. The exact scores and credits are in RULES.md ("Computer
/// strategies").
///
/// ```
/// use mastermind::Strategy;
/// assert_eq!("expected-size".parse::<Strategy>(), Ok(Strategy::ExpectedSize));
/// assert_eq!(Strategy::Knuth.to_string(), "knuth");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Knuth's minimax: minimise the largest part.
    Knuth,
    /// Irving's: minimise the expected size of the part left, i.e. the sum of squared part sizes.
    ExpectedSize,
    /// Neuwirth's: maximise the entropy of the split, -sum p log p.
    Entropy,
    /// Kooi's: maximise the number of non-empty parts.
    MostParts,
    /// Minimise the total (average) number of guesses over all secrets, by exhaustive search.
    Optimal,
}

impl Strategy {
    /// Every strategy, in a fixed order.
    pub const ALL: [Strategy; 5] = [
        Strategy::Knuth,
        Strategy::ExpectedSize,
        Strategy::Entropy,
        Strategy::MostParts,
        Strategy::Optimal,
    ];

    /// The name used in text: `knuth`, `expected-size`, `entropy`, `most-parts`, `optimal`.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Knuth => "knuth",
            Strategy::ExpectedSize => "expected-size",
            Strategy::Entropy => "entropy",
            Strategy::MostParts => "most-parts",
            Strategy::Optimal => "optimal",
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
#[error("unknown strategy '{0}' (knuth, expected-size, entropy, most-parts, optimal)")]
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

/// The entropy score of a split, sum of n log2 n (lower is better).
fn entropy_score(counts: &[u32]) -> f64 {
    counts
        .iter()
        .filter(|&&c| c > 1)
        .map(|&c| {
            let x = f64::from(c);
            x * x.log2()
        })
        .sum()
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

/// The `width` best canonical guesses for `cands` by entropy, best first (ties: a candidate first, then
/// numeric order), scoring the guesses on rayon's pool for large sets. With `width = 1` this is the
/// entropy strategy's choice up to float ties.
pub(crate) fn entropy_rank(space: &Space, cands: &[u32], sym: &Sym, width: usize) -> Vec<u32> {
    use rayon::prelude::*;
    let score_of = |g: u32| -> Option<(i64, bool, u32)> {
        if !sym.is_trivial() && !sym.is_canonical(&space.codes[g as usize]) {
            return None;
        }
        let mut counts = [0u32; 81];
        space.counts(g, cands, &mut counts);
        let nonwin = counts[..space.nclass]
            .iter()
            .enumerate()
            .filter(|&(c, &k)| k > 0 && c != usize::from(space.win_class))
            .count();
        let is_cand = counts[usize::from(space.win_class)] > 0;
        if nonwin == 1 && !is_cand {
            return None; // tells nothing
        }
        let s = entropy_score(&counts[..space.nclass]);
        // Quantised so that equal splits in another class order tie exactly.
        Some(((s * 1e6).round() as i64, !is_cand, g))
    };
    let mut scored: Vec<(i64, bool, u32)> = if cands.len() >= 256 {
        space
            .guesses
            .par_iter()
            .filter_map(|&g| score_of(g))
            .collect()
    } else {
        space.guesses.iter().filter_map(|&g| score_of(g)).collect()
    };
    let width = width.max(1).min(scored.len());
    if width < scored.len() {
        scored.select_nth_unstable(width - 1);
        scored.truncate(width);
    }
    scored.sort_unstable();
    scored.into_iter().map(|(_, _, g)| g).collect()
}
