//! Nocca Nocca in plain mode, in the seed's spirit: the board printed with every stack from bottom to top, then
//! "which stone?" with the movable pieces and "which direction?" with the legal directions. A whole move on one
//! line (`c1k`, `c1 k`, `c1-c2`) is accepted too; `u` undo, `t` hint, `q` quit (saved), `?` help.

use super::{Exit, Io};
use crate::games::nocca::{
    Mode, Options, RULES, Session, capital, movable, moves_from, square_refusal, target_name,
};
use crate::storage::{GameRecord, Store, Unfinished};
use anyhow::{Result, anyhow};
use nocca::{Colour, Dir, Engine, Game, GameOptions, Level, Move, Position, Square};

/// The board as text, White's home row at the top. Each square shows its pieces bottom to top, padded with `_` as
/// in the seed (`bw_` is a white piece riding on a black one); the last move's target is marked `*`, its origin `.`.
pub fn board_text(pos: &Position, last: Option<Move>) -> String {
    let dims = pos.dims();
    let cols = dims.cols();
    let letters: String = (0..cols)
        .map(|c| format!("  {}   ", (b'a' + c as u8) as char))
        .collect();
    let mut s = String::new();
    s.push_str(&format!(
        "    ==== goal for Black (beyond row {}) ====\n",
        dims.rows()
    ));
    s.push_str(&format!("   {}\n", letters.trim_end()));
    for r in (0..dims.rows()).rev() {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..cols {
            let Some(sq) = Square::new(r, c) else {
                continue;
            };
            let st = pos.stack(sq);
            let mut cell: String = st.iter().map(Colour::letter).collect();
            while cell.len() < 3 {
                cell.push('_');
            }
            let mark = match last {
                Some(m) if m.to() == Some(sq) => '*',
                Some(m) if m.from == sq => '.',
                _ => ' ',
            };
            s.push_str(&format!(" {cell}{mark} "));
        }
        let note = if r == dims.rows() - 1 {
            "  White's home"
        } else if r == 0 {
            "  Black's home"
        } else {
            ""
        };
        s.push_str(&format!("{}{note}", r + 1));
        s.push('\n');
    }
    s.push_str(&format!("   {}\n", letters.trim_end()));
    s.push_str("    ==== goal for White (beyond row 1) ====");
    s
}

/// A move written out: `c1k (c1-c2)` or `c6k (into the goal)`.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let t = target_name(pos, mv);
    if t == "goal" {
        format!("{mv} ({} into the goal)", mv.from)
    } else {
        format!("{mv} ({}-{t})", mv.from)
    }
}

fn show(io: &mut Io, s: &Session) -> Result<()> {
    let pos = s.game.position();
    io.say(board_text(pos, s.game.moves().last().copied()))?;
    let assisted = if s.meta.assisted { "  (assisted)" } else { "" };
    if !s.game.is_over() {
        io.say(format!(
            "{} to move, ply {}.{assisted}",
            capital(pos.side_to_move().name()),
            s.game.ply() + 1
        ))?;
    }
    Ok(())
}

const DIRECTIONS: &str = "Directions: y k u (up-left, up, up-right) / h l (left, right) / b j n (down-left, down, \
                          down-right); up is toward White's home row.";

