//! The codemaker screen: the player keeps a code in mind (or types it, hidden), the computer guesses, the player
//! answers; contradictory answers are pointed out and can be corrected.

use super::board::{BoardSpec, board_lines, feedback_text, palette_lines};
use super::breaker::colour_keys;
use crate::games::mastermind::{MakerEvent, MakerSession, RULES};
use crate::tui::keys::{Binding, bar, common, describe, lookup, more};
use crate::tui::layout::{chrome, draw_dialog};
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use crossterm::event::{KeyCode, KeyEvent};
use mastermind::{AnswerError, Code, CodeStyle, Feedback, Palette};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::sync::mpsc::Receiver;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Up,
    Down,
    Erase,
    Submit,
    GiveUp,
    Quit,
    Nothing,
}

const BINDINGS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "2 1 / RRW",
        help: "answer",
        in_bar: true,
        cmd: Cmd::Nothing,
    },
    bar(&[KeyCode::Enter], "Enter", "send", Cmd::Submit),
    bar(
        &[KeyCode::Up, KeyCode::Down],
        "↑↓",
        "fix an answer",
        Cmd::Nothing,
    ),
    more(&[KeyCode::Up], "↑", "select the answer above", Cmd::Up),
    more(&[KeyCode::Down], "↓", "select the answer below", Cmd::Down),
    more(
        &[KeyCode::Backspace],
        "Backspace",
        "erase a character",
        Cmd::Erase,
    ),
    more(&[KeyCode::Char('x')], "x", "give up", Cmd::GiveUp),
    bar(common::BACK, "q", "quit (saved)", Cmd::Quit),
];

/// The codemaker screen.
pub struct MakerView {
    session: MakerSession,
    /// Typing the secret (hidden), before the first guess.
    secret_input: Option<Vec<u8>>,
    /// The computer's guess on the table, or being computed.
    guess: Option<Code>,
    pending: Option<Receiver<Code>>,
    /// The answer being typed.
    answer: String,
    /// The row the answer goes to: the current guess (= history length) or an earlier one to correct.
    selected: usize,
    /// Rows named by the last contradiction.
    marked: Vec<usize>,
    message: Option<String>,
    confirm_give_up: bool,
}

impl MakerView {
    /// A screen playing `session` (`resumed`: continued from the database).
    pub fn new(session: MakerSession, resumed: bool) -> MakerView {
        let ask_secret = !resumed && !session.started() && session.options.secret.is_none();
        let selected = session.breaker.history().len();
        let mut v = MakerView {
            secret_input: ask_secret.then(Vec::new),
            guess: None,
            pending: None,
            answer: String::new(),
            selected,
            marked: Vec::new(),
            message: resumed.then(|| "Continuing your game in progress.".to_string()),
            confirm_give_up: false,
            session,
        };
        if !ask_secret {
            v.think();
        }
        v
    }

    /// The session being played (for tests).
    pub fn session(&self) -> &MakerSession {
        &self.session
    }

    /// Waits for the computer's guess (tests and tools).
    pub fn wait_guess(&mut self) {
        if let Some(rx) = self.pending.take()
            && let Ok(g) = rx.recv()
        {
            self.take_guess(g);
        }
    }

    fn think(&mut self) {
        self.guess = None;
        self.answer.clear();
        if self.session.ended.is_none() {
            self.pending = Some(self.session.guess_job());
        }
    }

    fn take_guess(&mut self, g: Code) {
        self.guess = Some(g);
        if let Some(fb) = self.session.auto_answer(g) {
            self.answer = format!("{} {}", fb.black, fb.white);
        }
    }

    fn history_len(&self) -> usize {
        self.session.breaker.history().len()
    }

    fn submit(&mut self, ctx: &mut Ctx) {
        let pegs = self.session.variant().pegs();
        let fb = match Feedback::parse(&self.answer, pegs) {
            Ok(fb) => fb,
            Err(e) => {
                self.message = Some(e.to_string());
                return;
            }
        };
        if self.selected < self.history_len() {
            let i = self.selected;
            match self.session.correct(i, fb, ctx.store) {
                Ok(()) => {
                    self.message = Some(format!(
                        "answer {} corrected: {} black, {} white · {} codes fit",
                        i + 1,
                        fb.black,
                        fb.white,
                        self.session.remaining()
                    ));
                    self.marked.clear();
                    self.selected = self.history_len();
                    self.think();
                }
                Err(e) => self.message = Some(format!("not changed: {e}")),
            }
            return;
        }
        let Some(guess) = self.guess else {
            self.message = Some("the computer is still thinking".into());
            return;
        };
        match self.session.answer(guess, fb, ctx.store) {
            Ok(MakerEvent::Recorded) => {
                let r = self.session.remaining();
                self.message = Some(format!(
                    "{r} code{} still fit your answers",
                    if r == 1 { "" } else { "s" }
                ));
                self.marked.clear();
                self.selected = self.history_len();
                self.think();
            }
            Ok(MakerEvent::Ended) => {
                self.guess = None;
                self.answer.clear();
                self.selected = self.history_len();
            }
            Err(AnswerError::Contradiction(c)) => {
                self.marked = c.suspects.clone();
                self.message = Some(format!(
                    "{c}. ↑↓ pick the wrong answer, type the right one, Enter."
                ));
                if let Some(&first) = c.suspects.first() {
                    self.selected = first;
                    self.answer.clear();
                }
            }
            Err(e) => self.message = Some(e.to_string()),
        }
        if let Some(e) = self.session.storage_error.take() {
            self.message = Some(e);
        }
    }

