//! Parlor online on the graphical face: the server's address and the player's name in real text fields, then the
//! lobby (players online, open challenges with Accept, Decline and Cancel, the player's games, live games to
//! watch, the rated queue, a challenge form) and a game (both names and clocks, whose turn it is, the rooms' game's
//! board, Resign, Rematch, Back to the lobby), all as HTML.
//!
//! Made from the same core as the terminal face's online screen: the client's [`Model`] takes everything the
//! connection passes on, and the rows, their words, the seats and the status lines are the model's
//! ([`parlor::online::shown`]); this file only lays them out and turns taps into the protocol's messages. The
//! connection is the page's (`crate::online::open_wire`, the core's `Conn` over the browser's `WebSocket`), handed
//! in as a [`Connect`] so that everything here is tested natively. The board is the game's
//! ([`RoomHtml`], from the faces' registry: [`super::room_board`]); nothing here names a game.

use super::html::esc;
use super::play::Go;
use parlor::online::conn::{Down, Up};
use parlor::online::model::{Model, OnlineGame, terms_of};
use parlor::online::screen::Wire;
use parlor::tui::room::{BoardSaid, Played, Seat};
use parlor_online::protocol::ClientMessage;

/// Opens the connection to a server (`ws://HOST:PORT`) as a name: the wire, or why not (a bad address or name).
pub type Connect = Box<dyn Fn(&str, &str) -> Result<Box<dyn Wire>, String>>;

/// The rooms' game's board on the page: drawn for a seat, and turning taps and keys into what the online screens'
/// boards say ([`BoardSaid`]: a move in the protocol's notation, a line, nothing).
pub trait RoomHtml {
    /// The board as HTML for the player at `seat` (a spectator's, or a finished game's, has nothing to tap).
    fn html(&self, seat: &Seat) -> String;
    /// A tap on a board control whose `data-act` was `b:<act>`; `None` when it is not the board's.
    fn act(&mut self, seat: &Seat, act: &str) -> Option<BoardSaid>;
    /// A key by its browser name; `None` when it is not the board's.
    fn key(&mut self, seat: &Seat, key: &str) -> Option<BoardSaid>;
    /// Forgets the selection (another game came to the front, or the position changed).
    fn forget(&mut self);
    /// The play screen's CSS class for this game (its board's layout).
    fn class(&self) -> &'static str;
    /// The boards a challenge may be played on, as (protocol name, label), the usual one first.
    fn boards(&self) -> Vec<(String, String)>;
}

/// The time controls a challenge offers: none, or minutes and seconds added a move, as the protocol writes them.
const CLOCKS: &[(&str, &str)] = &[
    ("", "Untimed"),
    ("3+2", "3 min + 2 s"),
    ("5+3", "5 min + 3 s"),
    ("10+5", "10 min + 5 s"),
];

/// How many of the newest lines the lobby shows.
const NEWS: usize = 3;

/// A connection and what it built.
struct Online {
    model: Model,
    wire: Box<dyn Wire>,
    server: String,
}

/// The online screen of the graphical face.
pub struct Lobby {
    played: Played,
    connect: Connect,
    board: Box<dyn RoomHtml>,
    /// The fields: the server's address, the name, a challenge's opponent, board and clock.
    server: String,
    name: String,
    opponent: String,
    board_name: String,
    clock: String,
    /// Why the last Connect did not connect.
    notice: String,
    on: Option<Online>,
    /// Whether the game in front is shown (else the lobby).
    in_game: bool,
    /// Whether Resign asks first (shown as a question).
    resigning: bool,
    /// Whether the browser says it is offline.
    offline: bool,
    /// What happened, newest last.
    log: Vec<String>,
    /// The line to announce, when it changed.
    fresh: Option<String>,
    /// The ply of the game in front when last drawn (a selection does not outlive its position).
    shown_ply: Option<(u64, usize)>,
    /// The second of the running clocks last drawn.
    shown_second: u64,
}

/// The page's monotonic clock in ms.
fn now() -> u64 {
    parlor::host::clock().monotonic_ms()
}

