//! The games: one folder each, holding everything that serves that game in the app (its [`crate::mid::game::Game`]
//! back end, its full-screen face and board, its plain face, its commands, its colours and what it keeps for a run).
//! Only the registry names them.

pub mod mastermind;
pub mod nocca;
pub mod twenty48;
