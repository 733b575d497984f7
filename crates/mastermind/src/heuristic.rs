//! The one-step heuristics' choice of a guess: the scores, the tie rule and the fast partition counts.
//!
//! Rule (stated in RULES.md and on [`Strategy`]):
//! 1. Two candidates or fewer: the first candidate. Otherwise, when some candidate splits the candidates
//!    into parts of one each (every secret then takes at most two more guesses, the least possible), the
//!    first such candidate in numeric order.
//! 2. Otherwise every allowed guess is scored by how it splits the candidates by feedback (`n` candidates
//!    in the part of each feedback), a candidate guess being credited for the secret it may hit:
//!    - knuth (Knuth's published rule): the largest part, smallest wins, and among equals a candidate
//!      (scored as twice the largest part, minus 1 for a candidate);
//!    - knuth-sorted: the part sizes sorted from largest down, compared in turn (the all-black part
//!      counted as 0), smallest wins;
//!    - expected-size: sum of n², minus 1 for a candidate;
//!    - entropy: sum of n ln n, minus 2 ln 2 for a candidate (fixed point, 2^-32, so equal splits tie
//!      exactly);
//!    - most-parts: the number of parts (the all-black one included) twice, plus 1 for a candidate,
//!      largest wins.
//! 3. Ties: the lowest guess in numeric order.
//!
//! Only one guess per class of equivalent guesses is scored: the least code of each orbit of the
//! history's symmetries ([`Sym`]) that is also normal in its "dead" colours (colours in no candidate add
//! nothing to any feedback, so they are interchangeable). Equivalent guesses split the candidates alike
//! and the least of them is scored, so the choice is the one the rule gives over all guesses.
//!
//! Speed (no feedback table is needed): the candidates are laid out by position in blocks of 32
//! ([`Columns`]); a guess's classes are its colours in common with each candidate, one byte per
//! colour-count kind of guess computed once per node ([`Kinds`]), plus its black pegs, counted position
//! by position on 32 candidates at once (compiled for AVX2 when the processor has it). Guesses are
//! tried in numeric order after two seeds (the last choice and the first candidate) that give an early
//! bound; all the guesses of one colour-count kind are skipped at once when an even split of the
//! candidates by colours in common (into at most `t + 1` parts by black pegs) already loses; a guess is
//! dropped as soon as its partial counts lose (every score but most-parts only grows as candidates are
//! added); the scan stops once a guess reaches the best score possible.

use std::collections::HashMap;

use crate::kinds::{BLOCK, Columns, Kinds, with_simd};
use crate::space::Space;
use crate::strategy::Strategy;
use crate::sym::Sym;

/// Fixed-point scale of the entropy scores.
const ENTROPY_SCALE: f64 = 4_294_967_296.0;
/// Count slots (at least `(pegs + 1)^2 = 81`, a power of two so indices need no bounds check).
const SLOTS: usize = 128;

/// The entropy score's table for a space of up to `n` candidates, made once per space ([`Space::entropy_table`]):
/// a breaker off its tree makes a chooser at every guess, and making the table each time (a logarithm for each of
/// the space's codes) was most of a short choice's time.
pub(crate) struct EntropyTable {
    /// `nlogn[n]` = n ln n in fixed point.
    pub nlogn: Vec<i64>,
    /// `step[n] = nlogn[n + 1] - nlogn[n]`.
    pub step: Vec<i64>,
}

impl EntropyTable {
    /// The table for counts from 0 to `n`.
    pub fn new(n: usize) -> EntropyTable {
        let nlogn: Vec<i64> = (0..=n)
            .map(|n| {
                let x = n as f64;
                if n < 2 {
                    0
                } else {
                    (x * x.ln() * ENTROPY_SCALE).round() as i64
                }
            })
            .collect();
        let step = nlogn.windows(2).map(|w| w[1] - w[0]).collect();
        EntropyTable { nlogn, step }
    }
}

