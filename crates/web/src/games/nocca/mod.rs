//! Nocca Nocca's board on the page: the squares as a grid with the goal rows beyond each home row, the stacks as
//! discs piled up (their height and the top piece visible), the last move marked. A tap on one of the player's
//! pieces selects it and marks its targets; a tap on a target plays the move, chosen among the position's legal
//! moves and sent in the game's notation. Keys are the terminal's, read from the core's key table
//! ([`parlor::games::nocca::screen::bindings`]): a cursor (arrows, h j k l, w a s d) that Enter or Space selects a
//! piece with and then its target, the digits of a number pad stepping the selected piece (7 8 9 / 4 6 / 1 2 3),
//! 5 or Esc letting go of it. The player's home row is at the bottom, so on a board turned round (the player is
//! White) up, down and the digits are turned with it: a key moves where it points on the screen.

use crate::faces::html::esc;
use crate::faces::play::{Board, Shown, Step};
use nocca::{Colour, Dir, Move, Square};
use parlor::games::nocca::board::digit;
use parlor::games::nocca::screen::{Cmd, bindings, labels, toggle_values};
use parlor::games::nocca::{Nocca, State, moves_from, square_refusal, target_name};
use parlor::mid::game::Turn;
use parlor::mid::session::Session;

/// The piece selected, if any, and the keys' cursor once a key has moved it.
#[derive(Default)]
pub struct Discs {
    selected: Option<Square>,
    /// The cursor (row, column; rows -1 and `rows` are the goal strips), shown from the first key that uses it.
    cursor: Option<(i32, i32)>,
    /// Whether the value overlay is on (`v`, or Values): each movable piece shows its best move's value, each
    /// target of the selected piece that move's (the terminal's overlay, from the board's solved table).
    values: bool,
    /// Whether the last drawing had the values (false while the table is on its way: the page ticks until it comes).
    drawn_values: std::cell::Cell<bool>,
}

/// Whether the board is drawn turned round: the player's home row at the bottom, White's being the top row.
fn flipped(state: &State) -> bool {
    state.params.human == Colour::White
}

