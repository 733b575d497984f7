//! The network that play uses, loaded once on first use and shared by every player and thread.
//!
//! It is compiled into the program: [`COMPILED_IN`], a sparse file ([`super::sparse`]) of a few megabytes under
//! `crates/twenty48/data/`, checked by its CRC-32 when it is read. A network file can still be chosen instead: the one
//! named by the environment variable [`WEIGHTS_ENV`] when that is set, else `WEIGHTS_FILE` beside the running
//! executable when there is one (any format [`load`] reads). The first call loads it; later calls return the same
//! `Arc` (or the same error) at once.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::file::{WeightsFileError, load};
use super::network::Network;

/// Environment variable naming a weights file to play with instead of the compiled-in network.
pub const WEIGHTS_ENV: &str = "PARLOR_2048_WEIGHTS";
/// File name looked for beside the executable (played with instead of the compiled-in network when it is there).
pub(crate) const WEIGHTS_FILE: &str = "twenty48-ntuple.p48";
/// The name of the compiled-in network's file, under `crates/twenty48/data/`.
pub(crate) const COMPILED_IN_FILE: &str = "twenty48-ntuple.p48s";

/// The compiled-in network: the bytes of a sparse weights file ([`super::encode_sparse`]).
#[cfg(feature = "network")]
pub static COMPILED_IN: &[u8] = include_bytes!("../../../data/twenty48-ntuple.p48s");
/// Without the `network` feature (the web page's build) no network is compiled in: no bytes.
#[cfg(not(feature = "network"))]
pub static COMPILED_IN: &[u8] = &[];

static SHIPPED: OnceLock<Result<Arc<Network>, WeightsFileError>> = OnceLock::new();

/// The file played with instead of the compiled-in network, if any: `$PARLOR_2048_WEIGHTS` when set (then whether
/// or not it exists), else `WEIGHTS_FILE` beside the executable when that file exists.
pub fn weights_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(WEIGHTS_ENV) {
        return Some(PathBuf::from(p));
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(WEIGHTS_FILE)))
        .filter(|p| p.is_file())
}

/// Reads the compiled-in network (checking its CRC-32 and every count).
pub fn compiled_in() -> Result<Network, WeightsFileError> {
    if COMPILED_IN.is_empty() {
        return Err(WeightsFileError::Io {
            path: COMPILED_IN_FILE.into(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not compiled into this build (the twenty48 crate's `network` feature is off)",
            ),
        });
    }
    super::sparse::load_sparse_static(COMPILED_IN, COMPILED_IN_FILE)
}

/// The shared network: from [`weights_path`] when there is one, else [`compiled_in`]; loaded on the first call.
pub fn shipped() -> Result<&'static Arc<Network>, &'static WeightsFileError> {
    SHIPPED
        .get_or_init(|| {
            match weights_path() {
                Some(path) => load(&path),
                None => compiled_in(),
            }
            .map(Arc::new)
        })
        .as_ref()
}
