//! The review screen (the coach): a finished game's review ([`crate::mid::review::Review`]) with its summary, each
//! side's accuracy, the list of moves with their marks (marked moves stand out, by colour and by the annotators'
//! glyphs), and for the selected move the values before and after, the best moves, the note and the position the
//! review kept. The review is made in the background ([`Coach`]) while the screen takes keys, and kept with the
//! game. Generic: it draws the review's data and names no game.

use super::keys::{Binding, Nav, NavWords, bar, common, lookup, more};
use super::launch::Launch;
use super::layout::{chrome, fit_line};
use super::mouse::Rows;
use super::text::Wrapped;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseEvent};
use crate::mid::coach::Coach;
use crate::mid::review::{Mark, Review, Reviewed};
use crate::storage::GameRecord;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// The key that opens a finished game's review, wherever one is offered (History, the end screen).
pub const OPEN: &[Binding<()>] = &[bar(&[KeyCode::Char('c')], "c", "review", ())];

const NAV: NavWords = NavWords(["move", "move", "previous mark", "next mark", "", "back"]);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Learn,
    Practise,
    First,
    Last,
    DetailUp,
    DetailDown,
}

/// The key that starts the puzzles of the marked moves.
const LEARN: &[KeyCode] = &[KeyCode::Char('p')];
/// The key that starts a practice game from the position before the selected move ("practise from here").
const PRACTISE: &[KeyCode] = &[KeyCode::Char('f')];
/// The keys that scroll the selected move's details.
const PAGE_UP: &[KeyCode] = &[KeyCode::PageUp];
/// See [`PAGE_UP`].
const PAGE_DOWN: &[KeyCode] = &[KeyCode::PageDown];

/// The review screen's own keys (beside the arrows and q).
const KEYS: &[Binding<Cmd>] = &[
    bar(LEARN, "p", "learn from your mistakes", Cmd::Learn),
    bar(PRACTISE, "f", "practise", Cmd::Practise),
    more(common::FIRST, "g Home", "first move", Cmd::First),
    more(common::LAST, "G End", "last move", Cmd::Last),
    more(PAGE_UP, "PageUp", "details up", Cmd::DetailUp),
    more(PAGE_DOWN, "PageDown", "details down", Cmd::DetailDown),
];

/// The widest screen that still puts the details under the list rather than beside it.
const SIDE_BY_SIDE: u16 = 80;
/// The list's width when the details stand beside it.
const LIST_WIDTH: u16 = 34;

/// One finished game's review.
pub struct ReviewView {
    title: String,
    /// The game's id and the finished game's number.
    game: String,
    id: i64,
    coach: Coach,
    /// The move selected (an index into the review's moves).
    selected: usize,
    /// The list's first row shown.
    list_top: usize,
    /// How far the selected move's details are scrolled.
    detail_scroll: usize,
    /// The rows of the details as last drawn (a page of PageUp and PageDown).
    detail_rows: usize,
    /// Whether the selection was set on the worst move yet (once the review is ready).
    placed: bool,
    /// A line to say above the review (why it is not kept, a key that does nothing).
    message: Option<String>,
    /// The list as last drawn (for the mouse).
    rows: Rows,
}

impl ReviewView {
    /// The review of `record`, a finished game of `game`: read back from the store, else the one still being made
    /// for a screen closed before it was done, else made in the background.
    pub fn open(game: &'static dyn Launch, record: &GameRecord, ctx: &mut Ctx) -> ReviewView {
        let coach = ctx
            .reviews
            .take(record.id)
            .unwrap_or_else(|| Coach::start(game, record, &*ctx.store, ctx.contexts));
        ReviewView::with(game, record.id, coach)
    }

    /// The review of game number `id` of `game`, from a coach already at work (the end screen's).
    pub fn with<T: crate::mid::AnyGame + ?Sized>(game: &T, id: i64, coach: Coach) -> ReviewView {
        ReviewView {
            title: format!("Review · {} · game #{id}", game.title()),
            game: game.id().to_string(),
            id,
            coach,
            selected: 0,
            list_top: 0,
            detail_scroll: 0,
            detail_rows: 1,
            placed: false,
            message: None,
            rows: Rows::default(),
        }
    }

