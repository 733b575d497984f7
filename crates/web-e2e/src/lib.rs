//! Parlor's browser tests: the built web page (`scripts/web-build.sh` into `target/web/`) served from a small static
//! server of our own on 127.0.0.1, and played in headless Chromium through chromedriver, driven from Rust with
//! fantoccini.
//!
//! The page is reached only through the contract it offers its tests (docs/TESTING.md: `window.parlorReady`,
//! `parlorScreen()`, `parlorCellAt(col, row)`, `parlorExport()` and the rest, `#announce`, keys on `document`). Every
//! step is bounded in time and says what it waited for when it gives up; chromedriver and Chromium are stopped when
//! the [`Session`] is dropped, also when a test panics.
//!
//! Tests that need a browser call [`site_from_env`] first: without `PARLOR_WEB_DIR` they print why and pass, so that
//! `cargo test --workspace` needs nothing but cargo.

pub mod chrome;
pub mod error;
pub mod server;
pub mod session;
pub mod touch;
pub mod turns;

pub use error::{Error, Result};
pub use fantoccini::key::Key;
pub use server::Server;
pub use session::Session;

use std::path::{Path, PathBuf};

/// The environment variable naming the built page's folder (`target/web`); relative paths are taken from the
/// workspace's root, since `cargo test` runs each test in its own crate's folder.
pub const WEB_DIR_VAR: &str = "PARLOR_WEB_DIR";

/// The workspace's root folder (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| manifest.to_path_buf(), Path::to_path_buf)
}

/// The folder of the built page named by `PARLOR_WEB_DIR`, or `None` (after printing why the test is skipped) when
/// it is unset. A folder that is named but holds no `index.html` is an error, not a skip: whoever set the variable
/// meant the tests to run.
pub fn site_from_env(test: &str) -> Result<Option<PathBuf>> {
    let Some(value) = std::env::var_os(WEB_DIR_VAR).filter(|v| !v.is_empty()) else {
        println!(
            "skipped {test}: {WEB_DIR_VAR} is unset (build the page with scripts/web-build.sh, then \
             PARLOR_WEB_DIR=target/web cargo test -p parlor-web-e2e, or run scripts/web-test.sh)"
        );
        return Ok(None);
    };
    let named = PathBuf::from(value);
    let dir = if named.is_absolute() {
        named
    } else {
        workspace_root().join(named)
    };
    if !dir.join("index.html").is_file() {
        return Err(Error::new(format!(
            "{WEB_DIR_VAR} names {}, which has no index.html (build it with scripts/web-build.sh)",
            dir.display()
        )));
    }
    Ok(Some(dir))
}

/// This crate's own fixture page: a small page that offers the same window API with fake content, which the
/// harness's own tests drive.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixture")
}

/// Where screenshots and other pictures of the tests are kept: `target/web-artifacts/` (or under
/// `$CARGO_TARGET_DIR`).
pub fn artifacts_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|v| !v.is_empty())
        .map_or_else(|| workspace_root().join("target"), PathBuf::from);
    let target = if target.is_absolute() {
        target
    } else {
        workspace_root().join(target)
    };
    target.join("web-artifacts")
}
