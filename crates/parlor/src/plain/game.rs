//! Plain mode's side of the game interface: what a game adds to print itself and read typed moves
//! ([`PlainGame`]), and the object-safe [`PlainLaunch`](super::launch::PlainLaunch) the plain menu uses to reach any game.

use crate::mid::game::Game;

/// What a typed line is, as the game reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed<M> {
    /// A whole move.
    Move(M),
    /// The start of a move: ask this question and read the rest ("which direction?").
    Ask(String),
    /// Not a move: the reason.
    Refused(String),
}

/// What a game adds to the interface for plain mode.
pub trait PlainGame: Game {
    /// The board as text (`over`: the game has ended, so a hidden code may be shown).
    fn board_text(
        state: &Self::State,
        params: &Self::Params,
        last: Option<&Self::Move>,
        over: bool,
    ) -> String;
    /// The line printed when a game starts ("GAME on 4x4, seed 7. ...": its parameters, the seed, the goal), in the
    /// game's context (what it will have to make first, say).
    fn intro(context: &Self::Context, params: &Self::Params, seed: u64) -> String;
    /// The prompt for the next move, commands included.
    fn prompt(state: &Self::State, params: &Self::Params) -> String;
    /// Reads a typed line as a move (`partial`: the answer to an earlier [`Parsed::Ask`], else `None`).
    fn read(state: &Self::State, line: &str, partial: Option<&str>) -> Parsed<Self::Move> {
        let text = match partial {
            Some(p) => format!("{p} {line}"),
            None => line.to_string(),
        };
        match Self::parse_move(state, text.trim()) {
            Ok(m) => Parsed::Move(m),
            Err(e) => Parsed::Refused(e.to_string()),
        }
    }
    /// What a move did, in a sentence ("Slid left. +4 points. New 2 at row 1, column 3.").
    fn told(state: &Self::State, mv: &Self::Move) -> String {
        let _ = state;
        format!("Played {mv}.")
    }
}
