//! The n-tuple network: four 6-cell tuples whose weights are shared over the board's 8 symmetries, looked up by the
//! tiles' exponents, optionally in stages by the largest tile (each stage a whole set of weights).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use super::packed::Packed;

use crate::bitboard::{Bitboard, max_exponent, transpose};
use crate::error::StagesError;

/// Cells per tuple.
pub(crate) const TUPLE_LEN: usize = 6;

/// The tuples, as cells `4 * row + col`: two straight 6-tuples (rows 0-1 and rows 1-2 of a 4-wide band) and two 2x3
/// rectangles, the 4x6 network of Wu et al. and Jaśkowski (TDL2048's `4x6patt`).
///
/// ```text
///  0  1  2  3      .  .  .  .      0  1  2  .      .  .  .  .
///  4  5  .  .      4  5  6  7      4  5  6  .      4  5  6  .
///  .  .  .  .      8  9  .  .      .  .  .  .      8  9 10  .
///  .  .  .  .      .  .  .  .      .  .  .  .      .  .  .  .
/// ```
pub(crate) const TUPLES: [[u8; TUPLE_LEN]; 4] = [
    [0, 1, 2, 3, 4, 5],
    [4, 5, 6, 7, 8, 9],
    [0, 1, 2, 4, 5, 6],
    [4, 5, 6, 8, 9, 10],
];

/// Weights per tuple: one per combination of six 4-bit exponents.
pub(crate) const TUPLE_SIZE: usize = 1 << (4 * TUPLE_LEN);

/// Features looked up per evaluation (tuples x symmetries).
pub const FEATURES: usize = TUPLES.len() * 8;

/// Number of weights of one stage (of the whole network when it has one stage).
pub(crate) const WEIGHTS: usize = TUPLES.len() * TUPLE_SIZE;

/// Most stages a network may have.
pub(crate) const MAX_STAGES: usize = 4;

/// Checks the stage thresholds of a network: at most `MAX_STAGES` - 1 exponents from 1 to 15, strictly rising.
pub fn check_stages(from: &[u8]) -> Result<(), StagesError> {
    if from.len() >= MAX_STAGES {
        return Err(StagesError::TooMany(from.len() + 1));
    }
    if from.iter().any(|&e| !(1..=15).contains(&e)) {
        return Err(StagesError::OutOfRange(from.to_vec()));
    }
    if from.windows(2).any(|w| w[0] >= w[1]) {
        return Err(StagesError::NotRising(from.to_vec()));
    }
    Ok(())
}

