//! The full-screen interface: a stack of screens ([`View`]s) driven by [`app::App`].
//!
//! Every screen draws itself into a frame and turns key presses into commands through its declared
//! [`keys::Binding`] table; the help overlay and the hint bar are built from the same table.

pub mod app;
#[cfg(test)]
pub(crate) mod ctx_tests;
pub mod daily;
pub mod game;
pub mod keys;
pub mod launch;
pub mod layout;
pub mod menu;
pub mod mouse;
pub mod play;
pub mod puzzle;
pub mod records;
pub mod replay;
pub mod review;
pub mod room;
pub mod settings;
pub mod setup;
pub mod stats;
#[cfg(feature = "terminal")]
pub mod terminal;
#[cfg(feature = "terminal")]
mod terminal_input;
pub mod text;
pub mod theme;

use crate::input::{KeyEvent, MouseEvent};
use crate::storage::Storage;
use ratatui::Frame;
use ratatui::layout::Rect;
use theme::Theme;

/// What a screen can reach while handling input.
pub struct Ctx<'a> {
    /// The database.
    pub store: &'a mut dyn Storage,
    /// The palette.
    pub theme: Theme,
    /// A seed given on the command line, for the next new game (taken by the first game that starts).
    pub seed: &'a mut Option<u64>,
    /// Every game, in menu order.
    pub games: &'a [&'static dyn launch::Launch],
    /// A line for the screen below to show once it is on top again ("saved", "NOT saved").
    pub notice: &'a mut Option<String>,
    /// Whether moves are animated (tiles sliding): on unless the settings turn animations off or `--no-animation`
    /// is given.
    pub animations: bool,
    /// The player's settings (the settings screen changes them; new games read their defaults).
    pub settings: &'a mut crate::settings::Settings,
    /// Where the settings are saved (`None`: nowhere, such as no configuration directory, so changes last for this
    /// run only).
    pub keeper: Option<&'a dyn crate::settings::Keeper>,
    /// Every game's context, which the sessions started here play in.
    pub contexts: &'a crate::mid::Contexts,
    /// The reviews going on for screens that were closed ([`View::left_behind`]).
    pub reviews: &'a mut crate::mid::coach::Reviews,
}

/// What happens to the screen stack after an event.
pub enum Transition {
    /// Stay on this screen.
    Stay,
    /// Open a screen on top of this one.
    Push(Box<dyn View>),
    /// Close this screen (back to the one below; the last one closing quits).
    Pop,
    /// Replace this screen by another.
    Replace(Box<dyn View>),
    /// Leave the program.
    Quit,
}

/// The help a screen offers: its key bindings and a few paragraphs of rules.
pub struct Help {
    /// The screen's title.
    pub title: String,
    /// (keys, what they do), in the screen's own order.
    pub keys: Vec<(String, &'static str)>,
    /// Rules and notes, one paragraph per entry.
    pub text: Vec<String>,
}

/// One full-screen page of the program.
pub trait View {
    /// The smallest area (columns, rows) this screen can draw in.
    fn min_size(&self) -> (u16, u16);
    /// Draws the screen into `area`, which is at least [`View::min_size`].
    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme);
    /// Reacts to a key press.
    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition;
    /// Reacts to the mouse.
    fn handle_mouse(&mut self, _event: MouseEvent, _ctx: &mut Ctx) -> Transition {
        Transition::Stay
    }
    /// Called about ten times a second when no input arrives (animations, autoplay).
    fn tick(&mut self, _ctx: &mut Ctx) -> Transition {
        Transition::Stay
    }
    /// How often (in milliseconds) the screen wants [`View::tick`] while idle, if at all.
    fn tick_ms(&self) -> Option<u64> {
        None
    }
    /// The keys shown in the hint bar.
    fn hint_bar(&self) -> Vec<(&'static str, &'static str)>;
    /// The help screen's content.
    fn help(&self) -> Help;
    /// Called when the screen is on top again (at start, and after the screen above it closed).
    fn resumed(&mut self, _ctx: &mut Ctx) {}
    /// Called before the program leaves, so that the screen can save what it holds.
    fn on_quit(&mut self, _ctx: &mut Ctx) {}
    /// A review this screen was making, to go on once the screen is closed (popped or replaced) and be kept when
    /// done ([`Ctx::reviews`]); `None` when there is none at work.
    fn left_behind(&mut self) -> Option<crate::mid::coach::Coach> {
        None
    }
    /// The line a screen reader should say about the screen's latest change (a browser's `aria-live` region):
    /// the last move and what it did, or the end. `None` where there is nothing to say.
    fn announce(&self) -> Option<String> {
        None
    }
    /// Makes ahead, in idle time, the screen that the next likely key would open from this one (the menu's Enter
    /// on its selected item; a setup's Enter, and the end screen's new-game key: the new game's first screen), and
    /// keeps it until that key adopts it or anything else drops it; returns whether one is ready. Preparing writes
    /// nothing: a screen whose opening claims or saves anything is never prepared, except a new game, drawn from a
    /// session that claims and writes nothing ([`crate::mid::session::Session::unclaimed_in`]) and started for
    /// real at its key.
    fn prepare(&mut self, _ctx: &mut Ctx) -> bool {
        false
    }
    /// The screen made ahead by [`View::prepare`], while it is still the one the next key would open.
    fn prepared(&mut self) -> Option<&mut dyn View> {
        None
    }
}
