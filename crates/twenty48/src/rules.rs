//! Game parameters: board size, probability of a 4, target tile.

use crate::board::{MAX_SIZE, MIN_SIZE};
use crate::error::RulesError;

/// The parameters of a game.
///
/// ```
/// use twenty48::Rules;
///
/// let rules = Rules::default();
/// assert_eq!((rules.size(), rules.four_chance(), rules.target()), (4, 0.1, 2048));
/// assert!(Rules::new(9, 0.1, 2048).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    size: usize,
    four_chance: f64,
    target: u64,
}

impl Rules {
    /// Checked constructor: size 3 to 8, `0 <= four_chance <= 1`, target a power of two of at least 8.
    pub fn new(size: usize, four_chance: f64, target: u64) -> Result<Rules, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError::BadSize(size));
        }
        if !(0.0..=1.0).contains(&four_chance) {
            return Err(RulesError::BadFourChance(four_chance));
        }
        if target < 8 || !target.is_power_of_two() {
            return Err(RulesError::BadTarget(target));
        }
        Ok(Rules {
            size,
            four_chance,
            target,
        })
    }

    /// Board size N (the board is N x N).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Probability that a spawned tile is a 4 (else a 2).
    pub fn four_chance(&self) -> f64 {
        self.four_chance
    }

    /// The winning tile value.
    pub fn target(&self) -> u64 {
        self.target
    }
}

impl Default for Rules {
    /// 4x4, a 4 with probability 0.1, target 2048.
    fn default() -> Self {
        Rules {
            size: 4,
            four_chance: 0.1,
            target: 2048,
        }
    }
}
