//! Nocca Nocca's board on the page: the squares as a grid with the goal rows beyond each home row, the stacks as
//! discs piled up (their height and the top piece visible), the last move marked. A tap on one of the player's
//! pieces selects it and marks its targets; a tap on a target plays the move, chosen among the position's legal
//! moves and sent in the game's notation.

use super::html::esc;
use super::play::{Board, Shown, Step};
use nocca::{Colour, Move, Square};
use parlor::games::nocca::{Nocca, State};
use parlor::mid::game::Turn;
use parlor::mid::session::Session;

/// The piece selected, if any.
#[derive(Default)]
pub struct Discs {
    selected: Option<Square>,
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Black => "black",
        Colour::White => "white",
    }
}

/// The legal moves the player may make now (none while the computer moves or the game is over).
fn player_moves(shown: &Shown<Nocca>) -> Vec<Move> {
    if shown.turn != Some(Turn::Player) || shown.over {
        return Vec::new();
    }
    shown
        .state
        .position()
        .legal_moves()
        .iter()
        .copied()
        .collect()
}

/// A square's name as the game writes it (`c1`).
fn square_name(r: i32, c: usize, rows: usize) -> String {
    let col = char::from(b'a' + c as u8);
    if r < 0 || r >= rows as i32 {
        format!("goal beyond column {col}")
    } else {
        format!("{col}{}", r + 1)
    }
}

impl Board<Nocca> for Discs {
    fn html(&self, shown: &Shown<Nocca>, _now_ms: u64) -> String {
        let state: &State = shown.state;
        let pos = state.position();
        let dims = pos.dims();
        let (rows, cols) = (dims.rows(), dims.cols());
        let moves = player_moves(shown);
        let targets: Vec<(i32, i32)> = match self.selected {
            Some(sq) => moves
                .iter()
                .filter(|m| m.from == sq)
                .map(|m| m.target())
                .collect(),
            None => Vec::new(),
        };
        let last = state.game.moves().last().copied();
        // The player's home row at the bottom: Black's home is row 0.
        let flip = state.params.human == Colour::White;
        let order: Vec<i32> = if flip {
            (-1..=rows as i32).collect()
        } else {
            (-1..=rows as i32).rev().collect()
        };
        let mut cells = String::new();
        for &r in &order {
            for c in 0..cols {
                let name = square_name(r, c, rows);
                let target = targets.contains(&(r, c as i32));
                let goal = r < 0 || r >= rows as i32;
                let mut class = String::from(if goal { "sq goal" } else { "sq" });
                if goal {
                    class.push_str(if r < 0 { " goal-white" } else { " goal-black" });
                }
                let mut label = name.clone();
                let mut discs = String::new();
                let mut selectable = false;
                if !goal && let Some(sq) = Square::new(r as usize, c) {
                    let stack = pos.stack(sq);
                    for (k, colour) in stack.iter().enumerate() {
                        discs.push_str(&format!(
                            "<i class=\"disc {}\" style=\"--k:{k}\"></i>",
                            colour_name(colour)
                        ));
                    }
                    if stack.height() > 1 {
                        discs.push_str(&format!("<em class=\"height\">{}</em>", stack.height()));
                    }
                    if let Some(top) = stack.top() {
                        label.push_str(&format!(
                            ": {} on top, {} high",
                            colour_name(top),
                            stack.height()
                        ));
                    }
                    selectable = moves.iter().any(|m| m.from == sq);
                    if self.selected == Some(sq) {
                        class.push_str(" selected");
                    }
                    if let Some(m) = last {
                        if m.from == sq {
                            class.push_str(" last-from");
                        }
                        if m.target() == (r, c as i32) {
                            class.push_str(" last-to");
                        }
                    }
                }
                if target {
                    class.push_str(" target");
                    cells.push_str(&format!(
                        "<button type=\"button\" class=\"{class}\" data-act=\"b:to:{r}:{c}\" aria-label=\"Move to {}\">{discs}</button>",
                        esc(&label)
                    ));
                } else if selectable {
                    class.push_str(" mine");
                    cells.push_str(&format!(
                        "<button type=\"button\" class=\"{class}\" data-act=\"b:sel:{r}:{c}\" aria-label=\"Select {}\" aria-pressed=\"{}\">{discs}</button>",
                        esc(&label),
                        self.selected.is_some_and(|s| s.row() as i32 == r && s.col() == c)
                    ));
                } else {
                    cells.push_str(&format!(
                        "<div class=\"{class}\" aria-label=\"{}\">{discs}</div>",
                        esc(&label)
                    ));
                }
            }
        }
        format!(
            "<div class=\"nocca\" id=\"board\" style=\"--rows:{};--cols:{cols}\" role=\"group\" aria-label=\"Nocca Nocca board\"><div class=\"grid\">{cells}</div></div>",
            rows + 2
        )
    }

    fn status(&self, session: &Session<Nocca>) -> Option<String> {
        let to_move = colour_name(session.state().position().side_to_move());
        Some(match session.turn() {
            Some(Turn::Computer) => format!("computer ({to_move}) to move"),
            Some(Turn::Player) => format!("{to_move} to move"),
            None => "game over".to_string(),
        })
    }

    fn act(&mut self, session: &Session<Nocca>, act: &str) -> Step {
        let mut parts = act.split(':');
        let (Some(what), Some(r), Some(c)) = (parts.next(), parts.next(), parts.next()) else {
            return Step::Pass;
        };
        let (Ok(r), Ok(c)) = (r.parse::<i32>(), c.parse::<usize>()) else {
            return Step::Pass;
        };
        match what {
            "sel" => {
                let sq = usize::try_from(r).ok().and_then(|r| Square::new(r, c));
                self.selected = if self.selected == sq { None } else { sq };
                Step::Redraw
            }
            "to" => {
                let Some(from) = self.selected.take() else {
                    return Step::Pass;
                };
                let moves = player_moves(&Shown::of(session));
                match moves
                    .iter()
                    .find(|m| m.from == from && m.target() == (r, c as i32))
                {
                    Some(m) => Step::Move(m.to_string()),
                    None => {
                        Step::Say("That square cannot be reached from the piece selected.".into())
                    }
                }
            }
            _ => Step::Pass,
        }
    }

    fn key(&mut self, _session: &Session<Nocca>, key: &str) -> Step {
        if key == "Escape" && self.selected.is_some() {
            self.selected = None;
            return Step::Redraw;
        }
        Step::Pass
    }

    fn keys_help(&self) -> &'static str {
        "tap one of your pieces, then one of its marked squares · Esc lets go of the selection"
    }

    fn class(&self) -> &'static str {
        "gnocca"
    }
}
