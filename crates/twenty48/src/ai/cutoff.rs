//! A probability cut-off that shrinks as iterative deepening goes deeper, so that a larger budget searches both
//! deeper and wider instead of only deeper along the likely paths.
//!
//! Under a fixed cut-off the search of a crowded board stops where the path probability falls below it, whatever
//! the depth: with four empty cells a 2-spawn's path loses a factor of about 4.4 a move, so the timed cut-off 4e-3
//! ends most paths after three or four moves, and a budget that lets iterative deepening reach depth 10 spends it
//! on the few likely paths. With a [`CutoffShrink`] the iteration at depth `d` past `from` uses the cut-off divided
//! by `2^(octaves * (d - from))`: the small budgets, which stop at or before `from`, search exactly as before.
//!
//! Dividing by powers of two keeps the transposition table consistent across iterations and moves: the table then
//! keys a chance node by the octave of its path probability relative to its iteration's cut-off
//! ([`crate::ai::search::Search::set_class_shift`]), which is what decides how the cut-off prunes the sub-tree.

use std::fmt;
use std::str::FromStr;

/// How the cut-off shrinks with the depth of an iteration (written `FROM,OCTAVES`, such as `5,2`): iterations up to
/// depth `from` use the player's cut-off; each deeper one divides it by `2^octaves` once more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutoffShrink {
    from: u32,
    octaves: u32,
}

impl CutoffShrink {
    /// A shrink from depth `from` (1 to 20) by `octaves` (1 to 4) octaves a depth; else an error naming the value
    /// out of range.
    pub fn new(from: u32, octaves: u32) -> Result<CutoffShrink, String> {
        if !(1..=20).contains(&from) {
            return Err(format!(
                "cut-off shrink: the depth is from 1 to 20, not {from}"
            ));
        }
        if !(1..=4).contains(&octaves) {
            return Err(format!(
                "cut-off shrink: the octaves a depth are from 1 to 4, not {octaves}"
            ));
        }
        Ok(CutoffShrink { from, octaves })
    }

    /// The last depth that uses the player's own cut-off.
    pub fn from(&self) -> u32 {
        self.from
    }

    /// The octaves (halvings) of the cut-off each deeper iteration adds.
    pub fn octaves(&self) -> u32 {
        self.octaves
    }

    /// How many octaves below the player's cut-off the iteration at `depth` searches (0 up to `from`).
    pub fn shift(&self, depth: u32) -> u32 {
        // At most 120 octaves: f32's exponent has 254 steps, and the cut-off stays a normal number well before that.
        (depth.saturating_sub(self.from) * self.octaves).min(120)
    }

    /// The cut-off of the iteration at `depth` for a player whose cut-off is `base`: `base / 2^shift(depth)`, exact
    /// in floating point (a power of two), and never below the smallest normal `f32`.
    pub fn cutoff(&self, base: f32, depth: u32) -> f32 {
        (base * 0.5f32.powi(self.shift(depth) as i32)).max(f32::MIN_POSITIVE)
    }
}

impl fmt::Display for CutoffShrink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.from, self.octaves)
    }
}

impl FromStr for CutoffShrink {
    type Err = String;

    /// `FROM,OCTAVES`, each checked as [`CutoffShrink::new`] does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [from, octaves] = parts[..] else {
            return Err(format!(
                "cut-off shrink: FROM,OCTAVES (such as 5,2), not {s:?}"
            ));
        };
        let from = from
            .parse::<u32>()
            .map_err(|_| format!("cut-off shrink: the depth is from 1 to 20, not {from:?}"))?;
        let octaves = octaves.parse::<u32>().map_err(|_| {
            format!("cut-off shrink: the octaves a depth are from 1 to 4, not {octaves:?}")
        })?;
        CutoffShrink::new(from, octaves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_iterations_keep_the_cutoff_and_deeper_ones_halve_it() {
        let s = CutoffShrink::new(5, 2).unwrap();
        for d in 1..=5 {
            assert_eq!(s.cutoff(4e-3, d), 4e-3);
            assert_eq!(s.shift(d), 0);
        }
        assert_eq!(s.cutoff(4e-3, 6), 1e-3);
        assert_eq!(s.cutoff(4e-3, 7), 2.5e-4);
        assert_eq!(s.shift(7), 4);
        // Far past any real depth the cut-off stays a positive normal number.
        assert!(s.cutoff(4e-3, 1000) >= f32::MIN_POSITIVE);
    }

    #[test]
    fn parsing_checks_every_value() {
        assert_eq!("5,2".parse(), Ok(CutoffShrink::new(5, 2).unwrap()));
        assert_eq!(
            " 3 , 1 ".parse::<CutoffShrink>().unwrap().to_string(),
            "3,1"
        );
        for bad in [
            "", "5", "5,2,1", "0,2", "21,2", "5,0", "5,5", "a,2", "5,-1", "5,1.5",
        ] {
            let err = bad.parse::<CutoffShrink>().unwrap_err();
            assert!(err.starts_with("cut-off shrink:"), "{bad:?}: {err}");
        }
    }
}
