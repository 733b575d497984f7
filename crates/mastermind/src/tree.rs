//! Strategy trees: a guess at each node and one child per feedback; built by a strategy and checked by
//! an independent replay of every secret.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::code::Code;
use crate::feedback::{Feedback, feedback};
use crate::optimal;
use crate::solve::{SolveError, SolveReport};
use crate::space::Space;
use crate::strategy::Strategy;
use crate::sym::Sym;
use crate::variant::Variant;

/// A node of a [`StrategyTree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The guess played at this node.
    pub guess: Code,
    /// How many secrets reach this node.
    pub secrets: u32,
    /// The guesses those secrets use from this node on (this node's guess counts 1 for each).
    pub total: u64,
    /// The most guesses any of them uses from this node on.
    pub max: u32,
    /// Whether the guess is one of the secrets that reach this node.
    pub solves: bool,
    /// Children by feedback (the all-black feedback has none), in feedback order.
    pub children: Vec<(Feedback, u32)>,
}

/// A complete strategy for a variant as a tree: the guess to play for every history of answers.
///
/// ```
/// use mastermind::{Strategy, StrategyTree, Variant};
/// let tree = StrategyTree::build(&Variant::CLASSIC, Strategy::Knuth).unwrap();
/// assert_eq!(Variant::CLASSIC.display(&tree.root_guess()).to_string(), "RED RED GREEN GREEN");
/// let report = tree.verify().unwrap();
/// assert_eq!((report.total, report.max), (5801, 5));
/// ```
#[derive(Clone, Debug)]
pub struct StrategyTree {
    variant: Variant,
    strategy: Strategy,
    nodes: Vec<TreeNode>,
}

/// Picks the guess for a candidate set, given the history's symmetries and the guesses left.
pub(crate) type Chooser<'a> = dyn FnMut(&[u32], &Sym, u32) -> Result<u32, SolveError> + 'a;

/// Builds a tree node by node; `choose` gives the guess for a candidate set.
pub(crate) fn build_tree(
    space: &Space,
    strategy: Strategy,
    choose: &mut Chooser<'_>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StrategyTree, SolveError> {
    let v = space.variant;
    let mut nodes = Vec::new();
    let mut done = 0u64;
    let total = space.secrets.len() as u64;
    let sym = Sym::root(v.pegs(), v.colours());
    build_node(
        space,
        &space.secrets,
        &sym,
        v.guesses(),
        choose,
        &mut nodes,
        &mut done,
        total,
        progress,
    )?;
    progress(total, total);
    Ok(StrategyTree {
        variant: v,
        strategy,
        nodes,
    })
}

/// The nodes of the subtree for `cands` (root first, child indices local to the returned list), with
/// `depth` guesses left and the history's symmetries `sym`.
pub(crate) fn build_subtree(
    space: &Space,
    cands: &[u32],
    sym: &Sym,
    depth: u32,
    choose: &mut Chooser<'_>,
) -> Result<Vec<TreeNode>, SolveError> {
    let mut nodes = Vec::new();
    let mut done = 0;
    build_node(
        space,
        cands,
        sym,
        depth,
        choose,
        &mut nodes,
        &mut done,
        u64::MAX,
        &mut |_, _| {},
    )?;
    Ok(nodes)
}

