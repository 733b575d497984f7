//! Where the settings are kept: the settings screen saves every change through a [`Keeper`].
//!
//! The terminal keeps them in `settings.toml` in the configuration directory (`file::FileKeeper`, under the
//! `terminal` feature); a browser would keep the same text ([`super::file::render`], read back with
//! [`super::file::parse`]) in localStorage.

use super::Settings;

/// Keeps the player's settings between runs.
pub trait Keeper {
    /// Where they are kept, for people (a file's path).
    fn location(&self) -> String;
    /// Saves `settings`: what to tell the player ("saved to PATH"), or why they could not be saved.
    fn save(&self, settings: &Settings) -> Result<String, crate::mid::error::Error>;
}
