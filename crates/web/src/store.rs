//! The page's store: the core's [`MemoryStore`] answers, and after every change the whole store is written as one
//! text ([`parlor::storage::dump`]) under [`STORE_KEY`] in a key-value [`Persist`] (the browser's
//! `localStorage`). The settings file's text lives under [`SETTINGS_KEY`], kept by [`WebKeeper`].
//!
//! Refusals follow the terminal's: a text of a newer version is shown read-only and never written over; a text
//! that is not a store at all is kept under another key (never deleted) and a fresh store is started; a row that
//! does not read is set aside, kept whole. [`Storage::keeps`] is true only while the last write succeeded.

use parlor::settings::{Catalog, Keeper, Settings};
use parlor::storage::dump;
use parlor::storage::{
    Claim, ClaimError, Damaged, GameRecord, History, MemoryStore, Ranking, Scoreboard, Stats,
    Storage, Unfinished, VariantTally,
};
use std::cell::{Cell, RefCell};
use std::path::Path;
use std::rc::Rc;

/// The key the store's text is kept under.
pub const STORE_KEY: &str = "parlor.store";
/// The key the settings file's text is kept under.
pub const SETTINGS_KEY: &str = "parlor.settings";
/// The key the finished games' reviews are kept under (the coach, [`Storage::review`]): a JSON list of
/// `{id, of, engine, review}`, `of` naming the game the review is of (its game, seed and end), so that a review is
/// never read back for another game that took its number (a store started afresh).
pub const REVIEWS_KEY: &str = "parlor.reviews";

/// Where texts are kept by key (the browser's `localStorage`; a map in tests).
pub trait Persist {
    /// The text under `key`, if any.
    fn get(&self, key: &str) -> Option<String>;
    /// Keeps `value` under `key`; `Err` says why it could not (storage full, storage refused).
    fn set(&self, key: &str, value: &str) -> Result<(), String>;
}

/// What a refusal of the browser's storage means, in a phrase to stand in "Games cannot be kept in this browser
/// (…)": by the exception's name (`QuotaExceededError`, `SecurityError`), never its message or stack.
pub fn plain_refusal(name: &str) -> &'static str {
    match name {
        "QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED" => "the browser's storage is full",
        "SecurityError" => "the browser blocks this page's storage",
        _ => "the browser refused to keep it",
    }
}

/// What the store and the page share.
struct Inner {
    rows: RefCell<MemoryStore>,
    persist: Rc<dyn Persist>,
    location: String,
    /// The kept text is newer than this build: nothing is written.
    read_only: bool,
    /// Whether the last write succeeded (nothing is "saved" otherwise).
    kept: Cell<bool>,
    /// Why the last write failed.
    failure: RefCell<Option<String>>,
}

/// The page's [`Storage`]; clones share one store.
#[derive(Clone)]
pub struct WebStore(Rc<Inner>);

/// A store as opened, with what to tell the player.
pub struct Opened {
    /// The store.
    pub store: WebStore,
    /// A line for the menu (a newer store shown read-only, a damaged one kept aside, rows set aside), if any.
    pub notice: Option<String>,
}

impl WebStore {
    /// Opens the store kept in `persist` (empty when there is none). `now_ms` names the key a damaged text is kept
    /// under.
    pub fn open(persist: Rc<dyn Persist>, now_ms: i64) -> Opened {
        let location = format!("this browser's local storage ({STORE_KEY})");
        let mut notice = None;
        let mut read_only = false;
        let mut rows = MemoryStore::new();
        if let Some(text) = persist.get(STORE_KEY) {
            match dump::read(&text) {
                Ok(loaded) => {
                    if let Some(v) = loaded.newer {
                        read_only = true;
                        notice = Some(format!(
                            "The saved games were written by a newer Parlor (store version {v}; this page \
                             reads {}): they are shown, and nothing is written.",
                            dump::VERSION
                        ));
                    } else if loaded.damaged > 0 {
                        notice = Some(format!(
                            "{} damaged saved row(s) set aside (kept, not played).",
                            loaded.damaged
                        ));
                    }
                    rows = MemoryStore::from_dump(loaded.dump);
                }
                Err(why) => {
                    let aside = format!("{STORE_KEY}.corrupt-{now_ms}");
                    notice = Some(match persist.set(&aside, &text) {
                        Ok(()) => format!(
                            "The saved games could not be read ({why}): they are kept as {aside}, and a fresh \
                             store is started."
                        ),
                        Err(e) => {
                            read_only = true;
                            format!(
                                "The saved games could not be read ({why}) nor kept aside ({e}): nothing is \
                                 written over them."
                            )
                        }
                    });
                }
            }
        }
        let store = WebStore(Rc::new(Inner {
            rows: RefCell::new(rows),
            persist,
            location,
            read_only,
            kept: Cell::new(!read_only),
            failure: RefCell::new(None),
        }));
        if !read_only {
            store.write();
            if let Some(why) = store.failure() {
                let line =
                    format!("Games cannot be kept in this browser ({why}): nothing is saved.");
                notice = Some(match notice {
                    Some(n) => format!("{n} {line}"),
                    None => line,
                });
            }
        }
        Opened { store, notice }
    }

