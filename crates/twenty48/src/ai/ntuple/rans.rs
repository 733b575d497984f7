//! The entropy coder of the sparse file's streams (format 2): a static range-asymmetric numeral system (rANS, as in
//! Duda's paper and Giesen's `rans_byte`), one frequency table per stream.
//!
//! A non-negative integer `z` is coded as a symbol of [`SYMBOLS`] and, for large ones, extra bits written raw: below
//! [`DIRECT`] the symbol is `z` itself; above, it is the number of bits of `z` and the three bits below its leading one,
//! and the remaining low bits of `z` are extra bits. The weights' distribution is smooth at that scale, so the raw bits
//! cost almost nothing over a symbol per value, and the alphabet stays small enough for a decoding table of
//! a small decoding table.
//!
//! The state is 32 bits, renormalised by 16-bit words between `2^16` and `2^32` (at most one word a symbol, read
//! without a branch); the encoder starts from and the decoder must end at `2^16`, and must use every word, which checks
//! the stream's length and order. One lookup in a table of [`SCALE`] 64-bit entries gives a symbol's frequency, its
//! start and its integer's high part and extra bits.

/// Integers below this are a symbol of their own.
pub(crate) const DIRECT: u32 = 64;
/// Symbols of the alphabet: [`DIRECT`], then 8 for each bit length from 7 to 32.
pub(crate) const SYMBOLS: usize = DIRECT as usize + 8 * 26;
/// Bits of the frequency scale.
pub(crate) const SCALE_BITS: u32 = 12;
/// The sum of a stream's frequencies.
pub(crate) const SCALE: u32 = 1 << SCALE_BITS;
/// The lower end of the state's interval.
const LOW: u32 = 1 << 16;

/// The symbol of `z`, its extra bits and how many there are.
#[inline(always)]
pub(crate) fn symbol_of(z: u32) -> (usize, u32, u32) {
    if z < DIRECT {
        return (z as usize, 0, 0);
    }
    let n = 32 - z.leading_zeros();
    let top = (z >> (n - 4)) & 7;
    let extra_bits = n - 4;
    (
        DIRECT as usize + 8 * (n as usize - 7) + top as usize,
        z & ((1 << extra_bits) - 1),
        extra_bits,
    )
}

/// How many extra bits follow symbol `s`, and the integer's high part (to which they are added).
#[inline(always)]
fn symbol_base(s: usize) -> (u32, u32) {
    if s < DIRECT as usize {
        return (0, s as u32);
    }
    let k = s - DIRECT as usize;
    let n = (k / 8) as u32 + 7;
    let top = (k % 8) as u32;
    (n - 4, (8 | top) << (n - 4))
}

/// Scales symbol counts to frequencies that sum to [`SCALE`], every symbol that occurs keeping at least 1.
pub(crate) fn frequencies(counts: &[u64; SYMBOLS]) -> [u16; SYMBOLS] {
    let total: u64 = counts.iter().sum();
    let mut f = [0u16; SYMBOLS];
    if total == 0 {
        f[0] = SCALE as u16;
        return f;
    }
    for (fi, &c) in f.iter_mut().zip(counts) {
        if c > 0 {
            *fi = ((c * u64::from(SCALE) + total / 2) / total).clamp(1, u64::from(SCALE)) as u16;
        }
    }
    // Bring the sum to SCALE by taking from (or giving to) the most frequent symbols, where it costs least.
    loop {
        let sum: u32 = f.iter().map(|&x| u32::from(x)).sum();
        if sum == SCALE {
            return f;
        }
        let (largest, _) = f
            .iter()
            .enumerate()
            .max_by_key(|&(_, &x)| x)
            .unwrap_or((0, &0));
        if sum > SCALE {
            let over = (sum - SCALE).min(u32::from(f[largest]) - 1).max(1);
            f[largest] -= over as u16;
        } else {
            f[largest] += (SCALE - sum) as u16;
        }
    }
}

/// Writes raw bits, the first written in the lowest bits of the first byte.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    fn put(&mut self, v: u32, bits: u32) {
        self.acc |= u64::from(v) << self.n;
        self.n += bits;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// One coded stream: its frequency table, its rANS bytes and its extra bits.
