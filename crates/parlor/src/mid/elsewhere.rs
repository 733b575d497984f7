//! Thinking elsewhere: where the front end's thread must not block (a browser page), the play screen hands the
//! computer's thinking to another worker as data, since a closure cannot cross to it. (A service the front end
//! installs, like [`crate::host`]'s, kept here in the mid end because its requests speak of games.)
//!
//! A [`Request`] names the game, its parameters (the JSON a saved game keeps), its seed, the moves so far in the
//! game's own notation and why the computer is asked; the worker rebuilds the position by replaying the moves
//! ([`think_for`]) and answers with the move in notation (or none). The play screen asks through the installed
//! [`Elsewhere`] ([`install_elsewhere`]); with none installed (the terminal, tests) it thinks through a
//! [`crate::mid::jobs::Job`] as before.

use crate::mid::error::Error;
use crate::mid::game::{Game, Purpose};
use crate::mid::jobs::Poll;
use crate::mid::session::rebuild;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One request to think, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Tells the answers apart: a screen takes only the answer to its own latest request.
    pub id: u64,
    /// The game's id ([`Game::ID`]).
    pub game: String,
    /// Its parameters, as a saved game keeps them ([`Game::params_to_json`]).
    pub options: String,
    /// Its seed.
    pub seed: u64,
    /// The moves so far, in the game's notation, separated by spaces (as a saved game keeps them).
    pub moves: String,
    /// Why the computer is asked.
    pub purpose: Purpose,
    /// Watch mode's least time a move takes, in milliseconds (none outside watch mode).
    pub pace_ms: Option<u64>,
}

/// A purpose's name in a request.
fn purpose_name(purpose: Purpose) -> &'static str {
    match purpose {
        Purpose::Hint => "hint",
        Purpose::Opponent => "opponent",
        Purpose::Autoplay => "autoplay",
    }
}

impl Request {
    /// The request as one JSON text (what crosses to the worker).
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "id": self.id, "game": self.game, "options": self.options, "seed": self.seed,
            "moves": self.moves, "purpose": purpose_name(self.purpose), "pace_ms": self.pace_ms,
        })
        .to_string()
    }

    /// A request read back from [`Request::to_json`]; anything missing or damaged is an error that says what.
    pub fn from_json(text: &str) -> Result<Request, Error> {
        let bad = |what: &str| Error::Record(format!("a think request without a readable {what}"));
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::Record(format!("a think request: {e}")))?;
        let text_of = |key: &str| v[key].as_str().map(str::to_string).ok_or_else(|| bad(key));
        let purpose = match v["purpose"].as_str() {
            Some("hint") => Purpose::Hint,
            Some("opponent") => Purpose::Opponent,
            Some("autoplay") => Purpose::Autoplay,
            _ => return Err(bad("purpose")),
        };
        Ok(Request {
            id: v["id"].as_u64().ok_or_else(|| bad("id"))?,
            game: text_of("game")?,
            options: text_of("options")?,
            seed: v["seed"].as_u64().ok_or_else(|| bad("seed"))?,
            moves: text_of("moves")?,
            purpose,
            pace_ms: v["pace_ms"].as_u64(),
        })
    }
}

/// What the worker thought: the move in notation (none: the computer found no move) and, for a hint, its words as
/// the worker says them (from the worker's tables and trees, which the page may not hold: a Nocca hint's exact
/// value, a Mastermind hint said to be optimal).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// The move in the game's notation.
    pub mv: Option<String>,
    /// A hint's words, when the worker gave them; with no move, why there is none.
    pub words: Option<String>,
}

/// The answer to a request: what was thought, or why it could not think.
pub type Answer = Result<Thought, String>;

/// The answer as one JSON text (what crosses back from the worker).
pub fn answer_to_json(id: u64, answer: &Answer) -> String {
    match answer {
        Ok(t) => serde_json::json!({ "id": id, "move": t.mv, "words": t.words }),
        Err(why) => serde_json::json!({ "id": id, "error": why }),
    }
    .to_string()
}

/// An answer read back from [`answer_to_json`], with its request's id; `None` if unreadable.
pub fn answer_from_json(text: &str) -> Option<(u64, Answer)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let id = v["id"].as_u64()?;
    if let Some(why) = v["error"].as_str() {
        return Some((id, Err(why.to_string())));
    }
    let text = |key: &str| v[key].as_str().map(str::to_string);
    Some((
        id,
        Ok(Thought {
            mv: text("move"),
            words: text("words"),
        }),
    ))
}

