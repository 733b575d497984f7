//! The codebreaker screen: the board, the guess being typed, counts, hints and the end screens.

use super::board::{BoardSpec, board_lines, palette_lines};
use crate::games::mastermind::{Hint, RULES, Session};
use crate::tui::keys::{Binding, bar, common, describe, lookup, more};
use crate::tui::layout::{chrome, draw_dialog};
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use mastermind::{Code, CodeStyle, Palette};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::sync::mpsc::Receiver;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Left,
    Right,
    Up,
    Down,
    Erase,
    Clear,
    Submit,
    Copy,
    Count,
    Hint,
    GiveUp,
    Quit,
    Nothing,
}

const BINDINGS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "letter/number",
        help: "colour",
        in_bar: false,
        cmd: Cmd::Nothing,
    },
    more(
        &[KeyCode::Left, KeyCode::Char('h')],
        "← h",
        "cursor left",
        Cmd::Left,
    ),
    more(
        &[KeyCode::Right, KeyCode::Char('l')],
        "→ l",
        "cursor right",
        Cmd::Right,
    ),
    more(&[KeyCode::Up], "↑", "next colour at the cursor", Cmd::Up),
    more(
        &[KeyCode::Down],
        "↓",
        "previous colour at the cursor",
        Cmd::Down,
    ),
    more(
        &[KeyCode::Backspace],
        "Backspace",
        "erase the peg before the cursor",
        Cmd::Erase,
    ),
    more(&[KeyCode::Delete], "Delete", "clear the guess", Cmd::Clear),
    bar(&[KeyCode::Enter], "Enter", "guess", Cmd::Submit),
    bar(&[KeyCode::Char('=')], "=", "copy last", Cmd::Copy),
    bar(&[KeyCode::Char('n')], "n", "count", Cmd::Count),
    bar(&[KeyCode::Char('t')], "t", "hint", Cmd::Hint),
    more(&[KeyCode::Char('x')], "x", "give up", Cmd::GiveUp),
    bar(common::BACK, "q", "quit (saved)", Cmd::Quit),
];

/// The codebreaker screen.
pub struct BreakerView {
    session: Session,
    slots: Vec<Option<u8>>,
    cursor: usize,
    message: Option<String>,
    /// A hint being computed.
    pending: Option<Receiver<Result<Hint, String>>>,
    /// The last hint, shown until the next guess.
    hint: Option<Hint>,
    confirm_give_up: bool,
    /// Where the palette and the guess row were drawn (for the mouse).
    palette_area: Rect,
    palette_hits: Vec<(Rect, u8)>,
    slot_hits: Vec<(Rect, usize)>,
}

impl BreakerView {
    /// A screen playing `session` (`resumed`: continued from the database).
    pub fn new(session: Session, resumed: bool) -> BreakerView {
        let pegs = usize::from(session.variant().pegs());
        BreakerView {
            message: resumed.then(|| "Continuing your game in progress.".to_string()),
            session,
            slots: vec![None; pegs],
            cursor: 0,
            pending: None,
            hint: None,
            confirm_give_up: false,
            palette_area: Rect::default(),
            palette_hits: Vec::new(),
            slot_hits: Vec::new(),
        }
    }

    /// The session being played (for tests).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Waits for a hint being computed (tests and tools).
    pub fn wait_hint(&mut self) {
        if let Some(rx) = self.pending.take() {
            let r = rx
                .recv()
                .unwrap_or_else(|_| Err("the hint was lost".into()));
            self.show_hint(r);
        }
    }

    fn show_hint(&mut self, r: Result<Hint, String>) {
        match r {
            Ok(h) => {
                self.message = None;
                self.hint = Some(h);
            }
            Err(e) => self.message = Some(format!("no hint: {e}")),
        }
    }

    fn colour_of_key(&self, c: char) -> Option<u8> {
        let v = self.session.variant();
        (0..v.colours()).find(|&i| {
            v.colour_symbol(i).eq_ignore_ascii_case(&c)
                || (v.palette() == Palette::Colours
                    && c.to_digit(10) == Some(v.colour_number(i) % 10))
        })
    }

    fn put(&mut self, c: u8) {
        self.slots[self.cursor] = Some(c);
        if self.cursor + 1 < self.slots.len() {
            self.cursor += 1;
        }
    }

