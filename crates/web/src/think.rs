//! The page's worker side of thinking elsewhere (issue 27, step 6): a Web Worker loads the same wasm module and
//! answers the play screen's think requests ([`parlor::mid::elsewhere`]) with [`answer`], off the page's thread.
//! Each game's context (Nocca's solved tables, Mastermind's trees) lives as long as the worker, so a table is
//! solved once per visit. What the worker keeps in the browser's IndexedDB goes through here too: Nocca's tables
//! ([`to_keep`]), Mastermind's trees too slow to build at once (Bulls and Cows' optimal tree: [`wanted_tree`] names
//! it, a second worker builds it with [`build_tree`], [`take_kept`] takes it), and a table the page asks for its
//! value overlay ([`fetch`]). Plain Rust: the native tests check it without a browser.

use mastermind::StrategyTree;
use parlor::games::mastermind::Mastermind;
use parlor::games::mastermind::trees::{key_tree, tree_key};
use parlor::games::nocca::Nocca;
use parlor::games::twenty48::Twenty48;
use parlor::mid::Contexts;
use parlor::mid::elsewhere::{Answer, Request, answer_to_json, think_for};
use parlor::mid::game::Game;
use parlor::tui::game::TuiGame;
use std::cell::RefCell;

thread_local! {
    /// Every game's context, made at the first request and kept for the worker's life. Mastermind's trees too slow
    /// to build at once are built by another worker and kept in IndexedDB ([`wanted_tree`]).
    static CONTEXTS: Contexts = {
        let contexts = Contexts::new(&parlor::registry::any(), None);
        contexts.of::<Mastermind>().build_elsewhere();
        contexts
    };
}

thread_local! {
    /// The boards whose tables this worker read from the browser's store or handed out to be kept there.
    static KEPT: RefCell<Vec<nocca::Dims>> = const { RefCell::new(Vec::new()) };
}

/// The key under which a board's table is kept in the browser (IndexedDB): its file name, `nocca-4x4.table`. The
/// format's version is in the bytes' header, so a newer one is refused when read.
pub fn table_key(dims: nocca::Dims) -> String {
    parlor::games::nocca::tables::kept_key(dims)
}

/// The board a key names, if it is a table's key.
fn key_dims(key: &str) -> Option<nocca::Dims> {
    key.strip_prefix("nocca-")?
        .strip_suffix(".table")?
        .parse()
        .ok()
}

/// What came of one entry kept in the browser, read at the worker's start (or a tree just built by the builder
/// worker): `Ok(what)` when its table or tree is now the worker's (no solve or build needed this visit: `4x4`,
/// `bulls-cows optimal`), else why it was refused (damaged, a newer format, another board or variant, an unknown
/// key: the page deletes it and it is made again when needed). A tree is checked whole: its checksum, then every
/// secret replayed against it.
pub fn take_kept(key: &str, bytes: &[u8]) -> Result<String, String> {
    if let Some((variant, strategy)) = key_tree(key) {
        let tree = StrategyTree::from_bytes(bytes).map_err(|e| e.to_string())?;
        if (tree.variant(), tree.strategy()) != (&variant, strategy) {
            return Err(format!(
                "{key} holds the {} tree of {}",
                tree.strategy(),
                tree.variant()
            ));
        }
        CONTEXTS.with(|c| c.of::<Mastermind>().add_built(tree));
        return Ok(format!("{variant} {strategy}"));
    }
    let dims = key_dims(key).ok_or_else(|| format!("{key}: not a kept table or tree"))?;
    let table =
        nocca::Table::from_bytes(bytes, dims, &format!("kept {key}")).map_err(|e| e.to_string())?;
    CONTEXTS.with(|c| c.of::<Nocca>().add_ready(table));
    KEPT.with(|k| k.borrow_mut().push(dims));
    Ok(dims.to_string())
}

/// The key of a tree the last answers needed and that is neither ready nor yet handed out: the worker gives it to
/// its builder (another worker, so that hints go on meanwhile, a heuristic's until the tree comes).
pub fn wanted_tree() -> Option<String> {
    CONTEXTS
        .with(|c| c.of::<Mastermind>().take_wanted())
        .map(|(variant, strategy)| tree_key(&variant, strategy))
}

/// In the builder worker: builds the tree a key names ([`wanted_tree`]) and returns its bytes (the terminal's tree
/// file, with its checksum), for the thinking worker to take ([`take_kept`]) and keep. Takes as long as the build
/// (Bulls and Cows' optimal tree: minutes).
pub fn build_tree(key: &str) -> Result<Vec<u8>, String> {
    let (variant, strategy) = key_tree(key).ok_or_else(|| format!("{key}: not a tree's key"))?;
    let tree = StrategyTree::build(&variant, strategy).map_err(|e| e.to_string())?;
    Ok(tree.to_bytes())
}

