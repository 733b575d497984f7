//! Retrograde analysis by rounds over the dense index.
//!
//! Every slot holds one byte: while a position is undecided, the number of its moves not yet known to lead to a
//! won position for the opponent (a move count, at most 40); once decided, [`DECIDED`] plus its distance to the end
//! in plies; [`UNUSED`] for the spare slots of self-mirrored placements.
//!
//! * Start: a position with a goal move is won in 1; one without any legal move is lost in 0; one whose every move
//!   lets the opponent step into its goal is lost in 2. The counters leave out the moves into positions with a
//!   goal move (they are known to be won for the opponent), so round 2 does not walk back from those positions.
//! * Round `d` takes the positions decided at distance `d - 1` (the frontier) and walks back along every move into
//!   them (un-moves, generated, never stored). Behind a lost frontier every undecided parent is won in `d`; behind
//!   a won one, a parent's counter drops by one per move into it, and a parent whose last move is gone is lost in
//!   `d`. A move into a mirror class counts once per move, whatever the orientation (see [`weight`]).
//! * The solve ends when a round decides nothing; every position still undecided is a draw: neither side can force
//!   a result in finitely many plies.
//!
//! Rounds only read slots at distance `d - 1` and only write undecided ones, so the work of a round can be split
//! over threads in any order and the result does not depend on it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

use rayon::prelude::*;

use super::index::{Indexer, Located, Raw};
use super::table::{self, Counts, FileKind, Table, TableError};
use crate::Dims;

/// Slot code of a decided position at distance 0; distance `d` is `DECIDED + d`.
pub(crate) const DECIDED: u8 = 64;
/// Slot code of an unused slot.
pub(crate) const UNUSED: u8 = 255;
/// The largest distance a slot can hold.
pub(crate) const MAX_DISTANCE: u32 = (UNUSED - DECIDED - 1) as u32;

/// What the solver is doing, for [`Progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading a checkpoint written by an interrupted solve.
    Resume,
    /// Counting every position's moves and marking the positions decided at once.
    Init,
    /// Working back one ply: deciding the positions at this distance.
    Round(u32),
    /// Writing a checkpoint.
    Checkpoint,
}

/// A progress report: `done` of `total` work units of the current stage (units are placements of the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The stage.
    pub stage: Stage,
    /// Work done in this stage.
    pub done: u64,
    /// Work in this stage.
    pub total: u64,
    /// Positions decided so far (won or lost), over all stages.
    pub decided: u64,
    /// Positions of the board (index slots in use are counted at the end; this is the index size).
    pub slots: u64,
}

/// How to solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Where to keep a checkpoint between rounds (resumed if present and valid, deleted when the solve completes).
    pub checkpoint: Option<PathBuf>,
    /// Least time between two checkpoints (zero: after every round).
    pub checkpoint_every: Duration,
    /// Set to stop the solve at the end of the current round (after writing a checkpoint).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Why a solve did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The solve was cancelled (a checkpoint was written if one was asked for).
    #[error("solve cancelled after round {0}")]
    Cancelled(u32),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A distance beyond what a table can hold (never on boards up to 6x5).
    #[error("distance {0} does not fit in a table")]
    TooDeep(u32),
    /// The slots (one byte per position) could not be allocated.
    #[error("not enough memory: solving this board needs {0} bytes")]
    OutOfMemory(u64),
}

/// Weight of an un-move into a won child: how many moves of the canonical parent it stands for (0, 1 or 2).
///
/// Un-moves are generated from the stored child only. A parent class with two orientations meets a mirror-pair
/// child once per move; a self-mirrored parent sees only half of its moves into a mirror pair (the other half go to
/// the mirror image), so each counts twice; and into a self-mirrored child, both orientations of an asymmetric
/// parent are found, so only the canonical one counts.
#[inline(always)]
pub(crate) fn weight(child_symmetric: bool, q: &Located) -> u8 {
    match (child_symmetric, q.symmetric) {
        (false, true) => 2,
        (true, false) if !q.canonical => 0,
        _ => 1,
    }
}

struct Solver<'a> {
    ix: &'a Indexer,
    slots: Vec<AtomicU8>,
    decided: AtomicU64,
}

/// Most un-moves into one position: 5 White tops, 8 directions each.
const MAX_PARENTS: usize = 40;

