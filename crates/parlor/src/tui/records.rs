//! Screens over the records: history (with replays), best scores, and a page of text.

use super::keys::{Binding, Nav, NavWords, bar, describe, help_keys, lookup, wrapped};
use super::layout::{chrome, fit_line, wrapped_rows};
use super::mouse::{Pointer, Rows};
use super::review::{self, ReviewView};
use super::stats::StatsView;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseEvent};
use crate::mid::error::Error;
use crate::mid::find;
use crate::storage::{GameRecord, Scoreboard, format_time};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

const LIST_NAV: NavWords = NavWords(["choose", "choose", "", "", "replay", "back"]);
const SCORE_NAV: NavWords = NavWords(["", "", "previous table", "next table", "", "back"]);
/// Both record screens open the statistics of the game and variant they show.
const STATS: &[Binding<()>] = &[bar(&[KeyCode::Char('t')], "t", "statistics", ())];
const TEXT_NAV: NavWords = NavWords(["scroll", "scroll", "", "", "back", "back"]);

/// The help of a list of records titled `title`: its navigation `nav`, `t` for the statistics, and `text`.
fn help_with_stats(title: &str, nav: NavWords, text: String) -> Help {
    Help {
        title: title.into(),
        keys: nav.help_with(STATS),
        text: vec![text],
    }
}

/// Every finished game, newest first; Enter replays the selected one.
pub struct HistoryView {
    games: Vec<GameRecord>,
    /// Each game's line ([`crate::mid::record::record_line`]).
    lines: Vec<String>,
    selected: usize,
    message: Option<String>,
    /// What to say when there is nothing to list.
    empty: &'static str,
    /// The list as last drawn (for the mouse).
    rows: Rows,
}

impl HistoryView {
    /// Reads the last 500 games.
    pub fn new(ctx: &mut Ctx) -> HistoryView {
        let (games, message) = match ctx.store.history(None, 500) {
            Ok(h) => {
                let note = h.note();
                (h.games, note)
            }
            Err(e) => (
                Vec::new(),
                Some(format!("could not read the history: {e:#}")),
            ),
        };
        let lines = games
            .iter()
            .map(|r| crate::mid::record::record_line(r, ctx.games))
            .collect();
        HistoryView {
            games,
            lines,
            selected: 0,
            message,
            empty: crate::mid::record::nothing_to_show(ctx.store),
            rows: Rows::default(),
        }
    }
}

impl View for HistoryView {
    fn min_size(&self) -> (u16, u16) {
        (40, 8)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let mut body = chrome(frame, area, "Parlor · history", &self.hint_bar(), theme);
        if let Some(m) = &self.message {
            // A message wraps above the list (at most three rows).
            let rows = wrapped_rows(m, body.width)
                .min(3)
                .min(body.height.saturating_sub(1));
            let [top, rest] =
                Layout::vertical([Constraint::Length(rows), Constraint::Min(1)]).areas(body);
            frame.render_widget(
                Paragraph::new(Line::styled(m.clone(), theme.warn())).wrap(Wrap { trim: true }),
                top,
            );
            body = rest;
        }
        let mut lines = Vec::new();
        if self.games.is_empty() && self.message.is_none() {
            lines.push(Line::raw(self.empty));
        }
        for (i, text) in self.lines.iter().enumerate() {
            let text = text.clone();
            // A row wider than the screen is shortened with `…` (the replay shows all of it).
            lines.push(if i == self.selected {
                fit_line(
                    Line::styled(format!("▸ {text}"), theme.selected()),
                    body.width,
                )
            } else {
                fit_line(Line::raw(format!("  {text}")), body.width)
            });
        }
        let scroll = (self.selected as u16 + 1).saturating_sub(body.height);
        self.rows = Rows::new(body, usize::from(scroll), self.games.len());
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if review::opens(&key) {
            if let Some(r) = self.games.get(self.selected) {
                match ReviewView::of_record(r, ctx) {
                    Ok(view) => return Transition::Push(Box::new(view)),
                    Err(why) => self.message = Some(why),
                }
            }
            return Transition::Stay;
        }
        if lookup(STATS, &key).is_some() {
            let r = self.games.get(self.selected);
            let (game, variant) = (r.map(|r| r.game.as_str()), r.map(|r| r.variant.as_str()));
            return Transition::Push(Box::new(StatsView::new(ctx, game, variant)));
        }
        match LIST_NAV.lookup(&key) {
            Some(nav) => self.nav(nav, ctx),
            None => Transition::Stay,
        }
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        match self.rows.nav(&event) {
            Some((pick, nav)) => {
                if let Some(i) = pick {
                    self.selected = i;
                }
                self.nav(nav, ctx)
            }
            None => Transition::Stay,
        }
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        let mut bar = LIST_NAV.bar_with(STATS);
        bar.extend(describe(review::OPEN, true));
        bar
    }

