//! The game screen. Choose a piece with the cursor (arrows or h j k l, Enter) or a click; then step it with
//! y k u h l b j n, or put the cursor on a marked target and press Enter, or click the target. The computer thinks
//! in a background thread, polled from `tick`, so the screen never freezes.

use super::board::{self, Marks};
use crate::games::nocca::{Mode, RULES, Session, capital, moves_from, square_refusal, target_name};
use crate::tui::keys::{Binding, bar, describe, lookup, more};
use crate::tui::layout::{chrome, draw_dialog};
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use nocca::{Dir, Engine, Move, Position, SearchResult, Square};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Cursor(i32, i32),
    Choose,
    Step(Dir),
    Cancel,
    Undo,
    Hint,
    Pause,
    NewGame,
    Quit,
}

const BINDINGS: &[Binding<Cmd>] = &[
    more(
        &[KeyCode::Up, KeyCode::Char('k')],
        "↑ k",
        "cursor up (no piece selected)",
        Cmd::Cursor(1, 0),
    ),
    more(
        &[KeyCode::Down, KeyCode::Char('j')],
        "↓ j",
        "cursor down (no piece selected)",
        Cmd::Cursor(-1, 0),
    ),
    more(
        &[KeyCode::Left, KeyCode::Char('h')],
        "← h",
        "cursor left (no piece selected)",
        Cmd::Cursor(0, -1),
    ),
    more(
        &[KeyCode::Right, KeyCode::Char('l')],
        "→ l",
        "cursor right (no piece selected)",
        Cmd::Cursor(0, 1),
    ),
    bar(
        &[KeyCode::Enter, KeyCode::Char(' ')],
        "Enter",
        "select",
        Cmd::Choose,
    ),
    Binding {
        keys: &[KeyCode::Char('y'), KeyCode::Char('b'), KeyCode::Char('n')],
        label: "yku hl bjn",
        help: "step",
        in_bar: true,
        cmd: Cmd::Step(Dir::K),
    },
    more(&[KeyCode::Esc], "Esc", "cancel the selection", Cmd::Cancel),
    bar(
        &[KeyCode::Char('u'), KeyCode::Backspace],
        "u",
        "undo",
        Cmd::Undo,
    ),
    bar(&[KeyCode::Char('t')], "t", "hint", Cmd::Hint),
    more(
        &[KeyCode::Char('p')],
        "p",
        "pause / go on (watching the computer)",
        Cmd::Pause,
    ),
    more(
        &[KeyCode::Char('r')],
        "r",
        "new game with the same options (once the game is over)",
        Cmd::NewGame,
    ),
    bar(&[KeyCode::Char('q')], "q", "quit", Cmd::Quit),
];

/// The computer's search running in a background thread.
struct Thinking {
    rx: Receiver<(Engine, Option<SearchResult>)>,
    ply: usize,
}

/// The Nocca Nocca game screen.
pub struct NoccaView {
    session: Session,
    cursor: (i32, i32),
    selected: Option<Square>,
    hint: Option<Move>,
    message: Option<String>,
    engine: Option<Engine>,
    thinking: Option<Thinking>,
    paused: bool,
    last_move_at: Instant,
    /// Where the board was last drawn (for the mouse).
    board_at: Option<Rect>,
}

/// Pause between the computer's moves when it plays both sides, so that they can be followed.
const WATCH_PAUSE: Duration = Duration::from_millis(400);

impl NoccaView {
    /// A screen playing `session`.
    pub fn new(session: Session) -> NoccaView {
        let side = session.game.side_to_move();
        let human = session.options.viewer();
        let home = if session.options.is_computer(side) {
            human
        } else {
            side
        };
        let row = session.game.position().dims().home_row(home) as i32;
        NoccaView {
            session,
            cursor: (row, 2),
            selected: None,
            hint: None,
            message: None,
            engine: None,
            thinking: None,
            paused: false,
            last_move_at: Instant::now() - WATCH_PAUSE,
            board_at: None,
        }
    }