/// Plays a game in plain mode until it ends, the player quits, or input runs out.
pub fn play(io: &mut Io, mut s: Session, store: &mut Store) -> Result<Exit> {
    io.say(format!(
        "Nocca Nocca: {}. Seed {}.",
        s.options.describe(),
        s.seed
    ))?;
    io.say(DIRECTIONS)?;
    show(io, &s)?;
    let mut engine: Option<Engine> = None;
    loop {
        if let Some(e) = s.storage_error.take() {
            io.say(format!("Warning: {e}"))?;
        }
        if let Some(end) = s.ended.clone() {
            io.say(s.ending_text().unwrap_or_default())?;
            match (s.meta.assisted, end.id, end.rank) {
                (true, Some(id), _) => io.say(format!(
                    "Recorded as game #{id} ({}, assisted: not in the best scores).",
                    end.result
                ))?,
                (false, Some(id), Some(r)) => io.say(format!(
                    "Recorded as game #{id} ({}), rank {r} among {} wins.",
                    end.result,
                    s.options.variant()
                ))?,
                (false, Some(id), None) => {
                    io.say(format!("Recorded as game #{id} ({}).", end.result))?
                }
                _ => {}
            }
            return Ok(Exit::Menu);
        }
        if s.computer_to_move() {
            let e = engine.get_or_insert_with(|| s.engine());
            let Some(r) = e.think(&s.game) else {
                return Err(anyhow!("the computer found no move"));
            };
            let before = *s.game.position();
            let side = before.side_to_move();
            s.play(r.mv, store)
                .map_err(|e| anyhow!("the computer's move {}: {e}", r.mv))?;
            io.say(format!(
                "The computer ({}, {side}) plays {}.",
                s.options.level,
                move_text(&before, r.mv)
            ))?;
            show(io, &s)?;
            continue;
        }
        let pos = *s.game.position();
        let list: Vec<String> = movable(&pos).iter().map(Square::to_string).collect();
        let Some(line) = io.ask(&format!(
            "which stone? [{}] (or a move like c1k; u undo, t hint, q quit, ? help)> ",
            list.join(" ")
        ))?
        else {
            return end_of_input(io, &mut s, store);
        };
        let word = line.to_ascii_lowercase();
        match word.as_str() {
            "" => show(io, &s)?,
            "u" | "undo" => match s.undo(store) {
                0 => io.say("Nothing to undo.")?,
                n => {
                    let plies = if n == 1 { "ply" } else { "plies" };
                    io.say(format!("Took back {n} {plies} (the game is now assisted)."))?;
                    show(io, &s)?;
                }
            },
            "t" | "hint" => match s.hint(store) {
                Some(mv) => io.say(format!(
                    "Hint: {} (the game is now assisted).",
                    move_text(&pos, mv)
                ))?,
                None => io.say("No move is possible.")?,
            },
            "q" | "quit" => {
                s.save(store);
                io.say("Game saved; `parlor` offers it again under Continue.")?;
                return Ok(Exit::Menu);
            }
            "?" | "help" => {
                for p in RULES {
                    io.say(p)?;
                }
                io.say(DIRECTIONS)?;
            }
            _ => {
                if let Ok(sq) = word.parse::<Square>() {
                    if let Some(why) = square_refusal(&pos, sq) {
                        io.say(format!("Refused: {why}."))?;
                        continue;
                    }
                    let moves = moves_from(&pos, sq);
                    let dirs: Vec<String> = moves.iter().map(|m| m.dir.to_string()).collect();
                    let targets: Vec<String> = moves
                        .iter()
                        .map(|&m| format!("{}={}", m.dir, target_name(&pos, m)))
                        .collect();
                    loop {
                        let Some(d) = io.ask(&format!(
                            "which direction? [{}] ({}; empty line: another stone)> ",
                            dirs.join(" "),
                            targets.join(" ")
                        ))?
                        else {
                            return end_of_input(io, &mut s, store);
                        };
                        let d = d.to_ascii_lowercase();
                        if d.is_empty() {
                            break;
                        }
                        let mv = match d.parse::<Dir>() {
                            Ok(dir) => Some(Move::new(sq, dir)),
                            Err(_) => format!("{sq}-{d}").parse::<Move>().ok(),
                        };
                        match mv {
                            Some(mv) if pos.is_legal(mv) => {
                                play_human(io, &mut s, store, mv)?;
                                break;
                            }
                            Some(mv) => io.say(format!("Refused: {}.", refusal(&pos, mv)))?,
                            None => io.say(format!(
                                "Refused: '{d}' is not a direction: one of {}.",
                                dirs.join(" ")
                            ))?,
                        }
                    }
                    continue;
                }
                match word.parse::<Move>() {
                    Ok(mv) if pos.is_legal(mv) => play_human(io, &mut s, store, mv)?,
                    Ok(mv) => io.say(format!("Refused: {}.", refusal(&pos, mv)))?,
                    Err(e) => io.say(format!(
                        "Refused: '{line}' is not a stone or a move ({e}); ? for help."
                    ))?,
                }
            }
        }
    }
}

/// Why a move is illegal, in words.
fn refusal(pos: &Position, mv: Move) -> String {
    if let Some(why) = square_refusal(pos, mv.from) {
        return why;
    }
    match pos.check(mv) {
        Err(e) => e.to_string(),
        Ok(()) => format!("{mv} is not possible now"),
    }
}

