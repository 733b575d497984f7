//! The page's worker side of thinking elsewhere (issue 27, step 6): a Web Worker loads the same wasm module and
//! answers the play screen's think requests ([`parlor::mid::elsewhere`]) with [`answer`], off the page's thread.
//! Each game's context (Nocca's tables, Mastermind's trees) lives as long as the worker. What is too slow to make
//! between two answers is made by the page's builder worker, which outlives a thinking worker ended to stop a think:
//! Nocca's tables (the 4x4 one: tens of seconds) and Mastermind's trees too slow to build at once (Bulls and Cows'
//! optimal tree: minutes). [`wanted`] names what the answers need, the builder makes it with [`build`], the
//! thinking worker of the moment takes it with [`take_kept`] (also what it reads from IndexedDB at its start) and
//! keeps it there. Meanwhile a hint is a search's or a heuristic's and says so, and a perfect player's move waits
//! for its table ([`waits_for`]) without blocking the worker. The page's value overlay asks for a table with
//! [`fetch`]. Plain Rust: the native tests check it without a browser.

use mastermind::StrategyTree;
use parlor::games::mastermind::Mastermind;
use parlor::games::mastermind::trees::{key_tree, tree_key};
use parlor::games::nocca::Nocca;
use parlor::games::nocca::tables::{progress_text, solves_on_first_use};
use parlor::mid::Contexts;
use parlor::mid::elsewhere::{Answer, Request, answer_to_json};
use parlor::mid::game::{Game, Purpose};

thread_local! {
    /// Every game's context, made at the first request and kept for the worker's life. Nocca's tables and
    /// Mastermind's trees too slow to build at once are made by the page's builder worker ([`wanted`]).
    static CONTEXTS: Contexts = {
        let contexts = Contexts::new(&parlor::registry::any(), None);
        contexts.of::<Mastermind>().build_elsewhere();
        contexts.of::<Nocca>().solve_elsewhere();
        contexts
    };
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

/// What came of one entry kept in the browser, read at the worker's start (or a table or tree just made by the
/// builder worker): `Ok(what)` when its table or tree is now the worker's (no solve or build needed this visit:
/// `4x4`, `bulls-cows optimal`), else why it was refused (damaged, a newer format, another board or variant, an
/// unknown key: the page deletes it and it is made again when needed). A table is checked by its checksum, a tree
/// whole: its checksum, then every secret replayed against it.
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
    Ok(dims.to_string())
}

/// The key of a table or tree the last answers needed and that is neither ready nor yet handed out: the worker
/// asks the page for it, and the page gives it to its builder worker (once, however many workers want it).
pub fn wanted() -> Option<String> {
    CONTEXTS.with(|c| {
        c.of::<Mastermind>()
            .take_wanted()
            .map(|(variant, strategy)| tree_key(&variant, strategy))
            .or_else(|| c.of::<Nocca>().take_wanted().map(table_key))
    })
}

/// In the builder worker: makes the table or tree a key names ([`wanted`]) and returns its bytes (the terminal's
/// file, with its checksum), for the thinking worker to take ([`take_kept`]) and keep. A table's solve tells
/// `progress` how far it has got (`ply 7, 40%`) each time that changes. Takes as long as the solve or build (the
/// 4x4 table: tens of seconds; Bulls and Cows' optimal tree: minutes).
pub fn build(key: &str, progress: &mut dyn FnMut(&str)) -> Result<Vec<u8>, String> {
    if let Some((variant, strategy)) = key_tree(key) {
        let tree = StrategyTree::build(&variant, strategy).map_err(|e| e.to_string())?;
        return Ok(tree.to_bytes());
    }
    let dims = key_dims(key)
        .filter(|d| solves_on_first_use(*d))
        .ok_or_else(|| format!("{key}: not a table or tree the page can make"))?;
    let mut said = String::new();
    let table = nocca::Table::solve(dims, &nocca::SolveOptions::default(), &mut |p| {
        let text = progress_text(p);
        if text != said {
            progress(&text);
            said = text;
        }
    })
    .map_err(|e| format!("solving {dims}: {e}"))?;
    Ok(table.to_bytes())
}

/// The builder could not make the table or tree of `key` (`why`): the hints and the perfect level say so instead
/// of waiting for it.
pub fn build_failed(key: &str, why: &str) {
    let why = format!("its build failed: {why}");
    if let Some((variant, strategy)) = key_tree(key) {
        CONTEXTS.with(|c| c.of::<Mastermind>().build_failed(&variant, strategy, &why));
    } else if let Some(dims) = key_dims(key) {
        CONTEXTS.with(|c| {
            c.of::<Nocca>()
                .build_failed(dims, &format!("the {dims} table: {why}"))
        });
    }
}

