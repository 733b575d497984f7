//! The root of the optimal search: the first guesses, their classes solved on rayon's pool, and the tree.

// (Its parallel iterators are used only where threads can be started; see `optimal_tree_with`.)
#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

use super::INF;
use super::OPTIMAL_LIMIT;
use super::PAR_MIN;
use super::SEQUENTIAL_MAX;
use super::Search;
use crate::solve::SolveError;
use crate::space::Space;
use crate::strategy::Strategy;
use crate::sym::Sym;
use crate::tree::StrategyTree;
use crate::tree::TreeNode;
use crate::tree::build_subtree;
use crate::tree::build_tree;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering;

/// The optimal strategy tree of a space.
///
/// The root is searched here, in parallel: for each canonical first guess (best bound first, dropped once
/// its bound reaches the best total), its feedback classes are solved on rayon's pool, each by its own
/// [`Search`] with a cut-off from the best total so far and the excess already proven by the classes done,
/// and each class's subtree is read from its search's memo at once (so the memo is freed). `progress`
/// gets the secrets in finished classes (over all first guesses to try), from this thread every 100 ms.
pub(crate) fn optimal_tree(
    space: &Space,
    cancel: Option<&AtomicBool>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StrategyTree, SolveError> {
    optimal_tree_with(space, cancel, progress, SEQUENTIAL_MAX, PAR_MIN)
}

/// [`optimal_tree`] with its thresholds: spaces up to `sequential_max` secrets on one thread, and in
/// the parallel root's classes, nodes of `par_min` candidates or more on rayon's pool.
pub(super) fn optimal_tree_with(
    space: &Space,
    cancel: Option<&AtomicBool>,
    progress: &mut dyn FnMut(u64, u64),
    sequential_max: usize,
    par_min: usize,
) -> Result<StrategyTree, SolveError> {
    if space.codes.len() as u64 > OPTIMAL_LIMIT {
        return Err(SolveError::TooLarge {
            codes: space.codes.len() as u64,
            limit: OPTIMAL_LIMIT,
        });
    }
    let guesses = space.variant.guesses();
    let never = AtomicBool::new(false);
    let cancel = cancel.unwrap_or(&never);
    let secrets = &space.secrets;
    let n = secrets.len();
    let infeasible = SolveError::Infeasible { guesses };
    if n == 0 || guesses == 0 {
        return Err(infeasible);
    }
    let root = Sym::root(space.variant.pegs(), space.variant.colours());
    if n <= sequential_max {
        return sequential_tree(space, cancel, &root, progress);
    }
    let bounds = Search::new(space);
    let win = space.win_class;
    // (bound, not a candidate, guess) for every canonical first guess that splits the secrets.
    let mut firsts: Vec<(u32, bool, u32)> = Vec::new();
    let mut counts = [0u32; 81];
    for &g in root.canonical(&space.codes, &space.guesses) {
        space.counts(g, secrets, &mut counts);
        let is_cand = counts[usize::from(win)] > 0;
        let mut bound = n as u32;
        let mut parts = 0;
        for (c, &k) in counts[..space.nclass].iter().enumerate() {
            if k > 0 && c != usize::from(win) {
                parts += 1;
                bound = bound.saturating_add(bounds.bound(k as usize, guesses - 1));
            }
        }
        if parts > 1 || is_cand || n == 1 {
            firsts.push((bound.min(INF), !is_cand, g));
        }
    }
    firsts.sort_unstable();
    let work = (firsts.len() * n) as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let mut best = INF;
    let mut best_tree: Option<(u32, Vec<Subtree>)> = None;
    for (index, &(bound, _, g)) in firsts.iter().enumerate() {
        done.store((index * n) as u64, Ordering::Relaxed);
        if bound >= best {
            break;
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        let mut groups = space.split(g, secrets);
        // Largest first, so the long searches start early and the short ones fill in.
        groups.sort_by_key(|(c, m)| (std::cmp::Reverse(m.len()), *c));
        let child_sym = root.after(&space.codes[g as usize]);
        let excess = AtomicU32::new(0);
        let cutoff = best;
        let solve_class = |(class, members): &(u8, Vec<u32>)| -> ClassResult {
            let lbc = bounds.bound(members.len(), guesses - 1);
            let spent = bound.saturating_add(excess.load(Ordering::Relaxed));
            if spent >= cutoff {
                return ClassResult::Pruned;
            }
            let beta = if cutoff >= INF {
                INF
            } else {
                cutoff - spent + lbc
            };
            let mut search = bounds.fresh(par_min);
            search.cancel = Some(cancel);
            let (v, choice) = search.search(members, guesses - 1, &child_sym, beta, &mut |_, _| {});
            if search.cancelled {
                return ClassResult::Cancelled;
            }
            excess.fetch_add(v.min(INF).saturating_sub(lbc), Ordering::Relaxed);
            done.fetch_add(members.len() as u64, Ordering::Relaxed);
            if choice.is_none() {
                return ClassResult::Pruned;
            }
            let mut pick = |cands: &[u32], sym: &Sym, depth: u32| {
                let r = search.best_guess(cands, depth, sym).map(|(_, g)| g);
                match r {
                    _ if search.cancelled => Err(SolveError::Cancelled),
                    Some(g) => Ok(g),
                    None => Err(SolveError::Infeasible { guesses }),
                }
            };
            match build_subtree(space, members, &child_sym, guesses - 1, &mut pick) {
                Ok(nodes) => ClassResult::Solved(v, *class, nodes),
                Err(SolveError::Cancelled) => ClassResult::Cancelled,
                Err(e) => ClassResult::Failed(e),
            }
        };
        // Where threads cannot be started (wasm32 in a browser's worker: Bulls and Cows' tree built in the page),
        // the classes are solved one after another on this thread, with the progress after each.
        #[cfg(target_arch = "wasm32")]
        let results: Vec<ClassResult> = groups
            .iter()
            .map(|group| {
                let r = solve_class(group);
                progress(done.load(Ordering::Relaxed), work);
                r
            })
            .collect();
        #[cfg(not(target_arch = "wasm32"))]
        let results: Vec<ClassResult> = std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            let (groups, solve_class) = (&groups, &solve_class);
            let worker = scope.spawn(move || {
                let r: Vec<ClassResult> = groups.par_iter().map(solve_class).collect();
                let _ = tx.send(());
                r
            });
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                rx.recv_timeout(std::time::Duration::from_millis(100))
            {
                progress(done.load(Ordering::Relaxed), work);
            }
            worker.join().unwrap_or_default()
        });
        let mut total = n as u64;
        let mut subtrees = Vec::with_capacity(results.len());
        let mut complete = results.len() == groups.len();
        for r in results {
            match r {
                ClassResult::Solved(v, class, nodes) => {
                    total += u64::from(v);
                    subtrees.push((class, nodes));
                }
                ClassResult::Pruned => complete = false,
                ClassResult::Cancelled => return Err(SolveError::Cancelled),
                ClassResult::Failed(e) => return Err(e),
            }
        }
        if complete && total < u64::from(best) {
            best = total as u32;
            subtrees.sort_by_key(|(c, _)| *c);
            best_tree = Some((g, subtrees));
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(SolveError::Cancelled);
    }
    let (g, subtrees) = best_tree.ok_or(infeasible)?;
    progress(work, work);
    Ok(stitch(space, g, best, subtrees))
}

/// One search over the whole space, its tree read from its memo: cheaper than the parallel root on
/// small spaces (one memo, the best first guess's total prunes the others inside).
pub(super) fn sequential_tree(
    space: &Space,
    cancel: &AtomicBool,
    root: &Sym,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<StrategyTree, SolveError> {
    let guesses = space.variant.guesses();
    let mut search = Search::new(space);
    search.cancel = Some(cancel);
    search.search(&space.secrets, guesses, root, INF, progress);
    if search.cancelled {
        return Err(SolveError::Cancelled);
    }
    let mut pick = |cands: &[u32], sym: &Sym, depth: u32| {
        let r = search.best_guess(cands, depth, sym).map(|(_, g)| g);
        match r {
            _ if search.cancelled => Err(SolveError::Cancelled),
            Some(g) => Ok(g),
            None => Err(SolveError::Infeasible { guesses }),
        }
    };
    build_tree(space, Strategy::Optimal, &mut pick, progress)
}

/// A class of the first guess and its subtree's nodes (root first, indices local).
pub(super) type Subtree = (u8, Vec<TreeNode>);

/// What the search of one class of the first guess gave.
#[derive(Default)]
pub(super) enum ClassResult {
    /// Its optimal cost, its class and its subtree.
    Solved(u32, u8, Vec<TreeNode>),
    /// Not below its cut-off: this first guess cannot beat the best.
    #[default]
    Pruned,
    /// Stopped by the cancellation flag.
    Cancelled,
    /// An internal error.
    Failed(SolveError),
}

/// The whole tree from the first guess and the subtrees of its classes (in class order).
pub(super) fn stitch(space: &Space, g: u32, total: u32, subtrees: Vec<Subtree>) -> StrategyTree {
    let nodes = join_nodes(space, &space.secrets, g, subtrees);
    debug_assert_eq!(nodes[0].total, u64::from(total));
    StrategyTree::from_nodes(space.variant, Strategy::Optimal, nodes)
}

/// The nodes of the subtree for `cands` with guess `g` at its root and the subtrees of its classes
/// (in class order), root first, indices local.
pub(super) fn join_nodes(
    space: &Space,
    cands: &[u32],
    g: u32,
    subtrees: Vec<Subtree>,
) -> Vec<TreeNode> {
    let solves = cands.iter().any(|&s| space.class(g, s) == space.win_class);
    let mut nodes = vec![TreeNode {
        guess: space.codes[g as usize],
        secrets: cands.len() as u32,
        total: cands.len() as u64,
        max: 1,
        solves,
        children: Vec::new(),
    }];
    let mut children = Vec::with_capacity(subtrees.len());
    let mut max = 1;
    let mut sum = cands.len() as u64;
    for (class, sub) in subtrees {
        let offset = nodes.len() as u32;
        sum += sub[0].total;
        max = max.max(sub[0].max + 1);
        children.push((space.feedback_of(class), offset));
        nodes.extend(sub.into_iter().map(|mut node| {
            for (_, c) in &mut node.children {
                *c += offset;
            }
            node
        }));
    }
    nodes[0].total = sum;
    nodes[0].max = max;
    nodes[0].children = children;
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// The parallel search (the root split over the first guess's classes, nodes of 40 or more
    /// candidates searched by two threads sharing a memo) gives the one-thread search's tree, node for
    /// node, on every run.
    #[test]
    fn parallel_search_gives_the_sequential_tree() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for v in [
            Variant::custom(6, 4, 10, false, false).unwrap(),
            Variant::custom(5, 4, 10, true, true).unwrap(),
            Variant::CLASSIC,
        ] {
            let space = Space::new(v).unwrap();
            let want = optimal_tree_with(&space, None, &mut |_, _| {}, usize::MAX, 0).unwrap();
            for _ in 0..3 {
                let got = pool
                    .install(|| optimal_tree_with(&space, None, &mut |_, _| {}, 0, 40))
                    .unwrap();
                assert_eq!(got.nodes(), want.nodes(), "{v}");
            }
            // The parallel root alone (one thread inside the classes) too.
            let got = optimal_tree_with(&space, None, &mut |_, _| {}, 0, usize::MAX).unwrap();
            assert_eq!(got.nodes(), want.nodes(), "{v}");
        }
    }
}
