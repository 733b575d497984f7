//! Dense ranking of the solver's positions.
//!
//! The solver works in one frame: **Black to move**. A position with White to move is turned over first (rows
//! reversed, colours swapped), which is the same game seen from the other side. Every position has exactly `cols`
//! pieces of each colour (a goal move ends the game, so no piece ever leaves the board in a running game).
//!
//! A position factors into a **placement** (the height of every stack, 0 to 3, summing to `2 * cols`) and a
//! **colouring** (which of the `2 * cols` pieces are White, read level by level from the bottom and, within a level,
//! square by square). The left-right mirror folds the placements: a placement is *canonical* when its sequence of
//! row patterns (row 0 first, each row read as base-4 digits of its heights) is not larger than the mirrored one.
//! Canonical placements are ranked densely by a combinatorial number system whose per-row prefix tables are a few
//! hundred kilobytes; a position's index is `placement_rank * colourings + colouring_rank`. For the rare
//! self-mirrored placements both colourings of a mirror pair have a slot; the larger one is unused.

use crate::Dims;
use crate::position::shift;
use crate::square::STRIDE;

/// A position in the solver's frame (Black to move): occupancy and White pieces by level, internal layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Raw {
    pub occ: [u64; 3],
    pub white: [u64; 3],
}

/// Where a position lives in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    /// The index of its mirror class.
    pub index: u64,
    /// Whether the position is its own mirror image.
    pub symmetric: bool,
    /// Whether the position itself is the stored representative (always true when symmetric).
    pub canonical: bool,
}

/// Squares topped by a piece of White (`white = true`) or Black.
#[inline(always)]
pub(crate) fn tops(raw: &Raw, white: bool) -> u64 {
    let [o0, o1, o2] = raw.occ;
    let [w0, w1, w2] = raw.white;
    if white {
        (w0 & !o1) | (w1 & !o2) | w2
    } else {
        (o0 & !w0 & !o1) | (o1 & !w1 & !o2) | (o2 & !w2)
    }
}

/// The ranking tables of one board size.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    dims: Dims,
    rows: usize,
    cols: usize,
    /// Number of row patterns, `4^cols`.
    ncodes: usize,
    colmask: u64,
    board: u64,
    /// Internal mask of the last row (White's home row).
    last_row: u64,
    /// Black's goal row (beyond the last row).
    black_goal: u64,
    /// Number of colourings, `C(2 * cols, cols)`.
    colourings: u64,
    placements: u64,
    /// `spread[m]`: bit `i` of `m` moved to bit `2 * i`.
    spread: [u16; 32],
    code_sum: Vec<u8>,
    code_mirror: Vec<u16>,
    /// Prefix tables by (row, pieces left, code): free (after an asymmetric row) and while all rows so far were
    /// symmetric.
    pf: Vec<u32>,
    pg: Vec<u32>,
    /// Colouring rank by pattern (bit n = slot n is White) and back.
    colour_rank: Vec<u16>,
    colour_unrank: Vec<u16>,
}

