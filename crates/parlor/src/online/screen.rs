//! `parlor online` on the full screen: the lobby (challenges to the player and sent, the games in play and
//! finished, the newest news) and a game (both names, whose turn it is, and the rooms' game's board as a local
//! game draws it, with its cursor, selection and clicks: [`RoomBoard`]). A line at the top says when the
//! connection is lost and when it is back; an opponent away is counted down on the game. A daily challenge opened
//! from the lobby takes the keys (and, unless it is a typed line, the screen) until it closes. The screen is a
//! [`View`] like every other, so `?` shows its help, built from the same key tables that drive it.
//!
//! By topic: the key tables (`bindings`), what the screen says about its keys (`words`: the hint bar by state,
//! the help), the lobby (`lobby`), a game (`game`), and the questions and typed lines (`prompt`).

use super::conn::{Down, Up};
use super::model::{Model, OnlineGame};
use super::shown::Item;
use crate::input::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use crate::tui::daily::DailySaid;
use crate::tui::keys;
use crate::tui::layout::{chrome, fit_line};
use crate::tui::room::{BoardSaid, Played, RoomBoard};
use crate::tui::text::Wrapped;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use parlor_online::protocol::ClientMessage;
use prompt::Prompt;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

mod bindings;
mod game;
mod lobby;
mod prompt;
mod words;

/// The platform's end of the connection, as the screen sees it: the terminal's link thread, the page's
/// `WebSocket`, each driving the core's [`super::conn::Conn`].
pub trait Wire {
    /// Asks the connection to send a message, or to close for good.
    fn up(&mut self, up: Up);

    /// What the connection passed on since the last call, in order.
    fn down(&mut self) -> Vec<Down>;
}

/// The online screen.
pub struct OnlineView {
    model: Model,
    wire: Box<dyn Wire>,
    log: Vec<String>,
    in_game: bool,
    row: usize,
    /// The board of the game in front: its cursor and selection.
    board: Box<dyn RoomBoard>,
    prompt: Option<Prompt>,
    rows: Vec<(u16, Item)>,
    /// Whether leaving the lobby goes back to the menu (opened from it) rather than out of Parlor.
    back_to_menu: bool,
}

impl OnlineView {
    /// The screen of the player `me` of the games `played` over `wire` (connecting to `url`, as the first line
    /// says); finished games are added (`i`) to the local history of the store the screens share
    /// ([`super::import::import`]).
    pub fn new(url: &str, me: &str, played: Played, wire: Box<dyn Wire>) -> OnlineView {
        let mut wire = wire;
        // The lobby is followed from the start (the connection asks again after every reconnection).
        wire.up(Up::Send(ClientMessage::Lobby { follow: true }));
        let mut view = OnlineView {
            model: Model::new(me, played),
            wire,
            log: vec![format!("connecting to {url} as {me}")],
            in_game: false,
            row: 0,
            board: played.room.board(),
            prompt: None,
            rows: Vec::new(),
            back_to_menu: false,
        };
        view.model.keys = Some(view.key_words());
        view
    }

    /// The screen opened from the menu: leaving the lobby goes back to it (the hint bar and the help say so).
    pub fn leaving_to_menu(mut self) -> OnlineView {
        self.back_to_menu = true;
        self
    }

    fn say(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
        if self.log.len() > 200 {
            self.log.remove(0);
        }
    }

    fn send(&mut self, msg: ClientMessage) {
        self.wire.up(Up::Send(msg));
    }

    fn game(&self) -> Option<&OnlineGame> {
        self.model.current_game()
    }

    /// What the board said of a key or a click.
    fn board_said(&mut self, said: BoardSaid) {
        match said {
            BoardSaid::Say(line) => self.say(line),
            BoardSaid::Play(mv) => {
                if let Some(g) = self.game() {
                    let msg = g.move_message(mv);
                    self.send(msg);
                }
            }
            BoardSaid::Leave => self.in_game = false,
            BoardSaid::Quiet => {}
        }
    }

    /// What a daily challenge said.
    fn daily_said(&mut self, said: Vec<DailySaid>) {
        for s in said {
            match s {
                DailySaid::Say(line) => self.say(line),
                DailySaid::Send(msg) => self.send(msg),
            }
        }
    }

    /// The lobby's keys (with each daily challenge's).
    fn lobby_table(&self) -> Vec<crate::tui::keys::Binding<bindings::Cmd>> {
        bindings::lobby(&self.model.dailies)
    }

    /// The daily challenge open on the screen, if one is.
    fn open_daily(&self) -> Option<usize> {
        self.model.dailies.iter().position(|d| d.is_open())
    }

