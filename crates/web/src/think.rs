//! The page's worker side of thinking elsewhere (issue 27, step 6): a Web Worker loads the same wasm module and
//! answers the play screen's think requests ([`parlor::mid::elsewhere`]) with [`answer`], off the page's thread.
//! Each game's context (a table of perfect play, a strategy tree) lives as long as the worker. What is too slow to
//! make between two answers is made by the page's builder worker, which outlives a thinking worker ended to stop a
//! think: the things the registry lists as kept ([`parlor::registry::KEPT`], [`parlor::mid::kept`]). [`wanted`]
//! names what the answers need, the builder makes it with [`build`], the thinking worker of the moment takes it
//! with [`take_kept`] (also what it reads from IndexedDB at its start) and keeps it there. Meanwhile a hint is a
//! search's or a heuristic's and says so, and a move that must not be made without it waits ([`waits_for`])
//! without blocking the worker. The page's value overlay asks for a table with [`fetch`]. Plain Rust: the native
//! tests check it without a browser; it names no game (each game's part is its [`parlor::mid::kept::Kept`]).

use parlor::mid::Contexts;
use parlor::mid::elsewhere::{Answer, Request, answer_to_json};
use parlor::mid::kept::owner;
use parlor::registry::KEPT;

thread_local! {
    /// Every game's context, made at the first request and kept for the worker's life, each told to leave what is
    /// slow to make to the builder worker ([`wanted`]).
    static CONTEXTS: Contexts = {
        let contexts = Contexts::new(&parlor::registry::any(), None);
        for kept in KEPT {
            kept.make_elsewhere(&contexts);
        }
        contexts
    };
}

/// What came of one entry kept in the browser, read at the worker's start (or a table or tree just made by the
/// builder worker): `Ok(what)` when it is now the worker's (no solve or build needed this visit: `4x4`,
/// `bulls-cows optimal`), else why it was refused (damaged, a newer format, another board or variant, an unknown
/// key: the page deletes it and it is made again when needed).
pub fn take_kept(key: &str, bytes: &[u8]) -> Result<String, String> {
    let kept = owner(KEPT, key)?;
    CONTEXTS.with(|c| kept.take(c, key, bytes))
}

/// The key of a table or tree the last answers needed and that is neither ready nor yet handed out: the worker
/// asks the page for it, and the page gives it to its builder worker (once, however many workers want it).
pub fn wanted() -> Option<String> {
    CONTEXTS.with(|c| KEPT.iter().find_map(|k| k.wanted(c)))
}

/// In the builder worker: makes the table or tree a key names ([`wanted`]) and returns its bytes (the terminal's
/// file, with its checksum), for the thinking worker to take ([`take_kept`]) and keep. A solve tells `progress`
/// how far it has got (`ply 7, 40%`) each time that changes. Takes as long as the making (a 4x4 table: tens of
/// seconds; Bulls and Cows' optimal tree: minutes).
pub fn build(key: &str, progress: &mut dyn FnMut(&str)) -> Result<Vec<u8>, String> {
    owner(KEPT, key)?.build(key, progress)
}

/// The builder could not make the table or tree of `key` (`why`): the hints and the moves that waited for it say
/// so instead of waiting.
pub fn build_failed(key: &str, why: &str) {
    if let Ok(kept) = owner(KEPT, key) {
        CONTEXTS.with(|c| kept.build_failed(c, key, why));
    }
}

/// The key of the table a request must wait for (a perfect player's move on a board whose table the builder is
/// solving, not a hint, which searches meanwhile). The worker holds such a request, without blocking, until the
/// table comes ([`take_kept`]) or fails ([`build_failed`]), then answers it ([`answer`]); the table is marked
/// wanted ([`wanted`]) if it was not. `None`: answer at once.
pub fn waits_for(request: &str) -> Option<String> {
    let request = Request::from_json(request).ok()?;
    CONTEXTS.with(|c| KEPT.iter().find_map(|k| k.waits_for(c, &request)))
}

