//! The graphical faces: Parlor's page drawn as HTML and CSS for the browser (the default face; `?face=terminal`
//! is the terminal's character grid, `page`). Made from the same core models the terminal draws: the
//! registry's games and their settings ([`parlor::mid::AnyGame`]), the mid end's [`Session`] (moves, undo, autosave,
//! records), the page's store ([`crate::store::WebStore`]) and its worker for the computer.
//!
//! The faces' own registry ([`FACES`], in `crate::games`, each game's board in its folder there) pairs each game
//! with its board ([`play::Board`]), and the online rooms' game with its board ([`room_board`]); everything else here
//! (the menu, the setup form, the play screen around the board, the shell that wires the page) is the same for
//! every game. The view layer is plain functions that build escaped HTML ([`html`]), written into the page with
//! only the nodes that changed replaced (`morph`), with one delegated listener reading each control's `data-act`:
//! no framework, no dependency beyond web-sys.

pub mod first;
pub mod history;
pub mod html;
pub mod lobby;
pub mod menu;
#[cfg(target_arch = "wasm32")]
pub mod morph;
pub mod patch;
pub mod play;
pub mod puzzle;
pub mod replay;
pub mod review;
pub mod scores;
pub mod settings;
#[cfg(target_arch = "wasm32")]
mod shell;
pub mod stats;

pub use crate::games::{FACES, room_board};
use crate::store::WebStore;
use parlor::mid::game::Game;
use parlor::mid::review::Review;
use parlor::mid::session::{Seed, Session};
use parlor::mid::{AnyGame, Contexts, Entry};
use parlor::storage::{GameRecord, Scoreboard, Storage, Unfinished};
use play::{Board, Play, Playing};
use puzzle::{PuzzleOf, Puzzling};
use replay::{ReplayOf, Replaying};
use std::marker::PhantomData;

/// The faces' stylesheet: in the page's `index.html` from its build ([`first`]), else added by the shell.
pub const CSS: &str = concat!(include_str!("faces.css"), include_str!("lobby.css"));

/// One game as the faces see it: the registry's game and its board.
pub trait Face: Sync {
    /// The game, as lists and setups see it.
    fn any(&self) -> &dyn AnyGame;
    /// The best score of the game's default variant, if one was recorded.
    fn best(&self, store: &WebStore) -> Option<i64>;
    /// A new game with the parameters `json` (as [`AnyGame::params_from`] gives them), from `seed` if given.
    fn start(
        &self,
        json: &str,
        seed: Option<u64>,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Playing>, String>;
    /// A saved game taken up again.
    fn resume(
        &self,
        saved: &Unfinished,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Playing>, String>;
    /// A finished game of this game, replayed.
    fn replay(&self, record: &GameRecord) -> Result<Box<dyn Replaying>, String>;
    /// The puzzles of `review`, the review of `record` (a finished game of this game): its marked moves of the
    /// player's, or why there are none.
    fn puzzles(
        &self,
        record: &GameRecord,
        review: &Review,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Puzzling>, String>;
}

/// Game `G` drawn with board `B`.
pub struct FaceOf<G: Game, B: Board<G>> {
    entry: Entry<G>,
    board: PhantomData<fn() -> B>,
}

impl<G: Game, B: Board<G>> FaceOf<G, B> {
    /// The face of game `G` with board `B`.
    pub const fn new() -> FaceOf<G, B> {
        FaceOf {
            entry: Entry::new(),
            board: PhantomData,
        }
    }
}

impl<G: Game, B: Board<G>> Default for FaceOf<G, B> {
    fn default() -> Self {
        FaceOf::new()
    }
}

impl<G: Game, B: Board<G>> Face for FaceOf<G, B> {
    fn any(&self) -> &dyn AnyGame {
        &self.entry
    }

    fn best(&self, store: &WebStore) -> Option<i64> {
        let params = G::Params::default();
        let variant = G::variant(&params);
        store
            .best_score(Scoreboard::new(G::ID, &variant, G::ranking(&params)))
            .ok()
            .flatten()
    }

    fn start(
        &self,
        json: &str,
        seed: Option<u64>,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Playing>, String> {
        let params = G::params_from_json(json).map_err(|e| e.to_string())?;
        let session =
            Session::<G>::new_in(params, Seed::from_option(seed), store, contexts.of::<G>())
                .map_err(|e| e.to_string())?;
        Ok(Box::new(Play::<G, B>::new(session, store.clone())))
    }

    fn resume(
        &self,
        saved: &Unfinished,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Playing>, String> {
        let session =
            Session::<G>::resume_in(saved, store, contexts.of::<G>()).map_err(|e| e.to_string())?;
        Ok(Box::new(Play::<G, B>::new(session, store.clone())))
    }

    fn replay(&self, record: &GameRecord) -> Result<Box<dyn Replaying>, String> {
        Ok(Box::new(ReplayOf::<G, B>::new(record)?))
    }

    fn puzzles(
        &self,
        record: &GameRecord,
        review: &Review,
        store: &WebStore,
        contexts: &Contexts,
    ) -> Result<Box<dyn Puzzling>, String> {
        Ok(Box::new(PuzzleOf::<G, B>::new(
            record,
            review,
            store,
            contexts.of::<G>(),
        )?))
    }
}

/// The face of the game `id`.
pub fn find(id: &str) -> Option<&'static dyn Face> {
    FACES.iter().copied().find(|f| f.any().id() == id)
}

/// Every game's context for the page (nothing kept on disk; the worker keeps the tables).
pub fn contexts() -> Contexts {
    let games: Vec<&dyn AnyGame> = FACES.iter().map(|f| f.any()).collect();
    Contexts::new(&games, None)
}
