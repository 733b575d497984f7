//! Mastermind's codemaker on the page, from the same game the terminal plays (`parlor::games::mastermind`, role
//! `maker`): before the first guess the player chooses a code by tapping colours and either hides it (the move
//! `code:…`: the computer then scores its own guesses from it) or marks every guess by hand. Marking shows the
//! computer's guess with a key peg per peg of the code, each a 44 px button that a tap turns from none to black to
//! white and back; Answer sends the answer as the game writes it (`GUESS:BW`), which the game checks (an answer no
//! code fits is refused, naming the answers that may be wrong).

use super::peg;
use crate::faces::html::{button, button_if, esc};
use crate::faces::play::Step;
use parlor::games::mastermind::{Mastermind, State, contradiction};
use parlor::mid::game::Game;
use parlor::mid::session::Session;

/// A key peg of the answer being marked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// Not a right colour.
    #[default]
    None,
    /// The right colour in the right place.
    Black,
    /// A right colour in another place.
    White,
}

impl Mark {
    /// The mark after a tap: none, black, white, none again.
    fn next(self) -> Mark {
        match self {
            Mark::None => Mark::Black,
            Mark::Black => Mark::White,
            Mark::White => Mark::None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mark::None => "none",
            Mark::Black => "black",
            Mark::White => "white",
        }
    }
}

/// Where a codemaker's game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the first guess: the code is being chosen.
    Code,
    /// The code is hidden: the computer scores its own guesses.
    Scored,
    /// The player answers each guess.
    Marking,
}

/// The codemaker's own input: the code being chosen (colours, 0-based) and the key pegs being marked.
#[derive(Debug, Default)]
pub struct Maker {
    /// The code being chosen.
    pub code: Vec<u8>,
    /// The answer being marked, a mark per peg.
    pub marks: Vec<Mark>,
    /// The player chose to mark every guess by hand.
    pub by_hand: bool,
}

/// The code of `pegs` (colour indices) in the game's symbols.
fn symbols(state: &State, pegs: &[u8]) -> String {
    pegs.iter()
        .map(|&c| state.variant.colour_symbol(c))
        .collect()
}

impl Maker {
    /// Where the game `state` is, for this player.
    pub fn phase(&self, state: &State) -> Phase {
        if state.typed_secret().is_some() {
            Phase::Scored
        } else if state.history().is_empty() && !self.by_hand {
            Phase::Code
        } else {
            Phase::Marking
        }
    }

    fn counts(&self) -> (u8, u8) {
        let n = |m: Mark| self.marks.iter().filter(|&&k| k == m).count() as u8;
        (n(Mark::Black), n(Mark::White))
    }

    /// The key pegs fitted to the variant's pegs.
    fn fit(&mut self, pegs: usize) {
        if self.marks.len() != pegs {
            self.marks = vec![Mark::None; pegs];
        }
    }

    /// The codemaker's controls under the guesses, while the game is played (`turn`: the player is to move).
    pub fn html(&self, state: &State, turn: bool) -> String {
        let v = &state.variant;
        let pegs = usize::from(v.pegs());
        match self.phase(state) {
            Phase::Scored => "<p class=\"notice\" id=\"mm-hidden\">Your code is hidden: the computer scores its own guesses from it.</p>".into(),
            Phase::Code => {
                let mut slots = String::new();
                for k in 0..pegs {
                    match self.code.get(k) {
                        Some(&c) => slots.push_str(&format!(
                            "<button type=\"button\" class=\"slot peg c{c}\" data-act=\"b:del:{k}\" aria-label=\"Code peg {}: {}, tap to take it out\">{}</button>",
                            k + 1,
                            esc(v.colour_name(c)),
                            esc(&v.colour_symbol(c).to_string())
                        )),
                        None => slots.push_str(&format!(
                            "<span class=\"slot peg hole\" aria-label=\"Code peg {}: empty\"></span>",
                            k + 1
                        )),
                    }
                }
                format!(
                    "<p class=\"ask\">Choose your code: hide it and the computer scores its guesses, or mark each guess yourself.</p><div class=\"current\" aria-label=\"Your code\">{slots}</div><div class=\"palette\" aria-label=\"Colours\">{}</div><div class=\"row\">{}{}{}</div>",
                    super::palette(state),
                    button("b:clear", "Clear", "cmd", Some("Clear the code")),
                    button_if(
                        turn && self.code.len() == pegs,
                        "b:secret",
                        "Hide it",
                        "cmd primary",
                        Some("Hide the code: the computer scores its guesses")
                    ),
                    button_if(
                        turn,
                        "b:byhand",
                        "Mark by hand",
                        "cmd",
                        Some("Mark each guess by hand")
                    )
                )
            }
            Phase::Marking => {
                let Some(guess) = state.ready_guess().or_else(|| state.next_guess()) else {
                    return String::new();
                };
                let code: String = guess.pegs().iter().map(|&p| peg(state, p)).collect();
                let names: Vec<&str> = guess.pegs().iter().map(|&p| v.colour_name(p)).collect();
                let indices: Vec<String> = guess.pegs().iter().map(|p| p.to_string()).collect();
                let n = state.history().len() + 1;
                let marks: String = (0..pegs)
                    .map(|k| {
                        let m = self.marks.get(k).copied().unwrap_or_default();
                        let shown = match m {
                            Mark::None => "–",
                            Mark::Black => "B",
                            Mark::White => "W",
                        };
                        format!(
                            "<button type=\"button\" class=\"mark {}\" data-act=\"b:mark:{k}\" aria-label=\"Key peg {}: {}, tap to change\">{shown}</button>",
                            m.name(),
                            k + 1,
                            m.name()
                        )
                    })
                    .collect();
                let (black, white) = self.counts();
                format!(
                    "<div class=\"ask\" id=\"mm-guess\" data-guess=\"{}\" aria-label=\"The computer's guess {n}: {}\"><span>Guess {n}</span><span class=\"code\">{code}</span></div><div class=\"marks\" aria-label=\"Your answer\">{marks}</div><p class=\"small\" id=\"mm-answer\">Your answer: {black} black, {white} white</p><div class=\"row\">{}{}</div>",
                    indices.join(","),
                    esc(&names.join(" ")),
                    button("b:clear", "Clear", "cmd", Some("Clear the answer")),
                    button_if(
                        turn,
                        "b:answer",
                        "Answer",
                        "cmd primary",
                        Some(&format!("Answer {black} black, {white} white"))
                    )
                )
            }
        }
    }