/// Chooses the heuristic guesses of one strategy over one space, keeping what can be reused between
/// calls (guess lists per set of dead colours, the entropy table, scratch space).
pub(crate) struct Chooser<'s> {
    space: &'s Space,
    strategy: Strategy,
    /// For a trivial symmetry group: the guesses normal in each set of dead colours.
    dead_lists: HashMap<u16, Vec<u32>>,
    /// `nlogn[n]` = n ln n in fixed point (entropy only; the space's [`EntropyTable`]).
    nlogn: &'s [i64],
    /// `step[n] = nlogn[n + 1] - nlogn[n]`.
    step: &'s [i64],
    /// The candidates of the current call by position, and their common colours per guess kind.
    columns: Columns,
    /// Classes of the current guess against every candidate (padded to whole blocks).
    cls: Vec<[u8; BLOCK]>,
    /// The best knuth-sorted split so far, sorted from largest down.
    best_sorted: Vec<u32>,
    sorted: Vec<u32>,
    /// Per kind of guess, a lower bound of the score of every guess of that kind (`i64::MIN` until
    /// computed for the current call).
    kind_lb: Vec<i64>,
    /// The guess chosen by the last call of [`Chooser::choose`] (a first bound for the next).
    last: Option<u32>,
}

impl<'s> Chooser<'s> {
    /// A chooser for `strategy` (a heuristic; `Optimal` is scored as most-parts) on `space`.
    pub fn new(space: &'s Space, strategy: Strategy) -> Chooser<'s> {
        let strategy = match strategy {
            Strategy::Optimal => Strategy::MostParts,
            Strategy::Best => Strategy::Entropy,
            s => s,
        };
        let (nlogn, step): (&[i64], &[i64]) = if strategy == Strategy::Entropy {
            let table = space.entropy_table();
            (&table.nlogn, &table.step)
        } else {
            (&[], &[])
        };
        Chooser {
            space,
            strategy,
            step,
            dead_lists: HashMap::new(),
            nlogn,
            columns: Columns::default(),
            cls: Vec::new(),
            best_sorted: Vec::new(),
            sorted: Vec::new(),
            last: None,
            kind_lb: Vec::new(),
        }
    }

    /// The guess for the candidates `cands` (indices in increasing order, at least one) after a history
    /// with symmetries `sym`, over all allowed guesses.
    pub fn choose(&mut self, cands: &[u32], sym: &Sym) -> u32 {
        if let Some(g) = self.obvious(cands) {
            return g;
        }
        let space = self.space;
        let dead = dead_colours(space, cands);
        let repeats = space.variant.guess_repeats();
        if sym.is_trivial() {
            if dead.count_ones() < 2 {
                let g = self.best(cands, &space.guesses, false, 0, true);
                self.last = Some(g);
                return g;
            }
            let list = self.dead_lists.remove(&dead).unwrap_or_else(|| {
                space
                    .guesses
                    .iter()
                    .copied()
                    .filter(|&g| dead_normal(space, g, dead, repeats))
                    .collect()
            });
            let g = self.best(cands, &list, false, 0, true);
            self.dead_lists.insert(dead, list);
            self.last = Some(g);
            g
        } else {
            let canon = sym.canonical(&space.codes, &space.guesses);
            let g = self.best(cands, canon, dead.count_ones() >= 2, dead, true);
            self.last = Some(g);
            g
        }
    }

    /// The `width` best guesses for `cands` after a history with symmetries `sym`, best first: one per
    /// class of equivalent guesses, ranked by the strategy's score, ties in numeric order (for knuth-sorted
    /// the sorted-parts tie rule is not applied beyond the first). `width <= 1` gives exactly
    /// [`Chooser::choose`]; so does rule 1 (a set of two or fewer, or a candidate splitting the others
    /// apart: that guess alone, as nothing does better).
    pub fn rank(&mut self, cands: &[u32], sym: &Sym, width: usize) -> Vec<u32> {
        if width <= 1 {
            return vec![self.choose(cands, sym)];
        }
        if let Some(g) = self.obvious(cands) {
            return vec![g];
        }
        let space = self.space;
        let dead = dead_colours(space, cands);
        let repeats = space.variant.guess_repeats();
        if sym.is_trivial() {
            let list = self.dead_lists.remove(&dead).unwrap_or_else(|| {
                space
                    .guesses
                    .iter()
                    .copied()
                    .filter(|&g| dead.count_ones() < 2 || dead_normal(space, g, dead, repeats))
                    .collect()
            });
            let top = with_simd(
                #[inline(always)]
                || self.top_body(cands, &list, false, 0, width),
            );
            self.dead_lists.insert(dead, list);
            top
        } else {
            let canon = sym.canonical(&space.codes, &space.guesses);
            let filter = dead.count_ones() >= 2;
            with_simd(
                #[inline(always)]
                || self.top_body(cands, canon, filter, dead, width),
            )
        }
    }

    /// The body of [`Chooser::rank`]: the scan of [`Chooser::best_body`] keeping the `width` best
    /// `(score, guess)` pairs, the bound of a guess being the last of them once there are `width`.
    #[inline(always)]
    fn top_body(
        &mut self,
        cands: &[u32],
        guesses: &[u32],
        filter: bool,
        dead: u16,
        width: usize,
    ) -> Vec<u32> {
        let space = self.space;
        let repeats = space.variant.guess_repeats();
        let k = space.kinds();
        self.columns.start(space, cands);
        self.kind_lb.clear();
        self.kind_lb.resize(k.common.len(), i64::MIN);
        let mut top: Vec<(i64, u32)> = Vec::with_capacity(width + 1);
        let mut counts = [0u32; SLOTS];
        for &g in guesses {
            if filter && !dead_normal(space, g, dead, repeats) {
                continue;
            }
            // Guesses come in numeric order: a tie with the last kept loses.
            let bound = if top.len() < width {
                i64::MAX
            } else {
                top[width - 1].0
            };
            let kind = usize::from(k.kind[g as usize]);
            if self.kind_bound(k, kind) >= bound {
                continue;
            }
            let Some(key) = self.evaluate(k, g, &mut counts, bound) else {
                continue;
            };
            if top.len() == width && key >= bound {
                continue;
            }
            let at = top.partition_point(|&(b, bg)| (b, bg) < (key, g));
            top.insert(at, (key, g));
            top.truncate(width);
        }
        if top.is_empty() {
            return vec![cands[0]];
        }
        top.into_iter().map(|(_, g)| g).collect()
    }

    /// The guess for `cands` among `guesses` (indices in increasing order; no symmetry assumed).
    pub fn choose_among(&mut self, cands: &[u32], guesses: &[u32]) -> u32 {
        if let Some(g) = self.obvious(cands) {
            return g;
        }
        self.best(cands, guesses, false, 0, false)
    }

    /// Rule 1: the first candidate when two or fewer are left, else the first candidate that splits
    /// the candidates into parts of one (only possible for up to `pegs (pegs + 3) / 2` candidates).
    fn obvious(&mut self, cands: &[u32]) -> Option<u32> {
        let space = self.space;
        if cands.len() <= 2 {
            return cands.first().copied();
        }
        let p = usize::from(space.variant.pegs());
        if cands.len() > p * (p + 3) / 2 {
            return None;
        }
        'guess: for &g in cands {
            let mut seen = 0u128;
            for &s in cands {
                let bit = 1u128 << space.class(g, s);
                if seen & bit != 0 {
                    continue 'guess;
                }
                seen |= bit;
            }
            return Some(g);
        }
        None
    }