    fn secret_key(&mut self, key: &KeyEvent) -> Transition {
        let v = *self.session.variant();
        let Some(input) = self.secret_input.as_mut() else {
            return Transition::Stay;
        };
        match key.code {
            KeyCode::Enter if input.is_empty() => {
                self.secret_input = None;
                self.message = Some("keep your code in mind and answer each guess".into());
                self.think();
            }
            KeyCode::Enter => match Code::from_pegs(input)
                .ok_or_else(|| "not a code".to_string())
                .and_then(|c| v.validate_secret(&c).map(|_| c).map_err(|e| e.to_string()))
            {
                Ok(c) => {
                    self.session.options.secret = Some(c);
                    self.secret_input = None;
                    self.message = Some(
                        "code taken: the computer scores its own guesses; Enter to go on".into(),
                    );
                    self.think();
                }
                Err(e) => self.message = Some(e),
            },
            KeyCode::Backspace => {
                input.pop();
            }
            KeyCode::Esc => return Transition::Pop,
            KeyCode::Char(ch) => {
                let c = (0..v.colours()).find(|&i| {
                    v.colour_symbol(i).eq_ignore_ascii_case(&ch)
                        || (v.palette() == Palette::Colours
                            && ch.to_digit(10) == Some(v.colour_number(i) % 10))
                });
                match c {
                    Some(c) if input.len() < usize::from(v.pegs()) => {
                        input.push(c);
                        self.message = None;
                    }
                    Some(_) => self.message = Some(format!("a code has {} pegs", v.pegs())),
                    None => {
                        self.message =
                            Some(format!("unknown colour '{ch}': use {}", colour_keys(&v)))
                    }
                }
            }
            _ => {}
        }
        Transition::Stay
    }

    fn dialog(&self, theme: &Theme) -> Option<(&'static str, Vec<Line<'static>>)> {
        let s = &self.session;
        if self.confirm_give_up {
            return Some((
                "Give up?",
                vec![
                    Line::raw("The game ends here and is recorded."),
                    Line::raw("y give up · n carry on"),
                ],
            ));
        }
        let end = s.ended.as_ref()?;
        let n = s.breaker.history().len();
        let (title, head) = match end.result {
            "lost" => (
                "Code found",
                Line::styled(
                    format!(
                        "The computer found your code in {n} guess{}.",
                        if n == 1 { "" } else { "es" }
                    ),
                    theme.strong(),
                ),
            ),
            "won" => (
                "You win!",
                Line::styled(
                    format!("The computer did not find your code in {n} guesses!"),
                    theme.good(),
                ),
            ),
            _ => ("Given up", Line::styled("You gave up.", theme.strong())),
        };
        let recorded = match end.id {
            Some(id) => format!("recorded as game #{id} ({})", s.options.group()),
            None => "not recorded".into(),
        };
        Some((
            title,
            vec![head, Line::raw(recorded), Line::raw("r new game · q back")],
        ))
    }
}