pub(crate) struct Coded {
    /// Each symbol's frequency (summing to [`SCALE`]); the writers of the shipped format keep their own tables, and
    /// only the tests' writer of the older format reads it.
    #[cfg(test)]
    pub freqs: [u16; SYMBOLS],
    /// The rANS bytes, to be read from the first.
    pub bytes: Vec<u8>,
    /// The extra bits.
    pub extra: Vec<u8>,
}

/// The frequencies of a sequence's symbols ([`frequencies`] of their counts).
pub(crate) fn frequencies_of(values: &[u32]) -> [u16; SYMBOLS] {
    let mut counts = [0u64; SYMBOLS];
    for &z in values {
        counts[symbol_of(z).0] += 1;
    }
    frequencies(&counts)
}

#[cfg(test)]
/// Codes a sequence of integers.
pub(crate) fn encode(values: &[u32]) -> Coded {
    encode_with(values, &frequencies_of(values))
}

/// Codes a sequence of integers with these frequencies (those of a longer sequence it is part of: each of its
/// symbols must have a frequency).
pub(crate) fn encode_with(values: &[u32], freqs: &[u16; SYMBOLS]) -> Coded {
    let mut extra = BitWriter::default();
    let mut symbols = Vec::with_capacity(values.len());
    for &z in values {
        let (s, e, n) = symbol_of(z);
        extra.put(e, n);
        symbols.push(s as u16);
    }
    let freqs = *freqs;
    let mut cum = [0u32; SYMBOLS];
    let mut c = 0;
    for (cs, &f) in cum.iter_mut().zip(&freqs) {
        *cs = c;
        c += u32::from(f);
    }
    // Encoded backwards, the words pushed in reverse and turned round at the end.
    let mut words: Vec<u16> = Vec::with_capacity(values.len());
    let mut x = LOW;
    for &s in symbols.iter().rev() {
        let f = u32::from(freqs[s as usize]);
        let x_max = (u64::from(LOW >> SCALE_BITS) << 16) * u64::from(f);
        if u64::from(x) >= x_max {
            words.push(x as u16);
            x >>= 16;
        }
        x = ((x / f) << SCALE_BITS) + (x % f) + cum[s as usize];
    }
    words.push(x as u16);
    words.push((x >> 16) as u16);
    words.reverse();
    Coded {
        #[cfg(test)]
        freqs,
        bytes: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        extra: extra.finish(),
    }
}

/// A decoder of one stream.
pub(crate) struct Decoder<'a> {
    /// Per slot of the state's low bits: the symbol's frequency (bits 0-12), the slot less the symbol's start (bits
    /// 13-24), its extra bits (25-29) and its integer's high part (32-63).
    table: Box<[u64]>,
    words: &'a [u8],
    /// The next word (an index of words, past the end when the stream was overrun).
    at: usize,
    x: u32,
    extra: &'a [u8],
    /// The next byte of extra bits to load.
    bit_at: usize,
    acc: u64,
    acc_bits: u32,
}

