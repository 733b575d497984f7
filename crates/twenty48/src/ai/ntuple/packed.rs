//! The read-only form of a sparse network, for play (issue 29): each tuple's weights as 16-bit multiples of its step,
//! directly indexed.
//!
//! A tuple's [`TUPLE_SIZE`] weights are a table of `i16`, 32 MiB a tuple and 128 MiB for the four, so a feature is one
//! memory read, as in the dense `f32` form of training (256 MiB), and the 32 reads of an evaluation do not depend on
//! one another. The tables come zeroed from the allocator (fresh pages, advised to be 2 MiB ones, zeroed by the kernel
//! as they are first written) and only the weights kept are written, as the file is decoded. Sessions 14-17 held the
//! kept weights alone (about 30 MB: a directory of blocks of 64 indices, each block a presence map and its integers),
//! three dependent reads a feature, which made play 2.5 times slower than the dense form (`BENCHMARKS.md`, session
//! 18).

use super::network::TUPLE_SIZE;

/// One tuple's integers, directly indexed.
type Table = Box<[i16; TUPLE_SIZE]>;

/// A network's kept weights, read-only (see the module's documentation).
pub struct Packed {
    /// Per tuple: the integer of every index (0 for one not kept).
    tables: [Table; 4],
    /// Per tuple: the weights kept.
    kept: [usize; 4],
    /// Each tuple's step: a weight is its integer times its step.
    steps: [f32; 4],
}

impl Packed {
    /// The form of four tuples' weights (each made by a [`Builder`]) with these steps.
    pub fn new(tuples: [Builder; 4], steps: [f32; 4]) -> Packed {
        let [a, b, c, d] = tuples.map(|b| (b.table, b.kept));
        Packed {
            tables: [a.0, b.0, c.0, d.0],
            kept: [a.1, b.1, c.1, d.1],
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

    /// Bytes of memory the form holds (its address space: the pages of indices never kept are never written, but with
    /// 2 MiB pages nearly all are).
    pub fn bytes(&self) -> usize {
        self.tables.len() * TUPLE_SIZE * std::mem::size_of::<i16>()
    }

    /// The integer of index `i` (`0..TUPLE_SIZE`) of tuple `t` (0 when not kept).
    #[inline(always)]
    pub fn integer(&self, t: usize, i: usize) -> i32 {
        match self.tables.get(t) {
            Some(table) => i32::from(table[i % TUPLE_SIZE]),
            None => 0,
        }
    }

    /// The sum of the integers at `indices[t][k]` of each tuple `t`, times the tuple's step: a board's value from its
    /// features (each tuple's integers summed first, exactly, then times its step).
    #[inline(always)]
    pub fn sum(&self, indices: &[[usize; 8]; 4]) -> f32 {
        let mut sum = 0f32;
        for ((table, indices), &step) in self.tables.iter().zip(indices).zip(&self.steps) {
            let mut q = 0i32;
            for &i in indices {
                q += i32::from(table[i % TUPLE_SIZE]);
            }
            sum += q as f32 * step;
        }
        sum
    }

    /// [`Packed::sum`] of four boards' features, each sum exactly as [`Packed::sum`] gives it.
    #[inline(always)]
    pub fn sum4(&self, indices: &[[[usize; 8]; 4]; 4]) -> [f32; 4] {
        indices.map(|ix| self.sum(&ix))
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
    table: Table,
    kept: usize,
    /// The index after the last weight pushed.
    next: usize,
}

impl Builder {
    /// A builder of one tuple's table (`kept`, the number of weights to come, is a hint no longer needed).
    pub fn new(_kept: usize) -> Builder {
        Builder {
            table: super::memory::zeroed_table(),
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
        self.table[i] = q;
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
