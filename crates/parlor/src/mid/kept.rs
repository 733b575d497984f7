//! What a game makes slowly and keeps, when it is made elsewhere than where the game thinks (a table of perfect
//! play, a strategy tree): in the browser, the page's builder worker makes it, the thinking worker takes its bytes,
//! and the page keeps them in IndexedDB under a key (the terminal's file name: `nocca-4x4.table`). A game that
//! has such things implements [`Kept`] and the registry lists it; the page's worker reaches them only through
//! that list, so it names no game.
//!
//! The protocol, as the page runs it: the thinking worker's context is told to leave its slow things to a builder
//! ([`Kept::make_elsewhere`]); an answer that needs one says so meanwhile (a search's or a heuristic's move) and
//! marks it wanted ([`Kept::wanted`]); the builder makes it ([`Kept::build`]) and the thinking worker takes it
//! ([`Kept::take`]), or hears that it failed ([`Kept::build_failed`]). A request that must not be answered without
//! it is held meanwhile ([`Kept::waits_for`]); the page may ask for its bytes ([`Kept::fetch`]).

use crate::mid::Contexts;
use crate::mid::elsewhere::Request;

/// A game's things made slowly and kept under a key (see the module's doc).
pub trait Kept: Sync {
    /// Whether `key` names one of this game's kept things (the other methods taking a key are asked only then).
    fn owns(&self, key: &str) -> bool;

    /// Has this game's context among `contexts` leave what is slow to make to a builder: an answer needing it
    /// marks it wanted and plays meanwhile, instead of making it.
    fn make_elsewhere(&self, contexts: &Contexts);

    /// Takes the bytes kept under `key` (read from the browser's store, or just made by the builder) into the
    /// context, checked whole: what they are, for a status line (`4x4`), or why they were refused (damaged, a
    /// newer format, another board or variant than the key says).
    fn take(&self, contexts: &Contexts, key: &str, bytes: &[u8]) -> Result<String, String>;

    /// The key of a thing the last answers needed and nobody makes yet (each handed out once).
    fn wanted(&self, contexts: &Contexts) -> Option<String>;

    /// Makes the thing `key` names and returns its bytes (a file's, with its checksum), telling `progress` how far
    /// it has got each time that changes. Refuses what is too big to make here. Takes as long as the making.
    fn build(&self, key: &str, progress: &mut dyn FnMut(&str)) -> Result<Vec<u8>, String>;

    /// The builder could not make the thing `key` names (`why`): the answers say so instead of waiting for it.
    fn build_failed(&self, contexts: &Contexts, key: &str, why: &str);

    /// The key of the thing `request` (of any game: a request of another game's waits for nothing here) must wait
    /// for before it is answered, none to answer at once. Marks it wanted if it was not.
    fn waits_for(&self, _contexts: &Contexts, _request: &Request) -> Option<String> {
        None
    }

    /// The bytes kept under `key`, for the page: `None` while the builder makes them (asked of it if it was not);
    /// an error says why they cannot be had.
    fn fetch(&self, _contexts: &Contexts, key: &str) -> Result<Option<Vec<u8>>, String> {
        Err(format!("{key}: nothing to fetch under that key"))
    }
}

/// The one of `kept` that owns `key`, or why none does.
pub fn owner<'a>(kept: &[&'a dyn Kept], key: &str) -> Result<&'a dyn Kept, String> {
    kept.iter()
        .copied()
        .find(|k| k.owns(key))
        .ok_or_else(|| format!("{key}: nothing is kept under that key"))
}
