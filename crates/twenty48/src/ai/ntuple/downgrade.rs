//! Tile downgrading (after Yeh, Wu, Guei and Chen, "Multi-stage temporal difference learning for 2048-like games",
//! 2016): a late-game board is read by the network as the earlier board it resembles.
//!
//! Boards that hold 16384 are rare in training, and a network that plays them well has seen few. But a board whose
//! largest tiles are 16384, 8192 and 4096, with no 2048, has the shape of a board with 8192, 4096 and 2048 on the same
//! cells, which every long game passes through. [`downgrade`] halves every tile above the largest value missing from
//! the board, which keeps the order of all tiles (equal tiles stay equal, so the same merges are possible, a larger
//! tile stays larger) and repeats while the largest tile is at least [`DOWNGRADE_FROM`]. [`Downgraded`] evaluates the
//! image: greedy play from 5,000 boards that hold 16384 (`parlor-lab late`) builds 32768 from more of them with it
//! than without (`BENCHMARKS.md`).

use crate::ai::evaluate::Evaluate;
use crate::ai::ntuple::Network;
use crate::bitboard::Bitboard;

/// The exponent from which boards are downgraded: 14, boards that hold 16384.
pub const DOWNGRADE_FROM: u8 = 14;

/// Bits of the exponents present on a board (bit `e` for a tile `2^e`; empty cells are not counted).
#[inline]
fn present(b: Bitboard) -> u32 {
    let mut seen = 0u32;
    for i in 0..16 {
        seen |= 1 << ((b >> (4 * i)) & 0xF);
    }
    seen & !1
}

/// Whether some cell holds an exponent of at least `from` (1 to 15), without a loop: the cells are spread into 8-bit
/// lanes, `16 + e - from` keeps the lane's bit 4 set exactly when `e >= from`, and no lane borrows from the next.
#[inline(always)]
pub(crate) fn any_at_least(b: Bitboard, from: u8) -> bool {
    const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const BIT4: u64 = 0x1010_1010_1010_1010;
    let k = u64::from(from) * 0x0101_0101_0101_0101;
    let even = (b & LOW) | BIT4;
    let odd = ((b >> 4) & LOW) | BIT4;
    ((even - k) | (odd - k)) & BIT4 != 0
}

/// The board with every tile whose exponent is above `gap` halved (its exponent lowered by one).
#[inline]
fn halve_above(b: Bitboard, gap: u8) -> Bitboard {
    let mut out = 0;
    for i in 0..16 {
        let e = ((b >> (4 * i)) & 0xF) as u8;
        let e = if e > gap { e - 1 } else { e };
        out |= u64::from(e) << (4 * i);
    }
    out
}

/// The image of a board under downgrading from exponent `from`, and how many times it was halved: while the largest
/// tile has an exponent of at least `from` and some smaller value is missing, every tile above the largest missing
/// value is halved. A board whose largest tile is below `from`, or that holds every value below its largest, is its
/// own image (0 halvings).
///
/// ```
/// use twenty48::ai::ntuple::downgrade;
/// use twenty48::Board;
///
/// // 16384, 8192 and 4096 with no 2048: read as 8192, 4096 and 2048.
/// let b: Board = "16384,8192,4096,4/0,0,0,2/0,0,0,0/0,0,0,0".parse().unwrap();
/// let seen: Board = "8192,4096,2048,4/0,0,0,2/0,0,0,0/0,0,0,0".parse().unwrap();
/// let (image, halvings) = downgrade(b.to_bitboard().unwrap(), 14);
/// assert_eq!((image, halvings), (seen.to_bitboard().unwrap(), 1));
/// ```
pub fn downgrade(mut b: Bitboard, from: u8) -> (Bitboard, u32) {
    // Nearly every board searched is below the threshold: answer those without reading each cell.
    if !any_at_least(b, from) {
        return (b, 0);
    }
    let mut halvings = 0;
    loop {
        let p = present(b);
        let max = (31 - p.leading_zeros()) as u8;
        if p == 0 || max < from {
            return (b, halvings);
        }
        // Values 2^1 .. 2^(max-1) that are absent.
        let missing = !p & ((1u32 << max) - 2);
        if missing == 0 {
            return (b, halvings);
        }
        b = halve_above(b, (31 - missing.leading_zeros()) as u8);
        halvings += 1;
    }
}

/// A network that reads boards through [`downgrade`] from exponent `from`: the value of a board is the network's value
/// of its image. (Scaling the image's value up by the halvings was tried and played no better: `BENCHMARKS.md`.)
pub struct Downgraded<'a> {
    /// The network.
    pub net: &'a Network,
    /// The exponent from which boards are downgraded ([`DOWNGRADE_FROM`]).
    pub from: u8,
}

impl Evaluate for Downgraded<'_> {
    const REWARDS: bool = true;

    #[inline(always)]
    fn eval(&self, b: Bitboard) -> f32 {
        self.net.eval(downgrade(b, self.from).0)
    }

    #[inline(always)]
    fn eval4(&self, b: &[Bitboard; 4]) -> [f32; 4] {
        self.net.eval4(&b.map(|b| downgrade(b, self.from).0))
    }
}
