//! The 4x4 board as a `u64` of sixteen 4-bit exponents, slid by table lookups.
//!
//! Cell (r, c) lives at bits `4 * (4 * r + c)`: row r is the 16-bit group `(b >> 16 * r) & 0xFFFF` and column 0 is its
//! lowest nibble. Row tables (65536 entries each, built once on first use) give every row's result when moving left or
//! right, its score and which result cells hold merged tiles. Up and down transpose the board, use the row tables,
//! and transpose back.
//!
//! Exponents are capped at 15 inside the tables: two 32768 tiles merge into 32768 (scored as 65536). The exact
//! [`crate::Board`] only takes this path when no such merge can happen.
//!
//! ```
//! use twenty48::{bitboard, Direction};
//!
//! // Row 0 is `2 2 2 2` (exponent 1 in every nibble).
//! let b = 0x1111u64;
//! assert_eq!(bitboard::slide(b, Direction::Left), 0x0022);
//! assert_eq!(bitboard::slide(b, Direction::Right), 0x2200);
//! assert_eq!(bitboard::score(b, Direction::Left), 8);
//! ```

use std::sync::OnceLock;

use crate::direction::Direction;

/// A 4x4 board of 4-bit exponents.
pub type Bitboard = u64;

/// Mask of one row (row 0).
pub(crate) const ROW_MASK: u64 = 0xFFFF;

/// Entries between the left and right halves of [`Tables`]' row slab (192 bytes), and between the up and down halves
/// of its column slab (768 bytes): without them the same index in both halves falls in the same cache set, and the
/// slide runs about 8% slower on boards from real games (`benches/slide.rs`).
const ROW_PAD: usize = 96;
const COL_PAD: usize = 96;
/// Where the right (down) half of the row (column) slab starts.
const RIGHT: usize = 65536 + ROW_PAD;
const DOWN: usize = 65536 + COL_PAD;

/// The precomputed row tables.
pub struct Tables {
    /// Result of a row moving left (toward the low nibble) at `[row]`, moving right at `[RIGHT + row]`.
    rows: Box<[u16; RIGHT + 65536]>,
    /// Column moving up at `[col]`, moving down at `[DOWN + col]`: indexed by a column read as a row (cell k = row k),
    /// the result column spread out with cell k at bits `16 * k` (shift it left by `4 * col`).
    cols: Box<[u64; DOWN + 65536]>,
    /// Points gained by a row (the same either way: a run of L equal tiles merges L/2 pairs in both directions).
    pub score: Box<[u32; 65536]>,
    /// Bit c set when cell c of the left result holds a merged tile.
    pub left_merged: Box<[u8; 65536]>,
    /// Bit c set when cell c of the right result holds a merged tile.
    pub right_merged: Box<[u8; 65536]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables, built on first use (a few milliseconds).
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

/// Slides a single row of four exponents toward index 0, capping at 15. Returns (row, score, merged mask).
pub(crate) fn slide_row_left(row: [u8; 4]) -> ([u8; 4], u32, u8) {
    let mut tiles = [0u8; 4];
    let mut n = 0;
    for &e in &row {
        if e != 0 {
            tiles[n] = e;
            n += 1;
        }
    }
    let mut out = [0u8; 4];
    let (mut i, mut k, mut score, mut mask) = (0, 0, 0u32, 0u8);
    while i < n {
        if i + 1 < n && tiles[i] == tiles[i + 1] {
            let e = tiles[i] + 1;
            score += 1 << e;
            out[k] = e.min(15);
            mask |= 1 << k;
            i += 2;
        } else {
            out[k] = tiles[i];
            i += 1;
        }
        k += 1;
    }
    (out, score, mask)
}

/// A zeroed 65536-entry table on the heap.
fn table<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    vec![T::default(); N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the length is N"))
}

/// Spreads a row's four cells down a column: cell k to bits `16 * k`.
fn unpack_col(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | (r & 0xF0) << 12 | (r & 0xF00) << 24 | (r & 0xF000) << 36
}

fn unpack(row: u16) -> [u8; 4] {
    [
        (row & 0xF) as u8,
        ((row >> 4) & 0xF) as u8,
        ((row >> 8) & 0xF) as u8,
        ((row >> 12) & 0xF) as u8,
    ]
}

fn pack(r: [u8; 4]) -> u16 {
    r[0] as u16 | (r[1] as u16) << 4 | (r[2] as u16) << 8 | (r[3] as u16) << 12
}

impl Tables {
    fn build() -> Tables {
        let mut rows = table::<u16, { RIGHT + 65536 }>();
        let mut cols = table::<u64, { DOWN + 65536 }>();
        let mut score = table::<u32, 65536>();
        let mut left_merged = table::<u8, 65536>();
        let mut right_merged = table::<u8, 65536>();
        for row in 0..=u16::MAX {
            let cells = unpack(row);
            let (l, s, m) = slide_row_left(cells);
            let left = pack(l);
            score[row as usize] = s;
            left_merged[row as usize] = m;
            let mut rev = cells;
            rev.reverse();
            let (mut r, _, m) = slide_row_left(rev);
            r.reverse();
            let right = pack(r);
            right_merged[row as usize] =
                ((m & 1) << 3) | ((m & 2) << 1) | ((m & 4) >> 1) | ((m & 8) >> 3);
            rows[row as usize] = left;
            rows[RIGHT + row as usize] = right;
            cols[row as usize] = unpack_col(left);
            cols[DOWN + row as usize] = unpack_col(right);
        }
        Tables {
            rows,
            cols,
            score,
            left_merged,
            right_merged,
        }
    }

