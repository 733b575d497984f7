//! The setup screen: mode, level, your colour, who starts.

use super::game_view;
use crate::games::nocca::{Mode, Options, Session};
use crate::tui::keys::{Binding, bar, describe, lookup, more};
use crate::tui::layout::chrome;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use crossterm::event::{KeyCode, KeyEvent};
use nocca::{Colour, Level};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Up,
    Down,
    Prev,
    Next,
    Start,
    Back,
    Nothing,
}

const UP: &[KeyCode] = &[KeyCode::Up, KeyCode::Char('k')];
const DOWN: &[KeyCode] = &[KeyCode::Down, KeyCode::Char('j'), KeyCode::Tab];
const LEFT: &[KeyCode] = &[KeyCode::Left, KeyCode::Char('h')];
const RIGHT: &[KeyCode] = &[KeyCode::Right, KeyCode::Char('l')];

const BINDINGS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "↑↓ jk",
        help: "choose a line",
        in_bar: true,
        cmd: Cmd::Nothing,
    },
    Binding {
        keys: &[],
        label: "←→ hl",
        help: "change it",
        in_bar: true,
        cmd: Cmd::Nothing,
    },
    more(UP, "↑ k", "previous line", Cmd::Up),
    more(DOWN, "↓ j Tab", "next line", Cmd::Down),
    more(LEFT, "← h", "previous choice", Cmd::Prev),
    more(RIGHT, "→ l", "next choice", Cmd::Next),
    bar(
        &[KeyCode::Enter, KeyCode::Char(' ')],
        "Enter",
        "start",
        Cmd::Start,
    ),
    bar(&[KeyCode::Char('q'), KeyCode::Esc], "q", "back", Cmd::Back),
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Mode,
    Level,
    Colour,
    First,
    Start,
}

/// Chooses the options of a new game.
pub struct NoccaSetup {
    options: Options,
    at: usize,
}

impl Default for NoccaSetup {
    fn default() -> Self {
        NoccaSetup::new()
    }
}

impl NoccaSetup {
    /// The setup with the default options.
    pub fn new() -> NoccaSetup {
        NoccaSetup {
            options: Options::default(),
            at: 0,
        }
    }

    fn fields(&self) -> Vec<Field> {
        let mut v = vec![Field::Mode];
        if self.options.mode != Mode::Two {
            v.push(Field::Level);
        }
        if self.options.mode == Mode::Computer {
            v.push(Field::Colour);
        }
        v.push(Field::First);
        v.push(Field::Start);
        v
    }

    fn change(&mut self, field: Field, step: i32) {
        let o = &mut self.options;
        let cycle = |i: usize, n: usize| (i as i32 + step).rem_euclid(n as i32) as usize;
        match field {
            Field::Mode => {
                let i = Mode::ALL.iter().position(|m| *m == o.mode).unwrap_or(0);
                o.mode = Mode::ALL[cycle(i, 3)];
            }
            Field::Level => {
                let i = Level::ALL.iter().position(|l| *l == o.level).unwrap_or(0);
                o.level = Level::ALL[cycle(i, 4)];
            }
            Field::Colour => o.human = o.human.opponent(),
            Field::First => o.first = o.first.opponent(),
            Field::Start => {}
        }
    }
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Black => "Black (bottom)",
        Colour::White => "White (top)",
    }
}

impl View for NoccaSetup {
    fn min_size(&self) -> (u16, u16) {
        (50, 14)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(
            frame,
            area,
            "Parlor · Nocca Nocca · new game",
            &self.hint_bar(),
            theme,
        );
        let fields = self.fields();
        self.at = self.at.min(fields.len() - 1);
        let o = self.options;
        let mut lines = vec![Line::raw("")];
        for (i, f) in fields.iter().enumerate() {
            let (name, value) = match f {
                Field::Mode => ("Mode", o.mode.label().to_string()),
                Field::Level => (
                    "Computer level",
                    format!("{} ({})", o.level, o.level.number()),
                ),
                Field::Colour => ("Your colour", colour_name(o.human).to_string()),
                Field::First => ("Who starts", colour_name(o.first).to_string()),
                Field::Start => ("", String::new()),
            };
            let mark = if i == self.at { "▸ " } else { "  " };
            let line = if *f == Field::Start {
                Line::from(vec![
                    Span::raw(mark),
                    Span::styled(
                        "[ Start ]",
                        if i == self.at {
                            theme.selected()
                        } else {
                            theme.strong()
                        },
                    ),
                ])
            } else {
                let v = format!("◂ {value} ▸");
                Line::from(vec![
                    Span::raw(format!("{mark}{name:<16}")),
                    Span::styled(
                        v,
                        if i == self.at {
                            theme.selected()
                        } else {
                            theme.text()
                        },
                    ),
                ])
            };
            lines.push(line);
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(
            format!("Records: {}", o.variant()),
            theme.dim(),
        ));
        frame.render_widget(Paragraph::new(lines), body);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        let fields = self.fields();
        let field = fields[self.at.min(fields.len() - 1)];
        match lookup(BINDINGS, &key) {
            Some(Cmd::Up) => self.at = self.at.saturating_sub(1),
            Some(Cmd::Down) => self.at = (self.at + 1).min(fields.len() - 1),
            Some(Cmd::Prev) => self.change(field, -1),
            Some(Cmd::Next) => self.change(field, 1),
            Some(Cmd::Start) => {
                let seed = ctx.seed.take().unwrap_or_else(crate::games::fresh_seed);
                return Transition::Replace(game_view(Session::new(self.options, seed)));
            }
            Some(Cmd::Back) => return Transition::Pop,
            Some(Cmd::Nothing) | None => {}
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(BINDINGS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Nocca Nocca: new game".into(),
            keys: describe(BINDINGS, false),
            text: crate::games::nocca::RULES
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }
}
