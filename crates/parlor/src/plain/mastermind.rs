//! Mastermind in plain mode.

use super::{Exit, Io};
use crate::storage::{GameRecord, Store, Unfinished};
use anyhow::Result;

/// Chooses the options and plays, from the plain menu.
pub fn menu(io: &mut Io, _store: &mut Store) -> Result<Exit> {
    io.say("Mastermind is not built yet.")?;
    Ok(Exit::Menu)
}

/// Continues a saved game.
pub fn resume(io: &mut Io, _saved: &Unfinished, _store: &mut Store) -> Result<Exit> {
    io.say("Mastermind is not built yet.")?;
    Ok(Exit::Menu)
}

/// Prints a finished game move by move.
pub fn replay(io: &mut Io, _record: &GameRecord, _delay_ms: u64) -> Result<()> {
    io.say("Mastermind is not built yet.")
}