    /// Slides `b` in `dir`: four row lookups (up and down: one transpose, then four column lookups).
    #[inline(always)]
    pub fn slide(&self, b: Bitboard, dir: Direction) -> Bitboard {
        match dir {
            Direction::Left => self.rows(b, 0),
            Direction::Right => self.rows(b, RIGHT),
            Direction::Up => self.cols(transpose(b), 0),
            Direction::Down => self.cols(transpose(b), DOWN),
        }
    }

    /// Up or down (`half` 0 or `DOWN`): `t` is the transposed board (its rows are the columns); one lookup per column.
    #[inline(always)]
    fn cols(&self, t: Bitboard, half: usize) -> Bitboard {
        let c = &self.cols;
        c[half + t as u16 as usize]
            | c[half + (t >> 16) as u16 as usize] << 4
            | c[half + (t >> 32) as u16 as usize] << 8
            | c[half + (t >> 48) as u16 as usize] << 12
    }

    /// Left or right (`half` 0 or `RIGHT`): one lookup per row.
    #[inline(always)]
    fn rows(&self, b: Bitboard, half: usize) -> Bitboard {
        let r = &self.rows;
        (r[half + b as u16 as usize] as u64)
            | (r[half + (b >> 16) as u16 as usize] as u64) << 16
            | (r[half + (b >> 32) as u16 as usize] as u64) << 32
            | (r[half + (b >> 48) as u16 as usize] as u64) << 48
    }

    /// Points gained by sliding `b` in `dir`.
    #[inline(always)]
    pub fn score(&self, b: Bitboard, dir: Direction) -> u64 {
        let b = match dir {
            Direction::Left | Direction::Right => b,
            Direction::Up | Direction::Down => transpose(b),
        };
        let s = &self.score;
        s[b as u16 as usize] as u64
            + s[(b >> 16) as u16 as usize] as u64
            + s[(b >> 32) as u16 as usize] as u64
            + s[(b >> 48) as u16 as usize] as u64
    }

    /// Slides `b` in `dir` and also returns the points gained and the merged cells (row-major order).
    pub(crate) fn slide_detailed(
        &self,
        b: Bitboard,
        dir: Direction,
    ) -> (Bitboard, u64, Vec<(usize, usize)>) {
        let after = self.slide(b, dir);
        let gained = self.score(b, dir);
        let (src, masks, vertical) = match dir {
            Direction::Left => (b, &self.left_merged, false),
            Direction::Right => (b, &self.right_merged, false),
            Direction::Up => (transpose(b), &self.left_merged, true),
            Direction::Down => (transpose(b), &self.right_merged, true),
        };
        let mut merged = Vec::new();
        for line in 0..4 {
            let m = masks[((src >> (16 * line)) & ROW_MASK) as usize];
            for k in 0..4 {
                if m & (1 << k) != 0 {
                    merged.push(if vertical { (k, line) } else { (line, k) });
                }
            }
        }
        merged.sort_unstable();
        (after, gained, merged)
    }
}

/// Slides `b` in `dir` using the shared [`tables`].
#[inline]
pub fn slide(b: Bitboard, dir: Direction) -> Bitboard {
    tables().slide(b, dir)
}

/// Points gained by sliding `b` in `dir`.
pub fn score(b: Bitboard, dir: Direction) -> u64 {
    tables().score(b, dir)
}

/// Transposes the 4x4 nibble matrix (rows become columns).
#[inline(always)]
pub fn transpose(x: Bitboard) -> Bitboard {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// Number of empty cells (zero nibbles).
#[inline(always)]
pub fn count_empty(b: Bitboard) -> u32 {
    let mut x = b;
    x |= (x >> 2) & 0x3333_3333_3333_3333;
    x |= x >> 1;
    x = !x & 0x1111_1111_1111_1111;
    x.count_ones()
}

/// The exponent at (row, col).
#[inline(always)]
pub fn get(b: Bitboard, row: usize, col: usize) -> u8 {
    ((b >> (4 * (4 * row + col))) & 0xF) as u8
}

/// The largest exponent on the board.
pub fn max_exponent(b: Bitboard) -> u8 {
    (0..16)
        .map(|i| ((b >> (4 * i)) & 0xF) as u8)
        .max()
        .unwrap_or(0)
}

/// True if no cell is empty and no slide changes the board (as [`crate::Board::is_game_over`]).
pub fn is_game_over(b: Bitboard) -> bool {
    let t = tables();
    count_empty(b) == 0 && Direction::ALL.into_iter().all(|d| t.slide(b, d) == b)
}
