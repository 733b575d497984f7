//! The 2048 AI: expectimax with a probability cut-off, a transposition table and table-driven evaluation on the 4x4
//! bitboard, a plain expectimax for other board sizes, and self-play. The 4x4 evaluation is either the
//! hand-made row heuristic ([`Evaluator`]) or a learned n-tuple network ([`ntuple`]), chosen with [`EvalKind`].
//!
//! ```
//! use twenty48::ai::{Player, SearchConfig};
//! use twenty48::{Game, Rules, Status};
//!
//! let mut game = Game::new(Rules::default(), 3);
//! let mut player = Player::new(SearchConfig::depth(2));
//! for _ in 0..50 {
//!     let dir = player.best_move(game.board(), 0.1).unwrap();
//!     game.slide(dir).unwrap();
//! }
//! assert_eq!(game.moves_made(), 50);
//! ```

mod autoplay;
mod clock;
mod eval;
mod evaluate;
mod general;
pub mod ntuple;
mod player;
mod search;
mod summary;
mod tt;

pub use autoplay::{GameReport, autoplay, autoplay_player, autoplay_with};
pub use eval::{Evaluator, Weights};
pub use evaluate::Evaluate;
pub use player::{Advice, EvalKind, Player, Policy, SearchConfig, SearchStats, TableLife};
pub use search::{ProbClasses, Search, naive_expectimax};
pub use summary::{Summary, summarize};
pub use tt::BucketTable;