    fn help(&self) -> Help {
        let mut help = help_with_stats(
            "History",
            LIST_NAV,
            "Every finished game, assisted ones included. Choose one to watch it move by move, or press c for \
             the engine's review of it."
                .into(),
        );
        help.keys.extend(help_keys(review::OPEN));
        help
    }
}

impl HistoryView {
    /// A navigation command, from a key or the mouse.
    fn nav(&mut self, nav: Nav, ctx: &mut Ctx) -> Transition {
        match nav {
            Nav::Up | Nav::Down => self.selected = wrapped(self.selected, self.games.len(), nav),
            Nav::Choose => {
                if let Some(r) = self.games.get(self.selected) {
                    let opened = match find(ctx.games, &r.game) {
                        Some(g) => g.replay(r),
                        None => Err(Error::Record(format!(
                            "this Parlor cannot replay a game of {}",
                            r.game
                        ))),
                    };
                    match opened {
                        Ok(v) => return Transition::Push(v),
                        Err(e) => self.message = Some(e.to_string()),
                    }
                }
            }
            Nav::Back => return Transition::Pop,
            _ => {}
        }
        Transition::Stay
    }
}

/// The best scores, one game and variant at a time.
pub struct ScoresView {
    /// (game, variant, ranking, the game's title) for every variant that has records.
    tables: Vec<(String, String, crate::storage::Ranking, &'static str)>,
    shown: usize,
    rows: Vec<GameRecord>,
    /// The figures of every variant, as the statistics count them (one computation for both screens, so that
    /// their averages agree: only ranked games, never an assisted one).
    stats: Vec<(String, crate::mid::stats::VariantStats, &'static str)>,
    /// What to say when there is nothing to list.
    empty: &'static str,
    /// How each game ranks, for the help.
    ranks: String,
}

impl ScoresView {
    /// Reads what there is to show.
    pub fn new(ctx: &mut Ctx) -> ScoresView {
        let mut tables = Vec::new();
        let mut stats = Vec::new();
        for game in ctx.games {
            for v in ctx.store.variants(game.id()).unwrap_or_default() {
                let options = ctx
                    .store
                    .variant_options(game.id(), &v)
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                tables.push((
                    game.id().to_string(),
                    v,
                    game.ranking(&options),
                    game.title(),
                ));
            }
            if let Ok(s) = crate::mid::stats::game_stats(ctx.store, *game) {
                stats.extend(
                    s.variants
                        .into_iter()
                        .map(|v| (game.id().to_string(), v, s.score_name)),
                );
            }
        }
        let mut view = ScoresView {
            tables,
            shown: 0,
            rows: Vec::new(),
            stats,
            empty: crate::mid::record::nothing_to_show(ctx.store),
            ranks: crate::mid::each_game(ctx.games, "ranks", |g| g.ranks()),
        };
        view.load(ctx);
        view
    }

    fn load(&mut self, ctx: &mut Ctx) {
        self.rows = match self.tables.get(self.shown) {
            Some((g, v, ranking, _)) => ctx
                .store
                .best(Scoreboard::new(g, v, *ranking), 10)
                .unwrap_or_default(),
            None => Vec::new(),
        };
    }
}

impl View for ScoresView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, "Parlor · best scores", &self.hint_bar(), theme);
        let mut lines = Vec::new();
        match self.tables.get(self.shown) {
            None => lines.push(Line::raw(self.empty)),
            Some((game, variant, ranking, title)) => {
                lines.push(Line::styled(
                    format!(
                        "{title} {variant}   ({} of {})",
                        self.shown + 1,
                        self.tables.len()
                    ),
                    theme.strong(),
                ));
                if let Some((_, v, score_name)) = self
                    .stats
                    .iter()
                    .find(|(g, v, _)| g == game && &v.variant == variant)
                {
                    let f = &v.figures;
                    let average = match (
                        crate::mid::stats::average_label(v.ranking, score_name),
                        f.average,
                    ) {
                        (Some(label), Some(a)) => format!(
                            " · {label} {} over {} ranked",
                            crate::mid::stats::average_text(a),
                            f.ranked
                        ),
                        _ => String::new(),
                    };
                    lines.push(Line::raw(format!(
                        "{} played · {} won{average} · {} assisted",
                        f.played, f.outcomes.won, f.assisted
                    )));
                }
                lines.push(Line::raw(""));
                if *ranking == crate::storage::Ranking::Unranked {
                    lines.push(Line::raw("These games have no best scores."));
                } else if self.rows.is_empty() {
                    lines.push(Line::raw(
                        "No game ranks yet: assisted games, games from a chosen seed and, where wins count, \
                         lost games stay out.",
                    ));
                }
                for (i, r) in self.rows.iter().enumerate() {
                    lines.push(Line::from(vec![
                        Span::styled(format!("{:>2}. ", i + 1), theme.strong()),
                        Span::raw(format!(
                            "{:>8}  {}  {}",
                            r.score,
                            r.result.as_str(),
                            format_time(r.ended_at)
                        )),
                    ]));
                }
            }
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if lookup(STATS, &key).is_some() {
            let t = self.tables.get(self.shown);
            let (game, variant) = (t.map(|t| t.0.as_str()), t.map(|t| t.1.as_str()));
            return Transition::Push(Box::new(StatsView::new(ctx, game, variant)));
        }
        let n = self.tables.len().max(1);
        match SCORE_NAV.lookup(&key) {
            Some(Nav::Left) => self.shown = (self.shown + n - 1) % n,
            Some(Nav::Right) => self.shown = (self.shown + 1) % n,
            Some(Nav::Back) => return Transition::Pop,
            _ => return Transition::Stay,
        }
        self.load(ctx);
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        // The wheel turns the tables (there is nothing to click).
        wheel(&event, [KeyCode::Left, KeyCode::Right], |key| {
            self.handle_key(key, ctx)
        })
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        SCORE_NAV.bar_with(STATS)
    }

