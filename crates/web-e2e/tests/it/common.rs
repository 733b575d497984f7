//! What every browser test starts with.

use parlor_web_e2e::{Session, site_from_env};

/// A session on the built page opened with `query`, on a fresh store; `None` (the test skips) without
/// `PARLOR_WEB_DIR`.
#[allow(dead_code)] // used by the page tests, added next
pub fn page(test: &str, query: &str) -> Option<Session> {
    let site = site_from_env(test).unwrap()?;
    let session = Session::start(test, &site, query).unwrap();
    session.fresh_start().unwrap();
    Some(session)
}

/// A session on the harness's own fixture page; `None` (the test skips) without `PARLOR_WEB_DIR`, since it needs
/// Chromium as the page tests do.
pub fn fixture(test: &str, query: &str) -> Option<Session> {
    site_from_env(test).unwrap()?;
    Some(Session::start(test, &parlor_web_e2e::fixture_dir(), query).unwrap())
}
