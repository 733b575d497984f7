//! Reading a solved table: a position's value, every move's value, and perfect play.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::index::Raw;
use super::retro::{self, DECIDED, Progress, SolveError, SolveOptions, UNUSED};
use super::table::{Table, TableError};
use crate::{Colour, Dims, Game, Move, Position};

/// The game-theoretic value of a position for the side to move, with the distance to the end in plies under
/// perfect play (the goal move counts as one ply; the winner hurries, the loser delays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies (even; 0 = no legal move).
    Loss(u32),
    /// Neither side can force a result.
    Draw,
}

impl Value {
    /// The distance in plies, if the position is decided.
    pub fn distance(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value one ply earlier, for the player who made the move leading here.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A score that orders values from the mover's point of view: faster wins first, slower losses before faster
    /// ones (higher is better).
    pub fn score(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }

    /// Win, loss or draw, ignoring the distance.
    pub fn outcome_name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Whether playing into `after` (a move's value) keeps this value's outcome: a win stays a win, a draw stays at
    /// least a draw (a loss cannot get worse).
    pub fn kept_by(self, after: Value) -> bool {
        match self {
            Value::Win(_) => matches!(after, Value::Win(_)),
            Value::Draw => !matches!(after, Value::Loss(_)),
            Value::Loss(_) => true,
        }
    }
}

impl fmt::Display for Value {
    /// `win in 13`, `loss in 12`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// Why a position cannot be looked up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The position is on another board.
    #[error("the position is on a {found} board, the table is for {table}")]
    WrongBoard {
        /// The position's board.
        found: Dims,
        /// The table's board.
        table: Dims,
    },
    /// A side does not have all its pieces (a finished game, or a set-up position).
    #[error("{colour} has {count} pieces on the board, but a game in progress has {expected}")]
    PieceCount {
        /// The colour.
        colour: Colour,
        /// Its pieces on the board.
        count: usize,
        /// Pieces per side.
        expected: usize,
    },
}

/// How a table was obtained by [`Table::load_or_solve`].
#[derive(Debug)]
pub enum Origin {
    /// Read from the file.
    Loaded,
    /// Solved now (and saved); `rejected` says why an existing file was not used.
    Solved {
        /// The error of a damaged or foreign file that was replaced.
        rejected: Option<TableError>,
    },
}

impl Table {
    /// Solves a board (see [`retro::solve`]).
    pub fn solve(
        dims: Dims,
        options: &SolveOptions,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Table, SolveError> {
        retro::solve(dims, options, progress)
    }

    /// Where the table of a board is kept in a data directory: `DIR/nocca-RxC.table`.
    pub fn path_in(dir: &Path, dims: Dims) -> PathBuf {
        dir.join(Table::file_name(dims))
    }

    /// Where an interrupted solve of a board keeps its checkpoint: `DIR/nocca-RxC.checkpoint`.
    pub fn checkpoint_path_in(dir: &Path, dims: Dims) -> PathBuf {
        dir.join(format!("nocca-{dims}.checkpoint"))
    }

    /// The table of a board from `dir`, or, if there is none or it is damaged, a new solve (resuming an interrupted
    /// one; checkpoints at most every 30 s) saved to `dir`. `progress` hears about the solve, not the load.
    pub fn load_or_solve(
        dir: &Path,
        dims: Dims,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(Table, Origin), SolveError> {
        let path = Table::path_in(dir, dims);
        let rejected = if path.exists() {
            match Table::load(&path, dims) {
                Ok(t) => return Ok((t, Origin::Loaded)),
                Err(e) => Some(e),
            }
        } else {
            None
        };
        let options = SolveOptions {
            checkpoint: Some(Table::checkpoint_path_in(dir, dims)),
            checkpoint_every: std::time::Duration::from_secs(30),
            cancel: None,
        };
        let table = retro::solve(dims, &options, progress)?;
        table.save(&path)?;
        Ok((table, Origin::Solved { rejected }))
    }

    fn raw_of(&self, pos: &Position) -> Result<Raw, ProbeError> {
        let dims = self.dims();
        if pos.dims() != dims {
            return Err(ProbeError::WrongBoard {
                found: pos.dims(),
                table: dims,
            });
        }
        for colour in Colour::ALL {
            let count = pos.piece_count(colour);
            if count != dims.cols() {
                return Err(ProbeError::PieceCount {
                    colour,
                    count,
                    expected: dims.cols(),
                });
            }
        }
        let (occ, white) = pos.levels();
        Ok(match pos.side_to_move() {
            Colour::Black => Raw {
                occ: *occ,
                white: *white,
            },
            Colour::White => self.ix.turn_over(*occ, *white),
        })
    }

    /// The value of a position for its side to move.
    ///
    /// ```
    /// use nocca::{Dims, Position, Table, Value};
    /// let t = Table::solve(Dims::new(3, 3).unwrap(), &Default::default(), &mut |_| {}).unwrap();
    /// let v = t.value(&Position::start(t.dims())).unwrap();
    /// assert!(matches!(v, Value::Win(_) | Value::Loss(_) | Value::Draw));
    /// ```
    pub fn value(&self, pos: &Position) -> Result<Value, ProbeError> {
        let raw = self.raw_of(pos)?;
        let i = self.ix.locate(&raw).index as usize;
        Ok(decode(self.data[i]))
    }

    /// Every legal move with the value it leads to for the side to move now (a goal move is a win in 1).
    pub fn move_values(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        self.raw_of(pos)?;
        let mut out = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let v = if pos.is_goal_move(mv) {
                Value::Win(1)
            } else {
                let mut child = *pos;
                child.play_unchecked(mv);
                self.value(&child)?.before()
            };
            out.push((mv, v));
        }
        Ok(out)
    }

    /// The perfect moves: the fastest wins, else the drawing moves, else the slowest losses (in move order; empty
    /// when there is no legal move).
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let values = self.move_values(pos)?;
        let best = values.iter().map(|(_, v)| v.score()).max();
        Ok(values
            .into_iter()
            .filter(|(_, v)| Some(v.score()) == best)
            .map(|(m, _)| m)
            .collect())
    }

    /// The first perfect move (see [`Table::best_moves`]), if any.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, ProbeError> {
        Ok(self.best_moves(pos)?.first().copied())
    }
}

/// A slot byte as a value.
pub(crate) fn decode(code: u8) -> Value {
    match code {
        0 | UNUSED => Value::Draw,
        c if c >= DECIDED => {
            let d = (c - DECIDED) as u32;
            if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            }
        }
        _ => Value::Draw,
    }
}

/// A perfect player: plays a perfect move from the table, chosen at random among equals (seeded). It shares the
/// table (an [`Arc`]), so it can live in the app's state beside other users of the same table.
pub struct PerfectPlayer {
    table: Arc<Table>,
    rng: ChaCha8Rng,
}

impl PerfectPlayer {
    /// A player using `table`, its choices among equal moves drawn from `seed`.
    pub fn new(table: Arc<Table>, seed: u64) -> PerfectPlayer {
        PerfectPlayer {
            table,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The table.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The move for a position (`None` if it has no legal move).
    pub fn choose(&mut self, pos: &Position) -> Result<Option<Move>, ProbeError> {
        let best = self.table.best_moves(pos)?;
        if best.is_empty() {
            return Ok(None);
        }
        let i = (self.rng.next_u64() % best.len() as u64) as usize;
        Ok(Some(best[i]))
    }

    /// The move in a game (`None` once it is over).
    pub fn choose_in(&mut self, game: &Game) -> Result<Option<Move>, ProbeError> {
        if game.is_over() {
            return Ok(None);
        }
        self.choose(game.position())
    }
}
