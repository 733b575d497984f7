//! The 2048 screen: the board, score and best score, new and merged tiles marked, the win prompt and the end screen.

use super::keys::{Binding, bar, common, describe, lookup, more};
use super::layout::{chrome, draw_dialog};
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::games::twenty48::{AUTO_THINK_MS, Event, Options, Session, TIP_MS};
use crate::rules_text;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use twenty48::ai::{Player, SearchConfig};
use twenty48::{Board, Direction};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Move(Direction),
    Undo,
    Restart,
    GiveUp,
    Quit,
    Tip,
    Auto,
    Faster,
    Slower,
    Nothing,
}

const BINDINGS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "←↓↑→ hjkl wasd",
        help: "slide",
        in_bar: true,
        cmd: Cmd::Nothing,
    },
    more(common::UP, "↑ k w", "slide up", Cmd::Move(Direction::Up)),
    more(
        common::DOWN,
        "↓ j s",
        "slide down",
        Cmd::Move(Direction::Down),
    ),
    more(
        common::LEFT,
        "← h a",
        "slide left",
        Cmd::Move(Direction::Left),
    ),
    more(
        common::RIGHT,
        "→ l d",
        "slide right",
        Cmd::Move(Direction::Right),
    ),
    bar(
        &[KeyCode::Char('u'), KeyCode::Backspace],
        "u",
        "undo",
        Cmd::Undo,
    ),
    bar(&[KeyCode::Char('t')], "t", "tip", Cmd::Tip),
    bar(&[KeyCode::Char('p')], "p", "autoplay", Cmd::Auto),
    more(
        &[KeyCode::Char('+'), KeyCode::Char('=')],
        "+",
        "autoplay faster",
        Cmd::Faster,
    ),
    more(&[KeyCode::Char('-')], "-", "autoplay slower", Cmd::Slower),
    more(&[KeyCode::Char('r')], "r", "restart", Cmd::Restart),
    more(&[KeyCode::Char('n')], "n", "give up", Cmd::GiveUp),
    bar(common::BACK, "q", "quit (saved)", Cmd::Quit),
];

/// What the screen is asking, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Prompt {
    None,
    /// The target was reached: keep going?
    Won,
    /// Confirm restarting (the current game is recorded as given up).
    Restart,
    /// Confirm giving up.
    GiveUp,
}

/// The 2048 screen.
pub struct Twenty48View {
    session: Session,
    message: Option<String>,
    prompt: Prompt,
    /// The computer player, made on first use (tips and autoplay).
    player: Option<Player>,
    /// Autoplay: on or off, and the pause between its moves.
    autoplay: bool,
    auto_ms: u64,
}

impl Twenty48View {
    /// A screen playing `session`.
    pub fn new(session: Session) -> Twenty48View {
        let prompt = if session.awaiting_decision() {
            Prompt::Won
        } else {
            Prompt::None
        };
        Twenty48View {
            session,
            message: None,
            prompt,
            player: None,
            autoplay: false,
            auto_ms: 100,
        }
    }

    fn ai(&mut self, ctx: &mut Ctx, ms: f64) -> Option<Direction> {
        let cfg = SearchConfig::millis(ms);
        let player = self.player.get_or_insert_with(|| Player::new(cfg.clone()));
        if player.config() != &cfg {
            *player = Player::new(cfg);
        }
        self.session.ai_move(player, ctx.store)
    }

    /// The session being played (for tests).
    pub fn session(&self) -> &Session {
        &self.session
    }

    fn new_game(&mut self, ctx: &mut Ctx) -> Transition {
        let seed = ctx.seed.take().unwrap_or_else(crate::games::fresh_seed);
        match start(self.session.options, seed, ctx) {
            Ok(view) => Transition::Replace(view),
            Err(e) => {
                self.message = Some(format!("{e:#}"));
                Transition::Stay
            }
        }
    }

