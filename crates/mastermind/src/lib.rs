//! Mastermind: variants, codes, feedback, codebreaking strategies (Knuth, expected size, entropy, most
//! parts, optimal), the computer as codebreaker ([`Breaker`]) and the player's game ([`Game`]).
//!
//! No terminal input or output: the `parlor` binary does that.
//!
//! ```
//! use mastermind::{feedback, Feedback, Variant};
//! let v = Variant::default(); // the seed program's game
//! let secret = v.parse_secret("1 2 3 4").unwrap();
//! let guess = v.parse_code("green green red blue").unwrap();
//! assert_eq!(feedback(secret, guess), Feedback { black: 2, white: 1 });
//! ```
#![warn(missing_docs)]

mod breaker;
mod code;
mod feedback;
mod game;
mod optimal;
mod solve;
mod space;
mod strategy;
mod sym;
mod tree;
mod variant;

pub use breaker::{AnswerError, Breaker, Contradiction};
pub use code::{Code, CodeDisplay, CodeError, CodeStyle};
pub use feedback::{Feedback, FeedbackError, FeedbackTable, PackedCode, feedback, feedback_naive};
pub use game::{Game, GuessError, Status, count_consistent, secret_from_seed};
pub use solve::{SolveError, SolveReport, solve_all};
pub use strategy::{Strategy, StrategyParseError};
pub use tree::{StrategyTree, TreeNode};
pub use variant::{
    COLOUR_NAMES, COLOUR_SYMBOLS, MAX_COLOURS, MAX_PEGS, Palette, Variant, VariantError,
};