    fn submit(&mut self, ctx: &mut Ctx) {
        let v = *self.session.variant();
        let missing = self.slots.iter().filter(|s| s.is_none()).count();
        if missing > 0 {
            self.message = Some(format!(
                "wrong length: {} of {} pegs placed (no guess used)",
                self.slots.len() - missing,
                self.slots.len()
            ));
            return;
        }
        let pegs: Vec<u8> = self.slots.iter().flatten().copied().collect();
        let Some(code) = Code::from_pegs(&pegs) else {
            return;
        };
        match self.session.guess(code, ctx.store) {
            Ok(fb) => {
                self.message = Some(format!(
                    "{}: {} black, {} white",
                    v.format_code(&code, CodeStyle::Names),
                    fb.black,
                    fb.white
                ));
                self.slots = vec![None; self.slots.len()];
                self.cursor = 0;
                self.hint = None;
            }
            Err(e) => self.message = Some(format!("{e} (no guess used)")),
        }
        if let Some(e) = self.session.storage_error.take() {
            self.message = Some(e);
        }
    }

    fn new_game(&mut self, ctx: &mut Ctx) -> Transition {
        let seed = ctx.seed.take().unwrap_or_else(crate::games::fresh_seed);
        Transition::Replace(Box::new(BreakerView::new(
            Session::new(self.session.options.clone(), seed),
            false,
        )))
    }

    fn status_line(&self, theme: &Theme) -> Line<'static> {
        let s = &self.session;
        let used = s.game.history().len();
        if s.ended.is_some() {
            return Line::raw(format!("Guesses used: {used} of {}", s.variant().guesses()));
        }
        let mut spans = vec![
            Span::raw("Guess "),
            Span::styled(
                format!("{}", (used + 1).min(s.variant().guesses() as usize)),
                theme.strong(),
            ),
            Span::raw(format!(" of {}", s.variant().guesses())),
        ];
        let rep = if s.variant().guess_repeats() {
            "repeats allowed"
        } else {
            "no colour twice"
        };
        spans.push(Span::styled(format!(" · {rep}"), theme.dim()));
        if s.meta.assisted {
            spans.push(Span::styled(" · assisted", theme.dim()));
        }
        Line::from(spans)
    }

    fn dialog(&self, theme: &Theme) -> Option<(&'static str, Vec<Line<'static>>)> {
        let s = &self.session;
        let v = s.variant();
        if self.confirm_give_up {
            return Some((
                "Give up?",
                vec![
                    Line::raw("The code is revealed and the game recorded."),
                    Line::raw("y give up · n carry on"),
                ],
            ));
        }
        let end = s.ended.as_ref()?;
        let n = s.game.history().len();
        let secret = s.game.reveal();
        let (title, head) = match end.result {
            "won" => (
                "You win!",
                Line::styled(
                    format!(
                        "You cracked the code in {n} guess{}!",
                        if n == 1 { "" } else { "es" }
                    ),
                    theme.good(),
                ),
            ),
            "gave up" => ("Given up", Line::styled("You gave up.", theme.strong())),
            _ => (
                "Out of guesses",
                Line::styled("No guesses left: you lose.", theme.warn()),
            ),
        };
        let rank = match (end.rank, s.meta.assisted, end.id) {
            (_, true, Some(_)) => "assisted: kept out of the best scores".to_string(),
            (Some(1), false, _) => format!("a new best for {}!", s.options.group()),
            (Some(r), false, _) => format!("rank {r} among {} scores", s.options.group()),
            (None, false, Some(id)) => format!("recorded as game #{id}"),
            _ => "not recorded".to_string(),
        };
        Some((
            title,
            vec![
                head,
                Line::raw(format!(
                    "The code: {}",
                    v.format_code(&secret, CodeStyle::Names)
                )),
                Line::raw(rank),
                Line::raw("r new game · q back"),
            ],
        ))
    }
}

