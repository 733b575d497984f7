//! `parlor online` on the full screen: the lobby (challenges to the player and sent, the games in play and
//! finished, the newest news) and a game (both names, whose turn it is, the same Nocca Nocca board as a local
//! game, drawn by [`crate::games::nocca::board`], with its cursor, selection, digits and clicks). A line at the top
//! says when the connection is lost and when it is back. The screen is a [`View`] like every other, so `?` shows
//! its help, built from the same key tables that drive it.

use super::conn::{Down, Up};
use super::model::{Model, OnlineGame, terms, terms_of};
use crate::games::nocca::board::{Layout, Marks, digit};
use crate::games::nocca::screen::play_bindings;
use crate::games::nocca::{movable, moves_from, square_refusal, target_name};
use crate::input::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use crate::tui::keys::{self, Binding, bar, common, more};
use crate::tui::layout::{chrome, fit_line};
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use nocca::{Dir, Move, Square};
use parlor_online::protocol::{Board, ClientMessage, Daily, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The platform's end of the connection, as the screen sees it: the terminal's link thread, the page's
/// `WebSocket`, each driving the core's [`super::conn::Conn`].
pub trait Wire {
    /// Asks the connection to send a message, or to close for good.
    fn up(&mut self, up: Up);
    /// What the connection passed on since the last call, in order.
    fn down(&mut self) -> Vec<Down>;
}

/// What the keys do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    /// Lobby: the cursor up or down the list.
    Row(i32),
    /// Lobby: accept the challenge under the cursor, or open the game under it.
    Open,
    /// Lobby: accept the challenge under the cursor.
    Accept,
    /// Lobby: decline the challenge under the cursor.
    Decline,
    /// Lobby: challenge a player (asks the name, board, clock, rated).
    Challenge,
    /// Lobby: join the rated queue (asks the board and clock), or leave it.
    Queue,
    /// Lobby: the daily challenges and their leaderboards.
    Daily,
    /// Lobby: play today's 2048 here.
    Play2048,
    /// Lobby: a guess at today's Mastermind (asks the code).
    Guess,
    /// 2048 of the day: slide.
    Slide(twenty48::Direction),
    /// 2048 of the day: undo the last slide (the game then goes on the assisted board).
    Undo,
    /// 2048 of the day: hand the game in to be replayed and ranked by the server.
    Submit,
    /// Game: offer (or accept) a rematch of the finished game.
    Rematch,
    /// Switch between the lobby and the game in front.
    Switch,
    /// Add the finished game (in front, or under the cursor) to the local history.
    Import,
    /// Back: from a game to the lobby, from the lobby out.
    Back,
    /// Game: the cursor by (rows, columns).
    Cursor(i32, i32),
    /// Game: select the piece under the cursor, or step to the target under it.
    Choose,
    /// Game: step the selected piece.
    Step(Dir),
    /// Game: cancel the selection (Esc with none: back to the lobby).
    Cancel,
    /// Game: resign (asks first).
    Resign,
}

const LOBBY: &[Binding<Cmd>] = &[
    bar(common::ENTER, "Enter", "accept / open", Cmd::Open),
    bar(&[KeyCode::Char('c')], "c", "challenge", Cmd::Challenge),
    more(common::UP, "↑ k w", "cursor up", Cmd::Row(-1)),
    more(common::DOWN, "↓ j s", "cursor down", Cmd::Row(1)),
    more(
        &[KeyCode::Char('y')],
        "y",
        "accept the challenge under the cursor",
        Cmd::Accept,
    ),
    bar(&[KeyCode::Char('n')], "n", "decline / cancel", Cmd::Decline),
    bar(&[KeyCode::Char('u')], "u", "queue", Cmd::Queue),
    more(
        &[KeyCode::Char('D')],
        "D",
        "the daily challenges and their leaderboards",
        Cmd::Daily,
    ),
    more(
        &[KeyCode::Char('2')],
        "2",
        "play today's 2048 here (the server replays it and ranks its score)",
        Cmd::Play2048,
    ),
    more(
        &[KeyCode::Char('m')],
        "m",
        "a guess at today's Mastermind (scored by the server)",
        Cmd::Guess,
    ),
    bar(
        &[KeyCode::Tab, KeyCode::Char('g')],
        "Tab",
        "game",
        Cmd::Switch,
    ),
    more(
        &[KeyCode::Char('i')],
        "i",
        "add the finished game under the cursor to the local history (replayable from the menu)",
        Cmd::Import,
    ),
    bar(common::BACK, "q", "quit", Cmd::Back),
];

