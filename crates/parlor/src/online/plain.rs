//! `parlor online` in plain mode: one line per thing that happens (a challenge, a move, the end, the connection
//! lost and back, an opponent away with the grace period left, and reminders of it), the board after every move of
//! the game in front, and commands typed one per line. Standard input is read on a thread of its own, so the
//! server's news is printed as it comes, whatever the player types.

use super::identity::Identity;
use super::link::{self, Down, Up};
use super::model::Model;
use crate::cli::env::Env;
use anyhow::Result;
use parlor_online::protocol::{Board, ClientMessage, Daily, Side};
use std::io::{BufRead, Write};
use std::sync::mpsc::{Sender, channel};

/// The commands, as `help` prints them.
pub const HELP: &str = "\
commands:
  lobby                        players online with their ratings, open challenges, live games, your queue
  challenge NAME [RxC] [M+S] [rated]
                               challenge a player (board 6x5 unless given, e.g. 3x3; clock e.g. 5+3; untimed
                               and unrated unless given)
  accept N / decline N         answer challenge N; cancel N withdraws yours
  queue [RxC] [M+S] / unqueue  join (or leave) the rated queue, paired by rating
  c1k, c1 k or c1-c2           play a move in the game in front (when it is your turn)
  resign                       give up the game in front
  rematch / decline rematch    offer (or accept) a rematch of the finished game in front, or decline one
  watch N / unwatch [N]        watch a live game (the lobby lists them), or stop
  games [PLAYER]               the games seen here, or a player's last finished games on the server
  game N                       bring game N to the front
  board                        print the board of the game in front
  import [N]                   add finished game N (or the one in front) to the local history
  daily [2048|mastermind]      the daily challenges (2048's seed, Mastermind's guesses so far)
  play 2048                    play today's 2048 here: w a s d (or up down left right) slide, 'undo',
                               'submit' hands the game in to be replayed and ranked by the server, 'stop' drops it
  guess CODE                   a guess at today's Mastermind (e.g. guess RGYU), scored by the server
  leaderboard 2048|mastermind [assisted] [YYYY-MM-DD]
                               a daily leaderboard, ranked by the server's figures
  help or ?                    this list
  quit or q                    leave (games in play wait for you for the server's grace period)";

/// How often the loop looks, when nothing comes, whether a reminder of an opponent away is due.
const COUNTDOWN_TICK: std::time::Duration = std::time::Duration::from_millis(250);

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
    let mut session = Plain { up: &up, t48: None };
    loop {
        let input = match rx.recv_timeout(COUNTDOWN_TICK) {
            Ok(input) => input,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                // An opponent away: the reminders of the grace period left, when due.
                for line in model.countdown(crate::host::clock().monotonic_ms()) {
                    writeln!(out, "{line}")?;
                }
                out.flush()?;
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let more = match input {
            Input::Line(line) => session.command(&mut model, line.trim(), out)?,
            Input::Eof => false,
            Input::Net(down) => {
                let before = model.current_game().map(|g| (g.id, g.game.ply()));
                for line in model.apply(down) {
                    writeln!(out, "{line}")?;
                }
                for record in std::mem::take(&mut model.to_import) {
                    let line = env
                        .open_store_noting()
                        .and_then(|mut store| super::import::import(&record, &me.name, &mut store))
                        .map_or_else(
                            |e| format!("not imported: {e:#}"),
                            |done| format!("{} (parlor replay {})", done.line, done.id),
                        );
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
    if g.clocks.is_some() {
        let now = crate::host::clock().monotonic_ms();
        writeln!(
            out,
            "clocks: {}, {}",
            g.player_text(Side::Black, now),
            g.player_text(Side::White, now)
        )?;
    }
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
    /// Today's 2048 being played here, with its day.
    t48: Option<(String, twenty48::Game)>,
}

impl Plain<'_> {
    fn send(&self, msg: ClientMessage) {
        let _ = self.up.send(Up::Send(msg));
    }

    /// One typed line; `false` to leave.
    fn command(&mut self, model: &mut Model, line: &str, out: &mut impl Write) -> Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        if self.t48.is_some() && self.twenty48(line, out)? {
            return Ok(true);
        }
        match words.as_slice() {
            [] => {}
            ["quit" | "q" | "exit"] => return Ok(false),
            ["help" | "?"] => writeln!(out, "{HELP}")?,
            ["lobby" | "who"] => {
                model.tell_lobby = true;
                self.send(ClientMessage::Lobby { follow: false });
            }
            ["challenge", name, rest @ ..] => match terms(rest) {
                Ok((board, clock, rated)) => self.send(ClientMessage::Challenge {
                    opponent: (*name).to_string(),
                    board,
                    clock,
                    rated,
                }),
                Err(e) => writeln!(out, "{e}")?,
            },
            ["queue", rest @ ..] => match terms(rest) {
                Ok((_, _, true)) => writeln!(out, "the queue is always rated: leave out 'rated'")?,
                Ok((board, clock, false)) => self.send(ClientMessage::Queue { board, clock }),
                Err(e) => writeln!(out, "{e}")?,
            },
            ["unqueue"] => self.send(ClientMessage::Unqueue {}),
            ["rematch"] | ["decline", "rematch"] => match model.current_game() {
                Some(g) if g.ending.is_some() && g.side.is_some() => {
                    let game = g.id;
                    self.send(if words.len() == 1 {
                        ClientMessage::Rematch { game }
                    } else {
                        ClientMessage::DeclineRematch { game }
                    })
                }
                _ => writeln!(out, "no finished game of yours in front")?,
            },
            ["accept" | "decline" | "cancel", _] => match number(1) {
                Some(challenge) => self.send(match words[0] {
                    "accept" => ClientMessage::Accept { challenge },
                    "decline" => ClientMessage::Decline { challenge },
                    _ => ClientMessage::Cancel { challenge },
                }),
                None => writeln!(out, "{} which challenge? ({} N)", words[0], words[0])?,
            },
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
            ["games", player] => self.send(ClientMessage::Games {
                player: (*player).to_string(),
            }),
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
            ["watch", _] => match number(1) {
                Some(game) => self.send(ClientMessage::Watch { game, after: 0 }),
                None => writeln!(out, "watch which game? (watch N; 'lobby' lists them)")?,
            },
            ["unwatch", rest @ ..] => {
                let game = rest.first().and_then(|w| w.parse().ok()).or(model.current);
                match game {
                    Some(game) => self.send(ClientMessage::Unwatch { game }),
                    None => writeln!(out, "unwatch which game?")?,
                }
            }
            ["import", rest @ ..] => {
                match rest
                    .first()
                    .and_then(|w| w.parse::<u64>().ok())
                    .or(model.current)
                {
                    None => writeln!(out, "import which game? (import N)")?,
                    Some(game) => {
                        model.want_import.insert(game);
                        self.send(ClientMessage::Record { game });
                    }
                }
            }
            ["daily"] => {
                self.send(ClientMessage::Daily2048 {});
                self.send(ClientMessage::DailyMastermind {});
            }
            ["daily", "2048"] => self.send(ClientMessage::Daily2048 {}),
            ["play", "2048"] => match &model.daily_2048 {
                Some((day, seed)) => {
                    let game = twenty48::Game::new(twenty48::Rules::default(), *seed);
                    writeln!(
                        out,
                        "2048 of the day {day}: w a s d (or up down left right) slide, 'undo', 'submit' hands \
                         it in, 'stop' drops it"
                    )?;
                    writeln!(
                        out,
                        "{}\nscore 0",
                        crate::games::twenty48::plain::board_text(game.board(), None, &[])
                    )?;
                    self.t48 = Some((day.clone(), game));
                }
                None => writeln!(out, "first 'daily 2048', to know the day's game")?,
            },
            ["daily", "mastermind"] => self.send(ClientMessage::DailyMastermind {}),
            ["guess", code @ ..] if !code.is_empty() => match &model.daily_mastermind {
                Some(d) => self.send(ClientMessage::Guess {
                    day: d.day.clone(),
                    n: d.guesses.len() as u32 + 1,
                    code: code.concat(),
                }),
                None => writeln!(out, "first 'daily mastermind', to know the day's game")?,
            },
            ["leaderboard", which, rest @ ..] => {
                let daily = match *which {
                    "2048" => Daily::Twenty48,
                    "mastermind" => Daily::Mastermind,
                    _ => {
                        writeln!(out, "leaderboard 2048 or leaderboard mastermind")?;
                        return Ok(true);
                    }
                };
                let board = if rest.contains(&"assisted") {
                    Board::Assisted
                } else {
                    Board::Plain
                };
                let day = rest
                    .iter()
                    .find(|w| w.len() == 10 && w.as_bytes()[4] == b'-')
                    .map(|d| (*d).to_string());
                self.send(ClientMessage::Leaderboard { daily, day, board });
            }
            _ => self.play(model, line, out)?,
        }
        Ok(true)
    }

    /// A line while today's 2048 is played here: `true` if it was the game's (a slide, undo, submit, stop).
    fn twenty48(&mut self, line: &str, out: &mut impl Write) -> Result<bool> {
        use twenty48::Direction;
        let Some((day, game)) = self.t48.as_mut() else {
            return Ok(false);
        };
        let dir = match line.trim() {
            "w" | "k" | "up" => Some(Direction::Up),
            "s" | "j" | "down" => Some(Direction::Down),
            "a" | "h" | "left" => Some(Direction::Left),
            "d" | "l" | "right" => Some(Direction::Right),
            _ => None,
        };
        if let Some(dir) = dir {
            match game.slide(dir) {
                Ok(_) => {
                    let board = crate::games::twenty48::plain::board_text(game.board(), None, &[]);
                    writeln!(out, "{board}\nscore {}", game.score())?;
                    if game.status() == twenty48::game::Status::Over {
                        writeln!(out, "no move left: 'submit' hands the game in")?;
                    }
                }
                Err(e) => writeln!(out, "refused: {e}")?,
            }
            return Ok(true);
        }
        match line.trim() {
            "undo" => {
                match game.undo() {
                    Ok(()) => {
                        let board =
                            crate::games::twenty48::plain::board_text(game.board(), None, &[]);
                        writeln!(
                            out,
                            "{board}\nscore {} (undone: the game goes on the assisted board)",
                            game.score()
                        )?;
                    }
                    Err(e) => writeln!(out, "refused: {e}")?,
                }
                Ok(true)
            }
            "submit" => {
                let msg = super::model::submit_2048(day, game);
                writeln!(
                    out,
                    "2048 of {day} handed in with {} points: the server replays it",
                    game.score()
                )?;
                self.send(msg);
                self.t48 = None;
                Ok(true)
            }
            "stop" => {
                writeln!(out, "2048 of the day dropped (nothing handed in)")?;
                self.t48 = None;
                Ok(true)
            }
            _ => Ok(false),
        }
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

pub use super::model::terms_of as terms;
