//! Feedback (black and white pegs): the exact formula, a naive reference, fast packed and table forms,
//! and parsing.

use std::fmt;

use thiserror::Error;

use crate::code::Code;

/// The answer to a guess: `black` pegs (right colour, right place) and `white` pegs (right colour,
/// wrong place).
///
/// ```
/// use mastermind::{feedback, Feedback, Variant};
/// let v = Variant::CLASSIC;
/// let secret = v.parse_code("1 1 2 2").unwrap();
/// let guess = v.parse_code("1 2 1 3").unwrap();
/// assert_eq!(feedback(secret, guess), Feedback { black: 1, white: 2 });
/// assert_eq!(Feedback::parse("RWW", 4), Ok(Feedback { black: 1, white: 2 }));
/// assert_eq!(Feedback { black: 1, white: 2 }.to_string(), "RWW");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Feedback {
    /// Pegs of the right colour in the right place.
    pub black: u8,
    /// Pegs of the right colour in the wrong place.
    pub white: u8,
}

/// Why a feedback text or value was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FeedbackError {
    /// The text is neither two numbers nor a string of R/B/W letters.
    #[error(
        "cannot read '{0}' as feedback: give two numbers (black white, e.g. '2 1') or letters (R or B for black, W for white, e.g. 'RRW'), or '-' for none"
    )]
    Unreadable(String),
    /// More pegs than the code has.
    #[error("{black} black + {white} white is more than the {pegs} pegs of a code")]
    TooMany {
        /// black pegs given
        black: u8,
        /// white pegs given
        white: u8,
        /// pegs of a code
        pegs: u8,
    },
    /// All pegs but one black and the last white: the last peg would have to be in the right place too.
    #[error(
        "{black} black and 1 white is impossible: the one misplaced colour would have to be in the only place left, which is right"
    )]
    Impossible {
        /// black pegs given
        black: u8,
    },
}

impl Feedback {
    /// The winning feedback for `pegs` pegs.
    pub fn win(pegs: u8) -> Feedback {
        Feedback {
            black: pegs,
            white: 0,
        }
    }

    /// Whether all `pegs` pegs are black.
    pub fn is_win(&self, pegs: u8) -> bool {
        self.black == pegs
    }

    /// A feedback checked against the number of pegs.
    pub fn new(black: u8, white: u8, pegs: u8) -> Result<Feedback, FeedbackError> {
        if u32::from(black) + u32::from(white) > u32::from(pegs) {
            return Err(FeedbackError::TooMany { black, white, pegs });
        }
        if pegs >= 1 && black == pegs - 1 && white == 1 {
            return Err(FeedbackError::Impossible { black });
        }
        Ok(Feedback { black, white })
    }

    /// Parses `2 1`, `2,1`, `2/1`, `RRW`, `BBW`, `r r w`, `-` or the empty string (no pegs).
    pub fn parse(text: &str, pegs: u8) -> Result<Feedback, FeedbackError> {
        let t = text.trim();
        let unreadable = || FeedbackError::Unreadable(text.to_string());
        if t.is_empty() || t == "-" {
            return Feedback::new(0, 0, pegs);
        }
        if t.chars().any(|c| c.is_ascii_digit()) {
            let nums: Vec<&str> = t
                .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
                .filter(|s| !s.is_empty())
                .collect();
            if nums.len() != 2 {
                return Err(unreadable());
            }
            let b: u8 = nums[0].parse().map_err(|_| unreadable())?;
            let w: u8 = nums[1].parse().map_err(|_| unreadable())?;
            return Feedback::new(b, w, pegs);
        }
        let (mut b, mut w) = (0u32, 0u32);
        for ch in t.chars() {
            match ch.to_ascii_uppercase() {
                'R' | 'B' => b += 1,
                'W' => w += 1,
                ' ' | ',' | '-' | '.' => {}
                _ => return Err(unreadable()),
            }
        }
        let (b, w) = (b.min(255) as u8, w.min(255) as u8);
        Feedback::new(b, w, pegs)
    }

