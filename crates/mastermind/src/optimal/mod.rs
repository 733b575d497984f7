//! The optimal strategy: the least total number of guesses over all secrets, within the variant's guess
//! limit, by exhaustive depth-first branch and bound.
//!
//! - Cost of a node with candidate set S and guess g: |S| (every secret there spends this guess) plus the
//!   cost of each non-winning feedback class.
//! - Lower bound for n candidates with d guesses left, K feedback classes: at most 1 secret is found with
//!   the first guess, K-1 with the second, (K-1)^2 with the third, ...; filled greedily (infinite if the n
//!   do not fit in d levels). So n <= K gives 2n - 1, reached exactly when a candidate splits the others
//!   apart, and otherwise 2n is the bound.
//! - A guess's bound is |S| plus the bounds of its classes; guesses are tried best bound first, and a
//!   guess is dropped as soon as its partial total reaches the best total found.
//! - Only guesses canonical under the symmetries of the history are tried (see `sym`), and among guesses
//!   that split the candidates into the same sets only one is tried.
//! - Candidate sets of 3 or more are memoised (exact cost and guess, or a lower bound).
//! - Class sizes are counted in packed lanes (see `lanes`): one guess at a time in a `u128` or `u64`, or the
//!   32 consecutive guesses of a chunk at once (per candidate one vectorised compare and subtract per
//!   feedback); in a chunk, the guesses whose 3n - 2 [candidate] - classes (at most their bound) already
//!   reaches the best are set aside in bulk.
//! - Spaces over 1500 secrets split at the root over the first guess's classes (one search each, on
//!   rayon's pool); inside a class, a node of 300 candidates or more is searched by every thread of the
//!   pool with the class's memo shared (locked in shards): its first guess alone, the open classes of
//!   that guess taken by the threads in turn, then the other guesses taken in turn, with the best total
//!   and its guess's rank shared (a guess is dropped once its partial total reaches any thread's best;
//!   of equal totals the earlier guess wins). The memo key then holds the history's symmetry group
//!   (which guesses are canonical), so every entry's guess is the one this group's one-thread search
//!   picks: the tree is the one-thread tree whatever the timing (a test checks node for node).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::lanes::{Chunk, Lanes};
use crate::space::Space;
use crate::sym::Sym;
use memo::{Entry, Fx, Memo, SharedMemo};
use scan::Scan;

/// Largest number of codes for the optimal search.
pub(crate) const OPTIMAL_LIMIT: u64 = 6000;

const INF: u32 = u32::MAX / 4;
const MEMO_MIN: usize = 3;
/// Candidate sets below this size are counted without scanning every feedback class.
const SMALL: usize = 32;
const MEMO_CAP: usize = 4_000_000;
const MAX_DEPTH: usize = 16;
/// Fewest candidates for counting guesses a chunk at a time.
const CHUNK_MIN: usize = 4;
/// A chunk is counted when this many guesses to try fall in it.
const CHUNK_DENSE: usize = 12;
/// Most candidates counted in byte lanes.
const LANE_MAX: usize = 255;
/// Spaces up to this many secrets are searched on one thread (see `sequential_tree`).
const SEQUENTIAL_MAX: usize = 1500;
/// In the classes of the first guess of larger spaces, nodes with this many candidates or more are
/// searched on rayon's pool (see `Search::options_parallel`).
const PAR_MIN: usize = 300;

mod explore;
mod memo;
mod parallel;
mod root;
mod scan;

pub(crate) use root::optimal_tree;
pub(crate) use scan::dead_normal;