    /// Writes the whole store (not when read-only); remembers whether it worked.
    fn write(&self) {
        if self.0.read_only {
            return;
        }
        let text = dump::write(&self.0.rows.borrow().dump());
        match self.0.persist.set(STORE_KEY, &text) {
            Ok(()) => {
                self.0.kept.set(true);
                *self.0.failure.borrow_mut() = None;
            }
            Err(e) => {
                self.0.kept.set(false);
                *self.0.failure.borrow_mut() = Some(e);
            }
        }
    }

    /// Why the last write failed, if it did.
    pub fn failure(&self) -> Option<String> {
        self.0.failure.borrow().clone()
    }

    /// The whole store and the settings' text, as one store text (`parlorExport`, the Export button).
    pub fn export(&self) -> String {
        let mut all = self.0.rows.borrow().dump();
        all.settings = self.0.persist.get(SETTINGS_KEY);
        dump::write(&all)
    }

    /// Adds a store text's rows to this store as `parlor import` does (`dump::merge`: no finished game twice, a
    /// game in progress already here left as it is) and takes its settings when it has them: what was imported, or
    /// why it was refused (then nothing changes).
    pub fn import(&self, text: &str) -> Result<String, String> {
        if self.0.read_only {
            return Err("refused: the store here is read-only (written by a newer Parlor)".into());
        }
        let loaded = dump::read(text).map_err(|why| format!("refused: {why}"))?;
        if let Some(v) = loaded.newer {
            return Err(format!(
                "refused: written by a newer Parlor (store version {v}; this page reads {})",
                dump::VERSION
            ));
        }
        let settings = loaded.dump.settings.clone();
        let mut all = self.0.rows.borrow().dump();
        let done = dump::merge(&mut all, loaded.dump);
        let summary = format!(
            "import: {done}{}{}",
            if settings.is_some() {
                "; the settings taken"
            } else {
                ""
            },
            if loaded.damaged > 0 {
                format!(
                    " ({} row(s) of the text did not read: set aside)",
                    loaded.damaged
                )
            } else {
                String::new()
            },
        );
        let old = self.0.persist.get(SETTINGS_KEY);
        if let Some(s) = &settings {
            self.0
                .persist
                .set(SETTINGS_KEY, s)
                .map_err(|e| format!("refused: the settings could not be kept ({e})"))?;
        }
        let previous = self.0.rows.replace(MemoryStore::from_dump(all));
        self.write();
        if let Some(why) = self.failure() {
            // Nothing changes: the old rows and settings come back.
            self.0.rows.replace(previous);
            if settings.is_some() {
                let _ = match &old {
                    Some(s) => self.0.persist.set(SETTINGS_KEY, s),
                    None => self.0.persist.set(SETTINGS_KEY, ""),
                };
            }
            self.write();
            return Err(format!("refused: the store could not be kept ({why})"));
        }
        Ok(summary)
    }
}

/// What a review kept under [`REVIEWS_KEY`] is of: the game, its seed and its end, beside its number.
fn review_of(r: &GameRecord) -> String {
    format!("{} {} {}", r.game, r.seed, r.ended_at)
}

/// One review kept under [`REVIEWS_KEY`].
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptReview {
    id: i64,
    of: String,
    engine: String,
    review: String,
}

impl WebStore {
    /// The reviews kept under [`REVIEWS_KEY`] (none when there are none or the text does not read: the games are
    /// reviewed again, and the damaged text is written over only when a review is kept).
    fn reviews(&self) -> Vec<KeptReview> {
        self.0
            .persist
            .get(REVIEWS_KEY)
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }
}

