//! The network that play uses, loaded once on first use and shared by every player and thread.
//!
//! It is read from the file named by the environment variable [`WEIGHTS_ENV`] when that is set, else from
//! [`WEIGHTS_FILE`] beside the running executable when there is one, else from the copy in the source tree the program
//! was built from (`crates/twenty48/weights/`, committed with the repository, so that `cargo run --release` finds
//! it). The first call loads it (about a second); later calls return the same `Arc` (or the same error) at once.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::file::{WeightsFileError, load};
use super::network::Network;

/// Environment variable naming the weights file.
pub const WEIGHTS_ENV: &str = "PARLOR_2048_WEIGHTS";
/// File name looked for beside the executable.
pub const WEIGHTS_FILE: &str = "twenty48-ntuple.p48";

static SHIPPED: OnceLock<Result<Arc<Network>, WeightsFileError>> = OnceLock::new();

/// The committed copy of the weights, in the source tree this crate was built from.
pub fn source_tree_weights() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("weights")
        .join(WEIGHTS_FILE)
}

/// Where the weights are looked for: `$PARLOR_2048_WEIGHTS` when set (and then only there), else [`WEIGHTS_FILE`]
/// beside the executable when that file exists, else [`source_tree_weights`].
pub fn weights_path() -> PathBuf {
    if let Some(p) = std::env::var_os(WEIGHTS_ENV) {
        return PathBuf::from(p);
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(WEIGHTS_FILE)));
    match beside {
        Some(p) if p.is_file() => p,
        _ => source_tree_weights(),
    }
}

/// The shared network, loaded from [`weights_path`] on the first call.
pub fn shipped() -> Result<&'static Arc<Network>, &'static WeightsFileError> {
    SHIPPED
        .get_or_init(|| load(&weights_path()).map(Arc::new))
        .as_ref()
}
