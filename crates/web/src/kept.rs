//! The entry points (wasm32 only) for what the worker keeps and builds besides its answers (issue 27): Mastermind's
//! trees built by a second worker, the builder, and Nocca's tables handed to the page for its value overlay. The
//! logic is [`crate::think`]'s (plain Rust, tested natively); `worker.js` and `index.html` call these.

use wasm_bindgen::prelude::*;

/// In the thinking worker, after an answer: the key of a tree the answers need and nobody builds yet
/// (`bulls-cows-optimal.pmt`), or `null`; `worker.js` gives it to its builder worker.
#[wasm_bindgen(js_name = parlorWorkerWanted)]
pub fn parlor_worker_wanted() -> Option<String> {
    crate::think::wanted_tree()
}

/// In the builder worker: the tree `key` names, built (minutes for Bulls and Cows' optimal tree), as its file's
/// bytes; throws why it could not be built.
#[wasm_bindgen(js_name = parlorBuildTree)]
pub fn parlor_build_tree(key: &str) -> Result<Vec<u8>, JsValue> {
    crate::page::worker_started();
    crate::think::build_tree(key).map_err(|e| JsValue::from_str(&e))
}

/// In the thinking worker: its builder could not build the tree of `key` (`why`).
#[wasm_bindgen(js_name = parlorWorkerBuildFailed)]
pub fn parlor_worker_build_failed(key: &str, why: &str) {
    crate::think::tree_failed(key, why);
}

/// In the thinking worker: what the page asks under `key` for its value overlay (a Nocca board's table, solved
/// here if the worker does not hold it yet), as bytes; throws why there are none.
#[wasm_bindgen(js_name = parlorWorkerFetch)]
pub fn parlor_worker_fetch(key: &str) -> Result<Vec<u8>, JsValue> {
    crate::page::worker_started();
    crate::think::fetch(key).map_err(|e| JsValue::from_str(&e))
}

/// On the page: what the worker gave for `key` (the bytes, or with `why` not empty, why there are none), taken by
/// the game that asked for it ([`parlor::mid::elsewhere::give`]) at its next draw.
#[wasm_bindgen(js_name = parlorGiven)]
pub fn parlor_given(key: &str, bytes: &[u8], why: &str) {
    let given = if why.is_empty() {
        Ok(bytes.to_vec())
    } else {
        Err(why.to_string())
    };
    forget_asked(key);
    parlor::mid::elsewhere::give(key, given);
}

thread_local! {
    /// The keys the page asked of the worker and has not had yet.
    static ASKED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn forget_asked(key: &str) {
    ASKED.with(|a| a.borrow_mut().retain(|k| k != key));
}

/// On the page: asks the worker for the data under `key` through `window.parlorFetchWorker` (index.html); `false`
/// if the page has no worker.
pub(crate) fn ask(key: &str) -> bool {
    let asked = crate::page::page_fn("parlorFetchWorker")
        .and_then(|f| f.call1(&JsValue::NULL, &JsValue::from_str(key)).ok())
        .and_then(|v| v.as_bool())
        == Some(true);
    if asked {
        ASKED.with(|a| a.borrow_mut().push(key.to_string()));
    }
    asked
}

/// On the page: the worker failed (`why`), and with it every fetch still waiting, which is told so.
pub(crate) fn worker_failed(why: &str) {
    for key in ASKED.with(|a| std::mem::take(&mut *a.borrow_mut())) {
        parlor::mid::elsewhere::give(&key, Err(why.to_string()));
    }
}

thread_local! {
    /// How many times the page has drawn its screen (every key, click and tick that redraws).
    pub(crate) static DRAWS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// On the page: how many times it has drawn its screen; a test reads it (through the module,
/// `import("./parlor_web.js")`) to see a key redraw while the worker solves.
#[wasm_bindgen(js_name = parlorDraws)]
pub fn parlor_draws() -> f64 {
    DRAWS.with(|d| d.get() as f64)
}