    /// Rules 2 and 3 over `guesses` (those not normal in the `dead` colours skipped when `filter`).
    ///
    /// With `seeded` (`guesses` standing for every allowed guess), the last call's guess and the first
    /// candidate are scored first, for an early bound: a guess equivalent to a seed has the seed's
    /// score, so the least guess with the best score is still the one chosen.
    fn best(
        &mut self,
        cands: &[u32],
        guesses: &[u32],
        filter: bool,
        dead: u16,
        seeded: bool,
    ) -> u32 {
        with_simd(
            #[inline(always)]
            || self.best_body(cands, guesses, filter, dead, seeded),
        )
    }

    /// The body of [`Chooser::best`].
    #[inline(always)]
    fn best_body(
        &mut self,
        cands: &[u32],
        guesses: &[u32],
        filter: bool,
        dead: u16,
        seeded: bool,
    ) -> u32 {
        let space = self.space;
        let repeats = space.variant.guess_repeats();
        let k = space.kinds();
        self.columns.start(space, cands);
        self.kind_lb.clear();
        self.kind_lb.resize(k.common.len(), i64::MIN);
        let n = cands.len() as i64;
        // The best score any guess can reach once no candidate splits the candidates into parts of one
        // (rule 1 failed): parts of one, the guess not a candidate. The scan stops there.
        let floor = match self.strategy {
            Strategy::Knuth => 2,
            Strategy::KnuthSorted => 1,
            Strategy::ExpectedSize => n,
            Strategy::Entropy => 0,
            Strategy::MostParts | Strategy::Optimal | Strategy::Best => -2 * n,
        };
        let mut best: Option<(i64, u32)> = None;
        let mut counts = [0u32; SLOTS];
        let seeds = if seeded {
            let allowed = |g: &u32| space.guesses.binary_search(g).is_ok();
            [self.last.filter(allowed), Some(cands[0]).filter(allowed)]
        } else {
            [None, None]
        };
        let nseeds = seeds.len();
        let mut at_floor = false;
        let scan = seeds.into_iter().chain(guesses.iter().copied().map(Some));
        for (i, g) in scan.enumerate() {
            let Some(g) = g else { continue };
            // In the scan (numeric order), nothing after a best at the floor can beat it.
            if at_floor && i >= nseeds && best.is_some_and(|(_, bg)| g > bg) {
                break;
            }
            if filter && !dead_normal(space, g, dead, repeats) {
                continue;
            }
            if best.is_some_and(|(_, b)| b == g) {
                continue;
            }
            // A tie with the best so far wins only for a guess before it in numeric order.
            let bound = best.map_or(i64::MAX, |(b, bg)| if g < bg { b + 1 } else { b });
            // All the guesses of one colour-count kind share a bound: skip them together.
            let kind = usize::from(k.kind[g as usize]);
            if self.kind_bound(k, kind) >= bound {
                continue;
            }
            let Some(key) = self.evaluate(k, g, &mut counts, bound) else {
                continue;
            };
            let better = match best {
                None => true,
                Some((b, bg)) => {
                    key < b
                        || (key == b
                            && if self.strategy == Strategy::KnuthSorted {
                                self.sorted < self.best_sorted
                                    || (self.sorted == self.best_sorted && g < bg)
                            } else {
                                g < bg
                            })
                }
            };
            if better {
                best = Some((key, g));
                if self.strategy == Strategy::KnuthSorted {
                    std::mem::swap(&mut self.best_sorted, &mut self.sorted);
                    at_floor = key == floor && self.best_sorted.len() == cands.len();
                } else {
                    at_floor = key == floor;
                }
            }
        }
        best.map_or(cands[0], |(_, g)| g)
    }