/// Number of sequential batches a pass is split into (progress is reported between them).
const BATCHES: u64 = 200;

impl Solver<'_> {
    /// Runs `f(raw, index, code)` over every slot whose code satisfies `want`, in parallel, reporting progress.
    fn pass(
        &self,
        stage: Stage,
        want: impl Fn(u8) -> bool + Sync,
        f: impl Fn(&Raw, u64, bool) + Sync,
        progress: &mut dyn FnMut(&Progress),
    ) {
        let ix = self.ix;
        let np = ix.placements();
        let nc = ix.colourings();
        let batches = BATCHES.min(np.max(1));
        for b in 0..batches {
            let (lo, hi) = (np * b / batches, np * (b + 1) / batches);
            (lo as usize..hi as usize)
                .into_par_iter()
                .with_min_len(64)
                .for_each(|p| {
                    let p = p as u64;
                    let base = p * nc;
                    let mut placement = None;
                    for c in 0..nc {
                        let code = self.slots[(base + c) as usize].load(Ordering::Relaxed);
                        if !want(code) {
                            continue;
                        }
                        let (occ, sym) = *placement.get_or_insert_with(|| {
                            let codes = ix.placement(p);
                            (ix.occupancy(&codes), ix.placement_symmetric(&codes))
                        });
                        let raw = ix.with_colouring(occ, c);
                        f(&raw, base + c, sym);
                    }
                });
            progress(&Progress {
                stage,
                done: hi,
                total: np,
                decided: self.decided.load(Ordering::Relaxed),
                slots: ix.len(),
            });
        }
    }

    fn init(&self, progress: &mut dyn FnMut(&Progress)) {
        let ix = self.ix;
        self.pass(
            Stage::Init,
            |_| true,
            |raw, i, sym| {
                let slot = &self.slots[i as usize];
                let code = if sym && ix.locate(raw).index != i {
                    UNUSED
                } else if ix.has_goal_move(raw) {
                    self.decided.fetch_add(1, Ordering::Relaxed);
                    DECIDED + 1
                } else if ix.count_moves(raw) == 0 {
                    self.decided.fetch_add(1, Ordering::Relaxed);
                    DECIDED
                } else {
                    // Moves into positions won in 1 by a goal move are counted out now, so round 2 need not walk
                    // back from the (many) positions with a goal move; if every move is one, the position is
                    // lost in 2.
                    match ix.count_moves_without_goal_reply(raw) {
                        0 => {
                            self.decided.fetch_add(1, Ordering::Relaxed);
                            DECIDED + 2
                        }
                        n => n as u8,
                    }
                };
                slot.store(code, Ordering::Relaxed);
            },
            progress,
        );
    }

    /// Round `d`: decides the positions at distance `d`; returns how many.
    fn round(&self, d: u32, progress: &mut dyn FnMut(&Progress)) -> u64 {
        let ix = self.ix;
        let frontier = DECIDED + (d - 1) as u8;
        let new = DECIDED + d as u8;
        let count = AtomicU64::new(0);
        let wins = d % 2 == 1;
        self.pass(
            Stage::Round(d),
            |c| c == frontier,
            |raw, _, sym_placement| {
                // Moves into positions with a goal move were never counted (see `init`).
                if d == 2 && ix.has_goal_move(raw) {
                    return;
                }
                let child_sym = sym_placement && ix.locate(raw).symmetric;
                // First every parent's slot and weight, then the slots' bytes (independent loads, so their cache
                // misses overlap), then the updates.
                let mut parents = [(0usize, 0u8); MAX_PARENTS];
                let mut np = 0;
                ix.for_each_parent(raw, |q| {
                    // A parent with a goal move was decided (won in 1) at the start: nothing to do, and no need
                    // to locate it.
                    if ix.has_goal_move(&q) || np == MAX_PARENTS {
                        return;
                    }
                    let loc = ix.locate(&q);
                    let w = if wins { 1 } else { weight(child_sym, &loc) };
                    if w > 0 {
                        parents[np] = (loc.index as usize, w);
                        np += 1;
                    }
                });
                let mut seen = [0u8; MAX_PARENTS];
                for (s, &(i, _)) in seen.iter_mut().zip(&parents[..np]) {
                    *s = self.slots[i].load(Ordering::Relaxed);
                }
                let mut n = 0u64;
                for (&(i, w), &first) in parents[..np].iter().zip(&seen) {
                    let slot = &self.slots[i];
                    let mut v = first;
                    while v < DECIDED {
                        let nv = if wins || v <= w { new } else { v - w };
                        match slot.compare_exchange_weak(
                            v,
                            nv,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        ) {
                            Ok(_) => {
                                n += (nv == new) as u64;
                                break;
                            }
                            Err(x) => v = x,
                        }
                    }
                }
                if n > 0 {
                    count.fetch_add(n, Ordering::Relaxed);
                    self.decided.fetch_add(n, Ordering::Relaxed);
                }
            },
            progress,
        );
        count.into_inner()
    }
}

