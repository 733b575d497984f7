//! A learned evaluation for the 4x4 board: an n-tuple network ([`Network`]) trained by temporal-difference learning
//! on after-states over self-play ([`train()`]), saved and loaded compressed ([`save`], [`load`]); the network play
//! uses is compiled in, in the sparse form of [`sparse`] ([`shipped()`]).
//!
//! The network's value of an after-state estimates the score still to come from it, in points.

pub mod checkpoint;
pub mod coherence;
pub mod downgrade;
pub mod file;
pub mod late;
mod memory;
pub mod network;
pub mod packed;
pub mod rans;
pub mod shipped;
pub mod sparse;
pub mod starts;
pub mod train;

pub use checkpoint::TrainingState;
pub use coherence::Coherence;
pub use downgrade::{DOWNGRADE_FROM, Downgraded, downgrade};
pub use file::{WeightsFileError, load, load_bytes, save, save_compact, save_fixed16};
pub use late::{LateConfig, LateStage, train_late, train_late_game};
pub use network::{
    FEATURES, MAX_STAGES, Network, TUPLES, WEIGHTS, check_stages, feature_indices, symmetries,
    tuple_indices,
};
pub use shipped::{
    COMPILED_IN, COMPILED_IN_FILE, WEIGHTS_ENV, WEIGHTS_FILE, compiled_in, shipped, weights_path,
};
pub use sparse::{
    encode_sparse, encode_sparse_whole, encode_sparse_zlib, is_sparse, load_sparse_bytes,
    load_sparse_static,
};
pub use starts::{POOL_CAPACITY, Starts};
pub use train::{
    GameStats, Progress, RATE_EXPONENTS, START_STRIDE, TrainConfig, game_rng, greedy_move,
    greedy_move_downgraded, spawn_bitboard, td_step, train, train_game, train_with,
};
