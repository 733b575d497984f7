//! The one game interface: every game is a back end behind [`Game`], as in Simon Tatham's puzzle collection.
//!
//! A back end splits what it holds by what undo does (Tatham's `devel.but`, "Data structures"):
//! - **parameters** ([`Game::Params`]): what a player sets before a game (size, variant, level, role), described
//!   by [`Game::settings`] so that the setup form, the plain questions and the command-line flags come from one table;
//! - **state** ([`Game::State`]): what undo restores, rebuilt from the parameters, the seed and the moves;
//! - **moves** ([`Game::Move`]): values that print and parse ([`Game::parse_move`], `Display`), so the same text
//!   serves play, saves, replays and fuzzing.
//!
//! UI state (a cursor, a half-typed guess) and drawing live in the front ends' adapters.

use super::error::Error;
use super::settings::Setting;
pub use super::stats::Chart;
pub use crate::storage::{Outcome, Ranking};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::{Debug, Display};
use std::sync::atomic::AtomicBool;

/// Who moves next in a game that goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The person at the keyboard (in a game for two at one keyboard: whoever's side is named).
    Player,
    /// The computer: the mid end asks [`Game::think`] on a background thread.
    Computer,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; `Turn` says who moves.
    Playing(Turn),
    /// The game is over.
    Over(Outcome),
}

/// Why the computer is asked to think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A hint for the player (marks the game assisted).
    Hint,
    /// The computer's own move as an opponent (or, where the player is the one asked, answering the player's move).
    Opponent,
    /// The computer plays for the player (autoplay; marks the game assisted).
    Autoplay,
}

/// What an accepted move did, for the front end to say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// A short note ("+16", "2 black 1 white").
    pub note: Option<String>,
    /// A moment worth stopping for (a target reached): the front end announces it, asks whether to go on,
    /// and pauses autoplay there.
    pub milestone: Option<String>,
}

