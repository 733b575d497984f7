//! `parlor online` on the full screen.

use super::identity::Identity;
use crate::cli::env::Env;
use anyhow::Result;

/// Runs the full screen until the player quits.
pub fn run(url: &str, me: Identity, env: &Env) -> Result<()> {
    super::plain::run(url, me, env)
}