    /// A lower bound of the score of every guess of colour-count kind `kind` for the current
    /// candidates (for knuth-sorted, of its largest part; a guess whose bound is `>=` the best's loses, as in
    /// [`Chooser::evaluate`]). The candidates sharing `t` colours with the guess split by black pegs
    /// into at most `t + 1` parts (`pegs` when `t = pegs`: not `pegs - 1` black and 1 white), and an
    /// even split is the best each score can hope for.
    fn kind_bound(&mut self, k: &Kinds, kind: usize) -> i64 {
        if self.kind_lb[kind] != i64::MIN {
            return self.kind_lb[kind];
        }
        let n = self.columns.n;
        let p = usize::from(self.space.variant.pegs());
        let mut by_common = [0usize; 9];
        for (b, block) in self.columns.common(k, kind).iter().enumerate() {
            for &t in &block[..BLOCK.min(n - b * BLOCK)] {
                by_common[usize::from(t).min(8)] += 1;
            }
        }
        let credit2 = self.nlogn.get(2).copied().unwrap_or(0);
        let mut lb = 0i64;
        for (t, &m) in by_common.iter().enumerate().take(p + 1) {
            if m == 0 {
                continue;
            }
            let q = if t == p { p } else { t + 1 };
            let (base, r) = (m / q, m % q);
            lb += match self.strategy {
                Strategy::Knuth | Strategy::KnuthSorted => 0,
                Strategy::ExpectedSize => {
                    (r * (base + 1) * (base + 1) + (q - r) * base * base) as i64
                }
                Strategy::Entropy => {
                    r as i64 * self.nlogn[base + 1] + (q - r) as i64 * self.nlogn[base]
                }
                Strategy::MostParts | Strategy::Optimal | Strategy::Best => m.min(q) as i64,
            };
            if matches!(self.strategy, Strategy::Knuth | Strategy::KnuthSorted) {
                lb = lb.max(m.div_ceil(q) as i64);
            }
        }
        let lb = match self.strategy {
            // Twice the largest part, less 1 at most for a candidate.
            Strategy::Knuth => 2 * lb - 1,
            // The largest part is never the all-black one alone (see `evaluate`); a larger bound
            // than the best's largest part loses, an equal one may not.
            Strategy::KnuthSorted => lb - 1,
            Strategy::ExpectedSize => lb - 1,
            Strategy::Entropy => lb - credit2,
            Strategy::MostParts | Strategy::Optimal | Strategy::Best => -(2 * lb + 1),
        };
        self.kind_lb[kind] = lb;
        lb
    }

