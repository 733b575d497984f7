//! Nocca Nocca (ノッカノッカ): rules, move generation, perft, games, a search engine, and a retrograde solver with
//! perfect play on the smaller boards ([`solve`]). No terminal I/O.
//!
//! The rules are those of Parlor's RULES.md: pieces step one square in eight directions, may ride on stacks of
//! either colour up to three high, covered pieces cannot move, and a piece stepping beyond the opponent's home row
//! wins at once; a player without a legal move loses. See [`square`] for the board orientation and names.
//!
//! ```
//! use nocca::{Dims, Game, GameOptions, Engine, Level, Limits};
//! let mut game = Game::new(Dims::STANDARD, GameOptions::default());
//! let mut engine = Engine::new(Level::Beginner, 7);
//! let res = engine.best_move(&game, Limits::nodes(2_000)).unwrap();
//! game.play(res.mv).unwrap();
//! assert_eq!(game.ply(), 1);
//! ```
#![warn(missing_docs)]

/// This engine's crate name (`parlor --version` lists it with [`VERSION`]).
pub const NAME: &str = env!("CARGO_PKG_NAME");
/// This engine's version, from its manifest.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod bench;
pub mod colour;
pub mod dims;
pub mod engine;
mod eval;
pub mod game;
pub mod matches;
pub mod moves;
pub mod naive;
pub mod opponent;
pub mod perft;
pub mod position;
pub mod search;
pub mod solve;
pub mod square;
mod zobrist;

pub use bench::{BenchReport, bench};
pub use colour::{Colour, ColourParseError};
pub use dims::{Dims, DimsError};
pub use engine::{Engine, Level, LevelParseError, hint};
pub use game::{Game, GameOptions, Outcome, PlayError, Reason, ReplayError};
pub use matches::{MatchReport, play_match, wilson95};
pub use moves::{MAX_MOVES, Move, MoveList, MoveParseError};
pub use opponent::{Opponent, OpponentParseError};
pub use perft::{PerftProgress, divide, perft, perft_stoppable};
pub use position::{IllegalMove, Position, PositionParseError, Stack};
pub use search::{
    EVAL_FEATURES, Limits, SearchConfig, SearchResult, Searcher, eval_features, static_eval,
};
pub use solve::{
    Counts, Origin, PerfectPlayer, ProbeError, Progress, SolveError, SolveOptions, Stage, Table,
    TableError, Value,
};
pub use square::{Dir, DirParseError, Square, SquareParseError};
