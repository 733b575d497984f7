//! Codes grouped by colour-count kind, and candidate sets laid out for counting feedback classes
//! without a full table. Two codes share as many colours as their kinds do, so the colours in common of
//! a pair are one byte of a small kind-by-kind table: Super Mastermind has 32,768 codes but 792 kinds.
//! The black pegs are counted position by position on 32 candidates at once ([`Columns`]).

use std::collections::HashMap;

use crate::feedback::PackedCode;
use crate::space::Space;

/// Kinds per row of the common-colour table: a power of two above the most kinds of any space the
/// solvers enumerate (1287, for 5 pegs and 9 colours with repeats), so a kind indexes a row without a
/// bounds check.
pub(crate) const ROW: usize = 2048;

/// Candidates per block (the layout of [`Columns`]).
pub(crate) const BLOCK: usize = 32;

/// Per code its kind; per pair of kinds the colours in common.
pub(crate) struct Kinds {
    /// Per code, its kind (the codes with the same colour counts share one).
    pub kind: Vec<u16>,
    /// `common[a][b]`: colours in common between a code of kind `a` and one of kind `b`.
    pub common: Vec<[u8; ROW]>,
}

impl Kinds {
    /// Groups `packed` by kind.
    pub fn new(packed: &[PackedCode]) -> Kinds {
        let mut ids: HashMap<(u64, u64), u16> = HashMap::new();
        let mut reps: Vec<PackedCode> = Vec::new();
        let kind = packed
            .iter()
            .map(|p| {
                *ids.entry(p.colour_counts()).or_insert_with(|| {
                    reps.push(*p);
                    (reps.len() - 1) as u16
                })
            })
            .collect();
        debug_assert!(reps.len() <= ROW);
        let common = reps
            .iter()
            .map(|ra| {
                let mut row = [0u8; ROW];
                for (cell, rb) in row.iter_mut().zip(&reps) {
                    *cell = ra.common(rb);
                }
                row
            })
            .collect();
        Kinds { kind, common }
    }
}

/// A candidate set laid out for counting the classes of many guesses: per block of 32 candidates and
/// position, the candidates' colours (padding: a colour no guess has), and per kind of guess the
/// candidates' colours in common with it, computed the first time a guess of that kind is scored. A
/// guess's classes are then, per block, one copy and per position one comparison and one addition on
/// 32 bytes at once.
#[derive(Default)]
pub(crate) struct Columns {
    /// Number of candidates.
    pub n: usize,
    /// Number of blocks.
    nblocks: usize,
    /// Pegs per code.
    pegs: usize,
    /// `pos[b * pegs + i]`: the colours at position `i` of the candidates of block `b`.
    pos: Vec<[u8; BLOCK]>,
    /// Per candidate, its kind.
    kinds: Vec<u16>,
    /// Per kind, the first block of its column in `cols` (`u32::MAX` until computed).
    col_of: Vec<u32>,
    /// Columns of `nblocks` blocks.
    cols: Vec<[u8; BLOCK]>,
}

impl Columns {
    /// Lays out `cands` (at least one) of `space`.
    pub fn start(&mut self, space: &Space, cands: &[u32]) {
        let k = space.kinds();
        self.n = cands.len();
        self.nblocks = cands.len().div_ceil(BLOCK);
        self.pegs = usize::from(space.variant.pegs());
        self.pos.clear();
        self.pos.resize(self.pegs * self.nblocks, [u8::MAX; BLOCK]);
        for (j, &s) in cands.iter().enumerate() {
            let (b, at) = (j / BLOCK, j % BLOCK);
            for (i, &c) in space.codes[s as usize].pegs().iter().enumerate() {
                self.pos[b * self.pegs + i][at] = c;
            }
        }
        self.kinds.clear();
        self.kinds.extend(cands.iter().map(|&s| k.kind[s as usize]));
        self.kinds.resize(self.nblocks * BLOCK, 0);
        self.col_of.clear();
        self.col_of.resize(k.common.len(), u32::MAX);
        self.cols.clear();
    }

