//! A finished table in memory: every layer's keys and values, looked up by position.

use std::collections::BTreeMap;
use std::path::Path;

use crate::endgame::EndgameError;
use crate::endgame::checkpoint;

use crate::bitboard::{Bitboard, tables};
use crate::direction::Direction;
use crate::endgame::formation::Formation;
use crate::endgame::layer::Layer;
use crate::endgame::solve::{best_value, move_values};

/// Every layer of one formation's table.
pub struct Table {
    formation: Formation,
    four_chance: f64,
    layers: BTreeMap<u32, (Layer, Vec<f32>)>,
}

impl Table {
    /// A table of the given layers (by the free tiles' sum), each one's keys with their values in the same order.
    pub fn new(
        formation: Formation,
        four_chance: f64,
        layers: BTreeMap<u32, (Layer, Vec<f32>)>,
    ) -> Table {
        Table {
            formation,
            four_chance,
            layers,
        }
    }

    /// Every layer of the table in `dir` (built by [`crate::endgame::Solver::on_disk`]), each file checked; the formation
    /// and the probability of a 4 are read from its `formation.txt`.
    pub fn load(dir: &Path) -> Result<Table, EndgameError> {
        let (formation, four_chance) = read_formation(dir)?;
        let fingerprint = formation.fingerprint() ^ four_chance.to_bits();
        let bits = 4 * formation.free_cells().len() as u32;
        let mut layers = BTreeMap::new();
        let entries = std::fs::read_dir(dir)
            .map_err(|e| EndgameError::BadFolder(format!("{}: {e}", dir.display())))?;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(sum) = name
                .strip_prefix("states-")
                .and_then(|s| s.strip_suffix(".bin"))
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let keys = checkpoint::read_states(dir, fingerprint, sum)?
                .ok_or(EndgameError::MissingLayer(sum))?;
            if keys.is_empty() {
                // The empty layers that ended the forward pass have no values.
                continue;
            }
            let values = checkpoint::read_values(dir, fingerprint, sum)?
                .ok_or(EndgameError::MissingLayer(sum))?;
            if keys.len() != values.len() {
                return Err(EndgameError::MissingLayer(sum));
            }
            layers.insert(sum, (Layer::new(keys, bits), values));
        }
        Ok(Table::new(formation, four_chance, layers))
    }

    /// The formation.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.layers.values().map(|(l, _)| l.len()).sum()
    }

    /// True when the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every position with its value, layer by layer.
    pub fn entries(&self) -> impl Iterator<Item = (Bitboard, f32)> + '_ {
        self.layers.values().flat_map(move |(l, v)| {
            l.keys()
                .iter()
                .zip(v)
                .map(move |(&k, &v)| (self.formation.board(k), v))
        })
    }

    /// The probability of a 4 the table was built with.
    pub fn four_chance(&self) -> f64 {
        self.four_chance
    }

    /// The value of a position by its key, if the table holds it.
    pub fn key_value(&self, key: u64) -> Option<f32> {
        let (l, v) = self.layers.get(&self.formation.key_sum(key))?;
        l.position(key).map(|i| v[i])
    }

    /// The success probability of `board` (player to move), if the table holds it.
    pub fn value(&self, board: Bitboard) -> Option<f32> {
        if !self.formation.holds(board) {
            return None;
        }
        self.key_value(self.formation.key(board))
    }

    /// Each allowed move of `board` with its success probability, best first; `None` when the board is not in the
    /// formation or a position it needs is not in the table.
    pub fn moves(&self, board: Bitboard) -> Option<Vec<(Direction, f32)>> {
        if !self.formation.holds(board) {
            return None;
        }
        let look = |k| self.key_value(k);
        let mut moves = move_values(
            &self.formation,
            tables(),
            board,
            self.four_chance,
            look,
            look,
        )?;
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        debug_assert!(moves.is_empty() || best_value(&moves) == moves[0].1);
        Some(moves)
    }
}

/// The name of a table folder's formation file: the formation as [`Formation`] prints it, then the probability of a 4,
/// one a line.
pub const FORMATION_FILE: &str = "formation.txt";

/// Writes a table folder's formation file.
pub fn write_formation(
    dir: &Path,
    formation: &Formation,
    four_chance: f64,
) -> Result<(), EndgameError> {
    let bad = |e: std::io::Error| EndgameError::BadFolder(format!("{}: {e}", dir.display()));
    let tmp = dir.join("formation.tmp");
    std::fs::write(&tmp, format!("{formation}\n{four_chance}\n")).map_err(bad)?;
    std::fs::rename(&tmp, dir.join(FORMATION_FILE)).map_err(bad)
}

/// Reads a table folder's formation file.
pub fn read_formation(dir: &Path) -> Result<(Formation, f64), EndgameError> {
    let path = dir.join(FORMATION_FILE);
    let bad = |why: String| EndgameError::BadFolder(format!("{}: {why}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let (picture, target) = first
        .split_once(' ')
        .ok_or_else(|| bad("no target".into()))?;
    let target: u64 = target
        .trim()
        .parse()
        .map_err(|_| bad("a bad target".into()))?;
    let formation = Formation::parse(picture, target).map_err(|e| bad(e.to_string()))?;
    let four: f64 = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| bad("no probability of a 4".into()))?;
    Ok((formation, four))
}
