//! The distilled endgame stores that play uses ([`super::distill`]), compiled in beside the network and loaded once on
//! first use.
//!
//! [`COMPILED_IN`] holds two moves-only stores ([`super::distill::Store::moves_only`]) of the formation
//! `..../..../..ab/fedc`: six large tiles fixed along the bottom row and the right of the row above it, with the ten
//! other cells free. The first builds a 512 there (six tiles of at least 512 fixed: the last steps to 32768 from
//! 16384 8192 4096 2048 1024 512), the second a 256 (six tiles of at least 256). Each holds the positions of its
//! table met most often in logged games, with the full table's best move (`crates/twenty48/BENCHMARKS.md`, sessions
//! 17 and 20). The player with the network evaluation ([`crate::ai::Player::with_eval`]) asks them in that order and
//! plays the first one's move outright on a board it holds; it searches otherwise. The stores are read on the first
//! call of [`shipped`] and their checksums checked; a damaged store is refused (the player then plays without the
//! stores, and [`shipped`] says why).

use std::sync::{Arc, OnceLock};

use crate::ai::Advice;
use crate::endgame::distill::{Store, StoreError};
use crate::endgame::stores::Stores;

/// The compiled-in stores: the bytes of each [`Store`] file (`crates/twenty48/data/`), in the order play asks them.
#[cfg(feature = "network")]
pub static COMPILED_IN: [&[u8]; 2] = [
    include_bytes!("../../data/twenty48-endgame-442-512.p48d"),
    include_bytes!("../../data/twenty48-endgame-442-256.p48d"),
];
/// Without the `network` feature (the web page's build) no store is compiled in: no bytes.
#[cfg(not(feature = "network"))]
pub static COMPILED_IN: [&[u8]; 2] = [&[], &[]];

/// A store's move is played only when its success probability is at least this (below it the formation is as good as
/// lost and the search decides, as `auto --endgame-min` does by default). The compiled-in stores are moves-only stores
/// with this floor: they hold no position below it.
pub const MIN_SUCCESS: f32 = 1e-4;

static SHIPPED: OnceLock<Result<Arc<Stores>, StoreError>> = OnceLock::new();

/// Reads the compiled-in stores, checking each one's checksum, counts and lengths ([`Store::from_bytes`]).
pub fn compiled_in() -> Result<Stores, StoreError> {
    if COMPILED_IN.iter().any(|bytes| bytes.is_empty()) {
        return Err(StoreError::Refused(
            "not compiled into this build (the twenty48 crate's `network` feature is off)",
        ));
    }
    let stores = COMPILED_IN
        .iter()
        .map(|bytes| Store::from_bytes(bytes))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Stores::new(stores))
}

/// The shared compiled-in stores, read on the first call; later calls return the same `Arc` (or the same error).
pub fn shipped() -> Result<&'static Arc<Stores>, &'static StoreError> {
    SHIPPED.get_or_init(|| compiled_in().map(Arc::new)).as_ref()
}

/// Advice for a [`crate::ai::Player`] ([`crate::ai::Player::set_advice`]): the first store's move on a board it holds
/// with a success probability of at least [`MIN_SUCCESS`], else `None` (search).
pub fn advice(stores: Arc<Stores>) -> Advice {
    Arc::new(move |board| stores.advise(board, MIN_SUCCESS).map(|(dir, _)| dir))
}
