//! What several tools share, compiled once: how hard the player thinks ([`config`]), the key logs the endgame tables'
//! players write ([`keys`]), and the late-game starts file ([`starts_file`]).

pub mod config;
pub mod keys;
pub mod starts_file;
