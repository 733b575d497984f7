//! The distilled endgame store that play uses ([`super::distill`]), compiled in beside the network and loaded once on
//! first use.
//!
//! [`COMPILED_IN`] is a store of formation `..../..../..ab/fedc` (six tiles of at least 256 fixed along the bottom
//! row and the right of the row above it, a 256 to build in the ten free cells): the positions of that formation
//! met most often in logged depth-2 games, each with the full table's best move (`crates/twenty48/BENCHMARKS.md`,
//! session 17). The player with the network evaluation ([`crate::ai::Player::with_eval`]) plays the store's move
//! outright on a board it holds and searches otherwise. The store is read on the first call of [`shipped`] and its
//! checksum checked; a damaged store is refused (the player then plays without it, and [`shipped`] says why).

use std::sync::{Arc, OnceLock};

use crate::ai::player::Advice;
use crate::endgame::distill::{Store, StoreError};

/// The name of the compiled-in store's file, under `crates/twenty48/data/`.
pub const COMPILED_IN_FILE: &str = "twenty48-endgame-442-256.p48d";

/// The compiled-in store: the bytes of a [`Store`] file.
#[cfg(feature = "network")]
pub static COMPILED_IN: &[u8] = include_bytes!("../../data/twenty48-endgame-442-256.p48d");
/// Without the `network` feature (the web page's build) no store is compiled in: no bytes.
#[cfg(not(feature = "network"))]
pub static COMPILED_IN: &[u8] = &[];

/// The store's move is played only when its success probability is at least this (below it the formation is as
/// good as lost and the search decides, as `auto --endgame-min` does by default).
pub const MIN_SUCCESS: f32 = 1e-4;

static SHIPPED: OnceLock<Result<Arc<Store>, StoreError>> = OnceLock::new();

/// Reads the compiled-in store, checking its checksum, counts and lengths ([`Store::from_bytes`]).
pub fn compiled_in() -> Result<Store, StoreError> {
    if COMPILED_IN.is_empty() {
        return Err(StoreError::Refused(
            "not compiled into this build (the twenty48 crate's `network` feature is off)",
        ));
    }
    Store::from_bytes(COMPILED_IN)
}

/// The shared compiled-in store, read on the first call; later calls return the same `Arc` (or the same error).
pub fn shipped() -> Result<&'static Arc<Store>, &'static StoreError> {
    SHIPPED.get_or_init(|| compiled_in().map(Arc::new)).as_ref()
}

/// Advice for a [`crate::ai::Player`] ([`crate::ai::Player::set_advice`]): the store's move on a board it holds
/// with a success probability of at least [`MIN_SUCCESS`], else `None` (search).
pub fn advice(store: Arc<Store>) -> Advice {
    Arc::new(move |board| {
        let (dir, p) = store.advise(board)?;
        (p >= MIN_SUCCESS).then_some(dir)
    })
}
