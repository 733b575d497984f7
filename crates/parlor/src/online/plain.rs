//! `parlor online` in plain mode: one line per thing that happens (a challenge, a move, the end, the connection
//! lost and back), the board after every move of the game in front, and commands typed one per line. Standard
//! input is read on a thread of its own, so the server's news is printed as it comes, whatever the player types.

use super::identity::Identity;
use super::link::{self, Down, Up};
use super::model::Model;
use crate::cli::env::Env;
use anyhow::Result;
use parlor_online::protocol::ClientMessage;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Sender, channel};

/// The commands, as `help` prints them.
pub const HELP: &str = "\
commands:
  challenge NAME [RxC]   challenge a player who is online (board 6x5 unless given, e.g. 3x3)
  accept N / decline N   answer challenge N
  c1k, c1 k or c1-c2     play a move in the game in front (when it is your turn)
  resign                 give up the game in front
  games                  the games seen, in play and finished
  game N                 bring game N to the front
  board                  print the board of the game in front
  import [N]             add finished game N (or the one in front) to the local history
  help or ?              this list
  quit or q              leave (games in play wait for you for the server's grace period)";

/// What the loop waits for: a line typed, the end of input, or news from the link.
enum Input {
    Line(String),
    Eof,
    Net(Down),
}

/// Runs plain mode until `quit` or the end of input.
pub fn run(url: &str, me: Identity, env: &Env) -> Result<()> {
    let (tx, rx) = channel::<Input>();
    let net = tx.clone();
    let up = link::start(
        url,
        me.clone(),
        Box::new(move |d| net.send(Input::Net(d)).is_ok()),
    );
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(Input::Line(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(Input::Eof);
    });
    let mut model = Model::new(&me.name);
    let out = &mut std::io::stdout();
    writeln!(
        out,
        "Parlor online: {url} as {} ('help' lists the commands)",
        me.name
    )?;
    out.flush()?;
    let mut session = Plain {
        up: &up,
        env,
        url,
        me: &me,
    };
    while let Ok(input) = rx.recv() {
        let more = match input {
            Input::Line(line) => session.command(&mut model, line.trim(), out)?,
            Input::Eof => false,
            Input::Net(down) => {
                let before = model.current_game().map(|g| (g.id, g.game.ply()));
                for line in model.apply(down) {
                    writeln!(out, "{line}")?;
                }
                let after = model.current_game().map(|g| (g.id, g.game.ply()));
                if after != before {
                    show(&model, out)?;
                }
                model.refused.is_none()
            }
        };
        out.flush()?;
        if !more {
            break;
        }
    }
    let _ = up.send(Up::Quit);
    // A moment for the link to close the connection cleanly.
    std::thread::sleep(std::time::Duration::from_millis(100));
    Ok(())
}

/// The board of the game in front and, when it is the player's turn, the question.
fn show(model: &Model, out: &mut impl Write) -> Result<()> {
    let Some(g) = model.current_game() else {
        return Ok(());
    };
    writeln!(
        out,
        "{}",
        crate::games::nocca::plain::board_text(g.game.position(), g.last_move())
    )?;
    if g.ending.is_some() {
        return Ok(());
    }
    if g.my_turn() {
        let pieces: Vec<String> = crate::games::nocca::movable(g.game.position())
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(
            out,
            "game {}: your move ({}); pieces that can move: {}",
            g.id,
            g.to_move().as_str(),
            pieces.join(" ")
        )?;
    } else {
        writeln!(
            out,
            "game {}: waiting for {} ({})",
            g.id,
            g.name(g.to_move()),
            g.to_move().as_str()
        )?;
    }
    Ok(())
}

struct Plain<'a> {
    up: &'a Sender<Up>,
    env: &'a Env,
    url: &'a str,
    me: &'a Identity,
}

