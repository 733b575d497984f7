//! A learned evaluation for the 4x4 board: an n-tuple network ([`Network`]) trained by temporal-difference learning
//! on after-states over self-play ([`train()`]), saved and loaded compressed ([`save`], [`load`]); the network play
//! uses is compiled in, in the sparse form of `ai/ntuple/sparse.rs` ([`shipped()`]).
//!
//! The network's value of an after-state estimates the score still to come from it, in points.

mod checkpoint;
mod coherence;
mod downgrade;
mod file;
mod memory;
mod network;
mod packed;
mod rans;
mod shipped;
mod sparse;
mod starts;
mod train;

#[cfg(test)]
mod downgrade_tests;
#[cfg(test)]
mod tests;

pub use checkpoint::TrainingState;
pub use coherence::Coherence;
pub use downgrade::{DOWNGRADE_FROM, Downgraded, downgrade};
pub use file::{WeightsFileError, load, load_bytes, save, save_compact, save_fixed16};
pub(crate) use network::MAX_STAGES;
pub use network::{FEATURES, Network, check_stages, feature_indices};
pub use shipped::{COMPILED_IN, WEIGHTS_ENV, compiled_in, shipped, weights_path};
pub use sparse::{encode_sparse, load_sparse_bytes};
pub use starts::{POOL_CAPACITY, Starts};
pub use train::{
    Progress, TrainConfig, game_rng, greedy_move, greedy_move_downgraded, spawn_bitboard, train,
    train_with,
};