/// The kinds of text field: an address, or a name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A server's address (`type="url"`: the phone's keyboard for addresses).
    Address,
    /// A player's name.
    Name,
}

/// A labelled text field: its label, `data-set` key, value, kind and what the browser may fill it with
/// (`autocomplete`).
fn field(label: &str, key: &str, value: &str, kind: Kind, complete: &str) -> String {
    let kind = match kind {
        Kind::Address => "url\" inputmode=\"url",
        Kind::Name => "text",
    };
    format!(
        "<label class=\"field\"><span>{}</span><input type=\"{kind}\" data-set=\"{key}\" name=\"{key}\" value=\"{}\" autocomplete=\"{complete}\" autocapitalize=\"off\" autocorrect=\"off\" spellcheck=\"false\" enterkeyhint=\"go\"></label>",
        esc(label),
        esc(value)
    )
}

/// A select of `choices` (value, label) with `value` chosen.
fn select(label: &str, key: &str, value: &str, choices: &[(String, String)]) -> String {
    let opts: String = choices
        .iter()
        .map(|(v, l)| {
            let sel = if v == value { " selected" } else { "" };
            format!("<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l))
        })
        .collect();
    format!(
        "<label class=\"field\"><span>{}</span><select data-set=\"{key}\">{opts}</select></label>",
        esc(label)
    )
}

impl Lobby {
    /// The online screen of the games `played`, with `server` and `name` prefilled, connecting through `connect`
    /// and drawing the rooms' game with `board`.
    pub fn new(
        played: Played,
        server: &str,
        name: &str,
        connect: Connect,
        board: Box<dyn RoomHtml>,
    ) -> Lobby {
        let board_name = board
            .boards()
            .first()
            .map(|b| b.0.clone())
            .unwrap_or_default();
        let mut l = Lobby {
            played,
            connect,
            board,
            server: server.to_string(),
            name: name.to_string(),
            opponent: String::new(),
            board_name,
            clock: String::new(),
            notice: String::new(),
            on: None,
            in_game: false,
            resigning: false,
            offline: false,
            log: Vec::new(),
            fresh: None,
            shown_ply: None,
            shown_second: 0,
        };
        l.fresh = Some(format!("Online: {}", played.room.title()));
        l
    }

    fn say(&mut self, line: impl Into<String>) {
        let line = line.into();
        self.fresh = Some(line.clone());
        self.log.push(line);
        if self.log.len() > 100 {
            self.log.remove(0);
        }
    }

    fn send(&mut self, msg: ClientMessage) {
        if let Some(on) = &mut self.on {
            on.wire.up(Up::Send(msg));
        }
    }

    /// The model, once connected.
    pub fn model(&self) -> Option<&Model> {
        self.on.as_ref().map(|o| &o.model)
    }

    fn game(&self) -> Option<&OnlineGame> {
        self.model().and_then(Model::current_game)
    }

    /// Connects with the fields' server and name, or says why not.
    fn connect(&mut self) {
        let (server, name) = (self.server.trim().to_string(), self.name.trim().to_string());
        if name.is_empty() {
            self.notice = "Type the name to play under first.".into();
            self.fresh = Some(self.notice.clone());
            return;
        }
        match (self.connect)(&server, &name) {
            Ok(mut wire) => {
                // The lobby is followed from the start (the connection asks again after every reconnection).
                wire.up(Up::Send(ClientMessage::Lobby { follow: true }));
                self.notice.clear();
                self.on = Some(Online {
                    model: Model::new(&name, self.played),
                    wire,
                    server: server.clone(),
                });
                self.say(format!("connecting to {server} as {name}"));
            }
            Err(why) => {
                self.notice = why;
                self.fresh = Some(self.notice.clone());
            }
        }
    }

    /// Takes in what the connection passed on; `true` if the screen changed.
    fn pump(&mut self) -> bool {
        let Some(on) = &mut self.on else {
            return false;
        };
        let downs: Vec<Down> = on.wire.down();
        if downs.is_empty() {
            return false;
        }
        let mut lines = Vec::new();
        let mut came = false;
        for down in downs {
            let before = on.model.current;
            lines.extend(on.model.apply(down));
            if on.model.current != before {
                came = true;
            }
        }
        for l in lines {
            self.say(l);
        }
        if came {
            // A game started (or was taken up, or is watched): it comes to the front.
            self.in_game = true;
            self.resigning = false;
            self.board.forget();
        }
        true
    }

    /// The page's periodic work: what the connection passed on, the clocks counting down; `offline` is what the
    /// browser says. `true` if the screen changed.
    pub fn tick(&mut self, offline: bool) -> bool {
        let mut changed = std::mem::replace(&mut self.offline, offline) != offline;
        changed |= self.pump();
        // A running clock or a grace period counts down once a second.
        let second = now() / 1000;
        let counting = self.game().is_some_and(|g| {
            g.ending.is_none() && g.clocks.is_some_and(|(c, _)| c.running.is_some())
        }) || self.model().is_some_and(|m| !m.away.is_empty());
        if counting && second != self.shown_second {
            self.shown_second = second;
            changed = true;
        }
        changed
    }

    /// Leaves the online screen: the connection is closed for good.
    fn leave(&mut self) -> Go {
        if let Some(mut on) = self.on.take() {
            on.wire.up(Up::Quit);
        }
        Go::Menu
    }

    /// A field's new value (`data-set` key, text); `true` if the screen must be drawn again (a text being typed
    /// need not).
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        let value: String = value.chars().take(200).collect();
        match key {
            "online:server" => self.server = value,
            "online:name" => self.name = value,
            "online:opponent" => self.opponent = value,
            "online:board" => {
                self.board_name = value;
                return true;
            }
            "online:clock" => {
                self.clock = value;
                return true;
            }
            _ => return false,
        }
        false
    }

    /// What the board said.
    fn board_said(&mut self, said: BoardSaid) {
        match said {
            BoardSaid::Say(line) => self.say(line),
            BoardSaid::Play(mv) => {
                if let Some(msg) = self.game().map(|g| g.move_message(mv)) {
                    self.send(msg);
                }
            }
            BoardSaid::Leave => self.in_game = false,
            BoardSaid::Quiet => {}
        }
    }

    /// Sends the challenge the form describes, or says why not.
    fn challenge(&mut self) {
        let opponent = self.opponent.trim().to_string();
        let me = self.model().map(|m| m.me.clone()).unwrap_or_default();
        if opponent.is_empty() {
            return self
                .say("Type the name of the player to challenge (or tap Challenge beside them).");
        }
        if opponent == me {
            return self.say("That is you: choose another player.");
        }
        let mut words = vec![self.board_name.as_str()];
        if !self.clock.is_empty() {
            words.push(self.clock.as_str());
        }
        match terms_of(&words) {
            Ok((board, clock, rated)) => self.send(ClientMessage::Challenge {
                opponent,
                board,
                clock,
                rated,
            }),
            Err(e) => self.say(e),
        }
    }

    /// Joins the rated queue on the form's board and clock.
    fn queue(&mut self) {
        let mut words = vec![self.board_name.as_str()];
        if !self.clock.is_empty() {
            words.push(self.clock.as_str());
        }
        match terms_of(&words) {
            Ok((board, clock, _)) => self.send(ClientMessage::Queue { board, clock }),
            Err(e) => self.say(e),
        }
    }

    /// A tap on a control whose `data-act` was `act`.
    pub fn act(&mut self, act: &str) -> Go {
        if self.on.is_none() {
            return match act {
                "ol:connect" => {
                    self.connect();
                    Go::Stay
                }
                "menu" | "ol:menu" => Go::Menu,
                _ => Go::Stay,
            };
        }
        if let Some(rest) = act.strip_prefix("b:") {
            if self.resigning {
                return Go::Stay;
            }
            let seat = self
                .on
                .as_ref()
                .and_then(|o| o.model.current_game())
                .map(OnlineGame::seat);
            let said = seat.and_then(|seat| self.board.act(&seat, rest));
            if let Some(said) = said {
                self.board_said(said);
            }
            return Go::Stay;
        }
        let (what, id) = match act.split_once(':').and_then(|(_, r)| r.split_once(':')) {
            Some((w, id)) => (w, id.parse::<u64>().ok()),
            None => (act.strip_prefix("ol:").unwrap_or(act), None),
        };
        match (what, id) {
            ("menu", _) => return self.leave(),
            ("accept", Some(challenge)) => self.send(ClientMessage::Accept { challenge }),
            ("decline", Some(challenge)) => self.send(ClientMessage::Decline { challenge }),
            ("cancel", Some(challenge)) => self.send(ClientMessage::Cancel { challenge }),
            ("watch", Some(game)) => self.send(ClientMessage::Watch { game, after: 0 }),
            ("open", Some(game)) => {
                if let Some(on) = &mut self.on
                    && on.model.games.contains_key(&game)
                {
                    on.model.current = Some(game);
                    self.in_game = true;
                    self.resigning = false;
                    self.board.forget();
                }
            }
            ("pick", Some(i)) => {
                let name = self
                    .model()
                    .and_then(|m| m.players.get(i as usize))
                    .map(|p| p.name.clone());
                if let Some(name) = name {
                    self.say(format!(
                        "Challenge {name}: choose the board, then Challenge."
                    ));
                    self.opponent = name;
                }
            }
            ("challenge", _) => self.challenge(),
            ("queue", _) => self.queue(),
            ("unqueue", _) => self.send(ClientMessage::Unqueue {}),
            ("lobby", _) => {
                self.in_game = false;
                self.resigning = false;
            }
            ("game", _) if self.game().is_some() => self.in_game = true,
            ("resign", _)
                if self
                    .game()
                    .is_some_and(|g| g.ending.is_none() && g.side.is_some()) =>
            {
                self.resigning = true;
            }
            ("yes", _) if self.resigning => {
                self.resigning = false;
                if let Some(game) = self.game().map(|g| g.id) {
                    self.send(ClientMessage::Resign { game });
                }
            }
            ("no", _) => self.resigning = false,
            ("rematch", _) => {
                if let Some(game) = self
                    .game()
                    .filter(|g| g.ending.is_some() && g.side.is_some())
                    .map(|g| g.id)
                {
                    self.send(ClientMessage::Rematch { game });
                }
            }
            _ => {}
        }
        Go::Stay
    }

    /// A key by its browser name (a text field's keys never come here): what the shell does, or `None` when the
    /// key is not the screen's (the browser's own then: scrolling, say).
    pub fn key(&mut self, key: &str) -> Option<Go> {
        if self.on.is_none() {
            return match key {
                "Escape" => Some(Go::Menu),
                "Enter" => Some(self.act("ol:connect")),
                _ => None,
            };
        }
        if self.resigning {
            return Some(match key {
                "y" | "Enter" => self.act("ol:yes"),
                "n" | "Escape" | "q" => self.act("ol:no"),
                _ => Go::Stay,
            });
        }
        if self.in_game && self.game().is_some() {
            let seat = self
                .on
                .as_ref()
                .and_then(|o| o.model.current_game())
                .map(OnlineGame::seat);
            if let Some(said) = seat.and_then(|seat| self.board.key(&seat, key)) {
                self.board_said(said);
                return Some(Go::Stay);
            }
            return match key {
                "x" => Some(self.act("ol:resign")),
                "r" => Some(self.act("ol:rematch")),
                "Escape" | "q" => Some(self.act("ol:lobby")),
                _ => None,
            };
        }
        match key {
            "Escape" | "q" => Some(self.leave()),
            _ => None,
        }
    }

    /// The line for the screen reader, when it changed.
    pub fn said(&mut self) -> Option<String> {
        self.fresh.take()
    }

    /// The screen as HTML.
    pub fn html(&mut self) -> String {
        match &self.on {
            None => self.connect_html(),
            Some(_) if self.in_game && self.game().is_some() => self.game_html(),
            Some(_) => self.lobby_html(),
        }
    }
}

#[path = "lobby_html.rs"]
mod view;

#[cfg(test)]
#[path = "lobby_tests.rs"]
mod tests;
