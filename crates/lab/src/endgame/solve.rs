//! The exact solver: positions enumerated forward layer by layer by the free tiles' sum, success probabilities
//! computed backward.
//!
//! **Forward.** Layer `s` holds every position (player to move) whose free tiles sum to `s`, reachable from the
//! starting positions ([`Formation::starts`]): the starts of sum `s`, and the positions reached from layer `s - 2` by an
//! allowed move and a spawned 2, and from layer `s - 4` by an allowed move and a spawned 4 (a move keeps the sum, a
//! spawn adds 2 or 4). A layer is computed from the two before it alone, so the pass holds three layers at a time; it
//! ends at the first two empty layers after the starts.
//!
//! **Backward.** From the largest sum down: a position's value is the largest, over its allowed moves, of 1 when the
//! move reaches the target (with a goal cell: 1 or the next stage's value when it reaches the goal, 0 when the target
//! is elsewhere; [`reached_value`]), else the mean over the empty cells of `(1 - p4) * V(2 there) + p4 * V(4 there)` (the
//! children in layers `s + 2` and `s + 4`), 0 with no allowed move. Sums are taken in `f64` in row-major cell order and
//! stored as `f32`. The pass holds one layer's keys and the next two layers' keys and values at a time.
//!
//! Memory: at most three layers' keys (8 bytes a position) and index, plus the forward pass's buffer of new keys
//! (sorted and made distinct whenever it passes its limit), or the backward pass's three layers of keys and values
//! (12 bytes a position). With a folder every finished layer is written there ([`crate::endgame::checkpoint`]) and a
//! build started again resumes after the last layer written.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::time::Instant;
use twenty48::endgame::checksum::Checksum;

use crate::endgame::EndgameError;
use crate::endgame::checkpoint::{self, CheckpointError};
use crate::endgame::layer::{Layer, expand};
use crate::endgame::table::{Table, states_fingerprint};
use twenty48::Direction;
use twenty48::bitboard::{Bitboard, Tables, tables};
use twenty48::endgame::Formation;

/// Which pass a [`LayerReport`] is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// Positions enumerated.
    Forward,
    /// Values computed.
    Backward,
}

/// One finished layer, as the solver reports it.
#[derive(Debug, Clone)]
pub struct LayerReport {
    /// The pass.
    pub pass: Pass,
    /// The free tiles' sum.
    pub sum: u32,
    /// Positions in the layer.
    pub states: usize,
    /// Seconds spent on it (reading it back included).
    pub seconds: f64,
    /// True when it was read from a checkpoint rather than computed.
    pub resumed: bool,
    /// A checkpoint of this layer that was refused (and computed again), with the reason.
    pub refused: Option<String>,
    /// Bytes of layers held in memory when it finished.
    pub held_bytes: usize,
}

/// The value of the after-state `after` (a key) that does not reach the target: the mean over its empty cells of the
/// spawn's outcomes, looked up by `v2` and `v4`; `None` when a child is missing.
#[inline]
pub(crate) fn chance_value(
    formation: &Formation,
    after: u64,
    four_chance: f64,
    v2: impl Fn(u64) -> Option<f32>,
    v4: impl Fn(u64) -> Option<f32>,
) -> Option<f32> {
    let (mut acc, mut n) = (0f64, 0u32);
    for i in 0..formation.free_cells().len() {
        let shift = formation.key_shift(i);
        if (after >> shift) & 0xF == 0 {
            let two = v2(after | 1 << shift)?;
            let four = v4(after | 2 << shift)?;
            acc += (1.0 - four_chance) * two as f64 + four_chance * four as f64;
            n += 1;
        }
    }
    Some((acc / n as f64) as f32)
}

/// The value of an after-state `after` (key `key`) whose free cells hold the target or more: 0 when the formation has a
/// goal cell the target is not in; else 1, or with `next` (the next stage's table) that table's value of `after`
/// ([`Table::after_value`]), `None` when a position it needs is not in it.
pub fn reached_value(
    formation: &Formation,
    next: Option<&Table>,
    after: Bitboard,
    key: u64,
) -> Option<f32> {
    if !formation.key_reaches_goal(key) {
        return Some(0.0);
    }
    next.map_or(Some(1.0), |t| t.after_value(after))
}