    /// The score of guess `g` (lower is better; for knuth twice the largest part less 1 for a candidate; for
    /// knuth-sorted the largest part, the sorted parts left in
    /// `self.sorted`), or `None` as soon as its partial counts show it cannot beat `bound` (every score
    /// but most-parts only grows as candidates are added, up to the credit of a candidate guess; the
    /// guess comes later in numeric order than the best, so a tie loses too). `counts` is all zero
    /// before and after.
    #[inline(always)]
    fn evaluate(
        &mut self,
        k: &Kinds,
        g: u32,
        counts: &mut [u32; SLOTS],
        bound: i64,
    ) -> Option<i64> {
        let nclass = self.space.nclass;
        let win = usize::from(self.space.win_class);
        let credit2 = self.nlogn.get(2).copied().unwrap_or(0);
        self.columns.classes(self.space, k, g, &mut self.cls);
        // Knuth (both): the largest part; expected size: sum of n^2; entropy: sum of n ln n.
        let mut acc = 0i64;
        let mut parts = 0u128;
        let mut dropped = false;
        let wide = nclass > 64;
        let mut mask = 0u64;
        let n = self.columns.n;
        // Expected size: sum of n^2 = n + twice the sum of the sizes each candidate finds its part at,
        // and every candidate still to come adds at least 1: the guess loses once that sum reaches
        // `bound - n + 1`. Entropy: a candidate adds (k + 1) ln (k + 1) - k ln k >= 0.
        let es_limit = bound.saturating_sub(n as i64 - 1);
        let en_limit = bound.saturating_add(credit2);
        'blocks: for (b, block) in self.cls.iter().enumerate() {
            let cls = &block[..BLOCK.min(n - b * BLOCK)];
            match self.strategy {
                Strategy::Knuth => {
                    // The score is at least twice the largest part less 1: it loses once that reaches the bound
                    // (2 acc - 1 >= bound).
                    for &c in cls {
                        let m = &mut counts[usize::from(c) & (SLOTS - 1)];
                        *m += 1;
                        acc = acc.max(i64::from(*m));
                        if 2 * acc > bound {
                            dropped = true;
                            break 'blocks;
                        }
                    }
                }
                Strategy::KnuthSorted => {
                    for &c in cls {
                        let m = &mut counts[usize::from(c) & (SLOTS - 1)];
                        *m += 1;
                        acc = acc.max(i64::from(*m));
                        if acc > bound {
                            dropped = true;
                            break 'blocks;
                        }
                    }
                }
                Strategy::ExpectedSize => {
                    for &c in cls {
                        let m = &mut counts[usize::from(c) & (SLOTS - 1)];
                        acc += 2 * i64::from(*m);
                        *m += 1;
                        if acc >= es_limit {
                            dropped = true;
                            break 'blocks;
                        }
                    }
                }
                Strategy::Entropy => {
                    let step = &self.step;
                    for &c in cls {
                        let m = &mut counts[usize::from(c) & (SLOTS - 1)];
                        acc += step[*m as usize];
                        *m += 1;
                        if acc >= en_limit {
                            dropped = true;
                            break 'blocks;
                        }
                    }
                }
                Strategy::MostParts | Strategy::Optimal | Strategy::Best => {
                    if wide {
                        for &c in cls {
                            parts |= 1u128 << (c & 127);
                        }
                    } else {
                        for &c in cls {
                            mask |= 1u64 << (c & 63);
                        }
                    }
                }
            }
        }
        parts |= u128::from(mask);
        let is_cand = if matches!(
            self.strategy,
            Strategy::MostParts | Strategy::Optimal | Strategy::Best
        ) {
            parts >> win & 1 == 1
        } else {
            counts[win] > 0
        };
        let result = (!dropped).then(|| match self.strategy {
            Strategy::Knuth => 2 * acc - i64::from(is_cand),
            Strategy::KnuthSorted => {
                // The all-black part holds at most the guess itself, and with three candidates or more
                // some other part is not empty: the largest part is never the all-black one alone.
                if acc <= bound {
                    self.sorted.clear();
                    self.sorted.extend(
                        counts[..nclass]
                            .iter()
                            .enumerate()
                            .filter(|&(c, &m)| c != win && m > 0)
                            .map(|(_, &m)| m),
                    );
                    self.sorted.sort_unstable_by(|a, b| b.cmp(a));
                }
                acc
            }
            Strategy::ExpectedSize => acc + n as i64 - i64::from(is_cand),
            Strategy::Entropy => acc - if is_cand { credit2 } else { 0 },
            Strategy::MostParts | Strategy::Optimal | Strategy::Best => {
                -(2 * i64::from(parts.count_ones()) + i64::from(is_cand))
            }
        });
        if !matches!(
            self.strategy,
            Strategy::MostParts | Strategy::Optimal | Strategy::Best
        ) {
            counts[..nclass].fill(0);
        }
        result
    }
}