impl Indexer {
    /// Tables for a board.
    pub fn new(dims: Dims) -> Indexer {
        let rows = dims.rows();
        let cols = dims.cols();
        let ncodes = 1usize << (2 * cols);
        let total = 2 * cols;
        let colmask = (1u64 << cols) - 1;
        let mut board = 0;
        for r in 0..rows {
            board |= colmask << ((r as i32 + 1) * STRIDE);
        }
        let last_row = colmask << (rows as i32 * STRIDE);
        let black_goal = colmask << ((rows as i32 + 1) * STRIDE);
        let mut spread = [0u16; 32];
        for (m, s) in spread.iter_mut().enumerate() {
            *s = (0..5)
                .filter(|i| m >> i & 1 != 0)
                .map(|i| 1u16 << (2 * i))
                .sum();
        }
        let code_sum: Vec<u8> = (0..ncodes)
            .map(|c| (0..cols).map(|i| (c >> (2 * i) & 3) as u8).sum())
            .collect();
        let code_mirror: Vec<u16> = (0..ncodes)
            .map(|c| {
                (0..cols)
                    .map(|i| ((c >> (2 * i) & 3) as u16) << (2 * (cols - 1 - i)))
                    .sum()
            })
            .collect();
        // f[r][s]: row sequences for rows r.. with s pieces; g[r][s]: canonical ones when all earlier rows were
        // symmetric.
        let width = total + 1;
        let mut f = vec![0u64; (rows + 1) * width];
        let mut g = vec![0u64; (rows + 1) * width];
        f[rows * width] = 1;
        g[rows * width] = 1;
        for r in (0..rows).rev() {
            for s in 0..=total {
                let (mut fs, mut gs) = (0, 0);
                for c in 0..ncodes {
                    let cs = code_sum[c] as usize;
                    if cs > s {
                        continue;
                    }
                    let rest = (r + 1) * width + s - cs;
                    fs += f[rest];
                    let m = code_mirror[c] as usize;
                    if c < m {
                        gs += f[rest];
                    } else if c == m {
                        gs += g[rest];
                    }
                }
                f[r * width + s] = fs;
                g[r * width + s] = gs;
            }
        }
        let mut pf = vec![0u32; rows * width * ncodes];
        let mut pg = vec![0u32; rows * width * ncodes];
        for r in 0..rows {
            for s in 0..=total {
                let base = (r * width + s) * ncodes;
                let (mut af, mut ag) = (0u64, 0u64);
                for c in 0..ncodes {
                    pf[base + c] = af as u32;
                    pg[base + c] = ag as u32;
                    let cs = code_sum[c] as usize;
                    if cs > s {
                        continue;
                    }
                    let rest = (r + 1) * width + s - cs;
                    af += f[rest];
                    let m = code_mirror[c] as usize;
                    if c < m {
                        ag += f[rest];
                    } else if c == m {
                        ag += g[rest];
                    }
                }
            }
        }
        let placements = g[total];
        let mut colour_rank = vec![u16::MAX; 1 << total];
        let mut colour_unrank = Vec::new();
        for p in 0..(1u32 << total) {
            if p.count_ones() as usize == cols {
                colour_rank[p as usize] = colour_unrank.len() as u16;
                colour_unrank.push(p as u16);
            }
        }
        Indexer {
            dims,
            rows,
            cols,
            ncodes,
            colmask,
            board,
            last_row,
            black_goal,
            colourings: colour_unrank.len() as u64,
            placements,
            spread,
            code_sum,
            code_mirror,
            pf,
            pg,
            colour_rank,
            colour_unrank,
        }
    }

    /// The board.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Number of index slots (mirror classes, plus the unused slots of self-mirrored placements).
    pub fn len(&self) -> u64 {
        self.placements * self.colourings
    }

    /// Number of canonical placements.
    pub fn placements(&self) -> u64 {
        self.placements
    }

    /// Number of colourings of one placement.
    pub fn colourings(&self) -> u64 {
        self.colourings
    }

    /// The left-right mirror of a bitboard.
    #[inline(always)]
    pub fn mirror_bb(&self, x: u64) -> u64 {
        x.reverse_bits().swap_bytes() >> (8 - self.cols)
    }

    /// Rows reversed.
    #[inline(always)]
    fn flip_bb(&self, x: u64) -> u64 {
        x.swap_bytes() >> (8 * (6 - self.rows))
    }

    /// The left-right mirror image.
    #[inline(always)]
    pub fn mirror(&self, raw: &Raw) -> Raw {
        Raw {
            occ: raw.occ.map(|x| self.mirror_bb(x)),
            white: raw.white.map(|x| self.mirror_bb(x)),
        }
    }

    /// A position with White to move, seen from White's side (rows reversed, colours swapped): Black to move.
    #[inline(always)]
    pub fn turn_over(&self, occ: [u64; 3], white: [u64; 3]) -> Raw {
        Raw {
            occ: occ.map(|x| self.flip_bb(x)),
            white: [0, 1, 2].map(|k| self.flip_bb(occ[k] & !white[k])),
        }
    }

