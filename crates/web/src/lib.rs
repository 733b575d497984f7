//! Parlor in the browser: the terminal's menu, games and screens (the `parlor` core, drawn by the same code) on a
//! static web page, through ratzilla's Canvas and WebGL2 backends or the page's own DOM backend (`rowdom`, which
//! writes the rows that changed, each as one piece of HTML built by [`rows`]).
//!
//! The default face is graphical ([`faces`]: HTML and CSS boards, menus and button bars made from the same core
//! models); `?face=terminal` shows the terminal's screens as a character grid.
//!
//! The logic that does not need a browser is plain Rust with native tests: the store kept in local storage
//! ([`store`]), the browser's key names ([`keys`]), swipes and drags ([`swipe`]), what the screen reader hears
//! ([`announce`]), the online client's kept player and server ([`online`]), the worker's answers to think requests ([`think`]), the reviews and puzzles' judgements made in the reviewer worker ([`coach`]) and the engine workloads measured in the page and natively ([`games::bench`]). The page itself (the
//! `wasm32` build only) is in `page`: it owns the app, its backend, the events and the functions the page offers
//! its tests on `window` (the page contract, docs/BROWSER.md).

pub mod announce;
pub mod coach;
pub mod faces;
pub mod games;
pub mod keys;
pub mod online;
pub mod rows;
pub mod store;
pub mod swipe;
pub mod think;

#[cfg(target_arch = "wasm32")]
mod kept;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub mod rowdom;
#[cfg(target_arch = "wasm32")]
pub use page::*;
