//! Endgame tables (issue 29): exact success probabilities for a *formation*, large tiles fixed in some cells and the
//! rest free, and a *target*, a tile to build in the free cells.
//!
//! - [`formation`]: the formation, the fixed-tile rule, the target test and the goal cell of a chained table (read its
//!   documentation for the rules);
//! - [`layer`]: one layer of positions (same free tiles' sum), sorted keys with an index;
//! - [`solve`]: the solver, forward by layers then backward, in memory or checkpointed layer by layer; a table may be
//!   *chained* to the next stage's, which values the positions where the target is built in the goal cell
//!   ([`Solver::chained`], [`Solver::exits`]);
//! - [`checkpoint`]: the layer files, written atomically and checked when read;
//! - [`table`]: a finished table in memory, looked up by position;
//! - [`naive`]: the reference the solver is checked against;
//! - [`play`]: the table in play, a real board matched under the board's symmetries;
//! - [`distill`]: the positions met most often in play, with their moves and values, in a small perfect hash;
//! - [`fit`]: a small n-tuple network fitted to a table's values (an experiment: measured, not used by the player);
//! - [`stores`]: several distilled stores asked in turn;
//! - [`shipped`]: the distilled stores compiled into the program, which the network player uses;
//! - [`confirm`]: a short search confirming the table's move, the table valuing the leaves it covers.
//!
//! ```
//! use twenty48::endgame::{Formation, Solver};
//!
//! // Twelve fixed tiles, a 2x2 corner free: build a 16 there.
//! let f = Formation::parse("fedc/89ab/76../54..", 16).unwrap();
//! let mut solver = Solver::in_memory(f, 0.1);
//! solver.build(&mut |_| {}).unwrap();
//! let start = solver.start_probability().unwrap();
//! assert!(start.mean > 0.0 && start.mean < 1.0 && start.live_mean >= start.mean);
//! ```

pub mod checkpoint;
pub mod confirm;
pub mod distill;
pub mod fit;
pub mod formation;
pub mod layer;
pub mod naive;
pub mod play;
pub mod shipped;
pub mod solve;
pub mod stores;
pub mod table;

pub use formation::{Formation, FormationError};
pub use play::Advisor;
pub use solve::{LayerReport, Pass, Solver, StartValue};
pub use stores::Stores;
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