    #[inline(always)]
    fn row_codes(&self, raw: &Raw) -> [u16; 6] {
        let mut codes = [0u16; 6];
        for (r, code) in codes.iter_mut().enumerate().take(self.rows) {
            let sh = (r + 1) * 8;
            let m = |x: u64| ((x >> sh) & self.colmask) as usize;
            *code = self.spread[m(raw.occ[0])]
                + self.spread[m(raw.occ[1])]
                + self.spread[m(raw.occ[2])];
        }
        codes
    }

    #[inline(always)]
    fn placement_rank(&self, codes: &[u16; 6]) -> u64 {
        let width = 2 * self.cols + 1;
        let mut rem = 2 * self.cols;
        let mut sym = true;
        let mut rank = 0u64;
        for (r, &code) in codes.iter().enumerate().take(self.rows) {
            let c = code as usize;
            let t = (r * width + rem) * self.ncodes + c;
            rank += if sym { self.pg[t] } else { self.pf[t] } as u64;
            if sym && self.code_mirror[c] as usize != c {
                sym = false;
            }
            rem -= self.code_sum[c] as usize;
        }
        rank
    }

    #[inline(always)]
    fn colour_pattern(raw: &Raw) -> usize {
        let mut pat = 0usize;
        let mut n = 0;
        for k in 0..3 {
            let mut m = raw.occ[k];
            while m != 0 {
                let b = m & m.wrapping_neg();
                pat |= ((raw.white[k] & b != 0) as usize) << n;
                n += 1;
                m ^= b;
            }
        }
        pat
    }

    /// The colouring rank of a position (its piece counts must be right).
    #[inline(always)]
    fn colour(&self, raw: &Raw) -> u64 {
        self.colour_rank[Self::colour_pattern(raw)] as u64
    }

    /// Where a position (Black to move, `cols` pieces a side) lives in the index.
    #[inline]
    pub fn locate(&self, raw: &Raw) -> Located {
        let codes = self.row_codes(raw);
        let mut order = std::cmp::Ordering::Equal;
        for &c in codes.iter().take(self.rows) {
            let m = self.code_mirror[c as usize];
            if c != m {
                order = c.cmp(&m);
                break;
            }
        }
        match order {
            std::cmp::Ordering::Less => Located {
                index: self.placement_rank(&codes) * self.colourings + self.colour(raw),
                symmetric: false,
                canonical: true,
            },
            std::cmp::Ordering::Greater => {
                let mut mc = codes;
                for c in mc.iter_mut().take(self.rows) {
                    *c = self.code_mirror[*c as usize];
                }
                let m = self.mirror(raw);
                Located {
                    index: self.placement_rank(&mc) * self.colourings + self.colour(&m),
                    symmetric: false,
                    canonical: false,
                }
            }
            std::cmp::Ordering::Equal => {
                let a = self.colour(raw);
                let b = self.colour(&self.mirror(raw));
                Located {
                    index: self.placement_rank(&codes) * self.colourings + a.min(b),
                    symmetric: a == b,
                    canonical: a <= b,
                }
            }
        }
    }

    /// The row patterns of a canonical placement rank.
    pub fn placement(&self, mut rank: u64) -> [u16; 6] {
        let width = 2 * self.cols + 1;
        let mut rem = 2 * self.cols;
        let mut sym = true;
        let mut codes = [0u16; 6];
        for (r, code) in codes.iter_mut().enumerate().take(self.rows) {
            let base = (r * width + rem) * self.ncodes;
            let table = if sym { &self.pg } else { &self.pf };
            let row = &table[base..base + self.ncodes];
            let c = row.partition_point(|&p| p as u64 <= rank) - 1;
            rank -= row[c] as u64;
            *code = c as u16;
            if sym && self.code_mirror[c] as usize != c {
                sym = false;
            }
            rem -= self.code_sum[c] as usize;
        }
        codes
    }