/// A direction as the screen shows it on a board turned round: up is down.
fn turned(dir: Dir) -> Dir {
    match dir {
        Dir::Y => Dir::B,
        Dir::K => Dir::J,
        Dir::U => Dir::N,
        Dir::B => Dir::Y,
        Dir::J => Dir::K,
        Dir::N => Dir::U,
        other => other,
    }
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

/// The key that stepped towards `dir` (on the screen: the digit turned back on a board turned round).
fn key_digit(dir: Dir, flip: bool) -> char {
    digit(if flip { turned(dir) } else { dir })
}

impl Discs {
    /// The cursor: where the keys put it, else the middle of the player's home row.
    fn cursor(&self, state: &State) -> (i32, i32) {
        self.cursor.unwrap_or_else(|| {
            let dims = state.position().dims();
            (
                dims.home_row(state.params.human) as i32,
                dims.cols() as i32 / 2,
            )
        })
    }

    /// Enter at the cursor: selects the piece there, lets go of it, or moves the selected piece to the target there.
    fn choose(&mut self, state: &State) -> Step {
        let (r, c) = self.cursor(state);
        self.cursor = Some((r, c));
        let pos = state.position();
        let rows = pos.dims().rows() as i32;
        let sq = if (0..rows).contains(&r) {
            Square::new(r as usize, c as usize)
        } else {
            None
        };
        if let Some(sel) = self.selected {
            if sq == Some(sel) {
                self.selected = None;
                return Step::Say("Selection cancelled.".into());
            }
            if let Some(m) = moves_from(pos, sel)
                .into_iter()
                .find(|m| m.target() == (r, c))
            {
                self.selected = None;
                return Step::Move(m.to_string());
            }
        }
        let Some(sq) = sq else {
            return Step::Say("That is a goal: select a piece first.".into());
        };
        if let Some(why) = square_refusal(pos, sq) {
            return Step::Say(parlor::mid::capitalised(&why));
        }
        self.selected = Some(sq);
        let flip = flipped(state);
        let list: Vec<String> = moves_from(pos, sq)
            .iter()
            .map(|&m| format!("{} {}", key_digit(m.dir, flip), target_name(pos, m)))
            .collect();
        Step::Say(format!("{sq} selected: {}", list.join(" · ")))
    }

    /// The value overlay turned on or off, as the terminal's `v` does it (and says it), where the position is played
    /// in a context that has its tables (not online: values are for a game against the computer or oneself).
    fn toggle_values(&mut self, shown: &Shown<Nocca>) -> Step {
        let Some(tables) = shown.context else {
            return Step::Say("No values in a game against people.".into());
        };
        Step::Say(parlor::mid::capitalised(&toggle_values(
            &mut self.values,
            tables,
            shown.state.position(),
        )))
    }

    /// A tap on a board control (`sel:R:C`, `to:R:C`, `values`) of the position `shown`.
    pub fn act_on(&mut self, shown: &Shown<Nocca>, act: &str) -> Step {
        if act == "values" {
            return self.toggle_values(shown);
        }
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
                let moves = player_moves(shown);
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

    /// A key on the position `shown`; `waiting` is what a key says when it is not the player's move.
    pub fn key_on(&mut self, shown: &Shown<Nocca>, key: &str, waiting: &str) -> Step {
        if key == "Escape" && self.selected.is_some() {
            self.selected = None;
            return Step::Redraw;
        }
        let state = shown.state;
        let Some(event) = crate::keys::key_event(key, crate::keys::Held::default()) else {
            return Step::Pass;
        };
        let Some(cmd) = parlor::tui::keys::lookup(bindings(&state.params), &event) else {
            return Step::Pass;
        };
        if matches!(cmd, Cmd::Values) {
            // Shown or hidden whoever is to move, as on the terminal.
            return if shown.over {
                Step::Pass
            } else {
                self.toggle_values(shown)
            };
        }
        if shown.turn != Some(Turn::Player) || shown.over {
            return Step::Say(waiting.to_string());
        }
        let flip = flipped(state);
        match cmd {
            Cmd::Cursor(dr, dc) => {
                let dims = state.position().dims();
                let (r, c) = self.cursor(state);
                let dr = if flip { -dr } else { dr };
                let r = (r + dr).clamp(-1, dims.rows() as i32);
                let c = (c + dc).clamp(0, dims.cols() as i32 - 1);
                self.cursor = Some((r, c));
                Step::Redraw
            }
            Cmd::Choose => self.choose(state),
            Cmd::Step(dir) => {
                let dir = if flip { turned(dir) } else { dir };
                let Some(sel) = self.selected else {
                    return Step::Say(
                        "Select a piece first (the cursor, then Enter, or a tap).".into(),
                    );
                };
                let mv = Move::new(sel, dir);
                match state.position().check(mv) {
                    Ok(()) => {
                        self.selected = None;
                        Step::Move(mv.to_string())
                    }
                    Err(e) => Step::Say(format!("{} from {sel}: {e}", key_digit(dir, flip))),
                }
            }
            Cmd::Cancel => {
                self.selected = None;
                Step::Say("Selection cancelled.".into())
            }
            Cmd::Values => self.toggle_values(shown),
        }
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
        let exact = shown
            .context
            .filter(|_| self.values && !shown.over)
            .and_then(|tables| parlor::games::nocca::exact(tables, pos));
        self.drawn_values.set(exact.is_some());
        let values = exact.map_or_else(Vec::new, |ex| labels(&ex, self.selected, pos));
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
                if let Some((_, v)) = values.iter().find(|(at, _)| *at == (r, c as i32)) {
                    discs.push_str(&format!("<b class=\"value\">{}</b>", esc(v)));
                    label.push_str(&format!(", value {v}"));
                }
                if self.cursor == Some((r, c as i32)) && !moves.is_empty() {
                    class.push_str(" cursor");
                    label.push_str(" (cursor)");
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
        self.act_on(&Shown::of(session), act)
    }

    fn key(&mut self, session: &Session<Nocca>, key: &str) -> Step {
        self.key_on(&Shown::of(session), key, "Wait: the computer is to move.")
    }

    fn bar_buttons(&self, shown: &Shown<Nocca>) -> String {
        let solved = shown
            .context
            .is_some_and(|t| t.values_available(shown.state.position().dims()).is_ok());
        if !solved || shown.over {
            return String::new();
        }
        format!(
            "<button type=\"button\" class=\"cmd\" data-act=\"b:values\" aria-pressed=\"{}\" aria-label=\"Values of the moves\">Values</button>",
            self.values
        )
    }

    fn waiting(&self) -> bool {
        self.values && !self.drawn_values.get()
    }

    fn refresh(&mut self, session: &Session<Nocca>) -> bool {
        parlor::games::nocca::exact(session.context(), session.state().position()).is_some()
    }

    fn keys_help(&self) -> &'static str {
        "tap one of your pieces, then one of its marked squares · or the arrows (h j k l, w a s d) move a cursor, \
         Enter or Space selects the piece under it and then its target, the digits of a number pad step the selected \
         piece (7 8 9 / 4 6 / 1 2 3) · 5 or Esc lets go of the selection · v (or Values) shows each move's value on a solved board"
    }

    fn class(&self) -> &'static str {
        "gnocca"
    }
}

#[cfg(test)]
mod online_tests;
pub mod room;
