//! A node's scan: the guesses worth trying and each one's bound from its feedback classes.

use super::CHUNK_DENSE;
use super::CHUNK_MIN;
use super::INF;
use super::LANE_MAX;
use super::SMALL;
use super::Search;
use super::memo::Fx;
use crate::lanes::CHUNK;
use crate::lanes::Lanes;
use crate::space::Space;
use crate::sym::Sym;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// What a node's scan found: the best exact cost so far (a guess whose classes are all singles or pairs) and its
/// guess, the least lower bound proven for a guess that failed (`floor`), and the guesses still to explore with
/// their bounds (`options`: bound, not a candidate, guess).
pub(super) struct Scan {
    pub(super) best: u32,
    pub(super) best_guess: Option<u32>,
    pub(super) floor: u32,
    pub(super) options: Vec<(u32, bool, u32)>,
    /// The node's lower bound: reaching it ends the scan.
    pub(super) lb: u32,
}

impl Scan {
    /// Takes a guess's score (bound, largest class, candidate, useless); true once the best reaches the node's
    /// lower bound (stop).
    pub(super) fn consider(
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
pub(super) enum Guesses {
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
    pub(super) fn as_slice(&self) -> &[u32] {
        match self {
            Guesses::None => &[],
            Guesses::Shared(list) => list,
            Guesses::Owned(list) | Guesses::Kept(list, _) => list,
        }
    }
}

impl<'a> Search<'a> {
    /// Scores every guess worth trying at the node by its bound. A guess whose classes all have at most 2
    /// members costs exactly its bound (it may become the best at once); the others become options, explored
    /// later best bound first.
    pub(super) fn scan(
        &mut self,
        cands: &[u32],
        depth: u32,
        sym: &Sym,
        beta: u32,
        lb: u32,
    ) -> Scan {
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
    pub(super) fn guesses(&mut self, cands: &[u32], sym: &Sym) -> Guesses {
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

    /// The bound of guess `g` on the candidates whose rows are `rows` (all of them when `lanes` is
    /// given or there are fewer than `SMALL`; otherwise counted from `cands` through the space), with
    /// the largest class (3 standing for "3 or more" on the lane paths), whether `g` is a candidate and
    /// whether it leaves every candidate in one class.
    #[inline(always)]
    pub(super) fn score(
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
    pub(super) fn score_chunk(
        &self,
        lanes: &Lanes,
        j: usize,
        n: u32,
        depth: u32,
    ) -> (u32, u32, bool, bool) {
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
}

/// The canonical guesses of a group, kept per group in `cache` (many histories share one).
pub(super) fn canonical(
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
