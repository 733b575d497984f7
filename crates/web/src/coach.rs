//! The coach on the page: a finished game's review ([`parlor::mid::coach`]) and the judgement of a puzzle's move
//! ([`parlor::mid::puzzle`]), made off the page's thread by the page's reviewer worker (`worker.js?role=reviewer`,
//! the same wasm), which reaches the games only through the registry ([`parlor::registry::find`],
//! [`parlor::mid::AnyGame::review`] and [`parlor::mid::AnyGame::judge`]).
//!
//! The page sends an [`Ask`] as JSON ([`ask_json`]) and gets back how far a review has come (the worker posts
//! `{reviewing: {id, done, of}}`, handed to [`progress`]) and the answer ([`answer`] in the worker, [`answered`] on
//! the page). The faces see a review as the core's [`Coach`] (made by [`review`], kept with the game by
//! [`Coach::poll`]) and a judgement as a [`Job`] ([`judge`]). Where there is no reviewer worker (`?worker=0`, an
//! old browser, the native tests) the work is done at once, here. Plain Rust: the native tests check both sides.

use parlor::mid::coach::{Coach, Progress, make};
use parlor::mid::jobs::{Hand, Job};
use parlor::mid::review::{Review, Reviewed};
use parlor::mid::{AnyGame, Contexts};
use parlor::storage::{GameRecord, Storage};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// What the page asks its reviewer.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// The review of a finished game.
    Review(GameRecord),
    /// The judgement of move `mv` tried after the first `before` moves of a finished game (a puzzle's answer).
    Judge {
        /// The finished game.
        record: GameRecord,
        /// How many of its moves were played before the position.
        before: usize,
        /// The move tried, in the game's notation.
        mv: String,
    },
}

/// The ask as one JSON text, with its id (what crosses to the reviewer worker).
pub fn ask_json(id: u64, ask: &Ask) -> String {
    match ask {
        Ask::Review(record) => json!({ "id": id, "review": record }),
        Ask::Judge { record, before, mv } => {
            json!({ "id": id, "judge": { "record": record, "before": before, "move": mv } })
        }
    }
    .to_string()
}

/// An ask read back from [`ask_json`], with its id; why not, when it does not read.
pub fn ask_from_json(text: &str) -> Result<(u64, Ask), String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("a review request: {e}"))?;
    let id = v["id"]
        .as_u64()
        .ok_or("a review request without a readable id")?;
    let record = |v: &Value| {
        serde_json::from_value::<GameRecord>(v.clone())
            .map_err(|e| format!("a review request's game: {e}"))
    };
    if !v["review"].is_null() {
        return Ok((id, Ask::Review(record(&v["review"])?)));
    }
    let j = &v["judge"];
    let before = j["before"]
        .as_u64()
        .and_then(|b| usize::try_from(b).ok())
        .ok_or("a judge request without a readable position")?;
    let mv = j["move"]
        .as_str()
        .ok_or("a judge request without a readable move")?
        .to_string();
    Ok((
        id,
        Ask::Judge {
            record: record(&j["record"])?,
            before,
            mv,
        },
    ))
}

/// What came back for an ask.
#[derive(Clone, Debug, PartialEq)]
pub enum Answered {
    /// A review, or why there is none.
    Review(Result<Review, String>),
    /// A judged move, or why it could not be judged.
    Judged(Result<Reviewed, String>),
}

thread_local! {
    /// Every game's context for the reviews made here (in the reviewer worker, or on the page without one): its
    /// own, not told to leave anything to a builder, so that a review needing a small board's table solves it here.
    static CONTEXTS: Contexts = Contexts::new(&parlor::registry::any(), None);
}

/// The game an ask names, through the registry.
fn game_of(record: &GameRecord) -> Result<&'static dyn AnyGame, String> {
    parlor::registry::find(&record.game)
        .map(|g| g as &dyn AnyGame)
        .ok_or_else(|| format!("this page cannot review a game of {}", record.game))
}

/// The work an ask names, done here; a review tells `progress` each move reviewed.
pub fn work(ask: &Ask, progress: &mut dyn FnMut(usize, usize)) -> Answered {
    match ask {
        Ask::Review(record) => Answered::Review(
            game_of(record).and_then(|g| CONTEXTS.with(|c| make(g, record, c, progress))),
        ),
        Ask::Judge { record, before, mv } => Answered::Judged(game_of(record).and_then(|g| {
            match CONTEXTS.with(|c| g.judge(record, *before, mv, c)) {
                Some(Ok(judged)) => Ok(judged),
                Some(Err(e)) => Err(format!("{mv} cannot be judged: {e}")),
                None => Err(format!("{} games have no reviewer", g.title())),
            }
        })),
    }
}

/// The answer to an ask as one JSON text (what crosses back from the reviewer worker).
pub fn answer_json(id: u64, answered: &Answered) -> String {
    match answered {
        Answered::Review(Ok(r)) => json!({ "id": id, "review": r }),
        Answered::Judged(Ok(j)) => json!({ "id": id, "judged": j }),
        Answered::Review(Err(why)) => json!({ "id": id, "error": why, "kind": "review" }),
        Answered::Judged(Err(why)) => json!({ "id": id, "error": why, "kind": "judge" }),
    }
    .to_string()
}

