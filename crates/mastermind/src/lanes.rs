//! Class sizes of a split counted in packed lanes: one add per candidate into a `u128` (a byte per
//! feedback class, for up to 255 candidates) or a `u64` (a nibble per class, up to 15), with no array
//! in memory and no store per candidate; the summary the optimal search needs (number of classes,
//! whether the guess is a candidate, whether some class reaches 3 or more than `K` members) is then read
//! with a few word operations.
//!
//! Only the feedbacks that can occur get a lane, so 4 pegs (14 feedbacks) fit; with more pegs there
//! are too many feedbacks and [`Lanes::new`] gives `None` (the search counts into an array instead).

/// Lane increments per raw feedback class (see `Feedback::class`), and the win lane.
#[derive(Clone)]
pub(crate) struct Lanes {
    /// Per raw class, 1 in its byte lane.
    pub byte: Vec<u128>,
    /// Per raw class, 1 in its nibble lane.
    pub nibble: Vec<u64>,
    /// All ones in the win class's byte lane.
    win_byte: u128,
    /// All ones in the win class's nibble lane.
    win_nibble: u64,
    /// Per byte lane, 0x80 plus the value that brings a count above `big` to 0x80 or more.
    big_add: u128,
    /// The raw class of each lane (`u8::MAX` for unused lanes).
    raw: [u8; 16],
    /// Lanes in use.
    nlanes: usize,
    /// The win class's lane.
    win_lane: usize,
    /// Whether the processor has AVX2 (the chunk count then uses 32-byte vectors; never read off x86-64).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

/// Guesses counted together by [`Lanes::count_chunk`] (consecutive indices).
pub(crate) const CHUNK: usize = 32;

/// Class sizes of [`CHUNK`] consecutive guesses: `counts[lane][j]` for guess `g0 + j`, with per guess
/// the number of non-empty non-winning classes, the largest of them and the winning class's size.
pub(crate) struct Chunk {
    /// Per lane, per guess of the chunk, the class size, for up to 255 candidates.
    pub narrow: [[u8; CHUNK]; 16],
    /// The same for more candidates.
    pub counts: [[u16; CHUNK]; 16],
    /// Whether `counts` holds the sizes (else `narrow`).
    pub wide: bool,
    /// Per guess, the non-empty non-winning classes.
    pub classes: [u8; CHUNK],
    /// Per guess, the largest non-winning class.
    pub max: [u16; CHUNK],
    /// Per guess, the size of the winning class (0 or 1).
    pub win: [u16; CHUNK],
}

impl Chunk {
    /// An empty chunk.
    pub fn new() -> Chunk {
        Chunk {
            narrow: [[0; CHUNK]; 16],
            counts: [[0; CHUNK]; 16],
            wide: false,
            classes: [0; CHUNK],
            max: [0; CHUNK],
            win: [0; CHUNK],
        }
    }
}

/// The summary of one split (the winning class left out of the counts of classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Non-winning classes that are not empty.
    pub classes: u32,
    /// Whether the guess is itself a candidate (its all-black class is not empty).
    pub is_cand: bool,
    /// Whether some non-winning class has 3 or more members.
    pub has_triple: bool,
    /// Whether some non-winning class has more than `big` members (see [`Lanes::new`]).
    pub has_big: bool,
}

const B_LOW7: u128 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f;
const B_HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
const B_ONE: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
const N_LOW3: u64 = 0x7777_7777_7777_7777;
const N_HIGH: u64 = 0x8888_8888_8888_8888;

/// High bit set in every byte lane of `x` that is at least `128 - add` (`add` below 128 in each lane).
#[inline(always)]
fn bytes_at_least(x: u128, add: u128) -> u128 {
    (((x & B_LOW7) + add) | x) & B_HIGH
}

/// High bit set in every nibble lane of `x` that is at least `8 - add`.
#[inline(always)]
fn nibbles_at_least(x: u64, add: u64) -> u64 {
    (((x & N_LOW3) + add) | x) & N_HIGH
}

