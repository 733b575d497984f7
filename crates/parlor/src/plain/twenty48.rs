//! 2048 in plain mode: the board as text after every move; `w a s d` (or `h j k l`, or the words); `u` undo,
//! `r` restart, `n` give up, `q` quit (saved), `?` help.

use super::{Exit, Io};
use crate::games::twenty48::{AUTO_THINK_MS, Event, Session, TIP_MS, parse_direction};
use crate::storage::Store;
use anyhow::Result;
use twenty48::Board;
use twenty48::ai::{Player, SearchConfig};

const PROMPT: &str = "move [w a s d | h j k l | up down left right], u undo, t tip, p [N] autoplay, r restart, \
                      n give up, q quit, ? help> ";

/// The board as text, with `+` after the tile that just appeared and `*` after tiles made by a merge.
pub fn board_text(board: &Board, new: Option<(usize, usize)>, merged: &[(usize, usize)]) -> String {
    let n = board.size();
    let rule = format!("+{}", "-------+".repeat(n));
    let mut s = rule.clone();
    for r in 0..n {
        s.push_str("\n|");
        for c in 0..n {
            let v = board.tile(r, c);
            let mark = if new == Some((r, c)) {
                '+'
            } else if merged.contains(&(r, c)) {
                '*'
            } else {
                ' '
            };
            let cell = if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            };
            s.push_str(&format!("{cell:>6}{mark}|"));
        }
        s.push('\n');
        s.push_str(&rule);
    }
    s
}

fn show(io: &mut Io, s: &Session) -> Result<()> {
    let (new, merged) = match &s.last_turn {
        Some(t) => (Some((t.spawned.0, t.spawned.1)), t.merged.clone()),
        None => (None, Vec::new()),
    };
    io.say(board_text(s.game.board(), new, &merged))?;
    let assisted = if s.meta.assisted { "  (assisted)" } else { "" };
    io.say(format!(
        "Score: {}  Best: {}  Moves: {}{assisted}",
        s.game.score(),
        s.best(),
        s.game.moves_made()
    ))
}

/// Plays a 2048 game in plain mode until it ends, the player quits, or input runs out.
pub fn play(io: &mut Io, mut s: Session, store: &mut Store) -> Result<Exit> {
    s.refresh_best(store);
    io.say(format!(
        "2048 on {0}x{0}, seed {1}. Make {2} to win. Tiles marked + just appeared, * were merged.",
        s.options.size,
        s.game.seed(),
        s.options.target
    ))?;
    show(io, &s)?;
    loop {
        if let Some(e) = s.storage_error.take() {
            io.say(format!("Warning: {e}"))?;
        }
        if let Some(end) = s.ended.clone() {
            let heading = match end.result {
                "won" => format!("You won: {} reached.", s.options.target),
                "gave up" => "You gave up.".to_string(),
                _ => "Game over: no move left.".to_string(),
            };
            io.say(format!(
                "{heading} Final score {}, best tile {}.",
                s.game.score(),
                s.game.board().max_tile()
            ))?;
            match (end.rank, s.meta.assisted, end.id) {
                (_, true, Some(id)) => io.say(format!(
                    "Recorded as game #{id} (assisted: not in the best scores)."
                ))?,
                (Some(r), false, Some(id)) => io.say(format!(
                    "Recorded as game #{id}, rank {r} among {} scores.",
                    s.options.variant()
                ))?,
                _ => {}
            }
            return Ok(Exit::Menu);
        }
        if s.awaiting_decision() {
            let Some(answer) = io.ask(&format!(
                "You made {}! Keep going? [y/n]> ",
                s.options.target
            ))?
            else {
                return Ok(Exit::EndOfInput);
            };
            match answer.to_ascii_lowercase().as_str() {
                "y" | "yes" => {
                    s.keep_going(store);
                    io.say("Keep going!")?;
                }
                "n" | "no" => {
                    s.stop(store);
                }
                other => io.say(format!("'{other}': answer y or n"))?,
            }
            continue;
        }
        let Some(line) = io.ask(PROMPT)? else {
            s.save(store);
            io.say("Input ended: the game is saved; `parlor` offers it again.")?;
            return Ok(Exit::EndOfInput);
        };
        let word = line.to_ascii_lowercase();
        if let Some(d) = parse_direction(&word) {
            match s.slide(d, store) {
                Event::Moved(turn) => {
                    let (r, c, v) = turn.spawned;
                    let gained = if turn.gained > 0 {
                        format!(" +{} points.", turn.gained)
                    } else {
                        String::new()
                    };
                    io.say(format!(
                        "Slid {d}.{gained} New {v} at row {}, column {}.",
                        r + 1,
                        c + 1
                    ))?;
                    show(io, &s)?;
                }
                Event::NoChange(d) => {
                    io.say(format!("Nothing moves {d}: try another direction."))?
                }
                _ => {}
            }
            continue;
        }
        let mut words = word.split_whitespace();
        let head = words.next().unwrap_or("");
        if head == "p" || head == "autoplay" {
            let n = match words.next().map(str::parse::<usize>) {
                None => 50,
                Some(Ok(n)) if n > 0 => n,
                Some(_) => {
                    io.say("autoplay takes a number of moves, e.g. p 100")?;
                    continue;
                }
            };
            autoplay(io, &mut s, store, n)?;
            continue;
        }
        match word.as_str() {
            "t" | "tip" => {
                let mut player = Player::new(SearchConfig::millis(TIP_MS));
                match s.ai_move(&mut player, store) {
                    Some(d) => io.say(format!("Tip: slide {d}. (The game is now assisted.)"))?,
                    None => io.say("No move is possible.")?,
                }
            }
            "u" | "undo" => match s.undo(store) {
                Event::Undone => {
                    io.say("Move taken back (the game is now assisted).")?;
                    show(io, &s)?;
                }
                _ => io.say("Nothing to undo.")?,
            },
            "n" | "give up" | "giveup" => {
                s.stop(store);
            }
            "r" | "restart" => {
                s.stop(store);
                let fresh = Session::new(s.options, crate::games::fresh_seed())?;
                if let Some(end) = &s.ended
                    && let Some(id) = end.id
                {
                    io.say(format!("Game #{id} recorded ({}). New game:", end.result))?;
                }
                s = fresh;
                s.refresh_best(store);
                show(io, &s)?;
            }
            "q" | "quit" => {
                s.save(store);
                io.say("Game saved.")?;
                return Ok(Exit::Menu);
            }
            "?" | "help" => {
                for p in crate::rules_text::TWENTY48 {
                    io.say(p)?;
                }
            }
            "" => show(io, &s)?,
            other => io.say(format!("'{other}' is not a command (? for help)"))?,
        }
    }
}