    /// A tap on the codemaker's controls (`act` without its `b:`).
    pub fn act(&mut self, session: &Session<Mastermind>, act: &str) -> Step {
        let state = session.state();
        let v = &state.variant;
        let pegs = usize::from(v.pegs());
        match self.phase(state) {
            Phase::Scored => Step::Pass,
            Phase::Code => {
                if let Some(c) = act.strip_prefix("c:").and_then(|c| c.parse::<u8>().ok()) {
                    if c >= v.colours() {
                        return Step::Pass;
                    }
                    if self.code.len() >= pegs {
                        return Step::Say(
                            "The code is full: Hide it, or tap a peg to take it out.".into(),
                        );
                    }
                    self.code.push(c);
                    return Step::Redraw;
                }
                if let Some(k) = act
                    .strip_prefix("del:")
                    .and_then(|k| k.parse::<usize>().ok())
                {
                    if k < self.code.len() {
                        self.code.remove(k);
                    }
                    return Step::Redraw;
                }
                match act {
                    "clear" => {
                        self.code.clear();
                        Step::Redraw
                    }
                    "secret" if self.code.len() == pegs => {
                        Step::Move(format!("code:{}", symbols(state, &self.code)))
                    }
                    "secret" => Step::Say(format!(
                        "Choose {pegs} colours first ({} so far).",
                        self.code.len()
                    )),
                    "byhand" => {
                        self.by_hand = true;
                        self.code.clear();
                        Step::Say("Keep your code in mind and mark each guess.".into())
                    }
                    _ => Step::Pass,
                }
            }
            Phase::Marking => {
                self.fit(pegs);
                if let Some(k) = act
                    .strip_prefix("mark:")
                    .and_then(|k| k.parse::<usize>().ok())
                {
                    if let Some(m) = self.marks.get_mut(k) {
                        *m = m.next();
                    }
                    return Step::Redraw;
                }
                match act {
                    "clear" => {
                        self.marks = vec![Mark::None; pegs];
                        Step::Redraw
                    }
                    "answer" => self.answer(state),
                    _ => Step::Pass,
                }
            }
        }
    }

    /// The answer marked, as a move; a line instead when no code fits it with the earlier answers.
    fn answer(&mut self, state: &State) -> Step {
        let Some(guess) = state.ready_guess().or_else(|| state.next_guess()) else {
            return Step::Say("The computer has no guess to answer.".into());
        };
        let (black, white) = self.counts();
        let text = format!("{}:{black}{white}", symbols(state, guess.pegs()));
        if let Ok(mv) = <Mastermind as Game>::parse_move(state, &text)
            && let Some(suspects) = contradiction(state, &mv)
        {
            let names: Vec<String> = suspects.iter().map(|i| (i + 1).to_string()).collect();
            let undo = if state.history().is_empty() {
                ""
            } else {
                " (Undo takes back the last)"
            };
            return Step::Say(format!(
                "Not taken: no code fits this answer with the others; answer {} may be wrong{undo}.",
                names.join(" or ")
            ));
        }
        self.marks.clear();
        Step::Move(text)
    }

    /// A key on the codemaker's controls: colours, Backspace and Enter for the code; `b` and `w` mark, Backspace
    /// takes the last mark back, Enter answers.
    pub fn key(&mut self, session: &Session<Mastermind>, key: &str) -> Step {
        let state = session.state();
        let v = &state.variant;
        match self.phase(state) {
            Phase::Scored => Step::Pass,
            Phase::Code => match key {
                "Enter" if self.code.is_empty() => self.act(session, "byhand"),
                "Enter" => self.act(session, "secret"),
                "Backspace" | "Delete" => {
                    self.code.pop();
                    Step::Redraw
                }
                "Home" => self.act(session, "clear"),
                _ => match super::colour_key(v, key) {
                    Some(c) => self.act(session, &format!("c:{c}")),
                    None => Step::Pass,
                },
            },
            Phase::Marking => {
                self.fit(usize::from(v.pegs()));
                let put = |marks: &mut Vec<Mark>, m: Mark| {
                    if let Some(slot) = marks.iter_mut().find(|k| **k == Mark::None) {
                        *slot = m;
                    }
                    Step::Redraw
                };
                match key {
                    "b" | "B" => put(&mut self.marks, Mark::Black),
                    "w" | "W" => put(&mut self.marks, Mark::White),
                    "Backspace" | "Delete" => {
                        if let Some(slot) = self.marks.iter_mut().rev().find(|k| **k != Mark::None)
                        {
                            *slot = Mark::None;
                        }
                        Step::Redraw
                    }
                    "Home" => self.act(session, "clear"),
                    "Enter" => self.answer(state),
                    _ => Step::Pass,
                }
            }
        }
    }
}
