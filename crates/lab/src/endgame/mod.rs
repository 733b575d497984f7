//! Endgame tables (issue 29): exact success probabilities for a *formation*, large tiles fixed in some cells and the
//! rest free, and a *target*, a tile to build in the free cells ([`twenty48::endgame::Formation`]).
//!
//! - [`layer`]: one layer of positions (same free tiles' sum), sorted keys with an index;
//! - [`solve`]: the solver, forward by layers then backward, in memory or checkpointed layer by layer; a table may be
//!   *chained* to the next stage's, which values the positions where the target is built in the goal cell
//!   ([`Solver::chained`], [`Solver::exits`]);
//! - [`checkpoint`]: the layer files, written atomically and checked when read;
//! - [`table`]: a finished table in memory, looked up by position;
//! - [`naive`]: the reference the solver is checked against;
//! - [`advisor`]: the table in play, a real board matched under the board's symmetries.
//!
//! A table is shipped distilled: its positions met most often in play, with their moves, in a
//! [`twenty48::endgame::distill::Store`] (`parlor-lab distill`).
//!
//! ```
//! use parlor_lab::endgame::Solver;
//! use twenty48::endgame::Formation;
//!
//! // Twelve fixed tiles, a 2x2 corner free: build a 16 there.
//! let f = Formation::parse("fedc/89ab/76../54..", 16).unwrap();
//! let mut solver = Solver::in_memory(f, 0.1);
//! solver.build(&mut |_| {}).unwrap();
//! let start = solver.start_probability().unwrap();
//! assert!(start.mean > 0.0 && start.mean < 1.0 && start.live_mean >= start.mean);
//! ```

pub mod advisor;
pub mod checkpoint;
pub mod layer;
pub mod naive;
pub mod solve;
pub mod table;

pub use advisor::Advisor;
pub use solve::{LayerReport, Pass, Solver, StartValue};
pub use table::Table;

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum EndgameError {
    /// A checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
    /// A table folder without its formation file, or with one that cannot be read.
    #[error("{0}")]
    BadFolder(String),
    /// A table that cannot be chained to the one given (no goal cell, cells that do not fit, another probability of
    /// a 4, or a next table without a folder for one built on disk).
    #[error("{0}")]
    Chain(String),
    /// A layer the backward pass needs is missing (the forward pass has not run, or its file went away).
    #[error("layer {0} is missing")]
    MissingLayer(u32),
    /// A position's child is in no layer (a bug, or layers of different builds mixed).
    #[error("a child of key {key:x} in layer {sum} is missing")]
    MissingChild {
        /// The layer of the position.
        sum: u32,
        /// The position's key.
        key: u64,
    },
}
