//! The one plain play loop: any game, a line at a time. Typed moves go to the game; the commands every game
//! shares are the same words everywhere: `u` undo, `t` hint, `p [N]` autoplay, `x` give up, `r` new game (both
//! ask first), `q` quit (saved), `?` help.

use super::game::{Parsed, PlainGame};
use super::{Exit, Io};
use crate::games::capitalised;
use crate::games::game::{Purpose, Turn};
use crate::games::session::{Seed, Session};
use crate::storage::Store;
use anyhow::Result;
use std::sync::atomic::AtomicBool;

/// The commands every game shares in plain mode, as typed, for these parameters: `t hint` only where the computer
/// gives hints.
fn commands<G: PlainGame>(params: &G::Params) -> &'static str {
    if G::can_think(params) {
        "u undo, t hint, x give up, r new game, q quit, ? help"
    } else {
        "u undo, x give up, r new game, q quit, ? help"
    }
}

/// Starts a new game with `params` and plays it.
pub fn start<G: PlainGame>(
    io: &mut Io,
    params: G::Params,
    seed: Option<u64>,
    store: &mut Store,
) -> Result<Exit> {
    match Session::<G>::new_in(
        params,
        Seed::from_option(seed),
        store,
        io.contexts.of::<G>(),
    ) {
        Ok(session) => play(io, session, store),
        Err(e) => {
            io.say(format!("Cannot start: {e}"))?;
            Ok(Exit::Menu)
        }
    }
}

fn show<G: PlainGame>(io: &mut Io, s: &Session<G>) -> Result<()> {
    io.say(G::board_text(
        s.state(),
        &s.params,
        s.moves().last(),
        s.ended().is_some(),
    ))?;
    let mut line = capitalised(&G::progress(s.state()));
    if let Some(best) = s.best() {
        line.push_str(&format!("  Best: {best}"));
    }
    if s.assisted() {
        line.push_str("  (assisted)");
    }
    if s.seed().chosen {
        line.push_str(&format!("  (seed {}: not ranked)", s.seed().value));
    }
    io.say(line)
}

/// Asks a yes/no question; `None` when input ends.
fn confirm(io: &mut Io, question: &str) -> Result<Option<bool>> {
    loop {
        let Some(a) = io.ask(&format!("{question} [y/n]> "))? else {
            return Ok(None);
        };
        match a.to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(Some(true)),
            // `q` goes back, as at every question: nothing is done.
            "n" | "no" | "q" | "quit" | "back" => return Ok(Some(false)),
            other => io.say(format!("'{other}': answer y or n (q goes back)"))?,
        }
    }
}

/// Asks a yes/no question if `ask` (the settings may turn a question off), else answers yes.
fn ask_if(io: &mut Io, ask: bool, question: &str) -> Result<Option<bool>> {
    if ask {
        confirm(io, question)
    } else {
        Ok(Some(true))
    }
}

fn warn_storage<G: PlainGame>(io: &mut Io, s: &mut Session<G>) -> Result<()> {
    if let Some(e) = s.take_storage_error() {
        io.say(format!("Warning: {e}."))?;
    }
    Ok(())
}

/// The computer's move for `purpose`, thought on a background job (plain mode waits for it).
fn think<G: PlainGame>(
    thinker: &mut Option<G::Thinker>,
    s: &Session<G>,
    purpose: Purpose,
) -> Option<G::Move> {
    let mut t = thinker
        .take()
        .unwrap_or_else(|| G::thinker(&s.params, s.context()));
    let mv = G::think(&mut t, s.state(), purpose, &AtomicBool::new(false));
    *thinker = Some(t);
    mv
}