impl Lanes {
    /// Lanes for `nclass` raw classes of `pegs` pegs, the winning one `win`; `big` is the class size
    /// above which the caller wants to know (below 128). `None` if the possible feedbacks are more than
    /// 16.
    pub fn new(pegs: u8, nclass: usize, win: u8, big: u32) -> Option<Lanes> {
        let mut byte = vec![0u128; nclass];
        let mut nibble = vec![0u64; nclass];
        let mut lane = 0u32;
        let mut win_lane = None;
        let mut raw = [u8::MAX; 16];
        for (c, (b, n)) in byte.iter_mut().zip(nibble.iter_mut()).enumerate() {
            let f = crate::feedback::Feedback::from_class(c, pegs);
            if crate::feedback::Feedback::new(f.black, f.white, pegs).is_err() {
                continue;
            }
            if lane >= 16 {
                return None;
            }
            if c == usize::from(win) {
                win_lane = Some(lane);
            }
            raw[lane as usize] = c as u8;
            *b = 1u128 << (8 * lane);
            *n = 1u64 << (4 * lane);
            lane += 1;
        }
        let win_lane = win_lane?;
        if big >= 127 {
            return None;
        }
        Some(Lanes {
            byte,
            nibble,
            win_byte: 0xffu128 << (8 * win_lane),
            win_nibble: 0xfu64 << (4 * win_lane),
            big_add: B_ONE * u128::from(127 - big),
            raw,
            nlanes: lane as usize,
            win_lane: win_lane as usize,
            avx2: has_avx2(),
        })
    }

    /// Counts the classes of the guesses `g0 .. g0 + CHUNK` on the candidates whose rows are `rows`
    /// (every row at least `g0 + CHUNK` long), and sums them up per guess.
    #[allow(unsafe_code)] // One of the two justified places: the AVX2 kernel, called only where AVX2 exists.
    pub fn count_chunk(&self, rows: &[&[u8]], g0: usize, out: &mut Chunk) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected on this processor when the lanes were made.
            unsafe { count_chunk_avx2(self.nlanes, &self.raw, rows, g0, out) };
        } else {
            count_chunk_any(self.nlanes, &self.raw, rows, g0, out);
        }
        #[cfg(not(target_arch = "x86_64"))]
        count_chunk_any(self.nlanes, &self.raw, rows, g0, out);
        if out.wide {
            let (classes, max) = self.sum_lanes(&out.counts);
            out.classes = classes;
            out.max = max;
            out.win = out.counts[self.win_lane];
        } else {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            self.sum_narrow_wasm(out);
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            {
                let (classes, max) = self.sum_lanes(&out.narrow);
                out.classes = classes;
                out.max = max.map(u16::from);
                out.win = out.narrow[self.win_lane].map(u16::from);
            }
        }
    }

    /// The narrow sums of [`Lanes::count_chunk`] (as [`Lanes::sum_lanes`], the reference) in WebAssembly's
    /// 128-bit vectors, 16 guesses at a time, which LLVM leaves a byte at a time for wasm32.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn sum_narrow_wasm(&self, out: &mut Chunk) {
        use core::arch::wasm32::{
            i8x16_ne, u8x16_max, u8x16_splat, u8x16_sub, u16x8_extend_high_u8x16,
            u16x8_extend_low_u8x16,
        };
        let zero = u8x16_splat(0);
        for half in 0..CHUNK / 16 {
            let at = 16 * half;
            let (mut classes, mut max) = (zero, zero);
            for (lane, row) in out.narrow[..self.nlanes].iter().enumerate() {
                if lane == self.win_lane {
                    continue;
                }
                let x = wasm_load(&row[at..at + 16]);
                classes = u8x16_sub(classes, i8x16_ne(x, zero));
                max = u8x16_max(max, x);
            }
            let win = wasm_load(&out.narrow[self.win_lane][at..at + 16]);
            wasm_store(&mut out.classes[at..at + 16], classes);
            for (wide, x) in [(&mut out.max, max), (&mut out.win, win)] {
                wasm_store16(&mut wide[at..at + 8], u16x8_extend_low_u8x16(x));
                wasm_store16(&mut wide[at + 8..at + 16], u16x8_extend_high_u8x16(x));
            }
        }
    }

    /// Per guess of a counted chunk, its non-empty non-winning classes and the largest of them.
    #[inline(always)]
    fn sum_lanes<T: Copy + Default + Ord + From<u8>>(
        &self,
        counts: &[[T; CHUNK]; 16],
    ) -> ([u8; CHUNK], [T; CHUNK]) {
        let mut classes = [0u8; CHUNK];
        let mut max = [T::default(); CHUNK];
        let zero = T::default();
        for (lane, row) in counts[..self.nlanes].iter().enumerate() {
            if lane == self.win_lane {
                continue;
            }
            for j in 0..CHUNK {
                classes[j] += u8::from(row[j] != zero);
                max[j] = max[j].max(row[j]);
            }
        }
        (classes, max)
    }

    /// The non-winning class sizes of guess `j` of a chunk (zeros included).
    #[inline]
    pub fn chunk_sizes<'c>(&self, chunk: &'c Chunk, j: usize) -> impl Iterator<Item = u32> + 'c {
        let win = self.win_lane;
        (0..self.nlanes)
            .filter(move |&lane| lane != win)
            .map(move |lane| {
                if chunk.wide {
                    u32::from(chunk.counts[lane][j])
                } else {
                    u32::from(chunk.narrow[lane][j])
                }
            })
    }

    /// The summary of byte-lane counts.
    #[inline(always)]
    pub fn bytes(&self, x: u128) -> Summary {
        let is_cand = x & self.win_byte != 0;
        let x = x & !self.win_byte;
        Summary {
            classes: bytes_at_least(x, B_LOW7).count_ones(),
            is_cand,
            has_triple: bytes_at_least(x, B_ONE * 0x7d) != 0,
            has_big: bytes_at_least(x, self.big_add) != 0,
        }
    }

    /// The summary of nibble-lane counts (at most 15 candidates, so no class is "big" for `big >= 15`).
    #[inline(always)]
    pub fn nibbles(&self, x: u64) -> Summary {
        let is_cand = x & self.win_nibble != 0;
        let x = x & !self.win_nibble;
        Summary {
            classes: nibbles_at_least(x, N_LOW3).count_ones(),
            is_cand,
            has_triple: nibbles_at_least(x, 0x5555_5555_5555_5555) != 0,
            has_big: false,
        }
    }

    /// The non-winning class sizes of byte-lane counts (zeros included), for the general bound.
    #[inline]
    pub fn sizes(&self, x: u128) -> impl Iterator<Item = u32> {
        let x = x & !self.win_byte;
        (0..16).map(move |i| ((x >> (8 * i)) & 0xff) as u32)
    }
}