/// The key of the table a request must wait for: a move of Nocca's perfect level (an opponent's, autoplay's or a
/// watched one's; not a hint, which searches meanwhile) on a board whose table is being solved by the builder and
/// has not come. The worker holds such a request, without blocking, until the table comes ([`take_kept`]) or
/// fails ([`build_failed`]), then answers it ([`answer`]); the table is marked wanted ([`wanted`]) if it was not.
/// `None`: answer at once.
pub fn waits_for(request: &str) -> Option<String> {
    let request = Request::from_json(request).ok()?;
    if request.game != Nocca::ID || request.purpose == Purpose::Hint {
        return None;
    }
    let params = Nocca::params_from_json(&request.options).ok()?;
    if params.level != nocca::Opponent::Perfect {
        return None;
    }
    let tables = CONTEXTS.with(|c| c.of::<Nocca>());
    if tables.ready(params.board).is_some() {
        return None;
    }
    tables.prepare(params.board);
    tables
        .solving_elsewhere(params.board)
        .then(|| table_key(params.board))
}

/// What the page asked under `key` for its value overlay: a Nocca board's table, the one this worker holds (read
/// from IndexedDB or handed over by the builder), as bytes (checked by the page when it takes them); `None` while
/// the builder solves it (asked of it if it was not: [`wanted`]); an error says why it cannot be had.
pub fn fetch(key: &str) -> Result<Option<Vec<u8>>, String> {
    let dims = key_dims(key).ok_or_else(|| format!("{key}: nothing to fetch under that key"))?;
    let never = std::sync::atomic::AtomicBool::new(false);
    let tables = CONTEXTS.with(|c| c.of::<Nocca>());
    match tables.get(dims, &never) {
        Ok(table) => Ok(Some(table.to_bytes())),
        Err(_) if tables.solving_elsewhere(dims) => Ok(None),
        Err(why) => Err(why),
    }
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
    use super::*;
    use parlor::games::twenty48::Twenty48;
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
        // A game of the registry that does not answer a think request fails here.
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

    fn on(board: &str, purpose: Purpose) -> Request {
        let params = parlor::games::nocca::Params {
            board: board.parse().unwrap(),
            level: nocca::Opponent::Perfect,
            ..Default::default()
        };
        let mut r = request::<Nocca>("", purpose);
        r.options = Nocca::params_to_json(&params);
        r
    }

    fn words(r: &Request) -> String {
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        got.unwrap().words.unwrap()
    }

    /// A board's table is solved by the builder, not by the thinking worker: asked for once, hints searching
    /// meanwhile (and saying so, with the solve's progress as heard), the perfect level's move held until the
    /// table comes; once taken, the hints are exact and the perfect move is the table's.
    #[test]
    fn a_table_is_wanted_once_built_elsewhere_and_until_it_comes_hints_search_and_perfect_waits() {
        // (Each test runs on its own thread: its own worker contexts.)
        let key = "nocca-3x3.table";
        let hint = on("3x3", Purpose::Hint);
        let opponent = on("3x3", Purpose::Opponent);
        assert_eq!(waits_for(&hint.to_json()), None, "a hint never waits");
        assert_eq!(wanted(), None);
        let said = words(&hint);
        assert!(
            said.contains("The 3x3 table is being solved: a search's move meanwhile"),
            "{said}"
        );
        assert!(!said.contains("(exact)"), "{said}");
        assert_eq!(wanted().as_deref(), Some(key));
        assert_eq!(wanted(), None, "wanted once");
        assert_eq!(waits_for(&opponent.to_json()).as_deref(), Some(key));
        assert_eq!(wanted(), None, "the move waiting does not ask again");
        assert_eq!(fetch(key), Ok(None), "the overlay waits too");
        parlor::mid::elsewhere::set_progress(key, "ply 5, 60%");
        assert!(words(&hint).contains("being solved (ply 5, 60%)"));
        parlor::mid::elsewhere::set_progress(key, "");
        // Another level's move, and a move on another board once its table is in, do not wait.
        let mut beginner = opponent.clone();
        beginner.options = beginner.options.replace("perfect", "beginner");
        assert!(
            beginner.options.contains("beginner"),
            "{}",
            beginner.options
        );
        assert_eq!(waits_for(&beginner.to_json()), None);

        // The builder solves it, saying how far it has got; the worker checks and takes it.
        let mut heard = Vec::new();
        let bytes = build(key, &mut |p| heard.push(p.to_string())).unwrap();
        assert!(heard.iter().any(|p| p.starts_with("ply ")), "{heard:?}");
        assert!(heard.windows(2).all(|w| w[0] != w[1]), "each change once");
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(take_kept(key, &bad).unwrap_err().contains("checksum"));
        assert_eq!(waits_for(&opponent.to_json()).as_deref(), Some(key));
        assert_eq!(take_kept(key, &bytes).unwrap(), "3x3");
        assert_eq!(waits_for(&opponent.to_json()), None);
        assert!(words(&hint).contains("(exact)"));
        assert_eq!(
            fetch(key),
            Ok(Some(bytes.clone())),
            "the same table for the overlay"
        );
        // The perfect move is one of the table's best.
        let (_, got) = answer_from_json(&answer(&opponent.to_json())).unwrap();
        let mv = got.unwrap().mv.expect("the perfect level's first move");
        let table = nocca::Table::from_bytes(&bytes, "3x3".parse().unwrap(), "test").unwrap();
        let rebuilt =
            parlor::mid::session::rebuild::<Nocca>(Nocca::ID, &opponent.options, opponent.seed, "")
                .unwrap();
        let pos = rebuilt.state.position();
        let best: Vec<String> = table
            .best_moves(pos)
            .unwrap()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert!(best.contains(&mv), "{mv} is not among the best {best:?}");
        assert!(
            best.len() < pos.legal_moves().len(),
            "some move is worse: the check means something"
        );

        // A fresh worker (another thread) takes the kept bytes at its start: nothing wanted, nothing waits.
        let fresh = std::thread::spawn(move || {
            assert!(take_kept("nocca-3x4.table", &bytes).is_err());
            assert!(take_kept("tree", &bytes).is_err());
            assert_eq!(take_kept(key, &bytes).unwrap(), "3x3");
            assert_eq!(waits_for(&on("3x3", Purpose::Opponent).to_json()), None);
            assert!(words(&on("3x3", Purpose::Hint)).contains("(exact)"));
            assert_eq!(wanted(), None);
        });
        fresh.join().unwrap();
    }

    #[test]
    fn a_failed_solve_stops_the_waiting_and_hints_search_without_saying_it_is_solved() {
        let key = "nocca-3x4.table";
        let opponent = on("3x4", Purpose::Opponent);
        assert_eq!(waits_for(&opponent.to_json()).as_deref(), Some(key));
        assert_eq!(wanted().as_deref(), Some(key));
        build_failed(key, "out of memory");
        assert_eq!(waits_for(&opponent.to_json()), None, "answered now");
        let (_, got) = answer_from_json(&answer(&opponent.to_json())).unwrap();
        let got = got.unwrap();
        assert_eq!(got.mv, None, "no perfect move without the table");
        // Said as the page shows it (the page's own tables do not know the builder's failure).
        assert_eq!(
            got.words.as_deref(),
            Some(
                "the computer cannot play perfectly: the 3x4 table could not be made (its build failed: \
                 out of memory)"
            )
        );
        let said = words(&on("3x4", Purpose::Hint));
        assert!(!said.contains("being solved"), "{said}");
        assert!(fetch(key).unwrap_err().contains("out of memory"));
        assert_eq!(wanted(), None, "not asked again");
    }

    #[test]
    fn only_the_small_boards_tables_and_known_trees_are_built_or_fetched() {
        assert!(build("nocca-6x5.table", &mut |_| {}).is_err());
        assert!(build("nocca-9x9.table", &mut |_| {}).is_err());
        assert!(build("chess.table", &mut |_| {}).is_err());
        assert!(fetch("bulls-cows-optimal.pmt").is_err());
        assert!(fetch("nocca-9x9.table").is_err());
        assert_eq!(waits_for("{oops"), None);
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
        assert_eq!(wanted(), None);
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        let words = got.unwrap().words.unwrap();
        assert!(words.contains("a heuristic guess meanwhile"), "{words}");
        let key = wanted().expect("the optimal tree is wanted");
        assert_eq!(key, "custom-7-4-10-nn-optimal.pmt");
        assert_eq!(wanted(), None, "handed out once");
        assert_eq!(waits_for(&r.to_json()), None, "a hint never waits");
        let bytes = build(&key, &mut |_| {}).unwrap();
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(take_kept(&key, &bad).unwrap_err().contains("checksum"));
        assert!(take_kept("custom-7-4-10-nn-entropy.pmt", &bytes).is_err());
        assert_eq!(take_kept(&key, &bytes).unwrap(), "custom-7-4-10-nn optimal");
        let (_, got) = answer_from_json(&answer(&r.to_json())).unwrap();
        let words = got.unwrap().words.unwrap();
        assert!(words.contains("from the optimal tree"), "{words}");
        assert!(!words.contains("heuristic"), "{words}");
    }
}
