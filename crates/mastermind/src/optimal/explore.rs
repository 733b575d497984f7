//! A node's options explored one after another, best bound first, one guess per distinct split.

use super::Search;
use super::memo::Fx;
use super::scan::Scan;
use crate::space::Space;
use crate::sym::Sym;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

impl<'a> Search<'a> {
    /// Searches the scan's options one after another, best bound first, one guess per distinct split (as a set
    /// partition, classes relabelled by first appearance), until a bound reaches the best found.
    pub(super) fn explore(
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
    pub(super) fn eval_option(
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
}

/// A hash of the split of `cands` by `g` as a set partition (classes relabelled by first appearance, the
/// winning class apart); `classes` is scratch space.
pub(super) fn split_hash(space: &Space, g: u32, cands: &[u32], classes: &mut Vec<u8>) -> u128 {
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
