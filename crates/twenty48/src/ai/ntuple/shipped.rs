//! The network that play uses, loaded once on first use and shared by every player and thread.
//!
//! It is compiled into the program: [`COMPILED_IN`], a sparse file ([`super::sparse`]) of 14.6 MB whose two halves
//! are the data crates `parlor-2048-net-1` and `parlor-2048-net-2` (joined at compile time), checked by its CRC-32
//! when it is read. A network file can still be chosen instead: the one
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
/// The name of the compiled-in network's file (its halves are `crates/twenty48-net-{1,2}/data/`).
pub(crate) const COMPILED_IN_FILE: &str = "twenty48-ntuple.p48s";

/// The compiled-in network: the bytes of a sparse weights file ([`super::encode_sparse`]).
#[cfg(feature = "network")]
pub static COMPILED_IN: &[u8] = &JOINED;

/// The network's file joined at compile time from its two halves, the data crates `parlor-2048-net-1` and
/// `parlor-2048-net-2` (crates.io takes crates of at most 10 MB; the file is 14.6 MB). The joined bytes are the file
/// byte for byte, and [`compiled_in`] checks its CRC-32 as it would the file's.
#[cfg(feature = "network")]
static JOINED: [u8; parlor_2048_net_1::PART.len() + parlor_2048_net_2::PART.len()] =
    join(parlor_2048_net_1::PART, parlor_2048_net_2::PART);

/// `first` then `second` in one array of their total length `N`.
#[cfg(feature = "network")]
const fn join<const N: usize>(first: &[u8], second: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let (head, tail) = out.split_at_mut(first.len());
    head.copy_from_slice(first);
    tail.copy_from_slice(second);
    out
}
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
