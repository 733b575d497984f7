//! The statistics screen: one game and one variant at a time (←→ game, ↑↓ variant), its figures, and the charts
//! its game asks for, drawn with ratatui's bar charts and sparklines. The figures always show; the charts shrink
//! to the window, and are dropped when it is too small for them. Every chart reads without colour: bar heights,
//! the numbers on the bars and the labels under them carry the meaning.

use super::keys::{Nav, NavWords};
use super::layout::{chrome, shorten};
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::stats::{ChartData, GameStats, chart_title, figure_lines, game_stats, percent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Paragraph, Sparkline, Wrap};

const NAV: NavWords = NavWords(["variant", "variant", "game", "game", "", "back"]);

/// The narrowest a chart is drawn beside another one.
const SIDE_BY_SIDE: u16 = 34;
/// The fewest rows a chart is drawn in (its frame, two rows of bars, the numbers and the labels).
const CHART_ROWS: u16 = 6;

/// The statistics screen.
pub struct StatsView {
    /// The games' names and titles, in menu order.
    games: Vec<(&'static str, &'static str)>,
    /// What each game charts, for the help.
    charts: String,
    /// The game shown (an index into `games`).
    game: usize,
    /// The variant shown (an index into the game's variants).
    variant: usize,
    /// The figures of the game shown.
    stats: Option<GameStats>,
    /// The figures of every game read so far (the screen reads a game once, however often it is shown).
    read: Vec<Option<GameStats>>,
    /// Why they could not be read.
    message: Option<String>,
    /// Where the game names were last drawn: their row and each name's columns (a click there shows that game).
    tabs_at: Option<(u16, Vec<(u16, u16)>)>,
}

impl StatsView {
    /// The statistics, opening on `game` and `variant` when given (the first game and its most played variant
    /// otherwise).
    pub fn new(ctx: &mut Ctx, game: Option<&str>, variant: Option<&str>) -> StatsView {
        let games: Vec<_> = ctx.games.iter().map(|g| (g.id(), g.title())).collect();
        let index = game
            .and_then(|id| games.iter().position(|(g, _)| *g == id))
            .unwrap_or(0);
        let charts = crate::mid::each_game(ctx.games, "charts", |g| g.charts_help());
        let mut view = StatsView {
            games,
            charts,
            game: index,
            variant: 0,
            stats: None,
            read: Vec::new(),
            message: None,
            tabs_at: None,
        };
        view.load(ctx);
        if let (Some(want), Some(s)) = (variant, &view.stats) {
            view.variant = s
                .variants
                .iter()
                .position(|v| v.variant == want)
                .unwrap_or(0);
        }
        view
    }

    /// Reads the figures of the game shown (once: they are kept while the screen is open).
    fn load(&mut self, ctx: &mut Ctx) {
        self.variant = 0;
        // Rows of no known game are counted under none: said on every game's page, as `parlor stats` says them.
        self.message = ctx
            .store
            .unknown_game()
            .ok()
            .and_then(|d| crate::mid::stats::unknown_game_note(&d));
        self.read.resize(self.games.len(), None);
        if let Some(old) = self.stats.take()
            && let Some(i) = self.games.iter().position(|(id, _)| *id == old.id)
        {
            self.read[i] = Some(old);
        }
        if let Some(kept) = self.read.get_mut(self.game).and_then(Option::take) {
            self.stats = Some(kept);
            return;
        }
        let Some(game) = self
            .games
            .get(self.game)
            .and_then(|(id, _)| crate::mid::find(ctx.games, id))
        else {
            return;
        };
        match game_stats(ctx.store, game) {
            Ok(s) => self.stats = Some(s),
            Err(e) => self.message = Some(format!("could not read the statistics: {e:#}")),
        }
    }

    /// The line of game names, the one shown marked.
    fn tabs(&self, theme: &Theme) -> Line<'static> {
        let mut spans = Vec::new();
        for (i, (_, title)) in self.games.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", theme.dim()));
            }
            if i == self.game {
                spans.push(Span::styled(format!("▸ {title}"), theme.selected()));
            } else {
                spans.push(Span::raw(title.to_string()));
            }
        }
        Line::from(spans)
    }

    /// The charts of the variant shown: a game's results over time show every variant's line together.
    fn panels(&self) -> Vec<Panel> {
        let Some(s) = &self.stats else {
            return Vec::new();
        };
        let Some(v) = s.variants.get(self.variant) else {
            return Vec::new();
        };
        let mut panels = Vec::new();
        for chart in &v.charts {
            let title = chart_title(chart, s.score_name);
            match chart {
                ChartData::Scores { bars, not_won } => {
                    let mut data: Vec<(String, u64)> =
                        bars.iter().map(|b| (b.label(), b.count)).collect();
                    if let Some(n) = not_won {
                        data.push(("✗".into(), *n));
                    }
                    if data.iter().all(|(_, n)| *n == 0) {
                        data.clear();
                    }
                    panels.push(Panel::Bars { title, data });
                }
                ChartData::Peaks { bars, .. } => panels.push(Panel::Bars {
                    title,
                    data: bars.iter().map(|b| (b.label(), b.count)).collect(),
                }),
                ChartData::Results { .. } => {
                    let rows = s
                        .variants
                        .iter()
                        .enumerate()
                        .filter_map(|(i, other)| {
                            other.charts.iter().find_map(|c| match c {
                                ChartData::Results { blocks } => Some(Row {
                                    label: format!(
                                        "{} {}: {} over {}",
                                        if i == self.variant { "▸" } else { " " },
                                        other.variant,
                                        other
                                            .figures
                                            .outcomes
                                            .win_rate()
                                            .map_or("no result".into(), percent),
                                        crate::figures::count(other.figures.played, "game"),
                                    ),
                                    rates: blocks
                                        .iter()
                                        .map(|b| {
                                            b.outcomes
                                                .win_rate()
                                                .map(|r| (r * 100.0).round() as u64)
                                        })
                                        .collect(),
                                }),
                                _ => None,
                            })
                        })
                        .collect();
                    panels.push(Panel::Sparks {
                        title: "Win rate over time, each level (oldest left; full height: 100%)"
                            .into(),
                        rows,
                    });
                }
            }
        }
        panels
    }
}

