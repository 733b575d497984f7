//! A game on the online screen: the Nocca board with its cursor, selection and targets, its keys, and how it is
//! drawn under both names, the status line and, while a player is away, the grace period left.

use super::OnlineView;
use super::bindings::{Cmd, GAME, key_of};
use super::prompt::Prompt;
use crate::games::nocca::board::{Layout, Marks, digit};
use crate::games::nocca::{movable, moves_from, square_refusal, target_name};
use crate::tui::Transition;
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use nocca::{Dir, Move, Square};
use parlor_online::protocol::{ClientMessage, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

impl OnlineView {
    pub(super) fn selection(&self) -> Option<Square> {
        let g = self.game()?;
        self.selected
            .filter(|&(_, ply)| ply == g.game.ply() && g.my_turn())
            .map(|(sq, _)| sq)
    }

    pub(super) fn cursor_at(&self) -> (i32, i32) {
        self.cursor.unwrap_or_else(|| match self.game() {
            Some(g) => {
                let side = g.side.unwrap_or(Side::Black);
                (
                    g.dims().home_row(side.into()) as i32,
                    g.dims().cols() as i32 / 2,
                )
            }
            None => (0, 0),
        })
    }

    pub(super) fn targets(&self) -> Vec<Move> {
        match (self.selection(), self.game()) {
            (Some(sq), Some(g)) => moves_from(g.game.position(), sq),
            _ => Vec::new(),
        }
    }

    pub(super) fn play(&mut self, mv: Move) {
        let Some(g) = self.game() else { return };
        let msg = ClientMessage::Move {
            game: g.id,
            seq: g.next_seq(),
            mv: mv.to_string(),
        };
        self.send(msg);
        self.selected = None;
    }

    /// Enter or a click at the cursor.
    pub(super) fn choose(&mut self) {
        let Some(g) = self.game() else { return };
        if g.ending.is_some() {
            return self.say("the game is over");
        }
        if !g.my_turn() {
            let line = match g.side {
                Some(_) => format!("not your turn: {} is to move", g.name(g.to_move())),
                None => "you are watching this game".to_string(),
            };
            return self.say(line);
        }
        let (r, c) = self.cursor_at();
        let pos = *g.game.position();
        let rows = pos.dims().rows() as i32;
        let sq = if (0..rows).contains(&r) && c >= 0 {
            Square::new(r as usize, c as usize)
        } else {
            None
        };
        let ply = g.game.ply();
        if let Some(sel) = self.selection() {
            if sq == Some(sel) {
                self.selected = None;
                return self.say("selection cancelled");
            }
            if let Some(m) = self.targets().into_iter().find(|m| m.target() == (r, c)) {
                return self.play(m);
            }
        }
        let Some(sq) = sq else {
            return self.say("that is a goal: select a piece first");
        };
        if let Some(why) = square_refusal(&pos, sq) {
            return self.say(why);
        }
        self.selected = Some((sq, ply));
        let list: Vec<String> = moves_from(&pos, sq)
            .iter()
            .map(|&m| format!("{} {}", digit(m.dir), target_name(&pos, m)))
            .collect();
        self.say(format!("{sq} selected: {}", list.join(" · ")));
    }

    pub(super) fn step(&mut self, dir: Dir) {
        let Some(sel) = self.selection() else {
            let choose = key_of(GAME, Cmd::Choose);
            return self.say(format!("select a piece first (cursor, then {choose})"));
        };
        let Some(g) = self.game() else { return };
        let mv = Move::new(sel, dir);
        match g.game.position().check(mv) {
            Ok(()) => self.play(mv),
            Err(e) => self.say(format!("{} from {sel}: {e}", digit(dir))),
        }
    }

    pub(super) fn game_key(&mut self, cmd: Cmd) -> Transition {
        match cmd {
            Cmd::Cursor(dr, dc) => {
                if let Some(g) = self.game() {
                    let (r, c) = self.cursor_at();
                    let rows = g.dims().rows() as i32;
                    let cols = g.dims().cols() as i32;
                    self.cursor = Some(((r + dr).clamp(-1, rows), (c + dc).clamp(0, cols - 1)));
                }
            }
            Cmd::Choose => self.choose(),
            Cmd::Step(d) => self.step(d),
            Cmd::Cancel => {
                if self.selection().is_some() {
                    self.selected = None;
                    self.say("selection cancelled");
                } else {
                    self.in_game = false;
                }
            }
            Cmd::Resign => match self.game() {
                Some(g) if g.ending.is_none() && g.side.is_some() => {
                    self.prompt = Some(Prompt::Resign(g.id))
                }
                _ => self.say("no game of yours in play here"),
            },
            Cmd::Import => self.import(self.model.current),
            Cmd::Rematch => match self.game() {
                Some(g) if g.ending.is_some() && g.side.is_some() => {
                    let game = g.id;
                    self.send(ClientMessage::Rematch { game })
                }
                _ => self.say("a rematch comes after the end of a game of yours"),
            },
            Cmd::DeclineRematch => {
                let me = self.model.me.clone();
                let offered = self
                    .model
                    .current
                    .and_then(|id| self.model.games.get_mut(&id))
                    .filter(|g| g.rematch_from.as_ref().is_some_and(|f| *f != me));
                match offered {
                    Some(g) => {
                        g.rematch_from = None;
                        let game = g.id;
                        self.send(ClientMessage::DeclineRematch { game });
                        self.say(format!("rematch of game {game} declined"));
                    }
                    None => self.say("no rematch offered to you here"),
                }
            }
            Cmd::Switch | Cmd::Back => self.in_game = false,
            _ => {}
        }
        Transition::Stay
    }

    pub(super) fn draw_game(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let Some(g) = self.game().cloned() else {
            self.board = None;
            return;
        };
        let to_move = g.to_move();
        let now = crate::host::clock().monotonic_ms();
        let name = |s: Side| {
            let mark = if g.ending.is_none() && s == to_move {
                "▶"
            } else {
                " "
            };
            let you = if g.side == Some(s) { " · you" } else { "" };
            format!("{mark} {}{you}", g.player_text(s, now))
        };
        let head = format!("{}    {}", name(Side::Black), name(Side::White));
        let status = match g.result_text() {
            Some(r) => format!("Game {} over: {r}", g.id),
            None if g.my_turn() => format!("Game {}, move {}: your move", g.id, g.game.ply() + 1),
            None => format!(
                "Game {}, move {}: waiting for {}",
                g.id,
                g.game.ply() + 1,
                g.name(to_move)
            ),
        };
        let mut top = Rect { height: 1, ..body };
        frame.render_widget(
            Paragraph::new(fit_line(Line::styled(head, theme.strong()), body.width)),
            top,
        );
        top.y += 1;
        frame.render_widget(Paragraph::new(fit_line(Line::raw(status), body.width)), top);
        // A player away: the grace period left, counted down, on a line of its own.
        let away = self.model.away_text(g.id, now);
        if let Some(text) = &away {
            top.y += 1;
            let text = format!("{}{}", text[..1].to_uppercase(), &text[1..]);
            frame.render_widget(
                Paragraph::new(fit_line(Line::styled(text, theme.warn()), body.width)),
                top,
            );
        }
        let above = if away.is_some() { 3 } else { 2 };
        let area = Rect {
            y: body.y + above,
            height: body.height.saturating_sub(above + 1),
            ..body
        };
        let playing = g.my_turn();
        let marks = Marks {
            cursor: playing.then(|| self.cursor_at()),
            selected: self.selection(),
            targets: self.targets(),
            last: g.last_move(),
            labels: Vec::new(),
        };
        let layout = Layout::fitting_in(g.dims(), area.width, area.height);
        let rect = layout.rect(area);
        frame.render_widget(
            Paragraph::new(layout.lines(g.game.position(), &marks, theme)),
            rect,
        );
        self.board = Some((rect, layout));
        let line = if playing && self.selection().is_none() {
            let list: Vec<String> = movable(g.game.position())
                .iter()
                .map(ToString::to_string)
                .collect();
            let choose = key_of(GAME, Cmd::Choose);
            format!(
                "Movable: {} · cursor + {choose}, or a click",
                list.join(" ")
            )
        } else {
            self.log.last().cloned().unwrap_or_default()
        };
        let below = Rect {
            y: body.bottom().saturating_sub(1),
            height: 1,
            ..body
        };
        frame.render_widget(
            Paragraph::new(fit_line(Line::styled(line, theme.dim()), body.width)),
            below,
        );
    }
}