    fn after(&mut self, event: Event) {
        self.message = match event {
            Event::Moved(turn) => {
                if turn.reached_target_now && !turn.over {
                    self.prompt = Prompt::Won;
                }
                (turn.gained > 0).then(|| format!("+{}", turn.gained))
            }
            Event::NoChange(d) => Some(format!("nothing moves {d}")),
            Event::Undone => Some("move taken back (game marked assisted)".into()),
            Event::NothingToUndo => Some("nothing to undo".into()),
            Event::KeptGoing => Some("keep going!".into()),
            Event::Ended => None,
        };
        if let Some(e) = self.session.storage_error.take() {
            self.message = Some(e);
        }
    }

    /// The prompt or end-of-game box to show under the board, if any.
    fn dialog(&self, theme: &Theme) -> Option<(&'static str, Vec<Line<'static>>)> {
        let s = &self.session;
        let target = s.options.target;
        match (self.prompt, &s.ended) {
            (Prompt::Won, _) => Some((
                "You win!",
                vec![
                    Line::styled(
                        format!("You made {target}!  Score {}", s.game.score()),
                        theme.good(),
                    ),
                    Line::raw("y keep going · n stop here"),
                ],
            )),
            (Prompt::Restart, _) => Some((
                "Restart?",
                vec![
                    Line::raw("This game will be recorded as given up."),
                    Line::raw("y restart · n carry on"),
                ],
            )),
            (Prompt::GiveUp, _) => Some((
                "Give up?",
                vec![
                    Line::raw("The game ends here and is recorded."),
                    Line::raw("y give up · n carry on"),
                ],
            )),
            (Prompt::None, Some(end)) => {
                let heading = match end.result {
                    "won" => format!("You won: {target} reached"),
                    "gave up" => "Given up".to_string(),
                    _ => "Game over: no move left".to_string(),
                };
                let rank = match (end.rank, s.meta.assisted) {
                    (_, true) => "assisted: kept out of the best scores".to_string(),
                    (Some(1), false) => format!("a new best for {}!", s.options.variant()),
                    (Some(r), false) => format!("rank {r} among {} scores", s.options.variant()),
                    (None, false) => "not recorded".to_string(),
                };
                Some((
                    "Game over",
                    vec![
                        Line::styled(heading, theme.strong()),
                        Line::raw(format!(
                            "Final score {} · best tile {} · {rank}",
                            s.game.score(),
                            s.game.board().max_tile()
                        )),
                        Line::raw("r new game · q menu"),
                    ],
                ))
            }
            _ => None,
        }
    }