/// The colours in no candidate, as bits.
pub(crate) fn dead_colours(space: &Space, cands: &[u32]) -> u16 {
    space.colour_mask_all
        & !cands
            .iter()
            .fold(0u16, |m, &c| m | space.colour_mask[c as usize])
}

/// Whether the dead colours of guess `g` (those in `dead`) are the smallest dead colours: with repeated
/// colours all the smallest one, without them the smallest, the next, ... in order of position. The
/// least code of each class of guesses equal up to dead colours is normal.
#[inline]
pub(crate) fn dead_normal(space: &Space, g: u32, dead: u16, repeats: bool) -> bool {
    crate::optimal::dead_normal(&space.codes[g as usize], dead, repeats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// The rule of the module documentation, computed plainly: every allowed guess scored with floats
    /// (entropy within a relative 1e-12), no symmetry, no dead colours, no early drop.
    fn naive(space: &Space, cands: &[u32], strategy: Strategy) -> u32 {
        if cands.len() <= 2 {
            return cands[0];
        }
        let nclass = space.nclass;
        let win = usize::from(space.win_class);
        let split = |g: u32| {
            let mut c = vec![0u32; nclass];
            for &s in cands {
                c[usize::from(space.class(g, s))] += 1;
            }
            c
        };
        for &g in cands {
            if split(g).iter().all(|&n| n <= 1) {
                return g;
            }
        }
        let mut best: Option<(Vec<f64>, u32)> = None;
        for &g in &space.guesses {
            let c = split(g);
            let cand = c[win] > 0;
            let score: Vec<f64> = match strategy {
                // Knuth's published rule: the largest part, then a candidate, then the lowest code.
                Strategy::Knuth => vec![
                    f64::from(*c.iter().max().unwrap_or(&0)),
                    if cand { 0.0 } else { 1.0 },
                ],
                Strategy::KnuthSorted => {
                    let mut v: Vec<f64> = c
                        .iter()
                        .enumerate()
                        .map(|(i, &n)| if i == win { 0.0 } else { f64::from(n) })
                        .collect();
                    v.sort_by(|a, b| b.total_cmp(a));
                    v
                }
                Strategy::ExpectedSize => vec![
                    c.iter().map(|&n| f64::from(n) * f64::from(n)).sum::<f64>()
                        - f64::from(u8::from(cand)),
                ],
                Strategy::Entropy => vec![
                    c.iter()
                        .filter(|&&n| n > 1)
                        .map(|&n| f64::from(n) * f64::from(n).ln())
                        .sum::<f64>()
                        - if cand { 2.0 * 2f64.ln() } else { 0.0 },
                ],
                _ => vec![
                    -2.0 * c.iter().filter(|&&n| n > 0).count() as f64 - f64::from(u8::from(cand)),
                ],
            };
            let better = match &best {
                None => true,
                Some((b, _)) => {
                    let mut ord = std::cmp::Ordering::Equal;
                    for (x, y) in score.iter().zip(b) {
                        if (x - y).abs() > 1e-12 * y.abs().max(1.0) {
                            ord = x.total_cmp(y);
                            break;
                        }
                    }
                    ord == std::cmp::Ordering::Less
                }
            };
            if better {
                best = Some((score, g));
            }
        }
        best.map_or(cands[0], |(_, g)| g)
    }

    /// The fast choice (symmetry, dead colours, kinds or table, early drops) is the naive rule's on the
    /// candidate sets after one and two guesses, on a table space and a space without a table.
    #[test]
    fn choice_matches_naive_rule() {
        // Beside the presets: 5 pegs of 5 colours, 8 pegs of 2 colours (81 feedback classes, up to 8
        // colours in common), 6 pegs of 3, and 4 pegs of 7 colours without repeats.
        let others = [
            Variant::custom(5, 5, 10, true, true).unwrap(),
            Variant::custom(2, 8, 10, true, true).unwrap(),
            Variant::custom(3, 6, 10, true, true).unwrap(),
            Variant::custom(7, 4, 10, false, false).unwrap(),
        ];
        for v in [Variant::CLASSIC, Variant::SEED].into_iter().chain(others) {
            let space = Space::new(v).unwrap();
            let root = Sym::root(v.pegs(), v.colours());
            for strategy in [
                Strategy::Knuth,
                Strategy::KnuthSorted,
                Strategy::ExpectedSize,
                Strategy::Entropy,
                Strategy::MostParts,
            ] {
                let mut ch = Chooser::new(&space, strategy);
                assert_eq!(
                    ch.choose(&space.secrets, &root),
                    naive(&space, &space.secrets, strategy)
                );
                let g0 = ch.choose(&space.secrets, &root);
                let sym1 = root.after(&space.codes[g0 as usize]);
                for (_, part) in space.split(g0, &space.secrets) {
                    let want = naive(&space, &part, strategy);
                    assert_eq!(ch.choose(&part, &sym1), want, "{v} {strategy}");
                    let g1 = want;
                    let sym2 = sym1.after(&space.codes[g1 as usize]);
                    for (_, part2) in space.split(g1, &part).into_iter().step_by(3) {
                        assert_eq!(
                            ch.choose(&part2, &sym2),
                            naive(&space, &part2, strategy),
                            "{v} {strategy}"
                        );
                    }
                }
            }
        }
    }

    /// `rank` (the anytime search's ranking) against a naive one: the scores of the `width` guesses it
    /// returns are the `width` best naive scores over the canonical guesses, best first, and its first
    /// guess is `choose`'s.
    #[test]
    fn rank_matches_naive_scores() {
        let v = Variant::CLASSIC;
        let space = Space::new(v).unwrap();
        let root = Sym::root(v.pegs(), v.colours());
        let win = usize::from(space.win_class);
        let naive_score = |cands: &[u32], g: u32| -> f64 {
            let mut c = vec![0u32; space.nclass];
            for &s in cands {
                c[usize::from(space.class(g, s))] += 1;
            }
            c.iter()
                .filter(|&&n| n > 1)
                .map(|&n| f64::from(n) * f64::from(n).ln())
                .sum::<f64>()
                - if c[win] > 0 { 2.0 * 2f64.ln() } else { 0.0 }
        };
        let mut ch = Chooser::new(&space, Strategy::Entropy);
        let g0 = ch.choose(&space.secrets, &root);
        let sym1 = root.after(&space.codes[g0 as usize]);
        let mut checked = 0;
        for (_, part) in space.split(g0, &space.secrets) {
            if part.len() <= 20 || dead_colours(&space, &part).count_ones() >= 2 {
                continue;
            }
            let canon = sym1.canonical(&space.codes, &space.guesses).to_vec();
            let mut want: Vec<f64> = canon.iter().map(|&g| naive_score(&part, g)).collect();
            want.sort_by(f64::total_cmp);
            for width in [2, 5, 9] {
                let got = ch.rank(&part, &sym1, width);
                assert_eq!(got.len(), width.min(canon.len()));
                assert_eq!(got[0], ch.choose(&part, &sym1));
                for (k, &g) in got.iter().enumerate() {
                    let (s, w) = (naive_score(&part, g), want[k]);
                    assert!((s - w).abs() < 1e-9 * w.abs().max(1.0), "{k}: {s} vs {w}");
                }
            }
            checked += 1;
        }
        assert!(checked > 3);
    }
}
