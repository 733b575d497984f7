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
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

// (Its parallel iterators are used only where threads can be started; see `optimal_tree_with`.)
#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

use crate::lanes::{CHUNK, Chunk, Lanes};
use crate::solve::SolveError;
use crate::space::Space;
use crate::strategy::Strategy;
use crate::sym::Sym;
use crate::tree::{StrategyTree, TreeNode, build_subtree, build_tree};

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

/// A small fast hasher (FxHash) for the memo.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Exact(u32, u32),
    Lower(u32),
}

/// A memo key: guesses left, the symmetry group's fingerprint (0 on one thread, see [`Sym::fingerprint`]),
/// the candidates.
type Key = (u8, u64, Vec<u32>);
type Map = HashMap<Key, Entry, BuildHasherDefault<Fx>>;

/// Locked parts of a memo shared between threads (a key's part chosen by its hash).
const SHARDS: usize = 64;

/// The memo of a search: its own, or shared by the threads searching one problem.
enum Memo {
    Local(Map),
    Shared(Arc<SharedMemo>),
}

/// A memo shared between threads: [`SHARDS`] maps, each behind its own lock.
struct SharedMemo {
    shards: Vec<std::sync::Mutex<Map>>,
}

impl SharedMemo {
    fn new() -> SharedMemo {
        SharedMemo {
            shards: (0..SHARDS).map(|_| Default::default()).collect(),
        }
    }

    fn shard(&self, key: &Key) -> std::sync::MutexGuard<'_, Map> {
        use std::hash::BuildHasher;
        let i = (BuildHasherDefault::<Fx>::default().hash_one(key) >> 58) as usize % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Memo {
    fn get(&self, key: &Key) -> Option<Entry> {
        match self {
            Memo::Local(m) => m.get(key).copied(),
            Memo::Shared(m) => m.shard(key).get(key).copied(),
        }
    }

    fn insert(&mut self, key: Key, entry: Entry) {
        match self {
            Memo::Local(m) => {
                if m.len() >= MEMO_CAP {
                    m.clear();
                }
                m.insert(key, entry);
            }
            Memo::Shared(m) => {
                let mut shard = m.shard(&key);
                if shard.len() >= MEMO_CAP / SHARDS {
                    shard.clear();
                }
                // Another thread may have stored the same node meanwhile: an exact cost is kept,
                // and of two lower bounds the higher.
                let entry = match (shard.get(&key), entry) {
                    (Some(&Entry::Exact(v, g)), _) => Entry::Exact(v, g),
                    (Some(&Entry::Lower(a)), Entry::Lower(b)) => Entry::Lower(a.max(b)),
                    (_, e) => e,
                };
                shard.insert(key, entry);
            }
        }
    }
}

/// What a node's scan found: the best exact cost so far (a guess whose classes are all singles or pairs) and its
/// guess, the least lower bound proven for a guess that failed (`floor`), and the guesses still to explore with
/// their bounds (`options`: bound, not a candidate, guess).
struct Scan {
    best: u32,
    best_guess: Option<u32>,
    floor: u32,
    options: Vec<(u32, bool, u32)>,
    /// The node's lower bound: reaching it ends the scan.
    lb: u32,
}

impl Scan {
    /// Takes a guess's score (bound, largest class, candidate, useless); true once the best reaches the node's
    /// lower bound (stop).
    fn consider(
        &mut self,
        g: u32,
        (bound, maxk, is_cand, useless): (u32, u32, bool, bool),
    ) -> bool {
        if useless {
            return false;
        }
        if bound >= self.best {
            self.floor = self.floor.min(bound);
            return false;
        }
        if maxk <= 2 {
            self.best = bound;
            self.best_guess = Some(g);
            return self.best <= self.lb;
        }
        self.options.push((bound, !is_cand, g));
        false
    }
}

/// The guesses a node tries ([`Search::guesses`]).
enum Guesses {
    /// None: the candidates alone reached the bound.
    None,
    /// The canonical guesses of the node's group, shared with the cache.
    Shared(Arc<[u32]>),
    /// Filtered by the dead colours for this node only.
    Owned(Vec<u32>),
    /// Filtered by the dead colours (this set of them), to be kept for the next node with the same set.
    Kept(Vec<u32>, u16),
}

impl Guesses {
    fn as_slice(&self) -> &[u32] {
        match self {
            Guesses::None => &[],
            Guesses::Shared(list) => list,
            Guesses::Owned(list) | Guesses::Kept(list, _) => list,
        }
    }
}

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