/// An answer read back from [`answer_json`], with its ask's id; `None` if it does not read.
pub fn answer_from_json(text: &str) -> Option<(u64, Answered)> {
    let v: Value = serde_json::from_str(text).ok()?;
    let id = v["id"].as_u64()?;
    if let Some(why) = v["error"].as_str() {
        let why = why.to_string();
        return Some((
            id,
            match v["kind"].as_str() {
                Some("judge") => Answered::Judged(Err(why)),
                _ => Answered::Review(Err(why)),
            },
        ));
    }
    if !v["review"].is_null() {
        let r = serde_json::from_value::<Review>(v["review"].clone())
            .map_err(|e| format!("the review did not read: {e}"));
        return Some((id, Answered::Review(r)));
    }
    let j = serde_json::from_value::<Reviewed>(v["judged"].clone())
        .map_err(|e| format!("the judgement did not read: {e}"));
    Some((id, Answered::Judged(j)))
}

/// In the reviewer worker: the answer to one ask (both as JSON), `progress(done, of)` told each move reviewed.
pub fn answer(text: &str, progress: &mut dyn FnMut(usize, usize)) -> String {
    match ask_from_json(text) {
        Ok((id, ask)) => answer_json(id, &work(&ask, progress)),
        Err(why) => answer_json(0, &Answered::Review(Err(why))),
    }
}

/// How the page hands an ask (its JSON) to its reviewer worker; `false` when it could not.
pub type Send = fn(&str) -> bool;

static SEND: OnceLock<Send> = OnceLock::new();

/// Installs the page's way to its reviewer worker, once; without one the work is done at once, here.
pub fn install(send: Send) -> bool {
    SEND.set(send).is_ok()
}

/// An ask sent and waiting for its answer.
enum Waiting {
    Review(Arc<Progress>, Hand<Result<Review, String>>),
    Judge(Hand<Result<Reviewed, String>>),
}

thread_local! {
    static WAITING: RefCell<Vec<(u64, Waiting)>> = const { RefCell::new(Vec::new()) };
    static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// Sends `ask` to the reviewer worker; its id when it was sent.
fn send(ask: &Ask) -> Option<u64> {
    let send = SEND.get()?;
    let id = NEXT.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    send(&ask_json(id, ask)).then_some(id)
}

/// The review of `record`, a finished game of `game`, as a face shows it: the one kept in `store`, else made by
/// the reviewer worker (at once, here, without one); [`Coach::poll`] collects it and keeps it with the game.
pub fn review(game: &dyn AnyGame, record: &GameRecord, store: &dyn Storage) -> Coach {
    Coach::start_with(game, record, store, |told| {
        let (job, hand) = Job::handed();
        let ask = Ask::Review(record.clone());
        match send(&ask) {
            Some(id) => WAITING.with(|w| w.borrow_mut().push((id, Waiting::Review(told, hand)))),
            None => {
                if let Answered::Review(r) = work(&ask, &mut |d, o| told.tell(d, o)) {
                    hand.give(r);
                }
            }
        }
        job
    })
}

/// The judgement of `mv` tried after the first `before` moves of `record` (a puzzle's answer): by the reviewer
/// worker (at once, here, without one).
pub fn judge(record: &GameRecord, before: usize, mv: &str) -> Job<Result<Reviewed, String>> {
    let (job, hand) = Job::handed();
    let ask = Ask::Judge {
        record: record.clone(),
        before,
        mv: mv.to_string(),
    };
    match send(&ask) {
        Some(id) => WAITING.with(|w| w.borrow_mut().push((id, Waiting::Judge(hand)))),
        None => {
            if let Answered::Judged(j) = work(&ask, &mut |_, _| {}) {
                hand.give(j);
            }
        }
    }
    job
}

/// On the page: how far the review asked as `id` has come, as its worker says.
pub fn progress(id: u64, done: usize, of: usize) {
    WAITING.with(|w| {
        for (i, waiting) in w.borrow().iter() {
            if *i == id
                && let Waiting::Review(told, _) = waiting
            {
                told.tell(done, of);
            }
        }
    });
}

/// On the page: the reviewer worker's answer (its JSON), handed to the screen waiting for it (dropped if none is).
pub fn answered(text: &str) {
    let Some((id, answer)) = answer_from_json(text) else {
        return;
    };
    let Some(waiting) = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        let at = w.iter().position(|(i, _)| *i == id)?;
        Some(w.swap_remove(at).1)
    }) else {
        return;
    };
    match (waiting, answer) {
        (Waiting::Review(_, hand), Answered::Review(r)) => {
            hand.give(r);
        }
        (Waiting::Judge(hand), Answered::Judged(j)) => {
            hand.give(j);
        }
        (Waiting::Review(_, hand), Answered::Judged(_)) => {
            hand.give(Err("the reviewer answered with a judgement".into()));
        }
        (Waiting::Judge(hand), Answered::Review(_)) => {
            hand.give(Err("the reviewer answered with a review".into()));
        }
    }
}

/// On the page: the reviewer worker failed (`why`): every ask waiting is answered with it.
pub fn failed(why: &str) {
    let all = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for (_, waiting) in all {
        match waiting {
            Waiting::Review(_, hand) => {
                hand.give(Err(why.to_string()));
            }
            Waiting::Judge(hand) => {
                hand.give(Err(why.to_string()));
            }
        }
    }
}

#[cfg(test)]
mod tests;
