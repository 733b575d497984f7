//! The one plain play loop: any game, a line at a time. Typed moves go to the game; the commands every game
//! shares are the same words everywhere: `u` undo, `t` hint, `p [N]` autoplay, `x` give up, `r` new game (both
//! ask first), `q` quit (saved), `?` help.

use super::game::{Parsed, PlainGame};
use super::{Exit, Io};
use crate::mid::capitalised;
use crate::mid::game::{Purpose, Turn};
use crate::mid::session::{Seed, Session};
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
    if s.practice() {
        line.push_str("  (practice: not scored)");
    }
    if s.assisted() {
        line.push_str("  (assisted)");
    }
    if s.seed().chosen && !s.practice() {
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

/// What a step of the loop leaves: go on reading lines, or leave the game with this exit.
type Step = Option<Exit>;

/// Plays a game until it ends, the player quits, or input runs out.
pub fn play<G: PlainGame>(io: &mut Io, s: Session<G>, store: &mut Store) -> Result<Exit> {
    Playing {
        io,
        s,
        store,
        thinker: None,
        partial: None,
    }
    .run()
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

/// One game being played a line at a time: the session, where it is kept, and what the loop carries between lines.
struct Playing<'a, 'io, G: PlainGame> {
    io: &'a mut Io<'io>,
    s: Session<G>,
    store: &'a mut Store,
    /// The computer's thinker, made at its first move and kept (with its tables and caches) for the next.
    thinker: Option<G::Thinker>,
    /// The start of a move that the next line completes (a piece chosen, say).
    partial: Option<String>,
}

impl<G: PlainGame> Playing<'_, '_, G> {
    /// The loop: a line at a time (or the computer's move) until the game ends or the player leaves.
    fn run(mut self) -> Result<Exit> {
        self.io.say(G::intro(
            self.s.context(),
            &self.s.params,
            self.s.seed().value,
        ))?;
        if self.s.practice() {
            self.io.say(
                "Practice: the game goes on from the position chosen (u undo, r starts a new game).",
            )?;
        } else if self.s.started() {
            self.io
                .say("Continuing your game in progress (r starts a new one).")?;
        }
        show(self.io, &self.s)?;
        // A problem known before any move (the game could not be claimed) is said now, not after the first move.
        warn_storage(self.io, &mut self.s)?;
        loop {
            if let Some(end) = self.s.ended() {
                let id = end.id;
                say_end(self.io, &self.s)?;
                return match id {
                    Some(id) => self.offer_review(id),
                    None => Ok(Exit::Menu),
                };
            }
            let step = if self.s.turn() == Some(Turn::Computer) {
                self.computer_turn()?
            } else {
                let prompt = match &self.partial {
                    Some(_) => "> ".to_string(),
                    None => format!(
                        "{}, {}> ",
                        G::prompt(self.s.state(), &self.s.params),
                        commands::<G>(&self.s.params)
                    ),
                };
                let Some(line) = self.io.ask(&prompt)? else {
                    return self.end_of_input();
                };
                match self.partial.take() {
                    Some(begun) => self.rest_of_move(&begun, &line)?,
                    None => self.player_line(&line)?,
                }
            };
            if let Some(exit) = step {
                return Ok(exit);
            }
        }
    }

    /// The computer's move for `purpose`, thought on a background job (plain mode waits for it).
    fn think(&mut self, purpose: Purpose) -> Option<G::Move> {
        let s = &self.s;
        let t = self
            .thinker
            .get_or_insert_with(|| G::thinker(&s.params, s.context()));
        G::think(t, s.state(), purpose, &AtomicBool::new(false))
    }

    /// Plays a move and says what it did. Returns whether a milestone was reached.
    fn play_move(&mut self, mv: G::Move) -> Result<bool> {
        let played = mv.clone();
        match self.s.play(mv, self.store) {
            Ok(applied) => {
                let mut line = G::told(self.s.state(), &played);
                if let Some(n) = applied.note {
                    line.push_str(&format!(" ({n})"));
                }
                self.io.say(line)?;
                show(self.io, &self.s)?;
                warn_storage(self.io, &mut self.s)?;
                if let Some(m) = applied.milestone {
                    self.io.say(m)?;
                    return Ok(true);
                }
                Ok(false)
            }
            Err(e) => {
                self.io.say(format!("{e}."))?;
                Ok(false)
            }
        }
    }

    /// The milestone question: keep going, or stop there (the game ends, won); `None` when input ended. `q` does
    /// neither: the game goes on, and `q` at the next prompt goes back to the menu with it saved.
    fn milestone(&mut self) -> Result<Option<()>> {
        loop {
            let Some(a) = self.io.ask("Keep going? [y/n]> ")? else {
                return Ok(None);
            };
            match a.to_ascii_lowercase().as_str() {
                "y" | "yes" => {
                    self.io.say("Keep going!")?;
                    return Ok(Some(()));
                }
                "n" | "no" => {
                    self.s.resign(self.store);
                    return Ok(Some(()));
                }
                "q" | "quit" | "back" => {
                    self.io.say(
                        "The game goes on; q at the next prompt goes back to the menu (saved).",
                    )?;
                    return Ok(Some(()));
                }
                other => self
                    .io
                    .say(format!("'{other}': answer y or n (q goes back)"))?,
            }
        }
    }

    /// The computer plays its move (or resigns without one).
    fn computer_turn(&mut self) -> Result<Step> {
        match self.think(Purpose::Opponent) {
            Some(mv) => {
                self.io.say(format!("The computer plays {mv}."))?;
                self.move_and_milestone(mv)
            }
            None => {
                // Not a resignation: nobody gave up, and nothing is recorded. The game is kept as it stands.
                self.io.say(format!(
                    "{}.",
                    capitalised(&G::why_no_move(self.s.context(), self.s.state()))
                ))?;
                match self.s.save_now(self.store) {
                    Ok(()) => self.io.say("Game saved; back to the menu.")?,
                    Err(why) => self.io.say(format!(
                        "The game could NOT be saved ({why}); back to the menu."
                    ))?,
                }
                Ok(Some(Exit::Menu))
            }
        }
    }

    /// Plays a move; at a milestone asks whether to keep going. Leaves only when input ended at that question.
    fn move_and_milestone(&mut self, mv: G::Move) -> Result<Step> {
        if self.play_move(mv)? && self.milestone()?.is_none() {
            return self.end_of_input().map(Some);
        }
        Ok(None)
    }

    /// A line that completes the move begun in `begun` (a piece chosen, say), or goes back on it.
    fn rest_of_move(&mut self, begun: &str, line: &str) -> Result<Step> {
        if super::setup::is_back(line) {
            self.io.say("Move cancelled.")?;
            return Ok(None);
        }
        self.game_line(Some(begun), line)
    }

    /// A line for the game itself: a move (played), the start of one (its question asked, the line kept in
    /// `partial`), or a refusal said; `begun` is the start of the move this line completes, if any.
    fn game_line(&mut self, begun: Option<&str>, line: &str) -> Result<Step> {
        match G::read(self.s.state(), line, begun) {
            Parsed::Move(mv) => return self.move_and_milestone(mv),
            Parsed::Ask(q) => {
                self.io.say(q)?;
                self.partial = Some(match begun {
                    Some(b) => format!("{b} {line}"),
                    None => line.to_string(),
                });
            }
            // A fresh line may have been meant as a command: point to the help.
            Parsed::Refused(e) if begun.is_none() => self.io.say(format!("{e} (? for help)."))?,
            Parsed::Refused(e) => self.io.say(format!("{e}."))?,
        }
        Ok(None)
    }

    /// A line typed at the prompt: one of the shared commands, or the game's own (a move, or the start of one).
    fn player_line(&mut self, line: &str) -> Result<Step> {
        let word = line.trim().to_ascii_lowercase();
        let mut words = word.split_whitespace();
        let first = words.next().unwrap_or("");
        // A command is one word (`p N` and `give up` excepted); a longer line is the game's (`r y o bla` is a
        // guess of colours, not `r` for a new game).
        let more = words.clone().next().is_some();
        let command = (!more || matches!(first, "p" | "autoplay" | "give")).then_some(first);
        match command {
            Some("") => show(self.io, &self.s)?,
            Some("q" | "quit") => {
                match self.s.save_now(self.store) {
                    Ok(()) if !self.s.started() => {
                        self.io.say("No move made: there is nothing to keep.")?
                    }
                    Ok(()) => self.io.say("Game saved.")?,
                    Err(why) => self
                        .io
                        .say(format!("The game could NOT be saved ({why})."))?,
                }
                return Ok(Some(Exit::Menu));
            }
            Some("?" | "help") => {
                for p in G::rules() {
                    self.io.say(p)?;
                }
                self.io.say(format!(
                    "Commands: {}; p [N] lets the computer play N moves where it can.",
                    commands::<G>(&self.s.params)
                ))?;
            }
            Some("u" | "undo") => match self.s.undo(self.store) {
                Ok(_) => {
                    self.io.say("Move taken back (the game is now assisted).")?;
                    show(self.io, &self.s)?;
                }
                Err(e) => self.io.say(format!("{e:#}"))?,
            },
            Some("t" | "hint" | "tip") if G::can_think(&self.s.params) => {
                self.s.mark_assisted(self.store);
                match self.think(Purpose::Hint) {
                    Some(mv) => {
                        let hint = G::describe_hint(self.s.context(), self.s.state(), &mv);
                        self.io
                            .say(format!("Hint: {hint}. (The game is now assisted.)"))?
                    }
                    None => self.io.say("No move to suggest.")?,
                }
            }
            // Never read as something else (a colour): say why there is no hint, as the full screen does.
            Some("t" | "hint" | "tip") => {
                let why = G::why_no_hint(&self.s.params);
                self.io.say(format!("No hint here: {why}."))?
            }
            Some("p" | "autoplay") if G::can_autoplay(&self.s.params) => {
                return self.autoplay(words.next());
            }
            Some("x" | "give" | "giveup") => {
                let ask = self.io.settings.confirm_give_up();
                match ask_if(self.io, ask, "Give up this game?")? {
                    None => return self.end_of_input().map(Some),
                    Some(true) => self.s.resign(self.store),
                    Some(false) => self.io.say("Carry on.")?,
                }
            }
            Some("r" | "restart" | "new") => return self.new_game(),
            _ => return self.game_line(None, line.trim()),
        }
        Ok(None)
    }

    /// `p [N]`: the computer plays up to `N` moves for the player (50 by default), pausing at a milestone.
    fn autoplay(&mut self, count: Option<&str>) -> Result<Step> {
        let n = match count.map(str::parse::<usize>) {
            None => 50,
            Some(Ok(n)) if (1..=100_000).contains(&n) => n,
            Some(_) => {
                self.io
                    .say("autoplay takes a number of moves from 1 to 100000, e.g. p 100")?;
                return Ok(None);
            }
        };
        self.s.mark_assisted(self.store);
        let mut played = 0;
        while played < n && self.s.turn() == Some(Turn::Player) {
            let Some(mv) = self.think(Purpose::Autoplay) else {
                break;
            };
            played += 1;
            self.io.say(format!("auto {played}: {mv}"))?;
            if self.play_move(mv)? {
                self.io.say("Autoplay paused here.")?;
                if self.milestone()?.is_none() {
                    return self.end_of_input().map(Some);
                }
                break;
            }
        }
        self.io.say(format!(
            "Autoplay made {played} moves (the game is assisted)."
        ))?;
        Ok(None)
    }

    /// `r`: after asking (when the game has moves and the settings ask), records this game as given up and starts
    /// a new one with the same parameters.
    fn new_game(&mut self) -> Result<Step> {
        let ask = self.s.started() && self.io.settings.confirm_new_game();
        match ask_if(
            self.io,
            ask,
            "Start a new game? This one is recorded as given up.",
        )? {
            None => return self.end_of_input().map(Some),
            Some(false) => self.io.say("Carry on.")?,
            Some(true) => {
                self.s.resign(self.store);
                if let Some(id) = self.s.ended().and_then(|e| e.id) {
                    self.io.say(format!("Game #{id} recorded. New game:"))?;
                }
                let params = self.s.params.clone();
                let context = self.s.context().clone();
                self.s = match Session::<G>::new_in(
                    params,
                    Seed::from_option(None),
                    self.store,
                    context,
                ) {
                    Ok(fresh) => fresh,
                    Err(e) => {
                        self.io.say(format!("Cannot start: {e}"))?;
                        return Ok(Some(Exit::Menu));
                    }
                };
                self.io.say(G::intro(
                    self.s.context(),
                    &self.s.params,
                    self.s.seed().value,
                ))?;
                show(self.io, &self.s)?;
            }
        }
        Ok(None)
    }

    /// At the end of game `id`, recorded: `review` prints its review (as `parlor review ID` does); Enter goes on, and
    /// any other line is the next question's answer (the menu's).
    fn offer_review(&mut self, id: i64) -> Result<Exit> {
        let prompt = format!("review: the engine's review of game #{id}; Enter goes on> ");
        let Some(line) = self.io.ask(&prompt)? else {
            return Ok(Exit::EndOfInput);
        };
        if super::review::WORDS.contains(&line.to_ascii_lowercase().as_str()) {
            let game = crate::mid::Entry::<G>::new();
            super::review::print(self.io, &[&game], self.store, id)?;
        } else if !line.is_empty() {
            self.io.pass_on(line);
        }
        Ok(Exit::Menu)
    }

    /// Input ended: the game is kept (saved) if it has moves and has not ended.
    fn end_of_input(&mut self) -> Result<Exit> {
        if self.s.ended().is_none() && self.s.started() {
            match self.s.save_now(self.store) {
                Ok(()) => self
                    .io
                    .say("Input ended: the game is saved; `parlor` offers it again.")?,
                Err(why) => self
                    .io
                    .say(format!("Input ended: the game could NOT be saved ({why})."))?,
            }
        }
        Ok(Exit::EndOfInput)
    }
}