/// One chart as drawn.
enum Panel {
    /// A bar per (label, count).
    Bars {
        title: String,
        data: Vec<(String, u64)>,
    },
    /// A sparkline of win rates (percent) per variant.
    Sparks { title: String, rows: Vec<Row> },
}

/// One variant's line of a results chart.
struct Row {
    label: String,
    rates: Vec<Option<u64>>,
}

impl Panel {
    /// The columns the panel needs to show every bar with its whole label.
    fn width(&self) -> u16 {
        match self {
            Panel::Bars { data, .. } => {
                let widest = data
                    .iter()
                    .map(|(l, v)| l.chars().count().max(v.to_string().len()).max(3))
                    .max()
                    .unwrap_or(3);
                (data.len() * (widest + 1) + 1) as u16
            }
            Panel::Sparks { .. } => SIDE_BY_SIDE,
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let (title, empty) = match self {
            Panel::Bars { title, data } => (title, data.is_empty()),
            Panel::Sparks { title, rows } => (title, rows.is_empty()),
        };
        let room = usize::from(area.width.saturating_sub(4));
        let block = Block::bordered().title(Span::styled(
            format!(" {} ", shorten(title, room)),
            theme.strong(),
        ));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if empty {
            frame.render_widget(Paragraph::new("no game to show"), inner);
            return;
        }
        match self {
            Panel::Bars { data, .. } => draw_bars(frame, inner, data, theme),
            Panel::Sparks { rows, .. } => draw_sparks(frame, inner, rows, theme),
        }
    }
}

/// Vertical bars, as wide as the labels and numbers need and the area allows.
fn draw_bars(frame: &mut Frame, area: Rect, data: &[(String, u64)], theme: &Theme) {
    let n = data.len() as u16;
    let gap = 1;
    let widest = data
        .iter()
        .map(|(l, v)| l.chars().count().max(v.to_string().len()))
        .max()
        .unwrap_or(1) as u16;
    let room = (area.width + gap) / n.max(1);
    if room <= gap {
        frame.render_widget(
            Paragraph::new("too narrow for this chart").wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let width = (room - gap).min(widest.max(3));
    let bars: Vec<Bar> = data
        .iter()
        .map(|(label, count)| Bar::with_label(label.clone(), *count))
        .collect();
    let chart = BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(width)
        .bar_gap(gap)
        .bar_style(theme.chart())
        .value_style(theme.selected())
        .label_style(theme.text());
    frame.render_widget(chart, area);
}

/// One labelled sparkline per variant, each as tall as the room allows (one to three rows).
fn draw_sparks(frame: &mut Frame, area: Rect, rows: &[Row], theme: &Theme) {
    let n = rows.len() as u16;
    let each = (area.height / n.max(1)).clamp(2, 4);
    let mut y = area.y;
    for row in rows {
        if y + 2 > area.y + area.height {
            break;
        }
        let h = each.min(area.y + area.height - y);
        let label = Rect {
            y,
            height: 1,
            ..area
        };
        frame.render_widget(Paragraph::new(row.label.clone()), label);
        let chart_area = Rect {
            y: y + 1,
            height: h - 1,
            ..area
        };
        if row.rates.iter().flatten().all(|&r| r == 0) {
            // A line at 0% would draw nothing at all: say it.
            frame.render_widget(
                Paragraph::new(Span::styled("▁ 0% in every block: no win yet", theme.dim())),
                chart_area,
            );
            y += h;
            continue;
        }
        // Each block as wide as the area allows, so that the line fills it.
        let stretch = (usize::from(area.width) / row.rates.len().max(1)).max(1);
        let data: Vec<Option<u64>> = row
            .rates
            .iter()
            .flat_map(|r| std::iter::repeat_n(*r, stretch))
            .collect();
        let spark = Sparkline::default()
            .data(data)
            .max(100)
            .style(theme.chart())
            .absent_value_symbol("·");
        frame.render_widget(
            spark,
            Rect {
                y: y + 1,
                height: h - 1,
                ..area
            },
        );
        y += h;
    }
}

impl View for StatsView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, "Parlor · statistics", &self.hint_bar(), theme);
        let mut lines = vec![self.tabs(theme)];
        if let Some(m) = &self.message {
            lines.push(Line::styled(m.clone(), theme.warn()));
        }
        if let Some(s) = &self.stats {
            match s.variants.get(self.variant) {
                None => lines.push(Line::raw(format!("No finished {} game yet.", s.title))),
                Some(v) => {
                    lines.push(Line::from(vec![
                        Span::raw(format!(
                            "Variant {} of {}: ",
                            self.variant + 1,
                            s.variants.len()
                        )),
                        Span::styled(v.variant.clone(), theme.strong()),
                    ]));
                    lines.extend(figure_lines(v, s.score_name).into_iter().map(Line::raw));
                }
            }
        }
        // Each game's name is clickable where it is drawn (when the names fit on their row).
        let tabs = &lines[0];
        self.tabs_at = (tabs.width() <= usize::from(body.width)).then(|| {
            let mut x = body.x;
            let mut spots = Vec::new();
            for span in &tabs.spans {
                let w = span.width() as u16;
                if span.content.as_ref() != " · " {
                    spots.push((x, x + w));
                }
                x += w;
            }
            (body.y, spots)
        });
        let figures = Paragraph::new(lines).wrap(Wrap { trim: false });
        let height = (figures.line_count(body.width) as u16).min(body.height);
        let [top, _, rest] = Layout::vertical([
            Constraint::Length(height),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(body);
        frame.render_widget(figures, top);
        let panels = self.panels();
        if panels.is_empty() {
            return;
        }
        if rest.height < CHART_ROWS {
            if rest.height > 0 {
                frame.render_widget(
                    Paragraph::new(Span::styled(
                        "(a larger window shows the charts)",
                        theme.dim(),
                    )),
                    rest,
                );
            }
            return;
        }
        let n = panels.len() as u16;
        let half = rest.width / n.max(1);
        let shown = if n > 1 && half >= SIDE_BY_SIDE && panels.iter().all(|p| p.width() <= half) {
            Layout::horizontal(vec![Constraint::Fill(1); panels.len()])
                .split(rest)
                .to_vec()
        } else if n > 1 && rest.height >= n * CHART_ROWS {
            Layout::vertical(vec![Constraint::Fill(1); panels.len()])
                .split(rest)
                .to_vec()
        } else {
            vec![rest]
        };
        for (panel, area) in panels.iter().zip(shown) {
            panel.draw(frame, area, theme);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        let variants = self.stats.as_ref().map_or(0, |s| s.variants.len()).max(1);
        let games = self.games.len().max(1);
        match NAV.lookup(&key) {
            Some(Nav::Up) => self.variant = (self.variant + variants - 1) % variants,
            Some(Nav::Down) => self.variant = (self.variant + 1) % variants,
            Some(Nav::Left) => {
                self.game = (self.game + games - 1) % games;
                self.load(ctx);
            }
            Some(Nav::Right) => {
                self.game = (self.game + 1) % games;
                self.load(ctx);
            }
            Some(Nav::Back) => return Transition::Pop,
            _ => {}
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        // A click on a game's name shows that game.
        if let (MouseEventKind::Down(MouseButton::Left), Some((row, spots))) =
            (event.kind, &self.tabs_at)
        {
            if event.row == *row
                && let Some(i) = spots
                    .iter()
                    .position(|&(a, b)| (a..b).contains(&event.column))
                && i != self.game
            {
                self.game = i;
                self.variant = 0;
                self.load(ctx);
            }
            return Transition::Stay;
        }
        // The wheel turns the variants as ↑ and ↓ do; with Shift (or sideways) the games, as ← and →.
        let code = match (event.kind, event.modifiers.contains(KeyModifiers::SHIFT)) {
            (MouseEventKind::ScrollUp, false) => KeyCode::Up,
            (MouseEventKind::ScrollDown, false) => KeyCode::Down,
            (MouseEventKind::ScrollUp, true) | (MouseEventKind::ScrollLeft, _) => KeyCode::Left,
            (MouseEventKind::ScrollDown, true) | (MouseEventKind::ScrollRight, _) => KeyCode::Right,
            _ => return Transition::Stay,
        };
        self.handle_key(KeyEvent::new(code, KeyModifiers::NONE), ctx)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        NAV.bar()
    }

    fn help(&self) -> Help {
        Help {
            title: "Statistics".into(),
            keys: NAV.help(),
            text: vec![
                "Every finished game counts in played, won, the win rate and the streaks (wins in a row, in the \
                 order the games ended), assisted games and games from a chosen seed included; they are counted \
                 apart as well. Best and average count only the games the best scores count: neither assisted nor \
                 from a chosen seed and, where fewest guesses or plies rank, won. The win rate leaves out games \
                 with no result of yours (the codemaker role, two players, watching the computer)."
                    .into(),
                format!(
                    "{} `parlor stats` prints the same figures, and --json as numbers.",
                    self.charts
                ),
            ],
        }
    }
}