/// The value of each allowed move of `board` (in [`Direction::ALL`] order), children looked up by `v2` and `v4`, a move
/// that reaches the target valued by `reached` (the after-state and its key).
pub(crate) fn move_values(
    formation: &Formation,
    tables: &Tables,
    board: Bitboard,
    four_chance: f64,
    v2: impl Fn(u64) -> Option<f32> + Copy,
    v4: impl Fn(u64) -> Option<f32> + Copy,
    reached: impl Fn(Bitboard, u64) -> f32,
) -> Option<Vec<(Direction, f32)>> {
    let mut out = Vec::with_capacity(4);
    for dir in Direction::ALL {
        let Some(after) = formation.allowed(tables, board, dir) else {
            continue;
        };
        let ak = formation.key(after);
        let v = if formation.key_reaches_target(ak) {
            reached(after, ak)
        } else {
            chance_value(formation, ak, four_chance, v2, v4)?
        };
        out.push((dir, v));
    }
    Some(out)
}

/// The best of [`move_values`], 0 with no allowed move.
pub(crate) fn best_value(moves: &[(Direction, f32)]) -> f32 {
    let mut best = 0f32;
    for &(_, v) in moves {
        if v > best {
            best = v;
        }
    }
    best
}

/// The success probability from a formation's starting positions ([`Solver::start_probability`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StartValue {
    /// Over every start, weighted by its probability.
    pub mean: f64,
    /// The probability that a start has an allowed move (the others are worth 0: a tile beside a fixed tile with
    /// nothing to move without shifting it).
    pub live_share: f64,
    /// Over the starts with an allowed move.
    pub live_mean: f64,
    /// The smallest start's.
    pub lo: f32,
    /// The largest start's.
    pub hi: f32,
}

/// The fingerprint of a table's values' checkpoints: `own` (its positions'), mixed with the next table's when it is
/// chained (so that a chained build never reads an unchained one's values).
pub(crate) fn chain_fingerprint(own: u64, next: Option<&Table>) -> u64 {
    next.map_or(own, |t| own ^ t.fingerprint().rotate_left(17))
}

/// Builds one formation's table, in memory or checkpointed in a folder.
pub struct Solver {
    formation: Formation,
    four_chance: f64,
    dir: Option<PathBuf>,
    /// Positions added to the forward pass besides the starts ([`Solver::add_starts`]), sorted, and their checksum.
    added: Vec<u64>,
    added_sum: u64,
    states: BTreeMap<u32, Layer>,
    values: BTreeMap<u32, Vec<f32>>,
    /// The sums of the forward pass, ascending (empty layers included), once it has run.
    sums: Vec<u32>,
    /// The next stage's table, for a formation with a goal cell ([`Solver::chained`]).
    next: Option<Arc<Table>>,
    /// Reached goals valued by the next table, and those whose value it could not give (counted 0).
    next_asked: Cell<u64>,
    next_misses: Cell<u64>,
}

impl Solver {
    /// A solver that keeps every layer in memory (for small formations and tests).
    pub fn in_memory(formation: Formation, four_chance: f64) -> Solver {
        Solver {
            added: Vec::new(),
            added_sum: 0,
            formation,
            four_chance,
            dir: None,
            states: BTreeMap::new(),
            values: BTreeMap::new(),
            sums: Vec::new(),
            next: None,
            next_asked: Cell::new(0),
            next_misses: Cell::new(0),
        }
    }

    /// Chains this formation to the next stage's table: a move that builds the target in the goal cell is worth
    /// `next`'s value of its result ([`Table::after_value`]) instead of 1. The formation must have a goal cell, and
    /// `next`'s free cells must be this formation's without it (its fixed cells this formation's and the goal cell),
    /// with the same probability of a 4. The values' checkpoints' fingerprint changes with `next`'s (the positions'
    /// does not: the forward pass does not depend on the next stage).
    ///
    /// A move that reaches the goal is valued by the next table's positions after a spawn, which must be in it: build
    /// the next table with this one's [`Solver::exits`] added to its starts ([`Solver::add_starts`]), or its value
    /// is counted 0 ([`Solver::next_misses`]).
    pub fn chained(mut self, next: Arc<Table>) -> Result<Solver, EndgameError> {
        let goal = self.formation.goal().ok_or_else(|| {
            EndgameError::Chain(format!(
                "{}: a chained formation needs a goal cell '*'",
                self.formation
            ))
        })?;
        let want: Vec<u8> = self
            .formation
            .free_cells()
            .iter()
            .copied()
            .filter(|&c| c != goal)
            .collect();
        if next.formation().free_cells() != want.as_slice()
            || next.four_chance().to_bits() != self.four_chance.to_bits()
        {
            return Err(EndgameError::Chain(format!(
                "{} cannot chain to {} (its free cells must be these without the goal cell, with the same probability of a 4)",
                self.formation,
                next.formation()
            )));
        }
        if let Some(dir) = &self.dir {
            let next_dir = next.dir().ok_or_else(|| {
                EndgameError::Chain(format!(
                    "{}: a table built on disk chains only to a table read from its folder",
                    dir.display()
                ))
            })?;
            crate::endgame::table::write_formation(
                dir,
                &self.formation,
                self.four_chance,
                Some(next_dir),
                self.added_sum,
            )?;
        }
        self.next = Some(next);
        Ok(self)
    }

