//! The read-only form of a sparse network, for play (issue 29): each tuple's weights as 16-bit multiples of its step,
//! directly indexed, filled lazily.
//!
//! A tuple's [`TUPLE_SIZE`] weights are a table of 16-bit integers, 32 MiB a tuple and 128 MiB for the four, so a
//! feature is one memory read, as in the dense `f32` form of training (256 MiB), and the 32 reads of an evaluation do
//! not depend on one another. Holding the kept weights alone (about 30 MB: a directory of blocks of 64 indices, each
//! block a presence map and its integers) took three dependent reads a feature, and made play 2.5 times slower than
//! the dense form.
//!
//! Each table is [`CHUNKS`] chunks of 2^[`CHUNK_BITS`] indices (2 MiB, one large page; the chunk is the exponent of
//! the tuple's last cell). The tables come zeroed from the allocator (fresh pages, advised to be 2 MiB ones, zeroed by
//! the kernel when first written), and a file of format 3 ([`super::sparse`]) codes each chunk's weights apart: a
//! chunk is decoded into its table the first time an evaluation reads it ([`Packed::lazy`]), so that loading does not
//! wait for 10.6 million weights to be decoded and 128 MiB to be zeroed, and the chunks play never reads cost nothing.
//! An evaluation checks one word, the chunks filled, before its reads. Older files are decoded whole at load
//! ([`Builder`]).

