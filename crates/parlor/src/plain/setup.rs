//! The one set of setup questions: a game's settings asked one by one from its setting table, each with its range
//! and its current value as the default (Enter keeps it).

use super::Io;
use crate::games::game::Game;
use anyhow::Result;

/// Asks every setting that applies; `None` when input ends.
pub fn ask<G: Game>(io: &mut Io, mut params: G::Params) -> Result<Option<G::Params>> {
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
                    return Ok(None);
                };
                if answer.is_empty() {
                    break;
                }
                match G::set(&mut params, setting.key, &answer) {
                    Ok(()) => break,
                    Err(e) => io.say(e)?,
                }
            }
        }
        match G::check(&params) {
            Ok(()) => return Ok(Some(params)),
            Err(e) => io.say(format!(
                "These settings do not go together: {e}. Once more:"
            ))?,
        }
    }
}
