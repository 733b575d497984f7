//! The game Parlor online's rooms play, as the online client reaches it: through the registry's [`Played`] (handed
//! down by the program's top), never by name. The game's folder implements [`Room`] (a new game on a board,
//! the local history's record of a finished one, its board on the full screen), [`RoomGame`] (a game as the
//! server's numbered events build it) and [`RoomBoard`] (the board on the screen: its cursor, selection, keys and
//! drawing). The client around them (the lobby, challenges, clocks, the result, rematches, watching) is the same
//! for any game the server's protocol speaks.

use super::daily::DailyKind;
use crate::input::KeyEvent;
use crate::tui::theme::Theme;
use parlor_online::protocol::{self, Side};
use ratatui::Frame;
use ratatui::layout::Rect;

/// The games Parlor online plays, as the registry lists them: the rooms' game and the daily challenges.
#[derive(Clone, Copy)]
pub struct Played {
    /// The game the rooms play against people (the lobby, challenges, the rated queue, watching).
    pub room: &'static dyn Room,
    /// The daily challenges, in the order the lobby lists them.
    pub dailies: &'static [&'static dyn DailyKind],
}

impl std::fmt::Debug for Played {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Played")
            .field("room", &self.room)
            .field("dailies", &self.dailies.len())
            .finish()
    }
}

/// The game of the rooms.
pub trait Room: Sync {
    /// Its title, as the screens say it (`Nocca Nocca`).
    fn title(&self) -> &'static str;

    /// A new game on the protocol's `board` (`6x5`), or why this build does not play it.
    fn start(&self, board: &str) -> Result<Box<dyn RoomGame>, String>;

    /// What the local history keeps of the server's finished game `r` beyond what every record has: its game,
    /// variant and options (a game of two at one keyboard on its board) and its score, or why it does not read (a
    /// board this build does not play, moves that do not replay from the start).
    fn record(&self, r: &protocol::GameRecord) -> Result<Recorded, String>;

    /// A board for the full screen, with no cursor and nothing selected.
    fn board(&self) -> Box<dyn RoomBoard>;

    /// The help's sentence on playing a game on the board (its cursor, clicks and keys).
    fn board_help(&self) -> &'static str;

    /// Plain mode's line of how to type a move (`c1k, c1 k or c1-c2`), for its help.
    fn plain_move_help(&self) -> &'static str;
}

/// The game's own part of a finished online game's local record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The game's id in the history.
    pub game: String,
    /// The variant the history lists it under.
    pub variant: String,
    /// The game's parameters, as its local games keep them.
    pub options: String,
    /// Its score, as the game's local records count one.
    pub score: i64,
}

impl std::fmt::Debug for dyn Room {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.title())
    }
}

/// A game of the rooms, as the server's events build it.
pub trait RoomGame: std::fmt::Debug + Send + Sync {
    /// Plays the server's move `mv` (in the protocol's notation); the move in words for the log
    /// (`a1k (a1-a2)`), or why it does not play here.
    fn play(&mut self, mv: &str) -> Result<String, String>;

    /// The side to move.
    fn to_move(&self) -> Side;

    /// The moves played so far.
    fn ply(&self) -> usize;

    /// The board's name in the protocol (`6x5`).
    fn board_name(&self) -> String;

    /// The last move played, in the protocol's notation.
    fn last_move(&self) -> Option<String>;

    /// The board in text, as plain mode prints it after a move.
    fn plain_board(&self) -> String;

    /// What can move now, as plain mode lists it for the side to move (`a1 b1 c1`).
    fn plain_movable(&self) -> String;

    /// A move typed in plain mode, in the protocol's notation if the side to move may play it, else why not.
    fn typed_move(&self, text: &str) -> Result<String, TypedMove>;

    /// The game itself, for its own board to read.
    fn as_any(&self) -> &dyn std::any::Any;

    /// A copy.
    fn clone_box(&self) -> Box<dyn RoomGame>;
}

impl Clone for Box<dyn RoomGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Why a typed move is not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypedMove {
    /// It reads as a move that the rules refuse here: why.
    Refused(String),
    /// It does not read as a move: why.
    Unreadable(String),
}

/// Where the player stands in the game on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The player's move.
    Mine,
    /// The other side's move: the name to move.
    Theirs(String),
    /// A game watched.
    Watching,
    /// The game is over.
    Over,
}

impl Turn {
    /// Why a piece cannot be chosen now, unless it is the player's move.
    pub fn refusal(&self) -> Option<String> {
        match self {
            Turn::Mine => None,
            Turn::Theirs(name) => Some(format!("not your turn: {name} is to move")),
            Turn::Watching => Some("you are watching this game".to_string()),
            Turn::Over => Some("the game is over".to_string()),
        }
    }
}

/// The player at the board of a game: the game, their side (none when watching) and where it stands for them.
#[derive(Clone, Debug)]
pub struct Seat<'a> {
    /// The game.
    pub game: &'a dyn RoomGame,
    /// The player's side.
    pub side: Option<Side>,
    /// Whose move it is, from the player's side.
    pub turn: Turn,
}

/// What the board answers a key or a click.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardSaid {
    /// A line to tell the player.
    Say(String),
    /// A move to send, in the protocol's notation.
    Play(String),
    /// Back to the lobby (the cancel key with nothing to cancel).
    Leave,
    /// Nothing to tell (the cursor moved).
    Quiet,
}

/// The board of a room's game on the full screen: the game's own cursor, selection, keys and drawing.
pub trait RoomBoard: Send {
    /// A key of the board's own (cursor, select, steps, cancel): what it did, or `None` when the key is not the
    /// board's.
    fn key(&mut self, key: &KeyEvent, seat: &Seat) -> Option<BoardSaid>;

    /// A click at (`column`, `row`) of the screen: what it did, or `None` when it is off the board.
    fn click(&mut self, column: u16, row: u16, seat: &Seat) -> Option<BoardSaid>;

    /// Draws `game` in `area` (the cursor and the selection shown on the player's move).
    fn draw(&mut self, frame: &mut Frame, area: Rect, seat: &Seat, theme: &Theme);

    /// The line under the board on the player's move with nothing selected (what can move and how to choose).
    fn prompt(&self, seat: &Seat) -> Option<String>;

    /// The hint bar's entries for the board on the player's move.
    fn hints(&self, seat: &Seat) -> Vec<(&'static str, &'static str)>;

    /// The board's keys for the help.
    fn help_rows(&self) -> Vec<(String, &'static str)>;

    /// Whether the board has its own use for `key` (so the screen's keys must not take it).
    fn binds(&self, key: &KeyEvent) -> bool;

    /// Forgets the cursor and the selection (another game came to the front).
    fn forget(&mut self);
}
