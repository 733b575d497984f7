//! Parlor's front end: the command line, the full-screen interface, the plain mode and the storage behind them.
//! The games themselves live in their own engine crates, free of any terminal code; [`registry`] lists them, and
//! the program's top hands that list to the command line, the screens and the settings.
//!
//! Without the default `terminal` feature the library is the core: the game interface, sessions, records and
//! replays, the settings model and every screen drawn into a ratatui `Frame`, with no crossterm, SQLite, threads,
//! clock or file system in it (it builds for `wasm32-unknown-unknown`). Storage ([`storage::Storage`]),
//! background work ([`host::Runner`]), time ([`host::Clock`]) and fresh randomness ([`host::Entropy`]) reach it
//! through small traits that the terminal implements with SQLite, threads and the system clock.

#![warn(missing_docs)]

#[cfg(feature = "terminal")]
pub mod cli;
pub mod figures;
pub mod games;
pub mod host;
pub mod input;
pub mod mid;
pub mod online;
#[cfg(feature = "terminal")]
pub mod paths;
#[cfg(feature = "terminal")]
pub mod plain;
pub mod registry;
pub mod settings;
pub mod storage;
pub mod tui;

#[cfg(feature = "terminal")]
pub mod terminal_app;

use tui::View;

/// The main menu screen, with an optional notice at the top.
pub fn menu_view(notice: Option<String>) -> Box<dyn View> {
    Box::new(tui::menu::MenuView::new(notice))
}
