//! A game on the online screen: the rooms' game's board (its cursor, selection and keys: [`RoomBoard`]), the
//! online game's own keys (resign, rematch, import, the lobby), and how it is drawn under both names, the status
//! line and, while a player is away, the grace period left.
//!
//! [`RoomBoard`]: crate::tui::room::RoomBoard

use super::OnlineView;
use super::bindings::{Cmd, GAME};
use super::prompt::Prompt;
use crate::input::KeyEvent;
use crate::tui::Transition;
use crate::tui::keys;
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use parlor_online::protocol::{ClientMessage, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

impl OnlineView {
    /// A key in a game: the board's own first, then the online game's.
    pub(super) fn game_key(&mut self, key: &KeyEvent) -> Transition {
        if let Some(g) = self.model.current_game() {
            let seat = g.seat();
            if let Some(said) = self.board.key(key, &seat) {
                self.board_said(said);
                return Transition::Stay;
            }
        }
        let Some(cmd) = keys::lookup(GAME, key) else {
            return Transition::Stay;
        };
        match cmd {
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
        let status = g.status_text();
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
        let seat = g.seat();
        self.board.draw(frame, area, &seat, theme);
        let line = self
            .board
            .prompt(&seat)
            .unwrap_or_else(|| self.log.last().cloned().unwrap_or_default());
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
