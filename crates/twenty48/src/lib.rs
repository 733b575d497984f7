//! The 2048 engine of Parlor: exact boards of any size from 3x3 to 8x8, a table-driven 4x4 bitboard, seeded games with
//! undo and replay, and an expectimax AI ([`ai`]). Pure library: nothing here reads or writes the terminal.
//!
//! The rules are those of `RULES.md` (2048 section).
//!
//! ```
//! use twenty48::{Direction, Game, Rules, Status};
//!
//! let mut game = Game::new(Rules::default(), 7);
//! while game.status() != Status::Over {
//!     // Prefer left, then down, right, up: a simple corner strategy.
//!     let order = [Direction::Left, Direction::Down, Direction::Right, Direction::Up];
//!     let dir = order.into_iter().find(|&d| game.board().can_slide(d)).unwrap();
//!     game.slide(dir).unwrap();
//! }
//! assert!(game.score() > 0);
//! ```

#![warn(missing_docs)]

/// This engine's crate name (`parlor --version` lists it with [`VERSION`]).
pub const NAME: &str = env!("CARGO_PKG_NAME");
/// This engine's version, from its manifest.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

mod action;
pub mod ai;
pub mod bitboard;
pub mod board;
mod direction;
pub mod endgame;
mod error;
pub mod game;
mod notation;
mod rules;
mod spawn;

pub use action::{Action, format_actions, parse_actions};
pub use board::{Board, Slide};
pub use direction::Direction;
pub use error::{
    ActionParseError, BoardParseError, CellError, DirectionParseError, EvalKindError, ReplayError,
    RulesError, SlideError, StagesError, UndoError,
};
pub use game::{Game, Status, Turn};
pub use rules::Rules;
pub use spawn::spawn;
