//! A Nocca Nocca play session, shared by the full-screen and plain front ends.

/// The game's name in the database.
pub const GAME: &str = "nocca";