    /// The dense class number `black * (pegs + 1) + white`, below `(pegs + 1)^2`.
    pub fn class(&self, pegs: u8) -> usize {
        usize::from(self.black) * (usize::from(pegs) + 1) + usize::from(self.white)
    }

    /// Inverse of [`Feedback::class`].
    pub fn from_class(class: usize, pegs: u8) -> Feedback {
        let base = usize::from(pegs) + 1;
        Feedback {
            black: (class / base) as u8,
            white: (class % base) as u8,
        }
    }
}

impl fmt::Display for Feedback {
    /// Blacks first as `R` (the seed's letter), then whites as `W`; `-` for no pegs.
    /// The alternate form `{:#}` writes the numbers, `2 1`. Both parse back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return write!(f, "{} {}", self.black, self.white);
        }
        if self.black == 0 && self.white == 0 {
            return f.write_str("-");
        }
        for _ in 0..self.black {
            f.write_str("R")?;
        }
        for _ in 0..self.white {
            f.write_str("W")?;
        }
        Ok(())
    }
}

/// The exact feedback: black = positions that agree; white = sum over colours of
/// min(count in secret, count in guess) minus black. Symmetric in its arguments.
pub fn feedback(secret: Code, guess: Code) -> Feedback {
    let (s, g) = (secret.pegs(), guess.pegs());
    let mut black = 0u8;
    let mut cs = [0u8; 16];
    let mut cg = [0u8; 16];
    for (&a, &b) in s.iter().zip(g) {
        black += u8::from(a == b);
        cs[usize::from(a & 15)] += 1;
        cg[usize::from(b & 15)] += 1;
    }
    let common: u8 = cs.iter().zip(&cg).map(|(&x, &y)| x.min(y)).sum();
    Feedback {
        black,
        white: common - black,
    }
}

/// A deliberately plain reference: mark the exact matches, then for each other guess peg strike out an
/// unmatched secret peg of the same colour (the board game's way of placing the pegs).
pub fn feedback_naive(secret: Code, guess: Code) -> Feedback {
    let s = secret.pegs();
    let g = guess.pegs();
    let n = s.len().min(g.len());
    let mut used_s = vec![false; s.len()];
    let mut used_g = vec![false; g.len()];
    let mut black = 0;
    for i in 0..n {
        if s[i] == g[i] {
            black += 1;
            used_s[i] = true;
            used_g[i] = true;
        }
    }
    let mut white = 0;
    for i in 0..g.len() {
        if used_g[i] {
            continue;
        }
        if let Some(j) = (0..s.len()).find(|&j| !used_s[j] && s[j] == g[i]) {
            used_s[j] = true;
            white += 1;
        }
    }
    Feedback { black, white }
}

/// A code packed for fast feedback: pegs as 4-bit nibbles, colour counts as 8-bit lanes (colours 0..8 in
/// one word, 8..10 in another). Feedback is then branch-free word arithmetic, no popcount instruction
/// needed (the baseline x86-64 target has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedCode {
    nibbles: u32,
    lo: u64,
    hi: u64,
    len: u8,
}

const LANE_HIGH: u64 = 0x8080_8080_8080_8080;
const LANE_ONE: u64 = 0x0101_0101_0101_0101;

/// Sum over 8-bit lanes of min(a, b), for lane values below 128 and a total below 256.
#[inline(always)]
fn lane_min_sum(a: u64, b: u64) -> u64 {
    let ge = (((a | LANE_HIGH) - b) & LANE_HIGH) >> 7; // 1 in lanes where a >= b
    let mask = ge * 0xFF;
    let min = (b & mask) | (a & !mask);
    min.wrapping_mul(LANE_ONE) >> 56
}