    /// The colours in common of the candidates with a guess of kind `kind` (one array per block; the
    /// padding's values are meaningless), computed on first use.
    #[inline]
    pub fn common(&mut self, k: &Kinds, kind: usize) -> &[[u8; BLOCK]] {
        if self.col_of[kind] == u32::MAX {
            self.col_of[kind] = self.cols.len() as u32;
            let row = &k.common[kind];
            for chunk in self.kinds.chunks_exact(BLOCK) {
                let mut block = [0u8; BLOCK];
                for (cell, &kd) in block.iter_mut().zip(chunk) {
                    *cell = row[usize::from(kd) & (ROW - 1)];
                }
                self.cols.push(block);
            }
        }
        let at = self.col_of[kind] as usize;
        &self.cols[at..at + self.nblocks]
    }

    /// The classes of guess `g` against the candidates into `out` (one array per block; the padding's
    /// classes are meaningless). Inlined into its caller, which [`with_simd`] compiles for AVX2 when the
    /// processor has it.
    #[inline(always)]
    pub fn classes(&mut self, space: &Space, k: &Kinds, g: u32, out: &mut Vec<[u8; BLOCK]>) {
        let kind = usize::from(k.kind[g as usize]);
        out.resize(self.nblocks, [0; BLOCK]);
        let mut pegs = [0u8; 8];
        for (p, &c) in pegs.iter_mut().zip(space.codes[g as usize].pegs()) {
            *p = c;
        }
        let p = self.pegs;
        self.common(k, kind);
        let at = self.col_of[kind] as usize;
        let common = &self.cols[at..at + self.nblocks];
        classes_of(p, &pegs, &self.pos, common, out);
    }
}

/// Runs `f`, compiled for AVX2 when the processor has it (everything `f` inlines, such as
/// [`Columns::classes`], is vectorised for it), else for the baseline processor.
#[inline]
#[allow(unsafe_code)] // One of the two justified places: the AVX2 build of `f`, called only where AVX2 exists.
pub(crate) fn with_simd<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the processor has AVX2 (checked at run time just above).
        return unsafe { run_avx2(f) };
    }
    f()
}

/// Calls `f` in a function compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Whether the processor has AVX2 (checked once).
#[cfg(target_arch = "x86_64")]
static HAS_AVX2: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::arch::is_x86_feature_detected!("avx2"));

/// The classes of a guess with pegs `pegs` (`p` of them) against the candidates laid out by position
/// in `pos` with their common colours `common`, block by block: `common + black * pegs` is the class
/// `black * (pegs + 1) + white`.
#[inline(always)]
fn classes_of(
    p: usize,
    pegs: &[u8; 8],
    pos: &[[u8; BLOCK]],
    common: &[[u8; BLOCK]],
    out: &mut [[u8; BLOCK]],
) {
    let step = p as u8;
    for ((o, c), cols) in out.iter_mut().zip(common).zip(pos.chunks_exact(p)) {
        let mut x = *c;
        for (col, &colour) in cols.iter().zip(pegs) {
            for (v, &y) in x.iter_mut().zip(col) {
                *v = v.wrapping_add(if y == colour { step } else { 0 });
            }
        }
        *o = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::feedback::feedback_naive;

    /// The classes of [`Columns`] against the plain feedback, for candidate sets of several sizes (one
    /// block, a partial last block) of a few variants, Super and 5 pegs 9 colours (the space with the
    /// most kinds) among them.
    #[test]
    fn columns_match_naive_feedback() {
        for v in [
            Variant::CLASSIC,
            Variant::SEED,
            Variant::BULLS_COWS,
            Variant::SUPER,
            Variant::custom(9, 5, 10, true, true).unwrap_or_default(),
        ] {
            let space = Space::new(v).unwrap();
            let k = space.kinds();
            assert!(k.common.len() <= ROW);
            let n = space.codes.len();
            let mut cols = Columns::default();
            let mut out = Vec::new();
            for size in [1, 5, 32, 77] {
                let cands: Vec<u32> = (0..size).map(|i| ((i * 7919 + 13) % n) as u32).collect();
                cols.start(&space, &cands);
                for g in (0..n as u32).step_by(n / 97 + 1) {
                    cols.classes(&space, k, g, &mut out);
                    for (j, &s) in cands.iter().enumerate() {
                        let want = feedback_naive(space.codes[s as usize], space.codes[g as usize]);
                        assert_eq!(
                            usize::from(out[j / BLOCK][j % BLOCK]),
                            want.class(v.pegs()),
                            "{v}"
                        );
                    }
                }
            }
        }
    }
}