/// Forwards a reading method to the rows.
macro_rules! read {
    ($self:ident . $m:ident ( $($a:expr),* )) => {
        $self.0.rows.borrow().$m($($a),*)
    };
}

/// Forwards a writing method to the rows, then writes the store. When that write fails the rows go back to what
/// they were (what is kept), and the `Err` says why: nothing is called saved that is not, and the next write of the
/// game (after its next move) finds the rows it left and tries again.
macro_rules! write {
    ($self:ident . $m:ident ( $($a:expr),* )) => {{
        let before = $self.0.rows.borrow().dump();
        let out = $self.0.rows.borrow_mut().$m($($a),*)?;
        $self.write();
        match $self.failure() {
            Some(why) => {
                $self.0.rows.replace(MemoryStore::from_dump(before));
                Err(anyhow::anyhow!("{why}"))
            }
            None => Ok(out),
        }
    }};
}

impl Storage for WebStore {
    fn location(&self) -> &str {
        &self.0.location
    }

    fn dir(&self) -> Option<&Path> {
        None
    }

    fn read_only(&self) -> bool {
        self.0.read_only
    }

    fn keeps(&self) -> bool {
        !self.0.read_only && self.0.kept.get()
    }

    fn claim(&self, session: &str) -> Result<Claim, ClaimError> {
        read!(self.claim(session))
    }

    fn release_claim(&self, claim: Claim) {
        read!(self.release_claim(claim))
    }

    fn save_unfinished(&self, u: &Unfinished) -> anyhow::Result<()> {
        if self.0.read_only {
            anyhow::bail!("{} is read-only: nothing is written", self.0.location);
        }
        write!(self.save_unfinished(u))
    }

    fn save_game(&self, u: &Unfinished, held: Option<&str>) -> anyhow::Result<bool> {
        if self.0.read_only {
            anyhow::bail!("{} is read-only: nothing is written", self.0.location);
        }
        write!(self.save_game(u, held))
    }

    fn unfinished(&self, game: Option<&str>) -> anyhow::Result<Vec<Unfinished>> {
        read!(self.unfinished(game))
    }

    fn unfinished_session(&self, session: &str) -> anyhow::Result<Option<Unfinished>> {
        read!(self.unfinished_session(session))
    }

    fn discard_unfinished(&self, session: &str) -> anyhow::Result<()> {
        write!(self.discard_unfinished(session))
    }

    fn discard_game(&self, session: &str, held: &str) -> anyhow::Result<()> {
        write!(self.discard_game(session, held))
    }

    fn set_aside(&mut self, u: &Unfinished, reason: &str) -> anyhow::Result<()> {
        write!(self.set_aside(u, reason))
    }

    fn set_aside_count(&self) -> anyhow::Result<i64> {
        read!(self.set_aside_count())
    }

    fn held_moves(&self, session: &str) -> anyhow::Result<Option<String>> {
        read!(self.held_moves(session))
    }

    fn finish_game(
        &mut self,
        session: &str,
        held: Option<&str>,
        record: &GameRecord,
    ) -> anyhow::Result<Option<i64>> {
        if self.0.read_only {
            anyhow::bail!("{} is read-only: nothing is written", self.0.location);
        }
        write!(self.finish_game(session, held, record))
    }

    fn add_once(&mut self, record: &GameRecord) -> anyhow::Result<(i64, bool)> {
        if self.0.read_only {
            anyhow::bail!("{} is read-only: nothing is written", self.0.location);
        }
        // A failed write is no error here: the importer reads `keeps` and says the game was NOT kept.
        let out = self.0.rows.borrow_mut().add_once(record)?;
        self.write();
        Ok(out)
    }

    fn history(&self, game: Option<&str>, limit: usize) -> anyhow::Result<History> {
        read!(self.history(game, limit))
    }

    fn unknown_game(&self) -> anyhow::Result<Damaged> {
        read!(self.unknown_game())
    }

    fn best(&self, board: Scoreboard, limit: usize) -> anyhow::Result<Vec<GameRecord>> {
        read!(self.best(board, limit))
    }

    fn variants(&self, game: &str) -> anyhow::Result<Vec<String>> {
        read!(self.variants(game))
    }