    /// Scores every guess worth trying at the node by its bound. A guess whose classes all have at most 2
    /// members costs exactly its bound (it may become the best at once); the others become options, explored
    /// later best bound first.
    fn scan(&mut self, cands: &[u32], depth: u32, sym: &Sym, beta: u32, lb: u32) -> Scan {
        let n = cands.len();
        let space = self.space;
        let mut counts = [0u32; 81];
        let mut scan = Scan {
            best: beta,
            best_guess: None,
            floor: INF,
            options: Vec::new(),
            lb,
        };
        // The candidates' rows (the table is symmetric): a guess's classes are read from n streams in
        // order as the guesses go up.
        let lanes = self.lanes.as_ref().filter(|_| n <= LANE_MAX);
        let rows: Vec<&[u8]> = cands.iter().map(|&c| space.row(c)).collect();
        // Candidates first: with a pair at most per class they often reach the bound at once.
        if n < SMALL {
            for &c in cands {
                let (bound, maxk, _, _) = self.score(lanes, &rows, c, depth, &mut counts);
                if maxk <= 2 && bound < scan.best {
                    scan.best = bound;
                    scan.best_guess = Some(c);
                }
            }
        }
        let guesses = if scan.best <= lb {
            Guesses::None
        } else {
            self.guesses(cands, sym)
        };
        let lanes = self.lanes.as_ref().filter(|_| n <= LANE_MAX);
        let canon = guesses.as_slice();
        // The guesses as bit masks per chunk of CHUNK consecutive codes: a chunk with enough guesses
        // to try is counted at once (see `Lanes::count_chunk`), the others one guess at a time, and so
        // are the guesses past the last whole chunk. The order of the guesses is kept.
        let ncodes = space.codes.len();
        let chunked = self.lanes.as_ref().filter(|_| n >= CHUNK_MIN);
        let whole = ncodes / CHUNK;
        let mut masks = vec![0u32; whole];
        let mut tail: Vec<u32> = Vec::new();
        for &g in canon {
            let c = g as usize / CHUNK;
            match masks.get_mut(c) {
                Some(m) => *m |= 1 << (g as usize % CHUNK),
                None => tail.push(g),
            }
        }
        self.evals += canon.len() as u64;
        self.work += (canon.len() * n) as u64;
        'scan: {
            for (c, &m) in masks.iter().enumerate() {
                if m == 0 {
                    continue;
                }
                let g0 = c * CHUNK;
                let mut bits = m;
                match chunked {
                    Some(lanes) if m.count_ones() as usize >= CHUNK_DENSE => {
                        lanes.count_chunk(&rows, g0, &mut self.chunk);
                        // 3n - 2 [candidate] - classes is at most a guess's bound (a class of k costs
                        // at least 2k - 1): the guesses it puts at or above the best only lower the
                        // floor.
                        let chunk = &self.chunk;
                        let cut = (3 * n as u32).saturating_sub(scan.best);
                        let mut hot = 0u32;
                        for j in 0..CHUNK {
                            let score = u32::from(chunk.classes[j]) + 2 * u32::from(chunk.win[j]);
                            hot |= u32::from(score > cut) << j;
                        }
                        let mut cold = bits & !hot;
                        if cold != 0 {
                            let mut top = 0;
                            while cold != 0 {
                                let j = cold.trailing_zeros() as usize;
                                cold &= cold - 1;
                                top = top
                                    .max(u32::from(chunk.classes[j]) + 2 * u32::from(chunk.win[j]));
                            }
                            scan.floor = scan.floor.min(3 * n as u32 - top);
                        }
                        bits &= hot;
                        while bits != 0 {
                            let j = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let score = self.score_chunk(lanes, j, n as u32, depth);
                            if scan.consider((g0 + j) as u32, score) {
                                break 'scan;
                            }
                        }
                    }
                    _ => {
                        while bits != 0 {
                            let g = (g0 + bits.trailing_zeros() as usize) as u32;
                            bits &= bits - 1;
                            let score = self.score(lanes, &rows, g, depth, &mut counts);
                            if scan.consider(g, score) {
                                break 'scan;
                            }
                        }
                    }
                }
            }
            for &g in &tail {
                let score = self.score(lanes, &rows, g, depth, &mut counts);
                if scan.consider(g, score) {
                    break 'scan;
                }
            }
        }
        if let Guesses::Kept(list, dead) = guesses {
            self.dead_lists[usize::from(dead)] = Some(list);
        }
        scan
    }

    /// The guesses worth trying at the node: the canonical ones under the node's symmetry group and, when two
    /// colours or more are in no candidate ("dead"), only those whose dead colours are the smallest dead ones,
    /// in order. Dead colours add nothing to any feedback, so they are interchangeable in a guess: the least code
    /// of a class of equivalent guesses passes both filters.
    fn guesses(&mut self, cands: &[u32], sym: &Sym) -> Guesses {
        let space = self.space;
        let dead = space.colour_mask_all
            & !cands
                .iter()
                .fold(0u16, |m, &c| m | space.colour_mask[c as usize]);
        let repeats = space.variant.guess_repeats();
        if dead.count_ones() < 2 {
            return Guesses::Shared(canonical(
                space,
                &self.all_guesses,
                &mut self.canon_cache,
                sym,
            ));
        }
        if sym.is_trivial() {
            // Every guess is canonical: the dead colours alone decide, and the list is kept per set.
            let list = match self.dead_lists[usize::from(dead)].take() {
                Some(list) => list,
                None => space
                    .guesses
                    .iter()
                    .copied()
                    .filter(|&g| dead_normal(&space.codes[g as usize], dead, repeats))
                    .collect(),
            };
            return Guesses::Kept(list, dead);
        }
        Guesses::Owned(
            canonical(space, &self.all_guesses, &mut self.canon_cache, sym)
                .iter()
                .copied()
                .filter(|&g| dead_normal(&space.codes[g as usize], dead, repeats))
                .collect(),
        )
    }

    /// Searches the scan's options one after another, best bound first, one guess per distinct split (as a set
    /// partition, classes relabelled by first appearance), until a bound reaches the best found.
    fn explore(
        &mut self,
        cands: &[u32],
        depth: u32,
        sym: &Sym,
        scan: &mut Scan,
        progress: &mut dyn FnMut(u64, u64),
    ) {
        let space = self.space;
        let mut seen: HashMap<u128, (), BuildHasherDefault<Fx>> = HashMap::default();
        let mut classes = Vec::with_capacity(cands.len());
        let top = self.level == 0;
        let option_count = scan.options.len() as u64;
        for i in 0..scan.options.len() {
            let (bound, _, g) = scan.options[i];
            if top {
                progress(i as u64, option_count);
            }
            if bound >= scan.best || scan.best <= scan.lb {
                scan.floor = scan.floor.min(bound);
                break;
            }
            if seen
                .insert(split_hash(space, g, cands, &mut classes), ())
                .is_some()
            {
                continue;
            }
            let cutoff = scan.best;
            let total = self.eval_option(cands, depth, sym, g, bound, &|| cutoff, false, progress);
            if total >= scan.best {
                scan.floor = scan.floor.min(total);
            }
            if total < scan.best {
                scan.best = total;
                scan.best_guess = Some(g);
            }
        }
    }

    /// The cost of guess `g` (of bound `bound`) at the node `cands`: exact if below `cutoff()` when it
    /// returns, else a lower bound of it. `cutoff` never goes up while this runs. With `parallel`, the
    /// classes left open by the probes are searched on rayon's pool.
    #[allow(clippy::too_many_arguments)]
    fn eval_option(
        &mut self,
        cands: &[u32],
        depth: u32,
        sym: &Sym,
        g: u32,
        bound: u32,
        cutoff: &(dyn Fn() -> u32 + Sync),
        parallel: bool,
        progress: &mut dyn FnMut(u64, u64),
    ) -> u32 {
        let space = self.space;
        let groups = space.split(g, cands);
        let mut order: Vec<&Vec<u32>> = groups
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m.len() > 2)
            .collect();
        order.sort_by_key(|m| std::cmp::Reverse(m.len()));
        let child_sym = if order.is_empty() {
            sym.clone()
        } else {
            sym.after(&space.codes[g as usize])
        };
        let mut total = bound;
        self.level += 1;
        // First a shallow probe of every class (its bound from one level of guesses, or its exact
        // cost if that meets the size bound), so a hopeless guess is dropped before any deep search.
        let mut probed: Vec<(u32, bool)> = Vec::with_capacity(order.len());
        for m in &order {
            let lbc = self.bound(m.len(), depth - 1);
            let (v, g) = self.search(m, depth - 1, &child_sym, lbc + 1, progress);
            probed.push((v, g.is_some()));
            total = total.saturating_add(v.saturating_sub(lbc));
            if total >= cutoff() {
                break;
            }
        }
        if total < cutoff() {
            let open: Vec<(&[u32], u32)> = order
                .iter()
                .zip(&probed)
                .filter(|(_, (_, exact))| !exact)
                .map(|(m, &(l, _))| (m.as_slice(), l))
                .collect();
            if parallel && open.len() > 1 {
                total = self.classes_parallel(&open, depth - 1, &child_sym, total, cutoff);
            } else {
                for &(m, l) in &open {
                    let c = cutoff();
                    if total >= c {
                        break;
                    }
                    let (v, _) = self.search(m, depth - 1, &child_sym, c - total + l, progress);
                    total = total.saturating_add(v.saturating_sub(l));
                }
            }
        }
        self.level -= 1;
        total
    }

    /// The open classes of a guess (members, lower bound from the probe) searched by every thread of
    /// rayon's pool, each taking the next class (largest first) with a cut-off from the total so far;
    /// the guess's total (exact if below `cutoff()` at the end, else a lower bound).
    fn classes_parallel(
        &mut self,
        open: &[(&[u32], u32)],
        depth: u32,
        sym: &Sym,
        total: u32,
        cutoff: &(dyn Fn() -> u32 + Sync),
    ) -> u32 {
        let sum = AtomicU64::new(u64::from(total));
        let next = AtomicUsize::new(0);
        let work = |s: &mut Search<'a>| {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(m, l)) = open.get(i) else {
                    break;
                };
                let t = sum.load(Ordering::Relaxed);
                let c = u64::from(cutoff());
                if t >= c {
                    next.store(open.len(), Ordering::Relaxed);
                    break;
                }
                let (v, _) = s.search(m, depth, sym, (c - t) as u32 + l, &mut |_, _| {});
                sum.fetch_add(u64::from(v.saturating_sub(l)), Ordering::Relaxed);
                if s.cancelled {
                    next.store(open.len(), Ordering::Relaxed);
                    break;
                }
            }
        };
        self.run_workers(&work);
        sum.load(Ordering::Relaxed).min(u64::from(INF)) as u32
    }

    /// The guesses of a large node (sorted options, the best total `best` found so far and the node's
    /// lower bound `lb`) searched by every thread of rayon's pool: the first alone (with its classes
    /// in parallel), so the others start with its total as cut-off, then each thread takes the next
    /// guess. The best total and its guess are shared: a guess is dropped once its partial total
    /// reaches what any thread found. Ties go to the earlier guess in the order, so the guess chosen
    /// is the one the sequential loop picks, whatever the timing. Gives (best, guess if below the
    /// `best` given, floor).
    fn options_parallel(
        &mut self,
        cands: &[u32],
        depth: u32,
        sym: &Sym,
        options: &[(u32, bool, u32)],
        best: u32,
        lb: u32,
    ) -> (u32, Option<u32>, u32) {
        let space = self.space;
        let mut floor = INF;
        // One guess per distinct split, in order.
        let mut seen: HashMap<u128, (), BuildHasherDefault<Fx>> = HashMap::default();
        let mut classes = Vec::with_capacity(cands.len());
        let mut list: Vec<(u32, u32)> = Vec::new();
        for &(bound, _, g) in options {
            if bound >= best {
                floor = floor.min(bound);
                break;
            }
            if seen
                .insert(split_hash(space, g, cands, &mut classes), ())
                .is_none()
            {
                list.push((bound, g));
            }
        }
        let Some(&(bound0, g0)) = list.first() else {
            return (best, None, floor);
        };
        let mut best_guess = None;
        let mut best = best;
        if best > lb {
            let cutoff = best;
            let total = self.eval_option(
                cands,
                depth,
                sym,
                g0,
                bound0,
                &|| cutoff,
                true,
                &mut |_, _| {},
            );
            if total < best {
                best = total;
                best_guess = Some(g0);
            } else {
                floor = floor.min(total);
            }
        }
        if best <= lb || list.len() == 1 || self.cancelled {
            return (best, best_guess, floor);
        }
        // (best total, rank of its guess): rank i + 1 for list[i], u32::MAX for none yet.
        let rank0 = if best_guess.is_some() { 1 } else { u32::MAX };
        let shared = AtomicU64::new(u64::from(best) << 32 | u64::from(rank0));
        let floor_shared = AtomicU32::new(floor);
        let next = AtomicUsize::new(1);
        let cut = |rank: u32| {
            let p = shared.load(Ordering::Relaxed);
            let (v, r) = ((p >> 32) as u32, p as u32);
            if rank < r { v + 1 } else { v }
        };
        let work = |s: &mut Search<'a>| {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(bound, g)) = list.get(i) else {
                    break;
                };
                let rank = i as u32 + 1;
                let c = cut(rank);
                if bound >= c || (shared.load(Ordering::Relaxed) >> 32) as u32 <= lb {
                    // The guesses after it have larger bounds and later ranks.
                    floor_shared.fetch_min(bound, Ordering::Relaxed);
                    next.store(list.len(), Ordering::Relaxed);
                    break;
                }
                let total = s.eval_option(
                    cands,
                    depth,
                    sym,
                    g,
                    bound,
                    &|| cut(rank),
                    true,
                    &mut |_, _| {},
                );
                if s.cancelled {
                    next.store(list.len(), Ordering::Relaxed);
                    break;
                }
                if total < cut(rank) {
                    shared.fetch_min(u64::from(total) << 32 | u64::from(rank), Ordering::Relaxed);
                } else {
                    floor_shared.fetch_min(total, Ordering::Relaxed);
                }
            }
        };
        self.run_workers(&work);
        let p = shared.load(Ordering::Relaxed);
        let (v, r) = ((p >> 32) as u32, p as u32);
        let guess = if r == u32::MAX {
            None
        } else {
            Some(list[r as usize - 1].1)
        };
        (v, guess, floor_shared.load(Ordering::Relaxed))
    }

    /// Runs `work` on this search and on a helper search per other thread of rayon's pool (sharing
    /// the memo; kept for the next parallel node, so their caches stay warm); the helpers' counters
    /// and cancellation are added to this one's.
    fn run_workers(&mut self, work: &(dyn Fn(&mut Search<'a>) + Sync)) {
        let threads = rayon::current_num_threads();
        let mut helpers = std::mem::take(&mut self.spare);
        while helpers.len() + 1 < threads {
            helpers.push(self.helper());
        }
        for h in &mut helpers {
            h.level = self.level;
        }
        rayon::scope(|scope| {
            for h in helpers.iter_mut() {
                scope.spawn(move |_| work(h));
            }
            work(self);
        });
        for h in &mut helpers {
            self.nodes += std::mem::take(&mut h.nodes);
            self.evals += std::mem::take(&mut h.evals);
            self.work += std::mem::take(&mut h.work);
            self.cancelled |= h.cancelled;
        }
        self.spare = helpers;
    }

    /// The bound of guess `g` on the candidates whose rows are `rows` (all of them when `lanes` is
    /// given or there are fewer than `SMALL`; otherwise counted from `cands` through the space), with
    /// the largest class (3 standing for "3 or more" on the lane paths), whether `g` is a candidate and
    /// whether it leaves every candidate in one class.
    #[inline(always)]
    fn score(
        &self,
        lanes: Option<&Lanes>,
        rows: &[&[u8]],
        g: u32,
        depth: u32,
        counts: &mut [u32; 81],
    ) -> (u32, u32, bool, bool) {
        let n = rows.len() as u32;
        let gi = g as usize;
        if let Some(lanes) = lanes {
            let (sum, acc) = if n <= 14 {
                let mut acc = 0u64;
                for r in rows {
                    acc += lanes.nibble[usize::from(r[gi])];
                }
                (lanes.nibbles(acc), None)
            } else {
                let mut acc = 0u128;
                for r in rows {
                    acc += lanes.byte[usize::from(r[gi])];
                }
                (lanes.bytes(acc), Some(acc))
            };
            // Without a triple, every class is a single or a pair; all singles if as many as secrets.
            let maxk = if sum.has_triple {
                3
            } else if sum.classes == n - u32::from(sum.is_cand) {
                1
            } else {
                2
            };
            let useless = sum.classes == 1 && !sum.is_cand;
            // With every class of at most K members and two guesses left for them, a class of k costs
            // at least 2k - 1 (1 found with its first guess, the rest with the next).
            let bound = if !sum.has_big && depth >= 3 {
                3 * n - 2 * u32::from(sum.is_cand) - sum.classes
            } else {
                let mut b = n;
                match acc {
                    Some(acc) => {
                        for k in lanes.sizes(acc) {
                            if k > 0 {
                                b = b.saturating_add(self.bound(k as usize, depth - 1));
                            }
                        }
                    }
                    None => {
                        // Few candidates: count them (nibbles never hold a big class).
                        let win = usize::from(self.space.win_class);
                        for r in rows {
                            counts[usize::from(r[gi])] += 1;
                        }
                        for r in rows {
                            let c = usize::from(r[gi]);
                            let k = std::mem::take(&mut counts[c]);
                            if k > 0 && c != win {
                                b = b.saturating_add(self.bound(k as usize, depth - 1));
                            }
                        }
                    }
                }
                b
            };
            return (bound, maxk, sum.is_cand, useless);
        }
        let space = self.space;
        let win = usize::from(space.win_class);
        let mut bound = n;
        let mut maxk = 0;
        let mut useless = false;
        let mut is_cand = false;
        for r in rows {
            counts[usize::from(r[gi])] += 1;
        }
        let mut class_size = |c: usize, k: u32| {
            if c == win {
                is_cand = true;
            } else {
                useless |= k == n;
                maxk = maxk.max(k);
                bound = bound.saturating_add(self.bound(k as usize, depth - 1));
            }
        };
        if rows.len() < SMALL {
            // Consume the counts (leaving them zero) without scanning every class.
            for r in rows {
                let c = usize::from(r[gi]);
                let k = std::mem::take(&mut counts[c]);
                if k > 0 {
                    class_size(c, k);
                }
            }
        } else {
            for (c, k) in counts[..space.nclass].iter_mut().enumerate() {
                let k = std::mem::take(k);
                if k > 0 {
                    class_size(c, k);
                }
            }
        }
        (bound, maxk, is_cand, useless)
    }

    /// The bound of guess `j` of the last chunk counted, as [`Search::score`].
    #[inline(always)]
    fn score_chunk(&self, lanes: &Lanes, j: usize, n: u32, depth: u32) -> (u32, u32, bool, bool) {
        let chunk = &self.chunk;
        let classes = u32::from(chunk.classes[j]);
        let is_cand = chunk.win[j] > 0;
        let max = u32::from(chunk.max[j]);
        let maxk = max.min(3);
        let useless = classes == 1 && !is_cand;
        let bound = if max <= self.kmax && depth >= 3 {
            3 * n - 2 * u32::from(is_cand) - classes
        } else {
            lanes
                .chunk_sizes(chunk, j)
                .filter(|&k| k > 0)
                .fold(n, |b, k| {
                    b.saturating_add(self.bound(k as usize, depth - 1))
                })
        };
        (bound, maxk, is_cand, useless)
    }

    /// The optimal guess for a candidate set, or `None` if it cannot be solved in `depth` guesses.
    pub fn best_guess(&mut self, cands: &[u32], depth: u32, sym: &Sym) -> Option<(u32, u32)> {
        let (v, g) = self.search(cands, depth, sym, INF, &mut |_, _| {});
        g.map(|g| (v, g))
    }
}

/// A hash of the split of `cands` by `g` as a set partition (classes relabelled by first appearance, the
/// winning class apart); `classes` is scratch space.
fn split_hash(space: &Space, g: u32, cands: &[u32], classes: &mut Vec<u8>) -> u128 {
    let win = usize::from(space.win_class);
    space.classes(g, cands, classes);
    let mut relabel = [u8::MAX; 81];
    let mut next = 0u8;
    let (mut h1, mut h2) = (0xcbf2_9ce4_8422_2325u64, 0x9e37_79b9_7f4a_7c15u64);
    for &c in classes.iter() {
        let l = if usize::from(c) == win {
            200
        } else {
            if relabel[usize::from(c)] == u8::MAX {
                relabel[usize::from(c)] = next;
                next += 1;
            }
            relabel[usize::from(c)]
        };
        h1 = (h1 ^ u64::from(l)).wrapping_mul(0x100_0000_01b3);
        h2 = (h2.rotate_left(7) ^ u64::from(l)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    }
    u128::from(h1) << 64 | u128::from(h2)
}

/// The canonical guesses of a group, kept per group in `cache` (many histories share one).
fn canonical(
    space: &Space,
    all: &Arc<[u32]>,
    cache: &mut HashMap<Vec<u8>, Arc<[u32]>, BuildHasherDefault<Fx>>,
    sym: &Sym,
) -> Arc<[u32]> {
    if sym.is_trivial() {
        return Arc::clone(all);
    }
    Arc::clone(
        cache
            .entry(sym.key())
            .or_insert_with(|| Arc::from(sym.canonical(&space.codes, &space.guesses))),
    )
}

/// Whether the dead colours of `code` (those in `dead`) are the smallest dead colours: with repeated
/// colours all the smallest, without them the smallest, the next, ... in order of position.
#[inline]
pub(crate) fn dead_normal(code: &crate::code::Code, dead: u16, repeats: bool) -> bool {
    let mut left = dead;
    for &c in code.pegs() {
        let bit = 1u16 << c;
        if dead & bit != 0 {
            let want = left & left.wrapping_neg();
            if bit != want {
                return false;
            }
            if !repeats {
                left &= !bit;
            }
        }
    }
    true
}

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
fn optimal_tree_with(
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
fn sequential_tree(
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
type Subtree = (u8, Vec<TreeNode>);

/// What the search of one class of the first guess gave.
#[derive(Default)]
enum ClassResult {
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
fn stitch(space: &Space, g: u32, total: u32, subtrees: Vec<Subtree>) -> StrategyTree {
    let nodes = join_nodes(space, &space.secrets, g, subtrees);
    debug_assert_eq!(nodes[0].total, u64::from(total));
    StrategyTree::from_nodes(space.variant, Strategy::Optimal, nodes)
}

/// The nodes of the subtree for `cands` with guess `g` at its root and the subtrees of its classes
/// (in class order), root first, indices local.
fn join_nodes(space: &Space, cands: &[u32], g: u32, subtrees: Vec<Subtree>) -> Vec<TreeNode> {
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
    use crate::feedback::feedback;

    /// The naive normal form: dead colours replaced, in order of position, by the smallest dead colours
    /// (all by the smallest with repeats; the smallest, the next, ... without).
    fn normal_form(code: &crate::code::Code, dead: u16, repeats: bool) -> Vec<u8> {
        let deads: Vec<u8> = (0..16).filter(|c| dead & (1 << c) != 0).collect();
        let mut next = 0;
        code.pegs()
            .iter()
            .map(|&c| {
                if dead & (1 << c) == 0 {
                    c
                } else if repeats {
                    deads[0]
                } else {
                    next += 1;
                    deads[next - 1]
                }
            })
            .collect()
    }

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

    /// A shared memo keeps an exact entry over a later lower bound, and the higher of two bounds.
    #[test]
    fn shared_memo_keeps_the_stronger_entry() {
        let mut memo = Memo::Shared(Arc::new(SharedMemo::new()));
        let key: Key = (3, 0, vec![1, 2, 3]);
        memo.insert(key.clone(), Entry::Lower(10));
        memo.insert(key.clone(), Entry::Lower(8));
        assert!(matches!(memo.get(&key), Some(Entry::Lower(10))));
        memo.insert(key.clone(), Entry::Exact(12, 7));
        memo.insert(key.clone(), Entry::Lower(11));
        assert!(matches!(memo.get(&key), Some(Entry::Exact(12, 7))));
        assert!(memo.get(&(2, 0, vec![1, 2, 3])).is_none());
    }

    #[test]
    fn dead_filter_matches_naive_normal_form_and_keeps_feedback() {
        for v in [
            Variant::CLASSIC,
            Variant::custom(7, 4, 10, false, false).unwrap(),
        ] {
            let codes = v.guess_codes();
            let repeats = v.guess_repeats();
            for dead in [0b11u16, 0b1010, 0b11100, 0b110001] {
                for code in &codes {
                    let normal = normal_form(code, dead, repeats);
                    assert_eq!(dead_normal(code, dead, repeats), normal == code.pegs());
                    // The normal form splits the codes without the dead colours as the code does.
                    let n = crate::code::Code::from_pegs(&normal).unwrap();
                    for s in codes
                        .iter()
                        .filter(|s| s.pegs().iter().all(|&c| dead & (1 << c) == 0))
                    {
                        assert_eq!(feedback(*s, *code), feedback(*s, n));
                    }
                }
            }
        }
    }
}
