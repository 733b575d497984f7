//! The read-only form of a sparse network, for play (issue 29): only the weights kept are stored, as 16-bit multiples
//! of their tuple's step, behind a directory of blocks.
//!
//! Each tuple's [`TUPLE_SIZE`] indices fall in blocks of 64. A block that keeps weights is a record of 64-bit words:
//! a map of the indices it keeps, then their integers, four to a word; a directory of one 32-bit offset a block (1 MiB a tuple, small enough
//! to stay in the caches) finds the record, and a weight is read with a population count of the map below its index,
//! the map and the weight sharing a cache line as a rule. Blocks that keep nothing point to an empty record. The
//! network of 10.6 million weights takes about 30 MB, where the dense form of training fills 256 MiB; nothing is
//! computed at load but the records and the directory, written in one pass as the file is decoded.

use super::network::TUPLE_SIZE;

/// Indices per block.
const BLOCK: usize = 64;
/// Blocks per tuple.
const BLOCKS: usize = TUPLE_SIZE / BLOCK;
/// Weights a 64-bit word of a record holds.
const PER_WORD: usize = 4;

/// A network's kept weights, read-only (see the module's documentation).
pub struct Packed {
    /// Per tuple: per block, the word where its record begins in `records` (0, the empty record, for a block that
    /// keeps nothing).
    directory: [Vec<u32>; 4],
    /// Per tuple, in 64-bit words: the empty record's map, then each record (its map, then its integers, four 16-bit
    /// ones a word, low first), then one zero word (read, and multiplied by zero, for an index not kept after the last
    /// record's last weight).
    records: [Vec<u64>; 4],
    /// Per tuple: the weights kept.
    kept: [usize; 4],
    /// Each tuple's step: a weight is its integer times its step.
    steps: [f32; 4],
}

/// The integer of bit `bit` (0..64) of the record at word `at`: the map's bits below it count the integers before
/// it, and an index not kept reads 0 (whatever word the count lands on, the product with the missing bit is 0).
#[inline(always)]
fn read(records: &[u64], at: usize, bit: usize) -> i32 {
    read_mapped(records, records.get(at).copied().unwrap_or(0), at, bit)
}

/// [`read`] with the record's map already read.
#[inline(always)]
fn read_mapped(records: &[u64], map: u64, at: usize, bit: usize) -> i32 {
    let below = (map & ((1u64 << bit) - 1)).count_ones() as usize;
    let present = ((map >> bit) & 1) as i32;
    let word = records.get(at + 1 + below / PER_WORD).copied().unwrap_or(0);
    i32::from((word >> (16 * (below % PER_WORD))) as u16 as i16) * present
}

impl Packed {
    /// The form of four tuples' weights (each made by a [`Builder`]) with these steps.
    pub fn new(tuples: [Builder; 4], steps: [f32; 4]) -> Packed {
        let [a, b, c, d] = tuples.map(Builder::finish);
        Packed {
            directory: [a.0, b.0, c.0, d.0],
            records: [a.1, b.1, c.1, d.1],
            kept: [a.2, b.2, c.2, d.2],
            steps,
        }
    }

    /// Each tuple's step.
    pub fn steps(&self) -> [f32; 4] {
        self.steps
    }

    /// Weights kept.
    pub fn kept(&self) -> usize {
        self.kept.iter().sum()
    }

    /// Bytes of memory the form holds.
    pub fn bytes(&self) -> usize {
        let d: usize = self.directory.iter().map(|d| d.len() * 4).sum();
        d + self.records.iter().map(|v| v.len() * 8).sum::<usize>()
    }

    /// The integer of index `i` (`0..TUPLE_SIZE`) of tuple `t` (0 when not kept).
    #[inline(always)]
    pub fn integer(&self, t: usize, i: usize) -> i32 {
        let (Some(directory), Some(records)) = (self.directory.get(t), self.records.get(t)) else {
            return 0;
        };
        let Some(&at) = directory.get(i / BLOCK) else {
            return 0;
        };
        read(records, at as usize, i % BLOCK)
    }

