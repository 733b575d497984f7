//! The text of `parlor --version`: Parlor's version, the versions of the game engines it was built with, and how it
//! was built (`build.rs` reads the engines' manifests and the build's optimisation level).

/// `parlor --version`, after the program's name: the version, then one line for the engines and one for the build.
pub const LONG: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\nengines: ",
    env!("PARLOR_ENGINES"),
    "\nbuild: ",
    env!("PARLOR_BUILD")
);
