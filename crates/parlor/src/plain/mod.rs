//! Plain mode: one line in, text out, in the spirit of the seed programs. Used with `--plain`, and whenever stdin
//! or stdout is not a terminal (screen readers, scripts, pipes, tests). End of input quits, saving the game.
//!
//! Generic over the game interface: [`play`] is the one play loop, [`setup`] the one set of questions, [`replay`]
//! the one replay; each game adds a small adapter ([`game::PlainGame`]).

pub mod game;
pub mod launch;
pub mod play;
pub mod records;
pub mod replay;
pub mod review;
pub mod settings;
pub mod setup;
pub mod stats;

use crate::mid::find;
use crate::storage::{Storage, Store, format_time};
use anyhow::Result;
use launch::PlainLaunch;
use std::io::{BufRead, Write};

/// How a plain game loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The player quit or the game ended: back to the menu.
    Menu,
    /// Input ran out: leave the program.
    EndOfInput,
}

/// The lines in and the text out of a plain session, and the settings it plays with.
pub struct Io<'a> {
    input: &'a mut dyn BufRead,
    /// Where text goes.
    pub out: &'a mut dyn Write,
    /// The player's settings (new games' defaults, which questions are asked).
    pub settings: crate::settings::Settings,
    /// Where the settings are saved (`None`: changes last for this run only).
    pub config_dir: Option<std::path::PathBuf>,
    /// Every game's context, which the sessions started here play in.
    pub contexts: crate::mid::Contexts,
    /// A line read ahead by a question it did not answer (a game's last question, whose "go on" is any other
    /// line): the next [`Io::ask`] answers with it.
    pending: Option<String>,
}

/// The longest line read; the rest of a longer one is thrown away (so no input can make a line grow without end).
const MAX_LINE: usize = 4096;

impl<'a> Io<'a> {
    /// Plain I/O over any reader and writer.
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write) -> Io<'a> {
        Io {
            input,
            out,
            settings: crate::settings::Settings::default(),
            config_dir: None,
            contexts: crate::mid::Contexts::default(),
            pending: None,
        }
    }

    /// Prints `prompt` and reads one line, trimmed; `None` at end of input. Bytes that are not UTF-8 are read as
    /// U+FFFD, so such a line is refused like any unknown command and reading goes on.
    pub fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        let mut line = Vec::new();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buf[..used.min(room)]);
            self.input.consume(used);
            if done {
                break;
            }
        }
        if line.is_empty() {
            writeln!(self.out)?;
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&line).trim().to_string()))
    }

    /// Hands `line`, read but not answered, to the next question.
    pub fn pass_on(&mut self, line: String) {
        self.pending = Some(line);
    }

    /// Prints a line.
    pub fn say(&mut self, text: impl std::fmt::Display) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }
}