/// Game `G`'s answer to `request`: the position rebuilt by replaying its moves, then [`Game::think`] with a new
/// thinker over `context` (kept by the worker across requests, so that tables are built once). `pace` sets watch
/// mode's pace on the thinker when the request has one; a hint's words are `say`'s (the screen's own wording, over
/// the worker's context); no move comes with [`Game::why_no_move`] over the worker's context (which holds the tables
/// the page's may not).
pub fn think_for<G: Game>(
    request: &Request,
    context: &G::Context,
    pace: impl FnOnce(&mut G::Thinker, u64),
    say: impl FnOnce(&G::Context, &G::State, &G::Move) -> String,
) -> Result<Thought, Error> {
    let rebuilt = rebuild::<G>(
        &request.game,
        &request.options,
        request.seed,
        &request.moves,
    )?;
    let mut thinker = G::thinker(&rebuilt.params, context);
    if let Some(ms) = request.pace_ms {
        pace(&mut thinker, ms);
    }
    let stop = AtomicBool::new(false);
    let mv = G::think(&mut thinker, &rebuilt.state, request.purpose, &stop);
    let words = match (&mv, request.purpose) {
        (Some(m), Purpose::Hint) => Some(say(context, &rebuilt.state, m)),
        (Some(_), _) => None,
        (None, _) => Some(G::why_no_move(context, &rebuilt.state)),
    };
    Ok(Thought {
        mv: mv.map(|m| m.to_string()),
        words,
    })
}

/// Somewhere else to think: a browser's Web Worker.
pub trait Elsewhere: Send + Sync {
    /// Sends `request`; `false` if it could not be sent (the screen then thinks itself).
    fn ask(&self, request: &Request) -> bool;
    /// The answer to request `id` once it has come (given once), else `None`.
    fn answer(&self, id: u64) -> Option<Answer>;
    /// Request `id` is no longer wanted (the player undid, left or started anew): its answer is thrown away.
    fn forget(&self, id: u64);
    /// Asks for the data kept elsewhere under `key` (a Nocca board's table, `nocca-4x4.table`: the worker reads,
    /// or solves, what the page must not solve on its own thread); it comes back through [`give`]. `false` if it
    /// could not be asked (the default: nothing is kept elsewhere).
    fn fetch(&self, key: &str) -> bool {
        let _ = key;
        false
    }
}

/// What came back for a key asked with [`Elsewhere::fetch`]: the bytes, or why there are none.
pub type Given = Result<Vec<u8>, String>;

/// What came back for each key asked with [`Elsewhere::fetch`] and not yet taken.
static GIVEN: std::sync::Mutex<Vec<(String, Given)>> = std::sync::Mutex::new(Vec::new());

/// Asks the installed place elsewhere for the data kept under `key` ([`Elsewhere::fetch`]); `false` if there is
/// none or it could not be asked.
pub fn fetch(key: &str) -> bool {
    elsewhere().is_some_and(|e| e.fetch(key))
}

/// The front end hands over what came for `key` (the bytes, or why there are none): kept until [`take_given`].
pub fn give(key: &str, given: Given) {
    let mut g = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    g.retain(|(k, _)| k != key);
    g.push((key.to_string(), given));
}

/// What came for `key`, once (then it is forgotten here); `None` while nothing has come.
pub fn take_given(key: &str) -> Option<Given> {
    let mut g = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    let at = g.iter().position(|(k, _)| k == key)?;
    Some(g.swap_remove(at).1)
}

/// How far each build done elsewhere has got, by key (`nocca-4x4.table` → `ply 7, 40%`), as the front end last
/// heard it from its builder (a browser's builder worker solving a board's table).
static PROGRESS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The front end heard how far the build of `key` has got (`ply 7, 40%`); an empty `text` says the build is over
/// (done or failed): nothing more is said of it.
pub fn set_progress(key: &str, text: &str) {
    let mut p = PROGRESS.lock().unwrap_or_else(|e| e.into_inner());
    p.retain(|(k, _)| k != key);
    if !text.is_empty() {
        p.push((key.to_string(), text.to_string()));
    }
}