    /// Takes in what the link passed on; a finished game's record asked for (`i`) goes into `store`.
    fn pump(&mut self, store: &mut dyn crate::storage::Storage) {
        // The keys the lines name, as bound now.
        self.model.keys = Some(self.key_words());
        for down in self.wire.down() {
            let before = self.model.current;
            let lines = self.model.apply(down);
            for l in lines {
                self.say(l);
            }
            for record in std::mem::take(&mut self.model.to_import) {
                let line = super::import::import(self.model.room, &record, &self.model.me, store)
                    .map_or_else(|e| format!("not imported: {e:#}"), |done| done.line);
                self.say(line);
            }
            for i in 0..self.model.dailies.len() {
                let said = self.model.dailies[i].due();
                self.daily_said(said);
            }
            if self.model.current != before {
                // A game started (or was taken up): it comes to the front.
                self.in_game = true;
                self.board.forget();
            }
        }
    }

    fn import(&mut self, id: Option<u64>) {
        let Some(g) = id.and_then(|id| self.model.games.get(&id)) else {
            return self.say("no game to import here");
        };
        if g.ending.is_none() {
            return self.say(format!(
                "game {} is still in play: import it once it ends",
                g.id
            ));
        }
        let game = g.id;
        self.model.want_import.insert(game);
        self.send(ClientMessage::Record { game });
    }

    fn title(&self) -> String {
        let state = if self.model.refused.is_some() {
            "refused"
        } else if self.model.connected {
            "online"
        } else {
            "connecting"
        };
        format!("Parlor online · {} · {state}", self.model.me)
    }
}

impl View for OnlineView {
    fn min_size(&self) -> (u16, u16) {
        (40, 12)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let hints = self.hint_bar();
        let body = chrome(frame, area, &self.title(), &hints, theme);
        let mut body = body;
        if let Some(text) = self.model.connection_text() {
            let line = Rect { height: 1, ..body };
            frame.render_widget(
                Paragraph::new(fit_line(Line::styled(text, theme.warn()), body.width)),
                line,
            );
            body.y += 1;
            body.height = body.height.saturating_sub(1);
        }
        let open = self.open_daily();
        let line = match (&self.prompt, open) {
            (Some(p), _) => Some(OnlineView::prompt_line(p)),
            (None, Some(i)) => self.model.dailies[i].line(),
            (None, None) => None,
        };
        if let Some(text) = line {
            // Wrapped, never shortened: the line being typed stays whole at every width.
            let wrapped = Wrapped::new(vec![Line::styled(text, theme.strong())], body.width);
            let rows = wrapped.height().min(body.height.saturating_sub(1).max(1));
            wrapped.render(
                frame,
                Rect {
                    height: rows,
                    ..body
                },
                // Scrolled to its end when it must scroll: the typed text is last.
                usize::MAX,
                theme.dim(),
            );
            body.y += rows;
            body.height = body.height.saturating_sub(rows);
        }
        match open {
            Some(i) if self.model.dailies[i].line().is_none() => {
                self.model.dailies[i].draw(frame, body, theme, &self.log)
            }
            _ if self.in_game && self.game().is_some() => self.draw_game(frame, body, theme),
            _ => self.draw_lobby(frame, body, theme),
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        self.pump(ctx.store);
        if let Some(p) = self.prompt.take() {
            self.prompt_key(p, key);
            return Transition::Stay;
        }
        if let Some(i) = self.open_daily() {
            let said = self.model.dailies[i].key(&key);
            self.daily_said(said);
            return Transition::Stay;
        }
        if self.in_game {
            return self.game_key(&key);
        }
        match keys::lookup(&self.lobby_table(), &key) {
            Some(cmd) => self.lobby_key(cmd),
            None => Transition::Stay,
        }
    }

    fn handle_mouse(&mut self, event: MouseEvent, _ctx: &mut Ctx) -> Transition {
        if event.kind != MouseEventKind::Down(MouseButton::Left)
            || self.prompt.is_some()
            || self.open_daily().is_some()
        {
            return Transition::Stay;
        }
        if self.in_game {
            if let Some(g) = self.model.current_game() {
                let seat = g.seat();
                if let Some(said) = self.board.click(event.column, event.row, &seat) {
                    self.board_said(said);
                }
            }
            return Transition::Stay;
        }
        if let Some(i) = self.rows.iter().position(|(y, _)| *y == event.row) {
            self.row = i;
            return self.lobby_key(bindings::Cmd::Open);
        }
        Transition::Stay
    }

    fn tick(&mut self, ctx: &mut Ctx) -> Transition {
        self.pump(ctx.store);
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        Some(100)
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        self.hints_now()
    }

    fn help(&self) -> Help {
        self.help_now()
    }

    fn on_quit(&mut self, _ctx: &mut Ctx) {
        self.wire.up(Up::Quit);
    }

    fn announce(&self) -> Option<String> {
        self.log.last().cloned()
    }
}
