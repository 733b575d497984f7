//! The Nocca Nocca screens: the setup, the game (cursor or mouse selection, steps by the seed's direction keys, the
//! computer thinking in a background thread), the end screen and the replay.

pub mod board;
mod game;
mod replay;
mod setup;

pub use game::NoccaView;
pub use replay::NoccaReplay;
pub use setup::NoccaSetup;

use super::{Ctx, View};
use crate::games::nocca::Session;
use crate::storage::{GameRecord, Unfinished};
use anyhow::Result;

/// The screen the menu opens for Nocca Nocca (setup, then play).
pub fn start_view(_ctx: &mut Ctx) -> Result<Box<dyn View>> {
    Ok(Box::new(NoccaSetup::new()))
}

/// The screen that continues a saved game in progress.
pub fn resume_view(saved: &Unfinished, _ctx: &mut Ctx) -> Result<Box<dyn View>> {
    Ok(game_view(Session::resume(saved)?))
}

/// The screen that replays a finished game.
pub fn replay_view(record: &GameRecord) -> Result<Box<dyn View>> {
    Ok(Box::new(NoccaReplay::new(record)?))
}

/// The game screen for a session.
pub fn game_view(session: Session) -> Box<dyn View> {
    Box::new(NoccaView::new(session))
}