/// The plain menu: every game, every game in progress, best scores, history, replays, help.
pub fn menu(
    io: &mut Io,
    store: &mut Store,
    games: &[&dyn PlainLaunch],
    notice: Option<String>,
) -> Result<()> {
    if let Some(n) = notice {
        io.say(format!("Note: {n}"))?;
    }
    loop {
        let saved = store.unfinished(None).unwrap_or_default();
        io.say("Parlor: classic thinking games")?;
        for (i, g) in games.iter().enumerate() {
            io.say(format!("  {}  {}", i + 1, g.title()))?;
        }
        for (i, u) in saved.iter().enumerate() {
            let progress = find(games, &u.game)
                .map(|g| g.progress(u, &io.contexts).map_err(|e| e.to_string()))
                .unwrap_or_else(|| Err("unknown game".into()))
                .unwrap_or_else(|e| format!("damaged: {e}"));
            io.say(format!(
                "  c{}  continue {} {} · {progress} · saved {}",
                i + 1,
                u.game,
                u.variant,
                format_time(u.updated_at)
            ))?;
        }
        if !saved.is_empty() {
            io.say("  cN  continue game N   dN  discard game N (recorded as given up)")?;
        }
        io.say(
            "  s  best scores   t  statistics   h  history   r N  replay game #N   v N  review game #N   o  settings   \
             ?  help   q  quit",
        )?;
        let Some(choice) = io.ask("choose> ")? else {
            return Ok(());
        };
        let choice = choice.to_ascii_lowercase();
        let mut words = choice.split_whitespace();
        let head = words.next().unwrap_or("");
        if let Ok(n) = head.parse::<usize>()
            && let Some(g) = n.checked_sub(1).and_then(|i| games.get(i))
        {
            if g.play_new(io, store, None)? == Exit::EndOfInput {
                return Ok(());
            }
            continue;
        }
        if let Some(g) = find(games, head) {
            if g.play_new(io, store, None)? == Exit::EndOfInput {
                return Ok(());
            }
            continue;
        }
        match head {
            d if d.starts_with('d') && d.len() > 1 && d[1..].parse::<usize>().is_ok() => {
                let idx = d[1..].parse::<usize>().ok().and_then(|n| n.checked_sub(1));
                match idx.and_then(|i| saved.get(i)) {
                    Some(u) => match find(games, &u.game) {
                        Some(g) => {
                            let question = format!(
                                "Discard {} {}? It is recorded as given up. [y/n]> ",
                                u.game, u.variant
                            );
                            let yes = if io.settings.confirm_discard() {
                                match io.ask(&question)? {
                                    None => return Ok(()),
                                    Some(a) => {
                                        matches!(a.to_ascii_lowercase().as_str(), "y" | "yes")
                                    }
                                }
                            } else {
                                true
                            };
                            if yes {
                                g.discard(io, u, store)?;
                            } else {
                                io.say("Kept.")?;
                            }
                        }
                        None => {
                            io.say(format!("This Parlor cannot discard a game of {}.", u.game))?
                        }
                    },
                    None => io.say("No such game in progress.")?,
                }
            }
            c if c.starts_with('c') && c.len() > 1 => {
                let idx = c[1..].parse::<usize>().ok().and_then(|n| n.checked_sub(1));
                match idx.and_then(|i| saved.get(i)) {
                    Some(u) => match find(games, &u.game) {
                        Some(g) => {
                            if g.play_saved(io, u, store)? == Exit::EndOfInput {
                                return Ok(());
                            }
                        }
                        None => {
                            io.say(format!("This Parlor cannot continue a game of {}.", u.game))?
                        }
                    },
                    None => io.say("No such game in progress.")?,
                }
            }
            "o" | "settings" | "options" => {
                if !settings::run(io)? {
                    return Ok(());
                }
            }
            "s" | "scores" => {
                for g in games {
                    records::scores(store, *g, None, 10, false, io.out)?;
                }
            }
            "t" | "stats" | "statistics" => stats::print(store, games, false, io.out)?,
            "h" | "history" => records::history(store, games, None, 20, false, io.out)?,
            "r" | "replay" => match words
                .next()
                .map(|w| w.trim_start_matches('#').parse::<i64>())
            {
                Some(Ok(id)) => match store.game(id) {
                    Ok(Some(record)) => match find(games, &record.game) {
                        Some(g) => {
                            if let Err(e) = g.print_replay(io, &record, 0) {
                                io.say(format!("Cannot replay game #{id}: {e:#}"))?;
                            }
                        }
                        None => io.say(format!(
                            "This Parlor cannot replay a game of {}.",
                            record.game
                        ))?,
                    },
                    _ => io.say(format!("No game #{id}: h lists the history."))?,
                },
                _ => io.say("replay takes a game's number, e.g. r 12 (h lists the history)")?,
            },
            v if review::WORDS.contains(&v) => match words
                .next()
                .map(|w| w.trim_start_matches('#').parse::<i64>())
            {
                Some(Ok(id)) => review::print(io, games, store, id)?,
                _ => io.say("review takes a game's number, e.g. v 12 (h lists the history)")?,
            },
            "?" | "help" => {
                for p in crate::mid::ABOUT {
                    io.say(p)?;
                }
                for g in games {
                    io.say(format!("== {} ==", g.title()))?;
                    for p in g.rules() {
                        io.say(p)?;
                    }
                }
            }
            "q" | "quit" => return Ok(()),
            other => io.say(format!("'{other}' is not on the menu"))?,
        }
    }
}