    fn handle_prompt(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Transition> {
        let yes = matches!(
            key.code,
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter
        );
        let no = matches!(
            key.code,
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc
        );
        match self.prompt {
            Prompt::None => return None,
            Prompt::Won if yes => {
                let ev = self.session.keep_going(ctx.store);
                self.after(ev);
                self.prompt = Prompt::None;
            }
            Prompt::Won if no => {
                let ev = self.session.stop(ctx.store);
                self.after(ev);
                self.prompt = Prompt::None;
            }
            Prompt::Restart | Prompt::GiveUp if yes => {
                let restart = self.prompt == Prompt::Restart;
                self.prompt = Prompt::None;
                let ev = self.session.stop(ctx.store);
                self.after(ev);
                if restart {
                    return Some(self.new_game(ctx));
                }
            }
            Prompt::Restart | Prompt::GiveUp if no => self.prompt = Prompt::None,
            _ => {}
        }
        Some(Transition::Stay)
    }
}

impl View for Twenty48View {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = board_extent(self.session.options.size, 1);
        // Title, status, message, board, room for a three-line dialog, hint bar.
        (w.max(44), h + 4 + 5)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let s = &self.session;
        let title = format!("Parlor · 2048 · {}", s.options.variant());
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let best = s.best().to_string();
        let mut status = vec![
            Span::raw("Score "),
            Span::styled(s.game.score().to_string(), theme.strong()),
            Span::raw("   Best "),
            Span::styled(best, theme.strong()),
            Span::raw(format!("   Moves {}", s.game.moves_made())),
        ];
        if s.meta.assisted {
            status.push(Span::styled("   assisted", theme.dim()));
        }
        let [info, msg, board_area] = ratatui::layout::Layout::vertical([
            ratatui::layout::Constraint::Length(1),
            ratatui::layout::Constraint::Length(1),
            ratatui::layout::Constraint::Min(1),
        ])
        .areas(body);
        frame.render_widget(Paragraph::new(Line::from(status)), info);
        if let Some(m) = &self.message {
            frame.render_widget(Paragraph::new(Span::styled(m.clone(), theme.dim())), msg);
        }
        let dialog = self.dialog(theme);
        let (board_area, dialog_area) = match &dialog {
            Some((_, lines)) => {
                let [b, d] = ratatui::layout::Layout::vertical([
                    ratatui::layout::Constraint::Min(1),
                    ratatui::layout::Constraint::Length(lines.len() as u16 + 2),
                ])
                .areas(board_area);
                (b, Some(d))
            }
            None => (board_area, None),
        };
        draw_board(
            frame,
            board_area,
            s.game.board(),
            &Marks::from_session(s),
            theme,
        );
        if let (Some((title, lines)), Some(area)) = (dialog, dialog_area) {
            draw_dialog(frame, area, title, lines);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if let Some(t) = self.handle_prompt(&key, ctx) {
            return t;
        }
        if self.session.ended.is_some() {
            return match key.code {
                KeyCode::Char('r') | KeyCode::Char('R') | KeyCode::Enter => self.new_game(ctx),
                KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Transition::Pop,
                _ => Transition::Stay,
            };
        }
        let cmd = lookup(BINDINGS, &key);
        if self.autoplay && !matches!(cmd, Some(Cmd::Faster | Cmd::Slower)) {
            // Any other key takes over from the computer (and a move key also makes its move).
            self.autoplay = false;
            self.message = Some("autoplay stopped: your turn".into());
            if !matches!(cmd, Some(Cmd::Move(_))) {
                return Transition::Stay;
            }
        }
        let Some(cmd) = cmd else {
            self.message = Some(format!("{} does nothing here: ? for help", key_name(&key)));
            return Transition::Stay;
        };
        match cmd {
            Cmd::Move(d) => {
                let ev = self.session.slide(d, ctx.store);
                self.after(ev);
            }
            Cmd::Undo => {
                let ev = self.session.undo(ctx.store);
                self.after(ev);
            }
            Cmd::Restart if self.session.started() => self.prompt = Prompt::Restart,
            Cmd::Restart => return self.new_game(ctx),
            Cmd::GiveUp => self.prompt = Prompt::GiveUp,
            Cmd::Quit => return Transition::Pop,
            Cmd::Tip => {
                self.message = Some(match self.ai(ctx, TIP_MS) {
                    Some(d) => format!("tip: slide {d} (the game is now assisted)"),
                    None => "no move is possible".into(),
                });
            }
            Cmd::Auto => {
                self.autoplay = true;
                self.message = Some("autoplay: any key stops it · + faster · - slower".into());
            }
            Cmd::Faster => self.auto_ms = (self.auto_ms / 2).max(10),
            Cmd::Slower => self.auto_ms = (self.auto_ms * 2).min(2000),
            Cmd::Nothing => {}
        }
        Transition::Stay
    }