    /// The session being played (for tests).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Whether the computer is thinking.
    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
    }

    fn pos(&self) -> Position {
        *self.session.game.position()
    }

    fn start_thinking(&mut self) {
        if self.thinking.is_some() || !self.session.computer_to_move() || self.paused {
            return;
        }
        let mut engine = self.engine.take().unwrap_or_else(|| self.session.engine());
        let game = self.session.game.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let r = engine.think(&game);
            let _ = tx.send((engine, r));
        });
        self.thinking = Some(Thinking {
            rx,
            ply: self.session.game.ply(),
        });
    }

    fn poll(&mut self, ctx: &mut Ctx) {
        let Some(t) = &self.thinking else {
            return;
        };
        match t.rx.try_recv() {
            Ok((engine, r)) => {
                let ply = t.ply;
                self.thinking = None;
                self.engine = Some(engine);
                if ply != self.session.game.ply() {
                    return;
                }
                match r {
                    Some(r) => {
                        let before = self.pos();
                        let who = capital(before.side_to_move().name());
                        if self.session.play(r.mv, ctx.store).is_ok() {
                            self.message = Some(format!(
                                "{who} (computer) played {}",
                                describe_move(&before, r.mv)
                            ));
                            self.last_move_at = Instant::now();
                            self.after_move();
                        }
                    }
                    None => self.message = Some("the computer found no move".into()),
                }
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.thinking = None;
                self.message = Some("the computer's search stopped unexpectedly".into());
            }
        }
    }

    fn after_move(&mut self) {
        self.selected = None;
        self.hint = None;
        if let Some(e) = self.session.storage_error.take() {
            self.message = Some(e);
        }
        if self.session.ended.is_none() && !self.session.computer_to_move() {
            // Put the cursor on the mover's home side if it wandered into a goal strip.
            let rows = self.pos().dims().rows() as i32;
            self.cursor.0 = self.cursor.0.clamp(0, rows - 1);
        }
    }

    fn human_move(&mut self, mv: Move, ctx: &mut Ctx) {
        let before = self.pos();
        match self.session.play(mv, ctx.store) {
            Ok(_) => {
                self.message = Some(format!(
                    "{} played {}",
                    capital(before.side_to_move().name()),
                    describe_move(&before, mv)
                ));
                self.last_move_at = Instant::now();
                self.after_move();
                self.start_thinking();
            }
            Err(e) => self.message = Some(format!("refused: {e}")),
        }
    }

    fn targets(&self) -> Vec<Move> {
        match self.selected {
            Some(sq) => moves_from(&self.pos(), sq),
            None => Vec::new(),
        }
    }

    fn select(&mut self, sq: Square) {
        match square_refusal(&self.pos(), sq) {
            None => {
                self.selected = Some(sq);
                let list: Vec<String> = self
                    .targets()
                    .iter()
                    .map(|m| format!("{} {}", m.dir, target_name(&self.pos(), *m)))
                    .collect();
                self.message = Some(format!("{sq} selected: {}", list.join(" · ")));
            }
            Some(why) => self.message = Some(why),
        }
    }

    /// Enter or a click at the cursor.
    fn choose(&mut self, ctx: &mut Ctx) {
        let (r, c) = self.cursor;
        let pos = self.pos();
        let rows = pos.dims().rows() as i32;
        let sq = if (0..rows).contains(&r) {
            Square::new(r as usize, c as usize)
        } else {
            None
        };
        if let Some(sel) = self.selected {
            if sq == Some(sel) {
                self.selected = None;
                self.message = Some("selection cancelled".into());
                return;
            }
            if let Some(m) = self.targets().into_iter().find(|m| m.target() == (r, c)) {
                self.human_move(m, ctx);
                return;
            }
        }
        match sq {
            Some(sq) => self.select(sq),
            None => self.message = Some("that is a goal: select a piece first".into()),
        }
    }

    fn step(&mut self, dir: Dir, ctx: &mut Ctx) {
        let Some(sel) = self.selected else {
            return;
        };
        let mv = Move::new(sel, dir);
        if self.pos().is_legal(mv) {
            self.human_move(mv, ctx);
        } else {
            let why = match self.pos().check(mv) {
                Err(e) => e.to_string(),
                Ok(()) => "not possible".into(),
            };
            self.message = Some(format!("{mv}: {why}"));
        }
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        let n = self.session.undo(ctx.store);
        if n == 0 {
            self.message = Some(if self.session.options.mode == Mode::Watch {
                "nothing to undo while watching".into()
            } else {
                "nothing to undo".into()
            });
            return;
        }
        // A search for a position that is gone is abandoned (its thread ends on its own).
        self.thinking = None;
        self.selected = None;
        self.hint = None;
        self.message = Some(format!(
            "took back {n} {} (game marked assisted)",
            if n == 1 { "ply" } else { "plies" }
        ));
    }

    fn new_game(&mut self, ctx: &mut Ctx) -> Transition {
        let seed = ctx.seed.take().unwrap_or_else(crate::games::fresh_seed);
        Transition::Replace(super::game_view(Session::new(self.session.options, seed)))
    }

    fn status_line(&self, theme: &Theme) -> Line<'static> {
        let s = &self.session;
        let pos = self.pos();
        let mut spans = Vec::new();
        if let Some(text) = s.ending_text() {
            spans.push(Span::styled(text, theme.strong()));
        } else {
            let side = pos.side_to_move();
            let who = if s.options.is_computer(side) {
                " (computer)"
            } else if s.options.mode == Mode::Computer {
                " (you)"
            } else {
                ""
            };
            spans.push(Span::raw("To move: "));
            spans.push(Span::styled(
                format!("{}{who}", capital(side.name())),
                theme.strong(),
            ));
            if self.thinking.is_some() {
                spans.push(Span::raw(" · thinking..."));
            } else if self.paused {
                spans.push(Span::raw(" · paused (p goes on)"));
            }
        }
        spans.push(Span::raw(format!("   Ply {}", s.game.ply())));
        if let Some(m) = s.game.moves().last() {
            let before = s.game.positions()[s.game.ply() - 1];
            spans.push(Span::raw(format!("   Last {}", describe_move(&before, *m))));
        }
        if s.meta.assisted {
            spans.push(Span::styled("   assisted", theme.dim()));
        }
        Line::from(spans)
    }

    fn end_dialog(&self, theme: &Theme) -> Option<Vec<Line<'static>>> {
        let end = self.session.ended.as_ref()?;
        let mut lines = vec![Line::styled(
            self.session.ending_text().unwrap_or_default(),
            theme.strong(),
        )];
        let rec = match (end.id, self.session.meta.assisted, end.rank) {
            (Some(id), true, _) => format!("Recorded as game #{id} (assisted)"),
            (Some(id), false, Some(r)) => format!(
                "Recorded as game #{id} · rank {r} among {} wins",
                self.session.options.variant()
            ),
            (Some(id), false, None) => format!("Recorded as game #{id} ({})", end.result),
            (None, _, _) => "Not recorded".into(),
        };
        lines.push(Line::raw(rec));
        lines.push(Line::raw("r new game · q menu"));
        Some(lines)
    }
}