    /// The review of a record found among the screens' games, or why there is none.
    pub fn of_record(record: &GameRecord, ctx: &mut Ctx) -> Result<ReviewView, String> {
        crate::mid::find(ctx.games, &record.game)
            .map(|g| ReviewView::open(g, record, ctx))
            .ok_or_else(|| format!("this Parlor cannot review a game of {}", record.game))
    }

    /// The move shown (an index into the review's moves), for tests.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Collects the review if it is ready, and selects its worst move the first time.
    fn collect(&mut self, ctx: &mut Ctx) {
        self.coach.poll(&*ctx.store);
        if let Coach::Ready { review, not_kept } = &self.coach
            && !self.placed
        {
            self.placed = true;
            self.selected = review
                .worst()
                .and_then(|w| review.moves.iter().position(|m| m.number == w.number))
                .unwrap_or(0);
            if let Some(why) = not_kept {
                self.message = Some(format!("The review is not kept: {why}."));
            }
        }
    }

    /// `p`: the puzzles of the review's marked moves, on the game's own board.
    fn learn(&mut self, ctx: &mut Ctx) -> Transition {
        let Some(review) = self.coach.review().cloned() else {
            return Transition::Stay;
        };
        self.open_with(ctx, |game, record, ctx| {
            game.puzzles(record, &review, ctx)
                .map_err(|e| e.to_string())
        })
    }

    /// `f`: a practice game from the position before the selected move, on the game's own screen (recorded as
    /// practice, never scored); back here when it is left.
    fn practise(&mut self, ctx: &mut Ctx) -> Transition {
        if self.coach.review().is_none_or(|r| r.moves.is_empty()) {
            return Transition::Stay;
        }
        let number = self.selected + 1;
        self.open_with(ctx, |game, record, ctx| {
            game.practise(record, number, ctx)
                .map_err(|e| format!("no practice from move {number}: {e}"))
        })
    }