#[allow(clippy::too_many_arguments)]
fn build_node(
    space: &Space,
    cands: &[u32],
    sym: &Sym,
    depth: u32,
    choose: &mut Chooser<'_>,
    nodes: &mut Vec<TreeNode>,
    done: &mut u64,
    total: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<u32, SolveError> {
    let g = choose(cands, sym, depth)?;
    let id = nodes.len() as u32;
    let solves = cands.iter().any(|&c| space.class(g, c) == space.win_class);
    nodes.push(TreeNode {
        guess: space.codes[g as usize],
        secrets: cands.len() as u32,
        total: cands.len() as u64,
        max: 1,
        solves,
        children: Vec::new(),
    });
    if solves {
        *done += 1;
        if (*done).is_multiple_of(64) {
            progress(*done, total);
        }
    }
    let groups = space.split(g, cands);
    if groups.len() == 1 && !solves {
        return Err(SolveError::NoProgress {
            guess: space.variant.display(&space.codes[g as usize]).to_string(),
        });
    }
    let child_sym = if groups.iter().any(|(_, m)| m.len() > 2) {
        sym.after(&space.codes[g as usize])
    } else {
        sym.clone()
    };
    let mut children = Vec::with_capacity(groups.len());
    let (mut sum, mut max) = (cands.len() as u64, 1);
    for (class, members) in groups {
        let child = build_node(
            space,
            &members,
            &child_sym,
            depth.saturating_sub(1),
            choose,
            nodes,
            done,
            total,
            progress,
        )?;
        let n = &nodes[child as usize];
        sum += n.total;
        max = max.max(n.max + 1);
        children.push((space.feedback_of(class), child));
    }
    let node = &mut nodes[id as usize];
    node.total = sum;
    node.max = max;
    node.children = children;
    Ok(id)
}

impl StrategyTree {
    /// A tree from its nodes (root first); callers check it with [`StrategyTree::verify`].
    pub(crate) fn from_nodes(
        variant: Variant,
        strategy: Strategy,
        nodes: Vec<TreeNode>,
    ) -> StrategyTree {
        StrategyTree {
            variant,
            strategy,
            nodes,
        }
    }

    /// Builds the tree of `strategy` for `variant` (see [`crate::solve_all`] for the limits).
    pub fn build(variant: &Variant, strategy: Strategy) -> Result<StrategyTree, SolveError> {
        StrategyTree::build_with_progress(variant, strategy, &mut |_, _| {})
    }

    /// As [`StrategyTree::build`], calling `progress(done, total)` now and then.
    pub fn build_with_progress(
        variant: &Variant,
        strategy: Strategy,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<StrategyTree, SolveError> {
        let space = Space::shared(*variant).ok_or(SolveError::TooLarge {
            codes: variant.code_space_size(),
            limit: crate::space::MAX_SPACE,
        })?;
        match strategy.resolved(variant) {
            Strategy::Best => crate::best::stored_best(variant),
            Strategy::Optimal => optimal::optimal_tree(&space, None, progress),
            _ => crate::strategy::heuristic_tree(&space, strategy, None, progress),
        }
    }

    /// As [`StrategyTree::build_with_progress`], returning [`SolveError::Cancelled`] soon after `cancel`
    /// is set (from another thread, e.g. on Ctrl-C). The optimal search of a large variant runs on rayon's
    /// pool.
    pub fn build_cancellable(
        variant: &Variant,
        strategy: Strategy,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<StrategyTree, SolveError> {
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        let space = Space::shared(*variant).ok_or(SolveError::TooLarge {
            codes: variant.code_space_size(),
            limit: crate::space::MAX_SPACE,
        })?;
        match strategy.resolved(variant) {
            Strategy::Best => crate::best::stored_best(variant),
            Strategy::Optimal => optimal::optimal_tree(&space, Some(cancel), progress),
            _ => crate::strategy::heuristic_tree(&space, strategy, Some(cancel), progress),
        }
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The strategy that built the tree.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The first guess.
    pub fn root_guess(&self) -> Code {
        self.nodes[0].guess
    }

    /// The nodes; the root is node 0.
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// The node reached by a history of (guess, feedback) pairs, if every guess is the tree's and the
    /// game is not over.
    pub fn node_at(&self, history: &[(Code, Feedback)]) -> Option<&TreeNode> {
        let mut node = &self.nodes[0];
        for (guess, fb) in history {
            if *guess != node.guess {
                return None;
            }
            let &(_, child) = node.children.iter().find(|(f, _)| f == fb)?;
            node = &self.nodes[child as usize];
        }
        Some(node)
    }

    /// The guess the tree plays after this history, or `None` if the history left the tree.
    pub fn guess_at(&self, history: &[(Code, Feedback)]) -> Option<Code> {
        self.node_at(history).map(|n| n.guess)
    }

    /// The figures the tree claims (from its node totals), without replaying.
    pub fn claimed(&self) -> SolveReport {
        let mut hist = vec![0u64; 2];
        let mut stack = vec![(0u32, 1usize)];
        while let Some((id, depth)) = stack.pop() {
            let n = &self.nodes[id as usize];
            if n.solves {
                if hist.len() <= depth {
                    hist.resize(depth + 1, 0);
                }
                hist[depth] += 1;
            }
            stack.extend(n.children.iter().map(|&(_, c)| (c, depth + 1)));
        }
        let root = &self.nodes[0];
        SolveReport::new(root.total, u64::from(root.secrets), root.max, hist)
    }

    /// Plays every secret of the variant against the tree with the plain [`feedback`] function and
    /// checks the result against what the tree claims.
    pub fn verify(&self) -> Result<SolveReport, SolveError> {
        let mut hist = vec![0u64; 2];
        let mut total = 0u64;
        let mut max = 0u32;
        let secrets = self.variant.secrets();
        for &secret in &secrets {
            let mut node = &self.nodes[0];
            let mut used = 1u32;
            loop {
                let fb = feedback(secret, node.guess);
                if fb.is_win(self.variant.pegs()) {
                    break;
                }
                let Some(&(_, child)) = node.children.iter().find(|(f, _)| *f == fb) else {
                    return Err(SolveError::Broken {
                        secret: self.variant.display(&secret).to_string(),
                        reason: format!("no branch for feedback {fb} after {used} guesses"),
                    });
                };
                node = &self.nodes[child as usize];
                used += 1;
                if used as usize > self.nodes.len() {
                    return Err(SolveError::Broken {
                        secret: self.variant.display(&secret).to_string(),
                        reason: "the tree loops".into(),
                    });
                }
            }
            total += u64::from(used);
            max = max.max(used);
            if hist.len() <= used as usize {
                hist.resize(used as usize + 1, 0);
            }
            hist[used as usize] += 1;
        }
        let replayed = SolveReport::new(total, secrets.len() as u64, max, hist);
        let claimed = self.claimed();
        if replayed != claimed {
            return Err(SolveError::Mismatch {
                claimed: claimed.to_string(),
                replayed: replayed.to_string(),
            });
        }
        Ok(replayed)
    }
}
