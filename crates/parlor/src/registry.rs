//! The registry: every game Parlor plays, in menu order. Adding a game is an engine crate, its adapter files
//! (`games/`, `tui/`, `plain/`, `cli/`) and one line here.

#[cfg(feature = "terminal")]
use crate::cli::play::CliLaunch;
use crate::games::Entry;
#[cfg(feature = "terminal")]
use crate::plain::game::PlainLaunch;
use crate::tui::game::Launch;

/// A game as every part of the program sees it.
#[cfg(feature = "terminal")]
pub trait Registered: Launch + PlainLaunch + CliLaunch {}

#[cfg(feature = "terminal")]
impl<T: Launch + PlainLaunch + CliLaunch> Registered for T {}

/// A game as every part of the core sees it (the terminal adds plain mode and the command line).
#[cfg(not(feature = "terminal"))]
pub trait Registered: Launch {}

#[cfg(not(feature = "terminal"))]
impl<T: Launch> Registered for T {}

/// Every game, in menu order: one line each.
pub static GAMES: &[&dyn Registered] = &[
    &Entry::<crate::games::twenty48::Twenty48>::new(),
    &Entry::<crate::games::mastermind::Mastermind>::new(),
    &Entry::<crate::games::nocca::Nocca>::new(),
];

/// The game of a given name.
pub fn find(id: &str) -> Option<&'static dyn Registered> {
    crate::games::find(GAMES, id)
}

/// The games' names, for messages (`2048, mastermind or nocca`).
pub fn names() -> String {
    let ids: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
    match ids.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The games as the full screen sees them.
pub fn tui() -> Vec<&'static dyn Launch> {
    GAMES.iter().map(|&g| g as &dyn Launch).collect()
}

/// The games as plain mode sees them.
#[cfg(feature = "terminal")]
pub fn plain() -> Vec<&'static dyn PlainLaunch> {
    GAMES.iter().map(|&g| g as &dyn PlainLaunch).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn storage_reads_the_rows_of_exactly_the_registered_games() {
        let ids: Vec<&str> = super::GAMES.iter().map(|g| g.id()).collect();
        assert_eq!(ids, crate::storage::GAME_IDS);
    }
}
