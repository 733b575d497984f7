//! The one setup form: a game's settings, read from its setting table, changed with ←→ (or typed), and Enter to
//! start. The cursor always starts on the first setting.

use super::game::TuiGame;
use super::keys::{Nav, NavWords};
use super::layout::{centered, chrome, wrap_fitted, wrap_text};
use super::mouse::{SettingHit, contains};
use super::play::PlayView;
use super::text::Wrapped;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::session::Seed;
use crate::mid::settings::Kind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

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
    /// The form as last drawn, for the mouse (all from the wrapped layout): its area, each setting shown with its
    /// rows and the cells of its ◀ and ▶, and the screen rows of the "Enter starts" line.
    form: Rect,
    hits: Vec<SettingHit>,
    start_rows: Option<(u16, u16)>,
    /// The first row of the settings shown (they scroll on a short screen).
    scroll: usize,
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
            form: Rect::default(),
            hits: Vec::new(),
            start_rows: None,
            scroll: 0,
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
        // The settings scroll when the form is taller than the screen.
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let title = format!("Parlor · new game of {}", G::TITLE);
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let rows = self.rows();
        let width = body.width.min(72);
        let label_w = rows
            .iter()
            .map(|s| s.label.chars().count())
            .max()
            .unwrap_or(0)
            .min(usize::from(width / 2));
        let mut lines = Vec::new();
        for (i, s) in rows.iter().enumerate() {
            let value = match (&self.typing, i == self.row) {
                (Some(t), true) => format!("{t}▏"),
                _ => s.show(&G::get(&self.params, s.key)),
            };
            let text = format!("{:<label_w$}   ◀ {value} ▶", s.label);
            lines.push(if i == self.row {
                Line::styled(format!("▸ {text}"), theme.selected())
            } else {
                Line::raw(format!("  {text}"))
            });
        }
        let list = Wrapped::new(lines, width);
        // Under the settings: the chosen one's help (shortened with `…` if the screen is short: the help page has
        // it whole), the line Enter starts and any message, whole.
        let mut foot = vec![match G::check_in(&self.params, &self.context) {
            Ok(()) => Line::raw(format!("Enter starts: {}", G::variant(&self.params))),
            Err(e) => Line::styled(format!("cannot start: {e}"), theme.warn()),
        }];
        if let Some(m) = &self.message {
            foot.push(Line::from(Span::styled(m.clone(), theme.warn())));
        }
        let foot = Wrapped::new(foot, width);
        let help = rows.get(self.row).map(|s| s.help).unwrap_or_default();
        let help_rows = wrap_text(help, width).len() as u16;
        // Room: the whole form if it fits; else the blank line goes, then the help shrinks to one row, then the
        // settings scroll (at least three rows of them), then the help goes.
        let room = body.height;
        let need_list = list.height();
        let (mut blank, mut help_h, mut list_h) = (1u16, help_rows, need_list);
        let total = |b: u16, h: u16, l: u16| b + h + l + foot.height();
        if total(blank, help_h, list_h) > room {
            blank = 0;
        }
        if total(blank, help_h, list_h) > room {
            help_h = help_rows.min(room.saturating_sub(foot.height() + need_list.min(3)).max(1));
        }
        if total(blank, help_h, list_h) > room {
            list_h = room
                .saturating_sub(foot.height() + help_h)
                .max(3.min(need_list));
        }
        if total(blank, help_h, list_h) > room {
            help_h = room.saturating_sub(foot.height() + list_h);
        }
        if total(blank, help_h, list_h) > room {
            list_h = room.saturating_sub(foot.height());
        }
        let h = total(blank, help_h, list_h).min(room);
        let rect = centered(body, width, h);
        let list_area = Rect {
            height: list_h.min(rect.height),
            ..rect
        };
        let (first, count) = list.rows_of(self.row);
        self.scroll = list.scroll_to(self.scroll, first, count, list_area.height);
        // Every setting's rows and its ◀ and ▶, as drawn, for the mouse.
        let cells: Vec<(usize, usize, Option<_>, Option<_>)> = (0..rows.len())
            .map(|i| {
                let (a, n) = list.rows_of(i);
                (a, n, list.find(i, "◀"), list.find(i, "▶"))
            })
            .collect();
        let shown = list.render(frame, list_area, self.scroll, theme.dim());
        self.hits = cells
            .into_iter()
            .enumerate()
            .filter_map(|(i, (a, n, l, r))| SettingHit::drawn(&shown, i, (a, n), l, r))
            .collect();
        self.form = rect;
        let help_area = Rect {
            y: list_area.bottom() + blank,
            height: help_h,
            ..rect
        };
        if help_h >= help_rows {
            super::text::whole(help_area, help);
        }
        if help_h > 0 {
            let lines: Vec<Line> = wrap_fitted(help, width, help_h)
                .into_iter()
                .map(|l| Line::styled(l, theme.dim()))
                .collect();
            frame.render_widget(Paragraph::new(lines), help_area);
        }
        let foot_area = Rect {
            y: help_area.bottom(),
            height: rect.bottom().saturating_sub(help_area.bottom()),
            ..rect
        };
        let start_rows = foot.rows_of(0);
        let shown = foot.render(frame, foot_area, 0, theme.dim());
        self.start_rows = shown.rows(start_rows.0, start_rows.1);
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        self.prepared = None;
        // A click on the "Enter starts" line starts; on a setting, selects it, and on its ◀ or ▶ changes it; the
        // wheel moves between settings.
        let key = match event.kind {
            MouseEventKind::ScrollUp => KeyCode::Up,
            MouseEventKind::ScrollDown => KeyCode::Down,
            MouseEventKind::Down(MouseButton::Left) => {
                let (x, y) = (event.column, event.row);
                if !contains(self.form, x, y) {
                    return Transition::Stay;
                }
                if self.start_rows.is_some_and(|(a, b)| (a..=b).contains(&y)) {
                    return self.handle_key(KeyEvent::from(KeyCode::Enter), ctx);
                }
                let Some(hit) = SettingHit::on_row(&self.hits, y) else {
                    return Transition::Stay;
                };
                if hit.setting != self.row {
                    if !self.commit_typing() {
                        return Transition::Stay;
                    }
                    self.row = hit.setting;
                }
                match hit.arrow(x, y) {
                    Some(code) => code,
                    None => return Transition::Stay,
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
        // Numbers, decimals, text and choices of numbers (a target tile) can be typed.
        let typable = rows.get(self.row).is_some_and(|s| match s.kind {
            Kind::Number { .. } | Kind::Decimal { .. } | Kind::Text => true,
            Kind::Choice(list) => list.iter().all(|(v, _)| v.parse::<u64>().is_ok()),
            Kind::Toggle => false,
        });
        if typable && let KeyCode::Char(c) = key.code {
            let kind = rows.get(self.row).map(|s| s.kind);
            let numeric = kind.is_some_and(|k| !matches!(k, Kind::Text));
            let whole = kind.is_some_and(|k| matches!(k, Kind::Choice(_) | Kind::Number { .. }));
            if !numeric || c.is_ascii_digit() || (c == '.' && !whole) {
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
