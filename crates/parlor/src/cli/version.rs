//! The text of `parlor --version`: Parlor's version, the versions of the game engines it was built with (each game
//! names its engine, [`crate::mid::game::Game::ENGINE`]), and how it was built (`build.rs` reads the build's
//! optimisation level).

use crate::mid::AnyGame;

/// `parlor --version`, after the program's name: the version, then one line for the engines of `games` and one for
/// the build.
pub fn long(games: &[&dyn AnyGame]) -> String {
    let engines: Vec<String> = games
        .iter()
        .map(|g| {
            let (name, version) = g.engine();
            format!("{name} {version}")
        })
        .collect();
    format!(
        "{}\nengines: {}\nbuild: {}",
        env!("CARGO_PKG_VERSION"),
        engines.join(", "),
        env!("PARLOR_BUILD")
    )
}