    /// Whether a placement is its own mirror image.
    pub fn placement_symmetric(&self, codes: &[u16; 6]) -> bool {
        codes
            .iter()
            .take(self.rows)
            .all(|&c| self.code_mirror[c as usize] == c)
    }

    /// Occupancy by level of a placement.
    pub fn occupancy(&self, codes: &[u16; 6]) -> [u64; 3] {
        let mut occ = [0u64; 3];
        for (r, &code) in codes.iter().enumerate().take(self.rows) {
            for c in 0..self.cols {
                let h = (code >> (2 * c)) & 3;
                let b = 1u64 << ((r + 1) * 8 + c);
                for o in occ.iter_mut().take(h as usize) {
                    *o |= b;
                }
            }
        }
        occ
    }

    /// The position with this occupancy and colouring rank.
    #[inline]
    pub fn with_colouring(&self, occ: [u64; 3], colour: u64) -> Raw {
        let pat = self.colour_unrank[colour as usize] as u32;
        let mut white = [0u64; 3];
        let mut n = 0;
        for k in 0..3 {
            let mut m = occ[k];
            while m != 0 {
                let b = m & m.wrapping_neg();
                if pat >> n & 1 != 0 {
                    white[k] |= b;
                }
                n += 1;
                m ^= b;
            }
        }
        Raw { occ, white }
    }

    /// The position stored at an index, and whether that slot is used (every slot is, except the second of a mirror
    /// pair of colourings on a self-mirrored placement).
    #[cfg(test)]
    pub fn decode(&self, index: u64) -> (Raw, bool) {
        let codes = self.placement(index / self.colourings);
        let raw = self.with_colouring(self.occupancy(&codes), index % self.colourings);
        let used = !self.placement_symmetric(&codes) || self.locate(&raw).index == index;
        (raw, used)
    }

    /// Whether Black (to move) can step into its goal.
    #[inline(always)]
    pub fn has_goal_move(&self, raw: &Raw) -> bool {
        tops(raw, false) & self.last_row != 0
    }

    /// Number of legal moves of Black (to move).
    #[inline(always)]
    pub fn count_moves(&self, raw: &Raw) -> u32 {
        let mine = tops(raw, false);
        let ok = (self.board & !raw.occ[2]) | self.black_goal;
        crate::Dir::ALL
            .into_iter()
            .map(|d| (shift(mine, d.shift()) & ok).count_ones())
            .sum()
    }

    /// Number of Black's moves after which White cannot step into its goal at once (Black to move, without a goal
    /// move of its own). White can after a move iff, then, a White piece tops a square of Black's home row: one
    /// that was there and not covered by the move, or one uncovered by the moving piece.
    #[inline(always)]
    pub fn count_moves_without_goal_reply(&self, raw: &Raw) -> u32 {
        let [_, o1, o2] = raw.occ;
        let [w0, w1, _] = raw.white;
        let row0 = self.colmask << 8;
        let threats = tops(raw, true) & row0;
        let mine = tops(raw, false);
        // Black tops on row 0 whose piece below is White: moving them uncovers a White threat.
        let uncovers = mine & row0 & ((o1 & !o2 & w0) | (o2 & w1));
        let targets = match threats.count_ones() {
            0 => self.board & !o2,
            1 => threats & !o2,
            _ => return 0,
        };
        let movers = mine & !uncovers;
        crate::Dir::ALL
            .into_iter()
            .map(|d| (shift(movers, d.shift()) & targets).count_ones())
            .sum()
    }