pub(crate) struct Search<'a> {
    space: &'a Space,
    /// `lb[d][n]`: lower bound for n candidates with d guesses left.
    lb: Arc<Vec<Vec<u32>>>,
    memo: Memo,
    /// Nodes with this many candidates or more search their guesses and classes on rayon's pool,
    /// sharing the memo (`usize::MAX`: one thread).
    par_min: usize,
    /// Nodes searched (for diagnostics and benchmarks).
    pub nodes: u64,
    /// Guesses scored (for diagnostics).
    pub evals: u64,
    /// Candidates scored, summed over guesses (for diagnostics).
    pub work: u64,
    /// Packed class counting (4 pegs or fewer).
    lanes: Option<Lanes>,
    /// Per set of dead colours, the guesses that pass the dead-colour filter (when every guess is
    /// canonical).
    dead_lists: Vec<Option<Vec<u32>>>,
    /// Every guess (the canonical guesses of a trivial group).
    all_guesses: Arc<[u32]>,
    /// The canonical guesses per group (see [`Sym::key`]).
    canon_cache: HashMap<Vec<u8>, Arc<[u32]>, BuildHasherDefault<Fx>>,
    /// The last chunk of guesses counted.
    chunk: Box<Chunk>,
    /// Largest class whose bound is 2k - 1 (the number of feedbacks but the win).
    kmax: u32,
    level: u32,
    cancel: Option<&'a AtomicBool>,
    /// Set once `cancel` was seen: every result after that is meaningless.
    pub cancelled: bool,
    /// Helper searches kept between parallel nodes (with their caches), see `run_workers`.
    spare: Vec<Search<'a>>,
}

impl<'a> Search<'a> {
    pub fn new(space: &'a Space) -> Search<'a> {
        let p = u64::from(space.variant.pegs());
        let k = (p + 1) * (p + 2) / 2 - 1;
        let nmax = space.secrets.len();
        let mut lb = vec![vec![INF; nmax + 1]; MAX_DEPTH + 1];
        for (d, row) in lb.iter_mut().enumerate() {
            row[0] = 0;
            for (n, cell) in row.iter_mut().enumerate().skip(1) {
                let mut left = n as u64;
                let mut cost = 0u64;
                let mut cap = 1u64;
                let mut level = 1u64;
                while left > 0 && level <= d as u64 {
                    let take = left.min(cap);
                    cost += take * level;
                    left -= take;
                    cap = cap.saturating_mul(k - 1);
                    level += 1;
                }
                if left == 0 {
                    *cell = cost.min(u64::from(INF)) as u32;
                }
            }
        }
        Search {
            space,
            lb: Arc::new(lb),
            memo: Memo::Local(HashMap::default()),
            par_min: usize::MAX,
            nodes: 0,
            evals: 0,
            work: 0,
            lanes: Lanes::new(
                space.variant.pegs(),
                space.nclass,
                space.win_class,
                k as u32,
            ),
            dead_lists: vec![None; 1 << space.variant.colours()],
            all_guesses: Arc::from(space.guesses.as_slice()),
            canon_cache: HashMap::default(),
            chunk: Box::new(Chunk::new()),
            kmax: k as u32,
            level: 0,
            cancel: None,
            cancelled: false,
            spare: Vec::new(),
        }
    }

    /// A new search of the same space sharing this one's bound table (no memo, no counters), searching
    /// nodes of `par_min` candidates or more on rayon's pool with a memo shared by its threads.
    pub fn fresh(&self, par_min: usize) -> Search<'a> {
        let memo = if par_min == usize::MAX {
            Memo::Local(HashMap::default())
        } else {
            Memo::Shared(Arc::new(SharedMemo::new()))
        };
        self.fork(memo, par_min)
    }