/// Mirrors the columns (column c to 3 - c).
#[inline(always)]
pub(crate) fn flip_columns(b: Bitboard) -> Bitboard {
    ((b & 0x000F_000F_000F_000F) << 12)
        | ((b & 0x00F0_00F0_00F0_00F0) << 4)
        | ((b & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((b & 0xF000_F000_F000_F000) >> 12)
}

/// Mirrors the rows (row r to 3 - r).
#[inline(always)]
pub(crate) fn flip_rows(b: Bitboard) -> Bitboard {
    (b << 48) | ((b & 0xFFFF_0000) << 16) | ((b >> 16) & 0xFFFF_0000) | (b >> 48)
}

/// The board's 8 images under the symmetries of the square (identity first).
#[inline(always)]
pub(crate) fn symmetries(b: Bitboard) -> [Bitboard; 8] {
    let t = transpose(b);
    let (h, v) = (flip_columns(b), flip_rows(b));
    let (th, tv) = (flip_columns(t), flip_rows(t));
    [b, h, v, flip_rows(h), t, th, tv, flip_rows(th)]
}

#[cfg(test)]
/// The index of a tuple's six exponents on a board (the first cell in the lowest nibble).
#[inline(always)]
pub(crate) fn tuple_index(b: Bitboard, cells: &[u8; TUPLE_LEN]) -> usize {
    let mut index = 0usize;
    for (k, &c) in cells.iter().enumerate() {
        index |= (((b >> (4 * c)) & 0xF) as usize) << (4 * k);
    }
    index
}

/// The index of each of `TUPLES` on each of a board's images ([`tuple_index`] for every tuple and image), read with
/// a mask or two a tuple: the tuples' cells are runs of the board's nibbles (cells 0-5 are its low 24 bits, cells 4-9
/// the next 24, cells 0-2 and 4-6 two runs of 12 bits, cells 4-6 and 8-10 two more), so each index is one or two
/// shifts and masks instead of six.
#[inline(always)]
pub(crate) fn tuple_indices(images: &[Bitboard; 8]) -> [[usize; 8]; 4] {
    let mut out = [[0usize; 8]; 4];
    for (k, &b) in images.iter().enumerate() {
        out[0][k] = (b & 0xFF_FFFF) as usize;
        out[1][k] = ((b >> 16) & 0xFF_FFFF) as usize;
        out[2][k] = ((b & 0xFFF) | ((b >> 4) & 0xFF_F000)) as usize;
        out[3][k] = (((b >> 16) & 0xFFF) | ((b >> 20) & 0xFF_F000)) as usize;
    }
    out
}

/// The positions in the weight array of a board's [`FEATURES`] features.
#[inline(always)]
pub fn feature_indices(b: Bitboard) -> [usize; FEATURES] {
    let indices = tuple_indices(&symmetries(b));
    let mut out = [0usize; FEATURES];
    for (t, ix) in indices.iter().enumerate() {
        for (k, &i) in ix.iter().enumerate() {
            out[8 * t + k] = t * TUPLE_SIZE + i;
        }
    }
    out
}

/// An n-tuple network of `TUPLES`: `WEIGHTS` `f32` weights per stage, stored as atomics so that training threads
/// can share them without locks (Hogwild: relaxed loads and stores, a concurrent update may be lost, which costs
/// nothing measurable). On x86-64 and AArch64 a relaxed load is an ordinary load, so evaluation runs at plain-array
/// speed.
///
/// A network in stages (Jaśkowski's multi-stage networks) keeps one set of weights per range of the board's largest
/// tile: with thresholds `[14]`, boards whose largest tile is below 16384 read stage 0 and the others stage 1, so the
/// late game, where a misplaced tile costs the most, has weights of its own.
///
/// A network read from a sparse file, the one play uses, is held in the read-only
/// `Packed` form instead (one stage, 16-bit integers directly indexed, 128 MiB): it evaluates as the dense form of
/// the same weights would, to the bit. Writing a weight of it (training it further) first copies it into the dense
/// form, once.
pub struct Network {
    weights: Weights,
    games: std::sync::atomic::AtomicU64,
    stage_from: Box<[u8]>,
}

/// Where a network's weights are.
enum Weights {
    /// Every weight of every stage, writable (training).
    Dense(Box<[AtomicU32]>),
    /// The kept weights only (play), and the dense copy made on the first write, if any.
    Packed(Box<Packed>, OnceLock<Box<[AtomicU32]>>),
}

impl Network {
    /// A network of one stage with every weight set to `init` (0 for plain TD; a positive value is optimistic
    /// initialisation).
    pub fn new(init: f32) -> Network {
        Network::from_weights(super::memory::weights(WEIGHTS, init.to_bits()), 0, &[])
    }

    /// A network in stages: stage `s` (from 1) holds the boards whose largest tile has an exponent of at least
    /// `stage_from[s - 1]` (see [`check_stages`]), every weight set to `init`.
    pub fn staged(init: f32, stage_from: &[u8]) -> Result<Network, StagesError> {
        check_stages(stage_from)?;
        let n = WEIGHTS * (stage_from.len() + 1);
        Ok(Network::from_weights(
            super::memory::weights(n, init.to_bits()),
            0,
            stage_from,
        ))
    }

    /// A network from raw weights (`WEIGHTS` per stage), a count of training games and checked stage thresholds.
    pub(crate) fn from_weights(
        weights: Box<[AtomicU32]>,
        games: u64,
        stage_from: &[u8],
    ) -> Network {
        debug_assert_eq!(weights.len(), WEIGHTS * (stage_from.len() + 1));
        Network {
            weights: Weights::Dense(weights),
            games: games.into(),
            stage_from: stage_from.into(),
        }
    }

    /// A read-only network of one stage in the packed form, with a count of training games.
    pub(crate) fn from_packed(packed: Packed, games: u64) -> Network {
        Network {
            weights: Weights::Packed(Box::new(packed), OnceLock::new()),
            games: games.into(),
            stage_from: Box::new([]),
        }
    }

    /// The packed form the network is read from, when it is in that form and has not been written to.
    pub(crate) fn packed(&self) -> Option<&Packed> {
        match &self.weights {
            Weights::Packed(p, dense) if dense.get().is_none() => Some(p),
            _ => None,
        }
    }

    /// The dense weights, when there are any (always, but for a packed network never written to).
    #[inline(always)]
    fn dense(&self) -> Option<&[AtomicU32]> {
        match &self.weights {
            Weights::Dense(w) => Some(w),
            Weights::Packed(_, dense) => dense.get().map(|w| &w[..]),
        }
    }

    /// The dense weights, made from the packed form on the first call for a packed network.
    fn dense_for_writing(&self) -> &[AtomicU32] {
        match &self.weights {
            Weights::Dense(w) => w,
            Weights::Packed(p, dense) => dense.get_or_init(|| {
                let w = super::memory::zeroed(WEIGHTS);
                for (i, x) in w.iter().enumerate() {
                    let v = p.weight(i);
                    if v != 0.0 {
                        x.store(v.to_bits(), Ordering::Relaxed);
                    }
                }
                w
            }),
        }
    }

    /// The same network in the stages of `stage_from`: each new stage starts as a copy of the weights of the stage
    /// of this network that held its smallest boards (Jaśkowski's weight promotion). The game count is kept.
    pub fn promoted(&self, stage_from: &[u8]) -> Result<Network, StagesError> {
        let out = Network::staged(0.0, stage_from)?;
        for s in 0..out.stages() {
            let lowest = if s == 0 { 0 } else { stage_from[s - 1] };
            let src = self.stage_of_exponent(lowest) * WEIGHTS;
            for i in 0..WEIGHTS {
                out.set_weight(s * WEIGHTS + i, self.weight(src + i));
            }
        }
        out.set_games(self.games());
        Ok(out)
    }

    /// Sets every weight of stage `s` to zero (nothing when there is no such stage).
    pub(crate) fn clear_stage(&self, s: usize) {
        if let Some(stage) = self.dense_for_writing().get(s * WEIGHTS..(s + 1) * WEIGHTS) {
            for w in stage {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Number of stages (1 for a network without stages).
    pub fn stages(&self) -> usize {
        self.stage_from.len() + 1
    }

    /// The exponents of the largest tile at which stages 1, 2, ... begin (empty for one stage).
    pub fn stage_from(&self) -> &[u8] {
        &self.stage_from
    }

    /// The stage of boards whose largest tile has exponent `e`.
    #[inline(always)]
    fn stage_of_exponent(&self, e: u8) -> usize {
        self.stage_from.iter().filter(|&&from| e >= from).count()
    }

    /// The stage of a board.
    #[inline(always)]
    pub(crate) fn stage(&self, b: Bitboard) -> usize {
        if self.stage_from.is_empty() {
            0
        } else {
            self.stage_of_exponent(max_exponent(b))
        }
    }

    /// The positions in the weight array of a board's [`FEATURES`] features, in the board's stage.
    #[inline(always)]
    pub(crate) fn features(&self, b: Bitboard) -> [usize; FEATURES] {
        let mut out = feature_indices(b);
        let base = self.stage(b) * WEIGHTS;
        if base > 0 {
            for i in &mut out {
                *i += base;
            }
        }
        out
    }

    /// Self-play games this network was trained on.
    pub fn games(&self) -> u64 {
        self.games.load(Ordering::Relaxed)
    }

    /// Sets the count of training games.
    pub fn set_games(&self, games: u64) {
        self.games.store(games, Ordering::Relaxed);
    }

    /// Weight `i` (0..[`Network::len`]).
    #[inline(always)]
    pub fn weight(&self, i: usize) -> f32 {
        match (self.dense(), &self.weights) {
            (Some(w), _) => f32::from_bits(w[i].load(Ordering::Relaxed)),
            (None, Weights::Packed(p, _)) => p.weight(i),
            (None, Weights::Dense(_)) => 0.0,
        }
    }

    /// Sets weight `i`.
    #[inline(always)]
    pub fn set_weight(&self, i: usize, w: f32) {
        self.dense_for_writing()[i].store(w.to_bits(), Ordering::Relaxed);
    }

    /// Number of weights (`WEIGHTS` per stage).
    pub fn len(&self) -> usize {
        WEIGHTS * self.stages()
    }

    /// Always false.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a board (an after-state): the sum of its [`FEATURES`] weights.
    #[inline]
    pub fn eval(&self, b: Bitboard) -> f32 {
        let Some(weights) = self.dense() else {
            let Weights::Packed(p, _) = &self.weights else {
                return 0.0;
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                #[allow(unsafe_code)]
                // SAFETY: the processor was just seen to have AVX2, the one feature the function is compiled for.
                return unsafe { packed_eval_avx2(p, b) };
            }
            return packed_eval(p, b);
        };
        let indices = tuple_indices(&symmetries(b));
        let stage = self.stage(b) * WEIGHTS;
        let mut sum = 0f32;
        for (t, ix) in indices.iter().enumerate() {
            let base = stage + t * TUPLE_SIZE;
            for &i in ix {
                sum += f32::from_bits(weights[base + i].load(Ordering::Relaxed));
            }
        }
        sum
    }

    /// [`Network::eval`] of four boards, each value exactly as [`Network::eval`] gives it; in the packed form the four
    /// boards' reads are issued together (see [`Packed::sum4`]).
    #[inline]
    pub(crate) fn eval4(&self, b: &[Bitboard; 4]) -> [f32; 4] {
        let Weights::Packed(p, dense) = &self.weights else {
            return b.map(|b| self.eval(b));
        };
        if dense.get().is_some() {
            return b.map(|b| self.eval(b));
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: the processor was just seen to have AVX2, the one feature the function is compiled for.
            return unsafe { packed_eval4_avx2(p, b) };
        }
        packed_eval4(p, b)
    }

    /// Adds `delta / FEATURES` to each of the board's feature weights, so that its value moves by about `delta`
    /// (exactly `delta` unless two symmetric images share a weight). Returns nothing: callers that need the new value
    /// use `old + delta`.
    #[inline]
    pub(crate) fn update(&self, b: Bitboard, delta: f32) {
        let share = delta / FEATURES as f32;
        for i in self.features(b) {
            self.set_weight(i, self.weight(i) + share);
        }
    }

    /// Weights that are not zero.
    pub fn nonzero(&self) -> usize {
        match self.dense() {
            Some(w) => w
                .iter()
                .filter(|w| w.load(Ordering::Relaxed) & 0x7FFF_FFFF != 0)
                .count(),
            None => (0..self.len()).filter(|&i| self.weight(i) != 0.0).count(),
        }
    }

    /// Iterates over the weights' bit patterns.
    pub(crate) fn bits(&self) -> impl Iterator<Item = u32> + '_ {
        let dense = self.dense();
        (0..self.len()).map(move |i| match dense {
            Some(w) => w[i].load(Ordering::Relaxed),
            None => self.weight(i).to_bits(),
        })
    }
}

/// [`Network::eval`] in the packed form: each tuple's integers summed, then times its step (exact, as the dense
/// form's sum of the same weights is while it stays below 2^24 steps).
#[inline(always)]
fn packed_eval(p: &Packed, b: Bitboard) -> f32 {
    p.sum(&tuple_indices(&symmetries(b)))
}

/// [`packed_eval`] compiled for processors with AVX2, as [`packed_eval4_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn packed_eval_avx2(p: &Packed, b: Bitboard) -> f32 {
    packed_eval(p, b)
}

/// [`Network::eval4`] in the packed form: the four boards' features, then their sums.
#[inline(always)]
fn packed_eval4(p: &Packed, b: &[Bitboard; 4]) -> [f32; 4] {
    // Filled in place: `array::map` over these 1 KiB of indices compiled to a `memmove` per evaluation (15% of a
    // depth-3 game's time in a profile).
    let mut indices = [[[0usize; 8]; 4]; 4];
    for (ix, &b) in indices.iter_mut().zip(b) {
        *ix = tuple_indices(&symmetries(b));
    }
    p.sum4(&indices)
}

/// [`packed_eval4`] compiled for processors with AVX2 (the images' and indices' shifts and masks in vector
/// registers): about 10% less time in play at depth 3 than the baseline x86-64 build, the same values (the sums are
/// integer additions in the same order; no fused multiply-add is enabled).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn packed_eval4_avx2(p: &Packed, b: &[Bitboard; 4]) -> [f32; 4] {
    packed_eval4(p, b)
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("weights", &self.len())
            .field("packed", &self.packed().map(|p| p.kept()))
            .field("games", &self.games())
            .field("stage_from", &self.stage_from)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    /// The evaluation compiled for AVX2 gives, bit for bit, what the baseline build's code gives, one board or four
    /// at once, on the shipped network (the only one in the packed form a player uses).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_evaluation_is_the_baseline_evaluation_bit_for_bit() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this processor has no AVX2");
            return;
        }
        let net = crate::ai::ntuple::shipped().expect("the shipped network");
        let p = net.packed().expect("the shipped network is packed");
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        for _ in 0..5_000 {
            let four = [0; 4].map(|_: u64| rng.next_u64());
            #[allow(unsafe_code)]
            // SAFETY: AVX2 was seen above.
            let (one, all) = unsafe { (packed_eval_avx2(p, four[0]), packed_eval4_avx2(p, &four)) };
            assert_eq!(one.to_bits(), packed_eval(p, four[0]).to_bits());
            assert_eq!(
                all.map(f32::to_bits),
                packed_eval4(p, &four).map(f32::to_bits)
            );
            assert_eq!(
                all.map(f32::to_bits),
                four.map(|b| packed_eval(p, b).to_bits())
            );
        }
    }

    /// Where an image's cell (r, c) is read from.
    type CellMap = fn(usize, usize) -> (usize, usize);

    /// The cell at (r, c) of an image, read through a naive 2D model of the symmetries.
    fn naive_images(b: Bitboard) -> Vec<Bitboard> {
        let cell = |r: usize, c: usize| (b >> (4 * (4 * r + c))) & 0xF;
        let maps: [CellMap; 8] = [
            |r, c| (r, c),
            |r, c| (r, 3 - c),
            |r, c| (3 - r, c),
            |r, c| (3 - r, 3 - c),
            |r, c| (c, r),
            |r, c| (c, 3 - r),
            |r, c| (3 - c, r),
            |r, c| (3 - c, 3 - r),
        ];
        maps.iter()
            .map(|m| {
                let mut out = 0u64;
                for r in 0..4 {
                    for c in 0..4 {
                        let (sr, sc) = m(r, c);
                        out |= cell(sr, sc) << (4 * (4 * r + c));
                    }
                }
                out
            })
            .collect()
    }

    #[test]
    fn symmetries_are_the_eight_images_of_the_square() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..1000 {
            let b = rng.next_u64();
            let mut fast = symmetries(b).to_vec();
            let mut naive = naive_images(b);
            fast.sort_unstable();
            naive.sort_unstable();
            assert_eq!(fast, naive);
        }
    }

    #[test]
    fn evaluation_is_the_same_on_the_eight_images() {
        let net = Network::new(0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for i in 0..net.len() / 4096 {
            net.set_weight(
                i * 4096 + (rng.next_u32() as usize % 4096),
                (rng.next_u32() % 1000) as f32,
            );
        }
        // Fill the weights that the test boards touch with random values.
        let boards: Vec<u64> = (0..200)
            .map(|_| rng.next_u64() & 0x7777_7777_7777_7777)
            .collect();
        for &b in &boards {
            for i in feature_indices(b) {
                net.set_weight(i, (rng.next_u32() % 4096) as f32 / 8.0);
            }
        }
        for &b in &boards {
            let v = net.eval(b);
            assert!(v != 0.0);
            for image in symmetries(b) {
                // Weights are multiples of 1/8 below 512, so the sums are exact in any order.
                assert_eq!(net.eval(image), v, "{b:016x} vs {image:016x}");
            }
        }
    }

    /// The value read the plain way: for each tuple and each image, the six cells by (row, col), combined into an
    /// index digit by digit.
    fn naive_eval(net: &Network, b: Bitboard) -> f32 {
        let mut sum = 0f32;
        for (t, cells) in TUPLES.iter().enumerate() {
            for image in naive_images(b) {
                let mut index = 0usize;
                for &c in cells.iter().rev() {
                    let e = crate::bitboard::get(image, c as usize / 4, c as usize % 4);
                    index = index * 16 + e as usize;
                }
                sum += net.weight(t * TUPLE_SIZE + index);
            }
        }
        sum
    }

    #[test]
    fn the_masked_indices_are_the_tuples_read_cell_by_cell() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..2000 {
            let images = symmetries(rng.next_u64());
            let fast = tuple_indices(&images);
            for (t, cells) in TUPLES.iter().enumerate() {
                for (k, &image) in images.iter().enumerate() {
                    assert_eq!(
                        fast[t][k],
                        tuple_index(image, cells),
                        "{image:016x} tuple {t}"
                    );
                }
            }
        }
    }

    #[test]
    fn evaluation_matches_a_naive_reading_of_the_tuples() {
        let net = Network::new(0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let boards: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
        for &b in &boards {
            for i in feature_indices(b) {
                net.set_weight(i, (rng.next_u32() % 4096) as f32 / 8.0);
            }
        }
        for &b in &boards {
            assert_eq!(net.eval(b), naive_eval(&net, b), "{b:016x}");
        }
    }
}
