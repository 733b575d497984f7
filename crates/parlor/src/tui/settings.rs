//! The settings screen: every setting of [`crate::settings`] in one scrolling list, changed with ←→ (or typed, or a
//! key pressed for a key binding) and saved at once; the message line says whether the file was written.

use super::keys::{Binding, Nav, NavWords, bar, lookup, set_keymap};
use super::layout::{chrome, wrap_fitted, wrap_text};
use super::mouse::SettingHit;
use super::text::Wrapped;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::settings::Kind;
use crate::settings::{Keeper, Row, Section, Settings};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

const NAV: NavWords = NavWords(["choose", "choose", "change", "change", "edit", "back"]);

/// The screen's own key: put the chosen setting back to its default.
const DEFAULT: &[Binding<()>] = &[bar(
    &[KeyCode::Char('r'), KeyCode::Delete],
    "r",
    "reset to default",
    (),
)];

/// The settings screen.
pub struct SettingsView {
    rows: Vec<Row>,
    row: usize,
    scroll: usize,
    /// Digits being typed into a number.
    typing: Option<String>,
    /// Waiting for the key to give the chosen command.
    capturing: bool,
    message: Option<(String, bool)>,
    file: Option<String>,
    /// The list as last drawn, for the mouse (from the wrapped layout): its area, and each setting shown with its
    /// screen rows and where its `◀` and `▶` are.
    list_area: Rect,
    hits: Vec<SettingHit>,
}

impl SettingsView {
    /// The screen over the settings as they are.
    pub fn new(settings: &Settings, keeper: Option<&dyn Keeper>) -> SettingsView {
        SettingsView {
            rows: settings.rows(),
            row: 0,
            scroll: 0,
            typing: None,
            capturing: false,
            message: None,
            file: keeper.map(Keeper::location),
            list_area: Rect::default(),
            hits: Vec::new(),
        }
    }

    /// Applies a change, saves, and says what happened.
    fn change(&mut self, ctx: &mut Ctx, value: &str) {
        let Some(row) = self.rows.get(self.row).cloned() else {
            return;
        };
        let mut next = ctx.settings.clone();
        if let Err(why) = next.set(row.section, row.key, value) {
            self.message = Some((format!("not changed: {why}"), true));
            return;
        }
        self.commit(ctx, next);
    }

    fn commit(&mut self, ctx: &mut Ctx, next: Settings) {
        *ctx.settings = next;
        set_keymap(ctx.settings.keys());
        self.rows = ctx.settings.rows();
        self.message = Some(match ctx.keeper {
            Some(keeper) => match keeper.save(ctx.settings) {
                Ok(said) => (said, false),
                Err(why) => (
                    format!("NOT saved ({why}): the change lasts until Parlor closes"),
                    true,
                ),
            },
            None => (
                "NOT saved (no configuration directory): the change lasts until Parlor closes"
                    .into(),
                true,
            ),
        });
    }

    /// The value after a step left or right: halving or doubling a speed, else the setting's own step.
    fn stepped(row: &Row, up: bool) -> Option<String> {
        let s = row.setting?;
        let now = s
            .check(&row.shown)
            .ok()
            .unwrap_or_else(|| row.shown.clone());
        match s.kind {
            Kind::Number { min, max } if row.key.ends_with("-ms") => {
                let v: i64 = now.parse().ok()?;
                let w = if up { v.saturating_mul(2) } else { v / 2 };
                let w = w.clamp(min, max);
                (w != v).then(|| w.to_string())
            }
            _ => s.step(&now, up),
        }
    }

    fn commit_typing(&mut self, ctx: &mut Ctx) {
        if let Some(t) = self.typing.take()
            && !t.is_empty()
        {
            self.change(ctx, &t);
        }
    }

    fn reset(&mut self, ctx: &mut Ctx) {
        let Some(row) = self.rows.get(self.row).cloned() else {
            return;
        };
        let defaults = ctx.settings.defaults();
        match defaults.get(row.section, row.key) {
            Some(v) => self.change(ctx, &v),
            None => self.message = Some(("this setting has no default".into(), true)),
        }
    }