    fn tick(&mut self, ctx: &mut Ctx) -> Transition {
        if !self.autoplay {
            return Transition::Stay;
        }
        if self.session.ended.is_some() {
            self.autoplay = false;
            return Transition::Stay;
        }
        if self.prompt == Prompt::Won {
            let ev = self.session.keep_going(ctx.store);
            self.after(ev);
            self.prompt = Prompt::None;
        }
        match self.ai(ctx, AUTO_THINK_MS) {
            Some(d) => {
                let ev = self.session.slide(d, ctx.store);
                self.after(ev);
                if self.prompt == Prompt::Won {
                    // Autoplay keeps going past the target; the player can stop it at any time.
                    let ev = self.session.keep_going(ctx.store);
                    self.after(ev);
                    self.prompt = Prompt::None;
                }
                if self.autoplay {
                    self.message = Some(format!(
                        "autoplay: {d} · any key stops · {} ms/move",
                        self.auto_ms
                    ));
                }
            }
            None => self.autoplay = false,
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.autoplay.then_some(self.auto_ms)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(BINDINGS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "2048".into(),
            keys: describe(BINDINGS, false),
            text: rules_text::TWENTY48.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn on_quit(&mut self, ctx: &mut Ctx) {
        self.session.save(ctx.store);
    }
}

fn key_name(key: &KeyEvent) -> String {
    match key.code {
        KeyCode::Char(c) => format!("'{c}'"),
        other => format!("{other:?}"),
    }
}

/// Which tiles to mark: the one just spawned and those made by a merge.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The newly spawned tile.
    pub new: Option<(usize, usize)>,
    /// Tiles created by a merge this move.
    pub merged: Vec<(usize, usize)>,
}

impl Marks {
    fn from_session(s: &Session) -> Marks {
        match &s.last_turn {
            Some(t) => Marks {
                new: Some((t.spawned.0, t.spawned.1)),
                merged: t.merged.clone(),
            },
            None => Marks::default(),
        }
    }
}

/// Columns and rows a board of side `n` takes with cells `cell_h` rows high (border included).
pub fn board_extent(n: usize, cell_h: u16) -> (u16, u16) {
    let n = n as u16;
    (n * CELL_W + 1, n * cell_h + 2)
}

const CELL_W: u16 = 8;

/// Draws a board centred in `area`, with tiles as tall as fit (3 rows, 2, or 1).
pub fn draw_board(frame: &mut Frame, area: Rect, board: &Board, marks: &Marks, theme: &Theme) {
    let n = board.size();
    let cell_h = [4u16, 3, 2, 1]
        .into_iter()
        .find(|&h| board_extent(n, h).1 <= area.height)
        .unwrap_or(1);
    let (w, h) = board_extent(n, cell_h);
    let rect = super::layout::centered(area, w, h);
    frame.render_widget(Block::default().borders(Borders::ALL), rect);
    for r in 0..n {
        for c in 0..n {
            let cell = Rect {
                x: rect.x + 1 + c as u16 * CELL_W,
                y: rect.y + 1 + r as u16 * cell_h,
                width: CELL_W - 1,
                height: cell_h.saturating_sub(u16::from(cell_h > 2)).max(1),
            };
            if cell.right() > rect.right() || cell.bottom() > rect.bottom() {
                continue;
            }
            draw_tile(
                frame,
                cell,
                board.exponent(r, c),
                board.tile(r, c),
                mark_of(marks, r, c),
                theme,
            );
        }
    }
}

fn mark_of(marks: &Marks, r: usize, c: usize) -> char {
    if marks.new == Some((r, c)) {
        '+'
    } else if marks.merged.contains(&(r, c)) {
        '*'
    } else {
        ' '
    }
}

fn draw_tile(frame: &mut Frame, cell: Rect, exp: u8, value: u64, mark: char, theme: &Theme) {
    let style: Style = theme.tile(exp);
    let label = if value == 0 {
        "·".to_string()
    } else {
        value.to_string()
    };
    let mut lines = Vec::new();
    if cell.height >= 3 {
        lines.push(Line::raw(format!(
            "{mark:<width$}",
            width = cell.width as usize
        )));
        for _ in 1..(cell.height - 1) / 2 {
            lines.push(Line::raw(""));
        }
        lines.push(Line::raw(label).alignment(Alignment::Center));
    } else {
        // One or two rows: the mark sits just before the number.
        let text = if mark == ' ' {
            label
        } else {
            format!("{mark}{label}")
        };
        lines.push(Line::raw(text).alignment(Alignment::Center));
    }
    frame.render_widget(Paragraph::new(lines).style(style), cell);
}

/// Builds the 2048 screen for a new game with the given options.
pub fn start(options: Options, seed: u64, ctx: &mut Ctx) -> anyhow::Result<Box<dyn View>> {
    let mut session = Session::new(options, seed)?;
    session.refresh_best(ctx.store);
    Ok(Box::new(Twenty48View::new(session)))
}
