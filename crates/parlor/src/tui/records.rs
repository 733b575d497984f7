//! Screens over the records: history (with replays), best scores, and a page of text.

use super::keys::{Binding, bar, common, describe, lookup, more};
use super::layout::chrome;
use super::theme::Theme;
use super::twenty48::{Marks, draw_board};
use super::{Ctx, Help, Transition, View};
use crate::games::twenty48 as g2048;
use crate::storage::{GameRecord, Unfinished, format_time};
use anyhow::{Result, bail};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Opens the screen that continues a saved game in progress.
pub fn resume_view(saved: &Unfinished, ctx: &mut Ctx) -> Result<Box<dyn View>> {
    match saved.game.as_str() {
        g2048::GAME => {
            let mut session = g2048::Session::resume(saved)?;
            session.refresh_best(ctx.store);
            Ok(Box::new(super::twenty48::Twenty48View::new(session)))
        }
        crate::games::mastermind::GAME => super::mastermind::resume_view(saved, ctx),
        crate::games::nocca::GAME => super::nocca::resume_view(saved, ctx),
        other => bail!("this version of Parlor cannot continue a game of {other}"),
    }
}

/// Opens the screen that replays a finished game.
pub fn replay_view(record: &GameRecord) -> Result<Box<dyn View>> {
    match record.game.as_str() {
        g2048::GAME => Ok(Box::new(Replay2048::new(record)?)),
        crate::games::mastermind::GAME => super::mastermind::replay_view(record),
        crate::games::nocca::GAME => super::nocca::replay_view(record),
        other => bail!("this version of Parlor cannot replay a game of {other}"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ListCmd {
    Up,
    Down,
    Left,
    Right,
    Choose,
    Back,
}

const LIST_KEYS: &[Binding<ListCmd>] = &[
    bar(common::UP, "↑ k w", "up", ListCmd::Up),
    bar(common::DOWN, "↓ j s", "down", ListCmd::Down),
    bar(common::ENTER, "Enter", "replay", ListCmd::Choose),
    bar(common::BACK, "q", "back", ListCmd::Back),
];

/// Every finished game, newest first; Enter replays the selected one.
pub struct HistoryView {
    games: Vec<GameRecord>,
    selected: usize,
    message: Option<String>,
}

impl HistoryView {
    /// Reads the last 500 games.
    pub fn new(ctx: &mut Ctx) -> HistoryView {
        let (games, message) = match ctx.store.history(None, 500) {
            Ok(g) => (g, None),
            Err(e) => (
                Vec::new(),
                Some(format!("could not read the history: {e:#}")),
            ),
        };
        HistoryView {
            games,
            selected: 0,
            message,
        }
    }
}

/// One line describing a finished game.
pub fn record_line(r: &GameRecord) -> String {
    format!(
        "#{:<5} {}  {:<10} {:<22} {:<8} score {:>7}{}",
        r.id,
        format_time(r.ended_at),
        r.game,
        r.variant,
        r.result,
        r.score,
        if r.assisted { "  assisted" } else { "" }
    )
}

impl View for HistoryView {
    fn min_size(&self) -> (u16, u16) {
        (60, 8)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, "Parlor · history", &self.hint_bar(), theme);
        let mut lines = Vec::new();
        if let Some(m) = &self.message {
            lines.push(Line::styled(m.clone(), theme.warn()));
        }
        if self.games.is_empty() {
            lines.push(Line::raw("No finished game yet."));
        }
        for (i, r) in self.games.iter().enumerate() {
            let text = record_line(r);
            lines.push(if i == self.selected {
                Line::styled(format!("▸ {text}"), theme.selected())
            } else {
                Line::raw(format!("  {text}"))
            });
        }
        let scroll = (self.selected as u16 + 1).saturating_sub(body.height);
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        let n = self.games.len().max(1);
        match lookup(LIST_KEYS, &key) {
            Some(ListCmd::Up) => self.selected = (self.selected + n - 1) % n,
            Some(ListCmd::Down) => self.selected = (self.selected + 1) % n,
            Some(ListCmd::Choose) => {
                if let Some(r) = self.games.get(self.selected) {
                    match replay_view(r) {
                        Ok(v) => return Transition::Push(v),
                        Err(e) => self.message = Some(format!("{e:#}")),
                    }
                }
            }
            Some(ListCmd::Back) => return Transition::Pop,
            _ => {}
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(LIST_KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "History".into(),
            keys: describe(LIST_KEYS, false),
            text: vec![
                "Every finished game, assisted ones included. Choose one to watch it move by move."
                    .into(),
            ],
        }
    }
}

const SCORE_KEYS: &[Binding<ListCmd>] = &[
    bar(common::LEFT, "← h a", "previous", ListCmd::Left),
    bar(common::RIGHT, "→ l d", "next", ListCmd::Right),
    bar(common::BACK, "q", "back", ListCmd::Back),
];

/// The best unassisted scores, one game and variant at a time.
pub struct ScoresView {
    /// (game, variant) pairs that have records.
    tables: Vec<(String, String)>,
    shown: usize,
    rows: Vec<GameRecord>,
    stats: Vec<crate::storage::Stats>,
}

impl ScoresView {
    /// Reads what there is to show.
    pub fn new(ctx: &mut Ctx) -> ScoresView {
        let mut tables = Vec::new();
        let mut stats = Vec::new();
        for game in crate::games::ALL {
            for v in ctx.store.variants(game).unwrap_or_default() {
                tables.push((game.to_string(), v));
            }
            stats.extend(ctx.store.stats(game).unwrap_or_default());
        }
        let mut view = ScoresView {
            tables,
            shown: 0,
            rows: Vec::new(),
            stats,
        };
        view.load(ctx);
        view
    }

    fn load(&mut self, ctx: &mut Ctx) {
        self.rows = match self.tables.get(self.shown) {
            Some((g, v)) => ctx.store.best(g, v, 10).unwrap_or_default(),
            None => Vec::new(),
        };
    }
}

impl View for ScoresView {
    fn min_size(&self) -> (u16, u16) {
        (50, 16)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, "Parlor · best scores", &self.hint_bar(), theme);
        let mut lines = Vec::new();
        match self.tables.get(self.shown) {
            None => lines.push(Line::raw("No finished game yet.")),
            Some((game, variant)) => {
                lines.push(Line::styled(
                    format!(
                        "{game} {variant}   ({} of {})",
                        self.shown + 1,
                        self.tables.len()
                    ),
                    theme.strong(),
                ));
                if let Some(s) = self.stats.iter().find(|s| &s.variant == variant) {
                    lines.push(Line::raw(format!(
                        "{} played · {} won · average {:.0} · {} assisted",
                        s.played, s.won, s.average, s.assisted
                    )));
                }
                lines.push(Line::raw(""));
                if self.rows.is_empty() {
                    lines.push(Line::raw("Only assisted games so far: none ranks."));
                }
                for (i, r) in self.rows.iter().enumerate() {
                    lines.push(Line::from(vec![
                        Span::styled(format!("{:>2}. ", i + 1), theme.strong()),
                        Span::raw(format!(
                            "{:>8}  {}  {}",
                            r.score,
                            r.result,
                            format_time(r.ended_at)
                        )),
                    ]));
                }
            }
        }
        frame.render_widget(Paragraph::new(lines), body);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        let n = self.tables.len().max(1);
        match lookup(SCORE_KEYS, &key) {
            Some(ListCmd::Left) => self.shown = (self.shown + n - 1) % n,
            Some(ListCmd::Right) => self.shown = (self.shown + 1) % n,
            Some(ListCmd::Back) => return Transition::Pop,
            _ => return Transition::Stay,
        }
        self.load(ctx);
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(SCORE_KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Best scores".into(),
            keys: describe(SCORE_KEYS, false),
            text: vec!["Games that used undo or hints are kept out of these tables.".into()],
        }
    }
}

/// A page of text (the general help).
pub struct TextView {
    title: String,
    paragraphs: Vec<String>,
    scroll: u16,
}

impl TextView {
    /// Parlor's general help with every game's rules.
    pub fn about() -> TextView {
        TextView {
            scroll: 0,
            paragraphs: crate::rules_text::all(),
            title: "Parlor · help".into(),
        }
    }
}

const TEXT_KEYS: &[Binding<ListCmd>] = &[
    bar(common::UP, "↑ k w", "scroll up", ListCmd::Up),
    bar(common::DOWN, "↓ j s", "scroll down", ListCmd::Down),
    bar(
        &[KeyCode::Char('q'), KeyCode::Esc, KeyCode::Enter],
        "q",
        "back",
        ListCmd::Back,
    ),
];

impl View for TextView {
    fn min_size(&self) -> (u16, u16) {
        (40, 10)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let mut lines = Vec::new();
        for p in &self.paragraphs {
            lines.push(Line::raw(p.clone()));
            lines.push(Line::raw(""));
        }
        let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
        self.scroll = super::layout::clamp_scroll(&paragraph, body.width, body.height, self.scroll);
        frame.render_widget(paragraph.scroll((self.scroll, 0)), body);
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        match lookup(TEXT_KEYS, &key) {
            Some(ListCmd::Back) => return Transition::Pop,
            Some(ListCmd::Up) => self.scroll = self.scroll.saturating_sub(1),
            Some(ListCmd::Down) => self.scroll = self.scroll.saturating_add(1),
            _ => {}
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(TEXT_KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: self.title.clone(),
            keys: describe(TEXT_KEYS, false),
            text: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ReplayCmd {
    Back1,
    Forward1,
    Start,
    End,
    Play,
    Slower,
    Faster,
    Quit,
}

const REPLAY_KEYS: &[Binding<ReplayCmd>] = &[
    bar(common::LEFT, "← h", "back", ReplayCmd::Back1),
    bar(common::RIGHT, "→ l", "forward", ReplayCmd::Forward1),
    bar(
        &[KeyCode::Char(' '), KeyCode::Char('p')],
        "space",
        "play/pause",
        ReplayCmd::Play,
    ),
    more(
        &[KeyCode::Home, KeyCode::Char('g')],
        "Home g",
        "first move",
        ReplayCmd::Start,
    ),
    more(
        &[KeyCode::End, KeyCode::Char('G')],
        "End G",
        "last move",
        ReplayCmd::End,
    ),
    more(&[KeyCode::Char('-')], "-", "slower", ReplayCmd::Slower),
    more(
        &[KeyCode::Char('+'), KeyCode::Char('=')],
        "+",
        "faster",
        ReplayCmd::Faster,
    ),
    bar(common::BACK, "q", "back", ReplayCmd::Quit),
];

/// Watches a finished 2048 game move by move.
pub struct Replay2048 {
    title: String,
    /// (board, score, the action that led here) for every step, the start first.
    steps: Vec<(twenty48::Board, u64, String)>,
    at: usize,
    playing: bool,
    speed_ms: u64,
}

impl Replay2048 {
    /// Rebuilds every position of the game from its seed and moves.
    pub fn new(record: &GameRecord) -> Result<Replay2048> {
        let options: g2048::Options = serde_json::from_str(&record.options)?;
        let actions = twenty48::parse_actions(&record.moves).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut game = twenty48::Game::new(options.rules()?, record.seed);
        let mut steps = vec![(*game.board(), game.score(), "start".to_string())];
        for a in &actions {
            match *a {
                twenty48::Action::Slide(d) => {
                    game.slide(d)
                        .map_err(|e| anyhow::anyhow!("move {}: {e}", steps.len()))?;
                }
                twenty48::Action::Undo => {
                    game.undo()
                        .map_err(|e| anyhow::anyhow!("move {}: {e}", steps.len()))?;
                }
            }
            steps.push((*game.board(), game.score(), a.to_string()));
        }
        let title = format!(
            "Replay #{} · 2048 {} · seed {}",
            record.id, record.variant, record.seed
        );
        Ok(Replay2048 {
            title,
            steps,
            at: 0,
            playing: false,
            speed_ms: 200,
        })
    }
}

impl View for Replay2048 {
    fn min_size(&self) -> (u16, u16) {
        let n = self.steps[0].0.size();
        let (w, h) = super::twenty48::board_extent(n, 1);
        (w.max(44), h + 4)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let [info, board] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        let (b, score, action) = &self.steps[self.at];
        let state = if self.playing { "playing" } else { "paused" };
        frame.render_widget(
            Paragraph::new(format!(
                "Step {}/{} ({action}) · score {score} · {state} · {} ms/move",
                self.at,
                self.steps.len() - 1,
                self.speed_ms
            )),
            info,
        );
        draw_board(frame, board, b, &Marks::default(), theme);
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        let last = self.steps.len() - 1;
        match lookup(REPLAY_KEYS, &key) {
            Some(ReplayCmd::Back1) => self.at = self.at.saturating_sub(1),
            Some(ReplayCmd::Forward1) => self.at = (self.at + 1).min(last),
            Some(ReplayCmd::Start) => self.at = 0,
            Some(ReplayCmd::End) => self.at = last,
            Some(ReplayCmd::Play) => self.playing = !self.playing,
            Some(ReplayCmd::Slower) => self.speed_ms = (self.speed_ms * 2).min(3200),
            Some(ReplayCmd::Faster) => self.speed_ms = (self.speed_ms / 2).max(10),
            Some(ReplayCmd::Quit) => return Transition::Pop,
            None => {}
        }
        Transition::Stay
    }

    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        if self.playing {
            if self.at + 1 < self.steps.len() {
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
        describe(REPLAY_KEYS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Replay".into(),
            keys: describe(REPLAY_KEYS, false),
            text: vec![
                "The game is rebuilt from its seed and moves, exactly as it was played.".into(),
            ],
        }
    }
}
