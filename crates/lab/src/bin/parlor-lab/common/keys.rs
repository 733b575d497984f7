//! What the distilling tools share: the key logs that `auto --endgame-log FILE` writes.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// The formation keys (8 bytes each, little-endian) of each file of a comma-separated list, at most `limit` from each,
/// one file after the other; stops with the reason when a file cannot be read.
pub fn read_keys(files: &str, limit: usize) -> Vec<u64> {
    let mut keys = Vec::new();
    for f in files.split(',').filter(|f| !f.is_empty()) {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        keys.extend(
            bytes
                .chunks_exact(8)
                .take(limit)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
        );
    }
    keys
}
