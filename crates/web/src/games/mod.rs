//! Each game's own part of the page, one folder per game (as `parlor::games` in the core): its board on the
//! graphical face (`twenty48/`: sliding tiles; `mastermind/`: pegs and the codemaker; `nocca/`: discs, and the
//! online rooms' game drawn with them), and the faces' registry, [`FACES`] and [`room_board`], that pairs each game
//! of the core's registry with its board. The engines' workloads
//! measured in the page ([`mod@bench`]) are here too. Nothing outside this folder names a game
//! (`crates/parlor/tests/it/one_folder_per_game.rs` walks this crate's sources as it walks the core's).

use crate::faces::{Face, FaceOf};

pub mod bench;
pub mod mastermind;
pub mod nocca;
pub mod twenty48;

#[cfg(test)]
mod coach_tests;
#[cfg(test)]
mod screens_tests;
#[cfg(test)]
mod tests;

/// Every game's face, in the registry's menu order: one line each.
pub static FACES: &[&dyn Face] = &[
    &FaceOf::<parlor::games::twenty48::Twenty48, twenty48::Tiles>::new(),
    &FaceOf::<parlor::games::mastermind::Mastermind, mastermind::Pegs>::new(),
    &FaceOf::<parlor::games::nocca::Nocca, nocca::Discs>::new(),
];

/// The board of the game Parlor online's rooms play ([`parlor::registry::online`]), drawn on the online screen.
pub fn room_board() -> Box<dyn crate::faces::lobby::RoomHtml> {
    Box::new(nocca::room::RoomDiscs::default())
}
