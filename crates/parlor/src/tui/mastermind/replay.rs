//! Replays a finished Mastermind game guess by guess.

use super::board::{BoardSpec, board_lines};
use crate::games::mastermind::{self as g, Options, Role};
use crate::storage::GameRecord;
use crate::tui::keys::{Binding, bar, common, describe, lookup};
use crate::tui::layout::chrome;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use anyhow::Result;
use crossterm::event::{KeyCode, KeyEvent};
use mastermind::{Code, Feedback, Variant};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::Paragraph;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Back1,
    Forward1,
    Start,
    End,
    Play,
    Quit,
}

const KEYS: &[Binding<Cmd>] = &[
    bar(common::LEFT, "← h", "back", Cmd::Back1),
    bar(common::RIGHT, "→ l", "forward", Cmd::Forward1),
    bar(&[KeyCode::Char(' ')], "space", "play/pause", Cmd::Play),
    bar(
        &[KeyCode::Home, KeyCode::Char('g')],
        "g",
        "start",
        Cmd::Start,
    ),
    bar(&[KeyCode::End, KeyCode::Char('e')], "e", "end", Cmd::End),
    bar(common::BACK, "q", "back", Cmd::Quit),
];

/// The replay screen.
pub struct ReplayView {
    title: String,
    variant: Variant,
    history: Vec<(Code, Feedback)>,
    secret: Option<Code>,
    result: String,
    at: usize,
    playing: bool,
    waited: u32,
}

impl ReplayView {
    /// Rebuilds the game from its record.
    pub fn new(record: &GameRecord) -> Result<ReplayView> {
        let options = Options::from_json(&record.options)?;
        let v = options.variant;
        let (history, secret) = match options.role {
            Role::Breaker => {
                let game = g::replay_breaker(&v, record.seed, &record.moves)?;
                (game.history().to_vec(), Some(game.reveal()))
            }
            Role::Maker => (g::parse_maker_moves(&v, &record.moves)?, options.secret),
        };
        let role = match options.role {
            Role::Breaker => "codebreaker",
            Role::Maker => "codemaker",
        };
        Ok(ReplayView {
            title: format!(
                "Replay #{} · Mastermind {} · {role}",
                record.id, record.variant
            ),
            variant: v,
            at: history.len(),
            history,
            secret,
            result: record.result.clone(),
            playing: false,
            waited: 0,
        })
    }
}

impl View for ReplayView {
    fn min_size(&self) -> (u16, u16) {
        (60, (self.variant.guesses().min(12) as u16 + 6).max(12))
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let [info, board] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        let end = self.at == self.history.len();
        frame.render_widget(
            Paragraph::new(format!(
                "Guess {}/{}{}",
                self.at,
                self.history.len(),
                if end {
                    format!(" · {}", self.result)
                } else {
                    String::new()
                }
            )),
            info,
        );
        let spec = BoardSpec {
            variant: &self.variant,
            history: &self.history[..self.at],
            current: None,
            secret: if end { self.secret } else { None },
            selected: None,
            marked: &[],
            pending: None,
        };
        frame.render_widget(
            Paragraph::new(board_lines(&spec, theme, usize::from(board.height))),
            board,
        );
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        let last = self.history.len();
        match lookup(KEYS, &key) {
            Some(Cmd::Back1) => self.at = self.at.saturating_sub(1),
            Some(Cmd::Forward1) => self.at = (self.at + 1).min(last),
            Some(Cmd::Start) => self.at = 0,
            Some(Cmd::End) => self.at = last,
            Some(Cmd::Play) => {
                if self.at == last {
                    self.at = 0;
                }
                self.playing = !self.playing;
            }
            Some(Cmd::Quit) => return Transition::Pop,
            None => {}
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if self.playing {
            self.waited += 1;
            if self.waited >= 8 {
                self.waited = 0;
                if self.at < self.history.len() {
                    self.at += 1;
                } else {
                    self.playing = false;
                }
            }
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.playing.then_some(100)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Mastermind replay".into(),
            keys: describe(KEYS, false),
            text: g::RULES.iter().map(|s| s.to_string()).collect(),
        }
    }
}
