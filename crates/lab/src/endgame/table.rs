//! A finished table in memory: every layer's keys and values, looked up by position.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::endgame::EndgameError;
use crate::endgame::checkpoint;

use crate::endgame::layer::Layer;
use crate::endgame::solve::{
    best_value, chain_fingerprint, chance_value, move_values, reached_value,
};
use twenty48::Direction;
use twenty48::bitboard::{Bitboard, tables};
use twenty48::endgame::Formation;

/// How many tables a chain may hold (a folder naming itself, or a loop of folders, is refused).
const MAX_CHAIN: usize = 8;

/// Every layer of one formation's table, and the next stage's table when it is chained.
pub struct Table {
    formation: Formation,
    four_chance: f64,
    layers: BTreeMap<u32, (Layer, Vec<f32>)>,
    next: Option<Arc<Table>>,
    dir: Option<PathBuf>,
    /// The checksum of the positions added to its forward pass besides the starts (0 for none).
    added_sum: u64,
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
            next: None,
            dir: None,
            added_sum: 0,
        }
    }

    /// Records the checksum of the positions added to the table's forward pass ([`crate::endgame::Solver::add_starts`]).
    pub(crate) fn set_added_sum(&mut self, sum: u64) {
        self.added_sum = sum;
    }

    /// This table chained to the next stage's ([`crate::endgame::Solver::chained`]; the caller checks that they fit).
    pub fn with_next(mut self, next: Arc<Table>) -> Table {
        self.next = Some(next);
        self
    }

    /// The next stage's table, when this one is chained.
    pub fn next(&self) -> Option<&Arc<Table>> {
        self.next.as_ref()
    }

    /// The folder the table was read from, if it was.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The fingerprint of the table's values' checkpoints (its formation's and probability of a 4, its added
    /// starts', and the next table's).
    pub fn fingerprint(&self) -> u64 {
        chain_fingerprint(
            states_fingerprint(&self.formation, self.four_chance, self.added_sum),
            self.next.as_deref(),
        )
    }

    /// The success probability of an after-state (a move made, the spawn to come) in this formation: when a free cell
    /// holds the target or more, its value as a reached target ([`reached_value`]); else the mean over its empty cells
    /// of the values after a 2 or a 4. `None` when a position it needs is not in the table.
    pub fn after_value(&self, after: Bitboard) -> Option<f32> {
        let key = self.formation.key(after);
        if self.formation.key_reaches_target(key) {
            return reached_value(&self.formation, self.next.as_deref(), after, key);
        }
        let look = |k| self.key_value(k);
        chance_value(&self.formation, key, self.four_chance, look, look)
    }

    /// Every layer of the table in `dir` (built by [`crate::endgame::Solver::on_disk`]), each file checked; the formation
    /// and the probability of a 4 are read from its `formation.txt`, and so is the folder of the next stage's table
    /// when it is chained (read too, with its own chain: at most eight tables).
    pub fn load(dir: &Path) -> Result<Table, EndgameError> {
        Table::load_chain(dir, MAX_CHAIN)
    }

    fn load_chain(dir: &Path, left: usize) -> Result<Table, EndgameError> {
        let (formation, four_chance, next_dir, added_sum) = read_formation(dir)?;
        let next = match next_dir {
            None => None,
            Some(_) if left <= 1 => {
                return Err(EndgameError::BadFolder(format!(
                    "{}: a chain of more than {MAX_CHAIN} tables (a folder that names itself?)",
                    dir.display()
                )));
            }
            Some(d) => Some(Arc::new(Table::load_chain(&d, left - 1)?)),
        };
        let states_fp = states_fingerprint(&formation, four_chance, added_sum);
        let fingerprint = chain_fingerprint(states_fp, next.as_deref());
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
            let keys = checkpoint::read_states(dir, states_fp, sum)?
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
        let mut table = Table::new(formation, four_chance, layers);
        table.next = next;
        table.dir = Some(dir.to_path_buf());
        table.added_sum = added_sum;
        Ok(table)
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
        let next = self.next.as_deref();
        let reached = |after, key| reached_value(&self.formation, next, after, key).unwrap_or(0.0);
        let mut moves = move_values(
            &self.formation,
            tables(),
            board,
            self.four_chance,
            look,
            look,
            reached,
        )?;
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        debug_assert!(moves.is_empty() || best_value(&moves) == moves[0].1);
        Some(moves)
    }
}

/// The fingerprint of a table's positions' checkpoints: its formation's, the probability of a 4, and the checksum of
/// the positions added to its forward pass (none: 0, the fingerprint of tables built before positions could be added).
pub(crate) fn states_fingerprint(formation: &Formation, four_chance: f64, added_sum: u64) -> u64 {
    formation.fingerprint() ^ four_chance.to_bits() ^ added_sum.rotate_left(29)
}

/// The name of a table folder's formation file: the formation as [`Formation`] prints it, then the probability of a 4,
/// one a line; then, for a chained table, `next ` and the folder of the next stage's table (relative to this folder
/// when it is inside it, as `parlor-lab endgame` builds it), and for a table whose forward pass had positions added,
/// `added ` and their checksum in hexadecimal.
pub const FORMATION_FILE: &str = "formation.txt";

/// Writes a table folder's formation file (with the next stage's folder when the table is chained).
pub fn write_formation(
    dir: &Path,
    formation: &Formation,
    four_chance: f64,
    next: Option<&Path>,
    added_sum: u64,
) -> Result<(), EndgameError> {
    let bad = |e: std::io::Error| EndgameError::BadFolder(format!("{}: {e}", dir.display()));
    let mut text = format!("{formation}\n{four_chance}\n");
    if let Some(n) = next {
        // A next folder inside this one is written relative to it, so that the folder can be moved whole.
        let n = n.strip_prefix(dir).unwrap_or(n);
        let n = n
            .to_str()
            .ok_or_else(|| EndgameError::BadFolder(format!("{}: not a UTF-8 path", n.display())))?;
        text += &format!("next {n}\n");
    }
    if added_sum != 0 {
        text += &format!("added {added_sum:x}\n");
    }
    let tmp = dir.join("formation.tmp");
    std::fs::write(&tmp, text).map_err(bad)?;
    std::fs::rename(&tmp, dir.join(FORMATION_FILE)).map_err(bad)
}

/// Reads a table folder's formation file: the formation, the probability of a 4, the next stage's folder for a chained
/// table, and the checksum of the positions added to its forward pass (0 for none).
pub fn read_formation(dir: &Path) -> Result<(Formation, f64, Option<PathBuf>, u64), EndgameError> {
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
    let (mut next, mut added) = (None, 0u64);
    for l in lines.map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(d) = l.strip_prefix("next ") {
            next = Some(dir.join(d));
        } else if let Some(h) = l.strip_prefix("added ") {
            added = u64::from_str_radix(h, 16)
                .map_err(|_| bad(format!("a bad checksum of added positions: {h:?}")))?;
        } else {
            return Err(bad(format!(
                "a line that is not 'next FOLDER' or 'added HEX': {l:?}"
            )));
        }
    }
    Ok((formation, four, next, added))
}
