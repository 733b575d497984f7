//! A game as plain mode starts it: [`PlainLaunch`] plays it (new or taken up) and prints its replay, for any
//! [`PlainGame`].

use super::game::PlainGame;
use super::{Exit, Io};
use crate::mid::record::Replay;
use crate::mid::session::{ResumeError, Session};
use crate::mid::{AnyGame, Entry};
use crate::storage::{GameRecord, Storage, Store, Unfinished};
use anyhow::Result;

/// Any game, as the plain menu sees it.
pub trait PlainLaunch: AnyGame {
    /// Asks the settings, then plays a new game.
    fn play_new(&self, io: &mut Io, store: &mut Store, seed: Option<u64>) -> Result<Exit>;
    /// Takes up a saved game and plays it; a game played elsewhere or damaged is reported (a damaged one is set
    /// aside) and the menu goes on.
    fn play_saved(&self, io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<Exit>;
    /// Ends a saved game without playing it, recorded as given up (a game played elsewhere is left alone).
    fn discard(&self, io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<()>;
    /// Prints a finished game move by move.
    fn print_replay(&self, io: &mut Io, record: &GameRecord, delay_ms: u64) -> Result<()>;
}

impl<G: PlainGame> PlainLaunch for Entry<G> {
    fn play_new(&self, io: &mut Io, store: &mut Store, seed: Option<u64>) -> Result<Exit> {
        let defaults = crate::mid::params_or_default::<G>(io.settings.game_json(G::ID));
        match super::setup::ask::<G>(io, defaults)? {
            super::setup::Setup::Ready(params) => super::play::start::<G>(io, params, seed, store),
            super::setup::Setup::Back => Ok(Exit::Menu),
            super::setup::Setup::EndOfInput => Ok(Exit::EndOfInput),
        }
    }

    fn discard(&self, io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<()> {
        match Session::<G>::discard_in(saved, store, io.contexts.of::<G>()) {
            Ok(id) => io.say(format!("Discarded: recorded as game #{id}, given up.")),
            Err(ResumeError::Taken) => {
                io.say("That game is being played in another Parlor: it is left as it is.")
            }
            Err(e @ ResumeError::Damaged(_)) => not_taken_up::<G>(io, saved, store, e),
            Err(e) => io.say(format!("The game was not discarded: {e}.")),
        }
    }

    fn play_saved(&self, io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<Exit> {
        match Session::<G>::resume_in(saved, store, io.contexts.of::<G>()) {
            Ok(session) => super::play::play(io, session, store),
            Err(ResumeError::Taken) => {
                io.say("That game is being played in another Parlor: finish it there, or start a new one.")?;
                Ok(Exit::Menu)
            }
            Err(e) => {
                not_taken_up::<G>(io, saved, store, e)?;
                Ok(Exit::Menu)
            }
        }
    }

    fn print_replay(&self, io: &mut Io, record: &GameRecord, delay_ms: u64) -> Result<()> {
        let replay = Replay::<G>::new(record)?;
        super::replay::print(io, replay, delay_ms)
    }
}

/// Says why a saved game was not taken up (finished elsewhere, unreadable, damaged); a damaged one is set aside.
fn not_taken_up<G: PlainGame>(
    io: &mut Io,
    saved: &Unfinished,
    store: &mut Store,
    e: ResumeError,
) -> Result<()> {
    match e {
        ResumeError::Damaged(why) => {
            let kept = store.set_aside(saved, &why).is_ok();
            io.say(format!(
                "The saved {} game is damaged ({why}){}.",
                G::TITLE,
                if kept {
                    "; it was set aside and is kept in the database"
                } else {
                    ""
                }
            ))
        }
        e => io.say(format!("That game cannot be continued: {e}.")),
    }
}