/// The game's keys: the local Nocca board's (cursor, select, steps, cancel), then the online game's own.
const GAME: &[Binding<Cmd>] = play_bindings!(
    "←↓↑→ Enter",
    "select",
    true,
    &[KeyCode::Char('5'), KeyCode::Esc],
    "cancel the selection (Esc with none: the lobby)",
    bar(&[KeyCode::Char('x')], "x", "resign", Cmd::Resign),
    more(
        &[KeyCode::Char('r')],
        "r",
        "rematch: offer one after the end, or accept the one offered",
        Cmd::Rematch,
    ),
    more(
        &[KeyCode::Char('i')],
        "i",
        "add the finished game to the local history (replayable from the menu)",
        Cmd::Import,
    ),
    bar(
        &[KeyCode::Tab, KeyCode::Char('g')],
        "Tab",
        "lobby",
        Cmd::Switch,
    ),
    bar(
        &[KeyCode::Char('q'), KeyCode::Char('Q')],
        "q",
        "lobby",
        Cmd::Back,
    ),
);

/// The keys of today's 2048, played on this screen.
const DAILY_2048: &[Binding<Cmd>] = &[
    bar(
        common::UP,
        "↑←↓→",
        "slide",
        Cmd::Slide(twenty48::Direction::Up),
    ),
    more(
        common::DOWN,
        "↓ s j",
        "slide down",
        Cmd::Slide(twenty48::Direction::Down),
    ),
    more(
        common::LEFT,
        "← a h",
        "slide left",
        Cmd::Slide(twenty48::Direction::Left),
    ),
    more(
        common::RIGHT,
        "→ d l",
        "slide right",
        Cmd::Slide(twenty48::Direction::Right),
    ),
    bar(&[KeyCode::Char('u')], "u", "undo", Cmd::Undo),
    bar(common::ENTER, "Enter", "hand in", Cmd::Submit),
    bar(
        &[KeyCode::Char('q'), KeyCode::Esc],
        "q",
        "drop it",
        Cmd::Back,
    ),
];

/// A row of the lobby's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Incoming(u64),
    Game(u64),
    Outgoing(u64),
    Live(u64),
    Player(usize),
}

/// A question or a line being typed, over the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Prompt {
    /// `NAME [RxC]` of a player to challenge, as typed so far.
    Challenge(String),
    /// `[RxC] [M+S]` of the queue to join, as typed so far.
    Queue(String),
    /// Resign game N? (y/n)
    Resign(u64),
    /// A guess at today's Mastermind, as typed so far.
    Guess(String),
}

/// The online screen.
pub struct OnlineView {
    model: Model,
    wire: Box<dyn Wire>,
    /// Today's 2048 being played here, with its day.
    t48: Option<(String, twenty48::Game)>,
    /// `2` was pressed before today's 2048 was known: it starts when the server tells it.
    want_2048: bool,
    /// A guess at today's Mastermind typed before the server told the day: sent when it does.
    want_guess: Option<String>,
    log: Vec<String>,
    in_game: bool,
    row: usize,
    cursor: Option<(i32, i32)>,
    selected: Option<(Square, usize)>,
    prompt: Option<Prompt>,
    board: Option<(Rect, Layout)>,
    rows: Vec<(u16, Item)>,
}