fn play_human(io: &mut Io, s: &mut Session, store: &mut Store, mv: Move) -> Result<()> {
    let before = *s.game.position();
    match s.play(mv, store) {
        Ok(_) => {
            io.say(format!(
                "{} plays {}.",
                capital(before.side_to_move().name()),
                move_text(&before, mv)
            ))?;
            show(io, s)
        }
        Err(e) => io.say(format!("Refused: {e}.")),
    }
}

fn end_of_input(io: &mut Io, s: &mut Session, store: &mut Store) -> Result<Exit> {
    s.save(store);
    io.say("Input ended: the game is saved; `parlor` offers it again.")?;
    Ok(Exit::EndOfInput)
}

/// Asks one option with a default; `None` at end of input.
fn ask_choice<T>(
    io: &mut Io,
    prompt: &str,
    default: T,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>> {
    loop {
        let Some(a) = io.ask(prompt)? else {
            return Ok(None);
        };
        if a.is_empty() {
            return Ok(Some(default));
        }
        match parse(&a.to_ascii_lowercase()) {
            Some(v) => return Ok(Some(v)),
            None => io.say(format!("'{a}' is not one of the choices"))?,
        }
    }
}

/// Asks for the options in plain mode (`None` at end of input).
pub fn ask_options(io: &mut Io) -> Result<Option<Options>> {
    let d = Options::default();
    let Some(mode) = ask_choice(
        io,
        "mode: 1 two players, 2 against the computer, 3 watch the computer [2]> ",
        d.mode,
        |a| match a {
            "1" | "two" => Some(Mode::Two),
            "2" | "computer" => Some(Mode::Computer),
            "3" | "watch" => Some(Mode::Watch),
            _ => None,
        },
    )?
    else {
        return Ok(None);
    };
    let mut o = Options { mode, ..d };
    if mode != Mode::Two {
        let Some(level) = ask_choice(
            io,
            "level: 1 beginner, 2 casual, 3 strong, 4 expert [2]> ",
            d.level,
            |a| a.parse::<Level>().ok(),
        )?
        else {
            return Ok(None);
        };
        o.level = level;
    }
    if mode == Mode::Computer {
        let Some(c) = ask_choice(io, "your colour: b or w [b]> ", d.human, |a| {
            a.parse::<Colour>().ok()
        })?
        else {
            return Ok(None);
        };
        o.human = c;
    }
    let Some(first) = ask_choice(io, "who starts: b or w [b]> ", d.first, |a| {
        a.parse::<Colour>().ok()
    })?
    else {
        return Ok(None);
    };
    o.first = first;
    Ok(Some(o))
}

/// Chooses the options and plays, from the plain menu.
pub fn menu(io: &mut Io, store: &mut Store) -> Result<Exit> {
    let Some(options) = ask_options(io)? else {
        return Ok(Exit::EndOfInput);
    };
    play(io, Session::new(options, crate::games::fresh_seed()), store)
}

/// Continues a saved game.
pub fn resume(io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<Exit> {
    let s = Session::resume(saved)?;
    io.say("Continuing your game in progress.")?;
    play(io, s, store)
}

/// Prints a finished game move by move.
pub fn replay(io: &mut Io, record: &GameRecord, delay_ms: u64) -> Result<()> {
    let options: Options = serde_json::from_str(&record.options)?;
    let full = Game::replay(options.start(), GameOptions::default(), &record.moves)
        .map_err(|e| anyhow!("replaying game #{}: {e}", record.id))?;
    io.say(format!(
        "Replay of game #{}: Nocca Nocca {}, {}.",
        record.id,
        record.variant,
        options.describe()
    ))?;
    let positions = full.positions();
    io.say(board_text(&positions[0], None))?;
    for (i, mv) in full.moves().iter().enumerate() {
        let before = &positions[i];
        io.say(format!(
            "{}. {} {}",
            i + 1,
            capital(before.side_to_move().name()),
            move_text(before, *mv)
        ))?;
        io.say(board_text(&positions[i + 1], Some(*mv)))?;
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    let how = full
        .outcome()
        .map_or_else(|| "unfinished".to_string(), |o| o.to_string());
    io.say(format!(
        "End: {} after {} plies ({how}).",
        record.result, record.score
    ))
}