/// Whether the processor has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`count_chunk_lanes`] for the lanes in use, compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_chunk_avx2(nlanes: usize, raw: &[u8; 16], rows: &[&[u8]], g0: usize, out: &mut Chunk) {
    if nlanes == 14 {
        count_chunk_lanes::<14>(raw, rows, g0, out);
    } else {
        count_chunk_lanes::<16>(raw, rows, g0, out);
    }
}

/// [`count_chunk_lanes`] for the lanes in use, for the baseline processor.
fn count_chunk_any(nlanes: usize, raw: &[u8; 16], rows: &[&[u8]], g0: usize, out: &mut Chunk) {
    if nlanes == 14 {
        count_chunk_lanes::<14>(raw, rows, g0, out);
    } else {
        count_chunk_lanes::<16>(raw, rows, g0, out);
    }
}

/// The counting loop of [`Lanes::count_chunk`] for `L` lanes: per candidate, one comparison and one
/// subtraction per lane over the chunk's bytes (vectorised by the compiler).
#[inline(always)]
fn count_chunk_lanes<const L: usize>(raw: &[u8; 16], rows: &[&[u8]], g0: usize, out: &mut Chunk) {
    if rows.len() <= 255 {
        out.wide = false;
        out.narrow[..L].copy_from_slice(&count_rows::<L>(raw, rows, g0));
        return;
    }
    // Bytes count up to 255: blocks of 255 rows, each added into the 16-bit counts.
    out.wide = true;
    for lane in out.counts.iter_mut() {
        *lane = [0; CHUNK];
    }
    for block in rows.chunks(255) {
        let cnt = count_rows::<L>(raw, block, g0);
        for (wide, narrow) in out.counts.iter_mut().zip(&cnt) {
            for j in 0..CHUNK {
                wide[j] += u16::from(narrow[j]);
            }
        }
    }
}

/// Byte counts of one block of at most 255 rows: [`count_block_wasm`] in the page (WebAssembly with its 128-bit
/// vectors), else [`count_block`], which the compiler vectorises.
#[inline(always)]
fn count_rows<const L: usize>(raw: &[u8; 16], rows: &[&[u8]], g0: usize) -> [[u8; CHUNK]; L] {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return count_block_wasm::<L>(raw, rows, g0);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    count_block::<L>(raw, rows, g0)
}

/// Lanes counted at once by [`count_block_wasm`]: a group's counts, its colours and the row's bytes are 15
/// vectors, within the 16 vector registers of the x86-64 or ARM processor under the browser.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const WASM_GROUP: usize = 7;