/// One game's back end.
pub trait Game: Sized + 'static {
    /// The game's name in the database and on the command line (`solitaire`).
    const ID: &'static str;
    /// The name shown to people (`Klondike Solitaire`).
    const TITLE: &'static str;
    /// One line for the menu.
    const BLURB: &'static str;
    /// How the best scores rank the game, for their help (`points`, `wins by fewest guesses`).
    const RANKS: &'static str = "points";
    /// What the statistics chart for the game, for their help (`the spread of scores of the newest 1000 ranked
    /// games`): what [`Game::charts`] gives, in words.
    const CHARTS: &'static str = "the spread of scores of the newest 1000 ranked games";
    /// The engine crate the game plays with: its name and version (`parlor --version`), its crate's `NAME` and
    /// `VERSION`.
    const ENGINE: (&'static str, &'static str);

    /// The options a player sets.
    ///
    /// They are saved with every game as serde writes them to JSON ([`Game::params_to_json`]); a game whose saved
    /// form differs from the type (older records) says so with serde's `into` and `try_from`.
    type Params: Clone + Debug + PartialEq + Default + Send + Serialize + DeserializeOwned + 'static;
    /// What undo restores.
    type State: Clone + Send + 'static;
    /// One move, as it is recorded.
    type Move: Clone + Debug + PartialEq + Display + Send + 'static;
    /// What the computer keeps between two thoughts (a transposition table, a strategy tree).
    type Thinker: Send + 'static;
    /// What the game keeps for a whole program run beside its games (where its solved tables or strategy trees are
    /// kept, and those being built): made once at the program's top ([`Game::context`]) and shared by every session
    /// ([`crate::mid::session::Session::with_context`]), thinker and screen of the game. Cloning shares it.
    type Context: Clone + Default + Send + Sync + 'static;

    /// The settings the parameters are made of, in the order the setup form shows them.
    fn settings() -> &'static [Setting];
    /// The current value of one setting, as text that [`Game::set`] accepts.
    fn get(params: &Self::Params, key: &str) -> String;
    /// Changes one setting; the error says what is accepted. A refused value leaves the parameters untouched.
    fn set(params: &mut Self::Params, key: &str, value: &str) -> Result<(), Error>;
    /// Whether a setting applies to these parameters (the custom colours only for a custom variant).
    fn applies(_params: &Self::Params, _key: &str) -> bool {
        true
    }
    /// Checks the parameters as a whole (settings that must agree with each other): about the parameters alone,
    /// wherever the game is played ([`Game::playable`] says whether it can be played in a run).
    fn check(_params: &Self::Params) -> Result<(), Error> {
        Ok(())
    }
    /// Whether a game with these parameters can be played in `context`: what its computer needs can be had in this
    /// run (Nocca's perfect level needs its board's solved table). A new game that cannot is refused at setup, and a
    /// saved one is not taken up (it is set aside as damaged), with this error. By default every game can.
    fn playable(_params: &Self::Params, _context: &Self::Context) -> Result<(), Error> {
        Ok(())
    }
    /// [`Game::check`], then [`Game::playable`] in `context`: whether a game with these parameters can start here.
    fn check_in(params: &Self::Params, context: &Self::Context) -> Result<(), Error> {
        Self::check(params)?;
        Self::playable(params, context)
    }
    /// The name best scores and statistics are grouped by (`4x4`, `classic`, `vs expert`).
    fn variant(params: &Self::Params) -> String;
    /// The parameters as JSON, as saved with every game: serde's form of [`Game::Params`].
    fn params_to_json(params: &Self::Params) -> String {
        serde_json::to_string(params).unwrap_or_default()
    }
    /// Reads parameters written by [`Game::params_to_json`] and checks them ([`Game::check`]); damaged text is an
    /// error, never a panic.
    fn params_from_json(json: &str) -> Result<Self::Params, Error> {
        let params = serde_json::from_str(json)
            .map_err(|e| Error::Settings(format!("options are not readable: {e}")))?;
        Self::check(&params)?;
        Ok(params)
    }

    /// A new game.
    fn new_game(params: &Self::Params, seed: u64) -> Result<Self::State, Error>;
    /// Reads a move as written by its `Display`, in the context of the state (a refused text is an error).
    fn parse_move(state: &Self::State, text: &str) -> Result<Self::Move, Error>;
    /// Reads a saved move list (space separated). Games whose old records hold extra words (an old `undo`)
    /// override this to fold them.
    fn parse_moves(start: &Self::State, text: &str) -> Result<Vec<Self::Move>, Error> {
        let mut state = start.clone();
        let mut moves = Vec::new();
        for word in text.split_whitespace() {
            let mv = Self::parse_move(&state, word)?;
            Self::apply(&mut state, &mv)
                .map_err(|e| e.within(format!("move {}", moves.len() + 1)))?;
            moves.push(mv);
        }
        Ok(moves)
    }
    /// Plays a move. A refused move leaves the state untouched and says why.
    fn apply(state: &mut Self::State, mv: &Self::Move) -> Result<Applied, Error>;
    /// Where the game stands.
    fn status(state: &Self::State) -> Status;
    /// The score that best scores rank (points, guesses, plies).
    fn score(state: &Self::State) -> i64;
    /// How many moves were played, as the game counts them (slides, plies, guesses).
    fn moves_made(state: &Self::State) -> usize;
    /// The score's name (`score`, `guesses`, `plies`).
    fn score_name() -> &'static str {
        "score"
    }
    /// How this game's best scores are ranked.
    fn ranking(params: &Self::Params) -> Ranking;
    /// The charts the statistics show for a variant with these parameters: by default the spread of scores where
    /// scores rank, none where they do not. Everything else in the statistics is the same for every game.
    fn charts(params: &Self::Params) -> Vec<Chart> {
        match Self::ranking(params) {
            Ranking::Unranked => Vec::new(),
            _ => vec![Chart::Scores],
        }
    }
    /// A figure of a finished game's final position that a [`Chart::Peaks`] chart counts (the highest tile, say).
    fn peak(_state: &Self::State) -> Option<i64> {
        None
    }
    /// How a player who stops now ends the game (after a target is reached: a win, say; otherwise giving up).
    fn resign(_state: &Self::State) -> Outcome {
        Outcome::GaveUp
    }
    /// One line that says how the game ended ("target reached", "White reached the goal", "code found in 5").
    fn ending(state: &Self::State, outcome: Outcome) -> String;
    /// A short line for lists of games in progress ("score 1234 · 20 moves", "ply 12 · White to move").
    fn progress(state: &Self::State) -> String;
    /// How many moves one undo takes back, so that it is the player's turn again (2 against the computer).
    fn undo_depth(state: &Self::State, moves: usize) -> usize {
        let _ = state;
        usize::from(moves > 0)
    }
    /// Whether hints and undo are offered for these parameters (a variant too large to search has none).
    fn can_think(_params: &Self::Params) -> bool {
        true
    }
    /// Why the computer gives no hint (nor plays) for these parameters, where [`Game::can_think`] is false: said
    /// by every face when `t` or `p` is pressed there.
    fn why_no_hint(_params: &Self::Params) -> String {
        "the computer cannot suggest a move in this game".into()
    }
    /// Whether the computer can play for the player.
    fn can_autoplay(_params: &Self::Params) -> bool {
        false
    }

    /// The game's context for a run whose data directory is `data_dir` (`None`: none, nothing is kept on disk).
    fn context(_data_dir: Option<&std::path::Path>) -> Self::Context {
        Self::Context::default()
    }
    /// Called when a game with these parameters is played in `context` (started or taken up): a game may start
    /// reading what its computer will need in the background.
    fn prepare(_context: &Self::Context, _params: &Self::Params) {}
    /// The computer's memory for these parameters, in the game's context.
    fn thinker(params: &Self::Params, context: &Self::Context) -> Self::Thinker;
    /// The computer's move, or `None` when it has none. Runs on a background thread; `stop` asks it to finish early.
    fn think(
        thinker: &mut Self::Thinker,
        state: &Self::State,
        purpose: Purpose,
        stop: &AtomicBool,
    ) -> Option<Self::Move>;
    /// Why the computer, to move, gave no move (its think returned `None`), said by every face: a move it could
    /// not make for a reason the game knows (a table that could not be made) is told as such.
    fn why_no_move(context: &Self::Context, state: &Self::State) -> String {
        let _ = (context, state);
        "the computer found no move".into()
    }
    /// How a hint is told ("slide left", "c2 to c3, wins in 7"); by default the move itself.
    fn describe_hint(context: &Self::Context, state: &Self::State, mv: &Self::Move) -> String {
        let _ = (context, state);
        mv.to_string()
    }

    /// The review of a finished game played from `start` by `moves` with `params` in `context`
    /// ([`super::review::Review`]): per move the best, the values before and after and a mark, from fixed depths
    /// (the same review every time). `progress(done, of)` is told each move reviewed. `None`: the game has no
    /// reviewer (the default), so generic code offers none; an error says why this game cannot be reviewed here.
    fn review(
        context: &Self::Context,
        params: &Self::Params,
        start: &Self::State,
        moves: &[Self::Move],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<super::review::Review, Error>> {
        let _ = (context, params, start, moves, progress);
        None
    }

    /// The review of one move, `mv`, played after `before` from `start` (a puzzle's answer in "learn from your
    /// mistakes", [`super::puzzle`]): by default the last move of [`Game::review`] of those moves and it. `None`
    /// where the game has no reviewer; an error where `mv` cannot be played there.
    fn judge(
        context: &Self::Context,
        params: &Self::Params,
        start: &Self::State,
        before: &[Self::Move],
        mv: &Self::Move,
    ) -> Option<Result<super::review::Reviewed, Error>> {
        let mut moves = before.to_vec();
        moves.push(mv.clone());
        let review = Self::review(context, params, start, &moves, &mut |_, _| {})?;
        Some(review.and_then(|r| {
            r.moves
                .into_iter()
                .last()
                .ok_or_else(|| Error::Record("the review has no move".into()))
        }))
    }

    /// The parameters of a practice game ("practise from here", docs/REVIEW.md) from `at`, a position of a
    /// finished game played with `params` in `context`: the new game goes on from `at`, with the finished game's
    /// seed and the moves that led there, played by the person at the keyboard (it must be their move there), and
    /// is recorded as practice, never as a scored game ([`super::session::Session::practise_in`] starts it). An
    /// error says why the game cannot be practised from there; by default no game can.
    fn practice(
        context: &Self::Context,
        params: &Self::Params,
        at: &Self::State,
    ) -> Result<Self::Params, Error> {
        let _ = (context, params, at);
        Err(Error::Settings(format!(
            "{} games cannot be practised from a position",
            Self::TITLE
        )))
    }

    /// The rules, one paragraph each (help screens and plain `?`).
    fn rules() -> &'static [&'static str];
}
