//! The page's worker side of thinking elsewhere (issue 27, step 6): a Web Worker loads the same wasm module and
//! answers the play screen's think requests ([`parlor::mid::elsewhere`]) with [`answer`], off the page's thread.
//! Each game's context (Nocca's solved tables, Mastermind's trees) lives as long as the worker, so a table is
//! solved once per visit. Plain Rust: the native tests check it without a browser.

use parlor::games::mastermind::Mastermind;
use parlor::games::nocca::Nocca;
use parlor::games::twenty48::Twenty48;
use parlor::mid::Contexts;
use parlor::mid::elsewhere::{Answer, Request, answer_to_json, think_for};
use parlor::mid::game::Game;
use parlor::tui::game::TuiGame;
use std::cell::RefCell;

thread_local! {
    /// Every game's context, made at the first request and kept for the worker's life.
    static CONTEXTS: Contexts = Contexts::new(&parlor::registry::any(), None);
}

thread_local! {
    /// The boards whose tables this worker read from the browser's store or handed out to be kept there.
    static KEPT: RefCell<Vec<nocca::Dims>> = const { RefCell::new(Vec::new()) };
}

/// The key under which a board's table is kept in the browser (IndexedDB): its file name, `nocca-4x4.table`. The
/// format's version is in the bytes' header, so a newer one is refused when read.
pub fn table_key(dims: nocca::Dims) -> String {
    nocca::Table::file_name(dims)
}

/// The board a key names, if it is a table's key.
fn key_dims(key: &str) -> Option<nocca::Dims> {
    key.strip_prefix("nocca-")?
        .strip_suffix(".table")?
        .parse()
        .ok()
}

/// What came of one entry kept in the browser, read at the worker's start: `Ok(board)` when its table is now the
/// worker's (no solve needed this visit), else why it was refused (damaged, a newer format, another board, an
/// unknown key: the page deletes it and the table is solved again when needed).
pub fn take_kept(key: &str, bytes: &[u8]) -> Result<nocca::Dims, String> {
    let dims = key_dims(key).ok_or_else(|| format!("{key}: not a kept table"))?;
    let table =
        nocca::Table::from_bytes(bytes, dims, &format!("kept {key}")).map_err(|e| e.to_string())?;
    CONTEXTS.with(|c| c.of::<Nocca>().add_ready(table));
    KEPT.with(|k| k.borrow_mut().push(dims));
    Ok(dims)
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
            assert_eq!(take_kept(&key, &bytes).unwrap().to_string(), "3x3");
            let tables = CONTEXTS.with(|c| c.of::<Nocca>());
            let dims = "3x3".parse().unwrap();
            assert!(tables.first_use(dims).is_none(), "nothing left to solve");
            let (_, got) = answer_from_json(&answer(&hint_on("3x3").to_json())).unwrap();
            assert!(got.unwrap().words.unwrap().contains("(exact)"));
            assert!(
                to_keep().is_none(),
                "a table read from the store is not kept again"
            );
        });
        fresh.join().unwrap();
    }
}
