//! The full screen's side of the game interface: what a game adds to draw itself and read its keys
//! ([`TuiGame`]), and the object-safe [`Launch`](super::launch::Launch) the menu, history and scores use to reach any game.

use super::keys::Binding;
use super::theme::Theme;
use crate::games::game::Game;
use crate::games::session::Session;
use crate::input::MouseEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

/// What one of a game's own commands asks the play screen to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Act<M> {
    /// Nothing more (the UI state may have changed).
    Stay,
    /// Play this move.
    Play(M),
    /// Say this in the message line.
    Say(String),
}

/// One position to draw: the state, the parameters, the UI state when playing (none in replays), and the move that
/// led here (to mark it).
pub struct Board<'a, G: TuiGame> {
    /// The position.
    pub state: &'a G::State,
    /// The parameters.
    pub params: &'a G::Params,
    /// The cursor and whatever else the player is doing (`None` in a replay).
    pub ui: Option<&'a G::Ui>,
    /// The move that led to this position.
    pub last: Option<&'a G::Move>,
    /// Whether the game is over (a hidden code is shown, say).
    pub over: bool,
    /// The game's context ([`Game::Context`]: the session's; a replay's is the default).
    pub context: &'a G::Context,
}

/// What a game adds to the interface for the full screen: its UI state, its key table, and its drawing.
pub trait TuiGame: Game {
    /// The UI state: the cursor, a half-typed guess, a selected piece.
    type Ui: Default + 'static;
    /// The game's own commands (the play screen adds undo, hint, autoplay, give up, restart, quit and help).
    type Cmd: Copy + PartialEq + std::fmt::Debug + 'static;

    /// The game's key table. It must bind no key twice, nor any key of the play screen's common table
    /// (`u` `t` `p` `+` `=` `-` `x` `r` `q` `Q` Esc `?`).
    fn bindings(params: &Self::Params) -> &'static [Binding<Self::Cmd>];
    /// The key table in force now, which may depend on what the player is doing (a codemaker typing the hidden
    /// code types colours, not answers). It must clash with nothing either. The table of
    /// [`TuiGame::bindings`] unless the game says otherwise.
    fn bindings_now(
        params: &Self::Params,
        _ui: &Self::Ui,
        _session: &Session<Self>,
    ) -> &'static [Binding<Self::Cmd>] {
        Self::bindings(params)
    }
    /// Rows the help adds before the table's (keys, what they do) for keys the table only summarises (a
    /// variant's colour keys).
    fn help_rows(_params: &Self::Params) -> Vec<(String, &'static str)> {
        Vec::new()
    }
    /// The hint bar's label of one of the table's entries in this variant (a variant's 8 colours, or digits
    /// for colours): the table's own label unless the game words it for the variant.
    fn bar_label(_params: &Self::Params, label: &'static str) -> &'static str {
        label
    }
    /// Whether the computer plays both sides and a person watches (a watch mode): `p` pauses, `+` and `-`
    /// change the pace.
    fn watched(_params: &Self::Params) -> bool {
        false
    }
    /// Sets the least time a watched move takes.
    fn set_pace(_thinker: &mut Self::Thinker, _ms: u64) {}
    /// A move as the full screen names it (`c1→c2`, the squares the player picks, rather than plain
    /// mode's letters): in the messages of the computer's moves, autoplay and undo.
    fn move_name(_params: &Self::Params, mv: &Self::Move) -> String {
        mv.to_string()
    }
    /// The hint's words on the full screen (the game's own [`Game::describe_hint`] unless the screen names moves
    /// its own way).
    fn hint_text(context: &Self::Context, state: &Self::State, mv: &Self::Move) -> String {
        Self::describe_hint(context, state, mv)
    }
    /// What a screen reader says after `last` was played into `state` (a merge and the score, a feedback, a
    /// move): the move's name and the status line unless the game words it better.
    fn announce(
        context: &Self::Context,
        state: &Self::State,
        params: &Self::Params,
        last: &Self::Move,
    ) -> String {
        format!(
            "{}. {}",
            Self::move_name(params, last),
            Self::status_text(context, state, params)
        )
    }
    /// The smallest area the board needs (columns, rows).
    fn board_size(params: &Self::Params) -> (u16, u16);
    /// Draws the board into `area`.
    fn draw(frame: &mut Frame, area: Rect, board: &Board<Self>, theme: &Theme);
    /// Extra words for the status line ("Black to move", "Guess 3 of 10").
    fn status_text(context: &Self::Context, state: &Self::State, params: &Self::Params) -> String;
    /// Carries out one of the game's commands.
    fn command(cmd: Self::Cmd, ui: &mut Self::Ui, session: &Session<Self>) -> Act<Self::Move>;
    /// A key the table does not bind, offered to the game before it is refused (a colour letter typed into a
    /// guess). `None`: not the game's either.
    fn other_key(
        _key: &crate::input::KeyEvent,
        _ui: &mut Self::Ui,
        _session: &Session<Self>,
    ) -> Option<Act<Self::Move>> {
        None
    }
    /// Esc on the play screen, offered to the game first: it may cancel what the player is doing (a selected
    /// piece) and say so. `None`: nothing to cancel, and Esc goes back to the menu as the common table says.
    fn cancel(_ui: &mut Self::Ui, _session: &Session<Self>) -> Option<String> {
        None
    }
    /// The mouse over the board drawn in `area`.
    fn mouse(
        _event: MouseEvent,
        _area: Rect,
        _ui: &mut Self::Ui,
        _session: &Session<Self>,
    ) -> Act<Self::Move> {
        Act::Stay
    }
    /// Called after every accepted move (to clear a typed guess, move the cursor, start an animation).
    fn after_move(_ui: &mut Self::Ui, _session: &Session<Self>) {}
    /// Whether an animation is running (the screen is then redrawn about every 16 ms).
    fn animating(_ui: &Self::Ui) -> bool {
        false
    }
    /// Ends any animation at once (a key was pressed, its time is up, or animations are off).
    fn settle(_ui: &mut Self::Ui) {}
    /// Keys the game reads as typing outside its tables (letters typed as colours, say), with what each types: a
    /// remapped common command may not take them either.
    fn typed_keys() -> Vec<(crate::input::KeyCode, String)> {
        Vec::new()
    }
}