use std::sync::atomic::{AtomicI16, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::network::TUPLE_SIZE;
use super::sparse::Damage;

/// Bits of a chunk's indices.
pub(crate) const CHUNK_BITS: u32 = 20;
/// Chunks per tuple.
pub(crate) const CHUNKS: usize = TUPLE_SIZE >> CHUNK_BITS;

/// One tuple's integers, directly indexed.
pub(crate) type Table = Box<[AtomicI16; TUPLE_SIZE]>;

/// Decodes chunk `c` (`0..CHUNKS`) of tuple `t` (`0..4`), giving each weight kept to `put` (its index in the tuple, its
/// integer); the reason when the chunk's data do not hold its weights exactly.
pub(crate) type Fill =
    Box<dyn Fn(usize, usize, &mut dyn FnMut(usize, i16)) -> Result<(), Damage> + Send + Sync>;

/// A network's kept weights, read-only (see the module's documentation).
pub(crate) struct Packed {
    /// Per tuple: the integer of every index (0 for one not kept, or in a chunk not yet filled).
    tables: [Table; 4],
    /// Bit `CHUNKS * t + c`: chunk `c` of tuple `t` is filled.
    filled: AtomicU64,
    /// Where the chunks not yet filled come from (none when every chunk was filled at load).
    fill: Option<Fill>,
    /// Held while chunks are filled.
    filling: Mutex<()>,
    /// Why a chunk could not be filled (it reads as zeros), if one could not.
    damage: OnceLock<Damage>,
    /// Per tuple: the weights kept.
    kept: [usize; 4],
    /// Each tuple's step: a weight is its integer times its step.
    steps: [f32; 4],
}

/// Every chunk of every tuple.
const ALL: u64 = u64::MAX >> (64 - 4 * CHUNKS);

/// The bit of the chunk of index `i` of tuple `t`.
#[inline(always)]
fn chunk_bit(t: usize, i: usize) -> u64 {
    1u64 << (t * CHUNKS + ((i % TUPLE_SIZE) >> CHUNK_BITS))
}

impl Packed {
    /// The form of four tuples' weights (each made by a [`Builder`], so every chunk filled) with these steps.
    pub(crate) fn new(tuples: [Builder; 4], steps: [f32; 4]) -> Packed {
        let [a, b, c, d] = tuples.map(|b| (b.table, b.kept));
        Packed {
            tables: [a.0, b.0, c.0, d.0],
            filled: AtomicU64::new(ALL),
            fill: None,
            filling: Mutex::new(()),
            damage: OnceLock::new(),
            kept: [a.1, b.1, c.1, d.1],
            steps,
        }
    }

    /// The form of four tuples of `kept` weights each with these steps, each chunk filled by `fill` when first read.
    pub(crate) fn lazy(fill: Fill, kept: [usize; 4], steps: [f32; 4]) -> Packed {
        Packed {
            tables: std::array::from_fn(|_| super::memory::zeroed_table()),
            filled: AtomicU64::new(0),
            fill: Some(fill),
            filling: Mutex::new(()),
            damage: OnceLock::new(),
            kept,
            steps,
        }
    }

    /// Weights kept.
    pub(crate) fn kept(&self) -> usize {
        self.kept.iter().sum()
    }

    #[cfg(test)]
    /// Bytes of memory the form holds (its address space: the pages of chunks not filled are never written).
    pub(crate) fn bytes(&self) -> usize {
        self.tables.len() * TUPLE_SIZE * std::mem::size_of::<i16>()
    }

    #[cfg(test)]
    /// Chunks filled so far, of `4 * CHUNKS`.
    pub(crate) fn chunks_filled(&self) -> u32 {
        self.filled.load(Ordering::Acquire).count_ones()
    }

    #[cfg(test)]
    /// Fills every chunk not yet filled; the reason when a chunk's data did not hold its weights exactly (that chunk
    /// then reads as zeros).
    pub(crate) fn fill_all(&self) -> Result<(), Damage> {
        self.ensure(ALL);
        match self.damage.get() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Makes sure the chunks of the bits `need` are filled.
    #[inline(always)]
    fn ensure(&self, need: u64) {
        if self.filled.load(Ordering::Acquire) & need != need {
            self.fill_chunks(need);
        }
    }

    /// Fills the chunks of the bits `need` not yet filled, one thread at a time.
    #[cold]
    #[inline(never)]
    fn fill_chunks(&self, need: u64) {
        let Some(fill) = &self.fill else {
            return;
        };
        let _held = self.filling.lock().unwrap_or_else(PoisonError::into_inner);
        let mut missing = need & !self.filled.load(Ordering::Acquire);
        while missing != 0 {
            let bit = missing.trailing_zeros() as usize;
            missing &= missing - 1;
            let (t, c) = (bit / CHUNKS, bit % CHUNKS);
            if let Some(table) = self.tables.get(t) {
                let mut put = |i: usize, q: i16| table[i % TUPLE_SIZE].store(q, Ordering::Relaxed);
                if let Err(e) = fill(t, c, &mut put) {
                    let _ = self.damage.set(e);
                }
            }
            self.filled.fetch_or(1 << bit, Ordering::Release);
        }
    }

    /// The integer of index `i` (`0..TUPLE_SIZE`) of tuple `t` (0 when not kept).
    #[inline(always)]
    pub(crate) fn integer(&self, t: usize, i: usize) -> i32 {
        match self.tables.get(t) {
            Some(table) => {
                self.ensure(chunk_bit(t, i));
                i32::from(table[i % TUPLE_SIZE].load(Ordering::Relaxed))
            }
            None => 0,
        }
    }

    /// The sum of the integers at `indices[t][k]` of each tuple `t`, times the tuple's step: a board's value from its
    /// features (each tuple's integers summed first, exactly, then times its step).
    #[inline(always)]
    pub(crate) fn sum(&self, indices: &[[usize; 8]; 4]) -> f32 {
        let mut need = 0u64;
        for (t, indices) in indices.iter().enumerate() {
            for &i in indices {
                need |= chunk_bit(t, i);
            }
        }
        self.ensure(need);
        let mut sum = 0f32;
        for ((table, indices), &step) in self.tables.iter().zip(indices).zip(&self.steps) {
            let mut q = 0i32;
            for &i in indices {
                q += i32::from(table[i % TUPLE_SIZE].load(Ordering::Relaxed));
            }
            sum += q as f32 * step;
        }
        sum
    }

    /// [`Packed::sum`] of four boards' features, each sum exactly as [`Packed::sum`] gives it.
    #[inline(always)]
    pub(crate) fn sum4(&self, indices: &[[[usize; 8]; 4]; 4]) -> [f32; 4] {
        let mut sums = [0f32; 4];
        for (sum, ix) in sums.iter_mut().zip(indices) {
            *sum = self.sum(ix);
        }
        sums
    }

    /// Weight `i` of the whole network (`0..WEIGHTS`).
    #[inline(always)]
    pub(crate) fn weight(&self, i: usize) -> f32 {
        let t = i / TUPLE_SIZE;
        match self.steps.get(t) {
            Some(&step) => self.integer(t, i % TUPLE_SIZE) as f32 * step,
            None => 0.0,
        }
    }
}

/// Fills one tuple's part of a [`Packed`] form weight by weight, in rising index order (files decoded whole at load).
pub(crate) struct Builder {
    table: Table,
    kept: usize,
    /// The index after the last weight pushed.
    next: usize,
}

impl Builder {
    /// A builder of one tuple's table (`kept`, the number of weights to come, is a hint no longer needed).
    pub(crate) fn new(_kept: usize) -> Builder {
        Builder {
            table: super::memory::zeroed_table(),
            kept: 0,
            next: 0,
        }
    }

    /// Adds the weight `q` times the step at index `i`, above every index pushed before; the reason when it is out
    /// of order, out of range, or too large for 16 bits.
    #[inline(always)]
    pub(crate) fn push(&mut self, i: usize, q: i64) -> Result<(), Damage> {
        if i >= TUPLE_SIZE || i < self.next {
            return Err(Damage::from(format!(
                "weight {i} is out of range or out of order"
            )));
        }
        let q = i16::try_from(q).map_err(|_| {
            format!(
                "a weight of {q} steps, more than this program holds (16 bits: a finer step than the weights allow)"
            )
        })?;
        self.table[i].store(q, Ordering::Relaxed);
        self.kept += 1;
        self.next = i + 1;
        Ok(())
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
            assert_eq!(p.weight(t * TUPLE_SIZE + i), q as f32 * p.steps[t]);
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
