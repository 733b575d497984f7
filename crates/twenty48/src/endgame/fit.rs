//! A small n-tuple network fitted to an endgame table's exact values: the table's knowledge in a few megabytes.
//!
//! A table of the stage between 16384 and the last stage holds hundreds of millions of positions, and a store of the
//! positions met most often does not carry its gain (BENCHMARKS.md, session 23): that gain is spread thin over the
//! thousands of boards a game passes through. A *fit* learns the table's values instead of keeping them: tuples of
//! free cells of the formation (every 2x3 and 3x2 rectangle and every line of four made only of free cells), each
//! reading its cells' exponents, capped at the target, as an index into its own weights; a position's value is the sum
//! of its tuples' weights. It is trained by least squares on after-states and the table's exact success
//! probabilities of them ([`Fit::learn`]), and plays by choosing the allowed move whose after-state it values most
//! ([`Fit::advise`]), on boards read in the formation under the board's symmetries as a table reads them
//! ([`crate::endgame::play::read_in`]). A set of weights per band of the free tiles' sum is optional
//! ([`Fit::with_bands`]).
//!
//! Measured on the stage between (BENCHMARKS.md, session 24), it does not carry the table's gain: its move is within
//! half a hundredth of the table's best on 98% of held-out logged positions, yet games that play it lose far more than
//! they gain, because its errors grow on the boards its own moves lead to. The player does not use it; the `fit` and
//! `auto --endgame-fit` examples measure it.

use crate::bitboard::{Bitboard, tables};
use crate::direction::Direction;
use crate::endgame::distill::{CutShort, Reader, checksum, verified};
use crate::endgame::formation::Formation;
use crate::endgame::play::{direction_maps, read_in};

/// The first bytes of a fit's file.
pub const MAGIC: &[u8; 8] = b"P48FIT\0\x02";

/// Why a fit's bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a fitted endgame network: {0}")]
pub struct FitError(pub &'static str);

/// Tuples of a formation's free cells with their weights (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    formation: Formation,
    /// Values an index digit takes: the exponents 0 to the target's.
    levels: usize,
    /// The cells of each tuple.
    tuples: Vec<Vec<u8>>,
    /// Where each tuple's weights begin in `weights` (in the first band).
    offsets: Vec<usize>,
    /// Weights of one band: every tuple's.
    band_len: usize,
    /// The free tiles' sum selects a band of weights: the sum divided by `band_width`, at most `bands - 1`.
    bands: usize,
    band_width: u32,
    weights: Vec<f32>,
    maps: [[Direction; 4]; 8],
}

impl Fit {
    /// A fit of zero weights over the formation's default tuples ([`Fit::default_tuples`]); `None` when the formation
    /// has no such tuple.
    pub fn new(formation: Formation) -> Option<Fit> {
        let tuples = Fit::default_tuples(&formation);
        Fit::with_tuples(formation, tuples)
    }

    /// A fit of zero weights over the tuples given (cells `4 * row + col`, each a free cell of the formation, one to
    /// six a tuple); `None` when there is none or one is not made of one to six free cells.
    pub fn with_tuples(formation: Formation, tuples: Vec<Vec<u8>>) -> Option<Fit> {
        Fit::with_bands(formation, tuples, 1, u32::MAX)
    }

    /// [`Fit::with_tuples`] with a set of weights per band of the free tiles' sum: `sum / band_width`, at most
    /// `bands - 1` (1 to 64 bands, a width of at least 2).
    pub fn with_bands(
        formation: Formation,
        tuples: Vec<Vec<u8>>,
        bands: usize,
        band_width: u32,
    ) -> Option<Fit> {
        if !(1..=64).contains(&bands) || band_width < 2 {
            return None;
        }
        let levels = formation.target_exponent() as usize + 1;
        let free = formation.free_cells();
        if tuples.is_empty()
            || tuples
                .iter()
                .any(|t| t.is_empty() || t.len() > 6 || t.iter().any(|c| !free.contains(c)))
        {
            return None;
        }
        let mut offsets = Vec::with_capacity(tuples.len());
        let mut len = 0;
        for t in &tuples {
            offsets.push(len);
            len += levels.pow(t.len() as u32);
        }
        Some(Fit {
            formation,
            levels,
            tuples,
            offsets,
            band_len: len,
            bands,
            band_width,
            weights: vec![0.0; len * bands],
            maps: direction_maps(),
        })
    }

    /// Every 2x3 and 3x2 rectangle and every row or column of four cells made only of the formation's free cells.
    pub fn default_tuples(formation: &Formation) -> Vec<Vec<u8>> {
        let free = formation.free_cells();
        let mut out = Vec::new();
        let mut add = |rows: usize, cols: usize| {
            for r0 in 0..=4 - rows {
                for c0 in 0..=4 - cols {
                    let cells: Vec<u8> = (0..rows)
                        .flat_map(|r| (0..cols).map(move |c| (4 * (r0 + r) + c0 + c) as u8))
                        .collect();
                    if cells.iter().all(|c| free.contains(c)) {
                        out.push(cells);
                    }
                }
            }
        };
        add(2, 3);
        add(3, 2);
        add(1, 4);
        add(4, 1);
        out
    }

