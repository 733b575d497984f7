//! Mastermind: variants, codes, feedback, codebreaking strategies (Knuth, expected size, entropy, most
//! parts, optimal), the computer as codebreaker ([`Breaker`]) and the player's game ([`Game`]).
//!
//! No terminal input or output: the `parlor` binary does that.
//!
//! - [`Variant`]: presets `seed` (default), `classic`, `super`, `bulls-cows`, or [`Variant::custom`];
//!   colours are numbered from 1 as in the seed (`1 - RED` ... `6 - ORANGE`, then PURPLE, CYAN, MAGENTA,
//!   WHITE) with unique one-letter symbols `R G Y U K O P C M W` (BLUE = `U`, BLACK = `K`); Bulls and
//!   Cows uses the digits 0 to 9.
//! - [`Code`], read by [`Variant::parse_code`] (numbers, names, prefixes or a symbol string) and written
//!   by [`Variant::display`]; numeric order ([`Variant::code_index`]) is the strategies' tie-break order.
//! - [`feedback`] (exact), [`feedback_naive`] (reference), [`PackedCode`] and [`FeedbackTable`] (fast).
//! - [`Strategy`], [`solve_all`] and [`StrategyTree`]: every secret played out and verified by replay.
//! - [`StrategyTree::build_cancellable`] (progress callback, cancellation flag, optimal search on rayon's
//!   pool) and tree files: [`StrategyTree::save`] (checksummed, atomic), [`StrategyTree::load`] and
//!   [`StrategyTree::load_or_build`], so a long optimal build (Bulls and Cows) is done once and later hints
//!   are [`StrategyTree::guess_at`] lookups.
//! - [`lookahead_tree`] and [`anytime_search`]: an anytime strategy for spaces too large for the exact
//!   search (Super Mastermind); [`stored_tree`]: the best tree it found, compiled in compactly
//!   ([`to_compact`], [`from_compact`]) and played by [`Strategy::Best`].
//! - [`Breaker`]: the computer as codebreaker (codemaker role, hints), with contradiction reports.
//! - [`Game`]: the player as codebreaker, secret drawn from a `u64` seed with ChaCha8.
//!
//! ```
//! use mastermind::{feedback, Feedback, Variant};
//! let v = Variant::default(); // the seed program's game
//! let secret = v.parse_secret("1 2 3 4").unwrap();
//! let guess = v.parse_code("green green red blue").unwrap();
//! assert_eq!(feedback(secret, guess), Feedback { black: 2, white: 1 });
//! ```
#![warn(missing_docs)]

/// This engine's crate name (`parlor --version` lists it with [`VERSION`]).
pub const NAME: &str = env!("CARGO_PKG_NAME");
/// This engine's version, from its manifest.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

mod anytime;
mod best;
mod breaker;
mod code;
mod compact;
mod estimate;
mod feedback;
mod game;
mod heuristic;
mod kinds;
mod lanes;
mod optimal;
mod solve;
mod space;
mod strategy;
mod sym;
mod tree;
mod tree_file;
mod variant;

pub use anytime::{anytime_schedules, anytime_search, lookahead_tree};
pub use best::{SUPER_BEST_MAX, SUPER_BEST_TOTAL, stored_tree};
pub use breaker::{
    AnswerError, Breaker, Contradiction, builds_tree_at_once, known_tree, remember_tree,
};
pub use code::{Code, CodeDisplay, CodeError, CodeStyle};
pub use compact::{CompactError, from_compact, to_compact};
pub use estimate::estimated_solve_seconds;
pub use feedback::{Feedback, FeedbackError, FeedbackTable, PackedCode, feedback, feedback_naive};
pub use game::{Game, GuessError, Status, count_consistent, secret_from_seed};
pub use solve::{SolveError, SolveReport, solve_all};
pub use strategy::{Strategy, StrategyParseError};
pub use tree::{StrategyTree, TreeNode};
pub use tree_file::TreeFileError;
pub use variant::{
    COLOUR_NAMES, COLOUR_SYMBOLS, MAX_COLOURS, MAX_PEGS, Palette, Variant, VariantError,
};
