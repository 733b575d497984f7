//! The best strategy trees Parlor keeps in the engine: Super Mastermind's, found by the anytime search
//! ([`crate::anytime_search`]) and compiled in as a compact tree (`data/super-best.pmct`, see
//! [`crate::compact`]). It is read, checked and replayed against every secret at first use.
//!
//! [`Strategy::Best`] plays from it on Super Mastermind; on every other variant `best` is `optimal`.

use std::sync::{Arc, OnceLock};

use crate::compact::{CompactError, from_compact};
use crate::solve::SolveError;
use crate::strategy::Strategy;
use crate::tree::StrategyTree;
use crate::variant::Variant;

/// Super Mastermind's best tree, as [`crate::to_compact`] writes it.
const SUPER_BEST: &[u8] = include_bytes!("../data/super-best.pmct");

/// The total number of guesses of the stored Super Mastermind tree over its 32,768 secrets.
pub const SUPER_BEST_TOTAL: u64 = 178_785;
/// The most guesses any secret needs with the stored Super Mastermind tree.
pub const SUPER_BEST_MAX: u32 = 7;

/// The variant that has a stored best tree.
fn has_stored(variant: &Variant) -> bool {
    *variant == Variant::SUPER
}

/// The stored best tree of `variant`: `None` for a variant without one, else the tree read and replayed
/// against every secret at first use (an error if the compiled-in bytes are damaged).
pub fn stored_tree(variant: &Variant) -> Option<Result<Arc<StrategyTree>, CompactError>> {
    static SUPER: OnceLock<Result<Arc<StrategyTree>, CompactError>> = OnceLock::new();
    if !has_stored(variant) {
        return None;
    }
    Some(
        SUPER
            .get_or_init(|| from_compact(SUPER_BEST, Strategy::Best).map(Arc::new))
            .clone(),
    )
}

/// The stored tree of `variant` as an owned tree, for [`StrategyTree::build`] with [`Strategy::Best`].
pub(crate) fn stored_best(variant: &Variant) -> Result<StrategyTree, SolveError> {
    match stored_tree(variant) {
        Some(Ok(tree)) => Ok((*tree).clone()),
        Some(Err(e)) => Err(SolveError::NoStoredTree(e.to_string())),
        None => Err(SolveError::NoStoredTree(format!(
            "none is kept for {variant}"
        ))),
    }
}

impl Strategy {
    /// The strategy that is actually played for this one on `variant`: [`Strategy::Best`] stays itself
    /// where the engine keeps a best tree (Super Mastermind) and is [`Strategy::Optimal`] elsewhere; every
    /// other strategy is itself.
    pub fn resolved(self, variant: &Variant) -> Strategy {
        if self == Strategy::Best && !has_stored(variant) {
            Strategy::Optimal
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_resolves_to_optimal_without_a_stored_tree() {
        assert_eq!(
            Strategy::Best.resolved(&Variant::CLASSIC),
            Strategy::Optimal
        );
        assert_eq!(Strategy::Best.resolved(&Variant::SUPER), Strategy::Best);
        assert_eq!(
            Strategy::Entropy.resolved(&Variant::SUPER),
            Strategy::Entropy
        );
        assert!(stored_tree(&Variant::CLASSIC).is_none());
    }
}
