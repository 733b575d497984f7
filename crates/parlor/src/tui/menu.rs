//! The main menu, Parlor's one launcher: every game in progress under Continue (all of them, scrolling; `d`
//! discards one after asking), a new game of each game (its setup form), best scores, history, help.

use super::keys::{
    Answer, Binding, Nav, NavWords, QUESTION, bar, describe, help_keys, lookup, wrapped,
};
use super::launch::Launch;
use super::layout::{chrome, fit_line, wrap_fitted, wrap_text};
use super::mouse::{Rows, answer_at};
use super::records::{HistoryView, ScoresView, TextView};
use super::stats::StatsView;
use super::text::Wrapped;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseEvent};
use crate::mid::find;
use crate::mid::session::ResumeError;
use crate::storage::{Unfinished, format_time};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

/// Parlor online as the menu offers it: set once by a front end that offers it from its menu (the page and the
/// terminal, which ask the server and the name first); without it the menu has no such entry.
struct Offer {
    /// What the menu's "Online" entry opens.
    open: fn() -> Box<dyn View>,
    /// The title of the game played against people there (the registry's online room game).
    played: &'static str,
}

/// Parlor online, once offered ([`offer_online`]).
static ONLINE: std::sync::OnceLock<Offer> = std::sync::OnceLock::new();

/// Offers Parlor online in the menu, opened by `open`, its rooms playing the game titled `played`; `false` if it
/// was offered already.
pub fn offer_online(open: fn() -> Box<dyn View>, played: &'static str) -> bool {
    ONLINE.set(Offer { open, played }).is_ok()
}

/// The title of the game Parlor online's rooms play, once offered.
fn played_online() -> &'static str {
    ONLINE.get().map_or("games", |o| o.played)
}

const NAV: NavWords = NavWords(["choose", "choose", "", "", "open", "quit"]);

/// The mark of a game in progress that another Parlor window is playing (Enter would refuse it): its row starts
/// with it in place of "Continue".
const HELD: &str = "In another window:";

/// The menu's own key: discard the selected game in progress.
const DISCARD: &[Binding<()>] = &[bar(
    &[KeyCode::Char('d')],
    "d",
    "discard a game in progress",
    (),
)];

/// The menu's help on the settings.
const SETTINGS_HELP: &str = "Settings (in this menu) changes the theme, the keys of the commands every game \
     shares, animations, the autoplay and replay speeds, which questions are asked first, and the options each new \
     game starts with. They are saved to settings.toml in the configuration directory (parlor settings prints it); \
     --theme NAME chooses a theme for one run.";

#[derive(Clone, Debug)]
enum Item {
    /// A game in progress, with its progress line, and whether another Parlor window holds it now.
    Continue(Box<Unfinished>, String, bool),
    /// A new game of the game at this index of the registry.
    New(usize),
    /// Parlor online, when a front end offers it ([`offer_online`]).
    Online,
    Scores,
    Stats,
    History,
    Settings,
    About,
    Quit,
}

/// The main menu.
pub struct MenuView {
    items: Vec<Item>,
    selected: usize,
    message: Option<String>,
    /// A game in progress waiting for "discard it?" to be answered.
    discarding: Option<Unfinished>,
    list_area: Rect,
    /// Where the message line was drawn (the discard question is answered there by a click).
    msg_area: Rect,
    scroll: usize,
    /// The registry, as the last `resumed` saw it (drawing has no context).
    games: Vec<&'static dyn Launch>,
    /// The screen Enter would open, made ahead in idle time ([`View::prepare`]): the selected row and its label
    /// when it was made, and the screen. Any key or mouse event takes it (Enter on that row opens it, anything
    /// else drops it), and so does the menu showing again.
    prepared: Option<(usize, String, Box<dyn View>)>,
}

impl MenuView {
    /// The menu, with a message to show at the top (a storage notice, say).
    pub fn new(message: Option<String>) -> MenuView {
        MenuView {
            items: Vec::new(),
            selected: 0,
            message,
            discarding: None,
            list_area: Rect::default(),
            msg_area: Rect::default(),
            scroll: 0,
            games: Vec::new(),
            prepared: None,
        }
    }

