//! The one setup form: a game's settings, read from its setting table, changed with ←→ (or typed), and Enter to
//! start. The cursor always starts on the first setting.

use super::game::TuiGame;
use super::keys::{Nav, NavWords};
use super::layout::{centered, chrome};
use super::mouse::{Pointer, Rows, contains};
use super::play::PlayView;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::session::Seed;
use crate::mid::settings::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

const NAV: NavWords = NavWords([
    "choose a setting",
    "choose a setting",
    "change it",
    "change it",
    "start",
    "back",
]);

/// The setup form of game `G`.
pub struct SetupView<G: TuiGame> {
    params: G::Params,
    row: usize,
    /// Text being typed into the current setting (a number, a code).
    typing: Option<String>,
    message: Option<String>,
    /// The form as last drawn, for the mouse: its rows, the columns of each row's ◀ and ▶, and the screen row of
    /// the "Enter starts" line.
    form: Rows,
    arrows: Vec<(u16, u16)>,
    start_row: Option<u16>,
    /// The game's context, which says whether the parameters can be played in this run ([`crate::mid::game::Game::check_in`]).
    context: G::Context,
    /// The seed of the game Enter starts, chosen ahead by [`View::prepare`] (never in the terminal, which does not
    /// prepare): Enter plays it, unless the command line's seed waits (taken then, as without it).
    seed_ahead: Option<Seed>,
    /// The first screen of the game Enter would start, made ahead in idle time with [`SetupView::seed_ahead`] for
    /// the page to draw into a hidden sheet; any key or mouse event drops it (a setting changed, say).
    prepared: Option<Box<PlayView<G>>>,
}

impl<G: TuiGame> SetupView<G> {
    /// The form, opening on `params`.
    pub fn new(params: G::Params) -> SetupView<G> {
        SetupView {
            params,
            row: 0,
            typing: None,
            message: None,
            form: Rows::default(),
            arrows: Vec::new(),
            start_row: None,
            context: G::Context::default(),
            seed_ahead: None,
            prepared: None,
        }
    }

    /// The same form, checking the parameters in `context` (the one games started from it are played in).
    pub fn with_context(mut self, context: G::Context) -> SetupView<G> {
        self.context = context;
        self
    }

    /// The seed chosen ahead for the game Enter starts ([`View::prepare`]), if any (for tests).
    pub fn seed_ahead(&self) -> Option<Seed> {
        self.seed_ahead
    }