impl OnlineView {
    /// The screen of the player `me` over `wire` (connecting to `url`, as the first line says); finished games are
    /// added (`i`) to the local history of the store the screens share ([`super::import::import`]).
    pub fn new(url: &str, me: &str, wire: Box<dyn Wire>) -> OnlineView {
        let mut wire = wire;
        // The lobby is followed from the start (the connection asks again after every reconnection).
        wire.up(Up::Send(ClientMessage::Lobby { follow: true }));
        OnlineView {
            model: Model::new(me),
            wire,
            t48: None,
            want_2048: false,
            want_guess: None,
            log: vec![format!("connecting to {url} as {me}")],
            in_game: false,
            row: 0,
            cursor: None,
            selected: None,
            prompt: None,
            board: None,
            rows: Vec::new(),
        }
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

    fn items(&self) -> Vec<Item> {
        let mut v: Vec<Item> = self
            .model
            .incoming()
            .map(|c| Item::Incoming(c.challenge))
            .collect();
        let mut games: Vec<&OnlineGame> = self.model.games.values().collect();
        // Games in play first, newest first.
        games.sort_by_key(|g| (g.ending.is_some(), std::cmp::Reverse(g.id)));
        v.extend(games.iter().map(|g| Item::Game(g.id)));
        v.extend(self.model.outgoing().map(|c| Item::Outgoing(c.challenge)));
        v.extend(
            self.model
                .live
                .iter()
                .filter(|l| !self.model.games.contains_key(&l.game))
                .map(|l| Item::Live(l.game)),
        );
        v.extend((0..self.model.players.len()).map(Item::Player));
        v
    }

    fn game(&self) -> Option<&OnlineGame> {
        self.model.current_game()
    }

    /// Takes in what the link passed on; a finished game's record asked for (`i`) goes into `store`.
    fn pump(&mut self, store: &mut dyn crate::storage::Storage) {
        for down in self.wire.down() {
            let before = self.model.current;
            let lines = self.model.apply(down);
            for l in lines {
                self.say(l);
            }
            for record in std::mem::take(&mut self.model.to_import) {
                let line = super::import::import(&record, &self.model.me, store)
                    .map_or_else(|e| format!("not imported: {e:#}"), |done| done.line);
                self.say(line);
            }
            if self.model.daily_mastermind.is_some()
                && let Some(code) = self.want_guess.take()
            {
                self.guess(code);
            }
            if self.want_2048 && self.model.daily_2048.is_some() {
                self.want_2048 = false;
                self.start_2048();
            }
            if self.model.current != before {
                // A game started (or was taken up): it comes to the front.
                self.in_game = true;
                self.cursor = None;
                self.selected = None;
            }
        }
    }

    /// Sends a guess at today's Mastermind (its day known).
    fn guess(&mut self, code: String) {
        let Some(d) = &self.model.daily_mastermind else {
            return;
        };
        let msg = ClientMessage::Guess {
            day: d.day.clone(),
            n: d.guesses.len() as u32 + 1,
            code,
        };
        self.send(msg);
    }

    /// Starts today's 2048 on this screen (the server told the day and its seed).
    fn start_2048(&mut self) {
        let Some((day, seed)) = self.model.daily_2048.clone() else {
            return;
        };
        let game = twenty48::Game::new(twenty48::Rules::default(), seed);
        self.say(format!(
            "2048 of the day {day}: arrows slide, u undoes, Enter hands it in, q drops it"
        ));
        self.t48 = Some((day, game));
    }

    /// A key of today's 2048.
    fn t48_key(&mut self, cmd: Cmd) {
        let Some((day, game)) = self.t48.as_mut() else {
            return;
        };
        let line = match cmd {
            Cmd::Slide(dir) => match game.slide(dir) {
                Ok(_) if game.status() == twenty48::game::Status::Over => Some(format!(
                    "no move left at {} points: Enter hands the game in",
                    game.score()
                )),
                Ok(_) => None,
                Err(e) => Some(format!("refused: {e}")),
            },
            Cmd::Undo => Some(match game.undo() {
                Ok(()) => "undone: the game goes on the assisted board".to_string(),
                Err(e) => format!("refused: {e}"),
            }),
            Cmd::Submit => {
                let msg = super::model::submit_2048(day, game);
                let line = format!(
                    "2048 of {day} handed in with {} points: the server replays it",
                    game.score()
                );
                self.t48 = None;
                self.send(msg);
                Some(line)
            }
            Cmd::Back => {
                self.t48 = None;
                Some("2048 of the day dropped (nothing handed in)".to_string())
            }
            _ => None,
        };
        if let Some(line) = line {
            self.say(line);
        }
    }

    fn selection(&self) -> Option<Square> {
        let g = self.game()?;
        self.selected
            .filter(|&(_, ply)| ply == g.game.ply() && g.my_turn())
            .map(|(sq, _)| sq)
    }

    fn cursor_at(&self) -> (i32, i32) {
        self.cursor.unwrap_or_else(|| match self.game() {
            Some(g) => {
                let side = g.side.unwrap_or(Side::Black);
                (
                    g.dims().home_row(side.into()) as i32,
                    g.dims().cols() as i32 / 2,
                )
            }
            None => (0, 0),
        })
    }

    fn targets(&self) -> Vec<Move> {
        match (self.selection(), self.game()) {
            (Some(sq), Some(g)) => moves_from(g.game.position(), sq),
            _ => Vec::new(),
        }
    }

    fn play(&mut self, mv: Move) {
        let Some(g) = self.game() else { return };
        let msg = ClientMessage::Move {
            game: g.id,
            seq: g.next_seq(),
            mv: mv.to_string(),
        };
        self.send(msg);
        self.selected = None;
    }

    /// Enter or a click at the cursor.
    fn choose(&mut self) {
        let Some(g) = self.game() else { return };
        if g.ending.is_some() {
            return self.say("the game is over");
        }
        if !g.my_turn() {
            let line = match g.side {
                Some(_) => format!("not your turn: {} is to move", g.name(g.to_move())),
                None => "you are watching this game".to_string(),
            };
            return self.say(line);
        }
        let (r, c) = self.cursor_at();
        let pos = *g.game.position();
        let rows = pos.dims().rows() as i32;
        let sq = if (0..rows).contains(&r) && c >= 0 {
            Square::new(r as usize, c as usize)
        } else {
            None
        };
        let ply = g.game.ply();
        if let Some(sel) = self.selection() {
            if sq == Some(sel) {
                self.selected = None;
                return self.say("selection cancelled");
            }
            if let Some(m) = self.targets().into_iter().find(|m| m.target() == (r, c)) {
                return self.play(m);
            }
        }
        let Some(sq) = sq else {
            return self.say("that is a goal: select a piece first");
        };
        if let Some(why) = square_refusal(&pos, sq) {
            return self.say(why);
        }
        self.selected = Some((sq, ply));
        let list: Vec<String> = moves_from(&pos, sq)
            .iter()
            .map(|&m| format!("{} {}", digit(m.dir), target_name(&pos, m)))
            .collect();
        self.say(format!("{sq} selected: {}", list.join(" · ")));
    }

    fn step(&mut self, dir: Dir) {
        let Some(sel) = self.selection() else {
            return self.say("select a piece first (cursor, then Enter)");
        };
        let Some(g) = self.game() else { return };
        let mv = Move::new(sel, dir);
        match g.game.position().check(mv) {
            Ok(()) => self.play(mv),
            Err(e) => self.say(format!("{} from {sel}: {e}", digit(dir))),
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

    fn lobby_key(&mut self, cmd: Cmd) -> Transition {
        let items = self.items();
        let under = items
            .get(self.row.min(items.len().saturating_sub(1)))
            .copied();
        match cmd {
            Cmd::Row(d) if !items.is_empty() => {
                let n = items.len() as i32;
                self.row = ((self.row as i32 + d).rem_euclid(n)) as usize;
            }
            Cmd::Open | Cmd::Accept => match under {
                Some(Item::Incoming(id)) => self.send(ClientMessage::Accept { challenge: id }),
                Some(Item::Game(id)) if cmd == Cmd::Open => {
                    self.model.current = Some(id);
                    self.in_game = true;
                    self.cursor = None;
                    self.selected = None;
                }
                Some(Item::Live(game)) if cmd == Cmd::Open => {
                    self.send(ClientMessage::Watch { game, after: 0 })
                }
                Some(Item::Player(i)) if cmd == Cmd::Open => {
                    let name = self
                        .model
                        .players
                        .get(i)
                        .map(|p| p.name.clone())
                        .unwrap_or_default();
                    if name == self.model.me {
                        self.say("that is you: choose another player");
                    } else {
                        self.prompt = Some(Prompt::Challenge(format!("{name} ")));
                    }
                }
                _ => self.say("no challenge to you under the cursor"),
            },
            Cmd::Decline => match under {
                Some(Item::Incoming(challenge)) => self.send(ClientMessage::Decline { challenge }),
                Some(Item::Outgoing(challenge)) => self.send(ClientMessage::Cancel { challenge }),
                _ => self.say("no challenge under the cursor"),
            },
            Cmd::Queue => {
                if self.model.queue.is_some() {
                    self.send(ClientMessage::Unqueue {});
                } else {
                    self.prompt = Some(Prompt::Queue(String::new()));
                }
            }
            Cmd::Daily => {
                self.send(ClientMessage::Daily2048 {});
                self.send(ClientMessage::DailyMastermind {});
                for daily in [Daily::Twenty48, Daily::Mastermind] {
                    self.send(ClientMessage::Leaderboard {
                        daily,
                        day: None,
                        board: Board::Plain,
                    });
                }
            }
            Cmd::Play2048 => {
                if self.model.daily_2048.is_some() {
                    self.start_2048();
                } else {
                    self.want_2048 = true;
                    self.send(ClientMessage::Daily2048 {});
                }
            }
            Cmd::Guess => {
                if self.model.daily_mastermind.is_none() {
                    self.send(ClientMessage::DailyMastermind {});
                }
                self.prompt = Some(Prompt::Guess(String::new()));
            }
            Cmd::Challenge => self.prompt = Some(Prompt::Challenge(String::new())),
            Cmd::Switch => {
                if self.game().is_some() {
                    self.in_game = true;
                } else {
                    self.say("no game yet: challenge someone with c");
                }
            }
            Cmd::Import => match under {
                Some(Item::Game(id)) => self.import(Some(id)),
                _ => self.say("no game under the cursor"),
            },
            Cmd::Back => {
                self.wire.up(Up::Quit);
                return Transition::Quit;
            }
            _ => {}
        }
        Transition::Stay
    }

    fn game_key(&mut self, cmd: Cmd) -> Transition {
        match cmd {
            Cmd::Cursor(dr, dc) => {
                if let Some(g) = self.game() {
                    let (r, c) = self.cursor_at();
                    let rows = g.dims().rows() as i32;
                    let cols = g.dims().cols() as i32;
                    self.cursor = Some(((r + dr).clamp(-1, rows), (c + dc).clamp(0, cols - 1)));
                }
            }
            Cmd::Choose => self.choose(),
            Cmd::Step(d) => self.step(d),
            Cmd::Cancel => {
                if self.selection().is_some() {
                    self.selected = None;
                    self.say("selection cancelled");
                } else {
                    self.in_game = false;
                }
            }
            Cmd::Resign => match self.game() {
                Some(g) if g.ending.is_none() && g.side.is_some() => {
                    self.prompt = Some(Prompt::Resign(g.id))
                }
                _ => self.say("no game of yours in play here"),
            },
            Cmd::Import => self.import(self.model.current),
            Cmd::Rematch => match self.game() {
                Some(g) if g.ending.is_some() && g.side.is_some() => {
                    let game = g.id;
                    self.send(ClientMessage::Rematch { game })
                }
                _ => self.say("a rematch comes after the end of a game of yours"),
            },
            Cmd::Switch | Cmd::Back => self.in_game = false,
            _ => {}
        }
        Transition::Stay
    }

    fn prompt_key(&mut self, prompt: Prompt, key: KeyEvent) {
        let prompt_kind = prompt.clone();
        match prompt {
            Prompt::Resign(id) => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    self.send(ClientMessage::Resign { game: id })
                }
                _ => self.say("not resigned"),
            },
            Prompt::Guess(text) if key.code == KeyCode::Enter => {
                let code: String = text.split_whitespace().collect();
                if code.is_empty() {
                    self.say("no guess: no code typed");
                } else if self.model.daily_mastermind.is_some() {
                    self.guess(code);
                } else {
                    // Sent once the server has told today's game (asked with m).
                    self.want_guess = Some(code);
                }
            }
            Prompt::Guess(_) if key.code == KeyCode::Esc => self.say("no guess sent"),
            Prompt::Guess(mut text) => {
                match key.code {
                    KeyCode::Backspace => {
                        text.pop();
                    }
                    KeyCode::Char(ch) if text.len() < 20 => text.push(ch.to_ascii_uppercase()),
                    _ => {}
                }
                self.prompt = Some(Prompt::Guess(text));
            }
            Prompt::Challenge(text) | Prompt::Queue(text) if key.code == KeyCode::Enter => {
                let queue = matches!(prompt_kind, Prompt::Queue(_));
                let mut words: Vec<&str> = text.split_whitespace().collect();
                let name = if queue || words.is_empty() {
                    None
                } else {
                    Some(words.remove(0).to_string())
                };
                match (terms_of(&words), name) {
                    (Err(e), _) => self.say(e),
                    (Ok((board, clock, _)), None) if queue => {
                        self.send(ClientMessage::Queue { board, clock })
                    }
                    (Ok((board, clock, rated)), Some(opponent)) => {
                        self.send(ClientMessage::Challenge {
                            opponent,
                            board,
                            clock,
                            rated,
                        })
                    }
                    (Ok(_), None) => self.say("no challenge: no name typed"),
                }
            }
            Prompt::Challenge(_) | Prompt::Queue(_) if key.code == KeyCode::Esc => {
                self.say("nothing sent")
            }
            Prompt::Challenge(mut text) | Prompt::Queue(mut text) => {
                match key.code {
                    KeyCode::Backspace => {
                        text.pop();
                    }
                    KeyCode::Char(ch) if text.len() < 60 => text.push(ch),
                    _ => {}
                }
                self.prompt = Some(match prompt_kind {
                    Prompt::Queue(_) => Prompt::Queue(text),
                    _ => Prompt::Challenge(text),
                });
            }
        }
    }

    fn table(&self) -> &'static [Binding<Cmd>] {
        if self.t48.is_some() {
            DAILY_2048
        } else if self.in_game {
            GAME
        } else {
            LOBBY
        }
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

    fn draw_lobby(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let mut lines: Vec<Line> = Vec::new();
        self.rows.clear();
        let items = self.items();
        if self.row >= items.len() {
            self.row = items.len().saturating_sub(1);
        }
        let heading = |lines: &mut Vec<Line>, text: &str| {
            lines.push(Line::styled(text.to_string(), theme.strong()));
        };
        let mut section = None;
        for (i, item) in items.iter().enumerate() {
            let (head, text) = match *item {
                Item::Incoming(id) => {
                    let c = self.model.incoming().find(|c| c.challenge == id);
                    (
                        "Challenges to you (Enter or y accepts, n declines)",
                        c.map(|c| {
                            format!(
                                "{} challenges you on {}, {}",
                                c.from,
                                c.board,
                                terms(c.clock, c.rated)
                            )
                        })
                        .unwrap_or_default(),
                    )
                }
                Item::Game(id) => {
                    let g = &self.model.games[&id];
                    let state = match g.result_text() {
                        Some(r) => format!("over: {r}"),
                        None if g.my_turn() => "your move".to_string(),
                        None if g.side.is_none() => "watching".to_string(),
                        None => format!("{} to move", g.name(g.to_move())),
                    };
                    ("Your games", format!("game {id}: {} · {state}", g.title()))
                }
                Item::Outgoing(id) => {
                    let c = self.model.outgoing().find(|c| c.challenge == id);
                    (
                        "Challenges sent (n cancels)",
                        c.map(|c| {
                            format!(
                                "to {} on {}, {} (waiting)",
                                c.to,
                                c.board,
                                terms(c.clock, c.rated)
                            )
                        })
                        .unwrap_or_default(),
                    )
                }
                Item::Live(id) => {
                    let l = self.model.live.iter().find(|l| l.game == id);
                    (
                        "Live games (Enter watches)",
                        l.map(|l| {
                            format!(
                                "game {id}: {} against {} on {}, {}, move {}, {} watching",
                                l.black,
                                l.white,
                                l.board,
                                terms(l.clock, l.rated),
                                l.ply + 1,
                                l.spectators
                            )
                        })
                        .unwrap_or_default(),
                    )
                }
                Item::Player(i) => {
                    let p = &self.model.players[i];
                    let what = if p.name == self.model.me {
                        " (you)"
                    } else if p.playing {
                        " · playing"
                    } else if p.queued {
                        " · in the queue"
                    } else {
                        ""
                    };
                    (
                        "Players online (Enter challenges)",
                        format!(
                            "{} {} ±{}{what}",
                            p.name, p.rating.rating, p.rating.deviation
                        ),
                    )
                }
            };
            if section != Some(head) {
                if section.is_some() {
                    lines.push(Line::raw(""));
                }
                heading(&mut lines, head);
                section = Some(head);
            }
            self.rows.push((body.y + lines.len() as u16, *item));
            let chosen = i == self.row;
            let style = if chosen {
                theme.selected()
            } else {
                ratatui::style::Style::default()
            };
            lines.push(fit_line(
                Line::from(Span::styled(
                    format!("{} {text}", if chosen { '▸' } else { ' ' }),
                    style,
                )),
                body.width,
            ));
        }
        if let Some(q) = &self.model.queue {
            lines.push(Line::styled(super::model::queue_text(q), theme.strong()));
        }
        if items.is_empty() {
            lines.push(Line::raw(
                "No challenges or games yet: c challenges a player by name (and a board, e.g. bob 3x3).",
            ));
        }
        let room = body.height as usize;
        // The news (the daily challenges and leaderboards among them) take what the lists leave, and at least half
        // of a full screen.
        let news = self
            .log
            .len()
            .min(room.saturating_sub(lines.len() + 1).max(room / 2));
        lines.truncate(room.saturating_sub(news));
        let shown = body.y + lines.len() as u16;
        self.rows.retain(|(y, _)| *y < shown);
        while lines.len() + news < room {
            lines.push(Line::raw(""));
        }
        for l in &self.log[self.log.len() - news..] {
            lines.push(fit_line(Line::styled(l.clone(), theme.dim()), body.width));
        }
        frame.render_widget(Paragraph::new(lines), body);
    }

    /// Today's 2048: the day, the score, the board and the newest news.
    fn draw_2048(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let Some((day, game)) = &self.t48 else {
            return;
        };
        let board = game.board();
        let n = board.size();
        let rule = format!("+{}", "------+".repeat(n));
        let mut lines = vec![
            Line::styled(
                format!(
                    "2048 of the day {day} · score {} · actions {}{}",
                    game.score(),
                    game.actions().len(),
                    if game.undo_count() > 0 {
                        " · assisted (undo)"
                    } else {
                        ""
                    }
                ),
                theme.strong(),
            ),
            Line::raw(rule.clone()),
        ];
        for r in 0..n {
            let row: String = (0..n)
                .map(|c| match board.tile(r, c) {
                    0 => format!("{:>5} |", "."),
                    v => format!("{v:>5} |"),
                })
                .collect();
            lines.push(Line::raw(format!("|{row}")));
            lines.push(Line::raw(rule.clone()));
        }
        let room = (body.height as usize).saturating_sub(lines.len() + 1);
        lines.push(Line::raw(""));
        let news = self.log.len().min(room);
        for l in &self.log[self.log.len() - news..] {
            lines.push(Line::styled(l.clone(), theme.dim()));
        }
        let lines: Vec<Line> = lines.into_iter().map(|l| fit_line(l, body.width)).collect();
        frame.render_widget(Paragraph::new(lines), body);
    }

    fn draw_game(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let Some(g) = self.game().cloned() else {
            self.board = None;
            return;
        };
        let to_move = g.to_move();
        let now = crate::host::clock().monotonic_ms();
        let name = |s: Side| {
            let mark = if g.ending.is_none() && s == to_move {
                "▶"
            } else {
                " "
            };
            let you = if g.side == Some(s) { " · you" } else { "" };
            format!("{mark} {}{you}", g.player_text(s, now))
        };
        let head = format!("{}    {}", name(Side::Black), name(Side::White));
        let status = match g.result_text() {
            Some(r) => format!("Game {} over: {r}", g.id),
            None if g.my_turn() => format!("Game {}, move {}: your move", g.id, g.game.ply() + 1),
            None => format!(
                "Game {}, move {}: waiting for {}",
                g.id,
                g.game.ply() + 1,
                g.name(to_move)
            ),
        };
        let mut top = Rect { height: 1, ..body };
        frame.render_widget(
            Paragraph::new(fit_line(Line::styled(head, theme.strong()), body.width)),
            top,
        );
        top.y += 1;
        frame.render_widget(Paragraph::new(fit_line(Line::raw(status), body.width)), top);
        let area = Rect {
            y: body.y + 2,
            height: body.height.saturating_sub(3),
            ..body
        };
        let playing = g.my_turn();
        let marks = Marks {
            cursor: playing.then(|| self.cursor_at()),
            selected: self.selection(),
            targets: self.targets(),
            last: g.last_move(),
            labels: Vec::new(),
        };
        let layout = Layout::fitting_in(g.dims(), area.width, area.height);
        let rect = layout.rect(area);
        frame.render_widget(
            Paragraph::new(layout.lines(g.game.position(), &marks, theme)),
            rect,
        );
        self.board = Some((rect, layout));
        let line = if playing && self.selection().is_none() {
            let list: Vec<String> = movable(g.game.position())
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("Movable: {} · cursor + Enter, or a click", list.join(" "))
        } else {
            self.log.last().cloned().unwrap_or_default()
        };
        let below = Rect {
            y: body.bottom().saturating_sub(1),
            height: 1,
            ..body
        };
        frame.render_widget(
            Paragraph::new(fit_line(Line::styled(line, theme.dim()), body.width)),
            below,
        );
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
        if !self.model.connected {
            let text = match (&self.model.refused, self.model.was_connected) {
                (Some(why), _) => format!("Refused by the server: {why}"),
                (None, true) => match &self.model.lost {
                    Some(why) => {
                        format!("Connection lost ({why}): reconnecting… (your games wait for you)")
                    }
                    None => "Connection lost: reconnecting… (your games wait for you)".to_string(),
                },
                (None, false) => "Connecting...".to_string(),
            };
            let line = Rect { height: 1, ..body };
            frame.render_widget(
                Paragraph::new(fit_line(Line::styled(text, theme.warn()), body.width)),
                line,
            );
            body.y += 1;
            body.height = body.height.saturating_sub(1);
        }
        if let Some(p) = &self.prompt {
            let text = match p {
                Prompt::Challenge(t) => {
                    format!("Challenge: NAME [RxC] [M+S] [rated], Enter sends, Esc cancels: {t}▏")
                }
                Prompt::Queue(t) => {
                    format!("Rated queue: [RxC] [M+S], Enter joins, Esc cancels: {t}▏")
                }
                Prompt::Resign(id) => format!("Resign game {id}? y resign · n no"),
                Prompt::Guess(t) => format!(
                    "Today's Mastermind: a code (e.g. RGYU), Enter sends, Esc cancels: {t}▏"
                ),
            };
            let line = Rect { height: 1, ..body };
            frame.render_widget(
                Paragraph::new(fit_line(Line::styled(text, theme.strong()), body.width)),
                line,
            );
            body.y += 1;
            body.height = body.height.saturating_sub(1);
        }
        if self.t48.is_some() {
            self.board = None;
            self.draw_2048(frame, body, theme);
        } else if self.in_game && self.game().is_some() {
            self.draw_game(frame, body, theme);
        } else {
            self.board = None;
            self.draw_lobby(frame, body, theme);
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        self.pump(ctx.store);
        if let Some(p) = self.prompt.take() {
            self.prompt_key(p, key);
            return Transition::Stay;
        }
        let table = self.table();
        match keys::lookup(table, &key) {
            Some(cmd) if self.t48.is_some() => {
                self.t48_key(cmd);
                Transition::Stay
            }
            Some(cmd) if self.in_game => self.game_key(cmd),
            Some(cmd) => self.lobby_key(cmd),
            None => Transition::Stay,
        }
    }

    fn handle_mouse(&mut self, event: MouseEvent, _ctx: &mut Ctx) -> Transition {
        if event.kind != MouseEventKind::Down(MouseButton::Left) || self.prompt.is_some() {
            return Transition::Stay;
        }
        if self.in_game {
            if let Some((rect, layout)) = self.board
                && crate::tui::mouse::contains(rect, event.column, event.row)
                && let Some(at) = layout.hit(event.column - rect.x, event.row - rect.y)
            {
                self.cursor = Some(at);
                self.choose();
            }
            return Transition::Stay;
        }
        if let Some(i) = self.rows.iter().position(|(y, _)| *y == event.row) {
            self.row = i;
            return self.lobby_key(Cmd::Open);
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
        keys::describe(self.table(), true)
    }

    fn help(&self) -> Help {
        let mut keys = keys::help_keys(LOBBY);
        keys.extend(keys::help_keys(GAME));
        keys.extend(keys::help_keys(DAILY_2048));
        Help {
            title: "Parlor online".to_string(),
            keys,
            text: vec![
                "Nocca Nocca against people on a Parlor server. The lobby lists the challenges to you (Enter or y \
                 accepts, n declines), your games, and the challenges you sent; c challenges a player who is online \
                 by name, with a board size if not 6x5 (bob 3x3)."
                    .to_string(),
                "In a game the board is the local game's: the cursor or a click selects a piece and then its target, \
                 or a digit steps the selected piece (7 8 9 / 4 6 / 1 2 3); x resigns (asking first). Tab or q goes \
                 back to the lobby; q in the lobby quits."
                    .to_string(),
                "When the connection drops, the line at the top says so and the client connects again by itself, \
                 taking every game up where it was; the server holds your seat for a while. A finished game can be \
                 added to the local history with i, and replayed from the menu like a local game."
                    .to_string(),
            ],
        }
    }

    fn on_quit(&mut self, _ctx: &mut Ctx) {
        self.wire.up(Up::Quit);
    }

    fn announce(&self) -> Option<String> {
        self.log.last().cloned()
    }
}
