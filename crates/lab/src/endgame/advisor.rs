//! A table in play ([`Advisor`]): a real board matched under the board's symmetries
//! ([`twenty48::endgame::symmetry`]), the table's move and success probability, with counters of its use.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use twenty48::Direction;
use twenty48::bitboard::{Bitboard, slide};
use twenty48::endgame::symmetry::{read_in, symmetry};

use crate::endgame::EndgameError;
use crate::endgame::table::Table;

/// For each symmetry `k`, the direction on the real board of each direction on the symmetric board (by
/// [`Direction::index`]): `symmetry(slide(b, maps[k][d]), k) == slide(symmetry(b, k), d)`.
fn direction_maps() -> [[Direction; 4]; 8] {
    // One tile at (1, 2): its four slides end in four different places, so each direction is told apart.
    let probe: Bitboard = 1 << (4 * 6);
    let mut maps = [[Direction::Left; 4]; 8];
    for (k, map) in maps.iter_mut().enumerate() {
        for d in Direction::ALL {
            let want = slide(symmetry(probe, k), d);
            if let Some(real) = Direction::ALL
                .into_iter()
                .find(|&r| symmetry(slide(probe, r), k) == want)
            {
                map[d.index()] = real;
            }
        }
    }
    maps
}

/// A table ready for play, with counters of its use.
pub struct Advisor {
    table: Table,
    maps: [[Direction; 4]; 8],
    /// Boards asked about.
    pub asked: AtomicU64,
    /// Boards the table held.
    pub hits: AtomicU64,
}

impl Advisor {
    /// An advisor for a table.
    pub fn new(table: Table) -> Advisor {
        Advisor {
            table,
            maps: direction_maps(),
            asked: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// An advisor for the table in `dir` ([`Table::load`]).
    pub fn load(dir: &Path) -> Result<Advisor, EndgameError> {
        Ok(Advisor::new(Table::load(dir)?))
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `board` read in the formation under symmetry `k`, when it matches.
    fn matches(&self, board: Bitboard, k: usize) -> Option<Bitboard> {
        match self.read(board, k)? {
            (b, false) => Some(b),
            (_, true) => None,
        }
    }

    fn read(&self, board: Bitboard, k: usize) -> Option<(Bitboard, bool)> {
        read_in(self.table.formation(), board, k)
    }

    /// The formation's key of `board` (player to move) under the first symmetry that matches and that the table holds,
    /// with that symmetry: the position the table would be asked about ([`Advisor::advise`]); counts nothing.
    pub fn key_of(&self, board: Bitboard) -> Option<(u64, usize)> {
        (0..8).find_map(|k| {
            let b = self.matches(board, k)?;
            self.table.value(b)?;
            Some((self.table.formation().key(b), k))
        })
    }

    /// The success probability of an after-state (a move made, the spawn to come) when it matches the formation
    /// under a symmetry: when a free cell holds the target or more, its value as a reached target (1, or for a goal
    /// cell and a chained table see [`crate::endgame::solve::reached_value`]), else the mean over its empty cells of
    /// the table's values after a 2 (probability `1 - four_chance`) or a 4; `None` when it does not match or a spawn's
    /// position is not in the table. Counts nothing.
    pub fn after_value(&self, after: Bitboard) -> Option<f32> {
        (0..8).find_map(|k| {
            let (b, _) = self.read(after, k)?;
            self.table.after_value(b).filter(|v| v.is_finite())
        })
    }

    /// The probability of a 4 the table was built with.
    pub fn four_chance(&self) -> f64 {
        self.table.four_chance()
    }

    /// The table's best move on a real board (capped bitboard) and its success probability, when the board matches
    /// the formation under a symmetry and the table holds it (the first symmetry that does).
    pub fn advise(&self, board: Bitboard) -> Option<(Direction, f32)> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        for k in 0..8 {
            let Some(b) = self.matches(board, k) else {
                continue;
            };
            if self.table.value(b).is_none() {
                continue;
            }
            let moves = self.table.moves(b)?;
            let &(d, v) = moves.first()?;
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some((self.maps[k][d.index()], v));
        }
        None
    }
}