    /// The settings that apply to the parameters as they stand.
    fn rows(&self) -> Vec<&'static crate::mid::settings::Setting> {
        G::settings()
            .iter()
            .filter(|s| G::applies(&self.params, s.key))
            .collect()
    }

    fn commit_typing(&mut self) -> bool {
        let Some(text) = self.typing.take() else {
            return true;
        };
        let rows = self.rows();
        let Some(setting) = rows.get(self.row) else {
            return true;
        };
        match G::set(&mut self.params, setting.key, &text) {
            Ok(()) => true,
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    fn step(&mut self, up: bool) {
        if !self.commit_typing() {
            return;
        }
        let rows = self.rows();
        let Some(setting) = rows.get(self.row) else {
            return;
        };
        let now = G::get(&self.params, setting.key);
        match setting.step(&now, up) {
            Some(next) => {
                if let Err(e) = G::set(&mut self.params, setting.key, &next) {
                    self.message = Some(e.to_string());
                }
            }
            None => {
                self.message = Some(match setting.kind {
                    Kind::Text => "type the value".into(),
                    _ => format!("{}: {}", setting.label, setting.range()),
                })
            }
        }
        self.row = self.row.min(self.rows().len().saturating_sub(1));
    }
}

impl<G: TuiGame> View for SetupView<G> {
    fn min_size(&self) -> (u16, u16) {
        (40, G::settings().len() as u16 + 6)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let title = format!("Parlor · new game of {}", G::TITLE);
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let rows = self.rows();
        let label_w = rows
            .iter()
            .map(|s| s.label.chars().count())
            .max()
            .unwrap_or(0);
        let mut lines = Vec::new();
        self.arrows.clear();
        for (i, s) in rows.iter().enumerate() {
            let value = match (&self.typing, i == self.row) {
                (Some(t), true) => format!("{t}▏"),
                _ => s.show(&G::get(&self.params, s.key)),
            };
            let left = 2 + label_w + 3;
            let right = left + 2 + value.chars().count() + 1;
            self.arrows.push((left as u16, right as u16));
            let text = format!("{:<label_w$}   ◀ {value} ▶", s.label);
            lines.push(if i == self.row {
                Line::styled(format!("▸ {text}"), theme.selected())
            } else {
                Line::raw(format!("  {text}"))
            });
        }
        lines.push(Line::raw(""));
        if let Some(s) = rows.get(self.row) {
            lines.push(Line::styled(s.help.to_string(), theme.dim()));
        }
        let start_line = lines.len() as u16;
        match G::check_in(&self.params, &self.context) {
            Ok(()) => lines.push(Line::raw(format!(
                "Enter starts: {}",
                G::variant(&self.params)
            ))),
            Err(e) => lines.push(Line::styled(format!("cannot start: {e}"), theme.warn())),
        }
        if let Some(m) = &self.message {
            lines.push(Line::from(Span::styled(m.clone(), theme.warn())));
        }
        let h = lines.len() as u16;
        let rect = centered(body, 72, h);
        self.form = Rows::new(
            Rect {
                height: (rows.len() as u16).min(rect.height),
                ..rect
            },
            0,
            rows.len(),
        );
        self.start_row = (start_line < rect.height).then_some(rect.y + start_line);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), rect);
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        self.prepared = None;
        // A click on the "Enter starts" line starts; on a setting, selects it, and on its ◀ or ▶ changes it; the
        // wheel moves between settings.
        let click = event.kind == MouseEventKind::Down(MouseButton::Left);
        if click
            && Some(event.row) == self.start_row
            && contains(self.form.area, event.column, self.form.area.y)
        {
            return self.handle_key(KeyEvent::from(KeyCode::Enter), ctx);
        }
        let key = match self.form.pointer(&event) {
            Some(Pointer::Wheel(Nav::Up)) => KeyCode::Up,
            Some(Pointer::Wheel(Nav::Down)) => KeyCode::Down,
            Some(Pointer::Click(i, x)) => {
                if i != self.row {
                    if !self.commit_typing() {
                        return Transition::Stay;
                    }
                    self.row = i;
                }
                match self.arrows.get(i) {
                    Some(&(l, _)) if x == l => KeyCode::Left,
                    Some(&(_, r)) if x == r => KeyCode::Right,
                    _ => return Transition::Stay,
                }
            }
            _ => return Transition::Stay,
        };
        self.handle_key(KeyEvent::from(key), ctx)
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        self.prepared = None;
        self.message = None;
        let rows = self.rows();
        let typable = rows.get(self.row).is_some_and(|s| {
            matches!(
                s.kind,
                Kind::Number { .. } | Kind::Decimal { .. } | Kind::Text
            )
        });
        if typable && let KeyCode::Char(c) = key.code {
            let numeric = rows
                .get(self.row)
                .is_some_and(|s| !matches!(s.kind, Kind::Text));
            if !numeric || c.is_ascii_digit() || c == '.' {
                self.typing.get_or_insert_with(String::new).push(c);
                return Transition::Stay;
            }
        }
        if key.code == KeyCode::Backspace {
            if let Some(t) = &mut self.typing {
                t.pop();
            } else if typable {
                self.typing = Some(String::new());
            }
            return Transition::Stay;
        }
        let n = rows.len().max(1);
        match NAV.lookup(&key) {
            Some(Nav::Up) if self.commit_typing() => self.row = (self.row + n - 1) % n,
            Some(Nav::Down) if self.commit_typing() => self.row = (self.row + 1) % n,
            Some(Nav::Left) => self.step(false),
            Some(Nav::Right) => self.step(true),
            Some(Nav::Choose) => {
                if !self.commit_typing() {
                    return Transition::Stay;
                }
                if let Err(e) = G::check_in(&self.params, &self.context) {
                    self.message = Some(e.to_string());
                    return Transition::Stay;
                }
                let ahead = self.seed_ahead.take();
                return match PlayView::<G>::start_with(self.params.clone(), ahead, ctx) {
                    Ok(v) => Transition::Replace(Box::new(v)),
                    Err(e) => {
                        self.message = Some(e.to_string());
                        Transition::Stay
                    }
                };
            }
            Some(Nav::Back) if self.typing.take().is_none() => return Transition::Pop,
            _ => {}
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        NAV.bar()
    }

    /// Makes ahead the first screen of the game Enter would start ([`PlayView::prepare_next`]): its seed chosen now
    /// (the command line's while one waits, else a fresh one kept for Enter), its session claiming and writing
    /// nothing ([`PlayView::preview`]). Nothing while a value is being typed (Enter reads it first) or the settings
    /// cannot be played.
    fn prepare(&mut self, ctx: &mut Ctx) -> bool {
        if self.typing.is_some() || G::check_in(&self.params, &self.context).is_err() {
            self.prepared = None;
            return false;
        }
        PlayView::prepare_next(&self.params, &mut self.seed_ahead, &mut self.prepared, ctx)
    }

    fn prepared(&mut self) -> Option<&mut dyn View> {
        self.prepared.as_deref_mut().map(|v| v as &mut dyn View)
    }

    fn help(&self) -> Help {
        let mut text = vec![
            "Choose each setting with ←→ (or type a number), then Enter to start. Esc goes back."
                .to_string(),
        ];
        for s in self.rows() {
            text.push(format!("{}: {} ({})", s.label, s.help, s.range()));
        }
        Help {
            title: format!("New game of {}", G::TITLE),
            keys: NAV.help(),
            text,
        }
    }
}
