//! The registry: every game Parlor plays, in menu order. Adding a game is an engine crate, one folder in `games/`
//! (its `Game`, full-screen, plain and command-line faces) and one line here; see docs/ARCHITECTURE.md,
//! "Adding a fourth game". Only the program's top (`lib.rs`) reads the registry: it hands the games to the command line, the screens
//! and the settings.

#[cfg(feature = "terminal")]
use crate::cli::play::CliLaunch;
use crate::mid::kept::Kept;
use crate::mid::{AnyGame, Entry};
#[cfg(feature = "terminal")]
use crate::plain::launch::PlainLaunch;
use crate::settings::{Catalog, Settings};
use crate::tui::daily::DailyKind;
use crate::tui::launch::Launch;
use crate::tui::room::Played;

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

/// The daily challenges of Parlor online, in the lobby's order.
static DAILIES: &[&dyn DailyKind] = &[
    &crate::games::twenty48::daily::DAILY,
    &crate::games::mastermind::daily::DAILY,
];

/// The games Parlor online plays: the game of its rooms against people (the lobby, challenges, the rated queue,
/// watching), whose moves the server's protocol speaks, and the daily challenges, in the lobby's order.
pub fn online() -> Played {
    Played {
        room: &crate::games::nocca::online::ROOM,
        dailies: DAILIES,
    }
}

/// What the games make slowly and keep when it is made elsewhere (the page's builder worker): their tables and
/// trees.
pub static KEPT: &[&dyn Kept] = &[
    &crate::games::mastermind::kept::KEPT,
    &crate::games::nocca::kept::KEPT,
];

/// The game of a given name.
pub fn find(id: &str) -> Option<&'static dyn Registered> {
    crate::mid::find(GAMES, id)
}

/// The games' names, for messages (`a, b or c`).
pub fn names() -> String {
    catalog().names()
}

/// The games as every list of games sees them.
pub fn any() -> Vec<&'static dyn AnyGame> {
    GAMES.iter().map(|&g| g as &dyn AnyGame).collect()
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

/// The games as the command line sees them.
#[cfg(feature = "terminal")]
pub fn cli() -> Vec<&'static dyn CliLaunch> {
    GAMES.iter().map(|&g| g as &dyn CliLaunch).collect()
}

/// The games as the settings see them.
pub fn catalog() -> Catalog {
    crate::tui::launch::catalog(&tui())
}

/// The default settings of every game.
pub fn settings() -> Settings {
    Settings::new(&catalog())
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(feature = "terminal")]
    fn storage_reads_the_rows_of_exactly_the_registered_games() {
        let ids: Vec<&str> = super::GAMES.iter().map(|g| g.id()).collect();
        let dir = tempfile::tempdir().unwrap();
        let env = crate::terminal_app::Env::new(
            crate::cli::Global {
                data_dir: Some(dir.path().to_path_buf()),
                config_dir: Some(dir.path().to_path_buf()),
                ..Default::default()
            },
            super::tui(),
        );
        let store = env.open_store().unwrap().store;
        assert_eq!(store.known_games().unwrap(), ids);
    }
}
