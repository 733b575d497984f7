//! The optimal strategy (placeholder).
use crate::solve::SolveError;
use crate::space::Space;
use crate::tree::StrategyTree;

pub(crate) fn optimal_tree(_space: &Space, _progress: &mut dyn FnMut(u64, u64)) -> Result<StrategyTree, SolveError> {
    Err(SolveError::Infeasible { guesses: 0 })
}