/// Plays a move and says what it did. Returns whether a milestone was reached.
fn play_move<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    mv: G::Move,
    store: &mut Store,
) -> Result<bool> {
    let played = mv.clone();
    match s.play(mv, store) {
        Ok(applied) => {
            let mut line = G::told(s.state(), &played);
            if let Some(n) = applied.note {
                line.push_str(&format!(" ({n})"));
            }
            io.say(line)?;
            show(io, s)?;
            warn_storage(io, s)?;
            if let Some(m) = applied.milestone {
                io.say(m)?;
                return Ok(true);
            }
            Ok(false)
        }
        Err(e) => {
            io.say(format!("{e}."))?;
            Ok(false)
        }
    }
}

/// The milestone question: keep going, or stop there (the game ends, won); `None` when input ended. `q` does
/// neither: the game goes on, and `q` at the next prompt goes back to the menu with it saved.
fn milestone<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
) -> Result<Option<()>> {
    loop {
        let Some(a) = io.ask("Keep going? [y/n]> ")? else {
            return Ok(None);
        };
        match a.to_ascii_lowercase().as_str() {
            "y" | "yes" => {
                io.say("Keep going!")?;
                return Ok(Some(()));
            }
            "n" | "no" => {
                s.resign(store);
                return Ok(Some(()));
            }
            "q" | "quit" | "back" => {
                io.say("The game goes on; q at the next prompt goes back to the menu (saved).")?;
                return Ok(Some(()));
            }
            other => io.say(format!("'{other}': answer y or n (q goes back)"))?,
        }
    }
}

/// What a step of the loop leaves: go on reading lines, or leave the game with this exit.
type Step = Option<Exit>;

/// Plays a game until it ends, the player quits, or input runs out.
pub fn play<G: PlainGame>(io: &mut Io, mut s: Session<G>, store: &mut Store) -> Result<Exit> {
    let mut thinker: Option<G::Thinker> = None;
    io.say(G::intro(s.context(), &s.params, s.seed().value))?;
    if s.started() {
        io.say("Continuing your game in progress (r starts a new one).")?;
    }
    show(io, &s)?;
    // A problem known before any move (the game could not be claimed) is said now, not after the first move.
    warn_storage(io, &mut s)?;
    let mut partial: Option<String> = None;
    loop {
        if s.ended().is_some() {
            say_end(io, &s)?;
            return Ok(Exit::Menu);
        }
        let step = if s.turn() == Some(Turn::Computer) {
            computer_turn(io, &mut s, store, &mut thinker)?
        } else {
            let prompt = match &partial {
                Some(_) => "> ".to_string(),
                None => format!(
                    "{}, {}> ",
                    G::prompt(s.state(), &s.params),
                    commands::<G>(&s.params)
                ),
            };
            let Some(line) = io.ask(&prompt)? else {
                return end_of_input(io, &mut s, store);
            };
            match partial.take() {
                Some(p) => rest_of_move(io, &mut s, store, &mut partial, &p, &line)?,
                None => player_line(io, &mut s, store, &mut thinker, &mut partial, &line)?,
            }
        };
        if let Some(exit) = step {
            return Ok(exit);
        }
    }
}

/// Says how the game ended, its score, and whether and how it was recorded.
fn say_end<G: PlainGame>(io: &mut Io, s: &Session<G>) -> Result<()> {
    let Some(end) = s.ended() else {
        return Ok(());
    };
    io.say(format!(
        "{}. {} {}.",
        end.text,
        capitalised(G::score_name()),
        s.score()
    ))?;
    match (end.id, end.rank, &end.unranked) {
        (None, _, _) if s.started() => io.say(match &end.not_recorded {
            Some(why) => format!("The game could NOT be recorded: {why}."),
            None => "The game could NOT be recorded.".into(),
        }),
        (None, _, _) => Ok(()),
        (Some(id), _, Some(why)) => io.say(format!(
            "Recorded as game #{id} ({why}: not in the best scores)."
        )),
        (Some(id), Some(r), None) => io.say(format!(
            "Recorded as game #{id}, rank {r} in {}.",
            G::variant(&s.params)
        )),
        (Some(id), None, None) => io.say(format!("Recorded as game #{id}.")),
    }
}