    /// Reads the games in progress again; damaged ones are set aside (kept, never deleted) with a one-line note.
    fn refresh(&mut self, ctx: &mut Ctx) {
        let mut items = Vec::new();
        let saved = match ctx.store.unfinished(None) {
            Ok(list) => list,
            Err(e) => {
                self.message = Some(format!("could not read the saved games: {e:#}"));
                Vec::new()
            }
        };
        for u in saved {
            let progress = match find(ctx.games, &u.game) {
                Some(g) => g.progress(&u, ctx.contexts).map_err(|e| e.to_string()),
                None => Err(format!("this Parlor does not know the game '{}'", u.game)),
            };
            match progress {
                Ok(p) => {
                    let held = ctx.store.held_elsewhere(&u.session);
                    items.push(Item::Continue(Box::new(u), p, held))
                }
                Err(why) => {
                    let kept = ctx.store.set_aside(&u, &why).is_ok();
                    self.message = Some(if kept {
                        format!(
                            "A damaged saved game of {} was set aside ({why}); it is kept in the database.",
                            u.game
                        )
                    } else {
                        format!("A saved game of {} is damaged ({why}).", u.game)
                    });
                }
            }
        }
        items.extend((0..ctx.games.len()).map(Item::New));
        if ONLINE.get().is_some() {
            items.push(Item::Online);
        }
        items.extend([
            Item::Scores,
            Item::Stats,
            Item::History,
            Item::Settings,
            Item::About,
            Item::Quit,
        ]);
        self.items = items;
        self.selected = self.selected.min(self.items.len() - 1);
    }

