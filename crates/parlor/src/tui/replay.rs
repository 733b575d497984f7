//! The one replay screen: any finished game, move by move, with the same keys and speeds for every game. It opens at
//! the start.

use super::game::{Board, TuiGame};
use super::keys::{Binding, Nav, NavWords, bar, common, lookup, more};
use super::layout::chrome;
use super::text::{Give, Part, Wrapped, fit_parts};
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent};
use crate::mid::record::Replay;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

const NAV: NavWords = NavWords(["", "", "previous move", "next move", "", "back"]);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    First,
    Last,
    Play,
    Faster,
    Slower,
}

/// The replay's own keys (beside ←→ and q).
const KEYS: &[Binding<Cmd>] = &[
    bar(
        &[KeyCode::Char(' '), KeyCode::Char('p')],
        "Space",
        "play/pause",
        Cmd::Play,
    ),
    more(common::FIRST, "g Home", "first move", Cmd::First),
    more(common::LAST, "G End", "last move", Cmd::Last),
    more(
        &[KeyCode::Char('+'), KeyCode::Char('=')],
        "+",
        "faster",
        Cmd::Faster,
    ),
    more(&[KeyCode::Char('-')], "-", "slower", Cmd::Slower),
];

/// Playback speeds: milliseconds between moves.
const SPEEDS: [u64; 6] = [50, 100, 200, 400, 800, 1600];

/// A finished game, replayed.
pub struct ReplayView<G: TuiGame> {
    replay: Replay<G>,
    at: usize,
    playing: bool,
    speed: usize,
    /// Whether the speed was taken from the settings yet (at the first play).
    speed_set: bool,
    /// The context the board is drawn in: the default (a replay plays nothing and needs nothing kept).
    context: G::Context,
}

impl<G: TuiGame> ReplayView<G> {
    /// A replay that opens at the start, paused.
    pub fn new(replay: Replay<G>) -> ReplayView<G> {
        ReplayView {
            replay,
            at: 0,
            playing: false,
            speed: 3,
            speed_set: false,
            context: G::Context::default(),
        }
    }

    /// The move shown (0: the start).
    pub fn at(&self) -> usize {
        self.at
    }
}

impl<G: TuiGame> View for ReplayView<G> {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = G::board_size(&self.replay.params);
        // Title, where the replay is, the board and the hint bar.
        (w.max(40), h + 4)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let r = self.replay.record.clone();
        let title = format!("Replay · {} · {} · game #{}", G::TITLE, r.variant, r.id);
        let hints = self.hint_bar();
        let body = chrome(frame, area, &title, &hints, theme);
        let n = self.replay.len();
        let at = self.at;
        let playing = self.playing;
        let speed = SPEEDS[self.speed];
        let ending = self.replay.ending(at);
        let (state, params, last) = self.replay.view(at);
        // Where the replay is: the move number is kept, the rest gives way on a narrow screen.
        let parts: Vec<Part> = vec![
            (format!("Move {at} of {n}"), Style::default(), Give::Keep),
            (
                match last {
                    Some(m) => format!(" · {m}"),
                    None => " · start".into(),
                },
                Style::default(),
                Give::Drop(2),
            ),
            (
                format!(" · {} {}", G::score_name(), G::score(state)),
                Style::default(),
                Give::Drop(3),
            ),
            (
                if playing {
                    format!(" · playing, {speed} ms/move")
                } else {
                    " · paused".into()
                },
                theme.dim(),
                Give::Drop(1),
            ),
        ];
        // At the end, how the game ended, whole: it takes the rows it needs, the line above giving way first.
        let result =
            ending.map(|e| Wrapped::new(vec![Line::styled(e, theme.strong())], body.width));
        let board_h = G::board_size(params).1;
        let room = body.height.saturating_sub(board_h).max(1);
        let result_h = result.as_ref().map_or(0, Wrapped::height);
        let status = result_h < room;
        let info_h = (u16::from(status) + result_h).clamp(2.min(room), room);
        let [info, board_area] =
            Layout::vertical([Constraint::Length(info_h), Constraint::Min(1)]).areas(body);
        let row = Rect { height: 1, ..info };
        if status {
            frame.render_widget(Paragraph::new(fit_parts(&parts, info.width, row)), row);
        }
        if let Some(result) = result {
            let y = info.y + u16::from(status);
            let rest = Rect {
                y,
                height: info.bottom().saturating_sub(y),
                ..info
            };
            result.render(frame, rest, 0, theme.dim());
        }
        let board = Board {
            state,
            params,
            ui: None,
            last,
            over: at == n,
            context: &self.context,
        };
        G::draw(frame, board_area, &board, theme);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        let n = self.replay.len();
        if !self.speed_set {
            // The settings' replay speed: the nearest of the speeds + and - step through.
            let want = ctx.settings.replay_ms();
            self.speed = (0..SPEEDS.len())
                .min_by_key(|&i| SPEEDS[i].abs_diff(want))
                .unwrap_or(3);
            self.speed_set = true;
        }
        match NAV.lookup(&key) {
            Some(Nav::Left) => {
                self.playing = false;
                self.at = self.at.saturating_sub(1);
            }
            Some(Nav::Right) => {
                self.playing = false;
                self.at = (self.at + 1).min(n);
            }
            Some(Nav::Back) => return Transition::Pop,
            _ => {}
        }
        match lookup(KEYS, &key) {
            Some(Cmd::First) => {
                self.playing = false;
                self.at = 0;
            }
            Some(Cmd::Last) => {
                self.playing = false;
                self.at = n;
            }
            Some(Cmd::Play) => {
                if self.at == n {
                    self.at = 0;
                }
                self.playing = !self.playing;
            }
            Some(Cmd::Faster) => self.speed = self.speed.saturating_sub(1),
            Some(Cmd::Slower) => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            None => {}
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if self.playing {
            if self.at < self.replay.len() {
                self.at += 1;
            }
            if self.at == self.replay.len() {
                self.playing = false;
            }
        }
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.playing.then_some(SPEEDS[self.speed])
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        NAV.bar_with(KEYS)
    }

    fn help(&self) -> Help {
        Help {
            title: format!("Replay · {}", G::TITLE),
            keys: NAV.help_with(KEYS),
            text: vec![
                "A finished game, move by move. It opens at the start; Space plays it at the chosen speed, the \
                 arrows step one move, g and G jump to the first and the last move."
                    .into(),
            ],
        }
    }
}