impl PackedCode {
    /// Packs a code.
    pub fn new(code: &Code) -> PackedCode {
        let mut nibbles = 0u32;
        let (mut lo, mut hi) = (0u64, 0u64);
        for (i, &c) in code.pegs().iter().enumerate() {
            let c = c & 15;
            nibbles |= u32::from(c) << (4 * i);
            if c < 8 {
                lo += 1 << (8 * c);
            } else {
                hi += 1 << (8 * (c - 8));
            }
        }
        PackedCode {
            nibbles,
            lo,
            hi,
            len: code.len() as u8,
        }
    }

    /// The feedback class (`black * (pegs + 1) + white`) against another packed code of the same length.
    #[inline(always)]
    pub fn class(&self, other: &PackedCode) -> u8 {
        let (black, common) = self.black_common(other);
        black * self.len + common
    }

    #[inline(always)]
    fn black_common(&self, other: &PackedCode) -> (u8, u8) {
        let x = self.nibbles ^ other.nibbles;
        let differ = (x | x >> 1 | x >> 2 | x >> 3) & 0x1111_1111;
        // Sum of the nibbles (each 0 or 1, at most 8) lands in the top nibble.
        let mismatches = (differ.wrapping_mul(0x1111_1111) >> 28) as u8;
        let black = self.len - mismatches;
        let common = (lane_min_sum(self.lo, other.lo) + lane_min_sum(self.hi, other.hi)) as u8;
        (black, common)
    }

    /// The colours in common with another code (black and white pegs together).
    #[inline(always)]
    pub(crate) fn common(&self, other: &PackedCode) -> u8 {
        (lane_min_sum(self.lo, other.lo) + lane_min_sum(self.hi, other.hi)) as u8
    }

    /// The colour counts as two words (8-bit lanes), a key for codes with the same colours.
    pub(crate) fn colour_counts(&self) -> (u64, u64) {
        (self.lo, self.hi)
    }

    /// The feedback against another packed code of the same length (same result as [`feedback`]).
    #[inline(always)]
    pub fn feedback(&self, other: &PackedCode) -> Feedback {
        let (black, common) = self.black_common(other);
        Feedback {
            black,
            white: common - black,
        }
    }
}

/// A precomputed table of feedback classes between all pairs of a list of codes (one byte per pair).
#[derive(Clone, Debug)]
pub struct FeedbackTable {
    n: usize,
    pegs: u8,
    classes: Vec<u8>,
}

impl FeedbackTable {
    /// Builds the table for `codes` (all of the same length): `n * n` bytes.
    pub fn new(codes: &[Code]) -> FeedbackTable {
        let packed: Vec<PackedCode> = codes.iter().map(PackedCode::new).collect();
        let n = codes.len();
        // Codes with the same colour counts share their common colours with any other code: the
        // common colours are computed once per pair of colour-count kinds, and a pair of codes then
        // costs only its black pegs (word arithmetic on the nibbles).
        let mut kinds: std::collections::HashMap<(u64, u64), u16> = Default::default();
        let mut reps: Vec<PackedCode> = Vec::new();
        let kind: Vec<u16> = packed
            .iter()
            .map(|p| {
                *kinds.entry((p.lo, p.hi)).or_insert_with(|| {
                    reps.push(*p);
                    (reps.len() - 1) as u16
                })
            })
            .collect();
        let m = reps.len();
        let mut common = vec![0u8; m * m];
        for (a, ra) in reps.iter().enumerate() {
            for (b, rb) in reps.iter().enumerate() {
                common[a * m + b] = (lane_min_sum(ra.lo, rb.lo) + lane_min_sum(ra.hi, rb.hi)) as u8;
            }
        }
        let nibbles: Vec<u32> = packed.iter().map(|p| p.nibbles).collect();
        let mut classes = vec![0u8; n * n];
        if n > 0 {
            for ((row, p), &k) in classes.chunks_exact_mut(n).zip(&packed).zip(&kind) {
                let crow = &common[usize::from(k) * m..(usize::from(k) + 1) * m];
                // Two passes: the common colours by lookup, then the black pegs (vectorised).
                for (cell, &kb) in row.iter_mut().zip(&kind) {
                    *cell = crow[usize::from(kb)];
                }
                let len = u32::from(p.len);
                for (cell, &nb) in row.iter_mut().zip(&nibbles) {
                    let x = p.nibbles ^ nb;
                    let differ = (x | x >> 1 | x >> 2 | x >> 3) & 0x1111_1111;
                    let mismatches = differ.wrapping_mul(0x1111_1111) >> 28;
                    *cell = cell.wrapping_add(((len - mismatches) * len) as u8);
                }
            }
        }
        FeedbackTable {
            n,
            pegs: codes.first().map_or(0, |c| c.len() as u8),
            classes,
        }
    }

