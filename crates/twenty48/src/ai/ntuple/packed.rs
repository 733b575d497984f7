//! The read-only form of a sparse network, for play (issue 29): only the weights kept are stored, as 16-bit multiples
//! of their tuple's step, behind a directory of blocks.
//!
//! Each tuple's [`TUPLE_SIZE`] indices fall in blocks of 64; a block is a 64-bit map of the indices it keeps and the
//! position in the value array of its first kept weight, so that a weight is found with one read of the directory,
//! a population count of the map below its index and one read of the values. The network of 10.6 million weights
//! takes about 12.6 MB of directory and 21 MB of values, where the dense form of training fills 256 MiB; nothing is
//! computed at load but the directory, filled in one pass as the file is decoded.

use super::network::TUPLE_SIZE;

/// Indices per block.
const BLOCK: usize = 64;
/// Blocks per tuple.
const BLOCKS: usize = TUPLE_SIZE / BLOCK;
/// `u32` words per block in the directory: the map's low and high halves and the first value's position.
const WORDS: usize = 3;

/// A network's kept weights, read-only (see the module's documentation).
pub struct Packed {
    /// Per tuple: per block, [`WORDS`] words.
    directory: [Box<[u32]>; 4],
    /// Per tuple: the kept weights' integers in rising index order, then one zero (read, and multiplied by zero, for
    /// an index not kept after the last kept one).
    values: [Box<[i16]>; 4],
    /// Each tuple's step: a weight is its integer times its step.
    steps: [f32; 4],
}

impl Packed {
    /// The form of four tuples' weights (each made by a [`Builder`]) with these steps.
    pub fn new(tuples: [Builder; 4], steps: [f32; 4]) -> Packed {
        let [a, b, c, d] = tuples.map(Builder::finish);
        Packed {
            directory: [a.0, b.0, c.0, d.0],
            values: [a.1, b.1, c.1, d.1],
            steps,
        }
    }

    /// Each tuple's step.
    pub fn steps(&self) -> [f32; 4] {
        self.steps
    }

    /// Weights kept.
    pub fn kept(&self) -> usize {
        self.values.iter().map(|v| v.len() - 1).sum()
    }

    /// Bytes of memory the form holds.
    pub fn bytes(&self) -> usize {
        let d: usize = self.directory.iter().map(|d| d.len() * 4).sum();
        d + self.values.iter().map(|v| v.len() * 2).sum::<usize>()
    }

    /// The integer of index `i` (`0..TUPLE_SIZE`) of tuple `t` (0 when not kept).
    #[inline(always)]
    pub fn integer(&self, t: usize, i: usize) -> i32 {
        let (Some(directory), Some(values)) = (self.directory.get(t), self.values.get(t)) else {
            return 0;
        };
        let at = i / BLOCK * WORDS;
        let Some(&[lo, hi, base]) = directory.get(at..at + WORDS) else {
            return 0;
        };
        let map = u64::from(lo) | (u64::from(hi) << 32);
        let bit = i % BLOCK;
        let below = (map & ((1u64 << bit) - 1)).count_ones() as usize;
        let present = ((map >> bit) & 1) as i32;
        // The position is in range for every index: an index not kept reads the next kept weight or the final zero.
        let v = values.get(base as usize + below).copied().unwrap_or(0);
        i32::from(v) * present
    }

    /// Weight `i` of the whole network (`0..WEIGHTS`).
    #[inline(always)]
    pub fn weight(&self, i: usize) -> f32 {
        let t = i / TUPLE_SIZE;
        match self.steps.get(t) {
            Some(&step) => self.integer(t, i % TUPLE_SIZE) as f32 * step,
            None => 0.0,
        }
    }
}

/// Fills one tuple's part of a [`Packed`] form weight by weight, in rising index order.
pub struct Builder {
    directory: Vec<u32>,
    values: Vec<i16>,
    /// The index after the last weight pushed.
    next: usize,
}

impl Builder {
    /// A builder for `kept` weights (a hint).
    pub fn new(kept: usize) -> Builder {
        Builder {
            // Zeroed memory straight from the allocator: blocks that keep nothing are never written.
            directory: vec![0u32; BLOCKS * WORDS],
            values: Vec::with_capacity(kept + 1),
            next: 0,
        }
    }

    /// Adds the weight `q` times the step at index `i`, above every index pushed before; the reason when it is out
    /// of order, out of range, or too large for 16 bits.
    #[inline(always)]
    pub fn push(&mut self, i: usize, q: i64) -> Result<(), String> {
        if i >= TUPLE_SIZE || i < self.next {
            return Err(format!("weight {i} is out of range or out of order"));
        }
        let q = i16::try_from(q).map_err(|_| {
            format!(
                "a weight of {q} steps, more than this program holds (16 bits: a finer step than the weights allow)"
            )
        })?;
        let at = i / BLOCK * WORDS;
        let first_in_block = self.values.is_empty() || (self.next - 1) / BLOCK != i / BLOCK;
        if first_in_block {
            self.directory[at + 2] = self.values.len() as u32;
        }
        let bit = i % BLOCK;
        self.directory[at + bit / 32] |= 1 << (bit % 32);
        self.values.push(q);
        self.next = i + 1;
        Ok(())
    }

    /// The directory and the values (with the final zero).
    fn finish(mut self) -> (Box<[u32]>, Box<[i16]>) {
        self.values.push(0);
        (
            self.directory.into_boxed_slice(),
            self.values.into_boxed_slice(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_weights_read_back_and_the_rest_read_zero() {
        let mut b: [Builder; 4] = std::array::from_fn(|_| Builder::new(8));
        let kept = [
            (0, 0, 5),
            (0, 63, -7),
            (0, 64, 9),
            (1, 1000, 32767),
            (1, 1001, -32768),
            (3, TUPLE_SIZE - 1, 3),
        ];
        for &(t, i, q) in &kept {
            b[t].push(i, q).unwrap();
        }
        assert!(b[3].push(5, 1).is_err(), "out of order");
        assert!(
            b[3].push(TUPLE_SIZE - 1, 1).is_err(),
            "the same index again"
        );
        assert!(b[2].push(TUPLE_SIZE, 1).is_err(), "out of range");
        let p = Packed::new(b, [16.0, 8.0, 4.0, 2.0]);
        assert_eq!(p.kept(), kept.len());
        for &(t, i, q) in &kept {
            assert_eq!(p.integer(t, i), q as i32);
            assert_eq!(p.weight(t * TUPLE_SIZE + i), q as f32 * p.steps()[t]);
        }
        for (t, i) in [
            (0, 1),
            (0, 62),
            (0, 65),
            (1, 999),
            (1, 1002),
            (2, 0),
            (3, 0),
        ] {
            assert_eq!(p.integer(t, i), 0, "{t} {i}");
        }
        let mut b = Builder::new(1);
        assert!(b.push(0, 40_000).is_err(), "too large for 16 bits");
    }
}