    fn variant_options(&self, game: &str, variant: &str) -> anyhow::Result<Option<String>> {
        read!(self.variant_options(game, variant))
    }

    fn rank(&self, board: Scoreboard, score: i64) -> anyhow::Result<usize> {
        read!(self.rank(board, score))
    }

    fn best_score(&self, board: Scoreboard) -> anyhow::Result<Option<i64>> {
        read!(self.best_score(board))
    }

    fn game(&self, id: i64) -> anyhow::Result<Option<GameRecord>> {
        read!(self.game(id))
    }

    fn review(&self, id: i64, engine: &str) -> Option<String> {
        let of = review_of(&self.game(id).ok()??);
        self.reviews()
            .into_iter()
            .find(|k| k.id == id && k.engine == engine && k.of == of)
            .map(|k| k.review)
    }

    fn save_review(&self, id: i64, engine: &str, json: &str) -> anyhow::Result<()> {
        if self.0.read_only {
            anyhow::bail!("{} is read-only: nothing is written", self.0.location);
        }
        let Some(record) = self.game(id)? else {
            anyhow::bail!("no finished game #{id} to keep a review of");
        };
        let of = review_of(&record);
        let mut all = self.reviews();
        all.retain(|k| !(k.id == id && k.engine == engine));
        all.push(KeptReview {
            id,
            of,
            engine: engine.to_string(),
            review: json.to_string(),
        });
        let text = serde_json::to_string(&all)?;
        self.0
            .persist
            .set(REVIEWS_KEY, &text)
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn stats(&self, game: &str) -> anyhow::Result<Vec<Stats>> {
        read!(self.stats(game))
    }

    fn tally(
        &self,
        game: &str,
        ranking: &dyn Fn(&str) -> Ranking,
    ) -> anyhow::Result<Vec<VariantTally>> {
        read!(self.tally(game, ranking))
    }

    fn recent_clean(
        &self,
        game: &str,
        variant: &str,
        limit: usize,
    ) -> anyhow::Result<Vec<GameRecord>> {
        read!(self.recent_clean(game, variant, limit))
    }
}

/// The settings kept as the settings file's text under [`SETTINGS_KEY`].
pub struct WebKeeper {
    persist: Rc<dyn Persist>,
}

impl WebKeeper {
    /// The settings kept in `persist`.
    pub fn new(persist: Rc<dyn Persist>) -> WebKeeper {
        WebKeeper { persist }
    }

    /// The settings kept (the defaults when there are none), with the mistakes of their text, each with its line.
    pub fn load(&self, catalog: &Catalog) -> (Settings, Vec<String>) {
        match self.persist.get(SETTINGS_KEY) {
            Some(text) => {
                let (settings, problems) = parlor::settings::file::parse(&text, catalog);
                let problems = problems
                    .into_iter()
                    .map(|(line, why)| format!("line {line}: {why}"))
                    .collect();
                (settings, problems)
            }
            None => (Settings::new(catalog), Vec::new()),
        }
    }
}

impl Keeper for WebKeeper {
    fn location(&self) -> String {
        format!("this browser's local storage ({SETTINGS_KEY})")
    }

    fn save(&self, settings: &Settings) -> Result<String, parlor::mid::error::Error> {
        let text = self
            .persist
            .get(SETTINGS_KEY)
            .and_then(|old| parlor::settings::file::merge(settings, &old))
            .unwrap_or_else(|| parlor::settings::file::render(settings));
        self.persist
            .set(SETTINGS_KEY, &text)
            .map(|()| format!("saved in {}", self.location()))
            .map_err(|e| {
                parlor::mid::error::Error::Storage(format!("cannot keep the settings: {e}"))
            })
    }
}

/// A [`Persist`] in memory, for tests: `full` makes every write fail, as a full browser storage does.
#[derive(Default)]
pub struct MapPersist {
    /// The texts by key.
    pub map: RefCell<std::collections::BTreeMap<String, String>>,
    /// Whether writes fail.
    pub full: Cell<bool>,
}

impl Persist for MapPersist {
    fn get(&self, key: &str) -> Option<String> {
        self.map.borrow().get(key).cloned()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        if self.full.get() {
            return Err("the browser's storage is full".into());
        }
        self.map.borrow_mut().insert(key.into(), value.into());
        Ok(())
    }
}

#[cfg(test)]
mod tests;
