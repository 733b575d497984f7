//! A game as the full screen starts it: [`Launch`] makes its setup form, its play screen (new or taken up) and its
//! replay, for any [`TuiGame`]; the screens themselves only know the game through [`TuiGame`].

use super::game::TuiGame;
use super::play::PlayView;
use super::replay::ReplayView;
use super::setup::SetupView;
use super::{Ctx, View};
use crate::mid::error::Error;
use crate::mid::record::Replay;
use crate::mid::session::{ResumeError, Session};
use crate::mid::{AnyGame, Entry, params_or_default};
use crate::settings::Catalog;
use crate::storage::{GameRecord, Unfinished};

/// Any game, as the menu, the history and the scores see it.
pub trait Launch: AnyGame {
    /// The setup form for a new game, opening on `params` (JSON) if they are readable, else the defaults.
    fn setup(&self, params: Option<&str>, contexts: &crate::mid::Contexts) -> Box<dyn View>;
    /// A new game with the given parameters (JSON) and the default ones elsewhere.
    fn start(&self, params: Option<&str>, ctx: &mut Ctx) -> Result<Box<dyn View>, Error>;
    /// Takes up a saved game.
    fn resume(&self, saved: &Unfinished, ctx: &mut Ctx) -> Result<Box<dyn View>, ResumeError>;
    /// Ends a saved game without playing it: it is claimed, then recorded as given up.
    fn discard(&self, saved: &Unfinished, ctx: &mut Ctx) -> Result<(), ResumeError>;
    /// The replay of a finished game.
    fn replay(&self, record: &GameRecord) -> Result<Box<dyn View>, Error>;
    /// "Learn from your mistakes" over a finished game and its review: each marked move as a puzzle.
    fn puzzles(
        &self,
        record: &GameRecord,
        review: &crate::mid::review::Review,
        ctx: &Ctx,
    ) -> Result<Box<dyn View>, Error>;
    /// "Practise from here": a new game from the position before move `number` (from 1) of finished game
    /// `record`, recorded as practice ([`Session::practise_in`]); an error says why it cannot start there.
    fn practise(
        &self,
        record: &GameRecord,
        number: usize,
        ctx: &mut Ctx,
    ) -> Result<Box<dyn View>, Error>;
    /// The keys the play screen would bind twice with the default parameters: the game's table against itself
    /// and against the play screen's common commands (should be none: the first binding would win).
    fn key_clashes(&self) -> Vec<String>;
    /// The keys of the game's own table with the default parameters, with what each does (a remapped common
    /// command may not take them).
    fn bound_keys(&self) -> Vec<(crate::input::KeyCode, &'static str)>;
    /// Every key the game takes for itself, with what it does in words that name the game: its table's
    /// ([`Launch::bound_keys`]) and what it types ([`TuiGame::typed_keys`]).
    fn own_keys(&self) -> Vec<(crate::input::KeyCode, String)>;
    /// The answer to a think request elsewhere (the page's worker): the request's game rebuilt by replaying its
    /// moves over this game's context in `contexts`, then the computer's move ([`crate::mid::elsewhere::think_for`]).
    fn think(
        &self,
        request: &crate::mid::elsewhere::Request,
        contexts: &crate::mid::Contexts,
    ) -> crate::mid::elsewhere::Answer;
}

/// The games as the settings see them: each game, and the keys it takes for itself.
pub fn catalog(games: &[&'static dyn Launch]) -> Catalog {
    Catalog::new(
        games.iter().map(|&g| g as &'static dyn AnyGame).collect(),
        games.iter().flat_map(|g| g.own_keys()).collect(),
    )
}

impl<G: TuiGame> Launch for Entry<G> {
    fn think(
        &self,
        request: &crate::mid::elsewhere::Request,
        contexts: &crate::mid::Contexts,
    ) -> crate::mid::elsewhere::Answer {
        crate::mid::elsewhere::think_for::<G>(
            request,
            &contexts.of::<G>(),
            G::set_pace,
            G::hint_text,
        )
        .map_err(|e| e.to_string())
    }

    fn setup(&self, params: Option<&str>, contexts: &crate::mid::Contexts) -> Box<dyn View> {
        Box::new(
            SetupView::<G>::new(params_or_default::<G>(params)).with_context(contexts.of::<G>()),
        )
    }

    fn start(&self, params: Option<&str>, ctx: &mut Ctx) -> Result<Box<dyn View>, Error> {
        PlayView::<G>::start(params_or_default::<G>(params), ctx)
            .map(|v| Box::new(v) as Box<dyn View>)
    }

    fn resume(&self, saved: &Unfinished, ctx: &mut Ctx) -> Result<Box<dyn View>, ResumeError> {
        let session = Session::<G>::resume_in(saved, ctx.store, ctx.contexts.of::<G>())?;
        Ok(Box::new(PlayView::new(session)))
    }

    fn discard(&self, saved: &Unfinished, ctx: &mut Ctx) -> Result<(), ResumeError> {
        Session::<G>::discard_in(saved, ctx.store, ctx.contexts.of::<G>()).map(|_| ())
    }

    fn replay(&self, record: &GameRecord) -> Result<Box<dyn View>, Error> {
        Ok(Box::new(ReplayView::new(Replay::<G>::new(record)?)))
    }

    fn puzzles(
        &self,
        record: &GameRecord,
        review: &crate::mid::review::Review,
        ctx: &Ctx,
    ) -> Result<Box<dyn View>, Error> {
        Ok(Box::new(super::puzzle::PuzzleView::<G>::new(
            record, review, ctx,
        )?))
    }

    fn practise(
        &self,
        record: &GameRecord,
        number: usize,
        ctx: &mut Ctx,
    ) -> Result<Box<dyn View>, Error> {
        let session = Session::<G>::practise_in(record, number, ctx.store, ctx.contexts.of::<G>())?;
        Ok(Box::new(PlayView::new(session)))
    }

    fn key_clashes(&self) -> Vec<String> {
        super::play::key_clashes::<G>(&G::Params::default())
    }

    fn bound_keys(&self) -> Vec<(crate::input::KeyCode, &'static str)> {
        G::bindings(&G::Params::default())
            .iter()
            .flat_map(|b| b.keys.iter().map(|&k| (k, b.help)))
            .collect()
    }

    fn own_keys(&self) -> Vec<(crate::input::KeyCode, String)> {
        let mut keys: Vec<_> = self
            .bound_keys()
            .into_iter()
            .map(|(k, what)| (k, format!("{what} in {}", G::TITLE)))
            .collect();
        keys.extend(G::typed_keys());
        keys
    }
}