    fn help(&self) -> Help {
        let text = format!(
            "Games that used undo, hints or autoplay, and games played from a chosen seed, are kept out of these \
             tables. {}",
            self.ranks
        );
        help_with_stats("Best scores", SCORE_NAV, text)
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
    pub fn about(ctx: &Ctx) -> TextView {
        let mut paragraphs = crate::tui::keys::about();
        for g in ctx.games {
            paragraphs.push(format!("== {} ==", g.title()));
            paragraphs.extend(g.rules().iter().map(|s| s.to_string()));
        }
        TextView {
            scroll: 0,
            paragraphs,
            title: "Parlor · help".into(),
        }
    }
}

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
        match TEXT_NAV.lookup(&key) {
            Some(Nav::Back) => return Transition::Pop,
            Some(Nav::Up) => self.scroll = self.scroll.saturating_sub(1),
            Some(Nav::Down) => self.scroll = self.scroll.saturating_add(1),
            _ => {}
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        // The wheel scrolls.
        wheel(&event, [KeyCode::Up, KeyCode::Down], |key| {
            self.handle_key(key, ctx)
        })
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        TEXT_NAV.bar()
    }

    fn help(&self) -> Help {
        Help {
            title: self.title.clone(),
            keys: TEXT_NAV.help(),
            text: Vec::new(),
        }
    }
}

/// Turns the wheel into the key `keys[0]` (up) or `keys[1]` (down) for `handle`; anything else does nothing.
fn wheel(
    event: &MouseEvent,
    keys: [KeyCode; 2],
    handle: impl FnOnce(KeyEvent) -> Transition,
) -> Transition {
    match Rows::default().pointer(event) {
        Some(Pointer::Wheel(Nav::Up)) => handle(KeyEvent::from(keys[0])),
        Some(Pointer::Wheel(Nav::Down)) => handle(KeyEvent::from(keys[1])),
        _ => Transition::Stay,
    }
}
