//! The Nocca Nocca screens.

use super::{Ctx, View};
use crate::storage::{GameRecord, Unfinished};
use anyhow::{Result, bail};

/// The screen the menu opens for Nocca Nocca (setup, then play).
pub fn start_view(_ctx: &mut Ctx) -> Result<Box<dyn View>> {
    bail!("Nocca Nocca is not built yet")
}

/// The screen that continues a saved game in progress.
pub fn resume_view(_saved: &Unfinished, _ctx: &mut Ctx) -> Result<Box<dyn View>> {
    bail!("Nocca Nocca is not built yet")
}

/// The screen that replays a finished game.
pub fn replay_view(_record: &GameRecord) -> Result<Box<dyn View>> {
    bail!("Nocca Nocca is not built yet")
}
