//! What a screen's context ([`Ctx`]) borrows, owned in one place, for the unit tests that drive a screen without
//! the app around it.

use super::Ctx;
use super::launch::Launch;
use super::theme::Theme;
use crate::mid::Contexts;
use crate::mid::coach::Reviews;
use crate::settings::Settings;
use crate::storage::Storage;

/// A store and everything else a screen's context borrows: the registry's settings and games, no keeper, no
/// animation, the monochrome theme.
pub(crate) struct Owned<S: Storage> {
    /// The store.
    pub store: S,
    /// A seed as `--seed` gives it, for the next new game.
    pub seed: Option<u64>,
    /// The line for the screen below.
    pub notice: Option<String>,
    /// The settings.
    pub settings: Settings,
    /// The games' contexts.
    pub contexts: Contexts,
    /// The games.
    pub games: Vec<&'static dyn Launch>,
    /// The reviews going on in the background.
    pub reviews: Reviews,
}

impl<S: Storage> Owned<S> {
    /// `store` with the registry's settings and `games`, `seed` given as `--seed` would.
    pub fn new(store: S, games: Vec<&'static dyn Launch>, seed: Option<u64>) -> Owned<S> {
        Owned {
            store,
            seed,
            notice: None,
            settings: crate::registry::settings(),
            contexts: Contexts::default(),
            games,
            reviews: Reviews::default(),
        }
    }

    /// Runs `f` with a context borrowing all of this.
    pub fn with<R>(&mut self, f: impl FnOnce(&mut Ctx) -> R) -> R {
        let mut ctx = Ctx {
            store: &mut self.store,
            theme: Theme::MONO,
            seed: &mut self.seed,
            games: &self.games,
            notice: &mut self.notice,
            animations: false,
            settings: &mut self.settings,
            keeper: None,
            contexts: &self.contexts,
            reviews: &mut self.reviews,
        };
        f(&mut ctx)
    }
}