    /// Number of codes.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The row of classes of code `i` against every code.
    #[inline(always)]
    pub fn row(&self, i: usize) -> &[u8] {
        &self.classes[i * self.n..(i + 1) * self.n]
    }

    /// The feedback class between codes `i` and `j` (see [`Feedback::class`]).
    #[inline(always)]
    pub fn class(&self, i: usize, j: usize) -> u8 {
        self.classes[i * self.n + j]
    }

    /// The feedback between codes `i` and `j`.
    pub fn feedback(&self, i: usize, j: usize) -> Feedback {
        Feedback::from_class(usize::from(self.class(i, j)), self.pegs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn c(v: &Variant, s: &str) -> Code {
        v.parse_pegs(s).unwrap()
    }

    #[test]
    fn formula_examples() {
        let v = Variant::CLASSIC;
        let cases = [
            ("1 2 3 4", "1 2 3 4", 4, 0),
            ("1 2 3 4", "4 3 2 1", 0, 4),
            ("1 1 2 2", "2 2 1 1", 0, 4),
            ("1 1 2 2", "1 2 1 3", 1, 2),
            ("1 2 3 4", "5 5 5 5", 0, 0),
            ("1 1 1 1", "1 2 2 2", 1, 0),
            ("1 2 2 2", "2 1 1 1", 0, 2),
            ("6 5 4 3", "3 4 5 6", 0, 4),
        ];
        for (s, g, b, w) in cases {
            let want = Feedback { black: b, white: w };
            assert_eq!(feedback(c(&v, s), c(&v, g)), want, "{s} vs {g}");
            assert_eq!(feedback_naive(c(&v, s), c(&v, g)), want, "{s} vs {g}");
        }
    }

    /// The seed's bug: it judges a colour's place by its FIRST index in the guess, and ignores a guess
    /// colour once a copy of it was struck out. GREEN GREEN RED BLUE against RED GREEN YELLOW BLUE:
    /// the seed answers R W W (the first GREEN is misplaced, the second, in place, is skipped);
    /// the exact answer is R R W.
    #[test]
    fn seed_bug_case_repeated_colour_in_guess() {
        let v = Variant::SEED;
        let secret = c(&v, "1 2 3 4"); // RED GREEN YELLOW BLUE
        let guess = c(&v, "2 2 1 4"); // GREEN GREEN RED BLUE
        // Seed: GREEN (index 0 in guess) is in the secret at index 1: 0 != 1 -> W; remove GREEN.
        // GREEN again: no longer in the copy -> nothing. RED: guess.index(RED)=2 vs secret 0 -> W.
        // BLUE: R. The seed says R W W (1 black 2 white); the true answer has GREEN in place at index 1.
        assert_eq!(
            seed_feedback(&secret, &guess),
            Feedback { black: 1, white: 2 }
        );
        assert_eq!(feedback(secret, guess), Feedback { black: 2, white: 1 });
        assert_eq!(
            feedback_naive(secret, guess),
            Feedback { black: 2, white: 1 }
        );
    }

    /// The seed's algorithm, transcribed, to document where it is wrong.
    fn seed_feedback(secret: &Code, guess: &Code) -> Feedback {
        let mut dummy: Vec<u8> = secret.pegs().to_vec();
        let (mut b, mut w) = (0, 0);
        for &x in guess.pegs() {
            if let Some(pos) = dummy.iter().position(|&d| d == x) {
                let gi = guess.pegs().iter().position(|&g| g == x).unwrap();
                let si = secret.pegs().iter().position(|&s| s == x).unwrap();
                if gi == si {
                    b += 1
                } else {
                    w += 1
                }
                dummy.remove(pos);
            }
        }
        Feedback { black: b, white: w }
    }

    #[test]
    fn seed_algorithm_agrees_without_repeats() {
        let v = Variant::SEED;
        let secrets = v.secrets();
        for &s in &secrets {
            for &g in &secrets {
                assert_eq!(seed_feedback(&s, &g), feedback(s, g));
            }
        }
    }

    fn all_pairs_agree(v: Variant) {
        let codes = v.guess_codes();
        let table = FeedbackTable::new(&codes);
        let packed: Vec<PackedCode> = codes.iter().map(PackedCode::new).collect();
        for (i, &a) in codes.iter().enumerate() {
            for (j, &b) in codes.iter().enumerate() {
                let naive = feedback_naive(a, b);
                assert_eq!(feedback(a, b), naive);
                assert_eq!(feedback(b, a), naive, "symmetry");
                assert_eq!(packed[i].feedback(&packed[j]), naive);
                assert_eq!(table.feedback(i, j), naive);
                assert_eq!(usize::from(table.class(i, j)), naive.class(v.pegs()));
            }
        }
    }

    #[test]
    fn fast_equals_naive_on_all_pairs_classic() {
        all_pairs_agree(Variant::CLASSIC);
    }

    #[test]
    fn fast_equals_naive_on_all_pairs_seed() {
        // The seed variant's guesses are all 1296 codes; its secrets are a subset.
        all_pairs_agree(Variant::SEED);
    }

    #[test]
    fn parse() {
        let fb = |b, w| Ok(Feedback { black: b, white: w });
        assert_eq!(Feedback::parse("2 1", 4), fb(2, 1));
        assert_eq!(Feedback::parse("2,1", 4), fb(2, 1));
        assert_eq!(Feedback::parse("RRW", 4), fb(2, 1));
        assert_eq!(Feedback::parse("bbw", 4), fb(2, 1));
        assert_eq!(Feedback::parse("W R", 4), fb(1, 1));
        assert_eq!(Feedback::parse("-", 4), fb(0, 0));
        assert_eq!(Feedback::parse("", 4), fb(0, 0));
        assert_eq!(Feedback::parse("4 0", 4), fb(4, 0));
        assert_eq!(
            Feedback::parse("3 1", 4),
            Err(FeedbackError::Impossible { black: 3 })
        );
        assert_eq!(
            Feedback::parse("RRRW", 4),
            Err(FeedbackError::Impossible { black: 3 })
        );
        assert_eq!(
            Feedback::parse("3 2", 4),
            Err(FeedbackError::TooMany {
                black: 3,
                white: 2,
                pegs: 4
            })
        );
        assert_eq!(
            Feedback::parse("RRRRW", 4),
            Err(FeedbackError::TooMany {
                black: 4,
                white: 1,
                pegs: 4
            })
        );
        assert!(matches!(
            Feedback::parse("2", 4),
            Err(FeedbackError::Unreadable(_))
        ));
        assert!(matches!(
            Feedback::parse("2 x", 4),
            Err(FeedbackError::Unreadable(_))
        ));
        assert!(matches!(
            Feedback::parse("RXW", 4),
            Err(FeedbackError::Unreadable(_))
        ));
        assert!(matches!(
            Feedback::parse("1 2 3", 4),
            Err(FeedbackError::Unreadable(_))
        ));
        assert!(matches!(
            Feedback::parse("999 1", 4),
            Err(FeedbackError::Unreadable(_))
        ));
    }

    #[test]
    fn display() {
        assert_eq!(Feedback { black: 0, white: 0 }.to_string(), "-");
        assert_eq!(Feedback { black: 1, white: 3 }.to_string(), "RWWW");
        assert_eq!(format!("{:#}", Feedback { black: 1, white: 3 }), "1 3");
    }
}