    /// The screen `open` makes of the reviewed game's record and its game (the puzzles, a practice game), pushed;
    /// or why there is none (the game is not here, nor its record), said on this screen.
    fn open_with(
        &mut self,
        ctx: &mut Ctx,
        open: impl FnOnce(&'static dyn Launch, &GameRecord, &mut Ctx) -> Result<Box<dyn View>, String>,
    ) -> Transition {
        let opened = match (
            crate::mid::find(ctx.games, &self.game),
            ctx.store.game(self.id),
        ) {
            (Some(game), Ok(Some(record))) => open(game, &record, ctx),
            (None, _) => Err(format!("this Parlor cannot play a game of {}", self.game)),
            (_, Ok(None)) => Err(format!("game #{} is not in the history", self.id)),
            (_, Err(e)) => Err(format!("game #{} cannot be read: {e:#}", self.id)),
        };
        match opened {
            Ok(view) => Transition::Push(view),
            Err(why) => {
                self.message = Some(why);
                Transition::Stay
            }
        }
    }

    /// A navigation command on a review of `n` moves whose marked moves are at `marked`.
    fn nav(&mut self, nav: Nav, n: usize, marked: &[usize]) {
        let before = self.selected;
        match nav {
            Nav::Up => self.selected = self.selected.saturating_sub(1),
            Nav::Down => self.selected = (self.selected + 1).min(n.saturating_sub(1)),
            Nav::Left => {
                if let Some(&i) = marked.iter().rev().find(|&&i| i < self.selected) {
                    self.selected = i;
                } else {
                    self.message = Some("no marked move before this one".into());
                }
            }
            Nav::Right => {
                if let Some(&i) = marked.iter().find(|&&i| i > self.selected) {
                    self.selected = i;
                } else {
                    self.message = Some("no marked move after this one".into());
                }
            }
            Nav::Choose | Nav::Back => {}
        }
        if self.selected != before {
            self.detail_scroll = 0;
        }
    }
}

/// The style a move's mark stands out in.
fn mark_style(mark: Mark, theme: &Theme) -> Style {
    match mark {
        Mark::None => Style::default(),
        Mark::Inaccuracy => theme.strong(),
        Mark::Mistake | Mark::Blunder => theme.warn(),
    }
}

/// One row of the list: the move's number, who played it, the move, and its mark (glyph and word).
fn list_row(m: &Reviewed) -> String {
    let side = m.side.as_deref().map_or(String::new(), |s| format!("{s} "));
    match m.mark {
        Mark::None => format!("{:>3}. {side}{}", m.number, m.played),
        mark => format!(
            "{:>3}. {side}{} {} {}",
            m.number,
            m.played,
            mark.glyph(),
            mark.name()
        ),
    }
}

/// The selected move's details: the move, its mark and loss, the values before and after, the best moves, the note,
/// its figures against the best's (information, a chance), the position before it where the review kept one, and how the values were had.
fn details(review: &Review, m: &Reviewed, theme: &Theme) -> Vec<Line<'static>> {
    let side = m
        .side
        .as_deref()
        .map_or(String::new(), |s| format!(" ({s})"));
    let mut lines = vec![Line::styled(
        format!("Move {}{side}: {}", m.number, m.played),
        theme.strong(),
    )];
    lines.push(match m.mark {
        Mark::None => Line::raw("no mark"),
        mark => Line::styled(
            format!(
                "{} {} · lost {} {}",
                mark.glyph(),
                mark.name(),
                figure(m.loss),
                review.unit
            ),
            mark_style(mark, theme),
        ),
    });
    lines.push(Line::raw(format!("before: {}", m.before)));
    lines.push(Line::raw(format!("after: {}", m.after)));
    lines.push(Line::raw(format!("best: {}", m.best.join(", "))));
    if !m.note.is_empty() {
        lines.push(Line::raw(m.note.clone()));
    }
    lines.extend(m.figures.iter().map(|f| Line::raw(f.text())));
    if !m.board.is_empty() {
        lines.push(Line::raw("position before it:"));
        lines.extend(m.board.lines().map(|l| Line::raw(l.to_string())));
    }
    lines.push(Line::styled(review.method.clone(), theme.dim()));
    lines
}

