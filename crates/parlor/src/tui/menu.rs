//! The main menu: continue a game in progress, start a game, best scores, history, help.

use super::keys::{Binding, bar, common, describe, lookup, more};
use super::layout::chrome;
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::games::twenty48::Options;
use crate::storage::{Unfinished, format_time};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Up,
    Down,
    Less,
    More,
    Choose,
    Quit,
}

const BINDINGS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "↑↓ jk",
        help: "choose",
        in_bar: true,
        cmd: Cmd::Up,
    },
    Binding {
        keys: &[],
        label: "←→ hl",
        help: "board size",
        in_bar: true,
        cmd: Cmd::Up,
    },
    more(common::UP, "↑ k w", "up", Cmd::Up),
    more(common::DOWN, "↓ j s", "down", Cmd::Down),
    more(common::LEFT, "← h a", "smaller board (2048)", Cmd::Less),
    more(common::RIGHT, "→ l d", "larger board (2048)", Cmd::More),
    bar(common::ENTER, "Enter", "open", Cmd::Choose),
    bar(common::BACK, "q", "quit", Cmd::Quit),
];

#[derive(Clone, Debug)]
enum Item {
    Continue(Unfinished),
    Twenty48,
    Mastermind,
    Nocca,
    Scores,
    History,
    About,
    Quit,
}

/// The main menu.
pub struct MenuView {
    items: Vec<Item>,
    selected: usize,
    size: usize,
    message: Option<String>,
    best: Option<i64>,
}

impl MenuView {
    /// The menu, with a message to show at the top (a storage notice, say).
    pub fn new(message: Option<String>) -> MenuView {
        MenuView {
            items: Vec::new(),
            selected: 0,
            size: 4,
            message,
            best: None,
        }
    }

    fn refresh(&mut self, ctx: &mut Ctx) {
        let mut items: Vec<Item> = match ctx.store.unfinished(None) {
            Ok(list) => list.into_iter().take(3).map(Item::Continue).collect(),
            Err(e) => {
                self.message = Some(format!("could not read saved games: {e:#}"));
                Vec::new()
            }
        };
        items.extend([
            Item::Twenty48,
            Item::Mastermind,
            Item::Nocca,
            Item::Scores,
            Item::History,
            Item::About,
            Item::Quit,
        ]);
        self.items = items;
        self.selected = self.selected.min(self.items.len() - 1);
        self.refresh_best(ctx);
    }

    fn refresh_best(&mut self, ctx: &mut Ctx) {
        let variant = Options {
            size: self.size,
            ..Options::default()
        }
        .variant();
        self.best = ctx
            .store
            .best_score(crate::games::twenty48::GAME, &variant)
            .ok()
            .flatten();
    }

    fn label(&self, item: &Item) -> String {
        match item {
            Item::Continue(u) => {
                let moves = u.moves.split_whitespace().count();
                format!(
                    "Continue {} {} · score {} · {moves} moves · {}",
                    u.game,
                    u.variant,
                    u.score,
                    format_time(u.updated_at)
                )
            }
            Item::Twenty48 => format!("2048            ‹ {0}x{0} ›", self.size),
            Item::Mastermind => "Mastermind".into(),
            Item::Nocca => "Nocca Nocca".into(),
            Item::Scores => "Best scores".into(),
            Item::History => "History and replays".into(),
            Item::About => "Help".into(),
            Item::Quit => "Quit".into(),
        }
    }

    fn describe(&self, item: &Item) -> String {
        match item {
            Item::Continue(_) => "Pick up this game where you left it.".into(),
            Item::Twenty48 => {
                let best = self.best.map_or("none yet".to_string(), |b| b.to_string());
                format!(
                    "Slide and merge tiles to make 2048. ←/→ changes the board size. Best on this size: {best}."
                )
            }
            Item::Mastermind => {
                "Crack the computer's hidden code of colours, or let it crack yours. Variants from the seed \
                 program's to Super Mastermind and Bulls and Cows."
                    .into()
            }
            Item::Nocca => "Climb onto stacks up to three high and race into the other side's goal: against a \
                            friend, or the computer at four levels."
                .into(),
            Item::Scores => "The best unassisted scores for each game and board size.".into(),
            Item::History => "Every finished game; pick one to watch it again.".into(),
            Item::About => "Keys and rules.".into(),
            Item::Quit => "Leave Parlor. Games in progress are always saved.".into(),
        }
    }

