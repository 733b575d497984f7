//! Plain mode: one line in, text out, in the spirit of the seed programs. Used with `--plain`, and whenever stdin
//! or stdout is not a terminal (screen readers, scripts, pipes, tests). End of input quits, saving the game.

pub mod mastermind;
pub mod nocca;
pub mod twenty48;

use crate::storage::{Store, format_time};
use anyhow::Result;
use std::io::{BufRead, Write};

/// How a plain game loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The player quit or the game ended: back to the menu.
    Menu,
    /// Input ran out: leave the program.
    EndOfInput,
}

/// The lines in and the text out of a plain session.
pub struct Io<'a> {
    input: &'a mut dyn BufRead,
    /// Where text goes.
    pub out: &'a mut dyn Write,
}

impl<'a> Io<'a> {
    /// Plain I/O over any reader and writer.
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write) -> Io<'a> {
        Io { input, out }
    }

    /// Prints `prompt` and reads one line, trimmed; `None` at end of input.
    pub fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.out)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_string()))
    }

    /// Prints a line.
    pub fn say(&mut self, text: impl std::fmt::Display) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }
}

/// The plain menu.
pub fn menu(io: &mut Io, store: &mut Store, notice: Option<String>) -> Result<()> {
    if let Some(n) = notice {
        io.say(format!("Note: {n}"))?;
    }
    loop {
        let saved = store.unfinished(None).unwrap_or_default();
        io.say("Parlor: classic thinking games")?;
        io.say("  1  2048")?;
        io.say("  2  Mastermind")?;
        io.say("  3  Nocca Nocca")?;
        for (i, u) in saved.iter().take(3).enumerate() {
            io.say(format!(
                "  c{}  continue {} {} · score {} · saved {}",
                i + 1,
                u.game,
                u.variant,
                u.score,
                format_time(u.updated_at)
            ))?;
        }
        io.say("  s  best scores   h  history   ?  help   q  quit")?;
        let Some(choice) = io.ask("choose> ")? else {
            return Ok(());
        };
        match choice.to_ascii_lowercase().as_str() {
            "1" | "2048" => {
                let size = loop {
                    let Some(s) = io.ask("board size, 3 to 8 [4]> ")? else {
                        return Ok(());
                    };
                    match s.parse::<usize>() {
                        _ if s.is_empty() => break 4,
                        Ok(n @ 3..=8) => break n,
                        _ => io.say(format!("'{s}' is not a size from 3 to 8"))?,
                    }
                };
                let options = crate::games::twenty48::Options {
                    size,
                    ..Default::default()
                };
                let session =
                    crate::games::twenty48::Session::new(options, crate::games::fresh_seed())?;
                if twenty48::play(io, session, store)? == Exit::EndOfInput {
                    return Ok(());
                }
            }
            "2" | "mastermind" => {
                if mastermind::menu(io, store)? == Exit::EndOfInput {
                    return Ok(());
                }
            }
            "3" | "nocca" => {
                if nocca::menu(io, store)? == Exit::EndOfInput {
                    return Ok(());
                }
            }
            c if c.starts_with('c') => {
                let idx = c[1..].parse::<usize>().unwrap_or(1).saturating_sub(1);
                match saved.get(idx) {
                    Some(u) => {
                        if resume(io, u, store)? == Exit::EndOfInput {
                            return Ok(());
                        }
                    }
                    None => io.say("No such game in progress.")?,
                }
            }
            "s" => {
                for game in crate::games::ALL {
                    let args = crate::cli::records::ScoresArgs {
                        game: game.to_string(),
                        variant: None,
                        limit: 10,
                        json: false,
                    };
                    crate::cli::records::scores(&args, store, io.out)?;
                }
            }
            "h" => crate::cli::records::history(
                &crate::cli::records::HistoryArgs {
                    game: None,
                    limit: 20,
                    json: false,
                },
                store,
                io.out,
            )?,
            "?" | "help" => {
                for p in crate::rules_text::all() {
                    io.say(p)?;
                }
            }
            "q" | "quit" => return Ok(()),
            other => io.say(format!("'{other}' is not on the menu"))?,
        }
    }
}

/// Continues a saved game in plain mode.
pub fn resume(io: &mut Io, saved: &crate::storage::Unfinished, store: &mut Store) -> Result<Exit> {
    match saved.game.as_str() {
        crate::games::twenty48::GAME => {
            let session = crate::games::twenty48::Session::resume(saved)?;
            twenty48::play(io, session, store)
        }
        crate::games::mastermind::GAME => mastermind::resume(io, saved, store),
        crate::games::nocca::GAME => nocca::resume(io, saved, store),
        other => {
            io.say(format!(
                "This version of Parlor cannot continue a game of {other}."
            ))?;
            Ok(Exit::Menu)
        }
    }
}

/// Prints a finished game move by move.
pub fn replay(io: &mut Io, record: &crate::storage::GameRecord, delay_ms: u64) -> Result<()> {
    match record.game.as_str() {
        crate::games::twenty48::GAME => twenty48::replay(io, record, delay_ms),
        crate::games::mastermind::GAME => mastermind::replay(io, record, delay_ms),
        crate::games::nocca::GAME => nocca::replay(io, record, delay_ms),
        other => anyhow::bail!("this version of Parlor cannot replay a game of {other}"),
    }
}