impl View for MakerView {
    fn min_size(&self) -> (u16, u16) {
        let g = self.session.variant().guesses().min(12) as u16;
        (64, (g + 12).max(18))
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let s = &self.session;
        let v = *s.variant();
        let title = format!("Parlor · Mastermind · {} · codemaker", s.options.group());
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let palette = palette_lines(theme, &v, body.width);
        let dialog = self.dialog(theme);
        let dialog_h = dialog.as_ref().map_or(0, |(_, l)| l.len() as u16 + 2);
        let [status, board, pal, input, msg, dlg] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(palette.len() as u16),
            Constraint::Length(2),
            Constraint::Length(3),
            Constraint::Length(dialog_h),
        ])
        .areas(body);
        let who = match s.options.secret {
            Some(_) => "scored from your hidden code",
            None => "you answer",
        };
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::raw(format!(
                    "Computer guess {} of {} · ",
                    (s.breaker.history().len() + 1).min(v.guesses() as usize),
                    v.guesses()
                )),
                Span::styled(format!("{} codes fit · {who}", s.remaining()), theme.dim()),
            ])),
            status,
        );
        let preview = Feedback::parse(&self.answer, v.pegs()).ok();
        let pending = if s.ended.is_none() {
            self.guess.map(|g| {
                (
                    g,
                    if self.selected == s.breaker.history().len() {
                        preview
                    } else {
                        None
                    },
                )
            })
        } else {
            None
        };
        // The code stays hidden until the end (then: the typed code, or the one the computer found).
        let secret = s.ended.as_ref().and_then(|e| {
            s.options.secret.or_else(|| {
                (e.result == "lost")
                    .then(|| s.breaker.history().last().map(|(c, _)| *c))
                    .flatten()
            })
        });
        let spec = BoardSpec {
            variant: &v,
            history: s.breaker.history(),
            current: None,
            secret,
            selected: (self.selected < s.breaker.history().len()).then_some(self.selected),
            marked: &self.marked,
            pending,
        };
        frame.render_widget(
            Paragraph::new(board_lines(&spec, theme, usize::from(board.height))),
            board,
        );
        frame.render_widget(Paragraph::new(palette), pal);
        let input_lines = if let Some(typed) = &self.secret_input {
            vec![
                Line::styled(
                    "Think of a code. Type it (hidden) to let the computer score, or just press Enter to keep it in mind:",
                    theme.strong(),
                ),
                Line::raw(format!(
                    "  your code: {}{}",
                    "*".repeat(typed.len()),
                    "_".repeat(usize::from(v.pegs()) - typed.len().min(usize::from(v.pegs())))
                )),
            ]
        } else if s.ended.is_some() {
            Vec::new()
        } else if self.pending.is_some() {
            vec![Line::styled("The computer is thinking…", theme.dim())]
        } else {
            let target = if self.selected < s.breaker.history().len() {
                format!("Correct answer {}", self.selected + 1)
            } else {
                "Your answer".to_string()
            };
            let shown = preview
                .map(|f| format!("   {}", feedback_text(f, v.pegs())))
                .unwrap_or_default();
            let guess = self
                .guess
                .map(|g| v.format_code(&g, CodeStyle::Names).to_string())
                .unwrap_or_default();
            vec![
                Line::raw(format!("Guess: {guess}")),
                Line::from(vec![
                    Span::styled(format!("{target} (black white, or RRW): "), theme.strong()),
                    Span::styled(format!("{}_", self.answer), theme.selected()),
                    Span::raw(shown),
                ]),
            ]
        };
        frame.render_widget(Paragraph::new(input_lines), input);
        if let Some(m) = &self.message {
            frame.render_widget(
                Paragraph::new(Span::styled(m.clone(), theme.dim()))
                    .wrap(ratatui::widgets::Wrap { trim: true }),
                msg,
            );
        }
        if let Some((title, lines)) = dialog {
            draw_dialog(frame, dlg, title, lines);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if self.secret_input.is_some() {
            return self.secret_key(&key);
        }
        if self.confirm_give_up {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    self.confirm_give_up = false;
                    self.session.give_up(ctx.store);
                    self.pending = None;
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
                KeyCode::Char('r') | KeyCode::Char('R') | KeyCode::Enter => {
                    let mut options = self.session.options.clone();
                    options.secret = None;
                    match MakerSession::new(options) {
                        Ok(s) => Transition::Replace(Box::new(MakerView::new(s, false))),
                        Err(e) => {
                            self.message = Some(format!("{e:#}"));
                            Transition::Stay
                        }
                    }
                }
                KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Transition::Pop,
                _ => Transition::Stay,
            };
        }
        if let KeyCode::Char(ch) = key.code
            && (ch.is_ascii_digit() || " -,/bBrRwW".contains(ch))
        {
            if self.answer.len() < 16 {
                self.answer.push(ch);
            }
            return Transition::Stay;
        }
        match lookup(BINDINGS, &key) {
            Some(Cmd::Up) => {
                if self.selected > 0 {
                    self.selected -= 1;
                    self.answer.clear();
                }
            }
            Some(Cmd::Down) => {
                if self.selected < self.history_len() {
                    self.selected += 1;
                    self.answer.clear();
                    if self.selected == self.history_len()
                        && let Some(g) = self.guess
                        && let Some(fb) = self.session.auto_answer(g)
                    {
                        self.answer = format!("{} {}", fb.black, fb.white);
                    }
                }
            }
            Some(Cmd::Erase) => {
                self.answer.pop();
            }
            Some(Cmd::Submit) => self.submit(ctx),
            Some(Cmd::GiveUp) => self.confirm_give_up = true,
            Some(Cmd::Quit) => {
                self.session.save(ctx.store);
                return Transition::Pop;
            }
            Some(Cmd::Nothing) | None => {
                if let KeyCode::Char(ch) = key.code {
                    self.message = Some(format!(
                        "'{ch}' is not part of an answer: type black and white counts (2 1) or pegs (RRW)"
                    ));
                }
            }
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if let Some(rx) = &self.pending
            && let Ok(g) = rx.try_recv()
        {
            self.pending = None;
            self.take_guess(g);
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
        Help {
            title: "Mastermind: codemaker".into(),
            keys: describe(BINDINGS, false),
            text: RULES.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn on_quit(&mut self, ctx: &mut Ctx) {
        self.session.save(ctx.store);
    }
}
