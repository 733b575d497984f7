//! The online screen's lobby: its rows (challenges to the player, their games, challenges sent, live games, players
//! online), its keys, and how it is drawn with the newest news under it.

use super::bindings::Cmd;
use super::prompt::Prompt;
use super::{Item, OnlineView};
use crate::online::conn::Up;
use crate::tui::Transition;
use crate::tui::keys::key_of;
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use parlor_online::protocol::{Board, ClientMessage};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

impl OnlineView {
    pub(super) fn items(&self) -> Vec<Item> {
        self.model.items()
    }

    pub(super) fn lobby_key(&mut self, cmd: Cmd) -> Transition {
        let items = self.items();
        let under = items
            .get(self.row.min(items.len().saturating_sub(1)))
            .copied();
        match cmd {
            Cmd::Row(d) if !items.is_empty() => {
                let n = items.len() as i32;
                self.row = ((self.row as i32 + d).rem_euclid(n)) as usize;
            }
            Cmd::Open | Cmd::Accept => match under {
                Some(Item::Incoming(id)) => self.send(ClientMessage::Accept { challenge: id }),
                Some(Item::Game(id)) if cmd == Cmd::Open => {
                    self.model.current = Some(id);
                    self.in_game = true;
                    self.board.forget();
                }
                Some(Item::Live(game)) if cmd == Cmd::Open => {
                    self.send(ClientMessage::Watch { game, after: 0 })
                }
                Some(Item::Player(i)) if cmd == Cmd::Open => {
                    let name = self
                        .model
                        .players
                        .get(i)
                        .map(|p| p.name.clone())
                        .unwrap_or_default();
                    if name == self.model.me {
                        self.say("that is you: choose another player");
                    } else {
                        self.prompt = Some(Prompt::Challenge(format!("{name} ")));
                    }
                }
                _ => self.say("no challenge to you under the cursor"),
            },
            Cmd::Decline => match under {
                Some(Item::Incoming(challenge)) => self.send(ClientMessage::Decline { challenge }),
                Some(Item::Outgoing(challenge)) => self.send(ClientMessage::Cancel { challenge }),
                _ => self.say("no challenge under the cursor"),
            },
            Cmd::Queue => {
                if self.model.queue.is_some() {
                    self.send(ClientMessage::Unqueue {});
                } else {
                    self.prompt = Some(Prompt::Queue(String::new()));
                }
            }
            Cmd::Daily => {
                let asks: Vec<ClientMessage> = self.model.dailies.iter().map(|d| d.ask()).collect();
                let boards: Vec<ClientMessage> = self
                    .model
                    .dailies
                    .iter()
                    .map(|d| ClientMessage::Leaderboard {
                        daily: d.which(),
                        day: None,
                        board: Board::Plain,
                    })
                    .collect();
                for msg in asks.into_iter().chain(boards) {
                    self.send(msg);
                }
            }
            Cmd::PastDay => self.send(ClientMessage::PastDay {
                day: crate::online::model::yesterday(),
            }),
            Cmd::OpenDaily(i) => {
                if let Some(d) = self.model.dailies.get_mut(i) {
                    let said = d.open();
                    self.daily_said(said);
                }
            }
            Cmd::Challenge => self.prompt = Some(Prompt::Challenge(String::new())),
            Cmd::Switch => {
                if self.game().is_some() {
                    self.in_game = true;
                } else {
                    let c = key_of(&self.lobby_table(), Cmd::Challenge);
                    self.say(format!("no game yet: challenge someone with {c}"));
                }
            }
            Cmd::Import => match under {
                Some(Item::Game(id)) => self.import(Some(id)),
                _ => self.say("no game under the cursor"),
            },
            Cmd::Back => {
                // Out of the online screen: back to the menu it was opened from, or out of `parlor online`.
                self.wire.up(Up::Quit);
                return Transition::Pop;
            }
            _ => {}
        }
        Transition::Stay
    }

    pub(super) fn draw_lobby(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let mut lines: Vec<Line> = Vec::new();
        self.rows.clear();
        let items = self.items();
        if self.row >= items.len() {
            self.row = items.len().saturating_sub(1);
        }
        let heading = |lines: &mut Vec<Line>, text: &str| {
            lines.push(Line::styled(text.to_string(), theme.strong()));
        };
        let lobby = self.lobby_table();
        let k = |cmd| key_of(&lobby, cmd);
        let heads = [
            format!(
                "Challenges to you ({} or {} accepts, {} declines)",
                k(Cmd::Open),
                k(Cmd::Accept),
                k(Cmd::Decline)
            ),
            "Your games".to_string(),
            format!("Challenges sent ({} cancels)", k(Cmd::Decline)),
            format!("Live games ({} watches)", k(Cmd::Open)),
            format!("Players online ({} challenges)", k(Cmd::Open)),
        ];
        let now = crate::host::clock().monotonic_ms();
        let mut section = None;
        for (i, item) in items.iter().enumerate() {
            let head = item.section() as usize;
            let text = self.model.item_text(*item, now);
            if section != Some(head) {
                if section.is_some() {
                    lines.push(Line::raw(""));
                }
                heading(&mut lines, &heads[head]);
                section = Some(head);
            }
            self.rows.push((body.y + lines.len() as u16, *item));
            let chosen = i == self.row;
            let style = if chosen {
                theme.selected()
            } else {
                ratatui::style::Style::default()
            };
            lines.push(fit_line(
                Line::from(Span::styled(
                    format!("{} {text}", if chosen { '▸' } else { ' ' }),
                    style,
                )),
                body.width,
            ));
        }
        if let Some(q) = &self.model.queue {
            lines.push(Line::styled(
                crate::online::model::queue_text(q),
                theme.strong(),
            ));
        }
        if items.is_empty() {
            lines.push(Line::raw(format!(
                "No challenges or games yet: {} challenges a player by name (and a board, e.g. bob 3x3).",
                k(Cmd::Challenge)
            )));
        }
        let room = body.height as usize;
        // The news (the daily challenges and leaderboards among them) take what the lists leave, and at least half
        // of a full screen.
        let news = self
            .log
            .len()
            .min(room.saturating_sub(lines.len() + 1).max(room / 2));
        lines.truncate(room.saturating_sub(news));
        let shown = body.y + lines.len() as u16;
        self.rows.retain(|(y, _)| *y < shown);
        while lines.len() + news < room {
            lines.push(Line::raw(""));
        }
        for l in &self.log[self.log.len() - news..] {
            lines.push(fit_line(Line::styled(l.clone(), theme.dim()), body.width));
        }
        frame.render_widget(Paragraph::new(lines), body);
    }
}
