//! `parlor mastermind ...`: play options and the analysis commands.

use anyhow::{Result, bail};
use clap::Args;

/// `parlor mastermind`: play, or run an analysis command.
#[derive(Debug, Args)]
pub struct MastermindCmd {}

/// Runs `parlor mastermind ...`.
pub fn run(_cmd: &MastermindCmd, _env: &crate::Env) -> Result<()> {
    bail!("Mastermind is not built yet")
}
