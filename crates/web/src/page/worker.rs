//! The page's Web Worker (wasm32 only): the requests the page sends it and their answers ([`Elsewhere`]), and the
//! worker's own entry points (its host, its answers, the tables kept for it).

use super::host::{WebEntropy, WorkerClock, console_error_panic_hook};
use parlor::host::{Host, RunNow};
use parlor::mid::elsewhere::{Answer, Elsewhere, Request, answer_from_json};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The requests sent to the page's worker and not yet answered or forgotten, and the answers come.
#[derive(Default)]
struct Sent {
    waiting: HashSet<u64>,
    answers: HashMap<u64, Answer>,
}

static SENT: Mutex<Option<Sent>> = Mutex::new(None);

/// `f` over the requests sent to the worker.
fn with_sent<T>(f: impl FnOnce(&mut Sent) -> T) -> T {
    let mut guard = SENT.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Sent::default))
}

/// The page's Web Worker (`worker.js`, the same wasm module), reached through `window.parlorAskWorker`, which
/// `index.html` defines; its answers come back through [`parlor_answered`]. A request forgotten before its answer
/// is passed to `window.parlorForgetWorker`, which drops it from the page's queue or, when the worker is thinking
/// about it, ends that worker and starts a fresh one (a think cannot be stopped otherwise).
pub(super) struct WebWorker;

/// `window.parlorAskWorker`, if the page defines it.
pub(super) fn ask_worker_fn() -> Option<js_sys::Function> {
    page_fn("parlorAskWorker")
}

/// The function `window[name]`, if the page defines it.
pub(crate) fn page_fn(name: &str) -> Option<js_sys::Function> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &JsValue::from_str(name))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()
}

impl Elsewhere for WebWorker {
    fn ask(&self, request: &Request) -> bool {
        let sent = ask_worker_fn()
            .and_then(|f| {
                f.call2(
                    &JsValue::NULL,
                    &JsValue::from_str(&request.to_json()),
                    &JsValue::from_f64(request.id as f64),
                )
                .ok()
            })
            .and_then(|v| v.as_bool())
            == Some(true);
        if sent {
            with_sent(|s| s.waiting.insert(request.id));
        }
        sent
    }

    fn answer(&self, id: u64) -> Option<Answer> {
        with_sent(|s| s.answers.remove(&id))
    }

    fn forget(&self, id: u64) {
        let waiting = with_sent(|s| {
            s.answers.remove(&id);
            s.waiting.remove(&id)
        });
        // Still unanswered: the page takes it off the worker's queue, or ends the worker thinking about it.
        if waiting && let Some(f) = page_fn("parlorForgetWorker") {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_f64(id as f64));
        }
    }

    fn fetch(&self, key: &str) -> bool {
        crate::kept::ask(key)
    }
}

/// An answer from the worker (its JSON): kept for the screen that asked, unless it was forgotten meanwhile.
#[wasm_bindgen(js_name = parlorAnswered)]
pub fn parlor_answered(text: &str) {
    if let Some((id, answer)) = answer_from_json(text) {
        with_sent(|s| {
            if s.waiting.remove(&id) {
                s.answers.insert(id, answer);
            }
        });
    }
}

/// The worker failed (`why`): every request waiting is answered with it, and the screens think on the page.
#[wasm_bindgen(js_name = parlorWorkerFailed)]
pub fn parlor_worker_failed(why: &str) {
    with_sent(|s| {
        for id in std::mem::take(&mut s.waiting) {
            s.answers.insert(id, Err(why.to_string()));
        }
    });
    crate::kept::worker_failed(why);
}

/// In the worker, once: the host (clock, entropy, runner) of the worker's thread.
pub(crate) fn worker_started() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        console_error_panic_hook();
        parlor::host::install(Host {
            clock: &WorkerClock,
            entropy: &WebEntropy,
            runner: &RunNow,
        });
    });
}

/// In the worker: the answer to one think request, both as JSON ([`crate::think::answer`]).
#[wasm_bindgen(js_name = parlorWorkerAnswer)]
pub fn parlor_worker_answer(request: &str) -> String {
    worker_started();
    crate::think::answer(request)
}

/// In the worker, at its start: one entry kept in IndexedDB (`worker.js` reads them), taken as the worker's table
/// ([`crate::think::take_kept`]). Returns `""` when taken, else why it was refused (the worker deletes it).
#[wasm_bindgen(js_name = parlorWorkerKept)]
pub fn parlor_worker_kept(key: &str, bytes: &[u8]) -> String {
    worker_started();
    crate::think::take_kept(key, bytes)
        .err()
        .unwrap_or_default()
}