    /// Calls `f` with every position (turned over: Black to move) from which White's last move led to `raw`.
    #[inline(always)]
    pub fn for_each_parent(&self, raw: &Raw, mut f: impl FnMut(Raw)) {
        let wt = tops(raw, true);
        let free = self.board & !raw.occ[2];
        for d in crate::Dir::ALL {
            let s = d.shift();
            // White stepped from `from` to `to = from + s`; `from` held fewer than 3 pieces.
            let mut froms = shift(wt, -s) & free;
            while froms != 0 {
                let from = froms.trailing_zeros();
                froms &= froms - 1;
                let fb = 1u64 << from;
                let tb = 1u64 << (from as i32 + s);
                let mut occ = raw.occ;
                let mut white = raw.white;
                let lt = (occ[0] & tb != 0) as usize
                    + (occ[1] & tb != 0) as usize
                    + (occ[2] & tb != 0) as usize
                    - 1;
                occ[lt] &= !tb;
                white[lt] &= !tb;
                let lf = (occ[0] & fb != 0) as usize + (occ[1] & fb != 0) as usize;
                occ[lf] |= fb;
                white[lf] |= fb;
                f(self.turn_over(occ, white));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Colour, Position};
    use proptest::prelude::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    fn raw_of(ix: &Indexer, p: &Position) -> Raw {
        let (occ, white) = p.levels();
        match p.side_to_move() {
            Colour::Black => Raw {
                occ: *occ,
                white: *white,
            },
            Colour::White => ix.turn_over(*occ, *white),
        }
    }

    proptest! {
        /// On every board size: a position reached by random play has an index on the table, the slot decodes to
        /// the position or its mirror image, and the mirror image has the same index.
        #[test]
        fn random_positions_locate_and_decode(seed in any::<u64>(), board in 0usize..12, plies in 0usize..60) {
            let (r, c) = [(3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5), (5, 3), (5, 4), (5, 5), (6, 3), (6, 4),
                (6, 5)][board];
            let ix = Indexer::new(Dims::new(r, c).unwrap());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut p = Position::start(ix.dims());
            for _ in 0..plies {
                let quiet: Vec<_> = p.legal_moves().iter().copied().filter(|&m| !p.is_goal_move(m)).collect();
                if quiet.is_empty() {
                    break;
                }
                p.play_unchecked(quiet[(rng.next_u64() % quiet.len() as u64) as usize]);
                let raw = raw_of(&ix, &p);
                let loc = ix.locate(&raw);
                prop_assert!(loc.index < ix.len());
                let (back, used) = ix.decode(loc.index);
                prop_assert!(used);
                let m = ix.mirror(&raw);
                prop_assert!(back == raw || back == m, "{p}");
                prop_assert_eq!(loc.canonical, back == raw);
                prop_assert_eq!(loc.symmetric, raw == m);
                prop_assert_eq!(ix.locate(&m).index, loc.index);
                prop_assert_eq!(ix.has_goal_move(&raw), p.has_goal_move());
                prop_assert_eq!(ix.count_moves(&raw) as usize, p.count_moves());
                // Every move's un-move leads back: the position is among the parents of each child.
                for &mv in p.legal_moves().iter().filter(|&&m| !p.is_goal_move(m)) {
                    let child = raw_of(&ix, &p.after(mv).unwrap());
                    let mut parents = Vec::new();
                    ix.for_each_parent(&child, |q| parents.push(q));
                    prop_assert!(parents.contains(&raw), "{p} {mv}");
                }
            }
        }
    }

    #[test]
    fn every_slot_decodes_and_relocates_on_small_boards() {
        for (r, c) in [(3, 3), (4, 3), (3, 4)] {
            let ix = Indexer::new(Dims::new(r, c).unwrap());
            let mut used = 0;
            for i in 0..ix.len() {
                let (raw, ok) = ix.decode(i);
                let loc = ix.locate(&raw);
                if ok {
                    used += 1;
                    assert_eq!(loc.index, i);
                    assert!(loc.canonical);
                    let m = ix.mirror(&raw);
                    let lm = ix.locate(&m);
                    assert_eq!(lm.index, i);
                    assert_eq!(lm.canonical, loc.symmetric);
                } else {
                    assert!(loc.index < i);
                }
            }
            assert!(used > ix.len() * 9 / 10);
        }
    }
}
