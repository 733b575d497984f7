//! The n-tuple network: four 6-cell tuples whose weights are shared over the board's 8 symmetries, looked up by the
//! tiles' exponents.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::bitboard::{Bitboard, transpose};

/// Cells per tuple.
pub const TUPLE_LEN: usize = 6;

/// The tuples, as cells `4 * row + col`: two straight 6-tuples (rows 0-1 and rows 1-2 of a 4-wide band) and two 2x3
/// rectangles, the 4x6 network of Wu et al. and Jaśkowski (TDL2048's `4x6patt`).
///
/// ```text
///  0  1  2  3      .  .  .  .      0  1  2  .      .  .  .  .
///  4  5  .  .      4  5  6  7      4  5  6  .      4  5  6  .
///  .  .  .  .      8  9  .  .      .  .  .  .      8  9 10  .
///  .  .  .  .      .  .  .  .      .  .  .  .      .  .  .  .
/// ```
pub const TUPLES: [[u8; TUPLE_LEN]; 4] = [
    [0, 1, 2, 3, 4, 5],
    [4, 5, 6, 7, 8, 9],
    [0, 1, 2, 4, 5, 6],
    [4, 5, 6, 8, 9, 10],
];

/// Weights per tuple: one per combination of six 4-bit exponents.
pub const TUPLE_SIZE: usize = 1 << (4 * TUPLE_LEN);

/// Features looked up per evaluation (tuples x symmetries).
pub const FEATURES: usize = TUPLES.len() * 8;

/// Total number of weights.
pub const WEIGHTS: usize = TUPLES.len() * TUPLE_SIZE;

/// Mirrors the columns (column c to 3 - c).
#[inline(always)]
pub fn flip_columns(b: Bitboard) -> Bitboard {
    ((b & 0x000F_000F_000F_000F) << 12)
        | ((b & 0x00F0_00F0_00F0_00F0) << 4)
        | ((b & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((b & 0xF000_F000_F000_F000) >> 12)
}

/// Mirrors the rows (row r to 3 - r).
#[inline(always)]
pub fn flip_rows(b: Bitboard) -> Bitboard {
    (b << 48) | ((b & 0xFFFF_0000) << 16) | ((b >> 16) & 0xFFFF_0000) | (b >> 48)
}

/// The board's 8 images under the symmetries of the square (identity first).
#[inline(always)]
pub fn symmetries(b: Bitboard) -> [Bitboard; 8] {
    let t = transpose(b);
    let (h, v) = (flip_columns(b), flip_rows(b));
    let (th, tv) = (flip_columns(t), flip_rows(t));
    [b, h, v, flip_rows(h), t, th, tv, flip_rows(th)]
}

/// The index of a tuple's six exponents on a board (the first cell in the lowest nibble).
#[inline(always)]
pub fn tuple_index(b: Bitboard, cells: &[u8; TUPLE_LEN]) -> usize {
    let mut index = 0usize;
    for (k, &c) in cells.iter().enumerate() {
        index |= (((b >> (4 * c)) & 0xF) as usize) << (4 * k);
    }
    index
}

/// The positions in the weight array of a board's [`FEATURES`] features.
#[inline(always)]
pub fn feature_indices(b: Bitboard) -> [usize; FEATURES] {
    let images = symmetries(b);
    let mut out = [0usize; FEATURES];
    let mut i = 0;
    for (t, cells) in TUPLES.iter().enumerate() {
        for &image in &images {
            out[i] = t * TUPLE_SIZE + tuple_index(image, cells);
            i += 1;
        }
    }
    out
}

/// An n-tuple network of [`TUPLES`]: [`WEIGHTS`] `f32` weights, stored as atomics so that training threads can share
/// them without locks (Hogwild: relaxed loads and stores, a concurrent update may be lost, which costs nothing
/// measurable). On x86-64 and AArch64 a relaxed load is an ordinary load, so evaluation runs at plain-array speed.
pub struct Network {
    weights: Box<[AtomicU32]>,
    games: std::sync::atomic::AtomicU64,
}

impl Network {
    /// A network with every weight set to `init` (0 for plain TD; a positive value is optimistic initialisation).
    pub fn new(init: f32) -> Network {
        let bits = init.to_bits();
        Network {
            weights: super::memory::weights(WEIGHTS, bits),
            games: 0.into(),
        }
    }

    /// A network from raw weights (length [`WEIGHTS`]) and a count of training games.
    pub(crate) fn from_weights(weights: Box<[AtomicU32]>, games: u64) -> Network {
        debug_assert_eq!(weights.len(), WEIGHTS);
        Network {
            weights,
            games: games.into(),
        }
    }

    /// Self-play games this network was trained on.
    pub fn games(&self) -> u64 {
        self.games.load(Ordering::Relaxed)
    }

    /// Sets the count of training games.
    pub fn set_games(&self, games: u64) {
        self.games.store(games, Ordering::Relaxed);
    }

    /// Weight `i` (0..[`WEIGHTS`]).
    #[inline(always)]
    pub fn weight(&self, i: usize) -> f32 {
        f32::from_bits(self.weights[i].load(Ordering::Relaxed))
    }

    /// Sets weight `i`.
    #[inline(always)]
    pub fn set_weight(&self, i: usize, w: f32) {
        self.weights[i].store(w.to_bits(), Ordering::Relaxed);
    }

    /// Number of weights ([`WEIGHTS`]).
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Always false.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The value of a board (an after-state): the sum of its [`FEATURES`] weights.
    #[inline]
    pub fn eval(&self, b: Bitboard) -> f32 {
        let images = symmetries(b);
        let mut sum = 0f32;
        for (t, cells) in TUPLES.iter().enumerate() {
            let base = t * TUPLE_SIZE;
            for &image in &images {
                sum += self.weight(base + tuple_index(image, cells));
            }
        }
        sum
    }

    /// Adds `delta / FEATURES` to each of the board's feature weights, so that its value moves by about `delta`
    /// (exactly `delta` unless two symmetric images share a weight). Returns nothing: callers that need the new value
    /// use `old + delta`.
    #[inline]
    pub fn update(&self, b: Bitboard, delta: f32) {
        let share = delta / FEATURES as f32;
        for i in feature_indices(b) {
            self.set_weight(i, self.weight(i) + share);
        }
    }

    /// Weights that are not zero.
    pub fn nonzero(&self) -> usize {
        self.weights
            .iter()
            .filter(|w| w.load(Ordering::Relaxed) & 0x7FFF_FFFF != 0)
            .count()
    }

    /// Iterates over the weights' bit patterns.
    pub(crate) fn bits(&self) -> impl Iterator<Item = u32> + '_ {
        self.weights.iter().map(|w| w.load(Ordering::Relaxed))
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("weights", &self.weights.len())
            .field("games", &self.games())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

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