    fn choose(&mut self, ctx: &mut Ctx) -> Transition {
        match self.items[self.selected].clone() {
            Item::Continue(u) => match super::records::resume_view(&u, ctx) {
                Ok(view) => Transition::Push(view),
                Err(e) => {
                    self.message = Some(format!("cannot continue that game: {e:#}"));
                    Transition::Stay
                }
            },
            Item::Twenty48 => {
                let seed = ctx.seed.take().unwrap_or_else(crate::games::fresh_seed);
                match super::twenty48::start(
                    Options {
                        size: self.size,
                        ..Options::default()
                    },
                    seed,
                    ctx,
                ) {
                    Ok(v) => Transition::Push(v),
                    Err(e) => {
                        self.message = Some(format!("{e:#}"));
                        Transition::Stay
                    }
                }
            }
            Item::Mastermind | Item::Nocca => {
                let opened = if matches!(self.items[self.selected], Item::Mastermind) {
                    super::mastermind::start_view(ctx)
                } else {
                    super::nocca::start_view(ctx)
                };
                match opened {
                    Ok(v) => Transition::Push(v),
                    Err(e) => {
                        self.message = Some(format!("{e:#}"));
                        Transition::Stay
                    }
                }
            }
            Item::Scores => Transition::Push(Box::new(super::records::ScoresView::new(ctx))),
            Item::History => Transition::Push(Box::new(super::records::HistoryView::new(ctx))),
            Item::About => Transition::Push(Box::new(super::records::TextView::about())),
            Item::Quit => Transition::Quit,
        }
    }
}

impl View for MenuView {
    fn min_size(&self) -> (u16, u16) {
        (40, 14)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(
            frame,
            area,
            "Parlor · classic thinking games",
            &self.hint_bar(),
            theme,
        );
        let [msg, list, desc] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(3),
            Constraint::Length(3),
        ])
        .areas(body);
        if let Some(m) = &self.message {
            frame.render_widget(
                Paragraph::new(Span::styled(m.clone(), theme.warn())).wrap(Wrap { trim: true }),
                msg,
            );
        }
        let lines: Vec<Line> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let text = self.label(item);
                if i == self.selected {
                    Line::styled(format!("▸ {text}"), theme.selected())
                } else {
                    Line::raw(format!("  {text}"))
                }
            })
            .collect();
        // Keep the selection visible on short terminals.
        let scroll = (self.selected as u16 + 1).saturating_sub(list.height);
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), list);
        if let Some(item) = self.items.get(self.selected) {
            frame.render_widget(
                Paragraph::new(self.describe(item)).wrap(Wrap { trim: true }),
                desc,
            );
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if let KeyCode::Char(c @ '3'..='8') = key.code
            && matches!(self.items.get(self.selected), Some(Item::Twenty48))
        {
            self.size = c as usize - '0' as usize;
            self.refresh_best(ctx);
            return Transition::Stay;
        }
        let Some(cmd) = lookup(BINDINGS, &key) else {
            return Transition::Stay;
        };
        self.message = None;
        let n = self.items.len();
        match cmd {
            Cmd::Up => self.selected = (self.selected + n - 1) % n,
            Cmd::Down => self.selected = (self.selected + 1) % n,
            Cmd::Less | Cmd::More => {
                if matches!(self.items[self.selected], Item::Twenty48) {
                    self.size = if cmd == Cmd::Less {
                        (self.size - 1).max(3)
                    } else {
                        (self.size + 1).min(8)
                    };
                    self.refresh_best(ctx);
                }
            }
            Cmd::Choose => return self.choose(ctx),
            Cmd::Quit => return Transition::Quit,
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        describe(BINDINGS, true)
    }

    fn help(&self) -> Help {
        Help {
            title: "Parlor".into(),
            keys: describe(BINDINGS, false),
            text: crate::rules_text::ABOUT
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }

    fn resumed(&mut self, ctx: &mut Ctx) {
        self.refresh(ctx);
    }
}
