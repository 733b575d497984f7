//! Watching a finished Nocca Nocca game move by move.

use super::board::{self, Marks};
use crate::games::nocca::{Options, capital, target_name};
use crate::storage::GameRecord;
use crate::tui::keys::{Binding, bar, describe, lookup, more};
use crate::tui::layout::chrome;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use anyhow::{Result, anyhow};
use crossterm::event::{KeyCode, KeyEvent};
use nocca::{Game, GameOptions, Move, Position};
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
    Slower,
    Faster,
    Quit,
}

const KEYS: &[Binding<Cmd>] = &[
    bar(
        &[KeyCode::Left, KeyCode::Char('h')],
        "← h",
        "back",
        Cmd::Back1,
    ),
    bar(
        &[KeyCode::Right, KeyCode::Char('l')],
        "→ l",
        "forward",
        Cmd::Forward1,
    ),
    bar(
        &[KeyCode::Char(' '), KeyCode::Char('p'), KeyCode::Enter],
        "Space",
        "play / pause",
        Cmd::Play,
    ),
    more(
        &[KeyCode::Home, KeyCode::Char('g')],
        "Home g",
        "start",
        Cmd::Start,
    ),
    more(
        &[KeyCode::End, KeyCode::Char('G')],
        "End G",
        "last move",
        Cmd::End,
    ),
    more(&[KeyCode::Char('-')], "-", "slower", Cmd::Slower),
    more(
        &[KeyCode::Char('+'), KeyCode::Char('=')],
        "+",
        "faster",
        Cmd::Faster,
    ),
    bar(&[KeyCode::Char('q'), KeyCode::Esc], "q", "back", Cmd::Quit),
];

/// Replays a recorded game.
pub struct NoccaReplay {
    title: String,
    positions: Vec<Position>,
    moves: Vec<Move>,
    end: String,
    at: usize,
    playing: bool,
    speed_ms: u64,
}

impl NoccaReplay {
    /// Rebuilds every position of the game from its options and moves.
    pub fn new(record: &GameRecord) -> Result<NoccaReplay> {
        let options: Options = serde_json::from_str(&record.options)?;
        let game = Game::replay(options.start(), GameOptions::default(), &record.moves)
            .map_err(|e| anyhow!("replaying game #{}: {e}", record.id))?;
        let end = match game.outcome() {
            Some(o) => format!("{} ({o})", record.result),
            None => record.result.clone(),
        };
        Ok(NoccaReplay {
            title: format!(
                "Replay #{} · Nocca Nocca · {}",
                record.id,
                options.describe()
            ),
            positions: game.positions().to_vec(),
            moves: game.moves().to_vec(),
            end,
            at: 0,
            playing: false,
            speed_ms: 500,
        })
    }
}

impl View for NoccaReplay {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = board::extent(&self.positions[0]);
        (w + 2, h + 4)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let [info, board_area] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        let last = self.moves.len();
        let state = if self.playing {
            format!(" · playing, {} ms/move", self.speed_ms)
        } else {
            String::new()
        };
        let what = match self.at.checked_sub(1) {
            Some(i) => {
                let before = &self.positions[i];
                let mv = self.moves[i];
                format!(
                    "{} {mv} ({}→{})",
                    capital(before.side_to_move().name()),
                    mv.from,
                    target_name(before, mv)
                )
            }
            None => "start".into(),
        };
        let end = if self.at == last {
            format!(" · {}", self.end)
        } else {
            String::new()
        };
        frame.render_widget(
            Paragraph::new(format!("Ply {}/{last}: {what}{end}{state}", self.at)),
            info,
        );
        let marks = Marks {
            last: self.at.checked_sub(1).map(|i| self.moves[i]),
            ..Marks::default()
        };
        let pos = &self.positions[self.at];
        let (w, h) = board::extent(pos);
        let rect = Rect {
            x: board_area.x + board_area.width.saturating_sub(w) / 2,
            y: board_area.y,
            width: w.min(board_area.width),
            height: h.min(board_area.height),
        };
        frame.render_widget(Paragraph::new(board::lines(pos, &marks, theme)), rect);
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        let last = self.moves.len();
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
            Some(Cmd::Slower) => self.speed_ms = (self.speed_ms * 2).min(3200),
            Some(Cmd::Faster) => self.speed_ms = (self.speed_ms / 2).max(25),
            Some(Cmd::Quit) => return Transition::Pop,
            None => {}
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if self.playing {
            if self.at < self.moves.len() {
                self.at += 1;
            } else {
                self.playing = false;
            }
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.playing.then_some(self.speed_ms)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Nocca Nocca replay".into(),
            keys: describe(KEYS, false),
            text: vec![
                "The game is rebuilt from its recorded moves. * marks the last move's target, . its origin.".into(),
            ],
        }
    }
}
