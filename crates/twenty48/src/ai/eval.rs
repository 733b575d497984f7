//! The evaluation: a weighted sum of per-line features, precomputed for all 65536 rows and applied to the four rows
//! and the four columns of a bitboard.

use crate::bitboard::{Bitboard, transpose};

/// Feature weights of the evaluation. Every feature is computed on one line (row or column) of four cells, from the
/// exponents `r` (0 = empty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Constant per line, so that living positions score above dead ones (a dead position is worth 0).
    pub base: f32,
    /// Per empty cell.
    pub empty: f32,
    /// Per possible merge (runs of equal tiles, empties skipped, as in nneonneo/2048-ai).
    pub merges: f32,
    /// Penalty on the smaller of the two monotonicity violations, measured in `r^mono_power`.
    pub mono: f32,
    /// Exponent of the monotonicity measure.
    pub mono_power: f32,
    /// Penalty on `sum(r^sum_power)`: large tiles cost, which pushes toward merging.
    pub sum: f32,
    /// Exponent of the sum penalty.
    pub sum_power: f32,
    /// Bonus `r_max^2` when the line's largest tile sits at one of its ends.
    pub edge: f32,
}

/// Tuned weights, from two runs of the weight tuner (`parlor-lab`'s `tune`; commands and curves in `BENCHMARKS.md`):
/// 1. from [`Weights::NNEONNEO`]: `--iterations 100 --games 16 --depth 2 --seed 1 --sigma 0.3` (training fitness
///    31204 -> 53616);
/// 2. from the result of 1: `--iterations 60 --games 16 --depth 3 --seed 2 --sigma 0.15` (59479 -> 93747).
///
/// On held-out seeds 1001..=1032 at depth 3 the mean score goes from 49628 (NNEONNEO, 16 games) to 64266 (run 1)
/// to 78745 (run 2), and 8192 is reached in 0% / 3% / 28% of the games.
pub(crate) const TUNED: Weights = Weights {
    base: 293_118.06,
    empty: 487.921_36,
    merges: 445.252_53,
    mono: 53.768_223,
    mono_power: 2.409_476_5,
    sum: 6.649_941_4,
    sum_power: 3.283_667_8,
    edge: 21.003_418,
};

impl Weights {
    /// The heuristic weights of nneonneo/2048-ai (`2048.cpp`), with no edge bonus.
    pub const NNEONNEO: Weights = Weights {
        base: 200_000.0,
        empty: 270.0,
        merges: 700.0,
        mono: 47.0,
        mono_power: 4.0,
        sum: 11.0,
        sum_power: 3.5,
        edge: 0.0,
    };

    /// The weights as a vector (in field order), for tuning.
    pub fn to_array(&self) -> [f32; 8] {
        [
            self.base,
            self.empty,
            self.merges,
            self.mono,
            self.mono_power,
            self.sum,
            self.sum_power,
            self.edge,
        ]
    }

    /// The inverse of [`Weights::to_array`].
    pub fn from_array(a: [f32; 8]) -> Weights {
        Weights {
            base: a[0],
            empty: a[1],
            merges: a[2],
            mono: a[3],
            mono_power: a[4],
            sum: a[5],
            sum_power: a[6],
            edge: a[7],
        }
    }

    /// [`Weights::line`] with precomputed powers.
    pub(crate) fn line_with(&self, line: &[u8], pw: &Powers) -> f32 {
        let mut sum = 0f32;
        let mut empty = 0f32;
        let mut merges = 0f32;
        let (mut prev, mut counter) = (0u8, 0u32);
        for &r in line {
            sum += pw.sum[r as usize];
            if r == 0 {
                empty += 1.0;
            } else {
                if prev == r {
                    counter += 1;
                } else if counter > 0 {
                    merges += 1.0 + counter as f32;
                    counter = 0;
                }
                prev = r;
            }
        }
        if counter > 0 {
            merges += 1.0 + counter as f32;
        }
        let (mut mono_left, mut mono_right) = (0f32, 0f32);
        for w in line.windows(2) {
            let a = pw.mono[w[0] as usize];
            let b = pw.mono[w[1] as usize];
            if w[0] > w[1] {
                mono_left += a - b;
            } else {
                mono_right += b - a;
            }
        }
        let max = line.iter().copied().max().unwrap_or(0);
        let at_end = max > 0 && (line[0] == max || line[line.len() - 1] == max);
        let edge = if at_end {
            (max as f32) * (max as f32)
        } else {
            0.0
        };
        self.base + self.empty * empty + self.merges * merges
            - self.mono * mono_left.min(mono_right)
            - self.sum * sum
            + self.edge * edge
    }
}

/// `r^sum_power` and `r^mono_power` for every exponent r, precomputed.
#[derive(Debug, Clone)]
pub(crate) struct Powers {
    sum: [f32; 256],
    mono: [f32; 256],
}