    /// The formation.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The cells of each tuple.
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// True when the fit has no weight (never: a fit has at least one tuple).
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The number of weights that are not zero.
    pub fn nonzero(&self) -> usize {
        self.weights.iter().filter(|w| **w != 0.0).count()
    }

    #[inline]
    fn index(&self, i: usize, b: Bitboard, band: usize) -> usize {
        let cap = self.levels as u64 - 1;
        let mut idx = 0usize;
        for &c in &self.tuples[i] {
            idx = idx * self.levels + ((b >> (4 * c)) & 0xF).min(cap) as usize;
        }
        band * self.band_len + self.offsets[i] + idx
    }

    /// The band of weights a position reads: its free tiles' sum divided by the band width, at most the last band.
    #[inline]
    fn band(&self, b: Bitboard) -> usize {
        if self.bands == 1 {
            return 0;
        }
        let sum: u32 = self
            .formation
            .free_cells()
            .iter()
            .map(|&c| match (b >> (4 * c)) & 0xF {
                0 => 0,
                e => 1u32 << e,
            })
            .sum();
        ((sum / self.band_width) as usize).min(self.bands - 1)
    }

    /// The fitted value of a position in the formation's own cells (fixed cells are not read).
    #[inline]
    pub fn eval(&self, b: Bitboard) -> f32 {
        let band = self.band(b);
        (0..self.tuples.len())
            .map(|i| self.weights[self.index(i, b, band)])
            .sum()
    }

    /// Moves the value of `b` toward `target` by `alpha` times the error (spread evenly over the tuples); returns the
    /// error before the step.
    #[inline]
    pub fn learn(&mut self, b: Bitboard, target: f32, alpha: f32) -> f32 {
        let error = target - self.eval(b);
        let step = alpha * error / self.tuples.len() as f32;
        let band = self.band(b);
        for i in 0..self.tuples.len() {
            let at = self.index(i, b, band);
            self.weights[at] += step;
        }
        error
    }

    /// The value of an after-state searched `plies` spawns deep: with no ply left, or when a free cell holds the target,
    /// the fitted value; else the mean over its empty cells of the best allowed move's value after a 2 (probability
    /// `1 - four_chance`) or a 4, a position with no allowed move being worth 0.
    pub fn search_value(&self, after: Bitboard, plies: u32, four_chance: f32) -> f32 {
        let key = self.formation.key(after);
        if plies == 0 || self.formation.key_reaches_target(key) {
            return self.eval(after);
        }
        let (mut sum, mut empty) = (0f32, 0u32);
        for &c in self.formation.free_cells() {
            if (after >> (4 * c)) & 0xF != 0 {
                continue;
            }
            empty += 1;
            for (e, p) in [(1u64, 1.0 - four_chance), (2, four_chance)] {
                let child = after | e << (4 * c);
                let best = self
                    .best_move_searched(child, plies - 1, four_chance)
                    .map_or(0.0, |(_, v)| v);
                sum += p * best;
            }
        }
        if empty == 0 { 0.0 } else { sum / empty as f32 }
    }

    /// The allowed move (the formation's fixed-tile rule) of a position in the formation's own cells whose after-state
    /// the fit values most, with that value; `None` when no move is allowed.
    pub fn best_move(&self, b: Bitboard) -> Option<(Direction, f32)> {
        self.best_move_searched(b, 0, 0.1)
    }