/// The builder could not build the tree of `key` (`why`): the hints say so instead of waiting for it.
pub fn tree_failed(key: &str, why: &str) {
    if let Some((variant, strategy)) = key_tree(key) {
        CONTEXTS.with(|c| {
            c.of::<Mastermind>().build_failed(
                &variant,
                strategy,
                &format!("its build failed: {why}"),
            )
        });
    }
}

/// What the page asked under `key` for its value overlay: a Nocca board's table, the one this worker holds (read
/// from IndexedDB or solved for a hint: no second solve) or else solved now, as bytes (checked by the page when
/// it takes them). A table solved here is then kept as any other ([`to_keep`]).
pub fn fetch(key: &str) -> Result<Vec<u8>, String> {
    let dims = key_dims(key).ok_or_else(|| format!("{key}: nothing to fetch under that key"))?;
    let never = std::sync::atomic::AtomicBool::new(false);
    let table = CONTEXTS.with(|c| c.of::<Nocca>().get(dims, &never))?;
    Ok(table.to_bytes())
}

/// A table this worker solved and has not yet handed out to be kept: its key, its bytes (versioned, with a
/// checksum) and the time its solve took, in milliseconds.
pub fn to_keep() -> Option<(String, Vec<u8>, f64)> {
    let tables = CONTEXTS.with(|c| c.of::<Nocca>().loaded());
    let table = tables
        .into_iter()
        .find(|t| KEPT.with(|k| !k.borrow().contains(&t.dims())))?;
    KEPT.with(|k| k.borrow_mut().push(table.dims()));
    Some((
        table_key(table.dims()),
        table.to_bytes(),
        table.elapsed().as_secs_f64() * 1000.0,
    ))
}

/// Game `G`'s answer to `request`, over the worker's context of `G`.
fn think<G: TuiGame>(request: &Request) -> Answer {
    CONTEXTS
        .with(|c| think_for::<G>(request, &c.of::<G>(), G::set_pace, G::hint_text))
        .map_err(|e| e.to_string())
}