impl Plain<'_> {
    fn send(&self, msg: ClientMessage) {
        let _ = self.up.send(Up::Send(msg));
    }

    /// One typed line; `false` to leave.
    fn command(&mut self, model: &mut Model, line: &str, out: &mut impl Write) -> Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        match words.as_slice() {
            [] => {}
            ["quit" | "q" | "exit"] => return Ok(false),
            ["help" | "?"] => writeln!(out, "{HELP}")?,
            ["challenge", name, rest @ ..] => {
                let board = rest.first().copied().unwrap_or("6x5");
                self.send(ClientMessage::Challenge {
                    opponent: (*name).to_string(),
                    board: board.to_string(),
                });
            }
            ["accept", _] => match number(1) {
                Some(id) if model.incoming.iter().any(|c| c.id == id) => {
                    self.send(ClientMessage::Accept { challenge: id })
                }
                _ => writeln!(out, "no challenge {} to you", words[1])?,
            },
            ["decline", _] => {
                let before = model.incoming.len();
                model.incoming.retain(|c| Some(c.id) != number(1));
                if model.incoming.len() < before {
                    writeln!(out, "challenge {} declined", words[1])?;
                } else {
                    writeln!(out, "no challenge {} to you", words[1])?;
                }
            }
            ["games"] => {
                if model.games.is_empty() {
                    writeln!(out, "no games yet")?;
                }
                for g in model.games.values() {
                    let state = match g.result_text() {
                        Some(r) => format!("over, {r}"),
                        None => format!("in play, move {}", g.game.ply() + 1),
                    };
                    writeln!(out, "game {}: {}; {state}", g.id, g.title())?;
                }
            }
            ["game", _] => match number(1).filter(|id| model.games.contains_key(id)) {
                Some(id) => {
                    model.current = Some(id);
                    show(model, out)?;
                }
                None => writeln!(out, "no game {}", words[1])?,
            },
            ["board"] => {
                if model.current.is_none() {
                    writeln!(out, "no game yet")?;
                }
                show(model, out)?;
            }
            ["resign"] => match model.current_game() {
                Some(g) if g.ending.is_none() && g.side.is_some() => {
                    self.send(ClientMessage::Resign { game: g.id })
                }
                _ => writeln!(out, "no game of yours in play in front")?,
            },
            ["import", rest @ ..] => {
                let id = rest
                    .first()
                    .and_then(|w| w.parse::<u64>().ok())
                    .or(model.current);
                match id {
                    None => writeln!(out, "import which game? (import N)")?,
                    Some(id) => {
                        let line = match model.games.get(&id).filter(|g| g.ending.is_some()) {
                            Some(g) => self.import_seen(g),
                            None => {
                                let mut store = self.env.open_store_noting()?;
                                super::import::fetch_and_import(self.url, self.me, id, &mut store)
                                    .unwrap_or_else(|e| format!("not imported: {e:#}"))
                            }
                        };
                        writeln!(out, "{line}")?;
                    }
                }
            }
            _ => self.play(model, line, out)?,
        }
        Ok(true)
    }

    fn import_seen(&self, g: &super::model::OnlineGame) -> String {
        let imported = self
            .env
            .open_store_noting()
            .and_then(|mut store| super::import::import(g, &self.me.name, &mut store));
        imported.unwrap_or_else(|e| format!("not imported: {e:#}"))
    }

    /// A line that is no command: a move in the game in front.
    fn play(&self, model: &Model, line: &str, out: &mut impl Write) -> Result<()> {
        let Some(g) = model.current_game().filter(|g| g.ending.is_none()) else {
            writeln!(
                out,
                "'{line}' is no command ('help' lists them), and no game is in play"
            )?;
            return Ok(());
        };
        if !g.my_turn() {
            writeln!(
                out,
                "not your turn: {} ({}) is to move",
                g.name(g.to_move()),
                g.to_move().as_str()
            )?;
            return Ok(());
        }
        let text = line
            .split_whitespace()
            .collect::<String>()
            .to_ascii_lowercase();
        let pos = g.game.position();
        match text.parse::<nocca::Move>() {
            Ok(mv) if pos.is_legal(mv) => self.send(ClientMessage::Move {
                game: g.id,
                seq: g.next_seq(),
                mv: mv.to_string(),
            }),
            Ok(mv) => writeln!(out, "refused: {}", crate::games::nocca::refusal(pos, mv))?,
            Err(e) => writeln!(
                out,
                "'{line}' is no command or move ({e}); 'help' lists the commands"
            )?,
        }
        Ok(())
    }
}