/// How far the build of `key` done elsewhere has got, if one is under way and has said so.
pub fn progress(key: &str) -> Option<String> {
    let p = PROGRESS.lock().unwrap_or_else(|e| e.into_inner());
    p.iter().find(|(k, _)| k == key).map(|(_, t)| t.clone())
}

static ELSEWHERE: OnceLock<&'static dyn Elsewhere> = OnceLock::new();

/// Installs somewhere else to think, once, before the first game starts; `false` if one was already installed.
pub fn install_elsewhere(elsewhere: &'static dyn Elsewhere) -> bool {
    ELSEWHERE.set(elsewhere).is_ok()
}

/// The installed place to think elsewhere, if any (none in the terminal).
pub fn elsewhere() -> Option<&'static dyn Elsewhere> {
    ELSEWHERE.get().copied()
}

/// A request sent elsewhere, waiting for its answer; dropping it forgets the request.
pub struct Asked {
    id: u64,
    by: &'static dyn Elsewhere,
}

impl Asked {
    /// Sends `request` (its id replaced by a fresh one) to `by`; `None` if it could not be sent.
    pub fn send(by: &'static dyn Elsewhere, mut request: Request) -> Option<Asked> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        request.id = NEXT.fetch_add(1, Ordering::Relaxed);
        by.ask(&request).then_some(Asked { id: request.id, by })
    }

    /// The answer once it has come.
    pub fn poll(&self) -> Poll<Answer> {
        match self.by.answer(self.id) {
            Some(answer) => Poll::Done(answer),
            None => Poll::Running,
        }
    }
}

impl Drop for Asked {
    fn drop(&mut self) {
        self.by.forget(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(moves: &str, purpose: Purpose) -> Request {
        Request {
            id: 7,
            game: "a-game".into(),
            options: "{\"board\":\"3x3\",\"level\":\"perfect\"}".into(),
            seed: 3,
            moves: moves.into(),
            purpose,
            pace_ms: Some(250),
        }
    }

    #[test]
    fn a_request_and_its_answers_cross_as_json_unchanged() {
        for purpose in [Purpose::Hint, Purpose::Opponent, Purpose::Autoplay] {
            let r = request("a1b2 c3", purpose);
            assert_eq!(Request::from_json(&r.to_json()).unwrap(), r);
        }
        let mut r = request("", Purpose::Hint);
        r.pace_ms = None;
        assert_eq!(Request::from_json(&r.to_json()).unwrap(), r);
        assert!(Request::from_json("{\"id\":1}").is_err());
        assert!(Request::from_json("not json").is_err());
        let thought = |mv: Option<&str>, words: Option<&str>| {
            Ok(Thought {
                mv: mv.map(str::to_string),
                words: words.map(str::to_string),
            })
        };
        for answer in [
            thought(Some("a1b2"), None),
            thought(
                Some("a1b2"),
                Some("b1 → b2 · Black to move: win in 7 (exact)"),
            ),
            thought(None, None),
            Err("bad".to_string()),
        ] {
            assert_eq!(
                answer_from_json(&answer_to_json(9, &answer)),
                Some((9, answer))
            );
        }
        assert_eq!(answer_from_json("[]"), None);
    }

    #[test]
    fn what_is_given_for_a_key_is_taken_once_and_the_latest_wins() {
        let key = "test-given-once.table";
        assert_eq!(take_given(key), None);
        give(key, Err("not yet".into()));
        give(key, Ok(vec![1, 2, 3]));
        give("test-given-other.table", Ok(vec![9]));
        assert_eq!(take_given(key), Some(Ok(vec![1, 2, 3])));
        assert_eq!(take_given(key), None);
        assert_eq!(take_given("test-given-other.table"), Some(Ok(vec![9])));
    }

    #[test]
    fn a_builds_progress_is_the_latest_heard_until_it_is_over() {
        let key = "test-progress.table";
        assert_eq!(progress(key), None);
        set_progress(key, "ply 3, 10%");
        set_progress(key, "ply 4, 20%");
        set_progress("test-progress-other.table", "ply 1, 0%");
        assert_eq!(progress(key).as_deref(), Some("ply 4, 20%"));
        set_progress(key, "");
        assert_eq!(progress(key), None);
        assert_eq!(
            progress("test-progress-other.table").as_deref(),
            Some("ply 1, 0%")
        );
    }
}