/// Lets the computer play `n` moves (or until the game ends), one line per move, then shows the board.
fn autoplay(io: &mut Io, s: &mut Session, store: &mut Store, n: usize) -> Result<()> {
    let mut player = Player::new(SearchConfig::millis(AUTO_THINK_MS));
    let mut played = 0;
    while played < n && s.ended.is_none() {
        if s.awaiting_decision() {
            s.keep_going(store);
            io.say("Target reached: autoplay keeps going.")?;
        }
        let Some(d) = s.ai_move(&mut player, store) else {
            break;
        };
        if let Event::Moved(turn) = s.slide(d, store) {
            played += 1;
            io.say(format!(
                "auto {played}: {d}, score {}{}",
                s.game.score(),
                if turn.gained > 0 {
                    format!(" (+{})", turn.gained)
                } else {
                    String::new()
                }
            ))?;
        }
    }
    io.say(format!(
        "Autoplay made {played} moves (the game is assisted)."
    ))?;
    show(io, s)
}

/// Prints a finished game step by step.
pub fn replay(io: &mut Io, record: &crate::storage::GameRecord, delay_ms: u64) -> Result<()> {
    let options: crate::games::twenty48::Options = serde_json::from_str(&record.options)?;
    let actions = twenty48::parse_actions(&record.moves).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut game = twenty48::Game::new(options.rules()?, record.seed);
    io.say(format!(
        "Replay of game #{}: 2048 {}, seed {}",
        record.id, record.variant, record.seed
    ))?;
    io.say(board_text(game.board(), None, &[]))?;
    for (i, a) in actions.iter().enumerate() {
        let (new, merged) = match *a {
            twenty48::Action::Slide(d) => {
                let t = game
                    .slide(d)
                    .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
                (Some((t.spawned.0, t.spawned.1)), t.merged)
            }
            twenty48::Action::Undo => {
                game.undo()
                    .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
                (None, Vec::new())
            }
        };
        io.say(format!("{}. {a}   score {}", i + 1, game.score()))?;
        io.say(board_text(game.board(), new, &merged))?;
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    io.say(format!(
        "End: {} with score {}.",
        record.result, record.score
    ))
}
