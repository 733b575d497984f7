//! A daily challenge of Parlor online, as the online client reaches it: through the registry's
//! [`super::room::Played`], never by name. Each game with a daily challenge implements [`DailyKind`] in its own
//! folder; the client keeps one [`Daily`] per challenge, which holds what the server told of today's and what the
//! player does with it (a game played on the screen, a guess being typed), hears the server's messages of its own,
//! and answers the full screen's keys and plain mode's commands. The lobby, the leaderboards and the connection
//! around them are the client's, the same for every challenge.

use crate::input::{KeyCode, KeyEvent};
use crate::tui::theme::Theme;
use parlor_online::protocol::{self, Board, ClientMessage, LeaderEntry, ServerMessage};
use ratatui::Frame;
use ratatui::layout::Rect;

/// A daily challenge, as the registry lists it.
pub trait DailyKind: Sync {
    /// The client's side of it, knowing nothing yet of today's.
    fn fresh(&self) -> Box<dyn Daily>;
}

/// The kind of a daily challenge whose client side starts as `T::default()`.
pub struct Fresh<T>(std::marker::PhantomData<fn() -> T>);

impl<T> Fresh<T> {
    /// The kind, for a registry's static.
    pub const fn new() -> Fresh<T> {
        Fresh(std::marker::PhantomData)
    }
}

impl<T> Default for Fresh<T> {
    fn default() -> Fresh<T> {
        Fresh::new()
    }
}

impl<T: Daily + Default + 'static> DailyKind for Fresh<T> {
    fn fresh(&self) -> Box<dyn Daily> {
        Box::new(T::default())
    }
}

/// What a daily challenge asks its front end to do.
#[derive(Clone, Debug, PartialEq)]
pub enum DailySaid {
    /// A line to tell the player.
    Say(String),
    /// A message to send to the server.
    Send(ClientMessage),
}

/// The lobby's key that opens a daily challenge: its keys, their label and what it does (for the help).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LobbyKey {
    /// The keys.
    pub keys: &'static [KeyCode],
    /// Their label.
    pub label: &'static str,
    /// What the key does, for the help.
    pub help: &'static str,
}

/// The client's side of one daily challenge.
pub trait Daily: std::fmt::Debug + Send {
    /// Which challenge it is in the protocol.
    fn which(&self) -> protocol::Daily;

    /// Its name in lines and leaderboards (`Mastermind`).
    fn name(&self) -> &'static str;

    /// Plain mode's word for it (`daily mastermind`, `leaderboard mastermind`).
    fn word(&self) -> &'static str;

    /// The message that asks the server for today's.
    fn ask(&self) -> ClientMessage;

    /// What it offers that the protocol's message type `kind` asks for, said plainly (`the ranked 2048 of the
    /// day`), if `kind` is one of its messages: how a server older than the message is said to lack it.
    fn offers(&self, kind: &str) -> Option<&'static str> {
        let _ = kind;
        None
    }

    /// Takes one of the server's messages: the lines to tell the player when it is this challenge's, else `None`.
    /// `key` is the full screen's key that opens the challenge, as bound (none in plain mode, whose lines name its
    /// commands). Every `error` and `welcome` is passed to every challenge too (a refusal of what it sent, maybe,
    /// or a connection back), before the client says it; what a challenge answers to one is not shown.
    fn hear(&mut self, msg: &ServerMessage, key: Option<&str>) -> Option<Vec<String>>;

    /// A row of its leaderboard in words.
    fn leader_text(&self, e: &LeaderEntry) -> String;

    /// The lobby's key that opens it on the full screen.
    fn lobby_key(&self) -> LobbyKey;

    /// The help's words on it, after its key (`plays today's 2048 here ...`).
    fn help_text(&self) -> &'static str;

    /// Opens it on the full screen (its lobby key).
    fn open(&mut self) -> Vec<DailySaid>;

    /// Whether it is open on the full screen.
    fn is_open(&self) -> bool;

    /// What is due now that the server may have told today's (a guess typed before the day was known, a slide
    /// typed ahead once the one before it is answered); asked after each of the server's messages, in both modes.
    fn due(&mut self) -> Vec<DailySaid>;

    /// A key while it is open.
    fn key(&mut self, key: &KeyEvent) -> Vec<DailySaid>;

    /// While open: the line typed over the lobby, if it is played as a typed line (else it takes the screen).
    fn line(&self) -> Option<String>;

    /// While open and not a typed line: draws it in `body`, with the newest of `log` under it.
    fn draw(&self, frame: &mut Frame, body: Rect, theme: &Theme, log: &[String]);

    /// The hint bar while it is open.
    fn hints(&self) -> Vec<(&'static str, &'static str)>;

    /// Its keys for the help, under their heading (a row of its own with no description); none when it has no
    /// keys of its own.
    fn help_rows(&self) -> Vec<(String, &'static str)>;

    /// Plain mode's lines of help for its commands.
    fn plain_help(&self) -> &'static str;

    /// A line typed in plain mode: what to do when it is one of this challenge's commands (or a line of the game
    /// being played here), else `None`.
    fn plain(&mut self, words: &[&str]) -> Option<Vec<DailySaid>>;
}

/// A leaderboard's name.
pub fn board_name(b: Board) -> &'static str {
    match b {
        Board::Plain => "plain",
        Board::Assisted => "assisted",
    }
}
