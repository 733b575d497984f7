//! Mastermind's board on the page: the guesses so far as rows of round pegs with their key pegs (black and white
//! dots), the guess being made filled by tapping a palette of colour buttons (a peg of the guess tapped again takes
//! it out), Submit and Clear, and the secret shown at the end. A guess is sent as the game writes it (its colours'
//! symbols), which the game parses and checks. The codemaker's controls (the code, the key pegs marked by hand) are
//! [`codemaker`]'s.

pub mod codemaker;

use crate::faces::html::{button, esc};
use crate::faces::play::{Board, Shown, Step};
use codemaker::Maker;
use mastermind::Variant;
use parlor::games::mastermind::{Mastermind, Role, State};
use parlor::mid::session::Session;

/// The guess being made (codebreaker), the codemaker's input.
#[derive(Default)]
pub struct Pegs {
    guess: Vec<u8>,
    maker: Maker,
}

/// The palette: a button per colour of the variant.
pub(super) fn palette(state: &State) -> String {
    let v = &state.variant;
    (0..v.colours())
        .map(|c| {
            format!(
                "<button type=\"button\" class=\"swatch peg c{c}\" data-act=\"b:c:{c}\" aria-label=\"{}\">{}</button>",
                esc(v.colour_name(c)),
                esc(&v.colour_symbol(c).to_string())
            )
        })
        .collect()
}

/// The colour a key types: its letter (either case) or its number.
pub(super) fn colour_key(v: &Variant, key: &str) -> Option<u8> {
    let mut chars = key.chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let by_symbol = (0..v.colours()).find(|&c| v.colour_symbol(c).eq_ignore_ascii_case(&ch));
    let by_number = (0..v.colours()).find(|&c| ch.to_digit(10) == Some(v.colour_number(c)));
    by_symbol.or(by_number)
}

/// A peg of colour `i` (0-based) as HTML.
pub(super) fn peg(state: &State, i: u8) -> String {
    let v = &state.variant;
    format!(
        "<i class=\"peg c{i}\" title=\"{}\">{}</i>",
        esc(v.colour_name(i)),
        esc(&v.colour_symbol(i).to_string())
    )
}

/// The key pegs of one answer.
fn keys(pegs: u8, black: u8, white: u8) -> String {
    let mut out =
        format!("<span class=\"keys\" role=\"img\" aria-label=\"{black} black, {white} white\">");
    for k in 0..pegs {
        let class = if k < black {
            "key black"
        } else if k < black + white {
            "key white"
        } else {
            "key none"
        };
        out.push_str(&format!("<i class=\"{class}\"></i>"));
    }
    out.push_str("</span>");
    out
}

impl Pegs {
    /// The guess as the game writes it.
    fn text(&self, state: &State) -> String {
        self.guess
            .iter()
            .map(|&i| state.variant.colour_symbol(i))
            .collect()
    }
}