/// [`count_block`] written out in WebAssembly's 128-bit vectors (`core::arch::wasm32`), which LLVM does not
/// vectorise that loop into (it stays a byte at a time there): per 16-byte half of the chunk and per group of
/// [`WASM_GROUP`] lanes, one load per row and per lane one comparison and one subtraction (a match is -1).
/// [`count_block`] is the reference; the page's browser test checks the whole solve's total against it.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn count_block_wasm<const L: usize>(raw: &[u8; 16], rows: &[&[u8]], g0: usize) -> [[u8; CHUNK]; L] {
    use core::arch::wasm32::{i8x16_eq, u8x16_splat, u8x16_sub};
    let mut cnt = [[0u8; CHUNK]; L];
    for half in 0..CHUNK / 16 {
        let mut group = 0;
        while group < L {
            let take = WASM_GROUP.min(L - group);
            let mut colours = [u8x16_splat(u8::MAX); WASM_GROUP];
            for (c, &k) in colours.iter_mut().zip(&raw[group..group + take]) {
                *c = u8x16_splat(k);
            }
            let mut acc = [u8x16_splat(0); WASM_GROUP];
            for r in rows {
                // As `count_block`: a row without the whole chunk is left out.
                let Some(bytes) = r.get(g0..).and_then(|t| t.first_chunk::<CHUNK>()) else {
                    continue;
                };
                let v = wasm_load(&bytes[16 * half..16 * half + 16]);
                for (a, &c) in acc.iter_mut().zip(&colours) {
                    *a = u8x16_sub(*a, i8x16_eq(v, c));
                }
            }
            for (lane, a) in cnt[group..group + take].iter_mut().zip(acc) {
                wasm_store(&mut lane[16 * half..16 * half + 16], a);
            }
            group += take;
        }
    }
    cnt
}

/// 16 bytes as a WebAssembly vector (`bytes` is 16 long: the callers slice it so).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
#[allow(unsafe_code)] // The page's vector kernel: a load of a checked slice.
fn wasm_load(bytes: &[u8]) -> core::arch::wasm32::v128 {
    assert!(bytes.len() >= 16);
    // SAFETY: `bytes` has 16 readable bytes (asserted); WebAssembly's loads need no alignment.
    unsafe { core::arch::wasm32::v128_load(bytes.as_ptr().cast()) }
}

/// Stores a vector into 16 bytes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
#[allow(unsafe_code)] // The page's vector kernel: a store into a checked slice.
fn wasm_store(bytes: &mut [u8], v: core::arch::wasm32::v128) {
    assert!(bytes.len() >= 16);
    // SAFETY: `bytes` has 16 writable bytes (asserted); WebAssembly's stores need no alignment.
    unsafe { core::arch::wasm32::v128_store(bytes.as_mut_ptr().cast(), v) }
}

/// Stores a vector into 8 `u16`s.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
#[allow(unsafe_code)] // The page's vector kernel: a store into a checked slice.
fn wasm_store16(words: &mut [u16], v: core::arch::wasm32::v128) {
    assert!(words.len() >= 8);
    // SAFETY: `words` has 16 writable bytes (asserted); WebAssembly's stores need no alignment.
    unsafe { core::arch::wasm32::v128_store(words.as_mut_ptr().cast(), v) }
}