impl Powers {
    /// The powers for these weights.
    pub(crate) fn new(w: &Weights) -> Powers {
        Powers {
            sum: std::array::from_fn(|r| (r as f32).powf(w.sum_power)),
            mono: std::array::from_fn(|r| (r as f32).powf(w.mono_power)),
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        TUNED
    }
}

/// The evaluation table for 4x4 bitboards.
pub struct Evaluator {
    weights: Weights,
    table: Box<[f32; 65536]>,
}

impl Evaluator {
    /// Builds the 65536-entry line table for these weights (a few milliseconds).
    pub fn new(weights: Weights) -> Evaluator {
        let mut table: Box<[f32; 65536]> = vec![0f32; 65536]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("length is 65536"));
        let pw = Powers::new(&weights);
        for row in 0..=u16::MAX {
            let line = [
                (row & 0xF) as u8,
                ((row >> 4) & 0xF) as u8,
                ((row >> 8) & 0xF) as u8,
                (row >> 12) as u8,
            ];
            table[row as usize] = weights.line_with(&line, &pw);
        }
        Evaluator { weights, table }
    }

    /// The weights this table was built from.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The evaluation of a bitboard: the line table summed over its four rows and four columns.
    #[inline(always)]
    pub fn eval(&self, b: Bitboard) -> f32 {
        let t = &self.table;
        let c = transpose(b);
        t[b as u16 as usize]
            + t[(b >> 16) as u16 as usize]
            + t[(b >> 32) as u16 as usize]
            + t[(b >> 48) as u16 as usize]
            + t[c as u16 as usize]
            + t[(c >> 16) as u16 as usize]
            + t[(c >> 32) as u16 as usize]
            + t[(c >> 48) as u16 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    /// nneonneo/2048-ai's row heuristic, transcribed directly from its published formula (in f64):
    /// `200000 + 270 * empty + 700 * merges - 47 * min(mono_left, mono_right) - 11 * sum(rank^3.5)`, where a merge run is
    /// counted as 1 + counter, empty cells are skipped (they neither extend nor break a run), and monotonicity sums
    /// rank^4 differences.
    fn nneonneo_row(line: [u8; 4]) -> f64 {
        let (mut sum, mut empty, mut merges) = (0f64, 0f64, 0f64);
        let (mut prev, mut counter) = (0u8, 0f64);
        for &rank in &line {
            sum += (rank as f64).powf(3.5);
            if rank == 0 {
                empty += 1.0;
            } else {
                if prev == rank {
                    counter += 1.0;
                } else if counter > 0.0 {
                    merges += 1.0 + counter;
                    counter = 0.0;
                }
                prev = rank;
            }
        }
        if counter > 0.0 {
            merges += 1.0 + counter;
        }
        let (mut left, mut right) = (0f64, 0f64);
        for i in 1..4 {
            let (a, b) = ((line[i - 1] as f64).powi(4), (line[i] as f64).powi(4));
            if line[i - 1] > line[i] {
                left += a - b;
            } else {
                right += b - a;
            }
        }
        200000.0 + 270.0 * empty + 700.0 * merges - 47.0 * left.min(right) - 11.0 * sum
    }

    #[test]
    fn nneonneo_weights_match_the_published_formula() {
        let w = Weights::NNEONNEO;
        let eval = Evaluator::new(w);
        let mut rng = ChaCha8Rng::seed_from_u64(48);
        // Hand-picked rows for the run rule, then random ones (half the cells empty on average).
        let mut rows: Vec<[u8; 4]> = vec![
            [1, 0, 1, 0],
            [2, 2, 2, 2],
            [3, 0, 0, 3],
            [1, 1, 2, 2],
            [5, 0, 5, 4],
        ];
        for _ in 0..20_000 {
            let v = rng.next_u64();
            rows.push(std::array::from_fn(|i| {
                let r = ((v >> (8 * i)) & 0xFF) as u8;
                if r & 1 == 0 { 0 } else { (r >> 1) % 15 + 1 }
            }));
        }
        for line in rows {
            let want = nneonneo_row(line);
            let got = w.line_with(&line, &Powers::new(&w)) as f64;
            assert!(
                (got - want).abs() <= 1e-6 * want.abs().max(1.0) + 0.1,
                "{line:?}: {got} vs {want}"
            );
            // The board evaluation sums the table over rows and columns: a board with this row and zeros elsewhere.
            let b = line
                .iter()
                .enumerate()
                .fold(0u64, |b, (i, &r)| b | (r as u64) << (4 * i));
            let empty_line = nneonneo_row([0; 4]);
            let col = |c: usize| nneonneo_row([line[c], 0, 0, 0]);
            let board_want = want + 3.0 * empty_line + (0..4).map(col).sum::<f64>();
            let board_got = eval.eval(b) as f64;
            assert!(
                (board_got - board_want).abs() <= 1e-6 * board_want.abs() + 4.0,
                "{line:?}"
            );
        }
        // The run rule: `2 . 2 .` is one run of two (merges 2); `2 2 4 4` two runs (merges 4).
        assert!(nneonneo_row([1, 0, 1, 0]) > nneonneo_row([1, 0, 2, 0]));
    }
}
