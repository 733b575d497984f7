//! The 2048 AI: expectimax with a probability cut-off, a transposition table and table-driven evaluation on the 4x4
//! bitboard, a plain expectimax for other board sizes, self-play and weight tuning. The 4x4 evaluation is either the
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

pub mod autoplay;
pub mod clock;
pub mod cutoff;
pub mod eval;
pub mod evaluate;
pub mod general;
pub mod guard;
pub mod ntuple;
pub mod player;
pub mod search;
pub mod summary;
pub mod tt;
pub mod tune;

pub use autoplay::{GameReport, autoplay, autoplay_player, autoplay_with};
pub use clock::{Clock, StageShare};
pub use cutoff::CutoffShrink;
pub use eval::{Evaluator, TUNED, Weights};
pub use evaluate::Evaluate;
pub use guard::FormationGuard;
pub use player::{
    Advice, BUDGET_SHARE, EvalKind, Player, Policy, SearchConfig, SearchStats, TIMED_CUTOFF,
    TableKind, TableLife, corner_moves, danger_depth, default_weights, keeps_corner,
    largest_tile_corner,
};
pub use search::{DEFAULT_CUTOFF, ProbClasses, naive_expectimax, naive_expectimax_limited};
pub use summary::{MILESTONES, Summary, summarize};
pub use tune::{TuneConfig, TuneResult, TuneStep, tune};
