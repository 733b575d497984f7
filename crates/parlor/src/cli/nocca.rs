//! `parlor nocca ...`: play options and the analysis commands.

use anyhow::{Result, bail};
use clap::Args;

/// `parlor nocca`: play, or run an analysis command.
#[derive(Debug, Args)]
pub struct NoccaCmd {}

/// Runs `parlor nocca ...`.
pub fn run(_cmd: &NoccaCmd, _env: &crate::Env) -> Result<()> {
    bail!("Nocca Nocca is not built yet")
}