impl View for BreakerView {
    fn min_size(&self) -> (u16, u16) {
        let g = self.session.variant().guesses().min(12) as u16;
        // Title, status, board (code, rule, rows), palette (up to 3 lines), hint, message, dialog room, bar.
        (64, (g + 12).max(18))
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let s = &self.session;
        let v = *s.variant();
        let title = format!("Parlor · Mastermind · {} · codebreaker", s.options.group());
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let palette = palette_lines(theme, &v, body.width);
        let dialog = self.dialog(theme);
        let dialog_h = dialog.as_ref().map_or(0, |(_, l)| l.len() as u16 + 2);
        let [status, board, pal, hint, msg, dlg] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(palette.len() as u16 + 1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(dialog_h),
        ])
        .areas(body);
        frame.render_widget(Paragraph::new(self.status_line(theme)), status);
        let over = s.ended.is_some();
        let secret = over.then(|| s.game.reveal());
        let spec = BoardSpec {
            variant: &v,
            history: s.game.history(),
            current: (!over).then_some((self.slots.as_slice(), self.cursor)),
            secret,
            selected: None,
            marked: &[],
            pending: None,
        };
        let lines = board_lines(&spec, theme, usize::from(board.height));
        // Where the guess row's slots are, for mouse clicks: the row after the history, 8 columns in.
        self.slot_hits.clear();
        if !over {
            let total = lines.len();
            let rows_shown = total.saturating_sub(2);
            let all_rows = (v.guesses() as usize).max(s.game.history().len() + 1);
            let first = all_rows
                .saturating_sub(rows_shown)
                .min(s.game.history().len());
            let first = if all_rows <= rows_shown { 0 } else { first };
            let row = board.y + 2 + (s.game.history().len() - first) as u16;
            for k in 0..self.slots.len() {
                self.slot_hits.push((
                    Rect {
                        x: board.x + 7 + 3 * k as u16,
                        y: row,
                        width: 3,
                        height: 1,
                    },
                    k,
                ));
            }
        }
        frame.render_widget(Paragraph::new(lines), board);
        self.palette_area = pal;
        self.palette_hits.clear();
        {
            // Mirror palette_lines' layout to know where each colour landed.
            let (mut x, mut y) = (pal.x + 2, pal.y + 1);
            for c in 0..v.colours() {
                let label = match v.palette() {
                    Palette::Colours => 5 + v.colour_name(c).len() as u16,
                    Palette::Digits => 2,
                };
                if x + 3 + label > pal.x + pal.width && x > pal.x + 2 {
                    x = pal.x + 2;
                    y += 1;
                }
                self.palette_hits.push((
                    Rect {
                        x,
                        y,
                        width: 3 + label,
                        height: 1,
                    },
                    c,
                ));
                x += 3 + label;
            }
        }
        let mut pal_lines = vec![Line::styled(
            "Colours (type the letter or the number):",
            theme.dim(),
        )];
        pal_lines.extend(palette);
        frame.render_widget(Paragraph::new(pal_lines), pal);
        if let Some(h) = &self.hint {
            let line = Line::from(vec![
                Span::styled("Hint: ", theme.strong()),
                Span::raw(format!(
                    "{} · {} code{} left · about {:.2} guesses to go",
                    v.format_code(&h.guess, CodeStyle::Names),
                    h.remaining,
                    if h.remaining == 1 { "" } else { "s" },
                    h.expected
                )),
            ]);
            frame.render_widget(Paragraph::new(line), hint);
        } else if self.pending.is_some() {
            frame.render_widget(
                Paragraph::new(Span::styled("Hint: thinking…", theme.dim())),
                hint,
            );
        }
        if let Some(m) = &self.message {
            frame.render_widget(Paragraph::new(Span::styled(m.clone(), theme.dim())), msg);
        }
        if let Some((title, lines)) = dialog {
            draw_dialog(frame, dlg, title, lines);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if self.confirm_give_up {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    self.confirm_give_up = false;
                    self.session.give_up(ctx.store);
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.confirm_give_up = false
                }
                _ => {}
            }
            return Transition::Stay;
        }
        if self.session.ended.is_some() {
            return match key.code {
                KeyCode::Char('r') | KeyCode::Char('R') | KeyCode::Enter => self.new_game(ctx),
                KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Transition::Pop,
                _ => Transition::Stay,
            };
        }
        if let KeyCode::Char(ch) = key.code
            && lookup(BINDINGS, &key).is_none()
        {
            match self.colour_of_key(ch) {
                Some(c) => {
                    self.put(c);
                    self.message = None;
                }
                None => {
                    self.message = Some(format!(
                        "unknown colour '{ch}': use {} (no guess used)",
                        colour_keys(self.session.variant())
                    ))
                }
            }
            return Transition::Stay;
        }
        let Some(cmd) = lookup(BINDINGS, &key) else {
            return Transition::Stay;
        };
        let n = self.slots.len();
        let colours = self.session.variant().colours();
        match cmd {
            Cmd::Left => self.cursor = self.cursor.saturating_sub(1),
            Cmd::Right => self.cursor = (self.cursor + 1).min(n - 1),
            Cmd::Up | Cmd::Down => {
                let c = self.slots[self.cursor];
                self.slots[self.cursor] = Some(match (c, cmd) {
                    (None, Cmd::Up) => 0,
                    (None, _) => colours - 1,
                    (Some(c), Cmd::Up) => (c + 1) % colours,
                    (Some(c), _) => (c + colours - 1) % colours,
                });
            }
            Cmd::Erase => {
                if self.slots[self.cursor].is_none() && self.cursor > 0 {
                    self.cursor -= 1;
                }
                self.slots[self.cursor] = None;
            }
            Cmd::Clear => {
                self.slots = vec![None; n];
                self.cursor = 0;
            }
            Cmd::Submit => self.submit(ctx),
            Cmd::Copy => match self.session.game.history().last() {
                Some((code, _)) => {
                    self.slots = code.pegs().iter().map(|&c| Some(c)).collect();
                    self.cursor = n - 1;
                }
                None => self.message = Some("no previous guess to copy".into()),
            },
            Cmd::Count => {
                let r = self.session.remaining();
                self.message = Some(format!(
                    "{r} code{} still fit every answer",
                    if r == 1 { "" } else { "s" }
                ));
            }
            Cmd::Hint => {
                if self.pending.is_none() {
                    self.pending = Some(self.session.hint_request(ctx.store).spawn());
                    self.message = Some("the game is now assisted".into());
                }
            }
            Cmd::GiveUp => self.confirm_give_up = true,
            Cmd::Quit => {
                self.session.save(ctx.store);
                return Transition::Pop;
            }
            Cmd::Nothing => {}
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, ev: MouseEvent, _ctx: &mut Ctx) -> Transition {
        if ev.kind != MouseEventKind::Down(MouseButton::Left) || self.session.ended.is_some() {
            return Transition::Stay;
        }
        let hit = |r: &Rect| {
            ev.column >= r.x
                && ev.column < r.x + r.width
                && ev.row >= r.y
                && ev.row < r.y + r.height
        };
        if let Some(&(_, c)) = self.palette_hits.iter().find(|(r, _)| hit(r)) {
            self.put(c);
        } else if let Some(&(_, k)) = self.slot_hits.iter().find(|(r, _)| hit(r)) {
            self.cursor = k;
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if let Some(rx) = &self.pending
            && let Ok(r) = rx.try_recv()
        {
            self.pending = None;
            self.show_hint(r);
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.pending.is_some().then_some(50)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(BINDINGS, true)
    }

    fn help(&self) -> Help {
        let v = self.session.variant();
        let mut text = vec![format!(
            "Colour keys: {}. Arrows or h/l move the cursor; ↑/↓ change the colour under it; the mouse can pick a \
             colour and a slot.",
            colour_keys(v)
        )];
        text.extend(RULES.iter().map(|s| s.to_string()));
        Help {
            title: "Mastermind: codebreaker".into(),
            keys: describe(BINDINGS, false),
            text,
        }
    }

    fn on_quit(&mut self, ctx: &mut Ctx) {
        self.session.save(ctx.store);
    }
}

/// The keys that type colours, e.g. `R G Y U K O or 1-6`.
pub fn colour_keys(v: &mastermind::Variant) -> String {
    let syms: Vec<String> = (0..v.colours())
        .map(|c| v.colour_symbol(c).to_string())
        .collect();
    match v.palette() {
        Palette::Colours => format!(
            "{} or 1-{}",
            syms.join(" "),
            if v.colours() == 10 {
                "9, 0".to_string()
            } else {
                v.colours().to_string()
            }
        ),
        Palette::Digits => syms.join(" "),
    }
}
