//! The one replay screen: any finished game, move by move, with the same keys and speeds for every game. It opens at
//! the start.

use super::game::{Board, TuiGame};
use super::keys::{Binding, Nav, NavWords, bar, lookup, more};
use super::layout::chrome;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent};
use crate::mid::record::Replay;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
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
    more(
        &[KeyCode::Char('g'), KeyCode::Home],
        "g Home",
        "first move",
        Cmd::First,
    ),
    more(
        &[KeyCode::Char('G'), KeyCode::End],
        "G End",
        "last move",
        Cmd::Last,
    ),
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
        (w.max(44), h + 5)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let r = self.replay.record.clone();
        let title = format!("Replay · {} · {} · game #{}", G::TITLE, r.variant, r.id);
        let hints = self.hint_bar();
        let body = chrome(frame, area, &title, &hints, theme);
        let [info, board_area] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(body);
        let n = self.replay.len();
        let at = self.at;
        let playing = self.playing;
        let speed = SPEEDS[self.speed];
        let ending = self.replay.ending(at);
        let (state, params, last) = self.replay.view(at);
        let mut line = vec![
            Span::raw(format!("Move {at} of {n}")),
            Span::raw(match last {
                Some(m) => format!(" · {m}"),
                None => " · start".into(),
            }),
            Span::raw(format!(" · {} {}", G::score_name(), G::score(state))),
        ];
        line.push(Span::styled(
            if playing {
                format!(" · playing, {speed} ms/move")
            } else {
                " · paused".into()
            },
            theme.dim(),
        ));
        let mut lines = vec![Line::from(line)];
        if let Some(ending) = ending {
            lines.push(Line::styled(ending, theme.strong()));
        }
        frame.render_widget(Paragraph::new(lines), info);
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