/// The computer plays its move (or resigns without one).
fn computer_turn<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
    thinker: &mut Option<G::Thinker>,
) -> Result<Step> {
    match think(thinker, s, Purpose::Opponent) {
        Some(mv) => {
            io.say(format!("The computer plays {mv}."))?;
            move_and_milestone(io, s, mv, store)
        }
        None => {
            io.say("The computer has no move.")?;
            s.resign(store);
            Ok(None)
        }
    }
}

/// Plays a move; at a milestone asks whether to keep going. Leaves only when input ended at that question.
fn move_and_milestone<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    mv: G::Move,
    store: &mut Store,
) -> Result<Step> {
    if play_move(io, s, mv, store)? && milestone(io, s, store)?.is_none() {
        return end_of_input(io, s, store).map(Some);
    }
    Ok(None)
}

/// A line that completes the move begun in `begun` (a piece chosen, say), or goes back on it.
fn rest_of_move<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
    partial: &mut Option<String>,
    begun: &str,
    line: &str,
) -> Result<Step> {
    if super::setup::is_back(line) {
        io.say("Move cancelled.")?;
        return Ok(None);
    }
    game_line(io, s, store, partial, Some(begun), line)
}

/// A line for the game itself: a move (played), the start of one (its question asked, the line kept in
/// `partial`), or a refusal said; `begun` is the start of the move this line completes, if any.
fn game_line<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
    partial: &mut Option<String>,
    begun: Option<&str>,
    line: &str,
) -> Result<Step> {
    match G::read(s.state(), line, begun) {
        Parsed::Move(mv) => return move_and_milestone(io, s, mv, store),
        Parsed::Ask(q) => {
            io.say(q)?;
            *partial = Some(match begun {
                Some(b) => format!("{b} {line}"),
                None => line.to_string(),
            });
        }
        // A fresh line may have been meant as a command: point to the help.
        Parsed::Refused(e) if begun.is_none() => io.say(format!("{e} (? for help)."))?,
        Parsed::Refused(e) => io.say(format!("{e}."))?,
    }
    Ok(None)
}

/// A line typed at the prompt: one of the shared commands, or the game's own (a move, or the start of one).
fn player_line<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
    thinker: &mut Option<G::Thinker>,
    partial: &mut Option<String>,
    line: &str,
) -> Result<Step> {
    let word = line.trim().to_ascii_lowercase();
    let mut words = word.split_whitespace();
    let first = words.next().unwrap_or("");
    // A command is one word (`p N` and `give up` excepted); a longer line is the game's (`r y o bla` is a
    // guess of colours, not `r` for a new game).
    let more = words.clone().next().is_some();
    let command = (!more || matches!(first, "p" | "autoplay" | "give")).then_some(first);
    match command {
        Some("") => show(io, s)?,
        Some("q" | "quit") => {
            match s.save_now(store) {
                Ok(()) if !s.started() => io.say("No move made: there is nothing to keep.")?,
                Ok(()) => io.say("Game saved.")?,
                Err(why) => io.say(format!("The game could NOT be saved ({why})."))?,
            }
            return Ok(Some(Exit::Menu));
        }
        Some("?" | "help") => {
            for p in G::rules() {
                io.say(p)?;
            }
            io.say(format!(
                "Commands: {}; p [N] lets the computer play N moves where it can.",
                commands::<G>(&s.params)
            ))?;
        }
        Some("u" | "undo") => match s.undo(store) {
            Ok(_) => {
                io.say("Move taken back (the game is now assisted).")?;
                show(io, s)?;
            }
            Err(e) => io.say(format!("{e:#}"))?,
        },
        Some("t" | "hint" | "tip") if G::can_think(&s.params) => {
            s.mark_assisted(store);
            match think(thinker, s, Purpose::Hint) {
                Some(mv) => io.say(format!(
                    "Hint: {}. (The game is now assisted.)",
                    G::describe_hint(s.context(), s.state(), &mv)
                ))?,
                None => io.say("No move to suggest.")?,
            }
        }
        // Never read as something else (a colour): say why there is no hint, as the full screen does.
        Some("t" | "hint" | "tip") => {
            io.say(format!("No hint here: {}.", G::why_no_hint(&s.params)))?
        }
        Some("p" | "autoplay") if G::can_autoplay(&s.params) => {
            return autoplay(io, s, store, thinker, words.next());
        }
        Some("x" | "give" | "giveup") => {
            match ask_if(io, io.settings.confirm_give_up(), "Give up this game?")? {
                None => return end_of_input(io, s, store).map(Some),
                Some(true) => s.resign(store),
                Some(false) => io.say("Carry on.")?,
            }
        }
        Some("r" | "restart" | "new") => return new_game(io, s, store),
        _ => return game_line(io, s, store, partial, None, line.trim()),
    }
    Ok(None)
}