    fn capture(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        self.capturing = false;
        if key.code == KeyCode::Esc {
            self.message = Some(("unchanged".into(), false));
            return;
        }
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            self.message = Some((
                "Ctrl and Alt combinations cannot be bound: unchanged".into(),
                true,
            ));
            return;
        }
        let Some(row) = self.rows.get(self.row).cloned() else {
            return;
        };
        let Some(i) = crate::tui::keys::actions::find(row.key) else {
            return;
        };
        let mut next = ctx.settings.clone();
        match next.set_keys(i, vec![key.code]) {
            Ok(()) => self.commit(ctx, next),
            Err(why) => self.message = Some((format!("refused: {why}"), true)),
        }
    }
}

impl View for SettingsView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, "Parlor · settings", &self.hint_bar(), theme);
        let label_w = self
            .rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(0)
            .min(usize::from(area.width / 2));
        let mut lines = Vec::new();
        // For each logical line: the setting it shows, if any.
        let mut items: Vec<Option<usize>> = Vec::new();
        let mut section: Option<Section> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if section != Some(r.section) {
                section = Some(r.section);
                if i > 0 {
                    lines.push(Line::raw(""));
                    items.push(None);
                }
                lines.push(Line::styled(r.heading.clone(), theme.strong()));
                items.push(None);
            }
            let value = match (&self.typing, i == self.row, self.capturing) {
                (Some(t), true, _) => format!("{t}▏"),
                (_, true, true) => "press a key… (Esc: unchanged)".to_string(),
                _ => r.shown.clone(),
            };
            let text = format!("{:<label_w$}  ◀ {value} ▶", r.label);
            items.push(Some(i));
            if i == self.row {
                lines.push(Line::styled(format!("▸ {text}"), theme.selected()));
            } else {
                lines.push(Line::raw(format!("  {text}")));
            }
        }
        let list = Wrapped::new(lines, body.width);
        // Under the list: the chosen setting's help (shortened with `…` on a short screen: the help page explains
        // every setting) and the message line, whole, each as tall as its wrapped text.
        let (text, style) = match &self.message {
            Some((m, true)) => (m.clone(), theme.warn()),
            Some((m, false)) => (m.clone(), theme.text()),
            None => (
                match &self.file {
                    Some(f) => format!("kept in {f}"),
                    None => "no configuration directory: changes last for this run only".into(),
                },
                theme.dim(),
            ),
        };
        let msg = Wrapped::new(vec![Line::styled(text, style)], body.width);
        let help = self
            .rows
            .get(self.row)
            .map(|r| format!("{} [{}]", r.help, r.range))
            .unwrap_or_default();
        let help_rows = wrap_text(&help, body.width).len() as u16;
        let msg_h = msg.height().min(body.height.saturating_sub(4));
        let help_h = help_rows.min(3).min(body.height.saturating_sub(msg_h + 3));
        let [list_area, help_area, msg_area] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(help_h),
            Constraint::Length(msg_h),
        ])
        .areas(body);
        // Keep the selection (and its heading, when it is the first of a section) in view.
        let line = items
            .iter()
            .position(|&it| it == Some(self.row))
            .unwrap_or(0);
        let (first, count) = list.rows_of(line);
        let (head, _) = list.rows_of(line.saturating_sub(1));
        let want = if items
            .get(line.wrapping_sub(1))
            .is_some_and(|it| it.is_none())
        {
            head
        } else {
            first
        };
        let scroll = list.scroll_to(self.scroll, want, first + count - want, list_area.height);
        let cells: Vec<(usize, usize, usize, Option<_>, Option<_>)> = items
            .iter()
            .enumerate()
            .filter_map(|(l, it)| {
                let (a, n) = list.rows_of(l);
                it.map(|i| (i, a, n, list.find(l, "◀"), list.find(l, "▶")))
            })
            .collect();
        let shown = list.render(frame, list_area, scroll, theme.dim());
        self.scroll = shown.scroll;
        self.hits = cells
            .into_iter()
            .filter_map(|(i, a, n, l, r)| SettingHit::drawn(&shown, i, (a, n), l, r))
            .collect();
        self.list_area = list_area;
        if help_h >= help_rows {
            super::text::whole(help_area, &help);
        }
        let lines: Vec<Line> = wrap_fitted(&help, help_area.width, help_area.height)
            .into_iter()
            .map(|l| Line::styled(l, theme.dim()))
            .collect();
        if help_h > 0 {
            frame.render_widget(Paragraph::new(lines), help_area);
        }
        msg.render(frame, msg_area, 0, theme.dim());
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        if self.capturing {
            return Transition::Stay;
        }
        let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
        match event.kind {
            MouseEventKind::ScrollUp => self.handle_key(key(KeyCode::Up), ctx),
            MouseEventKind::ScrollDown => self.handle_key(key(KeyCode::Down), ctx),
            MouseEventKind::Down(MouseButton::Left) => {
                let (x, y) = (event.column, event.row);
                if !super::mouse::contains(self.list_area, x, y) {
                    return Transition::Stay;
                }
                let Some(hit) = SettingHit::on_row(&self.hits, y) else {
                    return Transition::Stay;
                };
                // A click selects the setting; on its ◀ or ▶ it also changes it, as ← and → do.
                self.message = None;
                self.commit_typing(ctx);
                self.row = hit.setting;
                match hit.arrow(x, y) {
                    Some(code) => self.handle_key(key(code), ctx),
                    None => Transition::Stay,
                }
            }
            _ => Transition::Stay,
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if self.capturing {
            self.capture(key, ctx);
            return Transition::Stay;
        }
        self.message = None;
        let row = self.rows.get(self.row).cloned();
        let numeric = row
            .as_ref()
            .and_then(|r| r.setting)
            .is_some_and(|s| matches!(s.kind, Kind::Number { .. } | Kind::Decimal { .. }));
        if numeric
            && let KeyCode::Char(c) = key.code
            && (c.is_ascii_digit() || c == '.')
            && key.modifiers.is_empty()
        {
            self.typing.get_or_insert_with(String::new).push(c);
            return Transition::Stay;
        }
        if key.code == KeyCode::Backspace
            && let Some(t) = &mut self.typing
        {
            t.pop();
            return Transition::Stay;
        }
        if lookup(DEFAULT, &key).is_some() {
            self.typing = None;
            self.reset(ctx);
            return Transition::Stay;
        }
        let n = self.rows.len().max(1);
        match NAV.lookup(&key) {
            Some(Nav::Up) => {
                self.commit_typing(ctx);
                self.row = (self.row + n - 1) % n;
            }
            Some(Nav::Down) => {
                self.commit_typing(ctx);
                self.row = (self.row + 1) % n;
            }
            Some(nav @ (Nav::Left | Nav::Right)) => {
                self.commit_typing(ctx);
                let Some(row) = self.rows.get(self.row).cloned() else {
                    return Transition::Stay;
                };
                if row.setting.is_none() {
                    self.message = Some(("Enter, then press the new key".into(), false));
                } else {
                    match SettingsView::stepped(&row, nav == Nav::Right) {
                        Some(v) => self.change(ctx, &v),
                        None => {
                            self.message = Some((format!("{}: {}", row.label, row.range), false))
                        }
                    }
                }
            }
            Some(Nav::Choose) => {
                if self.typing.is_some() {
                    self.commit_typing(ctx);
                } else if row.as_ref().is_some_and(|r| r.setting.is_none()) {
                    self.capturing = true;
                } else {
                    self.message = Some((
                        "←→ change it (numbers can be typed, then Enter)".into(),
                        false,
                    ));
                }
            }
            Some(Nav::Back) if self.typing.take().is_none() => return Transition::Pop,
            Some(Nav::Back) => {}
            None => {}
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        if self.capturing {
            return vec![("any key", "bind it"), ("Esc", "unchanged")];
        }
        NAV.bar_with(DEFAULT)
    }

    fn help(&self) -> Help {
        let keys = NAV.help_with(DEFAULT);
        let place = match &self.file {
            Some(f) => format!("They are kept in {f}"),
            None => "There is no configuration directory, so they last for this run only".into(),
        };
        Help {
            title: "Settings".into(),
            keys,
            text: vec![
                format!(
                    "Every change is saved at once; the line at the bottom says whether it was. {place}, a TOML \
                     file you may also edit by hand (a mistake in it is reported with its line when Parlor \
                     starts, and that entry keeps its default)."
                ),
                "←→ change a setting (a speed halves or doubles; a number can also be typed, then Enter). On a \
                 key, Enter then the new key binds it in place of the old ones; a key another command uses, or \
                 q Esc ? Enter Space arrows digits and capitals, is refused. r (or Delete) puts a setting back \
                 to its default."
                    .into(),
                "A new game's options start from the defaults here; a flag on the command line wins. --theme \
                 chooses a theme for one run."
                    .into(),
            ],
        }
    }
}