    /// Adds positions (keys of this formation, each below the target in every free cell) to the forward pass besides
    /// the starts, before it runs: the positions in which the previous stage's table hands a game to this one
    /// ([`Solver::exits`]). They are not starts for [`Solver::start_probability`]. The checkpoints' fingerprint
    /// changes with them.
    pub fn add_starts(&mut self, keys: Vec<u64>) -> Result<(), EndgameError> {
        self.added.extend(keys);
        self.added.sort_unstable();
        self.added.dedup();
        let mut h = Checksum::new();
        for &k in &self.added {
            h.add(k);
        }
        self.added_sum = if self.added.is_empty() {
            0
        } else {
            h.finish() | 1
        };
        if let Some(dir) = &self.dir {
            let next_dir = self.next.as_ref().and_then(|t| t.dir());
            crate::endgame::table::write_formation(
                dir,
                &self.formation,
                self.four_chance,
                next_dir,
                self.added_sum,
            )?;
        }
        Ok(())
    }

    /// After the forward pass, every position of the next stage (formation `next`, whose free cells are this one's
    /// without the goal cell) that a move reaching this formation's goal and a spawn lead to: the next stage's keys,
    /// sorted, each once. Moves that also put the next formation's target in one of its free cells are left out (the
    /// next stage's success, no position of it).
    pub fn exits(&self, next: &Formation) -> Result<Vec<u64>, EndgameError> {
        let t = tables();
        let mut out = Vec::new();
        for &sum in &self.sums {
            let (layer, _) = self.load_states(sum)?;
            let layer = layer.ok_or(EndgameError::MissingLayer(sum))?;
            for &key in layer.keys() {
                let board = self.formation.board(key);
                for dir in Direction::ALL {
                    let Some(after) = self.formation.allowed(t, board, dir) else {
                        continue;
                    };
                    let ak = self.formation.key(after);
                    if !self.formation.key_reaches_target(ak)
                        || !self.formation.key_reaches_goal(ak)
                    {
                        continue;
                    }
                    let nk = next.key(after);
                    if next.key_reaches_target(nk) {
                        continue;
                    }
                    for i in 0..next.free_cells().len() {
                        let shift = next.key_shift(i);
                        if (nk >> shift) & 0xF == 0 {
                            out.push(nk | 1 << shift);
                            out.push(nk | 2 << shift);
                        }
                    }
                }
            }
            if out.len() > 1 << 24 {
                out.sort_unstable();
                out.dedup();
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Of the moves the backward pass valued by the next table (reaching the goal), how many, and how many it could
    /// not value (a position of the next stage that its forward pass never reached), counted 0.
    pub fn next_misses(&self) -> (u64, u64) {
        (self.next_asked.get(), self.next_misses.get())
    }

    /// A solver that writes every finished layer to `dir` (made if missing) and holds only the layers it works on;
    /// layers already there (of this formation, target and probability of a 4) are read back instead of computed.
    pub fn on_disk(
        formation: Formation,
        four_chance: f64,
        dir: &Path,
    ) -> Result<Solver, EndgameError> {
        std::fs::create_dir_all(dir).map_err(|source| CheckpointError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        crate::endgame::table::write_formation(dir, &formation, four_chance, None, 0)?;
        let mut s = Solver::in_memory(formation, four_chance);
        s.dir = Some(dir.to_path_buf());
        Ok(s)
    }

    /// The formation.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The checkpoints' fingerprint (the formation's, with the probability of a 4 and the added starts'); the values'
    /// is mixed with the next table's when the solver is chained.
    pub fn fingerprint(&self) -> u64 {
        states_fingerprint(&self.formation, self.four_chance, self.added_sum)
    }

    /// The fingerprint of the values' checkpoints: the positions', mixed with the next table's when chained.
    fn values_fingerprint(&self) -> u64 {
        chain_fingerprint(self.fingerprint(), self.next.as_deref())
    }

    fn key_bits(&self) -> u32 {
        4 * self.formation.free_cells().len() as u32
    }

    /// A layer's keys from memory or its checkpoint: `Ok(None)` when absent, the refusal's text beside it when a
    /// checkpoint was refused.
    fn load_states(&self, sum: u32) -> Result<(Option<Layer>, Option<String>), EndgameError> {
        match &self.dir {
            None => Ok((self.states.get(&sum).cloned(), None)),
            Some(dir) => match checkpoint::read_states(dir, self.fingerprint(), sum) {
                Ok(keys) => Ok((keys.map(|k| Layer::new(k, self.key_bits())), None)),
                Err(e @ CheckpointError::Refused { .. }) => Ok((None, Some(e.to_string()))),
                Err(e) => Err(e.into()),
            },
        }
    }

    fn load_values(&self, sum: u32) -> Result<(Option<Vec<f32>>, Option<String>), EndgameError> {
        match &self.dir {
            None => Ok((self.values.get(&sum).cloned(), None)),
            Some(dir) => match checkpoint::read_values(dir, self.values_fingerprint(), sum) {
                Ok(v) => Ok((v, None)),
                Err(e @ CheckpointError::Refused { .. }) => Ok((None, Some(e.to_string()))),
                Err(e) => Err(e.into()),
            },
        }
    }

    /// The forward pass: every layer's positions, read back from checkpoints where they are sound. Returns the sums
    /// (ascending, empty layers between non-empty ones included).
    pub fn forward(
        &mut self,
        report: &mut dyn FnMut(&LayerReport),
    ) -> Result<Vec<u32>, EndgameError> {
        let t = tables();
        let bits = self.key_bits();
        let mut starts: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for (b, _) in self.formation.starts(self.four_chance) {
            let k = self.formation.key(b);
            starts.entry(self.formation.key_sum(k)).or_default().push(k);
        }
        for &k in &self.added {
            starts.entry(self.formation.key_sum(k)).or_default().push(k);
        }
        let last_start = starts.keys().next_back().copied().unwrap_or(0);
        let (mut minus4, mut minus2) = (Layer::default(), Layer::default());
        let mut limit = 1usize << 24;
        let mut sums = Vec::new();
        let mut last_nonempty = 0;
        let mut sum = 2;
        loop {
            sum += 2;
            if sum > last_start && minus4.is_empty() && minus2.is_empty() {
                break;
            }
            let start = Instant::now();
            let (loaded, refused) = self.load_states(sum)?;
            let resumed = loaded.is_some();
            let layer = match loaded {
                Some(l) => l,
                None => {
                    let mut keys = starts.get(&sum).cloned().unwrap_or_default();
                    expand(&self.formation, t, &minus2, 1, &mut keys, &mut limit);
                    expand(&self.formation, t, &minus4, 2, &mut keys, &mut limit);
                    let layer = Layer::new(keys, bits);
                    match &self.dir {
                        None => {
                            self.states.insert(sum, layer.clone());
                        }
                        Some(dir) => {
                            checkpoint::write_states(dir, self.fingerprint(), sum, layer.keys())?;
                        }
                    }
                    layer
                }
            };
            sums.push(sum);
            if !layer.is_empty() {
                last_nonempty = sum;
            }
            report(&LayerReport {
                pass: Pass::Forward,
                sum,
                states: layer.len(),
                seconds: start.elapsed().as_secs_f64(),
                resumed,
                refused,
                held_bytes: minus4.bytes() + minus2.bytes() + layer.bytes(),
            });
            minus4 = std::mem::replace(&mut minus2, layer);
        }
        // The empty layers that ended the pass are left out.
        sums.retain(|&s| s <= last_nonempty);
        self.sums = sums.clone();
        Ok(sums)
    }

    /// The backward pass over the forward pass's sums: every layer's values, read back from checkpoints where sound.
    pub fn backward(&mut self, report: &mut dyn FnMut(&LayerReport)) -> Result<(), EndgameError> {
        let t = tables();
        let sums = self.sums.clone();
        let (mut plus2, mut plus4) = (
            (Layer::default(), Vec::new()),
            (Layer::default(), Vec::new()),
        );
        for &sum in sums.iter().rev() {
            let start = Instant::now();
            let (layer, _) = self.load_states(sum)?;
            let layer = layer.ok_or(EndgameError::MissingLayer(sum))?;
            let (loaded, refused) = self.load_values(sum)?;
            let resumed = loaded.as_ref().is_some_and(|v| v.len() == layer.len());
            let values = match loaded {
                Some(v) if v.len() == layer.len() => v,
                _ => {
                    let look = |(l, v): &(Layer, Vec<f32>), k: u64| l.position(k).map(|i| v[i]);
                    let mut values = Vec::with_capacity(layer.len());
                    let reached = |after, ak| {
                        if self.next.is_some() && self.formation.key_reaches_goal(ak) {
                            self.next_asked.set(self.next_asked.get() + 1);
                        }
                        reached_value(&self.formation, self.next.as_deref(), after, ak)
                            .unwrap_or_else(|| {
                                self.next_misses.set(self.next_misses.get() + 1);
                                0.0
                            })
                    };
                    for &key in layer.keys() {
                        let board = self.formation.board(key);
                        let moves = move_values(
                            &self.formation,
                            t,
                            board,
                            self.four_chance,
                            |k| look(&plus2, k),
                            |k| look(&plus4, k),
                            reached,
                        )
                        .ok_or(EndgameError::MissingChild { sum, key })?;
                        values.push(best_value(&moves));
                    }
                    match &self.dir {
                        None => {
                            self.values.insert(sum, values.clone());
                        }
                        Some(dir) => {
                            checkpoint::write_values(dir, self.values_fingerprint(), sum, &values)?;
                        }
                    }
                    values
                }
            };
            let held = layer.bytes() + values.capacity() * 4;
            report(&LayerReport {
                pass: Pass::Backward,
                sum,
                states: layer.len(),
                seconds: start.elapsed().as_secs_f64(),
                resumed,
                refused,
                held_bytes: held
                    + plus2.0.bytes()
                    + plus2.1.capacity() * 4
                    + plus4.0.bytes()
                    + plus4.1.capacity() * 4,
            });
            plus4 = std::mem::replace(&mut plus2, (layer, values));
        }
        Ok(())
    }

    /// Both passes.
    pub fn build(&mut self, report: &mut dyn FnMut(&LayerReport)) -> Result<(), EndgameError> {
        self.forward(report)?;
        self.backward(report)
    }

    /// The whole table in memory: the solver's own layers, or every layer read from its folder.
    pub fn table(&self) -> Result<Table, EndgameError> {
        let mut layers = BTreeMap::new();
        for &sum in &self.sums {
            let (l, _) = self.load_states(sum)?;
            let (v, _) = self.load_values(sum)?;
            match (l, v) {
                (Some(l), Some(v)) if l.len() == v.len() => {
                    layers.insert(sum, (l, v));
                }
                _ => return Err(EndgameError::MissingLayer(sum)),
            }
        }
        let mut table = Table::new(self.formation.clone(), self.four_chance, layers);
        table.set_added_sum(self.added_sum);
        Ok(match &self.next {
            Some(next) => table.with_next(Arc::clone(next)),
            None => table,
        })
    }

    /// The success probability from the formation's starting positions ([`Formation::starts`], weighted by their
    /// probabilities), after [`Solver::build`].
    pub fn start_probability(&self) -> Result<StartValue, EndgameError> {
        let mut layers: BTreeMap<u32, (Layer, Vec<f32>)> = BTreeMap::new();
        let t = tables();
        let (mut mean, mut lo, mut hi) = (0f64, f32::INFINITY, f32::NEG_INFINITY);
        let (mut live, mut live_p) = (0f64, 0f64);
        for (b, p) in self.formation.starts(self.four_chance) {
            let is_live = Direction::ALL
                .into_iter()
                .any(|d| self.formation.allowed(t, b, d).is_some());
            if is_live {
                live_p += p;
            }
            let k = self.formation.key(b);
            let sum = self.formation.key_sum(k);
            let (l, v) = match layers.entry(sum) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    let (Some(l), _) = self.load_states(sum)? else {
                        return Err(EndgameError::MissingLayer(sum));
                    };
                    let (Some(v), _) = self.load_values(sum)? else {
                        return Err(EndgameError::MissingLayer(sum));
                    };
                    e.insert((l, v))
                }
            };
            let i = l
                .position(k)
                .ok_or(EndgameError::MissingChild { sum, key: k })?;
            mean += p * v[i] as f64;
            if is_live {
                live += p * v[i] as f64;
            }
            lo = lo.min(v[i]);
            hi = hi.max(v[i]);
        }
        Ok(StartValue {
            mean,
            live_share: live_p,
            live_mean: if live_p > 0.0 { live / live_p } else { 0.0 },
            lo,
            hi,
        })
    }
}