impl<'a> Decoder<'a> {
    /// A decoder of the stream with these frequencies, rANS bytes (16-bit words) and extra bits; `None` if the
    /// frequencies do not sum to [`SCALE`] or the bytes do not hold a state in whole words.
    pub(crate) fn new(
        freqs: &[u16; SYMBOLS],
        bytes: &'a [u8],
        extra: &'a [u8],
    ) -> Option<Decoder<'a>> {
        let sum: u32 = freqs.iter().map(|&f| u32::from(f)).sum();
        if sum != SCALE || bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
            return None;
        }
        let mut table = Vec::with_capacity(SCALE as usize);
        for (s, &f) in freqs.iter().enumerate() {
            let (n, high) = symbol_base(s);
            for k in 0..u64::from(f) {
                table.push(u64::from(f) | k << 13 | u64::from(n) << 25 | u64::from(high) << 32);
            }
        }
        let x = u32::from(u16::from_le_bytes([bytes[0], bytes[1]])) << 16
            | u32::from(u16::from_le_bytes([bytes[2], bytes[3]]));
        Some(Decoder {
            table: table.into_boxed_slice(),
            words: bytes,
            at: 2,
            x,
            extra,
            bit_at: 0,
            acc: 0,
            acc_bits: 0,
        })
    }

    /// The word at `at`, or 0 past the end.
    #[inline(always)]
    fn word(&self, at: usize) -> u32 {
        match self.words.get(2 * at..2 * at + 2) {
            Some(&[a, b]) => u32::from(u16::from_le_bytes([a, b])),
            _ => 0,
        }
    }

    /// The next integer. Reading past the end of a stream yields zeros, noticed by [`Decoder::finished`].
    #[inline(always)]
    pub(crate) fn read(&mut self) -> u32 {
        let e = self.table[(self.x & (SCALE - 1)) as usize];
        let f = (e & 0x1FFF) as u32;
        let bias = ((e >> 13) & 0xFFF) as u32;
        let n = ((e >> 25) & 31) as u32;
        let high = (e >> 32) as u32;
        let x = f * (self.x >> SCALE_BITS) + bias;
        // At most one word a symbol, chosen without a branch.
        let need = x < LOW;
        let w = self.word(self.at);
        self.x = if need { (x << 16) | w } else { x };
        self.at += usize::from(need);
        if self.acc_bits < 32 {
            let mut b = [0u8; 4];
            if let Some(src) = self.extra.get(self.bit_at..self.bit_at + 4) {
                b.copy_from_slice(src);
            } else if let Some(src) = self.extra.get(self.bit_at..) {
                b[..src.len()].copy_from_slice(src);
            }
            self.acc |= u64::from(u32::from_le_bytes(b)) << self.acc_bits;
            self.acc_bits += 32;
            self.bit_at += 4;
        }
        let v = (self.acc & ((1u64 << n) - 1)) as u32;
        self.acc >>= n;
        self.acc_bits -= n;
        high | v
    }

    /// Whether the stream was read exactly to its end: the state back where the encoder began, every word used, and
    /// the extra bits used up to their last byte.
    pub(crate) fn finished(&self) -> bool {
        let used_bits = (self.bit_at * 8) as u64 - u64::from(self.acc_bits);
        let extra_bits = self.extra.len() as u64 * 8;
        self.x == LOW
            && 2 * self.at == self.words.len()
            && used_bits <= extra_bits
            && used_bits + 8 > extra_bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn symbols_cover_every_integer_once() {
        for z in (0..5000u32).chain([u32::MAX, u32::MAX - 1, 1 << 31, (1 << 24) + 5]) {
            let (s, e, n) = symbol_of(z);
            assert!(s < SYMBOLS);
            let (bits, high) = symbol_base(s);
            assert_eq!(bits, n);
            assert_eq!(high | e, z, "{z}");
        }
    }

    #[test]
    fn a_coded_sequence_decodes_to_itself_and_ends_exactly() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        // Mostly small integers, some large, a few huge: every kind of symbol.
        let values: Vec<u32> = (0..50_000)
            .map(|_| match rng.next_u32() % 10 {
                0 => rng.next_u32(),
                1..=3 => rng.next_u32() % 5000,
                _ => rng.next_u32() % 40,
            })
            .collect();
        let c = encode(&values);
        let mut d = Decoder::new(&c.freqs, &c.bytes, &c.extra).unwrap();
        for &v in &values {
            assert_eq!(d.read(), v);
        }
        assert!(d.finished());
        // A skewed source costs near its entropy (here about 1.2 bits for the symbol).
        let skewed: Vec<u32> = (0..100_000)
            .map(|_| u32::from(rng.next_u32() % 8 == 0))
            .collect();
        let c = encode(&skewed);
        assert!(c.bytes.len() < 100_000 * 56 / 100 / 8, "{}", c.bytes.len());
    }

    #[test]
    fn a_truncated_stream_is_noticed() {
        let values: Vec<u32> = (0..1000).map(|i| i * 7 % 300).collect();
        let c = encode(&values);
        let short = &c.bytes[..c.bytes.len() - 4];
        let mut d = Decoder::new(&c.freqs, short, &c.extra).unwrap();
        for _ in 0..values.len() {
            d.read();
        }
        assert!(!d.finished());
        let mut d = Decoder::new(&c.freqs, &c.bytes, &c.extra).unwrap();
        for _ in 1..values.len() {
            d.read();
        }
        assert!(!d.finished(), "one integer left");
        let mut bad = c.freqs;
        bad[0] = bad[0].wrapping_add(1);
        assert!(Decoder::new(&bad, &c.bytes, &c.extra).is_none());
    }
}