    /// The sum of the integers at `indices[t][k]` of each tuple `t`, times the tuple's step: a board's value from its
    /// features. The reads go in three rounds, each of 32 reads that do not depend on one another, so that they wait
    /// on memory together rather than one after the other: the directory for every feature, then every record's map,
    /// then the integers (in the map's cache line as a rule).
    #[inline(always)]
    pub fn sum(&self, indices: &[[usize; 8]; 4]) -> f32 {
        let [v] = self.sums(&[*indices]);
        v
    }

    /// [`Packed::sum`] of four boards' features, each sum exactly as [`Packed::sum`] gives it, the three rounds of
    /// reads made for the four boards at once (128 reads a round).
    #[inline(always)]
    pub fn sum4(&self, indices: &[[[usize; 8]; 4]; 4]) -> [f32; 4] {
        self.sums(indices)
    }

    /// [`Packed::sum`] of `N` boards' features, round by round.
    #[inline(always)]
    fn sums<const N: usize>(&self, indices: &[[[usize; 8]; 4]; N]) -> [f32; N] {
        let mut at = [[[0usize; 8]; 4]; N];
        for (at, indices) in at.iter_mut().zip(indices) {
            for ((at, directory), indices) in at.iter_mut().zip(&self.directory).zip(indices) {
                for (a, &i) in at.iter_mut().zip(indices) {
                    *a = directory.get(i / BLOCK).copied().unwrap_or(0) as usize;
                }
            }
        }
        let mut maps = [[[0u64; 8]; 4]; N];
        for (maps, at) in maps.iter_mut().zip(&at) {
            for ((maps, records), at) in maps.iter_mut().zip(&self.records).zip(at) {
                for (m, &at) in maps.iter_mut().zip(at) {
                    *m = records.get(at).copied().unwrap_or(0);
                }
            }
        }
        let mut out = [0f32; N];
        for (((out, maps), at), indices) in out.iter_mut().zip(&maps).zip(&at).zip(indices) {
            let mut sum = 0f32;
            for (t, (((maps, at), records), indices)) in maps
                .iter()
                .zip(at)
                .zip(&self.records)
                .zip(indices)
                .enumerate()
            {
                let mut q = 0i32;
                for ((&map, &at), &i) in maps.iter().zip(at).zip(indices) {
                    q += read_mapped(records, map, at, i % BLOCK);
                }
                sum += q as f32 * self.steps[t];
            }
            *out = sum;
        }
        out
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
    records: Vec<u64>,
    /// Where the current block's record begins.
    record: usize,
    /// Integers in the current block's record so far.
    in_record: usize,
    kept: usize,
    /// The index after the last weight pushed.
    next: usize,
}

impl Builder {
    /// A builder for `kept` weights (a hint).
    pub fn new(kept: usize) -> Builder {
        // About 15 to 25 weights a block that keeps any: room for the maps and the last words' padding too, so that
        // the vector, advised once, never moves.
        let mut records = super::memory::words_with_capacity(kept / 2 + 64);
        records.push(0);
        Builder {
            // Zeroed memory straight from the allocator (blocks that keep nothing are never written), in 2 MiB pages
            // where the kernel has them: without them the lookups miss the TLB and play slows down.
            directory: super::memory::zeroed_words(BLOCKS),
            records,
            record: 0,
            in_record: 0,
            kept: 0,
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
        let first_in_block = self.kept == 0 || (self.next - 1) / BLOCK != i / BLOCK;
        if first_in_block {
            self.record = self.records.len();
            self.directory[i / BLOCK] = self.record as u32;
            self.records.push(0);
            self.in_record = 0;
        }
        self.records[self.record] |= 1 << (i % BLOCK);
        let slot = self.in_record % PER_WORD;
        if slot == 0 {
            self.records.push(0);
        }
        let last = self.records.len() - 1;
        self.records[last] |= u64::from(q as u16) << (16 * slot);
        self.in_record += 1;
        self.kept += 1;
        self.next = i + 1;
        Ok(())
    }

    /// The directory, the records (with the final zero word; not shrunk, which would move them out of the memory
    /// advised) and the count of weights kept.
    fn finish(mut self) -> (Vec<u32>, Vec<u64>, usize) {
        self.records.push(0);
        (self.directory, self.records, self.kept)
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