/// `c1k (c1→c2)` or `c6k (into the goal)`.
fn describe_move(pos: &Position, mv: Move) -> String {
    let t = target_name(pos, mv);
    if t == "goal" {
        format!("{mv} ({} → goal)", mv.from)
    } else {
        format!("{mv} ({}→{t})", mv.from)
    }
}

impl View for NoccaView {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = board::extent(&self.pos());
        // Title, status, board, message, moves line, hint bar.
        (w.max(60) + 2, h + 5)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let s = &self.session;
        let title = format!("Parlor · Nocca Nocca · {}", s.options.describe());
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let (bw, bh) = board::extent(&self.pos());
        let [status, board_area, msg, info] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(bh),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(body);
        frame.render_widget(Paragraph::new(self.status_line(theme)), status);
        let marks = Marks {
            cursor: (s.ended.is_none() && s.options.mode != Mode::Watch).then_some(self.cursor),
            selected: self.selected,
            targets: self.targets(),
            last: s.game.moves().last().copied(),
            hint: self.hint,
        };
        let rect = Rect {
            x: board_area.x + board_area.width.saturating_sub(bw) / 2,
            y: board_area.y,
            width: bw.min(board_area.width),
            height: bh.min(board_area.height),
        };
        self.board_at = Some(rect);
        frame.render_widget(
            Paragraph::new(board::lines(&self.pos(), &marks, theme)),
            rect,
        );
        if let Some(m) = &self.message {
            frame.render_widget(Paragraph::new(Span::raw(m.clone())), msg);
        }
        if info.height > 0 && s.ended.is_none() {
            let text = if self.selected.is_some() {
                "Step: the key beside a target, or arrows to it + Enter, or a click · Esc cancels"
                    .to_string()
            } else if s.computer_to_move() {
                String::new()
            } else {
                let movable = crate::games::nocca::movable(&self.pos());
                let list: Vec<String> = movable.iter().map(|q| q.to_string()).collect();
                format!(
                    "Movable: {} · arrows or h j k l, then Enter or a click",
                    list.join(" ")
                )
            };
            frame.render_widget(Paragraph::new(Span::styled(text, theme.dim())), info);
        }
        if let Some(lines) = self.end_dialog(theme) {
            draw_dialog(frame, rect, "Game over", lines);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if self.session.ended.is_some() {
            return match key.code {
                KeyCode::Char('r') | KeyCode::Char('R') | KeyCode::Enter => self.new_game(ctx),
                KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Transition::Pop,
                _ => Transition::Stay,
            };
        }
        let cmd = match (self.selected, key.code) {
            (Some(_), KeyCode::Char(c)) if Dir::from_letter(c).is_some() => {
                Dir::from_letter(c).map(Cmd::Step)
            }
            _ => lookup(BINDINGS, &key),
        };
        let Some(cmd) = cmd else {
            return Transition::Stay;
        };
        let human_turn = !self.session.computer_to_move();
        match cmd {
            Cmd::Cursor(dr, dc) => {
                let d = self.pos().dims();
                let (lo, hi) = if self.selected.is_some() {
                    (-1, d.rows() as i32)
                } else {
                    (0, d.rows() as i32 - 1)
                };
                self.cursor.0 = (self.cursor.0 + dr).clamp(lo, hi);
                self.cursor.1 = (self.cursor.1 + dc).clamp(0, d.cols() as i32 - 1);
            }
            Cmd::Choose if human_turn => self.choose(ctx),
            Cmd::Step(d) if human_turn => {
                if self.selected.is_some() {
                    self.step(d, ctx)
                } else {
                    self.message = Some("select a piece first (cursor + Enter)".into());
                }
            }
            Cmd::Choose | Cmd::Step(_) => {
                self.message = Some("wait: it is the computer's turn".into());
            }
            Cmd::Cancel => {
                self.selected = None;
                let rows = self.pos().dims().rows() as i32;
                self.cursor.0 = self.cursor.0.clamp(0, rows - 1);
                self.message = None;
            }
            Cmd::Undo => self.undo(ctx),
            Cmd::Hint if human_turn => match self.session.hint(ctx.store) {
                Some(mv) => {
                    self.hint = Some(mv);
                    self.message = Some(format!(
                        "hint: {} (marked ?; game marked assisted)",
                        describe_move(&self.pos(), mv)
                    ));
                }
                None => self.message = Some("no move is possible".into()),
            },
            Cmd::Hint => self.message = Some("hints are for your own turn".into()),
            Cmd::Pause => {
                self.paused = !self.paused;
                if !self.paused {
                    self.start_thinking();
                }
            }
            Cmd::NewGame => self.message = Some("r starts a new game once this one is over".into()),
            Cmd::Quit => {
                self.session.save(ctx.store);
                return Transition::Pop;
            }
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        if !matches!(event.kind, MouseEventKind::Down(MouseButton::Left))
            || self.session.ended.is_some()
            || self.session.computer_to_move()
        {
            return Transition::Stay;
        }
        let Some(rect) = self.board_at else {
            return Transition::Stay;
        };
        if event.column < rect.x || event.row < rect.y {
            return Transition::Stay;
        }
        if let Some(at) = board::hit(&self.pos(), event.column - rect.x, event.row - rect.y) {
            self.cursor = at;
            self.choose(ctx);
        }
        Transition::Stay
    }

    fn tick(&mut self, ctx: &mut Ctx) -> Transition {
        self.poll(ctx);
        let watching = self.session.options.mode == Mode::Watch;
        if self.thinking.is_none()
            && self.session.computer_to_move()
            && (!watching || self.last_move_at.elapsed() >= WATCH_PAUSE)
        {
            self.start_thinking();
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        (self.thinking.is_some() || (self.session.computer_to_move() && !self.paused)).then_some(50)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        if self.session.options.mode == Mode::Watch {
            // Nobody human plays: only pausing and leaving matter.
            return BINDINGS
                .iter()
                .filter(|b| matches!(b.cmd, Cmd::Pause | Cmd::Quit))
                .map(|b| (b.label, b.help))
                .collect();
        }
        describe(BINDINGS, true)
    }

    fn help(&self) -> Help {
        let mut text: Vec<String> = RULES.iter().map(|s| s.to_string()).collect();
        text.push(
            "Keys: with no piece selected, the arrows or h j k l move the cursor and Enter (or a click) selects the \
             piece under it; u undoes. With a piece selected, y k u h l b j n step it that way (the letter beside \
             each target square), or move the cursor with the arrows to a target and press Enter, or click it; Esc \
             cancels. q quits; the game is saved after every move."
                .into(),
        );
        text.push(
            "Marks: [ ] the cursor, ( ) the selected piece, a letter at the right of a square the key that steps \
             there, * and . the last move's target and origin, ? the hint."
                .into(),
        );
        Help {
            title: "Nocca Nocca".into(),
            keys: describe(BINDINGS, false),
            text,
        }
    }

    fn resumed(&mut self, _ctx: &mut Ctx) {
        self.start_thinking();
    }

    fn on_quit(&mut self, ctx: &mut Ctx) {
        self.session.save(ctx.store);
    }
}
