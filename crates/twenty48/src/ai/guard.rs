//! A guard of the large tiles' formation at the root (issue 29's "moves that break the large tiles' formation pruned
//! when the formation is safe"): among the searched moves, the best one that leaves every large tile where it was,
//! unless a move that moves one is worth clearly more.
//!
//! The *formation* of a board is its large tiles that nothing can merge with: every tile of at least `2^from` whose
//! value no other tile on the board has (a pair of equal large tiles is about to merge, which is progress, not a
//! break). A move *keeps* the formation when each of those cells still holds a tile at least as large after the
//! slide. The formation is *safe* when the best keeping move's searched value is at least `1 - margin` of the best
//! move's: the guard then plays the best keeping move, and otherwise lets the search's best move break it.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::direction::Direction;

/// The formation guard (written `FROM,MARGIN`, such as `10,0.02`): tiles of at least `2^from` that are unique on the
/// board stay in their cells unless breaking the formation is worth more than `margin` of the best move's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FormationGuard {
    from: u8,
    margin: f32,
}

impl FormationGuard {
    /// A guard of the unique tiles from `2^from` (`from` from 3 to 17) with a margin from 0 to 1; else an error
    /// naming the value out of range.
    pub fn new(from: u8, margin: f32) -> Result<FormationGuard, String> {
        if !(3..=17).contains(&from) {
            return Err(format!(
                "formation guard: the exponent is from 3 to 17, not {from}"
            ));
        }
        if !(0.0..=1.0).contains(&margin) {
            return Err(format!(
                "formation guard: the margin is from 0 to 1, not {margin}"
            ));
        }
        Ok(FormationGuard { from, margin })
    }

    /// The exponent from which a unique tile belongs to the formation.
    pub fn from(&self) -> u8 {
        self.from
    }

    /// The share of the best move's value a keeping move may fall short by and still be played.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The cells of `board`'s formation with their exponents: the tiles of at least `2^from` that no other tile
    /// equals.
    pub fn formation(&self, board: &Board) -> Vec<(usize, usize, u8)> {
        let n = board.size();
        let mut count = [0u8; 256];
        for r in 0..n {
            for c in 0..n {
                let e = board.exponent(r, c) as usize;
                count[e] = count[e].saturating_add(1);
            }
        }
        let mut cells = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let e = board.exponent(r, c);
                if e >= self.from && count[e as usize] == 1 {
                    cells.push((r, c, e));
                }
            }
        }
        cells
    }

    /// Whether sliding `board` in `dir` leaves a tile at least as large in every cell of `formation`.
    pub fn keeps(board: &Board, dir: Direction, formation: &[(usize, usize, u8)]) -> bool {
        let after = board.slid(dir).0;
        formation.iter().all(|&(r, c, e)| after.exponent(r, c) >= e)
    }

    /// The move to play on `board` given the searched `values` of its moves (higher is better): the best keeping
    /// move when the formation is not empty, some move breaks it, and the best keeping move is worth at least
    /// `1 - margin` of the best move (a best value above 0); `None` to play the search's best move.
    pub fn choose(&self, board: &Board, values: &[(Direction, f32)]) -> Option<Direction> {
        let formation = self.formation(board);
        if formation.is_empty() {
            return None;
        }
        let best = values
            .iter()
            .map(|&(_, v)| v)
            .fold(f32::NEG_INFINITY, f32::max);
        // `f32::max` passes over NaN, so `best` is a number; no values at all leave it at minus infinity.
        if best <= 0.0 {
            return None;
        }
        let mut kept: Option<(Direction, f32)> = None;
        let mut breaks = false;
        for &(d, v) in values {
            if FormationGuard::keeps(board, d, &formation) {
                if kept.is_none_or(|(_, kv)| v > kv) {
                    kept = Some((d, v));
                }
            } else {
                breaks = true;
            }
        }
        let (d, v) = kept?;
        (breaks && v >= best * (1.0 - self.margin)).then_some(d)
    }
}

impl fmt::Display for FormationGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.from, self.margin)
    }
}

impl FromStr for FormationGuard {
    type Err = String;

    /// `FROM,MARGIN`, each checked as [`FormationGuard::new`] does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [from, margin] = parts[..] else {
            return Err(format!(
                "formation guard: FROM,MARGIN (such as 10,0.02), not {s:?}"
            ));
        };
        let from = from
            .parse::<u8>()
            .map_err(|_| format!("formation guard: the exponent is from 3 to 17, not {from:?}"))?;
        let margin = margin
            .parse::<f32>()
            .map_err(|_| format!("formation guard: the margin is from 0 to 1, not {margin:?}"))?;
        FormationGuard::new(from, margin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn the_formation_is_the_unique_large_tiles() {
        let g = FormationGuard::new(10, 0.02).unwrap();
        // Two 1024s are about to merge: not part of the formation; 2048 and 16384 are.
        let b = board("16384,2048,1024,0/1024,2,0,0/0,0,0,0/0,0,0,2");
        assert_eq!(g.formation(&b), vec![(0, 0, 14), (0, 1, 11)]);
        assert!(
            g.formation(&board("512,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0"))
                .is_empty()
        );
    }

    #[test]
    fn a_keeping_move_is_played_within_the_margin_and_not_beyond_it() {
        // 16384 in the top-left corner, 2048 beside it: up and left keep them, down and right move them.
        let b = board("16384,2048,0,0/4,2,0,0/0,0,0,0/0,0,0,0");
        let formation = FormationGuard::new(11, 0.0).unwrap().formation(&b);
        assert!(FormationGuard::keeps(&b, Direction::Up, &formation));
        assert!(FormationGuard::keeps(&b, Direction::Left, &formation));
        assert!(!FormationGuard::keeps(&b, Direction::Down, &formation));
        assert!(!FormationGuard::keeps(&b, Direction::Right, &formation));
        let values = [
            (Direction::Up, 98.0),
            (Direction::Down, 100.0),
            (Direction::Left, 97.0),
            (Direction::Right, 50.0),
        ];
        let g = |m| FormationGuard::new(11, m).unwrap();
        assert_eq!(g(0.05).choose(&b, &values), Some(Direction::Up));
        assert_eq!(g(0.01).choose(&b, &values), None);
        // When a keeping move is already the best, nothing changes.
        let values = [(Direction::Up, 101.0), (Direction::Down, 100.0)];
        assert_eq!(g(0.05).choose(&b, &values), Some(Direction::Up));
        // No keeping move, no formation, or nothing of value: the search's move.
        assert_eq!(g(0.05).choose(&b, &[(Direction::Down, 1.0)]), None);
        let small = board("8,4,0,0/4,2,0,0/0,0,0,0/0,0,0,0");
        assert_eq!(
            g(0.05).choose(&small, &[(Direction::Up, 1.0), (Direction::Down, 2.0)]),
            None
        );
        assert_eq!(
            g(0.05).choose(&b, &[(Direction::Up, 0.0), (Direction::Down, 0.0)]),
            None
        );
    }

    #[test]
    fn parsing_checks_every_value() {
        assert_eq!(
            "10,0.02".parse(),
            Ok(FormationGuard::new(10, 0.02).unwrap())
        );
        assert_eq!(
            " 9 , 0 ".parse::<FormationGuard>().unwrap().to_string(),
            "9,0"
        );
        for bad in [
            "", "10", "10,0.1,1", "2,0.1", "18,0.1", "10,-0.1", "10,1.5", "a,0.1", "10,x", "10,NaN",
        ] {
            let err = bad.parse::<FormationGuard>().unwrap_err();
            assert!(err.starts_with("formation guard:"), "{bad:?}: {err}");
        }
    }
}