/// Solves a board: the value and distance of every position with `cols` pieces a side (the reachable ones and the
/// few others), folded by the mirror. Resumes from `options.checkpoint` if it holds a valid checkpoint of this
/// board.
pub fn solve(
    dims: Dims,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Table, SolveError> {
    let start = Instant::now();
    let ix = Indexer::new(dims);
    let n = ix.len() as usize;
    let mut first_round = 1;
    let resumed = match &options.checkpoint {
        Some(path) if path.exists() => {
            progress(&Progress {
                stage: Stage::Resume,
                done: 0,
                total: 1,
                decided: 0,
                slots: ix.len(),
            });
            match table::read(path, dims, FileKind::Checkpoint) {
                Ok((round, data)) => {
                    first_round = round + 1;
                    Some(data)
                }
                // A damaged or foreign checkpoint is dropped: the solve starts again.
                Err(_) => None,
            }
        }
        _ => None,
    };
    let solver = match resumed {
        Some(data) => {
            let decided = data
                .iter()
                .filter(|&&c| (DECIDED..UNUSED).contains(&c))
                .count() as u64;
            Solver {
                ix: &ix,
                slots: data.into_iter().map(AtomicU8::new).collect(),
                decided: AtomicU64::new(decided),
            }
        }
        None => {
            let mut slots = Vec::new();
            slots
                .try_reserve_exact(n)
                .map_err(|_| SolveError::OutOfMemory(n as u64))?;
            slots.extend(std::iter::repeat_with(|| AtomicU8::new(0)).take(n));
            let s = Solver {
                ix: &ix,
                slots,
                decided: AtomicU64::new(0),
            };
            s.init(progress);
            // The start counts as round 0: on a large board it is worth keeping.
            if let Some(path) = &options.checkpoint
                && start.elapsed() >= options.checkpoint_every
            {
                table::write(path, dims, FileKind::Checkpoint, 0, s.slots.as_slice())?;
            }
            s
        }
    };
    let mut last_checkpoint = Instant::now();
    let mut d = first_round;
    loop {
        if d > MAX_DISTANCE {
            return Err(SolveError::TooDeep(d));
        }
        let found = solver.round(d, progress);
        let done = found == 0 && d >= 2;
        let cancelled = options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        if let Some(path) = &options.checkpoint
            && !done
            && (cancelled || last_checkpoint.elapsed() >= options.checkpoint_every)
        {
            progress(&Progress {
                stage: Stage::Checkpoint,
                done: 0,
                total: 1,
                decided: solver.decided.load(Ordering::Relaxed),
                slots: ix.len(),
            });
            table::write(path, dims, FileKind::Checkpoint, d, solver.slots.as_slice())?;
            last_checkpoint = Instant::now();
        }
        if done {
            break;
        }
        if cancelled {
            return Err(SolveError::Cancelled(d));
        }
        d += 1;
    }
    // Undecided positions are draws: code 0. (Converted in place: no second copy of the slots.)
    let mut data: Vec<u8> = solver.slots.into_iter().map(AtomicU8::into_inner).collect();
    data.par_chunks_mut(1 << 20).for_each(|chunk| {
        for c in chunk.iter_mut() {
            if *c < DECIDED {
                *c = 0;
            }
        }
    });
    let counts = Counts::of(&data);
    if let Some(path) = &options.checkpoint {
        let _ = std::fs::remove_file(path);
    }
    Ok(Table::from_parts(ix, data, counts, start.elapsed()))
}