/// The answer to one request (both as the JSON that crosses between the page and its worker): the request's game
/// rebuilt by replaying its moves, then the computer's move in notation, none, or why it could not think.
pub fn answer(request: &str) -> String {
    let request = match Request::from_json(request) {
        Ok(r) => r,
        Err(e) => return answer_to_json(0, &Err(e.to_string())),
    };
    let answer = match request.game.as_str() {
        id if id == Twenty48::ID => think::<Twenty48>(&request),
        id if id == Mastermind::ID => think::<Mastermind>(&request),
        id if id == Nocca::ID => think::<Nocca>(&request),
        other => Err(format!("no game {other} to think for")),
    };
    answer_to_json(request.id, &answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor::mid::elsewhere::answer_from_json;
    use parlor::mid::game::Purpose;
    use parlor::mid::params_or_default;
    use std::sync::atomic::AtomicBool;

    fn request<G: Game>(moves: &str, purpose: Purpose) -> Request {
        Request {
            id: 11,
            game: G::ID.into(),
            options: G::params_to_json(&params_or_default::<G>(None)),
            seed: 4,
            moves: moves.into(),
            purpose,
            pace_ms: None,
        }
    }

    /// What thinking on the same position here gives.
    fn here<G: Game>(r: &Request) -> Option<String> {
        let params = params_or_default::<G>(None);
        let context = G::Context::default();
        let state = G::new_game(&params, r.seed).unwrap();
        let mut t = G::thinker(&params, &context);
        G::think(&mut t, &state, r.purpose, &AtomicBool::new(false)).map(|m| m.to_string())
    }

    #[test]
    fn every_game_of_the_registry_is_answered() {
        // A game added to the registry without its line in `answer` fails here.
        for g in parlor::registry::any() {
            let mut r = request::<Nocca>("", Purpose::Hint);
            r.game = g.id().into();
            let (id, answer) = answer_from_json(&answer(&r.to_json())).unwrap();
            assert_eq!(id, 11);
            if let Err(why) = answer {
                assert!(!why.contains("no game"), "{}: {why}", g.id());
            }
        }
    }

    #[test]
    fn the_answer_is_the_move_thought_on_the_replayed_position() {
        let r = request::<Nocca>("", Purpose::Hint);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        let got = got.unwrap();
        assert_eq!(got.mv, here::<Nocca>(&r));
        assert!(got.mv.is_some());
        assert!(got.words.is_some(), "a hint comes with its words");
        let r = request::<Twenty48>("", Purpose::Autoplay);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got.map(|t| t.mv), Ok(here::<Twenty48>(&r)));
    }

    #[test]
    fn a_damaged_request_is_answered_with_why() {
        let (id, got) = answer_from_json(&answer("{oops")).unwrap();
        assert_eq!(id, 0);
        assert!(got.is_err());
        let mut r = request::<Nocca>("zz9", Purpose::Hint);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert!(got.is_err());
        r.game = "chess".into();
        r.moves = String::new();
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        assert_eq!(got, Err("no game chess to think for".to_string()));
    }

    fn hint_on(board: &str) -> Request {
        let params = parlor::games::nocca::Params {
            board: board.parse().unwrap(),
            ..Default::default()
        };
        let mut r = request::<Nocca>("", Purpose::Hint);
        r.options = Nocca::params_to_json(&params);
        r
    }

    #[test]
    fn a_table_solved_here_is_handed_out_once_and_a_kept_one_is_taken_without_solving() {
        // (Each test runs on its own thread: its own worker contexts.)
        assert!(to_keep().is_none());
        let (_, got) = answer_from_json(&answer(&hint_on("3x3").to_json())).unwrap();
        assert!(got.unwrap().words.unwrap().contains("(exact)"));
        let (key, bytes, ms) = to_keep().expect("the 3x3 table solved for the hint");
        assert_eq!(key, "nocca-3x3.table");
        assert!(ms >= 0.0);
        assert!(to_keep().is_none(), "handed out once");
        // A fresh worker (another thread) takes the kept bytes and answers the exact hint without solving.
        let fresh = std::thread::spawn(move || {
            let mut bad = bytes.clone();
            bad[100] ^= 1;
            assert!(take_kept(&key, &bad).unwrap_err().contains("checksum"));
            let mut newer = bytes.clone();
            newer[8] += 1;
            assert!(take_kept(&key, &newer).is_err());
            assert!(take_kept("nocca-3x4.table", &bytes).is_err());
            assert!(take_kept("tree", &bytes).is_err());
            assert_eq!(take_kept(&key, &bytes).unwrap(), "3x3");
            let tables = CONTEXTS.with(|c| c.of::<Nocca>());
            let dims = "3x3".parse().unwrap();
            assert!(tables.first_use(dims).is_none(), "nothing left to solve");
            let (_, got) = answer_from_json(&answer(&hint_on("3x3").to_json())).unwrap();
            assert!(got.unwrap().words.unwrap().contains("(exact)"));
            assert!(
                to_keep().is_none(),
                "a table read from the store is not kept again"
            );
            // The page's overlay asks for the table this worker holds: its bytes, with no solve.
            assert_eq!(fetch(&key).unwrap(), bytes);
            assert!(to_keep().is_none());
        });
        fresh.join().unwrap();
    }

    #[test]
    fn a_table_the_page_asks_for_is_solved_once_here_and_kept() {
        let got = fetch("nocca-3x3.table").unwrap();
        let dims = "3x3".parse().unwrap();
        let table = nocca::Table::from_bytes(&got, dims, "fetched").unwrap();
        let (key, kept, _) = to_keep().expect("solved for the page: kept too");
        assert_eq!((key.as_str(), &kept), ("nocca-3x3.table", &got));
        assert_eq!(fetch("nocca-3x3.table").unwrap(), got, "no second solve");
        assert!(to_keep().is_none());
        assert!(table.counts().total() > 0, "a table of positions");
        assert!(fetch("bulls-cows-optimal.pmt").is_err());
        assert!(fetch("nocca-9x9.table").is_err());
    }

    /// A Mastermind request on a variant whose tree is built elsewhere: hints are a heuristic's and say so until
    /// the built tree's bytes are taken, then they are the tree's; a damaged or foreign tree is refused.
    #[test]
    fn a_tree_wanted_is_built_by_key_taken_and_then_hints_come_from_it() {
        // Small enough for a test (840 secrets, built in the background like Bulls and Cows' 5040).
        let mut r = request::<Mastermind>("", Purpose::Hint);
        r.options =
            r#"{"variant":"custom-7-4-10-nn","role":"breaker","strategy":"optimal"}"#.into();
        Mastermind::params_from_json(&r.options).unwrap();
        assert_eq!(wanted_tree(), None);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        let words = got.unwrap().words.unwrap();
        assert!(words.contains("a heuristic guess meanwhile"), "{words}");
        let key = wanted_tree().expect("the optimal tree is wanted");
        assert_eq!(key, "custom-7-4-10-nn-optimal.pmt");
        assert_eq!(wanted_tree(), None, "handed out once");
        let bytes = build_tree(&key).unwrap();
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(take_kept(&key, &bad).unwrap_err().contains("checksum"));
        assert!(take_kept("custom-7-4-10-nn-entropy.pmt", &bytes).is_err());
        assert!(build_tree("nocca-4x4.table").is_err());
        assert_eq!(take_kept(&key, &bytes).unwrap(), "custom-7-4-10-nn optimal");
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        let words = got.unwrap().words.unwrap();
        assert!(words.contains("from the optimal tree"), "{words}");
        assert!(!words.contains("heuristic"), "{words}");
    }
}