/// What the page asked under `key` for its value overlay: a table, the one this worker holds (read from IndexedDB
/// or handed over by the builder), as bytes (checked by the page when it takes them); `None` while the builder
/// makes it (asked of it if it was not: [`wanted`]); an error says why it cannot be had.
pub fn fetch(key: &str) -> Result<Option<Vec<u8>>, String> {
    let kept = owner(KEPT, key).map_err(|_| format!("{key}: nothing to fetch under that key"))?;
    CONTEXTS.with(|c| kept.fetch(c, key))
}

/// The answer to one request (both as the JSON that crosses between the page and its worker): the request's game
/// rebuilt by replaying its moves, then the computer's move in notation, none, or why it could not think.
pub fn answer(request: &str) -> String {
    let request = match Request::from_json(request) {
        Ok(r) => r,
        Err(e) => return answer_to_json(0, &Err(e.to_string())),
    };
    let answer: Answer = match parlor::registry::find(&request.game) {
        Some(game) => CONTEXTS.with(|c| game.think(&request, c)),
        None => Err(format!("no game {} to think for", request.game)),
    };
    answer_to_json(request.id, &answer)
}

#[cfg(test)]
mod tests {
    //! The worker's dispatch, for every game of the registry; each game's own kept things are tested in its
    //! folder (`parlor::games::*::kept_tests`).
    use super::*;
    use parlor::mid::elsewhere::answer_from_json;
    use parlor::mid::game::Purpose;

    /// A request of game `id` at its default parameters, seed 4, with `moves` played.
    fn request(id: &str, moves: &str, purpose: Purpose) -> Request {
        let contexts = Contexts::new(&parlor::registry::any(), None);
        let game = parlor::registry::find(id).unwrap();
        Request {
            id: 11,
            game: id.into(),
            options: game.params_from(&[], &contexts).json,
            seed: 4,
            moves: moves.into(),
            purpose,
            pace_ms: None,
        }
    }

    #[test]
    fn every_game_is_answered_with_the_move_thought_here_on_the_replayed_position() {
        for g in parlor::registry::any() {
            for purpose in [Purpose::Hint, Purpose::Autoplay] {
                let r = request(g.id(), "", purpose);
                let (id, got) = answer_from_json(&answer(&r.to_json())).unwrap();
                assert_eq!(id, 11);
                let here = Contexts::new(&parlor::registry::any(), None);
                let expected = parlor::registry::find(g.id()).unwrap().think(&r, &here);
                assert_eq!(
                    got.map(|a| a.mv),
                    expected.map(|a| a.mv),
                    "{} {purpose:?}",
                    g.id()
                );
            }
        }
    }

    #[test]
    fn a_damaged_request_is_answered_with_why() {
        let (id, got) = answer_from_json(&answer("{oops")).unwrap();
        assert_eq!(id, 0);
        assert!(got.is_err());
        for g in parlor::registry::any() {
            let r = request(g.id(), "zz9!", Purpose::Hint);
            let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
            assert!(got.is_err(), "{}: {got:?}", g.id());
        }
        let mut r = request(parlor::registry::any()[0].id(), "", Purpose::Hint);
        r.game = "chess".into();
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got, Err("no game chess to think for".to_string()));
        assert_eq!(waits_for("{oops"), None);
        assert_eq!(
            waits_for(&r.to_json()),
            None,
            "no game: nothing to wait for"
        );
    }

    #[test]
    fn a_key_nothing_is_kept_under_is_refused_by_every_entry() {
        for key in ["chess.table", "tree", ""] {
            assert!(take_kept(key, b"bytes").unwrap_err().contains(key));
            assert!(build(key, &mut |_| {}).is_err());
            assert!(fetch(key).unwrap_err().contains("nothing to fetch"));
            build_failed(key, "no reason");
        }
        assert_eq!(wanted(), None, "nothing asked, nothing wanted");
    }
}
