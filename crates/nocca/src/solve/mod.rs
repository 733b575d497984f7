//! Perfect play on the smaller boards: a retrograde solver, its table files and a perfect player.
//!
//! [`Table::solve`] (or [`Table::load_or_solve`] with a data directory) computes the value — win, loss or draw — and
//! the distance to the end in plies of every position of a board with all pieces on it, side to move included.
//! Draw here means that neither side can force a result in finitely many plies (a game's repetition and ply-cap
//! rules do not enter). Wins have odd distances and losses even ones; a goal move counts as one ply, a position
//! without a legal move is lost in 0.
//!
//! ```
//! use nocca::{Dims, Position, Table, Value};
//! let table = Table::solve(Dims::new(3, 3).unwrap(), &Default::default(), &mut |_| {}).unwrap();
//! let start = Position::start(table.dims());
//! let v = table.value(&start).unwrap();
//! let moves = table.move_values(&start).unwrap();
//! // The best move keeps the position's value (one ply on).
//! assert_eq!(moves.iter().map(|(_, v)| v.score()).max(), Some(v.score()));
//! # let _ = Value::Draw;
//! ```

mod index;
mod perfect;
pub mod reference;
mod retro;
mod table;

pub use perfect::{Origin, PerfectPlayer, ProbeError, Value};
pub use retro::{Progress, SolveError, SolveOptions, Stage, solve};
pub use table::{Counts, Table, TableError};
