//! Mastermind's strategy trees as things made elsewhere and kept ([`Kept`]): on the page, a tree too slow to
//! build at once (Bulls and Cows' optimal tree: minutes) is built by the builder worker and kept in IndexedDB
//! under its file name (`bulls-cows-optimal.pmt`); the hints are a heuristic's meanwhile.

use super::Mastermind;
use super::trees::{key_tree, tree_key};
use crate::mid::Contexts;
use crate::mid::kept::Kept;
use mastermind::StrategyTree;

/// Mastermind's trees, for the registry's list of things kept.
pub static KEPT: KeptTrees = KeptTrees;

/// Mastermind's trees as [`Kept`] (the context's [`super::trees::Trees`] holds them).
pub struct KeptTrees;

impl Kept for KeptTrees {
    fn owns(&self, key: &str) -> bool {
        key_tree(key).is_some()
    }

    fn make_elsewhere(&self, contexts: &Contexts) {
        contexts.of::<Mastermind>().build_elsewhere();
    }

    /// Checked whole: its checksum, then every secret replayed against it.
    fn take(&self, contexts: &Contexts, key: &str, bytes: &[u8]) -> Result<String, String> {
        let (variant, strategy) =
            key_tree(key).ok_or_else(|| format!("{key}: not a tree's key"))?;
        let tree = StrategyTree::from_bytes(bytes).map_err(|e| e.to_string())?;
        if (tree.variant(), tree.strategy()) != (&variant, strategy) {
            return Err(format!(
                "{key} holds the {} tree of {}",
                tree.strategy(),
                tree.variant()
            ));
        }
        contexts.of::<Mastermind>().add_built(tree);
        Ok(format!("{variant} {strategy}"))
    }

    fn wanted(&self, contexts: &Contexts) -> Option<String> {
        contexts
            .of::<Mastermind>()
            .take_wanted()
            .map(|(variant, strategy)| tree_key(&variant, strategy))
    }

    fn build(&self, key: &str, _progress: &mut dyn FnMut(&str)) -> Result<Vec<u8>, String> {
        let (variant, strategy) =
            key_tree(key).ok_or_else(|| format!("{key}: not a tree's key"))?;
        let tree = StrategyTree::build(&variant, strategy).map_err(|e| e.to_string())?;
        Ok(tree.to_bytes())
    }

    fn build_failed(&self, contexts: &Contexts, key: &str, why: &str) {
        if let Some((variant, strategy)) = key_tree(key) {
            contexts.of::<Mastermind>().build_failed(
                &variant,
                strategy,
                &format!("its build failed: {why}"),
            );
        }
    }
}