/// A loss as the details show it: whole when it is whole, else with two decimals.
fn figure(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

impl View for ReviewView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let mut body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let review = match &self.coach {
            Coach::Ready { review, .. } => review,
            waiting => {
                let line = crate::mid::capitalised(&waiting.line());
                let text = Wrapped::new(vec![Line::raw(line)], body.width);
                text.render(frame, body, 0, theme.dim());
                return;
            }
        };
        let mut head = vec![
            Line::styled(review.summary(), theme.strong()),
            Line::raw(format!("accuracy: {}", review.accuracy_line())),
        ];
        if let Some(m) = &self.message {
            head.push(Line::styled(m.clone(), theme.warn()));
        }
        let head = Wrapped::new(head, body.width);
        let head_h = head.height().min(body.height / 3).max(1);
        let [top, rest] =
            Layout::vertical([Constraint::Length(head_h), Constraint::Min(1)]).areas(body);
        head.render(frame, top, 0, theme.dim());
        body = rest;
        let (list, detail) = if body.width >= SIDE_BY_SIDE {
            let [l, _, d] = Layout::horizontal([
                Constraint::Length(LIST_WIDTH),
                Constraint::Length(1),
                Constraint::Min(1),
            ])
            .areas(body);
            (l, d)
        } else {
            let list_h = (body.height / 2).max(1);
            let [l, d] =
                Layout::vertical([Constraint::Length(list_h), Constraint::Min(1)]).areas(body);
            (l, d)
        };
        // The list: the selected row kept in view.
        let n = review.moves.len();
        let h = usize::from(list.height).max(1);
        self.selected = self.selected.min(n.saturating_sub(1));
        if self.selected < self.list_top {
            self.list_top = self.selected;
        } else if self.selected >= self.list_top + h {
            self.list_top = self.selected + 1 - h;
        }
        self.list_top = self.list_top.min(n.saturating_sub(h));
        let lines: Vec<Line> = review
            .moves
            .iter()
            .enumerate()
            .skip(self.list_top)
            .take(h)
            .map(|(i, m)| {
                let text = list_row(m);
                if i == self.selected {
                    fit_line(
                        Line::styled(format!("▸ {text}"), theme.selected()),
                        list.width,
                    )
                } else {
                    fit_line(
                        Line::styled(format!("  {text}"), mark_style(m.mark, theme)),
                        list.width,
                    )
                }
            })
            .collect();
        self.rows = Rows::new(list, self.list_top, n);
        frame.render_widget(Paragraph::new(lines), list);
        // A page keeps a row of the last one in view (and the rows of the marks).
        self.detail_rows = usize::from(detail.height.saturating_sub(3)).max(1);
        if let Some(m) = review.moves.get(self.selected) {
            let text = Wrapped::new(details(review, m, theme), detail.width);
            let shown = text.render(frame, detail, self.detail_scroll, theme.dim());
            self.detail_scroll = shown.scroll;
        } else {
            let text = Wrapped::new(
                vec![Line::raw("The game has no move to review.")],
                detail.width,
            );
            text.render(frame, detail, 0, theme.dim());
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        self.collect(ctx);
        self.message = None;
        if NAV.lookup(&key) == Some(Nav::Back) {
            return Transition::Pop;
        }
        let Some(review) = self.coach.review() else {
            return Transition::Stay;
        };
        let n = review.moves.len();
        let marked: Vec<usize> = (0..n)
            .filter(|&i| review.moves[i].mark != Mark::None)
            .collect();
        if let Some(nav) = NAV.lookup(&key) {
            self.nav(nav, n, &marked);
            return Transition::Stay;
        }
        match lookup(KEYS, &key) {
            Some(Cmd::Learn) => return self.learn(ctx),
            Some(Cmd::Practise) => return self.practise(ctx),
            Some(Cmd::First) => self.selected = 0,
            Some(Cmd::Last) => self.selected = n.saturating_sub(1),
            Some(Cmd::DetailUp) => {
                self.detail_scroll = self.detail_scroll.saturating_sub(self.detail_rows)
            }
            Some(Cmd::DetailDown) => self.detail_scroll += self.detail_rows,
            None => {}
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        self.collect(ctx);
        if let Some((pick, nav)) = self.rows.nav(&event) {
            if let Some(i) = pick {
                if i != self.selected {
                    self.detail_scroll = 0;
                }
                self.selected = i;
            } else {
                let n = self.rows.len;
                self.nav(nav, n, &[]);
            }
        }
        Transition::Stay
    }

    fn tick(&mut self, ctx: &mut Ctx) -> Transition {
        self.collect(ctx);
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        self.coach.working().then_some(100)
    }

    fn left_behind(&mut self) -> Option<Coach> {
        self.coach.working().then(|| {
            std::mem::replace(
                &mut self.coach,
                Coach::Failed("the review goes on in the background".into()),
            )
        })
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        match self.coach.review() {
            Some(_) => NAV.bar_with(KEYS),
            None => vec![("q", "back")],
        }
    }

    fn help(&self) -> Help {
        Help {
            title: self.title.clone(),
            keys: NAV.help_with(KEYS),
            text: vec![
                "The engine's review of a finished game: every move with its mark, ?! an inaccuracy, ? a mistake, \
                 ?? a blunder (RULES.md, \"Reviews\", gives each game's thresholds), the summary and each side's \
                 accuracy. Beside or under the list stand the selected move's details: its values before and after \
                 it, the best moves, the note, and the position before it where the review kept one."
                    .into(),
                "The review is made once, in the background, and kept with the game: opening it again reads it \
                 back."
                    .into(),
                "f practises from here: a new game from the position before the selected move (a marked one is \
                 the one to try again), recorded as practice, never in the best scores or the statistics."
                    .into(),
            ],
        }
    }
}

/// Whether `key` opens a review where one is offered ([`OPEN`]).
pub fn opens(key: &KeyEvent) -> bool {
    lookup(OPEN, key).is_some()
}
