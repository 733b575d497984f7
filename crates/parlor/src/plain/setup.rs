//! The one set of setup questions: a game's settings asked one by one from its setting table, each with its range
//! and its current value as the default (Enter keeps it).

use super::Io;
use crate::mid::game::Game;
use anyhow::Result;

/// What the setup questions ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Setup<P> {
    /// Every question answered: these parameters.
    Ready(P),
    /// `q` (or `back`) at a question: back to the menu, no game started.
    Back,
    /// Input ended.
    EndOfInput,
}

/// Whether an answer asks to go back (`q`, `quit`, `back`).
pub fn is_back(answer: &str) -> bool {
    matches!(answer.to_ascii_lowercase().as_str(), "q" | "quit" | "back")
}

/// Asks every setting that applies; `q` at any question goes back.
pub fn ask<G: Game>(io: &mut Io, mut params: G::Params) -> Result<Setup<G::Params>> {
    io.say("Enter keeps the value in brackets; a choice may be typed by its first letters; q goes back.")?;
    loop {
        for setting in G::settings() {
            if !G::applies(&params, setting.key) {
                continue;
            }
            loop {
                let now = G::get(&params, setting.key);
                let Some(answer) = io.ask(&format!(
                    "{} ({}) [{}]> ",
                    setting.label,
                    setting.range(),
                    setting.show(&now)
                ))?
                else {
                    return Ok(Setup::EndOfInput);
                };
                if answer.is_empty() {
                    break;
                }
                if is_back(&answer) {
                    return Ok(Setup::Back);
                }
                match G::set(&mut params, setting.key, &answer) {
                    Ok(()) => break,
                    Err(e) => io.say(e)?,
                }
            }
        }
        match G::check_in(&params, &io.contexts.of::<G>()) {
            Ok(()) => return Ok(Setup::Ready(params)),
            Err(e) => io.say(format!(
                "These settings do not go together: {e}. Once more:"
            ))?,
        }
    }
}