    fn label(&self, item: &Item, games: &[&'static dyn Launch]) -> String {
        match item {
            Item::Continue(u, progress, held) => format!(
                "{} {} {} · {progress} · {}",
                if *held { HELD } else { "Continue" },
                title_of(games, &u.game),
                u.variant,
                format_time(u.updated_at)
            ),
            Item::New(i) => format!("New game: {}", games[*i].title()),
            Item::Online => format!("Online: {} against people", played_online()),
            Item::Scores => "Best scores".into(),
            Item::Stats => "Statistics".into(),
            Item::History => "History and replays".into(),
            Item::Settings => "Settings".into(),
            Item::About => "Help".into(),
            Item::Quit => "Quit".into(),
        }
    }

    fn describe(&self, item: &Item, games: &[&'static dyn Launch]) -> String {
        match item {
            Item::Continue(_, _, true) => {
                "This game is being played in another Parlor window: finish it there, or start a new one."
                    .into()
            }
            Item::Continue(..) => {
                "Pick up this game where you left it (d discards it: it is recorded as given up)."
                    .into()
            }
            Item::New(i) => format!("{} Enter opens its setup.", games[*i].blurb()),
            Item::Online => format!(
                "Play {} on a Parlor server (parlor serve): the lobby, challenges, the rated queue, watching, and \
                 the daily challenges.",
                played_online()
            ),
            Item::Scores => "The best scores for each game and variant.".into(),
            Item::Stats => "Games played, won, streaks, best and average, with charts.".into(),
            Item::History => "Every finished game; pick one to watch it again.".into(),
            Item::Settings => {
                "Theme, keys, animations, speeds, questions and each game's defaults.".into()
            }
            Item::About => "Keys and rules.".into(),
            Item::Quit => "Leave Parlor. Games in progress are always saved.".into(),
        }
    }

    /// The screen `item` opens, when opening it writes nothing (a game's setup, the records, the settings, the
    /// help): the ones [`View::prepare`] may make ahead. `None` for the others (Continue claims the game, Online
    /// connects, Quit quits).
    fn open(&self, item: &Item, ctx: &mut Ctx) -> Option<Box<dyn View>> {
        Some(match item {
            Item::New(i) => {
                let defaults = ctx.settings.game_json(ctx.games[*i].id());
                ctx.games[*i].setup(defaults, ctx.contexts)
            }
            Item::Settings => {
                Box::new(super::settings::SettingsView::new(ctx.settings, ctx.keeper))
            }
            Item::Scores => Box::new(ScoresView::new(ctx)),
            Item::Stats => Box::new(StatsView::new(ctx, None, None)),
            Item::History => Box::new(HistoryView::new(ctx)),
            Item::About => Box::new(TextView::about(ctx)),
            Item::Continue(..) | Item::Online | Item::Quit => return None,
        })
    }

    /// The screen made ahead for the selected row, if it was made for it as it reads now.
    fn take_prepared(&mut self) -> Option<Box<dyn View>> {
        let (at, label, view) = self.prepared.take()?;
        let item = self.items.get(self.selected)?;
        (at == self.selected && label == self.label(item, &self.games)).then_some(view)
    }

    fn choose(&mut self, ctx: &mut Ctx) -> Transition {
        if let Some(view) = self.take_prepared() {
            return Transition::Push(view);
        }
        match self.items[self.selected].clone() {
            Item::Continue(u, _, _) => match find(ctx.games, &u.game).map(|g| g.resume(&u, ctx)) {
                Some(Ok(view)) => Transition::Push(view),
                Some(Err(ResumeError::Taken)) => {
                    self.message = Some(
                        "That game is being played in another Parlor window: finish it there, or start a new one."
                            .into(),
                    );
                    Transition::Stay
                }
                Some(Err(ResumeError::Damaged(why))) => {
                    let _ = ctx.store.set_aside(&u, &why);
                    self.message = Some(format!("That game is damaged ({why}): it was set aside."));
                    self.refresh(ctx);
                    Transition::Stay
                }
                Some(Err(e @ (ResumeError::Gone | ResumeError::Unavailable(_)))) => {
                    self.message = Some(format!("That game cannot be continued: {e}."));
                    self.refresh(ctx);
                    Transition::Stay
                }
                None => Transition::Stay,
            },
            item @ (Item::New(_)
            | Item::Settings
            | Item::Scores
            | Item::Stats
            | Item::History
            | Item::About) => match self.open(&item, ctx) {
                Some(view) => Transition::Push(view),
                None => Transition::Stay,
            },
            Item::Online => match ONLINE.get() {
                Some(offer) => Transition::Push((offer.open)()),
                None => Transition::Stay,
            },
            Item::Quit => Transition::Quit,
        }
    }

    fn discard(&mut self, u: Unfinished, ctx: &mut Ctx) {
        let Some(game) = find(ctx.games, &u.game) else {
            return;
        };
        // Taking the game up claims it, so a game being played elsewhere is never discarded under its player.
        self.message = Some(match game.discard(&u, ctx) {
            Ok(()) => format!("The {} game was recorded as given up.", game.title()),
            Err(e) => format!("could not discard it: {e}"),
        });
        self.refresh(ctx);
    }
}

impl MenuView {
    /// A navigation command, from a key or the mouse.
    fn nav(&mut self, nav: Nav, ctx: &mut Ctx) -> Transition {
        match nav {
            Nav::Up | Nav::Down => self.selected = wrapped(self.selected, self.items.len(), nav),
            Nav::Choose => return self.choose(ctx),
            Nav::Back => return Transition::Quit,
            _ => {}
        }
        Transition::Stay
    }
}

/// The answers to "discard it?", as the message line shows them (a click on either answers).
const DISCARD_ANSWERS: &str = "y yes · n no";

fn discard_question(u: &Unfinished) -> String {
    format!("Discard the {} game {}? ", u.game, u.variant)
}

fn title_of(games: &[&'static dyn Launch], id: &str) -> String {
    find(games, id).map_or_else(|| id.to_string(), |g| g.title().to_string())
}

impl View for MenuView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(
            frame,
            area,
            "Parlor · classic thinking games",
            &self.hint_bar(),
            theme,
        );
        let (note, style) = match &self.discarding {
            Some(u) => (
                Some(format!("{}{DISCARD_ANSWERS}", discard_question(u))),
                theme.warn(),
            ),
            None => (self.message.clone(), theme.warn()),
        };
        // A long notice takes the rows the list and the description can spare; what still does not fit ends
        // with `…`.
        let room = body.height.saturating_sub(6).max(2);
        let msg_rows = note.as_deref().map_or(2, |m| {
            (wrap_text(m, body.width).len() as u16).clamp(2, room)
        });
        let [msg, list, desc] = Layout::vertical([
            Constraint::Length(msg_rows),
            Constraint::Min(3),
            Constraint::Length(3),
        ])
        .areas(body);
        self.msg_area = msg;
        if let Some(m) = note {
            let lines: Vec<Line> = wrap_fitted(&m, msg.width, msg.height)
                .into_iter()
                .map(|l| Line::styled(l, style))
                .collect();
            frame.render_widget(Paragraph::new(lines), msg);
        }
        let games = self.games.clone();
        let lines: Vec<Line> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let text = self.label(item, &games);
                let text = if i == self.selected {
                    format!("▸ {text}")
                } else {
                    format!("  {text}")
                };
                // A row too long is shortened with `…`, never past the mark of a game held elsewhere (which
                // starts it).
                let line = fit_line(Line::raw(text), list.width);
                if i == self.selected {
                    line.style(theme.selected())
                } else {
                    line
                }
            })
            .collect();
        // One row per item; on a short terminal the list scrolls to keep the selection in view, with its marks.
        let held: Vec<bool> = lines
            .iter()
            .map(|l| l.spans.iter().any(|s| s.content.contains(HELD)))
            .collect();
        let rows = Wrapped::new(lines, list.width);
        let scroll = rows.scroll_to(self.scroll, self.selected, 1, list.height);
        let shown = rows.render(frame, list, scroll, theme.dim());
        for (i, _) in held.iter().enumerate().filter(|(_, h)| **h) {
            if let Some((y, _)) = shown.rows(i, 1) {
                super::text::mark(
                    Rect {
                        y,
                        height: 1,
                        ..list
                    },
                    HELD,
                );
            }
        }
        self.scroll = shown.scroll;
        self.list_area = Rect {
            y: shown.top,
            height: shown.visible as u16,
            ..list
        };
        if let Some(item) = self.items.get(self.selected) {
            let said = self.describe(item, &games);
            super::text::whole(desc, &said);
            frame.render_widget(Paragraph::new(said).wrap(Wrap { trim: true }), desc);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        let t = self.key(key, ctx);
        self.prepared = None;
        t
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        let t = self.mouse(event, ctx);
        self.prepared = None;
        t
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        if self.discarding.is_some() {
            return describe(QUESTION, false);
        }
        NAV.bar_with(DISCARD)
    }