/// Byte counts of one block of at most 255 rows.
#[inline(always)]
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn count_block<const L: usize>(raw: &[u8; 16], rows: &[&[u8]], g0: usize) -> [[u8; CHUNK]; L] {
    let mut cnt = [[0u8; CHUNK]; L];
    for r in rows {
        let Some(&v) = r.get(g0..).and_then(|t| t.first_chunk::<CHUNK>()) else {
            continue;
        };
        for (lane, &k) in cnt.iter_mut().zip(raw) {
            for j in 0..CHUNK {
                lane[j] = lane[j].wrapping_add(u8::from(v[j] == k));
            }
        }
    }
    cnt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::space::Space;
    use proptest::prelude::*;

    fn naive(space: &Space, g: u32, cands: &[u32], big: u32) -> (Summary, Vec<u32>) {
        let mut counts = vec![0u32; space.nclass];
        for &s in cands {
            counts[usize::from(space.class(g, s))] += 1;
        }
        let win = usize::from(space.win_class);
        let non: Vec<u32> = counts
            .iter()
            .enumerate()
            .filter(|&(c, &k)| c != win && k > 0)
            .map(|(_, &k)| k)
            .collect();
        let s = Summary {
            classes: non.len() as u32,
            is_cand: counts[win] > 0,
            has_triple: non.iter().any(|&k| k >= 3),
            has_big: non.iter().any(|&k| k > big),
        };
        let mut sizes = non;
        sizes.sort_unstable();
        (s, sizes)
    }

    proptest! {
        #[test]
        fn summaries_match_naive_counts(
            which in 0usize..3,
            g in 0u32..1296,
            picks in proptest::collection::vec(0u32..1296, 1..255),
        ) {
            let v = [
                Variant::CLASSIC,
                Variant::default(),
                Variant::custom(6, 4, 10, false, false).unwrap(),
            ][which];
            let space = Space::new(v).unwrap();
            let n = space.codes.len() as u32;
            let g = g % n;
            let mut cands: Vec<u32> = picks.iter().map(|&p| space.secrets[(p % space.secrets.len() as u32) as usize]).collect();
            cands.sort_unstable();
            cands.dedup();
            let lanes = Lanes::new(4, space.nclass, space.win_class, 14).unwrap();
            let (want, sizes) = naive(&space, g, &cands, 14);
            let x: u128 = cands.iter().map(|&s| lanes.byte[usize::from(space.class(g, s))]).sum();
            prop_assert_eq!(lanes.bytes(x), want);
            let mut got: Vec<u32> = lanes.sizes(x).filter(|&k| k > 0).collect();
            got.sort_unstable();
            prop_assert_eq!(got, sizes);
            if cands.len() <= 15 {
                let y: u64 = cands.iter().map(|&s| lanes.nibble[usize::from(space.class(g, s))]).sum();
                prop_assert_eq!(lanes.nibbles(y), Summary { has_big: false, ..want });
            }
        }
    }

    #[test]
    fn chunks_match_naive_counts() {
        let space = Space::new(Variant::CLASSIC).unwrap();
        let lanes = Lanes::new(4, space.nclass, space.win_class, 14).unwrap();
        let mut chunk = Chunk::new();
        for (len, step) in [(1usize, 7usize), (9, 13), (40, 31), (255, 5), (700, 1)] {
            let cands: Vec<u32> = (0..len)
                .map(|i| ((i * step * 37 + 11) % 1296) as u32)
                .collect();
            let mut cands = cands;
            cands.sort_unstable();
            cands.dedup();
            let rows: Vec<&[u8]> = cands.iter().map(|&c| space.row(c)).collect();
            for g0 in [0usize, 100, 1296 - CHUNK] {
                lanes.count_chunk(&rows, g0, &mut chunk);
                for j in 0..CHUNK {
                    let g = (g0 + j) as u32;
                    let (want, sizes) = naive(&space, g, &cands, 14);
                    assert_eq!(u32::from(chunk.classes[j]), want.classes);
                    assert_eq!(chunk.win[j] > 0, want.is_cand);
                    assert_eq!(u32::from(chunk.max[j]), sizes.last().copied().unwrap_or(0));
                    let mut got: Vec<u32> =
                        lanes.chunk_sizes(&chunk, j).filter(|&k| k > 0).collect();
                    got.sort_unstable();
                    assert_eq!(got, sizes);
                }
            }
        }
    }

    #[test]
    #[allow(unsafe_code)] // the AVX2 kernel against the baseline
    fn baseline_and_avx2_counts_agree() {
        let space = Space::new(Variant::default()).unwrap();
        let lanes = Lanes::new(4, space.nclass, space.win_class, 14).unwrap();
        let rows: Vec<&[u8]> = space
            .secrets
            .iter()
            .step_by(3)
            .map(|&c| space.row(c))
            .collect();
        for g0 in [0usize, 64, 1296 - CHUNK] {
            let mut any = Chunk::new();
            count_chunk_any(lanes.nlanes, &lanes.raw, &rows, g0, &mut any);
            // The baseline path against a naive count.
            for lane in 0..lanes.nlanes {
                for j in 0..CHUNK {
                    let want = rows.iter().filter(|r| r[g0 + j] == lanes.raw[lane]).count();
                    assert_eq!(usize::from(any.narrow[lane][j]), want);
                }
            }
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                let mut avx = Chunk::new();
                // SAFETY: AVX2 was just detected.
                unsafe { count_chunk_avx2(lanes.nlanes, &lanes.raw, &rows, g0, &mut avx) };
                assert_eq!(any.narrow, avx.narrow);
            }
        }
    }

    #[test]
    fn more_than_sixteen_feedbacks_have_no_lanes() {
        let space = Space::new(Variant::custom(4, 5, 10, true, true).unwrap()).unwrap();
        assert!(Lanes::new(5, space.nclass, space.win_class, 14).is_none());
        let space = Space::new(Variant::CLASSIC).unwrap();
        assert!(Lanes::new(4, space.nclass, space.win_class, 14).is_some());
    }
}
