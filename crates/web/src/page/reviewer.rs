//! The page's reviewer worker (wasm32 only): the reviews and puzzles' judgements ([`crate::coach`], plain Rust,
//! tested natively) sent to it through `window.parlorAskReviewer` (`index.html`), its progress and answers taken
//! back, and the worker's own entry point (`worker.js?role=reviewer`).

use wasm_bindgen::prelude::*;

/// Hands an ask (its JSON) to the reviewer worker through `window.parlorAskReviewer`; `false` if the page has none.
pub(super) fn send(text: &str) -> bool {
    super::page_fn("parlorAskReviewer")
        .and_then(|f| f.call1(&JsValue::NULL, &JsValue::from_str(text)).ok())
        .and_then(|v| v.as_bool())
        == Some(true)
}

/// Whether the page can hand asks to a reviewer worker.
pub(super) fn available() -> bool {
    super::page_fn("parlorAskReviewer").is_some()
}

/// On the page: how far the review asked as `id` has come (`done` moves of `of`), as the reviewer posts it.
#[wasm_bindgen(js_name = parlorReviewProgress)]
pub fn parlor_review_progress(id: f64, done: f64, of: f64) {
    crate::coach::progress(id as u64, done as usize, of as usize);
}

/// On the page: the reviewer's answer (its JSON).
#[wasm_bindgen(js_name = parlorReviewAnswered)]
pub fn parlor_review_answered(text: &str) {
    crate::coach::answered(text);
}

/// On the page: the reviewer worker failed (`why`): every ask waiting is answered with it.
#[wasm_bindgen(js_name = parlorReviewerFailed)]
pub fn parlor_reviewer_failed(why: &str) {
    crate::coach::failed(why);
}

/// In the reviewer worker: the answer to one ask (both as JSON), `progress(done, of)` called each move reviewed.
#[wasm_bindgen(js_name = parlorReviewerAnswer)]
pub fn parlor_reviewer_answer(text: &str, progress: &js_sys::Function) -> String {
    super::worker_started();
    crate::coach::answer(text, &mut |done, of| {
        let _ = progress.call2(
            &JsValue::NULL,
            &JsValue::from_f64(done as f64),
            &JsValue::from_f64(of as f64),
        );
    })
}