impl Board<Mastermind> for Pegs {
    fn html(&self, shown: &Shown<Mastermind>, _now_ms: u64) -> String {
        let state = shown.state;
        let v = &state.variant;
        let pegs = v.pegs();
        let mut rows = String::new();
        for (n, (code, fb)) in state.history().iter().enumerate() {
            let shown: String = code.pegs().iter().map(|&p| peg(state, p)).collect();
            rows.push_str(&format!(
                "<li class=\"guess\" aria-label=\"Guess {}: {}, {} black {} white\"><span class=\"code\">{shown}</span>{}</li>",
                n + 1,
                esc(&code.pegs().iter().map(|&p| v.colour_name(p)).collect::<Vec<_>>().join(" ")),
                fb.black,
                fb.white,
                keys(pegs, fb.black, fb.white)
            ));
        }
        let left = (v.guesses() as usize)
            .saturating_sub(state.history().len())
            .min(12);
        let over = shown.over;
        let breaker = state.role() == Role::Breaker;
        for _ in 0..left.saturating_sub(usize::from(!over && breaker)) {
            let empty = "<i class=\"peg hole\"></i>".repeat(usize::from(pegs));
            rows.push_str(&format!(
                "<li class=\"guess empty\" aria-hidden=\"true\"><span class=\"code\">{empty}</span>{}</li>",
                keys(pegs, 0, 0)
            ));
        }
        let mut out = format!(
            "<div class=\"mm\" id=\"board\" style=\"--pegs:{pegs};--kcols:{}\"><ol class=\"rows\">{rows}</ol>",
            pegs.div_ceil(2)
        );
        if over {
            if let Some(secret) = state.revealed() {
                let shown: String = secret.pegs().iter().map(|&p| peg(state, p)).collect();
                out.push_str(&format!(
                    "<div class=\"secret\" aria-label=\"The code\"><span>Code</span><span class=\"code\">{shown}</span></div>"
                ));
            }
        } else if breaker && shown.turn.is_some() {
            let mut current = String::new();
            for k in 0..usize::from(pegs) {
                match self.guess.get(k) {
                    Some(&c) => current.push_str(&format!(
                        "<button type=\"button\" class=\"slot peg c{c}\" data-act=\"b:del:{k}\" aria-label=\"Peg {}: {}, tap to take it out\">{}</button>",
                        k + 1,
                        esc(v.colour_name(c)),
                        esc(&v.colour_symbol(c).to_string())
                    )),
                    None => current.push_str(&format!(
                        "<span class=\"slot peg hole\" aria-label=\"Peg {}: empty\"></span>",
                        k + 1
                    )),
                }
            }
            let palette = palette(state);
            out.push_str(&format!(
                "<div class=\"current\" aria-label=\"Your guess\">{current}</div><div class=\"palette\" aria-label=\"Colours\">{palette}</div><div class=\"row\">{}{}</div>",
                button("b:clear", "Clear", "cmd", Some("Clear the guess")),
                button("b:submit", "Submit", "cmd primary", Some("Submit the guess"))
            ));
        } else if !breaker {
            out.push_str(&self.maker.html(state, shown.turn.is_some()));
        }
        out.push_str("</div>");
        out
    }

    fn act(&mut self, session: &Session<Mastermind>, act: &str) -> Step {
        let state = session.state();
        if state.role() == Role::Maker {
            return self.maker.act(session, act);
        }
        let pegs = usize::from(state.variant.pegs());
        if let Some(c) = act.strip_prefix("c:").and_then(|c| c.parse::<u8>().ok()) {
            if c >= state.variant.colours() {
                return Step::Pass;
            }
            if self.guess.len() >= pegs {
                return Step::Say(
                    "The guess is full: Submit it, or tap a peg to take it out.".into(),
                );
            }
            self.guess.push(c);
            return Step::Redraw;
        }
        if let Some(k) = act
            .strip_prefix("del:")
            .and_then(|k| k.parse::<usize>().ok())
        {
            if k < self.guess.len() {
                self.guess.remove(k);
            }
            return Step::Redraw;
        }
        match act {
            "clear" => {
                self.guess.clear();
                Step::Redraw
            }
            "submit" if self.guess.len() == pegs => {
                let text = self.text(state);
                self.guess.clear();
                Step::Move(text)
            }
            "submit" => Step::Say(format!(
                "Choose {} colours first ({} so far).",
                pegs,
                self.guess.len()
            )),
            _ => Step::Pass,
        }
    }

    fn key(&mut self, session: &Session<Mastermind>, key: &str) -> Step {
        let state = session.state();
        if state.role() == Role::Maker {
            return self.maker.key(session, key);
        }
        match key {
            "Enter" => return self.act(session, "submit"),
            "Backspace" | "Delete" => {
                self.guess.pop();
                return Step::Redraw;
            }
            "Home" => return self.act(session, "clear"),
            _ => {}
        }
        match colour_key(&state.variant, key) {
            Some(c) => self.act(session, &format!("c:{c}")),
            None => Step::Pass,
        }
    }

    fn keys_help(&self) -> &'static str {
        "codebreaker: tap the colours, or type their letters or numbers · Backspace takes the last out · Enter \
         submits · codemaker: choose your code the same way, then Hide it (Enter) or Mark by hand (Enter with no \
         code); a tap turns a key peg from none to black to white, b and w mark, Backspace unmarks, Enter answers"
    }

    fn class(&self) -> &'static str {
        "gmm"
    }
}
