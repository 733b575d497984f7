//! The searches of one node shared by the threads of rayon's pool: its guesses, or a guess's open classes.

use super::INF;
use super::Search;
use super::explore::split_hash;
use super::memo::Fx;
use crate::sym::Sym;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;

impl<'a> Search<'a> {
    /// The open classes of a guess (members, lower bound from the probe) searched by every thread of
    /// rayon's pool, each taking the next class (largest first) with a cut-off from the total so far;
    /// the guess's total (exact if below `cutoff()` at the end, else a lower bound).
    pub(super) fn classes_parallel(
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
    pub(super) fn options_parallel(
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
    pub(super) fn run_workers(&mut self, work: &(dyn Fn(&mut Search<'a>) + Sync)) {
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
}