/// `p [N]`: the computer plays up to `N` moves for the player (50 by default), pausing at a milestone.
fn autoplay<G: PlainGame>(
    io: &mut Io,
    s: &mut Session<G>,
    store: &mut Store,
    thinker: &mut Option<G::Thinker>,
    count: Option<&str>,
) -> Result<Step> {
    let n = match count.map(str::parse::<usize>) {
        None => 50,
        Some(Ok(n)) if (1..=100_000).contains(&n) => n,
        Some(_) => {
            io.say("autoplay takes a number of moves from 1 to 100000, e.g. p 100")?;
            return Ok(None);
        }
    };
    s.mark_assisted(store);
    let mut played = 0;
    while played < n && s.turn() == Some(Turn::Player) {
        let Some(mv) = think(thinker, s, Purpose::Autoplay) else {
            break;
        };
        played += 1;
        io.say(format!("auto {played}: {mv}"))?;
        if play_move(io, s, mv, store)? {
            io.say("Autoplay paused here.")?;
            if milestone(io, s, store)?.is_none() {
                return end_of_input(io, s, store).map(Some);
            }
            break;
        }
    }
    io.say(format!(
        "Autoplay made {played} moves (the game is assisted)."
    ))?;
    Ok(None)
}

/// `r`: after asking (when the game has moves and the settings ask), records this game as given up and starts a
/// new one with the same parameters.
fn new_game<G: PlainGame>(io: &mut Io, s: &mut Session<G>, store: &mut Store) -> Result<Step> {
    let yes = ask_if(
        io,
        s.started() && io.settings.confirm_new_game(),
        "Start a new game? This one is recorded as given up.",
    )?;
    match yes {
        None => return end_of_input(io, s, store).map(Some),
        Some(false) => io.say("Carry on.")?,
        Some(true) => {
            s.resign(store);
            if let Some(id) = s.ended().and_then(|e| e.id) {
                io.say(format!("Game #{id} recorded. New game:"))?;
            }
            let params = s.params.clone();
            *s = match Session::<G>::new_in(
                params,
                Seed::from_option(None),
                store,
                s.context().clone(),
            ) {
                Ok(fresh) => fresh,
                Err(e) => {
                    io.say(format!("Cannot start: {e}"))?;
                    return Ok(Some(Exit::Menu));
                }
            };
            io.say(G::intro(s.context(), &s.params, s.seed().value))?;
            show(io, s)?;
        }
    }
    Ok(None)
}

fn end_of_input<G: PlainGame>(io: &mut Io, s: &mut Session<G>, store: &mut Store) -> Result<Exit> {
    if s.ended().is_none() && s.started() {
        match s.save_now(store) {
            Ok(()) => io.say("Input ended: the game is saved; `parlor` offers it again.")?,
            Err(why) => io.say(format!("Input ended: the game could NOT be saved ({why})."))?,
        }
    }
    Ok(Exit::EndOfInput)
}