    /// A search for another thread of the same problem: the same memo when it is shared.
    fn helper(&self) -> Search<'a> {
        let memo = match &self.memo {
            Memo::Shared(m) => Memo::Shared(Arc::clone(m)),
            Memo::Local(_) => Memo::Local(HashMap::default()),
        };
        let mut s = self.fork(memo, self.par_min);
        s.level = self.level;
        s
    }

    fn fork(&self, memo: Memo, par_min: usize) -> Search<'a> {
        Search {
            space: self.space,
            lb: Arc::clone(&self.lb),
            memo,
            par_min,
            nodes: 0,
            evals: 0,
            work: 0,
            lanes: self.lanes.clone(),
            dead_lists: vec![None; self.dead_lists.len()],
            all_guesses: Arc::clone(&self.all_guesses),
            canon_cache: HashMap::default(),
            chunk: Box::new(Chunk::new()),
            kmax: self.kmax,
            level: 0,
            cancel: self.cancel,
            cancelled: false,
            spare: Vec::new(),
        }
    }

    fn bound(&self, n: usize, depth: u32) -> u32 {
        self.lb[(depth as usize).min(MAX_DEPTH)][n]
    }

    /// The optimal cost of `cands` with `depth` guesses left, if below `beta`, with its guess;
    /// otherwise a lower bound `>= beta` and no guess.
    ///
    /// In four steps: the cases settled at once ([`Search::settled`]), the memo, a scan that bounds every guess
    /// worth trying ([`Search::scan`]), and the search below the guesses whose bound leaves room
    /// ([`Search::explore`]); the result goes back into the memo.
    pub fn search(
        &mut self,
        cands: &[u32],
        depth: u32,
        sym: &Sym,
        beta: u32,
        progress: &mut dyn FnMut(u64, u64),
    ) -> (u32, Option<u32>) {
        let n = cands.len();
        let mut lb = match self.settled(cands, depth, beta) {
            Ok(lb) => lb,
            Err(result) => return result,
        };
        // With threads, which history first reaches a set varies: the group is part of the key, so the
        // guess stored is the one this group's search picks (the same every run).
        let fp = match self.memo {
            Memo::Local(_) => 0,
            Memo::Shared(_) => sym.fingerprint(),
        };
        let key = (depth.min(255) as u8, fp, cands.to_vec());
        if n >= MEMO_MIN {
            match self.memo.get(&key) {
                Some(Entry::Exact(v, g)) => {
                    return if v < beta { (v, Some(g)) } else { (v, None) };
                }
                Some(Entry::Lower(l)) => {
                    if l >= beta {
                        return (l, None);
                    }
                    lb = lb.max(l);
                }
                None => {}
            }
        }
        let mut scan = self.scan(cands, depth, sym, beta, lb);
        scan.options.sort_unstable();
        if n >= self.par_min && scan.options.len() > 1 && rayon::current_num_threads() > 1 {
            let (b, g, f) = self.options_parallel(cands, depth, sym, &scan.options, scan.best, lb);
            if g.is_some() {
                scan.best_guess = g;
            }
            scan.best = b;
            scan.floor = scan.floor.min(f);
        } else {
            self.explore(cands, depth, sym, &mut scan, progress);
        }
        let Scan {
            best,
            best_guess,
            floor,
            ..
        } = scan;
        if n >= MEMO_MIN {
            let entry = match best_guess {
                Some(g) => Entry::Exact(best, g),
                None => Entry::Lower(best.max(lb).max(floor)),
            };
            self.memo.insert(key, entry);
        }
        match best_guess {
            Some(g) => (best, Some(g)),
            None => (best.max(lb).max(floor.min(INF)), None),
        }
    }

    /// The node's lower bound, or its result when that is known at once: no guess left, one or two candidates, a
    /// bound already at `beta`, a search cancelled, or a candidate that splits all the others apart.
    fn settled(&mut self, cands: &[u32], depth: u32, beta: u32) -> Result<u32, (u32, Option<u32>)> {
        let n = cands.len();
        if depth == 0 {
            return Err((INF, None));
        }
        if n == 1 {
            return Err((1, Some(cands[0])));
        }
        let mut lb = self.bound(n, depth);
        if lb >= beta {
            return Err((lb, None));
        }
        if n == 2 {
            return Err((3, Some(cands[0])));
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && let Some(c) = self.cancel
            && c.load(Ordering::Relaxed)
        {
            self.cancelled = true;
        }
        if self.cancelled {
            return Err((INF, None));
        }
        let space = self.space;
        // A candidate that splits all the others apart is optimal.
        if n <= space.nclass {
            'cands: for &c in cands {
                let row = space.row(c);
                let mut seen = 0u128;
                for &s in cands {
                    let bit = 1u128 << row[s as usize];
                    if seen & bit != 0 {
                        continue 'cands;
                    }
                    seen |= bit;
                }
                return Err(((2 * n - 1) as u32, Some(c)));
            }
            lb = lb.max(2 * n as u32);
            if lb >= beta {
                return Err((lb, None));
            }
        }
        Ok(lb)
    }

    /// The optimal guess for a candidate set, or `None` if it cannot be solved in `depth` guesses.
    pub fn best_guess(&mut self, cands: &[u32], depth: u32, sym: &Sym) -> Option<(u32, u32)> {
        let (v, g) = self.search(cands, depth, sym, INF, &mut |_, _| {});
        g.map(|g| (v, g))
    }
}