    fn help(&self) -> Help {
        let mut keys = NAV.help_with(DISCARD);
        keys.extend(help_keys(QUESTION));
        Help {
            title: "Parlor".into(),
            keys,
            text: crate::tui::keys::about()
                .into_iter()
                .chain([SETTINGS_HELP.to_string()])
                .collect(),
        }
    }

    fn resumed(&mut self, ctx: &mut Ctx) {
        self.prepared = None;
        self.games = ctx.games.to_vec();
        self.refresh(ctx);
        if let Some(n) = ctx.notice.take() {
            self.message = Some(n);
        }
    }

    fn prepare(&mut self, ctx: &mut Ctx) -> bool {
        let Some(item) = self.items.get(self.selected).cloned() else {
            return false;
        };
        if self.discarding.is_some() {
            self.prepared = None;
            return false;
        }
        let label = self.label(&item, &self.games);
        if self
            .prepared
            .as_ref()
            .is_some_and(|(at, l, _)| *at == self.selected && *l == label)
        {
            return true;
        }
        self.prepared = self.open(&item, ctx).map(|v| (self.selected, label, v));
        self.prepared.is_some()
    }

    fn prepared(&mut self) -> Option<&mut dyn View> {
        let selected = self.selected;
        match &mut self.prepared {
            Some((at, _, view)) if *at == selected => Some(view.as_mut()),
            _ => None,
        }
    }
}

impl MenuView {
    /// A key, the menu's own way (the screen made ahead is dropped after it, whatever it did).
    fn key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if let Some(u) = self.discarding.take() {
            match lookup(QUESTION, &key) {
                Some(Answer::Yes) => self.discard(u, ctx),
                Some(Answer::No) => self.message = Some("kept".into()),
                None => self.discarding = Some(u),
            }
            return Transition::Stay;
        }
        self.message = None;
        if lookup(DISCARD, &key).is_some() {
            match self.items.get(self.selected) {
                Some(Item::Continue(u, _, _)) if !ctx.settings.confirm_discard() => {
                    let u = u.clone();
                    self.discard(*u, ctx);
                }
                Some(Item::Continue(u, _, _)) => self.discarding = Some((**u).clone()),
                _ => self.message = Some("d discards a game in progress: choose one first".into()),
            }
            return Transition::Stay;
        }
        match NAV.lookup(&key) {
            Some(nav) => self.nav(nav, ctx),
            None => Transition::Stay,
        }
    }

    /// A mouse event, the menu's own way.
    fn mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        if let Some(u) = &self.discarding {
            let x = self.msg_area.x + discard_question(u).chars().count() as u16;
            let answer = answer_at(&event, DISCARD_ANSWERS, x, self.msg_area.y);
            return match answer {
                Some(Answer::Yes) => self.handle_key(KeyEvent::from(KeyCode::Char('y')), ctx),
                Some(Answer::No) => self.handle_key(KeyEvent::from(KeyCode::Char('n')), ctx),
                None => Transition::Stay,
            };
        }
        let rows = Rows::new(self.list_area, self.scroll, self.items.len());
        let Some((pick, nav)) = rows.nav(&event) else {
            return Transition::Stay;
        };
        if let Some(i) = pick {
            self.selected = i;
        }
        self.message = None;
        self.nav(nav, ctx)
    }
}
