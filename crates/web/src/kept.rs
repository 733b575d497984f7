//! The entry points (wasm32 only) for what the worker keeps and builds besides its answers (issue 27): Nocca's
//! tables and Mastermind's trees made by a second worker that the page owns, the builder, so that a think stopped
//! by ending the thinking worker loses no solve; and Nocca's tables handed to the page for its value overlay. The
//! logic is [`crate::think`]'s (plain Rust, tested natively); `worker.js` and `index.html` call these.

use wasm_bindgen::prelude::*;

/// In the thinking worker, after an answer: the key of a table or tree the answers need and nobody makes yet
/// (`nocca-4x4.table`, `bulls-cows-optimal.pmt`), or `null`; `worker.js` asks the page, which gives it to its
/// builder worker.
#[wasm_bindgen(js_name = parlorWorkerWanted)]
pub fn parlor_worker_wanted() -> Option<String> {
    crate::think::wanted()
}

/// In the thinking worker, before answering `request`: the key of the table its move must wait for (Nocca's
/// perfect level on a board whose table the builder is solving), or `""` to answer at once.
#[wasm_bindgen(js_name = parlorWorkerWaits)]
pub fn parlor_worker_waits(request: &str) -> String {
    crate::page::worker_started();
    crate::think::waits_for(request).unwrap_or_default()
}

/// In the builder worker: the table or tree `key` names, made (the 4x4 table: tens of seconds; Bulls and Cows'
/// optimal tree: minutes), as its file's bytes; a table's solve calls `progress` with how far it has got
/// (`ply 7, 40%`) each time that changes. Throws why it could not be made.
#[wasm_bindgen(js_name = parlorBuild)]
pub fn parlor_build(key: &str, progress: &js_sys::Function) -> Result<Vec<u8>, JsValue> {
    crate::page::worker_started();
    crate::think::build(key, &mut |text| {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_str(text));
    })
    .map_err(|e| JsValue::from_str(&e))
}

/// On the page and in the thinking worker: how far the builder's solve of `key` has got (`ply 7, 40%`), for the
/// status line and the hints; `""` once it is over.
#[wasm_bindgen(js_name = parlorBuildProgress)]
pub fn parlor_build_progress(key: &str, text: &str) {
    parlor::mid::elsewhere::set_progress(key, text);
}

/// In the thinking worker: its builder could not make the table or tree of `key` (`why`).
#[wasm_bindgen(js_name = parlorWorkerBuildFailed)]
pub fn parlor_worker_build_failed(key: &str, why: &str) {
    crate::think::build_failed(key, why);
}

/// In the thinking worker: what the page asks under `key` for its value overlay (a Nocca board's table), as bytes;
/// `undefined` while the builder solves it (the worker gives it when it comes); throws why there are none.
#[wasm_bindgen(js_name = parlorWorkerFetch)]
pub fn parlor_worker_fetch(key: &str) -> Result<Option<Vec<u8>>, JsValue> {
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
