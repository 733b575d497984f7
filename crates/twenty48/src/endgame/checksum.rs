//! The checksum that guards the endgame files: the distilled stores here, the layer files of the lab's solver.

/// A 64-bit checksum over words: each step is a bijection of the running state, so a change in any one word always
/// changes the result (and the count in the header catches a truncation).
#[derive(Debug, Clone, Copy)]
pub struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

impl Checksum {
    /// A fresh checksum.
    pub fn new() -> Checksum {
        Checksum(0x243F_6A88_85A3_08D3)
    }

    /// Adds one word.
    #[inline]
    pub fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    /// The checksum of the words added.
    pub fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}