    /// [`Fit::best_move`] with each after-state valued by [`Fit::search_value`] `plies` spawns deep.
    pub fn best_move_searched(
        &self,
        b: Bitboard,
        plies: u32,
        four_chance: f32,
    ) -> Option<(Direction, f32)> {
        let t = tables();
        let mut best: Option<(Direction, f32)> = None;
        for d in Direction::ALL {
            let Some(after) = self.formation.allowed(t, b, d) else {
                continue;
            };
            let v = self.search_value(after, plies, four_chance);
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((d, v));
            }
        }
        best
    }

    /// The fit's move on a real board (capped bitboard) and its value, when the board reads in the formation under a
    /// symmetry (the first that does) with every free cell below the target, and a move is allowed there.
    pub fn advise(&self, board: Bitboard) -> Option<(Direction, f32)> {
        (0..8).find_map(|k| {
            let (d, v) = self.best_move(self.reading(board, k)?)?;
            Some((self.maps[k][d.index()], v))
        })
    }

    /// Each allowed move on a real board (as a move of the real board) with the fitted value of its after-state, when
    /// the board reads in the formation under a symmetry (the first that does) with every free cell below the target;
    /// `None` when it does not or no move is allowed there.
    pub fn move_values(&self, board: Bitboard) -> Option<Vec<(Direction, f32)>> {
        let t = tables();
        (0..8).find_map(|k| {
            let b = self.reading(board, k)?;
            let moves: Vec<(Direction, f32)> = Direction::ALL
                .into_iter()
                .filter_map(|d| {
                    let after = self.formation.allowed(t, b, d)?;
                    Some((self.maps[k][d.index()], self.eval(after)))
                })
                .collect();
            (!moves.is_empty()).then_some(moves)
        })
    }

    /// `board` read in the formation under symmetry `k`, when it matches with every free cell below the target.
    fn reading(&self, board: Bitboard, k: usize) -> Option<Bitboard> {
        match read_in(&self.formation, board, k)? {
            (b, false) => Some(b),
            (_, true) => None,
        }
    }

    /// The fit as bytes: [`MAGIC`], the formation as it prints (length first), the tuples, the weights (`f32`), and a
    /// checksum of everything before it; [`Fit::from_bytes`] reads them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 4 * self.weights.len());
        out.extend_from_slice(MAGIC);
        let name = self.formation.to_string();
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(self.tuples.len() as u32).to_le_bytes());
        for t in &self.tuples {
            out.push(t.len() as u8);
            out.extend_from_slice(t);
        }
        out.extend_from_slice(&(self.bands as u32).to_le_bytes());
        out.extend_from_slice(&self.band_width.to_le_bytes());
        out.extend_from_slice(&(self.weights.len() as u64).to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A fit from [`Fit::to_bytes`]'s bytes, refused with the reason when anything in them is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Fit, FitError> {
        if bytes.len() < MAGIC.len() + 8 {
            return Err(FitError("too short"));
        }
        let body = verified(bytes).ok_or(FitError("checksum"))?;
        let mut r = Reader::new(body);
        if r.take(MAGIC.len())? != MAGIC {
            return Err(FitError("magic"));
        }
        let name_len = r.u32()? as usize;
        let name = std::str::from_utf8(r.take(name_len)?).map_err(|_| FitError("formation"))?;
        let (picture, target) = name.split_once(' ').ok_or(FitError("formation"))?;
        let target = target.parse().map_err(|_| FitError("formation"))?;
        let formation = Formation::parse(picture, target).map_err(|_| FitError("formation"))?;
        let count = r.u32()? as usize;
        if count > 64 {
            return Err(FitError("tuples"));
        }
        let mut tuples = Vec::with_capacity(count);
        for _ in 0..count {
            let len = r.take(1)?[0] as usize;
            tuples.push(r.take(len)?.to_vec());
        }
        let (bands, band_width) = (r.u32()? as usize, r.u32()?);
        // The weights the header asks for must be the ones the bytes hold, checked before anything is allocated.
        let levels = formation.target_exponent() as u64 + 1;
        let asked = tuples
            .iter()
            .try_fold(0u64, |sum, t| {
                sum.checked_add(levels.checked_pow(t.len() as u32)?)
            })
            .and_then(|per_band| per_band.checked_mul(bands as u64));
        let count = r.u64()?;
        if asked != Some(count) || count.checked_mul(4) != Some(r.left() as u64) {
            return Err(FitError("weights"));
        }
        let mut fit =
            Fit::with_bands(formation, tuples, bands, band_width).ok_or(FitError("tuples"))?;
        for w in fit.weights.iter_mut() {
            *w = f32::from_bits(r.u32()?);
            if !w.is_finite() {
                return Err(FitError("weights"));
            }
        }
        if !r.done() {
            return Err(FitError("trailing bytes"));
        }
        Ok(fit)
    }
}

impl From<CutShort> for FitError {
    fn from(_: CutShort) -> FitError {
        FitError("cut short")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header that asks for more weights than its bytes hold is refused before anything is allocated, even with a
    /// checksum that matches.
    #[test]
    fn a_forged_header_is_refused_before_allocating() {
        let f = Formation::parse("..../..../..*b/fedc", 32768).expect("a formation");
        let tuples: Vec<Vec<u8>> = vec![vec![0, 1, 2, 4, 5, 6]; 64];
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let name = f.to_string();
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(tuples.len() as u32).to_le_bytes());
        for t in &tuples {
            out.push(t.len() as u8);
            out.extend_from_slice(t);
        }
        out.extend_from_slice(&64u32.to_le_bytes());
        out.extend_from_slice(&2u32.to_le_bytes());
        // 64 tuples of 16^6 weights in 64 bands: what the header asks for, with no weight after it.
        out.extend_from_slice(&(64u64 * (1 << 24) * 64).to_le_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(Fit::from_bytes(&out), Err(FitError("weights")));
    }
}
