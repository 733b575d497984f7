//! The setup screen: variant (preset or custom), role and strategy, then start.

use crate::games::mastermind::{MakerSession, Options, Role, Session, default_strategy};
use crate::tui::keys::{Binding, bar, common, describe, lookup};
use crate::tui::layout::chrome;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use crossterm::event::{KeyCode, KeyEvent};
use mastermind::{Palette, Strategy, Variant};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Up,
    Down,
    Less,
    More,
    Start,
    Back,
}

const KEYS: &[Binding<Cmd>] = &[
    bar(common::UP, "↑↓", "field", Cmd::Up),
    crate::tui::keys::more(common::DOWN, "↓ j s", "next field", Cmd::Down),
    bar(common::LEFT, "←→", "change", Cmd::Less),
    crate::tui::keys::more(common::RIGHT, "→ l d", "change", Cmd::More),
    bar(&[KeyCode::Enter], "Enter", "start", Cmd::Start),
    bar(common::BACK, "q", "back", Cmd::Back),
];

const FIELDS: usize = 9;

/// The setup screen.
pub struct SetupView {
    preset: usize, // index in Variant::PRESETS, or PRESETS.len() for custom
    colours: u32,
    pegs: u32,
    guesses: u32,
    secret_repeats: bool,
    guess_repeats: bool,
    digits: bool,
    role: Role,
    strategy: Option<Strategy>, // None = default
    field: usize,
    seed: Option<u64>,
    message: Option<String>,
}

impl SetupView {
    /// The setup screen on the default variant (`seed`: the secret's seed for the first game, if given).
    pub fn new(seed: Option<u64>) -> SetupView {
        let mut s = SetupView {
            preset: 0,
            colours: 6,
            pegs: 4,
            guesses: 8,
            secret_repeats: false,
            guess_repeats: true,
            digits: false,
            role: Role::Breaker,
            strategy: None,
            field: FIELDS - 1,
            seed,
            message: None,
        };
        s.load_preset(0);
        s
    }

    fn load_preset(&mut self, i: usize) {
        self.preset = i;
        if let Some((_, v)) = Variant::PRESETS.get(i) {
            self.colours = u32::from(v.colours());
            self.pegs = u32::from(v.pegs());
            self.guesses = v.guesses();
            self.secret_repeats = v.secret_repeats();
            self.guess_repeats = v.guess_repeats();
            self.digits = v.palette() == Palette::Digits;
        }
    }

    /// The variant chosen, or why it cannot be played.
    fn variant(&self) -> Result<Variant, String> {
        if let Some((_, v)) = Variant::PRESETS.get(self.preset) {
            return Ok(*v);
        }
        let v = Variant::custom(
            self.colours,
            self.pegs,
            self.guesses,
            self.secret_repeats,
            self.guess_repeats,
        )
        .map_err(|e| e.to_string())?;
        Ok(if self.digits {
            v.with_palette(Palette::Digits)
        } else {
            v
        })
    }

    fn change(&mut self, up: bool) {
        let step = |x: u32, lo: u32, hi: u32| {
            if up {
                (x + 1).min(hi)
            } else {
                x.saturating_sub(1).max(lo)
            }
        };
        let custom = Variant::PRESETS.len();
        match self.field {
            0 => {
                let n = custom + 1;
                let i = if up {
                    (self.preset + 1) % n
                } else {
                    (self.preset + n - 1) % n
                };
                if i == custom {
                    self.preset = custom;
                } else {
                    self.load_preset(i);
                }
            }
            1..=5 => {
                match self.field {
                    1 => self.colours = step(self.colours, 2, 10),
                    2 => self.pegs = step(self.pegs, 2, 8),
                    3 => self.guesses = step(self.guesses, 1, 30),
                    4 => self.secret_repeats = !self.secret_repeats,
                    _ => self.guess_repeats = !self.guess_repeats,
                }
                // A custom variant that happens to equal a preset is that preset.
                self.preset = custom;
                if let Ok(v) = self.variant() {
                    self.preset = Variant::PRESETS
                        .iter()
                        .position(|(_, p)| *p == v)
                        .unwrap_or(custom);
                }
            }
            6 => {
                self.role = match self.role {
                    Role::Breaker => Role::Maker,
                    Role::Maker => Role::Breaker,
                }
            }
            7 => {
                let all = Strategy::ALL;
                let pos = self.strategy.and_then(|s| all.iter().position(|&x| x == s));
                let n = all.len() + 1; // None first
                let cur = pos.map_or(0, |p| p + 1);
                let next = if up { (cur + 1) % n } else { (cur + n - 1) % n };
                self.strategy = (next > 0).then(|| all[next - 1]);
            }
            _ => {}
        }
    }

