//! The Mastermind screens: setup, codebreaker, codemaker and replay, with the board drawing they share.

mod board;
mod breaker;
mod maker;
mod replay;
mod setup;

pub use board::{BoardSpec, board_lines};
pub use breaker::BreakerView;
pub use maker::MakerView;
pub use replay::ReplayView;
pub use setup::SetupView;

use super::{Ctx, View};
use crate::games::mastermind::{self as g, Resumed};
use crate::storage::{GameRecord, Unfinished};
use anyhow::Result;

/// The screen the menu opens for Mastermind (setup, then play).
pub fn start_view(ctx: &mut Ctx) -> Result<Box<dyn View>> {
    Ok(Box::new(SetupView::new(ctx.seed.take())))
}

/// The screen that continues a saved game in progress.
pub fn resume_view(saved: &Unfinished, _ctx: &mut Ctx) -> Result<Box<dyn View>> {
    Ok(game_view(g::resume(saved)?, true))
}

/// The screen that replays a finished game.
pub fn replay_view(record: &GameRecord) -> Result<Box<dyn View>> {
    Ok(Box::new(ReplayView::new(record)?))
}

/// The game screen for a game of either role (`resumed`: continued from the database).
pub fn game_view(game: Resumed, resumed: bool) -> Box<dyn View> {
    match game {
        Resumed::Breaker(s) => Box::new(BreakerView::new(s, resumed)),
        Resumed::Maker(s) => Box::new(MakerView::new(s, resumed)),
    }
}
