//! `parlor online` in plain mode: one line per thing that happens (a challenge, a move, the end, the connection
//! lost and back, an opponent away with the grace period left, and reminders of it), the board after every move of
//! the game in front, and commands typed one per line. Standard input is read on a thread of its own, so the
//! server's news is printed as it comes, whatever the player types.

use super::identity::Identity;
use super::link::{self, Down, Up};
use super::model::Model;
use crate::cli::env::Env;
use crate::tui::daily::DailySaid;
use crate::tui::room::{Played, TypedMove};
use anyhow::Result;
use parlor_online::protocol::{Board, ClientMessage, Side};
use std::io::{BufRead, Write};
use std::sync::mpsc::{Sender, channel};

/// The commands, as `help` prints them, for the games `played`.
pub fn help(played: Played) -> String {
    let dailies: Vec<Box<dyn crate::tui::daily::Daily>> =
        played.dailies.iter().map(|d| d.fresh()).collect();
    let words: Vec<&str> = dailies.iter().map(|d| d.word()).collect();
    let mut lines = vec![
        "commands:".to_string(),
        "  lobby                        players online with their ratings, open challenges, live games, your queue"
            .to_string(),
        "  challenge NAME [RxC] [M+S] [rated]".to_string(),
        "                               challenge a player (board 6x5 unless given, e.g. 3x3; clock e.g. 5+3; untimed"
            .to_string(),
        "                               and unrated unless given)".to_string(),
        "  accept N / decline N         answer challenge N; cancel N withdraws yours".to_string(),
        "  queue [RxC] [M+S] / unqueue  join (or leave) the rated queue, paired by rating".to_string(),
        played.room.plain_move_help().to_string(),
        "  resign                       give up the game in front".to_string(),
        "  rematch / decline rematch    offer (or accept) a rematch of the finished game in front, or decline one"
            .to_string(),
        "  watch N / unwatch [N]        watch a live game (the lobby lists them), or stop".to_string(),
        "  games [PLAYER]               the games seen here, or a player's last finished games on the server"
            .to_string(),
        "  game N                       bring game N to the front".to_string(),
        "  board                        print the board of the game in front".to_string(),
        "  import [N]                   add finished game N (or the one in front) to the local history".to_string(),
        format!(
            "  {:<29}today's daily challenges, as the server keeps them for you",
            format!("daily [{}]", words.join("|"))
        ),
    ];
    lines.extend(dailies.iter().map(|d| d.plain_help().to_string()));
    lines.extend([
        format!("  leaderboard {} [assisted] [YYYY-MM-DD]", words.join("|")),
        "                               a daily leaderboard, ranked by the server's figures".to_string(),
        "  past [YYYY-MM-DD]            your daily games of a past day (yesterday if none), its seeds told now"
            .to_string(),
        "  help or ?                    this list".to_string(),
        "  quit or q                    leave (games in play wait for you for the server's grace period)"
            .to_string(),
    ]);
    lines.join("\n")
}

/// How often the loop looks, when nothing comes, whether a reminder of an opponent away is due.
const COUNTDOWN_TICK: std::time::Duration = std::time::Duration::from_millis(250);

/// What the loop waits for: a line typed, the end of input, or news from the link.
enum Input {
    Line(String),
    Eof,
    Net(Down),
}

/// Runs plain mode of the games `played` until `quit` or the end of input.
pub fn run(url: &str, me: Identity, env: &Env, played: Played) -> Result<()> {
    let (tx, rx) = channel::<Input>();
    let net = tx.clone();
    let up = link::start(
        url,
        me.clone(),
        played.dailies.iter().map(|d| d.fresh()).collect(),
        super::identity::keeper(env.config_dir.clone()),
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
    let mut model = Model::new(&me.name, played);
    let out = &mut std::io::stdout();
    writeln!(
        out,
        "Parlor online: {url} as {} ('help' lists the commands)",
        me.name
    )?;
    out.flush()?;
    let mut session = Plain {
        up: &up,
        help: help(played),
    };
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
                        .and_then(|mut store| {
                            super::import::import(model.room, &record, &me.name, &mut store)
                        })
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
                // What a daily challenge has due now (a slide typed ahead, once the last one is answered).
                for d in model.dailies.iter_mut() {
                    for said in d.due() {
                        match said {
                            DailySaid::Say(line) => writeln!(out, "{line}")?,
                            DailySaid::Send(msg) => session.send(msg),
                        }
                    }
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
    writeln!(out, "{}", g.game.plain_board())?;
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
        writeln!(
            out,
            "game {}: your move ({}); pieces that can move: {}",
            g.id,
            g.to_move().as_str(),
            g.game.plain_movable()
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
    /// What `help` prints.
    help: String,
}

impl Plain<'_> {
    fn send(&self, msg: ClientMessage) {
        let _ = self.up.send(Up::Send(msg));
    }

    /// One typed line; `false` to leave.
    fn command(&mut self, model: &mut Model, line: &str, out: &mut impl Write) -> Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        // A daily challenge's command, or a line of the daily game played here.
        for d in model.dailies.iter_mut() {
            if let Some(said) = d.plain(&words) {
                for s in said {
                    match s {
                        DailySaid::Say(line) => writeln!(out, "{line}")?,
                        DailySaid::Send(msg) => self.send(msg),
                    }
                }
                return Ok(true);
            }
        }
        match words.as_slice() {
            [] => {}
            ["quit" | "q" | "exit"] => return Ok(false),
            ["help" | "?"] => writeln!(out, "{}", self.help)?,
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
            // A past day's own games, over: yesterday unless a day is given.
            ["past", rest @ ..] if rest.len() <= 1 => {
                let day = match rest.first() {
                    Some(d) => d.to_string(),
                    None => crate::online::model::yesterday(),
                };
                self.send(ClientMessage::PastDay { day });
            }
            ["daily"] => {
                for d in &model.dailies {
                    self.send(d.ask());
                }
            }
            ["daily", which] => match model.dailies.iter().find(|d| d.word() == *which) {
                Some(d) => self.send(d.ask()),
                None => writeln!(out, "daily {}", daily_words(model))?,
            },
            ["leaderboard", which, rest @ ..] => {
                let Some(daily) = model
                    .dailies
                    .iter()
                    .find(|d| d.word() == *which)
                    .map(|d| d.which())
                else {
                    writeln!(out, "leaderboard {}", daily_words(model))?;
                    return Ok(true);
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
        match g.game.typed_move(line) {
            Ok(mv) => self.send(ClientMessage::Move {
                game: g.id,
                seq: g.next_seq(),
                mv,
            }),
            Err(TypedMove::Refused(why)) => writeln!(out, "refused: {why}")?,
            Err(TypedMove::Unreadable(e)) => writeln!(
                out,
                "'{line}' is no command or move ({e}); 'help' lists the commands"
            )?,
        }
        Ok(())
    }
}

/// The daily challenges' words, as a command's choice writes them (`2048 or mastermind`).
fn daily_words(model: &Model) -> String {
    let words: Vec<&str> = model.dailies.iter().map(|d| d.word()).collect();
    words.join(" or ")
}

pub use super::model::terms_of as terms;