    fn start(&mut self, ctx: &mut Ctx) -> Transition {
        let v = match self.variant() {
            Ok(v) => v,
            Err(e) => {
                self.message = Some(format!("cannot start: {e}"));
                return Transition::Stay;
            }
        };
        let mut options = Options::new(v, self.role);
        if let Some(s) = self.strategy {
            options.strategy = s;
        }
        match self.role {
            Role::Breaker => {
                let seed = self
                    .seed
                    .take()
                    .or_else(|| ctx.seed.take())
                    .unwrap_or_else(crate::games::fresh_seed);
                Transition::Push(Box::new(super::BreakerView::new(
                    Session::new(options, seed),
                    false,
                )))
            }
            Role::Maker => match MakerSession::new(options) {
                Ok(s) => Transition::Push(Box::new(super::MakerView::new(s, false))),
                Err(e) => {
                    self.message = Some(format!("cannot start: {e:#}"));
                    Transition::Stay
                }
            },
        }
    }
}

impl View for SetupView {
    fn min_size(&self) -> (u16, u16) {
        (60, 18)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(
            frame,
            area,
            "Parlor · Mastermind · new game",
            &self.hint_bar(),
            theme,
        );
        let yes = |b: bool| if b { "yes" } else { "no" };
        let name = Variant::PRESETS
            .get(self.preset)
            .map_or("custom", |(n, _)| *n);
        let variant = self.variant();
        let strategy = match (self.strategy, &variant) {
            (Some(s), _) => s.name().to_string(),
            (None, Ok(v)) => format!("default ({})", default_strategy(v)),
            (None, Err(_)) => "default".to_string(),
        };
        let fields: [(&str, String); FIELDS] = [
            ("Variant", name.to_string()),
            ("Colours", self.colours.to_string()),
            ("Pegs", self.pegs.to_string()),
            ("Guesses", self.guesses.to_string()),
            (
                "Secret may repeat a colour",
                yes(self.secret_repeats).into(),
            ),
            ("Guess may repeat a colour", yes(self.guess_repeats).into()),
            (
                "Your role",
                match self.role {
                    Role::Breaker => "codebreaker (you guess the code)".into(),
                    Role::Maker => "codemaker (the computer guesses yours)".into(),
                },
            ),
            ("Computer's strategy", strategy),
            ("", "[ Start ]".into()),
        ];
        let mut lines = vec![Line::raw("")];
        for (i, (label, value)) in fields.iter().enumerate() {
            let sel = i == self.field;
            let marker = if sel { "▶ " } else { "  " };
            let text = if label.is_empty() {
                format!("{marker}{value}")
            } else {
                format!("{marker}{label:<28} ◀ {value} ▶")
            };
            let style = if sel { theme.selected() } else { theme.text() };
            lines.push(Line::styled(text, style));
        }
        lines.push(Line::raw(""));
        match &variant {
            Ok(v) => lines.push(Line::styled(
                format!(
                    "{} possible secrets · colours: {}",
                    v.secret_count(),
                    v.menu_line()
                ),
                theme.dim(),
            )),
            Err(e) => lines.push(Line::styled(format!("Cannot play this: {e}"), theme.warn())),
        }
        if let Some(m) = &self.message {
            lines.push(Line::styled(m.clone(), theme.warn()));
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
        let _ = Span::raw("");
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        match lookup(KEYS, &key) {
            Some(Cmd::Up) => self.field = (self.field + FIELDS - 1) % FIELDS,
            Some(Cmd::Down) => self.field = (self.field + 1) % FIELDS,
            Some(Cmd::Less) => self.change(false),
            Some(Cmd::More) => self.change(true),
            Some(Cmd::Start) => return self.start(ctx),
            Some(Cmd::Back) => return Transition::Pop,
            None => {}
        }
        self.message = None;
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Mastermind: new game".into(),
            keys: describe(KEYS, false),
            text: crate::games::mastermind::RULES
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }
}
